/* adbscope-recording-source.c: a chart source reading a recording
 *
 * Times: the chart's clock is the file's (µs since the run's start) plus
 * @origin_us — 0 for an opened recording, the session's start on the host
 * monotonic clock for a live run.  The rows of a window are read once per
 * chunk (the window widened by its own span each side) and bucketed from
 * memory while the window stays inside it; a chunk still being written
 * is read again once the part a chart needs was not complete yet.
 */
#include "config.h"

#include <math.h>

#include "adbscope-recording-source.h"

#define DEFAULT_WIDTH 1000

struct _AdbscopeRecordingSource
{
  AdbscopeChartSource      parent_instance;

  AdbscopeRecordingReader *reader;
  char                    *path;
  gint64                   origin_us;
  guint                    width;        /* of the last bucketing, for the level */

  GArray                  *rows;         /* the chunk: AdbscopeRunBucket, file clock */
  int                      level;
  gint64                   from_us;
  gint64                   to_us;
  gint64                   complete_to_us;

  /* the newest sample and the newest finite one, read at last_read_us,
   * when the file was at last_version */
  AdbscopeSample           last[2];
  gboolean                 has_last[2];
  gint64                   last_read_us[2];
  gint64                   last_version[2];
};

G_DEFINE_FINAL_TYPE (AdbscopeRecordingSource, adbscope_recording_source, ADBSCOPE_TYPE_CHART_SOURCE)

/* The first time the series in memory holds, G_MAXINT64 without one:
 * the file answers before it, memory from it on. */
static gint64
boundary (AdbscopeRecordingSource *self)
{
  AdbscopeSeries *tail = adbscope_chart_source_get_series (ADBSCOPE_CHART_SOURCE (self));
  const AdbscopeSample *first;

  if (tail == NULL || adbscope_series_get_length (tail) == 0)
    return G_MAXINT64;
  first = adbscope_series_get (tail, 0);
  return first->time_us;
}

/* The rows of [from, to] (file clock) at @level are in self->rows. */
static void
ensure_chunk (AdbscopeRecordingSource *self,
              int                      level,
              gint64                   from_us,
              gint64                   to_us)
{
  gboolean live = adbscope_chart_source_get_series (ADBSCOPE_CHART_SOURCE (self)) != NULL;
  gint64 span = MAX (to_us - from_us, 1);

  /* nothing before the start: a window reaching past it is inside a chunk from 0 */
  from_us = MAX (from_us, 0);

  if (self->rows != NULL && level == self->level && from_us >= self->from_us && to_us <= self->to_us &&
      (!live || to_us <= self->complete_to_us))
    return;

  g_clear_pointer (&self->rows, g_array_unref);
  self->level = level;
  self->from_us = MAX (from_us - span, 0);
  self->to_us = to_us + span;
  self->rows = adbscope_recording_reader_read (self->reader, self->path, level, self->from_us, self->to_us,
                                               &self->complete_to_us);
}

static guint
lower_bound (GArray *rows,
             gint64  t_us)
{
  guint lo = 0, hi = rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (rows, AdbscopeRunBucket, mid).t_us < t_us)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The chunk's rows for the chart window [t0, t1] (chart clock) that the
 * file answers for: [first, end). */
static gboolean
file_rows (AdbscopeRecordingSource *self,
           gint64                   t0_us,
           gint64                   t1_us,
           guint                    width,
           guint                   *first,
           guint                   *end)
{
  gint64 file_to = MIN (t1_us, boundary (self) - 1) - self->origin_us;
  gint64 file_from = t0_us - self->origin_us;
  int level;

  if (file_from > file_to)
    return FALSE;
  level = adbscope_recording_reader_pick_level (self->reader, t1_us - t0_us, width);
  ensure_chunk (self, level, file_from, file_to);
  /* one row early: a missing stretch may begin before the window */
  *first = lower_bound (self->rows, file_from - adbscope_recording_reader_get_level_width_us (self->reader, level));
  if (*first > 0)
    (*first)--;
  *end = lower_bound (self->rows, file_to + 1);
  return TRUE;
}

static void
recording_bucket (AdbscopeChartSource *source,
                  gint64               t0_us,
                  gint64               t1_us,
                  gint64               interval_us,
                  AdbscopeChartBucket *buckets,
                  guint                width)
{
  AdbscopeRecordingSource *self = ADBSCOPE_RECORDING_SOURCE (source);
  AdbscopeSeries *tail = adbscope_chart_source_get_series (source);
  guint first, end;

  self->width = MAX (width, 1);
  if (file_rows (self, t0_us, t1_us, width, &first, &end))
    adbscope_chart_bucket_rows (&g_array_index (self->rows, AdbscopeRunBucket, first), end - first,
                                t0_us - self->origin_us, t1_us - self->origin_us, interval_us,
                                buckets, width);
  else
    adbscope_chart_bucket_rows (NULL, 0, t0_us, t1_us, interval_us, buckets, width);

  if (tail != NULL && width > 0)
    {
      g_autofree AdbscopeChartBucket *more = g_new (AdbscopeChartBucket, width);

      adbscope_chart_bucket_series (tail, t0_us, t1_us, interval_us, more, width);
      adbscope_chart_bucket_merge (buckets, more, width);
    }
}

static gboolean
recording_get_extent (AdbscopeChartSource *source,
                      gint64               t0_us,
                      gint64               t1_us,
                      double              *min,
                      double              *max)
{
  AdbscopeRecordingSource *self = ADBSCOPE_RECORDING_SOURCE (source);
  AdbscopeSeries *tail = adbscope_chart_source_get_series (source);
  AdbscopeSeriesStats stats;
  gboolean found = FALSE;
  guint first, end;

  *min = INFINITY;
  *max = -INFINITY;
  if (file_rows (self, t0_us, t1_us, self->width, &first, &end))
    for (guint i = first; i < end; i++)
      {
        const AdbscopeRunBucket *r = &g_array_index (self->rows, AdbscopeRunBucket, i);

        if (r->n == 0 || r->t_us + r->width_us < t0_us - self->origin_us)
          continue;
        *min = MIN (*min, r->min);
        *max = MAX (*max, r->max);
        found = TRUE;
      }
  if (tail != NULL && adbscope_series_compute_stats_range (tail, t0_us, t1_us, &stats))
    {
      *min = MIN (*min, stats.min);
      *max = MAX (*max, stats.max);
      found = TRUE;
    }
  return found;
}

static gboolean
recording_get_last (AdbscopeChartSource *source,
                    gboolean             finite,
                    gint64              *time_us,
                    double              *value)
{
  AdbscopeRecordingSource *self = ADBSCOPE_RECORDING_SOURCE (source);
  AdbscopeSample s;
  gint64 now;

  /* a live run's newest sample is in memory */
  if (ADBSCOPE_CHART_SOURCE_CLASS (adbscope_recording_source_parent_class)->get_last (source, finite,
                                                                                      time_us, value))
    return TRUE;
  finite = !!finite;
  now = g_get_monotonic_time ();
  /* charts ask on every redraw: look at the file at most once a second,
   * and read it again only when it changed (never, for a finished run) */
  if (self->last_read_us[finite] == 0 || now - self->last_read_us[finite] > G_USEC_PER_SEC)
    {
      gint64 version = adbscope_recording_reader_get_version (self->reader);

      if (self->last_read_us[finite] == 0 || version != self->last_version[finite])
        self->has_last[finite] = adbscope_recording_reader_get_last (self->reader, self->path, finite,
                                                                     &self->last[finite]);
      self->last_version[finite] = version;
      self->last_read_us[finite] = now;
    }
  if (!self->has_last[finite])
    return FALSE;
  s = self->last[finite];
  if (time_us != NULL)
    *time_us = s.time_us + self->origin_us;
  if (value != NULL)
    *value = s.value;
  return TRUE;
}

static gboolean
recording_find_nearest (AdbscopeChartSource *source,
                        gint64               time_us,
                        gint64               max_distance_us,
                        AdbscopeSample      *sample)
{
  AdbscopeRecordingSource *self = ADBSCOPE_RECORDING_SOURCE (source);
  AdbscopeSample in_file;
  gboolean found;

  found = ADBSCOPE_CHART_SOURCE_CLASS (adbscope_recording_source_parent_class)->find_nearest (source, time_us,
                                                                                          max_distance_us,
                                                                                          sample);
  if (time_us - max_distance_us >= boundary (self) ||
      !adbscope_recording_reader_find_nearest (self->reader, self->path, time_us - self->origin_us,
                                               max_distance_us, &in_file))
    return found;
  in_file.time_us += self->origin_us;
  if (!found || ABS (in_file.time_us - time_us) < ABS (sample->time_us - time_us))
    *sample = in_file;
  return TRUE;
}

static void
adbscope_recording_source_finalize (GObject *object)
{
  AdbscopeRecordingSource *self = ADBSCOPE_RECORDING_SOURCE (object);

  g_clear_object (&self->reader);
  g_clear_pointer (&self->rows, g_array_unref);
  g_free (self->path);
  G_OBJECT_CLASS (adbscope_recording_source_parent_class)->finalize (object);
}

static void
adbscope_recording_source_class_init (AdbscopeRecordingSourceClass *klass)
{
  AdbscopeChartSourceClass *source_class = ADBSCOPE_CHART_SOURCE_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = adbscope_recording_source_finalize;
  source_class->bucket = recording_bucket;
  source_class->get_extent = recording_get_extent;
  source_class->get_last = recording_get_last;
  source_class->find_nearest = recording_find_nearest;
}

static void
adbscope_recording_source_init (AdbscopeRecordingSource *self)
{
  self->width = DEFAULT_WIDTH;
  self->level = ADBSCOPE_RECORDING_LEVEL_SAMPLES;
}

/**
 * adbscope_recording_source_new:
 * @reader: the recording
 * @series_path: the series' report path ("cpu.app_pct")
 * @origin_us: the chart clock at the run's start
 * @tail: (nullable): the newest stretch in memory (a live run's ring buffer)
 */
AdbscopeChartSource *
adbscope_recording_source_new (AdbscopeRecordingReader *reader,
                               const char              *series_path,
                               gint64                   origin_us,
                               AdbscopeSeries          *tail)
{
  AdbscopeRecordingSource *self;

  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (reader), NULL);
  g_return_val_if_fail (series_path != NULL, NULL);

  self = g_object_new (ADBSCOPE_TYPE_RECORDING_SOURCE, "series", tail, NULL);
  self->reader = g_object_ref (reader);
  self->path = g_strdup (series_path);
  self->origin_us = origin_us;
  return ADBSCOPE_CHART_SOURCE (self);
}

/* The level the last window was read at (tests). */
int
adbscope_recording_source_get_level (AdbscopeRecordingSource *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_SOURCE (self), ADBSCOPE_RECORDING_LEVEL_SAMPLES);
  return self->level;
}
