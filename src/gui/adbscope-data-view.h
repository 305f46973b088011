/* adbscope-data-view.h: what the pages draw — the live session, or a frozen copy */
#pragma once

#include <gio/gio.h>

#include "adbscope-fast-collector.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DATA_VIEW (adbscope_data_view_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDataView, adbscope_data_view, ADBSCOPE, DATA_VIEW, GObject)

AdbscopeDataView *adbscope_data_view_new               (AdbscopeSession  *session);
AdbscopeSession  *adbscope_data_view_get_session       (AdbscopeDataView *self);
gboolean          adbscope_data_view_get_paused        (AdbscopeDataView *self);
void              adbscope_data_view_set_paused        (AdbscopeDataView *self,
                                                        gboolean          paused);
double            adbscope_data_view_get_visible_seconds (AdbscopeDataView *self);
void              adbscope_data_view_set_visible_seconds (AdbscopeDataView *self,
                                                          double            seconds);
gboolean          adbscope_data_view_is_supported      (AdbscopeDataView *self,
                                                        AdbscopeSource    source,
                                                        const char      **reason);
AdbscopeSeries   *adbscope_data_view_get_series        (AdbscopeDataView *self,
                                                        AdbscopeSeriesId  id);
guint             adbscope_data_view_get_n_cores       (AdbscopeDataView *self);
AdbscopeSeries   *adbscope_data_view_get_core_series   (AdbscopeDataView *self,
                                                        guint             core);
const double     *adbscope_data_view_get_core_freqs    (AdbscopeDataView *self,
                                                        guint            *n_cores);
const GArray     *adbscope_data_view_get_net_rates     (AdbscopeDataView *self);
GListModel       *adbscope_data_view_get_threads       (AdbscopeDataView *self);
const AdbscopeFramesSummary *adbscope_data_view_get_frames_summary (AdbscopeDataView *self);
GPtrArray        *adbscope_data_view_get_app_processes (AdbscopeDataView *self);
const float      *adbscope_data_view_get_frame_times   (AdbscopeDataView *self,
                                                        guint            *n_frames);
void              adbscope_data_view_get_frame_totals  (AdbscopeDataView *self,
                                                        gint64           *frames,
                                                        gint64           *janky,
                                                        gint64            causes[ADBSCOPE_JANK_N_CAUSES],
                                                        gboolean          has_cause[ADBSCOPE_JANK_N_CAUSES]);
gint64            adbscope_data_view_get_interval_us   (AdbscopeDataView *self);
guint             adbscope_data_view_get_n_updates     (AdbscopeDataView *self);

G_END_DECLS
