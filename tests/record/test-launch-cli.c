/* `adbscope launch` against the simulated device, whose demo app takes a
 * known time (--startup-ms) to draw its first frame: every cold start must
 * take at least that long and start a new process; a hot one neither.
 */
#include "config.h"

#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

#define STARTUP_MS 400

static AdbscopeTestDevice *device;

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

static gint64
app_pid (void)
{
  g_autofree char *out = adbscope_test_device_adb (device, NULL, "shell", "pidof " ADBSCOPE_DEMO_PACKAGE, NULL);

  return g_ascii_strtoll (out, NULL, 10);
}

static gint64
member (JsonNode   *node,
        const char *path)
{
  JsonNode *v = adbscope_report_lookup (node, path);

  g_assert_nonnull (v);
  return json_node_get_int (v);
}

static void
test_cold (void)
{
  gint64 before = app_pid ();
  int status;
  g_autoptr(JsonNode) out = run_json (&status, "launch", "-s", adbscope_test_device_get_serial (device),
                                      "-p", ADBSCOPE_DEMO_PACKAGE, "--runs", "3", "--cold", NULL);
  JsonArray *runs;

  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (out, "mode")), ==, "cold");
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (out, "component")), ==,
                   ADBSCOPE_DEMO_PACKAGE "/.MainActivity");
  runs = json_node_get_array (adbscope_report_lookup (out, "runs"));
  g_assert_cmpuint (json_array_get_length (runs), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *r = json_array_get_object_element (runs, i);
      gint64 total = json_object_get_int_member (r, "total_ms");

      g_test_message ("cold run %u: %" G_GINT64_FORMAT " ms", i, total);
      g_assert_cmpint (total, >=, STARTUP_MS);
      g_assert_cmpint (total, <, STARTUP_MS + 5000);
      g_assert_cmpstr (json_object_get_string_member (r, "launch_state"), ==, "COLD");
      /* the sim has no logcat: not printed, so null, never 0 */
      g_assert_true (json_object_get_null_member (r, "displayed_ms"));
    }
  g_assert_cmpint (member (out, "total_ms.n"), ==, 3);
  g_assert_cmpint (member (out, "total_ms.min"), <=, member (out, "total_ms.p50"));
  g_assert_cmpint (member (out, "total_ms.p50"), <=, member (out, "total_ms.p90"));
  g_assert_cmpint (member (out, "total_ms.p90"), <=, member (out, "total_ms.max"));
  /* a cold start is a new process */
  g_assert_cmpint (app_pid (), >, 0);
  g_assert_cmpint (app_pid (), !=, before);
}

static void
test_hot (void)
{
  gint64 before;
  int status;
  g_autoptr(JsonNode) out = NULL;

  g_assert_cmpint (app_pid (), >, 0);
  before = app_pid ();
  out = run_json (&status, "launch", "-s", adbscope_test_device_get_serial (device),
                  "-p", ADBSCOPE_DEMO_PACKAGE, "--runs", "2", "--hot", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (member (out, "total_ms.n"), ==, 2);
  /* already running: no start-up work, only a frame */
  g_assert_cmpint (member (out, "total_ms.max"), <, STARTUP_MS);
  g_assert_cmpint (app_pid (), ==, before);
}

static void
test_errors (void)
{
  const char *serial = adbscope_test_device_get_serial (device);
  int status;
  g_autoptr(JsonNode) missing = run_json (&status, "launch", "-s", serial, "-p", "com.example.none", NULL);
  g_autoptr(JsonNode) bad = NULL;
  g_autoptr(JsonNode) usage = NULL;
  g_autoptr(JsonNode) runs = NULL;

  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (missing, "error.code")), ==, "package_not_found");
  bad = run_json (&status, "launch", "-s", serial, "-p", "a;reboot", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (bad, "error.code")), ==, "invalid_package");
  usage = run_json (&status, "launch", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--warm", "--hot", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (usage, "error.code")), ==, "usage");
  runs = run_json (&status, "launch", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--runs", "0", NULL);
  g_assert_cmpint (status, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  const char *args[] = { "--startup-ms", G_STRINGIFY (STARTUP_MS), NULL };
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  device = adbscope_test_device_start ("pixel-14", args, &error);
  g_assert_no_error (error);
  g_test_add_func ("/launch/cold", test_cold);
  g_test_add_func ("/launch/hot", test_hot);
  g_test_add_func ("/launch/errors", test_errors);
  rc = g_test_run ();
  adbscope_test_device_free (device);
  return rc;
}
