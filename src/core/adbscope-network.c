/* adbscope-network.c: the agent's snapshots merged into live models
 *
 * Every snapshot is complete on its own (cumulative counters, the open
 * connections and those closed in the last 30 s, the lookups of the last
 * 30 s), so merging is: find each item by (agent run, id), update it in
 * place or append it; nothing the agent stops listing is dropped, because
 * the session keeps the whole run.  Each model emits at most one
 * items-changed per snapshot (the appended items).  Ids restart with the
 * agent, hence the run in the key: a new run is a Hello with another start
 * time.
 *
 * The stream is hostile input (anything on the phone can bind the
 * agent's socket name): the lists kept are capped (adbscope-network.h),
 * what is past a cap counted, and an app byte counter that goes back (or
 * jumps past ADBSCOPE_NETWORK_MAX_RATE) is a reset: a new baseline, never
 * a rate.
 *
 * Honest gaps: while the link is down nothing is invented.  Totals stay
 * right across a gap because the agent's numbers are cumulative; the rate
 * series is not drawn across it (the first snapshot after a gap is only a
 * baseline).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-connection-private.h"
#include "adbscope-delta.h"
#include "adbscope-dns-lookup-private.h"
#include "adbscope-net-host.h"
#include "adbscope-network.h"

typedef Adbscope__Agent__V1__Counters Counters;

struct _AdbscopeNetwork
{
  GObject              parent_instance;

  GListStore          *connections;
  GHashTable          *connection_by_key;   /* item_key () → AdbscopeConnection (borrowed) */
  GListStore          *hosts;
  GHashTable          *host_by_name;        /* host → AdbscopeNetHost (borrowed) */
  GListStore          *dns;
  GHashTable          *dns_by_key;
  GHashTable          *failed_seen;         /* keys already on the timeline */
  GArray              *events;              /* AdbscopeNetEvent */
  GArray              *gaps;                /* AdbscopeNetGap */

  guint                n_runs;
  guint                n_hellos;
  guint64              run_start_ms;
  char                *agent_version;
  char                *agent_platform;
  AdbscopePrivateDns   private_dns;
  gboolean             have_private_dns;
  guint64              n_snapshots;
  guint64              missed_snapshots;
  guint64              last_seq;

  AdbscopeNetDropped   dropped;
  guint64              dropped_conn_mark;   /* highest connection id counted as dropped, this run */
  guint64              dropped_dns_mark;

  AdbscopeNetCounters  done_runs;           /* counters of finished runs */
  AdbscopeNetCounters  this_run;

  /* rate */
  gboolean             have_prev;
  guint64              prev_time_ms;
  guint64              prev_rx, prev_tx;
  gboolean             have_rate;
  gint64               rate_time_us;
  double               rate_rx, rate_tx;
  gboolean             in_gap;

  char                *pcap_file;
  guint64              pcap_packets;
  gint64               clock_offset_us;     /* session µs − agent wall µs */
  guint64              last_time_ms;
};

G_DEFINE_FINAL_TYPE (AdbscopeNetwork, adbscope_network, G_TYPE_OBJECT)

enum {
  SIGNAL_UPDATED,
  SIGNAL_EVENT_ADDED,
  SIGNAL_GAP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

AdbscopeNetwork *
adbscope_network_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_NETWORK, NULL);
}

static void
counters_from (AdbscopeNetCounters *out,
               const Counters      *c)
{
  memset (out, 0, sizeof *out);
  if (c == NULL)
    return;
  out->dropped_queue_full = c->dropped_queue_full;
  out->unsupported_icmp = c->unsupported_icmp;
  out->unsupported_fragments = c->unsupported_fragments;
  out->unsupported_protocol = c->unsupported_protocol;
  out->malformed = c->malformed;
  out->errors = c->errors;
  out->pcap_packets = c->pcap_packets;
  out->pcap_dropped = c->pcap_dropped;
  out->clients_rejected = c->clients_rejected;
}

static void
counters_add (AdbscopeNetCounters       *sum,
              const AdbscopeNetCounters *c)
{
  guint64 *s = (guint64 *) sum;
  const guint64 *v = (const guint64 *) c;

  for (gsize i = 0; i < sizeof *sum / sizeof (guint64); i++)
    s[i] += v[i];
}

/* A Hello: the same agent run again (a reconnect), or a new one (the agent
 * restarted: its ids and counters start over). */
void
adbscope_network_begin_run (AdbscopeNetwork                  *self,
                            const Adbscope__Agent__V1__Hello *hello)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK (self));

  self->n_hellos++;
  g_free (self->agent_version);
  self->agent_version = g_strdup (hello->agent_version);
  g_free (self->agent_platform);
  self->agent_platform = g_strdup (hello->platform);
  self->have_prev = FALSE;
  if (self->n_runs > 0 && hello->start_time_ms == self->run_start_ms)
    return;
  counters_add (&self->done_runs, &self->this_run);
  memset (&self->this_run, 0, sizeof self->this_run);
  self->run_start_ms = hello->start_time_ms;
  self->last_seq = 0;
  self->dropped_conn_mark = 0;
  self->dropped_dns_mark = 0;
  self->n_runs++;
}

void
adbscope_network_link_lost (AdbscopeNetwork *self,
                            gint64           time_us)
{
  AdbscopeNetGap gap = { time_us, 0 };

  g_return_if_fail (ADBSCOPE_IS_NETWORK (self));

  if (self->in_gap)
    return;
  self->in_gap = TRUE;
  self->have_prev = FALSE;
  self->have_rate = FALSE;
  g_array_append_val (self->gaps, gap);
  g_signal_emit (self, signals[SIGNAL_GAP], 0, TRUE);
}

gboolean
adbscope_network_in_gap (AdbscopeNetwork *self)
{
  return self->in_gap;
}

static void
add_event (AdbscopeNetwork      *self,
           gint64                time_us,
           AdbscopeNetEventKind  kind,
           const char           *subject,
           const char           *code)
{
  AdbscopeNetEvent ev = { time_us, kind, g_strndup (subject, ADBSCOPE_NETWORK_MAX_TEXT), g_strdup (code) };

  if (self->events->len >= ADBSCOPE_NETWORK_MAX_EVENTS)
    {
      g_free (ev.subject);
      g_free (ev.code);
      self->dropped.events++;
      return;
    }
  g_array_append_val (self->events, ev);
  g_signal_emit (self, signals[SIGNAL_EVENT_ADDED], 0, self->events->len - 1);
}

/* One key for (agent run, id): ids restart with the agent. */
static gint64
item_key (guint   run,
          guint64 id)
{
  return (gint64) (((guint64) run << 40) ^ id);
}

static gpointer
key_dup (gint64 key)
{
  return g_memdup2 (&key, sizeof key);
}

static void
merge_connections (AdbscopeNetwork                     *self,
                   const Adbscope__Agent__V1__Snapshot *s,
                   gint64                               offset_us)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  for (gsize i = 0; i < s->n_connections; i++)
    {
      const Adbscope__Agent__V1__Connection *c = s->connections[i];
      gint64 key = item_key (self->n_runs, c->id);
      AdbscopeConnection *conn = g_hash_table_lookup (self->connection_by_key, &key);

      if (conn != NULL)
        _adbscope_connection_update (conn, c);
      else if (g_hash_table_size (self->connection_by_key) >= ADBSCOPE_NETWORK_MAX_CONNECTIONS)
        {
          /* the agent lists an open connection in every snapshot: each id
           * is counted once (ids grow within an agent run) */
          if (c->id > self->dropped_conn_mark || self->dropped.connections == 0)
            {
              self->dropped.connections++;
              self->dropped_conn_mark = MAX (self->dropped_conn_mark, c->id);
            }
          continue;
        }
      else
        {
          conn = _adbscope_connection_new (self->n_runs, c);
          g_hash_table_insert (self->connection_by_key, key_dup (key), conn);
          g_ptr_array_add (added, conn);
        }
      if (adbscope_connection_is_failed (conn) && adbscope_connection_get_failure (conn) != NULL
          && !g_hash_table_contains (self->failed_seen, &key))
        {
          gint64 when_ms = c->close_time_ms ? c->close_time_ms : c->open_time_ms;
          const char *host = adbscope_connection_get_host (conn);
          g_autofree char *subject = host ? g_strdup_printf ("%s:%u", host, adbscope_connection_get_remote_port (conn))
                                          : g_strdup (adbscope_connection_get_remote (conn));

          g_hash_table_add (self->failed_seen, key_dup (key));
          add_event (self, when_ms * 1000 + offset_us, ADBSCOPE_NET_EVENT_CONNECTION_FAILED,
                     subject, adbscope_connection_get_failure (conn));
        }
    }
  if (added->len > 0)
    g_list_store_splice (self->connections, g_list_model_get_n_items (G_LIST_MODEL (self->connections)),
                         0, added->pdata, added->len);
}

static void
merge_dns (AdbscopeNetwork                     *self,
           const Adbscope__Agent__V1__Snapshot *s,
           gint64                               offset_us)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  for (gsize i = 0; i < s->n_dns; i++)
    {
      const Adbscope__Agent__V1__DnsLookup *d = s->dns[i];
      gint64 key = item_key (self->n_runs, d->id);
      AdbscopeDnsLookup *lookup = g_hash_table_lookup (self->dns_by_key, &key);

      if (lookup != NULL)
        _adbscope_dns_lookup_update (lookup, d);
      else if (g_hash_table_size (self->dns_by_key) >= ADBSCOPE_NETWORK_MAX_DNS)
        {
          if (d->id > self->dropped_dns_mark || self->dropped.dns == 0)
            {
              self->dropped.dns++;
              self->dropped_dns_mark = MAX (self->dropped_dns_mark, d->id);
            }
          continue;
        }
      else
        {
          lookup = _adbscope_dns_lookup_new (d);
          g_hash_table_insert (self->dns_by_key, key_dup (key), lookup);
          g_ptr_array_add (added, lookup);
          if (adbscope_dns_lookup_is_failed (lookup))
            add_event (self, (gint64) d->time_ms * 1000 + offset_us, ADBSCOPE_NET_EVENT_DNS_FAILED,
                       d->name, adbscope_dns_lookup_get_result (lookup));
        }
    }
  if (added->len > 0)
    g_list_store_splice (self->dns, g_list_model_get_n_items (G_LIST_MODEL (self->dns)),
                         0, added->pdata, added->len);
}

typedef struct
{
  const char *source;
  guint64     up, down;
  guint       connections, failures;
} HostSum;

/* Per-host totals from every connection of the session (the agent's
 * numbers are cumulative per connection, so this is a sum, never a delta). */
static void
update_hosts (AdbscopeNetwork *self)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *conns = G_LIST_MODEL (self->connections);
  guint n = g_list_model_get_n_items (conns);
  GHashTableIter iter;
  gpointer k, v;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);
      const char *key = adbscope_connection_get_host_key (c);
      HostSum *sum = g_hash_table_lookup (sums, key);

      if (sum == NULL)
        {
          sum = g_new0 (HostSum, 1);
          g_hash_table_insert (sums, (gpointer) key, sum);
        }
      if (sum->source == NULL)
        sum->source = adbscope_connection_get_host_source (c);
      sum->up += adbscope_connection_get_payload_up (c);
      sum->down += adbscope_connection_get_payload_down (c);
      sum->connections++;
      sum->failures += adbscope_connection_is_failed (c);
    }

  self->dropped.hosts = 0;
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      HostSum *sum = v;
      AdbscopeNetHost *host = g_hash_table_lookup (self->host_by_name, k);

      if (host == NULL && g_hash_table_size (self->host_by_name) >= ADBSCOPE_NETWORK_MAX_HOSTS)
        {
          self->dropped.hosts++;
          continue;
        }
      if (host == NULL)
        {
          host = adbscope_net_host_new (k);
          g_hash_table_insert (self->host_by_name, g_strdup (k), host);
          g_ptr_array_add (added, host);
        }
      adbscope_net_host_set_totals (host, sum->source, sum->up, sum->down, sum->connections, sum->failures);
    }
  if (added->len > 0)
    g_list_store_splice (self->hosts, g_list_model_get_n_items (G_LIST_MODEL (self->hosts)),
                         0, added->pdata, added->len);
}

static void
update_rate (AdbscopeNetwork                     *self,
             const Adbscope__Agent__V1__Snapshot *s,
             gint64                               received_us)
{
  guint64 rx = 0, tx = 0;
  gboolean overflow = FALSE;

  for (gsize i = 0; i < s->n_apps; i++)
    {
      overflow |= !g_uint64_checked_add (&rx, rx, s->apps[i]->bytes_down);
      overflow |= !g_uint64_checked_add (&tx, tx, s->apps[i]->bytes_up);
    }
  self->have_rate = FALSE;
  if (self->have_prev)
    {
      /* The agent's own clock for the interval (a late delivery must not
       * make a burst), the one rate rule of adbscope-delta. */
      double dt = ((double) s->time_ms - (double) self->prev_time_ms) / 1000.0;

      self->rate_rx = adbscope_delta_rate (self->prev_rx, rx, dt);
      self->rate_tx = adbscope_delta_rate (self->prev_tx, tx, dt);
      self->rate_time_us = received_us;
      self->have_rate = isfinite (self->rate_rx) && isfinite (self->rate_tx);
      /* a counter that went back (or a sum past 2^64, or a step no link
       * carries) restarted: this snapshot is the new baseline */
      if (overflow || rx < self->prev_rx || tx < self->prev_tx ||
          (self->have_rate && (self->rate_rx > ADBSCOPE_NETWORK_MAX_RATE || self->rate_tx > ADBSCOPE_NETWORK_MAX_RATE)))
        {
          self->dropped.counter_resets++;
          self->have_rate = FALSE;
        }
    }
  self->have_prev = TRUE;
  self->prev_time_ms = s->time_ms;
  self->last_time_ms = s->time_ms;
  self->prev_rx = rx;
  self->prev_tx = tx;
}

/* @received_us: when it arrived, on the session's clock. */
void
adbscope_network_apply_snapshot (AdbscopeNetwork                     *self,
                                 const Adbscope__Agent__V1__Snapshot *s,
                                 gint64                               received_us)
{
  /* Maps the agent's wall clock onto the session's. */
  gint64 offset_us;

  g_return_if_fail (ADBSCOPE_IS_NETWORK (self));
  g_return_if_fail (self->n_runs > 0);

  offset_us = received_us - (gint64) s->time_ms * 1000;
  self->clock_offset_us = offset_us;
  if (self->in_gap)
    {
      g_array_index (self->gaps, AdbscopeNetGap, self->gaps->len - 1).end_us = received_us;
      self->in_gap = FALSE;
      g_signal_emit (self, signals[SIGNAL_GAP], 0, FALSE);
    }
  if (self->last_seq != 0 && s->seq > self->last_seq + 1)
    self->missed_snapshots += s->seq - self->last_seq - 1;
  self->last_seq = MAX (self->last_seq, s->seq);
  self->n_snapshots++;
  counters_from (&self->this_run, s->counters);

  merge_connections (self, s, offset_us);
  merge_dns (self, s, offset_us);
  update_hosts (self);
  update_rate (self, s, received_us);
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
}

GListModel *
adbscope_network_get_connections (AdbscopeNetwork *self)
{
  return G_LIST_MODEL (self->connections);
}

GListModel *
adbscope_network_get_hosts (AdbscopeNetwork *self)
{
  return G_LIST_MODEL (self->hosts);
}

GListModel *
adbscope_network_get_dns (AdbscopeNetwork *self)
{
  return G_LIST_MODEL (self->dns);
}

const GArray *
adbscope_network_get_events (AdbscopeNetwork *self)
{
  return self->events;
}

const GArray *
adbscope_network_get_gaps (AdbscopeNetwork *self)
{
  return self->gaps;
}

guint
adbscope_network_get_n_runs (AdbscopeNetwork *self)
{
  return self->n_runs;
}

/* Hellos received: connections that got through (reconnects + 1). */
guint
adbscope_network_get_n_hellos (AdbscopeNetwork *self)
{
  return self->n_hellos;
}

guint64
adbscope_network_get_n_snapshots (AdbscopeNetwork *self)
{
  return self->n_snapshots;
}

/* Snapshots the agent replaced before we read them (a gap in seq). */
guint64
adbscope_network_get_missed_snapshots (AdbscopeNetwork *self)
{
  return self->missed_snapshots;
}

const char *
adbscope_network_get_agent_version (AdbscopeNetwork *self)
{
  return self->agent_version;
}

const char *
adbscope_network_get_agent_platform (AdbscopeNetwork *self)
{
  return self->agent_platform;
}

void
adbscope_network_set_private_dns (AdbscopeNetwork          *self,
                                  const AdbscopePrivateDns *dns)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK (self));

  adbscope_private_dns_clear (&self->private_dns);
  self->have_private_dns = dns != NULL;
  if (dns != NULL)
    {
      self->private_dns.sdk = dns->sdk;
      self->private_dns.mode = g_strdup (dns->mode);
      self->private_dns.specifier = g_strdup (dns->specifier);
      self->private_dns.is_default = dns->is_default;
    }
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
}

const AdbscopePrivateDns *
adbscope_network_get_private_dns (AdbscopeNetwork *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (self), NULL);
  return self->have_private_dns ? &self->private_dns : NULL;
}

void
adbscope_network_get_payload (AdbscopeNetwork *self,
                              guint64         *up,
                              guint64         *down)
{
  GListModel *conns = G_LIST_MODEL (self->connections);
  guint n = g_list_model_get_n_items (conns);

  *up = *down = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);

      *up += adbscope_connection_get_payload_up (c);
      *down += adbscope_connection_get_payload_down (c);
    }
}

void
adbscope_network_get_counters (AdbscopeNetwork     *self,
                               AdbscopeNetCounters *counters)
{
  *counters = self->done_runs;
  counters_add (counters, &self->this_run);
}

void
adbscope_network_get_run_counters (AdbscopeNetwork     *self,
                                   AdbscopeNetCounters *counters)
{
  *counters = self->this_run;
}

void
adbscope_network_get_dropped (AdbscopeNetwork    *self,
                              AdbscopeNetDropped *dropped)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK (self));
  *dropped = self->dropped;
}

gboolean
adbscope_network_get_app_rate (AdbscopeNetwork *self,
                               gint64          *time_us,
                               double          *rx_bytes_per_s,
                               double          *tx_bytes_per_s)
{
  if (!self->have_rate)
    return FALSE;
  *time_us = self->rate_time_us;
  *rx_bytes_per_s = self->rate_rx;
  *tx_bytes_per_s = self->rate_tx;
  return TRUE;
}

void
adbscope_network_set_pcap (AdbscopeNetwork *self,
                           const char      *file)
{
  g_free (self->pcap_file);
  self->pcap_file = g_strdup (file);
}

const char *
adbscope_network_get_pcap_file (AdbscopeNetwork *self)
{
  return self->pcap_file;
}

void
adbscope_network_set_pcap_packets (AdbscopeNetwork *self,
                                   guint64          n)
{
  self->pcap_packets = n;
}

guint64
adbscope_network_get_pcap_packets (AdbscopeNetwork *self)
{
  return self->pcap_packets;
}

static void
event_clear (AdbscopeNetEvent *ev)
{
  g_free (ev->subject);
  g_free (ev->code);
}

static void
adbscope_network_finalize (GObject *object)
{
  AdbscopeNetwork *self = ADBSCOPE_NETWORK (object);

  adbscope_private_dns_clear (&self->private_dns);
  g_hash_table_unref (self->connection_by_key);
  g_hash_table_unref (self->host_by_name);
  g_hash_table_unref (self->dns_by_key);
  g_hash_table_unref (self->failed_seen);
  g_object_unref (self->connections);
  g_object_unref (self->hosts);
  g_object_unref (self->dns);
  g_array_unref (self->events);
  g_array_unref (self->gaps);
  g_free (self->agent_version);
  g_free (self->agent_platform);
  g_free (self->pcap_file);
  G_OBJECT_CLASS (adbscope_network_parent_class)->finalize (object);
}

static void
adbscope_network_class_init (AdbscopeNetworkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = adbscope_network_finalize;

  /* after a snapshot was merged */
  signals[SIGNAL_UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* index into get_events () */
  signals[SIGNAL_EVENT_ADDED] =
    g_signal_new ("event-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* TRUE when the link went down, FALSE at the first snapshot after */
  signals[SIGNAL_GAP] =
    g_signal_new ("gap", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
adbscope_network_init (AdbscopeNetwork *self)
{
  self->connections = g_list_store_new (ADBSCOPE_TYPE_CONNECTION);
  self->connection_by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->hosts = g_list_store_new (ADBSCOPE_TYPE_NET_HOST);
  self->host_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dns = g_list_store_new (ADBSCOPE_TYPE_DNS_LOOKUP);
  self->dns_by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->failed_seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->events = g_array_new (FALSE, FALSE, sizeof (AdbscopeNetEvent));
  g_array_set_clear_func (self->events, (GDestroyNotify) event_clear);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (AdbscopeNetGap));
}

static void
copy_list (GListStore *to,
           GListModel *from,
           gpointer  (*copy) (gpointer))
{
  guint n = g_list_model_get_n_items (from);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (from, i);

      g_ptr_array_add (items, copy (item));
    }
  g_list_store_splice (to, 0, 0, items->pdata, items->len);
}

static gpointer
copy_host (gpointer item)
{
  AdbscopeNetHost *h = item;
  AdbscopeNetHost *copy = adbscope_net_host_new (adbscope_net_host_get_host (h));

  adbscope_net_host_set_totals (copy, adbscope_net_host_get_host_source (h),
                                adbscope_net_host_get_bytes_up (h), adbscope_net_host_get_bytes_down (h),
                                adbscope_net_host_get_connections (h), adbscope_net_host_get_failures (h));
  return copy;
}

/**
 * adbscope_network_copy:
 *
 * A frozen copy for the paused view: the same items (new objects, so the
 * live snapshots do not reach them), events, gaps and totals.  It is never
 * fed again.
 *
 * Returns: (transfer full): the copy
 */
AdbscopeNetwork *
adbscope_network_copy (AdbscopeNetwork *self)
{
  AdbscopeNetwork *copy;

  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (self), NULL);

  copy = adbscope_network_new ();
  copy_list (copy->connections, G_LIST_MODEL (self->connections), (gpointer (*) (gpointer)) _adbscope_connection_copy);
  copy_list (copy->hosts, G_LIST_MODEL (self->hosts), copy_host);
  copy_list (copy->dns, G_LIST_MODEL (self->dns), (gpointer (*) (gpointer)) _adbscope_dns_lookup_copy);
  for (guint i = 0; i < self->events->len; i++)
    {
      const AdbscopeNetEvent *ev = &g_array_index (self->events, AdbscopeNetEvent, i);
      AdbscopeNetEvent c = { ev->time_us, ev->kind, g_strdup (ev->subject), g_strdup (ev->code) };

      g_array_append_val (copy->events, c);
    }
  g_array_append_vals (copy->gaps, self->gaps->data, self->gaps->len);
  copy->n_runs = self->n_runs;
  copy->n_hellos = self->n_hellos;
  copy->run_start_ms = self->run_start_ms;
  copy->agent_version = g_strdup (self->agent_version);
  copy->agent_platform = g_strdup (self->agent_platform);
  copy->n_snapshots = self->n_snapshots;
  copy->missed_snapshots = self->missed_snapshots;
  copy->done_runs = self->done_runs;
  copy->this_run = self->this_run;
  copy->have_rate = self->have_rate;
  copy->rate_time_us = self->rate_time_us;
  copy->rate_rx = self->rate_rx;
  copy->rate_tx = self->rate_tx;
  copy->in_gap = self->in_gap;
  copy->clock_offset_us = self->clock_offset_us;
  copy->last_time_ms = self->last_time_ms;
  copy->pcap_file = g_strdup (self->pcap_file);
  copy->pcap_packets = self->pcap_packets;
  return copy;
}

/* session time (µs) = agent wall time (µs) + this; 0 before a snapshot. */
gint64
adbscope_network_get_clock_offset_us (AdbscopeNetwork *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (self), 0);
  return self->clock_offset_us;
}

/* The agent's wall time of the last snapshot (Unix ms), 0 before one. */
gint64
adbscope_network_get_time_ms (AdbscopeNetwork *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK (self), 0);
  return (gint64) self->last_time_ms;
}

/* What a person reads for @ev on the charts' timeline. */
char *
adbscope_net_event_describe (const AdbscopeNetEvent *ev)
{
  g_return_val_if_fail (ev != NULL, NULL);

  if (ev->kind == ADBSCOPE_NET_EVENT_DNS_FAILED)
    /* Translators: a failed DNS lookup on the timeline: name, result in words */
    return g_strdup_printf (_("DNS %s: %s"), ev->subject, adbscope_dns_result_text (ev->code));
  /* Translators: a failed connection on the timeline: host:port, reason in words */
  return g_strdup_printf (_("%s: %s"), ev->subject, adbscope_connection_failure_text_for (ev->code));
}
