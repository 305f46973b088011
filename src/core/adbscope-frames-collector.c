/* adbscope-frames-collector.c: frames, FPS and jank from gfxinfo
 *
 * FPS = Δ "Total frames rendered" / Δt on the device's own clock: the
 * "Uptime:" the dump itself prints (ms; /proc/uptime read in the same
 * shell call where a dump lacks it).  No host scheduling noise, no drift
 * against other loops.  Δt is never shorter than the span between the
 * newest frames of the two dumps (their IntendedVsync), because those
 * frames are exactly the ones counted: a late dump can then not produce a
 * rate above what the display can show.
 *
 * A frame is janky against its real deadline: the FrameDeadline column
 * (Android 12+) or else the refresh period from the probe.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-delta-window.h"
#include "adbscope-error.h"
#include "adbscope-frames-collector.h"

struct _AdbscopeFramesCollector
{
  AdbscopeCollector       parent_instance;

  double                  refresh_hz;
  AdbscopeGfxinfo        *prev_info;
  AdbscopeGfxinfoProcess *prev;        /* inside prev_info */
  double                  prev_uptime;
  gint64                  prev_last_vsync;
  gboolean                seen_process;
};

G_DEFINE_FINAL_TYPE (AdbscopeFramesCollector, adbscope_frames_collector, ADBSCOPE_TYPE_COLLECTOR)


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

void
adbscope_frames_sample_free (AdbscopeFramesSample *sample)
{
  if (sample == NULL)
    return;
  g_clear_pointer (&sample->frames, g_array_unref);
  g_free (sample);
}

static char *
build_command (AdbscopeCollector *collector,
               guint              tick)
{
  /* `read` is a builtin: no fork between the clock and the dump. */
  return g_strdup_printf ("read __u < /proc/uptime; echo \"uptime:$__u\"; dumpsys gfxinfo %s framestats",
                          adbscope_collector_get_package (collector));
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

static gint64
cause_value (const AdbscopeGfxinfoStats *st,
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
    default: g_assert_not_reached ();
    }
}

AdbscopeFramesSample *
_adbscope_frames_collector_parse (AdbscopeFramesCollector  *self,
                                  const char               *output,
                                  gint64                    time_us,
                                  GError                  **error)
{
  g_autoptr(AdbscopeFramesSample) s = g_new0 (AdbscopeFramesSample, 1);
  g_autoptr(AdbscopeGfxinfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  AdbscopeGfxinfoProcess *cur;
  const char *nl;
  gboolean same;

  s->time_us = time_us;
  s->dt_s = s->fps = NAN;
  s->pid = -1;

  if (!g_str_has_prefix (output, "uptime:") || (nl = strchr (output, '\n')) == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The frames sample has no device uptime"));
      return NULL;
    }
  s->uptime_s = g_ascii_strtod (output + strlen ("uptime:"), NULL);
  output = nl + 1;

  info = adbscope_gfxinfo_parse (output, -1, &local_error);
  if (info == NULL)
    {
      /* Not running: a sample without frames, not zero frames. */
      if (g_error_matches (local_error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING))
        {
          g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
          self->prev = NULL;
          return g_steal_pointer (&s);
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  cur = adbscope_gfxinfo_find_process (info, adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self)));
  if (cur == NULL && info->processes->len == 1)
    cur = g_ptr_array_index (info->processes, 0);
  if (cur == NULL || !cur->stats.present)
    {
      g_clear_pointer (&self->prev_info, adbscope_gfxinfo_free);
      self->prev = NULL;
      return g_steal_pointer (&s);
    }

  /* The dump's own clock is the moment of the counters. */
  if (info->uptime_ms > 0)
    s->uptime_s = info->uptime_ms / 1000.0;
  s->app_running = TRUE;
  s->pid = cur->pid;
  s->total_frames = cur->stats.total_frames;
  same = self->prev != NULL && self->prev->pid == cur->pid &&
         cur->stats.total_frames >= self->prev->stats.total_frames;
  /* A dump right after the previous one (a late answer) is no base for a
   * rate: no FPS for it, and the previous dump stays the base so its
   * frames are counted with the next interval. */
  if (same && !adbscope_delta_window_is_usable (s->uptime_s - self->prev_uptime))
    {
      s->dt_s = s->uptime_s - self->prev_uptime;
      return g_steal_pointer (&s);
    }
  s->restarted = self->seen_process && self->prev != NULL && self->prev->pid != cur->pid;
  self->seen_process = TRUE;

  if (same)
    {
      const AdbscopeGfxinfoStats *a = &self->prev->stats;
      const AdbscopeGfxinfoStats *b = &cur->stats;
      double deadline_ns = self->refresh_hz > 0 ? 1e9 / self->refresh_hz : NAN;

      gint64 vsync = last_vsync (cur);
      double span;

      s->dt_s = s->uptime_s - self->prev_uptime;
      span = s->dt_s;
      if (vsync > 0 && self->prev_last_vsync > 0 && vsync > self->prev_last_vsync)
        span = MAX (span, (vsync - self->prev_last_vsync) / 1e9);
      s->new_frames = b->total_frames - a->total_frames;
      if (span > 0)
        s->fps = s->new_frames / span;
      if (b->janky_frames >= 0 && a->janky_frames >= 0)
        s->new_janky = MAX (0, b->janky_frames - a->janky_frames);
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        {
          gint64 va = cause_value (a, c), vb = cause_value (b, c);

          s->has_cause[c] = va >= 0 && vb >= 0;
          s->new_causes[c] = s->has_cause[c] ? MAX (0, vb - va) : 0;
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
}

AdbscopeFramesCollector *
adbscope_frames_collector_new (const char *serial,
                               const char *package)
{
  return g_object_new (ADBSCOPE_TYPE_FRAMES_COLLECTOR,
                       "name", "frames", "serial", serial, "package", package, NULL);
}
