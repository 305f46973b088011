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

G_END_DECLS
