/* adbscope-screenshot-collector.c: screenshots through exec-out, off the main loop */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-adb.h"
#include "adbscope-error.h"
#include "adbscope-parse-screencap.h"
#include "adbscope-screenshot-collector.h"

/* A 4K screen over a slow USB link is a few seconds; a stalled phone
 * must not hold the next shot forever. */
#define SHOT_TIMEOUT_S 30

struct _AdbscopeScreenshotCollector
{
  GObject       parent_instance;

  char         *serial;
  guint         interval_ms;
  gboolean      running;
  guint         tick_id;
  GCancellable *cancellable;  /* of the shot in flight */
  gboolean      pending;      /* asked for while one was in flight */
  gboolean      pending_marker;
  guint         n_skipped;    /* ticks that came while one was in flight */
};

enum
{
  SIGNAL_SCREENSHOT,
  SIGNAL_FAILED,
  SIGNAL_SKIPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AdbscopeScreenshotCollector, adbscope_screenshot_collector, G_TYPE_OBJECT)

typedef struct
{
  char    *serial;
  gint64   asked_us;
  gboolean at_marker;
} ShotJob;

static void
shot_job_free (ShotJob *job)
{
  g_free (job->serial);
  g_free (job);
}

static void
force_exit (GCancellable *cancellable,
            GSubprocess  *proc)
{
  g_subprocess_force_exit (proc);
}

static gboolean
timed_out (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* The worker thread: spawn, read everything, split it. */
static void
shot_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ShotJob *job = task_data;
  const char *args[] = { "exec-out", ADBSCOPE_SCREENCAP_COMMAND, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  GSource *watchdog;
  AdbscopeScreencap cap;
  AdbscopeScreenshot *shot;
  gulong handler;
  gboolean ok;

  proc = adbscope_adb_spawn (job->serial, args,
                             G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (proc == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  handler = g_cancellable_connect (cancellable, G_CALLBACK (force_exit), g_object_ref (proc), g_object_unref);
  /* On the main context (communicate() runs its own): a stalled adb is
   * killed, which ends communicate() with what came. */
  watchdog = g_timeout_source_new_seconds (SHOT_TIMEOUT_S);
  g_source_set_callback (watchdog, timed_out, g_object_ref (cancellable), g_object_unref);
  g_source_attach (watchdog, g_main_context_default ());
  ok = g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error);
  g_source_destroy (watchdog);
  g_source_unref (watchdog);
  g_cancellable_disconnect (cancellable, handler);
  if (!ok)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                               _("The screenshot took more than %d s"), SHOT_TIMEOUT_S);
      return;
    }
  if (!adbscope_parse_screencap (g_bytes_get_data (out, NULL), g_bytes_get_size (out), &cap, &error))
    {
      /* adb's own complaint (device offline) is on stderr. */
      if (g_bytes_get_size (out) == 0 && g_bytes_get_size (err) > 0)
        {
          g_autofree char *text = g_strndup (g_bytes_get_data (err, NULL), MIN (g_bytes_get_size (err), 300));

          g_clear_error (&error);
          g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("No screenshot: %s"), g_strstrip (text));
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  shot = g_new0 (AdbscopeScreenshot, 1);
  shot->time_us = job->asked_us;
  shot->png = g_bytes_new_from_bytes (out, cap.png_offset, cap.png_len);
  shot->width = cap.width;
  shot->height = cap.height;
  shot->cost_ms = cap.wall_ms;
  shot->cpu_ms = cap.cpu_ms;
  shot->round_trip_ms = (g_get_monotonic_time () - job->asked_us) / 1000.0;
  shot->at_marker = job->at_marker;
  g_task_return_pointer (task, shot, (GDestroyNotify) adbscope_screenshot_free);
}

static void take (AdbscopeScreenshotCollector *self,
                  gboolean                     at_marker);

static void
shot_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AdbscopeScreenshotCollector *self = ADBSCOPE_SCREENSHOT_COLLECTOR (object);
  g_autoptr(AdbscopeScreenshot) shot = NULL;
  g_autoptr(GError) error = NULL;
  gboolean stopped = !self->running || g_cancellable_is_cancelled (self->cancellable);

  shot = g_task_propagate_pointer (G_TASK (result), &error);
  g_clear_object (&self->cancellable);
  if (stopped)
    return;
  if (shot != NULL)
    g_signal_emit (self, signals[SIGNAL_SCREENSHOT], 0, shot);
  else
    g_signal_emit (self, signals[SIGNAL_FAILED], 0, error);
  if (self->pending && self->running)
    {
      self->pending = FALSE;
      take (self, self->pending_marker);
    }
}

static void
take (AdbscopeScreenshotCollector *self,
      gboolean                     at_marker)
{
  g_autoptr(GTask) task = NULL;
  ShotJob *job;

  if (self->cancellable != NULL)
    {
      self->pending = TRUE;
      self->pending_marker = at_marker;
      return;
    }
  self->cancellable = g_cancellable_new ();
  job = g_new0 (ShotJob, 1);
  job->serial = g_strdup (self->serial);
  job->asked_us = g_get_monotonic_time ();
  job->at_marker = at_marker;
  task = g_task_new (self, self->cancellable, shot_done, NULL);
  g_task_set_source_tag (task, take);
  g_task_set_task_data (task, job, (GDestroyNotify) shot_job_free);
  /* The result is handled even when cancelled (stopped is checked). */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, shot_thread);
}

/* A tick while one is still in flight is skipped: the interval is a
 * rate, not a queue. */
static gboolean
on_tick (gpointer data)
{
  AdbscopeScreenshotCollector *self = data;

  if (self->cancellable == NULL)
    take (self, FALSE);
  else
    {
      self->n_skipped++;
      g_signal_emit (self, signals[SIGNAL_SKIPPED], 0);
    }
  return G_SOURCE_CONTINUE;
}

static void
adbscope_screenshot_collector_dispose (GObject *object)
{
  AdbscopeScreenshotCollector *self = ADBSCOPE_SCREENSHOT_COLLECTOR (object);

  adbscope_screenshot_collector_stop (self);
  G_OBJECT_CLASS (adbscope_screenshot_collector_parent_class)->dispose (object);
}

static void
adbscope_screenshot_collector_finalize (GObject *object)
{
  AdbscopeScreenshotCollector *self = ADBSCOPE_SCREENSHOT_COLLECTOR (object);

  g_free (self->serial);
  G_OBJECT_CLASS (adbscope_screenshot_collector_parent_class)->finalize (object);
}

static void
adbscope_screenshot_collector_class_init (AdbscopeScreenshotCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_screenshot_collector_dispose;
  object_class->finalize = adbscope_screenshot_collector_finalize;

  /**
   * AdbscopeScreenshotCollector::screenshot:
   * @shot: (type gpointer): an AdbscopeScreenshot, valid during the emission
   */
  signals[SIGNAL_SCREENSHOT] =
    g_signal_new ("screenshot", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /**
   * AdbscopeScreenshotCollector::failed:
   * @error: (type gpointer): why this one failed (the next is tried anyway)
   */
  signals[SIGNAL_FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* An interval's tick came while the previous screenshot was still
   * being taken (a slow phone or link): none was taken for it. */
  signals[SIGNAL_SKIPPED] =
    g_signal_new ("skipped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
adbscope_screenshot_collector_init (AdbscopeScreenshotCollector *self)
{
}

AdbscopeScreenshotCollector *
adbscope_screenshot_collector_new (const char *serial)
{
  AdbscopeScreenshotCollector *self = g_object_new (ADBSCOPE_TYPE_SCREENSHOT_COLLECTOR, NULL);

  self->serial = g_strdup (serial);
  return self;
}

void
adbscope_screenshot_collector_set_interval (AdbscopeScreenshotCollector *self,
                                            guint                        interval_ms)
{
  g_return_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self));

  self->interval_ms = interval_ms;
  if (self->running)
    {
      g_clear_handle_id (&self->tick_id, g_source_remove);
      if (interval_ms > 0)
        self->tick_id = g_timeout_add (interval_ms, on_tick, self);
    }
}

guint
adbscope_screenshot_collector_get_interval (AdbscopeScreenshotCollector *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self), 0);
  return self->interval_ms;
}

/* The first shot at once (the run's start), then every interval. */
void
adbscope_screenshot_collector_start (AdbscopeScreenshotCollector *self)
{
  g_return_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self));

  if (self->running)
    return;
  self->running = TRUE;
  if (self->interval_ms > 0)
    {
      self->tick_id = g_timeout_add (self->interval_ms, on_tick, self);
      take (self, FALSE);
    }
}

/* The one in flight is cancelled (its adb killed) and dropped. */
void
adbscope_screenshot_collector_stop (AdbscopeScreenshotCollector *self)
{
  g_return_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self));

  self->running = FALSE;
  self->pending = FALSE;
  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

void
adbscope_screenshot_collector_request (AdbscopeScreenshotCollector *self,
                                       gboolean                     at_marker)
{
  g_return_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self));

  if (self->running)
    take (self, at_marker);
}

guint
adbscope_screenshot_collector_get_n_skipped (AdbscopeScreenshotCollector *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self), 0);
  return self->n_skipped;
}

gboolean
adbscope_screenshot_collector_is_busy (AdbscopeScreenshotCollector *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_COLLECTOR (self), FALSE);
  return self->cancellable != NULL;
}
