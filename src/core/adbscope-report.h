/* adbscope-report.h: the JSON report of a session (schema: docs/report.md) */
#pragma once

#include <json-glib/json-glib.h>

#include "adbscope-session.h"

G_BEGIN_DECLS

#define ADBSCOPE_REPORT_SCHEMA   "adbscope-report/1"
#define ADBSCOPE_MARKER_WINDOW_S 15

typedef struct _AdbscopeRun AdbscopeRun;

JsonNode *adbscope_report_build          (AdbscopeSession *session,
                                          GPtrArray       *assertions);
JsonNode *adbscope_report_build_run      (const AdbscopeRun *run,
                                          GPtrArray       *assertions);
void      adbscope_report_set_assertions (JsonNode        *report,
                                          GPtrArray       *assertions);
JsonObject *adbscope_report_device_object  (const AdbscopeProbeResult *probe,
                                            const char      *serial);
JsonObject *adbscope_report_sources_object (const AdbscopeProbeResult *probe);
JsonNode *adbscope_report_build_skeleton (void);
void      adbscope_report_add_output_error (JsonNode    *report,
                                          const char      *message);
gboolean  adbscope_report_write          (JsonNode        *report,
                                          const char      *path,
                                          GError         **error);

JsonObject *adbscope_report_device_loss (AdbscopeSession *session);
JsonObject *adbscope_report_session_extras (AdbscopeSession *session);

typedef struct _AdbscopeRecording AdbscopeRecording;

gboolean  adbscope_report_finish_recording (AdbscopeRecording *recording,
                                            AdbscopeSession   *session,
                                            GError           **error);

G_END_DECLS
