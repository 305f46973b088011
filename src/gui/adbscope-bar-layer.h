/* adbscope-bar-layer.h: a histogram drawn as bars over given bins */
#pragma once

#include "adbscope-chart-layer.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_BAR_LAYER (adbscope_bar_layer_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeBarLayer, adbscope_bar_layer, ADBSCOPE, BAR_LAYER, AdbscopeChartLayer)

AdbscopeChartLayer *adbscope_bar_layer_new       (const char       *title);
void                adbscope_bar_layer_set_bins  (AdbscopeBarLayer *self,
                                                  const double     *edges,
                                                  guint             n_edges,
                                                  const double     *counts);

G_END_DECLS
