/* adbscope-chart.h: a time chart holding AdbscopeChartLayers
 *
 * The chart owns the time window, value range, axes, legend, markers and
 * hover state; layers draw the data.  It never fetches data: whoever owns
 * the series pushes samples and calls adbscope_chart_queue_update().
 */
#pragma once

#include <gtk/gtk.h>

#include "adbscope-chart-layer.h"

G_BEGIN_DECLS

/* How far a layer may draw above and below the plot area: half a line's
 * width and a little, so a value at the very edge of the range (60 fps on
 * a 60 fps axis, a battery at 100 %) is drawn whole, not half clipped. */
#define ADBSCOPE_CHART_BLEED 1.0

#define ADBSCOPE_TYPE_CHART (adbscope_chart_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeChart, adbscope_chart, ADBSCOPE, CHART, GtkWidget)

typedef enum
{
  ADBSCOPE_CHART_X_AXIS_TIME,  /* relative time ending at end-time */
  ADBSCOPE_CHART_X_AXIS_BINS,  /* categories from the first layer (histograms) */
} AdbscopeChartXAxis;

/* A labelled moment (the session's markers); drawn on every time chart. */
typedef struct
{
  gint64      time_us;
  const char *label;
} AdbscopeChartMarker;

GtkWidget          *adbscope_chart_new              (void);
void                adbscope_chart_add_layer        (AdbscopeChart            *self,
                                                     AdbscopeChartLayer       *layer);
void                adbscope_chart_remove_layer     (AdbscopeChart            *self,
                                                     AdbscopeChartLayer       *layer);
void                adbscope_chart_queue_update     (AdbscopeChart            *self);

const char         *adbscope_chart_get_title        (AdbscopeChart            *self);
void                adbscope_chart_set_title        (AdbscopeChart            *self,
                                                     const char               *title);
const char         *adbscope_chart_get_unit         (AdbscopeChart            *self);
void                adbscope_chart_set_unit         (AdbscopeChart            *self,
                                                     const char               *unit);
double              adbscope_chart_get_visible_seconds (AdbscopeChart         *self);
void                adbscope_chart_set_visible_seconds (AdbscopeChart         *self,
                                                        double                 seconds);
gint64              adbscope_chart_get_end_time     (AdbscopeChart            *self);
void                adbscope_chart_set_end_time     (AdbscopeChart            *self,
                                                     gint64                    end_time_us);
gint64              adbscope_chart_get_interval     (AdbscopeChart            *self);
void                adbscope_chart_set_interval     (AdbscopeChart            *self,
                                                     gint64                    interval_us);
gboolean            adbscope_chart_get_run_clock    (AdbscopeChart            *self);
void                adbscope_chart_set_run_clock    (AdbscopeChart            *self,
                                                     gboolean                  run_clock);
gboolean            adbscope_chart_get_auto_range   (AdbscopeChart            *self);
void                adbscope_chart_set_auto_range   (AdbscopeChart            *self,
                                                     gboolean                  auto_range);
void                adbscope_chart_set_value_range  (AdbscopeChart            *self,
                                                     double                    min,
                                                     double                    max);
void                adbscope_chart_get_value_range  (AdbscopeChart            *self,
                                                     double                   *min,
                                                     double                   *max);
AdbscopeChartXAxis  adbscope_chart_get_x_axis       (AdbscopeChart            *self);
void                adbscope_chart_set_x_axis       (AdbscopeChart            *self,
                                                     AdbscopeChartXAxis        x_axis);
void                adbscope_chart_set_markers      (AdbscopeChart            *self,
                                                     const AdbscopeChartMarker *markers,
                                                     guint                     n_markers);
void                adbscope_chart_add_marker       (AdbscopeChart            *self,
                                                     gint64                    time_us,
                                                     const char               *label);
guint               adbscope_chart_get_n_markers    (AdbscopeChart            *self);
void                adbscope_chart_add_event        (AdbscopeChart            *self,
                                                     gint64                    time_us,
                                                     const char               *label);
guint               adbscope_chart_get_n_events     (AdbscopeChart            *self);
char               *adbscope_chart_describe_events_at (AdbscopeChart          *self,
                                                     double                    x);
double              adbscope_chart_time_to_x        (AdbscopeChart            *self,
                                                     gint64                    time_us);
void                adbscope_chart_get_time_window  (AdbscopeChart            *self,
                                                     gint64                   *t0_us,
                                                     gint64                   *t1_us);
void                adbscope_chart_format_time      (AdbscopeChart            *self,
                                                     gint64                    time_us,
                                                     GString                  *text);
gboolean            adbscope_chart_get_plot_area    (AdbscopeChart            *self,
                                                     graphene_rect_t          *area);

G_END_DECLS
