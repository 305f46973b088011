/* test-engine-mem.c: the whole engine (reader thread, queue, TCP, UDP, the
 * fake resolver, snapshots) with no kernel TUN: a SOCK_DGRAM socketpair
 * stands in for the device (one read, one packet, as on a TUN) and this
 * test is the app, a small TCP stack of its own that checks every segment
 * the engine sends.  The servers are real sockets on loopback.  No root, no
 * GLib: it runs natively and cross-built for ARM and s390x under qemu-user
 * (agent/cross/), where the engine's byte order, word size and alignment
 * differ from x86's. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "adbscope-agent-engine.h"
#include "agent-check.h"
#include "agent.pb-c.h"
#include "engine-parse.h"

#define APP_UID   10123
#define WAIT_MS   20000      /* generous: qemu on a loaded 2-core machine */

static const uint8_t app4[4] = { 10, 215, 173, 1 };
static const uint8_t app6[16] = { 0xfd, 0x00, 0xad, 0xb5, [15] = 1 };
static const uint8_t lo4[4] = { 127, 0, 0, 1 };
static const uint8_t lo6[16] = { [15] = 1 };
static const uint8_t dns4[4] = { 10, 215, 173, 2 };

typedef struct {
  int                  app_fd;      /* the test's end of the "TUN" */
  AdbscopeAgentEngine *engine;
  pthread_t            thread;
  char                 socket_name[64];
  char                 pcap_name[80];
} Mem;

static uint64_t
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000u + (uint64_t) ts.tv_nsec / 1000000u;
}

static int
get_uid (void                       *user_data,
         const AdbscopeAgentFlowKey *flow)
{
  return APP_UID;
}

/* The platform resolver: every name is 127.0.0.1, answered at once (from
 * the engine thread, which the API allows: any thread). */
static void
resolve_dns (void                *user_data,
             AdbscopeAgentEngine *engine,
             uint64_t             query_id,
             const uint8_t       *query,
             size_t               query_len)
{
  EngineDnsQuery q;
  uint8_t answer[600];
  static const uint8_t rr[] = { 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1 };

  if (!engine_dns_parse_question (query, query_len, &q) || q.question_end + sizeof rr > sizeof answer)
    {
      adbscope_agent_engine_dns_answer (engine, query_id, NULL, 0);
      return;
    }
  memcpy (answer, query, q.question_end);
  answer[2] = 0x81;
  answer[3] = 0x80;
  answer[6] = 0;
  answer[7] = 1;
  memset (answer + 8, 0, 4);
  memcpy (answer + q.question_end, rr, sizeof rr);
  adbscope_agent_engine_dns_answer (engine, query_id, answer, q.question_end + sizeof rr);
}

static void *
engine_thread (void *data)
{
  Mem *m = data;

  adbscope_agent_engine_run (m->engine);
  return NULL;
}

static void
mem_start (Mem *m,
           int  mtu)
{
  static const AdbscopeAgentCallbacks cb = {
    .get_uid = get_uid,
    .resolve_dns = resolve_dns,
  };
  static unsigned int uid;
  AdbscopeAgentConfig config;
  char error[256];
  int sv[2];
  int buf = 4 * 1024 * 1024;

  CHECK (socketpair (AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
  CHECK (setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf) == 0);
  CHECK (setsockopt (sv[1], SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf) == 0);
  m->app_fd = sv[1];
  snprintf (m->socket_name, sizeof m->socket_name, "adbscope-test-mem-%d", (int) getpid ());
  uid = (unsigned int) getuid ();

  adbscope_agent_config_init (&config);
  config.tun_fd = sv[0];
  config.mtu = mtu;
  memcpy (config.dns6, app6, 16);
  config.dns6[15] = 2;
  config.have_dns6 = 1;
  snprintf (m->pcap_name, sizeof m->pcap_name, "%s-pcap", m->socket_name);
  config.socket_name = m->socket_name;
  config.pcap_socket_name = m->pcap_name;
  config.allowed_uids = &uid;
  config.n_allowed_uids = 1;
  config.idle_exit_ms = -1;
  config.snapshot_interval_ms = 100;
  config.platform = "test-mem";
  m->engine = adbscope_agent_engine_new (&config, &cb, error, sizeof error);
  if (m->engine == NULL)
    check_fail (__FILE__, __LINE__, "adbscope_agent_engine_new: %s", error);
  CHECK (pthread_create (&m->thread, NULL, engine_thread, m) == 0);
}

static void
mem_stop (Mem *m)
{
  adbscope_agent_engine_stop (m->engine);
  CHECK (pthread_join (m->thread, NULL) == 0);
  adbscope_agent_engine_free (m->engine);
  close (m->app_fd);
}

static void
app_send (Mem                *m,
          const EnginePacket *p)
{
  static uint8_t buf[70000];
  size_t len = engine_packet_build (buf, sizeof buf, p);

  CHECK_CMPUINT (len, >, 0);
  CHECK_CMPINT (write (m->app_fd, buf, len), ==, (long long) len);
}

/* The next packet from the engine, parsed (checksums verified), or false
 * after @timeout_ms. */
static bool
app_recv (Mem          *m,
          EnginePacket *p,
          uint8_t      *buf,
          size_t        cap,
          int           timeout_ms)
{
  struct pollfd pfd = { .fd = m->app_fd, .events = POLLIN };
  ssize_t n;

  if (poll (&pfd, 1, timeout_ms) <= 0)
    return false;
  n = read (m->app_fd, buf, cap);
  CHECK_CMPINT (n, >, 0);
  CHECK_CMPINT (engine_packet_parse (buf, (size_t) n, p), ==, ENGINE_PKT_OK);
  CHECK_CMPUINT (p->ip_len, ==, (size_t) n);
  return true;
}

/* A deterministic byte pattern, different per stream. */
static uint8_t
pattern (uint32_t seed,
         size_t   i)
{
  return (uint8_t) ((i * 131u + seed + (i >> 9)) & 0xff);
}

/* The app's stream starts with an HTTP head, so the engine names the host. */
static const char http_head[] = "GET / HTTP/1.1\r\nHost: mem.adbscope.test\r\n\r\n";

static uint8_t
up_byte (size_t i)
{
  return i < sizeof http_head - 1 ? (uint8_t) http_head[i] : pattern (1, i);
}

/* Servers ---------------------------------------------------------------- */

typedef struct {
  int       fd;            /* listening (TCP) or bound (UDP) */
  uint16_t  port;
  size_t    request_len;   /* TCP: bytes to read, then answer */
  size_t    response_len;
  size_t    got;           /* TCP: request bytes that matched the pattern */
  bool      request_ok;
  pthread_t thread;
} Server;

static void
server_bind (Server *s,
             int     version,
             int     type)
{
  struct sockaddr_storage ss;
  socklen_t len;
  int one = 1;

  memset (&ss, 0, sizeof ss);
  s->fd = socket (version == 4 ? AF_INET : AF_INET6, type, 0);
  CHECK (s->fd >= 0);
  setsockopt (s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (version == 4)
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

      sin->sin_family = AF_INET;
      memcpy (&sin->sin_addr, lo4, 4);
      len = sizeof *sin;
    }
  else
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

      sin6->sin6_family = AF_INET6;
      memcpy (&sin6->sin6_addr, lo6, 16);
      len = sizeof *sin6;
    }
  CHECK (bind (s->fd, (struct sockaddr *) &ss, len) == 0);
  CHECK (getsockname (s->fd, (struct sockaddr *) &ss, &len) == 0);
  s->port = ntohs (version == 4 ? ((struct sockaddr_in *) &ss)->sin_port
                                : ((struct sockaddr_in6 *) &ss)->sin6_port);
}

static void *
tcp_server_thread (void *data)
{
  Server *s = data;
  int c = accept (s->fd, NULL, NULL);
  uint8_t buf[16384];
  size_t sent = 0;

  if (c < 0)
    return NULL;
  s->request_ok = true;
  while (s->got < s->request_len)
    {
      ssize_t n = read (c, buf, sizeof buf);
      ssize_t i;

      if (n <= 0)
        break;
      for (i = 0; i < n; i++)
        if (buf[i] != up_byte (s->got + (size_t) i))
          s->request_ok = false;
      s->got += (size_t) n;
    }
  while (sent < s->response_len)
    {
      size_t chunk = s->response_len - sent < sizeof buf ? s->response_len - sent : sizeof buf;
      size_t i;
      ssize_t n;

      for (i = 0; i < chunk; i++)
        buf[i] = pattern (2, sent + i);
      n = write (c, buf, chunk);
      if (n <= 0)
        break;
      sent += (size_t) n;
    }
  close (c);
  return NULL;
}

static void *
udp_echo_thread (void *data)
{
  Server *s = data;
  uint8_t buf[2048];
  struct sockaddr_storage from;
  socklen_t len = sizeof from;
  ssize_t n = recvfrom (s->fd, buf, sizeof buf, 0, (struct sockaddr *) &from, &len);

  if (n > 0)
    sendto (s->fd, buf, (size_t) n, 0, (struct sockaddr *) &from, len);
  return NULL;
}

/* The app's TCP --------------------------------------------------------- */

static void
flow_packet (EnginePacket *p,
             int           version,
             uint8_t       protocol,
             uint16_t      sport,
             uint16_t      dport)
{
  memset (p, 0, sizeof *p);
  p->ip_version = (uint8_t) version;
  p->protocol = protocol;
  memcpy (p->src, version == 4 ? app4 : app6, version == 4 ? 4 : 16);
  memcpy (p->dst, version == 4 ? lo4 : lo6, version == 4 ? 4 : 16);
  p->sport = sport;
  p->dport = dport;
}

/* One connection through the engine: handshake (window scaling offered),
 * the request up, the whole answer down (each in-order segment acked, a
 * segment out of order answered with a duplicate ACK), FIN both ways.  Every
 * byte is checked against the pattern on both sides. */
static void
tcp_transfer (Mem      *m,
              int       version,
              int       mtu,
              uint16_t  sport,
              size_t    up,
              size_t    down)
{
  static uint8_t rx[70000];
  Server s = { .request_len = up, .response_len = down };
  EnginePacket p, in;
  uint32_t iss = 0xfffff000u;          /* wraps during the upload */
  uint32_t snd_nxt, snd_una, rcv_nxt = 0, peer_wnd = 0;
  uint8_t *request = check_malloc (up);
  size_t got_down = 0, i, mss;
  bool fin_in = false, fin_out = false, fin_acked = false;
  uint8_t shift = 0;
  uint64_t deadline;

  server_bind (&s, version, SOCK_STREAM);
  CHECK (listen (s.fd, 4) == 0);
  CHECK (pthread_create (&s.thread, NULL, tcp_server_thread, &s) == 0);
  for (i = 0; i < up; i++)
    request[i] = up_byte (i);

  flow_packet (&p, version, 6, sport, s.port);
  p.seq = iss;
  p.flags = ENGINE_TCP_SYN;
  p.window = 65535;
  p.mss = (uint16_t) (mtu - (version == 4 ? 40 : 60));
  p.wscale = true;
  p.wscale_shift = 7;
  app_send (m, &p);
  CHECK (app_recv (m, &in, rx, sizeof rx, WAIT_MS));
  CHECK_CMPUINT (in.flags, ==, ENGINE_TCP_SYN | ENGINE_TCP_ACK);
  CHECK_CMPUINT (in.ack, ==, iss + 1);
  CHECK_CMPUINT (in.sport, ==, s.port);
  CHECK_CMPUINT (in.dport, ==, sport);
  CHECK_CMPMEM (in.src, version == 4 ? 4 : 16, p.dst, version == 4 ? 4 : 16);
  CHECK (in.wscale);
  CHECK_CMPUINT (in.mss, ==, mtu - (version == 4 ? 40 : 60));
  shift = in.wscale_shift;
  rcv_nxt = in.seq + 1;
  snd_nxt = snd_una = iss + 1;
  peer_wnd = in.window;                /* a SYN's window is never scaled */
  mss = in.mss < p.mss ? in.mss : p.mss;

  flow_packet (&p, version, 6, sport, s.port);
  p.flags = ENGINE_TCP_ACK;
  p.seq = snd_nxt;
  p.ack = rcv_nxt;
  p.window = 65535;
  app_send (m, &p);

  deadline = now_ms () + WAIT_MS;
  while (!(fin_in && fin_acked))
    {
      size_t sent = snd_nxt - (iss + 1);

      CHECK_CMPUINT (now_ms (), <, deadline);
      /* Send what the engine's window allows (and our FIN after the last byte). */
      while (sent < up && (uint32_t) (snd_nxt - snd_una) < peer_wnd)
        {
          size_t room = peer_wnd - (snd_nxt - snd_una);
          size_t n = up - sent;

          n = n < mss ? n : mss;
          n = n < room ? n : room;
          flow_packet (&p, version, 6, sport, s.port);
          p.flags = ENGINE_TCP_ACK | ENGINE_TCP_PSH;
          p.seq = snd_nxt;
          p.ack = rcv_nxt;
          p.window = 65535;
          p.payload = request + sent;
          p.payload_len = n;
          app_send (m, &p);
          snd_nxt += (uint32_t) n;
          sent += n;
        }
      if (sent == up && !fin_out)
        {
          flow_packet (&p, version, 6, sport, s.port);
          p.flags = ENGINE_TCP_ACK | ENGINE_TCP_FIN;
          p.seq = snd_nxt;
          p.ack = rcv_nxt;
          p.window = 65535;
          app_send (m, &p);
          snd_nxt++;
          fin_out = true;
        }

      if (!app_recv (m, &in, rx, sizeof rx, 2000))
        continue;      /* the engine retransmits what we missed */
      CHECK (!(in.flags & ENGINE_TCP_RST));
      CHECK_CMPUINT (in.dport, ==, sport);
      if (in.flags & ENGINE_TCP_ACK)
        {
          uint32_t acked = in.ack - snd_una;

          CHECK_CMPUINT (acked, <=, snd_nxt - snd_una);
          snd_una = in.ack;
          peer_wnd = (uint32_t) in.window << shift;
          if (fin_out && snd_una == snd_nxt)
            fin_acked = true;
        }
      if (in.payload_len > 0 || (in.flags & ENGINE_TCP_FIN))
        {
          if (in.seq == rcv_nxt && !fin_in)
            {
              for (i = 0; i < in.payload_len; i++)
                if (in.payload[i] != pattern (2, got_down + i))
                  check_fail (__FILE__, __LINE__, "down byte %zu differs", got_down + i);
              got_down += in.payload_len;
              CHECK_CMPUINT (got_down, <=, down);
              rcv_nxt += (uint32_t) in.payload_len;
              if (in.flags & ENGINE_TCP_FIN)
                {
                  fin_in = true;
                  rcv_nxt++;
                }
            }
          /* In order or not: (duplicate) ACK with the whole window open. */
          flow_packet (&p, version, 6, sport, s.port);
          p.flags = ENGINE_TCP_ACK;
          p.seq = snd_nxt;
          p.ack = rcv_nxt;
          p.window = 65535;
          app_send (m, &p);
        }
    }
  CHECK_CMPUINT (got_down, ==, down);
  CHECK (pthread_join (s.thread, NULL) == 0);
  CHECK_CMPUINT (s.got, ==, up);
  CHECK (s.request_ok);
  close (s.fd);
  free (request);
}

/* Snapshots ------------------------------------------------------------- */

typedef struct {
  int     fd;
  uint8_t buf[1 << 20];
  size_t  len;
} SnapClient;

static int
abstract_connect (const char *name)
{
  struct sockaddr_un sun;
  socklen_t len;
  size_t name_len = strlen (name);
  int fd;

  CHECK_CMPUINT (name_len, <, sizeof sun.sun_path - 1);
  memset (&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  memcpy (sun.sun_path + 1, name, name_len);
  len = (socklen_t) (offsetof (struct sockaddr_un, sun_path) + 1 + name_len);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  CHECK (fd >= 0);
  CHECK (connect (fd, (struct sockaddr *) &sun, len) == 0);
  return fd;
}

/* Exactly @len bytes from @fd, within WAIT_MS. */
static void
read_exact (int     fd,
            void   *buf,
            size_t  len)
{
  uint64_t deadline = now_ms () + WAIT_MS;
  size_t got = 0;

  while (got < len)
    {
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      ssize_t n;

      CHECK_CMPUINT (now_ms (), <, deadline);
      if (poll (&pfd, 1, 1000) <= 0)
        continue;
      n = read (fd, (uint8_t *) buf + got, len - got);
      CHECK_CMPINT (n, >, 0);
      got += (size_t) n;
    }
}

static void
snap_connect (SnapClient *c,
              const Mem  *m)
{
  c->fd = abstract_connect (m->socket_name);
  c->len = 0;
}

/* The next length-delimited AgentMessage (base-128 varint length). */
static Adbscope__Agent__V1__AgentMessage *
snap_next (SnapClient *c)
{
  uint64_t deadline = now_ms () + WAIT_MS;

  for (;;)
    {
      uint64_t body = 0;
      size_t hdr = 0;
      unsigned shift = 0;
      bool have_len = false;
      struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
      ssize_t n;

      while (hdr < c->len && hdr < 10)
        {
          body |= (uint64_t) (c->buf[hdr] & 0x7f) << shift;
          shift += 7;
          if (!(c->buf[hdr++] & 0x80))
            {
              have_len = true;
              break;
            }
        }
      if (have_len && c->len >= hdr + body)
        {
          Adbscope__Agent__V1__AgentMessage *msg =
            adbscope__agent__v1__agent_message__unpack (NULL, (size_t) body, c->buf + hdr);

          CHECK (msg != NULL);
          memmove (c->buf, c->buf + hdr + body, c->len - hdr - (size_t) body);
          c->len -= hdr + (size_t) body;
          return msg;
        }
      CHECK_CMPUINT (c->len, <, sizeof c->buf);
      CHECK_CMPUINT (now_ms (), <, deadline);
      CHECK (poll (&pfd, 1, 1000) >= 0);
      if (!(pfd.revents & POLLIN))
        continue;
      n = read (c->fd, c->buf + c->len, sizeof c->buf - c->len);
      CHECK_CMPINT (n, >, 0);
      c->len += (size_t) n;
    }
}

/* Tests ------------------------------------------------------------------ */

static void
run_tcp (int version,
         int mtu)
{
  static SnapClient snap;
  Mem m;
  Adbscope__Agent__V1__AgentMessage *msg;
  const size_t up = 200 * 1024 + 17, down = 600 * 1024 + 33;
  const uint16_t sport = (uint16_t) (40000 + version * 10 + (mtu > 9000));
  bool seen = false;
  uint64_t deadline;

  mem_start (&m, mtu);
  snap_connect (&snap, &m);
  msg = snap_next (&snap);
  CHECK_CMPINT (msg->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO);
  CHECK_CMPUINT (msg->hello->protocol_version, ==, ADBSCOPE_AGENT_PROTOCOL_VERSION);
  CHECK_CMPSTR (msg->hello->platform, ==, "test-mem");
  CHECK_CMPUINT (msg->hello->snapshot_interval_ms, ==, 100);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  tcp_transfer (&m, version, mtu, sport, up, down);

  /* The snapshot counts what went through, as the app and server saw it. */
  deadline = now_ms () + WAIT_MS;
  while (!seen)
    {
      size_t i;

      CHECK_CMPUINT (now_ms (), <, deadline);
      msg = snap_next (&snap);
      if (msg->payload_case != ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT)
        {
          adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
          continue;
        }
      for (i = 0; i < msg->snapshot->n_connections; i++)
        {
          const Adbscope__Agent__V1__Connection *c = msg->snapshot->connections[i];

          if (c->source == NULL || c->source->port != sport || c->payload_down != down)
            continue;
          CHECK_CMPUINT (c->ip_version, ==, version);
          CHECK_CMPUINT (c->payload_up, ==, up);
          CHECK_CMPINT (c->uid, ==, APP_UID);
          CHECK_CMPSTR (c->host, ==, "mem.adbscope.test");
          CHECK_CMPMEM (c->destination->address.data, c->destination->address.len,
                        version == 4 ? lo4 : lo6, version == 4 ? 4 : 16);
          CHECK_CMPUINT (c->packets_up, >, up / (mtu - 40));
          CHECK_CMPINT (c->failure, ==, 0);
          seen = true;
        }
      if (seen)
        {
          const Adbscope__Agent__V1__Counters *k = msg->snapshot->counters;

          CHECK (k != NULL);
          CHECK_CMPUINT (k->tcp_connections_total, ==, 1);
          CHECK_CMPUINT (k->malformed, ==, 0);
          /* Nothing failed, and no write to the "TUN" was refused. */
          CHECK_CMPUINT (k->errors, ==, 0);
          CHECK_CMPUINT (k->packets_read, >, up / (mtu - 40));
          CHECK_CMPUINT (k->bytes_written, >, down);
        }
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
    }
  close (snap.fd);
  mem_stop (&m);
}

static void
test_tcp4 (void)
{
  run_tcp (4, 1500);
}

static void
test_tcp6_65535 (void)
{
  run_tcp (6, 65535);
}

/* UDP to an echo server, and DNS to the fake resolver answered through the
 * resolve_dns callback with the app's query id. */
static void
test_udp_dns (void)
{
  static uint8_t rx[70000];
  Mem m;
  Server echo = { 0 };
  EnginePacket p, in;
  static const char msg[] = "datagram through the engine";
  static const uint8_t query[] = {
    0xbe, 0xef, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
    3, 'm', 'e', 'm', 8, 'a', 'd', 'b', 's', 'c', 'o', 'p', 'e', 4, 't', 'e', 's', 't', 0,
    0, 1, 0, 1,
  };
  int answers = 0;
  EngineDnsQuery q;
  int pcap;
  uint32_t hdr[6], rec[4];
  uint16_t version[2];
  uint8_t sent[200], captured[200];
  size_t sent_len;

  mem_start (&m, 1500);
  server_bind (&echo, 4, SOCK_DGRAM);
  CHECK (pthread_create (&echo.thread, NULL, udp_echo_thread, &echo) == 0);

  /* The pcap stream: its header (in the engine's byte order, which the
   * magic tells) comes once the engine has taken the client, so what is
   * sent after it is captured. */
  pcap = abstract_connect (m.pcap_name);
  read_exact (pcap, hdr, sizeof hdr);
  CHECK_CMPHEX (hdr[0], ==, 0xa1b2c3d4u);
  memcpy (version, &hdr[1], sizeof version);
  CHECK_CMPUINT (version[0], ==, 2);
  CHECK_CMPUINT (version[1], ==, 4);
  CHECK_CMPUINT (hdr[4], >=, 1500);
  CHECK_CMPUINT (hdr[5], ==, 101);                       /* LINKTYPE_RAW */

  flow_packet (&p, 4, 17, 5353, echo.port);
  p.payload = (const uint8_t *) msg;
  p.payload_len = sizeof msg;
  sent_len = engine_packet_build (sent, sizeof sent, &p);
  CHECK_CMPUINT (sent_len, >, 0);
  app_send (&m, &p);
  CHECK (app_recv (&m, &in, rx, sizeof rx, WAIT_MS));
  /* The first record is the app's datagram, whole. */
  read_exact (pcap, rec, sizeof rec);
  CHECK_CMPUINT (rec[2], ==, sent_len);
  CHECK_CMPUINT (rec[3], ==, sent_len);
  CHECK_CMPUINT (rec[1], <, 1000000);
  CHECK_CMPUINT (rec[0], >, 1600000000u);                /* wall-clock seconds */
  read_exact (pcap, captured, sent_len);
  CHECK_CMPMEM (captured, sent_len, sent, sent_len);
  close (pcap);
  CHECK_CMPUINT (in.protocol, ==, 17);
  CHECK_CMPUINT (in.sport, ==, echo.port);
  CHECK_CMPUINT (in.dport, ==, 5353);
  CHECK_CMPMEM (in.dst, 4, app4, 4);
  CHECK_CMPMEM (in.payload, in.payload_len, msg, sizeof msg);
  CHECK (pthread_join (echo.thread, NULL) == 0);
  close (echo.fd);

  flow_packet (&p, 4, 17, 33333, 53);
  memcpy (p.dst, dns4, 4);
  p.payload = query;
  p.payload_len = sizeof query;
  app_send (&m, &p);
  CHECK (app_recv (&m, &in, rx, sizeof rx, WAIT_MS));
  CHECK_CMPUINT (in.sport, ==, 53);
  CHECK_CMPUINT (in.dport, ==, 33333);
  CHECK_CMPMEM (in.src, 4, dns4, 4);
  CHECK (engine_dns_parse_question (in.payload, in.payload_len, &q));
  CHECK_CMPHEX (q.id, ==, 0xbeef);
  CHECK_CMPHEX (q.flags & 0x800f, ==, 0x8000);          /* a response, NOERROR */
  CHECK_CMPSTR (q.name, ==, "mem.adbscope.test");
  answers = engine_dns_parse_answers (in.payload, in.payload_len, NULL, NULL);
  CHECK_CMPINT (answers, ==, 1);
  mem_stop (&m);
}

int
main (int    argc,
      char **argv)
{
  static const CheckTest tests[] = {
    { "/agent/mem/tcp4", test_tcp4 },
    { "/agent/mem/tcp6-65535", test_tcp6_65535 },
    { "/agent/mem/udp-dns", test_udp_dns },
  };

  signal (SIGPIPE, SIG_IGN);
  return check_run (argc, argv, tests, CHECK_N_ELEMENTS (tests));
}
