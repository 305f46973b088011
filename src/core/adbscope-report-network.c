/* adbscope-report-network.c: network.agent, what the on-phone agent saw
 *
 * Bytes here are payload (TCP/UDP data, the app's view).  Without a
 * capture (or before the first snapshot) every number is null and every
 * list empty, so an assertion on it fails rather than passes.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-connection.h"
#include "adbscope-dns-lookup.h"
#include "adbscope-net-host.h"
#include "adbscope-network.h"
#include "adbscope-report-network.h"

static void
set_count (JsonObject *o,
           const char *key,
           gboolean    have,
           guint64     v)
{
  if (have)
    json_object_set_int_member (o, key, (gint64) v);
  else
    json_object_set_null_member (o, key);
}

static void
set_str (JsonObject *o,
         const char *key,
         const char *v)
{
  if (v != NULL)
    json_object_set_string_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Nearest rank, like the series statistics. */
static double
percentile (GArray *sorted,
            double  p)
{
  gsize rank;

  if (sorted->len == 0)
    return NAN;
  rank = (gsize) ceil (p / 100.0 * sorted->len);
  return g_array_index (sorted, double, MAX (rank, 1) - 1);
}

static void
set_ms (JsonObject *o,
        const char *key,
        double      v)
{
  if (isfinite (v))
    json_object_set_double_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

static gint
by_bytes_desc (gconstpointer a,
               gconstpointer b)
{
  AdbscopeConnection *x = *(AdbscopeConnection **) a, *y = *(AdbscopeConnection **) b;
  guint64 bx = adbscope_connection_get_payload_up (x) + adbscope_connection_get_payload_down (x);
  guint64 by = adbscope_connection_get_payload_up (y) + adbscope_connection_get_payload_down (y);

  return (bx < by) - (bx > by);
}

static gint
host_by_bytes_desc (gconstpointer a,
                    gconstpointer b)
{
  AdbscopeNetHost *x = *(AdbscopeNetHost **) a, *y = *(AdbscopeNetHost **) b;
  guint64 bx = adbscope_net_host_get_bytes_up (x) + adbscope_net_host_get_bytes_down (x);
  guint64 by = adbscope_net_host_get_bytes_up (y) + adbscope_net_host_get_bytes_down (y);

  if (bx != by)
    return (bx < by) - (bx > by);
  return g_strcmp0 (adbscope_net_host_get_host (x), adbscope_net_host_get_host (y));
}

static GPtrArray *
model_items (GListModel *model)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));
  return items;
}

static JsonObject *
connection_object (AdbscopeConnection *c)
{
  JsonObject *o = json_object_new ();

  set_str (o, "protocol", adbscope_connection_get_protocol (c));
  set_str (o, "remote", adbscope_connection_get_remote (c));
  set_str (o, "host", adbscope_connection_get_host (c));
  set_str (o, "host_source", adbscope_connection_get_host_source (c));
  set_str (o, "state", adbscope_connection_get_state (c));
  set_str (o, "failure", adbscope_connection_get_failure (c));
  set_str (o, "failure_text", adbscope_connection_get_failure_text (c));
  json_object_set_int_member (o, "bytes_up", adbscope_connection_get_payload_up (c));
  json_object_set_int_member (o, "bytes_down", adbscope_connection_get_payload_down (c));
  return o;
}

JsonObject *
adbscope_report_network_agent (AdbscopeSession *session)
{
  return adbscope_report_network_agent_of (session ? adbscope_session_get_network (session) : NULL,
                                           session ? adbscope_session_get_start_us (session) : 0);
}

JsonObject *
adbscope_report_network_agent_of (AdbscopeNetwork *net,
                                  gint64           start_us)
{
  gboolean have = net != NULL && adbscope_network_get_n_snapshots (net) > 0;
  JsonObject *o = json_object_new ();
  JsonObject *dns = json_object_new ();
  JsonObject *latency = json_object_new ();
  JsonObject *pcap = json_object_new ();
  JsonObject *counters = json_object_new ();
  JsonObject *link = json_object_new ();
  JsonArray *hosts = json_array_new ();
  JsonArray *conns = json_array_new ();
  JsonArray *failed_lookups = json_array_new ();
  g_autoptr(GPtrArray) conn_items = model_items (have ? adbscope_network_get_connections (net) : NULL);
  g_autoptr(GPtrArray) host_items = model_items (have ? adbscope_network_get_hosts (net) : NULL);
  g_autoptr(GPtrArray) dns_items = model_items (have ? adbscope_network_get_dns (net) : NULL);
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (double));
  AdbscopeNetCounters c = { 0 };
  AdbscopeNetDropped dropped = { 0 };
  guint64 up = 0, down = 0, failed = 0, dns_failed = 0, listed = 0, failed_listed = 0;
  double gap_s = 0;

  json_object_set_boolean_member (o, "enabled", have);
  set_str (o, "agent_version", have ? adbscope_network_get_agent_version (net) : NULL);
  set_str (o, "platform", have ? adbscope_network_get_agent_platform (net) : NULL);
  if (have)
    {
      adbscope_network_get_payload (net, &up, &down);
      adbscope_network_get_counters (net, &c);
      adbscope_network_get_dropped (net, &dropped);
    }
  /* The phone's Private DNS, read when the capture started: in strict
   * mode (a provider) lookups are encrypted and invisible to the agent. */
  {
    const AdbscopePrivateDns *pd = net ? adbscope_network_get_private_dns (net) : NULL;
    JsonObject *po = json_object_new ();

    set_str (po, "mode", pd ? pd->mode : NULL);
    set_str (po, "specifier", pd ? pd->specifier : NULL);
    if (pd != NULL)
      {
        json_object_set_boolean_member (po, "default", pd->is_default);
        json_object_set_boolean_member (po, "lookups_visible", !adbscope_private_dns_hides_lookups (pd));
      }
    else
      {
        json_object_set_null_member (po, "default");
        json_object_set_null_member (po, "lookups_visible");
      }
    set_str (po, "note", pd == NULL ? NULL
             : adbscope_private_dns_hides_lookups (pd)
             ? _("Private DNS is set to a provider on the phone: lookups are encrypted and invisible to the "
                 "agent; host names come from TLS SNI")
             : NULL);
    json_object_set_object_member (o, "private_dns", po);
  }
  set_count (o, "payload_bytes_up", have, up);
  set_count (o, "payload_bytes_down", have, down);

  g_ptr_array_sort (host_items, host_by_bytes_desc);
  for (guint i = 0; i < MIN (host_items->len, ADBSCOPE_REPORT_MAX_LISTED); i++)
    {
      AdbscopeNetHost *h = g_ptr_array_index (host_items, i);
      JsonObject *ho = json_object_new ();

      set_str (ho, "host", adbscope_net_host_get_host (h));
      set_str (ho, "host_source", adbscope_net_host_get_host_source (h));
      json_object_set_int_member (ho, "bytes_up", adbscope_net_host_get_bytes_up (h));
      json_object_set_int_member (ho, "bytes_down", adbscope_net_host_get_bytes_down (h));
      json_object_set_int_member (ho, "connections", adbscope_net_host_get_connections (h));
      json_object_set_int_member (ho, "failures", adbscope_net_host_get_failures (h));
      json_array_add_object_element (hosts, ho);
    }
  json_object_set_array_member (o, "hosts", hosts);
  set_count (o, "hosts_not_listed", have, host_items->len - MIN (host_items->len, ADBSCOPE_REPORT_MAX_LISTED));

  /* Every failed connection, then the biggest others. */
  g_ptr_array_sort (conn_items, by_bytes_desc);
  for (guint i = 0; i < conn_items->len; i++)
    if (adbscope_connection_is_failed (g_ptr_array_index (conn_items, i)))
      {
        if (failed_listed < ADBSCOPE_REPORT_MAX_LISTED)
          {
            json_array_add_object_element (conns, connection_object (g_ptr_array_index (conn_items, i)));
            failed_listed++;
          }
        failed++;
      }
  for (guint i = 0; i < conn_items->len && listed < ADBSCOPE_REPORT_TOP_CONNECTIONS; i++)
    if (!adbscope_connection_is_failed (g_ptr_array_index (conn_items, i)))
      {
        json_array_add_object_element (conns, connection_object (g_ptr_array_index (conn_items, i)));
        listed++;
      }
  json_object_set_array_member (o, "connections", conns);
  set_count (o, "connections_total", have, conn_items->len);
  set_count (o, "failed_connections", have, failed);
  set_count (o, "failed_connections_not_listed", have, failed - failed_listed);
  /* what the desktop's caps kept out of the agent's stream */
  set_count (o, "dropped_connections", have, dropped.connections);
  set_count (o, "dropped_dns_lookups", have, dropped.dns);
  set_count (o, "dropped_hosts", have, dropped.hosts);
  set_count (o, "dropped_events", have, dropped.events);
  set_count (o, "counter_resets", have, dropped.counter_resets);

  for (guint i = 0; i < dns_items->len; i++)
    {
      AdbscopeDnsLookup *d = g_ptr_array_index (dns_items, i);
      double ms = adbscope_dns_lookup_get_latency_ms (d);

      g_array_append_val (latencies, ms);
      if (adbscope_dns_lookup_is_failed (d) && dns_failed++ < ADBSCOPE_REPORT_MAX_LISTED)
        {
          JsonObject *fo = json_object_new ();

          set_str (fo, "name", adbscope_dns_lookup_get_name (d));
          set_str (fo, "type", adbscope_dns_lookup_get_qtype_name (d));
          set_str (fo, "result", adbscope_dns_lookup_get_result (d));
          json_array_add_object_element (failed_lookups, fo);
        }
    }
  g_array_sort (latencies, compare_double);
  set_count (dns, "lookups", have, dns_items->len);
  set_count (dns, "failures", have, dns_failed);
  set_ms (latency, "p50", percentile (latencies, 50));
  set_ms (latency, "p90", percentile (latencies, 90));
  json_object_set_object_member (dns, "latency_ms", latency);
  json_object_set_array_member (dns, "failed_lookups", failed_lookups);
  set_count (dns, "failed_lookups_not_listed", have, dns_failed - MIN (dns_failed, ADBSCOPE_REPORT_MAX_LISTED));
  json_object_set_object_member (o, "dns", dns);

  set_str (pcap, "file", net ? adbscope_network_get_pcap_file (net) : NULL);
  set_count (pcap, "packets", net && adbscope_network_get_pcap_file (net), net ? adbscope_network_get_pcap_packets (net) : 0);
  set_count (pcap, "agent_packets", have, c.pcap_packets);
  set_count (pcap, "dropped", have, c.pcap_dropped);
  json_object_set_object_member (o, "pcap", pcap);

  set_count (counters, "dropped_queue_full", have, c.dropped_queue_full);
  set_count (counters, "unsupported_icmp", have, c.unsupported_icmp);
  set_count (counters, "unsupported_fragments", have, c.unsupported_fragments);
  set_count (counters, "unsupported_protocol", have, c.unsupported_protocol);
  set_count (counters, "malformed", have, c.malformed);
  set_count (counters, "errors", have, c.errors);
  set_count (counters, "clients_rejected", have, c.clients_rejected);
  json_object_set_object_member (o, "counters", counters);

  if (net != NULL)
    {
      const GArray *gaps = adbscope_network_get_gaps (net);

      for (guint i = 0; i < gaps->len; i++)
        {
          const AdbscopeNetGap *g = &g_array_index (gaps, AdbscopeNetGap, i);
          gint64 end = g->end_us ? g->end_us : g_get_monotonic_time ();

          gap_s += (end - g->start_us) / 1e6;
        }
      set_count (link, "snapshots", TRUE, adbscope_network_get_n_snapshots (net));
      set_count (link, "missed_snapshots", TRUE, adbscope_network_get_missed_snapshots (net));
      set_count (link, "hellos", TRUE, adbscope_network_get_n_hellos (net));
      set_count (link, "agent_runs", TRUE, adbscope_network_get_n_runs (net));
      set_count (link, "gaps", TRUE, gaps->len);
    }
  else
    {
      set_count (link, "snapshots", FALSE, 0);
      set_count (link, "missed_snapshots", FALSE, 0);
      set_count (link, "hellos", FALSE, 0);
      set_count (link, "agent_runs", FALSE, 0);
      set_count (link, "gaps", FALSE, 0);
    }
  set_ms (link, "gap_s", net ? gap_s : NAN);
  json_object_set_object_member (o, "link", link);

  /* The failures on the run's timeline, like markers. */
  {
    JsonArray *events = json_array_new ();
    const GArray *evs = net ? adbscope_network_get_events (net) : NULL;

    for (guint i = 0; evs != NULL && i < MIN (evs->len, ADBSCOPE_REPORT_MAX_LISTED); i++)
      {
        const AdbscopeNetEvent *ev = &g_array_index (evs, AdbscopeNetEvent, i);
        JsonObject *eo = json_object_new ();

        json_object_set_double_member (eo, "time_s", (ev->time_us - start_us) / 1e6);
        json_object_set_string_member (eo, "kind", ev->kind == ADBSCOPE_NET_EVENT_DNS_FAILED ? "dns_failed"
                                                                                             : "connection_failed");
        set_str (eo, "subject", ev->subject);
        set_str (eo, "code", ev->code);
        json_array_add_object_element (events, eo);
      }
    json_object_set_array_member (o, "events", events);
    set_count (o, "events_not_listed", have, evs ? evs->len - MIN (evs->len, ADBSCOPE_REPORT_MAX_LISTED) : 0);
  }
  return o;
}
