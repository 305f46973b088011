/* test-network-model.c: snapshots merged into the session's network models.
 * The snapshots are the golden stream (proto/testdata/snapshots.bin, as
 * adbscope-agent-linux sent them) and messages built here for the cases it
 * does not have (failures, a new agent run). */
#include "config.h"

#include <string.h>

#include "adbscope-core.h"
#include "adbscope-connection-private.h"

#include "adbscope-test-asan.h"

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

static guint64
self_rss_kb (void)
{
  g_autofree char *text = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &text, NULL, NULL));
  line = strstr (text, "\nVmRSS:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10);
}

/* @snap as the agent's stream carries it (a varint length, an
 * AgentMessage), decoded by the link's own frame decoder. */
static AdbscopeAgentMessage *
through_the_wire (Snapshot *snap)
{
  Adbscope__Agent__V1__AgentMessage msg = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__INIT;
  g_autoptr(GError) error = NULL;
  AdbscopeAgentMessage *out = NULL;
  g_autofree guint8 *buf = NULL;
  gsize size, n = 0, consumed = 0;

  msg.payload_case = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT;
  msg.snapshot = snap;
  size = adbscope__agent__v1__agent_message__get_packed_size (&msg);
  buf = g_malloc (size + 10);
  for (gsize v = size; ; v >>= 7)
    {
      buf[n++] = (guint8) ((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80)
        break;
    }
  adbscope__agent__v1__agent_message__pack (&msg, buf + n);
  g_assert_cmpint (adbscope_agent_frame_decode (buf, n + size, &consumed, &out, &error), ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
  g_assert_no_error (error);
  g_assert_cmpuint (consumed, ==, n + size);
  return out;
}

#define HOSTILE_SNAPSHOTS 200
#define HOSTILE_CONNS     1000   /* fresh ids a snapshot: 200 000 in all */
#define HOSTILE_DNS       500

/* A hostile agent (anything on the phone can bind its socket name): a
 * stream of fresh connection ids, each failed with a host of its own,
 * fresh failed lookups, host names past any real one, and app byte
 * counters that go back, then jump to 2^64 − 6.  The desktop's memory
 * (the kernel's VmRSS) stays bounded, what it did not keep is counted,
 * the report's lists are capped, and no rate comes out of the counters
 * (it was 1.8e19 B/s; the session's models grew ~6 MB/s and the report
 * reached 126 MB). */
static void
test_hostile_stream (void)
{
  g_autoptr(AdbscopeNetwork) net = adbscope_network_new ();
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  g_autofree Connection *conns = g_new0 (Connection, HOSTILE_CONNS);
  g_autofree Connection **conn_ptrs = g_new0 (Connection *, HOSTILE_CONNS);
  g_autofree Adbscope__Agent__V1__DnsLookup *dns = g_new0 (Adbscope__Agent__V1__DnsLookup, HOSTILE_DNS);
  g_autofree Adbscope__Agent__V1__DnsLookup **dns_ptrs = g_new0 (Adbscope__Agent__V1__DnsLookup *, HOSTILE_DNS);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *long_name = g_strnfill (4000, 'x');
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  Adbscope__Agent__V1__Endpoint src = ADBSCOPE__AGENT__V1__ENDPOINT__INIT;
  Adbscope__Agent__V1__Endpoint dst = ADBSCOPE__AGENT__V1__ENDPOINT__INIT;
  Adbscope__Agent__V1__AppTraffic app = ADBSCOPE__AGENT__V1__APP_TRAFFIC__INIT;
  Adbscope__Agent__V1__AppTraffic *apps[1] = { &app };
  guint8 a_src[4] = { 10, 215, 173, 1 }, a_dst[4] = { 10, 99, 0, 1 };
  AdbscopeNetDropped dropped;
  guint64 rss_before, rss_after, highest_id = 0;
  double max_rate = 0;

  hello.protocol_version = 1;
  hello.agent_version = (char *) PACKAGE_VERSION;
  hello.platform = (char *) "linux";
  hello.start_time_ms = 1700000000000;
  src.address.data = a_src;
  src.address.len = 4;
  src.port = 40000;
  dst.address.data = a_dst;
  dst.address.len = 4;
  dst.port = 443;
  adbscope_network_begin_run (net, &hello);
  rss_before = self_rss_kb ();

  for (guint s = 0; s < HOSTILE_SNAPSHOTS; s++)
    {
      Snapshot snap = ADBSCOPE__AGENT__V1__SNAPSHOT__INIT;
      g_autoptr(AdbscopeAgentMessage) msg = NULL;
      gint64 t;
      double rx, tx;

      g_ptr_array_set_size (strings, 0);
      for (guint k = 0; k < HOSTILE_CONNS; k++)
        {
          Connection *c = &conns[k];

          adbscope__agent__v1__connection__init (c);
          c->id = ++highest_id;
          c->protocol = ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP;
          c->source = &src;
          c->destination = &dst;
          c->host = k == 0 ? long_name : g_strdup_printf ("h%" G_GUINT64_FORMAT ".evil.test", c->id);
          if (k != 0)
            g_ptr_array_add (strings, c->host);
          c->failure_text = (char *) "";
          c->open_time_ms = hello.start_time_ms + s * 1000;
          c->state = ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED;
          c->failure = ADBSCOPE__AGENT__V1__FAILURE__FAILURE_CONNECTION_REFUSED;
          conn_ptrs[k] = c;
        }
      for (guint k = 0; k < HOSTILE_DNS; k++)
        {
          Adbscope__Agent__V1__DnsLookup *d = &dns[k];

          adbscope__agent__v1__dns_lookup__init (d);
          d->id = (guint64) s * HOSTILE_DNS + k + 1;
          d->name = k == 0 ? long_name : g_strdup_printf ("n%u-%u.evil.test", s, k);
          if (k != 0)
            g_ptr_array_add (strings, d->name);
          d->qtype = 1;
          d->result = ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN;
          d->time_ms = hello.start_time_ms + s * 1000;
          dns_ptrs[k] = d;
        }
      /* 1 MB/s, back to 0 at 100, then 2^64 − 6 at 150 */
      app.bytes_down = s == 150 ? G_MAXUINT64 - 5 : (guint64) (s % 100) * 1000000;
      app.bytes_up = (guint64) (s % 100) * 1000;
      snap.connections = conn_ptrs;
      snap.n_connections = HOSTILE_CONNS;
      snap.dns = dns_ptrs;
      snap.n_dns = HOSTILE_DNS;
      snap.apps = apps;
      snap.n_apps = 1;
      snap.seq = s + 1;
      snap.time_ms = hello.start_time_ms + s * 1000;
      msg = through_the_wire (&snap);
      adbscope_network_apply_snapshot (net, msg->snapshot, (gint64) (100 + s) * G_USEC_PER_SEC);
      if (adbscope_network_get_app_rate (net, &t, &rx, &tx))
        max_rate = MAX (max_rate, MAX (rx, tx));
    }
  rss_after = self_rss_kb ();
  adbscope_network_get_dropped (net, &dropped);
  g_test_message ("RSS %" G_GUINT64_FORMAT " → %" G_GUINT64_FORMAT " kB; kept %u connections, %u lookups, %u hosts, %u events;"
                  " dropped %" G_GUINT64_FORMAT " connections, %" G_GUINT64_FORMAT " lookups, %" G_GUINT64_FORMAT " hosts,"
                  " %" G_GUINT64_FORMAT " events; %" G_GUINT64_FORMAT " counter resets; max rate %.0f B/s",
                  rss_before, rss_after,
                  g_list_model_get_n_items (adbscope_network_get_connections (net)),
                  g_list_model_get_n_items (adbscope_network_get_dns (net)),
                  g_list_model_get_n_items (adbscope_network_get_hosts (net)),
                  adbscope_network_get_events (net)->len,
                  dropped.connections, dropped.dns, dropped.hosts, dropped.events, dropped.counter_resets, max_rate);

  g_assert_cmpuint (g_list_model_get_n_items (adbscope_network_get_connections (net)), ==, ADBSCOPE_NETWORK_MAX_CONNECTIONS);
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_network_get_dns (net)), ==, ADBSCOPE_NETWORK_MAX_DNS);
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_network_get_hosts (net)), <=, ADBSCOPE_NETWORK_MAX_HOSTS);
  g_assert_cmpuint (adbscope_network_get_events (net)->len, <=, ADBSCOPE_NETWORK_MAX_EVENTS);
  g_assert_cmpuint (dropped.connections, ==, HOSTILE_SNAPSHOTS * HOSTILE_CONNS - ADBSCOPE_NETWORK_MAX_CONNECTIONS);
  g_assert_cmpuint (dropped.dns, ==, HOSTILE_SNAPSHOTS * HOSTILE_DNS - ADBSCOPE_NETWORK_MAX_DNS);
  g_assert_cmpuint (dropped.hosts, >, 0);
  g_assert_cmpuint (dropped.events, >, 0);
  /* back at 100, up to 2^64 − 6 at 150, back at 151 */
  g_assert_cmpuint (dropped.counter_resets, ==, 3);
  /* 1 MB/s was the only real rate */
  g_assert_cmpfloat (max_rate, <=, 1000000);
  /* what 200 000 connections would hold, a fifth of it at most */
  if (ADBSCOPE_TEST_RSS_IS_MEANINGFUL)
    g_assert_cmpuint (rss_after, <, rss_before + 100 * 1024);
  {
    g_autoptr(AdbscopeConnection) c = g_list_model_get_item (adbscope_network_get_connections (net), 0);

    g_assert_cmpuint (strlen (adbscope_connection_get_host (c)), <=, ADBSCOPE_NETWORK_MAX_TEXT);
  }

  report = adbscope_report_network_agent_of (net, 0);
  node = json_node_init_object (json_node_alloc (), report);
  text = adbscope_json_to_string (node, TRUE);
  g_test_message ("report section: %" G_GSIZE_FORMAT " bytes", strlen (text));
  g_assert_cmpuint (strlen (text), <, 2 * 1024 * 1024);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (node, "dropped_connections")), ==, dropped.connections);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (node, "counter_resets")), ==, 3);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (node, "failed_connections")), ==, ADBSCOPE_NETWORK_MAX_CONNECTIONS);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (node, "failed_connections_not_listed")), ==,
                   ADBSCOPE_NETWORK_MAX_CONNECTIONS - ADBSCOPE_REPORT_MAX_LISTED);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (node, "hosts"))), ==, ADBSCOPE_REPORT_MAX_LISTED);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (node, "events"))), ==, ADBSCOPE_REPORT_MAX_LISTED);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (node, "dns.failed_lookups"))), ==, ADBSCOPE_REPORT_MAX_LISTED);
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
  g_test_add_func ("/network/hostile-stream", test_hostile_stream);
  return g_test_run ();
}
