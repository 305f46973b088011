/* adbscope-parse-screencap.c: uptime, PNG, uptime and stat, split honestly */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-screencap.h"

#define USER_HZ 100.0

static const guint8 png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

static guint32
be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* The first number of a /proc/uptime line, in seconds; NaN if none. */
static double
uptime_s (const char *line)
{
  char *end = NULL;
  double v;

  if (line == NULL)
    return NAN;
  v = g_ascii_strtod (line, &end);
  if (end == line || !isfinite (v) || v < 0)
    return NAN;
  return v;
}

/* cutime + cstime (fields 16 and 17) of a /proc/PID/stat line, in ticks. */
static double
children_ticks (const char *line)
{
  const char *p = line ? strrchr (line, ')') : NULL;
  g_auto(GStrv) fields = NULL;
  guint64 cu, cs;

  if (p == NULL)
    return NAN;
  fields = g_strsplit_set (p + 1, " \n", -1);
  /* fields[0] is empty (the space after ')'), fields[1] the state (3). */
  if (g_strv_length (fields) < 16
      || !g_ascii_string_to_unsigned (fields[14], 10, 0, G_MAXUINT64, &cu, NULL)
      || !g_ascii_string_to_unsigned (fields[15], 10, 0, G_MAXUINT64, &cs, NULL))
    return NAN;
  return (double) (cu + cs);
}

/**
 * adbscope_parse_screencap:
 * @data: what the command wrote, whole
 *
 * Fails (parse) when there is no complete PNG in it: no signature, a
 * chunk running past the end, no IEND, no IDAT, or an IHDR that is not
 * first or not 13 bytes.  The
 * text before the PNG is what the device printed instead of one (the
 * error says it: "screencap: not found", a permission error).
 */
gboolean
adbscope_parse_screencap (const guint8      *data,
                          gsize              len,
                          AdbscopeScreencap *out,
                          GError           **error)
{
  const guint8 *sig;
  gsize pos, start;
  g_autofree char *head = NULL;
  g_autofree char *tail = NULL;
  g_auto(GStrv) lines = NULL;
  double before, after;
  gboolean ihdr = FALSE, idat = FALSE, iend = FALSE;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  sig = len >= sizeof png_signature ? memmem (data, len, png_signature, sizeof png_signature) : NULL;
  if (sig == NULL)
    {
      g_autofree char *text = len > 0 ? g_utf8_make_valid ((const char *) data, MIN (len, 300)) : g_strdup ("");

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The device sent no screenshot: %s"), g_strstrip (text));
      return FALSE;
    }
  start = sig - data;
  pos = start + sizeof png_signature;
  while (!iend)
    {
      guint32 length;

      if (len - pos < 12)
        break;
      length = be32 (data + pos);
      if (length > 0x7fffffffu || len - pos - 12 < length)
        break;
      /* IHDR is first and 13 bytes long (PNG spec 11.2.2) */
      if (memcmp (data + pos + 4, "IHDR", 4) == 0 && pos == start + sizeof png_signature && length == 13)
        {
          out->width = be32 (data + pos + 8);
          out->height = be32 (data + pos + 12);
          ihdr = TRUE;
        }
      idat |= memcmp (data + pos + 4, "IDAT", 4) == 0;
      iend = memcmp (data + pos + 4, "IEND", 4) == 0;
      pos += 12 + (gsize) length;
    }
  /* A picture has its pixels in at least one IDAT. */
  if (!ihdr || !idat || !iend || out->width == 0 || out->height == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The screenshot from the device is cut short or not a PNG (%lu bytes)"),
                   (unsigned long) (len - start));
      return FALSE;
    }
  out->png_offset = start;
  out->png_len = pos - start;

  head = g_strndup ((const char *) data, start);
  tail = g_strndup ((const char *) data + pos, len - pos);
  before = uptime_s (head);
  lines = g_strsplit (tail, "\n", 3);
  after = uptime_s (lines[0]);
  /* Both are printed in 1/100 s: the difference is a whole number of them. */
  out->wall_ms = isfinite (before) && isfinite (after) && after >= before ? round ((after - before) * USER_HZ) * 1000.0 / USER_HZ
                                                                          : NAN;
  out->cpu_ms = g_strv_length (lines) >= 2 ? children_ticks (lines[1]) * 1000.0 / USER_HZ : NAN;
  return TRUE;
}
