/* test-delta.c: values across two samples, on literal pairs of successive outputs
 *
 * Each test parses two readings as the device prints them (two /proc/stat,
 * two /proc/PID/stat, two task lists, two /proc/net/dev, two gfxinfo
 * dumps) and checks the delta module's arithmetic against numbers worked
 * out by hand in the comments.
 */
#include "config.h"

#include <math.h>

#include "adbscope-delta.h"
#include "adbscope-parse-gfxinfo.h"
#include "adbscope-parse-proc.h"
#include "adbscope-stats.h"

#define EPS 1e-9

/* user nice system idle iowait irq softirq steal guest guest_nice */
static const char stat1[] =
  "cpu  100 0 100 700 100 0 0 0 0 0\n"
  "cpu0 50 0 50 350 50 0 0 0 0 0\n"
  "cpu1 50 0 50 350 50 0 0 0 0 0\n"
  "intr 1000\nctxt 2000\nbtime 1700000000\nprocesses 300\n";
static const char stat2[] =
  "cpu  250 0 150 800 100 0 0 0 0 0\n"
  "cpu0 150 0 100 350 50 0 0 0 0 0\n"
  "cpu1 100 0 50 450 50 0 0 0 0 0\n"
  "intr 1100\nctxt 2100\nbtime 1700000000\nprocesses 301\n";

static AdbscopeProcStat *
parse_stat (const char *text)
{
  g_autoptr(GError) error = NULL;
  AdbscopeProcStat *stat = adbscope_proc_parse_stat (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (stat);
  return stat;
}

/* /proc/PID/stat as the kernel prints it: utime 14, stime 15, starttime 22 */
static void
pid_stat (int               pid,
          const char       *comm,
          guint64           utime,
          guint64           stime,
          guint64           starttime,
          AdbscopePidStat  *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *line =
    g_strdup_printf ("%d (%s) S 1 1 0 0 -1 4194560 1200 0 3 0 %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                     " 0 0 10 -10 25 0 %" G_GUINT64_FORMAT " 2000000000 30000 18446744073709551615 1 1 0 0 0 0"
                     " 4612 1 1073775864 0 0 0 17 3 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
                     pid, comm, utime, stime, starttime);

  g_assert_true (adbscope_proc_parse_pid_stat (line, -1, out, &error));
  g_assert_no_error (error);
}

static void
test_cpu_pct (void)
{
  g_autoptr(AdbscopeProcStat) a = parse_stat (stat1);
  g_autoptr(AdbscopeProcStat) b = parse_stat (stat2);
  g_autoptr(AdbscopeCpuUsage) u = adbscope_delta_cpu (a, b);

  /* all: busy +150 +50, idle +100 → 200 / 300 */
  g_assert_cmpfloat_with_epsilon (u->total_pct, 200.0 / 3, EPS);
  g_assert_cmpuint (u->total_delta, ==, 300);
  g_assert_cmpuint (u->n_cpus, ==, 2);
  /* cpu0: busy +150, idle 0 → 100; cpu1: busy +50, idle +100 → 33.3 */
  g_assert_cmpfloat_with_epsilon (u->cpu_pct[0], 100, EPS);
  g_assert_cmpfloat_with_epsilon (u->cpu_pct[1], 100.0 / 3, EPS);

  /* The same snapshot twice has no interval: NaN, not 0. */
  {
    g_autoptr(AdbscopeCpuUsage) none = adbscope_delta_cpu (b, b);

    g_assert_true (isnan (none->total_pct));
    g_assert_true (isnan (none->cpu_pct[0]));
  }
}

static void
test_app_pct_and_restart (void)
{
  g_autoptr(AdbscopeProcStat) a = parse_stat (stat1);
  g_autoptr(AdbscopeProcStat) b = parse_stat (stat2);
  g_autoptr(AdbscopeCpuUsage) u = adbscope_delta_cpu (a, b);
  AdbscopePidStat app1, app2, same_pid_new_start, new_pid;

  pid_stat (4242, "io.github.adbscope.demo", 400, 100, 9000, &app1);
  pid_stat (4242, "io.github.adbscope.demo", 440, 120, 9000, &app2);
  /* utime+stime +60 of all-core ticks +300 → 20 % of all cores */
  g_assert_true (adbscope_delta_same_process (&app1, &app2));
  g_assert_cmpfloat_with_epsilon (adbscope_delta_process_cpu_pct (&app1, &app2, u->total_delta), 20, EPS);

  /* Restarted: the same pid with a new start time, or a new pid.  The
   * new process's counters (5 + 2) are far below the old (440 + 120): a
   * delta across the restart would be negative garbage. */
  pid_stat (4242, "io.github.adbscope.demo", 5, 2, 9700, &same_pid_new_start);
  pid_stat (4300, "io.github.adbscope.demo", 445, 125, 9700, &new_pid);
  g_assert_false (adbscope_delta_same_process (&app2, &same_pid_new_start));
  g_assert_false (adbscope_delta_same_process (&app2, &new_pid));
  g_assert_true (isnan (adbscope_delta_process_cpu_pct (&app2, &same_pid_new_start, u->total_delta)));
  g_assert_true (isnan (adbscope_delta_process_cpu_pct (&app2, &new_pid, u->total_delta)));
}

static GArray *
tasks (const char *text)
{
  g_autoptr(GError) error = NULL;
  GArray *t = adbscope_proc_parse_task_stats (text, -1, &error);

  g_assert_no_error (error);
  return t;
}

static void
test_thread_pct (void)
{
  g_autofree char *t1 = NULL, *t2 = NULL;
  g_autoptr(GArray) a = NULL, b = NULL, usage = NULL;
  GString *one = g_string_new (NULL), *two = g_string_new (NULL);

  /* main 300+100 → 360+140 (+100 ticks), RenderThread 50+0 → 75+0 (+25),
   * tid 4250 ended and was reused by a new thread (other start time). */
#define LINE(str, pid, comm, ut, st, start) \
  g_string_append_printf (str, "%d (%s) S 1 1 0 0 -1 4194560 1200 0 3 0 %d %d 0 0 10 -10 25 0 %d 2000000000 30000 " \
                          "18446744073709551615 1 1 0 0 0 0 4612 1 1073775864 0 0 0 17 3 0 0 0 0 0 0 0 0 0 0 0 0 0\n", \
                          pid, comm, ut, st, start)
  LINE (one, 4242, "main", 300, 100, 9000);
  LINE (one, 4245, "RenderThread", 50, 0, 9010);
  LINE (one, 4250, "OkHttp Dispatch", 80, 20, 9020);
  LINE (two, 4242, "main", 360, 140, 9000);
  LINE (two, 4245, "RenderThread", 75, 0, 9010);
  LINE (two, 4250, "pool-3-thread-1", 1, 0, 9500);
#undef LINE
  t1 = g_string_free (one, FALSE);
  t2 = g_string_free (two, FALSE);
  a = tasks (t1);
  b = tasks (t2);

  /* 2 s of device uptime = 200 ticks of one core */
  usage = adbscope_delta_threads (a, b, 2.0);
  g_assert_cmpuint (usage->len, ==, 2);
  g_assert_cmpint (g_array_index (usage, AdbscopeThreadUsage, 0).tid, ==, 4242);
  g_assert_cmpfloat_with_epsilon (g_array_index (usage, AdbscopeThreadUsage, 0).pct, 50, EPS);
  g_assert_cmpint (g_array_index (usage, AdbscopeThreadUsage, 1).tid, ==, 4245);
  g_assert_cmpfloat_with_epsilon (g_array_index (usage, AdbscopeThreadUsage, 1).pct, 12.5, EPS);

  /* No interval: no thread gets a value */
  g_clear_pointer (&usage, g_array_unref);
  usage = adbscope_delta_threads (a, b, NAN);
  g_assert_cmpuint (usage->len, ==, 0);
}

static const char net1[] =
  "Inter-|   Receive                                                |  Transmit\n"
  " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
  "    lo:    5000      50    0    0    0     0          0         0     5000      50    0    0    0     0       0          0\n"
  " wlan0:    1000      10    0    0    0     0          0         0      400       4    0    0    0     0       0          0\n"
  "rmnet0:  900000     900    0    0    0     0          0         0   800000     800    0    0    0     0       0          0\n";
static const char net2[] =
  "Inter-|   Receive                                                |  Transmit\n"
  " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
  "    lo:    9000      90    0    0    0     0          0         0     9000      90    0    0    0     0       0          0\n"
  " wlan0:    3000      30    0    0    0     0          0         0     1400      14    0    0    0     0       0          0\n"
  "rmnet0:     100       1    0    0    0     0          0         0       50       1    0    0    0     0       0          0\n";

static void
test_rates (void)
{
  g_autoptr(GArray) a = adbscope_proc_parse_net_dev (net1, -1, NULL);
  g_autoptr(GArray) b = adbscope_proc_parse_net_dev (net2, -1, NULL);
  g_autoptr(GArray) rates = NULL;
  double rx = -1, tx = -1;

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  rates = adbscope_delta_net_rates (a, b, 2.0, &rx, &tx);

  /* lo +4000/2 s; wlan0 +2000/2 s and +1000/2 s; rmnet0 was reset (its
   * counters went back): no rate rather than a huge one. */
  g_assert_cmpuint (rates->len, ==, 2);
  g_assert_cmpstr (g_array_index (rates, AdbscopeNetRate, 0).name, ==, "lo");
  g_assert_cmpfloat_with_epsilon (g_array_index (rates, AdbscopeNetRate, 0).rx_bytes_per_s, 2000, EPS);
  g_assert_cmpstr (g_array_index (rates, AdbscopeNetRate, 1).name, ==, "wlan0");
  g_assert_cmpfloat_with_epsilon (g_array_index (rates, AdbscopeNetRate, 1).rx_bytes_per_s, 1000, EPS);
  g_assert_cmpfloat_with_epsilon (g_array_index (rates, AdbscopeNetRate, 1).tx_bytes_per_s, 500, EPS);
  /* totals leave lo out */
  g_assert_cmpfloat_with_epsilon (rx, 1000, EPS);
  g_assert_cmpfloat_with_epsilon (tx, 500, EPS);

  g_assert_true (isnan (adbscope_delta_rate (10, 5, 1)));
  g_assert_true (isnan (adbscope_delta_rate (5, 10, 0)));
  g_assert_true (isnan (adbscope_delta_interval (100.5, 100.5)));
  g_assert_cmpfloat_with_epsilon (adbscope_delta_interval (100.25, 101.5), 1.25, EPS);
  /* Two reads 50 ms apart (a late answer): 5 ticks, too few for a delta */
  g_assert_true (isnan (adbscope_delta_interval (100.25, 100.30)));
  g_assert_cmpfloat_with_epsilon (adbscope_delta_interval (100.0, 100.0 + ADBSCOPE_DELTA_MIN_WINDOW_S),
                                  ADBSCOPE_DELTA_MIN_WINDOW_S, EPS);
}

#define GFX(uptime, total, janky, vsync, ui) \
  "Applications Graphics Acceleration Info:\n" \
  "Uptime: " uptime " Realtime: " uptime "\n\n" \
  "** Graphics info for pid 4242 [io.github.adbscope.demo] **\n\n" \
  "Stats since: 9656484850794ns\n" \
  "Total frames rendered: " total "\n" \
  "Janky frames: " janky " (1.00%)\n" \
  "90th percentile: 18ms\n95th percentile: 22ms\n99th percentile: 40ms\n" \
  "Number Missed Vsync: " vsync "\n" \
  "Number High input latency: 0\n" \
  "Number Slow UI thread: " ui "\n" \
  "Number Slow bitmap uploads: 0\n" \
  "Number Slow issue draw commands: 1\n"

static void
test_fps_and_jank_causes (void)
{
  /* One second of the device's clock apart; 60 frames; janky +3;
   * missed vsync +2; slow UI thread went back (stats reset) → 0, not −4. */
  static const char dump1[] = GFX ("10000", "1000", "10", "5", "7");
  static const char dump2[] = GFX ("11000", "1060", "13", "7", "3");
  g_autoptr(AdbscopeGfxinfo) a = adbscope_gfxinfo_parse (dump1, -1, NULL);
  g_autoptr(AdbscopeGfxinfo) b = adbscope_gfxinfo_parse (dump2, -1, NULL);
  const AdbscopeGfxinfoStats *sa, *sb;
  double dt;

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  sa = &((AdbscopeGfxinfoProcess *) g_ptr_array_index (a->processes, 0))->stats;
  sb = &((AdbscopeGfxinfoProcess *) g_ptr_array_index (b->processes, 0))->stats;

  dt = adbscope_delta_interval (a->uptime_ms / 1000.0, b->uptime_ms / 1000.0);
  g_assert_cmpfloat_with_epsilon (dt, 1.0, EPS);
  g_assert_cmpfloat_with_epsilon (adbscope_delta_fps (sa->total_frames, sb->total_frames, dt, 0, 0), 60, EPS);
  g_assert_cmpint (adbscope_delta_counter (sa->janky_frames, sb->janky_frames), ==, 3);
  g_assert_cmpint (adbscope_delta_counter (adbscope_gfxinfo_stats_get_cause (sa, ADBSCOPE_JANK_MISSED_VSYNC),
                                           adbscope_gfxinfo_stats_get_cause (sb, ADBSCOPE_JANK_MISSED_VSYNC)), ==, 2);
  g_assert_cmpint (adbscope_delta_counter (adbscope_gfxinfo_stats_get_cause (sa, ADBSCOPE_JANK_SLOW_UI_THREAD),
                                           adbscope_gfxinfo_stats_get_cause (sb, ADBSCOPE_JANK_SLOW_UI_THREAD)), ==, 0);
  /* Android 6 has no "Frame deadline missed" line: unknown, not 0. */
  g_assert_cmpint (adbscope_gfxinfo_stats_get_cause (sb, ADBSCOPE_JANK_FRAME_DEADLINE_MISSED), <, 0);
  g_assert_cmpint (adbscope_delta_counter (adbscope_gfxinfo_stats_get_cause (sa, ADBSCOPE_JANK_FRAME_DEADLINE_MISSED),
                                           adbscope_gfxinfo_stats_get_cause (sb, ADBSCOPE_JANK_FRAME_DEADLINE_MISSED)), ==, -1);

  /* The vsync clamp: the dump came 0.9 s after the last one, but the 61
   * frames counted span 1.0 s of vsyncs — 61 fps on a 60 Hz display, not
   * 67.8.  A span shorter than the interval does not shorten it. */
  g_assert_cmpfloat_with_epsilon (adbscope_delta_fps (1000, 1061, 0.9, 5000000000, 6000000000), 61, EPS);
  g_assert_cmpfloat_with_epsilon (adbscope_delta_fps (1000, 1060, 1.0, 5000000000, 5500000000), 60, EPS);
  /* No span at all, or a counter that went back: NaN */
  g_assert_true (isnan (adbscope_delta_fps (1000, 1060, NAN, 0, 0)));
  g_assert_true (isnan (adbscope_delta_fps (1060, 1000, 1.0, 0, 0)));
}

static void
test_normalise (void)
{
  const double cur[] = { 1000000, 2000000, NAN };
  const double max[] = { 2000000, 2000000, 0 };
  const double cur_missing[] = { 1000000, NAN, 1000000 };

  /* Σ cur / Σ max over the cores with a max: 3 GHz of 4 GHz.  The third
   * core has no max and does not count. */
  g_assert_cmpfloat_with_epsilon (adbscope_delta_normalise (50, cur, max, 3), 37.5, EPS);
  /* A core with a max but no current frequency: unknown, not a guess */
  g_assert_true (isnan (adbscope_delta_normalise (50, cur_missing, max, 3)));
  g_assert_true (isnan (adbscope_delta_normalise (50, cur, NULL, 3)));
  g_assert_true (isnan (adbscope_delta_normalise (NAN, cur, max, 3)));
}

static void
test_percentile_and_merge (void)
{
  g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (double));
  double batch[10];

  /* 1..100 arriving in scrambled batches of ten */
  for (int b = 9; b >= 0; b--)
    {
      for (int i = 0; i < 10; i++)
        batch[i] = ((i * 7) % 10) * 10 + b + 1;
      adbscope_sorted_merge (sorted, batch, 10);
    }
  g_assert_cmpuint (sorted->len, ==, 100);
  for (guint i = 0; i < sorted->len; i++)
    g_assert_cmpfloat (g_array_index (sorted, double, i), ==, i + 1);

  g_assert_cmpfloat (adbscope_percentile_nearest_rank ((double *) (gpointer) sorted->data, 100, 50), ==, 50);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank ((double *) (gpointer) sorted->data, 100, 90), ==, 90);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank ((double *) (gpointer) sorted->data, 100, 99), ==, 99);
  g_assert_true (isnan (adbscope_percentile_nearest_rank (NULL, 0, 50)));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/delta/cpu-pct", test_cpu_pct);
  g_test_add_func ("/delta/app-pct-and-restart", test_app_pct_and_restart);
  g_test_add_func ("/delta/thread-pct", test_thread_pct);
  g_test_add_func ("/delta/rates", test_rates);
  g_test_add_func ("/delta/fps-and-jank-causes", test_fps_and_jank_causes);
  g_test_add_func ("/delta/normalise", test_normalise);
  g_test_add_func ("/delta/percentile-and-merge", test_percentile_and_merge);

  return g_test_run ();
}
