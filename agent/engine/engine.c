/* engine.c: the engine's life cycle, the TUN reader thread and its queue,
 * the poll loop with its 100 ms timer and 1 s snapshot, and the flow table.
 * Flow state belongs to the engine thread alone, so flow code has no locks;
 * the only shared structures are the packet queue and the DNS answers. */
#include "engine-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#define READER_BATCH 64
#define DRAIN_BATCH  256
#define DRAIN_MAX    2048

static char *
dup_or_null (const char *s)
{
  return s ? strdup (s) : NULL;
}

void
adbscope_agent_config_init (AdbscopeAgentConfig *config)
{
  static const unsigned int default_uids[] = { 0, 2000 };

  memset (config, 0, sizeof *config);
  config->tun_fd = -1;
  config->mtu = 1500;
  config->dns4[0] = 10;
  config->dns4[1] = 215;
  config->dns4[2] = 173;
  config->dns4[3] = 2;
  config->allowed_uids = default_uids;
  config->n_allowed_uids = 2;
  config->idle_exit_ms = 30000;
  config->snapshot_interval_ms = 1000;
  config->udp_idle_ms = 120000;
  config->dns_timeout_ms = 5000;
  /* agent_version: the platform's (the project's one version, from meson). */
  config->platform = "linux";
}

uint64_t
engine_now_us (AdbscopeAgentEngine *e)
{
  struct timespec ts;

  if (e->cb.now_us)
    return e->cb.now_us (e->cb.user_data, ADBSCOPE_AGENT_CLOCK_MONOTONIC);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

uint64_t
engine_wall_us (AdbscopeAgentEngine *e)
{
  struct timespec ts;

  if (e->cb.now_us)
    return e->cb.now_us (e->cb.user_data, ADBSCOPE_AGENT_CLOCK_REALTIME);
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

void
engine_log (AdbscopeAgentEngine  *e,
            AdbscopeAgentLogLevel level,
            const char           *fmt,
            ...)
{
  char buf[512];
  va_list ap;

  if (e->cb.log == NULL)
    return;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  e->cb.log (e->cb.user_data, level, buf);
}

uint8_t
engine_failure_from_errno (int err)
{
  switch (err)
    {
    case ECONNREFUSED:
      return ENGINE_FAIL_REFUSED;
    case ETIMEDOUT:
      return ENGINE_FAIL_TIMED_OUT;
    case EHOSTUNREACH:
      return ENGINE_FAIL_HOST_UNREACH;
    case ENETUNREACH:
      return ENGINE_FAIL_NET_UNREACH;
    case ECONNRESET:
    case EPIPE:
      return ENGINE_FAIL_RESET_BY_SERVER;
    default:
      return ENGINE_FAIL_SOCKET;
    }
}

/* Flow table ---------------------------------------------------------- */

static unsigned
flow_hash (const AdbscopeAgentFlowKey *key)
{
  const uint8_t *p = (const uint8_t *) key;
  uint32_t h = 2166136261u;
  size_t i;

  for (i = 0; i < sizeof *key; i++)
    h = (h ^ p[i]) * 16777619u;
  return h % ENGINE_HASH_BUCKETS;
}

EngineFlow *
engine_flow_lookup (AdbscopeAgentEngine        *e,
                    const AdbscopeAgentFlowKey *key)
{
  EngineFlow *f;

  for (f = e->hash[flow_hash (key)]; f; f = f->hnext)
    if (memcmp (&f->key, key, sizeof *key) == 0)
      return f;
  return NULL;
}

static int
app_index (AdbscopeAgentEngine *e,
           int                  uid)
{
  unsigned i;
  EngineApp *apps;

  for (i = 0; i < e->n_apps; i++)
    if (e->apps[i].uid == uid)
      return (int) i;
  apps = realloc (e->apps, (e->n_apps + 1) * sizeof *apps);
  if (apps == NULL)
    return 0;
  e->apps = apps;
  memset (&apps[e->n_apps], 0, sizeof *apps);
  apps[e->n_apps].uid = uid;
  return (int) e->n_apps++;
}

/* "ADDR" (port 53), or for tests "IPV4:PORT" / "[IPV6]:PORT". */
static bool
parse_dns_server (const char              *text,
                  struct sockaddr_storage *ss,
                  socklen_t               *len)
{
  char host[64];
  const char *colon = strrchr (text, ':');
  unsigned long port = 53;
  size_t n;

  memset (ss, 0, sizeof *ss);
  if (text[0] == '[')
    {
      const char *close_br = strchr (text, ']');

      if (close_br == NULL || close_br[1] != ':' || (size_t) (close_br - text - 1) >= sizeof host)
        return false;
      n = (size_t) (close_br - text - 1);
      memcpy (host, text + 1, n);
      host[n] = '\0';
      port = strtoul (close_br + 2, NULL, 10);
    }
  else if (colon && strchr (text, ':') == colon)
    {
      n = (size_t) (colon - text);
      if (n >= sizeof host)
        return false;
      memcpy (host, text, n);
      host[n] = '\0';
      port = strtoul (colon + 1, NULL, 10);
    }
  else
    snprintf (host, sizeof host, "%s", text);
  if (port == 0 || port > 65535)
    return false;
  if (strchr (host, ':'))
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;

      if (inet_pton (AF_INET6, host, &sin6->sin6_addr) != 1)
        return false;
      sin6->sin6_family = AF_INET6;
      sin6->sin6_port = htons ((uint16_t) port);
      *len = sizeof *sin6;
    }
  else
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) ss;

      if (inet_pton (AF_INET, host, &sin->sin_addr) != 1)
        return false;
      sin->sin_family = AF_INET;
      sin->sin_port = htons ((uint16_t) port);
      *len = sizeof *sin;
    }
  return true;
}

EngineFlow *
engine_flow_new (AdbscopeAgentEngine        *e,
                 const AdbscopeAgentFlowKey *key)
{
  EngineFlow *f = calloc (1, sizeof *f);
  unsigned b;
  const char *host;

  if (f == NULL)
    return NULL;
  f->ev.kind = ENGINE_EV_FLOW;
  f->key = *key;
  f->id = ++e->next_flow_id;
  f->fd = -1;
  f->uid = e->cb.get_uid ? e->cb.get_uid (e->cb.user_data, key) : -1;
  /* app 0 is created in engine_new, so a failed realloc still has a home */
  f->app = app_index (e, f->uid);
  f->open_ms = engine_wall_us (e) / 1000;
  f->last_us = engine_now_us (e);
  f->state = key->protocol == 6 ? ENGINE_CONN_CONNECTING : ENGINE_CONN_OPEN;
  host = engine_host_cache_get (e, key->ip_version, key->dst);
  if (host)
    {
      snprintf (f->host, sizeof f->host, "%s", host);
      f->host_source = ENGINE_HOST_SRC_DNS;
    }

  b = flow_hash (key);
  f->hnext = e->hash[b];
  e->hash[b] = f;
  f->in_hash = true;
  f->next = e->live;
  if (e->live)
    e->live->prev = f;
  e->live = f;

  e->apps[f->app].open++;
  e->apps[f->app].total++;
  if (key->protocol == 6)
    {
      e->c.tcp_total++;
      e->tcp_open++;
    }
  else
    {
      e->c.udp_total++;
      e->udp_open++;
    }
  return f;
}

void
engine_flow_unhash (AdbscopeAgentEngine *e,
                    EngineFlow          *flow)
{
  EngineFlow **pp;

  if (!flow->in_hash)
    return;
  for (pp = &e->hash[flow_hash (&flow->key)]; *pp; pp = &(*pp)->hnext)
    if (*pp == flow)
      {
        *pp = flow->hnext;
        break;
      }
  flow->in_hash = false;
}

int
engine_flow_set_events (AdbscopeAgentEngine *e,
                        EngineFlow          *flow,
                        uint32_t             events)
{
  struct epoll_event ev = { 0 };
  int op;

  if (flow->fd < 0 || events == flow->ep_events)
    return 0;
  /* No interest means not registered at all: EPOLLHUP/EPOLLERR cannot be
   * masked, and a socket we do not want to read must not spin the loop. */
  if (events == 0)
    op = EPOLL_CTL_DEL;
  else if (flow->ep_events == 0)
    op = EPOLL_CTL_ADD;
  else
    op = EPOLL_CTL_MOD;
  ev.events = events;
  ev.data.ptr = &flow->ev;
  if (epoll_ctl (e->epfd, op, flow->fd, &ev) < 0)
    {
      engine_log (e, ADBSCOPE_AGENT_LOG_ERROR, "epoll_ctl: %s", strerror (errno));
      e->c.errors++;
      return -1;
    }
  flow->ep_events = events;
  return 0;
}

void
engine_flow_close_fd (AdbscopeAgentEngine *e,
                      EngineFlow          *flow)
{
  if (flow->fd < 0)
    return;
  engine_flow_set_events (e, flow, 0);
  close (flow->fd);
  flow->fd = -1;
  flow->ep_events = 0;
}

int
engine_flow_socket (AdbscopeAgentEngine *e,
                    EngineFlow          *flow,
                    int                  type)
{
  int family = flow->key.ip_version == 4 ? AF_INET : AF_INET6;
  int fd = socket (family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

  if (fd < 0)
    return -1;
  if (e->cb.protect_socket && e->cb.protect_socket (e->cb.user_data, fd) < 0)
    {
      int err = errno;

      close (fd);
      errno = err ? err : EPERM;
      return -2;
    }
  flow->fd = fd;
  flow->ep_events = 0;
  return fd;
}

void
engine_flow_finish (AdbscopeAgentEngine *e,
                    EngineFlow          *flow,
                    uint8_t              state,
                    uint8_t              failure,
                    int                  err)
{
  if (flow->closed)
    return;
  flow->state = state;
  flow->failure = failure;
  flow->failure_errno = err;
  flow->close_ms = engine_wall_us (e) / 1000;
  engine_flow_close_fd (e, flow);
  free (flow->peek);
  flow->peek = NULL;
  flow->peek_done = true;

  if (flow->key.protocol == 6)
    e->tcp_open--;
  else
    e->udp_open--;
  if (e->apps[flow->app].open > 0)
    e->apps[flow->app].open--;

  /* live list → closed list */
  if (flow->prev)
    flow->prev->next = flow->next;
  else
    e->live = flow->next;
  if (flow->next)
    flow->next->prev = flow->prev;
  flow->next = NULL;
  flow->prev = e->closed_tail;
  if (e->closed_tail)
    e->closed_tail->next = flow;
  else
    e->closed_head = flow;
  e->closed_tail = flow;
  e->n_closed++;
  flow->closed = true;

  if (flow->tcp)
    {
      /* Keep the sequence numbers for a while so stray segments (a FIN
       * retransmitted because our ACK was lost) get a sensible answer. */
      engine_tcp_free (flow->tcp);
      flow->tcp->state = ENGINE_TCP_DONE;
      flow->tcp->rto_at_us = 0;
      flow->tcp->linger_until_us = engine_now_us (e) + ENGINE_LINGER_MS * 1000u;
    }
  else
    engine_flow_unhash (e, flow);
}

static void
flow_free (EngineFlow *flow)
{
  if (flow->fd >= 0)
    close (flow->fd);
  if (flow->tcp)
    {
      engine_tcp_free (flow->tcp);
      free (flow->tcp);
    }
  free (flow->peek);
  free (flow);
}

void
engine_flow_defer (AdbscopeAgentEngine *e,
                   EngineFlow          *flow)
{
  if (flow->pending)
    return;
  flow->pending = true;
  flow->pending_next = e->pending;
  e->pending = flow;
}

/* Closed flows stay in memory until a tick, which never runs in the middle
 * of a batch: every flow on the list is still valid. */
static void
run_pending (AdbscopeAgentEngine *e)
{
  EngineFlow *f, *list = e->pending;

  /* A flow deferred again while the list runs (its TUN burst was spent)
   * waits for the next round. */
  e->pending = NULL;
  while ((f = list) != NULL)
    {
      list = f->pending_next;
      f->pending_next = NULL;
      f->pending = false;
      if (f->tcp)
        engine_tcp_pending (e, f);
    }
}

/* A flow can wait on the pending list across rounds (engine_tun_burst_spent):
 * it leaves the list before it leaves memory. */
static void
pending_remove (AdbscopeAgentEngine *e,
                EngineFlow          *flow)
{
  EngineFlow **pp;

  for (pp = &e->pending; *pp; pp = &(*pp)->pending_next)
    if (*pp == flow)
      {
        *pp = flow->pending_next;
        flow->pending_next = NULL;
        flow->pending = false;
        return;
      }
}

void
engine_flow_account_up (AdbscopeAgentEngine *e,
                        EngineFlow          *flow,
                        size_t               ip_len,
                        size_t               payload_len)
{
  EngineApp *app = &e->apps[flow->app];

  flow->bytes_up += ip_len;
  flow->packets_up++;
  flow->payload_up += payload_len;
  app->bytes_up += ip_len;
  app->packets_up++;
}

void
engine_flow_peek (AdbscopeAgentEngine *e,
                  EngineFlow          *flow,
                  const uint8_t       *data,
                  size_t               len)
{
  const uint8_t *buf;
  size_t buf_len;
  char host[256];
  EngineHostResult sni, http;

  if (flow->peek_done || len == 0)
    return;

  if (flow->peek_len == 0)
    {
      /* Usually the first segment holds the whole ClientHello or request
       * head: parse it in place and copy nothing. */
      buf = data;
      buf_len = len < ENGINE_PEEK_MAX ? len : ENGINE_PEEK_MAX;
    }
  else
    {
      size_t take = ENGINE_PEEK_MAX - flow->peek_len;

      if (take > len)
        take = len;
      memcpy (flow->peek + flow->peek_len, data, take);
      flow->peek_len += (uint32_t) take;
      buf = flow->peek;
      buf_len = flow->peek_len;
    }

  sni = engine_tls_sni (buf, buf_len, host, sizeof host);
  if (sni == ENGINE_HOST_FOUND)
    {
      snprintf (flow->host, sizeof flow->host, "%s", host);
      flow->host_source = ENGINE_HOST_SRC_SNI;
      goto done;
    }
  http = engine_http_host (buf, buf_len, host, sizeof host);
  if (http == ENGINE_HOST_FOUND)
    {
      snprintf (flow->host, sizeof flow->host, "%s", host);
      flow->host_source = ENGINE_HOST_SRC_HTTP;
      goto done;
    }
  if ((sni == ENGINE_HOST_NONE && http == ENGINE_HOST_NONE) || buf_len >= ENGINE_PEEK_MAX)
    goto done;

  if (flow->peek == NULL)
    {
      flow->peek = malloc (ENGINE_PEEK_MAX);
      if (flow->peek == NULL)
        goto done;
      memcpy (flow->peek, buf, buf_len);
      flow->peek_len = (uint32_t) buf_len;
    }
  return;

done:
  flow->peek_done = true;
  free (flow->peek);
  flow->peek = NULL;
}

/* IP → name from DNS answers ------------------------------------------ */

static unsigned
host_slot (uint8_t        ip_version,
           const uint8_t *addr)
{
  uint32_t h = 2166136261u;
  size_t i, n = ip_version == 4 ? 4 : 16;

  for (i = 0; i < n; i++)
    h = (h ^ addr[i]) * 16777619u;
  return h % ENGINE_HOST_CACHE_SIZE;
}

void
engine_host_cache_put (AdbscopeAgentEngine *e,
                       uint8_t              ip_version,
                       const uint8_t       *addr,
                       const char          *name)
{
  EngineHostEntry *h = &e->hosts[host_slot (ip_version, addr)];

  /* A collision overwrites: the cache is a hint, not a record. */
  memset (h, 0, sizeof *h);
  h->ip_version = ip_version;
  memcpy (h->addr, addr, ip_version == 4 ? 4 : 16);
  snprintf (h->name, sizeof h->name, "%s", name);
}

const char *
engine_host_cache_get (AdbscopeAgentEngine *e,
                       uint8_t              ip_version,
                       const uint8_t       *addr)
{
  EngineHostEntry *h = &e->hosts[host_slot (ip_version, addr)];

  if (h->ip_version == ip_version && memcmp (h->addr, addr, ip_version == 4 ? 4 : 16) == 0)
    return h->name;
  return NULL;
}

/* Writing to the TUN device ------------------------------------------ */

/* The hook and the pcap stream want the packet in one piece. */
static void
send_linear (AdbscopeAgentEngine *e,
             size_t               len)
{
  ssize_t n;

  e->c.packets_written++;
  e->c.bytes_written += len;
  if (e->cb.packet_hook
      && e->cb.packet_hook (e->cb.user_data, ADBSCOPE_AGENT_TO_APP, e->pkt_buf, len))
    return;
  if (engine_pcap_wanted (e))
    engine_pcap_packet (e, e->pkt_buf, len, engine_wall_us (e));
  do
    n = write (e->tun_fd, e->pkt_buf, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    e->c.errors++;
}

void
engine_send (AdbscopeAgentEngine *e,
             EnginePacket        *pkt)
{
  size_t len = engine_packet_build (e->pkt_buf, ENGINE_MAX_PACKET, pkt);

  if (len == 0)
    {
      e->c.errors++;
      return;
    }
  send_linear (e, len);
}

void
engine_send_iov (AdbscopeAgentEngine *e,
                 EnginePacket        *pkt,
                 const struct iovec  *payload,
                 int                  n_payload)
{
  struct iovec iov[1 + ENGINE_MAX_PAYLOAD_IOV];
  uint32_t sum = 0;
  size_t hlen, off = 0;
  ssize_t n;
  int i;

  pkt->payload = NULL;
  if (e->cb.packet_hook || engine_pcap_wanted (e))
    {
      /* Slow path: copy the payload behind where the headers go. */
      hlen = engine_packet_header_len (pkt);
      if (hlen + pkt->payload_len > ENGINE_MAX_PACKET)
        {
          e->c.errors++;
          return;
        }
      for (i = 0; i < n_payload; i++)
        {
          memcpy (e->pkt_buf + hlen + off, payload[i].iov_base, payload[i].iov_len);
          off += payload[i].iov_len;
        }
      engine_send (e, pkt);
      return;
    }

  /* Fast path: sum the payload where it lies (hot in the cache after the
   * socket read) and hand it to the kernel without another copy. */
  for (i = 0; i < n_payload; i++)
    {
      sum = engine_checksum_block_add (sum, engine_checksum_partial (payload[i].iov_base,
                                                                     payload[i].iov_len, 0),
                                       off);
      off += payload[i].iov_len;
      iov[1 + i] = payload[i];
    }
  hlen = engine_packet_build_header (e->pkt_buf, ENGINE_MAX_PACKET, pkt, sum);
  if (hlen == 0 || off != pkt->payload_len)
    {
      e->c.errors++;
      return;
    }
  iov[0].iov_base = e->pkt_buf;
  iov[0].iov_len = hlen;
  e->c.packets_written++;
  e->c.bytes_written += hlen + off;
  do
    n = writev (e->tun_fd, iov, 1 + n_payload);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    e->c.errors++;
}

static void
reply_prepare (AdbscopeAgentEngine *e,
               EngineFlow          *flow,
               EnginePacket        *pkt)
{
  EngineApp *app = &e->apps[flow->app];
  size_t hlen;

  pkt->ip_version = flow->key.ip_version;
  pkt->protocol = flow->key.protocol;
  memcpy (pkt->src, flow->key.dst, 16);
  memcpy (pkt->dst, flow->key.src, 16);
  pkt->sport = flow->key.dport;
  pkt->dport = flow->key.sport;
  hlen = engine_packet_header_len (pkt);
  flow->bytes_down += hlen + pkt->payload_len;
  flow->packets_down++;
  flow->payload_down += pkt->payload_len;
  app->bytes_down += hlen + pkt->payload_len;
  app->packets_down++;
}

void
engine_reply (AdbscopeAgentEngine *e,
              EngineFlow          *flow,
              EnginePacket        *pkt)
{
  reply_prepare (e, flow, pkt);
  engine_send (e, pkt);
}

void
engine_reply_iov (AdbscopeAgentEngine *e,
                  EngineFlow          *flow,
                  EnginePacket        *pkt,
                  const struct iovec  *payload,
                  int                  n_payload)
{
  reply_prepare (e, flow, pkt);
  engine_send_iov (e, pkt, payload, n_payload);
}

/* The reader thread ---------------------------------------------------- */

static void
wake (AdbscopeAgentEngine *e)
{
  uint64_t one = 1;
  ssize_t n;

  do
    n = write (e->wake_fd, &one, sizeof one);
  while (n < 0 && errno == EINTR);
}

/* Packets up to this size are copied into a buffer of their size; larger
 * ones keep the buffer they were read into, shrunk. */
#define READER_SMALL 2048

typedef enum {
  READ_PACKET,
  READ_SKIPPED,                 /* dropped by the hook or for want of memory */
  READ_NONE,                    /* nothing (left) to read */
} ReadResult;

/* Reads one packet from the TUN into a new queue packet.  The caller holds
 * qlock: whichever thread reads, packets stay in the order they came. */
static ReadResult
read_packet (AdbscopeAgentEngine *e,
             EngineQPkt         **spare,
             EngineQPkt         **out)
{
  EngineQPkt *p;
  struct timespec ts;
  ssize_t n;

  if (*spare == NULL)
    *spare = malloc (sizeof **spare + ENGINE_MAX_PACKET);
  if (*spare == NULL)
    return READ_NONE;
  do
    n = read (e->tun_fd, (*spare)->data, ENGINE_MAX_PACKET);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    return READ_NONE;
  if (e->cb.packet_hook
      && e->cb.packet_hook (e->cb.user_data, ADBSCOPE_AGENT_FROM_APP, (*spare)->data, (size_t) n))
    return READ_SKIPPED;
  /* Read straight into the queue's buffer: a big packet is not copied
   * again. */
  if ((size_t) n <= READER_SMALL)
    {
      p = malloc (sizeof *p + (size_t) n);
      if (p == NULL)
        {
          atomic_fetch_add (&e->dropped_queue_full, 1);
          return READ_SKIPPED;
        }
      memcpy (p->data, (*spare)->data, (size_t) n);
    }
  else
    {
      p = realloc (*spare, sizeof *p + (size_t) n);
      if (p == NULL)
        p = *spare;
      *spare = NULL;
    }
  p->len = (size_t) n;
  if (e->cb.now_us)
    p->wall_us = e->cb.now_us (e->cb.user_data, ADBSCOPE_AGENT_CLOCK_REALTIME);
  else
    {
      clock_gettime (CLOCK_REALTIME, &ts);
      p->wall_us = (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
    }
  *out = p;
  return READ_PACKET;
}

/* The reader must not be woken by every packet: in a burst the engine is
 * busy most of the time, and a TUN waiter then costs the app's thread a
 * wake-up (a cross-CPU interrupt) per packet and the reader a context switch
 * — a quarter of the engine threads' CPU in an upload.  So it watches
 * instead: every READER_WATCH_MS it looks at the engine's beat, and only
 * when the engine is busy and its beat stood still (stalled in a callback,
 * or the host stole its CPU) does it wait for the TUN itself
 * (EPOLLEXCLUSIVE, after the engine) and move packets into the bounded
 * queue, until the engine moves again.  After READER_IDLE_CHECKS checks
 * that found the engine idle it sleeps until the engine has work again
 * (reader_wake_fd), so an idle agent wakes nobody.  Without EPOLLEXCLUSIVE
 * the reader alone reads and always waits for the TUN. */
#define READER_WATCH_MS    1
#define READER_IDLE_CHECKS 50

typedef enum {
  READER_WATCH,
  READER_TAKEOVER,
  READER_SLEEP,
} ReaderMode;

static bool
reader_set_tun (AdbscopeAgentEngine *e,
                int                  epfd,
                bool                 on)
{
  struct epoll_event ev = { 0 };

  ev.events = EPOLLIN | (e->tun_direct ? EPOLLEXCLUSIVE : 0);
  ev.data.u32 = 0;
  return epoll_ctl (epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, e->tun_fd, &ev) == 0;
}

/* Moves what the TUN holds into the queue (at most READER_BATCH packets). */
static void
reader_read (AdbscopeAgentEngine *e,
             EngineQPkt         **spare)
{
  int i;

  for (i = 0; i < READER_BATCH; i++)
    {
      EngineQPkt *p = NULL;
      ReadResult r;
      bool was_empty;

      pthread_mutex_lock (&e->qlock);
      r = read_packet (e, spare, &p);
      if (r != READ_PACKET)
        {
          pthread_mutex_unlock (&e->qlock);
          if (r == READ_NONE)
            {
              if (*spare == NULL)
                usleep (1000);    /* no memory to read into: retry soon */
              break;
            }
          continue;
        }
      if (e->q_len == ADBSCOPE_AGENT_QUEUE_PACKETS)
        {
          pthread_mutex_unlock (&e->qlock);
          free (p);
          atomic_fetch_add (&e->dropped_queue_full, 1);
          continue;
        }
      e->q[(e->q_head + e->q_len) % ADBSCOPE_AGENT_QUEUE_PACKETS] = p;
      e->q_len++;
      was_empty = e->q_len == 1;
      pthread_mutex_unlock (&e->qlock);
      /* The engine drains the whole queue before it sleeps, and looks at
       * it again after it said it would sleep: only a packet that makes
       * the queue non-empty while it sleeps needs the eventfd. */
      if (was_empty && atomic_load (&e->engine_idle)
          && atomic_exchange (&e->engine_idle, false))
        wake (e);
    }
}

static void *
reader_main (void *data)
{
  AdbscopeAgentEngine *e = data;
  struct epoll_event ev = { 0 }, evs[3];
  EngineQPkt *spare = NULL;
  int epfd = epoll_create1 (EPOLL_CLOEXEC);
  ReaderMode mode = e->tun_direct ? READER_WATCH : READER_TAKEOVER;
  uint64_t beat = atomic_load (&e->engine_beat);
  unsigned idle_checks = 0;

  if (epfd < 0)
    {
      engine_log (e, ADBSCOPE_AGENT_LOG_ERROR, "reader: epoll_create1: %s", strerror (errno));
      return NULL;
    }
  ev.events = EPOLLIN;
  ev.data.u32 = 1;
  if (epoll_ctl (epfd, EPOLL_CTL_ADD, e->reader_stop_fd, &ev) < 0)
    goto out;
  ev.data.u32 = 2;
  if (epoll_ctl (epfd, EPOLL_CTL_ADD, e->reader_wake_fd, &ev) < 0)
    goto out;
  if (mode == READER_TAKEOVER && !reader_set_tun (e, epfd, true))
    goto out;

  for (;;)
    {
      int i, n, timeout;
      bool stop = false, readable = false;
      uint64_t now_beat;

      timeout = mode == READER_SLEEP ? -1
                : mode == READER_WATCH || e->tun_direct ? READER_WATCH_MS : -1;
      n = epoll_wait (epfd, evs, 3, timeout);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      for (i = 0; i < n; i++)
        {
          if (evs[i].data.u32 == 1)
            stop = true;
          else if (evs[i].data.u32 == 2)
            {
              uint64_t v;

              if (read (e->reader_wake_fd, &v, sizeof v) < 0)
                (void) v;
            }
          else if (evs[i].events & EPOLLERR)
            stop = true;
          else
            readable = true;
        }
      if (stop)
        break;
      if (readable)
        reader_read (e, &spare);
      if (!e->tun_direct)
        continue;

      /* Is the engine moving? */
      now_beat = atomic_load (&e->engine_beat);
      if (mode == READER_SLEEP)
        {
          mode = READER_WATCH;          /* woken: the engine has work */
          idle_checks = 0;
        }
      else if (now_beat != beat || atomic_load (&e->engine_idle))
        {
          if (mode == READER_TAKEOVER && reader_set_tun (e, epfd, false))
            mode = READER_WATCH;
          if (now_beat == beat && ++idle_checks >= READER_IDLE_CHECKS)
            {
              /* Say we sleep, then look again: an engine that left its
               * wait before it saw the flag is seen here; one that leaves
               * after it sees the flag and writes reader_wake_fd (seq_cst
               * on both sides). */
              atomic_store (&e->reader_asleep, true);
              if (atomic_load (&e->engine_idle) || !atomic_exchange (&e->reader_asleep, false))
                mode = READER_SLEEP;
              idle_checks = 0;
            }
          else if (now_beat != beat)
            idle_checks = 0;
        }
      else if (mode == READER_WATCH)
        {
          /* Busy, and not one round since the last look: a stall.  Take
           * over the TUN until the engine moves again. */
          if (reader_set_tun (e, epfd, true))
            {
              mode = READER_TAKEOVER;
              reader_read (e, &spare);
            }
        }
      beat = now_beat;
    }
out:
  close (epfd);
  free (spare);
  return NULL;
}

/* The engine thread ---------------------------------------------------- */

static void
handle_packet (AdbscopeAgentEngine *e,
               EngineQPkt          *p)
{
  EnginePacket pkt;

  e->c.packets_read++;
  e->c.bytes_read += p->len;
  if (engine_pcap_wanted (e))
    engine_pcap_packet (e, p->data, p->len, p->wall_us);

  switch (engine_packet_parse (p->data, p->len, &pkt))
    {
    case ENGINE_PKT_OK:
      if (pkt.protocol == 6)
        engine_tcp_input (e, &pkt);
      else
        engine_udp_input (e, &pkt);
      break;
    case ENGINE_PKT_MALFORMED:
      e->c.malformed++;
      break;
    case ENGINE_PKT_FRAGMENT:
      e->c.unsupported_fragments++;
      break;
    case ENGINE_PKT_ICMP:
      e->c.unsupported_icmp++;
      break;
    case ENGINE_PKT_UNSUPPORTED:
    default:
      e->c.unsupported_protocol++;
      break;
    }
}

#define DIRECT_BATCH 64

/* Handles what the reader queued, then (@tun_ready) what the TUN holds,
 * read here without a detour through the reader.  Returns true when
 * packets are left for the next round. */
static bool
drain_queue (AdbscopeAgentEngine *e,
             bool                 tun_ready)
{
  EngineQPkt *batch[DRAIN_BATCH];
  unsigned done = 0;

  while (done < DRAIN_MAX)
    {
      unsigned n = 0, i;

      pthread_mutex_lock (&e->qlock);
      while (n < DRAIN_BATCH && e->q_len > 0)
        {
          batch[n++] = e->q[e->q_head];
          e->q_head = (e->q_head + 1) % ADBSCOPE_AGENT_QUEUE_PACKETS;
          e->q_len--;
        }
      /* Only with the queue empty: what the TUN holds came after it. */
      while (tun_ready && n < DIRECT_BATCH)
        {
          EngineQPkt *p = NULL;
          ReadResult r = read_packet (e, &e->engine_spare, &p);

          if (r == READ_NONE)
            {
              tun_ready = false;
              e->tun_empty_mark = e->c.packets_written;
            }
          else if (r == READ_PACKET)
            batch[n++] = p;
        }
      pthread_mutex_unlock (&e->qlock);
      if (n == 0)
        {
          /* Flows that waited for the TUN to be read send on now. */
          if (e->pending != NULL && !engine_tun_burst_spent (e))
            run_pending (e);
          return e->pending != NULL;
        }
      /* Each packet read left a place in the TUN's queue. */
      e->tun_empty_mark = e->tun_empty_mark + n < e->c.packets_written
                          ? e->tun_empty_mark + n : e->c.packets_written;
      atomic_fetch_add (&e->engine_beat, 1);
      for (i = 0; i < n; i++)
        {
          handle_packet (e, batch[i]);
          free (batch[i]);
        }
      run_pending (e);
      done += n;
    }
  return true;
}

static void
tick (AdbscopeAgentEngine *e,
      uint64_t             now)
{
  EngineFlow *f, *next;
  uint64_t now_ms = engine_wall_us (e) / 1000;

  for (f = e->live; f; f = next)
    {
      next = f->next;           /* a tick may move f to the closed list */
      if (f->tcp)
        engine_tcp_tick (e, f, now);
      else
        engine_udp_tick (e, f, now);
    }

  /* Closed flows: leave the hash after the linger, leave memory after
   * ENGINE_CLOSED_KEEP_MS (they are in snapshots until then). */
  for (f = e->closed_head; f; f = f->next)
    if (f->in_hash && f->tcp && now >= f->tcp->linger_until_us)
      engine_flow_unhash (e, f);
  while ((f = e->closed_head) != NULL
         && (e->n_closed > ENGINE_CLOSED_KEEP_MAX
             || f->close_ms + ENGINE_CLOSED_KEEP_MS <= now_ms))
    {
      e->closed_head = f->next;
      if (e->closed_head)
        e->closed_head->prev = NULL;
      else
        e->closed_tail = NULL;
      e->n_closed--;
      engine_flow_unhash (e, f);
      if (f->pending)
        pending_remove (e, f);
      flow_free (f);
    }

  engine_dns_tick (e, now);
}

AdbscopeAgentEngine *
adbscope_agent_engine_new (const AdbscopeAgentConfig    *config,
                           const AdbscopeAgentCallbacks *callbacks,
                           char                         *error,
                           size_t                        error_len)
{
  AdbscopeAgentEngine *e;
  struct epoll_event ev = { 0 };
  int flags;

  if (error && error_len)
    error[0] = '\0';
  if (config == NULL || config->tun_fd < 0 || config->mtu < 576 || config->mtu > 65535
      || config->snapshot_interval_ms <= 0)
    {
      if (error)
        snprintf (error, error_len, "invalid configuration");
      errno = EINVAL;
      return NULL;
    }

  e = calloc (1, sizeof *e);
  if (e == NULL)
    return NULL;
  e->config = *config;
  if (callbacks)
    e->cb = *callbacks;
  e->tun_fd = config->tun_fd;
  e->epfd = e->wake_fd = e->reader_stop_fd = e->reader_wake_fd = -1;
  e->snap_listener.fd = e->pcap_listener.fd = -1;
  e->socket_name = dup_or_null (config->socket_name);
  e->pcap_socket_name = dup_or_null (config->pcap_socket_name);
  e->agent_version = strdup (config->agent_version ? config->agent_version : "");
  e->platform = strdup (config->platform ? config->platform : "");
  e->config.socket_name = e->socket_name;
  e->config.pcap_socket_name = e->pcap_socket_name;
  e->config.agent_version = e->agent_version;
  e->config.platform = e->platform;
  e->instance_token = dup_or_null (config->instance_token);
  e->config.instance_token = e->instance_token;
  e->config.dns_servers = NULL;
  if (config->dns_servers)
    {
      size_t i;

      for (i = 0; config->dns_servers[i] && e->n_dns_servers < ENGINE_DNS_SERVERS_MAX; i++)
        if (parse_dns_server (config->dns_servers[i], &e->dns_servers[e->n_dns_servers],
                              &e->dns_server_lens[e->n_dns_servers]))
          e->n_dns_servers++;
    }
  if (config->n_allowed_uids > 0)
    {
      e->allowed_uids = calloc (config->n_allowed_uids, sizeof *e->allowed_uids);
      if (e->allowed_uids)
        memcpy (e->allowed_uids, config->allowed_uids,
                config->n_allowed_uids * sizeof *e->allowed_uids);
    }
  e->config.allowed_uids = e->allowed_uids;
  pthread_mutex_init (&e->qlock, NULL);
  pthread_mutex_init (&e->dns_lock, NULL);
  e->answers_tail = &e->answers;
  e->wake_ev.kind = ENGINE_EV_WAKE;

  e->q = calloc (ADBSCOPE_AGENT_QUEUE_PACKETS, sizeof *e->q);
  e->hash = calloc (ENGINE_HASH_BUCKETS, sizeof *e->hash);
  e->dns_log = calloc (ENGINE_DNS_LOG_MAX, sizeof *e->dns_log);
  e->hosts = calloc (ENGINE_HOST_CACHE_SIZE, sizeof *e->hosts);
  e->pkt_buf = malloc (ENGINE_MAX_PACKET);
  e->io_buf = malloc (ENGINE_MAX_PACKET);
  e->apps = calloc (1, sizeof *e->apps);
  if (!e->q || !e->hash || !e->dns_log || !e->hosts || !e->pkt_buf || !e->io_buf || !e->apps
      || !e->agent_version || !e->platform)
    {
      if (error)
        snprintf (error, error_len, "out of memory");
      adbscope_agent_engine_free (e);
      errno = ENOMEM;
      return NULL;
    }
  e->apps[0].uid = -1;
  e->n_apps = 1;

  flags = fcntl (e->tun_fd, F_GETFL);
  if (flags < 0 || fcntl (e->tun_fd, F_SETFL, flags | O_NONBLOCK) < 0)
    goto fail_errno;
  e->epfd = epoll_create1 (EPOLL_CLOEXEC);
  e->wake_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  e->reader_stop_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  e->reader_wake_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (e->epfd < 0 || e->wake_fd < 0 || e->reader_stop_fd < 0 || e->reader_wake_fd < 0)
    goto fail_errno;
  ev.events = EPOLLIN;
  ev.data.ptr = &e->wake_ev;
  if (epoll_ctl (e->epfd, EPOLL_CTL_ADD, e->wake_fd, &ev) < 0)
    goto fail_errno;
  /* The engine waits for the TUN itself, exclusively and before the reader
   * (which registers when it starts): a packet that comes while the engine
   * waits wakes the engine alone, one thread instead of two.  Without
   * EPOLLEXCLUSIVE (Linux < 4.5) only the reader reads. */
  e->tun_ev.kind = ENGINE_EV_TUN;
  ev.events = EPOLLIN | EPOLLEXCLUSIVE;
  ev.data.ptr = &e->tun_ev;
  e->tun_direct = epoll_ctl (e->epfd, EPOLL_CTL_ADD, e->tun_fd, &ev) == 0;

  if (engine_server_open (e, error, error_len) < 0)
    {
      int err = errno;

      adbscope_agent_engine_free (e);
      errno = err;
      return NULL;
    }

  e->start_us = engine_now_us (e);
  e->start_ms = engine_wall_us (e) / 1000;
  /* Initial sequence numbers only need to differ between runs. */
  srandom ((unsigned) (e->start_us ^ (uint64_t) getpid () ^ e->start_ms));
  return e;

fail_errno:
  {
    int err = errno;

    if (error)
      snprintf (error, error_len, "engine set-up: %s", strerror (err));
    adbscope_agent_engine_free (e);
    errno = err;
    return NULL;
  }
}

void
adbscope_agent_engine_stop (AdbscopeAgentEngine *e)
{
  atomic_store (&e->stop, true);
  wake (e);
}

AdbscopeAgentExit
adbscope_agent_engine_run (AdbscopeAgentEngine *e)
{
  struct epoll_event evs[128];
  AdbscopeAgentExit result = ADBSCOPE_AGENT_EXIT_STOPPED;
  uint64_t now, one = 1;
  bool more = false, tun_ready = false;

  if (pthread_create (&e->reader, NULL, reader_main, e) != 0)
    {
      engine_log (e, ADBSCOPE_AGENT_LOG_ERROR, "cannot start the TUN reader thread");
      return ADBSCOPE_AGENT_EXIT_ERROR;
    }
  e->reader_started = true;

  now = engine_now_us (e);
  e->next_tick_us = now + ENGINE_TICK_MS * 1000u;
  e->next_snapshot_us = now + (uint64_t) e->config.snapshot_interval_ms * 1000u;
  e->last_client_left_us = now;

  while (!atomic_load (&e->stop))
    {
      uint64_t due = e->next_tick_us < e->next_snapshot_us ? e->next_tick_us
                                                           : e->next_snapshot_us;
      int timeout, n, i;

      now = engine_now_us (e);
      timeout = more ? 0 : (due <= now ? 0 : (int) ((due - now + 999) / 1000));
      if (timeout != 0)
        {
          /* Say we sleep, then look at the queue once more: a packet the
           * reader queued before it saw the flag is found here, one queued
           * after gets the eventfd (seq_cst on both sides). */
          atomic_store (&e->engine_idle, true);
          pthread_mutex_lock (&e->qlock);
          if (e->q_len > 0)
            timeout = 0;
          pthread_mutex_unlock (&e->qlock);
        }
      n = epoll_wait (e->epfd, evs, 128, timeout);
      atomic_store (&e->engine_idle, false);
      atomic_fetch_add (&e->engine_beat, 1);
      /* The reader went to sleep while we were idle: it watches again. */
      if (n > 0 && atomic_load (&e->reader_asleep) && atomic_exchange (&e->reader_asleep, false))
        {
          uint64_t v = 1;

          if (write (e->reader_wake_fd, &v, sizeof v) < 0)
            (void) v;
        }
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          engine_log (e, ADBSCOPE_AGENT_LOG_ERROR, "epoll_wait: %s", strerror (errno));
          result = ADBSCOPE_AGENT_EXIT_ERROR;
          break;
        }

      for (i = 0; i < n; i++)
        {
          EngineEv *ev = evs[i].data.ptr;

          switch (ev->kind)
            {
            case ENGINE_EV_TUN:
              tun_ready = true;
              break;
            case ENGINE_EV_WAKE:
              {
                uint64_t v;

                if (read (e->wake_fd, &v, sizeof v) < 0)
                  (void) v;
              }
              break;
            case ENGINE_EV_LISTENER:
              engine_server_accept (e, (EngineListener *) ev);
              break;
            /* ev is the first member of the object epoll was given (its
             * own, malloc-aligned address), so the casts below through
             * void * are sound; -Wcast-align=strict cannot know that. */
            case ENGINE_EV_CLIENT:
              engine_client_event (e, (EngineClient *) (void *) ev, evs[i].events);
              break;
            case ENGINE_EV_FLOW:
              {
                EngineFlow *f = (EngineFlow *) (void *) ev;

                if (f->tcp)
                  engine_tcp_event (e, f, evs[i].events);
                else
                  engine_udp_event (e, f, evs[i].events);
              }
              break;
            case ENGINE_EV_DNS_TCP:
              engine_dns_tcp_event (e, (EngineDnsTcp *) (void *) ev, evs[i].events);
              break;
            case ENGINE_EV_DNS_FWD:
              engine_dns_fwd_event (e, (EngineDnsPending *) (void *) ev);
              break;
            default:
              break;
            }
        }

      /* Deferred flows wait for the TUN to be found empty: look. */
      more = drain_queue (e, tun_ready || e->pending != NULL);
      tun_ready = more && tun_ready;
      engine_dns_process_answers (e);

      now = engine_now_us (e);
      if (now >= e->next_tick_us)
        {
          tick (e, now);
          e->next_tick_us = now + ENGINE_TICK_MS * 1000u;
        }
      if (now >= e->next_snapshot_us)
        {
          engine_snapshot_publish (e);
          e->next_snapshot_us += (uint64_t) e->config.snapshot_interval_ms * 1000u;
          if (e->next_snapshot_us <= now)
            e->next_snapshot_us = now + (uint64_t) e->config.snapshot_interval_ms * 1000u;
        }
      engine_server_flush (e);
      engine_pcap_early_expire (e, now);

      if (e->config.idle_exit_ms >= 0 && e->n_clients == 0
          && now >= e->last_client_left_us + (uint64_t) e->config.idle_exit_ms * 1000u)
        {
          engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "no client for %d ms: stopping",
                      e->config.idle_exit_ms);
          result = ADBSCOPE_AGENT_EXIT_IDLE;
          break;
        }
    }

  if (write (e->reader_stop_fd, &one, sizeof one) < 0)
    engine_log (e, ADBSCOPE_AGENT_LOG_ERROR, "cannot stop the reader: %s", strerror (errno));
  pthread_join (e->reader, NULL);
  e->reader_started = false;
  /* What the queue still holds is in the pcap stream and the counters. */
  while (drain_queue (e, false))
    ;
  engine_server_close (e);
  return result;
}

void
adbscope_agent_engine_dns_answer (AdbscopeAgentEngine *e,
                                  uint64_t             query_id,
                                  const uint8_t       *response,
                                  size_t               len)
{
  EngineDnsAnswer *a;

  if (response == NULL)
    len = 0;
  a = malloc (sizeof *a + len);
  if (a == NULL)
    return;                     /* the query times out into a SERVFAIL */
  a->next = NULL;
  a->id = query_id;
  a->len = len;
  if (len)
    memcpy (a->data, response, len);
  pthread_mutex_lock (&e->dns_lock);
  *e->answers_tail = a;
  e->answers_tail = &a->next;
  pthread_mutex_unlock (&e->dns_lock);
  wake (e);
}

void
adbscope_agent_engine_free (AdbscopeAgentEngine *e)
{
  EngineFlow *f, *next;
  EngineDnsAnswer *a, *an;

  if (e == NULL)
    return;
  if (e->reader_started)
    {
      uint64_t one = 1;

      if (write (e->reader_stop_fd, &one, sizeof one) < 0)
        (void) one;
      pthread_join (e->reader, NULL);
    }
  engine_server_close (e);
  for (f = e->live; f; f = next)
    {
      next = f->next;
      flow_free (f);
    }
  for (f = e->closed_head; f; f = next)
    {
      next = f->next;
      flow_free (f);
    }
  engine_dns_free_all (e);
  for (a = e->answers; a; a = an)
    {
      an = a->next;
      free (a);
    }
  if (e->q)
    while (e->q_len > 0)
      {
        free (e->q[e->q_head]);
        e->q_head = (e->q_head + 1) % ADBSCOPE_AGENT_QUEUE_PACKETS;
        e->q_len--;
      }
  if (e->epfd >= 0)
    close (e->epfd);
  if (e->wake_fd >= 0)
    close (e->wake_fd);
  if (e->reader_stop_fd >= 0)
    close (e->reader_stop_fd);
  if (e->reader_wake_fd >= 0)
    close (e->reader_wake_fd);
  pthread_mutex_destroy (&e->qlock);
  pthread_mutex_destroy (&e->dns_lock);
  free (e->q);
  free (e->hash);
  free (e->dns_log);
  free (e->hosts);
  free (e->pkt_buf);
  free (e->io_buf);
  free (e->engine_spare);
  free (e->apps);
  free (e->allowed_uids);
  free (e->socket_name);
  free (e->pcap_socket_name);
  free (e->agent_version);
  free (e->platform);
  free (e->instance_token);
  free (e);
}
