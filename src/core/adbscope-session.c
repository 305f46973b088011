/* adbscope-session.c: everything known about one app on one device, over time
 *
 * The session owns the collectors and the history.  Collectors send
 * samples; the session folds them into ring-buffer series, the live thread
 * list, frame statistics, markers and gaps, and keeps the latest values
 * that are not series (core frequencies, interface rates, the system
 * state, frame totals).  After any collector's sample it says "updated",
 * once per main-loop iteration however many samples arrived: readers (the
 * GUI's AdbscopeDataView) never see a collector's own struct and never
 * wait for one particular collector.  Nothing here knows about GTK.
 *
 * Gaps: a gap is the span between two fast samples that are
 * ADBSCOPE_GAP_INTERVALS (3) configured intervals or more apart, from the
 * first one's time to the second one's, on the samples' own clock (the
 * host's monotonic clock, the middle of each round trip): gaps never
 * overlap and never contain a sample (adbscope_gap_between ()).  While
 * none comes for that long the watchdog opens one (the window says "no
 * data", the recording holds it open, so a killed run still shows it);
 * the next sample closes it at its own time, or withdraws it when it was
 * taken close enough to the one before (its answer was under way).
 * Nothing is pushed into the series: no sample is no point, and the
 * charts break a line across the missing stretch.
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
#include "adbscope-recording.h"
#include "adbscope-report.h"
#include "adbscope-run.h"
#include "adbscope-session.h"
#include "adbscope-session-private.h"
#include "adbscope-slow-collector.h"
#include "adbscope-screenshot-collector.h"
#include "adbscope-connection.h"
#include "adbscope-dns-lookup.h"
#include "adbscope-shell.h"
#include "adbscope-stats.h"
#include "adbscope-thread.h"
#include "adbscope-thread-list.h"

#define DEFAULT_INTERVAL_MS          1000
#define DEFAULT_MEMINFO_INTERVAL_MS  2000
#define DEFAULT_HISTORY_S            (15 * 60)
#define MAX_FRAME_TIMES              (1 << 20)
/* Screenshots whose PNG stays in memory while a recording holds them all. */
#define SCREENSHOTS_IN_MEMORY        60

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
  GPtrArray               *collectors;   /* AdbscopeCollector*, all of them */
  AdbscopeMeminfoCollector *meminfo;     /* in collectors, told the app's other processes */
  gboolean                 running;

  AdbscopeSeries          *series[ADBSCOPE_N_SERIES];
  GPtrArray               *core_series;
  GPtrArray               *core_paths;   /* "cpu.core<N>_pct" */
  AdbscopeRecording       *recording;
  AdbscopeThreadList      *threads;
  AdbscopeNetwork         *network;
  GArray                  *markers;      /* AdbscopeMarker */
  GArray                  *gaps;         /* AdbscopeGap */
  GArray                  *losses;       /* AdbscopeDeviceLoss */
  GArray                  *spans;        /* AdbscopeProcessSpan */
  GArray                  *frame_times;  /* double ms, ascending */
  GArray                  *dts;          /* double s, measured intervals, ascending */
  double                   measured_interval_ms;
  GArray                  *pids;         /* gint64 */

  GDateTime               *start_time;
  gint64                   start_us;
  gint64                   last_sample_us;
  guint64                  n_samples;
  guint                    watchdog_id;
  guint                    updated_id;
  gboolean                 in_gap;

  /* The latest values that are not series */
  GArray                  *core_freqs;   /* double kHz, NaN unreadable */
  GArray                  *net_rates;    /* AdbscopeNetRate */
  AdbscopeSystemState      system;
  AdbscopeFrameTotals      frame_totals;
  AdbscopeFramesSummary    fsum;
  GPtrArray               *app_procs;    /* AdbscopeProcessSeries */
  guint                    recorded_restarts;  /* a session made from a recording */

  /* Screenshots (off by default) */
  gboolean                 shots_enabled;
  guint                    shots_interval_ms;  /* 0: at markers only */
  AdbscopeScreenshotCollector *shots;
  GPtrArray               *screenshots;        /* AdbscopeScreenshot*, oldest first */
  guint                    shots_skipped;      /* a session made from a recording */
  guint                    implausible[ADBSCOPE_IMPLAUSIBLE_N]; /* values no device can have */
  /* The capture's rows in the recording */
  GHashTable              *conns_recorded;     /* AdbscopeConnection* written */
  guint                    dns_recorded;       /* lookups written (the model only appends) */
};

G_DEFINE_FINAL_TYPE (AdbscopeSession, adbscope_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_MEASURED_INTERVAL,
  PROP_N_SAMPLES,
  PROP_RESTARTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_UPDATED,
  SIGNAL_SAMPLE,
  SIGNAL_RESTARTED,
  SIGNAL_GAP,
  SIGNAL_MARKER,
  SIGNAL_SCREENSHOT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
updated_cb (gpointer data)
{
  AdbscopeSession *self = data;

  self->updated_id = 0;
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
  return G_SOURCE_REMOVE;
}

/* One "updated" for everything folded in during this main-loop
 * iteration.  HIGH_IDLE: after the I/O that brought the samples, before
 * GTK's layout and drawing (HIGH_IDLE + 10, + 20), so a chart redraws in
 * the same frame the sample arrived. */
static void
queue_updated (AdbscopeSession *self)
{
  if (self->updated_id == 0)
    self->updated_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, updated_cb, self, NULL);
}

static guint
capacity (AdbscopeSession *self)
{
  guint n = (guint) MIN ((guint64) self->history_s * 1000 / MAX (self->interval_ms, 10) + 1,
                         ADBSCOPE_SERIES_MAX_CAPACITY);
  return MAX (n, 2);
}

static AdbscopeRecording *
recording (AdbscopeSession *self)
{
  return self->recording && adbscope_recording_has_begun (self->recording) ? self->recording : NULL;
}

static void note_implausible (AdbscopeSession *self,
                              guint            kinds);

/* Collectors stamp a sample with the middle of its round trip, so a slow
 * answer can land "before" a gap marker pushed while it was under way:
 * never let a series go back in time.  The recording gets what the series
 * got. */
static void
push_to (AdbscopeSession *self,
         AdbscopeSeries  *series,
         const char      *path,
         const char      *unit,
         gint64           time_us,
         double           value)
{
  gint64 last;

  if (adbscope_series_get_last (series, &last, NULL) && time_us < last)
    time_us = last;
  adbscope_series_push (series, time_us, value);
  if (recording (self))
    adbscope_recording_add_sample (self->recording, path, unit, time_us, value);
}

static void
push (AdbscopeSession  *self,
      AdbscopeSeriesId  id,
      gint64            time_us,
      double            value)
{
  push_to (self, self->series[id], series_info[id].path, series_info[id].unit, time_us, value);
}

static void
push_core (AdbscopeSession *self,
           guint            core,
           gint64           time_us,
           double           value)
{
  push_to (self, g_ptr_array_index (self->core_series, core),
           g_ptr_array_index (self->core_paths, core), "%", time_us, value);
}

/**
 * adbscope_gap_between:
 * @before_us: a fast sample's time
 * @after_us: the next one's, on the same clock
 * @interval_ms: the configured sample interval
 *
 * Returns: whether the span between them is a gap: %ADBSCOPE_GAP_INTERVALS
 *   intervals or more
 */
gboolean
adbscope_gap_between (gint64 before_us,
                      gint64 after_us,
                      guint  interval_ms)
{
  return after_us - before_us >= (gint64) ADBSCOPE_GAP_INTERVALS * interval_ms * 1000;
}

/**
 * adbscope_gaps_find:
 * @times_us: (array length=n): sample times, ascending
 *
 * The gaps of a sequence of sample times, by adbscope_gap_between ().
 *
 * Returns: (transfer full) (element-type AdbscopeGap): the gaps, in order
 */
GArray *
adbscope_gaps_find (const gint64 *times_us,
                    guint         n,
                    guint         interval_ms)
{
  GArray *gaps = g_array_new (FALSE, FALSE, sizeof (AdbscopeGap));

  for (guint i = 1; i < n; i++)
    if (adbscope_gap_between (times_us[i - 1], times_us[i], interval_ms))
      {
        AdbscopeGap g = { times_us[i - 1], times_us[i] };

        g_array_append_val (gaps, g);
      }
  return gaps;
}

/* No fast sample for a gap's length: open one from the last sample (the
 * window says so at once, the recording holds it open). */
static void
gap_check (AdbscopeSession *self,
           gint64           now)
{
  gint64 since = self->last_sample_us;

  /* Before the first sample there is nothing to be missing. */
  if (since != 0 && !self->in_gap && adbscope_gap_between (since, now, self->interval_ms))
    {
      AdbscopeGap gap = { since, 0 };

      self->in_gap = TRUE;
      g_array_append_val (self->gaps, gap);
      if (recording (self))
        adbscope_recording_gap_started (self->recording, since);
      g_signal_emit (self, signals[SIGNAL_GAP], 0, TRUE);
      queue_updated (self);
    }
}

/* A fast sample taken at @t: the gap before it, if any, ends at @t; one
 * the watchdog opened while this sample's answer was under way, though
 * it was taken close enough to the one before, was no gap. */
static void
gap_sample (AdbscopeSession *self,
            gint64           t)
{
  gint64 before = self->last_sample_us;
  gboolean real;

  if (before == 0)
    return;
  /* A sample never lands before the one before (stamps are the middle of
   * each round trip; answers come in order). */
  t = MAX (t, before);
  real = adbscope_gap_between (before, t, self->interval_ms);
  if (self->in_gap)
    {
      AdbscopeGap *gap = &g_array_index (self->gaps, AdbscopeGap, self->gaps->len - 1);

      self->in_gap = FALSE;
      if (real)
        {
          gap->end_us = t;
          if (recording (self))
            adbscope_recording_gap_ended (self->recording, gap->start_us, gap->end_us);
        }
      else
        {
          if (recording (self))
            adbscope_recording_gap_cancelled (self->recording, gap->start_us);
          g_array_set_size (self->gaps, self->gaps->len - 1);
        }
      g_signal_emit (self, signals[SIGNAL_GAP], 0, FALSE);
    }
  else if (real)
    {
      /* Came before the watchdog looked. */
      AdbscopeGap gap = { before, t };

      g_array_append_val (self->gaps, gap);
      if (recording (self))
        {
          adbscope_recording_gap_started (self->recording, gap.start_us);
          adbscope_recording_gap_ended (self->recording, gap.start_us, gap.end_us);
        }
    }
}

void
_adbscope_session_gap_check (AdbscopeSession *self,
                             gint64           now_us)
{
  gap_check (self, now_us);
}

void
_adbscope_session_gap_sample (AdbscopeSession *self,
                              gint64           time_us)
{
  gap_sample (self, time_us);
  self->last_sample_us = MAX (time_us, self->last_sample_us);
}

static gboolean
watchdog_cb (gpointer data)
{
  gap_check (data, g_get_monotonic_time ());
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

/* Each thread row says which of the app's processes it runs in. */
static void
name_thread_processes (AdbscopeSession *self,
                       const GArray    *usage)
{
  GListModel *threads = G_LIST_MODEL (self->threads);
  g_autoptr(GHashTable) pid_by_tid = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);

      g_hash_table_insert (pid_by_tid, GINT_TO_POINTER (u->tid), GINT_TO_POINTER (u->pid));
    }
  for (guint i = 0; i < g_list_model_get_n_items (threads); i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, i);
      int pid = GPOINTER_TO_INT (g_hash_table_lookup (pid_by_tid, GINT_TO_POINTER (adbscope_thread_get_tid (t))));

      if (pid > 0)
        adbscope_thread_set_process (t, adbscope_app_processes_name_for_pid (self->app_procs, pid));
    }
}

static AdbscopeDeviceLoss *
current_loss (AdbscopeSession *self)
{
  AdbscopeDeviceLoss *loss;

  if (self->losses->len == 0)
    return NULL;
  loss = &g_array_index (self->losses, AdbscopeDeviceLoss, self->losses->len - 1);
  return loss->end_us == 0 ? loss : NULL;
}

static void
on_command_failed (AdbscopeCollector *collector,
                   const GError      *error,
                   AdbscopeSession   *self)
{
  AdbscopeDeviceLoss loss = { g_get_monotonic_time (), 0, NULL };

  if (!self->running || current_loss (self) != NULL)
    return;
  loss.reason = g_strdup (error->message);
  g_array_append_val (self->losses, loss);
}

static void
on_fast_sample (AdbscopeFastCollector    *fast,
                const AdbscopeFastSample *s,
                AdbscopeSession          *self)
{
  gint64 t = s->time_us;
  AdbscopeDeviceLoss *loss = current_loss (self);

  if (loss != NULL)
    loss->end_us = g_get_monotonic_time ();

  gap_sample (self, t);
  self->last_sample_us = MAX (t, self->last_sample_us);
  if (s->clock_implausible)
    note_implausible (self, 1u << ADBSCOPE_IMPLAUSIBLE_DEVICE_CLOCK);
  self->n_samples++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SAMPLES]);
  if (isfinite (s->dt_s) && s->dt_s > 0)
    {
      double ms;

      /* The median of the device-clock intervals: the interval the run
       * really had, robust to the odd stall (gaps are reported on their
       * own).  Kept sorted, so it costs one merge per sample. */
      adbscope_sorted_merge (self->dts, &s->dt_s, 1);
      ms = 1000 * adbscope_percentile_nearest_rank ((const double *) (gpointer) self->dts->data,
                                                    self->dts->len, 50);
      if (ms != self->measured_interval_ms)
        {
          self->measured_interval_ms = ms;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEASURED_INTERVAL]);
        }
    }

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
    {
      g_ptr_array_add (self->core_paths, g_strdup_printf ("cpu.core%u_pct", self->core_series->len));
      g_ptr_array_add (self->core_series, adbscope_series_new (capacity (self)));
    }
  for (guint i = 0; i < self->core_series->len; i++)
    push_core (self, i, t, i < s->n_cores ? s->core_pct[i] : NAN);

  g_array_set_size (self->core_freqs, 0);
  if (s->core_freq_khz != NULL)
    g_array_append_vals (self->core_freqs, s->core_freq_khz, s->n_cores);
  if (s->net != NULL)
    {
      g_array_set_size (self->net_rates, 0);
      g_array_append_vals (self->net_rates, s->net->data, s->net->len);
    }

  if (s->app_running)
    {
      AdbscopeProcessSpan *last = self->spans->len ?
        &g_array_index (self->spans, AdbscopeProcessSpan, self->spans->len - 1) : NULL;

      note_pid (self, s->pid);
      if (last != NULL && last->pid == s->pid && last->starttime == s->starttime)
        last->last_us = t;
      else
        {
          AdbscopeProcessSpan span = { s->pid, s->starttime, t, t };
          g_array_append_val (self->spans, span);
        }
    }
  if (adbscope_app_processes_take_fast (self->app_procs, s, capacity (self)) && self->meminfo != NULL)
    {
      g_auto(GStrv) others = adbscope_app_processes_dup_other_names (self->app_procs);

      adbscope_meminfo_collector_set_other_processes (self->meminfo, (const char * const *) others);
    }
  if (s->threads != NULL)
    {
      adbscope_thread_list_apply (self->threads, s->threads);
      name_thread_processes (self, s->threads);
    }
  else if (!s->app_running)
    adbscope_thread_list_clear (self->threads);

  if (recording (self))
    {
      adbscope_recording_add_tick (self->recording, t, s->dt_s, s->app_running, s->pid);
      if (s->restarted)
        adbscope_recording_add_restart (self->recording, t, s->pid);
      if (s->threads != NULL || !s->app_running)
        adbscope_recording_add_threads (self->recording, t, s->threads);
    }

  if (s->restarted)
    {
      g_signal_emit (self, signals[SIGNAL_RESTARTED], 0, s->pid);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESTARTS]);
    }
  g_signal_emit (self, signals[SIGNAL_SAMPLE], 0, s);
  queue_updated (self);
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
  if (s->sf_counted_to_ns >= 0)
    f->counted_to_ns = s->sf_counted_to_ns;
  f->janky += s->sf.janky;
  f->jank += s->sf.jank;
  f->big_jank += s->sf.big_jank;
  f->lost_intervals += s->sf.lost ? 1 : 0;
  f->lost_estimate += s->sf.lost_estimate;
  /* present-to-present times of the intervals counted from SurfaceFlinger
   * (an HWUI interval's are gfxinfo's), as the recording keeps them */
  if (s->source != ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER || !isfinite (s->fps))
    return;
  for (guint i = 0; s->sf.frame_times_ms != NULL && i < s->sf.frame_times_ms->len &&
                    f->frame_times->len < MAX_FRAME_TIMES; i++)
    {
      double ms = g_array_index (s->sf.frame_times_ms, float, i);

      g_array_append_val (f->frame_times, ms);
    }
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
  if (recording (self))
    adbscope_recording_add_frames (self->recording, s);

  take_surfaceflinger (self, s);
  /* The interval's frames from the source its FPS came from. */
  if (isfinite (s->fps))
    {
      AdbscopeFrameTotals *ft = &self->frame_totals;

      if (s->source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER)
        {
          ft->frames += s->sf.new_frames + s->sf.lost_estimate;
          ft->janky += s->sf.janky;
        }
      else
        {
          ft->frames += s->new_frames;
          ft->janky += s->new_janky;
        }
    }
  if (isfinite (s->hwui_fps))
    {
      AdbscopeFrameTotals *ft = &self->frame_totals;
      guint n = s->frames != NULL ? MIN (s->frames->len, MAX_FRAME_TIMES - self->frame_times->len) : 0;
      g_autofree double *ms = g_new (double, MAX (n, 1));

      ft->gfx_frames += s->new_frames;
      ft->gfx_janky += s->new_janky;
      ft->over_deadline += s->frames_over_deadline;
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        if (s->has_cause[c])
          {
            ft->has_cause[c] = TRUE;
            ft->causes[c] += s->new_causes[c];
          }
      for (guint i = 0; i < n; i++)
        ms[i] = g_array_index (s->frames, AdbscopeGfxinfoFrame, i).duration_ns / 1e6;
      adbscope_sorted_merge (self->frame_times, ms, n);
    }
  queue_updated (self);
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
  queue_updated (self);
}

static void
replace_str (char       **field,
             const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* Values no device can have, by kind: left out of the series (NaN) and
 * counted over the whole run, kept with the recording like the capture's
 * counts. */
static void
note_implausible (AdbscopeSession *self,
                  guint            kinds)
{
  for (guint k = 0; k < ADBSCOPE_IMPLAUSIBLE_N; k++)
    if (kinds & (1u << k))
      {
        self->implausible[k]++;
        if (recording (self))
          {
            g_autofree char *key = g_strconcat ("implausible_", adbscope_implausible_to_string (k), NULL);
            g_autofree char *n = g_strdup_printf ("%u", self->implausible[k]);

            adbscope_recording_set_meta (self->recording, key, n);
          }
      }
}

/**
 * adbscope_session_get_implausible:
 *
 * Returns: how many values of @kind no device can have were read (and
 *   left out) over the whole run
 */
guint
adbscope_session_get_implausible (AdbscopeSession     *self,
                                  AdbscopeImplausible  kind)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < ADBSCOPE_IMPLAUSIBLE_N, 0);
  return self->implausible[kind];
}

static void
on_slow_sample (AdbscopeSlowCollector    *collector,
                const AdbscopeSlowSample *s,
                AdbscopeSession          *self)
{
  AdbscopeSystemState *st = &self->system;
  gint64 t = s->time_us;

  note_implausible (self, s->implausible);

  if (s->has_battery)
    {
      push (self, ADBSCOPE_SERIES_BATTERY_LEVEL, t, s->battery_level_pct);
      push (self, ADBSCOPE_SERIES_BATTERY_TEMP, t, s->battery_temp_c);
      push (self, ADBSCOPE_SERIES_BATTERY_VOLTAGE, t, s->voltage_mv);
      push (self, ADBSCOPE_SERIES_BATTERY_CURRENT, t, s->current_ma);
      push (self, ADBSCOPE_SERIES_POWER, t, s->power_mw);
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
          replace_str (&st->doze_deep, s->doze_deep);
          replace_str (&st->doze_light, s->doze_light);
        }
      replace_str (&st->standby_bucket, s->standby_bucket);
    }
  if (s->has_jobs)
    {
      st->jobs = s->n_jobs;
      st->jobs_running = s->n_jobs_running;
    }
  if (s->has_alarms)
    {
      st->alarms_pending = s->n_alarms_pending;
      st->alarm_wakeups = s->alarm_wakeups;
    }
  if (s->has_processes)
    {
      /* The sample's array is never changed after it was emitted: share it. */
      g_clear_pointer (&st->processes, g_array_unref);
      st->processes = g_array_ref (s->processes);
    }
  if ((s->has_doze || s->has_jobs || s->has_alarms || s->has_processes) && recording (self))
    adbscope_recording_add_system (self->recording, t, st);
  queue_updated (self);
}

/* The app's own traffic, from the agent, next to /proc/net/dev's. */
/* The agent's wall clock (ms) on the session's. */
static gint64
agent_time_us (AdbscopeSession *self,
               gint64           ms)
{
  return ms * 1000 + adbscope_network_get_clock_offset_us (self->network);
}

/* Every lookup not written yet, and every connection that closed (or,
 * @all, is still open: the run ends).  A connection is written once, with
 * its final bytes. */
static void
record_network (AdbscopeSession *self,
                gboolean         all)
{
  GListModel *conns = adbscope_network_get_connections (self->network);
  GListModel *dns = adbscope_network_get_dns (self->network);
  guint n;

  if (!recording (self))
    return;
  n = g_list_model_get_n_items (dns);
  for (; self->dns_recorded < n; self->dns_recorded++)
    {
      g_autoptr(AdbscopeDnsLookup) d = g_list_model_get_item (dns, self->dns_recorded);
      const char * const *answers = adbscope_dns_lookup_get_answers (d);
      g_autofree char *joined = answers && answers[0] ? g_strjoinv (",", (char **) answers) : NULL;

      adbscope_recording_add_dns (self->recording, agent_time_us (self, adbscope_dns_lookup_get_time_ms (d)),
                                  adbscope_dns_lookup_get_name (d), adbscope_dns_lookup_get_qtype_name (d),
                                  joined);
    }
  n = g_list_model_get_n_items (conns);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);
      gint64 close_ms = adbscope_connection_get_close_time_ms (c);

      if ((close_ms == 0 && !all) || g_hash_table_contains (self->conns_recorded, c))
        continue;
      g_hash_table_add (self->conns_recorded, g_object_ref (c));
      adbscope_recording_add_connection (self->recording,
                                         agent_time_us (self, adbscope_connection_get_open_time_ms (c)),
                                         close_ms ? agent_time_us (self, close_ms) : 0,
                                         adbscope_connection_get_protocol (c),
                                         adbscope_connection_get_local (c),
                                         adbscope_connection_get_remote (c),
                                         adbscope_connection_get_host (c),
                                         adbscope_connection_get_uid (c),
                                         (gint64) adbscope_connection_get_payload_down (c),
                                         (gint64) adbscope_connection_get_payload_up (c));
    }
}

static void
on_network_updated (AdbscopeNetwork *network,
                    AdbscopeSession *self)
{
  gint64 t;
  double rx, tx;

  record_network (self, FALSE);
  if (adbscope_network_get_app_rate (network, &t, &rx, &tx))
    {
      push (self, ADBSCOPE_SERIES_NET_APP_RX, t, rx);
      push (self, ADBSCOPE_SERIES_NET_APP_TX, t, tx);
    }
  queue_updated (self);
}

static void
on_network_gap (AdbscopeNetwork *network,
                gboolean         started,
                AdbscopeSession *self)
{
  if (!started)
    return;
  push (self, ADBSCOPE_SERIES_NET_APP_RX, g_get_monotonic_time (), NAN);
  push (self, ADBSCOPE_SERIES_NET_APP_TX, g_get_monotonic_time (), NAN);
  queue_updated (self);
}

static void
on_screenshot (AdbscopeScreenshotCollector *collector,
               AdbscopeScreenshot          *shot,
               AdbscopeSession             *self)
{
  AdbscopeScreenshot *copy = adbscope_screenshot_copy (shot);

  if (recording (self))
    {
      adbscope_recording_add_screenshot (self->recording, shot->time_us, shot->png, shot->cost_ms,
                                         shot->cpu_ms, shot->width, shot->height, shot->at_marker);
      /* The file holds them all: only the latest PNGs stay in memory. */
      if (self->screenshots->len >= SCREENSHOTS_IN_MEMORY)
        adbscope_screenshot_clear (g_ptr_array_index (self->screenshots,
                                                      self->screenshots->len - SCREENSHOTS_IN_MEMORY));
    }
  g_ptr_array_add (self->screenshots, copy);
  g_signal_emit (self, signals[SIGNAL_SCREENSHOT], 0, self->screenshots->len - 1);
  queue_updated (self);
}

static void
on_screenshot_failed (AdbscopeScreenshotCollector *collector,
                      GError                      *error,
                      AdbscopeSession             *self)
{
  g_message ("screenshot: %s", error->message);
}

/* Kept with the recording (the whole run's count, like the capture's). */
static void
on_screenshot_skipped (AdbscopeScreenshotCollector *collector,
                       AdbscopeSession             *self)
{
  if (recording (self))
    {
      g_autofree char *n = g_strdup_printf ("%u", adbscope_screenshot_collector_get_n_skipped (collector));

      adbscope_recording_set_meta (self->recording, "screenshots_skipped", n);
    }
}

static void
start_screenshots (AdbscopeSession *self)
{
  if (self->shots == NULL)
    {
      self->shots = adbscope_screenshot_collector_new (self->serial);
      g_signal_connect (self->shots, "screenshot", G_CALLBACK (on_screenshot), self);
      g_signal_connect (self->shots, "skipped", G_CALLBACK (on_screenshot_skipped), self);
      g_signal_connect (self->shots, "failed", G_CALLBACK (on_screenshot_failed), self);
    }
  adbscope_screenshot_collector_set_interval (self->shots, self->shots_interval_ms);
  adbscope_screenshot_collector_start (self->shots);
  if (recording (self))
    {
      g_autofree char *interval = g_strdup_printf ("%g", self->shots_interval_ms / 1000.0);

      adbscope_recording_set_meta (self->recording, "screenshot_interval_s", interval);
    }
}

static void
add_collector (AdbscopeSession   *self,
               AdbscopeCollector *collector)
{
  g_signal_connect (collector, "command-failed", G_CALLBACK (on_command_failed), self);
  g_ptr_array_add (self->collectors, collector);
}

static void
start_collectors (AdbscopeSession *self)
{
  const AdbscopeProbeResult *p = self->probe;
  AdbscopeSlowCollector *slow;

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
      AdbscopeFramesCollector *frames = adbscope_frames_collector_new (self->serial, self->package);

      adbscope_collector_set_interval (ADBSCOPE_COLLECTOR (frames), self->interval_ms);
      adbscope_frames_collector_set_refresh_rate (frames, p->refresh_hz);
      g_signal_connect (frames, "sample", G_CALLBACK (on_frames_sample), self);
      add_collector (self, ADBSCOPE_COLLECTOR (frames));
    }

  if (p->supported[ADBSCOPE_SOURCE_MEMINFO])
    {
      AdbscopeMeminfoCollector *meminfo = adbscope_meminfo_collector_new (self->serial, self->package);

      adbscope_collector_set_interval (ADBSCOPE_COLLECTOR (meminfo), self->meminfo_interval_ms);
      g_signal_connect (meminfo, "sample", G_CALLBACK (on_meminfo_sample), self);
      self->meminfo = meminfo;   /* owned by collectors */
      add_collector (self, ADBSCOPE_COLLECTOR (meminfo));
    }

  slow = adbscope_slow_collector_new (self->serial, self->package,
                                      p->supported[ADBSCOPE_SOURCE_THERMAL],
                                      p->supported[ADBSCOPE_SOURCE_DOZE],
                                      p->supported[ADBSCOPE_SOURCE_JOBS],
                                      p->supported[ADBSCOPE_SOURCE_ALARMS]);
  g_signal_connect (slow, "sample", G_CALLBACK (on_slow_sample), self);
  add_collector (self, ADBSCOPE_COLLECTOR (slow));

  for (guint i = 0; i < self->collectors->len; i++)
    adbscope_collector_start (g_ptr_array_index (self->collectors, i));
  self->watchdog_id = g_timeout_add (self->interval_ms, watchdog_cb, self);
  if (self->shots_enabled)
    {
      start_screenshots (self);
      /* Markers dropped while the device was being probed mark the start:
       * their screenshot is the first one after it. */
      if (self->markers->len > 0)
        adbscope_screenshot_collector_request (self->shots, TRUE);
    }
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  self->start_time = g_date_time_new_now_utc ();
  self->start_us = g_get_monotonic_time ();
  if (self->recording != NULL)
    {
      g_autoptr(JsonObject) device = adbscope_report_device_object (self->probe, self->serial);
      g_autoptr(JsonObject) sources = adbscope_report_sources_object (self->probe);

      adbscope_recording_begin (self->recording, self->start_us, self->start_time, self->serial,
                                self->package, self->interval_ms, device, sources);
      /* Markers dropped while the device was still being probed (record's
       * control server answers from the start) mark the start of the data:
       * nothing was measured before it. */
      for (guint i = 0; i < self->markers->len; i++)
        {
          AdbscopeMarker *m = &g_array_index (self->markers, AdbscopeMarker, i);

          m->time_us = MAX (m->time_us, self->start_us);
          adbscope_recording_add_marker (self->recording, m->time_us, m->label);
        }
    }
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
  if (self->shots != NULL)
    adbscope_screenshot_collector_stop (self->shots);
  /* The connections still open are written as such, once. */
  if (self->running)
    record_network (self, TRUE);
  if (self->in_gap)
    {
      AdbscopeGap *gap = &g_array_index (self->gaps, AdbscopeGap, self->gaps->len - 1);

      gap->end_us = g_get_monotonic_time ();
      self->in_gap = FALSE;
      if (recording (self))
        adbscope_recording_gap_ended (self->recording, gap->start_us, gap->end_us);
    }
  if (self->running)
    {
      self->running = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
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
  if (recording (self))
    adbscope_recording_add_marker (self->recording, m.time_us, m.label);
  if (self->shots_enabled && self->running && self->shots != NULL)
    adbscope_screenshot_collector_request (self->shots, TRUE);
  g_signal_emit (self, signals[SIGNAL_MARKER], 0, self->markers->len - 1);
  queue_updated (self);
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

/**
 * adbscope_session_get_frame_times:
 *
 * Returns: (element-type double): every frame time seen (ms), ascending,
 *   for adbscope_percentile_nearest_rank() and histograms
 */
const GArray *
adbscope_session_get_process_spans (AdbscopeSession *self)
{
  return self->spans;
}

const GArray *
adbscope_session_get_device_losses (AdbscopeSession *self)
{
  return self->losses;
}

/* TRUE while adb cannot reach the device (and at the end of a run that
 * lost it for good). */
gboolean
adbscope_session_is_device_lost (AdbscopeSession *self)
{
  return current_loss (self) != NULL;
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

/* What the agent reports (empty without a capture). */
AdbscopeNetwork *
adbscope_session_get_network (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return self->network;
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

/* The median of the device-clock intervals between fast samples (ms), or
 * NaN before two samples. */
double
adbscope_session_get_measured_interval_ms (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NAN);
  return self->measured_interval_ms;
}

guint
adbscope_session_get_restarts (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), 0);
  return self->fast ? adbscope_fast_collector_get_restarts (self->fast) : self->recorded_restarts;
}

const AdbscopeFrameTotals *
adbscope_session_get_frame_totals (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return &self->frame_totals;
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

const AdbscopeSystemState *
adbscope_session_get_system_state (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return &self->system;
}

/**
 * adbscope_session_get_core_freqs:
 *
 * Returns: (array length=n_cores): each core's current frequency in kHz
 *   (NaN where unreadable) from the newest fast sample
 */
const double *
adbscope_session_get_core_freqs (AdbscopeSession *self,
                                 guint           *n_cores)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_cores != NULL, NULL);

  *n_cores = self->core_freqs->len;
  return (const double *) (gpointer) self->core_freqs->data;
}

/**
 * adbscope_session_get_net_rates:
 *
 * Returns: (element-type AdbscopeNetRate): each interface's rates over the
 *   newest interval with a delta
 */
const GArray *
adbscope_session_get_net_rates (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return self->net_rates;
}

AdbscopeSystemState *
adbscope_system_state_copy (const AdbscopeSystemState *state)
{
  AdbscopeSystemState *copy;

  g_return_val_if_fail (state != NULL, NULL);

  copy = g_memdup2 (state, sizeof *state);
  copy->processes = state->processes != NULL ? g_array_ref (state->processes) : NULL;
  copy->doze_deep = g_strdup (state->doze_deep);
  copy->doze_light = g_strdup (state->doze_light);
  copy->standby_bucket = g_strdup (state->standby_bucket);
  return copy;
}

static void
system_state_clear (AdbscopeSystemState *state)
{
  g_clear_pointer (&state->processes, g_array_unref);
  g_clear_pointer (&state->doze_deep, g_free);
  g_clear_pointer (&state->doze_light, g_free);
  g_clear_pointer (&state->standby_bucket, g_free);
}

void
adbscope_system_state_free (AdbscopeSystemState *state)
{
  if (state == NULL)
    return;
  system_state_clear (state);
  g_free (state);
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

guint
adbscope_session_get_meminfo_interval (AdbscopeSession *self)
{
  return self->meminfo_interval_ms;
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
device_loss_clear (AdbscopeDeviceLoss *loss)
{
  g_free (loss->reason);
}

static void
adbscope_session_dispose (GObject *object)
{
  AdbscopeSession *self = ADBSCOPE_SESSION (object);

  adbscope_session_stop (self);
  g_clear_pointer (&self->collectors, g_ptr_array_unref);
  g_clear_object (&self->fast);
  if (self->shots != NULL)
    g_signal_handlers_disconnect_by_data (self->shots, self);
  g_clear_object (&self->shots);
  /* A capture may hold the network model past the session (its agent link
   * ends a moment later, with a gap): it must not call back into a
   * session that is gone. */
  g_signal_handlers_disconnect_by_data (self->network, self);
  g_clear_handle_id (&self->updated_id, g_source_remove);
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
  g_ptr_array_unref (self->core_paths);
  g_clear_object (&self->recording);
  g_ptr_array_unref (self->screenshots);
  g_hash_table_unref (self->conns_recorded);
  g_object_unref (self->threads);
  g_object_unref (self->network);
  g_array_unref (self->markers);
  g_array_unref (self->gaps);
  g_array_unref (self->losses);
  g_array_unref (self->spans);
  g_array_unref (self->frame_times);
  adbscope_frames_summary_clear (&self->fsum);
  g_ptr_array_unref (self->app_procs);
  g_array_unref (self->dts);
  g_array_unref (self->pids);
  g_clear_pointer (&self->probe, adbscope_probe_result_free);
  g_array_unref (self->core_freqs);
  g_array_unref (self->net_rates);
  system_state_clear (&self->system);
  g_clear_pointer (&self->start_time, g_date_time_unref);
  g_free (self->serial);
  g_free (self->package);
  G_OBJECT_CLASS (adbscope_session_parent_class)->finalize (object);
}

static void
adbscope_session_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AdbscopeSession *self = ADBSCOPE_SESSION (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_MEASURED_INTERVAL:
      g_value_set_double (value, isfinite (self->measured_interval_ms) ? self->measured_interval_ms : 0);
      break;
    case PROP_N_SAMPLES:
      g_value_set_uint64 (value, self->n_samples);
      break;
    case PROP_RESTARTS:
      g_value_set_uint (value, adbscope_session_get_restarts (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_session_class_init (AdbscopeSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_session_dispose;
  object_class->finalize = adbscope_session_finalize;

  object_class->get_property = adbscope_session_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* ms; 0 until two fast samples gave an interval */
  properties[PROP_MEASURED_INTERVAL] =
    g_param_spec_double ("measured-interval", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_SAMPLES] =
    g_param_spec_uint64 ("n-samples", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESTARTS] =
    g_param_spec_uint ("restarts", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* After any collector's sample (and a gap starting) was folded in; at
   * most once per main-loop iteration. */
  signals[SIGNAL_UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (const AdbscopeFastSample *) after it was applied: for the core and
   * the CLI (one CSV row per fast sample); src/gui reads "updated". */
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
  /* index of the new marker in adbscope_session_get_markers() */
  /* A screenshot arrived: its index in adbscope_session_get_screenshots(). */
  signals[SIGNAL_SCREENSHOT] =
    g_signal_new ("screenshot-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
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
  self->core_paths = g_ptr_array_new_with_free_func (g_free);
  self->threads = adbscope_thread_list_new ();
  self->network = adbscope_network_new ();
  self->screenshots = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_screenshot_free);
  self->conns_recorded = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  g_signal_connect (self->network, "updated", G_CALLBACK (on_network_updated), self);
  g_signal_connect (self->network, "gap", G_CALLBACK (on_network_gap), self);
  self->markers = g_array_new (FALSE, FALSE, sizeof (AdbscopeMarker));
  g_array_set_clear_func (self->markers, (GDestroyNotify) marker_clear);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (AdbscopeGap));
  self->losses = g_array_new (FALSE, FALSE, sizeof (AdbscopeDeviceLoss));
  self->spans = g_array_new (FALSE, FALSE, sizeof (AdbscopeProcessSpan));
  g_array_set_clear_func (self->losses, (GDestroyNotify) device_loss_clear);
  self->frame_times = g_array_new (FALSE, FALSE, sizeof (double));
  adbscope_frames_summary_init (&self->fsum);
  self->app_procs = adbscope_app_processes_new ();
  self->dts = g_array_new (FALSE, FALSE, sizeof (double));
  self->pids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->core_freqs = g_array_new (FALSE, FALSE, sizeof (double));
  self->net_rates = g_array_new (FALSE, FALSE, sizeof (AdbscopeNetRate));
  self->system.jobs = self->system.jobs_running = -1;
  self->system.alarms_pending = self->system.alarm_wakeups = -1;
  self->measured_interval_ms = NAN;
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

/**
 * adbscope_session_set_recording:
 * @recording: (nullable): where every sample, marker and gap also goes
 *
 * Set before the session starts; the caller closes the recording after
 * adbscope_session_stop().
 */
void
adbscope_session_set_recording (AdbscopeSession   *self,
                                AdbscopeRecording *recording)
{
  g_return_if_fail (ADBSCOPE_IS_SESSION (self));
  g_return_if_fail (!self->running);
  g_set_object (&self->recording, recording);
}

AdbscopeRecording *
adbscope_session_get_recording (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return self->recording;
}

/* The running collector called @name ("fast", "frames", "meminfo",
 * "slow"), or NULL: tests stop one to see the others still reach the view. */
AdbscopeCollector *
_adbscope_session_get_collector (AdbscopeSession *self,
                                 const char      *name)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);

  for (guint i = 0; i < self->collectors->len; i++)
    {
      AdbscopeCollector *c = g_ptr_array_index (self->collectors, i);

      if (g_strcmp0 (adbscope_collector_get_name (c), name) == 0)
        return c;
    }
  return NULL;
}

static AdbscopeSeries *
series_from_samples (const GArray *samples)
{
  /* a ring holds at most 24 h at 1 s: a longer run shows its end */
  guint cap = CLAMP (samples->len, 2, ADBSCOPE_SERIES_MAX_CAPACITY);
  AdbscopeSeries *series = adbscope_series_new (cap);
  guint first = samples->len > cap ? samples->len - cap : 0;

  for (guint i = first; i < samples->len; i++)
    {
      const AdbscopeSample *x = &g_array_index (samples, AdbscopeSample, i);
      adbscope_series_push (series, x->time_us, x->value);
    }
  return series;
}

/* The threads alive at the end: their peak, then their last share. */
static void
apply_run_threads (AdbscopeSession   *self,
                   const AdbscopeRun *run)
{
  g_autoptr(GArray) usage = g_array_new (FALSE, TRUE, sizeof (AdbscopeThreadUsage));

  for (int pass = 0; pass < 2; pass++)
    {
      g_array_set_size (usage, run->threads->len);
      for (guint i = 0; i < run->threads->len; i++)
        {
          const AdbscopeRunThread *t = &g_array_index (run->threads, AdbscopeRunThread, i);
          AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);

          u->tid = t->tid;
          g_strlcpy (u->comm, t->name ? t->name : "", sizeof u->comm);
          u->pct = pass == 0 ? t->max_pct : t->last_pct;
        }
      adbscope_thread_list_apply (self->threads, usage);
    }
}

/**
 * adbscope_session_new_from_run:
 * @run: a run read from a recording
 *
 * A session that never runs and holds what @run holds (times in µs since
 * the run's start), so the pages show a recording as they show a live run.
 */
AdbscopeSession *
adbscope_session_new_from_run (const AdbscopeRun *run)
{
  AdbscopeSession *self;

  g_return_val_if_fail (run != NULL, NULL);

  self = adbscope_session_new (run->serial ? run->serial : "", run->package ? run->package : "");
  self->interval_ms = MAX (run->interval_ms, 100);
  self->probe = adbscope_run_dup_probe (run);
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    {
      adbscope_series_unref (self->series[i]);
      self->series[i] = series_from_samples (run->series[i]);
    }
  for (guint c = 0; c < run->cores->len; c++)
    {
      g_ptr_array_add (self->core_paths, g_strdup_printf ("cpu.core%u_pct", c));
      g_ptr_array_add (self->core_series, series_from_samples (g_ptr_array_index (run->cores, c)));
    }
  for (guint i = 0; i < run->markers->len; i++)
    {
      AdbscopeMarker m = g_array_index (run->markers, AdbscopeMarker, i);

      m.label = g_strdup (m.label);
      g_array_append_val (self->markers, m);
    }
  g_array_append_vals (self->gaps, run->gaps->data, run->gaps->len);
  g_array_append_vals (self->frame_times, run->frame_times->data, run->frame_times->len);
  g_array_append_vals (self->pids, run->pids->data, run->pids->len);
  self->frame_totals = run->totals;
  adbscope_frames_summary_copy (&self->fsum, &run->fsum);
  for (guint i = 0; i < run->screenshots->len; i++)
    g_ptr_array_add (self->screenshots, adbscope_screenshot_copy (g_ptr_array_index (run->screenshots, i)));
  self->shots_enabled = isfinite (run->screenshot_interval_s);
  self->shots_skipped = run->screenshots_skipped;
  memcpy (self->implausible, run->implausible, sizeof self->implausible);
  self->shots_interval_ms = self->shots_enabled ? (guint) (run->screenshot_interval_s * 1000) : 0;
  system_state_clear (&self->system);
  self->system.processes = run->system->processes ? g_array_ref (run->system->processes) : NULL;
  self->system.doze_deep = g_strdup (run->system->doze_deep);
  self->system.doze_light = g_strdup (run->system->doze_light);
  self->system.standby_bucket = g_strdup (run->system->standby_bucket);
  self->system.jobs = run->system->jobs;
  self->system.jobs_running = run->system->jobs_running;
  self->system.alarms_pending = run->system->alarms_pending;
  self->system.alarm_wakeups = run->system->alarm_wakeups;
  self->n_samples = run->n_samples;
  self->recorded_restarts = run->restarts;
  if (run->dts->len > 0)
    {
      g_autoptr(GArray) sorted = g_array_copy (run->dts);

      g_array_sort (sorted, adbscope_compare_double);
      self->measured_interval_ms = g_array_index (sorted, double, sorted->len / 2) * 1000;
    }
  if (run->start != NULL)
    self->start_time = g_date_time_new_from_iso8601 (run->start, NULL);
  self->start_us = 0;
  self->last_sample_us = run->end_us;

  apply_run_threads (self, run);
  return self;
}

/**
 * adbscope_session_add_run_details:
 * @run: from adbscope_run_load_details () of the file @self shows
 *
 * Completes a session made from adbscope_run_load_summary (): every frame
 * time, the frame totals and the threads; says "updated".
 */
void
adbscope_session_add_run_details (AdbscopeSession   *self,
                                  const AdbscopeRun *run)
{
  g_return_if_fail (ADBSCOPE_IS_SESSION (self));
  g_return_if_fail (run != NULL);

  g_array_set_size (self->frame_times, 0);
  g_array_append_vals (self->frame_times, run->frame_times->data, run->frame_times->len);
  self->frame_totals = run->totals;
  /* SurfaceFlinger's frame times came with the details */
  g_array_set_size (self->fsum.frame_times, 0);
  g_array_append_vals (self->fsum.frame_times, run->fsum.frame_times->data, run->fsum.frame_times->len);
  apply_run_threads (self, run);
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
}

/**
 * adbscope_session_set_screenshots:
 * @interval_ms: every this often (0: at markers only)
 *
 * `screencap` at every marker and every @interval_ms while @enabled (off
 * by default).  May be changed while the session runs.
 */
void
adbscope_session_set_screenshots (AdbscopeSession *self,
                                  gboolean         enabled,
                                  guint            interval_ms)
{
  g_return_if_fail (ADBSCOPE_IS_SESSION (self));

  self->shots_enabled = enabled;
  self->shots_interval_ms = interval_ms;
  if (!self->running)
    return;
  if (enabled)
    start_screenshots (self);
  else if (self->shots != NULL)
    adbscope_screenshot_collector_stop (self->shots);
}

gboolean
adbscope_session_get_screenshots_enabled (AdbscopeSession *self,
                                          guint           *interval_ms)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), FALSE);
  if (interval_ms != NULL)
    *interval_ms = self->shots_interval_ms;
  return self->shots_enabled;
}

/**
 * adbscope_session_get_screenshots:
 *
 * Returns: (element-type AdbscopeScreenshot): every screenshot of the run,
 *   oldest first; with a recording, only the latest keep their PNG in
 *   memory (png NULL: read it from the file)
 */
/* Interval ticks that found the previous screenshot still being taken. */
guint
adbscope_session_get_screenshots_skipped (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), 0);
  if (self->shots == NULL)
    return self->shots_skipped;
  return adbscope_screenshot_collector_get_n_skipped (self->shots);
}

GPtrArray *
adbscope_session_get_screenshots (AdbscopeSession *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (self), NULL);
  return self->screenshots;
}
