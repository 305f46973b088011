/* adbscope-capture.c: one capture of the watched app's traffic
 *
 * The agent app is started for the package (adbscope-agent-control.c), the
 * link (adbscope-agent-link.c) feeds the network model, and while the user
 * wants a capture an agent that went away is asked about every few seconds
 * and started again if it is not running (it stops itself 30 s after its
 * last client left, or was killed).  The link reconnects on its own; the
 * network model shows the time in between as a gap.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-adb.h"
#include "adbscope-agent-control.h"
#include "adbscope-capture.h"
#include "adbscope-error.h"

#define WATCH_MS           1000
#define RESTART_TIMEOUT_MS 20000
#define DRAIN_MS           3000

struct _AdbscopeCapture
{
  GObject               parent_instance;

  char                 *serial;
  char                 *package;
  AdbscopeNetwork      *network;
  AdbscopeAgentLink    *link;
  char                 *pcap_file;
  char                 *token;         /* given to the agent, checked in its Hello */
  char                 *selftest;      /* HOST:PORT of the agent's own test traffic, or NULL */
  AdbscopeCaptureState  state;
  GError               *error;
  GCancellable         *cancellable;   /* the agent calls of this capture */
  guint                 watch_id;
  gboolean              agent_starting;
};

G_DEFINE_FINAL_TYPE (AdbscopeCapture, adbscope_capture, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void on_link_disconnected (AdbscopeAgentLink *link, AdbscopeCapture *self);
static void on_link_failed       (AdbscopeAgentLink *link, const GError *error, AdbscopeCapture *self);

AdbscopeCapture *
adbscope_capture_new (const char      *serial,
                      const char      *package,
                      AdbscopeNetwork *network)
{
  AdbscopeCapture *self;

  g_return_val_if_fail (serial != NULL && package != NULL, NULL);
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (network), NULL);

  self = g_object_new (ADBSCOPE_TYPE_CAPTURE, NULL);
  self->serial = g_strdup (serial);
  self->package = g_strdup (package);
  self->network = g_object_ref (network);
  self->link = adbscope_agent_link_new (serial, network);
  self->token = adbscope_agent_new_token ();
  adbscope_agent_link_set_token (self->link, self->token);
  g_signal_connect (self->link, "disconnected", G_CALLBACK (on_link_disconnected), self);
  g_signal_connect (self->link, "failed", G_CALLBACK (on_link_failed), self);
  return self;
}

static void
set_state (AdbscopeCapture      *self,
           AdbscopeCaptureState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
fail (AdbscopeCapture *self,
      const GError    *error)
{
  g_clear_error (&self->error);
  self->error = g_error_copy (error);
  g_clear_handle_id (&self->watch_id, g_source_remove);
  adbscope_agent_link_stop (self->link);
  set_state (self, ADBSCOPE_CAPTURE_FAILED);
}

/* The file is opened (and truncated) only once the agent runs, so a
 * capture that cannot start leaves an existing file alone. */
gboolean
adbscope_capture_set_pcap_file (AdbscopeCapture  *self,
                                const char       *path,
                                GError          **error)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), FALSE);
  g_return_val_if_fail (self->state == ADBSCOPE_CAPTURE_IDLE, FALSE);

  g_free (self->pcap_file);
  self->pcap_file = g_strdup (path);
  return TRUE;
}

void
adbscope_capture_set_selftest (AdbscopeCapture *self,
                               const char      *host_port)
{
  g_return_if_fail (ADBSCOPE_IS_CAPTURE (self));
  g_return_if_fail (self->state == ADBSCOPE_CAPTURE_IDLE);

  g_free (self->selftest);
  self->selftest = g_strdup (host_port);
}

const char *
adbscope_capture_get_token (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), NULL);
  return self->token;
}

const char *
adbscope_capture_get_pcap_file (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), NULL);
  return self->pcap_file;
}

/* Keeping the agent alive ------------------------------------------------ */

static gboolean watch_cb (gpointer data);

static void
schedule_watch (AdbscopeCapture *self)
{
  if (self->state == ADBSCOPE_CAPTURE_RUNNING && self->watch_id == 0 && !self->agent_starting)
    self->watch_id = g_timeout_add (WATCH_MS, watch_cb, self);
}

static void
restarted_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(AdbscopeCapture) self = user_data;
  g_autoptr(GError) error = NULL;

  self->agent_starting = FALSE;
  if (!adbscope_agent_start_finish (result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* The user said no this time, or removed the agent: nothing to wait for. */
      if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_VPN_CONSENT_DENIED)
          || g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED)
          || g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED))
        {
          fail (self, error);
          return;
        }
      g_debug ("capture: starting the agent again failed: %s", error->message);
    }
  if (!adbscope_agent_link_is_connected (self->link))
    schedule_watch (self);
}

static void
status_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AdbscopeCapture) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = adbscope_agent_status_finish (result, &error);

  self->agent_starting = FALSE;
  if (self->state != ADBSCOPE_CAPTURE_RUNNING || adbscope_agent_link_is_connected (self->link))
    return;
  if (st == NULL || (st->service.state == ADBSCOPE_AGENT_STATE_RUNNING
                     && g_strcmp0 (st->service.package, self->package) == 0))
    {
      /* It runs (the link reconnects by itself), or adb is away: look again later. */
      schedule_watch (self);
      return;
    }
  self->agent_starting = TRUE;
  adbscope_agent_start_full_async (self->serial, self->package, self->token, self->selftest,
                                   RESTART_TIMEOUT_MS, self->cancellable, restarted_cb, g_object_ref (self));
}

static gboolean
watch_cb (gpointer data)
{
  AdbscopeCapture *self = data;

  self->watch_id = 0;
  if (self->state != ADBSCOPE_CAPTURE_RUNNING || self->agent_starting
      || adbscope_agent_link_is_connected (self->link))
    return G_SOURCE_REMOVE;
  self->agent_starting = TRUE;
  adbscope_agent_status_async (self->serial, self->cancellable, status_cb, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
on_link_disconnected (AdbscopeAgentLink *link,
                      AdbscopeCapture   *self)
{
  schedule_watch (self);
}

static void
on_link_failed (AdbscopeAgentLink *link,
                const GError      *error,
                AdbscopeCapture   *self)
{
  fail (self, error);
}

/* Start ------------------------------------------------------------------- */

static void
started_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AdbscopeCapture *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!adbscope_agent_start_finish (result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, error);
      else
        set_state (self, ADBSCOPE_CAPTURE_IDLE);
      g_task_return_error (task, error);
      return;
    }
  if (self->pcap_file != NULL)
    {
      if (!adbscope_agent_link_set_pcap_file (self->link, self->pcap_file, &error))
        {
          fail (self, error);
          g_task_return_error (task, error);
          return;
        }
      adbscope_network_set_pcap (self->network, self->pcap_file);
    }
  set_state (self, ADBSCOPE_CAPTURE_RUNNING);
  adbscope_agent_link_start (self->link);
  g_task_return_boolean (task, TRUE);
}

typedef struct
{
  guint timeout_ms;
} StartData;

/* Once per capture: the phone's Private DNS setting (a strict one hides
 * every lookup from the agent), then the agent. */
static void
private_dns_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  AdbscopeCapture *self = g_task_get_source_object (task);
  StartData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = adbscope_adb_run_finish (result, NULL, NULL, &error);
  AdbscopePrivateDns dns;

  if (out != NULL && adbscope_agent_parse_private_dns (out, -1, &dns))
    {
      adbscope_network_set_private_dns (self->network, &dns);
      adbscope_private_dns_clear (&dns);
    }
  else
    g_debug ("capture: Private DNS setting not read: %s", error ? error->message : "unexpected output");
  if (g_task_return_error_if_cancelled (task))
    {
      set_state (self, ADBSCOPE_CAPTURE_IDLE);
      g_object_unref (task);
      return;
    }
  adbscope_agent_start_full_async (self->serial, self->package, self->token, self->selftest, d->timeout_ms,
                                   g_task_get_cancellable (task), started_cb, task);
}

void
adbscope_capture_start_async (AdbscopeCapture     *self,
                              guint                timeout_ms,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (ADBSCOPE_IS_CAPTURE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_capture_start_async);
  if (self->state == ADBSCOPE_CAPTURE_STARTING || self->state == ADBSCOPE_CAPTURE_RUNNING)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED, _("A capture is already running"));
      g_object_unref (task);
      return;
    }
  g_clear_error (&self->error);
  set_state (self, ADBSCOPE_CAPTURE_STARTING);
  {
    static const char *const args[] = {
      "shell", "getprop ro.build.version.sdk; settings get global private_dns_mode; "
               "settings get global private_dns_specifier", NULL
    };
    StartData *d = g_new0 (StartData, 1);

    d->timeout_ms = timeout_ms;
    g_task_set_task_data (task, d, g_free);
    adbscope_adb_run_async (self->serial, args, cancellable, private_dns_cb, task);
  }
}

gboolean
adbscope_capture_start_finish (AdbscopeCapture  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Stop -------------------------------------------------------------------- */

static void
stopped_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AdbscopeCapture *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (self->state == ADBSCOPE_CAPTURE_STOPPING)
    set_state (self, ADBSCOPE_CAPTURE_IDLE);
  if (!adbscope_agent_stop_finish (result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

typedef struct
{
  guint64 snapshots;
  gint64  deadline;
  guint   timer_id;
} Drain;

static void
finish_stop (GTask *task)
{
  AdbscopeCapture *self = g_task_get_source_object (task);

  adbscope_agent_link_stop (self->link);
  adbscope_agent_stop_async (self->serial, NULL, stopped_cb, task);
}

/* Before the end: one more snapshot, and the pcap up to the packets that
 * snapshot counts, so the file holds what the agent says it sent
 * (bounded by DRAIN_MS). */
static gboolean
drain_cb (gpointer data)
{
  GTask *task = data;
  AdbscopeCapture *self = g_task_get_source_object (task);
  Drain *d = g_task_get_task_data (task);
  AdbscopeNetCounters c;

  adbscope_network_get_run_counters (self->network, &c);
  if (g_get_monotonic_time () < d->deadline && adbscope_agent_link_is_connected (self->link)
      && (adbscope_network_get_n_snapshots (self->network) <= d->snapshots
          || adbscope_agent_link_get_pcap_stream_packets (self->link) < c.pcap_packets))
    return G_SOURCE_CONTINUE;
  d->timer_id = 0;
  finish_stop (task);
  return G_SOURCE_REMOVE;
}

void
adbscope_capture_stop_async (AdbscopeCapture     *self,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  Drain *d;

  g_return_if_fail (ADBSCOPE_IS_CAPTURE (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, adbscope_capture_stop_async);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->agent_starting = FALSE;
  g_clear_handle_id (&self->watch_id, g_source_remove);
  if (self->state != ADBSCOPE_CAPTURE_FAILED)
    set_state (self, ADBSCOPE_CAPTURE_STOPPING);
  d = g_new0 (Drain, 1);
  d->snapshots = adbscope_network_get_n_snapshots (self->network);
  d->deadline = g_get_monotonic_time () + DRAIN_MS * 1000;
  g_task_set_task_data (task, d, g_free);
  if (self->state == ADBSCOPE_CAPTURE_STOPPING && adbscope_agent_link_is_connected (self->link))
    d->timer_id = g_timeout_add (50, drain_cb, task);
  else
    finish_stop (task);
}

gboolean
adbscope_capture_stop_finish (AdbscopeCapture  *self,
                              GAsyncResult     *result,
                              GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

AdbscopeCaptureState
adbscope_capture_get_state (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), ADBSCOPE_CAPTURE_IDLE);
  return self->state;
}

const GError *
adbscope_capture_get_error (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), NULL);
  return self->error;
}

AdbscopeAgentLink *
adbscope_capture_get_link (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), NULL);
  return self->link;
}

AdbscopeNetwork *
adbscope_capture_get_network (AdbscopeCapture *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CAPTURE (self), NULL);
  return self->network;
}

static void
adbscope_capture_dispose (GObject *object)
{
  AdbscopeCapture *self = ADBSCOPE_CAPTURE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->watch_id, g_source_remove);
  if (self->link != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->link, self);
      adbscope_agent_link_stop (self->link);
    }
  g_clear_object (&self->link);
  g_clear_object (&self->network);
  G_OBJECT_CLASS (adbscope_capture_parent_class)->dispose (object);
}

static void
adbscope_capture_finalize (GObject *object)
{
  AdbscopeCapture *self = ADBSCOPE_CAPTURE (object);

  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);
  g_free (self->serial);
  g_free (self->package);
  g_free (self->pcap_file);
  g_free (self->token);
  g_free (self->selftest);
  G_OBJECT_CLASS (adbscope_capture_parent_class)->finalize (object);
}

static void
adbscope_capture_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, ADBSCOPE_CAPTURE (object)->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_capture_class_init (AdbscopeCaptureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_capture_dispose;
  object_class->finalize = adbscope_capture_finalize;
  object_class->get_property = adbscope_capture_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, ADBSCOPE_CAPTURE_IDLE, ADBSCOPE_CAPTURE_FAILED, ADBSCOPE_CAPTURE_IDLE,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_capture_init (AdbscopeCapture *self)
{
  self->cancellable = g_cancellable_new ();
}
