/* adbscope-parse-util-private.h: helpers shared by the adbscope-parse-* parsers
 *
 * In-tree only.  Every parser takes (text, len): len < 0 means NUL-terminated,
 * and text may be NULL (a file the device did not print), which is a parse
 * error with a clear message rather than a crash.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Iterates over lines without copying.  A trailing '\r' is dropped because a
 * legacy (pre-shell-v2) adb shell turns every '\n' into "\r\n". */
typedef struct
{
  const char *pos;
  const char *end;
  guint       line_no;
} AdbscopeLineIter;

gboolean     _adbscope_parse_check_input (const char        *text,
                                          gssize            *len,
                                          const char        *what,
                                          GError           **error);
void         _adbscope_line_iter_init    (AdbscopeLineIter  *iter,
                                          const char        *text,
                                          gsize              len);
gboolean     _adbscope_line_iter_next    (AdbscopeLineIter  *iter,
                                          const char       **line,
                                          gsize             *line_len);

const char  *_adbscope_skip_spaces       (const char        *p,
                                          const char        *end);
const char  *_adbscope_skip_token        (const char        *p,
                                          const char        *end);
gboolean     _adbscope_parse_u64         (const char        *p,
                                          gsize              len,
                                          guint64           *out);
gboolean     _adbscope_parse_i64         (const char        *p,
                                          gsize              len,
                                          gint64            *out);
gboolean     _adbscope_parse_double      (const char        *p,
                                          gsize              len,
                                          double            *out);
char        *_adbscope_strndup_utf8      (const char        *p,
                                          gsize              len);
void         _adbscope_copy_utf8         (char              *dest,
                                          gsize              dest_size,
                                          const char        *src,
                                          gsize              src_len);
gboolean     _adbscope_has_prefix_len    (const char        *line,
                                          gsize              len,
                                          const char        *prefix);

G_END_DECLS
