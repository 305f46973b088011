/* adbscope-report.c: the JSON report of a session
 *
 * Every key is always present: a metric without data is null, never 0, so
 * `--assert` paths can be checked against a skeleton before a record starts
 * and an assertion on a missing metric fails instead of passing.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-assertion.h"
#include "adbscope-error.h"
#include "adbscope-json.h"
#include "adbscope-app-processes.h"
#include "adbscope-frames-summary.h"
#include "adbscope-report.h"
#include "adbscope-report-network.h"
#include "adbscope-parse-gfxinfo.h"
#include "adbscope-recording.h"
#include "adbscope-run.h"
#include "adbscope-stats.h"
#include "adbscope-thread.h"

static void
set_number (JsonObject *o,
            const char *key,
            double      v)
{
  if (isfinite (v))
    json_object_set_double_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

/* Counts and ids are integers in the JSON (34, not 34.0); -1 is null. */
static void
set_int (JsonObject *o,
         const char *key,
         gint64      v)
{
  if (v >= 0)
    json_object_set_int_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

static void
set_string (JsonObject *o,
            const char *key,
            const char *v)
{
  if (v != NULL)
    json_object_set_string_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

static JsonObject *
stats_object (const AdbscopeSeriesStats *st)
{
  JsonObject *o = json_object_new ();
  gboolean have = st != NULL && st->n > 0;

  json_object_set_int_member (o, "n", have ? st->n : 0);
  set_number (o, "avg", have ? st->avg : NAN);
  set_number (o, "min", have ? st->min : NAN);
  set_number (o, "max", have ? st->max : NAN);
  set_number (o, "p50", have ? st->p50 : NAN);
  set_number (o, "p90", have ? st->p90 : NAN);
  set_number (o, "p99", have ? st->p99 : NAN);
  return o;
}

/* Least-squares slope of value over minutes between t0 and t1, for memory
 * growth. */
static double
slope_per_minute (const GArray *series,
                  gint64        from_us,
                  gint64        to_us)
{
  guint k = 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  gint64 t0 = 0;

  for (guint i = 0; i < series->len; i++)
    {
      const AdbscopeSample *s = &g_array_index (series, AdbscopeSample, i);
      double x, y = s->value;

      if (!isfinite (y) || s->time_us < from_us || s->time_us > to_us)
        continue;
      if (k == 0)
        t0 = s->time_us;
      x = (s->time_us - t0) / 60e6;
      sx += x; sy += y; sxx += x * x; sxy += x * y;
      k++;
    }
  if (k < 2 || (k * sxx - sx * sx) <= 0)
    return NAN;
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* Growth is per process, never across a restart: the slope over the
 * longest single process (the longest stretch between restarts). */
static double
growth_per_minute (const AdbscopeRun *run,
                   const GArray      *series)
{
  gint64 start = G_MININT64, best_from = G_MININT64, best_to = G_MAXINT64, best_len = -1;
  guint n = run->restart_times ? run->restart_times->len : 0;

  for (guint i = 0; i <= n; i++)
    {
      gint64 end = i < n ? g_array_index (run->restart_times, gint64, i) - 1 : G_MAXINT64;
      gint64 first = G_MAXINT64, last = G_MININT64;

      for (guint k = 0; k < series->len; k++)
        {
          const AdbscopeSample *smp = &g_array_index (series, AdbscopeSample, k);

          if (smp->time_us < start || smp->time_us > end || !isfinite (smp->value))
            continue;
          first = MIN (first, smp->time_us);
          last = MAX (last, smp->time_us);
        }
      if (last >= first && last - first > best_len)
        {
          best_len = last - first;
          best_from = start;
          best_to = end;
        }
      if (i < n)
        start = end + 1;
    }
  if (best_len < 0)
    return NAN;
  return slope_per_minute (series, best_from, best_to);
}

static JsonObject *
section (JsonObject *root,
         const char *name)
{
  if (!json_object_has_member (root, name))
    json_object_set_object_member (root, name, json_object_new ());
  return json_object_get_object_member (root, name);
}

static JsonObject *
series_stats (const GArray *series,
              gint64        t0,
              gint64        t1)
{
  AdbscopeSeriesStats st = { 0 };

  if (series == NULL)
    return stats_object (NULL);
  adbscope_samples_compute_stats ((const AdbscopeSample *) series->data, series->len, t0, t1, &st);
  return stats_object (&st);
}

static void
add_series (JsonObject        *root,
            const AdbscopeRun *run,
            const char        *path,
            const GArray      *series)
{
  g_autofree char *sect = g_strdup (path);
  char *dot = strchr (sect, '.');
  JsonObject *o;

  g_assert (dot != NULL);
  *dot = '\0';
  o = series_stats (series, G_MININT64, G_MAXINT64);
  if (g_str_has_prefix (path, "memory."))
    set_number (o, "growth_per_min", series ? growth_per_minute (run, series) : NAN);
  json_object_set_object_member (section (root, sect), dot + 1, o);
}

static double
seconds (gint64 time_us)
{
  return time_us / 1e6;
}

/* n, p50/p90/p95/p99 (nearest rank, like the series statistics), max of sorted times */
static void
fill_frame_times (JsonObject   *ft,
                  const double *ms,
                  guint         n)
{
  static const struct { const char *key; double p; } ps[] = {
    { "p50", 50 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 },
  };

  json_object_set_int_member (ft, "n", n);
  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    set_number (ft, ps[i].key, n > 0 ? adbscope_percentile_nearest_rank (ms, n, ps[i].p) : NAN);
  set_number (ft, "max", n > 0 ? ms[n - 1] : NAN);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* frames.source, frames.zero_reason and frames.surfaceflinger */
static void
add_frame_sources (JsonObject                  *frames,
                   const AdbscopeFramesSummary *f)
{
  JsonObject *samples = json_object_new ();
  JsonObject *sf = json_object_new ();
  JsonObject *ft = json_object_new ();
  JsonArray *layers = json_array_new ();
  g_autoptr(GArray) times = NULL;
  g_autofree char *message = NULL;

  set_string (frames, "source", adbscope_frames_summary_source_key (f));
  json_object_set_int_member (samples, "gfxinfo", f ? f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO] : 0);
  json_object_set_int_member (samples, "surfaceflinger", f ? f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] : 0);
  json_object_set_object_member (frames, "source_samples", samples);

  if (f != NULL && f->zero_reason != ADBSCOPE_FRAMES_ZERO_NONE)
    {
      JsonObject *zr = json_object_new ();

      message = adbscope_frames_zero_reason_describe (f->zero_reason, f->zero_detail);
      json_object_set_string_member (zr, "code", adbscope_frames_zero_reason_to_key (f->zero_reason));
      json_object_set_string_member (zr, "message", message);
      json_object_set_object_member (frames, "zero_reason", zr);
    }
  else
    json_object_set_null_member (frames, "zero_reason");

  for (guint i = 0; f != NULL && i < f->layers->len; i++)
    json_array_add_string_element (layers, g_ptr_array_index (f->layers, i));
  json_object_set_array_member (sf, "layers", layers);
  set_string (sf, "layer", f ? f->layer : NULL);
  json_object_set_int_member (sf, "frames", f ? f->frames : 0);
  json_object_set_int_member (sf, "janky", f ? f->janky : 0);
  set_number (sf, "janky_pct", f && f->frames > 0 ? 100.0 * f->janky / f->frames : NAN);
  json_object_set_int_member (sf, "jank", f ? f->jank : 0);
  json_object_set_int_member (sf, "big_jank", f ? f->big_jank : 0);
  json_object_set_int_member (sf, "lost_intervals", f ? f->lost_intervals : 0);
  json_object_set_int_member (sf, "lost_frames_estimate", f ? f->lost_estimate : 0);
  set_number (sf, "refresh_period_ms", f && f->refresh_period_ns > 0 ? f->refresh_period_ns / 1e6 : NAN);
  if (f != NULL)
    {
      times = g_array_copy (f->frame_times);
      g_array_sort (times, compare_double);
    }
  fill_frame_times (ft, times ? (const double *) (gpointer) times->data : NULL, times ? times->len : 0);
  json_object_set_object_member (sf, "frame_time_ms", ft);
  json_object_set_object_member (frames, "surfaceflinger", sf);
}

static gboolean
any_finite (const GArray *series)
{
  for (guint i = 0; series != NULL && i < series->len; i++)
    if (isfinite (g_array_index (series, AdbscopeSample, i).value))
      return TRUE;
  return FALSE;
}

/* gfxinfo's jank causes; all null unless @measured */
static JsonObject *
causes_object (const AdbscopeFrameTotals *t,
               gboolean                   measured)
{
  JsonObject *causes = json_object_new ();

  for (guint i = 0; i < ADBSCOPE_JANK_N_CAUSES; i++)
    if (t->has_cause[i] && measured)
      json_object_set_int_member (causes, adbscope_jank_cause_to_key (i), t->causes[i]);
    else
      json_object_set_null_member (causes, adbscope_jank_cause_to_key (i));
  return causes;
}

/* frames.total, janky, janky_pct: each interval's frames from the source
 * its FPS came from (total_source); frames.gfxinfo: HWUI's own counters. */
static void
add_frames (JsonObject        *root,
            const AdbscopeRun *run)
{
  static const AdbscopeFrameTotals none = { 0 };
  const AdbscopeFrameTotals *t = run ? &run->totals : &none;
  const double *ms = run ? (const double *) (gpointer) run->frame_times->data : NULL;
  guint n = run ? run->frame_times->len : 0;
  JsonObject *frames = section (root, "frames");
  JsonObject *gfx = json_object_new ();
  JsonObject *ft = json_object_new ();
  /* Frames were measured when at least one interval had a rate: an app
   * that never drew (or never ran) has null totals, not 0. */
  gboolean measured = run != NULL && any_finite (run->series[ADBSCOPE_SERIES_FPS]);
  gboolean known = measured && !t->unattributed;
  gboolean gfx_measured = run != NULL && any_finite (run->series[ADBSCOPE_SERIES_FPS_GFXINFO]);
  const char *source = known ? adbscope_frames_summary_source_key (&run->fsum) : NULL;

  set_int (frames, "total", known ? t->frames : -1);
  set_int (frames, "janky", known ? t->janky : -1);
  set_number (frames, "janky_pct", known && t->frames > 0 ? 100.0 * t->janky / t->frames : NAN);
  set_string (frames, "total_source", source);
  set_number (frames, "over_deadline_pct", n > 0 ? 100.0 * t->over_deadline / n : NAN);
  set_number (frames, "refresh_hz", run ? run->refresh_hz : NAN);
  /* The causes are HWUI's: they describe the totals only when every
   * counted frame was HWUI's. */
  json_object_set_object_member (frames, "causes", causes_object (t, g_strcmp0 (source, "gfxinfo") == 0));

  set_int (gfx, "total", gfx_measured ? t->gfx_frames : -1);
  set_int (gfx, "janky", gfx_measured ? t->gfx_janky : -1);
  set_number (gfx, "janky_pct", gfx_measured && t->gfx_frames > 0 ? 100.0 * t->gfx_janky / t->gfx_frames : NAN);
  json_object_set_object_member (gfx, "causes", causes_object (t, gfx_measured));
  json_object_set_object_member (frames, "gfxinfo", gfx);

  /* The run keeps the frame times sorted, as the session does. */
  fill_frame_times (ft, ms, n);
  json_object_set_object_member (frames, "frame_time_ms", ft);
}

/* gpu.node, gpu.max_freq_mhz beside the busy/freq statistics */
static void
add_gpu (JsonObject      *root,
         AdbscopeSession *session)
{
  JsonObject *gpu = section (root, "gpu");
  const AdbscopeProbeResult *p = session ? adbscope_session_get_probe (session) : NULL;

  set_string (gpu, "node", p ? p->gpu_node : NULL);
  set_number (gpu, "max_freq_mhz", p ? p->gpu_max_freq_mhz : NAN);
}

static const AdbscopeSeriesId marker_series[] = {
  ADBSCOPE_SERIES_CPU_APP, ADBSCOPE_SERIES_CPU_SYSTEM, ADBSCOPE_SERIES_FPS,
  ADBSCOPE_SERIES_MEM_APP_PSS, ADBSCOPE_SERIES_MEM_APP_RSS,
};

static JsonArray *
markers_array (const AdbscopeRun *run)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; run != NULL && i < run->markers->len; i++)
    {
      const AdbscopeMarker *m = &g_array_index (run->markers, AdbscopeMarker, i);
      gint64 t1 = m->time_us + ADBSCOPE_MARKER_WINDOW_S * G_USEC_PER_SEC;
      JsonObject *o = json_object_new ();
      JsonObject *w = json_object_new ();

      json_object_set_string_member (o, "label", m->label);
      set_number (o, "time_s", seconds (m->time_us));
      json_object_set_int_member (o, "window_s", ADBSCOPE_MARKER_WINDOW_S);
      for (guint k = 0; k < G_N_ELEMENTS (marker_series); k++)
        json_object_set_object_member (w, adbscope_series_id_get_path (marker_series[k]),
                                       series_stats (run->series[marker_series[k]], m->time_us, t1));
      json_object_set_object_member (o, "window", w);
      json_array_add_object_element (a, o);
    }
  return a;
}

/**
 * adbscope_report_device_object:
 * @probe: (nullable): the probe; NULL gives every key as null
 *
 * The report's `device` section (also what a recording keeps).
 */
JsonObject *
adbscope_report_device_object (const AdbscopeProbeResult *p,
                               const char                *serial)
{
  JsonObject *o = json_object_new ();
  JsonArray *clusters = json_array_new ();

  set_string (o, "serial", serial);
  set_string (o, "model", p ? p->model : NULL);
  set_string (o, "manufacturer", p ? p->manufacturer : NULL);
  set_string (o, "device", p ? p->device : NULL);
  set_string (o, "release", p ? p->release : NULL);
  set_int (o, "sdk", p && p->sdk_int > 0 ? p->sdk_int : -1);
  set_string (o, "abi", p ? p->abi : NULL);
  set_int (o, "cores", p && p->n_cores > 0 ? (gint64) p->n_cores : -1);
  set_int (o, "page_size", p && p->page_size > 0 ? (gint64) p->page_size : -1);
  set_number (o, "refresh_hz", p ? p->refresh_hz : NAN);
  for (guint i = 0; p != NULL && i < p->clusters->len; i++)
    {
      const AdbscopeCluster *c = g_ptr_array_index (p->clusters, i);
      JsonObject *co = json_object_new ();
      JsonArray *cpus = json_array_new ();

      for (guint k = 0; k < c->cpus->len; k++)
        json_array_add_int_element (cpus, g_array_index (c->cpus, int, k));
      json_object_set_array_member (co, "cpus", cpus);
      set_int (co, "max_freq_khz", isfinite (c->max_freq_khz) && c->max_freq_khz > 0 ? (gint64) c->max_freq_khz : -1);
      json_array_add_object_element (clusters, co);
    }
  json_object_set_array_member (o, "clusters", clusters);
  return o;
}

static JsonArray *processes_array (AdbscopeSession *session);

/* The object at @key, NULL when it is missing or not an object (a
 * recording's meta is untrusted). */
static JsonObject *
object_at (JsonObject *o,
           const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static void
merge_members (JsonObject *into,
               JsonObject *from)
{
  g_autoptr(GList) names = from ? json_object_get_members (from) : NULL;

  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (into, l->data, json_node_copy (json_object_get_member (from, l->data)));
}

/**
 * adbscope_report_session_extras:
 *
 * What the report takes from a live session that the recording's tables
 * do not hold: `app.processes`, the frames' sources, the GPU node.  A
 * recording keeps this object in its meta, so a report rebuilt from the
 * file says the same.
 *
 * Returns: (transfer full): `{"processes", "frames", "gpu"}`
 */
JsonObject *
adbscope_report_session_extras (AdbscopeSession *session)
{
  JsonObject *o = json_object_new ();
  JsonObject *frames = json_object_new ();
  g_autoptr(JsonObject) root = json_object_new ();

  json_object_set_array_member (o, "processes", processes_array (session));
  add_frame_sources (frames, session ? adbscope_session_get_frames_summary (session) : NULL);
  json_object_set_object_member (o, "frames", frames);
  add_gpu (root, session);
  json_object_set_object_member (o, "gpu", json_object_ref (json_object_get_object_member (root, "gpu")));
  return o;
}

static void
keep_object (AdbscopeRecording *recording,
             const char        *key,
             JsonObject        *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = adbscope_json_to_string (node, FALSE);

  adbscope_recording_set_meta (recording, key, text);
  json_object_unref (object);
}

/**
 * adbscope_report_finish_recording:
 * @session: (nullable): the session that wrote it
 *
 * Ends a session's recording, `record` and the desktop app alike.  A run
 * stopped before the device answered the probe wrote nothing: the file is
 * removed.  Otherwise what the tables do not hold and a report rebuilt
 * from the file needs (`network_agent`, `device_loss`, `session_extras`:
 * docs/recording.md) goes into the meta, and the file is closed.
 *
 * Returns: TRUE when the file holds the run, closed; FALSE when nothing
 *   was recorded, or (with @error) when it could not be closed
 */
gboolean
adbscope_report_finish_recording (AdbscopeRecording *recording,
                                  AdbscopeSession   *session,
                                  GError           **error)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING (recording), FALSE);

  if (!adbscope_recording_has_begun (recording))
    {
      adbscope_recording_close (recording, 0, NULL);
      adbscope_recording_remove_files (adbscope_recording_get_path (recording));
      return FALSE;
    }
  if (session != NULL)
    {
      keep_object (recording, "network_agent", adbscope_report_network_agent (session));
      keep_object (recording, "device_loss", adbscope_report_device_loss (session));
      keep_object (recording, "session_extras", adbscope_report_session_extras (session));
    }
  return adbscope_recording_close (recording, g_get_monotonic_time (), error);
}

/**
 * adbscope_report_device_loss:
 *
 * When adb lost the device, for how long, and why (end_s null while it was
 * still gone at the end of the run), as the report's `run.device_lost` and
 * `run.device_losses`; a recording keeps this object.
 *
 * Returns: (transfer full): `{"device_lost", "device_losses"}`
 */
JsonObject *
adbscope_report_device_loss (AdbscopeSession *session)
{
  JsonObject *out = json_object_new ();
  JsonArray *a = json_array_new ();
  const GArray *losses = session ? adbscope_session_get_device_losses (session) : NULL;
  gint64 start = session ? adbscope_session_get_start_us (session) : 0;
  gint64 now = g_get_monotonic_time ();

  for (guint i = 0; losses != NULL && i < losses->len; i++)
    {
      const AdbscopeDeviceLoss *l = &g_array_index (losses, AdbscopeDeviceLoss, i);
      JsonObject *o = json_object_new ();

      set_number (o, "start_s", (l->start_us - start) / 1e6);
      set_number (o, "end_s", l->end_us ? (l->end_us - start) / 1e6 : NAN);
      set_number (o, "duration_s", ((l->end_us ? l->end_us : now) - l->start_us) / 1e6);
      set_string (o, "reason", l->reason);
      json_array_add_object_element (a, o);
    }
  json_object_set_boolean_member (out, "device_lost", session ? adbscope_session_is_device_lost (session) : FALSE);
  json_object_set_array_member (out, "device_losses", a);
  return out;
}

static JsonObject *
copy_object (JsonObject *o)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, o);
  copy = json_node_copy (node);
  return json_object_ref (json_node_get_object (copy));
}

static JsonObject *
run_object (const AdbscopeRun *run)
{
  JsonObject *o = json_object_new ();
  JsonArray *gaps = json_array_new ();
  double median_dt = NAN;

  if (run != NULL && run->dts->len > 0)
    {
      g_autofree double *sorted = g_memdup2 (run->dts->data, run->dts->len * sizeof (double));

      qsort (sorted, run->dts->len, sizeof (double), adbscope_compare_double);
      median_dt = sorted[run->dts->len / 2] * 1000.0;
    }

  set_string (o, "start", run ? run->start : NULL);
  set_number (o, "duration_s", run && run->start ? seconds (run->to_us - run->from_us) : NAN);
  json_object_set_int_member (o, "interval_ms_configured", run ? run->interval_ms : 0);
  set_number (o, "interval_ms_measured", median_dt);
  json_object_set_int_member (o, "samples", run ? run->n_samples : 0);
  json_object_set_int_member (o, "gaps", run ? run->gaps->len : 0);
  {
    JsonObject *io = json_object_new ();

    for (guint k = 0; k < ADBSCOPE_IMPLAUSIBLE_N; k++)
      json_object_set_int_member (io, adbscope_implausible_to_string (k), run ? run->implausible[k] : 0);
    json_object_set_object_member (o, "implausible", io);
  }
  for (guint i = 0; run != NULL && i < run->gaps->len; i++)
    {
      const AdbscopeGap *gap = &g_array_index (run->gaps, AdbscopeGap, i);
      JsonObject *go = json_object_new ();

      set_number (go, "start_s", seconds (gap->start_us));
      set_number (go, "end_s", seconds (gap->end_us));
      set_number (go, "duration_s", seconds (gap->end_us - gap->start_us));
      json_array_add_object_element (gaps, go);
    }
  json_object_set_array_member (o, "gap_list", gaps);
  {
    g_autoptr(JsonObject) loss = run && run->device_loss ? copy_object (run->device_loss)
                                                         : adbscope_report_device_loss (NULL);

    JsonNode *lost = json_object_get_member (loss, "device_lost");
    JsonNode *losses = json_object_get_member (loss, "device_losses");

    /* a recording's meta is untrusted: only the types the writer wrote */
    json_object_set_boolean_member (o, "device_lost", lost && JSON_NODE_HOLDS_VALUE (lost) &&
                                    json_node_get_value_type (lost) == G_TYPE_BOOLEAN && json_node_get_boolean (lost));
    json_object_set_array_member (o, "device_losses", losses && JSON_NODE_HOLDS_ARRAY (losses)
                                  ? json_array_ref (json_node_get_array (losses)) : json_array_new ());
  }
  json_object_set_array_member (o, "output_errors", json_array_new ());
  set_string (o, "recording", run ? run->recording : NULL);
  {
    JsonObject *w = json_object_new ();

    set_number (w, "from_s", run && run->start ? seconds (run->from_us) : NAN);
    set_number (w, "to_s", run && run->start ? seconds (run->to_us) : NAN);
    json_object_set_object_member (o, "window", w);
  }
  return o;
}

static JsonObject *
series_stats_object (AdbscopeSeries *series)
{
  AdbscopeSeriesStats st = { 0 };

  adbscope_series_compute_stats (series, &st);
  return stats_object (&st);
}

/* app.processes[]: the main process and each PKG:name one. */
static JsonArray *
processes_array (AdbscopeSession *session)
{
  JsonArray *a = json_array_new ();
  GPtrArray *procs = session ? adbscope_session_get_app_processes (session) : NULL;

  for (guint i = 0; procs != NULL && i < procs->len; i++)
    {
      const AdbscopeProcessSeries *p = g_ptr_array_index (procs, i);
      JsonObject *o = json_object_new ();
      JsonArray *pids = json_array_new ();

      json_object_set_string_member (o, "name", p->name);
      json_object_set_boolean_member (o, "main", p->main);
      for (guint k = 0; k < p->pids->len; k++)
        json_array_add_int_element (pids, g_array_index (p->pids, gint64, k));
      json_object_set_array_member (o, "pids", pids);
      json_object_set_int_member (o, "restarts", p->restarts);
      json_object_set_boolean_member (o, "running", p->running);
      set_number (o, "first_seen_s", (p->first_us - adbscope_session_get_start_us (session)) / 1e6);
      set_number (o, "last_seen_s", (p->last_us - adbscope_session_get_start_us (session)) / 1e6);
      json_object_set_object_member (o, "cpu_pct", series_stats_object (p->cpu_pct));
      json_object_set_object_member (o, "rss_kb", series_stats_object (p->rss_kb));
      json_object_set_object_member (o, "pss_kb", series_stats_object (p->pss_kb));
      json_object_set_object_member (o, "threads", series_stats_object (p->threads));
      json_array_add_object_element (a, o);
    }
  return a;
}

static JsonObject *
app_object (const AdbscopeRun *run)
{
  JsonObject *o = json_object_new ();
  JsonArray *pids = json_array_new ();

  set_string (o, "package", run ? run->package : NULL);
  for (guint i = 0; run != NULL && i < run->pids->len; i++)
    json_array_add_int_element (pids, g_array_index (run->pids, gint64, i));
  json_object_set_array_member (o, "pids", pids);
  /* Restarts are counted between sightings: null for an app never seen. */
  set_int (o, "restarts", run != NULL && run->pids->len > 0 ? (gint64) run->restarts : -1);
  json_object_set_string_member (o, "totals", "sum over processes[]");
  if (run != NULL && run->session == NULL && run->session_extras != NULL
      && json_object_has_member (run->session_extras, "processes"))
    json_object_set_member (o, "processes",
                            json_node_copy (json_object_get_member (run->session_extras, "processes")));
  else
    json_object_set_array_member (o, "processes", processes_array (run ? run->session : NULL));
  return o;
}

/**
 * adbscope_report_sources_object:
 * @probe: (nullable): the probe
 *
 * The report's `sources` section (also what a recording keeps).
 */
JsonObject *
adbscope_report_sources_object (const AdbscopeProbeResult *p)
{
  JsonObject *o = json_object_new ();

  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    {
      JsonObject *so = json_object_new ();

      json_object_set_boolean_member (so, "supported", p ? p->supported[i] : FALSE);
      set_string (so, "reason", p ? p->reason[i] : NULL);
      json_object_set_object_member (o, adbscope_source_to_key (i), so);
    }
  return o;
}

static JsonObject *
system_object (const AdbscopeRun *run)
{
  static const AdbscopeSystemState unknown = { NULL, NULL, NULL, NULL, -1, -1, -1, -1 };
  const AdbscopeSystemState *st = run ? run->system : &unknown;
  JsonObject *o = json_object_new ();
  JsonArray *procs = json_array_new ();

  for (guint i = 0; st->processes != NULL && i < st->processes->len; i++)
    {
      const AdbscopeAppProcess *ap = &g_array_index (st->processes, AdbscopeAppProcess, i);
      JsonObject *po = json_object_new ();

      json_object_set_int_member (po, "pid", ap->pid);
      set_string (po, "name", ap->name);
      set_int (po, "rss_kb", ap->rss_kb);
      json_array_add_object_element (procs, po);
    }
  json_object_set_array_member (o, "processes", procs);
  set_string (o, "doze_deep", st->doze_deep);
  set_string (o, "doze_light", st->doze_light);
  set_string (o, "standby_bucket", st->standby_bucket);
  set_int (o, "jobs", st->jobs);
  set_int (o, "jobs_running", st->jobs_running);
  set_int (o, "alarms_pending", st->alarms_pending);
  set_int (o, "alarm_wakeups", st->alarm_wakeups);
  return o;
}

static JsonArray *
threads_array (const AdbscopeRun *run)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; run != NULL && i < run->threads->len; i++)
    {
      const AdbscopeRunThread *t = &g_array_index (run->threads, AdbscopeRunThread, i);
      JsonObject *o = json_object_new ();

      json_object_set_int_member (o, "tid", t->tid);
      set_string (o, "name", t->name);
      set_number (o, "last_pct", t->last_pct);
      set_number (o, "max_pct", t->max_pct);
      json_array_add_object_element (a, o);
    }
  return a;
}

/* p50 and max of one cost over the shots that have it. */
static JsonObject *
shot_cost (const AdbscopeRun *run,
           gsize              offset)
{
  JsonObject *o = json_object_new ();
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; run != NULL && i < run->screenshots->len; i++)
    {
      double x = G_STRUCT_MEMBER (double, g_ptr_array_index (run->screenshots, i), offset);

      if (isfinite (x))
        g_array_append_val (v, x);
    }
  g_array_sort (v, adbscope_compare_double);
  set_number (o, "p50", v->len ? adbscope_percentile_nearest_rank ((double *) v->data, v->len, 50) : NAN);
  set_number (o, "max", v->len ? g_array_index (v, double, v->len - 1) : NAN);
  return o;
}

/* What the screenshots cost on the device: wall time and CPU of
 * screencap, and the CPU as a share of one core while it ran. */
static JsonObject *
screenshots_object (const AdbscopeRun *run)
{
  JsonObject *o = json_object_new ();
  gboolean on = run != NULL && isfinite (run->screenshot_interval_s);
  double wall = 0, cpu = 0;
  guint markers = 0;

  for (guint i = 0; run != NULL && i < run->screenshots->len; i++)
    {
      const AdbscopeScreenshot *s = g_ptr_array_index (run->screenshots, i);

      markers += s->at_marker;
      if (isfinite (s->cost_ms) && isfinite (s->cpu_ms))
        {
          wall += s->cost_ms;
          cpu += s->cpu_ms;
        }
    }
  json_object_set_boolean_member (o, "enabled", on);
  json_object_set_int_member (o, "count", run ? run->screenshots->len : 0);
  json_object_set_int_member (o, "at_markers", markers);
  json_object_set_int_member (o, "skipped", run ? run->screenshots_skipped : 0);
  set_number (o, "interval_s", on && run->screenshot_interval_s > 0 ? run->screenshot_interval_s : NAN);
  json_object_set_object_member (o, "cost_ms", shot_cost (run, G_STRUCT_OFFSET (AdbscopeScreenshot, cost_ms)));
  json_object_set_object_member (o, "cpu_ms", shot_cost (run, G_STRUCT_OFFSET (AdbscopeScreenshot, cpu_ms)));
  set_number (o, "cpu_pct", wall > 0 ? 100.0 * cpu / wall : NAN);
  return o;
}

/* @run NULL builds the skeleton: every key, no data. */
static JsonNode *
build (const AdbscopeRun *run,
       GPtrArray         *assertions)
{
  JsonObject *root = json_object_new ();
  JsonObject *tool = json_object_new ();
  JsonObject *cpu;
  JsonArray *cores = json_array_new ();
  JsonNode *node;

  json_object_set_string_member (root, "schema", ADBSCOPE_REPORT_SCHEMA);
  json_object_set_string_member (tool, "name", "adbscope");
  json_object_set_string_member (tool, "version", PACKAGE_VERSION);
  json_object_set_object_member (root, "tool", tool);
  json_object_set_object_member (root, "device", run && run->device ? copy_object (run->device)
                                 : adbscope_report_device_object (NULL, run ? run->serial : NULL));
  json_object_set_object_member (root, "app", app_object (run));
  json_object_set_object_member (root, "run", run_object (run));

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    add_series (root, run, adbscope_series_id_get_path (i), run ? run->series[i] : NULL);

  cpu = section (root, "cpu");
  json_object_set_string_member (cpu, "units",
                                 "system_pct and app_pct: share of all cores (100 = every core busy); "
                                 "threads: percent of one core");
  json_object_set_string_member (cpu, "normalised_formula",
                                 "norm_pct = pct * sum(scaling_cur_freq) / sum(cpuinfo_max_freq) over all cores");
  for (guint i = 0; run != NULL && i < run->cores->len; i++)
    {
      JsonObject *o = series_stats (g_ptr_array_index (run->cores, i), G_MININT64, G_MAXINT64);

      json_object_set_int_member (o, "core", i);
      json_array_add_object_element (cores, o);
    }
  json_object_set_array_member (cpu, "cores", cores);
  json_object_set_array_member (cpu, "threads", threads_array (run));

  json_object_set_object_member (section (root, "network"), "agent",
                                 run && run->network_agent ? copy_object (run->network_agent)
                                 : adbscope_report_network_agent (NULL));
  add_frames (root, run);
  /* The frames rows of a recording before version 3 do not hold the
   * sources: the whole run's, from its meta. */
  if (run != NULL && run->fsum_whole_run && json_object_has_member (run->session_extras, "frames"))
    merge_members (section (root, "frames"), object_at (run->session_extras, "frames"));
  else
    {
      JsonObject *frames = section (root, "frames");
      JsonObject *kept = run && run->session == NULL && run->session_extras && run->to_end
        && json_object_has_member (run->session_extras, "frames")
        ? object_at (run->session_extras, "frames") : NULL;

      add_frame_sources (frames, run ? &run->fsum : NULL);
      /* the latest zero reason in the words the run gave it (the layers
       * it names are not in the rows), for a window that ends with it */
      if (kept != NULL && json_object_has_member (kept, "zero_reason"))
        json_object_set_member (frames, "zero_reason", json_node_copy (json_object_get_member (kept, "zero_reason")));
    }
  if (run != NULL && run->session == NULL && run->session_extras != NULL)
    merge_members (section (root, "gpu"), object_at (run->session_extras, "gpu"));
  else
    add_gpu (root, run ? run->session : NULL);
  json_object_set_object_member (root, "system", system_object (run));
  json_object_set_array_member (root, "markers", markers_array (run));
  json_object_set_object_member (root, "screenshots", screenshots_object (run));
  json_object_set_object_member (root, "sources", run && run->sources ? copy_object (run->sources)
                                 : adbscope_report_sources_object (NULL));

  node = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
  adbscope_report_set_assertions (node, assertions);
  return node;
}

/* Assertions are evaluated on the finished report, then added to it. */
void
adbscope_report_set_assertions (JsonNode  *report,
                                GPtrArray *assertions)
{
  JsonArray *asserts = json_array_new ();

  for (guint i = 0; assertions != NULL && i < assertions->len; i++)
    {
      AdbscopeAssertion *a = g_ptr_array_index (assertions, i);
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) an = NULL;

      adbscope_assertion_evaluate (a, report, NULL);
      adbscope_assertion_to_json (a, b);
      an = json_builder_get_root (b);
      json_array_add_element (asserts, g_steal_pointer (&an));
    }
  json_object_set_array_member (json_node_get_object (report), "assertions", asserts);
}

/**
 * adbscope_report_build_run:
 *
 * The report of a run (whole, or the window it was loaded with).  Live
 * and recorded runs both go through here.
 */
JsonNode *
adbscope_report_build_run (const AdbscopeRun *run,
                           GPtrArray         *assertions)
{
  g_return_val_if_fail (run != NULL, NULL);
  g_return_val_if_fail (!run->partial, NULL);
  return build (run, assertions);
}

/* What a live session holds in memory (its history: 15 minutes by
 * default); a run that has a recording reports from the file instead. */
JsonNode *
adbscope_report_build (AdbscopeSession *session,
                       GPtrArray       *assertions)
{
  g_autoptr(AdbscopeRun) run = NULL;

  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), NULL);
  run = adbscope_run_new_from_session (session);
  return build (run, assertions);
}

/* Keys whose values are text.  In the skeleton they hold "" rather than
 * null, so an assertion naming one is refused as "not a number". */
static const char * const string_keys[] = {
  "serial", "model", "manufacturer", "device", "release", "abi", "start", "package",
  "doze_deep", "doze_light", "standby_bucket", "reason", "label", "name", "recording",
  "agent_version", "platform", "file", "total_source", "source", "layer", NULL
};

static void
mark_strings (JsonObject *object)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (object, l->data);

      if (JSON_NODE_HOLDS_OBJECT (node))
        mark_strings (json_node_get_object (node));
      else if (JSON_NODE_HOLDS_NULL (node) && g_strv_contains (string_keys, l->data))
        json_object_set_string_member (object, l->data, "");
    }
}

JsonNode *
adbscope_report_build_skeleton (void)
{
  JsonNode *node = build (NULL, NULL);

  mark_strings (json_node_get_object (node));
  return node;
}

/* An output of the run that failed (the --samples CSV): run.output_errors. */
void
adbscope_report_add_output_error (JsonNode   *report,
                                  const char *message)
{
  JsonNode *errors = adbscope_report_lookup (report, "run.output_errors");

  g_return_if_fail (errors != NULL && JSON_NODE_HOLDS_ARRAY (errors));
  json_array_add_string_element (json_node_get_array (errors), message);
}

gboolean
adbscope_report_write (JsonNode    *report,
                       const char  *path,
                       GError     **error)
{
  g_autofree char *text = adbscope_json_to_string (report, TRUE);
  g_autoptr(GError) local = NULL;

  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write the report: %s"), local->message);
      return FALSE;
    }
  return TRUE;
}
