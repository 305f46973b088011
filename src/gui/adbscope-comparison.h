/* adbscope-comparison.h: a second recording overlaid on the one shown */
#pragma once

#include <gio/gio.h>

#include "adbscope-recording-reader.h"
#include "adbscope-run.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_COMPARISON (adbscope_comparison_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeComparison, adbscope_comparison, ADBSCOPE, COMPARISON, GObject)

AdbscopeComparison *adbscope_comparison_new             (const char         *path,
                                                         GError            **error);
void                adbscope_comparison_new_async       (const char         *path,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
AdbscopeComparison *adbscope_comparison_new_finish      (GAsyncResult       *result,
                                                         GError            **error);
JsonNode           *adbscope_comparison_get_report      (AdbscopeComparison *self);
const AdbscopeRun  *adbscope_comparison_get_run         (AdbscopeComparison *self);
const char         *adbscope_comparison_get_path        (AdbscopeComparison *self);
AdbscopeRecordingReader *adbscope_comparison_get_reader (AdbscopeComparison *self);
const char         *adbscope_comparison_get_name        (AdbscopeComparison *self);
char               *adbscope_comparison_dup_description (AdbscopeComparison *self);
gint64              adbscope_comparison_get_offset      (AdbscopeComparison *self);
void                adbscope_comparison_set_offset      (AdbscopeComparison *self,
                                                         gint64              offset_us);
const GArray       *adbscope_comparison_get_core_samples (AdbscopeComparison *self,
                                                          guint               core);
GArray             *adbscope_comparison_sum_samples     (AdbscopeComparison *self,
                                                         const AdbscopeSeriesId *ids,
                                                         guint               n_ids);
gboolean            adbscope_comparison_find_marker     (AdbscopeComparison *self,
                                                         const char         *label,
                                                         gint64             *time_us);

char               *adbscope_run_describe               (const char         *path,
                                                         const char         *package,
                                                         const char         *start);

G_END_DECLS
