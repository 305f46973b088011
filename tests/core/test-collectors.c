/* The collectors' glue on real captures (not only on the simulated device),
 * the probe, assertions and the report skeleton. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-fast-collector-private.h"
#include "adbscope-frames-collector-private.h"
#include "adbscope-meminfo-collector-private.h"
#include "adbscope-slow-collector-private.h"

static char *
fixture (const char *rel)
{
  g_autofree char *path = g_build_filename (g_getenv ("ADBSCOPE_FIXTURES"), rel, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The slow loop's sections, filled with real phones' output. */
static void
test_slow_on_captures (void)
{
  g_autoptr(AdbscopeSlowCollector) c = adbscope_slow_collector_new ("S", "com.whatsapp", TRUE, TRUE, TRUE, TRUE);
  g_autofree char *battery = fixture ("battery/samsung-dumpsys-battery-vendor-extended.txt");
  g_autofree char *thermal = fixture ("thermal/android14plus-xiaomi-sd8gen3-thermalservice-aidl3-full.txt");
  g_autofree char *idle = fixture ("deviceidle/android14-xiaomi-pad6-deviceidle-full.txt");
  g_autofree char *ps = fixture ("ps/android13-mtk-mt8168-tablet-ps-A.txt");
  g_autofree char *output = g_strconcat ("___S:battery___\n", battery,
                                         "___S:power___\n",
                                         "/sys/class/power_supply/battery/current_now:-512000\n",
                                         "___S:thermal___\n", thermal,
                                         "___S:deviceidle___\n", idle,
                                         "___S:bucket___\n10\n",
                                         "___S:ps___\n", ps, NULL);
  g_autoptr(AdbscopeSlowSample) s = _adbscope_slow_collector_parse (c, output, 1000);

  g_assert_true (s->has_battery);
  g_assert_cmpfloat (s->battery_level_pct, >, 0);
  g_assert_cmpfloat (s->battery_level_pct, <=, 100);
  g_assert_true (isfinite (s->voltage_mv));
  g_assert_cmpfloat (s->current_ma, ==, -512.0);
  /* |V × I| with V from dumpsys battery */
  g_assert_cmpfloat (fabs (s->power_mw - fabs (s->voltage_mv * 512.0) / 1000.0), <, 1e-6);
  g_assert_true (s->has_thermal);
  g_assert_true (isfinite (s->thermal_status));
  g_assert_cmpfloat (s->max_temp_c, >, 20);
  g_assert_cmpfloat (s->max_temp_c, <, 120);
  g_assert_true (s->has_doze);
  g_assert_nonnull (s->doze_deep);
  g_assert_cmpstr (s->standby_bucket, ==, "ACTIVE");
  g_assert_true (s->has_processes);
}

/* A phone that hides current_now: no power, not zero power. */
static void
test_slow_no_current (void)
{
  g_autoptr(AdbscopeSlowCollector) c = adbscope_slow_collector_new ("S", "com.example", FALSE, FALSE, FALSE, FALSE);
  g_autofree char *battery = fixture ("battery/android13-mtk-mt8168-tablet-bugreport-dumpsys-battery.txt");
  g_autofree char *output = g_strconcat ("___S:battery___\n", battery, "___S:power___\n", NULL);
  g_autoptr(AdbscopeSlowSample) s = _adbscope_slow_collector_parse (c, output, 1000);
  g_autofree char *cmd_even = _adbscope_slow_collector_command (c, 0);
  g_autofree char *cmd_odd = _adbscope_slow_collector_command (c, 1);

  g_assert_true (s->has_battery);
  g_assert_true (isnan (s->current_ma));
  g_assert_true (isnan (s->power_mw));
  g_assert_false (s->has_thermal);
  /* Without thermalservice the odd seconds ask for nothing. */
  g_assert_nonnull (strstr (cmd_even, "dumpsys battery"));
  g_assert_null (cmd_odd);
}

static void
test_meminfo_on_captures (void)
{
  static const struct { const char *file; const char *pkg; gboolean summary; } cases[] = {
    { "meminfo/android11-pixel2-pkg-app-summary-rss.txt", NULL, TRUE },
    { "meminfo/android6-pkg-app-summary-no-rss.txt", NULL, TRUE },
    { "meminfo/android4.4-pkg-no-app-summary.txt", NULL, FALSE },
    { "meminfo/android4.3-pkg-shared-dirty-layout.txt", NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = fixture (cases[i].file);
      g_autoptr(GError) error = NULL;
      AdbscopeMeminfoSample s = { 0 };

      g_assert_true (_adbscope_meminfo_collector_parse ("no.such.package", text, &s, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (s.total_pss_kb, >, 0);
      g_assert_true (isfinite (s.java_heap_kb) || !cases[i].summary);
      if (cases[i].summary)
        g_assert_true (isfinite (s.graphics_kb));
      else
        g_assert_true (isnan (s.graphics_kb));
    }
}

static void
test_meminfo_not_running (void)
{
  g_autoptr(GError) error = NULL;
  AdbscopeMeminfoSample s = { 0 };

  g_assert_false (_adbscope_meminfo_collector_parse ("com.x", "No process found for: com.x\n", &s, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING);
}

static void
test_probe_parse (void)
{
  const char *out =
    "pkgpath:package:/data/app/~~x/com.example-1/base.apk\n"
    "prop:ro.build.version.sdk=26\n"
    "prop:ro.build.version.release=8.0.0\n"
    "prop:ro.product.model=Moto G\n"
    "prop:ro.product.manufacturer=motorola\n"
    "prop:ro.product.cpu.abi=armeabi-v7a\n"
    "prop:ro.product.device=\n"
    "service:gfxinfo:Service gfxinfo: found\n"
    "service:meminfo:Service meminfo: found\n"
    "service:battery:Service battery: found\n"
    "service:thermalservice:Service thermalservice: not found\n"
    "service:deviceidle:Service deviceidle: found\n"
    "service:jobscheduler:Service jobscheduler: found\n"
    "service:alarm:Service alarm: found\n"
    "pagesize:4096\n"
    "refresh:16666666\n"
    "/sys/devices/system/cpu/present:0-3\n"
    "/sys/devices/system/cpu/cpu0/cpufreq/related_cpus:0 1\n"
    "/sys/devices/system/cpu/cpu2/cpufreq/related_cpus:2 3\n"
    "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq:1401600\n"
    "/sys/devices/system/cpu/cpu2/cpufreq/cpuinfo_max_freq:2016000\n"
    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq:1401600\n"
    "/proc/stat:cpu  1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu0 1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu1 1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu2 1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu3 1 2 3 4 5 6 7 0 0 0\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeProbeResult) r = adbscope_probe_parse (out, &error);
  g_autofree char *cmd = adbscope_probe_build_command ("com.example");

  g_assert_no_error (error);
  g_assert_cmpint (r->sdk_int, ==, 26);
  g_assert_cmpstr (r->model, ==, "Moto G");
  g_assert_null (r->device);
  g_assert_cmpuint (r->n_cores, ==, 4);
  g_assert_cmpuint (r->clusters->len, ==, 2);
  g_assert_cmpfloat (((AdbscopeCluster *) r->clusters->pdata[1])->max_freq_khz, ==, 2016000);
  g_assert_cmpfloat (fabs (r->refresh_hz - 60.0), <, 0.01);
  g_assert_true (r->package_checked && r->package_installed);
  g_assert_true (r->supported[ADBSCOPE_SOURCE_CPUFREQ]);
  /* No /proc/pressure in the output, no thermalservice: reasons, not zeros. */
  g_assert_false (r->supported[ADBSCOPE_SOURCE_PSI]);
  g_assert_nonnull (strstr (r->reason[ADBSCOPE_SOURCE_PSI], "PSI"));
  g_assert_false (r->supported[ADBSCOPE_SOURCE_THERMAL]);
  g_assert_nonnull (strstr (r->reason[ADBSCOPE_SOURCE_THERMAL], "thermalservice"));
  g_assert_true (r->supported[ADBSCOPE_SOURCE_FRAMES]);
  g_assert_nonnull (strstr (cmd, "pm path com.example"));
  g_assert_nonnull (strstr (cmd, "service check $s"));
}

/* A probe taken while the GPU is powered down (kgsl gpubusy "0 0", gpuclk
 * 0): both sources are supported, the counters are there. */
static void
test_probe_gpu_idle (void)
{
  const char *out =
    "prop:ro.build.version.sdk=33\n"
    "gpudir:/sys/class/kgsl/kgsl-3d0\n"
    "/sys/devices/system/cpu/present:0-1\n"
    "/sys/class/kgsl/kgsl-3d0/gpubusy:      0       0\n"
    "/sys/class/kgsl/kgsl-3d0/gpuclk:0\n"
    "/sys/class/kgsl/kgsl-3d0/max_gpuclk:840000000\n"
    "/proc/stat:cpu  1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu0 1 2 3 4 5 6 7 0 0 0\n"
    "/proc/stat:cpu1 1 2 3 4 5 6 7 0 0 0\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeProbeResult) r = adbscope_probe_parse (out, &error);

  g_assert_no_error (error);
  g_assert_true (r->supported[ADBSCOPE_SOURCE_GPU_BUSY]);
  g_assert_true (r->supported[ADBSCOPE_SOURCE_GPU_FREQ]);
  g_assert_cmpstr (r->gpu_node, ==, "kgsl-3d0");
  g_assert_cmpfloat (r->gpu_max_freq_mhz, ==, 840.0);
}

#define FRAMES_GFX(uptime_ms, total) \
  "Applications Graphics Acceleration Info:\n" \
  "Uptime: " uptime_ms " Realtime: " uptime_ms "\n\n" \
  "** Graphics info for pid 4242 [com.example.app] **\n\n" \
  "Stats since: 9656484850794ns\n" \
  "Total frames rendered: " total "\n" \
  "Janky frames: 1 (1.00%)\n"

/* `dumpsys gfxinfo` answering "Failure while dumping the app" (the app
 * did not answer ActivityManager in time, synthetic in the shape of a real
 * capture): the app runs and is unreadable this time — not "not running",
 * no restart, and the frame baseline stays, so the next interval counts
 * every frame since the last good dump. */
static void
test_frames_dump_failure (void)
{
  g_autoptr(AdbscopeFramesCollector) c = adbscope_frames_collector_new ("S", "com.example.app");
  g_autoptr(AdbscopeFramesSample) s1 = NULL;
  g_autoptr(AdbscopeFramesSample) s2 = NULL;
  g_autoptr(AdbscopeFramesSample) s3 = NULL;
  g_autoptr(GError) error = NULL;

  s1 = _adbscope_frames_collector_parse (c, "uptime:100.00\n" FRAMES_GFX ("100000", "1000"), 1000000, &error);
  g_assert_no_error (error);
  s2 = _adbscope_frames_collector_parse (c, "uptime:101.00\n"
                                         "Applications Graphics Acceleration Info:\n"
                                         "Uptime: 101000 Realtime: 101000\n\n"
                                         "** Graphics info for pid 4242 [com.example.app] **\n\n"
                                         "Failure while dumping the app: ProcessRecord{d2f1c0a 4242:com.example.app/u0a123}\n"
                                         "java.io.IOException: Timeout\n", 2000000, &error);
  g_assert_no_error (error);
  g_assert_true (s2->app_running);
  g_assert_false (s2->restarted);
  g_assert_true (isnan (s2->fps));
  g_assert_cmpint (s2->zero_reason, ==, ADBSCOPE_FRAMES_ZERO_UNREADABLE);
  g_assert_nonnull (strstr (s2->zero_detail, "Failure while dumping"));
  s3 = _adbscope_frames_collector_parse (c, "uptime:102.00\n" FRAMES_GFX ("102000", "1120"), 3000000, &error);
  g_assert_no_error (error);
  g_assert_true (s3->app_running);
  g_assert_false (s3->restarted);
  /* both seconds' frames, from the last good dump */
  g_assert_cmpint (s3->new_frames, ==, 120);
  g_assert_cmpfloat (fabs (s3->hwui_fps - 60.0), <, 0.01);
}

/* `am start -W` that ended in "Status: timeout" is a slow start: a run,
 * marked as such, without a made-up TotalTime; "Status: ok" without a time
 * is still "did not start". */
static void
test_launch_timeout_is_slow_start (void)
{
  g_autoptr(AdbscopeAmStart) slow = adbscope_am_start_parse ("Status: timeout\nActivity: com.example/.Main\n"
                                                             "WaitTime: 10021\nComplete\n", -1, NULL);
  g_autoptr(AdbscopeAmStart) none = adbscope_am_start_parse ("Status: ok\nWaitTime: 12\nComplete\n", -1, NULL);
  g_autoptr(GError) error = NULL;
  AdbscopeLaunchResult result = { (char *) "com.example", (char *) "com.example/.Main", ADBSCOPE_LAUNCH_COLD, NULL };
  AdbscopeLaunchRun run = { -1, -1, -1, NULL, FALSE };
  AdbscopeLaunchRun fast = { 812, 815, 900, NULL, FALSE };
  g_autoptr(JsonNode) json = NULL;
  JsonObject *o, *r1;

  g_assert_true (_adbscope_launch_run_from_am (slow, &run, &error));
  g_assert_no_error (error);
  g_assert_true (run.timed_out);
  g_assert_cmpint (run.total_ms, ==, -1);
  g_assert_cmpint (run.wait_ms, ==, 10021);
  g_assert_false (_adbscope_launch_run_from_am (none, &fast, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED);

  result.runs = g_array_new (FALSE, TRUE, sizeof (AdbscopeLaunchRun));
  g_array_append_val (result.runs, fast);
  g_array_append_val (result.runs, run);
  json = adbscope_launch_result_to_json (&result);
  o = json_node_get_object (json);
  g_assert_cmpint (json_object_get_int_member (o, "timeouts"), ==, 1);
  r1 = json_array_get_object_element (json_object_get_array_member (o, "runs"), 1);
  g_assert_true (json_object_get_boolean_member (r1, "timed_out"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (r1, "total_ms")));
  g_assert_cmpint (json_object_get_int_member (r1, "wait_ms"), ==, 10021);
  /* the statistics are of the starts that have a time */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "total_ms"), "n"), ==, 1);
  g_free (run.launch_state);
  g_array_unref (result.runs);
}

static void
test_probe_garbage (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeProbeResult) r = adbscope_probe_parse ("/system/bin/sh: getprop: not found\n\x01\x02", &error);

  g_assert_null (r);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

static void
test_assertions (void)
{
  g_autoptr(JsonNode) skeleton = adbscope_report_build_skeleton ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  static const char * const bad[] = {
    "", "frames.janky_pct", "frames.janky_pct <", "< 5", "frames.janky_pct ~ 5",
    "frames..janky_pct < 5", ".frames < 5", "frames.janky_pct < five", "frames.janky_pct < 5 6",
  };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(AdbscopeAssertion) a = adbscope_assertion_parse (bad[i], &error);
      g_assert_null (a);
      g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE);
      g_clear_error (&error);
    }

  /* Paths: numbers and booleans yes; objects, strings and unknowns no. */
  {
    static const char * const ok[] = {
      "cpu.system_pct.avg<1", "cpu.app_pct.max <= 2", "frames.fps.avg>=3", "frames.janky_pct == 4",
      "frames.total != 5", "memory.app_pss_kb.growth_per_min > 6", "run.samples > 0", "run.gaps < 1",
      "run.interval_ms_measured < 1500", "app.restarts == 0", "sources.psi.supported == true",
      "frames.fps.p99 < 130", "memory.app_pss_kb.p90 < 1e6",
    };
    static const char * const not_ok[] = {
      "frames.fps < 1", "sources.psi.reason == 1", "nothing.here < 1", "cpu.app_pct.median < 1",
    };

    for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
      {
        g_autoptr(AdbscopeAssertion) a = adbscope_assertion_parse (ok[i], &error);
        g_assert_no_error (error);
        g_assert_true (adbscope_assertion_check_path (a, skeleton, &error));
        g_assert_no_error (error);
      }
    for (guint i = 0; i < G_N_ELEMENTS (not_ok); i++)
      {
        g_autoptr(AdbscopeAssertion) a = adbscope_assertion_parse (not_ok[i], &error);
        g_assert_no_error (error);
        g_assert_false (adbscope_assertion_check_path (a, skeleton, &error));
        g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE);
        g_clear_error (&error);
      }
  }

  /* Evaluation, including null → fail. */
  g_assert_true (json_parser_load_from_data (parser,
    "{\"a\":{\"x\":5,\"y\":null,\"b\":true}}", -1, NULL));
  {
    static const struct { const char *expr; gboolean pass; } cases[] = {
      { "a.x < 6", TRUE }, { "a.x < 5", FALSE }, { "a.x <= 5", TRUE }, { "a.x > 4.5", TRUE },
      { "a.x >= 5.01", FALSE }, { "a.x == 5", TRUE }, { "a.x != 5", FALSE },
      { "a.y < 100", FALSE }, { "a.y >= 0", FALSE }, { "a.b == true", TRUE }, { "a.b == 0", FALSE },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(AdbscopeAssertion) a = adbscope_assertion_parse (cases[i].expr, &error);
        g_assert_true (adbscope_assertion_evaluate (a, json_parser_get_root (parser), &error));
        g_assert_no_error (error);
        g_assert_cmpint (a->pass, ==, cases[i].pass);
      }
  }
}

/* The skeleton has every fixed path, each null or zero — never a made-up value. */
static void
test_skeleton_paths (void)
{
  g_autoptr(JsonNode) skeleton = adbscope_report_build_skeleton ();
  static const char * const paths[] = {
    "cpu.system_pct.avg", "cpu.app_pct.avg", "cpu.app_pct.max", "frames.fps.avg", "frames.fps.max",
    "frames.janky_pct", "memory.app_pss_kb.avg", "memory.app_pss_kb.growth_per_min",
    "run.interval_ms_measured", "cpu.app_pct.p50", "cpu.app_pct.p90", "cpu.app_pct.p99", "cpu.app_pct.min",
  };
  const char *sources[] = { "psi", "cpufreq", "thermal", "frames", "meminfo", "battery" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      JsonNode *n = adbscope_report_lookup (skeleton, paths[i]);
      g_assert_nonnull (n);
      g_assert_true (JSON_NODE_HOLDS_NULL (n));
    }
  /* Totals of nothing measured are null; counts of what happened are 0. */
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (skeleton, "frames.total")));
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (skeleton, "frames.janky")));
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (skeleton, "app.restarts")));
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (skeleton, "run.samples")), ==, 0);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (skeleton, "run.gaps")), ==, 0);
  g_assert_false (json_node_get_boolean (adbscope_report_lookup (skeleton, "run.device_lost")));
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *sup = g_strdup_printf ("sources.%s.supported", sources[i]);
      g_autofree char *why = g_strdup_printf ("sources.%s.reason", sources[i]);
      g_assert_nonnull (adbscope_report_lookup (skeleton, sup));
      g_assert_nonnull (adbscope_report_lookup (skeleton, why));
    }
  /* Every series of the table has its statistics object. */
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    {
      g_autofree char *p = g_strdup_printf ("%s.p99", adbscope_series_id_get_path (i));
      g_assert_nonnull (adbscope_report_lookup (skeleton, p));
    }
}

/* The slow loop's list of the app's processes leaves out their forks. */
static void
test_slow_processes_skip_forks (void)
{
  g_autoptr(AdbscopeSlowCollector) c = adbscope_slow_collector_new ("S", "com.example.app", FALSE, FALSE, FALSE, FALSE);
  static const char output[] =
    "___S:ps___\n"
    "  PID  PPID    RSS NAME\n"
    "  428     1 203652 zygote64\n"
    " 4000   428  91000 com.example.app\n"
    " 4050  4000   2100 com.example.app\n"
    " 4060   428  51000 com.example.app:remote\n"
    " 4070  4060   1800 com.example.app:remote\n"
    " 4071  4060    900 sh\n";
  g_autoptr(AdbscopeSlowSample) s = _adbscope_slow_collector_parse (c, output, 1000);

  g_assert_true (s->has_processes);
  g_assert_cmpuint (s->processes->len, ==, 2);
  g_assert_cmpint (g_array_index (s->processes, AdbscopeAppProcess, 0).pid, ==, 4000);
  g_assert_cmpint (g_array_index (s->processes, AdbscopeAppProcess, 1).pid, ==, 4060);
}

/* /proc/PID/stat of a process named com.example.app with parent @ppid. */
static char *
pid_stat_line (int pid,
               int ppid,
               int utime)
{
  return g_strdup_printf ("/proc/%d/stat:%d (com.example.app) S %d %d 0 0 -1 4194624 100 0 0 0 %d 20 0 0 "
                          "20 0 30 0 5000 1000000 5000 18446744073709551615\n",
                          pid, pid, ppid, ppid, utime);
}

/* The pid lookup names a fork of the app too (its child before it execs
 * carries its name): the app is the pid whose parent is not one of them,
 * whichever order pidof prints them in. */
static void
test_fast_lookup_skips_forks (void)
{
  const char *orders[] = { "4050 4000", "4000 4050" };

  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    {
      g_autoptr(AdbscopeCollector) c = g_object_new (ADBSCOPE_TYPE_FAST_COLLECTOR, "name", "fast", "serial", "S",
                                                     "package", "com.example.app", "interval", 1000, NULL);
      g_autofree char *cmd0 = ADBSCOPE_COLLECTOR_GET_CLASS (c)->build_command (c, 0);
      g_autofree char *cmd1 = NULL;
      g_autofree char *parent = pid_stat_line (4000, 428, 50);
      g_autofree char *child = pid_stat_line (4050, 4000, 1);
      g_autofree char *output = g_strconcat ("pidof:", orders[o], "\n",
                                             "/proc/uptime:100.00 50.00\n",
                                             "/proc/stat:cpu  100 0 100 800 0 0 0 0 0 0\n",
                                             "/proc/stat:cpu0 100 0 100 800 0 0 0 0 0 0\n",
                                             o == 0 ? child : parent, o == 0 ? parent : child, NULL);
      g_autoptr(AdbscopeFastSample) s = NULL;
      g_autoptr(GError) error = NULL;

      /* every pid of the name is asked for, and each one's files read */
      g_assert_nonnull (strstr (cmd0, "pidof com.example.app"));
      g_assert_nonnull (strstr (cmd0, "for q in $p"));
      s = _adbscope_fast_collector_parse (ADBSCOPE_FAST_COLLECTOR (c), output, 1000, &error);
      g_assert_no_error (error);
      g_assert_true (s->app_running);
      g_assert_cmpint (s->pid, ==, 4000);
      g_assert_false (s->restarted);
      /* known from now on: only its own files, no lookup */
      cmd1 = ADBSCOPE_COLLECTOR_GET_CLASS (c)->build_command (c, 1);
      g_assert_null (strstr (cmd1, "pidof"));
      g_assert_nonnull (strstr (cmd1, "/proc/4000/stat"));
    }
}

/* Values no device can have (synthetic, in the shapes of real dumps): a
 * level above its scale, a battery below absolute zero, 1e11 mV, a thermal
 * sensor at -300 °C.  Each is NaN — not a measurement — and flagged. */
static void
test_slow_implausible (void)
{
  g_autoptr(AdbscopeSlowCollector) c = adbscope_slow_collector_new ("S", "com.example", FALSE, FALSE, FALSE, FALSE);
  static const char output[] =
    "___S:battery___\n"
    "Current Battery Service state:\n  AC powered: false\n  USB powered: false\n  Wireless powered: false\n"
    "  status: 3\n  health: 2\n  present: true\n  level: 250\n  scale: 100\n"
    "  voltage: 100000000000\n  temperature: -3000\n  technology: Li-ion\n"
    "___S:power___\n"
    "/sys/class/power_supply/battery/current_now:-512000\n"
    "___S:thermal___\n"
    "Thermal Status: 0\nCurrent temperatures from HAL:\n"
    "\tTemperature{mValue=-300.0, mType=0, mName=cpu0, mStatus=0}\n"
    "\tTemperature{mValue=41.5, mType=3, mName=skin, mStatus=0}\n";
  g_autoptr(AdbscopeSlowSample) s = _adbscope_slow_collector_parse (c, output, 1000);

  g_assert_true (s->has_battery);
  g_assert_true (isnan (s->battery_level_pct));
  g_assert_true (isnan (s->battery_temp_c));
  g_assert_true (isnan (s->voltage_mv));
  g_assert_true (isnan (s->power_mw));
  g_assert_cmpfloat (s->current_ma, ==, -512.0);
  g_assert_cmpfloat (s->max_temp_c, ==, 41.5);
  g_assert_cmpuint (s->implausible, ==, (1u << ADBSCOPE_IMPLAUSIBLE_BATTERY_LEVEL) |
                                        (1u << ADBSCOPE_IMPLAUSIBLE_BATTERY_TEMP) |
                                        (1u << ADBSCOPE_IMPLAUSIBLE_VOLTAGE) |
                                        (1u << ADBSCOPE_IMPLAUSIBLE_TEMPERATURE));
  g_assert_true (adbscope_plausible_temperature_c (-273.15));
  g_assert_false (adbscope_plausible_temperature_c (-273.2));
  g_assert_true (adbscope_plausible_battery_level (100));
  g_assert_true (adbscope_plausible_voltage_mv (NAN));
}

/* A device clock that jumps forward far more than the host's (an hour of
 * uptime in one second): nothing across it is a measurement. */
static void
test_fast_clock_jump (void)
{
  g_autoptr(AdbscopeCollector) c = g_object_new (ADBSCOPE_TYPE_FAST_COLLECTOR, "name", "fast", "serial", "S",
                                                 "package", "com.example.app", "interval", 1000, NULL);
  const char *uptimes[] = { "100.00", "101.00", "3701.00", "3702.00" };
  const char *stats[] = { "100 0 100 800", "150 0 100 850", "300 0 100 900", "350 0 100 950" };
  AdbscopeFastSample *s[4] = { NULL };

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *app = pid_stat_line (4000, 428, 50 + 10 * i);
      g_autofree char *output = g_strdup_printf ("pidof:4000\n/proc/uptime:%s 50.00\n"
                                                 "/proc/stat:cpu  %s 0 0 0 0 0 0\n/proc/stat:cpu0 %s 0 0 0 0 0 0\n%s",
                                                 uptimes[i], stats[i], stats[i], app);
      g_autoptr(GError) error = NULL;

      s[i] = _adbscope_fast_collector_parse (ADBSCOPE_FAST_COLLECTOR (c), output, (gint64) (i + 1) * G_USEC_PER_SEC, &error);
      g_assert_no_error (error);
    }
  g_assert_false (s[1]->clock_implausible);
  g_assert_true (isfinite (s[1]->system_pct));
  g_assert_true (s[2]->clock_implausible);
  g_assert_true (isnan (s[2]->system_pct));
  g_assert_true (isnan (s[2]->app_pct));
  g_assert_true (isnan (s[2]->dt_s));
  /* the next one measures again, from the jumped reading */
  g_assert_false (s[3]->clock_implausible);
  g_assert_true (isfinite (s[3]->system_pct));
  g_assert_cmpfloat (fabs (s[3]->dt_s - 1.0), <, 1e-9);
  for (guint i = 0; i < 4; i++)
    adbscope_fast_sample_free (s[i]);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/collectors/slow/captures", test_slow_on_captures);
  g_test_add_func ("/collectors/slow/no-current", test_slow_no_current);
  g_test_add_func ("/collectors/meminfo/captures", test_meminfo_on_captures);
  g_test_add_func ("/collectors/meminfo/not-running", test_meminfo_not_running);
  g_test_add_func ("/collectors/slow/processes-skip-forks", test_slow_processes_skip_forks);
  g_test_add_func ("/collectors/fast/lookup-skips-forks", test_fast_lookup_skips_forks);
  g_test_add_func ("/probe/parse", test_probe_parse);
  g_test_add_func ("/probe/garbage", test_probe_garbage);
  g_test_add_func ("/probe/gpu-idle", test_probe_gpu_idle);
  g_test_add_func ("/collectors/slow/implausible", test_slow_implausible);
  g_test_add_func ("/collectors/fast/clock-jump", test_fast_clock_jump);
  g_test_add_func ("/launch/timeout-is-slow-start", test_launch_timeout_is_slow_start);
  g_test_add_func ("/collectors/frames/dump-failure", test_frames_dump_failure);
  g_test_add_func ("/report/assertions", test_assertions);
  g_test_add_func ("/report/skeleton", test_skeleton_paths);
  return g_test_run ();
}
