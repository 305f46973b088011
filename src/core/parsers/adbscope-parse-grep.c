/* adbscope-parse-grep.c: `grep -H` output → path → content */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-grep.h"
#include "adbscope-parse-util-private.h"

struct _AdbscopeGrepOutput
{
  GPtrArray  *paths;    /* char*, order of first appearance */
  GPtrArray  *contents; /* GString*, parallel to paths */
  GHashTable *index;    /* path (borrowed from paths) → GUINT_TO_POINTER (i + 1) */
};

void
adbscope_grep_output_free (AdbscopeGrepOutput *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->index);
  g_ptr_array_unref (self->paths);
  g_ptr_array_unref (self->contents);
  g_free (self);
}

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

/* GNU grep and toybox grep print this instead of lines for a file they
 * consider binary; no /proc or sysfs file we read should, so it is dropped. */
static gboolean
is_binary_notice (const char *line,
                  gsize       len)
{
  static const char suffix[] = "matches";

  if (len < sizeof suffix - 1 || memcmp (line + len - (sizeof suffix - 1), suffix, sizeof suffix - 1) != 0)
    return FALSE;
  return _adbscope_has_prefix_len (line, len, "Binary file ")
         || _adbscope_has_prefix_len (line, len, "grep: ");
}

AdbscopeGrepOutput *
adbscope_grep_output_parse (const char  *text,
                            gssize       len,
                            GError     **error)
{
  g_autoptr(AdbscopeGrepOutput) self = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  GString *current = NULL;
  const char *current_path = NULL;
  gsize current_path_len = 0;

  if (!_adbscope_parse_check_input (text, &len, "grep -H", error))
    return NULL;

  self = g_new0 (AdbscopeGrepOutput, 1);
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->contents = g_ptr_array_new_with_free_func (free_gstring);
  self->index = g_hash_table_new (g_str_hash, g_str_equal);

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *colon;
      gsize path_len;

      /* grep never prints a bare empty line (an empty file line is
       * "PATH:"); one can only come from the shell framing around it. */
      if (line_len == 0)
        continue;
      if (is_binary_notice (line, line_len))
        continue;

      colon = memchr (line, ':', line_len);
      if (colon == NULL || colon == line || line[0] != '/')
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("grep -H: line %u is not “PATH:TEXT”"), iter.line_no);
          return NULL;
        }
      path_len = colon - line;

      /* Lines of one file are consecutive; only look the path up when it
       * changes. */
      if (current == NULL || path_len != current_path_len
          || memcmp (line, current_path, path_len) != 0)
        {
          g_autofree char *path = _adbscope_strndup_utf8 (line, path_len);
          guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (self->index, path));

          if (idx == 0)
            {
              g_ptr_array_add (self->paths, g_steal_pointer (&path));
              g_ptr_array_add (self->contents, g_string_new (NULL));
              idx = self->paths->len;
              g_hash_table_insert (self->index, g_ptr_array_index (self->paths, idx - 1),
                                   GUINT_TO_POINTER (idx));
            }
          current = g_ptr_array_index (self->contents, idx - 1);
          current_path = line;
          current_path_len = path_len;
        }
      else
        current_path = line;

      g_string_append_len (current, colon + 1, line_len - path_len - 1);
      g_string_append_c (current, '\n');
    }

  if (self->paths->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("grep -H: no file was printed"));
      return NULL;
    }

  return g_steal_pointer (&self);
}

guint
adbscope_grep_output_get_n_files (AdbscopeGrepOutput *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->paths->len;
}

const char *
adbscope_grep_output_get_path (AdbscopeGrepOutput *self,
                               guint               i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->paths->len, NULL);
  return g_ptr_array_index (self->paths, i);
}

const char *
adbscope_grep_output_get_content (AdbscopeGrepOutput *self,
                                  guint               i)
{
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->contents->len, NULL);
  s = g_ptr_array_index (self->contents, i);
  return s->str;
}

/* Returns NULL when the file did not appear (missing or unreadable). */
const char *
adbscope_grep_output_lookup (AdbscopeGrepOutput *self,
                             const char         *path)
{
  guint idx;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  idx = GPOINTER_TO_UINT (g_hash_table_lookup (self->index, path));
  if (idx == 0)
    return NULL;
  return adbscope_grep_output_get_content (self, idx - 1);
}

/* Paths matching a g_pattern_match_simple() glob such as
 * "/proc/123/task/ * /stat" (without the spaces), in output order.  The
 * array borrows the strings. */
GPtrArray *
adbscope_grep_output_find (AdbscopeGrepOutput *self,
                           const char         *glob)
{
  g_autoptr(GPatternSpec) spec = NULL;
  GPtrArray *found;
  guint i;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (glob != NULL, NULL);

  spec = g_pattern_spec_new (glob);
  found = g_ptr_array_new ();
  for (i = 0; i < self->paths->len; i++)
    {
      const char *path = g_ptr_array_index (self->paths, i);

      if (g_pattern_spec_match_string (spec, path))
        g_ptr_array_add (found, (gpointer) path);
    }
  return found;
}
