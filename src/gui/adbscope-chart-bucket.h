/* adbscope-chart-bucket.h: samples → pixel columns, and axis tick layout
 *
 * GTK-free on purpose: the chart layers draw from these results, and the
 * tests check them without a display.
 */
#pragma once

#include <glib.h>

#include "adbscope-run.h"
#include "adbscope-series.h"

G_BEGIN_DECLS

/* Two consecutive samples farther apart than this many measured intervals
 * have a missing stretch between them. */
#define ADBSCOPE_CHART_GAP_FACTOR 2.5

#define ADBSCOPE_CHART_MAX_TICKS 64

/* One pixel column of a time chart.  min/max/first/last are NaN when
 * count is 0. */
typedef struct
{
  double   min;
  double   max;
  double   first;  /* where the line enters the column */
  double   last;   /* where it leaves */
  double   sum;
  guint    count;  /* finite samples in the column */
  gboolean gap;    /* no finite sample and inside a missing stretch: break the line */
} AdbscopeChartBucket;

typedef struct
{
  double   value;       /* the value; time ticks: the offset from the end in µs (≤ 0), or on a
                         * run's clock the time since its start */
  double   pos;         /* along the axis, px: x from the left, y from the top */
  double   label_pos;   /* where the label starts along the axis */
  double   label_size;  /* the label's extent along the axis */
  gboolean show_label;  /* FALSE when it would collide or not fit */
  char     label[32];
} AdbscopeChartTick;

/* Width (or height) of @text in px, so tests can pass a fake measure. */
typedef double (*AdbscopeChartMeasureFunc) (const char *text,
                                            gpointer    user_data);

void   adbscope_chart_bucket_spans  (const AdbscopeSeriesSpans *spans,
                                     gint64                     t0_us,
                                     gint64                     t1_us,
                                     gint64                     interval_us,
                                     AdbscopeChartBucket       *buckets,
                                     guint                      width);
void   adbscope_chart_bucket_series (const AdbscopeSeries      *series,
                                     gint64                     t0_us,
                                     gint64                     t1_us,
                                     gint64                     interval_us,
                                     AdbscopeChartBucket       *buckets,
                                     guint                      width);
void   adbscope_chart_bucket_rows   (const AdbscopeRunBucket   *rows,
                                     guint                      n_rows,
                                     gint64                     t0_us,
                                     gint64                     t1_us,
                                     gint64                     interval_us,
                                     AdbscopeChartBucket       *buckets,
                                     guint                      width);
void   adbscope_chart_bucket_merge  (AdbscopeChartBucket       *buckets,
                                     const AdbscopeChartBucket *more,
                                     guint                      width);

/* Where the line through a row of buckets runs in each pixel column: from
 * top to bottom in px down from the plot's top (top > bottom: nothing). */
typedef struct
{
  float top;
  float bottom;
} AdbscopeChartColumn;

void   adbscope_chart_line_columns  (const AdbscopeChartBucket *buckets,
                                     guint                      width,
                                     double                     height,
                                     double                     min,
                                     double                     max,
                                     AdbscopeChartColumn       *columns);

double adbscope_chart_nice_step     (double                     raw);
void   adbscope_chart_auto_range    (double                     data_min,
                                     double                     data_max,
                                     double                    *range_min,
                                     double                    *range_max);
guint  adbscope_chart_value_ticks   (double                     min,
                                     double                     max,
                                     double                     length,
                                     double                     label_height,
                                     AdbscopeChartTick         *ticks,
                                     guint                      max_ticks);
guint  adbscope_chart_time_ticks    (gint64                     t0_us,
                                     gint64                     t1_us,
                                     double                     length,
                                     AdbscopeChartMeasureFunc   measure,
                                     gpointer                   user_data,
                                     AdbscopeChartTick         *ticks,
                                     guint                      max_ticks);
guint  adbscope_chart_elapsed_ticks (gint64                     t0_us,
                                     gint64                     t1_us,
                                     double                     length,
                                     AdbscopeChartMeasureFunc   measure,
                                     gpointer                   user_data,
                                     AdbscopeChartTick         *ticks,
                                     guint                      max_ticks);
void   adbscope_chart_format_elapsed (gint64                    elapsed_us,
                                      gboolean                  long_form,
                                      char                     *buf,
                                      gsize                     size);
void   adbscope_chart_layout_labels (AdbscopeChartTick         *ticks,
                                     guint                      n_ticks,
                                     double                     length,
                                     double                     min_gap);
void   adbscope_chart_format_value  (double                     value,
                                     double                     step,
                                     char                      *buf,
                                     gsize                      size);

/* How a series' unit (the series table's unit column) is written on an
 * axis: values divided by @scale, followed by @suffix ("%", " MiB"). */
typedef struct
{
  double scale;
  char   suffix[16];
} AdbscopeChartAxisUnit;

void   adbscope_chart_axis_unit     (const char                *unit,
                                     double                     max_abs,
                                     AdbscopeChartAxisUnit     *out);
void   adbscope_chart_unit_range    (const char                *unit,
                                     double                     data_min,
                                     double                     data_max,
                                     double                    *range_min,
                                     double                    *range_max);
guint  adbscope_chart_unit_ticks    (const char                *unit,
                                     double                     min,
                                     double                     max,
                                     double                     length,
                                     double                     label_height,
                                     AdbscopeChartTick         *ticks,
                                     guint                      max_ticks);
void   adbscope_chart_format_with_unit (double                  value,
                                        const char             *unit,
                                        GString                *text);

G_END_DECLS
