/* adbscope-overlay-layer.h: a series of a second recording, dashed over a chart */
#pragma once

#include "adbscope-chart-layer.h"
#include "adbscope-comparison.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_OVERLAY_LAYER (adbscope_overlay_layer_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeOverlayLayer, adbscope_overlay_layer, ADBSCOPE, OVERLAY_LAYER, AdbscopeChartLayer)

AdbscopeChartLayer *adbscope_overlay_layer_new            (AdbscopeComparison   *comparison,
                                                           const char           *series_path,
                                                           AdbscopeChartLayer   *partner,
                                                           guint                 partner_index);
AdbscopeChartLayer *adbscope_overlay_layer_new_for_samples (AdbscopeComparison  *comparison,
                                                            const GArray        *samples,
                                                            AdbscopeChartLayer  *partner,
                                                            guint                partner_index);
void                adbscope_overlay_layer_set_in_legend  (AdbscopeOverlayLayer *self,
                                                           gboolean              in_legend);
gboolean            adbscope_overlay_layer_find_sample    (AdbscopeOverlayLayer *self,
                                                           gint64                time_us,
                                                           gint64                max_distance_us,
                                                           AdbscopeSample       *sample);

G_END_DECLS
