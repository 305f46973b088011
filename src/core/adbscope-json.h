/* adbscope-json.h: JSON from outside (recordings, reports, the control
 * port) read with limits, and JSON written so that every number is valid
 *
 * Recordings and reports are shared and dropped on the window: they are
 * hostile input.  json-glib 1.6's parser recurses once per nesting level
 * (200 000 levels overflow the stack; 30 000 take seconds and gigabytes),
 * so a cheap pre-scan counts the brackets outside strings and refuses
 * anything nested deeper than ADBSCOPE_JSON_MAX_DEPTH or larger than the
 * caller's size limit before json-glib sees it.  Numbers are read through
 * typed lookups: a string where a number belongs is "no number" (NaN, or
 * the caller's default), never 0.
 *
 * json-glib writes a double with "%.17g" and appends ".0" when it sees no
 * point: 1e308 becomes "1e+308.0" and NaN "nan.0", neither JSON.
 * adbscope_json_to_string () writes what json_to_string () does with those
 * tokens fixed (the exponent form kept, non-finite numbers as null).
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_JSON_MAX_DEPTH      64
/* a report of a long run with the capped lists is a few MiB */
#define ADBSCOPE_JSON_MAX_FILE_SIZE  (64 * 1024 * 1024)

gboolean  adbscope_json_depth_within     (const char  *data,
                                          gsize        len,
                                          guint        max_depth);
JsonNode *adbscope_json_parse_untrusted  (const char  *data,
                                          gssize       len,
                                          gsize        max_size,
                                          GError     **error);
JsonNode *adbscope_json_load_untrusted   (const char  *path,
                                          gsize        max_size,
                                          GError     **error);

gboolean  adbscope_json_node_number      (JsonNode    *node,
                                          double      *value);
double    adbscope_json_member_number    (JsonObject  *object,
                                          const char  *key);
gint64    adbscope_json_member_int       (JsonObject  *object,
                                          const char  *key,
                                          gint64       fallback);

char     *adbscope_json_to_string        (JsonNode    *node,
                                          gboolean     pretty);

G_END_DECLS
