/* adbscope-session.c: everything known about one app on one device, over time
 *
 * The session owns the collectors and the history.  Collectors send
 * samples; the session turns them into ring-buffer series, the live thread
 * list, frame statistics, markers and gaps.  Nothing here knows about GTK.
 *
 * Gaps: when three or more sample intervals pass without a fast sample,
 * NaN is pushed into every series (the ADBSCOPE_SERIES_TABLE list, and the
 * per-core series) so charts show a hole and statistics skip it.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-fast-collector.h"
#include "adbscope-frames-collector.h"
#include "adbscope-app-processes.h"
#include "adbscope-meminfo-collector.h"
#include "adbscope-session.h"
#include "adbscope-slow-collector.h"
#include "adbscope-shell.h"
#include "adbscope-thread.h"

#define DEFAULT_INTERVAL_MS          1000
#define DEFAULT_MEMINFO_INTERVAL_MS  2000
#define DEFAULT_HISTORY_S            (15 * 60)
#define GAP_INTERVALS                3
#define MAX_FRAME_TIMES              (1 << 20)

static const struct {
  const char *path;
  const char *unit;
} series_info[ADBSCOPE_N_SERIES] = {
#define ADBSCOPE_SERIES_INFO(id, p, u) [ADBSCOPE_SERIES_##id] = { p, u },
  ADBSCOPE_SERIES_TABLE (ADBSCOPE_SERIES_INFO)
#undef ADBSCOPE_SERIES_INFO
};

G_STATIC_ASSERT (G_N_ELEMENTS (series_info) == ADBSCOPE_N_SERIES);

const char *
adbscope_series_id_get_path (AdbscopeSeriesId id)
{
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);
  return series_info[id].path;
}

const char *
adbscope_series_id_get_unit (AdbscopeSeriesId id)
{
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);
  return series_info[id].unit;
}

/* The live thread list: keeps item identity, one items-changed per tick. */
#define ADBSCOPE_TYPE_THREAD_LIST (adbscope_thread_list_get_type ())
G_DECLARE_FINAL_TYPE (AdbscopeThreadList, adbscope_thread_list, ADBSCOPE, THREAD_LIST, GObject)

struct _AdbscopeThreadList
{
  GObject    parent_instance;
  GPtrArray *items;
};

static GType
thread_list_get_item_type (GListModel *model)
{
  return ADBSCOPE_TYPE_THREAD;
}

static guint
thread_list_get_n_items (GListModel *model)
{
  return ADBSCOPE_THREAD_LIST (model)->items->len;
}

static gpointer
thread_list_get_item (GListModel *model,
                      guint       position)
{
  AdbscopeThreadList *self = ADBSCOPE_THREAD_LIST (model);

  return position < self->items->len ? g_object_ref (g_ptr_array_index (self->items, position)) : NULL;
}

static void
thread_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = thread_list_get_item_type;
  iface->get_n_items = thread_list_get_n_items;
  iface->get_item = thread_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AdbscopeThreadList, adbscope_thread_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, thread_list_iface_init))

static void
adbscope_thread_list_finalize (GObject *object)
{
  g_ptr_array_unref (ADBSCOPE_THREAD_LIST (object)->items);
  G_OBJECT_CLASS (adbscope_thread_list_parent_class)->finalize (object);
}

static void
adbscope_thread_list_class_init (AdbscopeThreadListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = adbscope_thread_list_finalize;
}

static void
adbscope_thread_list_init (AdbscopeThreadList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Updates in place, drops the threads that ended, appends new ones, and
 * says so with one items-changed covering the first change to the end.
 */
static void
thread_list_apply (AdbscopeThreadList *self,
                   const GArray       *usage,
                   GPtrArray          *procs)
{
  g_autoptr(GHashTable) by_tid = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) kept = g_hash_table_new (NULL, NULL);
  guint old_len = self->items->len;
  guint first_change = G_MAXUINT;
  guint w = 0;

  for (guint i = 0; i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);
      g_hash_table_insert (by_tid, GINT_TO_POINTER (u->tid), (gpointer) u);
    }

  for (guint r = 0; r < self->items->len; r++)
    {
      AdbscopeThread *t = g_ptr_array_index (self->items, r);
      const AdbscopeThreadUsage *u = g_hash_table_lookup (by_tid, GINT_TO_POINTER (adbscope_thread_get_tid (t)));

      if (u == NULL)
        {
          if (first_change == G_MAXUINT)
            first_change = w;
          g_object_unref (t);
          continue;
        }
      adbscope_thread_set_name (t, u->comm);
      adbscope_thread_set_process (t, adbscope_app_processes_name_for_pid (procs, u->pid));
      adbscope_thread_set_cpu_pct (t, u->pct);
      g_hash_table_add (kept, GINT_TO_POINTER (u->tid));
      self->items->pdata[w++] = t;
    }
  self->items->len = w;   /* the removed ones were unreffed above */

  for (guint i = 0; i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);
      AdbscopeThread *t;

      if (g_hash_table_contains (kept, GINT_TO_POINTER (u->tid)))
        continue;
      if (first_change == G_MAXUINT)
        first_change = self->items->len;
      t = adbscope_thread_new (u->tid, u->comm);
      adbscope_thread_set_process (t, adbscope_app_processes_name_for_pid (procs, u->pid));
      adbscope_thread_set_cpu_pct (t, u->pct);
      g_ptr_array_add (self->items, t);
    }

  if (first_change != G_MAXUINT)
    g_list_model_items_changed (G_LIST_MODEL (self), first_change,
                                old_len - first_change, self->items->len - first_change);
}

static void
thread_list_clear (AdbscopeThreadList *self)
{
  guint n = self->items->len;

  if (n == 0)
    return;
  g_ptr_array_set_size (self->items, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

struct _AdbscopeSession
{
  GObject                  parent_instance;

  char                    *serial;
  char                    *package;
  guint                    interval_ms;
  guint                    meminfo_interval_ms;
  guint                    history_s;

  AdbscopeProbeResult     *probe;
  AdbscopeShell           *probe_shell;
  AdbscopeFastCollector   *fast;
  AdbscopeFramesCollector *frames;
  AdbscopeMeminfoCollector *meminfo;
  AdbscopeSlowCollector   *slow;
  GPtrArray               *collectors;   /* AdbscopeCollector*, all of them */
  GCancellable            *cancellable;
  gboolean                 running;

  AdbscopeSeries          *series[ADBSCOPE_N_SERIES];
  GPtrArray               *core_series;
  AdbscopeThreadList      *threads;
  GArray                  *markers;      /* AdbscopeMarker */
  GArray                  *gaps;         /* AdbscopeGap */
  GArray                  *frame_times;  /* float ms */
  GArray                  *dts;          /* double s, measured intervals */
  GArray                  *pids;         /* gint64 */

  GDateTime               *start_time;
  gint64                   start_us;
  gint64                   last_sample_us;
  guint64                  n_samples;
  guint                    watchdog_id;
  gboolean                 in_gap;

  GArray                  *processes;    /* AdbscopeAppProcess, latest */
  char                    *doze_deep;
  char                    *doze_light;
  char                    *standby_bucket;
  gboolean                 charging;
  gint64                   jobs[3];       /* scheduled, running, -1 unknown */
  gint64                   alarms[2];     /* pending, wakeups */

  gint64                   frames_total;
  gint64                   janky_total;
  gint64                   over_deadline_total;
  gint64                   causes[ADBSCOPE_JANK_N_CAUSES];
  gboolean                 has_cause[ADBSCOPE_JANK_N_CAUSES];
  AdbscopeFramesSummary    fsum;
  GPtrArray               *app_procs;    /* AdbscopeProcessSeries */
};

G_DEFINE_FINAL_TYPE (AdbscopeSession, adbscope_session, G_TYPE_OBJECT)

enum {
  SIGNAL_SAMPLE,
  SIGNAL_RESTARTED,
  SIGNAL_GAP,
  SIGNAL_MARKER,
  SIGNAL_SYSTEM_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static guint
capacity (AdbscopeSession *self)
{
  guint n = (guint) MIN ((guint64) self->history_s * 1000 / MAX (self->interval_ms, 10) + 1,
                         ADBSCOPE_SERIES_MAX_CAPACITY);
  return MAX (n, 2);
}

/* Collectors stamp a sample with the middle of its round trip, so a slow
 * answer can land "before" a gap marker pushed while it was under way:
 * never let a series go back in time. */
static void
push_to (AdbscopeSeries *series,
         gint64          time_us,
         double          value)
{
  gint64 last;

  if (adbscope_series_get_last (series, &last, NULL) && time_us < last)
    time_us = last;
  adbscope_series_push (series, time_us, value);
}

static void
push (AdbscopeSession  *self,
      AdbscopeSeriesId  id,
      gint64            time_us,
      double            value)
{
  push_to (self->series[id], time_us, value);
}

static void
push_gap (AdbscopeSession *self,
          gint64           time_us)
{
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    push_to (self->series[i], time_us, NAN);
  for (guint i = 0; i < self->core_series->len; i++)
    push_to (g_ptr_array_index (self->core_series, i), time_us, NAN);
}

static gboolean
watchdog_cb (gpointer data)
{
  AdbscopeSession *self = data;
  gint64 now = g_get_monotonic_time ();
  gint64 limit = (gint64) GAP_INTERVALS * self->interval_ms * 1000;
  gint64 since = self->last_sample_us ? self->last_sample_us : self->start_us;

  if (!self->in_gap && now - since >= limit)
    {
      AdbscopeGap gap = { since, 0 };

      self->in_gap = TRUE;
      g_array_append_val (self->gaps, gap);
      push_gap (self, now);
      g_signal_emit (self, signals[SIGNAL_GAP], 0, TRUE);
    }
  return G_SOURCE_CONTINUE;
}

static void
note_pid (AdbscopeSession *self,
          gint64           pid)
{
  for (guint i = 0; i < self->pids->len; i++)
    if (g_array_index (self->pids, gint64, i) == pid)
      return;
  g_array_append_val (self->pids, pid);
}

static void
on_fast_sample (AdbscopeFastCollector    *fast,
                const AdbscopeFastSample *s,
                AdbscopeSession          *self)
{
  gint64 t = s->time_us;

  if (self->in_gap)
    {
      AdbscopeGap *gap = &g_array_index (self->gaps, AdbscopeGap, self->gaps->len - 1);

      /* The gap lasted until data arrived again (the sample's own stamp is
       * the middle of a round trip that was stuck in the gap). */
      gap->end_us = g_get_monotonic_time ();
      self->in_gap = FALSE;
      g_signal_emit (self, signals[SIGNAL_GAP], 0, FALSE);
    }
  self->last_sample_us = t;
  self->n_samples++;
  if (isfinite (s->dt_s) && s->dt_s > 0)
    g_array_append_val (self->dts, s->dt_s);

  push (self, ADBSCOPE_SERIES_CPU_SYSTEM, t, s->system_pct);
  push (self, ADBSCOPE_SERIES_CPU_SYSTEM_NORM, t, s->system_norm_pct);
  push (self, ADBSCOPE_SERIES_CPU_APP, t, s->app_pct);
  push (self, ADBSCOPE_SERIES_CPU_APP_NORM, t, s->app_norm_pct);
  push (self, ADBSCOPE_SERIES_APP_THREADS, t, s->app_threads);
  push (self, ADBSCOPE_SERIES_MEM_APP_RSS, t, s->app_rss_kb);
  push (self, ADBSCOPE_SERIES_MEM_APP_SWAP, t, s->app_swap_kb);
  push (self, ADBSCOPE_SERIES_MEM_SYS_AVAILABLE, t, s->mem_available_kb);
  push (self, ADBSCOPE_SERIES_MEM_SYS_SWAP_USED, t, s->swap_used_kb);
  push (self, ADBSCOPE_SERIES_PSI_SOME, t, s->psi_some_avg10);
  push (self, ADBSCOPE_SERIES_PSI_FULL, t, s->psi_full_avg10);
  push (self, ADBSCOPE_SERIES_GPU_BUSY, t, s->gpu_busy_pct);
  push (self, ADBSCOPE_SERIES_GPU_FREQ, t, s->gpu_freq_mhz);
  push (self, ADBSCOPE_SERIES_NET_RX, t, s->net_rx_bytes_per_s);
  push (self, ADBSCOPE_SERIES_NET_TX, t, s->net_tx_bytes_per_s);

  while (self->core_series->len < s->n_cores)
    g_ptr_array_add (self->core_series, adbscope_series_new (capacity (self)));
  for (guint i = 0; i < self->core_series->len; i++)
    push_to (g_ptr_array_index (self->core_series, i), t, i < s->n_cores ? s->core_pct[i] : NAN);

  if (s->app_running)
    note_pid (self, s->pid);
  if (adbscope_app_processes_take_fast (self->app_procs, s, capacity (self)) && self->meminfo != NULL)
    {
      g_auto(GStrv) others = adbscope_app_processes_dup_other_names (self->app_procs);

      adbscope_meminfo_collector_set_other_processes (self->meminfo, (const char * const *) others);
    }
  if (s->threads != NULL)
    thread_list_apply (self->threads, s->threads, self->app_procs);
  else if (!s->app_running)
    thread_list_clear (self->threads);

  if (s->restarted)
    g_signal_emit (self, signals[SIGNAL_RESTARTED], 0, s->pid);
  g_signal_emit (self, signals[SIGNAL_SAMPLE], 0, s);
}

static void
take_surfaceflinger (AdbscopeSession            *self,
                     const AdbscopeFramesSample *s)
{
  AdbscopeFramesSummary *f = &self->fsum;

  if (isfinite (s->fps))
    {
      f->samples[s->source]++;
      f->source = s->source;
    }
  f->zero_reason = s->zero_reason;
  g_free (f->zero_detail);
  f->zero_detail = g_strdup (s->zero_detail);
  for (guint i = 0; s->sf_layers != NULL && i < s->sf_layers->len; i++)
    {
      const char *name = g_ptr_array_index (s->sf_layers, i);
      gboolean known = FALSE;

      for (guint j = 0; j < f->layers->len && !known; j++)
        known = g_str_equal (g_ptr_array_index (f->layers, j), name);
      if (!known)
        g_ptr_array_add (f->layers, g_strdup (name));
    }
  if (s->sf_refresh_period_ns > 0)
    f->refresh_period_ns = s->sf_refresh_period_ns;
  if (s->sf_layer == NULL || !isfinite (s->sf_fps))
    return;
  if (s->sf.new_frames > 0)
    {
      g_free (f->layer);
      f->layer = g_strdup (s->sf_layer);
    }
  f->frames += s->sf.new_frames + s->sf.lost_estimate;
  f->janky += s->sf.janky;
  f->jank += s->sf.jank;
  f->big_jank += s->sf.big_jank;
  f->lost_intervals += s->sf.lost ? 1 : 0;
  f->lost_estimate += s->sf.lost_estimate;
  for (guint i = 0; s->sf.frame_times_ms != NULL && i < s->sf.frame_times_ms->len &&
                    f->frame_times->len < MAX_FRAME_TIMES; i++)
    g_array_append_val (f->frame_times, g_array_index (s->sf.frame_times_ms, float, i));
}

static void
on_frames_sample (AdbscopeFramesCollector    *frames,
                  const AdbscopeFramesSample *s,
                  AdbscopeSession            *self)
{
  push (self, ADBSCOPE_SERIES_FPS, s->time_us, s->fps);
  push (self, ADBSCOPE_SERIES_FPS_GFXINFO, s->time_us, s->hwui_fps);
  push (self, ADBSCOPE_SERIES_FPS_SURFACEFLINGER, s->time_us, s->sf_fps);
  if (s->source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER)
    push (self, ADBSCOPE_SERIES_JANKY_INTERVAL, s->time_us,
          s->sf.new_frames > 0 ? 100.0 * s->sf.janky / s->sf.new_frames : NAN);
  else
    push (self, ADBSCOPE_SERIES_JANKY_INTERVAL, s->time_us,
          s->new_frames > 0 ? 100.0 * s->new_janky / s->new_frames : NAN);

  take_surfaceflinger (self, s);
  if (!isfinite (s->hwui_fps))
    return;
  self->frames_total += s->new_frames;
  self->janky_total += s->new_janky;
  self->over_deadline_total += s->frames_over_deadline;
  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    if (s->has_cause[c])
      {
        self->has_cause[c] = TRUE;
        self->causes[c] += s->new_causes[c];
      }
  for (guint i = 0; s->frames != NULL && i < s->frames->len && self->frame_times->len < MAX_FRAME_TIMES; i++)
    {
      const AdbscopeGfxinfoFrame *f = &g_array_index (s->frames, AdbscopeGfxinfoFrame, i);
      float ms = f->duration_ns / 1e6f;

      g_array_append_val (self->frame_times, ms);
    }
}

static void
on_meminfo_sample (AdbscopeMeminfoCollector    *collector,
                   const AdbscopeMeminfoSample *s,
                   AdbscopeSession             *self)
{
  gint64 t = s->time_us;

  /* The app's PSS: the main process's plus its PKG:name processes'. */
  push (self, ADBSCOPE_SERIES_MEM_APP_PSS, t,
        s->total_pss_kb + adbscope_app_processes_take_pss (self->app_procs, s));
  push (self, ADBSCOPE_SERIES_MEM_JAVA_HEAP, t, s->java_heap_kb);
  push (self, ADBSCOPE_SERIES_MEM_NATIVE_HEAP, t, s->native_heap_kb);
  push (self, ADBSCOPE_SERIES_MEM_CODE, t, s->code_kb);
  push (self, ADBSCOPE_SERIES_MEM_STACK, t, s->stack_kb);
  push (self, ADBSCOPE_SERIES_MEM_GRAPHICS, t, s->graphics_kb);
  push (self, ADBSCOPE_SERIES_MEM_PRIVATE_OTHER, t, s->private_other_kb);
  push (self, ADBSCOPE_SERIES_MEM_SYSTEM, t, s->system_kb);
  push (self, ADBSCOPE_SERIES_MEM_APP_PSS_SWAP, t, s->swap_pss_kb);
}

static void
replace_str (char       **field,
             const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
on_slow_sample (AdbscopeSlowCollector    *collector,
                const AdbscopeSlowSample *s,
                AdbscopeSession          *self)
{
  gint64 t = s->time_us;
  gboolean system_changed = FALSE;

  if (s->has_battery)
    {
      push (self, ADBSCOPE_SERIES_BATTERY_LEVEL, t, s->battery_level_pct);
      push (self, ADBSCOPE_SERIES_BATTERY_TEMP, t, s->battery_temp_c);
      push (self, ADBSCOPE_SERIES_BATTERY_VOLTAGE, t, s->voltage_mv);
      push (self, ADBSCOPE_SERIES_BATTERY_CURRENT, t, s->current_ma);
      push (self, ADBSCOPE_SERIES_POWER, t, s->power_mw);
      self->charging = s->charging;
    }
  if (s->has_thermal)
    {
      push (self, ADBSCOPE_SERIES_THERMAL_STATUS, t, s->thermal_status);
      push (self, ADBSCOPE_SERIES_THERMAL_MAX_TEMP, t, s->max_temp_c);
    }
  if (s->has_doze)
    {
      if (s->doze_deep != NULL || s->doze_light != NULL)
        {
          replace_str (&self->doze_deep, s->doze_deep);
          replace_str (&self->doze_light, s->doze_light);
        }
      replace_str (&self->standby_bucket, s->standby_bucket);
      system_changed = TRUE;
    }
  if (s->has_jobs)
    {
      self->jobs[0] = s->n_jobs;
      self->jobs[1] = s->n_jobs_running;
      system_changed = TRUE;
    }
  if (s->has_alarms)
    {
      self->alarms[0] = s->n_alarms_pending;
      self->alarms[1] = s->alarm_wakeups;
      system_changed = TRUE;
    }
  if (s->has_processes)
    {
      g_clear_pointer (&self->processes, g_array_unref);
      self->processes = g_array_ref (s->processes);
      system_changed = TRUE;
    }
  if (system_changed)
    g_signal_emit (self, signals[SIGNAL_SYSTEM_CHANGED], 0);
}

static void
add_collector (AdbscopeSession   *self,
               AdbscopeCollector *collector)
{
  g_ptr_array_add (self->collectors, collector);
}

static void
start_collectors (AdbscopeSession *self)
{
  const AdbscopeProbeResult *p = self->probe;

  /* The probe's shell is already open: the fast loop takes it over. */
  self->fast = g_object_new (ADBSCOPE_TYPE_FAST_COLLECTOR, "name", "fast",
                             "serial", self->serial, "package", self->package,
                             "shell", self->probe_shell, "interval", self->interval_ms, NULL);
  adbscope_fast_collector_set_read_psi (self->fast, p->supported[ADBSCOPE_SOURCE_PSI]);
  adbscope_fast_collector_set_gpu (self->fast, p->gpu_busy_path, p->gpu_freq_path);
  if (p->supported[ADBSCOPE_SOURCE_CPUFREQ])
    adbscope_fast_collector_set_max_freqs (self->fast, p->max_freq_khz, p->n_cores);
  g_signal_connect (self->fast, "sample", G_CALLBACK (on_fast_sample), self);
  add_collector (self, ADBSCOPE_COLLECTOR (g_object_ref (self->fast)));

  if (p->supported[ADBSCOPE_SOURCE_FRAMES])
    {
      self->frames = adbscope_frames_collector_new (self->serial, self->package);
      adbscope_collector_set_interval (ADBSCOPE_COLLECTOR (self->frames), self->interval_ms);
      adbscope_frames_collector_set_refresh_rate (self->frames, p->refresh_hz);
      g_signal_connect (self->frames, "sample", G_CALLBACK (on_frames_sample), self);
      add_collector (self, ADBSCOPE_COLLECTOR (g_object_ref (self->frames)));
    }

  if (p->supported[ADBSCOPE_SOURCE_MEMINFO])
    {
      self->meminfo = adbscope_meminfo_collector_new (self->serial, self->package);
      adbscope_collector_set_interval (ADBSCOPE_COLLECTOR (self->meminfo), self->meminfo_interval_ms);
      g_signal_connect (self->meminfo, "sample", G_CALLBACK (on_meminfo_sample), self);
      add_collector (self, ADBSCOPE_COLLECTOR (g_object_ref (self->meminfo)));
    }

  self->slow = adbscope_slow_collector_new (self->serial, self->package,
                                            p->supported[ADBSCOPE_SOURCE_THERMAL],
                                            p->supported[ADBSCOPE_SOURCE_DOZE],
                                            p->supported[ADBSCOPE_SOURCE_JOBS],
                                            p->supported[ADBSCOPE_SOURCE_ALARMS]);
  g_signal_connect (self->slow, "sample", G_CALLBACK (on_slow_sample), self);
  add_collector (self, ADBSCOPE_COLLECTOR (g_object_ref (self->slow)));

  for (guint i = 0; i < self->collectors->len; i++)
    adbscope_collector_start (g_ptr_array_index (self->collectors, i));
  self->watchdog_id = g_timeout_add (self->interval_ms, watchdog_cb, self);
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AdbscopeSession *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  output = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), result, NULL, &error);
  if (output == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  self->probe = adbscope_probe_parse (output, &error);
  if (self->probe == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (self->probe->package_checked && !self->probe->package_installed)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,
                               _("The package “%s” is not installed on %s"), self->package, self->serial);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  self->running = TRUE;
  self->start_time = g_date_time_new_now_utc ();
  self->start_us = g_get_monotonic_time ();
  start_collectors (self);
  g_task_return_boolean (task, TRUE);
}

/* Probes the device (once), then starts every collector the device
 * supports.  Fails with package_not_found, or adb's own error.
 */
void
adbscope_session_start_async (AdbscopeSession     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autofree char *command = NULL;
  GTask *task;

  g_return_if_fail (ADBSCOPE_IS_SESSION (self));
  g_return_if_fail (!self->running);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_session_start_async);

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    {
      g_clear_pointer (&self->series[i], adbscope_series_unref);
      self->series[i] = adbscope_series_new (capacity (self));
    }

  self->probe_shell = adbscope_shell_new (self->serial);
  command = adbscope_probe_build_command (self->package);
  adbscope_shell_run_async (self->probe_shell, command, cancellable, probe_cb, task);
}

gboolean
adbscope_session_start_finish (AdbscopeSession  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
adbscope_session_stop (AdbscopeSession *self)
{
  g_return_if_fail (ADBSCOPE_IS_SESSION (self));

  for (guint i = 0; i < self->collectors->len; i++)
    adbscope_collector_stop (g_ptr_array_index (self->collectors, i));
  g_clear_handle_id (&self->watchdog_id, g_source_remove);
  if (self->in_gap)
    {
      g_array_index (self->gaps, AdbscopeGap, self->gaps->len - 1).end_us = g_get_monotonic_time ();
      self->in_gap = FALSE;
    }
  self->running = FALSE;
}

gboolean
adbscope_session_is_running (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), FALSE);
  return self->running;
}

const AdbscopeMarker *
adbscope_session_add_marker (AdbscopeSession *self,
                             const char      *label)
{
  AdbscopeMarker m;

  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);

  m.time_us = g_get_monotonic_time ();
  m.label = g_strdup (label != NULL ? label : "");
  g_array_append_val (self->markers, m);
  g_signal_emit (self, signals[SIGNAL_MARKER], 0, self->markers->len - 1);
  return &g_array_index (self->markers, AdbscopeMarker, self->markers->len - 1);
}

const GArray *
adbscope_session_get_markers (AdbscopeSession *self)
{
  return self->markers;
}

const GArray *
adbscope_session_get_gaps (AdbscopeSession *self)
{
  return self->gaps;
}

const GArray *
adbscope_session_get_frame_times (AdbscopeSession *self)
{
  return self->frame_times;
}

const GArray *
adbscope_session_get_pids (AdbscopeSession *self)
{
  return self->pids;
}

const AdbscopeProbeResult *
adbscope_session_get_probe (AdbscopeSession *self)
{
  return self->probe;
}

AdbscopeSeries *
adbscope_session_get_series (AdbscopeSession  *self,
                             AdbscopeSeriesId  id)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);
  return self->series[id];
}

guint
adbscope_session_get_n_cores (AdbscopeSession *self)
{
  return self->core_series->len;
}

AdbscopeSeries *
adbscope_session_get_core_series (AdbscopeSession *self,
                                  guint            core)
{
  g_return_val_if_fail (core < self->core_series->len, NULL);
  return g_ptr_array_index (self->core_series, core);
}

GListModel *
adbscope_session_get_threads (AdbscopeSession *self)
{
  return G_LIST_MODEL (self->threads);
}

GDateTime *
adbscope_session_get_start_time (AdbscopeSession *self)
{
  return self->start_time;
}

gint64
adbscope_session_get_start_us (AdbscopeSession *self)
{
  return self->start_us;
}

gint64
adbscope_session_get_last_sample_us (AdbscopeSession *self)
{
  return self->last_sample_us;
}

guint64
adbscope_session_get_n_samples (AdbscopeSession *self)
{
  return self->n_samples;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of the device-clock intervals between fast samples: the
 * interval the run really had, robust to the odd stall (gaps are reported
 * on their own). */
double
adbscope_session_get_measured_interval_ms (AdbscopeSession *self)
{
  g_autoptr(GArray) sorted = NULL;

  if (self->dts->len == 0)
    return NAN;
  sorted = g_array_copy (self->dts);
  g_array_sort (sorted, compare_double);
  return g_array_index (sorted, double, sorted->len / 2) * 1000.0;
}

guint
adbscope_session_get_restarts (AdbscopeSession *self)
{
  return self->fast ? adbscope_fast_collector_get_restarts (self->fast) : 0;
}

void
adbscope_session_get_frame_totals (AdbscopeSession *self,
                                   gint64          *frames,
                                   gint64          *janky,
                                   gint64          *over_deadline,
                                   gint64           causes[ADBSCOPE_JANK_N_CAUSES],
                                   gboolean         has_cause[ADBSCOPE_JANK_N_CAUSES])
{
  *frames = self->frames_total;
  *janky = self->janky_total;
  *over_deadline = self->over_deadline_total;
  memcpy (causes, self->causes, sizeof self->causes);
  memcpy (has_cause, self->has_cause, sizeof self->has_cause);
}

/* AdbscopeProcessSeries: every process of the app seen, main first seen first. */
GPtrArray *
adbscope_session_get_app_processes (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return self->app_procs;
}

const AdbscopeFramesSummary *
adbscope_session_get_frames_summary (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return &self->fsum;
}

/* AdbscopeAppProcess of the package (and its ":name" processes), or NULL
 * before the first ps. */
const GArray *
adbscope_session_get_processes (AdbscopeSession *self)
{
  return self->processes;
}

void
adbscope_session_get_doze (AdbscopeSession  *self,
                           const char      **deep,
                           const char      **light,
                           const char      **bucket)
{
  *deep = self->doze_deep;
  *light = self->doze_light;
  *bucket = self->standby_bucket;
}

/* -1 where not (yet) known. */
void
adbscope_session_get_jobs_alarms (AdbscopeSession *self,
                                  gint64          *jobs,
                                  gint64          *jobs_running,
                                  gint64          *alarms_pending,
                                  gint64          *alarm_wakeups)
{
  *jobs = self->jobs[0];
  *jobs_running = self->jobs[1];
  *alarms_pending = self->alarms[0];
  *alarm_wakeups = self->alarms[1];
}

double
adbscope_session_get_refresh_rate (AdbscopeSession *self)
{
  return self->probe ? self->probe->refresh_hz : NAN;
}

const char *
adbscope_session_get_serial (AdbscopeSession *self)
{
  return self->serial;
}

const char *
adbscope_session_get_package (AdbscopeSession *self)
{
  return self->package;
}

void
adbscope_session_set_interval (AdbscopeSession *self,
                               guint            interval_ms)
{
  g_return_if_fail (ADBSCOPE_IS_SESSION (self));
  g_return_if_fail (!self->running);
  g_return_if_fail (interval_ms >= 100);
  self->interval_ms = interval_ms;
}

guint
adbscope_session_get_interval (AdbscopeSession *self)
{
  return self->interval_ms;
}

void
adbscope_session_set_meminfo_interval (AdbscopeSession *self,
                                       guint            interval_ms)
{
  g_return_if_fail (!self->running);
  self->meminfo_interval_ms = interval_ms;
}

void
adbscope_session_set_history (AdbscopeSession *self,
                              guint            seconds)
{
  g_return_if_fail (!self->running);
  self->history_s = MAX (seconds, 10);
}

static void
marker_clear (AdbscopeMarker *m)
{
  g_free (m->label);
}

static void
adbscope_session_dispose (GObject *object)
{
  AdbscopeSession *self = ADBSCOPE_SESSION (object);

  adbscope_session_stop (self);
  g_clear_pointer (&self->collectors, g_ptr_array_unref);
  g_clear_object (&self->fast);
  g_clear_object (&self->frames);
  g_clear_object (&self->meminfo);
  g_clear_object (&self->slow);
  if (self->probe_shell)
    adbscope_shell_close (self->probe_shell);
  g_clear_object (&self->probe_shell);
  G_OBJECT_CLASS (adbscope_session_parent_class)->dispose (object);
}

static void
adbscope_session_finalize (GObject *object)
{
  AdbscopeSession *self = ADBSCOPE_SESSION (object);

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_clear_pointer (&self->series[i], adbscope_series_unref);
  g_ptr_array_unref (self->core_series);
  g_object_unref (self->threads);
  g_array_unref (self->markers);
  g_array_unref (self->gaps);
  g_array_unref (self->frame_times);
  g_array_unref (self->fsum.frame_times);
  g_ptr_array_unref (self->app_procs);
  g_ptr_array_unref (self->fsum.layers);
  g_free (self->fsum.layer);
  g_free (self->fsum.zero_detail);
  g_array_unref (self->dts);
  g_array_unref (self->pids);
  g_clear_pointer (&self->probe, adbscope_probe_result_free);
  g_clear_pointer (&self->processes, g_array_unref);
  g_free (self->doze_deep);
  g_free (self->doze_light);
  g_free (self->standby_bucket);
  g_clear_pointer (&self->start_time, g_date_time_unref);
  g_clear_object (&self->cancellable);
  g_free (self->serial);
  g_free (self->package);
  G_OBJECT_CLASS (adbscope_session_parent_class)->finalize (object);
}

static void
adbscope_session_class_init (AdbscopeSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_session_dispose;
  object_class->finalize = adbscope_session_finalize;

  /* (const AdbscopeFastSample *) after it was applied */
  signals[SIGNAL_SAMPLE] =
    g_signal_new ("sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* new pid of the app */
  signals[SIGNAL_RESTARTED] =
    g_signal_new ("restarted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* TRUE when a gap starts, FALSE when samples come back */
  signals[SIGNAL_GAP] =
    g_signal_new ("gap", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /* processes, Doze state or standby bucket changed */
  signals[SIGNAL_SYSTEM_CHANGED] =
    g_signal_new ("system-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_MARKER] =
    g_signal_new ("marker-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
adbscope_session_init (AdbscopeSession *self)
{
  self->interval_ms = DEFAULT_INTERVAL_MS;
  self->meminfo_interval_ms = DEFAULT_MEMINFO_INTERVAL_MS;
  self->history_s = DEFAULT_HISTORY_S;
  self->collectors = g_ptr_array_new_with_free_func (g_object_unref);
  self->core_series = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_series_unref);
  self->threads = g_object_new (ADBSCOPE_TYPE_THREAD_LIST, NULL);
  self->markers = g_array_new (FALSE, FALSE, sizeof (AdbscopeMarker));
  g_array_set_clear_func (self->markers, (GDestroyNotify) marker_clear);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (AdbscopeGap));
  self->frame_times = g_array_new (FALSE, FALSE, sizeof (float));
  self->fsum.frame_times = g_array_new (FALSE, FALSE, sizeof (float));
  self->app_procs = adbscope_app_processes_new ();
  self->fsum.layers = g_ptr_array_new_with_free_func (g_free);
  self->dts = g_array_new (FALSE, FALSE, sizeof (double));
  self->pids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->cancellable = g_cancellable_new ();
  self->jobs[0] = self->jobs[1] = self->alarms[0] = self->alarms[1] = -1;
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    self->series[i] = adbscope_series_new (capacity (self));
}

AdbscopeSession *
adbscope_session_new (const char *serial,
                      const char *package)
{
  AdbscopeSession *self = g_object_new (ADBSCOPE_TYPE_SESSION, NULL);

  self->serial = g_strdup (serial);
  self->package = g_strdup (package);
  return self;
}
