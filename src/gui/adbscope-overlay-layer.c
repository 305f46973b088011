/* adbscope-overlay-layer.c: a series of a second recording, dashed over a chart
 *
 * A series of the comparison's recording, read through its level of detail
 * (an AdbscopeRecordingSource, like an opened recording's charts), or
 * samples computed from it (a stack's top), placed on the shown run's
 * clock by the comparison's offset: start to start, or marker to marker of
 * the same label.  The line is bucketed and traced like
 * an AdbscopeLineLayer, in the colour of the series it is compared with
 * (its partner), dashed and a little lighter, so it reads as "the other
 * run" in light and dark styles; the legend names the other file.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart.h"
#include "adbscope-chart-source.h"
#include "adbscope-line-layer.h"
#include "adbscope-overlay-layer.h"
#include "adbscope-recording-source.h"

/* The other run's line: this many pixel columns drawn, as many left out. */
#define DASH_COLUMNS 5
#define OVERLAY_ALPHA 0.85

struct _AdbscopeOverlayLayer
{
  AdbscopeChartLayer   parent_instance;

  AdbscopeComparison  *comparison;
  char                *series_path;   /* read from the file, or */
  GArray              *samples;       /* AdbscopeSample, the other run's clock */
  AdbscopeChartSource *placed;        /* the same, on the chart's clock */
  AdbscopeChartLayer  *partner;       /* weak */
  guint                partner_index;
  gboolean             in_legend;
  AdbscopeChartBucket *buckets;
  AdbscopeChartColumn *columns;
  guint                n_buckets;
};

G_DEFINE_FINAL_TYPE (AdbscopeOverlayLayer, adbscope_overlay_layer, ADBSCOPE_TYPE_CHART_LAYER)

static void
place (AdbscopeOverlayLayer *self)
{
  gint64 offset = adbscope_comparison_get_offset (self->comparison);
  AdbscopeChart *chart;

  g_clear_object (&self->placed);
  if (self->series_path != NULL)
    self->placed = adbscope_recording_source_new (adbscope_comparison_get_reader (self->comparison),
                                                  self->series_path, offset, NULL);
  else
    {
      guint cap = CLAMP (self->samples->len, 2, ADBSCOPE_SERIES_MAX_CAPACITY);
      guint first = self->samples->len > cap ? self->samples->len - cap : 0;
      g_autoptr(AdbscopeSeries) series = adbscope_series_new (cap);

      for (guint i = first; i < self->samples->len; i++)
        {
          const AdbscopeSample *s = &g_array_index (self->samples, AdbscopeSample, i);

          adbscope_series_push (series, s->time_us + offset, s->value);
        }
      self->placed = adbscope_chart_source_new_for_series (series);
    }
  if ((chart = adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self))) != NULL)
    adbscope_chart_queue_update (chart);
}

static void
get_line_color (AdbscopeOverlayLayer *self,
                GdkRGBA              *color)
{
  if (self->partner == NULL)
    adbscope_chart_layer_get_color (ADBSCOPE_CHART_LAYER (self), color);
  else if (self->partner_index == 0)
    adbscope_chart_layer_get_color (self->partner, color);
  else
    adbscope_chart_layer_get_palette_color (self->partner, self->partner_index, color);
  color->alpha *= OVERLAY_ALPHA;
}

static void
adbscope_overlay_layer_rasterize (AdbscopeChartLayer  *layer,
                                  AdbscopeChartRaster *raster)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (layer);
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (layer);
  int width = adbscope_chart_raster_get_width (raster);
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double min, max;
  gint64 t0, t1;
  GdkRGBA color;

  if (chart == NULL || width <= 0)
    return;
  if ((guint) width > self->n_buckets)
    {
      self->buckets = g_renew (AdbscopeChartBucket, self->buckets, width);
      self->columns = g_renew (AdbscopeChartColumn, self->columns, width);
      self->n_buckets = width;
    }
  adbscope_chart_get_time_window (chart, &t0, &t1);
  adbscope_chart_source_bucket (self->placed, t0, t1, adbscope_chart_get_interval (chart),
                                self->buckets, width);
  adbscope_chart_get_value_range (chart, &min, &max);
  get_line_color (self, &color);

  adbscope_chart_line_columns (self->buckets, width, height, min, max, self->columns);
  adbscope_chart_raster_fill_columns (raster, self->columns, width, ADBSCOPE_LINE_LAYER_WIDTH / 2,
                                      DASH_COLUMNS, &color);
}

static gboolean
adbscope_overlay_layer_get_value_extent (AdbscopeChartLayer *layer,
                                         gint64              t0_us,
                                         gint64              t1_us,
                                         double             *min,
                                         double             *max)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (layer);
  return adbscope_chart_source_get_extent (self->placed, t0_us, t1_us, min, max);
}

static void
adbscope_overlay_layer_add_legend_entries (AdbscopeChartLayer *layer,
                                           GArray             *entries)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (layer);
  AdbscopeChartLegendEntry entry = { 0 };

  /* One entry for the other run: dashed is that file, whatever the series */
  if (!self->in_legend)
    return;
  entry.title = adbscope_comparison_get_name (self->comparison);
  entry.dashed = TRUE;
  get_line_color (self, &entry.color);
  g_array_append_val (entries, entry);
}

/* "TITLE (FILE): VALUE" of the sample within @distance of @time_us */
static void
describe_near (AdbscopeOverlayLayer *self,
               gint64                time_us,
               gint64                distance,
               GString              *text)
{
  AdbscopeChartLayer *layer = ADBSCOPE_CHART_LAYER (self);
  AdbscopeSample sample;

  g_string_append_printf (text, "%s: ", adbscope_chart_layer_get_title (layer));
  if (adbscope_overlay_layer_find_sample (self, time_us, distance, &sample))
    adbscope_chart_layer_format_value (layer, sample.value, text);
  else
    adbscope_chart_layer_format_value (layer, NAN, text);
}

static void
adbscope_overlay_layer_describe_at (AdbscopeChartLayer *layer,
                                    double              x,
                                    gint64              time_us,
                                    GString            *text)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (layer);

  describe_near (self, time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), text);
}

/* For screen readers: the other run's value at the window's right edge,
 * beside the shown run's current one. */
static void
adbscope_overlay_layer_describe_current (AdbscopeChartLayer *layer,
                                         GString            *text)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (layer);
  gint64 t0, t1;

  if (chart == NULL)
    return;
  adbscope_chart_get_time_window (chart, &t0, &t1);
  /* (not the hover's distance: that follows the width, 0 before the first allocation) */
  describe_near (ADBSCOPE_OVERLAY_LAYER (layer), t1,
                 adbscope_chart_get_interval (chart) * ADBSCOPE_CHART_GAP_FACTOR, text);
}

static void
adbscope_overlay_layer_snapshot_hover (AdbscopeChartLayer *layer,
                                       GtkSnapshot        *snapshot,
                                       double              x,
                                       gint64              time_us)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (layer);
  AdbscopeSample sample;
  GdkRGBA color;
  double px, py;
  cairo_t *cr;

  if (!adbscope_overlay_layer_find_sample (self, time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), &sample))
    return;
  px = adbscope_chart_layer_time_to_x (layer, sample.time_us);
  py = adbscope_chart_layer_value_to_y (layer, sample.value);
  get_line_color (self, &color);

  /* A ring, where the shown run has a dot */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (px - 5, py - 5, 10, 10));
  cairo_arc (cr, px, py, 3, 0, 2 * G_PI);
  cairo_set_line_width (cr, 1.5);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static void
adbscope_overlay_layer_dispose (GObject *object)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (object);

  if (self->comparison != NULL)
    g_signal_handlers_disconnect_by_data (self->comparison, self);
  g_clear_object (&self->comparison);
  g_clear_weak_pointer (&self->partner);
  G_OBJECT_CLASS (adbscope_overlay_layer_parent_class)->dispose (object);
}

static void
adbscope_overlay_layer_finalize (GObject *object)
{
  AdbscopeOverlayLayer *self = ADBSCOPE_OVERLAY_LAYER (object);

  g_clear_pointer (&self->samples, g_array_unref);
  g_free (self->series_path);
  g_clear_object (&self->placed);
  g_clear_pointer (&self->buckets, g_free);
  g_clear_pointer (&self->columns, g_free);
  G_OBJECT_CLASS (adbscope_overlay_layer_parent_class)->finalize (object);
}

static void
adbscope_overlay_layer_class_init (AdbscopeOverlayLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AdbscopeChartLayerClass *layer_class = ADBSCOPE_CHART_LAYER_CLASS (klass);

  object_class->dispose = adbscope_overlay_layer_dispose;
  object_class->finalize = adbscope_overlay_layer_finalize;
  /* No get_last_time: the shown run, not the overlay, sets where "now" is. */
  layer_class->get_value_extent = adbscope_overlay_layer_get_value_extent;
  layer_class->add_legend_entries = adbscope_overlay_layer_add_legend_entries;
  layer_class->describe_at = adbscope_overlay_layer_describe_at;
  layer_class->describe_current = adbscope_overlay_layer_describe_current;
  layer_class->snapshot_hover = adbscope_overlay_layer_snapshot_hover;
  layer_class->rasterize = adbscope_overlay_layer_rasterize;
}

static void
adbscope_overlay_layer_init (AdbscopeOverlayLayer *self)
{
}

static AdbscopeChartLayer *
overlay_new (AdbscopeComparison *comparison,
             const char         *series_path,
             const GArray       *samples,
             AdbscopeChartLayer *partner,
             guint               partner_index)
{
  AdbscopeOverlayLayer *self;
  const char *title = partner != NULL ? adbscope_chart_layer_get_title (partner) : NULL;

  self = g_object_new (ADBSCOPE_TYPE_OVERLAY_LAYER, NULL);
  self->comparison = g_object_ref (comparison);
  self->series_path = g_strdup (series_path);
  if (samples != NULL)
    {
      self->samples = g_array_sized_new (FALSE, FALSE, sizeof (AdbscopeSample), samples->len);
      g_array_append_vals (self->samples, samples->data, samples->len);
    }
  g_set_weak_pointer (&self->partner, partner);
  self->partner_index = partner_index;
  self->in_legend = partner_index == 0;
  if (title != NULL && title[0] != '\0')
    {
      /* Translators: tooltip name of an overlaid series: series title (other file) */
      g_autofree char *name = g_strdup_printf (_("%s (%s)"), title, adbscope_comparison_get_name (comparison));

      adbscope_chart_layer_set_title (ADBSCOPE_CHART_LAYER (self), name);
    }
  else
    adbscope_chart_layer_set_title (ADBSCOPE_CHART_LAYER (self), adbscope_comparison_get_name (comparison));
  place (self);
  g_signal_connect_swapped (comparison, "notify::offset-us", G_CALLBACK (place), self);
  return ADBSCOPE_CHART_LAYER (self);
}

/**
 * adbscope_overlay_layer_new:
 * @series_path: the series of the comparison's recording ("cpu.app_pct")
 * @partner: (nullable): the layer drawing the same series of the shown
 *   run, whose colour and title the overlay takes
 * @partner_index: which of @partner's series (a stack's band)
 */
AdbscopeChartLayer *
adbscope_overlay_layer_new (AdbscopeComparison *comparison,
                            const char         *series_path,
                            AdbscopeChartLayer *partner,
                            guint               partner_index)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (series_path != NULL, NULL);

  return overlay_new (comparison, series_path, NULL, partner, partner_index);
}

/**
 * adbscope_overlay_layer_new_for_samples:
 * @samples: (element-type AdbscopeSample): values computed from the other
 *   run (copied), its clock
 *
 * Like adbscope_overlay_layer_new(), for what the file has no series of.
 */
AdbscopeChartLayer *
adbscope_overlay_layer_new_for_samples (AdbscopeComparison *comparison,
                                        const GArray       *samples,
                                        AdbscopeChartLayer *partner,
                                        guint               partner_index)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (samples != NULL, NULL);

  return overlay_new (comparison, NULL, samples, partner, partner_index);
}

/**
 * adbscope_overlay_layer_set_in_legend:
 *
 * Whether the layer names the other run in the chart's legend (one of a
 * chart's overlays does, so the legend keeps room for the shown series).
 */
void
adbscope_overlay_layer_set_in_legend (AdbscopeOverlayLayer *self,
                                      gboolean              in_legend)
{
  AdbscopeChart *chart;

  g_return_if_fail (ADBSCOPE_IS_OVERLAY_LAYER (self));

  self->in_legend = !!in_legend;
  if ((chart = adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self))) != NULL)
    gtk_widget_queue_allocate (GTK_WIDGET (chart));
}

/**
 * adbscope_overlay_layer_find_sample:
 * @time_us: a time on the chart's clock
 * @sample: (out): the nearest finite sample within @max_distance_us, its
 *   time on the chart's clock
 */
gboolean
adbscope_overlay_layer_find_sample (AdbscopeOverlayLayer *self,
                                    gint64                time_us,
                                    gint64                max_distance_us,
                                    AdbscopeSample       *sample)
{
  g_return_val_if_fail (ADBSCOPE_IS_OVERLAY_LAYER (self), FALSE);

  return adbscope_chart_source_find_nearest (self->placed, time_us, max_distance_us, sample) &&
         isfinite (sample->value);
}
