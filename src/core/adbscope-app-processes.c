/* adbscope-app-processes.c: every process of the app over the run */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-app-processes.h"

static void
process_series_free (AdbscopeProcessSeries *p)
{
  g_free (p->name);
  g_array_unref (p->pids);
  adbscope_series_unref (p->cpu_pct);
  adbscope_series_unref (p->rss_kb);
  adbscope_series_unref (p->threads);
  adbscope_series_unref (p->pss_kb);
  g_free (p);
}

GPtrArray *
adbscope_app_processes_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) process_series_free);
}

static AdbscopeProcessSeries *
lookup (GPtrArray  *processes,
        const char *name,
        guint       capacity,
        gboolean    create)
{
  AdbscopeProcessSeries *p;

  for (guint i = 0; i < processes->len; i++)
    if (g_str_equal (((AdbscopeProcessSeries *) g_ptr_array_index (processes, i))->name, name))
      return g_ptr_array_index (processes, i);
  if (!create)
    return NULL;
  p = g_new0 (AdbscopeProcessSeries, 1);
  p->name = g_strdup (name);
  p->pids = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->cpu_pct = adbscope_series_new (capacity);
  p->rss_kb = adbscope_series_new (capacity);
  p->threads = adbscope_series_new (capacity);
  p->pss_kb = adbscope_series_new (capacity);
  g_ptr_array_add (processes, p);
  return p;
}

static void
note_pid (AdbscopeProcessSeries *p,
          gint64                 pid)
{
  for (guint i = 0; i < p->pids->len; i++)
    if (g_array_index (p->pids, gint64, i) == pid)
      return;
  g_array_append_val (p->pids, pid);
}

/* Returns TRUE when the set of running PKG:name processes changed. */
gboolean
adbscope_app_processes_take_fast (GPtrArray                *processes,
                                  const AdbscopeFastSample *s,
                                  guint                     capacity)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (processes != NULL && s != NULL, FALSE);

  for (guint i = 0; i < processes->len; i++)
    {
      AdbscopeProcessSeries *p = g_ptr_array_index (processes, i);
      gboolean present = FALSE;

      for (guint j = 0; s->processes != NULL && j < s->processes->len && !present; j++)
        present = g_str_equal (g_array_index (s->processes, AdbscopeProcessUsage, j).name, p->name);
      if (!present)
        {
          /* Gone: a gap in its series, never a value carried over. */
          changed |= p->running && !p->main;
          p->running = FALSE;
          adbscope_series_push (p->cpu_pct, s->time_us, NAN);
          adbscope_series_push (p->rss_kb, s->time_us, NAN);
          adbscope_series_push (p->threads, s->time_us, NAN);
        }
    }

  for (guint j = 0; s->processes != NULL && j < s->processes->len; j++)
    {
      const AdbscopeProcessUsage *u = &g_array_index (s->processes, AdbscopeProcessUsage, j);
      AdbscopeProcessSeries *p = lookup (processes, u->name, capacity, TRUE);

      changed |= !p->running && !u->main;
      if (p->first_us == 0)
        p->first_us = s->time_us;
      p->last_us = s->time_us;
      p->main = u->main;
      p->running = TRUE;
      p->restarts = u->restarts;
      note_pid (p, u->pid);
      adbscope_series_push (p->cpu_pct, s->time_us, u->cpu_pct);
      adbscope_series_push (p->rss_kb, s->time_us, u->rss_kb);
      adbscope_series_push (p->threads, s->time_us, u->threads);
    }
  return changed;
}

/* The running PKG:name processes (for meminfo), NULL-terminated. */
char **
adbscope_app_processes_dup_other_names (GPtrArray *processes)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < processes->len; i++)
    {
      AdbscopeProcessSeries *p = g_ptr_array_index (processes, i);

      if (p->running && !p->main)
        g_ptr_array_add (names, g_strdup (p->name));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/* Pushes each process's PSS; returns the PSS of the app's other processes
 * (0 when there are none), to add to the main one's. */
double
adbscope_app_processes_take_pss (GPtrArray                   *processes,
                                 const AdbscopeMeminfoSample *s)
{
  double others = 0;

  for (guint i = 0; i < processes->len; i++)
    {
      AdbscopeProcessSeries *p = g_ptr_array_index (processes, i);
      double v = NAN;

      if (p->main)
        v = s->total_pss_kb;
      for (guint j = 0; !p->main && s->processes != NULL && j < s->processes->len; j++)
        {
          const AdbscopeProcessPss *o = &g_array_index (s->processes, AdbscopeProcessPss, j);

          if (g_str_equal (o->name, p->name))
            v = o->pss_kb;
        }
      adbscope_series_push (p->pss_kb, s->time_us, v);
      if (!p->main && isfinite (v))
        others += v;
    }
  return others;
}

const char *
adbscope_app_processes_name_for_pid (GPtrArray *processes,
                                     gint64     pid)
{
  for (guint i = 0; i < processes->len; i++)
    {
      AdbscopeProcessSeries *p = g_ptr_array_index (processes, i);
      gint64 last;

      if (p->pids->len == 0)
        continue;
      last = g_array_index (p->pids, gint64, p->pids->len - 1);
      if (last == pid)
        return p->name;
    }
  return NULL;
}
