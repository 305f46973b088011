/* test-parse-proc.c: /proc parsers against phone captures and the host's /proc */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include "adbscope-delta.h"
#include "adbscope-parse-proc.h"
#include "parsers-test-util.h"

/* ---------------------------------------------------------------- uptime */

static void
test_uptime_host (void)
{
  g_autofree char *text = host_read ("/proc/uptime", NULL);
  g_autoptr(GError) error = NULL;
  double up = -1, idle = -1;

  g_assert_true (adbscope_proc_parse_uptime (text, -1, &up, &idle, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (up, >, 0.0);
  g_assert_cmpfloat (idle, >=, 0.0);
}

static void
test_uptime_rejects_uptime_command (void)
{
  /* `uptime` (toybox) output is not /proc/uptime. */
  g_autofree char *text = fixture_read ("other/android13-mtk-mt8168-tablet-bugreport-uptime.txt", NULL);
  g_autoptr(GError) error = NULL;
  double up = 0;

  g_assert_false (adbscope_proc_parse_uptime (text, -1, &up, NULL, &error));
  assert_parse_error (error);
}

/* ------------------------------------------------------------------ stat */

static void
test_stat_host (void)
{
  g_autofree char *text1 = host_read ("/proc/stat", NULL);
  g_autofree char *text2 = NULL;
  g_autoptr(AdbscopeProcStat) s1 = NULL;
  g_autoptr(AdbscopeProcStat) s2 = NULL;
  g_autoptr(AdbscopeCpuUsage) usage = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_cpu_lines = 0, i;
  gint64 deadline;
  volatile double sink = 0;

  s1 = adbscope_proc_parse_stat (text1, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s1);

  lines = g_strsplit (text1, "\n", -1);
  for (i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "cpu") && g_ascii_isdigit (lines[i][3]))
      n_cpu_lines++;
  g_assert_cmpuint (s1->cpus->len, ==, n_cpu_lines);
  g_assert_cmpint (s1->total.n_fields, >=, 8);
  g_assert_true (s1->has_ctxt);
  g_assert_cmpuint (s1->ctxt, >, 0);
  g_assert_true (s1->has_procs_running);
  g_assert_cmpuint (s1->procs_running, >=, 1); /* this test is running */

  /* Burn ~60 ms of CPU so the counters move even on an idle machine. */
  deadline = g_get_monotonic_time () + 60000;
  while (g_get_monotonic_time () < deadline)
    sink += sqrt (sink + 1.0);

  text2 = host_read ("/proc/stat", NULL);
  s2 = adbscope_proc_parse_stat (text2, -1, &error);
  g_assert_no_error (error);

  usage = adbscope_delta_cpu (s1, s2);
  g_assert_cmpfloat (usage->total_pct, >, 0.0);
  g_assert_cmpfloat (usage->total_pct, <=, 100.0);
  g_assert_cmpuint (usage->total_delta, >, 0);
  for (i = 0; i < s2->cpus->len; i++)
    {
      int cpu = g_array_index (s2->cpus, AdbscopeCpuTicks, i).cpu;

      g_assert_cmpint (cpu, <, (int) usage->n_cpus);
      if (!isnan (usage->cpu_pct[cpu]))
        g_assert_cmpfloat (usage->cpu_pct[cpu], >=, 0.0);
    }
}

/* Two samples of a 4-core phone where cpu3 was unplugged and cpu2's counters
 * restarted (unplugged and plugged back between the samples). */
static const char stat_before[] =
  "cpu  1000 100 500 8000 400 0 50 0 0 0\n"
  "cpu0 400 50 200 2000 100 0 20 0 0 0\n"
  "cpu1 300 30 150 2000 100 0 20 0 0 0\n"
  "cpu2 200 10 100 2000 100 0 10 0 0 0\n"
  "cpu3 100 10 50 2000 100 0 0 0 0 0\n"
  "intr 1234 0 0\n"
  "ctxt 5000\n"
  "btime 1700000000\n"
  "processes 900\n"
  "procs_running 3\n"
  "procs_blocked 0\n";
static const char stat_after[] =
  "cpu  1300 100 600 8100 380 0 60 0 0 0\n"
  "cpu0 550 50 250 2040 100 0 25 0 0 0\n"  /* busy +205, idle +40 */
  "cpu1 300 30 150 2100 100 0 20 0 0 0\n"  /* busy 0, idle +100 */
  "cpu2 10 0 5 30 0 0 0 0 0 0\n"           /* went backwards */
  "intr 1300 0 0\n"
  "ctxt 5600\n"
  "procs_running 1\n";

static void
test_stat_hotplug (void)
{
  g_autoptr(AdbscopeProcStat) a = adbscope_proc_parse_stat (stat_before, -1, NULL);
  g_autoptr(AdbscopeProcStat) b = adbscope_proc_parse_stat (stat_after, -1, NULL);
  g_autoptr(AdbscopeCpuUsage) u = NULL;

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (a->cpus->len, ==, 4);
  g_assert_cmpuint (b->cpus->len, ==, 3);
  g_assert_cmpuint (b->ctxt, ==, 5600);
  g_assert_cmpuint (b->procs_running, ==, 1);
  g_assert_cmpuint (adbscope_cpu_ticks_sum (&a->total), ==, 1000 + 100 + 500 + 8000 + 400 + 50);

  u = adbscope_delta_cpu (a, b);
  g_assert_cmpuint (u->n_cpus, ==, 4);
  g_assert_cmpfloat_with_epsilon (u->cpu_pct[0], 100.0 * 205 / 245, 1e-9);
  g_assert_cmpfloat_with_epsilon (u->cpu_pct[1], 0.0, 1e-9);
  g_assert_true (isnan (u->cpu_pct[2]));
  g_assert_true (isnan (u->cpu_pct[3]));
  /* aggregate: busy +410, idle+iowait +80 (iowait alone went backwards) */
  g_assert_cmpfloat_with_epsilon (u->total_pct, 100.0 * 410 / 490, 1e-9);
  g_assert_cmpuint (u->total_delta, ==, 490);
}

static void
test_stat_aggregate_backwards (void)
{
  /* Old kernels sum only online cores into "cpu": it drops when one goes
   * offline.  The total then comes from the cores present in both. */
  static const char before[] =
    "cpu  600 0 0 4000 0 0 0\n"
    "cpu0 300 0 0 2000 0 0 0\n"
    "cpu1 300 0 0 2000 0 0 0\n";
  static const char after[] =
    "cpu  350 0 0 2050 0 0 0\n"
    "cpu0 350 0 0 2050 0 0 0\n";
  g_autoptr(AdbscopeProcStat) a = adbscope_proc_parse_stat (before, -1, NULL);
  g_autoptr(AdbscopeProcStat) b = adbscope_proc_parse_stat (after, -1, NULL);
  g_autoptr(AdbscopeCpuUsage) u = NULL;

  g_assert_cmpuint (a->total.n_fields, ==, 7);
  u = adbscope_delta_cpu (a, b);
  g_assert_cmpfloat_with_epsilon (u->total_pct, 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (u->cpu_pct[0], 50.0, 1e-9);
  g_assert_true (isnan (u->cpu_pct[1]));

  /* Same sample twice: no time passed, so no value at all. */
  g_clear_pointer (&u, adbscope_cpu_usage_free);
  u = adbscope_delta_cpu (b, b);
  g_assert_true (isnan (u->total_pct));
  g_assert_true (isnan (u->cpu_pct[0]));
}

static void
test_stat_old_kernel_four_fields (void)
{
  g_autoptr(AdbscopeProcStat) s = adbscope_proc_parse_stat ("cpu  1 2 3 4\ncpu0 1 2 3 4\n", -1, NULL);

  g_assert_nonnull (s);
  g_assert_cmpuint (s->total.n_fields, ==, 4);
  g_assert_cmpuint (s->total.ticks[ADBSCOPE_CPU_TICK_IDLE], ==, 4);
  g_assert_cmpuint (s->total.ticks[ADBSCOPE_CPU_TICK_IOWAIT], ==, 0);
  g_assert_false (s->has_ctxt);
  g_assert_nonnull (adbscope_proc_stat_lookup_cpu (s, 0));
  g_assert_null (adbscope_proc_stat_lookup_cpu (s, 1));
}

/* --------------------------------------------------------------- meminfo */

static void
check_meminfo (const char *fixture,
               guint64     total,
               guint64     free_kb,
               gboolean    has_avail,
               guint64     avail,
               guint64     cached,
               guint64     swap_total,
               guint64     swap_free)
{
  g_autofree char *text = fixture_read (fixture, NULL);
  g_autoptr(GError) error = NULL;
  AdbscopeProcMeminfo m;

  g_assert_true (adbscope_proc_parse_meminfo (text, -1, &m, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (m.mem_total_kb, ==, total);
  g_assert_cmpuint (m.mem_free_kb, ==, free_kb);
  g_assert_cmpint (m.has_mem_available, ==, has_avail);
  g_assert_cmpuint (m.mem_available_kb, ==, avail);
  g_assert_cmpuint (m.cached_kb, ==, cached);
  g_assert_cmpuint (m.swap_total_kb, ==, swap_total);
  g_assert_cmpuint (m.swap_free_kb, ==, swap_free);
}

static void
test_meminfo_fixtures (void)
{
  check_meminfo ("proc/android13-mtk-mt8168-tablet-bugreport-proc-meminfo.txt",
                 3889512, 570108, TRUE, 2279120, 1885816, 2139224, 2139224);
  /* CRLF line ends (saved on Windows) */
  check_meminfo ("proc/proc-meminfo-android6-arm64.txt",
                 3681628, 273652, TRUE, 2243756, 1855852, 524284, 256136);
  /* Linux 3.1 era: no MemAvailable line */
  check_meminfo ("proc/proc-meminfo-android4.0.3-asus-tf201.txt",
                 1006840, 555616, FALSE, 0, 109860, 0, 0);
}

static void
test_meminfo_host (void)
{
  g_autofree char *text = host_read ("/proc/meminfo", NULL);
  AdbscopeProcMeminfo m;

  g_assert_true (adbscope_proc_parse_meminfo (text, -1, &m, NULL));
  g_assert_cmpuint (m.mem_total_kb, >, 0);
  g_assert_cmpuint (m.mem_free_kb, <=, m.mem_total_kb);
  g_assert_true (m.has_mem_available);
  g_assert_cmpuint (m.buffers_kb, <, m.mem_total_kb);
}

/* --------------------------------------------------------------- net/dev */

static void
test_net_dev_fixture (void)
{
  g_autofree char *text = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-net-dev.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) devs = adbscope_proc_parse_net_dev (text, -1, &error);
  const AdbscopeNetDev *d;

  g_assert_no_error (error);
  g_assert_cmpuint (devs->len, ==, 17);
  d = &g_array_index (devs, AdbscopeNetDev, 0);
  g_assert_cmpstr (d->name, ==, "lo");
  d = &g_array_index (devs, AdbscopeNetDev, 1);
  g_assert_cmpstr (d->name, ==, "dummy0");
  g_assert_cmpuint (d->rx_bytes, ==, 0);
  g_assert_cmpuint (d->tx_bytes, ==, 700);
  g_assert_cmpuint (d->tx_packets, ==, 10);
  d = &g_array_index (devs, AdbscopeNetDev, 6);
  g_assert_cmpstr (d->name, ==, "gretap0");
  g_assert_cmpstr (g_array_index (devs, AdbscopeNetDev, 16).name, ==, "ap0");
}

static void
test_net_dev_wide_counter (void)
{
  /* 2.6 kernels: "%6s:%8lu" leaves no blank once the counter is wide. */
  static const char text[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
    "  eth0:1234567890 2000    0    0    0     0          0         0  98765   300    0    0    0     0       0          0\n";
  g_autoptr(GArray) devs = adbscope_proc_parse_net_dev (text, -1, NULL);

  g_assert_nonnull (devs);
  g_assert_cmpuint (devs->len, ==, 1);
  g_assert_cmpstr (g_array_index (devs, AdbscopeNetDev, 0).name, ==, "eth0");
  g_assert_cmpuint (g_array_index (devs, AdbscopeNetDev, 0).rx_bytes, ==, 1234567890);
  g_assert_cmpuint (g_array_index (devs, AdbscopeNetDev, 0).rx_packets, ==, 2000);
  g_assert_cmpuint (g_array_index (devs, AdbscopeNetDev, 0).tx_bytes, ==, 98765);
  g_assert_cmpuint (g_array_index (devs, AdbscopeNetDev, 0).tx_packets, ==, 300);
}

static void
test_net_dev_host (void)
{
  g_autofree char *text = host_read ("/proc/net/dev", NULL);
  g_autoptr(GArray) devs = adbscope_proc_parse_net_dev (text, -1, NULL);
  gboolean have_lo = FALSE;
  guint i;

  g_assert_nonnull (devs);
  for (i = 0; i < devs->len; i++)
    if (g_str_equal (g_array_index (devs, AdbscopeNetDev, i).name, "lo"))
      have_lo = TRUE;
  g_assert_true (have_lo);
}

/* -------------------------------------------------------------- pressure */

static void
test_pressure_fixtures (void)
{
  g_autofree char *cpu = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-pressure-cpu.txt", NULL);
  g_autofree char *io = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-pressure-io.txt", NULL);
  g_autofree char *mem = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-pressure-memory.txt", NULL);
  AdbscopePressure p;

  g_assert_true (adbscope_proc_parse_pressure (cpu, -1, &p, NULL));
  g_assert_true (p.some.present);
  g_assert_false (p.full.present);
  g_assert_cmpfloat_with_epsilon (p.some.avg10, 2.48, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.some.avg60, 5.05, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.some.avg300, 12.58, 1e-9);
  g_assert_cmpuint (p.some.total_us, ==, 488257870);

  g_assert_true (adbscope_proc_parse_pressure (io, -1, &p, NULL));
  g_assert_true (p.full.present);
  g_assert_cmpfloat_with_epsilon (p.some.avg60, 0.29, 1e-9);
  g_assert_cmpuint (p.some.total_us, ==, 10192892);
  g_assert_cmpfloat_with_epsilon (p.full.avg60, 0.27, 1e-9);
  g_assert_cmpuint (p.full.total_us, ==, 4833590);

  g_assert_true (adbscope_proc_parse_pressure (mem, -1, &p, NULL));
  g_assert_true (p.some.present && p.full.present);
  g_assert_cmpuint (p.full.total_us, ==, 0);
}

/* -------------------------------------------------------------- PID stat */

static void
test_stat_comm_with_parentheses (void)
{
  g_autofree char *text = fixture_read ("proc/task-stat-line-comm-with-parentheses.txt", NULL);
  g_autoptr(GError) error = NULL;
  AdbscopePidStat st;

  g_assert_true (adbscope_proc_parse_pid_stat (text, -1, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpint (st.pid, ==, 16360);
  g_assert_cmpstr (st.comm, ==, "AWCN Worker(M)1");
  g_assert_cmpint (st.state, ==, 'S');
  g_assert_cmpint (st.ppid, ==, 372);
  g_assert_cmpuint (st.utime, ==, 0);
  g_assert_cmpuint (st.stime, ==, 0);
  g_assert_cmpint (st.num_threads, ==, 35);
  g_assert_cmpuint (st.starttime, ==, 58748);
  g_assert_cmpuint (st.vsize, ==, 16236625920);
  g_assert_cmpint (st.rss_pages, ==, 43973);
}

static void
test_stat_empty_comm (void)
{
  g_autofree char *text = fixture_read ("proc/task-stat-line-empty-comm.txt", NULL);
  AdbscopePidStat st;

  g_assert_true (adbscope_proc_parse_pid_stat (text, -1, &st, NULL));
  g_assert_cmpint (st.pid, ==, 10180);
  g_assert_cmpstr (st.comm, ==, "");
  g_assert_cmpint (st.ppid, ==, 901);
  g_assert_cmpint (st.num_threads, ==, 130);
  g_assert_cmpuint (st.starttime, ==, 43243569);
  g_assert_cmpint (st.rss_pages, ==, 83083);
}

static void
test_task_stats_three_threads (void)
{
  g_autofree char *text = fixture_read ("proc/task-stat-three-threads-fresco-okhttp.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) stats = adbscope_proc_parse_task_stats (text, -1, &error);
  const AdbscopePidStat *st;

  g_assert_no_error (error);
  g_assert_cmpuint (stats->len, ==, 3);
  st = &g_array_index (stats, AdbscopePidStat, 0);
  g_assert_cmpstr (st->comm, ==, "OkHttp TaskRunn");
  g_assert_cmpuint (st->utime, ==, 50);
  g_assert_cmpuint (st->stime, ==, 20);
  st = &g_array_index (stats, AdbscopePidStat, 1);
  g_assert_cmpstr (st->comm, ==, "FrescoDecodeExe");
  g_assert_cmpuint (st->utime, ==, 23);
  g_assert_cmpuint (st->stime, ==, 3);
  st = &g_array_index (stats, AdbscopePidStat, 2);
  g_assert_cmpint (st->pid, ==, 27988);
  g_assert_cmpstr (st->comm, ==, "content.com/...");
  g_assert_cmpuint (st->utime, ==, 28);
  g_assert_cmpuint (st->starttime, ==, 233304298);
}

static const AdbscopeThreadUsage *
find_usage (GArray *usage,
            int     tid)
{
  guint i;

  for (i = 0; i < usage->len; i++)
    if (g_array_index (usage, AdbscopeThreadUsage, i).tid == tid)
      return &g_array_index (usage, AdbscopeThreadUsage, i);
  return NULL;
}

static void
test_thread_usage_two_samples (void)
{
  g_autofree char *t1 = fixture_read ("proc/task-stat-all-threads-sample1-with-epoch-ms-header.txt", NULL);
  g_autofree char *t2 = fixture_read ("proc/task-stat-all-threads-sample2-with-epoch-ms-header.txt", NULL);
  gint64 ms1 = 0, ms2 = 0;
  const char *body1 = t1 + first_line_length (t1, &ms1);
  const char *body2 = t2 + first_line_length (t2, &ms2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) s1 = adbscope_proc_parse_task_stats (body1, -1, &error);
  g_autoptr(GArray) s2 = NULL;
  g_autoptr(GArray) usage = NULL;
  const AdbscopeThreadUsage *u;
  double wall_ticks;
  guint i;

  g_assert_no_error (error);
  s2 = adbscope_proc_parse_task_stats (body2, -1, &error);
  g_assert_no_error (error);
  /* a thread (23961) started between the two captures */
  g_assert_cmpuint (s1->len, ==, 42);
  g_assert_cmpuint (s2->len, ==, 43);
  g_assert_cmpstr (g_array_index (s1, AdbscopePidStat, 0).comm, ==, "com.example");
  g_assert_cmpstr (g_array_index (s1, AdbscopePidStat, 1).comm, ==, "Signal Catcher");

  g_assert_cmpint (ms2 - ms1, ==, 3925);
  wall_ticks = (ms2 - ms1) * ADBSCOPE_USER_HZ / 1000.0;
  usage = adbscope_delta_threads (s1, s2, wall_ticks / ADBSCOPE_USER_HZ);
  g_assert_cmpuint (usage->len, ==, 42);
  g_assert_null (find_usage (usage, 23961));

  u = find_usage (usage, 21637); /* mqt_js: utime 903 → 1215 */
  g_assert_nonnull (u);
  g_assert_cmpstr (u->comm, ==, "mqt_js");
  g_assert_cmpuint (u->delta_ticks, ==, 312);
  g_assert_cmpfloat_with_epsilon (u->pct, 100.0 * 312 / 392.5, 1e-9);
  u = find_usage (usage, 21598); /* RenderThread: 312+135 → 314+136 */
  g_assert_nonnull (u);
  g_assert_cmpuint (u->delta_ticks, ==, 3);
  u = find_usage (usage, 21455); /* main thread: 3089+1079 → 3106+1086 */
  g_assert_nonnull (u);
  g_assert_cmpuint (u->delta_ticks, ==, 24);
  for (i = 0; i < usage->len; i++)
    g_assert_cmpfloat (g_array_index (usage, AdbscopeThreadUsage, i).pct, >=, 0.0);

  /* Process CPU of the main entry (the process stat has the same numbers)
   * over a made-up 8-core Δ of 8 × 392 ticks. */
  g_assert_cmpfloat_with_epsilon (adbscope_delta_process_cpu_pct (&g_array_index (s1, AdbscopePidStat, 0),
                                                                 &g_array_index (s2, AdbscopePidStat, 0),
                                                                 8 * 392),
                                  100.0 * 24 / (8 * 392), 1e-9);
}

static void
test_thread_usage_churn (void)
{
  g_autofree char *t1 = fixture_read ("proc/task-stat-all-threads-sample1-with-epoch-ms-header.txt", NULL);
  g_autofree char *t2 = fixture_read ("proc/task-stat-all-threads-sample2-with-epoch-ms-header.txt", NULL);
  g_autoptr(GArray) s1 = adbscope_proc_parse_task_stats (t1 + first_line_length (t1, NULL), -1, NULL);
  g_autoptr(GArray) s2 = adbscope_proc_parse_task_stats (t2 + first_line_length (t2, NULL), -1, NULL);
  g_autoptr(GArray) usage = NULL;
  AdbscopePidStat *main_after, *mqt_after = NULL;
  guint n = s2->len, i;

  /* thread 0 exits (removed from after), thread 1 is a new thread that got
   * a reused tid (different start time), mqt_js's counter went backwards */
  g_array_remove_index (s2, 0);
  g_array_index (s2, AdbscopePidStat, 0).starttime += 100;
  for (i = 0; i < s2->len; i++)
    if (g_array_index (s2, AdbscopePidStat, i).pid == 21637)
      mqt_after = &g_array_index (s2, AdbscopePidStat, i);
  g_assert_nonnull (mqt_after);
  mqt_after->utime = 1;
  /* a thread that appears only in "after" */
  main_after = &g_array_index (s2, AdbscopePidStat, 1);
  main_after->pid = 99999;

  usage = adbscope_delta_threads (s1, s2, 3.925);
  /* 23961 only exists in the second capture */
  g_assert_cmpuint (usage->len, ==, n - 5);
  g_assert_null (find_usage (usage, 21455));
  g_assert_null (find_usage (usage, 21460));
  g_assert_null (find_usage (usage, 21637));
  g_assert_null (find_usage (usage, 99999));
  for (i = 0; i < usage->len; i++)
    g_assert_cmpfloat (g_array_index (usage, AdbscopeThreadUsage, i).pct, >=, 0.0);

  g_clear_pointer (&usage, g_array_unref);
  usage = adbscope_delta_threads (s1, s2, 0.0);
  g_assert_cmpuint (usage->len, ==, 0);

  /* process restarted with the same pid: no value */
  g_assert_true (isnan (adbscope_delta_process_cpu_pct (&g_array_index (s1, AdbscopePidStat, 1),
                                                       &g_array_index (s2, AdbscopePidStat, 0),
                                                       800)));
}

static void
test_pid_stat_host (void)
{
  g_autofree char *text = host_read ("/proc/self/stat", NULL);
  g_autoptr(GError) error = NULL;
  AdbscopePidStat st;

  g_assert_true (adbscope_proc_parse_pid_stat (text, -1, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpint (st.pid, ==, getpid ());
  g_assert_cmpint (st.ppid, ==, getppid ());
  g_assert_cmpint (st.state, ==, 'R');
  g_assert_cmpint (st.num_threads, >=, 1);
  g_assert_cmpint (st.rss_pages, >, 0);
  g_assert_cmpuint (st.starttime, >, 0);
  g_assert_true (g_str_has_prefix ("test-parse-proc", st.comm));
}

/* ------------------------------------------------------------ PID status */

static void
test_pid_status_host (void)
{
  g_autofree char *text = host_read ("/proc/self/status", NULL);
  g_autoptr(GError) error = NULL;
  AdbscopePidStatus st;

  g_assert_true (adbscope_proc_parse_pid_status (text, -1, &st, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix ("test-parse-proc", st.name));
  g_assert_cmpint (st.state, ==, 'R');
  g_assert_cmpint (st.tgid, ==, getpid ());
  g_assert_cmpint (st.pid, ==, getpid ());
  g_assert_cmpint (st.ppid, ==, getppid ());
  g_assert_cmpint (st.uid, ==, getuid ());
  g_assert_cmpint (st.threads, >=, 1);
  g_assert_cmpint (st.vm_rss_kb, >, 0);
  g_assert_cmpint (st.vm_swap_kb, >=, 0);
}

static void
test_pid_status_kernel_thread (void)
{
  /* Kernel threads have no Vm* lines; a name may contain blanks. */
  static const char text[] =
    "Name:\tkworker/0:1 events\n"
    "Umask:\t0000\n"
    "State:\tI (idle)\n"
    "Tgid:\t12\n"
    "Ngid:\t0\n"
    "Pid:\t12\n"
    "PPid:\t2\n"
    "Uid:\t0\t0\t0\t0\n"
    "Threads:\t1\n";
  AdbscopePidStatus st;

  g_assert_true (adbscope_proc_parse_pid_status (text, -1, &st, NULL));
  g_assert_cmpstr (st.name, ==, "kworker/0:1 events");
  g_assert_cmpint (st.state, ==, 'I');
  g_assert_cmpint (st.ppid, ==, 2);
  g_assert_cmpint (st.uid, ==, 0);
  g_assert_cmpint (st.vm_rss_kb, ==, -1);
  g_assert_cmpint (st.vm_swap_kb, ==, -1);
}

/* --------------------------------------------------------------- cpuinfo */

static void
test_cpuinfo_fixtures (void)
{
  g_autofree char *t1 = fixture_read ("proc/proc-cpuinfo-android4.0.3-asus-tf201-armv7.txt", NULL);
  g_autofree char *t2 = fixture_read ("proc/proc-cpuinfo-android6-arm64-cortex-a53.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeCpuinfo) a = adbscope_proc_parse_cpuinfo (t1, -1, &error);
  g_autoptr(AdbscopeCpuinfo) b = NULL;
  guint i;

  g_assert_no_error (error);
  g_assert_cmpuint (a->n_processors, ==, 4);
  g_assert_cmpstr (a->hardware, ==, "cardhu");
  g_assert_cmpstr (a->model_name, ==, "ARMv7 Processor rev 9 (v7l)");
  for (i = 0; i < 4; i++)
    g_assert_cmpstr (g_ptr_array_index (a->cpu_parts, i), ==, "0xc09");

  b = adbscope_proc_parse_cpuinfo (t2, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->n_processors, ==, 8);
  g_assert_cmpstr (b->hardware, ==, "Qualcomm Technologies, Inc MSM8953");
  g_assert_cmpstr (b->model_name, ==, "AArch64 Processor rev 4 (aarch64)");
  for (i = 0; i < 8; i++)
    g_assert_cmpstr (g_ptr_array_index (b->cpu_parts, i), ==, "0xd03");
}

static void
test_cpuinfo_host (void)
{
  g_autofree char *text = host_read ("/proc/cpuinfo", NULL);
  g_autoptr(AdbscopeCpuinfo) info = adbscope_proc_parse_cpuinfo (text, -1, NULL);

  g_assert_nonnull (info);
  g_assert_cmpuint (info->n_processors, >=, g_get_num_processors ());
  g_assert_cmpuint (info->cpu_parts->len, ==, info->n_processors);
}

/* --------------------------------------------------------------- garbage */

static void
test_garbage (void)
{
  static const struct { const char *text; gssize len; } inputs[] = {
    { NULL, -1 },
    { "", -1 },
    { "\n\n", -1 },
    { "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12 },
    { "cpu  1 2 3", -1 },
    { "12345 (trunc", -1 },
    { "21455 (com.example) S 536 536 0 0 -1 1077952832 18621", -1 },
    { "MemTotal:", -1 },
    { "some avg10=1.00 avg60=2.00", -1 },
    { "\xff\xfe[\0a\0]\0", 8 },
    { "lorem ipsum dolor sit amet\n", -1 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      const char *t = inputs[i].text;
      gssize n = inputs[i].len;
      AdbscopeProcMeminfo m;
      AdbscopePressure p;
      AdbscopePidStat st;
      AdbscopePidStatus ps;
      GError *error = NULL;
      double up;

      g_test_message ("input %u", i);
      g_assert_false (adbscope_proc_parse_uptime (t, n, &up, NULL, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_null (adbscope_proc_parse_stat (t, n, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_false (adbscope_proc_parse_meminfo (t, n, &m, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_null (adbscope_proc_parse_net_dev (t, n, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_false (adbscope_proc_parse_pressure (t, n, &p, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_false (adbscope_proc_parse_pid_stat (t, n, &st, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_false (adbscope_proc_parse_pid_status (t, n, &ps, &error));
      assert_parse_error (error);
      g_clear_error (&error);
      g_assert_null (adbscope_proc_parse_cpuinfo (t, n, &error));
      assert_parse_error (error);
      g_clear_error (&error);
    }

  /* task stats: empty input is an error, a bad line names its number */
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (adbscope_proc_parse_task_stats ("1 (a) S 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n"
                                                   "garbage\n", -1, &error));
    assert_parse_error (error);
    g_assert_nonnull (strstr (error->message, "line 2"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proc/uptime/host", test_uptime_host);
  g_test_add_func ("/proc/uptime/rejects-uptime-command", test_uptime_rejects_uptime_command);
  g_test_add_func ("/proc/stat/host", test_stat_host);
  g_test_add_func ("/proc/stat/hotplug", test_stat_hotplug);
  g_test_add_func ("/proc/stat/aggregate-backwards", test_stat_aggregate_backwards);
  g_test_add_func ("/proc/stat/old-kernel", test_stat_old_kernel_four_fields);
  g_test_add_func ("/proc/meminfo/fixtures", test_meminfo_fixtures);
  g_test_add_func ("/proc/meminfo/host", test_meminfo_host);
  g_test_add_func ("/proc/net-dev/fixture", test_net_dev_fixture);
  g_test_add_func ("/proc/net-dev/wide-counter", test_net_dev_wide_counter);
  g_test_add_func ("/proc/net-dev/host", test_net_dev_host);
  g_test_add_func ("/proc/pressure/fixtures", test_pressure_fixtures);
  g_test_add_func ("/proc/pid-stat/comm-with-parentheses", test_stat_comm_with_parentheses);
  g_test_add_func ("/proc/pid-stat/empty-comm", test_stat_empty_comm);
  g_test_add_func ("/proc/pid-stat/three-threads", test_task_stats_three_threads);
  g_test_add_func ("/proc/pid-stat/host", test_pid_stat_host);
  g_test_add_func ("/proc/threads/two-samples", test_thread_usage_two_samples);
  g_test_add_func ("/proc/threads/churn", test_thread_usage_churn);
  g_test_add_func ("/proc/status/host", test_pid_status_host);
  g_test_add_func ("/proc/status/kernel-thread", test_pid_status_kernel_thread);
  g_test_add_func ("/proc/cpuinfo/fixtures", test_cpuinfo_fixtures);
  g_test_add_func ("/proc/cpuinfo/host", test_cpuinfo_host);
  g_test_add_func ("/proc/garbage", test_garbage);

  return g_test_run ();
}
