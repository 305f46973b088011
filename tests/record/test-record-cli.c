/* `adbscope record`, `mark`, `stop` as a CI job uses them: real processes,
 * the real adb, the simulated device. */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

static AdbscopeTestDevice *device;
static char *runtime_dir;

static GSubprocess *
spawn (GSubprocessFlags   flags,
       const char        *runtime,
       GError           **error,
       ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime ? runtime : runtime_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  va_start (ap, error);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  return g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
}

/* Runs to the end; returns stdout parsed as JSON and the exit status. */
static JsonNode *
run_json (int *status, ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  const char *arg;
  va_list ap;

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  va_start (ap, status);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (proc);
  if (!json_parser_load_from_data (parser, out, -1, &error))
    g_error ("not JSON on stdout (%s): %s", error->message, out);
  return json_node_copy (json_parser_get_root (parser));
}

static const char *
error_code (JsonNode *node)
{
  JsonNode *code = adbscope_report_lookup (node, "error.code");

  return code ? json_node_get_string (code) : NULL;
}

static void
wait_for_state_file (void)
{
  g_autofree char *path = g_build_filename (runtime_dir, "adbscope", "record.json", NULL);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_mark_stop_samples (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonNode) mark = NULL;
  g_autoptr(JsonNode) stop = NULL;
  g_autoptr(JsonNode) forbidden = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *csv_path = g_build_filename (runtime_dir, "samples.csv", NULL);
  g_autofree char *state_path = g_build_filename (runtime_dir, "adbscope", "record.json", NULL);
  g_autofree char *state = NULL;
  g_autofree char *other = g_dir_make_tmp ("adbscope-rt-XXXXXX", NULL);
  g_autofree char *other_state_dir = g_build_filename (other, "adbscope", NULL);
  g_autofree char *other_state = g_build_filename (other_state_dir, "record.json", NULL);
  g_autoptr(GRegex) token_re = g_regex_new ("\"token\":\"[0-9a-f]+\"", 0, 0, NULL);
  g_autofree char *bad = NULL;
  g_auto(GStrv) lines = NULL;
  JsonNode *report;
  GStatBuf st;
  int status;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--samples", csv_path, "--duration", "60s", NULL);
  g_assert_no_error (error);
  wait_for_state_file ();
  g_assert_cmpint (g_stat (state_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_usleep (2500 * 1000);

  mark = run_json (&status, "mark", "scrolling starts", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (mark, "marker.label")), ==, "scrolling starts");

  /* Another user's copy of the file with a wrong token is refused. */
  g_assert_true (g_file_get_contents (state_path, &state, NULL, NULL));
  bad = g_regex_replace_literal (token_re, state, -1, 0, "\"token\":\"00000000000000000000000000000000\"", 0, NULL);
  g_mkdir_with_parents (other_state_dir, 0700);
  g_assert_true (g_file_set_contents (other_state, bad, -1, NULL));
  {
    g_autofree char *saved = g_strdup (runtime_dir);
    g_free (runtime_dir);
    runtime_dir = g_strdup (other);
    forbidden = run_json (&status, "mark", "sneaky", NULL);
    g_free (runtime_dir);
    runtime_dir = g_steal_pointer (&saved);
  }
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (forbidden), ==, "forbidden");

  g_usleep (1500 * 1000);
  stop = run_json (&status, "stop", NULL);
  g_assert_cmpint (status, ==, 0);

  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  report = json_parser_get_root (parser);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (report, "schema")), ==, ADBSCOPE_REPORT_SCHEMA);
  {
    JsonArray *markers = json_node_get_array (adbscope_report_lookup (report, "markers"));
    JsonObject *m;

    g_assert_cmpuint (json_array_get_length (markers), ==, 1);
    m = json_array_get_object_element (markers, 0);
    g_assert_cmpstr (json_object_get_string_member (m, "label"), ==, "scrolling starts");
    g_assert_cmpfloat (json_object_get_double_member (m, "time_s"), >, 1.0);
    g_assert_true (json_object_has_member (json_object_get_object_member (m, "window"), "cpu.app_pct"));
  }
  /* The record file is gone once it ended. */
  g_assert_false (g_file_test (state_path, G_FILE_TEST_EXISTS));

  /* One CSV row per fast sample, after one header. */
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (g_strstrip (csv), "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "time_s,cpu.system_pct,"));
  g_assert_cmpint (g_strv_length (lines) - 1, ==,
                   json_node_get_int (adbscope_report_lookup (report, "run.samples")));
  g_assert_cmpint (g_strv_length (lines), >=, 4);
  g_rmdir (other_state_dir);
}

static void
test_sigint_still_writes_report (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *path = g_build_filename (runtime_dir, "report.json", NULL);
  g_autofree char *text = NULL;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "-o", path, NULL);
  g_assert_no_error (error);
  wait_for_state_file ();
  g_usleep (2500 * 1000);
  g_subprocess_send_signal (rec, SIGINT);
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (json_parser_get_root (parser), "report")), ==, path);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (json_parser_get_root (parser), "run.samples")), >=, 1);
}

static void
test_assertions (void)
{
  g_autoptr(JsonNode) pass = NULL;
  g_autoptr(JsonNode) fail = NULL;
  g_autoptr(JsonNode) bad = NULL;
  g_autoptr(JsonNode) garbled = NULL;
  const char *serial = adbscope_test_device_get_serial (device);
  JsonObject *a;
  gint64 t0;
  int status;

  pass = run_json (&status, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "3s",
                   "--assert", "run.samples > 0", "--assert", "sources.frames.supported == true", NULL);
  g_assert_cmpint (status, ==, 0);
  a = json_array_get_object_element (json_node_get_array (adbscope_report_lookup (pass, "assertions")), 0);
  g_assert_true (json_object_get_boolean_member (a, "pass"));

  fail = run_json (&status, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "3s",
                   "--assert", "cpu.app_pct.avg < 0", NULL);
  g_assert_cmpint (status, ==, 3);
  a = json_array_get_object_element (json_node_get_array (adbscope_report_lookup (fail, "assertions")), 0);
  g_assert_false (json_object_get_boolean_member (a, "pass"));
  g_assert_cmpfloat (json_object_get_double_member (a, "value"), >, 0);

  /* An unknown path is a usage error before anything is recorded. */
  t0 = g_get_monotonic_time ();
  bad = run_json (&status, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "30s",
                  "--assert", "frames.no_such_thing < 5", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (error_code (bad), ==, "usage");
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);

  garbled = run_json (&status, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                      "--assert", "frames.janky_pct <<< five", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (error_code (garbled), ==, "usage");
}

static void
test_bad_input (void)
{
  g_autoptr(JsonNode) pkg = NULL;
  g_autoptr(JsonNode) serial = NULL;
  g_autoptr(JsonNode) missing = NULL;
  g_autoptr(JsonNode) not_installed = NULL;
  g_autoptr(JsonNode) no_device = NULL;
  g_autoptr(JsonNode) capture = NULL;
  int status;

  pkg = run_json (&status, "record", "-p", "a;reboot", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (pkg), ==, "invalid_package");

  serial = run_json (&status, "record", "-p", "com.example", "-s", "x$(reboot)", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (serial), ==, "invalid_serial");

  missing = run_json (&status, "record", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (error_code (missing), ==, "usage");

  not_installed = run_json (&status, "record", "-s", adbscope_test_device_get_serial (device),
                            "-p", "com.example.not.there", "--duration", "2s", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (not_installed), ==, "package_not_found");

  no_device = run_json (&status, "record", "-s", "127.0.0.1:1", "-p", ADBSCOPE_DEMO_PACKAGE, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (no_device), ==, "no_device");

  capture = run_json (&status, "record", "-p", ADBSCOPE_DEMO_PACKAGE, "--capture", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (capture), ==, "not_supported");
}

static void
test_apps (void)
{
  g_autoptr(JsonNode) third = NULL;
  g_autoptr(JsonNode) all = NULL;
  g_autoptr(JsonNode) bad = NULL;
  const char *serial = adbscope_test_device_get_serial (device);
  JsonArray *a;
  JsonObject *first;
  gboolean found_system = FALSE;
  int status;

  third = run_json (&status, "apps", "-s", serial, NULL);
  g_assert_cmpint (status, ==, 0);
  a = json_node_get_array (third);
  g_assert_cmpuint (json_array_get_length (a), >=, 1);
  /* Running apps first, with their real pid. */
  first = json_array_get_object_element (a, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "package"), ==, ADBSCOPE_DEMO_PACKAGE);
  g_assert_cmpint (json_object_get_int_member (first, "pid"), ==,
                   adbscope_test_device_get_app_pid (device, ADBSCOPE_DEMO_PACKAGE));
  for (guint i = 0; i < json_array_get_length (a); i++)
    g_assert_true (json_object_get_boolean_member (json_array_get_object_element (a, i), "third_party"));

  all = run_json (&status, "apps", "-s", serial, "--all", NULL);
  g_assert_cmpint (status, ==, 0);
  a = json_node_get_array (all);
  for (guint i = 0; i < json_array_get_length (a); i++)
    found_system |= g_str_equal (json_object_get_string_member (json_array_get_object_element (a, i), "package"),
                                 "com.android.systemui");
  g_assert_true (found_system);

  bad = run_json (&status, "apps", "-s", "a b", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (bad), ==, "invalid_serial");
}

static void
test_no_recording (void)
{
  g_autoptr(JsonNode) mark = NULL;
  int status;

  mark = run_json (&status, "mark", "x", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (mark), ==, "no_recording");
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = g_dir_make_tmp ("adbscope-rt-XXXXXX", NULL);
  device = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/record/cli/no-recording", test_no_recording);
  g_test_add_func ("/record/cli/bad-input", test_bad_input);
  g_test_add_func ("/record/cli/apps", test_apps);
  g_test_add_func ("/record/cli/assertions", test_assertions);
  g_test_add_func ("/record/cli/mark-stop-samples", test_mark_stop_samples);
  g_test_add_func ("/record/cli/sigint-writes-report", test_sigint_still_writes_report);
  rc = g_test_run ();

  adbscope_test_device_free (device);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", runtime_dir);
    (void) system (cmd);
  }
  g_free (runtime_dir);
  return rc;
}
