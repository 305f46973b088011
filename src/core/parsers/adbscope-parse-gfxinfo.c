/* adbscope-parse-gfxinfo.c: `dumpsys gfxinfo [PKG] [framestats]` → structs
 *
 * The text is read line by line with a small state machine:
 *   "** Graphics info for pid N [PKG] **"  starts a process,
 *   "Profile data in ms:"                   starts its windows,
 *   a "…ViewRootImpl@…" line or "Window: …"  starts a window,
 *   "View hierarchy:"                       ends the windows,
 *   "Flags,…" (inside ---PROFILEDATA--- or not) is a framestats header.
 * Stats lines go to the current window, or to the process before any.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-dumpsys-private.h"
#include "adbscope-parse-gfxinfo.h"

/* Framestats columns we read, found by name in the header row. */
enum
{
  COL_FLAGS,
  COL_VSYNC_ID,
  COL_INTENDED_VSYNC,
  COL_FRAME_DEADLINE,
  COL_FRAME_INTERVAL,
  COL_FRAME_START_TIME,
  COL_SWAP_BUFFERS,
  COL_FRAME_COMPLETED,
  COL_GPU_COMPLETED,
  N_COLS
};

static const char * const col_names[N_COLS] = {
  [COL_FLAGS] = "Flags",
  [COL_VSYNC_ID] = "FrameTimelineVsyncId",
  [COL_INTENDED_VSYNC] = "IntendedVsync",
  [COL_FRAME_DEADLINE] = "FrameDeadline",
  [COL_FRAME_INTERVAL] = "FrameInterval",
  [COL_FRAME_START_TIME] = "FrameStartTime",
  [COL_SWAP_BUFFERS] = "SwapBuffers",
  [COL_FRAME_COMPLETED] = "FrameCompleted",
  [COL_GPU_COMPLETED] = "GpuCompleted",
};

typedef struct
{
  int    col[N_COLS];   /* index in the row, -1 if the header lacks it */
  guint  n_fields;      /* fields in the header, trailing empty one included */
  gboolean usable;      /* has Flags, IntendedVsync and FrameCompleted */
} Header;

static void
stats_init (AdbscopeGfxinfoStats *stats)
{
  memset (stats, 0, sizeof *stats);
  stats->present = FALSE;
  stats->stats_since_ns = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->total_frames = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->janky_frames = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->janky_pct = -1;
  stats->janky_frames_legacy = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->janky_pct_legacy = -1;
  for (guint i = 0; i < ADBSCOPE_GFXINFO_N_PERCENTILES; i++)
    {
      stats->percentile_ms[i] = ADBSCOPE_GFXINFO_UNKNOWN;
      stats->gpu_percentile_ms[i] = ADBSCOPE_GFXINFO_UNKNOWN;
    }
  stats->missed_vsync = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->high_input_latency = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->slow_ui_thread = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->slow_bitmap_uploads = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->slow_issue_draw_commands = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->frame_deadline_missed = ADBSCOPE_GFXINFO_UNKNOWN;
  stats->frame_deadline_missed_legacy = ADBSCOPE_GFXINFO_UNKNOWN;
}

static void
stats_clear (AdbscopeGfxinfoStats *stats)
{
  g_clear_pointer (&stats->histogram, g_array_unref);
  g_clear_pointer (&stats->gpu_histogram, g_array_unref);
}

static void
window_free (gpointer data)
{
  AdbscopeGfxinfoWindow *window = data;

  g_free (window->name);
  g_free (window->title);
  stats_clear (&window->stats);
  g_array_unref (window->frames);
  g_free (window);
}

static void
process_free (gpointer data)
{
  AdbscopeGfxinfoProcess *process = data;

  g_free (process->package);
  g_free (process->dump_failure);
  stats_clear (&process->stats);
  g_ptr_array_unref (process->windows);
  g_free (process);
}

void
adbscope_gfxinfo_free (AdbscopeGfxinfo *info)
{
  if (info == NULL)
    return;
  g_ptr_array_unref (info->processes);
  g_free (info);
}

static AdbscopeGfxinfoProcess *
process_new (gint64  pid,
             char   *package)
{
  AdbscopeGfxinfoProcess *process = g_new0 (AdbscopeGfxinfoProcess, 1);

  process->pid = pid;
  process->package = package;
  stats_init (&process->stats);
  process->windows = g_ptr_array_new_with_free_func (window_free);
  return process;
}

static AdbscopeGfxinfoWindow *
window_new (AdbscopeGfxinfoProcess *process)
{
  AdbscopeGfxinfoWindow *window = g_new0 (AdbscopeGfxinfoWindow, 1);

  stats_init (&window->stats);
  window->frames = g_array_new (FALSE, FALSE, sizeof (AdbscopeGfxinfoFrame));
  g_ptr_array_add (process->windows, window);
  return window;
}

typedef struct
{
  AdbscopeGfxinfo        *info;
  AdbscopeGfxinfoProcess *process;
  AdbscopeGfxinfoWindow  *window;
  gboolean                in_profile;     /* between "Profile data" and "View hierarchy" */
  gboolean                in_table;       /* rows of a framestats table follow */
  gboolean                window_has_table;
  Header                  header;
} Parser;

static AdbscopeGfxinfoProcess *
parser_process (Parser *p)
{
  /* Stats or rows before any "Graphics info" line: excerpts such as the
   * ones in Google's docs.  Keep them under an anonymous process. */
  if (p->process == NULL)
    {
      p->process = process_new (-1, NULL);
      g_ptr_array_add (p->info->processes, p->process);
    }
  return p->process;
}

static AdbscopeGfxinfoWindow *
parser_new_window (Parser *p)
{
  p->window = window_new (parser_process (p));
  p->window_has_table = FALSE;
  p->in_table = FALSE;
  return p->window;
}

/* "** Graphics info for pid 3015 [com.android.settings] **" */
static gboolean
parse_process_line (Parser     *p,
                    const char *t)
{
  gboolean matched;
  gint64 pid;
  char *package = _adbscope_parse_pid_banner (t, "** Graphics info for pid ", &pid, &matched);

  if (!matched)
    return FALSE;

  p->process = process_new (pid, package);
  g_ptr_array_add (p->info->processes, p->process);
  p->window = NULL;
  p->in_profile = FALSE;
  p->in_table = FALSE;
  return TRUE;
}

/* "\tpkg/Activity/android.view.ViewRootImpl@6b40547 (visibility=0)" */
static void
start_window_from_root (Parser     *p,
                        const char *t)
{
  AdbscopeGfxinfoWindow *window = parser_new_window (p);
  const char *vis = strstr (t, " (visibility=");
  gsize n = vis != NULL ? (gsize) (vis - t) : strlen (t);

  while (n > 0 && g_ascii_isspace (t[n - 1]))
    n--;
  window->name = _adbscope_dup_valid (t, n);
}

/* "Window: com.example/com.example.MainActivity" follows the root line on
 * 12+; it names the same window unless that one already has content. */
static void
set_window_title (Parser     *p,
                  const char *title)
{
  AdbscopeGfxinfoWindow *window = p->window;
  g_autofree char *copy = _adbscope_dup_valid (title, -1);

  if (window == NULL || window->title != NULL || window->stats.present || p->window_has_table)
    window = parser_new_window (p);
  window->title = g_strdup (g_strstrip (copy));
}

static AdbscopeGfxinfoStats *
current_stats (Parser *p)
{
  if (p->window != NULL)
    return &p->window->stats;
  return &parser_process (p)->stats;
}

/* "5ms=0 6ms=2 …"; a truncated tail just ends the list. */
static GArray *
parse_histogram (const char *s)
{
  GArray *buckets = g_array_new (FALSE, FALSE, sizeof (AdbscopeGfxinfoBucket));

  for (;;)
    {
      AdbscopeGfxinfoBucket b;

      s = _adbscope_skip_space (s);
      if (*s == '\0')
        break;
      if (!_adbscope_parse_int64 (s, &s, &b.ms) || strncmp (s, "ms=", 3) != 0)
        break;
      if (!_adbscope_parse_int64 (s + 3, &s, &b.count) || b.ms < 0 || b.count < 0)
        break;
      if (*s != '\0' && *s != ' ' && *s != '\t')
        break;
      g_array_append_val (buckets, b);
    }

  return buckets;
}

/* "113 (21.90%)" */
static gboolean
parse_count_pct (const char *s,
                 gint64     *count,
                 double     *pct)
{
  double v;

  if (!_adbscope_parse_int64 (s, &s, count))
    return FALSE;
  s = _adbscope_skip_space (s);
  if (*s == '(' && _adbscope_dumpsys_parse_double (s + 1, &s, &v) && *s == '%')
    *pct = v;
  return TRUE;
}

static gboolean
parse_counter (const char *t,
               const char *label,
               gint64     *out)
{
  const char *rest = _adbscope_after_prefix (t, label);
  gint64 v;

  if (rest == NULL || !_adbscope_parse_int64 (rest, &rest, &v))
    return FALSE;
  /* "Number Frame deadline missed: 5" must not eat the "(legacy)" line. */
  if (*_adbscope_skip_space (rest) != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

/* "50th percentile: 11ms" / "50th gpu percentile: 3ms" */
static gboolean
parse_percentile (const char           *t,
                  AdbscopeGfxinfoStats *stats)
{
  gint64 which;
  gint64 ms;
  const char *s;
  gint64 *dest;
  int idx;

  if (!g_ascii_isdigit (*t) || !_adbscope_parse_int64 (t, &s, &which))
    return FALSE;

  if (strncmp (s, "th percentile: ", 15) == 0)
    {
      dest = stats->percentile_ms;
      s += 15;
    }
  else if (strncmp (s, "th gpu percentile: ", 19) == 0)
    {
      dest = stats->gpu_percentile_ms;
      s += 19;
    }
  else
    return FALSE;

  if (!_adbscope_parse_int64 (s, &s, &ms) || strncmp (s, "ms", 2) != 0)
    return FALSE;

  switch (which)
    {
    case 50: idx = ADBSCOPE_GFXINFO_P50; break;
    case 90: idx = ADBSCOPE_GFXINFO_P90; break;
    case 95: idx = ADBSCOPE_GFXINFO_P95; break;
    case 99: idx = ADBSCOPE_GFXINFO_P99; break;
    default: return TRUE; /* another percentile: known line, not kept */
    }
  dest[idx] = ms;
  return TRUE;
}

static gboolean
parse_stats_line (Parser     *p,
                  const char *t)
{
  const char *rest;
  AdbscopeGfxinfoStats tmp;
  AdbscopeGfxinfoStats *stats;
  gint64 v;

  /* Cheap filter first: every stats line starts with one of these. */
  if (!(g_ascii_isdigit (*t) || g_str_has_prefix (t, "Stats since: ") ||
        g_str_has_prefix (t, "Total frames rendered: ") ||
        g_str_has_prefix (t, "Janky frames") || g_str_has_prefix (t, "Number ") ||
        g_str_has_prefix (t, "HISTOGRAM: ") || g_str_has_prefix (t, "GPU HISTOGRAM: ")))
    return FALSE;

  /* Parse into a scratch copy of the target's numbers first, so that an
   * unknown line does not create an anonymous process. */
  stats_init (&tmp);

  if ((rest = _adbscope_after_prefix (t, "Stats since: ")) != NULL)
    {
      if (!_adbscope_parse_int64 (rest, &rest, &v) || v < 0)
        return FALSE;
      stats = current_stats (p);
      stats->stats_since_ns = v;
    }
  else if (parse_counter (t, "Total frames rendered: ", &v))
    (stats = current_stats (p))->total_frames = v;
  else if ((rest = _adbscope_after_prefix (t, "Janky frames (legacy): ")) != NULL)
    {
      if (!parse_count_pct (rest, &tmp.janky_frames_legacy, &tmp.janky_pct_legacy))
        return FALSE;
      stats = current_stats (p);
      stats->janky_frames_legacy = tmp.janky_frames_legacy;
      stats->janky_pct_legacy = tmp.janky_pct_legacy;
    }
  else if ((rest = _adbscope_after_prefix (t, "Janky frames: ")) != NULL)
    {
      if (!parse_count_pct (rest, &tmp.janky_frames, &tmp.janky_pct))
        return FALSE;
      stats = current_stats (p);
      stats->janky_frames = tmp.janky_frames;
      stats->janky_pct = tmp.janky_pct;
    }
  else if (g_ascii_isdigit (*t))
    {
      if (!parse_percentile (t, &tmp))
        return FALSE;
      stats = current_stats (p);
      for (guint i = 0; i < ADBSCOPE_GFXINFO_N_PERCENTILES; i++)
        {
          if (tmp.percentile_ms[i] >= 0)
            stats->percentile_ms[i] = tmp.percentile_ms[i];
          if (tmp.gpu_percentile_ms[i] >= 0)
            stats->gpu_percentile_ms[i] = tmp.gpu_percentile_ms[i];
        }
    }
  else if (parse_counter (t, "Number Missed Vsync: ", &v))
    (stats = current_stats (p))->missed_vsync = v;
  else if (parse_counter (t, "Number High input latency: ", &v))
    (stats = current_stats (p))->high_input_latency = v;
  else if (parse_counter (t, "Number Slow UI thread: ", &v))
    (stats = current_stats (p))->slow_ui_thread = v;
  else if (parse_counter (t, "Number Slow bitmap uploads: ", &v))
    (stats = current_stats (p))->slow_bitmap_uploads = v;
  else if (parse_counter (t, "Number Slow issue draw commands: ", &v) ||
           parse_counter (t, "Number Slow draw: ", &v))
    (stats = current_stats (p))->slow_issue_draw_commands = v;
  else if (parse_counter (t, "Number Frame deadline missed: ", &v))
    (stats = current_stats (p))->frame_deadline_missed = v;
  else if (parse_counter (t, "Number Frame deadline missed (legacy): ", &v))
    (stats = current_stats (p))->frame_deadline_missed_legacy = v;
  else if ((rest = _adbscope_after_prefix (t, "HISTOGRAM: ")) != NULL)
    {
      stats = current_stats (p);
      g_clear_pointer (&stats->histogram, g_array_unref);
      stats->histogram = parse_histogram (rest);
    }
  else if ((rest = _adbscope_after_prefix (t, "GPU HISTOGRAM: ")) != NULL)
    {
      stats = current_stats (p);
      g_clear_pointer (&stats->gpu_histogram, g_array_unref);
      stats->gpu_histogram = parse_histogram (rest);
    }
  else
    return FALSE;

  stats->present = TRUE;
  return TRUE;
}

static void
parse_header (Parser     *p,
              const char *t)
{
  g_auto(GStrv) names = g_strsplit (t, ",", -1);
  Header *h = &p->header;

  for (guint i = 0; i < N_COLS; i++)
    h->col[i] = -1;
  h->n_fields = g_strv_length (names);

  for (guint i = 0; names[i] != NULL; i++)
    for (guint c = 0; c < N_COLS; c++)
      if (h->col[c] < 0 && strcmp (g_strstrip (names[i]), col_names[c]) == 0)
        h->col[c] = (int) i;

  h->usable = h->col[COL_FLAGS] >= 0 && h->col[COL_INTENDED_VSYNC] >= 0 &&
              h->col[COL_FRAME_COMPLETED] >= 0;

  /* A second table with no new window line between: a new, unnamed window. */
  if (p->window == NULL || p->window_has_table)
    parser_new_window (p);
  p->window_has_table = TRUE;
  p->in_table = TRUE;
}

/* Every field of a row must be an integer; a row cut short by truncation
 * has fewer fields than the header and is dropped. */
static gboolean
parse_row_fields (const char *t,
                  guint       n_fields,
                  gint64     *values)
{
  const char *s = t;
  gboolean after_comma = FALSE;

  for (guint i = 0; i < n_fields; i++)
    {
      const char *e;

      if (*s == '\0')
        {
          /* The empty field after the trailing comma rows have since 6;
           * any other missing field means the row was cut short. */
          if (after_comma && i + 1 == n_fields)
            {
              values[i] = 0;
              return TRUE;
            }
          return FALSE;
        }
      if (!_adbscope_parse_int64 (s, &e, &values[i]) || (*e != ',' && *e != '\0'))
        return FALSE;
      s = e;
      after_comma = *s == ',';
      if (after_comma)
        s++;
    }

  return *s == '\0';
}

static gint64
value_at (const Header *h,
          const gint64 *values,
          int           col)
{
  return h->col[col] >= 0 ? values[h->col[col]] : -1;
}

static void
parse_row (Parser     *p,
           const char *t)
{
  Header *h = &p->header;
  AdbscopeGfxinfoFrame frame;
  g_autofree gint64 *values = NULL;
  gint64 completed, deadline, a, b, gpu, swap;

  if (!h->usable || h->n_fields == 0 || h->n_fields > 256)
    {
      p->window->n_bad_rows++;
      return;
    }

  values = g_new0 (gint64, h->n_fields);
  if (!parse_row_fields (t, h->n_fields, values))
    {
      p->window->n_bad_rows++;
      return;
    }

  frame.flags = (guint64) value_at (h, values, COL_FLAGS);
  frame.vsync_id = value_at (h, values, COL_VSYNC_ID);
  frame.intended_vsync_ns = value_at (h, values, COL_INTENDED_VSYNC);
  completed = value_at (h, values, COL_FRAME_COMPLETED);

  frame.duration_ns = -1;
  if (frame.intended_vsync_ns > 0 && completed >= frame.intended_vsync_ns)
    frame.duration_ns = completed - frame.intended_vsync_ns;

  /* Long.MAX_VALUE means "no deadline" (vsync id -1 rows). */
  deadline = value_at (h, values, COL_FRAME_DEADLINE);
  frame.deadline_ns = -1;
  if (deadline > 0 && deadline != G_MAXINT64 && frame.intended_vsync_ns > 0 &&
      deadline >= frame.intended_vsync_ns)
    frame.deadline_ns = deadline - frame.intended_vsync_ns;

  /* Android 12-14 print the header names FrameInterval and FrameStartTime
   * in swapped order relative to the values.  The interval is the small
   * one (a period, not a timestamp), whatever the header says. */
  a = value_at (h, values, COL_FRAME_INTERVAL);
  b = value_at (h, values, COL_FRAME_START_TIME);
  if (a > 0 && b > 0)
    frame.frame_interval_ns = MIN (a, b);
  else
    frame.frame_interval_ns = a > 0 ? a : -1;
  if (frame.frame_interval_ns >= G_TIME_SPAN_SECOND * 1000)
    frame.frame_interval_ns = -1;

  gpu = value_at (h, values, COL_GPU_COMPLETED);
  swap = value_at (h, values, COL_SWAP_BUFFERS);
  frame.gpu_ns = gpu > 0 && swap > 0 && gpu >= swap ? gpu - swap : -1;

  g_array_append_val (p->window->frames, frame);
}

AdbscopeGfxinfo *
adbscope_gfxinfo_parse (const char  *text,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(AdbscopeGfxinfo) info = NULL;
  AdbscopeLines lines;
  Parser p = { 0 };
  gboolean any_text = FALSE;
  gboolean seen_banner = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = g_new0 (AdbscopeGfxinfo, 1);
  info->uptime_ms = -1;
  info->realtime_ms = -1;
  info->processes = g_ptr_array_new_with_free_func (process_free);
  p.info = info;

  _adbscope_lines_init (&lines, text, len);

  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      const char *rest;

      if (*t == '\0')
        {
          p.in_table = FALSE;
          continue;
        }
      any_text = TRUE;

      if (p.in_table)
        {
          if ((g_ascii_isdigit (*t) || *t == '-') && strcmp (t, "---PROFILEDATA---") != 0)
            {
              /* A row cut by truncation may end in a short number. */
              if (_adbscope_lines_is_cut (&lines, line))
                p.window->n_bad_rows++;
              else
                parse_row (&p, t);
              continue;
            }
          p.in_table = FALSE;
        }

      if (!_adbscope_check_common_errors (t, error))
        {
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if (strcmp (t, "---PROFILEDATA---") == 0)
        continue;
      /* ActivityManager could not get the app's dump (it was busy, the
       * pipe timed out): the process is there, its numbers are not. */
      if (g_str_has_prefix (t, "Failure while dumping the app"))
        {
          AdbscopeGfxinfoProcess *proc = parser_process (&p);

          g_free (proc->dump_failure);
          proc->dump_failure = _adbscope_dup_valid (t, -1);
          continue;
        }
      if (g_str_has_prefix (t, "Flags,"))
        {
          parse_header (&p, t);
          continue;
        }
      if (g_str_has_prefix (t, "Applications Graphics Acceleration Info"))
        {
          seen_banner = TRUE;
          continue;
        }
      if (info->uptime_ms < 0 && _adbscope_parse_uptime_line (t, &info->uptime_ms, &info->realtime_ms))
        continue;
      if (g_str_has_prefix (t, "** Graphics info for pid "))
        {
          parse_process_line (&p, t);
          continue;
        }
      if (strcmp (t, "Profile data in ms:") == 0)
        {
          p.in_profile = TRUE;
          p.window = NULL;
          continue;
        }
      if (strcmp (t, "View hierarchy:") == 0)
        {
          p.in_profile = FALSE;
          p.window = NULL;
          continue;
        }
      if (p.in_profile && strstr (t, "ViewRootImpl@") != NULL)
        {
          start_window_from_root (&p, t);
          continue;
        }
      if ((rest = _adbscope_after_prefix (t, "Window: ")) != NULL && line == t)
        {
          set_window_title (&p, rest);
          continue;
        }
      /* Stats lines start at column 0; indented look-alikes belong to
       * other sections. */
      if (line == t)
        parse_stats_line (&p, t);
    }

  _adbscope_lines_clear (&lines);

  if (info->processes->len == 0)
    {
      if (!any_text)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("The gfxinfo output is empty"));
      else
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     seen_banner
                     ? _("The gfxinfo output has no “Graphics info for pid” section (truncated?)")
                     : _("The text is not gfxinfo output: no “Graphics info for pid” section, stats or framestats"));
      return NULL;
    }

  return g_steal_pointer (&info);
}

AdbscopeGfxinfoProcess *
adbscope_gfxinfo_find_process (const AdbscopeGfxinfo *info,
                               const char            *package)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (package != NULL, NULL);

  for (guint i = 0; i < info->processes->len; i++)
    {
      AdbscopeGfxinfoProcess *process = g_ptr_array_index (info->processes, i);

      if (g_strcmp0 (process->package, package) == 0)
        return process;
    }
  return NULL;
}

gboolean
adbscope_gfxinfo_frame_is_valid (const AdbscopeGfxinfoFrame *frame)
{
  g_return_val_if_fail (frame != NULL, FALSE);

  /* Google's framestats docs: rows with non-zero flags are not normal
   * frames (visibility change, skipped frame, …) and must be ignored. */
  return frame->flags == 0 && frame->duration_ns >= 0;
}

guint
adbscope_gfxinfo_process_count_frames (const AdbscopeGfxinfoProcess *process)
{
  guint n = 0;

  g_return_val_if_fail (process != NULL, 0);

  for (guint w = 0; w < process->windows->len; w++)
    {
      const AdbscopeGfxinfoWindow *window = g_ptr_array_index (process->windows, w);

      for (guint i = 0; i < window->frames->len; i++)
        if (adbscope_gfxinfo_frame_is_valid (&g_array_index (window->frames, AdbscopeGfxinfoFrame, i)))
          n++;
    }
  return n;
}

static const char *
window_key (const AdbscopeGfxinfoWindow *window)
{
  if (window->name != NULL)
    return window->name;
  if (window->title != NULL)
    return window->title;
  return "";
}

static int
compare_frames (gconstpointer a,
                gconstpointer b)
{
  const AdbscopeGfxinfoFrame *fa = a;
  const AdbscopeGfxinfoFrame *fb = b;

  return (fa->intended_vsync_ns > fb->intended_vsync_ns) - (fa->intended_vsync_ns < fb->intended_vsync_ns);
}

/* Frames of @current not in @previous.  framestats repeats the last ~120
 * frames of each window in every dump, so a window's frames are new when
 * their IntendedVsync is later than the latest one that window had before.
 * Windows are matched by their ViewRootImpl name (unique per window), or
 * their title; a window seen for the first time contributes all its
 * frames.  Only valid frames are returned, sorted by IntendedVsync. */
GArray *
adbscope_gfxinfo_new_frames (const AdbscopeGfxinfoProcess *previous,
                             const AdbscopeGfxinfoProcess *current)
{
  GArray *out;
  g_autofree gboolean *used = NULL;

  g_return_val_if_fail (current != NULL, NULL);

  out = g_array_new (FALSE, FALSE, sizeof (AdbscopeGfxinfoFrame));

  /* Another process (the app restarted): nothing in common. */
  if (previous != NULL && previous->pid != current->pid)
    previous = NULL;

  if (previous != NULL)
    used = g_new0 (gboolean, previous->windows->len);

  for (guint w = 0; w < current->windows->len; w++)
    {
      const AdbscopeGfxinfoWindow *window = g_ptr_array_index (current->windows, w);
      gint64 last_seen = G_MININT64;

      if (previous != NULL)
        {
          for (guint j = 0; j < previous->windows->len; j++)
            {
              const AdbscopeGfxinfoWindow *old = g_ptr_array_index (previous->windows, j);

              if (used[j] || strcmp (window_key (old), window_key (window)) != 0)
                continue;
              used[j] = TRUE;
              for (guint i = 0; i < old->frames->len; i++)
                last_seen = MAX (last_seen, g_array_index (old->frames, AdbscopeGfxinfoFrame, i).intended_vsync_ns);
              break;
            }
        }

      for (guint i = 0; i < window->frames->len; i++)
        {
          const AdbscopeGfxinfoFrame *frame = &g_array_index (window->frames, AdbscopeGfxinfoFrame, i);

          if (frame->intended_vsync_ns > last_seen && adbscope_gfxinfo_frame_is_valid (frame))
            g_array_append_vals (out, frame, 1);
        }
    }

  g_array_sort (out, compare_frames);
  return out;
}

static const char * const cause_keys[ADBSCOPE_JANK_N_CAUSES] = {
  [ADBSCOPE_JANK_MISSED_VSYNC] = "missed_vsync",
  [ADBSCOPE_JANK_HIGH_INPUT_LATENCY] = "high_input_latency",
  [ADBSCOPE_JANK_SLOW_UI_THREAD] = "slow_ui_thread",
  [ADBSCOPE_JANK_SLOW_BITMAP_UPLOADS] = "slow_bitmap_uploads",
  [ADBSCOPE_JANK_SLOW_ISSUE_DRAW_COMMANDS] = "slow_issue_draw_commands",
  [ADBSCOPE_JANK_FRAME_DEADLINE_MISSED] = "frame_deadline_missed",
};

const char *
adbscope_jank_cause_to_key (AdbscopeJankCause cause)
{
  g_return_val_if_fail (cause < ADBSCOPE_JANK_N_CAUSES, NULL);
  return cause_keys[cause];
}

/* The cumulative count of one jank cause, -1 when this dump lacks it. */
gint64
adbscope_gfxinfo_stats_get_cause (const AdbscopeGfxinfoStats *st,
                                  AdbscopeJankCause           cause)
{
  switch (cause)
    {
    case ADBSCOPE_JANK_MISSED_VSYNC: return st->missed_vsync;
    case ADBSCOPE_JANK_HIGH_INPUT_LATENCY: return st->high_input_latency;
    case ADBSCOPE_JANK_SLOW_UI_THREAD: return st->slow_ui_thread;
    case ADBSCOPE_JANK_SLOW_BITMAP_UPLOADS: return st->slow_bitmap_uploads;
    case ADBSCOPE_JANK_SLOW_ISSUE_DRAW_COMMANDS: return st->slow_issue_draw_commands;
    case ADBSCOPE_JANK_FRAME_DEADLINE_MISSED: return st->frame_deadline_missed;
    case ADBSCOPE_JANK_N_CAUSES:
    default: g_return_val_if_reached (-1);
    }
}
