/* test-parse-grep.c: the fast loop's `grep -H` splitter, on real grep output */
#include "config.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "adbscope-parse-grep.h"
#include "adbscope-parse-proc.h"
#include "parsers-test-util.h"

#define N_EXTRA_THREADS 3

typedef struct
{
  GMutex mutex;
  GCond  cond;
  gboolean release;
  guint  started;
} Parking;

static gpointer
parked_thread (gpointer data)
{
  Parking *p = data;

  g_mutex_lock (&p->mutex);
  p->started++;
  g_cond_broadcast (&p->cond);
  while (!p->release)
    g_cond_wait (&p->cond, &p->mutex);
  g_mutex_unlock (&p->mutex);
  return NULL;
}

/* Runs the very command line of the fast loop on this machine (its /proc has
 * Android's formats) against this test process with 3 parked threads. */
static void
test_grep_host_fast_loop (void)
{
  Parking parking = { 0, };
  GThread *threads[N_EXTRA_THREADS];
  g_autofree char *cmd = NULL;
  g_autofree char *out = NULL;
  g_autofree char *direct_meminfo = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeGrepOutput) grep = NULL;
  g_autoptr(AdbscopeProcStat) stat = NULL;
  g_autoptr(GArray) tasks = NULL;
  g_autoptr(GPtrArray) freqs = NULL;
  g_autofree char *stat_path = NULL;
  g_autofree char *status_path = NULL;
  AdbscopeProcMeminfo m_grep, m_direct;
  AdbscopePidStatus status;
  AdbscopePidStat pst;
  int pid = getpid ();
  int exit_status = -1;
  gboolean main_tid_seen = FALSE;
  double up;
  guint i;

  g_mutex_init (&parking.mutex);
  g_cond_init (&parking.cond);
  for (i = 0; i < N_EXTRA_THREADS; i++)
    threads[i] = g_thread_new ("parked", parked_thread, &parking);
  g_mutex_lock (&parking.mutex);
  while (parking.started < N_EXTRA_THREADS)
    g_cond_wait (&parking.cond, &parking.mutex);
  g_mutex_unlock (&parking.mutex);

  cmd = g_strdup_printf ("grep -H '' /proc/uptime /proc/stat /proc/meminfo /proc/net/dev "
                         "/proc/pressure/memory /proc/%d/stat /proc/%d/status /proc/%d/task/*/stat "
                         "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq /proc/no-such-file 2>/dev/null",
                         pid, pid, pid);
  {
    const char *argv[] = { "/bin/sh", "-c", cmd, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, NULL, &exit_status, &error));
    g_assert_no_error (error);
  }

  g_mutex_lock (&parking.mutex);
  parking.release = TRUE;
  g_cond_broadcast (&parking.cond);
  g_mutex_unlock (&parking.mutex);
  for (i = 0; i < N_EXTRA_THREADS; i++)
    g_thread_join (threads[i]);
  g_mutex_clear (&parking.mutex);
  g_cond_clear (&parking.cond);

  grep = adbscope_grep_output_parse (out, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (grep);

  g_assert_null (adbscope_grep_output_lookup (grep, "/proc/no-such-file"));
  g_assert_cmpstr (adbscope_grep_output_get_path (grep, 0), ==, "/proc/uptime");
  g_assert_true (adbscope_proc_parse_uptime (adbscope_grep_output_lookup (grep, "/proc/uptime"), -1, &up, NULL, &error));
  g_assert_no_error (error);

  stat = adbscope_proc_parse_stat (adbscope_grep_output_lookup (grep, "/proc/stat"), -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stat->cpus->len, >=, 1);

  /* meminfo lines hold ':' themselves: the split must keep them whole. */
  g_assert_true (adbscope_proc_parse_meminfo (adbscope_grep_output_lookup (grep, "/proc/meminfo"), -1, &m_grep, &error));
  g_assert_no_error (error);
  direct_meminfo = host_read ("/proc/meminfo", NULL);
  g_assert_true (adbscope_proc_parse_meminfo (direct_meminfo, -1, &m_direct, NULL));
  g_assert_cmpuint (m_grep.mem_total_kb, ==, m_direct.mem_total_kb);
  g_assert_true (g_str_has_prefix (adbscope_grep_output_lookup (grep, "/proc/meminfo"), "MemTotal:"));

  g_assert_nonnull (adbscope_proc_parse_net_dev (adbscope_grep_output_lookup (grep, "/proc/net/dev"), -1, NULL));

  /* PSI and cpufreq exist on some hosts only; they must appear exactly
   * when the file is readable. */
  if (g_file_test ("/proc/pressure/memory", G_FILE_TEST_EXISTS) && access ("/proc/pressure/memory", R_OK) == 0)
    {
      AdbscopePressure pr;

      g_assert_true (adbscope_proc_parse_pressure (adbscope_grep_output_lookup (grep, "/proc/pressure/memory"), -1, &pr, &error));
      g_assert_no_error (error);
      g_assert_true (pr.full.present);
    }
  else
    g_assert_null (adbscope_grep_output_lookup (grep, "/proc/pressure/memory"));
  freqs = adbscope_grep_output_find (grep, "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq");
  g_test_message ("cpufreq files: %u, files in total: %u", freqs->len, adbscope_grep_output_get_n_files (grep));

  stat_path = g_strdup_printf ("/proc/%d/stat", pid);
  g_assert_true (adbscope_proc_parse_pid_stat (adbscope_grep_output_lookup (grep, stat_path), -1, &pst, &error));
  g_assert_no_error (error);
  g_assert_cmpint (pst.pid, ==, pid);
  g_assert_cmpint (pst.num_threads, >=, 1 + N_EXTRA_THREADS);

  status_path = g_strdup_printf ("/proc/%d/status", pid);
  g_assert_true (adbscope_proc_parse_pid_status (adbscope_grep_output_lookup (grep, status_path), -1, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status.tgid, ==, pid);
  g_assert_cmpint (status.uid, ==, getuid ());

  tasks = adbscope_proc_task_stats_from_grep (grep, pid, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tasks->len, ==, status.threads);
  g_assert_cmpuint (tasks->len, >=, 1 + N_EXTRA_THREADS);
  for (i = 0; i < tasks->len; i++)
    {
      const AdbscopePidStat *t = &g_array_index (tasks, AdbscopePidStat, i);

      if (t->pid == pid)
        main_tid_seen = TRUE;
      g_assert_cmpuint (t->starttime, >=, pst.starttime);
    }
  g_assert_true (main_tid_seen);
}

static void
test_grep_quirks (void)
{
  /* ':' inside lines, empty lines, CRLF from a legacy adb shell, a file
   * whose last line has no newline, a binary-file notice, and a path that
   * shows up again later. */
  static const char text[] =
    "/proc/1/status:Name:\tinit\r\n"
    "/proc/1/status:State:\tS (sleeping)\r\n"
    "/proc/x:\n"
    "/proc/x:a:b:c\n"
    "Binary file /proc/kcore matches\n"
    "\n"
    "/proc/1/status:Pid:\t1\n"
    "/sys/f:42";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeGrepOutput) grep = adbscope_grep_output_parse (text, -1, &error);
  g_autoptr(GPtrArray) found = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (adbscope_grep_output_get_n_files (grep), ==, 3);
  g_assert_cmpstr (adbscope_grep_output_lookup (grep, "/proc/1/status"), ==,
                   "Name:\tinit\nState:\tS (sleeping)\nPid:\t1\n");
  g_assert_cmpstr (adbscope_grep_output_lookup (grep, "/proc/x"), ==, "\na:b:c\n");
  g_assert_cmpstr (adbscope_grep_output_lookup (grep, "/sys/f"), ==, "42\n");
  g_assert_cmpstr (adbscope_grep_output_get_path (grep, 1), ==, "/proc/x");
  g_assert_cmpstr (adbscope_grep_output_get_content (grep, 2), ==, "42\n");
  g_assert_null (adbscope_grep_output_lookup (grep, "/proc/kcore"));

  found = adbscope_grep_output_find (grep, "/proc/*");
  g_assert_cmpuint (found->len, ==, 2);
}

static void
test_grep_task_glob_depth (void)
{
  static const char text[] =
    "/proc/7/task/7/stat:7 (main) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 2 0 100 1000 10\n"
    "/proc/7/task/8/stat:8 (worker 1) R 1 7 7 0 -1 0 0 0 0 0 7 8 0 0 20 0 2 0 101 1000 10\n"
    "/proc/7/task/8/children:\n"
    "/proc/77/task/77/stat:77 (other) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 2 0 100 1000 10\n";
  g_autoptr(AdbscopeGrepOutput) grep = adbscope_grep_output_parse (text, -1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) tasks = adbscope_proc_task_stats_from_grep (grep, 7, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (tasks->len, ==, 2);
  g_assert_cmpstr (g_array_index (tasks, AdbscopePidStat, 1).comm, ==, "worker 1");
  g_assert_cmpuint (g_array_index (tasks, AdbscopePidStat, 1).utime, ==, 7);
  g_assert_cmpuint (g_array_index (tasks, AdbscopePidStat, 1).starttime, ==, 101);
}

static void
test_grep_garbage (void)
{
  static const struct { const char *text; gssize len; } inputs[] = {
    { NULL, -1 },
    { "", -1 },
    { "\n", -1 },
    { "no colon here\n", -1 },
    { "relative/path:line\n", -1 },
    { ":starts with colon\n", -1 },
    { "/proc/stat:cpu \0 1 2", 20 },
    { "Binary file /x matches\n", -1 },
    { "/proc/uptime:1.0 2.0\ngarbage\n", -1 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("input %u", i);
      g_assert_null (adbscope_grep_output_parse (inputs[i].text, inputs[i].len, &error));
      assert_parse_error (error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/grep/host-fast-loop", test_grep_host_fast_loop);
  g_test_add_func ("/grep/quirks", test_grep_quirks);
  g_test_add_func ("/grep/task-glob-depth", test_grep_task_glob_depth);
  g_test_add_func ("/grep/garbage", test_grep_garbage);

  return g_test_run ();
}
