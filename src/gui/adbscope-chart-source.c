/* adbscope-chart-source.c: where a time chart layer reads one series from
 *
 * The base class is the in-memory source: every vfunc reads the series it
 * was made with (a live ring buffer, or a paused copy).  Subclasses that
 * read elsewhere may still hold a series, as the newest stretch they merge
 * with what they read (a live run reaching back into its recording).
 */
#include "config.h"

#include <math.h>

#include "adbscope-chart-source.h"

typedef struct
{
  AdbscopeSeries *series;
} AdbscopeChartSourcePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (AdbscopeChartSource, adbscope_chart_source, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
series_bucket (AdbscopeChartSource *self,
               gint64               t0_us,
               gint64               t1_us,
               gint64               interval_us,
               AdbscopeChartBucket *buckets,
               guint                width)
{
  AdbscopeSeries *series = adbscope_chart_source_get_series (self);
  AdbscopeSeriesSpans none = { 0 };

  if (series != NULL)
    adbscope_chart_bucket_series (series, t0_us, t1_us, interval_us, buckets, width);
  else
    adbscope_chart_bucket_spans (&none, t0_us, t1_us, interval_us, buckets, width);
}

static gboolean
series_get_extent (AdbscopeChartSource *self,
                   gint64               t0_us,
                   gint64               t1_us,
                   double              *min,
                   double              *max)
{
  AdbscopeSeries *series = adbscope_chart_source_get_series (self);
  AdbscopeSeriesStats stats;

  if (series == NULL || !adbscope_series_compute_stats_range (series, t0_us, t1_us, &stats))
    return FALSE;
  *min = stats.min;
  *max = stats.max;
  return TRUE;
}

static gboolean
series_get_last (AdbscopeChartSource *self,
                 gboolean             finite,
                 gint64              *time_us,
                 double              *value)
{
  AdbscopeSeries *series = adbscope_chart_source_get_series (self);

  if (series == NULL)
    return FALSE;
  return finite ? adbscope_series_get_last_finite (series, time_us, value)
                : adbscope_series_get_last (series, time_us, value);
}

static gboolean
series_find_nearest (AdbscopeChartSource *self,
                     gint64               time_us,
                     gint64               max_distance_us,
                     AdbscopeSample      *sample)
{
  AdbscopeSeries *series = adbscope_chart_source_get_series (self);

  return series != NULL && adbscope_series_find_nearest (series, time_us, max_distance_us, sample);
}

static void
adbscope_chart_source_finalize (GObject *object)
{
  AdbscopeChartSourcePrivate *priv =
    adbscope_chart_source_get_instance_private (ADBSCOPE_CHART_SOURCE (object));

  g_clear_pointer (&priv->series, adbscope_series_unref);
  G_OBJECT_CLASS (adbscope_chart_source_parent_class)->finalize (object);
}

static void
adbscope_chart_source_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AdbscopeChartSource *self = ADBSCOPE_CHART_SOURCE (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_boxed (value, adbscope_chart_source_get_series (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_source_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  AdbscopeChartSourcePrivate *priv =
    adbscope_chart_source_get_instance_private (ADBSCOPE_CHART_SOURCE (object));

  switch (prop_id)
    {
    case PROP_SERIES:
      priv->series = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_source_class_init (AdbscopeChartSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = adbscope_chart_source_finalize;
  object_class->get_property = adbscope_chart_source_get_property;
  object_class->set_property = adbscope_chart_source_set_property;

  klass->bucket = series_bucket;
  klass->get_extent = series_get_extent;
  klass->get_last = series_get_last;
  klass->find_nearest = series_find_nearest;

  /* The samples in memory: all of them, or the newest stretch. */
  properties[PROP_SERIES] =
    g_param_spec_boxed ("series", NULL, NULL, ADBSCOPE_TYPE_SERIES,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_chart_source_init (AdbscopeChartSource *self)
{
}

/**
 * adbscope_chart_source_new_for_series:
 * @series: (nullable): the samples; the source keeps a reference
 */
AdbscopeChartSource *
adbscope_chart_source_new_for_series (AdbscopeSeries *series)
{
  return g_object_new (ADBSCOPE_TYPE_CHART_SOURCE, "series", series, NULL);
}

/**
 * adbscope_chart_source_get_series:
 *
 * Returns: (transfer none) (nullable): the samples held in memory
 */
AdbscopeSeries *
adbscope_chart_source_get_series (AdbscopeChartSource *self)
{
  AdbscopeChartSourcePrivate *priv;

  g_return_val_if_fail (ADBSCOPE_IS_CHART_SOURCE (self), NULL);
  priv = adbscope_chart_source_get_instance_private (self);
  return priv->series;
}

void
adbscope_chart_source_bucket (AdbscopeChartSource *self,
                              gint64               t0_us,
                              gint64               t1_us,
                              gint64               interval_us,
                              AdbscopeChartBucket *buckets,
                              guint                width)
{
  g_return_if_fail (ADBSCOPE_IS_CHART_SOURCE (self));
  g_return_if_fail (buckets != NULL || width == 0);
  ADBSCOPE_CHART_SOURCE_GET_CLASS (self)->bucket (self, t0_us, t1_us, interval_us, buckets, width);
}

gboolean
adbscope_chart_source_get_extent (AdbscopeChartSource *self,
                                  gint64               t0_us,
                                  gint64               t1_us,
                                  double              *min,
                                  double              *max)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_SOURCE (self), FALSE);
  g_return_val_if_fail (min != NULL && max != NULL, FALSE);
  return ADBSCOPE_CHART_SOURCE_GET_CLASS (self)->get_extent (self, t0_us, t1_us, min, max);
}

/**
 * adbscope_chart_source_get_last:
 * @time_us: (out) (optional):
 * @value: (out) (optional): NaN when the newest sample is a gap
 */
gboolean
adbscope_chart_source_get_last (AdbscopeChartSource *self,
                                gint64              *time_us,
                                double              *value)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_SOURCE (self), FALSE);
  return ADBSCOPE_CHART_SOURCE_GET_CLASS (self)->get_last (self, FALSE, time_us, value);
}

gboolean
adbscope_chart_source_get_last_finite (AdbscopeChartSource *self,
                                       gint64              *time_us,
                                       double              *value)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_SOURCE (self), FALSE);
  return ADBSCOPE_CHART_SOURCE_GET_CLASS (self)->get_last (self, TRUE, time_us, value);
}

gboolean
adbscope_chart_source_find_nearest (AdbscopeChartSource *self,
                                    gint64               time_us,
                                    gint64               max_distance_us,
                                    AdbscopeSample      *sample)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_SOURCE (self), FALSE);
  g_return_val_if_fail (sample != NULL, FALSE);
  return ADBSCOPE_CHART_SOURCE_GET_CLASS (self)->find_nearest (self, time_us, max_distance_us, sample);
}

/* Samples pushed into the series in memory: what a redraw waits for. */
guint64
adbscope_chart_source_get_n_pushed (AdbscopeChartSource *self)
{
  AdbscopeSeries *series = adbscope_chart_source_get_series (self);

  return series != NULL ? adbscope_series_get_n_pushed (series) : 0;
}
