/* capture-device and sim --replay end to end: the demo device captured,
 * replayed and recorded; a shared fixture set replayed and recorded.
 * Expected values are read by the test itself from the captured files. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "adbscope-core.h"
#include "adbscope-parse-getprop.h"
#include "adbscope-sim-private.h"
#include "adbscope-test-device.h"

static char *scratch;

static void
die_with_test (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* Runs adbscope ARGS…; stdout parsed as JSON, the status and stderr out. */
static JsonNode *
run_json (int   *status,
          char **err_out,
          ...)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *runtime = g_build_filename (scratch, "runtime", NULL);
  const char *arg;
  va_list ap;

  g_mkdir_with_parents (runtime, 0700);
  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  va_start (ap, err_out);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (proc);
  if (err_out != NULL)
    *err_out = g_steal_pointer (&err);
  if (!json_parser_load_from_data (parser, out, -1, &error))
    g_error ("not JSON on stdout (%s): %s", error->message, out);
  return json_node_copy (json_parser_get_root (parser));
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

static JsonNode *
lookup (JsonNode   *root,
        const char *path)
{
  JsonNode *n = adbscope_report_lookup (root, path);

  if (n == NULL)
    g_error ("no %s in the report", path);
  return n;
}

static double
number (JsonNode   *root,
        const char *path)
{
  JsonNode *n = lookup (root, path);

  return JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
}

static char *
read_text (const char *dir,
           const char *rel)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The captured answers of one command (manifest "commands"), in order. */
static GPtrArray *
answers (const char *dir,
         JsonNode   *manifest,
         const char *command)
{
  JsonArray *cmds = json_object_get_array_member (json_node_get_object (manifest), "commands");
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < json_array_get_length (cmds); i++)
    {
      JsonObject *c = json_array_get_object_element (cmds, i);
      JsonArray *files = json_object_get_array_member (c, "files");

      if (!g_str_equal (json_object_get_string_member (c, "command"), command))
        continue;
      for (guint r = 0; r < json_array_get_length (files); r++)
        if (!json_node_is_null (json_array_get_element (files, r)))
          g_ptr_array_add (texts, read_text (dir, json_array_get_string_element (files, r)));
    }
  return texts;
}

static double
field_after (const char *text,
             const char *label)
{
  const char *p = strstr (text, label);

  return p != NULL ? g_ascii_strtod (p + strlen (label), NULL) : NAN;
}

/* The hottest temperature of "Current temperatures from HAL", as the
 * test reads it: Temperature{mValue=V, mType=T, …} lines; types 6–8 are
 * volts, amps and percent. */
static double
hal_max_temp (const char *dump)
{
  const char *p = strstr (dump, "Current temperatures from HAL:");
  g_auto(GStrv) lines = NULL;
  double max = NAN;

  g_assert_nonnull (p);
  lines = g_strsplit (p, "\n", -1);
  for (guint i = 1; lines[i] != NULL && (lines[i][0] == '\t' || lines[i][0] == ' '); i++)
    {
      double v = field_after (lines[i], "mValue=");
      int type = (int) field_after (lines[i], "mType=");

      if (type != 6 && type != 7 && type != 8 && (isnan (max) || v > max))
        max = v;
    }
  return max;
}

static void
test_redact (void)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  const char *secrets[] = { "R58N123ABC", NULL };
  const char *in =
    "[ro.serialno]: [R58N123ABC]\n"
    "[persist.vendor.radio.imei]: [356938035643809]\n"
    "    Account {name=jane.doe@gmail.com, type=com.google}\n"
    "  mail jane.doe@example.org here\n"
    "  SSID: \"HomeWifi\", BSSID: 3c:84:6a:11:22:33, freq 5180\n"
    "  wlan0 HWaddr 3c:84:6a:44:55:66\n"
    "  line1Number=+4915112345678\n"
    "  mImei=356938035643809\n"
    "  android.hardware.thermal@2.0-service.mtk\n"
    "  serial R58N123ABC\n";
  g_autofree char *out = adbscope_device_capture_redact (in, TRUE, secrets, counts);
  g_autofree char *file = adbscope_device_capture_redact ("cpu  1 2 3 356938035643809\n3c:84:6a:11:22:33\n",
                                                          FALSE, secrets, counts);

  g_assert_null (strstr (out, "R58N123ABC"));
  g_assert_null (strstr (out, "356938035643809"));
  g_assert_null (strstr (out, "jane.doe"));
  g_assert_null (strstr (out, "HomeWifi"));
  g_assert_null (strstr (out, "3c:84:6a"));
  g_assert_null (strstr (out, "4915112345678"));
  g_assert_nonnull (strstr (out, "android.hardware.thermal@2.0-service.mtk"));
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "serial")), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "email")), >=, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "account")), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "mac_address")), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "phone_number")), ==, 1);
  /* kernel files keep their numbers (only the serial goes) */
  g_assert_cmpstr (file, ==, "cpu  1 2 3 356938035643809\n3c:84:6a:11:22:33\n");
}

static void
test_offset (void)
{
  const char *first = "cpu  100 0 50 1000 0 0 0 0 0 0\ncpu0 100 0 50 1000 0 0 0 0 0 0\nctxt 500\nbtime 1700000000\nprocs_running 3";
  const char *last  = "cpu  160 0 80 1300 0 0 0 0 0 0\ncpu0 160 0 80 1300 0 0 0 0 0 0\nctxt 800\nbtime 1700000000\nprocs_running 1";
  g_autofree char *s0 = adbscope_sim_replay_offset ("/proc/stat", first, first, last, 4, 1);
  g_autofree char *s1 = adbscope_sim_replay_offset ("/proc/stat", last, first, last, 4, 2);
  g_autofree char *up = adbscope_sim_replay_offset ("/proc/uptime", "10.50 20.25", "10.50 20.25", "13.50 26.25", 4, 1);
  g_autofree char *task = adbscope_sim_replay_offset ("/proc/42/task/43/stat",
                                                      "43 (Render Thread) S 1 2 3 4 5 6 7 8 9 10 100 20 0 0 20 0 1 0 555",
                                                      "43 (Render Thread) S 1 2 3 4 5 6 7 8 9 10 100 20 0 0 20 0 1 0 555",
                                                      "43 (Render Thread) S 1 2 3 4 5 6 7 8 9 10 130 26 0 0 20 0 1 0 555",
                                                      4, 1);

  /* span 60 → +80 per cycle (span plus one mean step of 20) */
  g_assert_cmpstr (s0, ==, "cpu  180 0 90 1400 0 0 0 0 0 0\ncpu0 180 0 90 1400 0 0 0 0 0 0\nctxt 900\nbtime 1700000000\nprocs_running 3");
  g_assert_cmpstr (s1, ==, "cpu  320 0 160 2100 0 0 0 0 0 0\ncpu0 320 0 160 2100 0 0 0 0 0 0\nctxt 1600\nbtime 1700000000\nprocs_running 1");
  g_assert_cmpstr (up, ==, "14.50 28.25");
  /* utime/stime move, the start time (field 22) does not */
  g_assert_cmpstr (task, ==, "43 (Render Thread) S 1 2 3 4 5 6 7 8 9 10 140 28 0 0 20 0 1 0 555");
}

static void
record (const char *serial,
        const char *package,
        const char *report)
{
  g_autoptr(JsonNode) out = NULL;
  g_autofree char *err = NULL;
  int status;

  out = run_json (&status, &err, "record", "-s", serial, "-p", package, "--duration", "5s", "-o", report, NULL);
  if (status != 0)
    g_error ("record failed (%d): %s", status, err);
}

static void
test_fixtures (void)
{
  g_autofree char *dir = g_build_filename (scratch, "mt8168", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "replay", "fixtures-to-replay.py", NULL);
  g_autofree char *report_path = g_build_filename (scratch, "mt8168.json", NULL);
  const char *fixtures = g_getenv ("ADBSCOPE_FIXTURES");
  const char *argv[] = { "python3", script, fixtures, "mt8168", dir, NULL };
  const char *extra[] = { "--replay", dir, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GPtrArray) battery = NULL;
  g_autoptr(GPtrArray) thermal = NULL;
  g_autoptr(GPtrArray) ps = NULL;
  g_autoptr(GPtrArray) props = NULL;
  g_autofree char *manifest_path = g_build_filename (dir, "manifest.json", NULL);
  g_autoptr(GHashTable) getprop = NULL;
  int status = -1;
  double rss = NAN;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  dev = adbscope_test_device_start (NULL, extra, &error);
  if (adbscope_test_device_skip_if_unsupported (error))
    return;
  g_assert_no_error (error);
  record (adbscope_test_device_get_serial (dev), "com.android.systemui", report_path);

  manifest = load_json (manifest_path);
  report = load_json (report_path);
  battery = answers (dir, manifest, "dumpsys battery");
  thermal = answers (dir, manifest, "dumpsys thermalservice");
  ps = answers (dir, manifest, "ps -A -o PID,PPID,RSS,NAME");
  props = answers (dir, manifest, "getprop");
  g_assert_cmpuint (battery->len, ==, 1);
  getprop = adbscope_getprop_parse (props->pdata[0], strlen (props->pdata[0]), NULL);

  g_assert_cmpstr (json_node_get_string (lookup (report, "device.model")), ==, g_hash_table_lookup (getprop, "ro.product.model"));
  g_assert_cmpfloat (number (report, "device.sdk"), ==, g_ascii_strtod (g_hash_table_lookup (getprop, "ro.build.version.sdk"), NULL));
  g_assert_cmpfloat (number (report, "power.battery_level_pct.avg"), ==, field_after (battery->pdata[0], "level: "));
  g_assert_cmpfloat (number (report, "power.battery_level_pct.n"), >=, 1);
  g_assert_cmpfloat (fabs (number (report, "power.battery_temp_c.avg") - field_after (battery->pdata[0], "temperature: ") / 10.0), <, 1e-9);
  g_assert_cmpfloat (fabs (number (report, "thermal.max_temp_c.max") - hal_max_temp (thermal->pdata[0])), <, 1e-9);
  /* the app's RSS from ps: the test's own read of the row */
  {
    g_auto(GStrv) lines = g_strsplit (ps->pdata[0], "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_suffix (lines[i], " com.android.systemui"))
        {
          g_auto(GStrv) w = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
          guint n = 0;

          for (guint k = 0; w[k] != NULL; k++)
            if (w[k][0] != '\0' && ++n == 3)
              rss = g_ascii_strtod (w[k], NULL);
        }
  }
  {
    JsonArray *procs = json_node_get_array (lookup (report, "system.processes"));

    g_assert_cmpuint (json_array_get_length (procs), ==, 1);
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (procs, 0), "rss_kb"), ==, rss);
  }
  /* what the fixtures do not have is said, not invented */
  g_assert_true (JSON_NODE_HOLDS_NULL (lookup (report, "device.cores")));
  g_assert_true (JSON_NODE_HOLDS_NULL (lookup (report, "device.refresh_hz")));
  g_assert_false (json_node_get_boolean (lookup (report, "sources.frames.supported")));
  g_assert_true (json_node_get_boolean (lookup (report, "sources.thermal.supported")));
}

static guint64
cpu_total (const char *stat)
{
  g_auto(GStrv) w = g_strsplit_set (stat, " \n", -1);
  guint64 total = 0;
  guint n = 0;

  for (guint i = 1; w[i] != NULL && n < 10; i++)
    if (w[i][0] != '\0')
      {
        total += g_ascii_strtoull (w[i], NULL, 10);
        n++;
      }
  return total;
}

static void
test_capture_demo (void)
{
  g_autofree char *dir = g_build_filename (scratch, "demo-capture", NULL);
  g_autofree char *orig_report = g_build_filename (scratch, "demo-orig.json", NULL);
  g_autofree char *replay_report = g_build_filename (scratch, "demo-replay.json", NULL);
  g_autofree char *manifest_path = g_build_filename (dir, "manifest.json", NULL);
  const char *pkg = "io.github.adbscope.demo";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) demo = NULL;
  g_autoptr(AdbscopeTestDevice) replay = NULL;
  g_autoptr(JsonNode) out = NULL;
  g_autoptr(JsonNode) manifest = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;
  g_autoptr(GPtrArray) tools = adbscope_device_commands_tools (pkg);
  g_autoptr(GPtrArray) stats = NULL;
  g_autoptr(GPtrArray) latency = NULL;
  g_autoptr(GPtrArray) battery = NULL;
  g_autofree char *keep = g_build_filename (dir, "keep.txt", NULL);
  g_autofree char *err = NULL;
  g_autofree char *all = NULL;
  int status;

  demo = adbscope_test_device_start (NULL, NULL, &error);
  g_assert_no_error (error);

  /* errors first: no device, a directory that is not empty, one not writable */
  out = run_json (&status, NULL, "capture-device", "-s", "127.0.0.1:1", "-o", dir, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (json_node_get_string (lookup (out, "error.code")), ==, "no_device");
  g_clear_pointer (&out, json_node_unref);
  g_mkdir_with_parents (dir, 0755);
  g_file_set_contents (keep, "x", -1, NULL);
  out = run_json (&status, NULL, "capture-device", "-s", adbscope_test_device_get_serial (demo), "-o", dir, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_cmpstr (json_node_get_string (lookup (out, "error.code")), ==, "usage");
  g_clear_pointer (&out, json_node_unref);
  out = run_json (&status, NULL, "capture-device", "-s", adbscope_test_device_get_serial (demo),
                  "-o", "/proc/adbscope-not-writable", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (json_node_get_string (lookup (out, "error.code")), ==, "io_error");
  g_clear_pointer (&out, json_node_unref);

  out = run_json (&status, &err, "capture-device", "-s", adbscope_test_device_get_serial (demo), "-p", pkg,
                  "-o", dir, "--force", "--duration", "3s", "--repeats", "4", NULL);
  if (status != 0)
    g_error ("capture-device failed: %s", err);
  g_assert_nonnull (strstr (err, "repeat 4/4"));
  g_assert_true (g_file_test (keep, G_FILE_TEST_EXISTS));
  manifest = load_json (manifest_path);

  /* every command the collectors run, four times, with its answer */
  for (guint i = 0; i < tools->len; i++)
    {
      g_autoptr(GPtrArray) t = answers (dir, manifest, g_ptr_array_index (tools, i));

      if (t->len != 4)
        g_error ("“%s”: %u answers", (const char *) g_ptr_array_index (tools, i), t->len);
    }
  /* the serial is nowhere in the capture */
  {
    g_autofree char *cmd = g_strdup_printf ("grep -rlF %s %s", adbscope_test_device_get_serial (demo), dir);
    int rc = 0;

    g_spawn_command_line_sync (cmd, &all, NULL, &rc, NULL);
    g_assert_cmpstr (all, ==, "");
  }
  g_assert_cmpfloat (number (manifest, "redacted.serial"), >, 0);
  g_assert_cmpstr (json_node_get_string (lookup (manifest, "device.model")), ==, "Pixel 8");

  record (adbscope_test_device_get_serial (demo), pkg, orig_report);
  replay = adbscope_test_device_start (NULL, (const char *[]) { "--replay", dir, NULL }, &error);
  if (adbscope_test_device_skip_if_unsupported (error))
    return;
  g_assert_no_error (error);

  /* unknown commands as a phone; counters keep growing across the wrap */
  {
    g_autofree char *e = NULL;
    g_autofree char *o = adbscope_test_device_adbv (replay, (const char *[]) { "shell", "nosuchcmd", NULL }, &status, &e);

    g_assert_cmpint (status, ==, 127);
    g_assert_cmpstr (e, ==, "/system/bin/sh: nosuchcmd: not found\n");
    g_assert_cmpstr (o, ==, "");
  }
  {
    JsonArray *ups = json_node_get_array (lookup (manifest, "uptime_s"));
    guint n = json_array_get_length (ups);
    double last_up = json_array_get_double_element (ups, n - 1);
    double step = (last_up - json_array_get_double_element (ups, 0)) / (n - 1);
    guint64 prev_total = 0;
    double prev_up = 0;
    /* past the wrap: n + 1 steps and a half */
    gint64 end = g_get_monotonic_time () + (gint64) (step * (n + 1.5) * G_USEC_PER_SEC);
    guint changes = 0;

    /* Past the end, and on until every step was seen changing: a loaded
     * machine makes fewer polls in the time (bounded). */
    while (g_get_monotonic_time () < end ||
           (changes < n && g_get_monotonic_time () < end + 60 * G_USEC_PER_SEC))
      {
        g_autofree char *o = adbscope_test_device_adbv (replay, (const char *[]) { "shell", "head -n 1 /proc/stat; cat /proc/uptime", NULL },
                                                         &status, NULL);
        g_auto(GStrv) l = g_strsplit (o, "\n", 3);
        guint64 total = cpu_total (l[0]);
        double up = g_ascii_strtod (l[1], NULL);

        g_assert_cmpuint (total, >=, prev_total);
        g_assert_cmpfloat (up, >=, prev_up);
        changes += up > prev_up && prev_up > 0;
        prev_total = total;
        prev_up = up;
        /* paces the polls of the replayed clock (counted above): the
         * loop's end is the condition, this only spaces the reads */
        g_usleep (300 * 1000);
      }
    g_assert_cmpuint (changes, >=, n);
    /* after the wrap the clock is beyond anything captured */
    g_assert_cmpfloat (prev_up, >, last_up);
  }
  record (adbscope_test_device_get_serial (replay), pkg, replay_report);

  a = load_json (orig_report);
  b = load_json (replay_report);
  /* the device as the probe saw it is the same */
  for (guint i = 0; i < 8; i++)
    {
      static const char * const keys[] = { "device.model", "device.manufacturer", "device.release", "device.sdk",
                                           "device.cores", "device.page_size", "device.abi", "device.device" };
      g_autofree char *x = json_to_string (lookup (a, keys[i]), FALSE);
      g_autofree char *y = json_to_string (lookup (b, keys[i]), FALSE);

      g_assert_cmpstr (x, ==, y);
    }
  {
    g_autofree char *x = json_to_string (lookup (a, "sources"), FALSE);
    g_autofree char *y = json_to_string (lookup (b, "sources"), FALSE);

    g_assert_cmpstr (x, ==, y);
  }
  /* and what the test reads from the capture */
  stats = g_ptr_array_new_with_free_func (g_free);
  {
    JsonArray *files = json_object_get_array_member (json_node_get_object (manifest), "files");

    for (guint i = 0; i < json_array_get_length (files); i++)
      {
        JsonObject *f = json_array_get_object_element (files, i);

        if (g_str_equal (json_object_get_string_member (f, "path"), "/proc/stat"))
          g_ptr_array_add (stats, read_text (dir, json_array_get_string_element (json_object_get_array_member (f, "files"), 0)));
      }
  }
  g_assert_cmpuint (stats->len, ==, 1);
  {
    g_auto(GStrv) lines = g_strsplit (stats->pdata[0], "\n", -1);
    guint cpus = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      cpus += g_str_has_prefix (lines[i], "cpu") && g_ascii_isdigit (lines[i][3]);
    g_assert_cmpfloat (number (b, "device.cores"), ==, cpus);
  }
  latency = answers (dir, manifest, "dumpsys SurfaceFlinger --latency");
  g_assert_cmpfloat (fabs (number (b, "device.refresh_hz") - 1e9 / g_ascii_strtod (latency->pdata[0], NULL)), <, 1e-6);
  battery = answers (dir, manifest, "dumpsys battery");
  {
    double lo = INFINITY, hi = -INFINITY;

    for (guint i = 0; i < battery->len; i++)
      {
        double v = field_after (battery->pdata[i], "level: ");

        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
    g_assert_cmpfloat (number (b, "power.battery_level_pct.min"), >=, lo);
    g_assert_cmpfloat (number (b, "power.battery_level_pct.max"), <=, hi);
  }
  g_assert_cmpfloat (number (b, "cpu.app_pct.n"), >=, 1);
  g_assert_cmpfloat (number (b, "thermal.max_temp_c.n"), >=, 1);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  scratch = g_dir_make_tmp ("adbscope-replay-XXXXXX", NULL);
  g_test_add_func ("/replay/redact", test_redact);
  g_test_add_func ("/replay/offset", test_offset);
  g_test_add_func ("/replay/fixtures-mt8168", test_fixtures);
  g_test_add_func ("/replay/capture-demo", test_capture_demo);
  rc = g_test_run ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf %s", scratch);

    g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
  }
  return rc;
}
