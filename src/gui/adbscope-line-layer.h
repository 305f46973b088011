/* adbscope-line-layer.h: one series drawn as a line (optionally filled) */
#pragma once

#include "adbscope-chart-layer.h"
#include "adbscope-chart-source.h"

G_BEGIN_DECLS

/* px: the drawn line's width (a column's box reaches half of it beyond
 * the column's extent) */
#define ADBSCOPE_LINE_LAYER_WIDTH 1.5

#define ADBSCOPE_TYPE_LINE_LAYER (adbscope_line_layer_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeLineLayer, adbscope_line_layer, ADBSCOPE, LINE_LAYER, AdbscopeChartLayer)

AdbscopeChartLayer *adbscope_line_layer_new        (AdbscopeSeries    *series,
                                                    const char        *title);
AdbscopeChartLayer *adbscope_line_layer_new_for_source (AdbscopeChartSource *source,
                                                        const char          *title);
AdbscopeSeries     *adbscope_line_layer_get_series (AdbscopeLineLayer *self);
void                adbscope_line_layer_set_series (AdbscopeLineLayer *self,
                                                    AdbscopeSeries    *series);
AdbscopeChartSource *adbscope_line_layer_get_source (AdbscopeLineLayer  *self);
void                adbscope_line_layer_set_source (AdbscopeLineLayer   *self,
                                                    AdbscopeChartSource *source);
gboolean            adbscope_line_layer_get_fill   (AdbscopeLineLayer *self);
void                adbscope_line_layer_set_fill   (AdbscopeLineLayer *self,
                                                    gboolean           fill);

G_END_DECLS
