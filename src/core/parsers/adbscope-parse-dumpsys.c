/* adbscope-parse-dumpsys.c: text helpers shared by the dumpsys parsers */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-dumpsys-private.h"

void
_adbscope_lines_init (AdbscopeLines *lines,
                      const char    *text,
                      gssize         len)
{
  gsize n;

  g_assert (lines != NULL);

  if (text == NULL)
    text = "";
  n = len < 0 ? strlen (text) : (gsize) len;

  /* A UTF-8 BOM appears when a capture went through PowerShell. */
  if (n >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    {
      text += 3;
      n -= 3;
    }

  lines->buf = g_malloc (n + 1);

  /* One pass: drop the CRs before a line end (CRLF of a legacy shell's
   * pty, CR CR LF of a capture saved again through Windows), turn stray
   * NULs of binary junk into blanks, and split lines in place so each is
   * a C string. */
  {
    gsize o = 0;

    for (gsize i = 0; i < n; i++)
      {
        char c = text[i];

        if (c == '\r')
          {
            gsize k = i;

            while (k < n && text[k] == '\r')
              k++;
            if (k == n || text[k] == '\n')
              {
                i = k - 1;
                continue;
              }
          }
        if (c == '\0')
          c = ' ';
        else if (c == '\n')
          c = '\0';
        lines->buf[o++] = c;
      }
    lines->buf[o] = '\0';
    n = o;
  }

  lines->pos = lines->buf;
  lines->end = lines->buf + n;

  /* Output cut in the middle of a line (a dropped connection, a timeout)
   * leaves a last line whose final number may be short: "TOTAL 68856"
   * for "TOTAL 688561".  Parsers must not take numbers from it. */
  lines->cut = NULL;
  if (n > 0 && lines->buf[n - 1] != '\0')
    {
      char *last = lines->buf + n;

      while (last > lines->buf && last[-1] != '\0')
        last--;
      lines->cut = last;
    }
}

void
_adbscope_lines_clear (AdbscopeLines *lines)
{
  g_clear_pointer (&lines->buf, g_free);
  lines->pos = lines->end = lines->cut = NULL;
}

char *
_adbscope_lines_peek (AdbscopeLines *lines)
{
  if (lines->pos == NULL || lines->pos >= lines->end)
    return NULL;
  return lines->pos;
}

gboolean
_adbscope_lines_is_cut (AdbscopeLines *lines,
                        const char    *line)
{
  return line != NULL && line == lines->cut;
}

char *
_adbscope_lines_next (AdbscopeLines *lines)
{
  char *line = _adbscope_lines_peek (lines);

  if (line != NULL)
    lines->pos = line + strlen (line) + 1;
  return line;
}

const char *
_adbscope_skip_space (const char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

gboolean
_adbscope_is_blank (const char *s)
{
  return *_adbscope_skip_space (s) == '\0';
}

gboolean
_adbscope_parse_int64 (const char  *s,
                       const char **end,
                       gint64      *out)
{
  char *e = NULL;
  gint64 v;

  s = _adbscope_skip_space (s);
  if (!(g_ascii_isdigit (*s) || ((*s == '-' || *s == '+') && g_ascii_isdigit (s[1]))))
    return FALSE;

  errno = 0;
  v = g_ascii_strtoll (s, &e, 10);
  if (errno != 0 || e == s)
    return FALSE;

  *out = v;
  if (end != NULL)
    *end = e;
  return TRUE;
}

gboolean
_adbscope_dumpsys_parse_double (const char  *s,
                        const char **end,
                        double      *out)
{
  char *e = NULL;
  double v;

  s = _adbscope_skip_space (s);
  if (!(g_ascii_isdigit (*s) || ((*s == '-' || *s == '+' || *s == '.') && s[1] != '\0')))
    return FALSE;

  errno = 0;
  v = g_ascii_strtod (s, &e);
  if (errno != 0 || e == s || !isfinite (v))
    return FALSE;

  *out = v;
  if (end != NULL)
    *end = e;
  return TRUE;
}

/* "3,889,512" as printed by `dumpsys meminfo` for system totals. */
gboolean
_adbscope_parse_grouped_int (const char  *s,
                             const char **end,
                             gint64      *out)
{
  gint64 v = 0;
  gboolean neg = FALSE;
  gboolean any = FALSE;

  s = _adbscope_skip_space (s);
  if (*s == '-')
    {
      neg = TRUE;
      s++;
    }

  for (;;)
    {
      if (g_ascii_isdigit (*s))
        {
          if (v > (G_MAXINT64 - 9) / 10)
            return FALSE;
          v = v * 10 + (*s - '0');
          any = TRUE;
          s++;
        }
      else if (*s == ',' && any && g_ascii_isdigit (s[1]))
        s++;
      else
        break;
    }

  if (!any)
    return FALSE;

  *out = neg ? -v : v;
  if (end != NULL)
    *end = s;
  return TRUE;
}

/* The rest of @s after @prefix (leading blanks of @s ignored), or NULL. */
const char *
_adbscope_after_prefix (const char *s,
                        const char *prefix)
{
  gsize n = strlen (prefix);

  s = _adbscope_skip_space (s);
  if (strncmp (s, prefix, n) != 0)
    return NULL;
  return s + n;
}

/* Names copied out of device text end up in JSON, which needs UTF-8. */
char *
_adbscope_dup_valid (const char *s,
                     gssize      len)
{
  return g_utf8_make_valid (s, len);
}

/* Lines that replace a whole dump: the service is absent on this build, or
 * the package has no process. */
gboolean
_adbscope_check_common_errors (const char  *line,
                               GError     **error)
{
  const char *rest;

  if ((rest = _adbscope_after_prefix (line, "Can't find service: ")) != NULL)
    {
      g_autofree char *name = _adbscope_dup_valid (rest, -1);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("The device has no “%s” service"), g_strstrip (name));
      return FALSE;
    }

  if ((rest = _adbscope_after_prefix (line, "No process found for: ")) != NULL)
    {
      g_autofree char *name = _adbscope_dup_valid (rest, -1);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING,
                   _("No process is running for “%s”"), g_strstrip (name));
      return FALSE;
    }

  return TRUE;
}

/* "Uptime: 89896149 Realtime: 89896149" (ms), printed by gfxinfo and
 * meminfo.  @realtime_ms is left alone when the line has none. */
gboolean
_adbscope_parse_uptime_line (const char *line,
                             gint64     *uptime_ms,
                             gint64     *realtime_ms)
{
  const char *rest = _adbscope_after_prefix (line, "Uptime: ");
  gint64 up, real;

  if (rest == NULL || !_adbscope_parse_int64 (rest, &rest, &up))
    return FALSE;
  *uptime_ms = up;
  if ((rest = _adbscope_after_prefix (rest, "Realtime: ")) != NULL &&
      _adbscope_parse_int64 (rest, NULL, &real))
    *realtime_ms = real;
  return TRUE;
}

/* "** Graphics info for pid 3015 [com.android.settings] **" and
 * "** MEMINFO in pid 3015 [com.android.settings] **": PREFIX is everything
 * up to the pid.  Returns the package (valid UTF-8, or NULL when the banner
 * names none) and sets *matched. */
char *
_adbscope_parse_pid_banner (const char *line,
                            const char *prefix,
                            gint64     *pid,
                            gboolean   *matched)
{
  const char *rest = _adbscope_after_prefix (line, prefix);
  const char *open;
  const char *close;

  *matched = FALSE;
  if (rest == NULL || !_adbscope_parse_int64 (rest, &rest, pid) || *pid < 0)
    return NULL;
  *matched = TRUE;
  open = strchr (rest, '[');
  close = open != NULL ? strrchr (open, ']') : NULL;
  if (open == NULL || close == NULL)
    return NULL;
  return _adbscope_dup_valid (open + 1, close - open - 1);
}
