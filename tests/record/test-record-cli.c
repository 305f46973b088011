/* `adbscope record`, `mark`, `stop` as a CI job uses them: real processes,
 * the real adb, the simulated device. */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

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

  /* This device has no agent: the error says how to install it
   * (tests/agent-link/test-capture covers capturing). */
  capture = run_json (&status, "record", "-p", ADBSCOPE_DEMO_PACKAGE, "--capture", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (capture), ==, "agent_not_installed");
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

/* Runs `adbscope ARGS…` to the end with stdout to @stdout_path (or a pipe
 * when NULL, returned in *out), as @user (or us when NULL); returns the
 * exit status. */
static int
run_as (const char  *user,
        const char  *stdout_path,
        char       **out,
        char       **err,
        ...)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_PIPE;
  const char *arg;
  va_list ap;

  if (stdout_path == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDOUT_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  if (stdout_path != NULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", runtime_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  if (user != NULL)
    {
      g_ptr_array_add (argv, (char *) "setpriv");
      g_ptr_array_add (argv, g_strdup_printf ("--reuid=%s", user));
      g_ptr_array_add (argv, (char *) "--regid=nogroup");
      g_ptr_array_add (argv, (char *) "--clear-groups");
      g_ptr_array_add (argv, (char *) "--");
    }
  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  if (user != NULL)
    g_free (argv->pdata[1]);
  return g_subprocess_get_exit_status (proc);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("not JSON (%s): %s", error->message, text);
  return json_node_copy (json_parser_get_root (parser));
}

static gint64
report_samples (JsonNode *report)
{
  JsonNode *n = adbscope_report_lookup (report, "run.samples");

  g_assert_nonnull (n);
  return json_node_get_int (n);
}

/* Output goes where the user pointed, checked before the run; a failed
 * write keeps the report and exits 1.  As root, on throw-away device nodes. */
static void
test_output_paths (void)
{
  const char *serial = adbscope_test_device_get_serial (device);
  g_autofree char *dir = g_dir_make_tmp ("adbscope-out-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_autofree char *null = g_build_filename (dir, "null", NULL);
  g_autofree char *real = g_build_filename (dir, "real.json", NULL);
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "report.json", NULL);
  g_autofree char *saved_dir = g_build_filename (runtime_dir, "adbscope", "reports", NULL);
  GStatBuf st;

  g_assert_cmpint (mknod (full, S_IFCHR | 0666, makedev (1, 7)), ==, 0);
  g_assert_cmpint (mknod (null, S_IFCHR | 0666, makedev (1, 3)), ==, 0);
  g_assert_cmpint (symlink (real, link), ==, 0);

  /* A missing folder is found before the run, not after it. */
  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(JsonNode) j = NULL;
    gint64 t0 = g_get_monotonic_time ();
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "--duration", "60s", "-o", missing, NULL);

    j = parse_json (out);
    g_assert_cmpint (rc, ==, 1);
    g_assert_cmpstr (error_code (j), ==, "io_error");
    g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  }

  /* A device: written as a stream, never replaced.  /dev/full refuses:
   * the report comes on stdout with the error, exit 1. */
  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(JsonNode) j = NULL;
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "--duration", "2s", "-o", full, NULL);

    j = parse_json (out);
    g_assert_cmpint (rc, ==, 1);
    g_assert_cmpstr (error_code (j), ==, "io_error");
    g_assert_cmpint (report_samples (adbscope_report_lookup (j, "report")), >=, 1);
    g_assert_cmpint (g_lstat (full, &st), ==, 0);
    g_assert_true (S_ISCHR (st.st_mode));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "--duration", "2s", "-o", null, NULL);

    g_assert_cmpint (rc, ==, 0);
    g_assert_cmpint (g_lstat (null, &st), ==, 0);
    g_assert_true (S_ISCHR (st.st_mode));
  }

  /* A symlink is followed: the target gets the report, the link stays. */
  {
    g_autofree char *out = NULL, *err = NULL, *text = NULL;
    g_autoptr(JsonNode) j = NULL;
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "--duration", "2s", "-o", link, NULL);

    g_assert_cmpint (rc, ==, 0);
    g_assert_cmpint (g_lstat (link, &st), ==, 0);
    g_assert_true (S_ISLNK (st.st_mode));
    g_assert_true (g_file_get_contents (real, &text, NULL, NULL));
    j = parse_json (text);
    g_assert_cmpint (report_samples (j), >=, 1);
  }

  /* The report and the samples in one file: a usage error, whatever the
   * spelling (here through the symlink). */
  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(JsonNode) j = NULL;
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "-o", real, "--samples", link, NULL);

    j = parse_json (out);
    g_assert_cmpint (rc, ==, 2);
    g_assert_cmpstr (error_code (j), ==, "usage");
  }

  /* A full disk under --samples: the run goes on, the report says so, exit 1. */
  {
    g_autofree char *out = NULL, *err = NULL, *text = NULL;
    g_autoptr(JsonNode) j = NULL;
    g_autoptr(JsonNode) summary = NULL;
    JsonArray *errors;
    int rc = run_as (NULL, NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                     "--duration", "2s", "--samples", full, "-o", real, NULL);

    summary = parse_json (out);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (adbscope_report_lookup (summary, "samples_error"));
    g_assert_true (g_file_get_contents (real, &text, NULL, NULL));
    j = parse_json (text);
    errors = json_node_get_array (adbscope_report_lookup (j, "run.output_errors"));
    g_assert_cmpuint (json_array_get_length (errors), ==, 1);
    g_assert_nonnull (strstr (json_array_get_string_element (errors, 0), "No space left"));
  }

  /* Standard output that cannot take the report (a full device): exit 1,
   * the report saved in the state folder, named on stderr. */
  {
    g_autofree char *err = NULL, *text = NULL;
    g_autoptr(GDir) d = NULL;
    g_autoptr(JsonNode) j = NULL;
    const char *name;
    int rc;

    rc = run_as (NULL, full, NULL, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                 "--duration", "2s", NULL);
    g_assert_cmpint (rc, ==, 1);
    g_assert_nonnull (strstr (err, saved_dir));
    d = g_dir_open (saved_dir, 0, NULL);
    g_assert_nonnull (d);
    name = g_dir_read_name (d);
    g_assert_nonnull (name);
    {
      g_autofree char *path = g_build_filename (saved_dir, name, NULL);

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      j = parse_json (text);
      g_assert_cmpint (report_samples (j), >=, 1);
      g_unlink (path);
    }
  }

  g_unlink (full);
  g_unlink (null);
  g_unlink (link);
  g_unlink (real);
  g_rmdir (dir);
}

/* As an unprivileged user: a folder or a file it may not write is refused
 * before the run, and nothing is replaced. */
static void
test_output_unprivileged (void)
{
  const char *serial = adbscope_test_device_get_serial (device);
  g_autofree char *dir = g_dir_make_tmp ("adbscope-ro-XXXXXX", NULL);
  g_autofree char *closed = g_build_filename (dir, "closed", NULL);
  g_autofree char *inside = g_build_filename (closed, "report.json", NULL);
  g_autofree char *open_dir = g_build_filename (dir, "open", NULL);
  g_autofree char *theirs = g_build_filename (open_dir, "theirs.json", NULL);
  g_autofree char *text = NULL;
  const char *targets[] = { inside, theirs };

  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (closed, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (open_dir, 01777), ==, 0);
  g_assert_cmpint (g_chmod (open_dir, 01777), ==, 0);
  g_assert_true (g_file_set_contents (theirs, "root's\n", -1, NULL));
  g_assert_cmpint (g_chmod (theirs, 0644), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    for (guint k = 0; k < 2; k++)
      {
        g_autofree char *out = NULL, *err = NULL;
        g_autoptr(JsonNode) j = NULL;
        gint64 t0 = g_get_monotonic_time ();
        int rc = run_as ("nobody", NULL, &out, &err, "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE,
                         "--duration", "60s", k == 0 ? "-o" : "--samples", targets[i], NULL);

        j = parse_json (out);
        g_test_message ("as nobody, %s %s: %s", k == 0 ? "-o" : "--samples", targets[i], out);
        g_assert_cmpint (rc, ==, 1);
        g_assert_cmpstr (error_code (j), ==, "io_error");
        g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
      }
  g_assert_true (g_file_get_contents (theirs, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "root's\n");
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
  g_unlink (theirs);
  g_rmdir (open_dir);
  g_rmdir (closed);
  g_rmdir (dir);
}

/* SIGHUP (the terminal closed) ends a run like SIGTERM: with its report. */
static void
test_sighup_writes_report (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *out = NULL;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE, NULL);
  g_assert_no_error (error);
  wait_for_state_file ();
  g_usleep (2500 * 1000);
  g_subprocess_send_signal (rec, SIGHUP);
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (rec));
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  report = parse_json (out);
  g_assert_cmpint (report_samples (report), >=, 1);
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
  g_test_add_func ("/record/cli/sighup-writes-report", test_sighup_writes_report);
  g_test_add_func ("/record/cli/output-paths", test_output_paths);
  g_test_add_func ("/record/cli/output-unprivileged", test_output_unprivileged);
  rc = g_test_run ();

  adbscope_test_device_free (device);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", runtime_dir);
    (void) system (cmd);
  }
  g_free (runtime_dir);
  return rc;
}
