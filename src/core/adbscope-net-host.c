/* adbscope-net-host.c: per-host totals (payload bytes, the app's view)
 *
 * host is the name the agent learned for the connections (SNI, HTTP Host,
 * DNS answer), or their remote address when no name was learned; host-source
 * says how ("TLS_SNI", "HTTP_HOST", "DNS_ANSWER", or NULL for an address).
 */
#include "config.h"

#include "adbscope-net-host.h"

struct _AdbscopeNetHost
{
  GObject  parent_instance;
  char    *host;
  char    *host_source;
  guint64  bytes_up;
  guint64  bytes_down;
  guint    connections;
  guint    failures;
};

G_DEFINE_FINAL_TYPE (AdbscopeNetHost, adbscope_net_host, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_HOST,
  PROP_HOST_SOURCE,
  PROP_BYTES_UP,
  PROP_BYTES_DOWN,
  PROP_CONNECTIONS,
  PROP_FAILURES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

AdbscopeNetHost *
adbscope_net_host_new (const char *host)
{
  AdbscopeNetHost *self = g_object_new (ADBSCOPE_TYPE_NET_HOST, NULL);

  self->host = g_strdup (host);
  return self;
}

const char *
adbscope_net_host_get_host (AdbscopeNetHost *self)
{
  return self->host;
}

const char *
adbscope_net_host_get_host_source (AdbscopeNetHost *self)
{
  return self->host_source;
}

guint64
adbscope_net_host_get_bytes_up (AdbscopeNetHost *self)
{
  return self->bytes_up;
}

guint64
adbscope_net_host_get_bytes_down (AdbscopeNetHost *self)
{
  return self->bytes_down;
}

guint
adbscope_net_host_get_connections (AdbscopeNetHost *self)
{
  return self->connections;
}

guint
adbscope_net_host_get_failures (AdbscopeNetHost *self)
{
  return self->failures;
}

void
adbscope_net_host_set_totals (AdbscopeNetHost *self,
                              const char      *host_source,
                              guint64          bytes_up,
                              guint64          bytes_down,
                              guint            connections,
                              guint            failures)
{
  GObject *o = G_OBJECT (self);

  g_return_if_fail (ADBSCOPE_IS_NET_HOST (self));

  g_object_freeze_notify (o);
  if (g_strcmp0 (self->host_source, host_source) != 0)
    {
      g_free (self->host_source);
      self->host_source = g_strdup (host_source);
      g_object_notify_by_pspec (o, properties[PROP_HOST_SOURCE]);
    }
#define UPDATE(field, prop) \
  if (self->field != field) { self->field = field; g_object_notify_by_pspec (o, properties[prop]); }
  UPDATE (bytes_up, PROP_BYTES_UP);
  UPDATE (bytes_down, PROP_BYTES_DOWN);
  UPDATE (connections, PROP_CONNECTIONS);
  UPDATE (failures, PROP_FAILURES);
#undef UPDATE
  g_object_thaw_notify (o);
}

static void
adbscope_net_host_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AdbscopeNetHost *self = ADBSCOPE_NET_HOST (object);

  switch (prop_id)
    {
    case PROP_HOST: g_value_set_string (value, self->host); break;
    case PROP_HOST_SOURCE: g_value_set_string (value, self->host_source); break;
    case PROP_BYTES_UP: g_value_set_uint64 (value, self->bytes_up); break;
    case PROP_BYTES_DOWN: g_value_set_uint64 (value, self->bytes_down); break;
    case PROP_CONNECTIONS: g_value_set_uint (value, self->connections); break;
    case PROP_FAILURES: g_value_set_uint (value, self->failures); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_net_host_finalize (GObject *object)
{
  AdbscopeNetHost *self = ADBSCOPE_NET_HOST (object);

  g_free (self->host);
  g_free (self->host_source);
  G_OBJECT_CLASS (adbscope_net_host_parent_class)->finalize (object);
}

#define RO (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

static void
adbscope_net_host_class_init (AdbscopeNetHostClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = adbscope_net_host_get_property;
  object_class->finalize = adbscope_net_host_finalize;
  properties[PROP_HOST] = g_param_spec_string ("host", NULL, NULL, NULL, RO);
  properties[PROP_HOST_SOURCE] = g_param_spec_string ("host-source", NULL, NULL, NULL, RO);
  properties[PROP_BYTES_UP] = g_param_spec_uint64 ("bytes-up", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_BYTES_DOWN] = g_param_spec_uint64 ("bytes-down", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_CONNECTIONS] = g_param_spec_uint ("connections", NULL, NULL, 0, G_MAXUINT, 0, RO);
  properties[PROP_FAILURES] = g_param_spec_uint ("failures", NULL, NULL, 0, G_MAXUINT, 0, RO);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_net_host_init (AdbscopeNetHost *self)
{
}
