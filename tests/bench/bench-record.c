/* Benchmark (not a test): host cost of `adbscope record` at 1 s with all
 * collectors on the simulated device.  Prints the record process's own CPU
 * (% of one core) and peak RSS, and separately the CPU of the adb client
 * processes it keeps open.  Usage: bench-record [SECONDS]
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

static guint64
proc_ticks (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) f = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  f = g_strsplit (strrchr (text, ')') + 2, " ", -1);
  return g_ascii_strtoull (f[11], NULL, 10) + g_ascii_strtoull (f[12], NULL, 10);
}

static gint64
status_kb (int pid, const char *key)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (p = strstr (text, key)) == NULL)
    return -1;
  return g_ascii_strtoll (p + strlen (key), NULL, 10);
}

/* CPU ticks of the direct children of pid (the adb clients). */
static guint64
children_ticks (int pid)
{
  g_autoptr(GArray) kids = adbscope_test_list_descendants (pid);
  guint64 sum = 0;

  for (guint i = 0; i < kids->len; i++)
    sum += proc_ticks (g_array_index (kids, GPid, i));
  return sum;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *report = g_build_filename (g_get_tmp_dir (), "adbscope-bench-report.json", NULL);
  int seconds = argc > 1 ? atoi (argv[1]) : 60;
  long hz = sysconf (_SC_CLK_TCK);
  guint64 t0, t1, k0, k1;
  gint64 w0, w1;
  int pid;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  if (dev == NULL)
    {
      g_printerr ("cannot start the simulated device: %s\n", error->message);
      return 1;
    }
  duration = g_strdup_printf ("%ds", seconds + 4);
  rec = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("ADBSCOPE_BIN"),
                          "record", "-s", adbscope_test_device_get_serial (dev),
                          "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", duration, "-o", report, NULL);
  if (rec == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  pid = atoi (g_subprocess_get_identifier (rec));

  /* Skip start-up (probe, first samples), then measure `seconds`. */
  g_usleep (3 * G_USEC_PER_SEC);
  t0 = proc_ticks (pid);
  k0 = children_ticks (pid);
  w0 = g_get_monotonic_time ();
  g_usleep ((gulong) seconds * G_USEC_PER_SEC);
  t1 = proc_ticks (pid);
  k1 = children_ticks (pid);
  w1 = g_get_monotonic_time ();

  printf ("adbscope record, %d s at 1 s on the simulated device (pixel-14, all collectors)\n", seconds);
  printf ("record process CPU:      %.2f %% of one core\n",
          100.0 * (t1 - t0) / hz / ((w1 - w0) / 1e6));
  printf ("record process peak RSS: %.1f MB (VmHWM), now %.1f MB\n",
          status_kb (pid, "VmHWM:") / 1024.0, status_kb (pid, "VmRSS:") / 1024.0);
  printf ("adb client processes:    %.2f %% of one core (%u processes: the persistent `adb shell`s)\n",
          100.0 * (k1 - k0) / hz / ((w1 - w0) / 1e6), adbscope_test_list_descendants (pid)->len);
  g_subprocess_wait (rec, NULL, NULL);
  g_unlink (report);
  return 0;
}
