/* adbscope-control-request.h: what a request to the record's control
 * server means — pure, bounded, fuzzed (tests/record/fuzz)
 *
 * The server hands over method, path, Authorization header and body; this
 * decides.  A body is at most ADBSCOPE_CONTROL_MAX_BODY bytes and is read
 * by adbscope_json_parse_untrusted () (nesting at most ADBSCOPE_JSON_MAX_DEPTH,
 * checked before the JSON parser sees it); a label is valid
 * UTF-8 of at most ADBSCOPE_MARKER_MAX_LABEL bytes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_CONTROL_MAX_BODY   16384
#define ADBSCOPE_MARKER_MAX_LABEL   1024

typedef enum
{
  ADBSCOPE_CONTROL_MARK,
  ADBSCOPE_CONTROL_STOP,
} AdbscopeControlCommand;

typedef struct
{
  AdbscopeControlCommand  command;
  char                   *label;   /* mark only */
} AdbscopeControlRequest;

/* On failure *status is the HTTP status to answer with and @error says why
 * (code "forbidden" or "usage" through its GError code). */
AdbscopeControlRequest *adbscope_control_request_parse (const char    *method,
                                                        const char    *path,
                                                        const char    *authorization,
                                                        const char    *token,
                                                        const char    *body,
                                                        gsize          body_len,
                                                        guint         *status,
                                                        GError       **error);
gboolean                adbscope_control_label_is_valid (const char   *label,
                                                         GError      **error);
void                    adbscope_control_request_free  (AdbscopeControlRequest *request);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeControlRequest, adbscope_control_request_free)

G_END_DECLS
