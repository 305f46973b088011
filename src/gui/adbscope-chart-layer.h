/* adbscope-chart-layer.h: one thing drawn in an AdbscopeChart's plot area
 *
 * The extension point of the chart kit.  A layer is a widget allocated the
 * chart's plot area; it draws in snapshot() from data it was given (never
 * fetched), using the chart's time window and value range.
 */
#pragma once

#include <gtk/gtk.h>

#include "adbscope-chart-bucket.h"
#include "adbscope-chart-raster.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CHART_LAYER (adbscope_chart_layer_get_type ())

G_DECLARE_DERIVABLE_TYPE (AdbscopeChartLayer, adbscope_chart_layer, ADBSCOPE, CHART_LAYER, GtkWidget)

typedef struct _AdbscopeChart AdbscopeChart;

typedef struct
{
  const char *title;  /* borrowed from the layer */
  GdkRGBA     color;
  gboolean    dashed; /* an overlaid run: a dashed swatch */
} AdbscopeChartLegendEntry;

struct _AdbscopeChartLayerClass
{
  GtkWidgetClass parent_class;

  /* Finite data range inside the time window, for the auto value range. */
  gboolean (*get_value_extent)   (AdbscopeChartLayer *self,
                                  gint64              t0_us,
                                  gint64              t1_us,
                                  double             *min,
                                  double             *max);
  /* Newest sample time, for charts that follow their data. */
  gboolean (*get_last_time)      (AdbscopeChartLayer *self,
                                  gint64             *time_us);
  void     (*add_legend_entries) (AdbscopeChartLayer *self,
                                  GArray             *entries);
  /* Lines for the hover tooltip at layer x / time. */
  void     (*describe_at)        (AdbscopeChartLayer *self,
                                  double              x,
                                  gint64              time_us,
                                  GString            *text);
  /* The current value(s), for the accessible description. */
  void     (*describe_current)   (AdbscopeChartLayer *self,
                                  GString            *text);
  void     (*snapshot_hover)     (AdbscopeChartLayer *self,
                                  GtkSnapshot        *snapshot,
                                  double              x,
                                  gint64              time_us);
  /* Category x axis (bars): ticks along the layer's width. */
  guint    (*get_x_ticks)        (AdbscopeChartLayer *self,
                                  double              length,
                                  AdbscopeChartTick  *ticks,
                                  guint               max_ticks);
  /* Draws the layer's data into @raster (layer coordinates), for layers
   * made of column boxes: the chart gathers all such layers of its plot
   * into one image instead of snapshotting each (snapshot() does the
   * same for the layer alone). */
  void     (*rasterize)          (AdbscopeChartLayer  *self,
                                  AdbscopeChartRaster *raster);

  gpointer padding[7];
};

const char    *adbscope_chart_layer_get_title          (AdbscopeChartLayer *self);
void           adbscope_chart_layer_set_title          (AdbscopeChartLayer *self,
                                                        const char         *title);
gboolean       adbscope_chart_layer_get_color          (AdbscopeChartLayer *self,
                                                        GdkRGBA            *color);
void           adbscope_chart_layer_set_color          (AdbscopeChartLayer *self,
                                                        const GdkRGBA      *color);
void           adbscope_chart_layer_get_palette_color  (AdbscopeChartLayer *self,
                                                        guint               offset,
                                                        GdkRGBA            *color);
AdbscopeChart *adbscope_chart_layer_get_chart          (AdbscopeChartLayer *self);
gint64         adbscope_chart_layer_get_hover_distance (AdbscopeChartLayer *self);
double         adbscope_chart_layer_value_to_y         (AdbscopeChartLayer *self,
                                                        double              value);
double         adbscope_chart_layer_time_to_x          (AdbscopeChartLayer *self,
                                                        gint64              time_us);
void           adbscope_chart_layer_format_value       (AdbscopeChartLayer *self,
                                                        double              value,
                                                        GString            *text);

void           adbscope_chart_palette_color            (guint               index_,
                                                        gboolean            dark,
                                                        GdkRGBA            *color);

G_END_DECLS
