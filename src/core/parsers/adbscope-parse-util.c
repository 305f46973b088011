/* adbscope-parse-util.c: line iteration and number parsing for the parsers */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-util-private.h"

gboolean
_adbscope_parse_check_input (const char  *text,
                             gssize      *len,
                             const char  *what,
                             GError     **error)
{
  g_assert (len != NULL);

  if (text == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s: no data"), what);
      return FALSE;
    }
  if (*len < 0)
    *len = strlen (text);
  if (*len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s: empty output"), what);
      return FALSE;
    }
  /* Device text never holds NUL bytes; one means binary garbage or a
   * UTF-16 file that was not decoded. */
  if (memchr (text, '\0', *len) != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s: binary data (NUL byte) in output"), what);
      return FALSE;
    }
  return TRUE;
}

void
_adbscope_line_iter_init (AdbscopeLineIter *iter,
                          const char       *text,
                          gsize             len)
{
  iter->pos = text;
  iter->end = text + len;
  iter->line_no = 0;
}

gboolean
_adbscope_line_iter_next (AdbscopeLineIter  *iter,
                          const char       **line,
                          gsize             *line_len)
{
  const char *nl;
  gsize n;

  if (iter->pos == NULL || iter->pos >= iter->end)
    return FALSE;

  nl = memchr (iter->pos, '\n', iter->end - iter->pos);
  n = (nl ? nl : iter->end) - iter->pos;
  *line = iter->pos;
  while (n > 0 && iter->pos[n - 1] == '\r')
    n--;
  *line_len = n;
  iter->pos = nl ? nl + 1 : iter->end;
  iter->line_no++;
  return TRUE;
}

const char *
_adbscope_skip_spaces (const char *p,
                       const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

const char *
_adbscope_skip_token (const char *p,
                      const char *end)
{
  while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
    p++;
  return p;
}

gboolean
_adbscope_parse_u64 (const char *p,
                     gsize       len,
                     guint64    *out)
{
  guint64 v = 0;
  gsize i;

  if (len == 0 || len > 20)
    return FALSE;
  for (i = 0; i < len; i++)
    {
      guint d;

      if (p[i] < '0' || p[i] > '9')
        return FALSE;
      d = p[i] - '0';
      if (v > (G_MAXUINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
    }
  *out = v;
  return TRUE;
}

gboolean
_adbscope_parse_i64 (const char *p,
                     gsize       len,
                     gint64     *out)
{
  gboolean neg = FALSE;
  guint64 v;

  if (len > 0 && (p[0] == '-' || p[0] == '+'))
    {
      neg = p[0] == '-';
      p++;
      len--;
    }
  if (!_adbscope_parse_u64 (p, len, &v))
    return FALSE;
  if (neg)
    {
      if (v > (guint64) G_MAXINT64 + 1)
        return FALSE;
      *out = v == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) v;
    }
  else
    {
      if (v > G_MAXINT64)
        return FALSE;
      *out = (gint64) v;
    }
  return TRUE;
}

gboolean
_adbscope_parse_double (const char *p,
                        gsize       len,
                        double     *out)
{
  char buf[64];
  char *endp = NULL;
  double v;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, p, len);
  buf[len] = '\0';
  /* strtod would accept "inf", "nan" and hex; device numbers are decimal. */
  if (strpbrk (buf, "iInNxX") != NULL)
    return FALSE;
  v = g_ascii_strtod (buf, &endp);
  if (endp != buf + len)
    return FALSE;
  *out = v;
  return TRUE;
}

/* Names from the device (comm, ps NAME, property values) end up in JSON
 * and GTK labels, which need valid UTF-8: invalid bytes become '?'. */
static void
make_utf8_valid_in_place (char *s,
                          gsize len)
{
  const char *bad;

  while (!g_utf8_validate (s, len, &bad))
    {
      gsize off = bad - s;

      s[off] = '?';
      s += off + 1;
      len -= off + 1;
    }
}

char *
_adbscope_strndup_utf8 (const char *p,
                        gsize       len)
{
  char *s = g_strndup (p, len);

  make_utf8_valid_in_place (s, len);
  return s;
}

void
_adbscope_copy_utf8 (char       *dest,
                     gsize       dest_size,
                     const char *src,
                     gsize       src_len)
{
  gsize n;

  g_assert (dest_size > 0);
  n = MIN (src_len, dest_size - 1);
  memcpy (dest, src, n);
  dest[n] = '\0';
  make_utf8_valid_in_place (dest, n);
}

gboolean
_adbscope_has_prefix_len (const char *line,
                          gsize       len,
                          const char *prefix)
{
  gsize plen = strlen (prefix);

  return len >= plen && memcmp (line, prefix, plen) == 0;
}
