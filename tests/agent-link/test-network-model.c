/* test-network-model.c: snapshots merged into the session's network models.
 * The snapshots are the golden stream (proto/testdata/snapshots.bin, as
 * adbscope-agent-linux sent them) and messages built here for the cases it
 * does not have (failures, a new agent run). */
#include "config.h"

#include <string.h>

#include "adbscope-core.h"
#include "adbscope-connection-private.h"

typedef Adbscope__Agent__V1__Snapshot Snapshot;
typedef Adbscope__Agent__V1__Connection Connection;

static GPtrArray *
load_golden (void)
{
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_agent_message_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len, off = 0;

  g_file_get_contents (ADBSCOPE_GOLDEN_SNAPSHOTS, &data, &len, &error);
  g_assert_no_error (error);
  while (off < len)
    {
      AdbscopeAgentMessage *msg = NULL;
      gsize consumed = 0;

      g_assert_cmpint (adbscope_agent_frame_decode ((guint8 *) data + off, len - off, &consumed, &msg, &error),
                       ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
      g_ptr_array_add (msgs, msg);
      off += consumed;
    }
  return msgs;
}

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               guint      *n)
{
  g_assert_cmpuint (removed, ==, 0);
  (*n)++;
}

static const Connection *
last_seen (GPtrArray *msgs,
           guint64    id)
{
  const Connection *found = NULL;

  for (guint i = 1; i < msgs->len; i++)
    {
      const Snapshot *s = ((AdbscopeAgentMessage *) g_ptr_array_index (msgs, i))->snapshot;

      for (gsize c = 0; c < s->n_connections; c++)
        if (s->connections[c]->id == id)
          found = s->connections[c];
    }
  return found;
}

static void
test_golden_merge (void)
{
  g_autoptr(GPtrArray) msgs = load_golden ();
  g_autoptr(AdbscopeNetwork) net = adbscope_network_new ();
  g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  GListModel *conns = adbscope_network_get_connections (net);
  GListModel *dns = adbscope_network_get_dns (net);
  AdbscopeAgentMessage *hello = g_ptr_array_index (msgs, 0);
  gpointer first = NULL;
  guint changes = 0, dns_changes = 0;
  guint64 up = 0, down = 0, sum_up = 0, sum_down = 0;
  gboolean found_dns = FALSE, found_host = FALSE;

  g_signal_connect (conns, "items-changed", G_CALLBACK (count_changes), &changes);
  g_signal_connect (dns, "items-changed", G_CALLBACK (count_changes), &dns_changes);
  adbscope_network_begin_run (net, hello->hello);
  g_assert_cmpstr (adbscope_network_get_agent_platform (net), ==, "linux");
  for (guint i = 1; i < msgs->len; i++)
    {
      const Snapshot *s = ((AdbscopeAgentMessage *) g_ptr_array_index (msgs, i))->snapshot;
      guint before = changes, before_dns = dns_changes;

      for (gsize c = 0; c < s->n_connections; c++)
        g_hash_table_add (ids, &s->connections[c]->id);
      adbscope_network_apply_snapshot (net, s, 1000000 + i * 200000);
      /* One items-changed per snapshot at most, and only for new items. */
      g_assert_cmpuint (changes - before, <=, 1);
      g_assert_cmpuint (dns_changes - before_dns, <=, 1);
      if (first == NULL && g_list_model_get_n_items (conns) > 0)
        first = g_list_model_get_item (conns, 0);
      else if (first != NULL)
        {
          g_autoptr(GObject) again = g_list_model_get_item (conns, 0);

          g_assert_true (again == first);   /* identity kept */
        }
    }
  g_assert_cmpuint (adbscope_network_get_n_snapshots (net), ==, msgs->len - 1);
  g_assert_cmpuint (g_list_model_get_n_items (conns), ==, g_hash_table_size (ids));
  g_assert_cmpuint (g_list_model_get_n_items (conns), >, 0);
  g_clear_object (&first);

  /* Every property holds the agent's last word for that id. */
  for (guint i = 0; i < g_list_model_get_n_items (conns); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);
      const Connection *raw = last_seen (msgs, adbscope_connection_get_id (c));
      g_autofree char *host = NULL;
      guint64 pdown = 0;

      g_assert_nonnull (raw);
      g_object_get (c, "payload-down", &pdown, "host", &host, NULL);
      g_assert_cmpuint (pdown, ==, raw->payload_down);
      g_assert_cmpuint (adbscope_connection_get_payload_up (c), ==, raw->payload_up);
      g_assert_cmpuint (adbscope_connection_get_bytes_down (c), ==, raw->bytes_down);
      g_assert_cmpuint (adbscope_connection_get_packets_up (c), ==, raw->packets_up);
      g_assert_cmpstr (host, ==, raw->host[0] ? raw->host : NULL);
      sum_up += raw->payload_up;
      sum_down += raw->payload_down;
      if (g_strcmp0 (host, "golden.adbscope.test") == 0)
        {
          found_host = TRUE;
          g_assert_cmpstr (adbscope_connection_get_protocol (c), ==, "TCP");
          g_assert_nonnull (adbscope_connection_get_host_source (c));
          /* The HTTP download of the golden run: 100000 bytes and headers. */
          g_assert_cmpuint (pdown, >, 100000);
        }
    }
  g_assert_true (found_host);
  adbscope_network_get_payload (net, &up, &down);
  g_assert_cmpuint (up, ==, sum_up);
  g_assert_cmpuint (down, ==, sum_down);

  /* Per-host totals add up to the connections. */
  {
    GListModel *hosts = adbscope_network_get_hosts (net);
    guint64 hup = 0, hdown = 0;
    guint hconns = 0;

    for (guint i = 0; i < g_list_model_get_n_items (hosts); i++)
      {
        g_autoptr(AdbscopeNetHost) h = g_list_model_get_item (hosts, i);

        hup += adbscope_net_host_get_bytes_up (h);
        hdown += adbscope_net_host_get_bytes_down (h);
        hconns += adbscope_net_host_get_connections (h);
      }
    g_assert_cmpuint (hup, ==, up);
    g_assert_cmpuint (hdown, ==, down);
    g_assert_cmpuint (hconns, ==, g_list_model_get_n_items (conns));
  }

  for (guint i = 0; i < g_list_model_get_n_items (dns); i++)
    {
      g_autoptr(AdbscopeDnsLookup) d = g_list_model_get_item (dns, i);

      if (g_strcmp0 (adbscope_dns_lookup_get_name (d), "golden.adbscope.test") == 0)
        {
          found_dns = TRUE;
          g_assert_cmpstr (adbscope_dns_lookup_get_result (d), ==, "NOERROR");
          g_assert_cmpstr (adbscope_dns_lookup_get_qtype_name (d), ==, "A");
          g_assert_nonnull (adbscope_dns_lookup_get_answers (d));
          g_assert_cmpstr (adbscope_dns_lookup_get_answers (d)[0], ==, "10.99.0.1");
          g_assert_false (adbscope_dns_lookup_is_failed (d));
        }
    }
  g_assert_true (found_dns);
  /* Rate of the app's traffic from the AppTraffic counters. */
  {
    gint64 t;
    double rx, tx;

    g_assert_true (adbscope_network_get_app_rate (net, &t, &rx, &tx));
    g_assert_true (rx >= 0 && tx >= 0);
  }
  g_assert_cmpuint (adbscope_network_get_events (net)->len, ==, 0);
}

/* Builds a snapshot with one connection and one lookup. */
typedef struct
{
  Snapshot                              snap;
  Connection                            conn;
  Connection                           *conns[1];
  Adbscope__Agent__V1__Endpoint         src, dst;
  Adbscope__Agent__V1__DnsLookup        dns;
  Adbscope__Agent__V1__DnsLookup       *dnss[1];
  Adbscope__Agent__V1__AppTraffic       app;
  Adbscope__Agent__V1__AppTraffic      *apps[1];
  guint8                                a_src[4], a_dst[4];
} Fake;

static void
fake_init (Fake    *f,
           guint64  seq,
           guint64  conn_id,
           int      failure,
           int      dns_result)
{
  memset (f, 0, sizeof *f);
  adbscope__agent__v1__snapshot__init (&f->snap);
  adbscope__agent__v1__connection__init (&f->conn);
  adbscope__agent__v1__endpoint__init (&f->src);
  adbscope__agent__v1__endpoint__init (&f->dst);
  adbscope__agent__v1__dns_lookup__init (&f->dns);
  adbscope__agent__v1__app_traffic__init (&f->app);
  memcpy (f->a_src, "\x0a\xd7\xad\x01", 4);
  memcpy (f->a_dst, "\x0a\x63\x00\x01", 4);
  f->src.address.data = f->a_src;
  f->src.address.len = 4;
  f->src.port = 40000;
  f->dst.address.data = f->a_dst;
  f->dst.address.len = 4;
  f->dst.port = 9;
  f->conn.id = conn_id;
  f->conn.protocol = ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP;
  f->conn.source = &f->src;
  f->conn.destination = &f->dst;
  f->conn.host = (char *) "";
  f->conn.failure_text = (char *) "";
  f->conn.open_time_ms = 1700000000000;
  f->conn.state = failure ? ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED
                          : ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_OPEN;
  f->conn.failure = failure;
  f->conn.payload_down = 1000 * seq;
  f->conns[0] = &f->conn;
  f->snap.connections = f->conns;
  f->snap.n_connections = 1;
  f->dns.id = 7;
  f->dns.name = (char *) "nope.demo.test";
  f->dns.qtype = 1;
  f->dns.result = dns_result;
  f->dns.time_ms = 1700000000100;
  f->dnss[0] = &f->dns;
  f->snap.dns = f->dnss;
  f->snap.n_dns = 1;
  f->app.bytes_down = 2000 * seq;
  f->app.bytes_up = 500 * seq;
  f->apps[0] = &f->app;
  f->snap.apps = f->apps;
  f->snap.n_apps = 1;
  f->snap.seq = seq;
  f->snap.time_ms = 1700000000000 + seq * 1000;
}

static void
test_failures_and_runs (void)
{
  g_autoptr(AdbscopeNetwork) net = adbscope_network_new ();
  GListModel *conns = adbscope_network_get_connections (net);
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  const GArray *events;
  Fake f;
  gint64 t;
  double rx, tx;

  hello.protocol_version = 1;
  hello.agent_version = (char *) PACKAGE_VERSION;
  hello.platform = (char *) "linux";
  hello.start_time_ms = 1700000000000;
  adbscope_network_begin_run (net, &hello);

  fake_init (&f, 1, 5, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_CONNECTION_REFUSED,
             ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN);
  adbscope_network_apply_snapshot (net, &f.snap, 50 * G_USEC_PER_SEC);
  g_assert_false (adbscope_network_get_app_rate (net, &t, &rx, &tx));
  fake_init (&f, 2, 5, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_CONNECTION_REFUSED,
             ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN);
  adbscope_network_apply_snapshot (net, &f.snap, 51 * G_USEC_PER_SEC);
  g_assert_true (adbscope_network_get_app_rate (net, &t, &rx, &tx));
  g_assert_cmpfloat (rx, ==, 2000);
  g_assert_cmpfloat (tx, ==, 500);
  g_assert_cmpint (t, ==, 51 * G_USEC_PER_SEC);

  g_assert_cmpuint (g_list_model_get_n_items (conns), ==, 1);
  {
    g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, 0);

    g_assert_cmpstr (adbscope_connection_get_failure (c), ==, "CONNECTION_REFUSED");
    g_assert_cmpstr (adbscope_connection_get_state (c), ==, "FAILED");
    g_assert_cmpstr (adbscope_connection_get_remote (c), ==, "10.99.0.1:9");
    g_assert_cmpstr (adbscope_connection_get_host_key (c), ==, "10.99.0.1");
    g_assert_nonnull (adbscope_connection_get_failure_text (c));
  }
  /* One event each, however often the agent repeats them. */
  events = adbscope_network_get_events (net);
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpint (g_array_index (events, AdbscopeNetEvent, 0).kind, ==, ADBSCOPE_NET_EVENT_CONNECTION_FAILED);
  g_assert_cmpstr (g_array_index (events, AdbscopeNetEvent, 0).code, ==, "CONNECTION_REFUSED");
  g_assert_cmpstr (g_array_index (events, AdbscopeNetEvent, 0).subject, ==, "10.99.0.1:9");
  /* On the session clock: the agent's time mapped through the arrival. */
  g_assert_cmpint (g_array_index (events, AdbscopeNetEvent, 0).time_us, ==, 50 * G_USEC_PER_SEC - 1000 * 1000);
  g_assert_cmpint (g_array_index (events, AdbscopeNetEvent, 1).kind, ==, ADBSCOPE_NET_EVENT_DNS_FAILED);
  g_assert_cmpstr (g_array_index (events, AdbscopeNetEvent, 1).code, ==, "NXDOMAIN");
  g_assert_cmpstr (g_array_index (events, AdbscopeNetEvent, 1).subject, ==, "nope.demo.test");

  /* The link goes down; it comes back to the same agent run: merged by id,
   * a gap recorded, no rate across it. */
  adbscope_network_link_lost (net, 52 * G_USEC_PER_SEC);
  g_assert_true (adbscope_network_in_gap (net));
  adbscope_network_begin_run (net, &hello);
  fake_init (&f, 6, 5, 0, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN);
  adbscope_network_apply_snapshot (net, &f.snap, 56 * G_USEC_PER_SEC);
  g_assert_false (adbscope_network_in_gap (net));
  g_assert_false (adbscope_network_get_app_rate (net, &t, &rx, &tx));
  g_assert_cmpuint (g_list_model_get_n_items (conns), ==, 1);
  g_assert_cmpuint (adbscope_network_get_missed_snapshots (net), ==, 3);
  g_assert_cmpuint (adbscope_network_get_gaps (net)->len, ==, 1);
  g_assert_cmpint (g_array_index (adbscope_network_get_gaps (net), AdbscopeNetGap, 0).start_us, ==, 52 * G_USEC_PER_SEC);
  g_assert_cmpint (g_array_index (adbscope_network_get_gaps (net), AdbscopeNetGap, 0).end_us, ==, 56 * G_USEC_PER_SEC);
  g_assert_cmpuint (adbscope_network_get_n_runs (net), ==, 1);

  /* A restarted agent (another start time) reuses ids: a new item. */
  hello.start_time_ms += 60000;
  adbscope_network_begin_run (net, &hello);
  fake_init (&f, 1, 5, 0, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
  adbscope_network_apply_snapshot (net, &f.snap, 60 * G_USEC_PER_SEC);
  g_assert_cmpuint (adbscope_network_get_n_runs (net), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (conns), ==, 2);
  g_assert_cmpuint (adbscope_network_get_events (net)->len, ==, 2);
  {
    guint64 up, down;

    adbscope_network_get_payload (net, &up, &down);
    g_assert_cmpuint (down, ==, 6000 + 1000);
  }
}

/* Older agents (and recordings they made) close every silent UDP flow as
 * CLOSED with failure IDLE, answered or not.  One that got packets back
 * ended normally; one that never did got no answer: only that one is a
 * failure, in the connection, the hosts' counts and the timeline. */
static void
test_idle_udp_of_old_agents (void)
{
  g_autoptr(AdbscopeNetwork) net = adbscope_network_new ();
  GListModel *conns = adbscope_network_get_connections (net);
  GListModel *hosts = adbscope_network_get_hosts (net);
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  const GArray *events;
  guint failures = 0;
  Fake f;

  hello.protocol_version = 1;
  hello.agent_version = (char *) "0.9";
  hello.platform = (char *) "android";
  hello.start_time_ms = 1700000000000;
  adbscope_network_begin_run (net, &hello);
  for (guint k = 0; k < 2; k++)
    {
      fake_init (&f, 1 + k, 10 + k, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_IDLE,
                 ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
      f.conn.protocol = ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_UDP;
      f.conn.state = ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED;
      f.conn.close_time_ms = 1700000130000;
      f.conn.packets_up = 2;
      f.conn.packets_down = k == 0 ? 2 : 0;   /* the first was answered */
      f.conn.payload_down = k == 0 ? 96 : 0;
      adbscope_network_apply_snapshot (net, &f.snap, (50 + k) * G_USEC_PER_SEC);
    }
  g_assert_cmpuint (g_list_model_get_n_items (conns), ==, 2);
  {
    g_autoptr(AdbscopeConnection) answered = g_list_model_get_item (conns, 0);
    g_autoptr(AdbscopeConnection) unanswered = g_list_model_get_item (conns, 1);

    g_assert_cmpstr (adbscope_connection_get_failure (answered), ==, "IDLE");
    g_assert_false (adbscope_connection_is_failed (answered));
    g_assert_true (adbscope_connection_is_failed (unanswered));
  }
  events = adbscope_network_get_events (net);
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_cmpint (g_array_index (events, AdbscopeNetEvent, 0).kind, ==, ADBSCOPE_NET_EVENT_CONNECTION_FAILED);
  for (guint i = 0; i < g_list_model_get_n_items (hosts); i++)
    {
      g_autoptr(AdbscopeNetHost) h = g_list_model_get_item (hosts, i);

      failures += adbscope_net_host_get_failures (h);
    }
  g_assert_cmpuint (failures, ==, 1);
}

static void
test_enum_names (void)
{
  char buf[32];

  g_assert_cmpstr (_adbscope_agent_enum_name (&adbscope__agent__v1__connection_state__descriptor,
                                              ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSING,
                                              buf, sizeof buf), ==, "CLOSING");
  g_assert_cmpstr (_adbscope_agent_enum_name (&adbscope__agent__v1__host_source__descriptor,
                                              ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_TLS_SNI,
                                              buf, sizeof buf), ==, "TLS_SNI");
  g_assert_cmpstr (_adbscope_agent_enum_name (&adbscope__agent__v1__failure__descriptor,
                                              ADBSCOPE__AGENT__V1__FAILURE__FAILURE_TIMED_OUT,
                                              buf, sizeof buf), ==, "TIMED_OUT");
  g_assert_cmpstr (_adbscope_agent_enum_name (&adbscope__agent__v1__dns_result__descriptor,
                                              ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_SERVFAIL,
                                              buf, sizeof buf), ==, "SERVFAIL");
  g_assert_null (_adbscope_agent_enum_name (&adbscope__agent__v1__failure__descriptor, 0, buf, sizeof buf));
  /* A code a newer agent added. */
  g_assert_cmpstr (_adbscope_agent_enum_name (&adbscope__agent__v1__failure__descriptor, 77, buf, sizeof buf),
                   ==, "UNKNOWN_77");
}

static void
test_hello_check (void)
{
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  g_autoptr(GError) error = NULL;

  hello.protocol_version = 1;
  hello.agent_version = (char *) PACKAGE_VERSION;
  g_assert_true (adbscope_agent_check_hello (&hello, &error));
  g_assert_no_error (error);
  hello.agent_version = (char *) "99.0.0";
  g_assert_true (adbscope_agent_check_hello (&hello, NULL));
  hello.agent_version = (char *) "0.0.1";
  g_assert_false (adbscope_agent_check_hello (&hello, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED);
  g_assert_nonnull (strstr (error->message, "adbscope agent install --replace"));
  g_assert_nonnull (strstr (error->message, "0.0.1"));
  g_clear_error (&error);
  hello.agent_version = (char *) "";
  g_assert_false (adbscope_agent_check_hello (&hello, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED);
  g_clear_error (&error);
  hello.agent_version = (char *) PACKAGE_VERSION;
  hello.protocol_version = 2;
  g_assert_false (adbscope_agent_check_hello (&hello, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_PROTOCOL);
}

/* A capture holds the session's network model and its link ends after
 * the window let the session go: the model's gap must not call into the
 * freed session (it did: a write to freed series, then a signal on a freed
 * object, when the screenshot tour closed its window). */
static void
test_outlives_session (void)
{
  AdbscopeSession *session = adbscope_session_new ("serial", "io.github.adbscope.demo");
  g_autoptr(AdbscopeNetwork) net = g_object_ref (adbscope_session_get_network (session));

  g_object_unref (session);
  adbscope_network_link_lost (net, g_get_monotonic_time ());
  g_assert_true (adbscope_network_in_gap (net));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/network/golden-merge", test_golden_merge);
  g_test_add_func ("/network/failures-and-runs", test_failures_and_runs);
  g_test_add_func ("/network/idle-udp-of-old-agents", test_idle_udp_of_old_agents);
  g_test_add_func ("/network/enum-names", test_enum_names);
  g_test_add_func ("/network/hello-check", test_hello_check);
  g_test_add_func ("/network/outlives-session", test_outlives_session);
  return g_test_run ();
}
