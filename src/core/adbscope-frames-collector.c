/* adbscope-frames-collector.c: frames, FPS and jank from gfxinfo
 *
 * FPS = Δ "Total frames rendered" / Δt on the device's own clock: the
 * "Uptime:" the dump itself prints (ms; /proc/uptime read in the same
 * shell call where a dump lacks it).  No host scheduling noise, no drift
 * against other loops.  The arithmetic, with its vsync clamp, is
 * adbscope_delta_fps(); the jank counters' deltas adbscope_delta_counter().
 *
 * A frame is janky against its real deadline: the FrameDeadline column
 * (Android 12+) or else the refresh period from the probe.
 *
 * SurfaceFlinger, in the same shell call: every few ticks `--list` finds
 * the app's layers (adbscope_sf_find_app_layers), and every tick
 * `--latency LAYER` reads each one's present times.  Those are on
 * CLOCK_MONOTONIC, the clock of gfxinfo's "Uptime:", so the frames of an
 * interval are exactly those presented between the two dumps' uptimes
 * (AdbscopeSfTracker).  A SurfaceView that drew wins over HWUI (games,
 * video, maps); HWUI wins over the app's window layer, which shows the
 * same frames later.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-delta.h"
#include "adbscope-error.h"
#include "adbscope-frames-collector.h"
#include "adbscope-frames-collector-private.h"

struct _AdbscopeFramesCollector
{
  AdbscopeCollector       parent_instance;

  double                  refresh_hz;
  AdbscopeGfxinfo        *prev_info;
  AdbscopeGfxinfoProcess *prev;        /* inside prev_info */
  double                  prev_uptime;
  gint64                  prev_last_vsync;
  gboolean                seen_process;

  GPtrArray              *layers;      /* AdbscopeSfLayer: read every tick */
  GPtrArray              *asked;       /* the layers this tick's command reads */
  GHashTable             *trackers;    /* layer name → AdbscopeSfTracker */
  guint                   last_list_tick;
  gboolean                listed;      /* --list answered at least once */
  gboolean                want_list;
  char                   *list_error;
  AdbscopeFramesSource    last_source;
  gboolean                short_window; /* this dump came too soon for a rate */
  char                   *gfx_failure;  /* this dump: "Failure while dumping the app…" */
};

G_DEFINE_FINAL_TYPE (AdbscopeFramesCollector, adbscope_frames_collector, ADBSCOPE_TYPE_COLLECTOR)


void
adbscope_frames_sample_free (AdbscopeFramesSample *sample)
{
  if (sample == NULL)
    return;
  g_clear_pointer (&sample->frames, g_array_unref);
  adbscope_sf_delta_clear (&sample->sf);
  g_clear_pointer (&sample->sf_layers, g_ptr_array_unref);
  g_free (sample->sf_layer);
  g_free (sample->zero_detail);
  g_free (sample);
}

#define SF_LIST_MARK    "@@adbscope-sf-list"
#define SF_LATENCY_MARK "@@adbscope-sf-latency "
#define SF_LIST_EVERY   5

static gboolean
layer_name_is_safe (const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return TRUE;
}

static char *
build_command (AdbscopeCollector *collector,
               guint              tick)
{
  AdbscopeFramesCollector *self = ADBSCOPE_FRAMES_COLLECTOR (collector);
  g_autoptr(GString) cmd = g_string_new (NULL);

  /* `read` is a builtin: no fork between the clock and the dump. */
  g_string_append_printf (cmd, "read __u < /proc/uptime; echo \"uptime:$__u\"; " ADBSCOPE_CMD_GFXINFO,
                          adbscope_collector_get_package (collector));

  if (self->want_list || self->layers->len == 0 || tick - self->last_list_tick >= SF_LIST_EVERY)
    {
      g_string_append (cmd, "; echo " SF_LIST_MARK "; " ADBSCOPE_CMD_SF_LIST " 2>&1");
      self->last_list_tick = tick;
      self->want_list = FALSE;
    }
  g_clear_pointer (&self->asked, g_ptr_array_unref);
  self->asked = g_ptr_array_ref (self->layers);
  for (guint i = 0; i < self->asked->len; i++)
    {
      const AdbscopeSfLayer *l = g_ptr_array_index (self->asked, i);
      g_autofree char *quoted = g_shell_quote (l->name);

      g_string_append_printf (cmd, "; echo " SF_LATENCY_MARK "%u; " ADBSCOPE_CMD_SF_LATENCY " %s", i, quoted);
    }
  return g_string_free (g_steal_pointer (&cmd), FALSE);
}

static gint64
last_vsync (const AdbscopeGfxinfoProcess *p)
{
  gint64 last = -1;

  for (guint w = 0; w < p->windows->len; w++)
    {
      const AdbscopeGfxinfoWindow *win = g_ptr_array_index (p->windows, w);

      for (guint i = 0; win->frames != NULL && i < win->frames->len; i++)
        {
          const AdbscopeGfxinfoFrame *f = &g_array_index (win->frames, AdbscopeGfxinfoFrame, i);

          if (adbscope_gfxinfo_frame_is_valid (f))
            last = MAX (last, f->intended_vsync_ns);
        }
    }
  return last;
}

/* The gfxinfo half; FALSE (with @error) only for output that is not gfxinfo. */
static gboolean
parse_gfxinfo (AdbscopeFramesCollector  *self,
               AdbscopeFramesSample     *s,
               const char               *output,
               gsize                     len,
               GError                  **error)
{
  g_autoptr(AdbscopeGfxinfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  AdbscopeGfxinfoProcess *cur;
  gboolean same;

  info = adbscope_gfxinfo_parse (output, len, &local_error);
  if (info == NULL)
    {
      /* Not running: a sample without frames, not zero frames. */
      if (g_error_matches (local_error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING))
        {
          g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
          self->prev = NULL;
          return TRUE;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* The dump's own clock is the moment of the counters. */
  if (info->uptime_ms > 0)
    {
      s->uptime_s = info->uptime_ms / 1000.0;
      s->monotonic_ns = info->uptime_ms * G_GINT64_CONSTANT (1000000);
    }

  cur = adbscope_gfxinfo_find_process (info, adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self)));
  if (cur == NULL && info->processes->len == 1)
    cur = g_ptr_array_index (info->processes, 0);
  /* "Failure while dumping the app": it runs, its counters could not be
   * read this time.  Unreadable, not "not running": the previous dump
   * stays the base, so the frames of this interval are counted with the
   * next one and no restart is made up. */
  if (cur != NULL && cur->dump_failure != NULL && !cur->stats.present)
    {
      s->app_running = TRUE;
      s->pid = cur->pid;
      g_free (self->gfx_failure);
      self->gfx_failure = g_strdup (cur->dump_failure);
      return TRUE;
    }
  if (cur == NULL || !cur->stats.present)
    {
      g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
      self->prev = NULL;
      return TRUE;
    }

  s->app_running = TRUE;
  s->pid = cur->pid;
  s->total_frames = cur->stats.total_frames;
  same = self->prev != NULL && self->prev->pid == cur->pid &&
         cur->stats.total_frames >= self->prev->stats.total_frames;
  /* A dump right after the previous one (a late answer) is no base for a
   * rate: no FPS for it, and the previous dump stays the base so its
   * frames are counted with the next interval. */
  if (same && !isfinite (adbscope_delta_interval (self->prev_uptime, s->uptime_s)))
    {
      s->dt_s = s->uptime_s - self->prev_uptime;
      self->short_window = TRUE;
      return TRUE;
    }
  s->restarted = self->seen_process && self->prev != NULL && self->prev->pid != cur->pid;
  self->seen_process = TRUE;

  if (same)
    {
      const AdbscopeGfxinfoStats *a = &self->prev->stats;
      const AdbscopeGfxinfoStats *b = &cur->stats;
      double deadline_ns = self->refresh_hz > 0 ? 1e9 / self->refresh_hz : NAN;

      s->dt_s = adbscope_delta_interval (self->prev_uptime, s->uptime_s);
      s->new_frames = b->total_frames - a->total_frames;
      s->hwui_fps = adbscope_delta_fps (a->total_frames, b->total_frames, s->dt_s,
                                        self->prev_last_vsync, last_vsync (cur));
      s->new_janky = MAX (0, adbscope_delta_counter (a->janky_frames, b->janky_frames));
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        {
          gint64 d = adbscope_delta_counter (adbscope_gfxinfo_stats_get_cause (a, c),
                                             adbscope_gfxinfo_stats_get_cause (b, c));

          s->has_cause[c] = d >= 0;
          s->new_causes[c] = MAX (d, 0);
        }

      s->frames = adbscope_gfxinfo_new_frames (self->prev, cur);
      for (guint i = 0; i < s->frames->len; i++)
        {
          const AdbscopeGfxinfoFrame *f = &g_array_index (s->frames, AdbscopeGfxinfoFrame, i);
          double limit = f->deadline_ns > 0 ? (double) f->deadline_ns : deadline_ns;

          if (isfinite (limit) && f->duration_ns > limit)
            s->frames_over_deadline++;
        }
    }

  g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
  self->prev_info = g_steal_pointer (&info);
  self->prev = cur;
  self->prev_uptime = s->uptime_s;
  self->prev_last_vsync = last_vsync (cur);
  return TRUE;
}

/* A new --list: the layers to read from the next tick on; trackers of
 * layers that went away are dropped. */
static void
take_layer_list (AdbscopeFramesCollector *self,
                 AdbscopeFramesSample    *s,
                 const char              *text,
                 gsize                    len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = adbscope_sf_list_parse (text, len, &error);
  g_autoptr(GPtrArray) layers = NULL;
  GHashTableIter iter;
  gpointer key;

  g_clear_pointer (&self->list_error, g_free);
  if (names == NULL || (len > 0 && g_str_has_prefix (text, "Can't find service")))
    {
      self->list_error = g_strdup (error != NULL ? error->message : _("SurfaceFlinger is not running"));
      layers = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_sf_layer_free);
    }
  else
    layers = adbscope_sf_find_app_layers (names, adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self)));

  for (guint i = layers->len; i > 0; i--)
    if (!layer_name_is_safe (((AdbscopeSfLayer *) g_ptr_array_index (layers, i - 1))->name))
      g_ptr_array_remove_index (layers, i - 1);

  s->sf_layers = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < layers->len; i++)
    g_ptr_array_add (s->sf_layers, g_strdup (((AdbscopeSfLayer *) g_ptr_array_index (layers, i))->name));

  g_hash_table_iter_init (&iter, self->trackers);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gboolean keep = FALSE;

      for (guint i = 0; i < layers->len && !keep; i++)
        keep = g_str_equal (((AdbscopeSfLayer *) g_ptr_array_index (layers, i))->name, key);
      if (!keep)
        g_hash_table_iter_remove (&iter);
    }
  g_ptr_array_unref (self->layers);
  self->layers = g_steal_pointer (&layers);
  self->listed = TRUE;
}

typedef struct
{
  guint    n_read;
  guint    n_with_history;
  guint    n_empty;
  GString *empty_names;
} LayerScan;

static void
take_latency (AdbscopeFramesCollector *self,
              AdbscopeFramesSample    *s,
              LayerScan               *scan,
              guint                    index,
              const char              *text,
              gsize                    len)
{
  g_autoptr(AdbscopeSfLatency) lat = NULL;
  const AdbscopeSfLayer *layer;
  AdbscopeSfTracker *t;
  AdbscopeSfDelta d = { 0 };
  gboolean better;

  if (self->asked == NULL || index >= self->asked->len)
    return;
  layer = g_ptr_array_index (self->asked, index);
  lat = adbscope_sf_latency_parse (text, len, NULL);
  if (lat == NULL)
    return;

  scan->n_read++;
  s->sf_read = TRUE;
  s->sf_refresh_period_ns = lat->refresh_period_ns;
  if (lat->frames->len > 0)
    scan->n_with_history++;
  else
    {
      scan->n_empty++;
      g_string_append_printf (scan->empty_names, "%s“%s”", scan->empty_names->len ? ", " : "", layer->name);
    }

  t = g_hash_table_lookup (self->trackers, layer->name);
  if (t == NULL)
    {
      t = g_new0 (AdbscopeSfTracker, 1);
      g_hash_table_insert (self->trackers, g_strdup (layer->name), t);
    }
  adbscope_sf_tracker_advance (t, lat, s->monotonic_ns, &d);
  /* Without the device's clock in this dump, an unchanged history is 0 fps. */
  if (s->monotonic_ns < 0 && d.new_frames == 0 && t->have_cursor && isnan (d.fps))
    d.fps = 0;

  better = s->sf_layer == NULL ||
           d.new_frames > s->sf.new_frames ||
           (d.new_frames == s->sf.new_frames && isnan (s->sf_fps) && !isnan (d.fps));
  if (better && !isnan (d.fps))
    {
      adbscope_sf_delta_clear (&s->sf);
      s->sf = d;
      s->sf_fps = d.fps;
      g_free (s->sf_layer);
      s->sf_layer = g_strdup (layer->name);
      s->sf_layer_kind = layer->kind;
      s->sf_counted_to_ns = t->have_cursor ? t->cursor_ns : -1;
    }
  else
    adbscope_sf_delta_clear (&d);
}

/* Splits off each "@@adbscope-sf-…" section; returns the length of what
 * comes before the first one. */
static gsize
parse_sections (AdbscopeFramesCollector *self,
                AdbscopeFramesSample    *s,
                LayerScan               *scan,
                const char              *output,
                gboolean                 running)
{
  const char *first = strstr (output, "\n@@adbscope-sf-");
  const char *p = first;

  while (p != NULL)
    {
      const char *head = p + 1;
      const char *body = strchr (head, '\n');
      const char *next;
      gsize body_len;

      if (body == NULL)
        break;
      body++;
      next = strstr (body - 1, "\n@@adbscope-sf-");
      body_len = next != NULL ? (gsize) (next + 1 - body) : strlen (body);
      if (running && g_str_has_prefix (head, SF_LIST_MARK "\n"))
        take_layer_list (self, s, body, body_len);
      else if (running && g_str_has_prefix (head, SF_LATENCY_MARK))
        take_latency (self, s, scan, (guint) g_ascii_strtoull (head + strlen (SF_LATENCY_MARK), NULL, 10),
                      body, body_len);
      p = next;
    }
  return first != NULL ? (gsize) (first + 1 - output) : strlen (output);
}

static void
choose_source (AdbscopeFramesCollector *self,
               AdbscopeFramesSample    *s,
               const LayerScan         *scan)
{
  gboolean sf_drew = s->sf_layer != NULL && s->sf.new_frames > 0;

  if (sf_drew && s->sf_layer_kind == ADBSCOPE_SF_LAYER_SURFACE_VIEW)
    s->source = ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER;
  else if (isfinite (s->hwui_fps) && s->new_frames > 0)
    s->source = ADBSCOPE_FRAMES_SOURCE_GFXINFO;
  else if (sf_drew)
    s->source = ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER;
  else if (scan->n_read > 0 && !isfinite (s->sf_fps))
    s->source = ADBSCOPE_FRAMES_SOURCE_NONE;   /* a layer's first read: no delta yet */
  else if (isfinite (s->sf_fps))
    s->source = ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER;
  else if (isfinite (s->hwui_fps))
    s->source = ADBSCOPE_FRAMES_SOURCE_GFXINFO;
  else
    s->source = ADBSCOPE_FRAMES_SOURCE_NONE;

  /* An idle interval keeps the source the app was measured with. */
  if ((s->source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER && !sf_drew) ||
      (s->source == ADBSCOPE_FRAMES_SOURCE_GFXINFO && s->new_frames == 0))
    if (self->last_source != ADBSCOPE_FRAMES_SOURCE_NONE &&
        ((self->last_source == ADBSCOPE_FRAMES_SOURCE_GFXINFO && isfinite (s->hwui_fps)) ||
         (self->last_source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER && isfinite (s->sf_fps))))
      s->source = self->last_source;

  s->fps = s->source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER ? s->sf_fps
           : s->source == ADBSCOPE_FRAMES_SOURCE_GFXINFO ? s->hwui_fps : NAN;
  if (s->new_frames > 0 || sf_drew)
    self->last_source = s->source;

  if (!s->app_running)
    s->zero_reason = ADBSCOPE_FRAMES_ZERO_NOT_RUNNING;
  else if (self->gfx_failure != NULL && !(s->fps > 0))
    {
      s->zero_reason = ADBSCOPE_FRAMES_ZERO_UNREADABLE;
      s->zero_detail = g_strdup (self->gfx_failure);
    }
  else if (s->fps == 0)
    {
      if (self->listed && self->layers->len == 0 && self->list_error == NULL)
        s->zero_reason = ADBSCOPE_FRAMES_ZERO_NOT_FOREGROUND;
      else if (self->list_error != NULL)
        {
          s->zero_reason = ADBSCOPE_FRAMES_ZERO_UNREADABLE;
          s->zero_detail = g_strdup (self->list_error);
        }
      else if (scan->n_read > 0 && scan->n_with_history == 0)
        {
          s->zero_reason = ADBSCOPE_FRAMES_ZERO_UNREADABLE;
          s->zero_detail = g_strdup_printf (_("SurfaceFlinger keeps no frame history for %s"),
                                            scan->empty_names->str);
        }
      else
        s->zero_reason = ADBSCOPE_FRAMES_ZERO_STATIC;
    }
}

AdbscopeFramesSample *
_adbscope_frames_collector_parse (AdbscopeFramesCollector  *self,
                                  const char               *output,
                                  gint64                    time_us,
                                  GError                  **error)
{
  g_autoptr(AdbscopeFramesSample) s = g_new0 (AdbscopeFramesSample, 1);
  LayerScan scan = { 0 };
  gsize gfx_len;
  const char *nl;

  s->time_us = time_us;
  s->dt_s = s->fps = s->hwui_fps = s->sf_fps = NAN;
  s->pid = -1;
  s->monotonic_ns = -1;
  s->sf_counted_to_ns = -1;
  adbscope_sf_delta_clear (&s->sf);

  if (!g_str_has_prefix (output, "uptime:") || (nl = strchr (output, '\n')) == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The frames sample has no device uptime"));
      return NULL;
    }
  s->uptime_s = g_ascii_strtod (output + strlen ("uptime:"), NULL);
  output = nl + 1;

  /* gfxinfo first: it says whether the app runs and gives the device clock. */
  self->short_window = FALSE;
  g_clear_pointer (&self->gfx_failure, g_free);
  gfx_len = parse_sections (self, s, &scan, output, FALSE);
  if (!parse_gfxinfo (self, s, output, gfx_len, error))
    return NULL;

  scan.empty_names = g_string_new (NULL);
  /* Too soon for a rate: the layers' cursors stay, the next read counts. */
  if (self->short_window)
    self->short_window = FALSE;
  else if (s->app_running)
    parse_sections (self, s, &scan, output, TRUE);
  else
    {
      g_hash_table_remove_all (self->trackers);
      self->want_list = TRUE;
    }
  /* Nothing drew anywhere: the app may have changed activity. */
  if (s->sf_layer == NULL || s->sf.new_frames == 0)
    self->want_list = TRUE;
  choose_source (self, s, &scan);
  g_string_free (scan.empty_names, TRUE);
  return g_steal_pointer (&s);
}

static gpointer
parse (AdbscopeCollector  *collector,
       const char         *output,
       gint64              time_us,
       GError            **error)
{
  return _adbscope_frames_collector_parse (ADBSCOPE_FRAMES_COLLECTOR (collector), output, time_us, error);
}

void
adbscope_frames_collector_set_refresh_rate (AdbscopeFramesCollector *self,
                                            double                   hz)
{
  g_return_if_fail (ADBSCOPE_IS_FRAMES_COLLECTOR (self));
  self->refresh_hz = hz;
}

static void
adbscope_frames_collector_finalize (GObject *object)
{
  AdbscopeFramesCollector *self = ADBSCOPE_FRAMES_COLLECTOR (object);

  g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
  g_clear_pointer (&self->layers, g_ptr_array_unref);
  g_clear_pointer (&self->asked, g_ptr_array_unref);
  g_clear_pointer (&self->trackers, g_hash_table_unref);
  g_free (self->gfx_failure);
  g_free (self->list_error);
  G_OBJECT_CLASS (adbscope_frames_collector_parent_class)->finalize (object);
}

static void
adbscope_frames_collector_class_init (AdbscopeFramesCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AdbscopeCollectorClass *collector_class = ADBSCOPE_COLLECTOR_CLASS (klass);

  object_class->finalize = adbscope_frames_collector_finalize;
  collector_class->build_command = build_command;
  collector_class->parse = parse;
  collector_class->free_sample = (GDestroyNotify) adbscope_frames_sample_free;
}

static void
adbscope_frames_collector_init (AdbscopeFramesCollector *self)
{
  self->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_sf_layer_free);
  self->trackers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

AdbscopeFramesCollector *
adbscope_frames_collector_new (const char *serial,
                               const char *package)
{
  return g_object_new (ADBSCOPE_TYPE_FRAMES_COLLECTOR,
                       "name", "frames", "serial", serial, "package", package, NULL);
}
