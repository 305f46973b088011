/* adbscope-parse-dumpsys-private.h: text helpers shared by the dumpsys parsers
 *
 * In-tree only.  Dumpsys text comes from a device and may be truncated,
 * binary or carry a UTF-8 BOM and CRLF line ends (captures saved on
 * Windows), so every parser goes through these.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *buf;   /* owned copy, split in place */
  char *pos;
  char *end;
  char *cut;   /* the last line when the text does not end in a newline */
} AdbscopeLines;

void      _adbscope_lines_init        (AdbscopeLines *lines,
                                       const char    *text,
                                       gssize         len);
void      _adbscope_lines_clear       (AdbscopeLines *lines);
char     *_adbscope_lines_next        (AdbscopeLines *lines);
char     *_adbscope_lines_peek        (AdbscopeLines *lines);
gboolean  _adbscope_lines_is_cut      (AdbscopeLines *lines,
                                       const char    *line);

const char *_adbscope_skip_space      (const char    *s);
gboolean  _adbscope_is_blank          (const char    *s);
gboolean  _adbscope_parse_int64       (const char    *s,
                                       const char   **end,
                                       gint64        *out);
gboolean  _adbscope_dumpsys_parse_double      (const char    *s,
                                       const char   **end,
                                       double        *out);
gboolean  _adbscope_parse_grouped_int (const char    *s,
                                       const char   **end,
                                       gint64        *out);
const char *_adbscope_after_prefix    (const char    *s,
                                       const char    *prefix);
char     *_adbscope_dup_valid         (const char    *s,
                                       gssize         len);
gboolean  _adbscope_parse_uptime_line  (const char    *line,
                                       gint64        *uptime_ms,
                                       gint64        *realtime_ms);
char     *_adbscope_parse_pid_banner   (const char    *line,
                                       const char    *prefix,
                                       gint64        *pid,
                                       gboolean      *matched);
gboolean  _adbscope_check_common_errors (const char *line,
                                         GError    **error);

G_END_DECLS
