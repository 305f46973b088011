/* adbscope-connection.c: one connection of the watched app
 *
 * Identity is the agent's id within one agent run (ids restart when the
 * agent does, so the network model keys by run and id).  Codes (protocol,
 * state, host source, failure) are the protocol's enum names without their
 * prefix ("CONNECTION_REFUSED"); failure-text is the translated sentence.
 * Bytes are IP bytes as seen on the TUN device; payload-* is TCP/UDP data.
 */
#include "config.h"

#include <arpa/inet.h>
#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-connection-private.h"
#include "adbscope-network.h"

struct _AdbscopeConnection
{
  GObject  parent_instance;

  guint64  id;
  guint    agent_run;
  char    *protocol;
  char    *local;
  char    *remote;
  char    *remote_address;
  guint    remote_port;
  int      uid;
  char    *host;
  char    *host_source;
  char    *host_key;
  guint64  bytes_up, bytes_down, packets_up, packets_down, payload_up, payload_down;
  char    *state;
  gint64   open_time_ms, close_time_ms;
  char    *failure;
  int      failure_errno;
};

G_DEFINE_FINAL_TYPE (AdbscopeConnection, adbscope_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_AGENT_RUN,
  PROP_PROTOCOL,
  PROP_LOCAL,
  PROP_REMOTE,
  PROP_REMOTE_ADDRESS,
  PROP_REMOTE_PORT,
  PROP_UID,
  PROP_HOST,
  PROP_HOST_SOURCE,
  PROP_BYTES_UP,
  PROP_BYTES_DOWN,
  PROP_PACKETS_UP,
  PROP_PACKETS_DOWN,
  PROP_PAYLOAD_UP,
  PROP_PAYLOAD_DOWN,
  PROP_STATE,
  PROP_OPEN_TIME_MS,
  PROP_CLOSE_TIME_MS,
  PROP_FAILURE,
  PROP_FAILURE_TEXT,
  PROP_FAILURE_ERRNO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
_adbscope_agent_enum_name (const ProtobufCEnumDescriptor *desc,
                           int                            value,
                           char                          *buf,
                           gsize                          buf_len)
{
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value (desc, value);
  const char *s;
  gsize skip = 0;

  if (value == 0)
    return NULL;
  if (v == NULL)
    {
      g_snprintf (buf, buf_len, "UNKNOWN_%d", value);
      return buf;
    }
  /* "ConnectionState" → skip "CONNECTION_STATE_" of "CONNECTION_STATE_OPEN". */
  for (s = desc->short_name; *s; s++)
    skip += 1 + (s != desc->short_name && g_ascii_isupper (*s));
  skip++;
  return strlen (v->name) > skip ? v->name + skip : v->name;
}

char *
_adbscope_endpoint_to_string (const Adbscope__Agent__V1__Endpoint *ep,
                              gboolean                             with_port)
{
  char text[INET6_ADDRSTRLEN] = "?";

  if (ep == NULL)
    return g_strdup ("?");
  if (ep->address.len == 4)
    inet_ntop (AF_INET, ep->address.data, text, sizeof text);
  else if (ep->address.len == 16)
    inet_ntop (AF_INET6, ep->address.data, text, sizeof text);
  if (!with_port)
    return g_strdup (text);
  return g_strdup_printf (ep->address.len == 16 ? "[%s]:%u" : "%s:%u", text, ep->port);
}

/* Text from the agent (hostile input): at most ADBSCOPE_NETWORK_MAX_TEXT
 * bytes, valid UTF-8. */
static char *
bounded_text (const char *value)
{
  gsize n;

  if (value == NULL)
    return NULL;
  n = strnlen (value, ADBSCOPE_NETWORK_MAX_TEXT + 1);
  if (n <= ADBSCOPE_NETWORK_MAX_TEXT && g_utf8_validate (value, (gssize) n, NULL))
    return g_strndup (value, n);
  return g_utf8_make_valid (value, (gssize) MIN (n, ADBSCOPE_NETWORK_MAX_TEXT));
}

static gboolean
set_str (AdbscopeConnection *self,
         char              **field,
         const char         *value,
         guint               prop)
{
  g_autofree char *bounded = bounded_text (value);

  if (g_strcmp0 (*field, bounded) == 0)
    return FALSE;
  g_free (*field);
  *field = g_steal_pointer (&bounded);
  if (prop)
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

static gboolean
set_u64 (AdbscopeConnection *self,
         guint64            *field,
         guint64             value,
         guint               prop)
{
  if (*field == value)
    return FALSE;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

static gboolean
set_i64 (AdbscopeConnection *self,
         gint64             *field,
         gint64              value,
         guint               prop)
{
  if (*field == value)
    return FALSE;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

gboolean
_adbscope_connection_update (AdbscopeConnection                    *self,
                             const Adbscope__Agent__V1__Connection *c)
{
  char buf[32];
  const char *host = c->host != NULL && c->host[0] ? c->host : NULL;
  gboolean changed = FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  /* A connection's endpoints and protocol are its identity: they never
   * change for one id, so they are read once (snapshots come every second
   * for every open connection). */
  if (self->remote == NULL)
    {
      g_autofree char *local = _adbscope_endpoint_to_string (c->source, TRUE);
      g_autofree char *remote = _adbscope_endpoint_to_string (c->destination, TRUE);
      g_autofree char *remote_address = _adbscope_endpoint_to_string (c->destination, FALSE);

      changed |= set_str (self, &self->protocol,
                          _adbscope_agent_enum_name (&adbscope__agent__v1__protocol__descriptor, c->protocol, buf, sizeof buf),
                          PROP_PROTOCOL);
      changed |= set_str (self, &self->local, local, PROP_LOCAL);
      changed |= set_str (self, &self->remote, remote, PROP_REMOTE);
      changed |= set_str (self, &self->remote_address, remote_address, PROP_REMOTE_ADDRESS);
    }
  if (self->remote_port != (c->destination ? c->destination->port : 0))
    {
      self->remote_port = c->destination ? c->destination->port : 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMOTE_PORT]);
      changed = TRUE;
    }
  if (self->uid != c->uid)
    {
      self->uid = c->uid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UID]);
      changed = TRUE;
    }
  changed |= set_str (self, &self->host, host, PROP_HOST);
  changed |= set_str (self, &self->host_source,
                      _adbscope_agent_enum_name (&adbscope__agent__v1__host_source__descriptor, c->host_source, buf, sizeof buf),
                      PROP_HOST_SOURCE);
  set_str (self, &self->host_key, host ? host : self->remote_address, 0);
  changed |= set_u64 (self, &self->bytes_up, c->bytes_up, PROP_BYTES_UP);
  changed |= set_u64 (self, &self->bytes_down, c->bytes_down, PROP_BYTES_DOWN);
  changed |= set_u64 (self, &self->packets_up, c->packets_up, PROP_PACKETS_UP);
  changed |= set_u64 (self, &self->packets_down, c->packets_down, PROP_PACKETS_DOWN);
  changed |= set_u64 (self, &self->payload_up, c->payload_up, PROP_PAYLOAD_UP);
  changed |= set_u64 (self, &self->payload_down, c->payload_down, PROP_PAYLOAD_DOWN);
  changed |= set_str (self, &self->state,
                      _adbscope_agent_enum_name (&adbscope__agent__v1__connection_state__descriptor, c->state, buf, sizeof buf),
                      PROP_STATE);
  changed |= set_i64 (self, &self->open_time_ms, (gint64) c->open_time_ms, PROP_OPEN_TIME_MS);
  changed |= set_i64 (self, &self->close_time_ms, (gint64) c->close_time_ms, PROP_CLOSE_TIME_MS);
  if (set_str (self, &self->failure,
               _adbscope_agent_enum_name (&adbscope__agent__v1__failure__descriptor, c->failure, buf, sizeof buf),
               PROP_FAILURE))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FAILURE_TEXT]);
      changed = TRUE;
    }
  if (self->failure_errno != c->failure_errno)
    {
      self->failure_errno = c->failure_errno;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FAILURE_ERRNO]);
      changed = TRUE;
    }
  g_object_thaw_notify (G_OBJECT (self));
  return changed;
}

AdbscopeConnection *
_adbscope_connection_new (guint                                  agent_run,
                          const Adbscope__Agent__V1__Connection *c)
{
  AdbscopeConnection *self = g_object_new (ADBSCOPE_TYPE_CONNECTION, NULL);

  self->id = c->id;
  self->agent_run = agent_run;
  _adbscope_connection_update (self, c);
  return self;
}

guint64 adbscope_connection_get_id (AdbscopeConnection *self) { return self->id; }
guint adbscope_connection_get_agent_run (AdbscopeConnection *self) { return self->agent_run; }
const char *adbscope_connection_get_protocol (AdbscopeConnection *self) { return self->protocol; }
const char *adbscope_connection_get_local (AdbscopeConnection *self) { return self->local; }
const char *adbscope_connection_get_remote (AdbscopeConnection *self) { return self->remote; }
const char *adbscope_connection_get_remote_address (AdbscopeConnection *self) { return self->remote_address; }
guint adbscope_connection_get_remote_port (AdbscopeConnection *self) { return self->remote_port; }
int adbscope_connection_get_uid (AdbscopeConnection *self) { return self->uid; }
const char *adbscope_connection_get_host (AdbscopeConnection *self) { return self->host; }
const char *adbscope_connection_get_host_source (AdbscopeConnection *self) { return self->host_source; }
guint64 adbscope_connection_get_bytes_up (AdbscopeConnection *self) { return self->bytes_up; }
guint64 adbscope_connection_get_bytes_down (AdbscopeConnection *self) { return self->bytes_down; }
guint64 adbscope_connection_get_packets_up (AdbscopeConnection *self) { return self->packets_up; }
guint64 adbscope_connection_get_packets_down (AdbscopeConnection *self) { return self->packets_down; }
guint64 adbscope_connection_get_payload_up (AdbscopeConnection *self) { return self->payload_up; }
guint64 adbscope_connection_get_payload_down (AdbscopeConnection *self) { return self->payload_down; }
const char *adbscope_connection_get_state (AdbscopeConnection *self) { return self->state; }
gint64 adbscope_connection_get_open_time_ms (AdbscopeConnection *self) { return self->open_time_ms; }
gint64 adbscope_connection_get_close_time_ms (AdbscopeConnection *self) { return self->close_time_ms; }
const char *adbscope_connection_get_failure (AdbscopeConnection *self) { return self->failure; }
int adbscope_connection_get_failure_errno (AdbscopeConnection *self) { return self->failure_errno; }

/* The host the traffic is counted under: the name the agent learned, else
 * the remote address. */
const char *
adbscope_connection_get_host_key (AdbscopeConnection *self)
{
  return self->host_key;
}

/**
 * adbscope_connection_is_failed:
 *
 * The one definition of a failed connection, for the report's
 * failed_connections, the hosts' failures, the timeline's events and the
 * GUI's marks: one that did not get what it asked for — refused, reset,
 * timed out, unreachable, no answer.  A flow the agent closed after it was
 * idle (`IDLE`) is a normal end when anything came back on it (a UDP
 * exchange, a DNS lookup that was answered); older agents, and recordings
 * they made, send `IDLE` for those too.  Without a single packet back it
 * never got an answer, and that is a failure.
 */
gboolean
adbscope_connection_is_failed (AdbscopeConnection *self)
{
  if (g_strcmp0 (self->failure, "IDLE") == 0)
    return self->packets_down == 0;
  return self->failure != NULL || g_strcmp0 (self->state, "FAILED") == 0;
}

/* The agent sends codes; people read this.  NULL for NULL. */
const char *
adbscope_connection_failure_text_for (const char *code)
{
  static const struct { const char *code; const char *text; } texts[] = {
    { "CONNECTION_REFUSED", N_("Connection refused") },
    { "TIMED_OUT", N_("Connection timed out") },
    { "HOST_UNREACHABLE", N_("Host unreachable") },
    { "NETWORK_UNREACHABLE", N_("Network unreachable") },
    { "RESET_BY_SERVER", N_("Reset by the server") },
    { "RESET_BY_APP", N_("Reset by the app") },
    { "SOCKET_ERROR", N_("Socket error") },
    { "PROTECT", N_("The agent could not keep its socket out of the VPN") },
    { "IDLE", N_("Closed after being idle") },
    { "ABORTED", N_("Aborted") },
  };

  if (code == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (g_str_equal (code, texts[i].code))
      return _(texts[i].text);
  return _("Unknown failure");
}

const char *
adbscope_connection_get_failure_text (AdbscopeConnection *self)
{
  return adbscope_connection_failure_text_for (self->failure);
}

static void
adbscope_connection_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AdbscopeConnection *self = ADBSCOPE_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_ID: g_value_set_uint64 (value, self->id); break;
    case PROP_AGENT_RUN: g_value_set_uint (value, self->agent_run); break;
    case PROP_PROTOCOL: g_value_set_string (value, self->protocol); break;
    case PROP_LOCAL: g_value_set_string (value, self->local); break;
    case PROP_REMOTE: g_value_set_string (value, self->remote); break;
    case PROP_REMOTE_ADDRESS: g_value_set_string (value, self->remote_address); break;
    case PROP_REMOTE_PORT: g_value_set_uint (value, self->remote_port); break;
    case PROP_UID: g_value_set_int (value, self->uid); break;
    case PROP_HOST: g_value_set_string (value, self->host); break;
    case PROP_HOST_SOURCE: g_value_set_string (value, self->host_source); break;
    case PROP_BYTES_UP: g_value_set_uint64 (value, self->bytes_up); break;
    case PROP_BYTES_DOWN: g_value_set_uint64 (value, self->bytes_down); break;
    case PROP_PACKETS_UP: g_value_set_uint64 (value, self->packets_up); break;
    case PROP_PACKETS_DOWN: g_value_set_uint64 (value, self->packets_down); break;
    case PROP_PAYLOAD_UP: g_value_set_uint64 (value, self->payload_up); break;
    case PROP_PAYLOAD_DOWN: g_value_set_uint64 (value, self->payload_down); break;
    case PROP_STATE: g_value_set_string (value, self->state); break;
    case PROP_OPEN_TIME_MS: g_value_set_int64 (value, self->open_time_ms); break;
    case PROP_CLOSE_TIME_MS: g_value_set_int64 (value, self->close_time_ms); break;
    case PROP_FAILURE: g_value_set_string (value, self->failure); break;
    case PROP_FAILURE_TEXT: g_value_set_string (value, adbscope_connection_get_failure_text (self)); break;
    case PROP_FAILURE_ERRNO: g_value_set_int (value, self->failure_errno); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_connection_finalize (GObject *object)
{
  AdbscopeConnection *self = ADBSCOPE_CONNECTION (object);

  g_free (self->protocol);
  g_free (self->local);
  g_free (self->remote);
  g_free (self->remote_address);
  g_free (self->host);
  g_free (self->host_source);
  g_free (self->host_key);
  g_free (self->state);
  g_free (self->failure);
  G_OBJECT_CLASS (adbscope_connection_parent_class)->finalize (object);
}

#define RO (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

static void
adbscope_connection_class_init (AdbscopeConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = adbscope_connection_get_property;
  object_class->finalize = adbscope_connection_finalize;

  properties[PROP_ID] = g_param_spec_uint64 ("id", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_AGENT_RUN] = g_param_spec_uint ("agent-run", NULL, NULL, 0, G_MAXUINT, 0, RO);
  properties[PROP_PROTOCOL] = g_param_spec_string ("protocol", NULL, NULL, NULL, RO);
  properties[PROP_LOCAL] = g_param_spec_string ("local", NULL, NULL, NULL, RO);
  properties[PROP_REMOTE] = g_param_spec_string ("remote", NULL, NULL, NULL, RO);
  properties[PROP_REMOTE_ADDRESS] = g_param_spec_string ("remote-address", NULL, NULL, NULL, RO);
  properties[PROP_REMOTE_PORT] = g_param_spec_uint ("remote-port", NULL, NULL, 0, 65535, 0, RO);
  properties[PROP_UID] = g_param_spec_int ("uid", NULL, NULL, -1, G_MAXINT, -1, RO);
  properties[PROP_HOST] = g_param_spec_string ("host", NULL, NULL, NULL, RO);
  properties[PROP_HOST_SOURCE] = g_param_spec_string ("host-source", NULL, NULL, NULL, RO);
  properties[PROP_BYTES_UP] = g_param_spec_uint64 ("bytes-up", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_BYTES_DOWN] = g_param_spec_uint64 ("bytes-down", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_PACKETS_UP] = g_param_spec_uint64 ("packets-up", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_PACKETS_DOWN] = g_param_spec_uint64 ("packets-down", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_PAYLOAD_UP] = g_param_spec_uint64 ("payload-up", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_PAYLOAD_DOWN] = g_param_spec_uint64 ("payload-down", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_STATE] = g_param_spec_string ("state", NULL, NULL, NULL, RO);
  properties[PROP_OPEN_TIME_MS] = g_param_spec_int64 ("open-time-ms", NULL, NULL, 0, G_MAXINT64, 0, RO);
  properties[PROP_CLOSE_TIME_MS] = g_param_spec_int64 ("close-time-ms", NULL, NULL, 0, G_MAXINT64, 0, RO);
  properties[PROP_FAILURE] = g_param_spec_string ("failure", NULL, NULL, NULL, RO);
  properties[PROP_FAILURE_TEXT] = g_param_spec_string ("failure-text", NULL, NULL, NULL, RO);
  properties[PROP_FAILURE_ERRNO] = g_param_spec_int ("failure-errno", NULL, NULL, G_MININT, G_MAXINT, 0, RO);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_connection_init (AdbscopeConnection *self)
{
  self->uid = -1;
}

/* A copy that no snapshot updates (the paused view). */
AdbscopeConnection *
_adbscope_connection_copy (AdbscopeConnection *self)
{
  AdbscopeConnection *copy = g_object_new (ADBSCOPE_TYPE_CONNECTION, NULL);

  copy->id = self->id;
  copy->agent_run = self->agent_run;
  copy->protocol = g_strdup (self->protocol);
  copy->local = g_strdup (self->local);
  copy->remote = g_strdup (self->remote);
  copy->remote_address = g_strdup (self->remote_address);
  copy->remote_port = self->remote_port;
  copy->uid = self->uid;
  copy->host = g_strdup (self->host);
  copy->host_source = g_strdup (self->host_source);
  copy->host_key = g_strdup (self->host_key);
  copy->bytes_up = self->bytes_up;
  copy->bytes_down = self->bytes_down;
  copy->packets_up = self->packets_up;
  copy->packets_down = self->packets_down;
  copy->payload_up = self->payload_up;
  copy->payload_down = self->payload_down;
  copy->state = g_strdup (self->state);
  copy->open_time_ms = self->open_time_ms;
  copy->close_time_ms = self->close_time_ms;
  copy->failure = g_strdup (self->failure);
  copy->failure_errno = self->failure_errno;
  return copy;
}
