/* adbscope-data-view.h: what the pages draw — the live session, or a frozen copy */
#pragma once

#include <gio/gio.h>

#include "adbscope-chart-source.h"
#include "adbscope-recording-reader.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DATA_VIEW (adbscope_data_view_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDataView, adbscope_data_view, ADBSCOPE, DATA_VIEW, GObject)

AdbscopeDataView          *adbscope_data_view_new                 (AdbscopeSession  *session);
gboolean                   adbscope_data_view_get_paused          (AdbscopeDataView *self);
void                       adbscope_data_view_set_paused          (AdbscopeDataView *self,
                                                                   gboolean          paused);
double                     adbscope_data_view_get_visible_seconds (AdbscopeDataView *self);
void                       adbscope_data_view_set_visible_seconds (AdbscopeDataView *self,
                                                                   double            seconds);
gint64                     adbscope_data_view_get_end_time        (AdbscopeDataView *self);
void                       adbscope_data_view_set_end_time        (AdbscopeDataView *self,
                                                                   gint64            end_time_us);
gint64                     adbscope_data_view_get_interval_us     (AdbscopeDataView *self);

const char                *adbscope_data_view_get_package         (AdbscopeDataView *self);
const AdbscopeProbeResult *adbscope_data_view_get_probe           (AdbscopeDataView *self);
gboolean                   adbscope_data_view_is_supported        (AdbscopeDataView *self,
                                                                   AdbscopeSource    source,
                                                                   const char      **reason);
AdbscopeSeries            *adbscope_data_view_get_series          (AdbscopeDataView *self,
                                                                   AdbscopeSeriesId  id);
AdbscopeChartSource       *adbscope_data_view_get_source          (AdbscopeDataView *self,
                                                                   AdbscopeSeriesId  id);
AdbscopeChartSource       *adbscope_data_view_get_core_source     (AdbscopeDataView *self,
                                                                   guint             core);
void                       adbscope_data_view_set_opened_path     (AdbscopeDataView *self,
                                                                   const char       *path);
void                       adbscope_data_view_set_details_pending (AdbscopeDataView *self,
                                                                   gboolean          pending);
gboolean                   adbscope_data_view_get_details_pending (AdbscopeDataView *self);
const char                *adbscope_data_view_get_opened_path     (AdbscopeDataView *self);
AdbscopeRecordingReader   *adbscope_data_view_get_reader          (AdbscopeDataView *self);
guint                      adbscope_data_view_get_n_cores         (AdbscopeDataView *self);
AdbscopeSeries            *adbscope_data_view_get_core_series     (AdbscopeDataView *self,
                                                                   guint             core);
const double              *adbscope_data_view_get_core_freqs      (AdbscopeDataView *self,
                                                                   guint            *n_cores);
const GArray              *adbscope_data_view_get_net_rates       (AdbscopeDataView *self);
GListModel                *adbscope_data_view_get_threads         (AdbscopeDataView *self);
AdbscopeNetwork           *adbscope_data_view_get_network         (AdbscopeDataView *self);
const double              *adbscope_data_view_get_frame_times     (AdbscopeDataView *self,
                                                                   guint            *n_frames);
double                     adbscope_data_view_get_frame_time_percentile (AdbscopeDataView *self,
                                                                         double            p);
const AdbscopeFrameTotals *adbscope_data_view_get_frame_totals    (AdbscopeDataView *self);
const AdbscopeSystemState *adbscope_data_view_get_system_state    (AdbscopeDataView *self);
const GArray              *adbscope_data_view_get_pids            (AdbscopeDataView *self);
guint                      adbscope_data_view_get_restarts        (AdbscopeDataView *self);
guint64                    adbscope_data_view_get_n_samples       (AdbscopeDataView *self);
double                     adbscope_data_view_get_measured_interval_ms (AdbscopeDataView *self);
guint                      adbscope_data_view_get_n_markers       (AdbscopeDataView *self);
const AdbscopeMarker      *adbscope_data_view_get_marker          (AdbscopeDataView *self,
                                                                   guint             index_);

const AdbscopeFramesSummary *adbscope_data_view_get_frames_summary (AdbscopeDataView *self);
GPtrArray                 *adbscope_data_view_get_app_processes (AdbscopeDataView *self);

void                       adbscope_data_view_set_recording       (AdbscopeDataView *self,
                                                                   const char       *path);
const char                *adbscope_data_view_get_recording       (AdbscopeDataView *self);
gboolean                   adbscope_data_view_get_screenshots_enabled (AdbscopeDataView *self);
guint                      adbscope_data_view_get_n_screenshots   (AdbscopeDataView *self);
const AdbscopeScreenshot  *adbscope_data_view_get_screenshot      (AdbscopeDataView *self,
                                                                   guint             index_);
double                     adbscope_data_view_get_run_time_s      (AdbscopeDataView *self,
                                                                   gint64            time_us);
GBytes                    *adbscope_data_view_load_screenshot     (AdbscopeDataView *self,
                                                                   guint             index_,
                                                                   GError          **error);

G_END_DECLS
