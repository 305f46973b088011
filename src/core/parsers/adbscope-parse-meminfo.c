/* adbscope-parse-meminfo.c: `dumpsys meminfo [PKG]` → structs
 *
 * Each "** MEMINFO in pid N [PKG] **" block has a right-aligned table whose
 * column names are spread over two header lines above a "------" line,
 * then (6+) an "App Summary", then "Objects", "SQL", … sections.  Columns
 * are found by name, never by position, because every few releases add or
 * rename one (Swapped Dirty → SwapPss Dirty / Swap Dirty, Rss Total).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-dumpsys-private.h"
#include "adbscope-parse-meminfo.h"

typedef enum
{
  SECTION_NONE,
  SECTION_PRE_TABLE,   /* header lines of the table are coming */
  SECTION_TABLE,
  SECTION_SUMMARY,
  SECTION_OBJECTS,
  SECTION_OTHER,       /* SQL, DATABASES, Asset Allocations, … */
} Section;

static const char * const category_labels[ADBSCOPE_MEMINFO_N_CATEGORIES] = {
  [ADBSCOPE_MEMINFO_JAVA_HEAP] = "Java Heap",
  [ADBSCOPE_MEMINFO_NATIVE_HEAP] = "Native Heap",
  [ADBSCOPE_MEMINFO_CODE] = "Code",
  [ADBSCOPE_MEMINFO_STACK] = "Stack",
  [ADBSCOPE_MEMINFO_GRAPHICS] = "Graphics",
  [ADBSCOPE_MEMINFO_PRIVATE_OTHER] = "Private Other",
  [ADBSCOPE_MEMINFO_SYSTEM] = "System",
  [ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY] = "Unknown",
};

#define OBJ(field) G_STRUCT_OFFSET (AdbscopeMeminfoProcess, field)
static const struct
{
  const char *label;
  gssize      offset;
} object_fields[] = {
  { "Views", OBJ (views) },
  { "ViewRootImpl", OBJ (view_root_impl) },
  { "AppContexts", OBJ (app_contexts) },
  { "Activities", OBJ (activities) },
  { "Assets", OBJ (assets) },
  { "AssetManagers", OBJ (asset_managers) },
  { "Local Binders", OBJ (local_binders) },
  { "Proxy Binders", OBJ (proxy_binders) },
  { "Parcel memory", OBJ (parcel_memory_kb) },
  { "Parcel count", OBJ (parcel_count) },
  { "Death Recipients", OBJ (death_recipients) },
  { "OpenSSL Sockets", OBJ (openssl_sockets) },
  { "WebViews", OBJ (webviews) },
};
#undef OBJ

static void
row_free (gpointer data)
{
  AdbscopeMeminfoRow *row = data;

  g_free (row->label);
  g_free (row->values);
  g_free (row);
}

static void
process_free (gpointer data)
{
  AdbscopeMeminfoProcess *process = data;

  g_free (process->package);
  g_strfreev (process->columns);
  g_ptr_array_unref (process->rows);
  g_free (process);
}

void
adbscope_meminfo_free (AdbscopeMeminfo *info)
{
  if (info == NULL)
    return;
  g_ptr_array_unref (info->processes);
  g_free (info->system.status);
  g_free (info);
}

static AdbscopeMeminfoProcess *
process_new (gint64      pid,
             char       *package)
{
  AdbscopeMeminfoProcess *p = g_new0 (AdbscopeMeminfoProcess, 1);

  p->pid = pid;
  p->package = package;
  p->rows = g_ptr_array_new_with_free_func (row_free);
  p->total_pss_kb = p->total_rss_kb = p->total_swap_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  for (guint i = 0; i < ADBSCOPE_MEMINFO_N_CATEGORIES; i++)
    p->summary_pss_kb[i] = p->summary_rss_kb[i] = ADBSCOPE_MEMINFO_UNKNOWN;
  p->native_heap_size_kb = p->native_heap_alloc_kb = p->native_heap_free_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  p->dalvik_heap_size_kb = p->dalvik_heap_alloc_kb = p->dalvik_heap_free_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (object_fields); i++)
    G_STRUCT_MEMBER (gint64, p, object_fields[i].offset) = ADBSCOPE_MEMINFO_UNKNOWN;
  return p;
}

typedef struct
{
  const char *start;
  gsize       len;
  gsize       col;      /* offset in its line */
} Token;

/* Whitespace-separated words of @line with their columns. */
static GArray *
tokenize (const char *line)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  const char *s = line;

  for (;;)
    {
      Token t;

      while (*s == ' ' || *s == '\t')
        s++;
      if (*s == '\0')
        break;
      t.start = s;
      t.col = s - line;
      while (*s != '\0' && *s != ' ' && *s != '\t')
        s++;
      t.len = s - t.start;
      g_array_append_val (tokens, t);
    }
  return tokens;
}

static gboolean
token_is_int (const Token *t,
              gint64      *out)
{
  const char *end;

  return _adbscope_parse_int64 (t->start, &end, out) && end == t->start + t->len;
}

static gboolean
is_dash_line (const char *t)
{
  gboolean any = FALSE;

  for (; *t != '\0'; t++)
    {
      if (*t == '-')
        any = TRUE;
      else if (*t != ' ' && *t != '\t')
        return FALSE;
    }
  return any;
}

/* Column names: each word of the lower header line, prefixed by the word
 * of the upper line right above it ("Pss"+"Total", "Heap"+"Size"). */
static void
build_columns (AdbscopeMeminfoProcess *p,
               const char             *upper,
               const char             *lower)
{
  g_autoptr(GArray) up = tokenize (upper != NULL ? upper : "");
  g_autoptr(GArray) low = tokenize (lower);
  GStrvBuilder *builder = g_strv_builder_new ();

  for (guint i = 0; i < low->len; i++)
    {
      const Token *l = &g_array_index (low, Token, i);
      g_autofree char *name = NULL;
      g_autofree char *lname = g_strndup (l->start, l->len);

      for (guint j = 0; j < up->len && name == NULL; j++)
        {
          const Token *u = &g_array_index (up, Token, j);

          if (u->col < l->col + l->len && l->col < u->col + u->len)
            name = g_strdup_printf ("%.*s %s", (int) u->len, u->start, lname);
        }
      g_strv_builder_add (builder, name != NULL ? name : lname);
    }

  g_strfreev (p->columns);
  p->columns = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  p->n_columns = g_strv_length (p->columns);
}

/* "  Native Heap    24501    24240 …": a label, then numbers that fill
 * the columns from the left (short rows lack the Heap columns). */
static void
parse_table_row (AdbscopeMeminfoProcess *p,
                 const char             *line)
{
  g_autoptr(GArray) tokens = tokenize (line);
  AdbscopeMeminfoRow *row;
  guint n_numbers = 0;
  guint first_number;
  const Token *first;
  const Token *last;
  gint64 v;

  while (n_numbers < tokens->len &&
         token_is_int (&g_array_index (tokens, Token, tokens->len - 1 - n_numbers), &v))
    n_numbers++;

  if (n_numbers == tokens->len || n_numbers == 0 || n_numbers > p->n_columns)
    return;

  first_number = tokens->len - n_numbers;
  first = &g_array_index (tokens, Token, 0);
  last = &g_array_index (tokens, Token, first_number - 1);

  row = g_new0 (AdbscopeMeminfoRow, 1);
  row->label = _adbscope_dup_valid (first->start, last->start + last->len - first->start);
  row->values = g_new (gint64, p->n_columns);
  for (guint i = 0; i < p->n_columns; i++)
    row->values[i] = ADBSCOPE_MEMINFO_UNKNOWN;
  for (guint i = 0; i < n_numbers; i++)
    token_is_int (&g_array_index (tokens, Token, first_number + i), &row->values[i]);

  g_ptr_array_add (p->rows, row);
}

typedef void (*PairFunc) (AdbscopeMeminfoProcess *p,
                          const char             *label,
                          gint64                  value);

/* "Views:      690         ViewRootImpl:        1" */
static void
parse_pairs (AdbscopeMeminfoProcess *p,
             const char             *line,
             PairFunc                func)
{
  const char *s = line;

  for (;;)
    {
      const char *colon = strchr (s, ':');
      g_autofree char *label = NULL;
      gint64 value;

      if (colon == NULL)
        break;
      label = g_strndup (s, colon - s);
      if (!_adbscope_parse_int64 (colon + 1, &s, &value))
        break;
      func (p, g_strstrip (label), value);
    }
}

static void
object_pair (AdbscopeMeminfoProcess *p,
             const char             *label,
             gint64                  value)
{
  for (guint i = 0; i < G_N_ELEMENTS (object_fields); i++)
    if (strcmp (label, object_fields[i].label) == 0)
      G_STRUCT_MEMBER (gint64, p, object_fields[i].offset) = value;
}

/* "TOTAL PSS: … TOTAL RSS: … TOTAL SWAP PSS: …" (11+),
 * "TOTAL: … TOTAL SWAP PSS: …" (9/10), "TOTAL: … TOTAL SWAP (KB): …" (6). */
static void
total_pair (AdbscopeMeminfoProcess *p,
            const char             *label,
            gint64                  value)
{
  if (strcmp (label, "TOTAL") == 0 || strcmp (label, "TOTAL PSS") == 0)
    p->total_pss_kb = value;
  else if (strcmp (label, "TOTAL RSS") == 0)
    p->total_rss_kb = value;
  else if (strcmp (label, "TOTAL SWAP PSS") == 0)
    {
      p->total_swap_kb = value;
      p->swap_is_pss = TRUE;
    }
  else if (strcmp (label, "TOTAL SWAP (KB)") == 0)
    {
      p->total_swap_kb = value;
      p->swap_is_pss = FALSE;
    }
}

typedef struct
{
  AdbscopeMeminfo        *info;
  AdbscopeMeminfoProcess *process;
  Section                 section;
  char                   *header[2];  /* the last two lines before "------" */
  gssize                  pss_end;    /* App Summary: where "Pss(KB)" ends */
  gssize                  rss_end;
} Parser;

/* "           Java Heap:    10152                          24732" — a
 * number belongs to the Pss(KB) or Rss(KB) heading it ends nearest to
 * ("Private Other" has Pss only, "Unknown" Rss only). */
static void
parse_summary_entry (Parser     *ps,
                     const char *line)
{
  AdbscopeMeminfoProcess *p = ps->process;
  const char *colon = strchr (line, ':');
  g_autofree char *label = NULL;
  g_autoptr(GArray) tokens = NULL;
  int category = -1;

  if (colon == NULL)
    return;
  label = g_strndup (line, colon - line);
  g_strstrip (label);
  for (guint i = 0; i < ADBSCOPE_MEMINFO_N_CATEGORIES; i++)
    if (strcmp (label, category_labels[i]) == 0)
      category = (int) i;
  if (category < 0)
    return;

  tokens = tokenize (colon + 1);
  for (guint i = 0; i < tokens->len; i++)
    {
      const Token *t = &g_array_index (tokens, Token, i);
      gssize end = (colon + 1 - line) + t->col + t->len;
      gint64 v;

      if (!token_is_int (t, &v))
        break;
      if (ps->rss_end >= 0 && (ps->pss_end < 0 || ABS (end - ps->rss_end) < ABS (end - ps->pss_end)))
        p->summary_rss_kb[category] = v;
      else
        p->summary_pss_kb[category] = v;
    }
}

static void
set_header (Parser     *ps,
            const char *line)
{
  g_free (ps->header[0]);
  ps->header[0] = ps->header[1];
  ps->header[1] = g_strdup (line);
}

static void
clear_header (Parser *ps)
{
  g_clear_pointer (&ps->header[0], g_free);
  g_clear_pointer (&ps->header[1], g_free);
}

static gint64
cell (AdbscopeMeminfoProcess *p,
      const char             *row,
      const char             *column)
{
  return adbscope_meminfo_process_get_cell (p, row, column);
}

static gint64
cell2 (AdbscopeMeminfoProcess *p,
       const char             *row,
       const char             *old_row,
       const char             *column)
{
  gint64 v = cell (p, row, column);

  return v >= 0 ? v : cell (p, old_row, column);
}

/* Fill what the App Summary did not give from the table; keep the
 * process only if its total PSS is known. */
static void
finish_process (Parser *ps)
{
  AdbscopeMeminfoProcess *p = ps->process;

  if (p == NULL)
    return;
  ps->process = NULL;
  clear_header (ps);

  if (p->total_pss_kb < 0)
    p->total_pss_kb = cell (p, "TOTAL", "Pss Total");
  if (p->total_pss_kb < 0)
    p->total_pss_kb = cell (p, "TOTAL", "Pss");  /* 4.3 */
  if (p->total_rss_kb < 0)
    p->total_rss_kb = cell (p, "TOTAL", "Rss Total");
  if (p->total_swap_kb < 0)
    {
      if ((p->total_swap_kb = cell (p, "TOTAL", "SwapPss Dirty")) >= 0)
        p->swap_is_pss = TRUE;
      else if ((p->total_swap_kb = cell (p, "TOTAL", "Swap Dirty")) < 0)
        p->total_swap_kb = cell (p, "TOTAL", "Swapped Dirty");
    }

  /* 4.3 calls the rows "Native" and "Dalvik". */
  p->native_heap_size_kb = cell2 (p, "Native Heap", "Native", "Heap Size");
  p->native_heap_alloc_kb = cell2 (p, "Native Heap", "Native", "Heap Alloc");
  p->native_heap_free_kb = cell2 (p, "Native Heap", "Native", "Heap Free");
  p->dalvik_heap_size_kb = cell2 (p, "Dalvik Heap", "Dalvik", "Heap Size");
  p->dalvik_heap_alloc_kb = cell2 (p, "Dalvik Heap", "Dalvik", "Heap Alloc");
  p->dalvik_heap_free_kb = cell2 (p, "Dalvik Heap", "Dalvik", "Heap Free");

  if (p->total_pss_kb < 0)
    {
      ps->info->n_incomplete++;
      process_free (p);
      return;
    }
  g_ptr_array_add (ps->info->processes, p);
}

static gboolean
parse_process_line (Parser     *ps,
                    const char *t)
{
  gboolean matched;
  gint64 pid;
  char *package = _adbscope_parse_pid_banner (t, "** MEMINFO in pid ", &pid, &matched);

  if (!matched)
    return FALSE;

  finish_process (ps);
  ps->process = process_new (pid, package);
  ps->section = SECTION_PRE_TABLE;
  return TRUE;
}

/* "3,889,512K" or "1857680 kB" */
static gboolean
parse_kb (const char  *s,
          const char **end,
          gint64      *out)
{
  if (!_adbscope_parse_grouped_int (s, &s, out))
    return FALSE;
  if (*s == 'K')
    s++;
  else if (strncmp (s, " kB", 3) == 0)
    s += 3;
  if (end != NULL)
    *end = s;
  return TRUE;
}

static gboolean
parse_system_line (AdbscopeMeminfo *info,
                   const char      *t)
{
  AdbscopeMeminfoSystem *sys = &info->system;
  const char *rest;
  gint64 v;

  if ((rest = _adbscope_after_prefix (t, "Total RAM:")) != NULL)
    {
      const char *status;

      if (!parse_kb (rest, &rest, &v))
        return FALSE;
      sys->total_ram_kb = v;
      if ((status = strstr (rest, "(status ")) != NULL)
        {
          const char *close = strchr (status, ')');

          g_clear_pointer (&sys->status, g_free);
          if (close != NULL)
            sys->status = _adbscope_dup_valid (status + 8, close - status - 8);
        }
    }
  else if ((rest = _adbscope_after_prefix (t, "Free RAM:")) != NULL && parse_kb (rest, NULL, &v))
    sys->free_ram_kb = v;
  else if ((rest = _adbscope_after_prefix (t, "Used RAM:")) != NULL && parse_kb (rest, NULL, &v))
    sys->used_ram_kb = v;
  else if ((rest = _adbscope_after_prefix (t, "Lost RAM:")) != NULL && parse_kb (rest, NULL, &v))
    sys->lost_ram_kb = v;
  else if ((rest = _adbscope_after_prefix (t, "ZRAM:")) != NULL && parse_kb (rest, &rest, &v))
    {
      /* "ZRAM: 4K physical used for 0K in swap (2,139,224K total swap)" */
      sys->zram_physical_kb = v;
      if ((rest = strstr (rest, " used for ")) != NULL && parse_kb (rest + 10, &rest, &v))
        {
          sys->zram_swap_used_kb = v;
          if ((rest = strchr (rest, '(')) != NULL && parse_kb (rest + 1, NULL, &v))
            sys->zram_swap_total_kb = v;
        }
    }
  else
    return FALSE;

  sys->present = TRUE;
  return TRUE;
}

static void
parse_process_body (Parser     *ps,
                    const char *line,
                    const char *t)
{
  AdbscopeMeminfoProcess *p = ps->process;

  if (strcmp (t, "App Summary") == 0)
    {
      ps->section = SECTION_SUMMARY;
      ps->pss_end = ps->rss_end = -1;
      return;
    }
  if (strcmp (t, "Objects") == 0)
    {
      ps->section = SECTION_OBJECTS;
      return;
    }
  if (strcmp (t, "SQL") == 0 || strcmp (t, "DATABASES") == 0 ||
      strcmp (t, "Asset Allocations") == 0 || strcmp (t, "Native Allocations") == 0 ||
      strcmp (t, "Dalvik Details") == 0 || g_str_has_prefix (t, "Unreachable memory"))
    {
      ps->section = SECTION_OTHER;
      return;
    }

  switch (ps->section)
    {
    case SECTION_PRE_TABLE:
      if (is_dash_line (t))
        {
          if (ps->header[1] != NULL)
            {
              build_columns (p, ps->header[0], ps->header[1]);
              ps->section = SECTION_TABLE;
            }
          clear_header (ps);
        }
      else
        set_header (ps, line);
      break;

    case SECTION_TABLE:
      parse_table_row (p, line);
      break;

    case SECTION_SUMMARY:
      if (g_str_has_prefix (t, "TOTAL"))
        parse_pairs (p, t, total_pair);
      else if (strstr (line, "Pss(KB)") != NULL || strstr (line, "Rss(KB)") != NULL)
        {
          const char *pss = strstr (line, "Pss(KB)");
          const char *rss = strstr (line, "Rss(KB)");

          ps->pss_end = pss != NULL ? (pss - line) + 7 : -1;
          ps->rss_end = rss != NULL ? (rss - line) + 7 : -1;
        }
      else if (!is_dash_line (t))
        parse_summary_entry (ps, line);
      break;

    case SECTION_OBJECTS:
      parse_pairs (p, t, object_pair);
      break;

    case SECTION_NONE:
    case SECTION_OTHER:
    default:
      break;
    }
}

AdbscopeMeminfo *
adbscope_meminfo_parse (const char  *text,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(AdbscopeMeminfo) info = NULL;
  AdbscopeLines lines;
  Parser ps = { 0 };
  gboolean any_text = FALSE;
  gboolean seen_banner = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = g_new0 (AdbscopeMeminfo, 1);
  info->uptime_ms = info->realtime_ms = -1;
  info->processes = g_ptr_array_new_with_free_func (process_free);
  info->system.total_ram_kb = info->system.free_ram_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  info->system.used_ram_kb = info->system.lost_ram_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  info->system.zram_physical_kb = info->system.zram_swap_used_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  info->system.zram_swap_total_kb = ADBSCOPE_MEMINFO_UNKNOWN;
  ps.info = info;
  ps.pss_end = ps.rss_end = -1;

  _adbscope_lines_init (&lines, text, len);

  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);

      if (*t == '\0')
        {
          /* A blank line (or one lone space) ends the table. */
          if (ps.section == SECTION_TABLE)
            ps.section = SECTION_NONE;
          continue;
        }
      any_text = TRUE;

      if (!_adbscope_check_common_errors (t, error))
        {
          finish_process (&ps);
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if (g_str_has_prefix (t, "** MEMINFO in pid ") && parse_process_line (&ps, t))
        continue;
      if (g_str_has_prefix (t, "Applications Memory Usage"))
        {
          seen_banner = TRUE;
          continue;
        }
      if (info->uptime_ms < 0 && _adbscope_parse_uptime_line (t, &info->uptime_ms, &info->realtime_ms))
        continue;
      if (parse_system_line (info, t))
        {
          /* The system totals come after every process block. */
          finish_process (&ps);
          ps.section = SECTION_NONE;
          continue;
        }
      if (ps.process != NULL)
        parse_process_body (&ps, line, t);
    }

  finish_process (&ps);
  _adbscope_lines_clear (&lines);

  if (info->processes->len == 0 && !info->system.present)
    {
      if (!any_text)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("The meminfo output is empty"));
      else if (info->n_incomplete > 0)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("The meminfo output has no TOTAL row or App Summary total (truncated?)"));
      else
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     seen_banner
                     ? _("The meminfo output has no “MEMINFO in pid” section (truncated?)")
                     : _("The text is not meminfo output: no “MEMINFO in pid” section and no “Total RAM” line"));
      return NULL;
    }

  return g_steal_pointer (&info);
}

AdbscopeMeminfoProcess *
adbscope_meminfo_find_process (const AdbscopeMeminfo *info,
                               const char            *package)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (package != NULL, NULL);

  for (guint i = 0; i < info->processes->len; i++)
    {
      AdbscopeMeminfoProcess *p = g_ptr_array_index (info->processes, i);

      if (g_strcmp0 (p->package, package) == 0)
        return p;
    }
  return NULL;
}

int
adbscope_meminfo_process_find_column (const AdbscopeMeminfoProcess *process,
                                      const char                   *name)
{
  g_return_val_if_fail (process != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < process->n_columns; i++)
    if (strcmp (process->columns[i], name) == 0)
      return (int) i;
  return -1;
}

const AdbscopeMeminfoRow *
adbscope_meminfo_process_find_row (const AdbscopeMeminfoProcess *process,
                                   const char                   *label)
{
  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (label != NULL, NULL);

  for (guint i = 0; i < process->rows->len; i++)
    {
      const AdbscopeMeminfoRow *row = g_ptr_array_index (process->rows, i);

      if (strcmp (row->label, label) == 0)
        return row;
    }
  return NULL;
}

gint64
adbscope_meminfo_process_get_cell (const AdbscopeMeminfoProcess *process,
                                   const char                   *row,
                                   const char                   *column)
{
  const AdbscopeMeminfoRow *r;
  int col;

  g_return_val_if_fail (process != NULL, ADBSCOPE_MEMINFO_UNKNOWN);

  r = adbscope_meminfo_process_find_row (process, row);
  col = adbscope_meminfo_process_find_column (process, column);
  if (r == NULL || col < 0)
    return ADBSCOPE_MEMINFO_UNKNOWN;
  return r->values[col];
}
