/* test-screenshots.c: `record --screenshots` against the simulated device
 * through the real adb.  The truth is outside the code under test: the
 * PNGs are pulled out of the recording by the sqlite3 shell and decoded by
 * tests/record/png-size.py, their size is what `adb shell wm size` says,
 * the count is what the interval and the markers make, and the sampling
 * cadence is the device clock's (the recording's tick table). */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"
#include "adbscope-test-recording.h"

static AdbscopeTestDevice *device;
static char *work_dir;

static void
die_with_test (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static GSubprocess *
spawn_adbscope (const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                                       | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", work_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return proc;
}

static int
finish (GSubprocess *proc,
        char       **out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, &err, &error);
  g_assert_no_error (error);
  if (err != NULL && *err)
    g_test_message ("stderr: %s", err);
  return g_subprocess_get_exit_status (proc);
}

static JsonNode *
load_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static double
num (JsonNode   *report,
     const char *path)
{
  JsonNode *n = adbscope_report_lookup (report, path);

  g_assert_nonnull (n);
  return JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
}

static void
mark (const char *label)
{
  const char *args[] = { "mark", label, NULL };
  g_autoptr(GSubprocess) proc = spawn_adbscope (args);
  g_autofree char *out = NULL;

  g_assert_cmpint (finish (proc, &out), ==, 0);
}

static gboolean
has_record_state (gpointer data)
{
  g_autofree char *path = adbscope_test_find_record_state (work_dir);

  return path != NULL;
}

static void
wait_for_record (void)
{
  adbscope_test_wait_until (has_record_state, NULL, 30000, "the running record's control file is there");
}

/* Every PNG in the recording, decoded by png-size.py: "WxH" lines. */
static char *
decoded_sizes (const char *recording)
{
  g_autofree char *dir = g_build_filename (work_dir, "png", NULL);
  g_autofree char *sql = g_strdup_printf ("SELECT sum (writefile ('%s/' || printf ('%%03d', rowid) || '.png', png))"
                                          " FROM screenshot", dir);
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "record", "png-size.py", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *name;
  int status;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  written = adbscope_test_sqlite3 (recording, sql);
  g_assert_cmpint (g_ascii_strtoll (written, NULL, 10), >, 0);
  g_ptr_array_add (argv, g_strdup ("python3"));
  g_ptr_array_add (argv, g_strdup (script));
  d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (argv, g_build_filename (dir, name, NULL));
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("png-size.py: %s", err);
  return g_steal_pointer (&out);
}

/* 12 s at 500 ms with a screenshot every 2 s and two markers. */
static void
test_record (void)
{
  g_autofree char *report_path = g_build_filename (work_dir, "shots.json", NULL);
  g_autofree char *recording = g_build_filename (work_dir, "shots.adbscope", NULL);
  g_autofree char *csv = g_build_filename (work_dir, "shots.csv", NULL);
  const char *args[] = { "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                         "--interval", "500ms", "--duration", "12s", "--screenshots", "2s",
                         "-o", report_path, "--samples", csv, NULL };
  g_autoptr(GSubprocess) rec = spawn_adbscope (args);
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *out = NULL;
  g_autofree char *wm = NULL;
  g_autofree char *want = NULL;
  g_autofree char *sizes = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *distinct = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *bad_cost = NULL;
  g_autofree char *max_dt = NULL;
  int w = 0, h = 0, status;
  double count, at_markers, duration, skipped;

  wait_for_record ();
  /* The markers well inside the run, by its own samples (a header and a
   * row every 500 ms), not by the wall clock: about 2.5 s and 5 s in. */
  adbscope_test_wait_lines (csv, 6, 30000);
  mark ("first");
  adbscope_test_wait_lines (csv, 11, 30000);
  mark ("second");
  g_assert_cmpint (finish (rec, &out), ==, 0);

  report = load_json (report_path);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (report, "run.recording")), ==, recording);
  g_assert_true (json_node_get_boolean (adbscope_report_lookup (report, "screenshots.enabled")));
  count = num (report, "screenshots.count");
  at_markers = num (report, "screenshots.at_markers");
  /* How long the collectors ran: first to last fast sample (the report's
   * duration also counts the probe and the stop). */
  {
    g_autofree char *span = adbscope_test_sqlite3 (recording, "SELECT (max (t_us) - min (t_us)) / 1e6 FROM tick");

    duration = g_ascii_strtod (span, NULL);
  }
  g_assert_cmpfloat (num (report, "screenshots.interval_s"), ==, 2.0);
  g_assert_cmpfloat (at_markers, ==, 2);
  /* duration / interval ± 1, plus the markers'; an interval's tick that
   * found the previous one still being taken (a loaded machine) is
   * counted as skipped instead, never queued */
  skipped = num (report, "screenshots.skipped");
  g_test_message ("%.0f screenshots in %.1f s, %.0f at markers, %.0f ticks skipped", count, duration, at_markers, skipped);
  g_assert_cmpfloat (fabs (count - at_markers + skipped - duration / 2.0), <=, 1.0);
  g_assert_cmpfloat (skipped, <=, duration / 2.0 / 2);

  /* The file holds them all, each a different picture. */
  rows = adbscope_test_sqlite3 (recording, "SELECT count (*) FROM screenshot");
  g_assert_cmpfloat (g_ascii_strtod (rows, NULL), ==, count);
  distinct = adbscope_test_sqlite3 (recording, "SELECT count (DISTINCT png) = count (*), sum (at_marker) FROM screenshot");
  g_assert_cmpstr (distinct, ==, "1|2");

  /* They decode, to the size of the device's screen. */
  wm = adbscope_test_device_adb (device, &status, "shell", "wm", "size", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (sscanf (wm, "Physical size: %dx%d", &w, &h), ==, 2);
  want = g_strdup_printf ("%dx%d", w, h);
  sizes = decoded_sizes (recording);
  lines = g_strsplit (g_strstrip (sizes), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, (guint) count);
  for (guint i = 0; lines[i] != NULL; i++)
    g_assert_cmpstr (lines[i], ==, want);

  /* The cost was measured on the device: screencap took CPU, and no more
   * than one core's worth of its wall time (10 ms ticks either way). */
  g_assert_cmpfloat (num (report, "screenshots.cost_ms.p50"), >, 0);
  g_assert_cmpfloat (num (report, "screenshots.cpu_ms.p50"), >, 0);
  g_assert_cmpfloat (num (report, "screenshots.cpu_ms.max"), <=, num (report, "screenshots.cost_ms.max") + 20);
  g_assert_cmpfloat (num (report, "screenshots.cpu_pct"), >, 0);
  bad_cost = adbscope_test_sqlite3 (recording, "SELECT count (*) FROM screenshot WHERE NOT (cost_ms > 0 AND cpu_ms > 0"
                                               " AND cpu_ms <= cost_ms + 20)");
  g_assert_cmpstr (bad_cost, ==, "0");

  /* The sampling kept its cadence: the device clock's median interval is
   * the configured one and no tick waited for a screenshot (a third of a
   * second of screencap would show as a 0.8 s interval at every one of
   * them; one slow tick, or one stall long enough to count as a gap, is
   * the loaded machine's: a screenshot's would come with every one of the
   * five or more shots). */
  g_assert_cmpfloat (fabs (num (report, "run.interval_ms_measured") - 500), <=, 50);
  g_assert_cmpfloat (num (report, "run.gaps"), <=, 1);
  max_dt = adbscope_test_sqlite3 (recording, "SELECT count (*) FROM tick WHERE dt_s > 0.8");
  g_assert_cmpint (g_ascii_strtoll (max_dt, NULL, 10), <=, 1);

  /* `adbscope report FILE` gives the same section. */
  {
    const char *again_args[] = { "report", recording, NULL };
    g_autoptr(GSubprocess) again = spawn_adbscope (again_args);
    g_autofree char *text = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (finish (again, &text), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
    g_assert_true (json_node_equal (adbscope_report_lookup (json_parser_get_root (parser), "screenshots"),
                                    adbscope_report_lookup (report, "screenshots")));
  }
}

/* Off by default: no screenshot, the section says so. */
static void
test_off_by_default (void)
{
  g_autofree char *report_path = g_build_filename (work_dir, "off.json", NULL);
  const char *args[] = { "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                         "--duration", "2s", "-o", report_path, NULL };
  g_autoptr(GSubprocess) rec = spawn_adbscope (args);
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *out = NULL;
  g_autofree char *rows = NULL;
  const char *recording;

  g_assert_cmpint (finish (rec, &out), ==, 0);
  report = load_json (report_path);
  g_assert_false (json_node_get_boolean (adbscope_report_lookup (report, "screenshots.enabled")));
  g_assert_cmpfloat (num (report, "screenshots.count"), ==, 0);
  g_assert_true (isnan (num (report, "screenshots.cost_ms.p50")));
  recording = json_node_get_string (adbscope_report_lookup (report, "run.recording"));
  rows = adbscope_test_sqlite3 (recording, "SELECT count (*) FROM screenshot");
  g_assert_cmpstr (rows, ==, "0");
}

static void
test_bad_interval (void)
{
  const char * const bad[] = { "500ms", "abc", "0", "2h" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                             "--duration", "2s", "--screenshots", bad[i], NULL };
      g_autoptr(GSubprocess) rec = spawn_adbscope (args);
      g_autofree char *out = NULL;

      g_assert_cmpint (finish (rec, &out), ==, 2);
      g_assert_nonnull (strstr (out, "screenshot interval"));
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  work_dir = g_dir_make_tmp ("adbscope-shots-XXXXXX", &error);
  g_assert_no_error (error);
  g_chmod (work_dir, 0700);
  device = adbscope_test_device_start (NULL, NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/screenshots/record", test_record);
  g_test_add_func ("/screenshots/off-by-default", test_off_by_default);
  g_test_add_func ("/screenshots/bad-interval", test_bad_interval);
  rc = g_test_run ();

  adbscope_test_device_free (device);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", work_dir);
    g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  }
  return rc;
}
