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
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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
};

G_DEFINE_FINAL_TYPE (AdbscopeFramesCollector, adbscope_frames_collector, ADBSCOPE_TYPE_COLLECTOR)


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
  if (same && !isfinite (adbscope_delta_interval (self->prev_uptime, s->uptime_s)))
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

      s->dt_s = adbscope_delta_interval (self->prev_uptime, s->uptime_s);
      s->new_frames = b->total_frames - a->total_frames;
      s->fps = adbscope_delta_fps (a->total_frames, b->total_frames, s->dt_s,
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
