/* adbscope-chart-raster.h: a chart's plot drawn straight into pixels
 *
 * Every time layer draws boxes one pixel column wide (a line's min to
 * max, the area under it, a stacked band).  Filling them here, with the
 * exact area each box shares with a pixel as its coverage, costs a small
 * fraction of what the same boxes cost as a cairo node, which GTK 4.8
 * keeps as a recording surface and replays into a cleared image of its
 * own on every frame.  A chart gathers all such layers into one image and
 * hands it to GTK as one texture.
 */
#pragma once

#include <gtk/gtk.h>

#include "adbscope-chart-bucket.h"

G_BEGIN_DECLS

typedef struct _AdbscopeChartRaster AdbscopeChartRaster;

AdbscopeChartRaster *adbscope_chart_raster_new          (int                        width,
                                                         double                     top,
                                                         double                     height,
                                                         int                        scale);
void                 adbscope_chart_raster_free         (AdbscopeChartRaster       *self);
int                  adbscope_chart_raster_get_width    (const AdbscopeChartRaster *self);

void                 adbscope_chart_raster_fill_box     (AdbscopeChartRaster       *self,
                                                         int                        x0,
                                                         int                        x1,
                                                         double                     top,
                                                         double                     bottom,
                                                         const GdkRGBA             *color);
void                 adbscope_chart_raster_fill_columns (AdbscopeChartRaster       *self,
                                                         const AdbscopeChartColumn *columns,
                                                         guint                      width,
                                                         double                     pad,
                                                         guint                      dash,
                                                         const GdkRGBA             *color);
void                 adbscope_chart_raster_fill_area    (AdbscopeChartRaster       *self,
                                                         const AdbscopeChartColumn *columns,
                                                         guint                      width,
                                                         double                     base,
                                                         const GdkRGBA             *color);

const guint32       *adbscope_chart_raster_get_pixels   (const AdbscopeChartRaster *self,
                                                         int                       *width,
                                                         int                       *height,
                                                         int                       *stride);
void                 adbscope_chart_raster_append       (AdbscopeChartRaster       *self,
                                                         GtkSnapshot               *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeChartRaster, adbscope_chart_raster_free)

G_END_DECLS
