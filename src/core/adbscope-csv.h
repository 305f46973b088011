/* adbscope-csv.h: samples as CSV, one row per fast sample */
#pragma once

#include "adbscope-session.h"

G_BEGIN_DECLS

void     adbscope_csv_append_header (GString         *out,
                                     AdbscopeSession *session);
void     adbscope_csv_append_row    (GString         *out,
                                     AdbscopeSession *session,
                                     gint64           time_us);
gboolean adbscope_csv_write_session (AdbscopeSession *session,
                                     const char      *path,
                                     GError         **error);

typedef void (*AdbscopeCsvProgress) (double   fraction,
                                     gpointer user_data);

gboolean adbscope_csv_write_recording (const char          *recording,
                                       guint                interval_ms,
                                       guint                meminfo_interval_ms,
                                       const char          *path,
                                       GCancellable        *cancellable,
                                       AdbscopeCsvProgress  progress,
                                       gpointer             user_data,
                                       GError             **error);

G_END_DECLS
