/* adbscope-data-view.c: what the pages draw — the live session, or a frozen copy
 *
 * Pages never read the session directly: they ask the view.  While live,
 * the view hands out the session's own ring buffers and says "updated"
 * after each sample.  Pausing copies every series, the thread list and the
 * frame statistics once; the session keeps collecting into its own
 * buffers, the pages keep drawing the copies, and "updated" stays quiet
 * until resume swaps the live buffers back in.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-data-view.h"
#include "adbscope-thread.h"

struct _AdbscopeDataView
{
  GObject           parent_instance;

  AdbscopeSession  *session;
  double            visible_seconds;
  guint             n_updates;
  gboolean          paused;

  /* The latest values that are not series: kept from the last sample. */
  GArray           *core_freqs;    /* double kHz */
  GArray           *net;           /* AdbscopeNetRate */

  /* Frozen copies, only while paused */
  AdbscopeSeries   *frozen[ADBSCOPE_N_SERIES];
  GPtrArray        *frozen_cores;  /* AdbscopeSeries* */
  GListStore       *frozen_threads;
  guint             frozen_n_frames;
  gint64            frozen_frames;
  gint64            frozen_janky;
  gint64            frozen_causes[ADBSCOPE_JANK_N_CAUSES];
  gboolean          frozen_has_cause[ADBSCOPE_JANK_N_CAUSES];
};

G_DEFINE_FINAL_TYPE (AdbscopeDataView, adbscope_data_view, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PAUSED,
  PROP_VISIBLE_SECONDS,
  N_PROPS
};

enum {
  SIGNAL_UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
emit_updated (AdbscopeDataView *self)
{
  self->n_updates++;
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
}

static void
on_sample (AdbscopeSession          *session,
           const AdbscopeFastSample *s,
           AdbscopeDataView         *self)
{
  if (self->paused)
    return;

  g_array_set_size (self->core_freqs, 0);
  if (s->core_freq_khz != NULL)
    g_array_append_vals (self->core_freqs, s->core_freq_khz, s->n_cores);
  if (s->net != NULL)
    {
      g_array_set_size (self->net, 0);
      g_array_append_vals (self->net, s->net->data, s->net->len);
    }
  emit_updated (self);
}

static void
on_changed (AdbscopeSession  *session,
            guint             unused,
            AdbscopeDataView *self)
{
  /* A marker or a gap is drawn even while paused: it belongs to the
   * timeline, not to the frozen numbers. */
  emit_updated (self);
}

static void
clear_frozen (AdbscopeDataView *self)
{
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_clear_pointer (&self->frozen[i], adbscope_series_unref);
  g_clear_pointer (&self->frozen_cores, g_ptr_array_unref);
  g_clear_object (&self->frozen_threads);
}

static void
freeze (AdbscopeDataView *self)
{
  GListModel *threads = adbscope_session_get_threads (self->session);
  const GArray *frame_times = adbscope_session_get_frame_times (self->session);
  gint64 over_deadline;
  guint n;

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    {
      AdbscopeSeries *live = adbscope_session_get_series (self->session, i);

      self->frozen[i] = live != NULL ? adbscope_series_copy (live) : NULL;
    }

  n = adbscope_session_get_n_cores (self->session);
  self->frozen_cores = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_series_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->frozen_cores,
                     adbscope_series_copy (adbscope_session_get_core_series (self->session, i)));

  /* New thread objects: the live ones keep changing under the session. */
  self->frozen_threads = g_list_store_new (ADBSCOPE_TYPE_THREAD);
  n = g_list_model_get_n_items (threads);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, i);
      g_autoptr(AdbscopeThread) copy = adbscope_thread_new (adbscope_thread_get_tid (t),
                                                            adbscope_thread_get_name (t));

      adbscope_thread_set_cpu_pct (copy, adbscope_thread_get_max_cpu_pct (t));
      adbscope_thread_set_cpu_pct (copy, adbscope_thread_get_cpu_pct (t));
      g_list_store_append (self->frozen_threads, copy);
    }

  self->frozen_n_frames = frame_times != NULL ? frame_times->len : 0;
  adbscope_session_get_frame_totals (self->session, &self->frozen_frames, &self->frozen_janky,
                                     &over_deadline, self->frozen_causes, self->frozen_has_cause);
}

static void
adbscope_data_view_dispose (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  clear_frozen (self);
  G_OBJECT_CLASS (adbscope_data_view_parent_class)->dispose (object);
}

static void
adbscope_data_view_finalize (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  g_array_unref (self->core_freqs);
  g_array_unref (self->net);
  G_OBJECT_CLASS (adbscope_data_view_parent_class)->finalize (object);
}

static void
adbscope_data_view_constructed (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  G_OBJECT_CLASS (adbscope_data_view_parent_class)->constructed (object);

  g_assert (self->session != NULL);
  g_signal_connect (self->session, "sample", G_CALLBACK (on_sample), self);
  g_signal_connect (self->session, "marker-added", G_CALLBACK (on_changed), self);
  g_signal_connect (self->session, "gap", G_CALLBACK (on_changed), self);
}

static void
adbscope_data_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_VISIBLE_SECONDS:
      g_value_set_double (value, self->visible_seconds);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_data_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_PAUSED:
      adbscope_data_view_set_paused (self, g_value_get_boolean (value));
      break;
    case PROP_VISIBLE_SECONDS:
      adbscope_data_view_set_visible_seconds (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_data_view_class_init (AdbscopeDataViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = adbscope_data_view_constructed;
  object_class->dispose = adbscope_data_view_dispose;
  object_class->finalize = adbscope_data_view_finalize;
  object_class->get_property = adbscope_data_view_get_property;
  object_class->set_property = adbscope_data_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, ADBSCOPE_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_SECONDS] =
    g_param_spec_double ("visible-seconds", NULL, NULL, 10, 24 * 3600, 300,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The pages should redraw from the view (a new sample, pause, resume,
   * a marker, a new time window). */
  signals[SIGNAL_UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
adbscope_data_view_init (AdbscopeDataView *self)
{
  self->visible_seconds = 300;
  self->core_freqs = g_array_new (FALSE, FALSE, sizeof (double));
  self->net = g_array_new (FALSE, FALSE, sizeof (AdbscopeNetRate));
}

AdbscopeDataView *
adbscope_data_view_new (AdbscopeSession *session)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), NULL);
  return g_object_new (ADBSCOPE_TYPE_DATA_VIEW, "session", session, NULL);
}

AdbscopeSession *
adbscope_data_view_get_session (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return self->session;
}

gboolean
adbscope_data_view_get_paused (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), FALSE);
  return self->paused;
}

/**
 * adbscope_data_view_set_paused:
 *
 * Pausing freezes what the pages draw; the session keeps collecting.
 * Resuming swaps the live buffers back in, with everything collected
 * meanwhile.
 */
void
adbscope_data_view_set_paused (AdbscopeDataView *self,
                               gboolean          paused)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  paused = !!paused;
  if (self->paused == paused)
    return;
  if (paused)
    freeze (self);
  else
    clear_frozen (self);
  self->paused = paused;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
  emit_updated (self);
}

double
adbscope_data_view_get_visible_seconds (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);
  return self->visible_seconds;
}

void
adbscope_data_view_set_visible_seconds (AdbscopeDataView *self,
                                        double            seconds)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  if (self->visible_seconds == seconds)
    return;
  self->visible_seconds = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_SECONDS]);
  emit_updated (self);
}

/**
 * adbscope_data_view_is_supported:
 * @reason: (out) (optional): why not, translated
 *
 * Before the probe has answered every source counts as supported.
 */
gboolean
adbscope_data_view_is_supported (AdbscopeDataView  *self,
                                 AdbscopeSource     source,
                                 const char       **reason)
{
  const AdbscopeProbeResult *probe;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), FALSE);
  g_return_val_if_fail (source < ADBSCOPE_N_SOURCES, FALSE);

  probe = adbscope_session_get_probe (self->session);
  if (reason != NULL)
    *reason = probe != NULL ? probe->reason[source] : NULL;
  return probe == NULL || probe->supported[source];
}

/**
 * adbscope_data_view_get_series:
 *
 * Returns: (transfer none) (nullable): the series to draw, %NULL before the
 *   session started
 */
AdbscopeSeries *
adbscope_data_view_get_series (AdbscopeDataView *self,
                               AdbscopeSeriesId  id)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);

  if (self->paused)
    return self->frozen[id];
  return adbscope_session_get_series (self->session, id);
}

guint
adbscope_data_view_get_n_cores (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->paused)
    return self->frozen_cores->len;
  return adbscope_session_get_n_cores (self->session);
}

AdbscopeSeries *
adbscope_data_view_get_core_series (AdbscopeDataView *self,
                                    guint             core)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (core < adbscope_data_view_get_n_cores (self), NULL);

  if (self->paused)
    return g_ptr_array_index (self->frozen_cores, core);
  return adbscope_session_get_core_series (self->session, core);
}

/**
 * adbscope_data_view_get_core_freqs:
 *
 * Returns: the current frequency of each core in kHz (NaN where unreadable)
 *   as of the last sample drawn
 */
const double *
adbscope_data_view_get_core_freqs (AdbscopeDataView *self,
                                   guint            *n_cores)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (n_cores != NULL, NULL);

  *n_cores = self->core_freqs->len;
  return (const double *) (gpointer) self->core_freqs->data;
}

/**
 * adbscope_data_view_get_net_rates:
 *
 * Returns: (element-type AdbscopeNetRate): each interface's rates as of
 *   the last sample drawn
 */
const GArray *
adbscope_data_view_get_net_rates (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return self->net;
}

/**
 * adbscope_data_view_get_threads:
 *
 * Returns: (transfer none): the live thread list (items keep identity), or
 *   a frozen copy while paused
 */
GListModel *
adbscope_data_view_get_threads (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->paused)
    return G_LIST_MODEL (self->frozen_threads);
  return adbscope_session_get_threads (self->session);
}

/**
 * adbscope_data_view_get_frame_times:
 *
 * Returns: (array length=n_frames): every frame time seen, in ms
 */
const float *
adbscope_data_view_get_frame_times (AdbscopeDataView *self,
                                    guint            *n_frames)
{
  const GArray *times;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (n_frames != NULL, NULL);

  times = adbscope_session_get_frame_times (self->session);
  if (times == NULL)
    {
      *n_frames = 0;
      return NULL;
    }
  /* The session only appends, so the first n are the frozen ones. */
  *n_frames = self->paused ? MIN (self->frozen_n_frames, times->len) : times->len;
  return (const float *) (gpointer) times->data;
}

void
adbscope_data_view_get_frame_totals (AdbscopeDataView *self,
                                     gint64           *frames,
                                     gint64           *janky,
                                     gint64            causes[ADBSCOPE_JANK_N_CAUSES],
                                     gboolean          has_cause[ADBSCOPE_JANK_N_CAUSES])
{
  gint64 over_deadline;

  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  if (!self->paused)
    {
      adbscope_session_get_frame_totals (self->session, frames, janky, &over_deadline, causes, has_cause);
      return;
    }
  *frames = self->frozen_frames;
  *janky = self->frozen_janky;
  memcpy (causes, self->frozen_causes, sizeof self->frozen_causes);
  memcpy (has_cause, self->frozen_has_cause, sizeof self->frozen_has_cause);
}

/* The measured sampling interval, for gap detection in the charts. */
gint64
adbscope_data_view_get_interval_us (AdbscopeDataView *self)
{
  double ms;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), G_USEC_PER_SEC);

  ms = adbscope_session_get_measured_interval_ms (self->session);
  if (!isfinite (ms) || ms <= 0)
    ms = adbscope_session_get_interval (self->session);
  return (gint64) (ms * 1000);
}

/* How many times "updated" was emitted (tests and the benchmark count it). */
guint
adbscope_data_view_get_n_updates (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);
  return self->n_updates;
}

/* Where frames come from and why FPS is 0: the session's latest, also
 * while paused (a sentence about now, not a number to compare). */
const AdbscopeFramesSummary *
adbscope_data_view_get_frames_summary (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return adbscope_session_get_frames_summary (self->session);
}

/* AdbscopeProcessSeries of every process of the app; their series are the
 * session's own (live) ones. */
GPtrArray *
adbscope_data_view_get_app_processes (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return adbscope_session_get_app_processes (self->session);
}
