/* adbscope-chart-source.h: where a time chart layer reads one series from
 *
 * The layers never care whether the samples are a live ring buffer or a
 * recording on disk: they ask a source for the pixel columns of the time
 * window they draw, its value extent, the newest sample and the sample
 * nearest a time.  adbscope_chart_source_new_for_series() is the in-memory
 * source; AdbscopeRecordingSource reads a recording through its level of
 * detail.  GTK-free, so the tests check sources without a display.
 */
#pragma once

#include <glib-object.h>

#include "adbscope-chart-bucket.h"
#include "adbscope-series.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CHART_SOURCE (adbscope_chart_source_get_type ())

G_DECLARE_DERIVABLE_TYPE (AdbscopeChartSource, adbscope_chart_source, ADBSCOPE, CHART_SOURCE, GObject)

struct _AdbscopeChartSourceClass
{
  GObjectClass parent_class;

  /* Columns over [t0, t1], as adbscope_chart_bucket_spans() fills them:
   * every sample's extremes are in its column (or, read from a level of
   * detail coarser than a pixel, in the column where its bucket starts). */
  void     (*bucket)       (AdbscopeChartSource *self,
                            gint64               t0_us,
                            gint64               t1_us,
                            gint64               interval_us,
                            AdbscopeChartBucket *buckets,
                            guint                width);
  /* Finite min and max inside [t0, t1]. */
  gboolean (*get_extent)   (AdbscopeChartSource *self,
                            gint64               t0_us,
                            gint64               t1_us,
                            double              *min,
                            double              *max);
  /* The newest sample, or with @finite the newest finite one (a NaN
   * sample is a gap). */
  gboolean (*get_last)     (AdbscopeChartSource *self,
                            gboolean             finite,
                            gint64              *time_us,
                            double              *value);
  gboolean (*find_nearest) (AdbscopeChartSource *self,
                            gint64               time_us,
                            gint64               max_distance_us,
                            AdbscopeSample      *sample);

  gpointer padding[8];
};

AdbscopeChartSource *adbscope_chart_source_new_for_series (AdbscopeSeries      *series);
AdbscopeSeries      *adbscope_chart_source_get_series     (AdbscopeChartSource *self);
void                 adbscope_chart_source_bucket         (AdbscopeChartSource *self,
                                                           gint64               t0_us,
                                                           gint64               t1_us,
                                                           gint64               interval_us,
                                                           AdbscopeChartBucket *buckets,
                                                           guint                width);
gboolean             adbscope_chart_source_get_extent     (AdbscopeChartSource *self,
                                                           gint64               t0_us,
                                                           gint64               t1_us,
                                                           double              *min,
                                                           double              *max);
gboolean             adbscope_chart_source_get_last       (AdbscopeChartSource *self,
                                                           gint64              *time_us,
                                                           double              *value);
gboolean             adbscope_chart_source_get_last_finite (AdbscopeChartSource *self,
                                                            gint64              *time_us,
                                                            double              *value);
gboolean             adbscope_chart_source_find_nearest   (AdbscopeChartSource *self,
                                                           gint64               time_us,
                                                           gint64               max_distance_us,
                                                           AdbscopeSample      *sample);
guint64              adbscope_chart_source_get_n_pushed   (AdbscopeChartSource *self);

G_END_DECLS
