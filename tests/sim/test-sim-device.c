/* test-sim-device.c: profiles, fake tools and the demo app, through adb
 *
 * Real adb and a private adb server; every check goes through `adb shell`
 * as a collector would.
 */
#include "config.h"

#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib.h>

#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"

#define DEMO "io.github.adbscope.demo"

typedef struct
{
  const char *name;
  const char *sdk;
  const char *model;
  const char *model_l;   /* as `adb devices -l` writes it */
  int         refresh_hz;
  int         page_size;
  gboolean    psi;
  gboolean    cpufreq;
  gboolean    thermal;
} Expect;

static const Expect profiles[] = {
  { "pixel-14", "34", "Pixel 8", "model:Pixel_8", 120, 4096, TRUE, TRUE, TRUE },
  { "legacy-8", "26", "SM-G950F", "model:SM_G950F", 60, 4096, FALSE, FALSE, FALSE },
  { "tablet-13", "33", "Lenovo TB370FU", "model:Lenovo_TB370FU", 90, 16384, TRUE, TRUE, TRUE },
};

static char *
sh (AdbscopeTestDevice *dev,
    int                *status,
    const char         *command)
{
  int rc = 0;
  char *out = adbscope_test_device_adb (dev, &rc, "shell", command, NULL);

  if (status != NULL)
    *status = rc;
  return out;
}

static gint64
total_frames (const char *text)
{
  const char *p = strstr (text, "Total frames rendered: ");

  g_assert_nonnull (p);
  return g_ascii_strtoll (p + strlen ("Total frames rendered: "), NULL, 10);
}

/* The number on the last line of @text (the second `cat /proc/uptime`). */
static double
last_line_number (char *text)
{
  const char *nl;

  g_strchomp (text);
  nl = strrchr (text, '\n');
  g_assert_nonnull (nl);
  return g_ascii_strtod (nl + 1, NULL);
}

/* The app's frame rate over @seconds, bracketed: each read takes the
 * device's uptime before and after the frame counter, so the counter's
 * moment lies between the two whatever a loaded host does to the round
 * trip.  *lo and *hi are the slowest and fastest rates those moments
 * allow. */
static void
measure_fps (AdbscopeTestDevice *dev,
             double              seconds,
             double             *lo,
             double             *hi)
{
  const char *cmd = "cat /proc/uptime; dumpsys gfxinfo " DEMO "; cat /proc/uptime";
  g_autofree char *a = sh (dev, NULL, cmd);
  g_autofree char *b = NULL;
  double a0, a1, b0, b1;
  gint64 frames;

  /* The window measured: what the test is about, not a wait for something. */
  g_usleep ((gulong) (seconds * G_USEC_PER_SEC));
  b = sh (dev, NULL, cmd);
  a0 = g_ascii_strtod (a, NULL);
  a1 = last_line_number (a);
  b0 = g_ascii_strtod (b, NULL);
  b1 = last_line_number (b);
  g_assert_cmpfloat (b0 - a1, >, seconds * 0.9);
  frames = total_frames (b) - total_frames (a);
  *lo = frames / (b1 - a0);
  *hi = frames / (b0 - a1);
}

static void
test_profile (gconstpointer data)
{
  const Expect *e = data;
  const char * const none[] = { NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sdk = NULL;
  g_autofree char *model = NULL;
  g_autofree char *page = NULL;
  g_autofree char *psi = NULL;
  g_autofree char *freq = NULL;
  g_autofree char *thermal = NULL;
  g_autofree char *devices = NULL;
  g_autofree char *pagesize_prop = NULL;
  const char *argv[] = { adbscope_test_adb_path (), "devices", "-l", NULL };
  double fps_lo = 0, fps_hi = 0;
  int status;

  dev = adbscope_test_device_start (e->name, none, &error);
  if (adbscope_test_device_skip_if_unsupported (error))
    return;
  g_assert_no_error (error);

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &devices, NULL, NULL, NULL));
  g_assert_nonnull (strstr (devices, e->model_l));

  sdk = sh (dev, NULL, "getprop ro.build.version.sdk");
  g_assert_cmpstr (g_strstrip (sdk), ==, e->sdk);
  model = sh (dev, NULL, "getprop ro.product.model");
  g_assert_cmpstr (g_strstrip (model), ==, e->model);
  page = sh (dev, NULL, "getconf PAGE_SIZE");
  g_assert_cmpint (atoi (page), ==, e->page_size);
  pagesize_prop = sh (dev, NULL, "getprop ro.product.cpu.pagesize.max");
  g_assert_cmpint (atoi (pagesize_prop), ==, e->page_size);

  thermal = sh (dev, NULL, "service check thermalservice");
  g_assert_cmpstr (thermal, ==, e->thermal ? "Service thermalservice: found\n"
                                           : "Service thermalservice: not found\n");

  if (geteuid () == 0)
    {
      /* The profile's /proc/pressure and cpufreq, in the device's mount namespace. */
      psi = sh (dev, &status, "cat /proc/pressure/cpu");
      if (e->psi)
        {
          g_assert_cmpint (status, ==, 0);
          g_assert_true (g_str_has_prefix (psi, "some avg10="));
        }
      else
        g_assert_cmpint (status, !=, 0);

      freq = sh (dev, &status, "cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq "
                               "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq");
      if (e->cpufreq)
        {
          g_autofree char *clusters = NULL;
          g_auto(GStrv) lines = NULL;
          int n_cpus = (int) g_get_num_processors ();

          g_assert_cmpint (status, ==, 0);
          g_assert_cmpint (atoi (freq), >, 1000000);
          clusters = sh (dev, &status, "cat /sys/devices/system/cpu/cpufreq/policy*/related_cpus");
          g_assert_cmpint (status, ==, 0);
          lines = g_strsplit (g_strstrip (clusters), "\n", -1);
          /* 3 clusters where the host has 3+ CPUs, else one per CPU */
          g_assert_cmpuint (g_strv_length (lines), ==, n_cpus >= 3 ? 3 : (guint) n_cpus);
        }
      else
        g_assert_cmpint (status, !=, 0);
    }
  else
    g_test_message ("not root: PSI/cpufreq presentation not checked");

  /* The demo app draws at the profile's refresh rate: the bracket holds a
   * rate within 5 % of it.  A loaded host can starve the app of a frame
   * or two (it then really drew fewer): up to three tries for one without. */
  for (int i = 0; i < 3; i++)
    {
      measure_fps (dev, 2.0, &fps_lo, &fps_hi);
      g_test_message ("%s: %.1f–%.1f fps (profile %d Hz)", e->name, fps_lo, fps_hi, e->refresh_hz);
      if (fps_hi > e->refresh_hz * 0.95)
        break;
    }
  g_assert_cmpfloat (fps_hi, >, e->refresh_hz * 0.95);
  g_assert_cmpfloat (fps_lo, <, e->refresh_hz * 1.05);
}

static gboolean
demo_not_running (gpointer data)
{
  int status;
  g_autofree char *out = sh (data, &status, "pidof " DEMO);

  return status == 1;
}

static void
test_demo_app (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *comms = NULL;
  g_autofree char *stat = NULL;
  g_autofree char *cmd = NULL;
  g_autofree char *after_stop = NULL;
  g_autofree char *start = NULL;
  g_autofree char *pid2_text = NULL;
  g_autofree char *expect_stat = NULL;
  GPid pid;
  int status;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  pid = adbscope_test_device_get_app_pid (dev, DEMO);
  g_assert_cmpint (pid, >, 0);

  pid_text = sh (dev, &status, "pidof " DEMO);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (atoi (pid_text), ==, pid);

  cmd = g_strdup_printf ("cat /proc/%d/task/*/comm", pid);
  comms = sh (dev, NULL, cmd);
  /* main thread: the package's last 15 characters, as Android names it */
  g_assert_nonnull (strstr (comms, "b.adbscope.demo\n"));
  g_assert_nonnull (strstr (comms, "RenderThread\n"));
  g_assert_nonnull (strstr (comms, "HeapTaskDaemon\n"));
  g_assert_nonnull (strstr (comms, "OkHttp Dispatch\n"));

  g_free (cmd);
  cmd = g_strdup_printf ("cat /proc/%d/stat", pid);
  stat = sh (dev, NULL, cmd);
  expect_stat = g_strdup_printf ("%d (b.adbscope.demo) ", pid);
  g_assert_true (g_str_has_prefix (stat, expect_stat));

  /* force-stop kills it; am start brings a new process */
  after_stop = sh (dev, &status, "am force-stop " DEMO "; pidof " DEMO);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (after_stop, ==, "");
  start = sh (dev, &status, "am start -n " DEMO "/.MainActivity");
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (start, "Starting: Intent { cmp=" DEMO "/.MainActivity }"));
  pid2_text = sh (dev, &status, "pidof " DEMO);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (atoi (pid2_text), >, 0);
  g_assert_cmpint (atoi (pid2_text), !=, pid);
  g_assert_cmpint (kill (pid, 0), ==, -1);

  /* control: kill-app, then monkey starts it */
  adbscope_test_device_control (dev, "kill-app " DEMO);
  {
    g_autofree char *monkey = NULL;
    g_autofree char *pid3 = NULL;

    adbscope_test_wait_until (demo_not_running, dev, 10000, "the killed demo app is gone");
    monkey = sh (dev, &status, "monkey -p " DEMO " 1");
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (monkey, "Events injected: 1"));
    pid3 = sh (dev, &status, "pidof -s " DEMO);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpint (atoi (pid3), !=, atoi (pid2_text));
  }
}

static gboolean
drew_120_frames (gpointer data)
{
  g_autofree char *out = sh (data, NULL, "dumpsys gfxinfo " DEMO);

  return strstr (out, "Total frames rendered: ") != NULL && total_frames (out) > 120;
}

static void
test_framestats_layout (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int header = -1, rows = 0;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  /* framestats holds the last 120 frames: wait until the app drew more */
  adbscope_test_wait_until (drew_120_frames, dev, 30000, "the demo app drew more than 120 frames");
  out = sh (dev, NULL, "dumpsys gfxinfo " DEMO " framestats");
  lines = g_strsplit (out, "\n", -1);
  for (int i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Flags,FrameTimelineVsyncId,IntendedVsync,"))
        header = i;
      else if (header >= 0 && g_ascii_isdigit (lines[i][0]))
        {
          g_auto(GStrv) cols = g_strsplit (lines[i], ",", -1);
          gint64 intended = g_ascii_strtoll (cols[2], NULL, 10);
          gint64 deadline = g_ascii_strtoll (cols[9], NULL, 10);
          gint64 start = g_ascii_strtoll (cols[10], NULL, 10);
          gint64 interval = g_ascii_strtoll (cols[11], NULL, 10);
          gint64 completed = g_ascii_strtoll (cols[16], NULL, 10);

          /* 23 values and the trailing comma */
          g_assert_cmpuint (g_strv_length (cols), ==, 24);
          g_assert_cmpstr (cols[23], ==, "");
          /* Android 12+ writes FrameStartTime before FrameInterval */
          g_assert_cmpint (interval, ==, 1000000000 / 120);
          g_assert_cmpint (start, >=, intended);
          g_assert_cmpint (deadline, >, intended);
          g_assert_cmpint (completed, >, start);
          rows++;
        }
      else if (header >= 0 && g_str_equal (lines[i], "---PROFILEDATA---"))
        break;
    }
  g_assert_cmpint (header, >, 0);
  g_assert_cmpint (rows, ==, 120);
}

static void
test_legacy_formats (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *gfx = NULL;
  g_autofree char *mem = NULL;
  g_autofree char *battery = NULL;

  dev = adbscope_test_device_start ("legacy-8", NULL, &error);
  if (adbscope_test_device_skip_if_unsupported (error))
    return;
  g_assert_no_error (error);
  gfx = sh (dev, NULL, "dumpsys gfxinfo " DEMO " framestats");
  g_assert_nonnull (strstr (gfx, "\nFlags,IntendedVsync,Vsync,OldestInputEvent,"));
  g_assert_null (strstr (gfx, "Janky frames (legacy)"));
  g_assert_null (strstr (gfx, "gpu percentile"));
  mem = sh (dev, NULL, "dumpsys meminfo " DEMO);
  g_assert_nonnull (strstr (mem, "\n               TOTAL: "));
  g_assert_null (strstr (mem, "TOTAL RSS"));
  battery = sh (dev, NULL, "dumpsys battery");
  g_assert_null (strstr (battery, "Dock powered"));
  g_assert_nonnull (strstr (battery, "  level: "));
}

static void
test_tools (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mem = NULL;
  g_autofree char *battery = NULL;
  g_autofree char *packages = NULL;
  g_autofree char *ps = NULL;
  g_autofree char *bucket = NULL;
  g_autofree char *wm = NULL;
  g_autofree char *path = NULL;
  g_autofree char *sys_batt = NULL;
  int status;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);

  mem = sh (dev, NULL, "dumpsys meminfo " DEMO);
  g_assert_nonnull (strstr (mem, "** MEMINFO in pid "));
  g_assert_nonnull (strstr (mem, " App Summary\n"));
  g_assert_nonnull (strstr (mem, "TOTAL PSS:"));
  g_assert_nonnull (strstr (mem, "TOTAL RSS:"));
  g_assert_nonnull (strstr (mem, "  Dalvik Heap "));

  battery = sh (dev, NULL, "dumpsys battery");
  g_assert_true (g_str_has_prefix (battery, "Current Battery Service state:\n"));
  g_assert_nonnull (strstr (battery, "  Dock powered: false\n"));
  sys_batt = sh (dev, &status, "cat /sys/class/power_supply/battery/capacity");
  if (geteuid () == 0)
    {
      g_assert_cmpint (status, ==, 0);
      g_assert_cmpint (atoi (sys_batt), >, 0);
    }

  packages = sh (dev, NULL, "pm list packages -3");
  g_assert_cmpstr (packages, ==, "package:" DEMO "\n");
  path = sh (dev, &status, "pm path " DEMO);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (path, "package:/data/app/"));

  ps = sh (dev, NULL, "ps -A -o PID,NAME");
  g_assert_true (g_str_has_prefix (ps, "  PID NAME"));
  g_assert_nonnull (strstr (ps, " " DEMO "\n"));

  bucket = sh (dev, NULL, "am get-standby-bucket " DEMO);
  g_assert_cmpstr (bucket, ==, "10\n");
  wm = sh (dev, NULL, "wm size");
  g_assert_cmpstr (wm, ==, "Physical size: 1080x2400\n");
}

static void
test_extra_app (void)
{
  const char * const extra[] = { "--app", "com.example.sleeper=sleep 600", NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *stat = NULL;
  g_autofree char *cmd = NULL;
  g_autofree char *expect = NULL;
  GPid pid;
  int status;

  dev = adbscope_test_device_start ("pixel-14", extra, &error);
  g_assert_no_error (error);
  pid = adbscope_test_device_get_app_pid (dev, "com.example.sleeper");
  g_assert_cmpint (pid, >, 0);
  pid_text = sh (dev, &status, "pidof com.example.sleeper");
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (atoi (pid_text), ==, pid);
  cmd = g_strdup_printf ("cat /proc/%d/stat", pid);
  stat = sh (dev, NULL, cmd);
  /* 19 characters: Android keeps the last 15 */
  expect = g_strdup_printf ("%d (example.sleeper) ", pid);
  g_assert_true (g_str_has_prefix (stat, expect));
}

/* Runs `adbscope sim ARGS` where the system grants no mount namespace:
 * inside a user namespace of our own whose limits allow no further mount
 * or user namespaces.  Returns the first stdout line; *skip when this
 * machine cannot even make that user namespace. */
static char *
sim_without_namespaces (const char  *profile,
                        int         *status,
                        gboolean    *skip)
{
  g_autofree char *script = g_strdup_printf (
    "echo 0 > /proc/sys/user/max_mnt_namespaces && echo 0 > /proc/sys/user/max_user_namespaces || exit 99; "
    "timeout 20 \"$0\" sim --profile %s --no-connect </dev/null | head -n 1", profile);
  const char *argv[] = { "unshare", "--user", "--map-root-user", "sh", "-c", script,
                         g_getenv ("ADBSCOPE_BIN"), NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, status, &error));
  g_assert_no_error (error);
  *skip = !g_spawn_check_wait_status (*status, NULL) && strstr (out, "{") == NULL;
  if (*skip)
    {
      g_autofree char *why = g_strdup_printf ("cannot make a user namespace without mount namespaces here: %s", err);
      g_test_skip (why);
    }
  g_test_message ("%s: %s / %s", profile, out, err);
  return g_steal_pointer (&out);
}

/* Where the profile cannot be shaped, legacy-8 (no PSI, no cpufreq) is
 * refused with a clear error instead of serving the host's; a profile
 * that hides nothing still runs. */
static void
test_profile_without_namespaces (void)
{
  g_autofree char *refused = NULL;
  g_autofree char *runs = NULL;
  gboolean skip;
  int status;

  refused = sim_without_namespaces ("legacy-8", &status, &skip);
  if (skip)
    return;
  g_assert_true (g_str_has_prefix (refused, "{\"error\":{\"code\":\"not_supported\""));
  g_assert_nonnull (strstr (refused, "The profile legacy-8 hides"));

  runs = sim_without_namespaces ("pixel-14", &status, &skip);
  g_assert_nonnull (strstr (runs, "\"profile\":\"pixel-14\""));
}

static int
free_tcp_port (void)
{
  g_autoptr(GSocket) sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_true (g_socket_bind (sock, any, TRUE, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* `adb -L SPEC devices`: the serials that server lists as "device". */
static char *
devices_of (const char *spec)
{
  const char *argv[] = { adbscope_test_adb_path (), "-L", spec, "devices", NULL };
  char *out = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, NULL));
  if (!g_spawn_check_wait_status (status, NULL))
    g_clear_pointer (&out, g_free);
  return out;
}

typedef struct
{
  GMainLoop *loop;
  char      *line;
} LineWait;

static void
line_read_cb (GObject      *stream,
              GAsyncResult *result,
              gpointer      data)
{
  LineWait *w = data;

  w->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (stream), result, NULL, NULL);
  g_main_loop_quit (w->loop);
}

static gboolean
line_timeout_cb (gpointer data)
{
  g_main_loop_quit (((LineWait *) data)->loop);
  return G_SOURCE_REMOVE;
}

/* Dies with the test, even when an assertion aborts it: SIGTERM lets a
 * sim disconnect from adb, SIGKILL is for the adb server. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, GPOINTER_TO_INT (data));
}

static GSubprocess *
spawn_tied (const char * const *argv,
            GSubprocessFlags    flags,
            int                 signal_on_death)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, GINT_TO_POINTER (signal_on_death), NULL);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  return proc;
}

/* The first stdout line of `adbscope sim ARGS…` (NULL after 30 s); the
 * sim keeps running in *proc. */
static char *
start_sim (const char * const *args,
           GSubprocess       **proc)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GDataInputStream) in = NULL;
  LineWait w = { g_main_loop_new (NULL, FALSE), NULL };
  guint timeout;

  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  g_ptr_array_add (argv, (char *) "sim");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  *proc = spawn_tied ((const char * const *) argv->pdata,
                      G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, SIGTERM);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (*proc));
  timeout = g_timeout_add_seconds (30, line_timeout_cb, &w);
  g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, NULL, line_read_cb, &w);
  g_main_loop_run (w.loop);
  if (w.line != NULL)
    g_source_remove (timeout);
  g_main_loop_unref (w.loop);
  return w.line;
}

static void
stop_sim (GSubprocess *proc)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (proc, SIGTERM);
  g_assert_true (g_subprocess_wait (proc, NULL, &error));
  g_assert_no_error (error);
}

/* `sim --adb-server HOST:PORT` connects itself to that server, not to the
 * one adb would find (the tests' private server, through the environment);
 * a server elsewhere, which could not reach the sim's 127.0.0.1, is
 * refused. */
static void
test_adb_server_option (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GSubprocess) sim = NULL;
  g_autofree char *port_text = g_strdup_printf ("%d", free_tcp_port ());
  g_autofree char *spec = g_strconcat ("tcp:127.0.0.1:", port_text, NULL);
  g_autofree char *address = g_strconcat ("127.0.0.1:", port_text, NULL);
  g_autofree char *line = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *default_listed = NULL;
  g_autofree char *after = NULL;
  g_autofree char *default_spec = NULL;
  const char *server_argv[] = { adbscope_test_adb_path (), "-P", port_text, "nodaemon", "server", NULL };
  const char *sim_args[] = { "--adb-server", address, NULL };
  gint64 end;

  /* the default server: the tests' private one, which the sim finds
   * through the environment when it ignores the option */
  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  default_spec = g_strdup (g_getenv ("ADB_SERVER_SOCKET"));
  g_assert_nonnull (default_spec);

  /* a second private server, named by the option only */
  server = spawn_tied (server_argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, SIGKILL);
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while ((listed = devices_of (spec)) == NULL && g_get_monotonic_time () < end)
    g_usleep (50 * 1000);
  g_assert_nonnull (listed);
  g_clear_pointer (&listed, g_free);

  line = start_sim (sim_args, &sim);
  g_test_message ("sim --adb-server %s: %s", address, line);
  g_assert_nonnull (line);
  g_assert_true (g_regex_match_simple ("^\\{\"serial\":\"127\\.0\\.0\\.1:[0-9]+\"", line, 0, 0));
  {
    const char *start = line + strlen ("{\"serial\":\"");

    serial = g_strndup (start, strchr (start, '"') - start);
  }
  listed = devices_of (spec);
  default_listed = devices_of (default_spec);
  g_test_message ("the option's server lists:\n%s\nthe default one:\n%s", listed, default_listed);
  g_assert_nonnull (strstr (listed, serial));
  g_assert_null (strstr (default_listed, serial));
  g_assert_nonnull (strstr (default_listed, adbscope_test_device_get_serial (dev)));

  /* stopped: disconnected from the same server */
  stop_sim (sim);
  g_clear_object (&sim);
  after = devices_of (spec);
  g_assert_null (strstr (after, serial));

  g_subprocess_force_exit (server);
  g_assert_true (g_subprocess_wait (server, NULL, NULL));
}

static void
test_adb_server_elsewhere (void)
{
  const char *refused_args[] = { "--adb-server", "192.0.2.1:5037", NULL };
  const char *no_connect_args[] = { "--adb-server", "192.0.2.1:5037", "--no-connect", NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GSubprocess) sim = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;

  /* a private default server, for a sim that would not refuse */
  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  line = start_sim (refused_args, &sim);
  g_test_message ("%s", line);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "{\"error\":{\"code\":\"usage\""));
  g_assert_nonnull (strstr (line, "192.0.2.1:5037"));
  g_assert_true (g_subprocess_wait (sim, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (sim), ==, 2);
  g_clear_object (&sim);
  g_clear_pointer (&line, g_free);

  /* without adb connect the server is not used: the sim runs */
  line = start_sim (no_connect_args, &sim);
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "\"serial\":\"127.0.0.1:"));
  stop_sim (sim);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *path = g_strdup_printf ("/sim/device/profile/%s", profiles[i].name);

      g_test_add_data_func (path, &profiles[i], test_profile);
    }
  g_test_add_func ("/sim/device/demo-app", test_demo_app);
  g_test_add_func ("/sim/device/framestats-layout", test_framestats_layout);
  g_test_add_func ("/sim/device/legacy-formats", test_legacy_formats);
  g_test_add_func ("/sim/device/tools", test_tools);
  g_test_add_func ("/sim/device/extra-app", test_extra_app);
  g_test_add_func ("/sim/device/profile-without-namespaces", test_profile_without_namespaces);
  g_test_add_func ("/sim/device/adb-server-option", test_adb_server_option);
  g_test_add_func ("/sim/device/adb-server-elsewhere", test_adb_server_elsewhere);
  rc = g_test_run ();
  {
    g_autoptr(GArray) left = adbscope_test_list_descendants (getpid ());

    if (left->len > 0)
      {
        g_printerr ("leftover processes: %u (first pid %d)\n", left->len, g_array_index (left, GPid, 0));
        rc = 1;
      }
  }
  return rc;
}
