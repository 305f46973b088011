/* adbscope-chart-layer-private.h: what only AdbscopeChart calls on a layer */
#pragma once

#include "adbscope-chart-layer.h"

G_BEGIN_DECLS

void _adbscope_chart_layer_set_palette_index (AdbscopeChartLayer *self,
                                              guint               index_);

G_END_DECLS
