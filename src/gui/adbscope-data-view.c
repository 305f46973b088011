/* adbscope-data-view.c: what the pages draw — the live session, or a frozen copy
 *
 * The view is the only way pages read data.  While live it hands out the
 * session's own ring buffers and latest values and says "updated" each
 * time the session does (once per main-loop iteration after any
 * collector's sample).  Pausing copies everything a page can read once —
 * series, threads, frame times and totals, the system state, frequencies,
 * rates, counters, the marker count and the interval — so nothing on any
 * page moves while paused, although the session keeps collecting.  Resume
 * swaps the live data back in, with everything collected meanwhile.
 *
 * Markers are copied one by one as the session adds them; the interval
 * and the visible window are properties that charts bind to once.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-data-view.h"
#include "adbscope-run.h"
#include "adbscope-recording.h"
#include "adbscope-recording-source.h"
#include "adbscope-thread.h"

typedef struct
{
  AdbscopeSeries      *series[ADBSCOPE_N_SERIES];
  GPtrArray           *cores;         /* AdbscopeSeries* */
  GListStore          *threads;
  AdbscopeNetwork     *network;
  GArray              *frame_times;   /* double ms, ascending */
  AdbscopeFrameTotals  frame_totals;
  AdbscopeSystemState *system;
  GArray              *core_freqs;    /* double kHz */
  GArray              *net_rates;     /* AdbscopeNetRate */
  GArray              *pids;          /* gint64 */
  guint                restarts;
  guint64              n_samples;
  double               measured_interval_ms;
  guint                n_markers;
  guint                n_screenshots;
  AdbscopeFramesSummary fsum;         /* strings and arrays copied */
} Frozen;

struct _AdbscopeDataView
{
  GObject           parent_instance;

  AdbscopeSession  *session;
  double            visible_seconds;
  gint64            end_time_us;    /* right edge of the charts; 0 follows the newest */
  gint64            interval_us;
  GArray           *markers;        /* AdbscopeMarker, copies */
  Frozen           *frozen;         /* only while paused */
  char             *recording;      /* the file the screenshots are in, or NULL */
  /* where charts read: the recording (opened, or the one the live session
   * writes) through its level of detail, else the series in memory */
  char             *opened_path;
  AdbscopeRecordingReader *reader;
  gint64            reader_tried_us;
  GHashTable       *sources;        /* AdbscopeSeries* (ref) → AdbscopeChartSource* */
  gboolean          details_pending; /* an opened recording's frame times and threads */
};

G_DEFINE_FINAL_TYPE (AdbscopeDataView, adbscope_data_view, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PAUSED,
  PROP_VISIBLE_SECONDS,
  PROP_END_TIME,
  PROP_INTERVAL_US,
  N_PROPS
};

enum {
  SIGNAL_UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
frozen_free (Frozen *f)
{
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_clear_pointer (&f->series[i], adbscope_series_unref);
  g_ptr_array_unref (f->cores);
  g_object_unref (f->threads);
  g_object_unref (f->network);
  g_array_unref (f->frame_times);
  adbscope_system_state_free (f->system);
  g_array_unref (f->core_freqs);
  g_array_unref (f->net_rates);
  g_array_unref (f->pids);
  adbscope_frames_summary_clear (&f->fsum);
  g_free (f);
}

static Frozen *
freeze (AdbscopeSession *session,
        guint            n_markers)
{
  Frozen *f = g_new0 (Frozen, 1);
  GListModel *threads = adbscope_session_get_threads (session);
  const AdbscopeFramesSummary *fsum = adbscope_session_get_frames_summary (session);
  const double *freqs;
  guint n;

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    f->series[i] = adbscope_series_copy (adbscope_session_get_series (session, i));

  adbscope_frames_summary_copy (&f->fsum, fsum);

  f->cores = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_series_unref);
  for (guint i = 0; i < adbscope_session_get_n_cores (session); i++)
    g_ptr_array_add (f->cores, adbscope_series_copy (adbscope_session_get_core_series (session, i)));

  /* New thread objects: the live ones keep changing under the session. */
  f->network = adbscope_network_copy (adbscope_session_get_network (session));
  f->threads = g_list_store_new (ADBSCOPE_TYPE_THREAD);
  n = g_list_model_get_n_items (threads);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, i);
      g_autoptr(AdbscopeThread) copy = adbscope_thread_new (adbscope_thread_get_tid (t),
                                                            adbscope_thread_get_name (t));

      adbscope_thread_set_cpu_pct (copy, adbscope_thread_get_max_cpu_pct (t));
      adbscope_thread_set_cpu_pct (copy, adbscope_thread_get_cpu_pct (t));
      g_list_store_append (f->threads, copy);
    }

  f->frame_times = g_array_copy ((GArray *) adbscope_session_get_frame_times (session));
  f->frame_totals = *adbscope_session_get_frame_totals (session);
  f->system = adbscope_system_state_copy (adbscope_session_get_system_state (session));
  freqs = adbscope_session_get_core_freqs (session, &n);
  f->core_freqs = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (f->core_freqs, freqs, n);
  f->net_rates = g_array_copy ((GArray *) adbscope_session_get_net_rates (session));
  f->pids = g_array_copy ((GArray *) adbscope_session_get_pids (session));
  f->restarts = adbscope_session_get_restarts (session);
  f->n_samples = adbscope_session_get_n_samples (session);
  f->measured_interval_ms = adbscope_session_get_measured_interval_ms (session);
  f->n_markers = n_markers;
  f->n_screenshots = adbscope_session_get_screenshots (session)->len;
  return f;
}

static void
emit_updated (AdbscopeDataView *self)
{
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
}

static void
on_session_updated (AdbscopeSession  *session,
                    AdbscopeDataView *self)
{
  if (self->frozen == NULL)
    emit_updated (self);
}

/* The measured interval as the session computes it (the configured one
 * before two samples); frozen while paused. */
static void
sync_interval (AdbscopeDataView *self)
{
  double ms = adbscope_session_get_measured_interval_ms (self->session);
  gint64 us;

  if (!isfinite (ms) || ms <= 0)
    ms = adbscope_session_get_interval (self->session);
  us = (gint64) (ms * 1000);
  if (us == self->interval_us)
    return;
  self->interval_us = us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL_US]);
}

static void
on_measured_interval (AdbscopeSession  *session,
                      GParamSpec       *pspec,
                      AdbscopeDataView *self)
{
  if (self->frozen == NULL)
    sync_interval (self);
}

static void
marker_clear (AdbscopeMarker *m)
{
  g_free (m->label);
}

static void
on_marker_added (AdbscopeSession  *session,
                 guint             index_,
                 AdbscopeDataView *self)
{
  const GArray *markers = adbscope_session_get_markers (session);
  const AdbscopeMarker *m = &g_array_index (markers, AdbscopeMarker, index_);
  AdbscopeMarker copy = { m->time_us, g_strdup (m->label) };

  /* Only the new one; a paused view shows it after resume. */
  g_array_append_val (self->markers, copy);
}

static void
adbscope_data_view_dispose (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->frozen, frozen_free);
  G_OBJECT_CLASS (adbscope_data_view_parent_class)->dispose (object);
}

static void
adbscope_data_view_finalize (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);

  g_array_unref (self->markers);
  g_free (self->recording);
  g_hash_table_unref (self->sources);
  g_clear_object (&self->reader);
  g_free (self->opened_path);
  G_OBJECT_CLASS (adbscope_data_view_parent_class)->finalize (object);
}

static void
adbscope_data_view_constructed (GObject *object)
{
  AdbscopeDataView *self = ADBSCOPE_DATA_VIEW (object);
  const GArray *markers;

  G_OBJECT_CLASS (adbscope_data_view_parent_class)->constructed (object);

  g_assert (self->session != NULL);
  markers = adbscope_session_get_markers (self->session);
  for (guint i = 0; i < markers->len; i++)
    on_marker_added (self->session, i, self);
  sync_interval (self);
  g_signal_connect (self->session, "updated", G_CALLBACK (on_session_updated), self);
  g_signal_connect (self->session, "marker-added", G_CALLBACK (on_marker_added), self);
  g_signal_connect (self->session, "notify::measured-interval", G_CALLBACK (on_measured_interval), self);
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
      g_value_set_boolean (value, self->frozen != NULL);
      break;
    case PROP_VISIBLE_SECONDS:
      g_value_set_double (value, self->visible_seconds);
      break;
    case PROP_INTERVAL_US:
      g_value_set_int64 (value, self->interval_us);
      break;
    case PROP_END_TIME:
      g_value_set_int64 (value, self->end_time_us);
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
    case PROP_END_TIME:
      adbscope_data_view_set_end_time (self, g_value_get_int64 (value));
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
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_SECONDS] =
    g_param_spec_double ("visible-seconds", NULL, NULL, 10, 24 * 3600, 300,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The time at the charts' right edge (the session's clock); 0 follows
   * the newest sample.  A recording is scrolled with it. */
  properties[PROP_END_TIME] =
    g_param_spec_int64 ("end-time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The measured sampling interval (µs), for the charts' gap detection */
  properties[PROP_INTERVAL_US] =
    g_param_spec_int64 ("interval-us", NULL, NULL, 0, G_MAXINT64, G_USEC_PER_SEC,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The pages should redraw from the view (new data, pause, resume). */
  signals[SIGNAL_UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
adbscope_data_view_init (AdbscopeDataView *self)
{
  self->visible_seconds = 300;
  self->interval_us = G_USEC_PER_SEC;
  self->markers = g_array_new (FALSE, FALSE, sizeof (AdbscopeMarker));
  g_array_set_clear_func (self->markers, (GDestroyNotify) marker_clear);
  self->sources = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) adbscope_series_unref, g_object_unref);
}

AdbscopeDataView *
adbscope_data_view_new (AdbscopeSession *session)
{
  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), NULL);
  return g_object_new (ADBSCOPE_TYPE_DATA_VIEW, "session", session, NULL);
}

gboolean
adbscope_data_view_get_paused (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), FALSE);
  return self->frozen != NULL;
}

/**
 * adbscope_data_view_set_paused:
 *
 * Pausing freezes everything the pages draw; the session keeps collecting.
 * Resuming swaps the live data back in, with everything collected
 * meanwhile.
 */
void
adbscope_data_view_set_paused (AdbscopeDataView *self,
                               gboolean          paused)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  if (!!paused == (self->frozen != NULL))
    return;
  if (paused)
    self->frozen = freeze (self->session, self->markers->len);
  else
    {
      g_clear_pointer (&self->frozen, frozen_free);
      g_hash_table_remove_all (self->sources);
      sync_interval (self);
    }
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
}

gint64
adbscope_data_view_get_end_time (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);
  return self->end_time_us;
}

void
adbscope_data_view_set_end_time (AdbscopeDataView *self,
                                 gint64            end_time_us)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  if (self->end_time_us == end_time_us)
    return;
  self->end_time_us = end_time_us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_TIME]);
  emit_updated (self);
}

gint64
adbscope_data_view_get_interval_us (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), G_USEC_PER_SEC);
  return self->interval_us;
}

const char *
adbscope_data_view_get_package (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return adbscope_session_get_package (self->session);
}

/* The probe answers once before collecting starts: never changes after. */
const AdbscopeProbeResult *
adbscope_data_view_get_probe (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return adbscope_session_get_probe (self->session);
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
 * Returns: (transfer none): the series to draw
 */
AdbscopeSeries *
adbscope_data_view_get_series (AdbscopeDataView *self,
                               AdbscopeSeriesId  id)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);

  if (self->frozen != NULL)
    return self->frozen->series[id];
  return adbscope_session_get_series (self->session, id);
}

/* The reader of the recording behind the view, once it can be opened: a
 * live session's file has its first rows a second after the start. */
static AdbscopeRecordingReader *
get_reader (AdbscopeDataView *self)
{
  AdbscopeRecording *recording = adbscope_session_get_recording (self->session);
  g_autoptr(GError) error = NULL;
  const char *path = self->opened_path;
  gint64 now = g_get_monotonic_time ();

  if (self->reader != NULL)
    return self->reader;
  if (path == NULL && recording != NULL && adbscope_recording_has_begun (recording))
    path = adbscope_recording_get_path (recording);
  if (path == NULL || now - self->reader_tried_us < G_USEC_PER_SEC)
    return NULL;
  self->reader_tried_us = now;
  self->reader = adbscope_recording_reader_new (path, &error);
  if (self->reader == NULL && self->opened_path != NULL)
    g_warning ("%s", error->message);
  /* a window scrolled along the run reads ahead, off the main thread */
  if (self->reader != NULL)
    adbscope_recording_reader_set_prefetch (self->reader, TRUE);
  return self->reader;
}

static AdbscopeChartSource *
source_for (AdbscopeDataView *self,
            AdbscopeSeries   *series,
            const char       *path)
{
  AdbscopeRecordingReader *reader;
  AdbscopeChartSource *source;

  if (series == NULL)
    return NULL;
  reader = get_reader (self);
  source = g_hash_table_lookup (self->sources, series);
  if (source != NULL && (reader == NULL || ADBSCOPE_IS_RECORDING_SOURCE (source)))
    return source;

  if (reader == NULL)
    source = adbscope_chart_source_new_for_series (series);
  else if (self->opened_path != NULL)
    source = adbscope_recording_source_new (reader, path, 0, NULL);
  else
    source = adbscope_recording_source_new (reader, path, adbscope_session_get_start_us (self->session), series);
  g_hash_table_replace (self->sources, adbscope_series_ref (series), source);
  return source;
}

/**
 * adbscope_data_view_get_source:
 *
 * Where charts read series @id: the recording the view shows or the live
 * session writes, through its level of detail (the newest stretch from
 * memory), or the series in memory alone.
 *
 * Returns: (transfer none) (nullable):
 */
AdbscopeChartSource *
adbscope_data_view_get_source (AdbscopeDataView *self,
                               AdbscopeSeriesId  id)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (id < ADBSCOPE_N_SERIES, NULL);

  return source_for (self, adbscope_data_view_get_series (self, id), adbscope_series_id_get_path (id));
}

AdbscopeChartSource *
adbscope_data_view_get_core_source (AdbscopeDataView *self,
                                    guint             core)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (core < adbscope_data_view_get_n_cores (self), NULL);

  path = g_strdup_printf ("cpu.core%u_pct", core);
  return source_for (self, adbscope_data_view_get_core_series (self, core), path);
}

/**
 * adbscope_data_view_set_opened_path:
 * @path: the recording the view's session was loaded from
 *
 * Charts read it from the file (times since its start) instead of memory.
 */
void
adbscope_data_view_set_opened_path (AdbscopeDataView *self,
                                    const char       *path)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  g_free (self->opened_path);
  self->opened_path = g_strdup (path);
  g_clear_object (&self->reader);
  self->reader_tried_us = 0;
  g_hash_table_remove_all (self->sources);
}

/**
 * adbscope_data_view_set_details_pending:
 *
 * While set, the session of an opened recording does not have its frame
 * times and threads yet (they are being read): pages show that they wait
 * rather than numbers from an empty list.  Says "updated" when it changes.
 */
void
adbscope_data_view_set_details_pending (AdbscopeDataView *self,
                                        gboolean          pending)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  if (self->details_pending == !!pending)
    return;
  self->details_pending = !!pending;
  emit_updated (self);
}

gboolean
adbscope_data_view_get_details_pending (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), FALSE);
  return self->details_pending;
}

/* Returns: (nullable): the recording shown, NULL for a live session */
const char *
adbscope_data_view_get_opened_path (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return self->opened_path;
}

/* Returns: (transfer none) (nullable): the reader charts use, if any */
AdbscopeRecordingReader *
adbscope_data_view_get_reader (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return get_reader (self);
}

guint
adbscope_data_view_get_n_cores (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->frozen != NULL)
    return self->frozen->cores->len;
  return adbscope_session_get_n_cores (self->session);
}

AdbscopeSeries *
adbscope_data_view_get_core_series (AdbscopeDataView *self,
                                    guint             core)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (core < adbscope_data_view_get_n_cores (self), NULL);

  if (self->frozen != NULL)
    return g_ptr_array_index (self->frozen->cores, core);
  return adbscope_session_get_core_series (self->session, core);
}

/**
 * adbscope_data_view_get_core_freqs:
 *
 * Returns: (array length=n_cores): the current frequency of each core in
 *   kHz (NaN where unreadable)
 */
const double *
adbscope_data_view_get_core_freqs (AdbscopeDataView *self,
                                   guint            *n_cores)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (n_cores != NULL, NULL);

  if (self->frozen == NULL)
    return adbscope_session_get_core_freqs (self->session, n_cores);
  *n_cores = self->frozen->core_freqs->len;
  return (const double *) (gpointer) self->frozen->core_freqs->data;
}

/**
 * adbscope_data_view_get_net_rates:
 *
 * Returns: (element-type AdbscopeNetRate): each interface's rates
 */
const GArray *
adbscope_data_view_get_net_rates (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->frozen != NULL)
    return self->frozen->net_rates;
  return adbscope_session_get_net_rates (self->session);
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

  if (self->frozen != NULL)
    return G_LIST_MODEL (self->frozen->threads);
  return adbscope_session_get_threads (self->session);
}

static const GArray *
frame_times (AdbscopeDataView *self)
{
  if (self->frozen != NULL)
    return self->frozen->frame_times;
  return adbscope_session_get_frame_times (self->session);
}

/**
 * adbscope_data_view_get_frame_times:
 *
 * Returns: (array length=n_frames): every frame time seen, in ms, ascending
 */
const double *
adbscope_data_view_get_frame_times (AdbscopeDataView *self,
                                    guint            *n_frames)
{
  const GArray *times;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (n_frames != NULL, NULL);

  times = frame_times (self);
  *n_frames = times->len;
  return (const double *) (gpointer) times->data;
}

/* The report's frame-time percentile (same array, same helper). */
double
adbscope_data_view_get_frame_time_percentile (AdbscopeDataView *self,
                                              double            p)
{
  const GArray *times;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NAN);

  times = frame_times (self);
  return adbscope_percentile_nearest_rank ((const double *) (gpointer) times->data, times->len, p);
}

const AdbscopeFrameTotals *
adbscope_data_view_get_frame_totals (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->frozen != NULL)
    return &self->frozen->frame_totals;
  return adbscope_session_get_frame_totals (self->session);
}

const AdbscopeSystemState *
adbscope_data_view_get_system_state (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->frozen != NULL)
    return self->frozen->system;
  return adbscope_session_get_system_state (self->session);
}

/**
 * adbscope_data_view_get_pids:
 *
 * Returns: (element-type gint64): every pid the app had
 */
const GArray *
adbscope_data_view_get_pids (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->frozen != NULL)
    return self->frozen->pids;
  return adbscope_session_get_pids (self->session);
}

guint
adbscope_data_view_get_restarts (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->frozen != NULL)
    return self->frozen->restarts;
  return adbscope_session_get_restarts (self->session);
}

guint64
adbscope_data_view_get_n_samples (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->frozen != NULL)
    return self->frozen->n_samples;
  return adbscope_session_get_n_samples (self->session);
}

/* NaN before two fast samples. */
double
adbscope_data_view_get_measured_interval_ms (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NAN);

  if (self->frozen != NULL)
    return self->frozen->measured_interval_ms;
  return adbscope_session_get_measured_interval_ms (self->session);
}

guint
adbscope_data_view_get_n_markers (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->frozen != NULL)
    return self->frozen->n_markers;
  return self->markers->len;
}

const AdbscopeMarker *
adbscope_data_view_get_marker (AdbscopeDataView *self,
                               guint             index_)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (index_ < adbscope_data_view_get_n_markers (self), NULL);

  return &g_array_index (self->markers, AdbscopeMarker, index_);
}

/* Where frames come from and why FPS is 0; frozen while paused. */
const AdbscopeFramesSummary *
adbscope_data_view_get_frames_summary (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  if (self->frozen != NULL)
    return &self->frozen->fsum;
  return adbscope_session_get_frames_summary (self->session);
}

/* AdbscopeProcessSeries of every process of the app (their series are the
 * session's own, live ones), or NULL while paused: pages then show the
 * frozen system state's process list instead. */
GPtrArray *
adbscope_data_view_get_app_processes (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  if (self->frozen != NULL)
    return NULL;
  return adbscope_session_get_app_processes (self->session);
}

/**
 * adbscope_data_view_get_network:
 *
 * Returns: (transfer none): what the agent told about the app's network:
 *   the session's live model, or a frozen copy while paused
 */
AdbscopeNetwork *
adbscope_data_view_get_network (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);

  if (self->frozen != NULL)
    return self->frozen->network;
  return adbscope_session_get_network (self->session);
}

/* ---- screenshots ---- */

/**
 * adbscope_data_view_set_recording:
 * @path: (nullable): the file the session streams into (or was read
 *   from): where the screenshots no longer in memory are read
 */
void
adbscope_data_view_set_recording (AdbscopeDataView *self,
                                  const char       *path)
{
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (self));

  g_free (self->recording);
  self->recording = g_strdup (path);
}

const char *
adbscope_data_view_get_recording (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  return self->recording;
}

gboolean
adbscope_data_view_get_screenshots_enabled (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), FALSE);
  return adbscope_session_get_screenshots_enabled (self->session, NULL);
}

guint
adbscope_data_view_get_n_screenshots (AdbscopeDataView *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);

  if (self->frozen != NULL)
    return self->frozen->n_screenshots;
  return adbscope_session_get_screenshots (self->session)->len;
}

/* Oldest first; time_us on the charts' clock (end_time's). */
const AdbscopeScreenshot *
adbscope_data_view_get_screenshot (AdbscopeDataView *self,
                                   guint             index_)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), NULL);
  g_return_val_if_fail (index_ < adbscope_data_view_get_n_screenshots (self), NULL);

  return g_ptr_array_index (adbscope_session_get_screenshots (self->session), index_);
}

/* Seconds since the run started, as the report and the file count them. */
double
adbscope_data_view_get_run_time_s (AdbscopeDataView *self,
                                   gint64            time_us)
{
  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (self), 0);
  return (time_us - adbscope_session_get_start_us (self->session)) / 1e6;
}

/**
 * adbscope_data_view_load_screenshot:
 *
 * The PNG of screenshot @index_: from memory, or read from the recording
 * (a blocking read of one row).
 *
 * Returns: (transfer full): the PNG, or NULL with @error
 */
GBytes *
adbscope_data_view_load_screenshot (AdbscopeDataView  *self,
                                    guint              index_,
                                    GError           **error)
{
  const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (self, index_);

  g_return_val_if_fail (shot != NULL, NULL);
  if (shot->png != NULL)
    return g_bytes_ref (shot->png);
  if (self->recording == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This screenshot is no longer in memory and the run has no recording"));
      return NULL;
    }
  return adbscope_run_read_screenshot (self->recording,
                                       shot->time_us - adbscope_session_get_start_us (self->session), error);
}
