/* bench-fast-loop.c: cost of parsing one fast-loop sample on the desktop
 *
 * Builds a grep -H output like the fast loop's from the captures (42-thread
 * app, meminfo, net/dev, PSI) plus this host's /proc/stat, then times split +
 * parse + CPU/thread deltas.  Suite 'benchmark' (CI does not run it).
 */
#include "config.h"

#include "adbscope-parse-grep.h"
#include "adbscope-delta.h"
#include "adbscope-parse-proc.h"
#include "parsers-test-util.h"

static void
append_file (GString    *out,
             const char *path,
             const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint i;

  for (i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_string_append_printf (out, "%s:%s\n", path, lines[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *stat = host_read ("/proc/stat", NULL);
  g_autofree char *meminfo = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-meminfo.txt", NULL);
  g_autofree char *netdev = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-net-dev.txt", NULL);
  g_autofree char *psi = fixture_read ("proc/android13-mtk-mt8168-tablet-bugreport-proc-pressure-memory.txt", NULL);
  g_autofree char *tasks = fixture_read ("proc/task-stat-all-threads-sample1-with-epoch-ms-header.txt", NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) task_lines = NULL;
  const guint iterations = 2000;
  g_autoptr(AdbscopeProcStat) prev_stat = NULL;
  g_autoptr(GArray) prev_tasks = NULL;
  gint64 t0, t1;
  guint i;

  append_file (out, "/proc/uptime", "350735.47 234388.90");
  append_file (out, "/proc/stat", stat);
  append_file (out, "/proc/meminfo", meminfo);
  append_file (out, "/proc/net/dev", netdev);
  append_file (out, "/proc/pressure/memory", psi);
  task_lines = g_strsplit (tasks + first_line_length (tasks, NULL), "\n", -1);
  append_file (out, "/proc/21455/stat", task_lines[0]);
  for (i = 0; task_lines[i] != NULL; i++)
    if (task_lines[i][0] != '\0')
      {
        g_autofree char *path = g_strdup_printf ("/proc/21455/task/%d/stat", atoi (task_lines[i]));

        append_file (out, path, task_lines[i]);
      }

  t0 = g_get_monotonic_time ();
  for (i = 0; i < iterations; i++)
    {
      g_autoptr(AdbscopeGrepOutput) grep = adbscope_grep_output_parse (out->str, out->len, NULL);
      g_autoptr(AdbscopeProcStat) s = adbscope_proc_parse_stat (adbscope_grep_output_lookup (grep, "/proc/stat"), -1, NULL);
      g_autoptr(GArray) t = adbscope_proc_task_stats_from_grep (grep, 21455, NULL);
      AdbscopeProcMeminfo m;
      AdbscopePressure p;
      g_autoptr(GArray) n = adbscope_proc_parse_net_dev (adbscope_grep_output_lookup (grep, "/proc/net/dev"), -1, NULL);

      g_assert (s != NULL && t != NULL && t->len == 42 && n != NULL);
      g_assert (adbscope_proc_parse_meminfo (adbscope_grep_output_lookup (grep, "/proc/meminfo"), -1, &m, NULL));
      g_assert (adbscope_proc_parse_pressure (adbscope_grep_output_lookup (grep, "/proc/pressure/memory"), -1, &p, NULL));
      if (prev_stat != NULL)
        {
          g_autoptr(AdbscopeCpuUsage) u = adbscope_delta_cpu (prev_stat, s);
          g_autoptr(GArray) tu = adbscope_delta_threads (prev_tasks, t, 1.0);

          g_assert (u->total_delta == 0); /* the same /proc/stat every time */
          g_assert (tu->len == 42);
        }
      g_clear_pointer (&prev_stat, adbscope_proc_stat_free);
      g_clear_pointer (&prev_tasks, g_array_unref);
      prev_stat = g_steal_pointer (&s);
      prev_tasks = g_steal_pointer (&t);
    }
  t1 = g_get_monotonic_time ();

  g_print ("fast-loop sample: %" G_GSIZE_FORMAT " bytes, %.1f us per split+parse+deltas (%u iterations)\n",
           out->len, (double) (t1 - t0) / iterations, iterations);
  return 0;
}
