/* adbscope-dns-lookup.c: one DNS lookup of the watched app
 *
 * result is the protocol's code without its prefix (NOERROR, NXDOMAIN,
 * SERVFAIL, FAILED, OTHER); anything but NOERROR is a failure.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-connection-private.h"
#include "adbscope-network.h"
#include "adbscope-dns-lookup-private.h"

struct _AdbscopeDnsLookup
{
  GObject   parent_instance;

  guint64   id;
  int       uid;
  char     *name;
  guint     qtype;
  char    **answers;
  double    latency_ms;
  char     *result;
  guint     rcode;
  gint64    time_ms;
  gboolean  via_fake_resolver;
};

G_DEFINE_FINAL_TYPE (AdbscopeDnsLookup, adbscope_dns_lookup, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_UID,
  PROP_NAME,
  PROP_QTYPE,
  PROP_QTYPE_NAME,
  PROP_ANSWERS,
  PROP_LATENCY_MS,
  PROP_RESULT,
  PROP_RCODE,
  PROP_TIME_MS,
  PROP_VIA_FAKE_RESOLVER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
strv_equal (char       **a,
            char * const *b,
            gsize        n_b)
{
  gsize n_a = a ? g_strv_length (a) : 0;

  if (n_a != n_b)
    return FALSE;
  for (gsize i = 0; i < n_a; i++)
    if (g_strcmp0 (a[i], b[i]) != 0)
      return FALSE;
  return TRUE;
}

gboolean
_adbscope_dns_lookup_update (AdbscopeDnsLookup                    *self,
                             const Adbscope__Agent__V1__DnsLookup *d)
{
  GObject *o = G_OBJECT (self);
  char buf[32];
  const char *result = _adbscope_agent_enum_name (&adbscope__agent__v1__dns_result__descriptor, d->result, buf, sizeof buf);
  double latency_ms = d->latency_us / 1000.0;
  gboolean changed = FALSE;

  g_object_freeze_notify (o);
#define UPDATE(field, value, prop) \
  if (self->field != (value)) { self->field = (value); g_object_notify_by_pspec (o, properties[prop]); changed = TRUE; }
  UPDATE (uid, d->uid, PROP_UID);
  UPDATE (rcode, d->rcode, PROP_RCODE);
  UPDATE (time_ms, (gint64) d->time_ms, PROP_TIME_MS);
  UPDATE (via_fake_resolver, (gboolean) d->via_fake_resolver, PROP_VIA_FAKE_RESOLVER);
  UPDATE (latency_ms, latency_ms, PROP_LATENCY_MS);
  if (self->qtype != d->qtype)
    {
      self->qtype = d->qtype;
      g_object_notify_by_pspec (o, properties[PROP_QTYPE]);
      g_object_notify_by_pspec (o, properties[PROP_QTYPE_NAME]);
      changed = TRUE;
    }
#undef UPDATE
  if (g_strcmp0 (self->name, d->name) != 0)
    {
      g_free (self->name);
      /* hostile input: bounded (adbscope-network.h) */
      self->name = g_utf8_make_valid (d->name ? d->name : "", (gssize) strnlen (d->name ? d->name : "", ADBSCOPE_NETWORK_MAX_TEXT));
      g_object_notify_by_pspec (o, properties[PROP_NAME]);
      changed = TRUE;
    }
  if (g_strcmp0 (self->result, result) != 0)
    {
      g_free (self->result);
      self->result = g_strdup (result);
      g_object_notify_by_pspec (o, properties[PROP_RESULT]);
      changed = TRUE;
    }
  if (!strv_equal (self->answers, d->answers, d->n_answers))
    {
      gsize n = MIN (d->n_answers, 32);

      g_strfreev (self->answers);
      self->answers = g_new0 (char *, n + 1);
      for (gsize i = 0; i < n; i++)
        self->answers[i] = g_utf8_make_valid (d->answers[i], (gssize) strnlen (d->answers[i], ADBSCOPE_NETWORK_MAX_TEXT));
      g_object_notify_by_pspec (o, properties[PROP_ANSWERS]);
      changed = TRUE;
    }
  g_object_thaw_notify (o);
  return changed;
}

AdbscopeDnsLookup *
_adbscope_dns_lookup_new (const Adbscope__Agent__V1__DnsLookup *d)
{
  AdbscopeDnsLookup *self = g_object_new (ADBSCOPE_TYPE_DNS_LOOKUP, NULL);

  self->id = d->id;
  _adbscope_dns_lookup_update (self, d);
  return self;
}

guint64
adbscope_dns_lookup_get_id (AdbscopeDnsLookup *self)
{
  return self->id;
}

const char *
adbscope_dns_lookup_get_name (AdbscopeDnsLookup *self)
{
  return self->name;
}

guint
adbscope_dns_lookup_get_qtype (AdbscopeDnsLookup *self)
{
  return self->qtype;
}

/* "A", "AAAA", …; NULL for a type without a common name. */
const char *
adbscope_dns_lookup_get_qtype_name (AdbscopeDnsLookup *self)
{
  switch (self->qtype)
    {
    case 1: return "A";
    case 5: return "CNAME";
    case 12: return "PTR";
    case 15: return "MX";
    case 16: return "TXT";
    case 28: return "AAAA";
    case 33: return "SRV";
    case 64: return "SVCB";
    case 65: return "HTTPS";
    default: return NULL;
    }
}

const char * const *
adbscope_dns_lookup_get_answers (AdbscopeDnsLookup *self)
{
  return (const char * const *) self->answers;
}

double
adbscope_dns_lookup_get_latency_ms (AdbscopeDnsLookup *self)
{
  return self->latency_ms;
}

const char *
adbscope_dns_lookup_get_result (AdbscopeDnsLookup *self)
{
  return self->result;
}

guint
adbscope_dns_lookup_get_rcode (AdbscopeDnsLookup *self)
{
  return self->rcode;
}

gint64
adbscope_dns_lookup_get_time_ms (AdbscopeDnsLookup *self)
{
  return self->time_ms;
}

gboolean
adbscope_dns_lookup_is_failed (AdbscopeDnsLookup *self)
{
  return self->result != NULL && !g_str_equal (self->result, "NOERROR");
}

static void
adbscope_dns_lookup_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AdbscopeDnsLookup *self = ADBSCOPE_DNS_LOOKUP (object);

  switch (prop_id)
    {
    case PROP_ID: g_value_set_uint64 (value, self->id); break;
    case PROP_UID: g_value_set_int (value, self->uid); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_QTYPE: g_value_set_uint (value, self->qtype); break;
    case PROP_QTYPE_NAME: g_value_set_string (value, adbscope_dns_lookup_get_qtype_name (self)); break;
    case PROP_ANSWERS: g_value_set_boxed (value, self->answers); break;
    case PROP_LATENCY_MS: g_value_set_double (value, self->latency_ms); break;
    case PROP_RESULT: g_value_set_string (value, self->result); break;
    case PROP_RCODE: g_value_set_uint (value, self->rcode); break;
    case PROP_TIME_MS: g_value_set_int64 (value, self->time_ms); break;
    case PROP_VIA_FAKE_RESOLVER: g_value_set_boolean (value, self->via_fake_resolver); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_dns_lookup_finalize (GObject *object)
{
  AdbscopeDnsLookup *self = ADBSCOPE_DNS_LOOKUP (object);

  g_free (self->name);
  g_strfreev (self->answers);
  g_free (self->result);
  G_OBJECT_CLASS (adbscope_dns_lookup_parent_class)->finalize (object);
}

#define RO (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

static void
adbscope_dns_lookup_class_init (AdbscopeDnsLookupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = adbscope_dns_lookup_get_property;
  object_class->finalize = adbscope_dns_lookup_finalize;

  properties[PROP_ID] = g_param_spec_uint64 ("id", NULL, NULL, 0, G_MAXUINT64, 0, RO);
  properties[PROP_UID] = g_param_spec_int ("uid", NULL, NULL, G_MININT, G_MAXINT, -1, RO);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, RO);
  properties[PROP_QTYPE] = g_param_spec_uint ("qtype", NULL, NULL, 0, 65535, 0, RO);
  properties[PROP_QTYPE_NAME] = g_param_spec_string ("qtype-name", NULL, NULL, NULL, RO);
  properties[PROP_ANSWERS] = g_param_spec_boxed ("answers", NULL, NULL, G_TYPE_STRV, RO);
  properties[PROP_LATENCY_MS] = g_param_spec_double ("latency-ms", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_RESULT] = g_param_spec_string ("result", NULL, NULL, NULL, RO);
  properties[PROP_RCODE] = g_param_spec_uint ("rcode", NULL, NULL, 0, G_MAXUINT, 0, RO);
  properties[PROP_TIME_MS] = g_param_spec_int64 ("time-ms", NULL, NULL, 0, G_MAXINT64, 0, RO);
  properties[PROP_VIA_FAKE_RESOLVER] = g_param_spec_boolean ("via-fake-resolver", NULL, NULL, FALSE, RO);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_dns_lookup_init (AdbscopeDnsLookup *self)
{
  self->uid = -1;
  self->answers = g_new0 (char *, 1);
}

/* A copy that no snapshot updates (the paused view). */
AdbscopeDnsLookup *
_adbscope_dns_lookup_copy (AdbscopeDnsLookup *self)
{
  AdbscopeDnsLookup *copy = g_object_new (ADBSCOPE_TYPE_DNS_LOOKUP, NULL);

  copy->id = self->id;
  copy->uid = self->uid;
  copy->name = g_strdup (self->name);
  copy->qtype = self->qtype;
  copy->answers = g_strdupv (self->answers);
  copy->latency_ms = self->latency_ms;
  copy->result = g_strdup (self->result);
  copy->rcode = self->rcode;
  copy->time_ms = self->time_ms;
  copy->via_fake_resolver = self->via_fake_resolver;
  return copy;
}

/* The lookup's result in words ("NXDOMAIN" → "No such name"). */
const char *
adbscope_dns_result_text (const char *code)
{
  if (g_strcmp0 (code, "NOERROR") == 0)
    return _("Answered");
  if (g_strcmp0 (code, "NXDOMAIN") == 0)
    /* Translators: DNS NXDOMAIN */
    return _("No such name");
  if (g_strcmp0 (code, "SERVFAIL") == 0)
    return _("Server failure");
  if (g_strcmp0 (code, "FAILED") == 0)
    return _("No answer");
  return code != NULL ? code : "—";
}
