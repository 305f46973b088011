/* adbscope-sim-gpu.c: the simulated device's GPU nodes in /sys/class
 *
 * Per profile: Adreno's /sys/class/kgsl/kgsl-3d0 (gpu_busy_percentage
 * "NN %", gpubusy "busy total", gpuclk and max_gpuclk in Hz, devfreq/),
 * or a Mali devfreq node /sys/class/devfreq/N.mali (cur_freq, max_freq,
 * min_freq, available_frequencies, governor; no busy counter), or nothing.
 * They live in SANDBOX/sys/class-gpu, laid over the real /sys/class in
 * the children's mount namespace (overlayfs: sysfs has no room for new
 * directories).  Values follow the demo app's phase, written in place
 * (a renamed file would not show through the overlay).
 */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "adbscope-sim-private.h"

static const guint kgsl_hz[] = { 266000000, 400000000, 510000000, 600000000, 700000000, 845000000 };
static const guint mali_hz[] = { 151000000, 302000000, 455000000, 572000000, 670000000, 848000000 };

static void
put (const char *dir,
     const char *name,
     const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  gsize len = strlen (text);
  int fd;

  g_mkdir_with_parents (dir, 0755);
  fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (pwrite (fd, text, len, 0) == (ssize_t) len)
    (void) ftruncate (fd, (off_t) len);
  close (fd);
}

static char *
node_dir (AdbscopeSimDevice *device)
{
  if (device->profile->gpu == ADBSCOPE_SIM_GPU_KGSL)
    return g_build_filename (device->ns_class_dir, "kgsl", "kgsl-3d0", NULL);
  return g_build_filename (device->ns_class_dir, "devfreq",
                           g_str_equal (device->profile->name, "pixel-14") ? "1f000000.mali" : "13000000.mali", NULL);
}

/* Builds the nodes (when the profile has a GPU and the device uses a mount namespace). */
void
adbscope_sim_gpu_create (AdbscopeSimDevice *device)
{
  g_autofree char *dir = NULL;
  g_autoptr(GString) avail = g_string_new (NULL);
  const guint *hz;
  char buf[64];

  if (device->profile->gpu == ADBSCOPE_SIM_GPU_NONE || !device->use_namespace ||
      !g_file_test ("/sys/class", G_FILE_TEST_IS_DIR))
    return;
  device->ns_class_dir = g_build_filename (device->sandbox, "sys", "class-gpu", NULL);
  device->ns_class_opts = g_strdup_printf ("lowerdir=%s:/sys/class", device->ns_class_dir);
  dir = node_dir (device);
  hz = device->profile->gpu == ADBSCOPE_SIM_GPU_KGSL ? kgsl_hz : mali_hz;
  for (guint i = 0; i < G_N_ELEMENTS (kgsl_hz); i++)
    g_string_append_printf (avail, "%u ", hz[i]);
  g_string_append_c (avail, '\n');
  if (device->profile->gpu == ADBSCOPE_SIM_GPU_KGSL)
    {
      g_autofree char *df = g_build_filename (dir, "devfreq", NULL);

      g_snprintf (buf, sizeof buf, "%u\n", hz[G_N_ELEMENTS (kgsl_hz) - 1]);
      put (dir, "max_gpuclk", buf);
      put (dir, "gpu_model", "Adreno610v2\n");
      put (df, "available_frequencies", avail->str);
      put (df, "governor", "msm-adreno-tz\n");
    }
  else
    {
      g_snprintf (buf, sizeof buf, "%u\n", hz[G_N_ELEMENTS (mali_hz) - 1]);
      put (dir, "max_freq", buf);
      g_snprintf (buf, sizeof buf, "%u\n", hz[0]);
      put (dir, "min_freq", buf);
      put (dir, "available_frequencies", avail->str);
      put (dir, "governor", "simple_ondemand\n");
    }
  adbscope_sim_gpu_tick (device, 0.1);
}

/* load: 0…1, the demo app's phase. */
void
adbscope_sim_gpu_tick (AdbscopeSimDevice *device,
                       double             load)
{
  g_autofree char *dir = NULL;
  const guint *hz;
  double busy;
  int level;
  char buf[64];

  if (device->ns_class_dir == NULL)
    return;
  dir = node_dir (device);
  /* Two digits, so every write has the same length: pwrite replaces the
   * old value whole and a reader never sees half of each. */
  busy = CLAMP (load * 80.0 + g_random_double_range (-4.0, 4.0), 10.0, 99.0);
  level = CLAMP ((int) (busy / 100.0 * G_N_ELEMENTS (kgsl_hz)), 0, (int) G_N_ELEMENTS (kgsl_hz) - 1);
  if (device->profile->gpu == ADBSCOPE_SIM_GPU_KGSL)
    {
      g_autofree char *df = g_build_filename (dir, "devfreq", NULL);

      hz = kgsl_hz;
      g_snprintf (buf, sizeof buf, "%d %%\n", (int) busy);
      put (dir, "gpu_busy_percentage", buf);
      /* kgsl's window: busy and total time in µs */
      g_snprintf (buf, sizeof buf, "%8d %8d\n", (int) (busy * 1000), 100000);
      put (dir, "gpubusy", buf);
      g_snprintf (buf, sizeof buf, "%u\n", hz[level]);
      put (dir, "gpuclk", buf);
      put (df, "cur_freq", buf);
    }
  else
    {
      hz = mali_hz;
      g_snprintf (buf, sizeof buf, "%u\n", hz[level]);
      put (dir, "cur_freq", buf);
    }
}
