/* test-engine-flows.c: UDP, DNS through the fake resolver, host
 * attribution, resets for unknown connections and malformed packets, with
 * the engine on a real TUN device. */
#include "agent-test-util.h"
#include "adbscope-test-wait.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  AtNet    *net;
  AtEngine *engine;
  AtServer *server;
  int       snap_fd;
} Fixture;

static void
fixture_start (Fixture               *fx,
               const AtEngineOptions *opt)
{
  fx->net = at_net_new (opt->mtu);
  fx->server = at_server_new (AT_SERVER4, FALSE);
  fx->engine = at_engine_start (fx->net, opt);
  fx->snap_fd = at_unix_connect (at_engine_socket_name (fx->engine));
  g_assert_cmpint (fx->snap_fd, >=, 0);
}

static void
fixture_stop (Fixture *fx)
{
  close (fx->snap_fd);
  at_server_free (fx->server);
  g_assert_cmpint (at_engine_stop (fx->engine), ==, ADBSCOPE_AGENT_EXIT_STOPPED);
  at_net_free (fx->net);
}

static void
sockaddr_for (const char              *addr,
              guint16                  port,
              struct sockaddr_storage *ss,
              socklen_t               *sl)
{
  memset (ss, 0, sizeof *ss);
  if (strchr (addr, ':'))
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;

      sin6->sin6_family = AF_INET6;
      sin6->sin6_port = htons (port);
      g_assert_cmpint (inet_pton (AF_INET6, addr, &sin6->sin6_addr), ==, 1);
      *sl = sizeof *sin6;
    }
  else
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) ss;

      sin->sin_family = AF_INET;
      sin->sin_port = htons (port);
      g_assert_cmpint (inet_pton (AF_INET, addr, &sin->sin_addr), ==, 1);
      *sl = sizeof *sin;
    }
}

static int
udp_client (AtNet      *net,
            const char *addr,
            guint16     port)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  int fd;

  sockaddr_for (addr, port, &ss, &sl);
  fd = at_client_socket (net, ss.ss_family, SOCK_DGRAM);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &ss, sl), ==, 0);
  return fd;
}

typedef struct {
  int      protocol;
  const char *dst;
  guint    port;
  guint64  payload_up;
  guint64  payload_down;
  const char *host;
} ConnPred;

static gboolean
conn_pred (const AtSnapshot *snap,
           gpointer          data)
{
  ConnPred *p = data;
  const Adbscope__Agent__V1__Connection *c = at_find_connection (snap, p->protocol, p->dst,
                                                                 p->port);

  return c && c->payload_up >= p->payload_up && c->payload_down >= p->payload_down
         && (p->host == NULL || g_strcmp0 (c->host, p->host) == 0);
}

/* UDP echo over IPv4 and IPv6, byte-exact, counted per flow. */
static void
test_udp_echo (void)
{
  static const gsize sizes[] = { 1, 512, 1400 };
  const char *addrs[] = { AT_SERVER4, AT_SERVER6 };
  Fixture fx;
  AtEngineOptions opt;
  guint a;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt);
  for (a = 0; a < G_N_ELEMENTS (addrs); a++)
    {
      AtUdpServer *echo = at_udp_echo_new (addrs[a]);
      int fd = udp_client (fx.net, addrs[a], at_udp_server_port (echo));
      ConnPred pred = { 17, addrs[a], at_udp_server_port (echo), 0, 0, NULL };
      Adbscope__Agent__V1__AgentMessage *msg;
      const Adbscope__Agent__V1__Connection *c;
      guint i;

      for (i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          guint8 out[1500], in[2000];
          gssize n;

          at_pattern_fill (out, sizes[i], i, 0);
          g_assert_cmpint (send (fd, out, sizes[i], 0), ==, (gssize) sizes[i]);
          n = at_recv_timeout (fd, in, sizeof in, 5000);
          g_assert_cmpint (n, ==, (gssize) sizes[i]);
          g_assert_cmpmem (in, sizes[i], out, sizes[i]);
          pred.payload_up += sizes[i];
          pred.payload_down += sizes[i];
        }
      msg = at_wait_snapshot (fx.snap_fd, conn_pred, &pred, 5000);
      g_assert_nonnull (msg);
      c = at_find_connection (msg->snapshot, 17, addrs[a], pred.port);
      g_assert_cmpuint (c->payload_up, ==, pred.payload_up);
      g_assert_cmpuint (c->payload_down, ==, pred.payload_down);
      g_assert_cmpuint (c->packets_up, ==, 3);
      g_assert_cmpint (c->ip_version, ==, a == 0 ? 4 : 6);
      g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_OPEN);
      g_assert_cmpint (c->uid, ==, (int) getuid ());
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
      close (fd);
      at_udp_server_free (echo);
    }
  fixture_stop (&fx);
}

typedef struct {
  guint    n;
  guint8   addr[4];
} Answers;

static void
collect (void          *data,
         uint16_t       type,
         const uint8_t *rdata,
         const char    *text)
{
  Answers *a = data;

  if (type == 1)
    memcpy (a->addr, rdata, 4);
  a->n++;
}

static gboolean
lookups_pred (const AtSnapshot *snap,
              gpointer          data)
{
  return at_find_lookup (snap, "host.adbscope.test") && at_find_lookup (snap, "fail.adbscope.test")
         && at_find_lookup (snap, "other.adbscope.test");
}

/* Queries to the fake resolver: an answer from upstream, a SERVFAIL built
 * from the query when upstream does not answer, NXDOMAIN passed through,
 * over IPv4 and IPv6; then a connection to the answered address carries
 * the name. */
static void
test_dns (void)
{
  Fixture fx;
  AtEngineOptions opt;
  AtUdpServer *dns = at_dns_server_new ("host.adbscope.test", AT_SERVER4, "fail.adbscope.test");
  g_autofree char *upstream = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  guint8 q[512], r[2048], q_fail[512];
  gsize qlen, qlen_fail;
  gssize n;
  EngineDnsQuery parsed;
  Answers answers = { 0 };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__DnsLookup *l;
  const Adbscope__Agent__V1__Connection *c;
  ConnPred pred = { 6, AT_SERVER4, 0, 6, 0, "host.adbscope.test" };
  int fd, fd6, tcp;
  guint8 expect[4];

  at_engine_options_init (&opt);
  opt.dns_upstream = upstream;
  fixture_start (&fx, &opt);
  fd = udp_client (fx.net, AGENT_LINUX_DNS4, 53);

  qlen = at_dns_query (q, 0x1234, "host.adbscope.test");
  g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  g_assert_cmpint (n, >, 12);
  g_assert_true (engine_dns_parse_question (r, (gsize) n, &parsed));
  g_assert_cmpuint (parsed.id, ==, 0x1234);
  g_assert_cmpuint (parsed.flags & 0x800f, ==, 0x8000);      /* response, NOERROR */
  g_assert_cmpstr (parsed.name, ==, "host.adbscope.test");
  g_assert_cmpint (engine_dns_parse_answers (r, (gsize) n, collect, &answers), ==, 1);
  inet_pton (AF_INET, AT_SERVER4, expect);
  g_assert_cmpmem (answers.addr, 4, expect, 4);

  /* Upstream stays silent: the app gets SERVFAIL with its own question. */
  qlen_fail = at_dns_query (q_fail, 0xbeef, "fail.adbscope.test");
  g_assert_cmpint (send (fd, q_fail, qlen_fail, 0), ==, (gssize) qlen_fail);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  g_assert_cmpint (n, ==, (gssize) qlen_fail);
  g_assert_true (engine_dns_parse_question (r, (gsize) n, &parsed));
  g_assert_cmpuint (parsed.id, ==, 0xbeef);
  g_assert_cmpuint (parsed.flags & 0x800f, ==, 0x8002);      /* response, SERVFAIL */
  g_assert_cmpstr (parsed.name, ==, "fail.adbscope.test");
  g_assert_cmpmem (r + 12, qlen_fail - 12, q_fail + 12, qlen_fail - 12);

  qlen = at_dns_query (q, 7, "other.adbscope.test");
  g_assert_cmpint (send (fd, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd, r, sizeof r, 5000);
  g_assert_cmpint (n, >, 12);
  g_assert_cmpuint (r[3] & 0x0f, ==, 3);                      /* NXDOMAIN */

  /* The IPv6 fake resolver. */
  fd6 = udp_client (fx.net, AGENT_LINUX_DNS6, 53);
  qlen = at_dns_query (q, 0x0606, "host.adbscope.test");
  g_assert_cmpint (send (fd6, q, qlen, 0), ==, (gssize) qlen);
  n = at_recv_timeout (fd6, r, sizeof r, 5000);
  g_assert_cmpint (n, >, 12);
  g_assert_cmpuint (r[0], ==, 0x06);
  g_assert_cmpuint (r[3] & 0x0f, ==, 0);

  /* A connection to the answered address gets the name. */
  pred.port = at_server_port (fx.server);
  tcp = at_client_connect (fx.net, AT_SERVER4, pred.port);
  g_assert_cmpint (tcp, >=, 0);
  g_assert_true (at_write_all (tcp, "hello\n", 6));
  msg = at_wait_snapshot (fx.snap_fd, conn_pred, &pred, 5000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 6, AT_SERVER4, pred.port);
  g_assert_cmpint (c->host_source, ==, ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_DNS_ANSWER);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  msg = at_wait_snapshot (fx.snap_fd, lookups_pred, NULL, 5000);
  g_assert_nonnull (msg);
  l = at_must_find_lookup (msg->snapshot, "host.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
  g_assert_cmpuint (l->qtype, ==, 1);
  g_assert_cmpuint (l->n_answers, ==, 1);
  g_assert_cmpstr (l->answers[0], ==, AT_SERVER4);
  g_assert_true (l->via_fake_resolver);
  g_assert_cmpuint (l->latency_us, >, 0);
  g_assert_cmpint (l->uid, ==, (int) getuid ());
  l = at_must_find_lookup (msg->snapshot, "fail.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_FAILED);
  g_assert_cmpuint (l->latency_us, >=, 400000);               /* waited for the timeout */
  l = at_must_find_lookup (msg->snapshot, "other.adbscope.test");
  g_assert_cmpint (l->result, ==, ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NXDOMAIN);
  g_assert_cmpuint (msg->snapshot->counters->dns_queries, ==, 4);
  g_assert_cmpuint (msg->snapshot->counters->dns_failures, ==, 1);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  close (tcp);
  close (fd);
  close (fd6);
  fixture_stop (&fx);
  at_udp_server_free (dns);
}

static GBytes *
load_testdata (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("AGENT_TESTDATA"), name, NULL);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static const Adbscope__Agent__V1__Connection *
wait_host (Fixture                            *fx,
           ConnPred                           *pred,
           Adbscope__Agent__V1__AgentMessage **msg)
{
  *msg = at_wait_snapshot (fx->snap_fd, conn_pred, pred, 5000);
  g_assert_nonnull (*msg);
  return at_find_connection ((*msg)->snapshot, 6, pred->dst, pred->port);
}

/* Host names from a real OpenSSL ClientHello (sent in two segments) and
 * from HTTP Host headers, within the first 16 KiB only. */
static void
test_host_attribution (void)
{
  Fixture fx;
  AtEngineOptions opt;
  g_autoptr(GBytes) hello = load_testdata ("clienthello-openssl3-sni.bin");
  gsize hello_len;
  const guint8 *hello_data = g_bytes_get_data (hello, &hello_len);
  ConnPred pred = { 6, AT_SERVER4, 0, 0, 0, NULL };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  GString *req;
  int fd, one = 1;
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt);

  /* TLS: the record header and part of the hello first, the rest later. */
  fd = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_cmpint (fd, >=, 0);
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  g_assert_true (at_write_all (fd, hello_data, 40));
  /* paces the sender: the hello in two segments is the thing under test */
  g_usleep (100000);
  g_assert_true (at_write_all (fd, hello_data + 40, hello_len - 40));
  getsockname (fd, (struct sockaddr *) &ss, &sl);
  pred.port = at_server_port (fx.server);
  pred.payload_up = hello_len;
  pred.host = "sni.adbscope.test";
  c = wait_host (&fx, &pred, &msg);
  g_assert_cmpint (c->host_source, ==, ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_TLS_SNI);
  g_assert_cmpuint (c->packets_up, >=, 4);   /* SYN, ACK, two data segments */
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);

  /* HTTP with a port in Host, the header 8 KiB in (several segments). */
  req = g_string_new ("GET /index.html HTTP/1.1\r\nX-Pad: ");
  while (req->len < 8192)
    g_string_append_c (req, 'x');
  g_string_append (req, "\r\nHost: www.adbscope.test:8080\r\nContent-Length: 0\r\n\r\n");
  fd = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_true (at_write_all (fd, req->str, req->len));
  pred.payload_up = 0;
  pred.host = "www.adbscope.test";
  c = wait_host (&fx, &pred, &msg);
  g_assert_cmpint (c->host_source, ==, ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_HTTP_HOST);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);
  g_string_free (req, TRUE);

  /* A Host header beyond the first 16 KiB is not looked at. */
  req = g_string_new ("GET / HTTP/1.1\r\nX-Pad: ");
  while (req->len < 17000)
    g_string_append_c (req, 'y');
  g_string_append (req, "\r\nHost: late.adbscope.test\r\nContent-Length: 0\r\n\r\n");
  /* Nothing else talks to this server port: a fresh one. */
  at_server_free (fx.server);
  fx.server = at_server_new (AT_SERVER4, FALSE);
  fd = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_true (at_write_all (fd, req->str, req->len));
  pred.port = at_server_port (fx.server);
  pred.payload_up = req->len;
  pred.host = NULL;
  c = wait_host (&fx, &pred, &msg);
  g_assert_cmpstr (c->host, ==, "");
  g_assert_cmpint (c->host_source, ==, ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_NONE);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);
  g_string_free (req, TRUE);
  fixture_stop (&fx);
}

/* Raw packets into the TUN from the app side. */
static int
packet_socket (AtNet *net,
               int   *ifindex)
{
  int fd;

  at_enter_client (net);
  fd = socket (AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  *ifindex = (int) if_nametoindex (AT_TUN);
  at_leave_client ();
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (*ifindex, >, 0);
  return fd;
}

static void
packet_send (int           fd,
             int           ifindex,
             const guint8 *data,
             gsize         len)
{
  struct sockaddr_ll sll = { 0 };

  sll.sll_family = AF_PACKET;
  sll.sll_ifindex = ifindex;
  sll.sll_protocol = htons ((data[0] >> 4) == 6 ? ETH_P_IPV6 : ETH_P_IP);
  g_assert_cmpint (sendto (fd, data, len, 0, (struct sockaddr *) &sll, sizeof sll), ==,
                   (gssize) len);
}

static gsize
build_tcp (guint8  *out,
           guint16  sport,
           guint8   flags,
           guint32  seq,
           guint32  ack)
{
  EnginePacket p;

  memset (&p, 0, sizeof p);
  p.ip_version = 4;
  p.protocol = 6;
  inet_pton (AF_INET, AGENT_LINUX_ADDR4, p.src);
  inet_pton (AF_INET, AT_SERVER4, p.dst);
  p.sport = sport;
  p.dport = 9;
  p.flags = flags;
  p.seq = seq;
  p.ack = ack;
  p.window = 1000;
  return engine_packet_build (out, 1500, &p);
}

typedef struct {
  GMutex  lock;
  guint   rsts;
  guint32 seq[4];
  guint32 ack[4];
  guint8  flags[4];
} Resets;

static void
observe_resets (void                  *data,
                AdbscopeAgentDirection dir,
                const EnginePacket    *pkt,
                const uint8_t         *raw,
                size_t                 len)
{
  Resets *r = data;

  if (dir != ADBSCOPE_AGENT_TO_APP || pkt->protocol != 6 || !(pkt->flags & ENGINE_TCP_RST))
    return;
  g_mutex_lock (&r->lock);
  if (r->rsts < 4)
    {
      r->seq[r->rsts] = pkt->seq;
      r->ack[r->rsts] = pkt->ack;
      r->flags[r->rsts] = pkt->flags;
    }
  r->rsts++;
  g_mutex_unlock (&r->lock);
}

static gboolean
rst_pred (const AtSnapshot *snap,
          gpointer          data)
{
  return snap->counters->rst_unknown_connection >= 2;
}

/* Segments of no connection get RFC 793 resets; a RST gets nothing. */
static void
test_rst_unknown (void)
{
  Fixture fx;
  AtEngineOptions opt;
  Resets resets = { 0 };
  Adbscope__Agent__V1__AgentMessage *msg;
  guint8 pkt[1500];
  gsize len;
  int fd, ifindex;

  g_mutex_init (&resets.lock);
  at_engine_options_init (&opt);
  opt.observe = observe_resets;
  opt.observe_data = &resets;
  fixture_start (&fx, &opt);
  fd = packet_socket (fx.net, &ifindex);

  len = build_tcp (pkt, 40001, ENGINE_TCP_ACK, 1000, 5000);
  packet_send (fd, ifindex, pkt, len);
  len = build_tcp (pkt, 40002, ENGINE_TCP_FIN, 7000, 0);
  packet_send (fd, ifindex, pkt, len);
  len = build_tcp (pkt, 40003, ENGINE_TCP_RST, 9000, 0);
  packet_send (fd, ifindex, pkt, len);

  msg = at_wait_snapshot (fx.snap_fd, rst_pred, NULL, 5000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->rst_unknown_connection, ==, 2);
  g_assert_cmpuint (msg->snapshot->counters->tcp_connections_total, ==, 0);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  g_mutex_lock (&resets.lock);
  g_assert_cmpuint (resets.rsts, ==, 2);
  g_assert_cmpuint (resets.flags[0], ==, ENGINE_TCP_RST);            /* seq = their ACK */
  g_assert_cmpuint (resets.seq[0], ==, 5000);
  g_assert_cmpuint (resets.flags[1], ==, ENGINE_TCP_RST | ENGINE_TCP_ACK);
  g_assert_cmpuint (resets.ack[1], ==, 7001);                         /* FIN counts one */
  g_mutex_unlock (&resets.lock);
  close (fd);
  fixture_stop (&fx);
  g_mutex_clear (&resets.lock);
}

typedef struct {
  guint64 malformed, fragments, icmp, protocol;
} Base;

static gboolean
malformed_pred (const AtSnapshot *snap,
                gpointer          data)
{
  Base *b = data;

  return snap->counters->malformed >= b->malformed + 5
         && snap->counters->unsupported_fragments >= b->fragments + 2
         && snap->counters->unsupported_icmp >= b->icmp + 1
         && snap->counters->unsupported_protocol >= b->protocol + 1;
}

static void
ip4_fix_checksum (guint8 *p)
{
  guint16 sum;

  p[10] = p[11] = 0;
  sum = engine_checksum (p, 20, 0);
  memcpy (p + 10, &sum, 2);
}

/* Broken and unsupported packets are counted, and the engine keeps serving. */
static void
test_malformed (void)
{
  Fixture fx;
  AtEngineOptions opt;
  Adbscope__Agent__V1__AgentMessage *msg;
  g_autoptr(GError) error = NULL;
  Base base;
  guint8 pkt[1500];
  gsize len;
  int fd, ifindex, tcp;
  gboolean ok;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt);
  fd = packet_socket (fx.net, &ifindex);
  msg = at_wait_snapshot (fx.snap_fd, NULL, NULL, 5000);
  g_assert_nonnull (msg);
  base.malformed = msg->snapshot->counters->malformed;
  base.fragments = msg->snapshot->counters->unsupported_fragments;
  base.icmp = msg->snapshot->counters->unsupported_icmp;
  base.protocol = msg->snapshot->counters->unsupported_protocol;
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  /* 1: a truncated IPv4 header */
  len = build_tcp (pkt, 40010, ENGINE_TCP_SYN, 1, 0);
  packet_send (fd, ifindex, pkt, 10);
  /* 2: a bad TCP checksum */
  pkt[len - 1] ^= 0xff;
  pkt[36] ^= 0x55;
  packet_send (fd, ifindex, pkt, len);
  /* 3: an IPv4 total length beyond the packet */
  len = build_tcp (pkt, 40011, ENGINE_TCP_SYN, 1, 0);
  pkt[2] = 0x05;
  pkt[3] = 0xdc;
  ip4_fix_checksum (pkt);
  packet_send (fd, ifindex, pkt, len);
  /* 4: a TCP data offset beyond the segment */
  len = build_tcp (pkt, 40012, ENGINE_TCP_SYN, 1, 0);
  pkt[32] = 0xf0;
  packet_send (fd, ifindex, pkt, len);
  /* 5: IPv6 whose payload length runs past the end */
  memset (pkt, 0, 60);
  pkt[0] = 0x60;
  pkt[4] = 0x40;
  pkt[6] = 6;
  packet_send (fd, ifindex, pkt, 60);
  /* an IPv4 fragment (more fragments) */
  len = build_tcp (pkt, 40013, ENGINE_TCP_SYN, 1, 0);
  pkt[6] |= 0x20;
  ip4_fix_checksum (pkt);
  packet_send (fd, ifindex, pkt, len);
  /* an IPv6 fragment header */
  memset (pkt, 0, 64);
  pkt[0] = 0x60;
  pkt[5] = 16;
  pkt[6] = 44;
  pkt[7] = 64;
  pkt[40] = 17;
  packet_send (fd, ifindex, pkt, 56);
  /* ICMP echo */
  len = build_tcp (pkt, 40014, ENGINE_TCP_SYN, 1, 0);
  pkt[9] = 1;
  ip4_fix_checksum (pkt);
  packet_send (fd, ifindex, pkt, len);
  /* SCTP */
  pkt[9] = 132;
  ip4_fix_checksum (pkt);
  packet_send (fd, ifindex, pkt, len);

  msg = at_wait_snapshot (fx.snap_fd, malformed_pred, &base, 5000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->malformed, ==, base.malformed + 5);
  g_assert_cmpuint (msg->snapshot->counters->unsupported_fragments, ==, base.fragments + 2);
  g_assert_cmpuint (msg->snapshot->counters->unsupported_protocol, ==, base.protocol + 1);
  g_assert_cmpuint (msg->snapshot->counters->tcp_connections_total, ==, 0);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  tcp = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_cmpint (tcp, >=, 0);
  ok = at_http_get (tcp, "after.test", 100000, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (tcp);
  close (fd);
  fixture_stop (&fx);
}


static gboolean
udp_closed_pred (const AtSnapshot *snap,
                 gpointer          data)
{
  ConnPred *p = data;
  const Adbscope__Agent__V1__Connection *c = at_find_connection (snap, 17, p->dst, p->port);

  return c && (c->state == ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED ||
               c->state == ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED);
}

/* An idle UDP flow is closed after the idle time (2 min by default; short
 * here), and a new datagram starts a new flow.  One that was answered
 * ended normally: CLOSED, no failure. */
static void
test_udp_idle (void)
{
  Fixture fx;
  AtEngineOptions opt;
  AtUdpServer *echo = at_udp_echo_new (AT_SERVER4);
  ConnPred pred = { 17, AT_SERVER4, at_udp_server_port (echo), 0, 0, NULL };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  guint8 buf[64];
  gint64 sent_at;
  int fd;

  at_engine_options_init (&opt);
  opt.udp_idle_ms = 400;
  fixture_start (&fx, &opt);
  fd = udp_client (fx.net, AT_SERVER4, pred.port);
  g_assert_cmpint (send (fd, "x", 1, 0), ==, 1);
  g_assert_cmpint (at_recv_timeout (fd, buf, sizeof buf, 3000), ==, 1);
  sent_at = g_get_monotonic_time ();
  msg = at_wait_snapshot (fx.snap_fd, udp_closed_pred, &pred, 5000);
  g_assert_nonnull (msg);
  g_assert_cmpint (g_get_monotonic_time () - sent_at, >=, 300 * 1000);
  c = at_find_connection (msg->snapshot, 17, AT_SERVER4, pred.port);
  g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED);
  g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_NONE);
  g_assert_cmpuint (c->packets_down, ==, 1);
  g_assert_cmpuint (c->close_time_ms, >, 0);
  g_assert_cmpuint (msg->snapshot->counters->udp_open, ==, 0);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  /* Still works: a new flow. */
  g_assert_cmpint (send (fd, "y", 1, 0), ==, 1);
  g_assert_cmpint (at_recv_timeout (fd, buf, sizeof buf, 3000), ==, 1);
  g_assert_cmpint (buf[0], ==, 'y');
  close (fd);
  fixture_stop (&fx);
  at_udp_server_free (echo);
}

/* A UDP flow whose datagrams were never answered (a server that reads
 * and keeps quiet, a black hole) did not get what it asked for: when it
 * falls idle it is FAILED, TIMED_OUT. */
static void
test_udp_unanswered (void)
{
  Fixture fx;
  AtEngineOptions opt;
  AtUdpServer *sink = at_udp_sink_new (AT_SERVER4);
  ConnPred pred = { 17, AT_SERVER4, at_udp_server_port (sink), 0, 0, NULL };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  int fd;

  at_engine_options_init (&opt);
  opt.udp_idle_ms = 400;
  fixture_start (&fx, &opt);
  fd = udp_client (fx.net, AT_SERVER4, pred.port);
  g_assert_cmpint (send (fd, "x", 1, 0), ==, 1);
  g_assert_cmpint (send (fd, "y", 1, 0), ==, 1);
  msg = at_wait_snapshot (fx.snap_fd, udp_closed_pred, &pred, 5000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 17, AT_SERVER4, pred.port);
  g_assert_cmpuint (c->packets_up, ==, 2);
  g_assert_cmpuint (c->packets_down, ==, 0);
  g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED);
  g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_TIMED_OUT);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);
  fixture_stop (&fx);
  at_udp_server_free (sink);
}

typedef struct {
  guint64 malformed;
  guint64 dropped;
} QueueBase;

static gboolean
queue_pred (const AtSnapshot *snap,
            gpointer          data)
{
  QueueBase *b = data;

  return snap->counters->dropped_queue_full > b->dropped
         && snap->counters->malformed >= b->malformed + ADBSCOPE_AGENT_QUEUE_PACKETS;
}

/* With the engine thread stalled, the reader queues 8192 packets and drops
 * (and counts) the rest; the engine then handles exactly the queued ones. */
static void
test_queue_bound (void)
{
  enum { FLOOD = 12000 };
  Fixture fx;
  AtEngineOptions opt;
  Adbscope__Agent__V1__AgentMessage *msg;
  QueueBase base;
  guint8 junk[40];
  int fd, ifindex, udp, i;
  guint64 malformed, dropped;

  at_engine_options_init (&opt);
  opt.stall_port = 9999;
  opt.stall_ms = 2500;
  fixture_start (&fx, &opt);
  fd = packet_socket (fx.net, &ifindex);
  msg = at_wait_snapshot (fx.snap_fd, NULL, NULL, 5000);
  g_assert_nonnull (msg);
  base.malformed = msg->snapshot->counters->malformed;
  base.dropped = msg->snapshot->counters->dropped_queue_full;
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  udp = udp_client (fx.net, AT_SERVER4, 9999);
  g_assert_cmpint (send (udp, "stall", 5, 0), ==, 5);
  adbscope_test_wait_until (at_engine_stalling, fx.engine, 10000, "the engine thread is asleep in get_uid");

  /* Not IP at all: each one is a malformed packet for the engine. */
  memset (junk, 0, sizeof junk);
  for (i = 0; i < FLOOD; i++)
    {
      packet_send (fd, ifindex, junk, sizeof junk);
      if (i % 200 == 199)
        g_usleep (1000);                 /* keep within the TUN's own queue */
    }

  msg = at_wait_snapshot (fx.snap_fd, queue_pred, &base, 10000);
  g_assert_nonnull (msg);
  malformed = msg->snapshot->counters->malformed - base.malformed;
  dropped = msg->snapshot->counters->dropped_queue_full - base.dropped;
  g_test_message ("queued and handled %" G_GUINT64_FORMAT ", dropped %" G_GUINT64_FORMAT,
                  malformed, dropped);
  g_assert_cmpuint (malformed, ==, ADBSCOPE_AGENT_QUEUE_PACKETS);
  g_assert_cmpuint (dropped, >, 0);
  g_assert_cmpuint (malformed + dropped, <=, FLOOD);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (udp);
  close (fd);
  fixture_stop (&fx);
}

/* Context switches of the engine's threads (both are named "engine"), from
 * the kernel's /proc/self/task/TID/status. */
static guint64
engine_switches (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *de;
  guint64 n = 0;

  g_assert_nonnull (d);
  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *comm_path = g_strdup_printf ("/proc/self/task/%s/comm", de->d_name);
      g_autofree char *status_path = g_strdup_printf ("/proc/self/task/%s/status", de->d_name);
      g_autofree char *comm = NULL;
      g_autofree char *status = NULL;
      const char *p;

      if (de->d_name[0] == '.' || !g_file_get_contents (comm_path, &comm, NULL, NULL)
          || g_strcmp0 (g_strstrip (comm), "engine") != 0
          || !g_file_get_contents (status_path, &status, NULL, NULL))
        continue;
      for (p = status; (p = strstr (p, "ctxt_switches:")) != NULL; p++)
        n += g_ascii_strtoull (p + strlen ("ctxt_switches:"), NULL, 10);
    }
  closedir (d);
  return n;
}

/* The reader watches the engine every millisecond only while the engine
 * works: an idle agent sleeps (the engine's 100 ms tick and the snapshot
 * are all that wake its threads), and after the pause traffic flows again
 * at once. */
static void
test_reader_idle (void)
{
  Fixture fx;
  AtEngineOptions opt;
  AtUdpServer *echo = at_udp_echo_new (AT_SERVER4);
  int fd, round;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt);
  fd = udp_client (fx.net, AT_SERVER4, at_udp_server_port (echo));
  for (round = 0; round < 2; round++)
    {
      guint64 before, after;
      guint8 buf[64];
      int i;

      for (i = 0; i < 20; i++)
        {
          g_assert_cmpint (send (fd, "ping", 4, 0), ==, 4);
          g_assert_cmpint (at_recv_timeout (fd, buf, sizeof buf, 5000), ==, 4);
        }
      /* the last replies' wake-ups are over, then a second of idle is
       * the thing measured: both are time, not a condition */
      g_usleep (300 * 1000);
      before = engine_switches ();
      g_usleep (1000 * 1000);
      after = engine_switches ();
      g_test_message ("engine threads idle: %" G_GUINT64_FORMAT " context switches in 1 s",
                      after - before);
      /* A reader polling every millisecond would switch ~1000 times. */
      g_assert_cmpuint (after - before, <, 100);
    }
  close (fd);
  fixture_stop (&fx);
  at_udp_server_free (echo);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  at_init ();
  g_test_add_func ("/agent/udp/echo", test_udp_echo);
  g_test_add_func ("/agent/udp/idle-close", test_udp_idle);
  g_test_add_func ("/agent/udp/unanswered-times-out", test_udp_unanswered);
  g_test_add_func ("/agent/queue/bounded", test_queue_bound);
  g_test_add_func ("/agent/reader/idle", test_reader_idle);
  g_test_add_func ("/agent/dns/fake-resolver", test_dns);
  g_test_add_func ("/agent/host/sni-http", test_host_attribution);
  g_test_add_func ("/agent/tcp/rst-unknown", test_rst_unknown);
  g_test_add_func ("/agent/packet/malformed", test_malformed);
  return g_test_run ();
}
