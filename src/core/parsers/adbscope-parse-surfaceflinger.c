/* adbscope-parse-surfaceflinger.c: SurfaceFlinger --list / --latency */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-surfaceflinger.h"
#include "adbscope-parse-util-private.h"

/* PerfDog's rule: a frame longer than twice the mean of the three before
 * it and longer than two (Jank) or three (BigJank) frames of 24 fps film. */
#define FILM_FRAME_MS (1000.0 / 24.0)

/* ---- --list --------------------------------------------------------------- */

/* "RequestedLayerState{NAME parentId=N z=N}" → NAME.  NAME may hold spaces
 * and braces ("ActivityRecord{5e6ac22 u0 …}#28983"), so the fields are cut
 * from the end. */
static char *
unwrap_layer_name (const char *line,
                   gsize       len)
{
  static const char prefix[] = "RequestedLayerState{";
  const char *p = line, *end = line + len;

  if (_adbscope_has_prefix_len (line, len, prefix) && len > strlen (prefix) && end[-1] == '}')
    {
      const char *cut = NULL;

      p = line + strlen (prefix);
      end--;
      for (const char *q = end; q > p; q--)
        if (*q == ' ' && (g_str_has_prefix (q, " parentId=") || g_str_has_prefix (q, " z=")))
          cut = q;
      if (cut != NULL)
        end = cut;
    }
  while (p < end && g_ascii_isspace (*p))
    p++;
  while (end > p && g_ascii_isspace (end[-1]))
    end--;
  return p < end ? _adbscope_strndup_utf8 (p, end - p) : NULL;
}

GPtrArray *
adbscope_sf_list_parse (const char  *text,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(GPtrArray) names = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (!_adbscope_parse_check_input (text, &len, "SurfaceFlinger --list", error))
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      char *name;

      /* dumpsys' own complaints are not layers */
      if (_adbscope_has_prefix_len (line, line_len, "Can't find service") ||
          _adbscope_has_prefix_len (line, line_len, "Display ") ||
          memchr (line, '\0', line_len) != NULL)
        continue;
      name = unwrap_layer_name (line, line_len);
      if (name != NULL)
        g_ptr_array_add (names, name);
    }
  return g_steal_pointer (&names);
}

void
adbscope_sf_layer_free (AdbscopeSfLayer *layer)
{
  if (layer == NULL)
    return;
  g_free (layer->name);
  g_free (layer);
}

/* Does s start with "PKG/"? */
static gboolean
starts_with_component (const char *s,
                       const char *package)
{
  gsize n = strlen (package);

  return strncmp (s, package, n) == 0 && s[n] == '/';
}

/* An Android 15 window layer is "HASH PKG/ACTIVITY#N": skip the hash. */
static const char *
skip_window_hash (const char *s)
{
  const char *p = s;

  while (g_ascii_isxdigit (*p))
    p++;
  if (p > s && p - s <= 16 && *p == ' ')
    return p + 1;
  return s;
}

static int
compare_layers (gconstpointer a,
                gconstpointer b)
{
  const AdbscopeSfLayer *x = *(AdbscopeSfLayer * const *) a;
  const AdbscopeSfLayer *y = *(AdbscopeSfLayer * const *) b;

  if (x->kind != y->kind)
    return x->kind == ADBSCOPE_SF_LAYER_SURFACE_VIEW ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The layers of PKG that hold frames, SurfaceViews first.  Helper layers
 * (input sinks, ActivityRecord containers, "Background for", "Bounds for")
 * are not drawn into and are left out. */
GPtrArray *
adbscope_sf_find_app_layers (GPtrArray  *names,
                             const char *package)
{
  GPtrArray *layers = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_sf_layer_free);

  g_return_val_if_fail (names != NULL && package != NULL && *package != '\0', layers);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      AdbscopeSfLayerKind kind;
      AdbscopeSfLayer *layer;

      if (g_str_has_prefix (name, "SurfaceView - ") &&
          starts_with_component (name + strlen ("SurfaceView - "), package))
        kind = ADBSCOPE_SF_LAYER_SURFACE_VIEW;
      else if (g_str_has_prefix (name, "SurfaceView[") &&
               starts_with_component (name + strlen ("SurfaceView["), package))
        kind = ADBSCOPE_SF_LAYER_SURFACE_VIEW;
      else if (starts_with_component (skip_window_hash (name), package) && strchr (name, '#') != NULL)
        kind = ADBSCOPE_SF_LAYER_WINDOW;
      else
        continue;

      layer = g_new0 (AdbscopeSfLayer, 1);
      layer->name = g_strdup (name);
      layer->kind = kind;
      g_ptr_array_add (layers, layer);
    }
  g_ptr_array_sort (layers, compare_layers);
  return layers;
}

/* ---- --latency ------------------------------------------------------------ */

void
adbscope_sf_latency_free (AdbscopeSfLatency *latency)
{
  if (latency == NULL)
    return;
  g_clear_pointer (&latency->frames, g_array_unref);
  g_free (latency);
}

static int
compare_present (gconstpointer a,
                 gconstpointer b)
{
  const AdbscopeSfFrame *x = a, *y = b;

  return (x->actual_present_ns > y->actual_present_ns) - (x->actual_present_ns < y->actual_present_ns);
}

AdbscopeSfLatency *
adbscope_sf_latency_parse (const char  *text,
                           gssize       len,
                           GError     **error)
{
  g_autoptr(AdbscopeSfLatency) lat = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  gboolean have_period = FALSE;

  if (!_adbscope_parse_check_input (text, &len, "SurfaceFlinger --latency", error))
    return NULL;
  lat = g_new0 (AdbscopeSfLatency, 1);
  lat->frames = g_array_new (FALSE, FALSE, sizeof (AdbscopeSfFrame));
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *p = line, *end = line + line_len;
      gint64 v[3];
      guint n = 0;

      p = _adbscope_skip_spaces (p, end);
      if (p == end)
        continue;
      while (p < end && n < 4)
        {
          const char *tok = p;

          p = _adbscope_skip_token (p, end);
          if (n < 3 && !_adbscope_parse_i64 (tok, p - tok, &v[n]))
            {
              n = 99;
              break;
            }
          n++;
          p = _adbscope_skip_spaces (p, end);
        }

      if (!have_period)
        {
          if (n != 1 || v[0] <= 0)
            {
              g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("SurfaceFlinger did not print a refresh period (line %u)"), iter.line_no);
              return NULL;
            }
          lat->refresh_period_ns = v[0];
          have_period = TRUE;
          continue;
        }

      lat->n_rows++;
      if (n != 3)
        {
          lat->n_bad_rows++;
          continue;
        }
      if (v[0] == 0 && v[1] == 0 && v[2] == 0)
        lat->n_empty++;
      else if (v[1] == G_MAXINT64 || v[1] <= 0)
        lat->n_pending++;
      else
        {
          AdbscopeSfFrame f = {
            .desired_present_ns = v[0],
            .actual_present_ns = v[1],
            .frame_ready_ns = v[2] == G_MAXINT64 ? -1 : v[2],
          };
          g_array_append_val (lat->frames, f);
        }
    }
  if (!have_period)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("SurfaceFlinger printed nothing for the layer"));
      return NULL;
    }
  g_array_sort (lat->frames, compare_present);
  /* Rows that share the desired-present and frame-ready times are one
   * buffer SurfaceFlinger presented several times (nothing new was
   * queued): one frame, at its first presentation. */
  for (guint i = 0; i < lat->frames->len; i++)
    {
      const AdbscopeSfFrame *f = &g_array_index (lat->frames, AdbscopeSfFrame, i);
      gboolean repeat = FALSE;

      for (guint k = 0; k < i && !repeat; k++)
        {
          const AdbscopeSfFrame *e = &g_array_index (lat->frames, AdbscopeSfFrame, k);

          repeat = e->desired_present_ns == f->desired_present_ns && e->frame_ready_ns == f->frame_ready_ns;
        }
      if (repeat)
        {
          g_array_remove_index (lat->frames, i--);
          lat->n_repeats++;
        }
    }
  return g_steal_pointer (&lat);
}

/* Every row used: older frames may have fallen out of the history. */
gboolean
adbscope_sf_latency_is_full (const AdbscopeSfLatency *latency)
{
  g_return_val_if_fail (latency != NULL, FALSE);
  return latency->n_rows > 0 && latency->n_empty == 0;
}

/* ---- counting ------------------------------------------------------------- */

void
adbscope_sf_tracker_reset (AdbscopeSfTracker *tracker)
{
  memset (tracker, 0, sizeof *tracker);
}

void
adbscope_sf_delta_clear (AdbscopeSfDelta *delta)
{
  g_clear_pointer (&delta->frame_times_ms, g_array_unref);
  memset (delta, 0, sizeof *delta);
  delta->fps = NAN;
  delta->span_s = NAN;
}

static void
judge_frame (AdbscopeSfTracker *t,
             AdbscopeSfDelta   *d,
             double             ms)
{
  float f = (float) ms;

  g_array_append_val (d->frame_times_ms, f);
  if (t->n_recent == 3)
    {
      double avg = (t->recent_ms[0] + t->recent_ms[1] + t->recent_ms[2]) / 3.0;

      if (ms > 2.0 * avg && ms > 2.0 * FILM_FRAME_MS)
        d->jank++;
      if (ms > 2.0 * avg && ms > 3.0 * FILM_FRAME_MS)
        d->big_jank++;
    }
  if (t->n_recent < 3)
    t->recent_ms[t->n_recent++] = ms;
  else
    {
      t->recent_ms[0] = t->recent_ms[1];
      t->recent_ms[1] = t->recent_ms[2];
      t->recent_ms[2] = ms;
    }
}

/* Counts the frames presented since the previous read, up to now_ns (the
 * device's CLOCK_MONOTONIC at this read; < 0 when unknown, then up to the
 * newest present).  Each frame is counted once however often it is seen:
 * the cursor is a time on the device's clock, never a row index. */
void
adbscope_sf_tracker_advance (AdbscopeSfTracker       *t,
                             const AdbscopeSfLatency *lat,
                             gint64                   now_ns,
                             AdbscopeSfDelta         *d)
{
  const GArray *fr = lat->frames;
  gint64 newest = fr->len > 0 ? g_array_index (fr, AdbscopeSfFrame, fr->len - 1).actual_present_ns : -1;
  gint64 to = now_ns >= 0 ? now_ns : newest;
  gint64 first_new = -1, last_new = -1;
  guint visible = 0;
  gboolean contiguous;

  g_return_if_fail (t != NULL && lat != NULL && d != NULL);

  adbscope_sf_delta_clear (d);
  d->frame_times_ms = g_array_new (FALSE, FALSE, sizeof (float));

  if (!t->have_cursor || to < 0 || to < t->cursor_ns)
    {
      /* First read (or the clock went back: a new boot): start counting here. */
      t->have_cursor = to >= 0;
      t->cursor_ns = to;
      t->last_present_ns = -1;
      t->n_recent = 0;
      for (guint i = 0; i < fr->len; i++)
        if (g_array_index (fr, AdbscopeSfFrame, i).actual_present_ns <= to)
          t->last_present_ns = g_array_index (fr, AdbscopeSfFrame, i).actual_present_ns;
      return;
    }

  d->lost = adbscope_sf_latency_is_full (lat) && fr->len > 0 &&
            g_array_index (fr, AdbscopeSfFrame, 0).actual_present_ns > t->cursor_ns;
  contiguous = !d->lost;
  if (d->lost)
    t->n_recent = 0;

  for (guint i = 0; i < fr->len; i++)
    {
      const AdbscopeSfFrame *f = &g_array_index (fr, AdbscopeSfFrame, i);

      if (f->actual_present_ns <= t->cursor_ns || f->actual_present_ns > to)
        continue;
      visible++;
      if (first_new < 0)
        first_new = f->actual_present_ns;
      last_new = f->actual_present_ns;
      /* After a loss the frame before the first one seen is unknown. */
      if (t->last_present_ns > 0 && contiguous)
        judge_frame (t, d, (f->actual_present_ns - t->last_present_ns) / 1e6);
      contiguous = TRUE;
      if (lat->refresh_period_ns > 0 &&
          f->actual_present_ns - f->desired_present_ns >= lat->refresh_period_ns / 2)
        d->janky++;
      t->last_present_ns = f->actual_present_ns;
    }
  d->new_frames = visible;

  if (now_ns >= 0)
    d->span_s = (to - t->cursor_ns) / 1e9;
  else if (last_new > 0 && t->cursor_ns > 0)
    d->span_s = (last_new - t->cursor_ns) / 1e9;

  if (d->lost && visible >= 2 && last_new > first_new)
    {
      /* The rate of the frames still in the history, carried over the part
       * that fell out of it: an estimate, and flagged as one. */
      double rate = (visible - 1) / ((last_new - first_new) / 1e9);

      d->lost_estimate = (guint) MAX (0.0, floor (rate * ((first_new - t->cursor_ns) / 1e9) + 0.5));
    }
  if (isfinite (d->span_s) && d->span_s > 0)
    d->fps = (d->new_frames + d->lost_estimate) / d->span_s;

  t->cursor_ns = to;
}
