/* adbscope-stacked-layer.h: several series stacked as filled areas */
#pragma once

#include "adbscope-chart-layer.h"
#include "adbscope-chart-source.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_STACKED_LAYER (adbscope_stacked_layer_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeStackedLayer, adbscope_stacked_layer, ADBSCOPE, STACKED_LAYER, AdbscopeChartLayer)

AdbscopeChartLayer *adbscope_stacked_layer_new          (void);
void                adbscope_stacked_layer_add_series   (AdbscopeStackedLayer *self,
                                                         AdbscopeSeries       *series,
                                                         const char           *title,
                                                         const GdkRGBA        *color);
void                adbscope_stacked_layer_set_series   (AdbscopeStackedLayer *self,
                                                         guint                 index_,
                                                         AdbscopeSeries       *series);
void                adbscope_stacked_layer_set_source   (AdbscopeStackedLayer *self,
                                                         guint                 index_,
                                                         AdbscopeChartSource  *source);

G_END_DECLS
