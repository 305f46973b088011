/* adbscope-chart-bucket.c: samples → pixel columns, and axis tick layout
 *
 * A chart never draws one segment per sample: 900 samples squeezed into 200
 * px would lose a one-second spike to whichever sample lands on the pixel.
 * Each pixel column instead keeps min, max, first and last of the samples it
 * covers, and the layers draw min..max as a vertical segment, so a spike
 * shows at any width.  A column with no finite sample inside a stretch where
 * samples are missing is a gap: the line breaks there and never drops to 0.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-chart-bucket.h"

static inline const AdbscopeSample *
span_at (const AdbscopeSeriesSpans *spans,
         guint                      i)
{
  return i < spans->n_first ? &spans->first[i] : &spans->second[i - spans->n_first];
}

static guint
span_lower_bound (const AdbscopeSeriesSpans *spans,
                  gint64                     time_us)
{
  guint lo = 0;
  guint hi = spans->n_first + spans->n_second;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (span_at (spans, mid)->time_us < time_us)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* May be outside 0..width-1 for samples outside the window. */
static inline gint64
column_of (gint64 time_us,
           gint64 t0_us,
           gint64 t1_us,
           guint  width)
{
  double x;

  if (time_us < t0_us)
    return -1;
  if (time_us > t1_us)
    return width;

  /* The window's end belongs to the last column, not past it. */
  /* Multiply before dividing: exact for sample times on column edges. */
  x = floor ((double)(time_us - t0_us) * width / (double)(t1_us - t0_us));
  return CLAMP ((gint64)x, 0, (gint64)width - 1);
}

static inline void
mark_missing (AdbscopeChartBucket *buckets,
              guint                width,
              gint64               from,
              gint64               to)
{
  from = MAX (from, 0);
  to = MIN (to, (gint64)width - 1);
  for (gint64 c = from; c <= to; c++)
    buckets[c].gap = TRUE;
}

/**
 * adbscope_chart_bucket_spans:
 * @spans: the series' samples, oldest first, times sorted
 * @t0_us: time at the left edge of column 0
 * @t1_us: time at the right edge of the last column (included)
 * @interval_us: the measured sampling interval; 0 when unknown, then only
 *   NaN samples make gaps
 * @buckets: (out caller-allocates) (array length=width): the columns
 * @width: number of columns (pixels)
 *
 * Column c covers [t0 + c·Δ, t0 + (c+1)·Δ) with Δ = (t1 − t0) / width.
 * A column is a gap when it holds no finite sample and lies inside a
 * missing stretch: around a NaN sample, or between two samples more than
 * %ADBSCOPE_CHART_GAP_FACTOR × @interval_us apart.  Empty columns that are
 * not gaps (zoomed in further than one sample a pixel) are bridged by the
 * line.
 */
void
adbscope_chart_bucket_spans (const AdbscopeSeriesSpans *spans,
                             gint64                     t0_us,
                             gint64                     t1_us,
                             gint64                     interval_us,
                             AdbscopeChartBucket       *buckets,
                             guint                      width)
{
  const AdbscopeSample *prev = NULL;
  gint64 prev_col = 0;
  double max_step_us;
  guint n;
  guint i;

  g_return_if_fail (spans != NULL);
  g_return_if_fail (buckets != NULL || width == 0);

  for (i = 0; i < width; i++)
    {
      buckets[i].min = buckets[i].max = NAN;
      buckets[i].first = buckets[i].last = NAN;
      buckets[i].sum = 0;
      buckets[i].count = 0;
      buckets[i].gap = FALSE;  /* "inside a missing stretch" until the end */
    }

  if (width == 0 || t1_us <= t0_us)
    return;

  max_step_us = interval_us > 0 ? ADBSCOPE_CHART_GAP_FACTOR * (double)interval_us : INFINITY;
  n = spans->n_first + spans->n_second;

  /* Start one sample early: a missing stretch may begin before t0. */
  i = span_lower_bound (spans, t0_us);
  if (i > 0)
    i--;

  for (; i < n; i++)
    {
      const AdbscopeSample *s = span_at (spans, i);
      gint64 col = column_of (s->time_us, t0_us, t1_us, width);
      gboolean finite = isfinite (s->value);

      if (finite)
        {
          if (col >= 0 && col < width)
            {
              AdbscopeChartBucket *b = &buckets[col];

              if (b->count == 0)
                {
                  b->min = b->max = b->first = s->value;
                }
              else
                {
                  if (s->value < b->min)
                    b->min = s->value;
                  if (s->value > b->max)
                    b->max = s->value;
                }
              b->last = s->value;
              b->sum += s->value;
              b->count++;
            }
        }
      else
        {
          mark_missing (buckets, width, col, col);
        }

      if (prev != NULL &&
          (!finite || !isfinite (prev->value) ||
           (double)(s->time_us - prev->time_us) > max_step_us))
        mark_missing (buckets, width, prev_col, col);

      /* One sample past the window closes a stretch that began inside it. */
      if (s->time_us > t1_us)
        break;

      prev = s;
      prev_col = col;
    }

  for (i = 0; i < width; i++)
    buckets[i].gap = buckets[i].gap && buckets[i].count == 0;
}

/**
 * adbscope_chart_bucket_series:
 *
 * adbscope_chart_bucket_spans() over a whole series.
 */
void
adbscope_chart_bucket_series (const AdbscopeSeries *series,
                              gint64                t0_us,
                              gint64                t1_us,
                              gint64                interval_us,
                              AdbscopeChartBucket  *buckets,
                              guint                 width)
{
  AdbscopeSeriesSpans spans;

  g_return_if_fail (series != NULL);

  adbscope_series_get_spans (series, &spans);
  adbscope_chart_bucket_spans (&spans, t0_us, t1_us, interval_us, buckets, width);
}

/* The stretch of the segment (x0, y0)–(x1, y1) inside each column it
 * crosses, x0 ≤ x1. */
static void
columns_add_segment (AdbscopeChartColumn *columns,
                     guint                width,
                     double               x0,
                     double               y0,
                     double               x1,
                     double               y1)
{
  double slope = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0;

  for (guint k = (guint) x0; k < width && k <= (guint) x1; k++)
    {
      double ya = y0 + (MAX (x0, k) - x0) * slope;
      double yb = y0 + (MIN (x1, k + 1.0) - x0) * slope;

      columns[k].top = MIN (columns[k].top, MIN (ya, yb));
      columns[k].bottom = MAX (columns[k].bottom, MAX (ya, yb));
    }
}

/**
 * adbscope_chart_line_columns:
 * @columns: (out caller-allocates) (array length=width)
 *
 * The line through @buckets (each at its column's centre: in at its first
 * sample, down to min, up to max, out at its last) as one vertical run per
 * pixel column, which is what the chart layers draw: a spike inside a
 * column reaches its max there.  Columns without samples between two that
 * have some carry the straight line across; a gap column breaks it, and
 * draws nothing.
 */
void
adbscope_chart_line_columns (const AdbscopeChartBucket *buckets,
                             guint                      width,
                             double                     height,
                             double                     min,
                             double                     max,
                             AdbscopeChartColumn       *columns)
{
  double scale = height / (max - min);
  double last_x = 0, last_y = 0;
  gboolean connected = FALSE;

  g_return_if_fail (width == 0 || (buckets != NULL && columns != NULL));

#define Y(v) ((max - (v)) * scale)

  for (guint c = 0; c < width; c++)
    {
      columns[c].top = INFINITY;
      columns[c].bottom = -INFINITY;
    }
  for (guint c = 0; c < width; c++)
    {
      const AdbscopeChartBucket *b = &buckets[c];
      double x = c + 0.5;

      if (b->gap)
        {
          connected = FALSE;
          continue;
        }
      if (b->count == 0)
        continue;

      if (connected)
        columns_add_segment (columns, width, last_x, last_y, x, Y (b->first));
      columns[c].top = MIN (columns[c].top, Y (MAX (b->max, MAX (b->first, b->last))));
      columns[c].bottom = MAX (columns[c].bottom, Y (MIN (b->min, MIN (b->first, b->last))));
      last_x = x;
      last_y = Y (b->last);
      connected = TRUE;
    }

#undef Y
}

static void
bucket_add (AdbscopeChartBucket *b,
            double               min,
            double               max,
            double               first,
            double               last,
            double               sum,
            guint                count)
{
  if (b->count == 0)
    {
      b->min = min;
      b->max = max;
      b->first = first;
    }
  else
    {
      b->min = MIN (b->min, min);
      b->max = MAX (b->max, max);
    }
  b->last = last;
  b->sum += sum;
  b->count += count;
}

/**
 * adbscope_chart_bucket_rows:
 * @rows: (array length=n_rows): time ranges in time order, as a recording
 *   reader returns them: samples (width 0) or level-of-detail buckets
 *
 * adbscope_chart_bucket_spans() for ranges: a row's min and max go into
 * the column where it starts (or the first column, for one that began
 * before @t0_us), its mean is where the line enters and leaves it.  A row
 * without a finite value, or a stretch between two rows longer than
 * %ADBSCOPE_CHART_GAP_FACTOR × the wider of @interval_us and the row's own
 * width, is a gap.  Pass the row before the window too, so a missing
 * stretch that began before it is seen.
 */
void
adbscope_chart_bucket_rows (const AdbscopeRunBucket *rows,
                            guint                    n_rows,
                            gint64                   t0_us,
                            gint64                   t1_us,
                            gint64                   interval_us,
                            AdbscopeChartBucket     *buckets,
                            guint                    width)
{
  static const AdbscopeSeriesSpans none = { 0 };
  const AdbscopeRunBucket *prev = NULL;
  gint64 prev_col = 0;

  g_return_if_fail (rows != NULL || n_rows == 0);

  adbscope_chart_bucket_spans (&none, t0_us, t1_us, interval_us, buckets, width);
  if (width == 0 || t1_us <= t0_us)
    return;

  for (guint i = 0; i < n_rows; i++)
    {
      const AdbscopeRunBucket *r = &rows[i];
      gint64 end = r->t_us + r->width_us;
      gint64 col = end < t0_us ? -1 : column_of (MAX (r->t_us, t0_us), t0_us, t1_us, width);
      double step = ADBSCOPE_CHART_GAP_FACTOR * (double) MAX (interval_us, r->width_us);

      if (r->n > 0 && col >= 0 && col < width)
        bucket_add (&buckets[col], r->min, r->max, r->avg, r->avg, r->avg * r->n, r->n);
      else if (r->n == 0)
        mark_missing (buckets, width, col, col);

      if (prev != NULL &&
          (r->n == 0 || prev->n == 0 || (double) (r->t_us - prev->t_us - prev->width_us) > step))
        mark_missing (buckets, width, prev_col, col);
      if (r->t_us > t1_us)
        break;
      prev = r;
      prev_col = col;
    }

  for (guint c = 0; c < width; c++)
    buckets[c].gap = buckets[c].gap && buckets[c].count == 0;
}

/**
 * adbscope_chart_bucket_merge:
 * @more: (array length=width): columns of the same window from another
 *   stretch of the same series (later in time than @buckets' samples)
 *
 * Adds @more into @buckets column by column.
 */
void
adbscope_chart_bucket_merge (AdbscopeChartBucket       *buckets,
                             const AdbscopeChartBucket *more,
                             guint                      width)
{
  for (guint c = 0; c < width; c++)
    {
      const AdbscopeChartBucket *m = &more[c];

      if (m->count > 0)
        bucket_add (&buckets[c], m->min, m->max, m->first, m->last, m->sum, m->count);
      buckets[c].gap = (buckets[c].gap || m->gap) && buckets[c].count == 0;
    }
}

/**
 * adbscope_chart_nice_step:
 *
 * Returns: the smallest 1, 2 or 5 × 10ⁿ that is ≥ @raw
 */
double
adbscope_chart_nice_step (double raw)
{
  double magnitude;
  double f;

  if (!(raw > 0) || !isfinite (raw))
    return 1;

  magnitude = pow (10, floor (log10 (raw)));
  f = raw / magnitude;
  /* Tolerate rounding in raw / magnitude (2.0000000001 is 2). */
  if (f <= 1 + 1e-9)
    return magnitude;
  if (f <= 2 + 1e-9)
    return 2 * magnitude;
  if (f <= 5 + 1e-9)
    return 5 * magnitude;
  return 10 * magnitude;
}

/**
 * adbscope_chart_auto_range:
 *
 * A value range for data in [@data_min, @data_max]: from 0 (or below when
 * the data is negative) up to the next nice step above the maximum, so the
 * top tick is labelled and a spike does not touch the frame.
 */
void
adbscope_chart_auto_range (double  data_min,
                           double  data_max,
                           double *range_min,
                           double *range_max)
{
  double lo = isfinite (data_min) ? MIN (data_min, 0) : 0;
  double hi = isfinite (data_max) ? MAX (data_max, 0) : 0;
  double step;

  if (hi - lo <= 0)
    hi = lo + 1;

  step = adbscope_chart_nice_step ((hi - lo) / 4);
  *range_min = floor (lo / step) * step;
  *range_max = ceil (hi / step) * step;
  if (*range_max <= *range_min)
    *range_max = *range_min + step;
}

/**
 * adbscope_chart_format_value:
 * @step: the tick step, which decides the decimals
 */
void
adbscope_chart_format_value (double value,
                             double step,
                             char  *buf,
                             gsize  size)
{
  int decimals = 0;

  if (step > 0 && step < 1)
    decimals = (int)ceil (-log10 (step) - 1e-9);
  if (fabs (value) < step * 1e-6)
    value = 0;  /* no "-0" */

  if (fabs (value) >= 10000 && step >= 1000)
    g_snprintf (buf, size, "%gk", value / 1000);
  else
    g_snprintf (buf, size, "%.*f", decimals, value);
}

/**
 * adbscope_chart_layout_labels:
 * @ticks: ticks with pos and label_size set, most important first
 * @length: the axis length in px
 * @min_gap: free space to keep between two labels
 *
 * Centres each label on its tick, pulls labels at the edges inside the axis,
 * and hides a label that does not fit or would come closer than @min_gap to
 * one already placed.  Earlier ticks win.
 */
void
adbscope_chart_layout_labels (AdbscopeChartTick *ticks,
                              guint              n_ticks,
                              double             length,
                              double             min_gap)
{
  for (guint i = 0; i < n_ticks; i++)
    {
      AdbscopeChartTick *t = &ticks[i];

      t->show_label = FALSE;
      if (t->label[0] == '\0' || t->label_size > length || t->pos < 0 || t->pos > length)
        continue;

      t->label_pos = CLAMP (t->pos - t->label_size / 2, 0, length - t->label_size);
      t->show_label = TRUE;
      for (guint j = 0; j < i; j++)
        {
          const AdbscopeChartTick *o = &ticks[j];

          if (o->show_label &&
              t->label_pos < o->label_pos + o->label_size + min_gap &&
              o->label_pos < t->label_pos + t->label_size + min_gap)
            {
              t->show_label = FALSE;
              break;
            }
        }
    }
}

/**
 * adbscope_chart_value_ticks:
 * @length: the axis height in px (min at the bottom, max at the top)
 * @label_height: height of one label in px
 *
 * Ticks at multiples of a 1/2/5 × 10ⁿ step, about 2.5 label heights apart.
 *
 * Returns: the number of ticks written
 */
guint
adbscope_chart_value_ticks (double             min,
                            double             max,
                            double             length,
                            double             label_height,
                            AdbscopeChartTick *ticks,
                            guint              max_ticks)
{
  double target;
  double step;
  guint n = 0;

  g_return_val_if_fail (ticks != NULL || max_ticks == 0, 0);

  if (!(max > min) || !isfinite (min) || !isfinite (max) || length <= 0 || max_ticks == 0)
    return 0;

  target = MAX (1, floor (length / MAX (label_height * 2.5, 1)));
  step = adbscope_chart_nice_step ((max - min) / target);
  while ((max - min) / step + 1 > max_ticks)
    step = adbscope_chart_nice_step (step * 1.5);

  for (double v = ceil (min / step - 1e-9) * step; v <= max + step * 1e-9 && n < max_ticks; v += step)
    {
      AdbscopeChartTick *t = &ticks[n++];

      t->value = v;
      t->pos = length * (max - v) / (max - min);
      t->label_size = label_height;
      adbscope_chart_format_value (v, step, t->label, sizeof t->label);
    }

  adbscope_chart_layout_labels (ticks, n, length, 0);

  return n;
}

static const guint time_steps_s[] = {
  1, 2, 5, 10, 15, 30,
  60, 2 * 60, 5 * 60, 10 * 60, 15 * 60, 30 * 60,
  3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600,
};

static void
format_offset (guint  offset_s,
               guint  step_s,
               char  *buf,
               gsize  size)
{
  if (offset_s == 0)
    /* Translators: the right end of a time axis */
    g_strlcpy (buf, _("now"), size);
  else if (step_s < 60)
    /* Translators: time axis label, seconds before now */
    g_snprintf (buf, size, _("-%u s"), offset_s);
  else if (step_s < 3600)
    /* Translators: time axis label, minutes before now */
    g_snprintf (buf, size, _("-%u min"), offset_s / 60);
  else
    /* Translators: time axis label, hours before now */
    g_snprintf (buf, size, _("-%u h"), offset_s / 3600);
}

static guint
fill_time_ticks (gint64                   t0_us,
                 gint64                   t1_us,
                 double                   length,
                 guint                    step_s,
                 AdbscopeChartMeasureFunc measure,
                 gpointer                 user_data,
                 AdbscopeChartTick       *ticks,
                 guint                    max_ticks)
{
  double span_us = (double)(t1_us - t0_us);
  guint n = 0;

  for (guint k = 0; n < max_ticks; k++)
    {
      double offset_us = (double)k * step_s * G_USEC_PER_SEC;
      AdbscopeChartTick *t;

      if (offset_us > span_us)
        break;

      t = &ticks[n++];
      t->value = -offset_us;
      t->pos = length * (span_us - offset_us) / span_us;
      format_offset (k * step_s, step_s, t->label, sizeof t->label);
      t->label_size = measure (t->label, user_data);
    }

  return n;
}

/* A label centred on its tick would stick out of the axis. */
static gboolean
label_at_edge (const AdbscopeChartTick *t,
               double                   length)
{
  return t->pos - t->label_size / 2 < 0 || t->pos + t->label_size / 2 > length;
}

/* The labels of a time axis.  The step leaves room between labels centred
 * on their ticks; a label at an end of the axis is pulled inside it, and
 * so comes closer to its neighbour than that.  Given the first say, as in
 * adbscope_chart_layout_labels(), it hid the neighbour: "0:15, 0:30, 1:00"
 * without 0:45, a hole that reads as a missing tick.  So the labels at the
 * ends give way to the evenly spaced ones, except the first when
 * @keep_first (the live axis's "now", which is always at the end: the
 * step must then leave room for it, the caller's check).
 *
 * Returns: whether every label not at an end is shown */
static gboolean
layout_time_labels (AdbscopeChartTick *ticks,
                    guint              n_ticks,
                    double             length,
                    double             min_gap,
                    gboolean           keep_first)
{
  AdbscopeChartTick *ranked = g_newa (AdbscopeChartTick, MAX (n_ticks, 1));
  guint *rank = g_newa (guint, MAX (n_ticks, 1));
  gboolean all_inner = TRUE;
  guint k = 0;

  /* "now" (when kept), the labels centred on their ticks, then the ends' */
  for (int pass = 0; pass < 3; pass++)
    for (guint i = 0; i < n_ticks; i++)
      {
        int which = keep_first && i == 0 ? 0 : label_at_edge (&ticks[i], length) ? 2 : 1;

        if (which == pass)
          {
            rank[i] = k;
            ranked[k++] = ticks[i];
          }
      }
  adbscope_chart_layout_labels (ranked, n_ticks, length, min_gap);
  for (guint i = 0; i < n_ticks; i++)
    {
      ticks[i] = ranked[rank[i]];
      if (!ticks[i].show_label && ticks[i].label[0] != '\0' && !label_at_edge (&ticks[i], length))
        all_inner = FALSE;
    }
  return all_inner;
}

/**
 * adbscope_chart_time_ticks:
 * @t0_us: time at the left edge
 * @t1_us: "now", the right edge; ticks count back from it
 * @length: axis width in px
 * @measure: the width of a label
 *
 * Picks the smallest step from 1 s to 24 h whose tick spacing leaves room
 * for the widest label, lays ticks out at now, −step, −2·step, … and hides
 * labels that would collide or not fit.  Labels are relative ("-5 min").
 *
 * Returns: the number of ticks written, newest first
 */
guint
adbscope_chart_time_ticks (gint64                   t0_us,
                           gint64                   t1_us,
                           double                   length,
                           AdbscopeChartMeasureFunc measure,
                           gpointer                 user_data,
                           AdbscopeChartTick       *ticks,
                           guint                    max_ticks)
{
  const double padding = 12;
  double span_us;
  guint n = 0;

  g_return_val_if_fail (measure != NULL, 0);
  g_return_val_if_fail (ticks != NULL || max_ticks == 0, 0);

  if (t1_us <= t0_us || length <= 0 || max_ticks == 0)
    return 0;

  span_us = (double)(t1_us - t0_us);
  for (guint s = 0; s < G_N_ELEMENTS (time_steps_s); s++)
    {
      guint step_s = time_steps_s[s];
      double spacing = length * step_s * G_USEC_PER_SEC / span_us;
      double widest = 0;
      gboolean last_step = s + 1 == G_N_ELEMENTS (time_steps_s);

      if (span_us / (step_s * (double)G_USEC_PER_SEC) + 1 > max_ticks && !last_step)
        continue;

      n = fill_time_ticks (t0_us, t1_us, length, step_s, measure, user_data, ticks, max_ticks);
      /* "now" is shorter than the rest; skip it when finding the widest. */
      for (guint i = 1; i < n; i++)
        widest = MAX (widest, ticks[i].label_size);

      /* …and room beside "now", pulled inside the axis by half its width */
      if ((spacing >= widest + padding && layout_time_labels (ticks, n, length, padding / 2, TRUE)) || last_step)
        break;
    }

  layout_time_labels (ticks, n, length, padding / 2, TRUE);

  return n;
}

/**
 * adbscope_chart_format_elapsed:
 * @elapsed_us: time since the run's start
 * @long_form: always hours ("0:05:00"), for a run of an hour or more
 *
 * A run's clock: "1:23:45", or "5:07" under an hour.
 */
void
adbscope_chart_format_elapsed (gint64    elapsed_us,
                               gboolean  long_form,
                               char     *buf,
                               gsize     size)
{
  gint64 s = MAX (elapsed_us, 0) / G_USEC_PER_SEC;

  if (long_form || s >= 3600)
    g_snprintf (buf, size, "%d:%02d:%02d", (int) (s / 3600), (int) (s / 60 % 60), (int) (s % 60));
  else
    g_snprintf (buf, size, "%d:%02d", (int) (s / 60), (int) (s % 60));
}

static guint
fill_elapsed_ticks (gint64                   t0_us,
                    gint64                   t1_us,
                    double                   length,
                    guint                    step_s,
                    AdbscopeChartMeasureFunc measure,
                    gpointer                 user_data,
                    AdbscopeChartTick       *ticks,
                    guint                    max_ticks)
{
  gint64 step_us = (gint64) step_s * G_USEC_PER_SEC;
  gint64 t = MAX (t1_us, 0) / step_us * step_us;
  double span_us = (double) (t1_us - t0_us);
  guint n = 0;

  /* newest first, like the live axis (but its labels at the ends give
   * way to the others: layout_time_labels()) */
  for (; t >= t0_us && t >= 0 && n < max_ticks; t -= step_us)
    {
      AdbscopeChartTick *tick = &ticks[n++];

      tick->value = (double) t;
      tick->pos = length * (double) (t - t0_us) / span_us;
      adbscope_chart_format_elapsed (t, t1_us >= (gint64) 3600 * G_USEC_PER_SEC, tick->label, sizeof tick->label);
      tick->label_size = measure (tick->label, user_data);
    }
  return n;
}

/**
 * adbscope_chart_elapsed_ticks:
 * @t0_us: time since the run's start at the left edge
 * @t1_us: … at the right edge
 *
 * The axis of a recording: ticks at whole multiples of the smallest step
 * from 1 s to 24 h that leaves room for the widest label, labelled with
 * the run's clock (adbscope_chart_format_elapsed()), never "now".
 *
 * Returns: the number of ticks written, newest first
 */
guint
adbscope_chart_elapsed_ticks (gint64                   t0_us,
                              gint64                   t1_us,
                              double                   length,
                              AdbscopeChartMeasureFunc measure,
                              gpointer                 user_data,
                              AdbscopeChartTick       *ticks,
                              guint                    max_ticks)
{
  const double padding = 12;
  double span_us;
  guint n = 0;

  g_return_val_if_fail (measure != NULL, 0);
  g_return_val_if_fail (ticks != NULL || max_ticks == 0, 0);

  if (t1_us <= t0_us || length <= 0 || max_ticks == 0)
    return 0;

  span_us = (double) (t1_us - t0_us);
  for (guint s = 0; s < G_N_ELEMENTS (time_steps_s); s++)
    {
      guint step_s = time_steps_s[s];
      double spacing = length * step_s * G_USEC_PER_SEC / span_us;
      double widest = 0;
      gboolean last_step = s + 1 == G_N_ELEMENTS (time_steps_s);

      if (span_us / (step_s * (double) G_USEC_PER_SEC) + 1 > max_ticks && !last_step)
        continue;
      n = fill_elapsed_ticks (t0_us, t1_us, length, step_s, measure, user_data, ticks, max_ticks);
      for (guint i = 0; i < n; i++)
        widest = MAX (widest, ticks[i].label_size);
      if (spacing >= widest + padding || last_step)
        break;
    }

  /* the labels at the ends give way, so the step does not change as the
   * window scrolls and a tick comes near an end */
  layout_time_labels (ticks, n, length, padding / 2, FALSE);
  return n;
}

/**
 * adbscope_chart_axis_unit:
 * @unit: (nullable): the series table's unit ("kB", "B/s", "%", "mW", …)
 * @max_abs: the largest magnitude the axis shows, in @unit
 *
 * Memory (kB in the table, KiB on the phone) is shown in KiB, MiB or GiB
 * like g_format_size_full (…, G_FORMAT_SIZE_IEC_UNITS) beside the title;
 * rates in B/s, kB/s, MB/s like g_format_size(); anything else in its own
 * unit.
 */
void
adbscope_chart_axis_unit (const char            *unit,
                          double                 max_abs,
                          AdbscopeChartAxisUnit *out)
{
  static const char * const iec[] = { " KiB", " MiB", " GiB", " TiB" };
  static const char * const si[] = { " B/s", " kB/s", " MB/s", " GB/s" };
  guint k = 0;

  out->scale = 1;
  out->suffix[0] = '\0';
  if (unit == NULL || *unit == '\0')
    return;

  if (strcmp (unit, "kB") == 0)
    {
      while (k + 1 < G_N_ELEMENTS (iec) && max_abs >= 1024 * out->scale)
        out->scale *= 1024, k++;
      g_strlcpy (out->suffix, iec[k], sizeof out->suffix);
    }
  else if (strcmp (unit, "B/s") == 0)
    {
      while (k + 1 < G_N_ELEMENTS (si) && max_abs >= 1000 * out->scale)
        out->scale *= 1000, k++;
      g_strlcpy (out->suffix, si[k], sizeof out->suffix);
    }
  else if (strcmp (unit, "%") == 0)
    g_strlcpy (out->suffix, "%", sizeof out->suffix);
  else
    g_snprintf (out->suffix, sizeof out->suffix, " %s", unit);
}

/**
 * adbscope_chart_unit_range:
 *
 * adbscope_chart_auto_range() in the axis unit, so the top of a memory
 * axis is a round number of MiB, not of kB.
 */
void
adbscope_chart_unit_range (const char *unit,
                           double      data_min,
                           double      data_max,
                           double     *range_min,
                           double     *range_max)
{
  AdbscopeChartAxisUnit u;
  double big = MAX (isfinite (data_min) ? fabs (data_min) : 0, isfinite (data_max) ? fabs (data_max) : 0);

  adbscope_chart_axis_unit (unit, big, &u);
  adbscope_chart_auto_range (data_min / u.scale, data_max / u.scale, range_min, range_max);
  /* Bytes come whole: an idle rate axis reads 0–4 B/s, not 0–1 in halves. */
  if (unit != NULL && (strcmp (unit, "B/s") == 0 || strcmp (unit, "kB") == 0) && *range_max - *range_min < 4)
    *range_max = *range_min + 4;
  *range_min *= u.scale;
  *range_max *= u.scale;
}

/**
 * adbscope_chart_unit_ticks:
 *
 * adbscope_chart_value_ticks() with labels in the axis unit ("50%",
 * "256 MiB", "1.5 MB/s"); tick values stay in the series' unit.
 */
guint
adbscope_chart_unit_ticks (const char        *unit,
                           double             min,
                           double             max,
                           double             length,
                           double             label_height,
                           AdbscopeChartTick *ticks,
                           guint              max_ticks)
{
  AdbscopeChartAxisUnit u;
  guint n;

  adbscope_chart_axis_unit (unit, MAX (fabs (min), fabs (max)), &u);
  n = adbscope_chart_value_ticks (min / u.scale, max / u.scale, length, label_height, ticks, max_ticks);
  for (guint i = 0; i < n; i++)
    {
      ticks[i].value *= u.scale;
      g_strlcat (ticks[i].label, u.suffix, sizeof ticks[i].label);
    }
  return n;
}

/**
 * adbscope_chart_format_with_unit:
 *
 * A value as the card beside the chart's title and the chart's tooltip
 * write it: memory as "1.2 GiB", rates as "3.4 MB/s", else "23.4%" or
 * "512 mW".
 */
void
adbscope_chart_format_with_unit (double      value,
                                 const char *unit,
                                 GString    *text)
{
  if (unit == NULL)
    unit = "";

  if (strcmp (unit, "kB") == 0)
    {
      g_autofree char *size = g_format_size_full ((guint64) MAX (value, 0) * 1024, G_FORMAT_SIZE_IEC_UNITS);
      g_string_append (text, size);
    }
  else if (strcmp (unit, "B/s") == 0)
    {
      g_autofree char *size = g_format_size ((guint64) MAX (value, 0));
      /* Translators: a data rate, %s is a size like "1.2 MB" */
      g_string_append_printf (text, _("%s/s"), size);
    }
  else
    g_string_append_printf (text, fabs (value) >= 100 || *unit == '\0' ? "%.0f%s%s" : "%.1f%s%s",
                            value, *unit && *unit != '%' ? " " : "", unit);
}
