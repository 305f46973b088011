/* adbscope-series.c: a fixed-capacity ring buffer of (time, value) samples
 *
 * A refcounted boxed type rather than a GObject: the session owns dozens of
 * them and nothing needs signals or properties on a series.  Whoever owns the
 * data announces changes; the series is only storage.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adbscope-series.h"

struct _AdbscopeSeries
{
  gatomicrefcount  ref_count;
  guint            capacity;
  guint            length;
  guint            head;      /* index of the oldest sample */
  guint64          n_pushed;  /* changes on every push and clear */
  AdbscopeSample  *samples;
};

G_DEFINE_BOXED_TYPE (AdbscopeSeries, adbscope_series, adbscope_series_ref, adbscope_series_unref)

/**
 * adbscope_series_new:
 * @capacity: how many samples the ring keeps, 1 to %ADBSCOPE_SERIES_MAX_CAPACITY
 *
 * Returns: (transfer full): an empty series
 */
AdbscopeSeries *
adbscope_series_new (guint capacity)
{
  AdbscopeSeries *self;

  g_return_val_if_fail (capacity > 0, NULL);
  g_return_val_if_fail (capacity <= ADBSCOPE_SERIES_MAX_CAPACITY, NULL);

  self = g_new0 (AdbscopeSeries, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->capacity = capacity;
  self->samples = g_new (AdbscopeSample, capacity);

  return self;
}

AdbscopeSeries *
adbscope_series_ref (AdbscopeSeries *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
adbscope_series_unref (AdbscopeSeries *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->samples);
      g_free (self);
    }
}

/**
 * adbscope_series_copy:
 *
 * A frozen copy (the UI's pause): same capacity, samples laid out oldest
 * first.  Pushing to either one does not affect the other.
 *
 * Returns: (transfer full): the copy
 */
AdbscopeSeries *
adbscope_series_copy (const AdbscopeSeries *self)
{
  AdbscopeSeries *copy;
  AdbscopeSeriesSpans spans;

  g_return_val_if_fail (self != NULL, NULL);

  copy = adbscope_series_new (self->capacity);
  adbscope_series_get_spans (self, &spans);
  if (spans.n_first > 0)
    memcpy (copy->samples, spans.first, spans.n_first * sizeof (AdbscopeSample));
  if (spans.n_second > 0)
    memcpy (copy->samples + spans.n_first, spans.second,
            spans.n_second * sizeof (AdbscopeSample));
  copy->length = self->length;
  copy->head = 0;
  copy->n_pushed = self->n_pushed;

  return copy;
}

/**
 * adbscope_series_push:
 * @time_us: monotonic time in µs, not earlier than the last sample's
 * @value: the value, or NAN for "no sample"
 *
 * Appends a sample; when the ring is full the oldest one is dropped.
 */
void
adbscope_series_push (AdbscopeSeries *self,
                      gint64          time_us,
                      double          value)
{
  guint tail;

  g_return_if_fail (self != NULL);
  /* Bucketing, lookups and range statistics rely on sorted times. */
  g_return_if_fail (self->length == 0 ||
                    time_us >= self->samples[(self->head + self->length - 1) % self->capacity].time_us);

  if (self->length < self->capacity)
    {
      tail = (self->head + self->length) % self->capacity;
      self->length++;
    }
  else
    {
      tail = self->head;
      self->head = (self->head + 1) % self->capacity;
    }

  self->samples[tail].time_us = time_us;
  self->samples[tail].value = value;
  self->n_pushed++;
}

void
adbscope_series_clear (AdbscopeSeries *self)
{
  g_return_if_fail (self != NULL);

  self->length = 0;
  self->head = 0;
  self->n_pushed++;
}

guint
adbscope_series_get_capacity (const AdbscopeSeries *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->capacity;
}

guint
adbscope_series_get_length (const AdbscopeSeries *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->length;
}

/**
 * adbscope_series_get_n_pushed:
 *
 * Returns: a counter that changes on every push and clear, so a reader can
 *   tell cheaply whether its cached view is stale
 */
guint64
adbscope_series_get_n_pushed (const AdbscopeSeries *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_pushed;
}

/**
 * adbscope_series_get:
 * @index_: 0 is the oldest sample
 *
 * Returns: (transfer none): the sample, valid until the next push or clear
 */
const AdbscopeSample *
adbscope_series_get (const AdbscopeSeries *self,
                     guint                 index_)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index_ < self->length, NULL);

  return &self->samples[(self->head + index_) % self->capacity];
}

void
adbscope_series_get_spans (const AdbscopeSeries *self,
                           AdbscopeSeriesSpans  *spans)
{
  guint n_first;

  g_return_if_fail (self != NULL);
  g_return_if_fail (spans != NULL);

  n_first = MIN (self->length, self->capacity - self->head);
  spans->first = self->samples + self->head;
  spans->n_first = n_first;
  spans->second = self->samples;
  spans->n_second = self->length - n_first;
}

gboolean
adbscope_series_get_last (const AdbscopeSeries *self,
                          gint64               *time_us,
                          double               *value)
{
  const AdbscopeSample *last;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->length == 0)
    return FALSE;

  last = adbscope_series_get (self, self->length - 1);
  if (time_us != NULL)
    *time_us = last->time_us;
  if (value != NULL)
    *value = last->value;

  return TRUE;
}

/**
 * adbscope_series_get_last_finite:
 *
 * The newest sample that is not a gap.
 */
gboolean
adbscope_series_get_last_finite (const AdbscopeSeries *self,
                                 gint64               *time_us,
                                 double               *value)
{
  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = self->length; i > 0; i--)
    {
      const AdbscopeSample *s = adbscope_series_get (self, i - 1);

      if (isfinite (s->value))
        {
          if (time_us != NULL)
            *time_us = s->time_us;
          if (value != NULL)
            *value = s->value;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * adbscope_series_lower_bound:
 *
 * Returns: the index of the first sample at or after @time_us, or the
 *   length when there is none
 */
guint
adbscope_series_lower_bound (const AdbscopeSeries *self,
                             gint64                time_us)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (self != NULL, 0);

  hi = self->length;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (adbscope_series_get (self, mid)->time_us < time_us)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * adbscope_series_find_nearest:
 * @max_distance_us: ignore samples farther away than this
 * @sample: (out): the nearest sample; its value may be NaN (a gap)
 *
 * Returns: whether a sample lies within @max_distance_us of @time_us
 */
gboolean
adbscope_series_find_nearest (const AdbscopeSeries *self,
                              gint64                time_us,
                              gint64                max_distance_us,
                              AdbscopeSample       *sample)
{
  const AdbscopeSample *best = NULL;
  guint i;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (sample != NULL, FALSE);

  i = adbscope_series_lower_bound (self, time_us);
  if (i < self->length)
    best = adbscope_series_get (self, i);
  if (i > 0)
    {
      const AdbscopeSample *before = adbscope_series_get (self, i - 1);

      if (best == NULL || time_us - before->time_us <= best->time_us - time_us)
        best = before;
    }

  if (best == NULL || ABS (best->time_us - time_us) > max_distance_us)
    return FALSE;

  *sample = *best;
  return TRUE;
}

static void
stats_from_values (double              *values,
                   guint                n,
                   double               sum,
                   AdbscopeSeriesStats *stats)
{
  stats->n = n;

  if (n == 0)
    {
      stats->avg = stats->min = stats->max = NAN;
      stats->p50 = stats->p90 = stats->p99 = NAN;
      return;
    }

  qsort (values, n, sizeof (double), adbscope_compare_double);
  stats->avg = sum / n;
  stats->min = values[0];
  stats->max = values[n - 1];
  stats->p50 = adbscope_percentile_nearest_rank (values, n, 50);
  stats->p90 = adbscope_percentile_nearest_rank (values, n, 90);
  stats->p99 = adbscope_percentile_nearest_rank (values, n, 99);
}

/**
 * adbscope_series_compute_stats_range:
 * @t0_us: first time included
 * @t1_us: last time included
 * @stats: (out): n, avg, min, max, p50, p90, p99 of the finite values
 *
 * NaN and infinite values are not counted.  Percentiles are nearest-rank
 * (see adbscope_percentile_nearest_rank()).
 *
 * Returns: whether any finite sample lies in [@t0_us, @t1_us]
 */
gboolean
adbscope_series_compute_stats_range (const AdbscopeSeries *self,
                                     gint64                t0_us,
                                     gint64                t1_us,
                                     AdbscopeSeriesStats  *stats)
{
  g_autofree double *scratch = NULL;
  double sum = 0;
  guint n = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);

  scratch = g_new (double, MAX (self->length, 1));
  for (guint i = adbscope_series_lower_bound (self, t0_us); i < self->length; i++)
    {
      const AdbscopeSample *s = adbscope_series_get (self, i);

      if (s->time_us > t1_us)
        break;
      if (!isfinite (s->value))
        continue;
      scratch[n++] = s->value;
      sum += s->value;
    }

  stats_from_values (scratch, n, sum, stats);

  return n > 0;
}

/**
 * adbscope_samples_compute_stats:
 * @samples: in time order
 *
 * The same statistics over a plain array (a whole run read from a
 * recording), for the samples in [@t0_us, @t1_us].
 */
gboolean
adbscope_samples_compute_stats (const AdbscopeSample *samples,
                                gsize                 n_samples,
                                gint64                t0_us,
                                gint64                t1_us,
                                AdbscopeSeriesStats  *stats)
{
  g_autofree double *scratch = g_new (double, MAX (n_samples, 1));
  gsize lo = 0, hi = n_samples;
  double sum = 0;
  guint n = 0;

  g_return_val_if_fail (stats != NULL, FALSE);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (samples[mid].time_us < t0_us)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize i = lo; i < n_samples && samples[i].time_us <= t1_us; i++)
    if (isfinite (samples[i].value))
      {
        scratch[n++] = samples[i].value;
        sum += samples[i].value;
      }
  stats_from_values (scratch, n, sum, stats);
  return n > 0;
}

/**
 * adbscope_series_compute_stats:
 *
 * Statistics over the whole ring; see adbscope_series_compute_stats_range().
 */
gboolean
adbscope_series_compute_stats (const AdbscopeSeries *self,
                               AdbscopeSeriesStats  *stats)
{
  return adbscope_series_compute_stats_range (self, G_MININT64, G_MAXINT64, stats);
}
