/* adbscope-parse-getprop.c: `getprop` dump → key/value table */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-getprop.h"
#include "adbscope-parse-util-private.h"

/* Returns UTF-8 text in *out (owned when *owned is non-NULL). */
static gboolean
decode_text (const char  *data,
             gsize        len,
             const char **out,
             gsize       *out_len,
             char       **owned,
             GError     **error)
{
  const unsigned char *u = (const unsigned char *) data;
  const char *charset = NULL;
  gsize skip = 0;

  *owned = NULL;
  if (len >= 2 && u[0] == 0xff && u[1] == 0xfe)
    charset = "UTF-16LE", skip = 2;
  else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff)
    charset = "UTF-16BE", skip = 2;
  else if (len >= 4 && u[0] == '[' && u[1] == 0 && u[2] != 0 && u[3] == 0)
    charset = "UTF-16LE"; /* BOM lost, still plainly UTF-16 */

  if (charset != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      gsize written = 0;

      if ((len - skip) % 2 != 0)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("getprop: %s text with an odd number of bytes"), charset);
          return FALSE;
        }
      *owned = g_convert (data + skip, len - skip, "UTF-8", charset, NULL, &written, &local_error);
      if (*owned == NULL)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("getprop: cannot decode %s: %s"), charset, local_error->message);
          return FALSE;
        }
      *out = *owned;
      *out_len = written;
      return TRUE;
    }

  if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
    skip = 3;
  *out = data + skip;
  *out_len = len - skip;
  return TRUE;
}

/* "[key]: [" at the start of a line: returns the key's end and the value's
 * start. */
static gboolean
match_entry_start (const char  *line,
                   gsize        line_len,
                   const char **key_end,
                   const char **value_start)
{
  const char *sep;

  if (line_len < 6 || line[0] != '[')
    return FALSE;
  sep = g_strstr_len (line, line_len, "]: [");
  if (sep == NULL || sep == line + 1)
    return FALSE;
  *key_end = sep;
  *value_start = sep + 4;
  return TRUE;
}

GHashTable *
adbscope_getprop_parse (const char  *data,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(GHashTable) props = NULL;
  g_autofree char *owned = NULL;
  g_autoptr(GString) value = NULL;
  g_autofree char *key = NULL;
  const char *text;
  gsize text_len;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (data == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("getprop: no data"));
      return NULL;
    }
  if (len < 0)
    len = strlen (data);
  if (!decode_text (data, len, &text, &text_len, &owned, error))
    return NULL;
  if (!_adbscope_parse_check_input (text, (gssize *) &text_len, "getprop", error))
    return NULL;

  props = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  value = g_string_new (NULL);

  _adbscope_line_iter_init (&iter, text, text_len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *key_end, *value_start;

      if (key == NULL)
        {
          if (line_len == 0)
            continue;
          if (!match_entry_start (line, line_len, &key_end, &value_start))
            {
              g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("getprop: line %u is not “[key]: [value]”"), iter.line_no);
              return NULL;
            }
          key = _adbscope_strndup_utf8 (line + 1, key_end - line - 1);
          g_string_truncate (value, 0);
          g_string_append_len (value, value_start, line + line_len - value_start);
        }
      else
        {
          /* A value that did not end on its line goes on ("[a,1\nb,2]"). */
          g_string_append_c (value, '\n');
          g_string_append_len (value, line, line_len);
        }

      /* The value ends at a ']' closing a line, if the next line starts a
       * new entry (or the text ends): a value may hold "]" itself. */
      if (value->len > 0 && value->str[value->len - 1] == ']')
        {
          AdbscopeLineIter peek = iter;
          const char *next;
          gsize next_len;
          gboolean ends = TRUE;

          while (_adbscope_line_iter_next (&peek, &next, &next_len))
            {
              if (next_len == 0)
                continue;
              ends = match_entry_start (next, next_len, &key_end, &value_start);
              break;
            }
          if (ends)
            {
              g_string_truncate (value, value->len - 1);
              g_hash_table_replace (props, g_steal_pointer (&key),
                                    _adbscope_strndup_utf8 (value->str, value->len));
            }
        }
    }

  if (key != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("getprop: value of [%s] is not closed (truncated output?)"), key);
      return NULL;
    }
  if (g_hash_table_size (props) == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("getprop: no property"));
      return NULL;
    }
  return g_steal_pointer (&props);
}

int
adbscope_getprop_get_sdk (GHashTable *props)
{
  const char *v;
  guint64 sdk;

  g_return_val_if_fail (props != NULL, -1);

  v = g_hash_table_lookup (props, "ro.build.version.sdk");
  if (v == NULL || !_adbscope_parse_u64 (v, strlen (v), &sdk) || sdk == 0 || sdk > 1000)
    return -1;
  return (int) sdk;
}

static const char *
lookup_nonempty (GHashTable *props,
                 const char *key)
{
  const char *v;

  g_return_val_if_fail (props != NULL, NULL);
  v = g_hash_table_lookup (props, key);
  return v != NULL && *v != '\0' ? v : NULL;
}

const char *
adbscope_getprop_get_release (GHashTable *props)
{
  return lookup_nonempty (props, "ro.build.version.release");
}

const char *
adbscope_getprop_get_model (GHashTable *props)
{
  return lookup_nonempty (props, "ro.product.model");
}

const char *
adbscope_getprop_get_manufacturer (GHashTable *props)
{
  return lookup_nonempty (props, "ro.product.manufacturer");
}

const char *
adbscope_getprop_get_abi (GHashTable *props)
{
  return lookup_nonempty (props, "ro.product.cpu.abi");
}

gboolean
adbscope_parse_page_size (const char  *text,
                          gssize       len,
                          guint       *page_size,
                          GError     **error)
{
  const char *p, *end, *t;
  guint64 v;

  g_return_val_if_fail (page_size != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "getconf PAGE_SIZE", error))
    return FALSE;
  end = text + len;
  p = _adbscope_skip_spaces (text, end);
  t = _adbscope_skip_token (p, end);
  if (!_adbscope_parse_u64 (p, t - p, &v) || _adbscope_skip_spaces (t, end) != end
      || v < 4096 || v > 65536 || (v & (v - 1)) != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("getconf PAGE_SIZE: not a page size"));
      return FALSE;
    }
  *page_size = (guint) v;
  return TRUE;
}
