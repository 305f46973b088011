/* adbscope-report.h: the JSON report of a session (schema: docs/report.md) */
#pragma once

#include <json-glib/json-glib.h>

#include "adbscope-session.h"

G_BEGIN_DECLS

#define ADBSCOPE_REPORT_SCHEMA   "adbscope-report/1"
#define ADBSCOPE_MARKER_WINDOW_S 15

JsonNode *adbscope_report_build          (AdbscopeSession *session,
                                          GPtrArray       *assertions);
JsonNode *adbscope_report_build_skeleton (void);
void      adbscope_report_add_output_error (JsonNode    *report,
                                          const char      *message);
gboolean  adbscope_report_write          (JsonNode        *report,
                                          const char      *path,
                                          GError         **error);

G_END_DECLS
