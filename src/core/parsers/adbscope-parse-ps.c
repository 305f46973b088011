/* adbscope-parse-ps.c: ps tables with columns found from the header */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-ps.h"
#include "adbscope-parse-util-private.h"

typedef struct
{
  gsize start;
  gsize end;   /* exclusive */
} Span;

static void
ps_row_free (gpointer data)
{
  AdbscopePsRow *row = data;

  g_free (row->user);
  g_free (row->label);
  g_free (row->name);
  g_strfreev (row->fields);
  g_free (row);
}

void
adbscope_ps_table_free (AdbscopePsTable *table)
{
  if (table == NULL)
    return;
  g_strfreev (table->columns);
  g_clear_pointer (&table->rows, g_ptr_array_unref);
  g_free (table);
}

int
adbscope_ps_table_find_column (AdbscopePsTable *table,
                               const char      *name)
{
  guint i;

  g_return_val_if_fail (table != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (i = 0; i < table->n_columns; i++)
    if (g_ascii_strcasecmp (table->columns[i], name) == 0)
      return (int) i;
  return -1;
}

static guint
split_spans (const char *line,
             gsize       len,
             GArray     *spans)
{
  const char *end = line + len, *p = line;

  g_array_set_size (spans, 0);
  for (;;)
    {
      Span s;
      const char *t;

      p = _adbscope_skip_spaces (p, end);
      if (p >= end)
        break;
      t = _adbscope_skip_token (p, end);
      s.start = p - line;
      s.end = t - line;
      g_array_append_val (spans, s);
      p = t;
    }
  return spans->len;
}

static gboolean
spans_overlap (const Span *a,
               const Span *b)
{
  return a->start < b->end && b->start < a->end;
}

/* Assigns the tokens of one row to columns.
 *
 * toybox pads every column to the header's width and, when a value is too
 * wide, prints the next ones one blank apart until the padding has caught
 * up.  A blank column (PCY of a process without a policy) prints only
 * padding.  So: a token one blank after the previous one belongs to the
 * next column; a token after more padding is aligned with its own header
 * and may skip blank columns to reach it.
 *
 * Legacy toolbox ps is printf("%-8s %-5d …") instead: an overflow shifts the
 * rest of the row for good, but no column is ever blank, so its tokens are
 * simply taken in order (aligned_columns = FALSE). */
static char **
assign_fields (const char *line,
               gsize       len,
               GArray     *hdr,
               GArray     *tok,
               gboolean    aligned_columns)
{
  guint n_cols = hdr->len;
  char **fields = g_new0 (char *, n_cols + 1);
  guint col = 0, j;

  for (j = 0; j < tok->len && col < n_cols; j++)
    {
      const Span *t = &g_array_index (tok, Span, j);
      gboolean pushed = j > 0 && t->start == g_array_index (tok, Span, j - 1).end + 1;

      if (!pushed && aligned_columns)
        {
          guint k;

          for (k = col; k < n_cols; k++)
            if (spans_overlap (t, &g_array_index (hdr, Span, k)))
              break;
          if (k < n_cols)
            col = k;
        }

      if (col == n_cols - 1)
        {
          /* The last column (NAME, CMD, ARGS) takes the rest of the line. */
          const char *s = line + t->start, *e = line + len;

          while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
          fields[col] = _adbscope_strndup_utf8 (s, e - s);
          col++;
          break;
        }
      fields[col] = _adbscope_strndup_utf8 (line + t->start, t->end - t->start);
      col++;
    }

  for (j = 0; j < n_cols; j++)
    if (fields[j] == NULL)
      fields[j] = g_strdup ("");
  return fields;
}

static int
find_col (char       **columns,
          const char  *const *names)
{
  guint i, k;

  for (k = 0; names[k] != NULL; k++)
    for (i = 0; columns[i] != NULL; i++)
      if (g_str_equal (columns[i], names[k]))
        return (int) i;
  return -1;
}

static gboolean
field_int (const char *s,
           gint64      min,
           gint64      max,
           gint64     *out)
{
  gint64 v;

  if (!_adbscope_parse_i64 (s, strlen (s), &v) || v < min || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

/* ps prints kB; top prints "206268K", "5.2M", "10G". */
static gboolean
field_size_kb (const char *s,
               gint64     *out)
{
  gsize len = strlen (s);
  double v, scale = 1;

  if (field_int (s, 0, G_MAXINT64, out))
    return TRUE;
  if (len < 2)
    return FALSE;
  switch (s[len - 1])
    {
    case 'K': scale = 1; break;
    case 'M': scale = 1024; break;
    case 'G': scale = 1024.0 * 1024; break;
    case 'T': scale = 1024.0 * 1024 * 1024; break;
    default: return FALSE;
    }
  if (!_adbscope_parse_double (s, len - 1, &v) || v < 0 || v * scale > (double) G_MAXINT64 / 2)
    return FALSE;
  *out = (gint64) (v * scale + 0.5);
  return TRUE;
}

AdbscopePsTable *
adbscope_ps_parse (const char  *text,
                   gssize       len,
                   GError     **error)
{
  static const char *const pid_names[] = { "PID", NULL };
  static const char *const tid_names[] = { "TID", NULL };
  static const char *const ppid_names[] = { "PPID", NULL };
  static const char *const user_names[] = { "USER", "UID", "RUSER", NULL };
  static const char *const label_names[] = { "LABEL", NULL };
  static const char *const state_names[] = { "S", "STAT", NULL };
  static const char *const rss_names[] = { "RSS", "RES", NULL };
  static const char *const vsz_names[] = { "VSZ", "VSIZE", "VSS", "VIRT", NULL };
  static const char *const name_names[] = { "NAME", "CMD", "ARGS", "COMM", "COMMAND", "CMDLINE", "Name", NULL };
  g_autoptr(AdbscopePsTable) table = NULL;
  g_autoptr(GArray) hdr = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(GArray) tok = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(GPtrArray) cols = NULL;
  int c_pid, c_tid, c_ppid, c_user, c_label, c_state, c_rss, c_vsz, c_name;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  gboolean legacy;
  guint i;

  if (!_adbscope_parse_check_input (text, &len, "ps", error))
    return NULL;

  _adbscope_line_iter_init (&iter, text, len);
  do
    {
      if (!_adbscope_line_iter_next (&iter, &line, &line_len))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("ps: no header line"));
          return NULL;
        }
    }
  while (split_spans (line, line_len, hdr) == 0);

  /* top marks its sort column with brackets glued to the previous title
   * ("S[%CPU]"): split them into two columns. */
  for (i = 0; i < hdr->len; i++)
    {
      Span *s = &g_array_index (hdr, Span, i);
      const char *open = memchr (line + s->start, '[', s->end - s->start);

      if (open != NULL && line[s->end - 1] == ']')
        {
          gsize at = open - line;
          Span inner = { at + 1, s->end - 1 };

          if (at == s->start)
            *s = inner;
          else
            {
              s->end = at;
              g_array_insert_val (hdr, i + 1, inner);
              i++;
            }
        }
    }

  cols = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < hdr->len; i++)
    {
      const Span *s = &g_array_index (hdr, Span, i);

      g_ptr_array_add (cols, _adbscope_strndup_utf8 (line + s->start, s->end - s->start));
    }

  /* Legacy toolbox ps prints the state letter between PC and NAME without
   * a header for it. */
  legacy = hdr->len >= 2 && g_str_equal (g_ptr_array_index (cols, hdr->len - 2), "PC");
  if (legacy)
    {
      Span name_span = g_array_index (hdr, Span, hdr->len - 1);
      Span s = { name_span.start > 0 ? name_span.start - 1 : 0, name_span.start };

      g_ptr_array_insert (cols, hdr->len - 1, g_strdup ("S"));
      g_array_insert_val (hdr, hdr->len - 1, s);
    }
  g_ptr_array_add (cols, NULL);

  table = g_new0 (AdbscopePsTable, 1);
  table->n_columns = hdr->len;
  table->columns = (char **) g_ptr_array_free (g_steal_pointer (&cols), FALSE);
  table->rows = g_ptr_array_new_with_free_func (ps_row_free);

  c_pid = find_col (table->columns, pid_names);
  if (c_pid < 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("ps: the first line is not a header with a PID column"));
      return NULL;
    }
  c_tid = find_col (table->columns, tid_names);
  c_ppid = find_col (table->columns, ppid_names);
  c_user = find_col (table->columns, user_names);
  c_label = find_col (table->columns, label_names);
  c_state = find_col (table->columns, state_names);
  c_rss = find_col (table->columns, rss_names);
  c_vsz = find_col (table->columns, vsz_names);
  c_name = find_col (table->columns, name_names);
  if (c_name < 0)
    c_name = table->n_columns - 1;

  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      AdbscopePsRow *row;
      gint64 v;

      if (split_spans (line, line_len, tok) == 0)
        continue;

      row = g_new0 (AdbscopePsRow, 1);
      row->fields = assign_fields (line, line_len, hdr, tok, !legacy);
      row->tid = row->ppid = -1;
      row->rss_kb = row->vsz_kb = -1;

      /* A row without a numeric PID (or TID with -T) is not a process:
       * count it rather than guess. */
      if (!field_int (row->fields[c_pid], 0, G_MAXINT, &v))
        goto skip;
      row->pid = (int) v;
      if (c_tid >= 0)
        {
          if (!field_int (row->fields[c_tid], 0, G_MAXINT, &v))
            goto skip;
          row->tid = (int) v;
        }
      if (c_ppid >= 0 && field_int (row->fields[c_ppid], 0, G_MAXINT, &v))
        row->ppid = (int) v;
      if (c_rss >= 0 && field_size_kb (row->fields[c_rss], &v))
        row->rss_kb = v;
      if (c_vsz >= 0 && field_size_kb (row->fields[c_vsz], &v))
        row->vsz_kb = v;
      if (c_state >= 0)
        row->state = row->fields[c_state][0];
      if (c_user >= 0)
        row->user = g_strdup (row->fields[c_user]);
      if (c_label >= 0)
        row->label = g_strdup (row->fields[c_label]);
      row->name = g_strdup (row->fields[c_name]);
      g_ptr_array_add (table->rows, row);
      continue;

    skip:
      ps_row_free (row);
      table->n_skipped++;
    }

  return g_steal_pointer (&table);
}

gboolean
adbscope_ps_table_is_fork_child (AdbscopePsTable     *table,
                                 const AdbscopePsRow *row)
{
  g_return_val_if_fail (table != NULL && row != NULL, FALSE);

  if (row->ppid <= 0 || row->ppid == row->pid || row->name == NULL)
    return FALSE;
  for (guint i = 0; i < table->rows->len; i++)
    {
      const AdbscopePsRow *parent = g_ptr_array_index (table->rows, i);

      /* with -T every thread is a row: the process's own (TID = PID) */
      if (parent->pid == row->ppid && (parent->tid < 0 || parent->tid == parent->pid))
        return g_strcmp0 (parent->name, row->name) == 0;
    }
  return FALSE;
}

gsize
adbscope_strip_ansi (char  *text,
                     gsize  len)
{
  gsize in = 0, out = 0;

  g_return_val_if_fail (text != NULL || len == 0, 0);

  while (in < len)
    {
      if (text[in] == '\033')
        {
          in++;
          if (in < len && text[in] == '[')
            {
              /* CSI: parameters and intermediates, then one final byte */
              in++;
              while (in < len && (guchar) text[in] >= 0x20 && (guchar) text[in] <= 0x3f)
                in++;
              if (in < len && (guchar) text[in] >= 0x40 && (guchar) text[in] <= 0x7e)
                in++;
            }
          else if (in < len)
            in++; /* two-byte sequences such as ESC 7 / ESC 8 */
          continue;
        }
      text[out++] = text[in++];
    }
  if (out < len)
    text[out] = '\0';
  return out;
}
