/* adbscope-chart-card.h: a titled time chart of session series, with its current value */
#pragma once

#include <gtk/gtk.h>

#include "adbscope-chart.h"
#include "adbscope-comparison.h"
#include "adbscope-data-view.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CHART_CARD (adbscope_chart_card_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeChartCard, adbscope_chart_card, ADBSCOPE, CHART_CARD, GtkWidget)

GtkWidget     *adbscope_chart_card_new        (void);
const char    *adbscope_chart_card_get_title  (AdbscopeChartCard *self);
AdbscopeChart *adbscope_chart_card_get_chart  (AdbscopeChartCard *self);
const char    *adbscope_chart_card_get_state  (AdbscopeChartCard *self);
const char    *adbscope_chart_card_get_value_text (AdbscopeChartCard *self);
void           adbscope_chart_card_set_view   (AdbscopeChartCard *self,
                                               AdbscopeDataView  *view);
void           adbscope_chart_card_update     (AdbscopeChartCard *self,
                                               AdbscopeDataView  *view);
void           adbscope_chart_card_set_comparison (AdbscopeChartCard  *self,
                                                   AdbscopeComparison *comparison);
GPtrArray     *adbscope_chart_card_list_overlays (AdbscopeChartCard *self);

void           adbscope_chart_sync_markers    (AdbscopeChart     *chart,
                                               AdbscopeDataView  *view);
void           adbscope_chart_bind_view       (AdbscopeChart     *chart,
                                               AdbscopeDataView  *view,
                                               GBinding          *bindings[3]);

G_END_DECLS
