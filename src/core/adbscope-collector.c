/* adbscope-collector.c: one shell, one schedule, one parser */
#include "config.h"

#include "adbscope-collector.h"

typedef struct
{
  char          *name;
  char          *serial;
  char          *package;
  AdbscopeShell *shell;
  GCancellable  *cancellable;
  guint          interval_ms;
  guint          timer_id;
  guint          tick;
  gboolean       running;
  gboolean       busy;
  gint64         tick_started_us;
} AdbscopeCollectorPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (AdbscopeCollector, adbscope_collector, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_SERIAL,
  PROP_PACKAGE,
  PROP_SHELL,
  PROP_INTERVAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SAMPLE,
  SIGNAL_COMMAND_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void schedule_next (AdbscopeCollector *self);

/* The one way a sample leaves a collector: parse, emit (borrowed for the
 * emission), free.  A parse error drops the tick. */
static void
emit_parsed (AdbscopeCollector *self,
             const char        *output,
             gint64             time_us)
{
  AdbscopeCollectorClass *klass = ADBSCOPE_COLLECTOR_GET_CLASS (self);
  g_autoptr(GError) error = NULL;
  gpointer sample;

  g_assert (klass->parse != NULL && klass->free_sample != NULL);
  sample = klass->parse (self, output, time_us, &error);
  if (sample == NULL)
    {
      g_debug ("%s sample dropped: %s", adbscope_collector_get_name (self), error->message);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_SAMPLE], 0, sample);
  klass->free_sample (sample);
}

typedef struct
{
  AdbscopeCollector *self;
  guint              tick;
  gint64             sent_us;
} TickData;

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  TickData *data = user_data;
  AdbscopeCollector *self = data->self;
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  gint64 received_us;
  int rc = -1;

  output = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), result, &rc, &error);
  received_us = g_get_monotonic_time ();
  priv->busy = FALSE;

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED) && priv->running)
    {
      if (output != NULL)
        emit_parsed (self, output, (data->sent_us + received_us) / 2);
      else
        {
          g_debug ("%s: %s", priv->name, error->message);
          g_signal_emit (self, signals[SIGNAL_COMMAND_FAILED], 0, error);
        }
      schedule_next (self);
    }

  g_object_unref (self);
  g_free (data);
}

static gboolean
tick_cb (gpointer user_data)
{
  AdbscopeCollector *self = user_data;
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);
  g_autofree char *command = NULL;
  TickData *data;

  priv->timer_id = 0;
  priv->tick_started_us = g_get_monotonic_time ();
  command = ADBSCOPE_COLLECTOR_GET_CLASS (self)->build_command (self, priv->tick);
  if (command == NULL)
    {
      priv->tick++;
      schedule_next (self);
      return G_SOURCE_REMOVE;
    }

  data = g_new0 (TickData, 1);
  data->self = g_object_ref (self);
  data->tick = priv->tick++;
  data->sent_us = priv->tick_started_us;
  priv->busy = TRUE;
  adbscope_shell_run_async (priv->shell, command, priv->cancellable, run_cb, data);
  return G_SOURCE_REMOVE;
}

/* The seed rule: the next tick is one interval after this one started;
 * if that time has passed (a slow command), one whole interval after the
 * answer.  Never a burst to catch up, and never a read right after a late
 * one: a phone that answers late may have read its counters only just now,
 * and two reads milliseconds apart make a delta of noise.
 */
static void
schedule_next (AdbscopeCollector *self)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);
  gint64 due = priv->tick_started_us + (gint64) priv->interval_ms * 1000;
  gint64 now = g_get_monotonic_time ();
  guint delay_ms = due > now ? (guint) ((due - now + 999) / 1000) : priv->interval_ms;

  if (!priv->running || priv->timer_id != 0 || priv->busy)
    return;
  priv->timer_id = g_timeout_add (delay_ms, tick_cb, self);
}

void
adbscope_collector_start (AdbscopeCollector *self)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_COLLECTOR (self));

  if (priv->running)
    return;
  priv->running = TRUE;
  g_clear_object (&priv->cancellable);
  priv->cancellable = g_cancellable_new ();
  priv->timer_id = g_idle_add (tick_cb, self);
}

void
adbscope_collector_stop (AdbscopeCollector *self)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_COLLECTOR (self));

  priv->running = FALSE;
  g_clear_handle_id (&priv->timer_id, g_source_remove);
  if (priv->cancellable != NULL)
    g_cancellable_cancel (priv->cancellable);
}

/* The watched package (validated before it gets here). */
const char *
adbscope_collector_get_package (AdbscopeCollector *self)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_COLLECTOR (self), NULL);
  return priv->package;
}

const char *
adbscope_collector_get_name (AdbscopeCollector *self)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_COLLECTOR (self), NULL);
  return priv->name;
}

void
adbscope_collector_set_interval (AdbscopeCollector *self,
                                 guint              interval_ms)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_COLLECTOR (self));
  g_return_if_fail (interval_ms >= 10);

  if (priv->interval_ms == interval_ms)
    return;
  priv->interval_ms = interval_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL]);
}

static void
adbscope_collector_constructed (GObject *object)
{
  AdbscopeCollector *self = ADBSCOPE_COLLECTOR (object);
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  G_OBJECT_CLASS (adbscope_collector_parent_class)->constructed (object);
  if (priv->shell == NULL)
    priv->shell = adbscope_shell_new (priv->serial);
}

static void
adbscope_collector_dispose (GObject *object)
{
  AdbscopeCollector *self = ADBSCOPE_COLLECTOR (object);
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  adbscope_collector_stop (self);
  if (priv->shell != NULL)
    adbscope_shell_close (priv->shell);
  g_clear_object (&priv->shell);
  g_clear_object (&priv->cancellable);
  G_OBJECT_CLASS (adbscope_collector_parent_class)->dispose (object);
}

static void
adbscope_collector_finalize (GObject *object)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (ADBSCOPE_COLLECTOR (object));

  g_free (priv->name);
  g_free (priv->serial);
  g_free (priv->package);
  G_OBJECT_CLASS (adbscope_collector_parent_class)->finalize (object);
}

static void
adbscope_collector_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (ADBSCOPE_COLLECTOR (object));

  switch (prop_id)
    {
    case PROP_NAME: g_value_set_string (value, priv->name); break;
    case PROP_SERIAL: g_value_set_string (value, priv->serial); break;
    case PROP_PACKAGE: g_value_set_string (value, priv->package); break;
    case PROP_SHELL: g_value_set_object (value, priv->shell); break;
    case PROP_INTERVAL: g_value_set_uint (value, priv->interval_ms); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_collector_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AdbscopeCollector *self = ADBSCOPE_COLLECTOR (object);
  AdbscopeCollectorPrivate *priv = adbscope_collector_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_NAME: priv->name = g_value_dup_string (value); break;
    case PROP_SERIAL: priv->serial = g_value_dup_string (value); break;
    case PROP_PACKAGE: priv->package = g_value_dup_string (value); break;
    case PROP_SHELL: priv->shell = g_value_dup_object (value); break;
    case PROP_INTERVAL: adbscope_collector_set_interval (self, g_value_get_uint (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_collector_class_init (AdbscopeCollectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = adbscope_collector_constructed;
  object_class->dispose = adbscope_collector_dispose;
  object_class->finalize = adbscope_collector_finalize;
  object_class->get_property = adbscope_collector_get_property;
  object_class->set_property = adbscope_collector_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERIAL] =
    g_param_spec_string ("serial", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PACKAGE] =
    g_param_spec_string ("package", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHELL] =
    g_param_spec_object ("shell", NULL, NULL, ADBSCOPE_TYPE_SHELL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INTERVAL] =
    g_param_spec_uint ("interval", NULL, NULL, 10, 3600000, 1000,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Each subclass's sample struct (see its header), borrowed. */
  signals[SIGNAL_SAMPLE] =
    g_signal_new ("sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The shell gave no answer (device gone, adb failed, timeout); the
   * GError is borrowed.  Not emitted for a cancelled or closed shell. */
  signals[SIGNAL_COMMAND_FAILED] =
    g_signal_new ("command-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
adbscope_collector_init (AdbscopeCollector *self)
{
}
