/* adbscope-samples-csv.h: every sample of a session as CSV */
#pragma once

#include "adbscope-session.h"

G_BEGIN_DECLS

char     *adbscope_samples_csv_build (AdbscopeSession  *session);
gboolean  adbscope_samples_csv_write (AdbscopeSession  *session,
                                      const char       *path,
                                      GError          **error);

G_END_DECLS
