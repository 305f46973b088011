/* test-engine-dns.c: TCP to the agent's own resolver (Android's Private DNS
 * probe on 853 refused, DNS over TCP on 53 answered), DNS forwarded by the
 * engine itself to the real network's resolvers when there is no resolve
 * callback (Android 8-9), and the instance token in the Hello; the engine
 * on a real TUN device, the app's side the kernel's own TCP/UDP. */
#include "agent-test-util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef Adbscope__Agent__V1__AgentMessage AtMessage;

/* Reads exactly @len bytes (or fails the test). */
static void
read_exact (int     fd,
            guint8 *buf,
            gsize   len)
{
  gsize got = 0;

  while (got < len)
    {
      gssize n = at_recv_timeout (fd, buf + got, len - got, 5000);

      if (n <= 0)
        g_error ("read %zu of %zu bytes: %s", got, len, n < 0 ? g_strerror (errno) : "EOF");
      got += (gsize) n;
    }
}

static int
udp_client (AtNet      *net,
            const char *addr,
            guint16     port)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  int fd = at_client_socket (net, strchr (addr, ':') ? AF_INET6 : AF_INET, SOCK_DGRAM);

  memset (&ss, 0, sizeof ss);
  if (strchr (addr, ':'))
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

      sin6->sin6_family = AF_INET6;
      sin6->sin6_port = htons (port);
      inet_pton (AF_INET6, addr, &sin6->sin6_addr);
      sl = sizeof *sin6;
    }
  else
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

      sin->sin_family = AF_INET;
      sin->sin_port = htons (port);
      inet_pton (AF_INET, addr, &sin->sin_addr);
      sl = sizeof *sin;
    }
  g_assert_cmpint (connect (fd, (struct sockaddr *) &ss, sl), ==, 0);
  return fd;
}

static guint
failed_connections (const AtSnapshot *snap)
{
  guint n = 0;
  size_t i;

  for (i = 0; i < snap->n_connections; i++)
    if (snap->connections[i]->state == ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED
        || snap->connections[i]->failure != ADBSCOPE__AGENT__V1__FAILURE__FAILURE_NONE)
      n++;
  return n;
}

static gboolean
refused_pred (const AtSnapshot *snap,
              gpointer          data)
{
  return snap->counters->fake_resolver_refused >= GPOINTER_TO_UINT (data);
}

/* Android's "Automatic" Private DNS probes DNS-over-TLS on 853 of the VPN's
 * DNS address: the app side gets ECONNREFUSED at once, and the snapshot
 * has no connection, no failure and no reset of an unknown connection. */
static void
test_private_dns_probe (void)
{
  static const struct { const char *addr; guint16 port; } probes[] = {
    { AGENT_LINUX_DNS4, 853 }, { AGENT_LINUX_DNS6, 853 }, { AGENT_LINUX_DNS4, 443 },
  };
  AtEngineOptions opt;
  AtNet *net;
  AtEngine *engine;
  AtUdpServer *dns = at_dns_server_new ("host.adbscope.test", AT_SERVER4, NULL);
  g_autofree char *upstream = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  AtMessage *msg;
  guint i;
  size_t c;
  int snap_fd;

  at_engine_options_init (&opt);
  opt.dns_upstream = upstream;
  net = at_net_new (opt.mtu);
  engine = at_engine_start (net, &opt);
  snap_fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (snap_fd, >=, 0);

  for (i = 0; i < G_N_ELEMENTS (probes); i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      int fd = at_client_connect (net, probes[i].addr, probes[i].port);
      gint64 ms = (g_get_monotonic_time () - t0) / 1000;

      g_test_message ("connect %s:%u: %s in %" G_GINT64_FORMAT " ms", probes[i].addr,
                      probes[i].port, fd < 0 ? g_strerror (-fd) : "connected", ms);
      g_assert_cmpint (fd, ==, -ECONNREFUSED);
      /* "at once": the kernel's first SYN retransmission would come after 1 s */
      g_assert_cmpint (ms, <, 1000);
    }

  msg = at_wait_snapshot (snap_fd, refused_pred, GUINT_TO_POINTER (G_N_ELEMENTS (probes)), 5000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->fake_resolver_refused, ==, G_N_ELEMENTS (probes));
  g_assert_cmpuint (msg->snapshot->counters->tcp_connections_total, ==, 0);
  g_assert_cmpuint (msg->snapshot->counters->rst_unknown_connection, ==, 0);
  g_assert_cmpuint (failed_connections (msg->snapshot), ==, 0);
  for (c = 0; c < msg->snapshot->n_connections; c++)
    g_assert_cmpuint (msg->snapshot->connections[c]->destination->port, !=, 853);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  close (snap_fd);
  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
  at_net_free (net);
  at_udp_server_free (dns);
}

/* One DNS-over-TCP message each way (RFC 7766 framing); returns the
 * answer's length. */
static gsize
tcp_query (int         fd,
           guint16     id,
           const char *name,
           guint8     *answer,
           gsize       cap)
{
  guint8 q[514];
  gsize qlen = at_dns_query (q + 2, id, name);
  guint8 len[2];
  gsize alen;

  q[0] = (guint8) (qlen >> 8);
  q[1] = (guint8) qlen;
  g_assert_true (at_write_all (fd, q, qlen + 2));
  read_exact (fd, len, 2);
  alen = ((gsize) len[0] << 8) | len[1];
  g_assert_cmpuint (alen, <=, cap);
  read_exact (fd, answer, alen);
  return alen;
}

typedef struct {
  const char *name;
  guint       queries;
} DnsPred;

static gboolean
dns_pred (const AtSnapshot *snap,
          gpointer          data)
{
  DnsPred *p = data;
  size_t i;

  if (snap->counters->dns_queries < p->queries || at_find_lookup (snap, p->name) == NULL)
    return FALSE;
  /* the DNS-over-TCP connections have ended */
  for (i = 0; i < snap->n_connections; i++)
    if (snap->connections[i]->destination->port == 53
        && snap->connections[i]->protocol == ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP
        && snap->connections[i]->state != ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED)
      return FALSE;
  return TRUE;
}

static void
check_answer (const guint8 *r,
              gsize         n,
              guint16       id,
              guint         rcode,
              const char   *a)
{
  EngineDnsQuery parsed;

  g_assert_cmpuint (n, >, 12);
  g_assert_true (engine_dns_parse_question (r, n, &parsed));
  g_assert_cmpuint (parsed.id, ==, id);
  g_assert_cmpuint (parsed.flags & 0x800f, ==, 0x8000 | rcode);
  if (a)
    {
      guint8 expect[4];

      inet_pton (AF_INET, a, expect);
      /* the A record's data ends the answer */
      g_assert_cmpmem (r + n - 4, 4, expect, 4);
    }
}

/* DNS over TCP on 53 of the agent's resolver (the fallback for truncated
 * answers): answered by the engine through the resolve path, two queries
 * pipelined on one connection, over IPv4 and IPv6; counted as lookups;
 * the connection ends CLOSED, not FAILED, once the app closed it. */
static void
run_dns_tcp (const char *const *dns_servers)
{
  AtEngineOptions opt;
  AtNet *net;
  AtEngine *engine;
  AtUdpServer *dns = at_dns_server_new ("host.adbscope.test", AT_SERVER4, "fail.adbscope.test");
  g_autofree char *upstream = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  g_autofree char *server = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  const char *servers[] = { server, NULL };
  DnsPred pred = { "other.adbscope.test", 4 };
  const Adbscope__Agent__V1__DnsLookup *l;
  AtMessage *msg;
  guint8 r[4096];
  gsize n;
  int fd, fd6, snap_fd;

  at_engine_options_init (&opt);
  if (dns_servers)
    opt.dns_servers = servers;
  else
    opt.dns_upstream = upstream;
  net = at_net_new (opt.mtu);
  engine = at_engine_start (net, &opt);
  snap_fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (snap_fd, >=, 0);

  fd = at_client_connect (net, AGENT_LINUX_DNS4, 53);
  g_assert_cmpint (fd, >=, 0);
  n = tcp_query (fd, 0x4242, "host.adbscope.test", r, sizeof r);
  check_answer (r, n, 0x4242, 0, AT_SERVER4);
  n = tcp_query (fd, 0x4343, "other.adbscope.test", r, sizeof r);
  check_answer (r, n, 0x4343, 3, NULL);                        /* NXDOMAIN */
  /* The app closes: the agent answers with its FIN. */
  g_assert_cmpint (shutdown (fd, SHUT_WR), ==, 0);
  g_assert_cmpint (at_recv_timeout (fd, r, sizeof r, 5000), ==, 0);
  close (fd);

  fd6 = at_client_connect (net, AGENT_LINUX_DNS6, 53);
  g_assert_cmpint (fd6, >=, 0);
  n = tcp_query (fd6, 0x0606, "host.adbscope.test", r, sizeof r);
  check_answer (r, n, 0x0606, 0, AT_SERVER4);
  close (fd6);

  /* UDP still works alongside. */
  fd = udp_client (net, AGENT_LINUX_DNS4, 53);
  {
    guint8 q[512];
    gsize qlen = at_dns_query (q, 0x5555, "host.adbscope.test");
    gssize got;

    g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
    got = at_recv_timeout (fd, r, sizeof r, 5000);
    g_assert_cmpint (got, >, 0);
    check_answer (r, (gsize) got, 0x5555, 0, AT_SERVER4);
  }
  close (fd);

  msg = at_wait_snapshot (snap_fd, dns_pred, &pred, 8000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->dns_queries, ==, 4);
  g_assert_cmpuint (msg->snapshot->counters->dns_failures, ==, 0);
  g_assert_cmpuint (msg->snapshot->counters->fake_resolver_tcp, ==, 2);
  g_assert_cmpuint (failed_connections (msg->snapshot), ==, 0);
  l = at_must_find_lookup (msg->snapshot, "host.adbscope.test");
  g_assert_true (l->via_fake_resolver);
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
  g_assert_cmpint (l->uid, ==, (int) getuid ());
  l = at_must_find_lookup (msg->snapshot, "other.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  /* All four reached the real resolver (the callback's or the engine's own). */
  g_assert_cmpuint (at_udp_server_received (dns), ==, 4);

  close (snap_fd);
  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
  at_net_free (net);
  at_udp_server_free (dns);
}

static void
test_dns_tcp (void)
{
  run_dns_tcp (NULL);
}

static void
test_dns_tcp_forwarded (void)
{
  static const char *const servers[] = { "set", NULL };

  run_dns_tcp (servers);
}

static gboolean
failures_pred (const AtSnapshot *snap,
               gpointer          data)
{
  return snap->counters->dns_failures >= 1 && at_find_lookup (snap, "host.adbscope.test")
         && at_find_lookup (snap, "fail.adbscope.test");
}

/* Without a resolve callback (Android 8-9) the engine forwards the app's
 * queries to config.dns_servers over its own (protected) UDP sockets: the
 * answer reaches the app, a server that stays silent gives SERVFAIL after
 * the timeout, and both are counted like the resolver's lookups. */
static void
test_dns_forward (void)
{
  AtEngineOptions opt;
  AtNet *net;
  AtEngine *engine;
  AtUdpServer *dns = at_dns_server_new ("host.adbscope.test", AT_SERVER4, "fail.adbscope.test");
  g_autofree char *server = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  /* a second resolver that is down (nothing listens): the first answers */
  const char *servers[] = { "127.0.0.1:1", server, NULL };
  const Adbscope__Agent__V1__DnsLookup *l;
  AtMessage *msg;
  guint8 q[512], r[2048];
  gsize qlen;
  gssize n;
  gint64 t0;
  int fd, snap_fd;

  at_engine_options_init (&opt);
  opt.dns_servers = servers;
  opt.dns_timeout_ms = 700;
  net = at_net_new (opt.mtu);
  engine = at_engine_start (net, &opt);
  snap_fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (snap_fd, >=, 0);
  fd = udp_client (net, AGENT_LINUX_DNS4, 53);

  qlen = at_dns_query (q, 0x1234, "host.adbscope.test");
  g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  check_answer (r, (gsize) n, 0x1234, 0, AT_SERVER4);

  t0 = g_get_monotonic_time ();
  qlen = at_dns_query (q, 0xbeef, "fail.adbscope.test");
  g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  g_assert_cmpint (n, ==, (gssize) qlen);
  check_answer (r, (gsize) n, 0xbeef, 2, NULL);                /* SERVFAIL */
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, 600000);  /* after the timeout */

  msg = at_wait_snapshot (snap_fd, failures_pred, NULL, 5000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->dns_queries, ==, 2);
  g_assert_cmpuint (msg->snapshot->counters->dns_failures, ==, 1);
  l = at_must_find_lookup (msg->snapshot, "host.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
  g_assert_true (l->via_fake_resolver);
  g_assert_cmpuint (l->n_answers, ==, 1);
  g_assert_cmpstr (l->answers[0], ==, AT_SERVER4);
  l = at_must_find_lookup (msg->snapshot, "fail.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_FAILED);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  g_assert_cmpuint (at_udp_server_received (dns), ==, 2);

  close (fd);
  close (snap_fd);
  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
  at_net_free (net);
  at_udp_server_free (dns);
}

/* An answer too large for a datagram on the TUN (100 A records, 1.6 KB at
 * MTU 1500): over UDP the app gets the header and question with TC set,
 * and its retry over TCP 53 gets the whole answer, as from a DNS server. */
static void
test_dns_truncated (void)
{
  AtEngineOptions opt;
  AtNet *net;
  AtEngine *engine;
  AtUdpServer *dns = at_dns_server_new ("host.adbscope.test", AT_SERVER4, NULL);
  g_autofree char *upstream = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  guint8 q[512], r[4096];
  gsize qlen;
  gssize n;
  gsize tn;
  EngineDnsQuery parsed;
  int fd, tcp;

  at_engine_options_init (&opt);
  opt.dns_upstream = upstream;
  net = at_net_new (opt.mtu);
  engine = at_engine_start (net, &opt);

  fd = udp_client (net, AGENT_LINUX_DNS4, 53);
  qlen = at_dns_query (q, 0x7777, "big.adbscope.test");
  g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  g_assert_cmpint (n, ==, (gssize) qlen);                     /* header + question only */
  g_assert_true (engine_dns_parse_question (r, (gsize) n, &parsed));
  g_assert_cmpuint (parsed.id, ==, 0x7777);
  g_assert_cmpuint (parsed.flags & 0x8200, ==, 0x8200);       /* a response, truncated */
  g_assert_cmpuint (parsed.flags & 0x000f, ==, 0);            /* NOERROR, not SERVFAIL */
  g_assert_cmpuint (r[7], ==, 0);                             /* no answers */
  close (fd);

  tcp = at_client_connect (net, AGENT_LINUX_DNS4, 53);
  g_assert_cmpint (tcp, >=, 0);
  tn = tcp_query (tcp, 0x7778, "big.adbscope.test", r, sizeof r);
  g_assert_cmpuint (tn, >, 1500);
  g_assert_true (engine_dns_parse_question (r, tn, &parsed));
  g_assert_cmpuint (parsed.flags & 0x8200, ==, 0x8000);       /* whole */
  g_assert_cmpint (engine_dns_parse_answers (r, tn, NULL, NULL), ==, 100);
  close (tcp);

  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
  at_net_free (net);
  at_udp_server_free (dns);
}

/* The Hello echoes the instance token (empty without one). */
static void
test_instance_token (void)
{
  static const char *const tokens[] = { "tok-5f3a9c", NULL };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      AtEngineOptions opt;
      AtNet *net;
      AtEngine *engine;
      AtMessage *msg;
      int snap_fd;

      at_engine_options_init (&opt);
      opt.instance_token = tokens[i];
      net = at_net_new (opt.mtu);
      engine = at_engine_start (net, &opt);
      snap_fd = at_unix_connect (at_engine_socket_name (engine));
      g_assert_cmpint (snap_fd, >=, 0);
      msg = at_read_message (snap_fd, 5000, NULL);
      g_assert_nonnull (msg);
      g_assert_nonnull (msg->hello);
      g_assert_cmpstr (msg->hello->instance_token, ==, tokens[i] ? tokens[i] : "");
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
      close (snap_fd);
      g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
      at_net_free (net);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  at_init ();
  g_test_add_func ("/agent/dns/private-dns-probe", test_private_dns_probe);
  g_test_add_func ("/agent/dns/tcp", test_dns_tcp);
  g_test_add_func ("/agent/dns/tcp-forwarded", test_dns_tcp_forwarded);
  g_test_add_func ("/agent/dns/forward", test_dns_forward);
  g_test_add_func ("/agent/dns/truncated", test_dns_truncated);
  g_test_add_func ("/agent/hello/instance-token", test_instance_token);
  return g_test_run ();
}
