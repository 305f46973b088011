/* adbscope-series.h: a fixed-capacity ring buffer of (time, value) samples
 *
 * One series per metric.  Times are monotonic microseconds and must not go
 * backwards; a NaN value is "no sample here" (a gap), never zero.
 */
#pragma once

#include <glib-object.h>

#include "adbscope-stats.h"

G_BEGIN_DECLS

/* 24 h at one sample a second. */
#define ADBSCOPE_SERIES_MAX_CAPACITY 86400

#define ADBSCOPE_TYPE_SERIES (adbscope_series_get_type ())

typedef struct _AdbscopeSeries AdbscopeSeries;

typedef struct
{
  gint64 time_us;
  double value;
} AdbscopeSample;

/* The ring seen as two contiguous runs, oldest first: first[0..n_first)
 * then second[0..n_second).  Valid until the next push or clear. */
typedef struct
{
  const AdbscopeSample *first;
  guint                 n_first;
  const AdbscopeSample *second;
  guint                 n_second;
} AdbscopeSeriesSpans;

typedef struct
{
  guint  n;    /* finite samples counted; the rest are NaN when n == 0 */
  double avg;
  double min;
  double max;
  double p50;  /* nearest-rank percentiles: always a value that was sampled */
  double p90;
  double p99;
} AdbscopeSeriesStats;

GType                 adbscope_series_get_type        (void) G_GNUC_CONST;
AdbscopeSeries       *adbscope_series_new             (guint                capacity);
AdbscopeSeries       *adbscope_series_ref             (AdbscopeSeries      *self);
void                  adbscope_series_unref           (AdbscopeSeries      *self);
AdbscopeSeries       *adbscope_series_copy            (const AdbscopeSeries *self);
void                  adbscope_series_push            (AdbscopeSeries      *self,
                                                       gint64               time_us,
                                                       double               value);
void                  adbscope_series_clear           (AdbscopeSeries      *self);
guint                 adbscope_series_get_capacity    (const AdbscopeSeries *self);
guint                 adbscope_series_get_length      (const AdbscopeSeries *self);
guint64               adbscope_series_get_n_pushed    (const AdbscopeSeries *self);
const AdbscopeSample *adbscope_series_get             (const AdbscopeSeries *self,
                                                       guint                index_);
void                  adbscope_series_get_spans       (const AdbscopeSeries *self,
                                                       AdbscopeSeriesSpans *spans);
gboolean              adbscope_series_get_last        (const AdbscopeSeries *self,
                                                       gint64              *time_us,
                                                       double              *value);
gboolean              adbscope_series_get_last_finite (const AdbscopeSeries *self,
                                                       gint64              *time_us,
                                                       double              *value);
guint                 adbscope_series_lower_bound     (const AdbscopeSeries *self,
                                                       gint64               time_us);
gboolean              adbscope_series_find_nearest    (const AdbscopeSeries *self,
                                                       gint64               time_us,
                                                       gint64               max_distance_us,
                                                       AdbscopeSample      *sample);
gboolean              adbscope_series_compute_stats   (const AdbscopeSeries *self,
                                                       AdbscopeSeriesStats *stats);
gboolean              adbscope_series_compute_stats_range (const AdbscopeSeries *self,
                                                           gint64               t0_us,
                                                           gint64               t1_us,
                                                           AdbscopeSeriesStats *stats);
gboolean              adbscope_samples_compute_stats  (const AdbscopeSample *samples,
                                                       gsize                n_samples,
                                                       gint64               t0_us,
                                                       gint64               t1_us,
                                                       AdbscopeSeriesStats *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeSeries, adbscope_series_unref)

G_END_DECLS
