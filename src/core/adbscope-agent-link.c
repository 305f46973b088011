/* adbscope-agent-link.c: snapshots (and pcap) from the agent, on the main loop
 *
 * One attempt: find or make the adb forwards (`adb forward --list`, else
 * `adb forward tcp:0 localabstract:NAME`), connect a GSocketClient to
 * them, read.  adb accepts the local connection even when nothing listens
 * on the device and then closes it, so the link is up only once the Hello
 * arrived and passed adbscope_agent_check_hello().
 *
 * When anything goes (EOF, an error, a malformed frame, no message for
 * five intervals) both sockets are closed, the session's network model
 * is told the link is lost (an honest gap from the last message on), and a
 * new attempt starts after a back-off of 200 ms doubling to 3.2 s.  A
 * forward is looked up again on every attempt, so an adb server that was
 * restarted (and forgot the forwards) is handled too.  Only forwards made
 * here are removed at stop.
 *
 * The pcap stream goes straight to the AdbscopePcapWriter; nothing of it
 * is kept in memory beyond one incomplete record.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gio/gunixsocketaddress.h>

#include "adbscope-adb.h"
#include "adbscope-agent-frame.h"
#include "adbscope-agent-link.h"
#include "adbscope-error.h"
#include "adbscope-parse-agent.h"
#include "adbscope-pcap-writer.h"

#define READ_SIZE         (64 * 1024)
#define BACKOFF_MIN_MS    200
#define BACKOFF_MAX_MS    3200
#define HELLO_TIMEOUT_MS  5000
#define STALL_INTERVALS   5

enum { STREAM_SNAP, STREAM_PCAP, N_STREAMS };

typedef struct _Attempt Attempt;

typedef struct
{
  Attempt           *attempt;     /* back pointer, not a reference */
  guint              kind;
  int                port;
  GSocketConnection *conn;
  guint8            *buf;
} Stream;

/* Everything one connection attempt owns.  Callbacks hold a reference;
 * link is cleared when the attempt is abandoned, so a late callback finds
 * out and does nothing. */
struct _Attempt
{
  gatomicrefcount    ref;
  AdbscopeAgentLink *link;
  GCancellable      *cancellable;
  Stream             streams[N_STREAMS];
  guint              n_streams;
  guint              next_forward;
  guint              n_connected;
  GByteArray        *acc;          /* snapshot bytes not decoded yet */
};

struct _AdbscopeAgentLink
{
  GObject              parent_instance;

  char                *serial;
  char                *server_host;  /* the remote adb server's, or NULL */
  AdbscopeNetwork     *network;
  GSocketAddress      *direct[N_STREAMS];
  AdbscopePcapWriter  *pcap;

  gboolean             running;
  gboolean             connected;
  Attempt             *attempt;
  GArray              *created_ports;  /* int: forwards made here */
  guint                retry_id;
  guint                watchdog_id;
  guint                backoff_ms;
  gint64               last_message_us;
  guint                interval_ms;
  guint                hellos;
  GError              *fatal;
  char                *last_problem;
  char                *token;        /* the instance token we gave, or NULL */
};

G_DEFINE_FINAL_TYPE (AdbscopeAgentLink, adbscope_agent_link, G_TYPE_OBJECT)

enum {
  SIGNAL_CONNECTED,
  SIGNAL_DISCONNECTED,
  SIGNAL_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void attempt_start (AdbscopeAgentLink *self);
static void read_next     (Stream            *stream);

static Attempt *
attempt_ref (Attempt *a)
{
  g_atomic_ref_count_inc (&a->ref);
  return a;
}

static void
attempt_unref (Attempt *a)
{
  if (!g_atomic_ref_count_dec (&a->ref))
    return;
  for (guint i = 0; i < N_STREAMS; i++)
    {
      if (a->streams[i].conn != NULL)
        g_io_stream_close (G_IO_STREAM (a->streams[i].conn), NULL, NULL);
      g_clear_object (&a->streams[i].conn);
      g_free (a->streams[i].buf);
    }
  g_byte_array_unref (a->acc);
  g_object_unref (a->cancellable);
  g_free (a);
}

/* The attempt is still the link's current one. */
static AdbscopeAgentLink *
attempt_link (Attempt *a)
{
  return a->link != NULL && !g_cancellable_is_cancelled (a->cancellable) ? a->link : NULL;
}

static void
abandon_attempt (AdbscopeAgentLink *self)
{
  Attempt *a = g_steal_pointer (&self->attempt);

  g_clear_handle_id (&self->watchdog_id, g_source_remove);
  if (a == NULL)
    return;
  a->link = NULL;
  g_cancellable_cancel (a->cancellable);
  for (guint i = 0; i < N_STREAMS; i++)
    if (a->streams[i].conn != NULL)
      g_io_stream_close (G_IO_STREAM (a->streams[i].conn), NULL, NULL);
  attempt_unref (a);
}

static gboolean
retry_cb (gpointer data)
{
  AdbscopeAgentLink *self = data;

  self->retry_id = 0;
  attempt_start (self);
  return G_SOURCE_REMOVE;
}

/* The attempt (or the running connection) ended: say so, try again. */
static void
attempt_failed (AdbscopeAgentLink *self,
                const char        *problem)
{
  g_debug ("agent link: %s", problem);
  g_free (self->last_problem);
  self->last_problem = g_strdup (problem);
  abandon_attempt (self);
  if (self->connected)
    {
      self->connected = FALSE;
      adbscope_network_link_lost (self->network, self->last_message_us ? self->last_message_us : g_get_monotonic_time ());
      g_signal_emit (self, signals[SIGNAL_DISCONNECTED], 0);
    }
  if (!self->running || self->retry_id != 0)
    return;
  self->retry_id = g_timeout_add (self->backoff_ms, retry_cb, self);
  self->backoff_ms = MIN (self->backoff_ms * 2, BACKOFF_MAX_MS);
}

static void
give_up (AdbscopeAgentLink *self,
         GError            *error)
{
  g_clear_error (&self->fatal);
  self->fatal = error;
  self->running = FALSE;
  attempt_failed (self, error->message);
  g_signal_emit (self, signals[SIGNAL_FAILED], 0, self->fatal);
}

/* Protocol 1 only; an agent older than this desktop must be replaced
 * (a debug-signed agent cannot be updated in place by a release one). */
gboolean
adbscope_agent_check_hello (const Adbscope__Agent__V1__Hello  *hello,
                            GError                           **error)
{
  return adbscope_agent_check_hello_token (hello, NULL, error);
}

static void
set_impostor (GError    **error,
              const char *token)
{
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_IMPOSTOR,
               _("Something else answers on the agent's socket: its hello does not carry the token this "
                 "capture gave the Adbscope agent (%s). Another app on the phone may have taken the name "
                 "“%s” first; the capture stops rather than trust it"),
               token != NULL && token[0] ? _("it sent another one") : _("it sent none"),
               ADBSCOPE_AGENT_SOCKET);
}

/* With @token (the one `am start … -e token` gave): the hello must echo
 * it, or another app bound the agent's abstract socket name first. */
gboolean
adbscope_agent_check_hello_token (const Adbscope__Agent__V1__Hello  *hello,
                                  const char                        *token,
                                  GError                           **error)
{
  gint64 theirs, ours = adbscope_agent_version_code (PACKAGE_VERSION);
  const char *echoed = hello->instance_token != NULL ? hello->instance_token : "";

  if (hello->protocol_version != ADBSCOPE__AGENT__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_PROTOCOL,
                   _("The agent speaks protocol version %u; this Adbscope speaks version %u. "
                     "Install the matching agent with “adbscope agent install --replace”"),
                   hello->protocol_version, ADBSCOPE__AGENT__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
      return FALSE;
    }
  /* A wrong token is another app; no token at all may also be our own
   * older agent, which the version check below names better. */
  if (token != NULL && echoed[0] != '\0' && !g_str_equal (echoed, token))
    {
      set_impostor (error, echoed);
      return FALSE;
    }
  theirs = adbscope_agent_version_code (hello->agent_version);
  if (theirs < ours)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED,
                   _("The agent on the device is version %s, older than this Adbscope (%s). "
                     "Replace it with “adbscope agent install --replace”"),
                   hello->agent_version && hello->agent_version[0] ? hello->agent_version : "?", PACKAGE_VERSION);
      return FALSE;
    }
  if (token != NULL && !g_str_equal (echoed, token))
    {
      set_impostor (error, echoed);
      return FALSE;
    }
  return TRUE;
}

static gboolean
watchdog_cb (gpointer data)
{
  AdbscopeAgentLink *self = data;
  gint64 limit = self->connected ? (gint64) STALL_INTERVALS * MAX (self->interval_ms, 200) * 1000
                                 : (gint64) HELLO_TIMEOUT_MS * 1000;

  if (g_get_monotonic_time () - self->last_message_us < limit)
    return G_SOURCE_CONTINUE;
  self->watchdog_id = 0;
  attempt_failed (self, self->connected ? _("The agent stopped sending snapshots")
                                        : _("The agent did not say hello"));
  return G_SOURCE_REMOVE;
}

static void
handle_message (AdbscopeAgentLink    *self,
                AdbscopeAgentMessage *msg)
{
  GError *error = NULL;

  self->last_message_us = g_get_monotonic_time ();
  switch (msg->payload_case)
    {
    case ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO:
      if (!adbscope_agent_check_hello_token (msg->hello, self->token, &error))
        {
          give_up (self, error);
          return;
        }
      self->interval_ms = msg->hello->snapshot_interval_ms ? msg->hello->snapshot_interval_ms : 1000;
      adbscope_network_begin_run (self->network, msg->hello);
      self->connected = TRUE;
      self->backoff_ms = BACKOFF_MIN_MS;
      self->hellos++;
      g_signal_emit (self, signals[SIGNAL_CONNECTED], 0);
      break;
    case ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT:
      if (!self->connected)
        {
          attempt_failed (self, _("The agent sent a snapshot before its hello"));
          return;
        }
      adbscope_network_apply_snapshot (self->network, msg->snapshot, self->last_message_us);
      break;
    default:
      /* A newer agent's message: compatible by the protocol's rules. */
      break;
    }
}

/* Decodes every whole frame received; FALSE when the attempt ended. */
static gboolean
drain_frames (Attempt *a)
{
  gsize off = 0;

  for (;;)
    {
      AdbscopeAgentLink *self = attempt_link (a);
      g_autoptr(AdbscopeAgentMessage) msg = NULL;
      g_autoptr(GError) error = NULL;
      gsize consumed = 0;

      if (self == NULL)
        return FALSE;
      switch (adbscope_agent_frame_decode (a->acc->data + off, a->acc->len - off, &consumed, &msg, &error))
        {
        case ADBSCOPE_AGENT_FRAME_NEED_MORE:
          g_byte_array_remove_range (a->acc, 0, (guint) off);
          return TRUE;
        case ADBSCOPE_AGENT_FRAME_MALFORMED:
          attempt_failed (self, error->message);
          return FALSE;
        case ADBSCOPE_AGENT_FRAME_MESSAGE:
          off += consumed;
          handle_message (self, msg);
          break;
        }
    }
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Stream *stream = user_data;
  Attempt *a = stream->attempt;
  g_autoptr(GError) error = NULL;
  AdbscopeAgentLink *self;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  self = attempt_link (a);
  if (self == NULL)
    {
      attempt_unref (a);
      return;
    }
  if (n <= 0)
    {
      g_autofree char *problem = n < 0 ? g_strdup (error->message)
                               : g_strdup (stream->kind == STREAM_SNAP ? _("The agent closed the snapshot stream")
                                                                       : _("The agent closed the pcap stream"));

      attempt_failed (self, problem);
      attempt_unref (a);
      return;
    }
  if (stream->kind == STREAM_SNAP)
    {
      g_byte_array_append (a->acc, stream->buf, (guint) n);
      if (!drain_frames (a))
        {
          attempt_unref (a);
          return;
        }
    }
  else if (!adbscope_pcap_writer_feed (self->pcap, stream->buf, n, &error))
    {
      /* A file we cannot write (disk full) ends the capture, not the run. */
      if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO))
        give_up (self, g_steal_pointer (&error));
      else
        attempt_failed (self, error->message);
      attempt_unref (a);
      return;
    }
  else
    adbscope_network_set_pcap_packets (self->network, adbscope_pcap_writer_get_packets (self->pcap));
  read_next (stream);
  attempt_unref (a);
}

static void
read_next (Stream *stream)
{
  Attempt *a = stream->attempt;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (stream->conn));

  g_input_stream_read_async (in, stream->buf, READ_SIZE, G_PRIORITY_DEFAULT, a->cancellable,
                             read_cb, stream);
  attempt_ref (a);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Stream *stream = user_data;
  Attempt *a = stream->attempt;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) conn = NULL;
  AdbscopeAgentLink *self;

  conn = g_socket_client_connect_finish (G_SOCKET_CLIENT (object), result, &error);
  self = attempt_link (a);
  if (self == NULL)
    {
      attempt_unref (a);
      return;
    }
  if (conn == NULL && self->server_host != NULL)
    {
      g_autofree char *problem =
        g_strdup_printf (_("The adb forward to the agent is on the adb server's machine (%s, port %d) and does not "
                           "answer from here: start that server with “adb -a” so its forwards listen on the "
                           "network (%s)"), self->server_host, stream->port, error->message);

      attempt_failed (self, problem);
      attempt_unref (a);
      return;
    }
  if (conn == NULL)
    {
      attempt_failed (self, error->message);
      attempt_unref (a);
      return;
    }
  stream->conn = g_steal_pointer (&conn);
  stream->buf = g_malloc (READ_SIZE);
  if (stream->kind == STREAM_PCAP)
    adbscope_pcap_writer_begin_stream (self->pcap);
  read_next (stream);
  attempt_unref (a);
}

static void
connect_streams (AdbscopeAgentLink *self)
{
  Attempt *a = self->attempt;
  g_autoptr(GSocketClient) client = g_socket_client_new ();

  /* No socket timeout: it would apply to every read, and a quiet app's
   * pcap stream is silent for long.  The watchdog covers a stall.  No
   * proxy: the forward is on loopback (and the proxy resolver would run
   * libproxy in a thread for every attempt). */
  g_socket_client_set_enable_proxy (client, FALSE);
  self->last_message_us = g_get_monotonic_time ();
  self->watchdog_id = g_timeout_add (250, watchdog_cb, self);
  for (guint i = 0; i < a->n_streams; i++)
    {
      Stream *s = &a->streams[i];
      g_autoptr(GSocketConnectable) target = NULL;

      if (self->direct[i] != NULL)
        target = G_SOCKET_CONNECTABLE (g_object_ref (self->direct[i]));
      else if (self->server_host != NULL)
        /* A remote adb server's forward listens on ITS machine (on every
         * interface only when that server runs with -a). */
        target = g_network_address_new (self->server_host, (guint16) s->port);
      else
        {
          g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);

          target = G_SOCKET_CONNECTABLE (g_inet_socket_address_new (lo, (guint16) s->port));
        }
      g_socket_client_connect_async (client, target, a->cancellable, connect_cb, s);
      attempt_ref (a);
    }
}

static const char *
stream_socket (guint kind)
{
  return kind == STREAM_SNAP ? ADBSCOPE_AGENT_SOCKET : ADBSCOPE_AGENT_PCAP_SOCKET;
}

static void next_forward (Attempt *a);

static void
forward_create_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Attempt *a = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  AdbscopeAgentLink *self;
  Stream *s = &a->streams[a->next_forward];
  guint64 port = 0;
  int status = -1;

  out = adbscope_adb_run_finish (result, &status, &err, &error);
  self = attempt_link (a);
  if (self == NULL)
    {
      attempt_unref (a);
      return;
    }
  if (out != NULL && status == 0 && g_ascii_string_to_unsigned (g_strstrip (out), 10, 1, 65535, &port, NULL))
    {
      int p = (int) port;

      s->port = p;
      g_array_append_val (self->created_ports, p);
      a->next_forward++;
      next_forward (a);
    }
  else
    {
      g_autofree char *line = err ? g_strdup (g_strstrip (err)) : NULL;
      g_autofree char *problem = g_strdup_printf (_("adb forward failed: %s"),
                                                  error ? error->message : line && *line ? line : _("no output"));

      attempt_failed (self, problem);
    }
  attempt_unref (a);
}

static void
forward_list_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Attempt *a = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  AdbscopeAgentLink *self;
  Stream *s = &a->streams[a->next_forward];
  int status = -1;

  out = adbscope_adb_run_finish (result, &status, NULL, &error);
  self = attempt_link (a);
  if (self == NULL)
    {
      attempt_unref (a);
      return;
    }
  s->port = out != NULL && status == 0 ? adbscope_agent_parse_forward_list (out, self->serial, stream_socket (s->kind)) : -1;
  if (s->port > 0)
    {
      a->next_forward++;
      next_forward (a);
    }
  else
    {
      g_autofree char *local = g_strdup ("tcp:0");
      g_autofree char *remote = g_strconcat ("localabstract:", stream_socket (s->kind), NULL);
      const char *args[] = { "forward", local, remote, NULL };

      adbscope_adb_run_async (self->serial, args, a->cancellable, forward_create_cb, attempt_ref (a));
    }
  attempt_unref (a);
}

/* Resolves the forwards one after the other, then connects. */
static void
next_forward (Attempt *a)
{
  AdbscopeAgentLink *self = a->link;
  const char *args[] = { "forward", "--list", NULL };

  while (a->next_forward < a->n_streams && self->direct[a->next_forward] != NULL)
    a->next_forward++;
  if (a->next_forward == a->n_streams)
    {
      connect_streams (self);
      return;
    }
  adbscope_adb_run_async (self->serial, args, a->cancellable, forward_list_cb, attempt_ref (a));
}

static void
attempt_start (AdbscopeAgentLink *self)
{
  Attempt *a = g_new0 (Attempt, 1);

  g_assert (self->attempt == NULL);
  g_atomic_ref_count_init (&a->ref);
  a->link = self;
  a->cancellable = g_cancellable_new ();
  a->acc = g_byte_array_new ();
  a->n_streams = self->pcap != NULL ? 2 : 1;
  for (guint i = 0; i < N_STREAMS; i++)
    {
      a->streams[i].attempt = a;
      a->streams[i].kind = i;
      a->streams[i].port = -1;
    }
  self->attempt = a;
  next_forward (a);
}

void
adbscope_agent_link_start (AdbscopeAgentLink *self)
{
  g_return_if_fail (ADBSCOPE_IS_AGENT_LINK (self));
  g_return_if_fail (!self->running);

  self->running = TRUE;
  self->backoff_ms = BACKOFF_MIN_MS;
  g_clear_error (&self->fatal);
  attempt_start (self);
}

/* Closes the streams and removes the forwards this link made (and only
 * those: a forward someone else made stays). */
void
adbscope_agent_link_stop (AdbscopeAgentLink *self)
{
  g_return_if_fail (ADBSCOPE_IS_AGENT_LINK (self));

  self->running = FALSE;
  g_clear_handle_id (&self->retry_id, g_source_remove);
  abandon_attempt (self);
  if (self->connected)
    {
      self->connected = FALSE;
      g_signal_emit (self, signals[SIGNAL_DISCONNECTED], 0);
    }
  for (guint i = 0; i < self->created_ports->len; i++)
    {
      g_autofree char *local = g_strdup_printf ("tcp:%d", g_array_index (self->created_ports, int, i));
      const char *args[] = { "forward", "--remove", local, NULL };

      g_free (adbscope_adb_run_sync (self->serial, args, NULL, NULL, NULL, NULL));
    }
  g_array_set_size (self->created_ports, 0);
}

void
adbscope_agent_link_set_addresses (AdbscopeAgentLink *self,
                                   GSocketAddress    *snapshots,
                                   GSocketAddress    *pcap)
{
  g_return_if_fail (ADBSCOPE_IS_AGENT_LINK (self));
  g_return_if_fail (!self->running);

  g_set_object (&self->direct[STREAM_SNAP], snapshots);
  g_set_object (&self->direct[STREAM_PCAP], pcap);
}

/* Opens (truncates) @path now, so a file that cannot be written is an
 * error before anything starts. */
gboolean
adbscope_agent_link_set_pcap_file (AdbscopeAgentLink  *self,
                                   const char         *path,
                                   GError            **error)
{
  AdbscopePcapWriter *writer;

  g_return_val_if_fail (ADBSCOPE_IS_AGENT_LINK (self), FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  writer = adbscope_pcap_writer_new (path, error);
  if (writer == NULL)
    return FALSE;
  g_clear_pointer (&self->pcap, adbscope_pcap_writer_free);
  self->pcap = writer;
  adbscope_network_set_pcap (self->network, path);
  return TRUE;
}

gboolean
adbscope_agent_link_is_connected (AdbscopeAgentLink *self)
{
  return self->connected;
}

guint
adbscope_agent_link_get_reconnects (AdbscopeAgentLink *self)
{
  return self->hellos > 0 ? self->hellos - 1 : 0;
}

const GError *
adbscope_agent_link_get_error (AdbscopeAgentLink *self)
{
  return self->fatal;
}

const char *
adbscope_agent_link_get_last_problem (AdbscopeAgentLink *self)
{
  return self->last_problem;
}

guint64
adbscope_agent_link_get_pcap_packets (AdbscopeAgentLink *self)
{
  return self->pcap ? adbscope_pcap_writer_get_packets (self->pcap) : 0;
}

guint64
adbscope_agent_link_get_pcap_stream_packets (AdbscopeAgentLink *self)
{
  return self->pcap ? adbscope_pcap_writer_get_stream_packets (self->pcap) : 0;
}

static void
adbscope_agent_link_dispose (GObject *object)
{
  AdbscopeAgentLink *self = ADBSCOPE_AGENT_LINK (object);

  if (self->running || self->created_ports->len > 0)
    adbscope_agent_link_stop (self);
  g_clear_object (&self->network);
  g_clear_object (&self->direct[STREAM_SNAP]);
  g_clear_object (&self->direct[STREAM_PCAP]);
  G_OBJECT_CLASS (adbscope_agent_link_parent_class)->dispose (object);
}

static void
adbscope_agent_link_finalize (GObject *object)
{
  AdbscopeAgentLink *self = ADBSCOPE_AGENT_LINK (object);

  g_clear_pointer (&self->pcap, adbscope_pcap_writer_free);
  g_array_unref (self->created_ports);
  g_clear_error (&self->fatal);
  g_free (self->last_problem);
  g_free (self->token);
  g_free (self->serial);
  g_free (self->server_host);
  G_OBJECT_CLASS (adbscope_agent_link_parent_class)->finalize (object);
}

static void
adbscope_agent_link_class_init (AdbscopeAgentLinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_agent_link_dispose;
  object_class->finalize = adbscope_agent_link_finalize;

  /* a Hello was accepted (again, after a reconnect) */
  signals[SIGNAL_CONNECTED] =
    g_signal_new ("connected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_DISCONNECTED] =
    g_signal_new ("disconnected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (const GError *): the link gave up (wrong protocol, old agent, pcap file) */
  signals[SIGNAL_FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
adbscope_agent_link_init (AdbscopeAgentLink *self)
{
  self->created_ports = g_array_new (FALSE, FALSE, sizeof (int));
  self->backoff_ms = BACKOFF_MIN_MS;
}

void
adbscope_agent_link_set_token (AdbscopeAgentLink *self,
                               const char        *token)
{
  g_return_if_fail (ADBSCOPE_IS_AGENT_LINK (self));
  g_free (self->token);
  self->token = g_strdup (token);
}

AdbscopeAgentLink *
adbscope_agent_link_new (const char      *serial,
                         AdbscopeNetwork *network)
{
  AdbscopeAgentLink *self;

  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (network), NULL);

  self = g_object_new (ADBSCOPE_TYPE_AGENT_LINK, NULL);
  self->serial = g_strdup (serial);
  self->server_host = adbscope_adb_dup_server_host ();
  self->network = g_object_ref (network);
  return self;
}
