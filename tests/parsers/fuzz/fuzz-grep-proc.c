/* fuzz-grep-proc.c: the grep -H splitter and every /proc parser */
#include "config.h"

#include "adbscope-parse-grep.h"
#include "adbscope-delta.h"
#include "adbscope-parse-proc.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
parse_all_proc (const char *text,
                gssize      len)
{
  g_autoptr(AdbscopeProcStat) stat = NULL;
  g_autoptr(AdbscopeCpuinfo) cpuinfo = NULL;
  g_autoptr(GArray) net = NULL;
  g_autoptr(GArray) tasks = NULL;
  AdbscopeProcMeminfo mem;
  AdbscopePressure psi;
  AdbscopePidStat pst;
  AdbscopePidStatus status;
  double up, idle;

  adbscope_proc_parse_uptime (text, len, &up, &idle, NULL);
  stat = adbscope_proc_parse_stat (text, len, NULL);
  if (stat != NULL)
    {
      g_autoptr(AdbscopeCpuUsage) usage = adbscope_delta_cpu (stat, stat);

      g_assert (usage->total_delta == 0);
    }
  adbscope_proc_parse_meminfo (text, len, &mem, NULL);
  net = adbscope_proc_parse_net_dev (text, len, NULL);
  adbscope_proc_parse_pressure (text, len, &psi, NULL);
  adbscope_proc_parse_pid_stat (text, len, &pst, NULL);
  tasks = adbscope_proc_parse_task_stats (text, len, NULL);
  if (tasks != NULL)
    {
      g_autoptr(GArray) usage = adbscope_delta_threads (tasks, tasks, 1.0);
      guint i;

      for (i = 0; i < usage->len; i++)
        g_assert (g_array_index (usage, AdbscopeThreadUsage, i).pct >= 0.0);
    }
  adbscope_proc_parse_pid_status (text, len, &status, NULL);
  cpuinfo = adbscope_proc_parse_cpuinfo (text, len, NULL);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const char *text = (const char *) data;
  g_autoptr(AdbscopeGrepOutput) grep = NULL;
  g_autoptr(GError) error = NULL;

  parse_all_proc (text, size);

  grep = adbscope_grep_output_parse (text, size, &error);
  g_assert ((grep == NULL) == (error != NULL));
  if (grep != NULL)
    {
      g_autoptr(GArray) tasks = NULL;
      guint i;

      for (i = 0; i < adbscope_grep_output_get_n_files (grep); i++)
        parse_all_proc (adbscope_grep_output_get_content (grep, i), -1);
      tasks = adbscope_proc_task_stats_from_grep (grep, 1, NULL);
    }

  /* Two /proc/stat samples: the input split in two halves. */
  if (size > 2)
    {
      g_autoptr(AdbscopeProcStat) a = adbscope_proc_parse_stat (text, size / 2, NULL);
      g_autoptr(AdbscopeProcStat) b = adbscope_proc_parse_stat (text + size / 2, size - size / 2, NULL);

      if (a != NULL && b != NULL)
        {
          g_autoptr(AdbscopeCpuUsage) u = adbscope_delta_cpu (a, b);
          guint i;

          for (i = 0; i < u->n_cpus; i++)
            g_assert (!(u->cpu_pct[i] < 0.0) && !(u->cpu_pct[i] > 100.0));
          g_assert (!(u->total_pct < 0.0) && !(u->total_pct > 100.0));
        }
    }
  return 0;
}
