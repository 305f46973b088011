/* adbscope-stacked-layer.c: several series stacked as filled areas
 *
 * For memory categories (Java heap, native heap, graphics, …) sampled by
 * one collector.  Each series is bucketed per pixel column like a line; a
 * column's value is the mean of its samples (memory moves slowly, and the
 * bands must add up to the total), empty columns between samples hold the
 * previous value, and a column where any part is missing is left empty so
 * the stack never drops to 0 in a gap.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart.h"
#include "adbscope-chart-source.h"
#include "adbscope-stacked-layer.h"

#define FILL_ALPHA 0.8

typedef struct
{
  AdbscopeChartSource *source;
  char           *title;
  GdkRGBA         color;
  gboolean        has_color;
} Part;

struct _AdbscopeStackedLayer
{
  AdbscopeChartLayer   parent_instance;

  GArray              *parts;
  AdbscopeChartBucket *buckets;  /* scratch, one row */
  double              *values;   /* n_parts × width cumulative tops, NaN = nothing */
  guint                width;
};

G_DEFINE_FINAL_TYPE (AdbscopeStackedLayer, adbscope_stacked_layer, ADBSCOPE_TYPE_CHART_LAYER)

static void
clear_part (gpointer data)
{
  Part *part = data;

  g_clear_object (&part->source);
  g_clear_pointer (&part->title, g_free);
}

static void
part_color (AdbscopeStackedLayer *self,
            guint                 index_,
            GdkRGBA              *color)
{
  const Part *part = &g_array_index (self->parts, Part, index_);

  if (part->has_color)
    *color = part->color;
  else
    adbscope_chart_layer_get_palette_color (ADBSCOPE_CHART_LAYER (self), index_, color);
}

/* Fills self->values: row j holds the top of band j (sum of parts 0..j),
 * NaN where the column is not drawn.  Returns the width, 0 if nothing. */
static guint
compute_columns (AdbscopeStackedLayer *self,
                 guint                 width)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self));
  guint n_parts = self->parts->len;
  gint64 t0, t1;

  if (chart == NULL || n_parts == 0 || width == 0)
    return 0;

  if (width != self->width)
    {
      self->buckets = g_renew (AdbscopeChartBucket, self->buckets, width);
      self->width = width;
    }
  self->values = g_renew (double, self->values, (gsize)n_parts * width);

  adbscope_chart_get_time_window (chart, &t0, &t1);
  for (guint j = 0; j < n_parts; j++)
    {
      const Part *part = &g_array_index (self->parts, Part, j);
      double *row = self->values + (gsize)j * width;
      const double *below = j > 0 ? row - width : NULL;
      double carry = NAN;

      adbscope_chart_source_bucket (part->source, t0, t1, adbscope_chart_get_interval (chart),
                                    self->buckets, width);
      for (guint c = 0; c < width; c++)
        {
          const AdbscopeChartBucket *b = &self->buckets[c];

          if (b->count > 0)
            carry = b->sum / b->count;
          else if (b->gap)
            carry = NAN;
          row[c] = below != NULL ? below[c] + carry : carry;
        }
    }

  /* A column is drawn only when every part has a value there. */
  for (guint c = 0; c < width; c++)
    if (isnan (self->values[(gsize)(n_parts - 1) * width + c]))
      for (guint j = 0; j < n_parts; j++)
        self->values[(gsize)j * width + c] = NAN;

  return width;
}

static void
adbscope_stacked_layer_rasterize (AdbscopeChartLayer  *layer,
                                  AdbscopeChartRaster *raster)
{
  AdbscopeStackedLayer *self = ADBSCOPE_STACKED_LAYER (layer);
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (layer);
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  guint width = compute_columns (self, MAX (adbscope_chart_raster_get_width (raster), 0));
  double min, max, scale;

  if (width == 0)
    return;

  adbscope_chart_get_value_range (chart, &min, &max);
  scale = height / (max - min);

#define Y(v) ((max - (v)) * scale)

  for (guint j = 0; j < self->parts->len; j++)
    {
      const double *top = self->values + (gsize)j * width;
      const double *below = j > 0 ? top - width : NULL;
      GdkRGBA color;
      guint c = 0;

      part_color (self, j, &color);
      color.alpha *= FILL_ALPHA;

      /* one box per column, a run of columns of the same band merged */
      while (c < width)
        {
          double b;
          guint end;

          if (isnan (top[c]))
            {
              c++;
              continue;
            }
          b = below != NULL ? below[c] : MAX (min, 0);
          for (end = c + 1; end < width && top[end] == top[c] &&
               (below != NULL ? below[end] : b) == b; end++)
            ;
          adbscope_chart_raster_fill_box (raster, (int) c, (int) end, Y (top[c]), Y (b), &color);
          c = end;
        }
    }

#undef Y
}

static gboolean
adbscope_stacked_layer_get_value_extent (AdbscopeChartLayer *layer,
                                         gint64              t0_us,
                                         gint64              t1_us,
                                         double             *min,
                                         double             *max)
{
  AdbscopeStackedLayer *self = ADBSCOPE_STACKED_LAYER (layer);
  int allocated = gtk_widget_get_width (GTK_WIDGET (self));
  /* Before the first allocation, a typical width gives a close enough total. */
  guint width = compute_columns (self, allocated > 0 ? allocated : 400);
  const double *total;
  gboolean found = FALSE;

  if (width == 0)
    return FALSE;

  total = self->values + (gsize)(self->parts->len - 1) * width;
  *min = 0;
  *max = -INFINITY;
  for (guint c = 0; c < width; c++)
    if (!isnan (total[c]))
      {
        *max = MAX (*max, total[c]);
        found = TRUE;
      }

  return found;
}

static gboolean
adbscope_stacked_layer_get_last_time (AdbscopeChartLayer *layer,
                                      gint64             *time_us)
{
  AdbscopeStackedLayer *self = ADBSCOPE_STACKED_LAYER (layer);
  gboolean found = FALSE;

  for (guint j = 0; j < self->parts->len; j++)
    {
      gint64 t;

      if (adbscope_chart_source_get_last (g_array_index (self->parts, Part, j).source, &t, NULL))
        {
          *time_us = found ? MAX (*time_us, t) : t;
          found = TRUE;
        }
    }

  return found;
}

static void
adbscope_stacked_layer_add_legend_entries (AdbscopeChartLayer *layer,
                                           GArray             *entries)
{
  AdbscopeStackedLayer *self = ADBSCOPE_STACKED_LAYER (layer);

  /* Top band first, as the legend reads top to bottom like the stack. */
  for (guint j = self->parts->len; j > 0; j--)
    {
      AdbscopeChartLegendEntry entry = { 0 };

      entry.title = g_array_index (self->parts, Part, j - 1).title;
      if (entry.title == NULL)
        continue;
      part_color (self, j - 1, &entry.color);
      g_array_append_val (entries, entry);
    }
}

static void
describe_parts (AdbscopeStackedLayer *self,
                gint64                time_us,
                gboolean              current,
                const char           *separator,
                GString              *text)
{
  AdbscopeSample first;

  /* The parts come from one collector: the first part's sample time
   * stands for them all. */
  if (!current && self->parts->len > 0 &&
      adbscope_chart_source_find_nearest (g_array_index (self->parts, Part, 0).source,
                                          time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), &first))
    {
      adbscope_chart_format_time (adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self)),
                                  first.time_us, text);
      g_string_append (text, separator);
    }

  for (guint j = self->parts->len; j > 0; j--)
    {
      const Part *part = &g_array_index (self->parts, Part, j - 1);
      AdbscopeSample sample = { 0, NAN };

      if (current)
        adbscope_chart_source_get_last (part->source, NULL, &sample.value);
      else
        adbscope_chart_source_find_nearest (part->source, time_us, adbscope_chart_layer_get_hover_distance (ADBSCOPE_CHART_LAYER (self)), &sample);

      if (j != self->parts->len)
        g_string_append (text, separator);
      g_string_append_printf (text, "%s: ", part->title != NULL ? part->title : "");
      adbscope_chart_layer_format_value (ADBSCOPE_CHART_LAYER (self), sample.value, text);
    }
}

static void
adbscope_stacked_layer_describe_at (AdbscopeChartLayer *layer,
                                    double              x,
                                    gint64              time_us,
                                    GString            *text)
{
  describe_parts (ADBSCOPE_STACKED_LAYER (layer), time_us, FALSE, "\n", text);
}

static void
adbscope_stacked_layer_describe_current (AdbscopeChartLayer *layer,
                                         GString            *text)
{
  describe_parts (ADBSCOPE_STACKED_LAYER (layer), 0, TRUE, ", ", text);
}

static void
adbscope_stacked_layer_finalize (GObject *object)
{
  AdbscopeStackedLayer *self = ADBSCOPE_STACKED_LAYER (object);

  g_clear_pointer (&self->parts, g_array_unref);
  g_clear_pointer (&self->buckets, g_free);
  g_clear_pointer (&self->values, g_free);

  G_OBJECT_CLASS (adbscope_stacked_layer_parent_class)->finalize (object);
}

static void
adbscope_stacked_layer_class_init (AdbscopeStackedLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AdbscopeChartLayerClass *layer_class = ADBSCOPE_CHART_LAYER_CLASS (klass);

  object_class->finalize = adbscope_stacked_layer_finalize;


  layer_class->get_value_extent = adbscope_stacked_layer_get_value_extent;
  layer_class->get_last_time = adbscope_stacked_layer_get_last_time;
  layer_class->add_legend_entries = adbscope_stacked_layer_add_legend_entries;
  layer_class->describe_at = adbscope_stacked_layer_describe_at;
  layer_class->describe_current = adbscope_stacked_layer_describe_current;
  layer_class->rasterize = adbscope_stacked_layer_rasterize;
}

static void
adbscope_stacked_layer_init (AdbscopeStackedLayer *self)
{
  self->parts = g_array_new (FALSE, TRUE, sizeof (Part));
  g_array_set_clear_func (self->parts, clear_part);
}

AdbscopeChartLayer *
adbscope_stacked_layer_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_STACKED_LAYER, NULL);
}

/**
 * adbscope_stacked_layer_add_series:
 * @series: the next band, stacked on top of those added before
 * @title: (nullable): legend and tooltip name
 * @color: (nullable): a fixed colour, or %NULL for the palette
 */
void
adbscope_stacked_layer_add_series (AdbscopeStackedLayer *self,
                                   AdbscopeSeries       *series,
                                   const char           *title,
                                   const GdkRGBA        *color)
{
  Part part = { 0 };

  g_return_if_fail (ADBSCOPE_IS_STACKED_LAYER (self));
  g_return_if_fail (series != NULL);

  part.source = adbscope_chart_source_new_for_series (series);
  part.title = g_strdup (title);
  part.has_color = color != NULL;
  if (color != NULL)
    part.color = *color;
  g_array_append_val (self->parts, part);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * adbscope_stacked_layer_set_series:
 *
 * Replaces the series of band @index_ (a paused copy, say).
 */
void
adbscope_stacked_layer_set_series (AdbscopeStackedLayer *self,
                                   guint                 index_,
                                   AdbscopeSeries       *series)
{
  g_autoptr(AdbscopeChartSource) source = NULL;
  Part *part;

  g_return_if_fail (ADBSCOPE_IS_STACKED_LAYER (self));
  g_return_if_fail (index_ < self->parts->len);
  g_return_if_fail (series != NULL);

  part = &g_array_index (self->parts, Part, index_);
  if (G_OBJECT_TYPE (part->source) == ADBSCOPE_TYPE_CHART_SOURCE &&
      adbscope_chart_source_get_series (part->source) == series)
    return;
  source = adbscope_chart_source_new_for_series (series);
  adbscope_stacked_layer_set_source (self, index_, source);
}

/**
 * adbscope_stacked_layer_set_source:
 *
 * Reads band @index_ from @source (a recording, say).
 */
void
adbscope_stacked_layer_set_source (AdbscopeStackedLayer *self,
                                   guint                 index_,
                                   AdbscopeChartSource  *source)
{
  g_return_if_fail (ADBSCOPE_IS_STACKED_LAYER (self));
  g_return_if_fail (index_ < self->parts->len);
  g_return_if_fail (ADBSCOPE_IS_CHART_SOURCE (source));

  if (g_set_object (&g_array_index (self->parts, Part, index_).source, source))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

