/* adbscope-line-layer.c: one series drawn as a line (optionally filled)
 *
 * Read through an AdbscopeChartSource (a series in memory, or a
 * recording), drawn per pixel column from its buckets: the line
 * enters a column at its first sample, runs down to min, up to max and
 * leaves at its last, so a spike narrower than a pixel still reaches its
 * height.  Gap columns break the line; nothing is drawn at 0 for them.
 * Each column is one box (adbscope_chart_line_columns()), filled straight
 * into the chart's image (adbscope-chart-raster.c), not a stroked path.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart.h"
#include "adbscope-chart-source.h"
#include "adbscope-line-layer.h"

#define LINE_WIDTH ADBSCOPE_LINE_LAYER_WIDTH

struct _AdbscopeLineLayer
{
  AdbscopeChartLayer   parent_instance;

  AdbscopeChartSource *source;
  AdbscopeChartBucket *buckets;
  AdbscopeChartColumn *columns;
  guint                n_buckets;
  guint                fill : 1;
};

G_DEFINE_FINAL_TYPE (AdbscopeLineLayer, adbscope_line_layer, ADBSCOPE_TYPE_CHART_LAYER)

enum {
  PROP_0,
  PROP_SERIES,
  PROP_SOURCE,
  PROP_FILL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Bucketed columns for the current window and width, or NULL. */
static const AdbscopeChartBucket *
bucket (AdbscopeLineLayer *self,
        guint             *width)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self));
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  gint64 t0, t1;

  if (chart == NULL || self->source == NULL || w <= 0)
    return NULL;

  if ((guint)w > self->n_buckets)
    {
      self->buckets = g_renew (AdbscopeChartBucket, self->buckets, w);
      self->columns = g_renew (AdbscopeChartColumn, self->columns, w);
      self->n_buckets = w;
    }

  adbscope_chart_get_time_window (chart, &t0, &t1);
  adbscope_chart_source_bucket (self->source, t0, t1, adbscope_chart_get_interval (chart),
                                self->buckets, w);
  *width = w;
  return self->buckets;
}

static void
adbscope_line_layer_rasterize (AdbscopeChartLayer  *layer,
                               AdbscopeChartRaster *raster)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (layer);
  const AdbscopeChartBucket *buckets;
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double min, max;
  guint width;
  GdkRGBA color;

  if ((buckets = bucket (self, &width)) == NULL)
    return;

  adbscope_chart_get_value_range (chart, &min, &max);
  adbscope_chart_layer_get_color (layer, &color);
  adbscope_chart_line_columns (buckets, width, height, min, max, self->columns);

  if (self->fill)
    {
      GdkRGBA area = color;

      area.alpha *= 0.2f;
      adbscope_chart_raster_fill_area (raster, self->columns, width,
                                       height - (MAX (min, 0) - min) * height / (max - min), &area);
    }
  adbscope_chart_raster_fill_columns (raster, self->columns, width, LINE_WIDTH / 2, 0, &color);
}

static gboolean
adbscope_line_layer_get_value_extent (AdbscopeChartLayer *layer,
                                      gint64              t0_us,
                                      gint64              t1_us,
                                      double             *min,
                                      double             *max)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);

  return self->source != NULL && adbscope_chart_source_get_extent (self->source, t0_us, t1_us, min, max);
}

static gboolean
adbscope_line_layer_get_last_time (AdbscopeChartLayer *layer,
                                   gint64             *time_us)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);

  return self->source != NULL && adbscope_chart_source_get_last (self->source, time_us, NULL);
}

static void
append_title (AdbscopeChartLayer *layer,
              GString            *text)
{
  const char *title = adbscope_chart_layer_get_title (layer);

  if (title != NULL && title[0] != '\0')
    g_string_append_printf (text, "%s: ", title);
}

static void
adbscope_line_layer_describe_at (AdbscopeChartLayer *layer,
                                 double              x,
                                 gint64              time_us,
                                 GString            *text)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);
  AdbscopeSample sample;

  append_title (layer, text);
  if (self->source != NULL &&
      adbscope_chart_source_find_nearest (self->source, time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), &sample) &&
      isfinite (sample.value))
    {
      adbscope_chart_layer_format_value (layer, sample.value, text);
      g_string_append (text, ", ");
      adbscope_chart_format_time (adbscope_chart_layer_get_chart (layer), sample.time_us, text);
    }
  else
    {
      adbscope_chart_layer_format_value (layer, NAN, text);
    }
}

static void
adbscope_line_layer_describe_current (AdbscopeChartLayer *layer,
                                      GString            *text)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);
  double value = NAN;

  if (self->source == NULL)
    return;

  adbscope_chart_source_get_last (self->source, NULL, &value);
  append_title (layer, text);
  adbscope_chart_layer_format_value (layer, value, text);
}

static void
adbscope_line_layer_snapshot_hover (AdbscopeChartLayer *layer,
                                    GtkSnapshot        *snapshot,
                                    double              x,
                                    gint64              time_us)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (layer);
  AdbscopeSample sample;
  GdkRGBA color;
  double px, py;
  cairo_t *cr;

  if (self->source == NULL ||
      !adbscope_chart_source_find_nearest (self->source, time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), &sample) ||
      !isfinite (sample.value))
    return;

  px = adbscope_chart_layer_time_to_x (layer, sample.time_us);
  py = adbscope_chart_layer_value_to_y (layer, sample.value);
  adbscope_chart_layer_get_color (layer, &color);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (px - 5, py - 5, 10, 10));
  cairo_arc (cr, px, py, 3.5, 0, 2 * G_PI);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
adbscope_line_layer_finalize (GObject *object)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (object);

  g_clear_object (&self->source);
  g_clear_pointer (&self->buckets, g_free);
  g_clear_pointer (&self->columns, g_free);

  G_OBJECT_CLASS (adbscope_line_layer_parent_class)->finalize (object);
}

static void
adbscope_line_layer_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_boxed (value, adbscope_line_layer_get_series (self));
      break;

    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;

    case PROP_FILL:
      g_value_set_boolean (value, self->fill);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_line_layer_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AdbscopeLineLayer *self = ADBSCOPE_LINE_LAYER (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      adbscope_line_layer_set_series (self, g_value_get_boxed (value));
      break;

    case PROP_SOURCE:
      adbscope_line_layer_set_source (self, g_value_get_object (value));
      break;

    case PROP_FILL:
      adbscope_line_layer_set_fill (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_line_layer_class_init (AdbscopeLineLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AdbscopeChartLayerClass *layer_class = ADBSCOPE_CHART_LAYER_CLASS (klass);

  object_class->finalize = adbscope_line_layer_finalize;
  object_class->get_property = adbscope_line_layer_get_property;
  object_class->set_property = adbscope_line_layer_set_property;


  layer_class->get_value_extent = adbscope_line_layer_get_value_extent;
  layer_class->get_last_time = adbscope_line_layer_get_last_time;
  layer_class->describe_at = adbscope_line_layer_describe_at;
  layer_class->describe_current = adbscope_line_layer_describe_current;
  layer_class->snapshot_hover = adbscope_line_layer_snapshot_hover;
  layer_class->rasterize = adbscope_line_layer_rasterize;

  properties[PROP_SERIES] =
    g_param_spec_boxed ("series", NULL, NULL,
                        ADBSCOPE_TYPE_SERIES,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         ADBSCOPE_TYPE_CHART_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_FILL] =
    g_param_spec_boolean ("fill", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_line_layer_init (AdbscopeLineLayer *self)
{
}

/**
 * adbscope_line_layer_new:
 * @series: (nullable): the samples to draw; the layer keeps a reference
 * @title: (nullable): the legend and tooltip name
 */
AdbscopeChartLayer *
adbscope_line_layer_new (AdbscopeSeries *series,
                         const char     *title)
{
  return g_object_new (ADBSCOPE_TYPE_LINE_LAYER,
                       "series", series,
                       "title", title,
                       NULL);
}

/**
 * adbscope_line_layer_new_for_source:
 * @source: (nullable): where the samples are read; the layer keeps a reference
 * @title: (nullable): the legend and tooltip name
 */
AdbscopeChartLayer *
adbscope_line_layer_new_for_source (AdbscopeChartSource *source,
                                    const char          *title)
{
  return g_object_new (ADBSCOPE_TYPE_LINE_LAYER,
                       "source", source,
                       "title", title,
                       NULL);
}

/**
 * adbscope_line_layer_get_series:
 *
 * Returns: (transfer none) (nullable): the series in memory the layer
 *   reads (all of it, or the newest stretch of a recording)
 */
AdbscopeSeries *
adbscope_line_layer_get_series (AdbscopeLineLayer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_LINE_LAYER (self), NULL);

  return self->source != NULL ? adbscope_chart_source_get_series (self->source) : NULL;
}

/**
 * adbscope_line_layer_set_series:
 *
 * Reads @series from memory from now on (a paused copy, say).
 */
void
adbscope_line_layer_set_series (AdbscopeLineLayer *self,
                                AdbscopeSeries    *series)
{
  g_autoptr(AdbscopeChartSource) source = NULL;

  g_return_if_fail (ADBSCOPE_IS_LINE_LAYER (self));

  if (self->source != NULL && G_OBJECT_TYPE (self->source) == ADBSCOPE_TYPE_CHART_SOURCE &&
      adbscope_chart_source_get_series (self->source) == series)
    return;
  if (series != NULL)
    source = adbscope_chart_source_new_for_series (series);
  adbscope_line_layer_set_source (self, source);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES]);
}

/**
 * adbscope_line_layer_get_source:
 *
 * Returns: (transfer none) (nullable): where the layer reads its samples
 */
AdbscopeChartSource *
adbscope_line_layer_get_source (AdbscopeLineLayer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_LINE_LAYER (self), NULL);

  return self->source;
}

void
adbscope_line_layer_set_source (AdbscopeLineLayer   *self,
                                AdbscopeChartSource *source)
{
  g_return_if_fail (ADBSCOPE_IS_LINE_LAYER (self));
  g_return_if_fail (source == NULL || ADBSCOPE_IS_CHART_SOURCE (source));

  if (!g_set_object (&self->source, source))
    return;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
}

gboolean
adbscope_line_layer_get_fill (AdbscopeLineLayer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_LINE_LAYER (self), FALSE);

  return self->fill;
}

void
adbscope_line_layer_set_fill (AdbscopeLineLayer *self,
                              gboolean           fill)
{
  g_return_if_fail (ADBSCOPE_IS_LINE_LAYER (self));

  fill = !!fill;
  if (self->fill == fill)
    return;

  self->fill = fill;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILL]);
}
