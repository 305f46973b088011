/* adbscope-fast-collector.c: /proc and cpufreq every sample interval
 *
 * One command per tick:
 *
 *   grep -H '' /proc/uptime /proc/stat /proc/meminfo /proc/net/dev
 *     [/proc/pressure/memory] /proc/PID/stat /proc/PID/status
 *     /proc/PID/task/STAR/stat /sys/devices/system/cpu/cpuSTAR/cpufreq/scaling_cur_freq
 *
 * When the pid is not known yet it is looked up with `pidof` in the same
 * command, and the /proc files of every pid it names are read: a process
 * that forks has a child under its name until the child execs (a shell's
 * command, Runtime.exec()), so the app is the one whose parent is not one
 * of them (/proc/PID/stat field 4).  The process start time (stat field
 * 22) is read with every sample, so a restarted app — new pid, or the same
 * pid reused — is a new process and no delta ever spans two processes.
 *
 * Every process of the package is read: `ps -A -o PID,PPID,RSS,NAME` in
 * the same call (every third tick, and right after one went away) finds
 * the PKG:name processes (":remote", ":push", …), which are read from the
 * next tick on; a row whose parent has its name is such a fork child and
 * is skipped (never a second pid, never a restart).  Each has its own
 * start time, so a process that died or was replaced is never in a delta.
 * The app's numbers are the sum over its processes.
 *
 * Every value across two samples (CPU %, thread %, rates, normalised CPU)
 * comes from adbscope-delta.h, which documents the rules.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-delta.h"
#include "adbscope-error.h"
#include "adbscope-fast-collector.h"
#include "adbscope-parse-gpu.h"
#include "adbscope-parse-grep.h"
#include "adbscope-parse-ps.h"
#include "adbscope-plausible.h"
#include "adbscope-probe.h"
#include "adbscope-fast-collector-private.h"

struct _AdbscopeFastCollector
{
  AdbscopeCollector  parent_instance;

  int                pid;           /* 0 = unknown */
  gboolean           read_psi;
  double            *max_freq_khz;
  guint              n_max_freq;
  guint              restarts;
  gboolean           seen_app;

  /* previous sample */
  AdbscopeProcStat  *prev_stat;     /* the baseline: kept across a window too short to measure */
  double             prev_uptime;
  double             last_uptime;   /* the previous sample's, for dt_s */
  gint64             last_time_us;  /* and its host time */
  gboolean           have_prev_app;
  AdbscopePidStat    prev_app;
  GArray            *prev_tasks;
  GArray            *prev_net;
  GArray            *others;        /* OtherProc */
  gboolean           want_ps;
  char              *gpu_busy_path; /* from the probe, or NULL */
  char              *gpu_freq_path;
};

G_DEFINE_FINAL_TYPE (AdbscopeFastCollector, adbscope_fast_collector, ADBSCOPE_TYPE_COLLECTOR)

#define PS_END_MARK "@@adbscope-ps-end"
#define PS_EVERY    3

/* A PKG:name process being followed. */
typedef struct
{
  int              pid;
  char            *name;
  gboolean         have_prev;
  AdbscopePidStat  prev;
  GArray          *prev_tasks;
  guint            restarts;
  gboolean         seen;
} OtherProc;

static void
other_proc_clear (OtherProc *o)
{
  g_clear_pointer (&o->name, g_free);
  g_clear_pointer (&o->prev_tasks, g_array_unref);
}

static void
process_usage_clear (AdbscopeProcessUsage *p)
{
  g_clear_pointer (&p->name, g_free);
}


void
adbscope_fast_sample_free (AdbscopeFastSample *sample)
{
  if (sample == NULL)
    return;
  g_free (sample->core_pct);
  g_free (sample->core_freq_khz);
  g_clear_pointer (&sample->threads, g_array_unref);
  g_clear_pointer (&sample->net, g_array_unref);
  g_clear_pointer (&sample->processes, g_array_unref);
  g_free (sample);
}

static char *
build_command (AdbscopeCollector *collector,
               guint              tick)
{
  AdbscopeFastCollector *self = ADBSCOPE_FAST_COLLECTOR (collector);
  GString *cmd = g_string_new (NULL);

  /* The package name was validated before it got here.  The header has
   * "PID" in it, so the table keeps its header through the grep.  ps
   * walks all of /proc on the phone (tens of ms): every PS_EVERY ticks,
   * and at once after one of the app's processes went away. */
  if (tick % PS_EVERY == 0 || self->want_ps)
    {
      g_string_append_printf (cmd, ADBSCOPE_CMD_PS " 2>/dev/null | grep -F -e PID -e %s; echo " PS_END_MARK "; ",
                              adbscope_collector_get_package (collector));
      self->want_ps = FALSE;
    }
  /* Every pid of the name (parse() picks the one that is not a fork of
   * another); a capture made before pidof was asked for all of them
   * answers only `pidof -s`. */
  if (self->pid <= 0)
    g_string_append_printf (cmd, "p=$(" ADBSCOPE_CMD_PIDOF " 2>/dev/null || pidof -s %s); echo \"pidof:$p\"; ",
                            adbscope_collector_get_package (collector), adbscope_collector_get_package (collector));

  /* LC_ALL=C: GNU grep in a UTF-8 locale prints "binary file matches"
   * instead of a thread name cut mid-character (toybox ignores it). */
  g_string_append (cmd, "LC_ALL=C grep -H '' " ADBSCOPE_FILES_FAST);
  if (self->read_psi)
    g_string_append (cmd, " " ADBSCOPE_FILE_PSI_MEMORY);
  if (self->pid > 0)
    g_string_append_printf (cmd, " /proc/%d/stat /proc/%d/status /proc/%d/task/*/stat",
                            self->pid, self->pid, self->pid);
  else
    /* unquoted, so the shell splits the paths and expands the globs */
    g_string_append (cmd, " $(for q in $p; do echo \"/proc/$q/stat /proc/$q/status /proc/$q/task/*/stat\"; done)");
  for (guint i = 0; i < self->others->len; i++)
    {
      int opid = g_array_index (self->others, OtherProc, i).pid;

      g_string_append_printf (cmd, " /proc/%d/stat /proc/%d/status /proc/%d/task/*/stat", opid, opid, opid);
    }
  if (self->n_max_freq > 0)
    g_string_append (cmd, " " ADBSCOPE_FILES_CPUFREQ_CUR);
  /* sysfs paths from the probe's own list: no quoting needed */
  if (self->gpu_busy_path != NULL)
    g_string_append_printf (cmd, " %s", self->gpu_busy_path);
  if (self->gpu_freq_path != NULL)
    g_string_append_printf (cmd, " %s", self->gpu_freq_path);
  g_string_append (cmd, " 2>/dev/null");
  return g_string_free (cmd, FALSE);
}

static OtherProc *
find_other (AdbscopeFastCollector *self,
            const char            *name)
{
  for (guint i = 0; i < self->others->len; i++)
    if (g_str_equal (g_array_index (self->others, OtherProc, i).name, name))
      return &g_array_index (self->others, OtherProc, i);
  return NULL;
}

/* The PKG:name processes in this tick's ps: read from the next tick on.
 * A name with a new pid is a restart of that process. */
static void
follow_other_processes (AdbscopeFastCollector *self,
                        AdbscopePsTable       *ps)
{
  g_autofree char *prefix = g_strconcat (adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self)), ":", NULL);

  if (ps == NULL)
    return;
  for (guint i = 0; i < ps->rows->len; i++)
    {
      const AdbscopePsRow *row = g_ptr_array_index (ps->rows, i);
      OtherProc *o;

      if (row->name == NULL || !g_str_has_prefix (row->name, prefix) || row->name[strlen (prefix)] == '\0' ||
          strchr (row->name, ' ') != NULL || row->pid <= 0 || adbscope_ps_table_is_fork_child (ps, row))
        continue;
      o = find_other (self, row->name);
      if (o == NULL)
        {
          OtherProc fresh = { .pid = row->pid, .name = g_strdup (row->name) };

          g_array_append_val (self->others, fresh);
        }
      else if (o->pid != row->pid)
        {
          o->pid = row->pid;
          o->have_prev = FALSE;
          g_clear_pointer (&o->prev_tasks, g_array_unref);
        }
    }
}

/* The PKG:name processes asked for in this tick, added to the sample and
 * to the app's totals. */
static void
read_other_processes (AdbscopeFastCollector *self,
                      AdbscopeFastSample    *s,
                      AdbscopeGrepOutput    *grep,
                      AdbscopeCpuUsage      *usage,
                      double                 window,
                      gboolean               carry)
{
  for (guint i = 0; i < self->others->len; i++)
    {
      OtherProc *o = &g_array_index (self->others, OtherProc, i);
      g_autofree char *stat_path = NULL;
      g_autofree char *status_path = NULL;
      g_autoptr(GArray) tasks = NULL;
      AdbscopePidStat st = { 0 };
      AdbscopePidStatus status = { 0 };
      AdbscopeProcessUsage u = { 0 };
      gboolean same;

      if (o->pid <= 0)
        continue;
      stat_path = g_strdup_printf ("/proc/%d/stat", o->pid);
      status_path = g_strdup_printf ("/proc/%d/status", o->pid);
      if (!adbscope_proc_parse_pid_stat (adbscope_grep_output_lookup (grep, stat_path), -1, &st, NULL))
        {
          /* Gone: not in this sample, and not read again until ps shows
           * the name with a pid (it may have been restarted). */
          o->pid = 0;
          self->want_ps = TRUE;
          o->have_prev = FALSE;
          g_clear_pointer (&o->prev_tasks, g_array_unref);
          continue;
        }

      same = o->have_prev && adbscope_delta_same_process (&o->prev, &st);
      u.pid = st.pid;
      u.name = g_strdup (o->name);
      u.starttime = st.starttime;
      u.restarted = o->seen && !same;
      if (u.restarted)
        o->restarts++;
      u.restarts = o->restarts;
      u.cpu_pct = same && usage != NULL ? adbscope_delta_process_cpu_pct (&o->prev, &st, usage->total_delta) : NAN;
      u.rss_kb = u.swap_kb = u.threads = NAN;
      if (adbscope_proc_parse_pid_status (adbscope_grep_output_lookup (grep, status_path), -1, &status, NULL))
        {
          u.rss_kb = status.vm_rss_kb >= 0 ? (double) status.vm_rss_kb : NAN;
          u.swap_kb = status.vm_swap_kb >= 0 ? (double) status.vm_swap_kb : NAN;
          u.threads = status.threads >= 0 ? (double) status.threads : NAN;
        }
      tasks = adbscope_proc_task_stats_from_grep (grep, st.pid, NULL);
      if (same && tasks != NULL && o->prev_tasks != NULL && isfinite (window) && s->threads != NULL)
        {
          g_autoptr(GArray) t = adbscope_delta_threads (o->prev_tasks, tasks, window);

          for (guint k = 0; k < t->len; k++)
            g_array_index (t, AdbscopeThreadUsage, k).pid = st.pid;
          g_array_append_vals (s->threads, t->data, t->len);
        }
      o->seen = TRUE;
      if (!(carry && same))
        {
          o->prev = st;
          o->have_prev = TRUE;
          g_clear_pointer (&o->prev_tasks, g_array_unref);
          o->prev_tasks = g_steal_pointer (&tasks);
        }

      if (s->processes != NULL)
        {
          /* The app's totals: the sum of its processes. */
          if (isfinite (u.cpu_pct) && isfinite (s->app_pct))
            s->app_pct += u.cpu_pct;
          if (isfinite (u.rss_kb) && isfinite (s->app_rss_kb))
            s->app_rss_kb += u.rss_kb;
          if (isfinite (u.swap_kb) && isfinite (s->app_swap_kb))
            s->app_swap_kb += u.swap_kb;
          if (isfinite (u.threads) && isfinite (s->app_threads))
            s->app_threads += u.threads;
          g_array_append_val (s->processes, u);
        }
      else
        process_usage_clear (&u);
    }
  if (s->processes != NULL && isfinite (s->app_norm_pct))
    s->app_norm_pct = adbscope_delta_normalise (s->app_pct, s->core_freq_khz, self->max_freq_khz,
                                                MIN (s->n_cores, self->n_max_freq));
}

/* Of the pids `pidof` named, the app: the first whose parent is not one
 * of them (the others are its forks that have not exec'd yet); 0 for
 * none, the first when none of their stat files was read. */
static int
pick_app_pid (const char         *pidof,
              AdbscopeGrepOutput *grep)
{
  g_auto(GStrv) words = g_strsplit_set (pidof, " \t", -1);
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint i = 0; words[i] != NULL; i++)
    {
      gint64 v;

      if (words[i][0] != '\0' && g_ascii_string_to_signed (words[i], 10, 1, G_MAXINT, &v, NULL))
        {
          int pid = (int) v;

          g_array_append_val (pids, pid);
        }
    }
  for (guint i = 0; i < pids->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/stat", g_array_index (pids, int, i));
      AdbscopePidStat st = { 0 };
      gboolean forked = FALSE;

      if (!adbscope_proc_parse_pid_stat (adbscope_grep_output_lookup (grep, path), -1, &st, NULL))
        continue;
      for (guint k = 0; k < pids->len && !forked; k++)
        forked = k != i && g_array_index (pids, int, k) == st.ppid;
      if (!forked)
        return st.pid;
    }
  return pids->len > 0 ? g_array_index (pids, int, 0) : 0;
}

/* Pure given the collector's previous-sample state; exposed for tests. */
AdbscopeFastSample *
_adbscope_fast_collector_parse (AdbscopeFastCollector  *self,
                                const char             *output,
                                gint64                  time_us,
                                GError                **error)
{
  g_autoptr(AdbscopeFastSample) s = g_new0 (AdbscopeFastSample, 1);
  g_autoptr(AdbscopeGrepOutput) grep = NULL;
  g_autoptr(AdbscopeProcStat) stat = NULL;
  g_autoptr(AdbscopeCpuUsage) usage = NULL;
  g_autoptr(GArray) tasks = NULL;
  g_autoptr(GArray) net = NULL;
  g_autofree char *pid_stat_path = NULL;
  g_autofree char *pid_status_path = NULL;
  AdbscopePidStat app = { 0 };
  AdbscopePidStatus status = { 0 };
  AdbscopeProcMeminfo mem = { 0 };
  g_autoptr(AdbscopePsTable) ps = NULL;
  g_autofree char *pidof = NULL;
  int pid = self->pid;
  double idle;
  double window = NAN;
  gboolean carry = FALSE;

  s->time_us = time_us;
  s->dt_s = s->window_s = s->system_pct = s->system_norm_pct = NAN;
  s->app_pct = s->app_norm_pct = s->app_rss_kb = s->app_swap_kb = s->app_threads = NAN;
  s->mem_total_kb = s->mem_available_kb = s->swap_used_kb = NAN;
  s->psi_some_avg10 = s->psi_full_avg10 = NAN;
  s->net_rx_bytes_per_s = s->net_tx_bytes_per_s = NAN;
  s->gpu_busy_pct = s->gpu_freq_mhz = NAN;

  /* The ps table of the package's processes comes first. */
  {
    const char *mark = strstr (output, PS_END_MARK "\n");

    if (mark != NULL)
      {
        ps = adbscope_ps_parse (output, mark - output, NULL);
        output = mark + strlen (PS_END_MARK "\n");
      }
  }

  /* "pidof:N…" comes first when the pid was looked up; it has no path
   * before the colon, so split it off before the grep -H parser. */
  if (g_str_has_prefix (output, "pidof:"))
    {
      const char *nl = strchr (output, '\n');

      pidof = g_strndup (output + 6, nl ? (gsize) (nl - output - 6) : strlen (output + 6));
      output = nl ? nl + 1 : output + strlen (output);
    }

  if (!(grep = adbscope_grep_output_parse (output, -1, error)))
    return NULL;
  if (pidof != NULL)
    pid = pick_app_pid (pidof, grep);
  if (!adbscope_proc_parse_uptime (adbscope_grep_output_lookup (grep, "/proc/uptime"), -1,
                                   &s->uptime_s, &idle, error))
    return NULL;
  if (!(stat = adbscope_proc_parse_stat (adbscope_grep_output_lookup (grep, "/proc/stat"), -1, error)))
    return NULL;

  /* dt_s is what the device's clock says; window is the same unless it
   * is too short for a delta (adbscope_delta_interval()), then NaN and
   * every value across the two samples is NaN. */
  if (self->prev_stat != NULL)
    {
      s->dt_s = s->uptime_s - self->last_uptime;
      window = adbscope_delta_interval (self->prev_uptime, s->uptime_s);
      /* An uptime that ran far ahead of the host's clock is no device
       * time: no value across it, and this reading is the new base. */
      if (!adbscope_plausible_clock_step (s->dt_s, (time_us - self->last_time_us) / 1e6))
        {
          s->clock_implausible = TRUE;
          s->dt_s = window = NAN;
        }
      /* Too short to measure (fewer than ADBSCOPE_DELTA_MIN_TICKS since
       * the baseline): this sample's values across two samples are NaN and
       * the baseline stays, so its ticks are carried into the next sample
       * instead of being thrown away.  A clock that went back (a reboot)
       * starts again from here. */
      carry = !isfinite (window) && s->uptime_s >= self->prev_uptime && !s->clock_implausible;
    }
  if (self->prev_stat != NULL && isfinite (window))
    {
      s->window_s = window;
      usage = adbscope_delta_cpu (self->prev_stat, stat);
      s->system_pct = usage->total_pct;
      s->n_cores = MIN (usage->n_cpus, ADBSCOPE_MAX_CORES);
      s->core_pct = g_memdup2 (usage->cpu_pct, sizeof (double) * usage->n_cpus);
    }
  else
    {
      s->n_cores = stat->cpus->len > 0 ?
        (guint) g_array_index (stat->cpus, AdbscopeCpuTicks, stat->cpus->len - 1).cpu + 1 : 0;
      s->n_cores = MIN (s->n_cores, ADBSCOPE_MAX_CORES);
      s->core_pct = g_new (double, s->n_cores);
      for (guint i = 0; i < s->n_cores; i++)
        s->core_pct[i] = NAN;
    }

  s->core_freq_khz = g_new (double, s->n_cores);
  for (guint i = 0; i < s->n_cores; i++)
    {
      g_autofree char *path = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", i);
      const char *text = adbscope_grep_output_lookup (grep, path);

      s->core_freq_khz[i] = text ? g_ascii_strtod (text, NULL) : NAN;
      if (!(s->core_freq_khz[i] > 0))
        s->core_freq_khz[i] = NAN;
    }
  if (self->n_max_freq > 0)
    s->system_norm_pct = adbscope_delta_normalise (s->system_pct, s->core_freq_khz, self->max_freq_khz,
                                                   MIN (s->n_cores, self->n_max_freq));

  if (adbscope_proc_parse_meminfo (adbscope_grep_output_lookup (grep, "/proc/meminfo"), -1, &mem, NULL))
    {
      s->mem_total_kb = mem.mem_total_kb;
      s->mem_available_kb = mem.has_mem_available ? (double) mem.mem_available_kb : NAN;
      s->swap_used_kb = (double) mem.swap_total_kb - (double) mem.swap_free_kb;
    }

  if (self->read_psi)
    {
      AdbscopePressure psi = { 0 };

      if (adbscope_proc_parse_pressure (adbscope_grep_output_lookup (grep, "/proc/pressure/memory"), -1, &psi, NULL))
        {
          s->psi_some_avg10 = psi.some.present ? psi.some.avg10 : NAN;
          s->psi_full_avg10 = psi.full.present ? psi.full.avg10 : NAN;
        }
    }

  if (self->gpu_busy_path != NULL)
    s->gpu_busy_pct = adbscope_gpu_parse_busy_pct (adbscope_grep_output_lookup (grep, self->gpu_busy_path));
  if (self->gpu_freq_path != NULL)
    s->gpu_freq_mhz = adbscope_gpu_parse_freq_mhz (adbscope_grep_output_lookup (grep, self->gpu_freq_path));

  net = adbscope_proc_parse_net_dev (adbscope_grep_output_lookup (grep, "/proc/net/dev"), -1, NULL);
  if (net != NULL && self->prev_net != NULL && isfinite (window))
    s->net = adbscope_delta_net_rates (self->prev_net, net, window,
                                       &s->net_rx_bytes_per_s, &s->net_tx_bytes_per_s);

  /* The app. */
  if (pid > 0)
    {
      pid_stat_path = g_strdup_printf ("/proc/%d/stat", pid);
      pid_status_path = g_strdup_printf ("/proc/%d/status", pid);
    }
  s->app_running = pid > 0 &&
    adbscope_proc_parse_pid_stat (adbscope_grep_output_lookup (grep, pid_stat_path), -1, &app, NULL);

  if (s->app_running)
    {
      gboolean same = self->have_prev_app && adbscope_delta_same_process (&self->prev_app, &app);

      s->pid = app.pid;
      s->starttime = app.starttime;
      if (self->seen_app && !same)
        {
          s->restarted = TRUE;
          self->restarts++;
        }
      self->seen_app = TRUE;

      if (adbscope_proc_parse_pid_status (adbscope_grep_output_lookup (grep, pid_status_path), -1, &status, NULL))
        {
          s->app_rss_kb = status.vm_rss_kb >= 0 ? (double) status.vm_rss_kb : NAN;
          s->app_swap_kb = status.vm_swap_kb >= 0 ? (double) status.vm_swap_kb : NAN;
          s->app_threads = status.threads >= 0 ? (double) status.threads : NAN;
        }
      tasks = adbscope_proc_task_stats_from_grep (grep, pid, NULL);

      if (same && usage != NULL)
        {
          s->app_pct = adbscope_delta_process_cpu_pct (&self->prev_app, &app, usage->total_delta);
          if (self->n_max_freq > 0)
            s->app_norm_pct = adbscope_delta_normalise (s->app_pct, s->core_freq_khz, self->max_freq_khz,
                                                        MIN (s->n_cores, self->n_max_freq));
          if (tasks != NULL && self->prev_tasks != NULL && isfinite (window))
            s->threads = adbscope_delta_threads (self->prev_tasks, tasks, window);
        }
      /* The baseline stays across a window too short to measure, unless
       * this is another process (whose own baseline starts here). */
      if (!(carry && same))
        {
          self->prev_app = app;
          self->have_prev_app = TRUE;
          g_clear_pointer (&self->prev_tasks, g_array_unref);
          self->prev_tasks = g_steal_pointer (&tasks);
        }
      self->pid = pid;
    }
  else
    {
      /* Gone (or never there): look it up again next time. */
      self->pid = 0;
      self->have_prev_app = FALSE;
    }

  if (s->app_running)
    {
      AdbscopeProcessUsage main_proc = {
        .pid = s->pid, .name = g_strdup (adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self))),
        .main = TRUE, .starttime = s->starttime, .restarted = s->restarted, .restarts = self->restarts,
        .cpu_pct = s->app_pct, .rss_kb = s->app_rss_kb, .swap_kb = s->app_swap_kb, .threads = s->app_threads,
      };

      s->processes = g_array_new (FALSE, TRUE, sizeof (AdbscopeProcessUsage));
      g_array_set_clear_func (s->processes, (GDestroyNotify) process_usage_clear);
      g_array_append_val (s->processes, main_proc);
      for (guint i = 0; s->threads != NULL && i < s->threads->len; i++)
        g_array_index (s->threads, AdbscopeThreadUsage, i).pid = s->pid;
    }
  read_other_processes (self, s, grep, usage, window, carry);
  follow_other_processes (self, ps);

  self->last_uptime = s->uptime_s;
  self->last_time_us = time_us;
  if (carry)
    return g_steal_pointer (&s);
  g_clear_pointer (&self->prev_stat, adbscope_proc_stat_free);
  self->prev_stat = g_steal_pointer (&stat);
  self->prev_uptime = s->uptime_s;
  if (!s->app_running)
    g_clear_pointer (&self->prev_tasks, g_array_unref);
  if (net != NULL)
    {
      g_clear_pointer (&self->prev_net, g_array_unref);
      self->prev_net = g_steal_pointer (&net);
    }
  return g_steal_pointer (&s);
}

static gpointer
parse (AdbscopeCollector  *collector,
       const char         *output,
       gint64              time_us,
       GError            **error)
{
  return _adbscope_fast_collector_parse (ADBSCOPE_FAST_COLLECTOR (collector), output, time_us, error);
}

void
adbscope_fast_collector_set_max_freqs (AdbscopeFastCollector *self,
                                       const double          *max_freq_khz,
                                       guint                  n_cores)
{
  g_return_if_fail (ADBSCOPE_IS_FAST_COLLECTOR (self));

  g_free (self->max_freq_khz);
  self->max_freq_khz = n_cores ? g_memdup2 (max_freq_khz, sizeof (double) * n_cores) : NULL;
  self->n_max_freq = n_cores;
}

void
adbscope_fast_collector_set_read_psi (AdbscopeFastCollector *self,
                                      gboolean               read_psi)
{
  g_return_if_fail (ADBSCOPE_IS_FAST_COLLECTOR (self));
  self->read_psi = read_psi;
}

void
adbscope_fast_collector_set_gpu (AdbscopeFastCollector *self,
                                 const char            *busy_path,
                                 const char            *freq_path)
{
  g_return_if_fail (ADBSCOPE_IS_FAST_COLLECTOR (self));
  g_free (self->gpu_busy_path);
  g_free (self->gpu_freq_path);
  self->gpu_busy_path = g_strdup (busy_path);
  self->gpu_freq_path = g_strdup (freq_path);
}

guint
adbscope_fast_collector_get_restarts (AdbscopeFastCollector *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_FAST_COLLECTOR (self), 0);
  return self->restarts;
}

static void
adbscope_fast_collector_finalize (GObject *object)
{
  AdbscopeFastCollector *self = ADBSCOPE_FAST_COLLECTOR (object);

  g_free (self->max_freq_khz);
  g_clear_pointer (&self->prev_stat, adbscope_proc_stat_free);
  g_clear_pointer (&self->prev_tasks, g_array_unref);
  g_clear_pointer (&self->prev_net, g_array_unref);
  g_clear_pointer (&self->others, g_array_unref);
  g_free (self->gpu_busy_path);
  g_free (self->gpu_freq_path);
  G_OBJECT_CLASS (adbscope_fast_collector_parent_class)->finalize (object);
}

static void
adbscope_fast_collector_class_init (AdbscopeFastCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AdbscopeCollectorClass *collector_class = ADBSCOPE_COLLECTOR_CLASS (klass);

  object_class->finalize = adbscope_fast_collector_finalize;
  collector_class->build_command = build_command;
  collector_class->parse = parse;
  collector_class->free_sample = (GDestroyNotify) adbscope_fast_sample_free;
}

static void
adbscope_fast_collector_init (AdbscopeFastCollector *self)
{
  self->others = g_array_new (FALSE, TRUE, sizeof (OtherProc));
  g_array_set_clear_func (self->others, (GDestroyNotify) other_proc_clear);
}

