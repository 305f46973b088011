/* adbscope-json.c: see adbscope-json.h */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-json.h"

/**
 * adbscope_json_depth_within:
 *
 * The deepest nesting of arrays and objects, outside strings, is at most
 * @max_depth.  json-glib also reads comments and single-quoted strings,
 * which could hide brackets from this count: outside a string either is
 * refused (it is not JSON), and so is a NUL.
 */
gboolean
adbscope_json_depth_within (const char *data,
                            gsize       len,
                            guint       max_depth)
{
  gboolean in_string = FALSE, escaped = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '/' || c == '\'' || c == '\0')
        return FALSE;
      else if (c == '{' || c == '[')
        {
          if (++depth > max_depth)
            return FALSE;
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }
  return TRUE;
}

/**
 * adbscope_json_parse_untrusted:
 * @len: bytes of @data, or -1 for a NUL-terminated string
 * @max_size: the most bytes accepted
 *
 * Returns: (transfer full): the root, or NULL with a parse_error that says
 * which limit was passed or what json-glib did not read.
 */
JsonNode *
adbscope_json_parse_untrusted (const char  *data,
                               gssize       len,
                               gsize        max_size,
                               GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  gsize n;
  JsonNode *root;

  if (data == NULL)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("The JSON text is empty"));
      return NULL;
    }
  n = len < 0 ? strlen (data) : (gsize) len;
  if (n > max_size)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The JSON text is larger than %llu bytes"), (unsigned long long) max_size);
      return NULL;
    }
  if (!adbscope_json_depth_within (data, n, ADBSCOPE_JSON_MAX_DEPTH))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The JSON text is not plain JSON nested at most %d deep"), ADBSCOPE_JSON_MAX_DEPTH);
      return NULL;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, (gssize) n, &local))
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("The JSON text is empty"));
      return NULL;
    }
  return json_node_ref (root);
}

/**
 * adbscope_json_load_untrusted:
 *
 * The file at @path through adbscope_json_parse_untrusted (); at most
 * @max_size + 1 bytes are ever read (a FIFO or /dev/zero too).  I/O
 * errors are io_error, the rest parse_error.
 *
 * Returns: (transfer full): the root, or NULL
 */
JsonNode *
adbscope_json_load_untrusted (const char  *path,
                              gsize        max_size,
                              GError     **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  guint8 chunk[65536];

  if (fd < 0)
    {
      int errsv = errno;
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, g_strerror (errsv));
      return NULL;
    }
  for (;;)
    {
      gssize r = read (fd, chunk, sizeof chunk);

      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          int errsv = errno;
          close (fd);
          g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, g_strerror (errsv));
          return NULL;
        }
      if (r == 0)
        break;
      g_byte_array_append (buf, chunk, (guint) r);
      if (buf->len > max_size)
        {
          close (fd);
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("The JSON text is larger than %llu bytes"), (unsigned long long) max_size);
          return NULL;
        }
    }
  close (fd);
  return adbscope_json_parse_untrusted ((const char *) buf->data, buf->len, max_size, error);
}

/* TRUE when @node is a JSON number (not a string, boolean or null). */
gboolean
adbscope_json_node_number (JsonNode *node,
                           double   *value)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return FALSE;
  if (value != NULL)
    *value = json_node_get_double (node);
  return TRUE;
}

/* The number at @key, NaN when it is missing or not a number. */
double
adbscope_json_member_number (JsonObject *object,
                             const char *key)
{
  double v;

  if (object == NULL || !adbscope_json_node_number (json_object_get_member (object, key), &v))
    return NAN;
  return v;
}

/* The integer at @key; @fallback when it is missing, not a number, not
 * whole or out of gint64's range. */
gint64
adbscope_json_member_int (JsonObject *object,
                          const char *key,
                          gint64      fallback)
{
  JsonNode *node = object ? json_object_get_member (object, key) : NULL;
  double v;

  if (!adbscope_json_node_number (node, &v))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (!isfinite (v) || v != floor (v) || v < -9.2e18 || v > 9.2e18)
    return fallback;
  return (gint64) v;
}

static gboolean
token_end (char c)
{
  return c == '\0' || c == ',' || c == ']' || c == '}' || c == ':' || g_ascii_isspace (c);
}

/**
 * adbscope_json_to_string:
 *
 * json_to_string () with its numbers made JSON: a number token json-glib
 * wrote as "1e+308.0" loses the ".0", and "nan.0", "inf.0", "-inf.0"
 * become null.
 *
 * Returns: (transfer full): the text
 */
char *
adbscope_json_to_string (JsonNode *node,
                         gboolean  pretty)
{
  g_autofree char *text = json_to_string (node, pretty);
  GString *out = g_string_sized_new (strlen (text) + 16);
  gboolean in_string = FALSE, escaped = FALSE;
  const char *p = text;

  while (*p != '\0')
    {
      char c = *p;

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          g_string_append_c (out, c);
          p++;
          continue;
        }
      if (c == '"')
        {
          in_string = TRUE;
          g_string_append_c (out, c);
          p++;
          continue;
        }
      if (c == '-' || g_ascii_isdigit (c) || c == 'n' || c == 'N' || c == 'i' || c == 'I')
        {
          const char *start = p;
          gsize n;

          while (!token_end (*p))
            p++;
          n = (gsize) (p - start);
          if (g_ascii_strncasecmp (start, "null", n) == 0 && n == 4)
            g_string_append_len (out, start, n);
          else if (memchr (start, 'n', n) != NULL || memchr (start, 'N', n) != NULL ||
                   memchr (start, 'i', n) != NULL || memchr (start, 'I', n) != NULL)
            g_string_append (out, "null");
          else if (n > 2 && (memchr (start, 'e', n) != NULL || memchr (start, 'E', n) != NULL) &&
                   start[n - 2] == '.' && start[n - 1] == '0')
            g_string_append_len (out, start, n - 2);
          else
            g_string_append_len (out, start, n);
          continue;
        }
      g_string_append_c (out, c);
      p++;
    }
  return g_string_free (out, FALSE);
}
