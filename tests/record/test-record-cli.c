/* `adbscope record`, `mark`, `stop` as a CI job uses them: real processes,
 * the real adb, the simulated device. */
#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"

static AdbscopeTestDevice *device;
static char *runtime_dir;

/* Whatever a test starts dies with it, even when it fails. */
static void
die_with_test (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

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

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
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

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
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

/* Waits for the running record's control file; returns its path. */
/* Waits (30 s at most, under any load) until the --samples CSV at @path
 * has @n lines. */
static void
wait_for_csv_lines (const char *path,
                    guint       n)
{
  adbscope_test_wait_lines (path, n, 30000);
}

static gboolean
has_state_file (gpointer data)
{
  g_autofree char *path = adbscope_test_find_record_state (runtime_dir);

  return path != NULL;
}

static char *
wait_for_state_file (void)
{
  adbscope_test_wait_until (has_state_file, NULL, 20000, "the running record's control file is there");
  return adbscope_test_find_record_state (runtime_dir);
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
  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
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
  g_autofree char *state_path = NULL;
  g_autofree char *state = NULL;
  g_autofree char *other = g_dir_make_tmp ("adbscope-rt-XXXXXX", NULL);
  g_autofree char *other_state_dir = g_build_filename (other, "adbscope", "runs", NULL);
  g_autofree char *other_state = g_build_filename (other_state_dir, "copy.json", NULL);
  g_autoptr(GRegex) token_re = g_regex_new ("\"token\":\"[0-9a-f]+\"", 0, 0, NULL);
  g_autofree char *bad = NULL;
  g_auto(GStrv) lines = NULL;
  JsonNode *report;
  GStatBuf st;
  int status, lock_fd;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--samples", csv_path, "--duration", "60s", NULL);
  g_assert_no_error (error);
  state_path = wait_for_state_file ();
  g_assert_cmpint (g_stat (state_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  /* The session starts after the control file: wait for its third sample
   * (two seconds in, under any load: the marker's time_s > 1) rather than
   * a fixed time. */
  wait_for_csv_lines (csv_path, 4);

  mark = run_json (&status, "mark", "scrolling starts", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (mark, "marker.label")), ==, "scrolling starts");

  /* Another user's copy of the file with a wrong token is refused. */
  g_assert_true (g_file_get_contents (state_path, &state, NULL, NULL));
  bad = g_regex_replace_literal (token_re, state, -1, 0, "\"token\":\"00000000000000000000000000000000\"", 0, NULL);
  g_mkdir_with_parents (other_state_dir, 0700);
  g_assert_true (g_file_set_contents (other_state, bad, -1, NULL));
  /* That copy looks live (its run lock is held), so the request goes out
   * and the record itself refuses the token. */
  {
    g_autofree char *lock_path = g_build_filename (other_state_dir, "copy.lock", NULL);
    lock_fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    g_assert_cmpint (flock (lock_fd, LOCK_EX | LOCK_NB), ==, 0);
  }
  {
    g_autofree char *saved = g_strdup (runtime_dir);
    g_free (runtime_dir);
    runtime_dir = g_strdup (other);
    forbidden = run_json (&status, "mark", "sneaky", NULL);
    g_free (runtime_dir);
    runtime_dir = g_steal_pointer (&saved);
  }
  close (lock_fd);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (forbidden), ==, "forbidden");

  /* a sample after the mark before stopping: the header and four samples */
  wait_for_csv_lines (csv_path, 5);
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
  /* The report of a record comes from its recording, and what the
   * recording does not keep yet is still there: the demo app's one
   * process and the frames' source. */
  {
    JsonNode *procs = adbscope_report_lookup (report, "app.processes");
    JsonNode *source = adbscope_report_lookup (report, "frames.source");

    g_assert_nonnull (procs);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (procs)), >=, 1);
    g_assert_nonnull (source);
    g_assert_cmpstr (json_node_get_string (source), ==, "gfxinfo");
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
  {
    g_autofree char *lock_path = g_build_filename (other_state_dir, "copy.lock", NULL);
    g_autofree char *parent = g_path_get_dirname (other_state_dir);
    g_unlink (lock_path);
    g_unlink (other_state);
    g_rmdir (other_state_dir);
    g_rmdir (parent);
  }
  g_rmdir (other);
}

static void
test_sigint_still_writes_report (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *path = g_build_filename (runtime_dir, "report.json", NULL);
  g_autofree char *csv_path = g_build_filename (runtime_dir, "sigint.csv", NULL);
  g_autofree char *text = NULL;

  /* A short interval: this needs samples, not a rate. */
  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "-o", path, "--interval", "250ms", "--samples", csv_path, NULL);
  g_assert_no_error (error);
  g_free (wait_for_state_file ());
  wait_for_csv_lines (csv_path, 3);   /* the header and two samples */
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

  /* What cannot be honoured is a usage error before the run. */
  {
    static const char * const cases[][6] = {
      { "record", "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "0.5ms", NULL },
      { "record", "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "-3s", NULL },
      { "record", "-p", ADBSCOPE_DEMO_PACKAGE, "--profile", "legacy-8", NULL },
      { "record", "--demo", "--profile", "bogus", NULL },
      { "record", "--demo", "--interval", "50ms", NULL },
      { "sim", "bogus", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(JsonNode) j = NULL;
        g_autofree char *out = NULL, *err = NULL;
        gint64 t0 = g_get_monotonic_time ();
        int rc = run_as (NULL, NULL, &out, &err, cases[i][0], cases[i][1], cases[i][2], cases[i][3],
                         cases[i][4], cases[i][5], NULL);

        g_test_message ("%s %s %s %s %s: %s", cases[i][0], cases[i][1], cases[i][2], cases[i][3],
                        cases[i][4] ? cases[i][4] : "", out);
        j = parse_json (out);
        g_assert_cmpint (rc, ==, 2);
        g_assert_cmpstr (error_code (j), ==, "usage");
        g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
      }
  }
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
  g_autofree char *csv_path = g_build_filename (runtime_dir, "sighup.csv", NULL);

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--interval", "250ms", "--samples", csv_path, NULL);
  g_assert_no_error (error);
  g_free (wait_for_state_file ());
  wait_for_csv_lines (csv_path, 3);   /* the header and two samples */
  g_subprocess_send_signal (rec, SIGHUP);
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (rec));
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  report = parse_json (out);
  g_assert_cmpint (report_samples (report), >=, 1);
}

/* The phone gone for good mid-run: the report says when and for how long,
 * and the exit status (4) tells CI it was not a clean run. */
static void
test_device_lost (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) lost = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *out = NULL;
  g_autofree char *csv_path = g_build_filename (runtime_dir, "lost.csv", NULL);
  JsonArray *losses;
  JsonObject *l;

  g_assert_no_error (error);
  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (lost), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--duration", "8s", "--samples", csv_path, NULL);
  g_assert_no_error (error);
  g_free (wait_for_state_file ());
  /* the header and three samples (at 1 s: two seconds in, and the loss
   * must come after the first second) */
  wait_for_csv_lines (csv_path, 4);
  adbscope_test_device_kill (lost);
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 4);
  report = parse_json (out);
  g_assert_true (json_node_get_boolean (adbscope_report_lookup (report, "run.device_lost")));
  losses = json_node_get_array (adbscope_report_lookup (report, "run.device_losses"));
  g_assert_cmpuint (json_array_get_length (losses), ==, 1);
  l = json_array_get_object_element (losses, 0);
  g_test_message ("lost at %.2f s for %.2f s: %s", json_object_get_double_member (l, "start_s"),
                  json_object_get_double_member (l, "duration_s"), json_object_get_string_member (l, "reason"));
  g_assert_cmpfloat (json_object_get_double_member (l, "start_s"), >=, 1.0);
  g_assert_cmpfloat (json_object_get_double_member (l, "start_s"), <=, 7.0);
  g_assert_cmpfloat (json_object_get_double_member (l, "duration_s"), >=, 1.0);
  g_assert_true (json_object_get_null_member (l, "end_s"));
  g_assert_nonnull (json_object_get_string_member (l, "reason"));
  /* A clean run says so too. */
  {
    g_autoptr(JsonNode) clean = NULL;
    int status;

    clean = run_json (&status, "record", "-s", adbscope_test_device_get_serial (device), "-p",
                      ADBSCOPE_DEMO_PACKAGE, "--duration", "2s", "--assert", "run.device_lost == false", NULL);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (clean, "run.device_losses"))), ==, 0);
  }
}

/* An app that never ran: nothing measured is null, never 0, and an
 * assertion on it fails with a message.  Counts and ids are integers. */
static void
test_never_ran_is_null (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) idle = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *a;
  static const char * const nulls[] = { "frames.total", "frames.janky", "frames.janky_pct",
                                        "cpu.app_pct.avg", "app.restarts" };
  static const char * const ints[] = { "device.sdk", "device.cores", "run.samples",
                                       "run.interval_ms_configured" };
  int rc;

  g_assert_no_error (error);
  adbscope_test_device_control (idle, "kill-app " ADBSCOPE_DEMO_PACKAGE);
  rc = run_as (NULL, NULL, &out, &err, "record", "-s", adbscope_test_device_get_serial (idle),
               "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "3s", "--assert", "frames.janky <= 0", NULL);
  report = parse_json (out);
  g_assert_cmpint (rc, ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (nulls); i++)
    {
      JsonNode *n = adbscope_report_lookup (report, nulls[i]);

      g_test_message ("%s is %s", nulls[i], n ? json_node_type_name (n) : "missing");
      g_assert_nonnull (n);
      g_assert_true (JSON_NODE_HOLDS_NULL (n));
    }
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      JsonNode *n = adbscope_report_lookup (report, ints[i]);

      g_assert_nonnull (n);
      g_assert_cmpint (json_node_get_value_type (n), ==, G_TYPE_INT64);
    }
  g_assert_null (strstr (out, "\"sdk\" : 34.0"));
  a = json_array_get_object_element (json_node_get_array (adbscope_report_lookup (report, "assertions")), 0);
  g_assert_false (json_object_get_boolean_member (a, "pass"));
  g_assert_true (json_object_get_null_member (a, "value"));
  g_assert_nonnull (strstr (json_object_get_string_member (a, "message"), "no value"));
}

static JsonNode *
read_state (void)
{
  g_autofree char *path = wait_for_state_file ();
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return parse_json (text);
}

/* Two records started in the same instant, many times: exactly one runs,
 * the other says so; the loser never touches the winner's control file,
 * so mark and stop still reach the one running. */
static void
test_two_records_race (void)
{
  const char *serial = adbscope_test_device_get_serial (device);

  for (guint round = 0; round < 5; round++)
    {
      g_autoptr(GError) error = NULL;
      GSubprocess *recs[2];
      g_autoptr(JsonNode) mark = NULL;
      g_autoptr(JsonNode) stop = NULL;
      int winner = -1, status;

      for (guint i = 0; i < 2; i++)
        {
          recs[i] = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
                           "record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "60s", NULL);
          g_assert_no_error (error);
        }
      /* The loser ends at once with address_in_use. */
      {
        gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

        while (winner < 0 && g_get_monotonic_time () < deadline)
          {
            for (guint i = 0; i < 2; i++)
              if (g_subprocess_get_identifier (recs[i]) == NULL)
                winner = 1 - (int) i;
            g_usleep (20 * 1000);
          }
      }
      g_assert_cmpint (winner, >=, 0);
      {
        g_autofree char *out = NULL;
        g_autoptr(JsonNode) j = NULL;

        g_subprocess_communicate_utf8 (recs[1 - winner], NULL, NULL, &out, NULL, &error);
        g_assert_no_error (error);
        j = parse_json (out);
        g_assert_cmpint (g_subprocess_get_exit_status (recs[1 - winner]), ==, 1);
        g_assert_cmpstr (error_code (j), ==, "address_in_use");
      }
      {
        g_autoptr(JsonNode) state = read_state ();

        g_assert_cmpint (json_node_get_int (adbscope_report_lookup (state, "pid")), ==,
                         g_ascii_strtoll (g_subprocess_get_identifier (recs[winner]), NULL, 10));
      }
      mark = run_json (&status, "mark", "still reachable", NULL);
      g_assert_cmpint (status, ==, 0);
      stop = run_json (&status, "stop", NULL);
      g_assert_cmpint (status, ==, 0);
      g_subprocess_wait (recs[winner], NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (recs[winner]), ==, 0);
      {
        g_autofree char *left = adbscope_test_find_record_state (runtime_dir);

        g_assert_null (left);
      }
      g_object_unref (recs[0]);
      g_object_unref (recs[1]);
    }
}

/* A control file left behind whose pid is alive but no record (pid 1)
 * blocks nothing: without the run lock it is stale. */
static void
test_stale_control_file (void)
{
  g_autofree char *dir = g_build_filename (runtime_dir, "adbscope", "runs", NULL);
  g_autofree char *state_path = g_build_filename (dir, "old.json", NULL);
  g_autoptr(JsonNode) mark = NULL;
  g_autoptr(JsonNode) rec = NULL;
  int status;

  g_mkdir_with_parents (dir, 0700);
  g_assert_true (g_file_set_contents (state_path, "{\"port\":9,\"token\":\"00\",\"pid\":1}", -1, NULL));
  mark = run_json (&status, "mark", "x", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (mark), ==, "no_recording");
  rec = run_json (&status, "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                  "--duration", "2s", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (rec, "run.samples")), >=, 1);
  g_assert_false (g_file_test (state_path, G_FILE_TEST_EXISTS));
}

/* POST with a body; returns the HTTP status and the reply in *reply. */
static guint
post (guint         port,
      const char   *token,
      const char   *path,
      const char   *body,
      gsize         len,
      char        **reply)
{
  g_autoptr(SoupSession) session = soup_session_new_with_options ("timeout", 20, NULL);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
  g_autofree char *auth = g_strdup_printf ("Bearer %s", token);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) request = g_bytes_new (body, len);
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(GError) error = NULL;

  soup_session_set_proxy_resolver (session, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", request);
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  if (reply != NULL)
    *reply = answer ? g_strndup (g_bytes_get_data (answer, NULL), g_bytes_get_size (answer)) : g_strdup (error->message);
  return soup_message_get_status (msg);
}

/* Hostile bodies, with the right token: deep nesting, nesting hidden in a
 * comment, a 30 MB label, a label too long, invalid UTF-8.  Each is refused
 * with 4xx and the record still runs, marks and writes its report. */
static void
test_hostile_bodies (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(JsonNode) long_mark = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GString) deep = g_string_new ("{\"label\":");
  g_autoptr(GString) hidden = g_string_new ("{\"label\":\"a\",\"x\":/*\"*/");
  g_autoptr(GString) huge = g_string_new ("{\"label\":\"");
  g_autoptr(GString) longer = g_string_new ("{\"label\":\"");
  g_autofree char *too_long_label = g_strnfill (ADBSCOPE_MARKER_MAX_LABEL + 1, 'x');
  struct { const char *what; GString *body; } cases[5];
  guint port;
  const char *token;
  int status;

  /* Under the size limit, so it is the depth that is refused. */
  for (guint i = 0; i < ADBSCOPE_CONTROL_MAX_BODY - 100; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 200; i++)
    g_string_append_c (hidden, '[');
  for (gsize i = 0; i < 30 * 1024 * 1024; i++)
    g_string_append_c (huge, 'x');
  g_string_append (huge, "\"}");
  g_string_append_printf (longer, "%s\"}", too_long_label);
  cases[0].what = "deep"; cases[0].body = deep;
  cases[1].what = "hidden in a comment"; cases[1].body = hidden;
  cases[2].what = "30 MB"; cases[2].body = huge;
  cases[3].what = "label too long"; cases[3].body = longer;
  cases[4].what = "invalid UTF-8"; cases[4].body = g_string_new ("{\"label\":\"\xff\xfe\"}");

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--duration", "60s", NULL);
  g_assert_no_error (error);
  g_free (wait_for_state_file ());
  state = read_state ();
  port = (guint) json_node_get_int (adbscope_report_lookup (state, "port"));
  token = json_node_get_string (adbscope_report_lookup (state, "token"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *reply = NULL;
      guint code = post (port, token, "/mark", cases[i].body->str, cases[i].body->len, &reply);

      g_test_message ("%s: HTTP %u %s", cases[i].what, code, reply);
      g_assert_cmpuint (code, >=, 400);
      g_assert_cmpuint (code, <, 500);
    }
  g_string_free (cases[4].body, TRUE);
  g_assert_cmpuint (post (port, token, "/mark", "{\"label\":\"fine\"}", 16, NULL), ==, 200);

  /* The client refuses a label the server would refuse. */
  long_mark = run_json (&status, "mark", too_long_label, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (error_code (long_mark), ==, "usage");

  g_assert_cmpuint (post (port, token, "/stop", "", 0, NULL), ==, 200);
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (rec));
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  report = parse_json (out);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (report, "markers"))), ==, 1);
}

static int flood_done;

static gpointer
communicate_thread (gpointer proc)
{
  char *out = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_atomic_int_set (&flood_done, 1);
  return out;
}

/* Open descriptors of @pid, from the kernel. */
static guint
count_fds (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/fd", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* VmRSS of @pid in kB, from the kernel; 0 when it is gone. */
static guint64
rss_kb (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (line = strstr (text, "\nVmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10);
}

static GSubprocess *
flood (GSubprocessFlags flags,
       const char      *mode,
       guint            port,
       guint            n)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "record", "control-flood.py", NULL);
  g_autofree char *port_s = g_strdup_printf ("%u", port);
  g_autofree char *n_s = g_strdup_printf ("%u", n);
  g_autoptr(GError) error = NULL;
  GSubprocess *p = g_subprocess_new (flags, &error, "python3", script, mode, port_s, n_s, NULL);

  g_assert_no_error (error);
  return p;
}

/* The largest step between two rows of a --samples CSV, in seconds. */
static double
largest_csv_step (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  double prev = NAN, step = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      double t = g_ascii_strtod (lines[i], NULL);

      if (!isnan (prev))
        step = MAX (step, t - prev);
      prev = t;
    }
  return step;
}

/* Any local user can reach the control port without the token: an
 * 800 MiB chunked body is refused once it passes the limit (it was read
 * whole: the recorder grew to 1.67 GB and stopped sampling for 10 s), and
 * 1000 idle connections do not use up the recorder's descriptors (mark
 * and stop failed for the rest of the run).  The recorder's RSS comes
 * from /proc, the samples' regularity from the CSV it streams. */
static void
test_control_port_flood (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(GSubprocess) chunked = NULL;
  g_autoptr(GSubprocess) idle = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(JsonNode) flood_result = NULL;
  g_autoptr(JsonNode) mark = NULL;
  g_autoptr(JsonNode) stop = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GInputStream) idle_out = NULL;
  g_autofree char *csv_path = g_build_filename (runtime_dir, "flood.csv", NULL);
  g_autofree char *out = NULL;
  g_autofree char *flood_out = NULL;
  guint64 rss_before, rss_max = 0;
  double step;
  guint port;
  GPid pid;
  int status;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--interval", "500ms", "--samples", csv_path, "--duration", "120s", NULL);
  g_assert_no_error (error);
  state = read_state ();
  port = (guint) json_node_get_int (adbscope_report_lookup (state, "port"));
  pid = (GPid) json_node_get_int (adbscope_report_lookup (state, "pid"));
  wait_for_csv_lines (csv_path, 3);
  rss_before = rss_kb (pid);

  /* 800 MiB, chunked: the recorder's RSS sampled until the client ends */
  chunked = flood (G_SUBPROCESS_FLAGS_STDOUT_PIPE, "chunked", port, 800);
  {
    GThread *t = g_thread_new ("flood", communicate_thread, chunked);

    while (!g_atomic_int_get (&flood_done))
      {
        rss_max = MAX (rss_max, rss_kb (pid));
        g_usleep (10 * 1000);
      }
    flood_out = g_thread_join (t);
  }
  rss_max = MAX (rss_max, rss_kb (pid));
  flood_result = parse_json (g_strstrip (flood_out));
  g_test_message ("chunked 800 MiB: %s; recorder RSS %" G_GUINT64_FORMAT " kB before, at most %" G_GUINT64_FORMAT " kB",
                  flood_out, rss_before, rss_max);
  /* cut off within the kernel's socket buffers, not read whole */
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (flood_result, "sent")), <, 64 * 1024 * 1024);
  g_assert_cmpint (rss_max, <, rss_before + 64 * 1024);

  mark = run_json (&status, "mark", "after the flood", NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&mark, json_node_unref);

  /* a connection that sends nothing is closed by the recorder within its
   * request time limit (5 s), not held */
  {
    g_autoptr(GSocketClient) client = g_socket_client_new ();
    g_autoptr(GSocketConnection) idle_conn = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, &error);
    gint64 t0 = g_get_monotonic_time ();
    GSocket *sock;
    char b;

    g_assert_no_error (error);
    sock = g_socket_connection_get_socket (idle_conn);
    g_socket_set_timeout (sock, 30);
    g_assert_cmpint (g_socket_receive (sock, &b, 1, NULL, &error), ==, 0);
    g_assert_no_error (error);
    g_test_message ("an idle connection was closed after %.1f s", (g_get_monotonic_time () - t0) / 1e6);
    g_assert_cmpint (g_get_monotonic_time () - t0, <, 20 * G_USEC_PER_SEC);
  }

  /* 1000 idle connections, held while mark and stop run */
  idle = flood (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE, "idle", port, 1000);
  idle_out = g_object_ref (g_subprocess_get_stdout_pipe (idle));
  {
    char ready[6] = { 0 };
    gsize n = 0;

    g_input_stream_read_all (idle_out, ready, 5, &n, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (ready, ==, "ready");
  }
  g_test_message ("1000 idle connections open; recorder fds: %u", count_fds (pid));
  g_assert_cmpuint (count_fds (pid), <, 200);
  mark = run_json (&status, "mark", "while 1000 connections idle", NULL);
  g_assert_cmpint (status, ==, 0);
  stop = run_json (&status, "stop", NULL);
  g_assert_cmpint (status, ==, 0);
  g_output_stream_close (g_subprocess_get_stdin_pipe (idle), NULL, NULL);
  g_subprocess_wait (idle, NULL, NULL);

  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  report = parse_json (out);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (report, "markers"))), ==, 2);
  /* sampling never waited on the port: at 500 ms no step of 2.5 s */
  step = largest_csv_step (csv_path);
  g_test_message ("largest step between samples: %.3f s", step);
  g_assert_cmpfloat (step, <, 2.5);
}

/* Processes that still carry the private server's port in their environment. */
static guint
count_processes_of (const char *spec)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autofree char *needle = g_strdup_printf ("ANDROID_ADB_SERVER_PORT=%s", spec);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "environ", NULL);
      g_autofree char *env = NULL;
      gsize len;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &env, &len, NULL))
        continue;
      for (gsize off = 0; off < len; off += strlen (env + off) + 1)
        if (g_str_equal (env + off, needle))
          {
            n++;
            break;
          }
    }
  return n;
}

/* A test that fails halfway (here: aborts with a record running) leaves
 * nothing behind: no adb server, no sim, no record. */
static void
test_failing_test_leaves_nothing (void)
{
  g_autofree char *spec_file = g_build_filename (runtime_dir, "leftover-spec", NULL);
  g_autofree char *spec = NULL;
  g_autofree char *port = NULL;
  gint64 deadline;

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      GSubprocess *rec;

      /* Our runtime_dir is this child's own: the parent names the file. */
      g_assert_true (g_file_set_contents (g_getenv ("ADBSCOPE_TEST_SPEC_FILE"),
                                          g_getenv ("ANDROID_ADB_SERVER_PORT"), -1, NULL));
      rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, NULL, &error,
                   "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE, NULL);
      g_assert_no_error (error);
      g_free (wait_for_state_file ());
      (void) rec;
      g_error ("failing on purpose with a record, a sim and an adb server running");
    }
  g_setenv ("ADBSCOPE_TEST_SPEC_FILE", spec_file, TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_unsetenv ("ADBSCOPE_TEST_SPEC_FILE");
  g_test_trap_assert_failed ();
  g_assert_true (g_file_get_contents (spec_file, &spec, NULL, NULL));
  g_test_message ("the failed test's server was on port %s", spec);
  port = g_strdup (spec);

  /* Bounded wait: its children get SIGTERM/SIGKILL when it dies. */
  deadline = g_get_monotonic_time () + 15 * G_USEC_PER_SEC;
  while (count_processes_of (spec) > 0 && g_get_monotonic_time () < deadline)
    g_usleep (100 * 1000);
  g_assert_cmpuint (count_processes_of (spec), ==, 0);
  /* And no adb server answers on its port (none was started anew). */
  {
    g_autofree char *cmd = g_strdup_printf ("ss -Hltn 'sport = :%s'", port);
    g_autofree char *out = NULL;

    g_assert_true (g_spawn_command_line_sync (cmd, &out, NULL, NULL, NULL));
    g_assert_cmpstr (g_strstrip (out), ==, "");
  }
  g_unlink (spec_file);
}

/* At --interval 100ms every row carries the latest PSS and battery level
 * (each valid for two periods of its own cadence, 2 s for both here), with
 * their age, and never one older than that.  Kept two fast intervals, as
 * once, a value vanished 0.2 s after each answer: here each is carried for
 * seconds.  (Rows are written as the run goes and a value is stamped when
 * it was asked for, so a row can precede its answer; a gap in the run, a
 * failed read or a new process ends a value early, which a loaded machine
 * makes common: such holes are counted, not failed.) */
static void
test_slow_series_at_short_interval (void)
{
  const double max_age = 2 * 2.0, slack = 0.0015;   /* the CSV rounds to 1 ms */
  static const char *const columns[][2] = {
    { "memory.app_pss_kb", "memory.meminfo_age_s" },
    { "power.battery_level_pct", "power.age_s" },
  };
  g_autofree char *csv_path = g_build_filename (runtime_dir, "fast.csv", NULL);
  g_autofree char *out = NULL, *err = NULL, *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  g_autoptr(JsonNode) report = NULL;
  JsonArray *gap_list;
  int value_col[2] = { -1, -1 }, age_col[2] = { -1, -1 };
  double last[2] = { NAN, NAN }, oldest_shown[2] = { 0, 0 };
  guint values[2] = { 0, 0 };
  int rows = 0, full_rows = 0, holes = 0;
  int rc;

  rc = run_as (NULL, NULL, &out, &err, "record", "-s", adbscope_test_device_get_serial (device),
               "-p", ADBSCOPE_DEMO_PACKAGE, "--interval", "100ms", "--duration", "8s",
               "--samples", csv_path, NULL);
  g_assert_cmpint (rc, ==, 0);
  report = parse_json (out);
  gap_list = json_node_get_array (adbscope_report_lookup (report, "run.gap_list"));
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (g_strstrip (csv), "\n", -1);
  header = g_strsplit (lines[0], ",", -1);
  g_assert_cmpstr (header[0], ==, "time_s");
  for (int c = 0; header[c] != NULL; c++)
    for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
      {
        if (g_str_equal (header[c], columns[k][0]))
          value_col[k] = c;
        else if (g_str_equal (header[c], columns[k][1]))
          age_col[k] = c;
      }
  for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
    {
      g_assert_cmpint (value_col[k], >, 0);
      g_assert_cmpint (age_col[k], >, 0);
    }

  for (guint r = 1; lines[r] != NULL; r++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[r], ",", -1);
      double t = g_ascii_strtod (cells[0], NULL);
      gboolean full = TRUE;

      for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
        {
          const char *value = cells[value_col[k]], *age_text = cells[age_col[k]];
          double age;

          /* A value and its age come together or not at all. */
          g_assert_cmpint (value[0] != '\0', ==, age_text[0] != '\0');
          if (value[0] == '\0')
            {
              /* A gap since that value ends it. */
              for (guint g = 0; !isnan (last[k]) && g < json_array_get_length (gap_list); g++)
                {
                  double start = json_object_get_double_member (json_array_get_object_element (gap_list, g),
                                                                "start_s");

                  if (start >= last[k] - slack && start <= t + slack)
                    {
                      g_test_message ("%s: the gap at %.3f s ends the value of %.3f s", columns[k][0],
                                      start, last[k]);
                      last[k] = NAN;
                    }
                }
              if (!isnan (last[k]) && t - last[k] <= max_age - slack)
                {
                  g_test_message ("row %u (t=%.3f s): %s is empty, the value of %.3f s shown before "
                                  "ended early (no gap)", r, t, columns[k][0], last[k]);
                  holes++;
                }
              last[k] = NAN;
              full = FALSE;
              continue;
            }
          age = g_ascii_strtod (age_text, NULL);
          g_assert_cmpfloat (age, >=, 0);
          g_assert_cmpfloat (age, <=, max_age + slack);
          if (isnan (last[k]) || t - age > last[k] + slack)
            values[k]++;
          if (isnan (last[k]) || t - age > last[k])
            last[k] = t - age;
          oldest_shown[k] = MAX (oldest_shown[k], age);
        }
      rows++;
      full_rows += full;
    }
  g_test_message ("%d of %d rows with PSS and battery; %u meminfo and %u battery values, shown up to "
                  "%.1f and %.1f s old; %d ended early without a gap", full_rows, rows, values[0], values[1],
                  oldest_shown[0], oldest_shown[1], holes);
  /* Not vacuous: 8 s at 2 s periods leaves a loaded machine room for a
   * first answer seconds late, and then a second one; and a value was
   * carried for longer than four fast intervals (a row every 250 ms on a
   * loaded machine; two intervals kept would show at most 0.2 s). */
  g_assert_cmpint (rows, >=, 16);
  for (guint k = 0; k < G_N_ELEMENTS (columns); k++)
    {
      g_assert_cmpuint (values[k], >=, 2);
      g_assert_cmpfloat (oldest_shown[k], >, 0.45);
    }
}

/* Counts the lines of the CSV at @path. */
static guint
csv_lines (const char *path)
{
  g_autofree char *text = NULL;
  guint rows = 0;

  if (g_file_get_contents (path, &text, NULL, NULL))
    for (const char *p = text; *p != '\0'; p++)
      rows += *p == '\n';
  return rows;
}

/* The gaps of a record at 100 ms are the spans between two samples three
 * intervals or more apart, computed here from the CSV's own sample times:
 * each listed gap starts and ends at a sample, contains none, overlaps no
 * other, and every such span is listed.  Two stalls of the phone make sure
 * there are some. */
static void
test_gaps_are_between_samples (void)
{
  const double slack = 0.0015;   /* the CSV rounds to 1 ms */
  g_autofree char *csv_path = g_build_filename (runtime_dir, "gaps.csv", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) rec = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *out = NULL, *csv = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *gap_list;
  guint n_gaps, true_gaps = 0, listed_true = 0, ambiguous = 0, rows;
  double true_s = 0;

  rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
               "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
               "--interval", "100ms", "--samples", csv_path, "--duration", "12s", NULL);
  g_assert_no_error (error);
  wait_for_csv_lines (csv_path, 15);
  adbscope_test_device_control (device, "stall 1000");
  rows = csv_lines (csv_path);
  wait_for_csv_lines (csv_path, rows + 15);
  adbscope_test_device_control (device, "stall 700");
  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  report = parse_json (out);
  gap_list = json_node_get_array (adbscope_report_lookup (report, "run.gap_list"));
  n_gaps = json_array_get_length (gap_list);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "run.gaps")), ==, n_gaps);

  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (g_strstrip (csv), "\n", -1);
  for (guint r = 1; lines[r] != NULL; r++)
    {
      double t = g_ascii_strtod (lines[r], NULL);

      g_array_append_val (times, t);
    }
  g_assert_cmpuint (times->len, ==, json_node_get_int (adbscope_report_lookup (report, "run.samples")));

  for (guint g = 0; g < n_gaps; g++)
    {
      JsonObject *o = json_array_get_object_element (gap_list, g);
      double start = json_object_get_double_member (o, "start_s");
      double end = json_object_get_double_member (o, "end_s");
      gboolean at_start = FALSE, at_end = FALSE;

      g_test_message ("gap %.3f → %.3f s", start, end);
      g_assert_cmpfloat (end - start, >=, 0.3 - slack);
      for (guint i = 0; i < times->len; i++)
        {
          double t = g_array_index (times, double, i);

          /* never a sample inside */
          g_assert_false (t > start + slack && t < end - slack);
          at_start |= fabs (t - start) <= slack;
          at_end |= fabs (t - end) <= slack;
        }
      g_assert_true (at_start && at_end);
      if (g > 0)
        g_assert_cmpfloat (start, >=, json_object_get_double_member (json_array_get_object_element (gap_list, g - 1),
                                                                    "end_s") - slack);
    }
  /* Every span of three intervals or more between two samples is listed. */
  for (guint i = 1; i < times->len; i++)
    {
      double a = g_array_index (times, double, i - 1), b = g_array_index (times, double, i);
      gboolean listed = FALSE;

      if (b - a >= 0.3 - slack && b - a < 0.3 + slack)
        ambiguous++;
      if (b - a < 0.3 + slack)
        continue;
      true_gaps++;
      true_s += b - a;
      for (guint g = 0; g < n_gaps && !listed; g++)
        {
          JsonObject *o = json_array_get_object_element (gap_list, g);

          listed = fabs (json_object_get_double_member (o, "start_s") - a) <= slack &&
                   fabs (json_object_get_double_member (o, "end_s") - b) <= slack;
        }
      listed_true += listed;
      if (!listed)
        g_test_message ("not listed: %.3f → %.3f s", a, b);
    }
  g_test_message ("%u samples; %u gaps listed, %u spans of 0.3 s or more (%.2f s)", times->len, n_gaps,
                  true_gaps, true_s);
  g_assert_cmpuint (true_gaps, >=, 2);
  g_assert_cmpuint (listed_true, ==, true_gaps);
  /* and nothing else but spans within the CSV's rounding of 0.3 s */
  g_assert_cmpuint (n_gaps, <=, true_gaps + ambiguous);
}

static void
write_battery_file (const char *name,
                    const char *value)
{
  g_autofree char *path = g_build_filename (adbscope_test_device_get_sandbox (device), "sys", "power_supply",
                                            "battery", name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, value, -1, &error);
  g_assert_no_error (error);
}

/* A phone whose battery says what no battery can (a level of 250 on a
 * scale of 100, 1e11 mV, -300 °C, written by the test into the files the
 * phone's `dumpsys battery` prints): the report has no such value — the
 * series are null — and counts each in run.implausible. */
static void
test_implausible_battery (void)
{
  g_autofree char *answer = adbscope_test_device_query (device, "battery-freeze");
  g_autofree char *thawed = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonNode) report = NULL;
  double n_level;
  int rc;

  g_assert_cmpstr (answer, ==, "ok");
  write_battery_file ("capacity", "250\n");
  write_battery_file ("voltage_now", "100000000000000\n");
  write_battery_file ("temp", "-3000\n");
  rc = run_as (NULL, NULL, &out, &err, "record", "-s", adbscope_test_device_get_serial (device),
               "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "5s", NULL);
  thawed = adbscope_test_device_query (device, "battery-thaw");
  g_assert_cmpstr (thawed, ==, "ok");
  g_assert_cmpint (rc, ==, 0);
  report = parse_json (out);
  n_level = json_node_get_int (adbscope_report_lookup (report, "run.implausible.battery_level"));
  g_test_message ("battery read %.0f times, every time implausible", n_level);
  g_assert_cmpfloat (n_level, >=, 1);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "run.implausible.voltage")), ==, n_level);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "run.implausible.battery_temp")), ==, n_level);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "run.implausible.device_clock")), ==, 0);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "power.battery_level_pct.n")), ==, 0);
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "power.battery_level_pct.max")));
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "power.voltage_mv.max")));
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "power.battery_temp_c.min")));
  /* the rest of the battery is still measured */
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "power.current_ma.n")), >=, 1);
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

static guint
count_state_files (void)
{
  g_autofree char *path = g_build_filename (runtime_dir, "adbscope", "runs", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (name, ".json");
  return n;
}

/* The labels of a report's markers, joined by "|". */
static char *
marker_labels (JsonNode *report)
{
  JsonArray *markers = json_node_get_array (adbscope_report_lookup (report, "markers"));
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (markers); i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "|" : "",
                            json_object_get_string_member (json_array_get_object_element (markers, i), "label"));
  return g_string_free (text, FALSE);
}

static JsonNode *
finish_record (GSubprocess *rec)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  g_subprocess_communicate_utf8 (rec, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (rec), ==, 0);
  return parse_json (out);
}

/* Two devices, two records at once: mark and stop reach the one named by
 * --serial or --id, an unnamed request with two running says which ones
 * exist, and with one left it goes to that one.  Each report has only
 * its own markers, its own device and its own app's pid. */
static void
test_parallel_records (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) tablet = adbscope_test_device_start ("tablet-13", NULL, &error);
  const char *phone_serial = adbscope_test_device_get_serial (device);
  const char *tablet_serial;
  g_autoptr(GSubprocess) phone_rec = NULL;
  g_autoptr(GSubprocess) tablet_rec = NULL;
  g_autoptr(JsonNode) phone_report = NULL;
  g_autoptr(JsonNode) tablet_report = NULL;
  g_autoptr(JsonNode) j = NULL;
  g_autofree char *phone_id = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *phone_csv = g_build_filename (runtime_dir, "phone.csv", NULL);
  g_autofree char *tablet_csv = g_build_filename (runtime_dir, "tablet.csv", NULL);
  gint64 deadline;
  const char *message;
  int status;

  g_assert_no_error (error);
  tablet_serial = adbscope_test_device_get_serial (tablet);
  g_assert_cmpstr (phone_serial, !=, tablet_serial);

  phone_rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
                     "record", "-s", phone_serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "60s",
                     "--interval", "250ms", "--samples", phone_csv, NULL);
  g_assert_no_error (error);
  tablet_rec = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL, &error,
                      "record", "-s", tablet_serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--id", "ci-tablet",
                      "--duration", "60s", "--interval", "250ms", "--samples", tablet_csv, NULL);
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (count_state_files () < 2 && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  if (count_state_files () != 2)
    {
      /* Say why: what each record printed (an error is JSON on stdout). */
      g_autofree char *phone_out = NULL, *tablet_out = NULL;

      g_subprocess_send_signal (phone_rec, SIGTERM);
      g_subprocess_send_signal (tablet_rec, SIGTERM);
      g_subprocess_communicate_utf8 (phone_rec, NULL, NULL, &phone_out, NULL, NULL);
      g_subprocess_communicate_utf8 (tablet_rec, NULL, NULL, &tablet_out, NULL, NULL);
      g_error ("%u state files after 20 s; phone record: %s; tablet record: %s", count_state_files (),
               phone_out, tablet_out);
    }
  /* both sessions run: each has written a sample */
  wait_for_csv_lines (phone_csv, 2);
  wait_for_csv_lines (tablet_csv, 2);

  /* Nothing named, two running: which ones, and nothing marked. */
  j = run_json (&status, "mark", "ambiguous", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (j), ==, "multiple_records");
  message = json_node_get_string (adbscope_report_lookup (j, "error.message"));
  g_assert_nonnull (strstr (message, "ci-tablet"));
  g_assert_nonnull (strstr (message, phone_serial));
  g_assert_nonnull (strstr (message, tablet_serial));
  g_clear_pointer (&j, json_node_unref);

  j = run_json (&status, "mark", "-s", phone_serial, "phone only", NULL);
  g_assert_cmpint (status, ==, 0);
  phone_id = g_strdup (json_node_get_string (adbscope_report_lookup (j, "record")));
  g_assert_cmpstr (phone_id, !=, "ci-tablet");
  g_clear_pointer (&j, json_node_unref);

  j = run_json (&status, "mark", "--id", "ci-tablet", "tablet only", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (j, "record")), ==, "ci-tablet");
  g_clear_pointer (&j, json_node_unref);

  j = run_json (&status, "mark", "--id", "nope", "x", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (j), ==, "no_recording");
  g_assert_nonnull (strstr (json_node_get_string (adbscope_report_lookup (j, "error.message")), "ci-tablet"));
  g_clear_pointer (&j, json_node_unref);

  /* A second record on a device that has one is refused, naming it. */
  j = run_json (&status, "record", "-s", phone_serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "1s", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (error_code (j), ==, "address_in_use");
  g_assert_nonnull (strstr (json_node_get_string (adbscope_report_lookup (j, "error.message")), phone_id));
  g_clear_pointer (&j, json_node_unref);

  j = run_json (&status, "stop", "--id", "ci-tablet", NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&j, json_node_unref);
  tablet_report = finish_record (tablet_rec);

  /* One left: an unnamed mark and stop go to it. */
  j = run_json (&status, "mark", "phone again", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (j, "record")), ==, phone_id);
  g_clear_pointer (&j, json_node_unref);
  j = run_json (&status, "stop", NULL);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&j, json_node_unref);
  phone_report = finish_record (phone_rec);

  labels = marker_labels (tablet_report);
  g_assert_cmpstr (labels, ==, "tablet only");
  g_clear_pointer (&labels, g_free);
  labels = marker_labels (phone_report);
  g_assert_cmpstr (labels, ==, "phone only|phone again");
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (tablet_report, "device.serial")), ==, tablet_serial);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (phone_report, "device.serial")), ==, phone_serial);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (tablet_report, "device.model")), !=,
                   json_node_get_string (adbscope_report_lookup (phone_report, "device.model")));
  {
    JsonArray *tp = json_node_get_array (adbscope_report_lookup (tablet_report, "app.pids"));
    JsonArray *pp = json_node_get_array (adbscope_report_lookup (phone_report, "app.pids"));

    g_assert_cmpint (json_array_get_int_element (tp, 0), ==,
                     adbscope_test_device_get_app_pid (tablet, ADBSCOPE_DEMO_PACKAGE));
    g_assert_cmpint (json_array_get_int_element (pp, 0), ==,
                     adbscope_test_device_get_app_pid (device, ADBSCOPE_DEMO_PACKAGE));
  }
  g_assert_cmpuint (count_state_files (), ==, 0);
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
  g_test_add_func ("/record/cli/device-lost", test_device_lost);
  g_test_add_func ("/record/cli/two-records-race", test_two_records_race);
  g_test_add_func ("/record/cli/stale-control-file", test_stale_control_file);
  g_test_add_func ("/record/cli/parallel-records", test_parallel_records);
  g_test_add_func ("/record/cli/hostile-bodies", test_hostile_bodies);
  g_test_add_func ("/record/cli/control-port-flood", test_control_port_flood);
  g_test_add_func ("/record/cli/slow-series-at-short-interval", test_slow_series_at_short_interval);
  g_test_add_func ("/record/cli/gaps-are-between-samples", test_gaps_are_between_samples);
  g_test_add_func ("/record/cli/implausible-battery", test_implausible_battery);
  g_test_add_func ("/record/cli/failing-test-leaves-nothing", test_failing_test_leaves_nothing);
  g_test_add_func ("/record/cli/never-ran-is-null", test_never_ran_is_null);
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
