/* engine-udp.c: UDP flows (one connected socket each, closed after the idle
 * time) and DNS: queries to the fake resolver, over UDP or TCP (RFC 7766
 * framing, through a socketpair behind the TCP flow), go to the
 * resolve_dns callback, or without one to config.dns_servers over
 * protected UDP sockets, and are answered when that answers (SERVFAIL on
 * failure or timeout); DNS responses seen on any flow feed host
 * attribution. */
#include "engine-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* DNS records -------------------------------------------------------------- */

static EngineDnsRecord *
dns_record_new (AdbscopeAgentEngine *e)
{
  EngineDnsRecord *r;

  if (e->dns_log_len < ENGINE_DNS_LOG_MAX)
    r = &e->dns_log[(e->dns_log_start + e->dns_log_len++) % ENGINE_DNS_LOG_MAX];
  else
    {
      r = &e->dns_log[e->dns_log_start];
      e->dns_log_start = (e->dns_log_start + 1) % ENGINE_DNS_LOG_MAX;
    }
  memset (r, 0, sizeof *r);
  r->id = ++e->next_dns_record_id;
  return r;
}

typedef struct {
  AdbscopeAgentEngine *e;
  EngineDnsRecord     *record;
  const char          *name;
} AnswerCtx;

static void
collect_answer (void          *user_data,
                uint16_t       type,
                const uint8_t *rdata,
                const char    *text)
{
  AnswerCtx *ctx = user_data;

  if (ctx->record && ctx->record->n_answers < ENGINE_DNS_ANSWERS_MAX)
    {
      size_t n = strlen (text);

      if (n >= sizeof ctx->record->answers[0])
        n = sizeof ctx->record->answers[0] - 1;
      memcpy (ctx->record->answers[ctx->record->n_answers], text, n);
      ctx->record->answers[ctx->record->n_answers][n] = '\0';
      ctx->record->n_answers++;
    }
  if (type == 1)
    engine_host_cache_put (ctx->e, 4, rdata, ctx->name);
  else if (type == 28)
    engine_host_cache_put (ctx->e, 6, rdata, ctx->name);
}

static uint8_t
dns_result (uint8_t rcode)
{
  switch (rcode)
    {
    case 0:
      return 1;   /* NOERROR */
    case 3:
      return 2;   /* NXDOMAIN */
    case 2:
      return 3;   /* SERVFAIL */
    default:
      return 5;   /* OTHER */
    }
}

/* Fills @r from a response; false when it is not a usable response. */
static bool
dns_record_response (AdbscopeAgentEngine *e,
                     EngineDnsRecord     *r,
                     const uint8_t       *msg,
                     size_t               len)
{
  EngineDnsQuery q;
  AnswerCtx ctx;

  if (!engine_dns_parse_question (msg, len, &q) || !(q.flags & 0x8000))
    return false;
  memcpy (r->name, q.name, sizeof r->name);
  r->qtype = q.qtype;
  r->rcode = q.flags & 0x0f;
  r->result = dns_result (r->rcode);
  ctx.e = e;
  ctx.record = r;
  ctx.name = q.name;
  engine_dns_parse_answers (msg, len, collect_answer, &ctx);
  return true;
}

/* Replies ------------------------------------------------------------------ */

static size_t
max_udp_payload (AdbscopeAgentEngine *e,
                 uint8_t              ip_version)
{
  return (size_t) e->config.mtu - (ip_version == 4 ? 28 : 48);
}

static void
udp_reply (AdbscopeAgentEngine *e,
           EngineFlow          *f,
           const uint8_t       *payload,
           size_t               len)
{
  EnginePacket pkt;

  memset (&pkt, 0, sizeof pkt);
  pkt.payload = payload;
  pkt.payload_len = len;
  engine_reply (e, f, &pkt);
}

/* DNS over TCP ------------------------------------------------------------ */

static EngineDnsTcp *
dns_tcp_find (AdbscopeAgentEngine *e,
              uint64_t             id)
{
  EngineDnsTcp *c;

  for (c = e->dns_tcp; c; c = c->next)
    if (c->id == id)
      return c;
  return NULL;
}

static void
dns_tcp_free (AdbscopeAgentEngine *e,
              EngineDnsTcp        *conn)
{
  EngineDnsTcp **pp;

  for (pp = &e->dns_tcp; *pp; pp = &(*pp)->next)
    if (*pp == conn)
      {
        *pp = conn->next;
        break;
      }
  if (conn->fd >= 0)
    close (conn->fd);           /* the flow reads EOF: its FIN to the app */
  free (conn->in);
  free (conn->out);
  free (conn);
}

static void
dns_tcp_set_events (AdbscopeAgentEngine *e,
                    EngineDnsTcp        *conn)
{
  struct epoll_event ev = { 0 };
  uint32_t want = (conn->eof ? 0 : EPOLLIN) | (conn->out_len > conn->out_off ? EPOLLOUT : 0);

  if (want == conn->ep_events)
    return;
  ev.events = want;
  ev.data.ptr = &conn->ev;
  if (epoll_ctl (e->epfd, want == 0 ? EPOLL_CTL_DEL
                          : conn->ep_events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD,
                 conn->fd, &ev) < 0)
    e->c.errors++;
  conn->ep_events = want;
}

/* Writes what is queued; false when the flow's end is gone. */
static bool
dns_tcp_flush (EngineDnsTcp *conn)
{
  while (conn->out_off < conn->out_len)
    {
      ssize_t n = send (conn->fd, conn->out + conn->out_off, conn->out_len - conn->out_off,
                        MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return errno == EAGAIN || errno == EWOULDBLOCK;
        }
      conn->out_off += (size_t) n;
    }
  conn->out_off = conn->out_len = 0;
  return true;
}

/* Done once the app sent its FIN (or the flow went) and every query was
 * answered and written. */
static void
dns_tcp_check (AdbscopeAgentEngine *e,
               EngineDnsTcp        *conn,
               bool                 broken)
{
  if (broken || (conn->eof && conn->pending == 0 && conn->out_len == 0))
    {
      if (conn->ep_events)
        epoll_ctl (e->epfd, EPOLL_CTL_DEL, conn->fd, NULL);
      dns_tcp_free (e, conn);
      return;
    }
  dns_tcp_set_events (e, conn);
}

static void
dns_tcp_reply (AdbscopeAgentEngine *e,
               EngineDnsTcp        *conn,
               const uint8_t       *response,
               size_t               len)
{
  size_t need = conn->out_len + 2 + len;

  if (conn->pending > 0)
    conn->pending--;
  if (need > conn->out_cap)
    {
      uint8_t *out = realloc (conn->out, need);

      if (out == NULL)
        {
          e->c.errors++;
          dns_tcp_check (e, conn, true);
          return;
        }
      conn->out = out;
      conn->out_cap = need;
    }
  conn->out[conn->out_len] = (uint8_t) (len >> 8);
  conn->out[conn->out_len + 1] = (uint8_t) len;
  memcpy (conn->out + conn->out_len + 2, response, len);
  conn->out_len = need;
  dns_tcp_check (e, conn, !dns_tcp_flush (conn));
}

/* Answers ------------------------------------------------------------------ */

static void
dns_pending_free (EngineDnsPending *p)
{
  int i;

  for (i = 0; i < 2; i++)
    if (p->fwd_fd[i] >= 0)
      close (p->fwd_fd[i]);
  free (p->query);
  free (p);
}

static void
dns_answer_pending (AdbscopeAgentEngine *e,
                    EngineDnsPending    *p,
                    const uint8_t       *response,
                    size_t               len)
{
  EngineFlow *f = engine_flow_lookup (e, &p->key);
  EngineDnsTcp *conn = p->tcp_id ? dns_tcp_find (e, p->tcp_id) : NULL;
  EngineDnsRecord *r = dns_record_new (e);
  uint8_t fallback[512 + ENGINE_DNS_NAME_MAX];
  uint8_t *copy = NULL;
  EngineDnsQuery q;
  /* Over TCP an answer may use the whole 16-bit length (RFC 7766). */
  size_t max = p->tcp_id ? 65535 : max_udp_payload (e, p->key.ip_version);

  r->time_ms = p->time_ms;
  r->latency_us = engine_now_us (e) - p->start_us;
  r->via_fake = true;
  r->uid = f ? f->uid : -1;
  if (engine_dns_parse_question (p->query, p->query_len, &q))
    {
      memcpy (r->name, q.name, sizeof r->name);
      r->qtype = q.qtype;
    }

  if (response && len >= 12 && len <= 65535 && (copy = malloc (len)) != NULL)
    {
      memcpy (copy, response, len);
      /* The platform resolver may have used its own id: the app wants its own. */
      copy[0] = p->query[0];
      copy[1] = p->query[1];
      if (!dns_record_response (e, r, copy, len))
        {
          free (copy);
          copy = NULL;
        }
      else if (len > max && q.question_end > 0 && q.question_end <= sizeof fallback)
        {
          /* Too large for a datagram the TUN can carry: as a DNS server
           * does, the header and question with TC set and no records, and
           * the app's resolver asks again over TCP (answered above). */
          memcpy (fallback, p->query, q.question_end);
          fallback[2] = (uint8_t) (copy[2] | 0x82);      /* QR, TC, the answer's opcode and AA/RD */
          fallback[3] = copy[3];
          fallback[4] = 0;
          fallback[5] = 1;
          memset (fallback + 6, 0, 6);
          free (copy);
          copy = NULL;
          response = fallback;
          len = q.question_end;
          goto reply;
        }
    }
  if (copy == NULL)
    {
      len = engine_dns_build_servfail (p->query, p->query_len, fallback, sizeof fallback);
      r->result = 4;          /* FAILED */
      r->rcode = 2;
      e->c.dns_failures++;
      response = fallback;
    }
  else
    response = copy;

reply:
  if (p->tcp_id)
    {
      if (conn && len > 0)
        dns_tcp_reply (e, conn, response, len);
      else if (conn)
        {
          conn->pending--;
          dns_tcp_check (e, conn, false);
        }
    }
  else if (f && len > 0)
    udp_reply (e, f, response, len);
  free (copy);
}

/* Forwarding to the real network's resolvers (config.dns_servers) --------- */

static int
fwd_socket (AdbscopeAgentEngine *e,
            EngineDnsPending    *p,
            int                  family)
{
  int i = family == AF_INET ? 0 : 1;
  struct epoll_event ev = { 0 };
  int fd;

  if (p->fwd_fd[i] >= 0)
    return p->fwd_fd[i];
  fd = socket (family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (e->cb.protect_socket && e->cb.protect_socket (e->cb.user_data, fd) < 0)
    {
      close (fd);
      return -1;
    }
  ev.events = EPOLLIN;
  ev.data.ptr = &p->ev;
  if (epoll_ctl (e->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
    {
      close (fd);
      return -1;
    }
  p->fwd_fd[i] = fd;
  return fd;
}

/* Sends the query to every server; false when it reached none (the app
 * then gets its SERVFAIL at once). */
static bool
dns_forward (AdbscopeAgentEngine *e,
             EngineDnsPending    *p)
{
  unsigned i;
  bool sent = false;

  for (i = 0; i < e->n_dns_servers; i++)
    {
      const struct sockaddr_storage *ss = &e->dns_servers[i];
      int fd = fwd_socket (e, p, ss->ss_family);
      ssize_t n;

      if (fd < 0)
        {
          e->c.errors++;
          continue;
        }
      do
        n = sendto (fd, p->query, p->query_len, 0, (const struct sockaddr *) ss,
                    e->dns_server_lens[i]);
      while (n < 0 && errno == EINTR);
      if (n == (ssize_t) p->query_len)
        sent = true;
      else
        e->c.errors++;
    }
  return sent;
}

static bool
from_dns_server (AdbscopeAgentEngine           *e,
                 const struct sockaddr_storage *from)
{
  unsigned i;

  for (i = 0; i < e->n_dns_servers; i++)
    {
      const struct sockaddr_storage *ss = &e->dns_servers[i];

      if (ss->ss_family != from->ss_family)
        continue;
      if (ss->ss_family == AF_INET)
        {
          const struct sockaddr_in *a = (const struct sockaddr_in *) ss;
          const struct sockaddr_in *b = (const struct sockaddr_in *) from;

          if (a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr)
            return true;
        }
      else
        {
          const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) ss;
          const struct sockaddr_in6 *b = (const struct sockaddr_in6 *) from;

          if (a->sin6_port == b->sin6_port
              && memcmp (&a->sin6_addr, &b->sin6_addr, 16) == 0)
            return true;
        }
    }
  return false;
}

void
engine_dns_fwd_event (AdbscopeAgentEngine *e,
                      EngineDnsPending    *p)
{
  int i;

  for (i = 0; i < 2; i++)
    {
      while (p->fwd_fd[i] >= 0)
        {
          struct sockaddr_storage from;
          socklen_t fl = sizeof from;
          ssize_t n = recvfrom (p->fwd_fd[i], e->io_buf, ENGINE_MAX_PACKET, 0,
                                (struct sockaddr *) &from, &fl);

          if (n < 0)
            {
              if (errno == EINTR)
                continue;
              break;                /* EAGAIN, or an ICMP error: wait for another server */
            }
          /* Only a server asked, with the query's id, may answer it.  The
           * answer goes through the queue every answer takes, so @p is
           * freed after this batch of events (which may still name it). */
          if (n < 12 || !from_dns_server (e, &from)
              || e->io_buf[0] != p->query[0] || e->io_buf[1] != p->query[1])
            continue;
          adbscope_agent_engine_dns_answer (e, p->id, e->io_buf, (size_t) n);
          return;
        }
    }
}

/* Queries ------------------------------------------------------------------ */

/* A query from the app to the fake resolver, over UDP (@tcp_id 0) or TCP. */
static void
dns_query_start (AdbscopeAgentEngine        *e,
                 const AdbscopeAgentFlowKey *key,
                 uint64_t                    tcp_id,
                 const uint8_t              *query,
                 size_t                      query_len)
{
  EngineDnsPending *p;
  EngineDnsQuery q;

  if (!engine_dns_parse_question (query, query_len, &q) || (q.flags & 0x8000))
    {
      e->c.malformed++;
      return;
    }
  e->c.dns_queries++;
  p = calloc (1, sizeof *p);
  if (p == NULL || (p->query = malloc (query_len)) == NULL)
    {
      free (p);
      e->c.errors++;
      return;
    }
  p->ev.kind = ENGINE_EV_DNS_FWD;
  p->fwd_fd[0] = p->fwd_fd[1] = -1;
  p->id = ++e->next_dns_id;
  p->key = *key;
  p->tcp_id = tcp_id;
  memcpy (p->query, query, query_len);
  p->query_len = query_len;
  p->start_us = engine_now_us (e);
  p->time_ms = engine_wall_us (e) / 1000;
  p->next = e->dns_pending;
  e->dns_pending = p;
  if (tcp_id)
    {
      EngineDnsTcp *conn = dns_tcp_find (e, tcp_id);

      if (conn)
        conn->pending++;
    }

  if (e->cb.resolve_dns)
    e->cb.resolve_dns (e->cb.user_data, e, p->id, p->query, p->query_len);
  else if (e->n_dns_servers == 0 || !dns_forward (e, p))
    adbscope_agent_engine_dns_answer (e, p->id, NULL, 0);
}

static void
fake_dns_query (AdbscopeAgentEngine        *e,
                const EnginePacket         *pkt,
                const AdbscopeAgentFlowKey *key)
{
  EngineFlow *f = engine_flow_lookup (e, key);

  if (f == NULL)
    {
      f = engine_flow_new (e, key);
      if (f == NULL)
        {
          e->c.errors++;
          return;
        }
      f->fake_dns = true;
    }
  engine_flow_account_up (e, f, pkt->ip_len, pkt->payload_len);
  f->last_us = engine_now_us (e);
  dns_query_start (e, key, 0, pkt->payload, pkt->payload_len);
}

int
engine_dns_tcp_open (AdbscopeAgentEngine        *e,
                     const AdbscopeAgentFlowKey *key)
{
  EngineDnsTcp *conn;
  int sv[2];

  conn = calloc (1, sizeof *conn);
  if (conn == NULL || (conn->in = malloc (2 + 65535)) == NULL)
    {
      free (conn);
      errno = ENOMEM;
      return -1;
    }
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
    {
      int err = errno;

      free (conn->in);
      free (conn);
      errno = err;
      return -1;
    }
  conn->ev.kind = ENGINE_EV_DNS_TCP;
  conn->id = ++e->next_dns_tcp_id;
  conn->fd = sv[1];
  conn->key = *key;
  conn->next = e->dns_tcp;
  e->dns_tcp = conn;
  e->c.fake_resolver_tcp++;
  dns_tcp_set_events (e, conn);
  return sv[0];
}

void
engine_dns_tcp_event (AdbscopeAgentEngine *e,
                      EngineDnsTcp        *conn,
                      uint32_t             events)
{
  uint64_t id = conn->id;

  if ((events & EPOLLOUT) && !dns_tcp_flush (conn))
    {
      dns_tcp_check (e, conn, true);
      return;
    }
  while (!conn->eof && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
    {
      ssize_t n = recv (conn->fd, conn->in + conn->in_len, 2 + 65535 - conn->in_len, 0);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
          dns_tcp_check (e, conn, true);
          return;
        }
      if (n == 0)
        {
          conn->eof = true;
          break;
        }
      conn->in_len += (size_t) n;
      /* Each message: a 16-bit length, then the query. */
      while (conn->in_len >= 2)
        {
          size_t qlen = ((size_t) conn->in[0] << 8) | conn->in[1];

          if (conn->in_len < 2 + qlen)
            break;
          dns_query_start (e, &conn->key, id, conn->in + 2, qlen);
          /* An answer may have come at once, and a write error freed conn. */
          if (dns_tcp_find (e, id) != conn)
            return;
          memmove (conn->in, conn->in + 2 + qlen, conn->in_len - 2 - qlen);
          conn->in_len -= 2 + qlen;
        }
    }
  dns_tcp_check (e, conn, false);
}

void
engine_dns_process_answers (AdbscopeAgentEngine *e)
{
  EngineDnsAnswer *list, *a, *next;

  pthread_mutex_lock (&e->dns_lock);
  list = e->answers;
  e->answers = NULL;
  e->answers_tail = &e->answers;
  pthread_mutex_unlock (&e->dns_lock);

  for (a = list; a; a = next)
    {
      EngineDnsPending **pp;

      next = a->next;
      for (pp = &e->dns_pending; *pp; pp = &(*pp)->next)
        if ((*pp)->id == a->id)
          {
            EngineDnsPending *p = *pp;

            *pp = p->next;
            dns_answer_pending (e, p, a->len ? a->data : NULL, a->len);
            dns_pending_free (p);
            break;
          }
      free (a);
    }
}

void
engine_dns_tick (AdbscopeAgentEngine *e,
                 uint64_t             now)
{
  EngineDnsPending **pp = &e->dns_pending;

  while (*pp)
    {
      EngineDnsPending *p = *pp;

      if (now >= p->start_us + (uint64_t) e->config.dns_timeout_ms * 1000u)
        {
          *pp = p->next;
          dns_answer_pending (e, p, NULL, 0);
          dns_pending_free (p);
        }
      else
        pp = &p->next;
    }
}

void
engine_dns_free_all (AdbscopeAgentEngine *e)
{
  EngineDnsPending *p, *n;

  for (p = e->dns_pending; p; p = n)
    {
      n = p->next;
      dns_pending_free (p);
    }
  e->dns_pending = NULL;
  while (e->dns_tcp)
    dns_tcp_free (e, e->dns_tcp);
}

bool
engine_is_fake_resolver (AdbscopeAgentEngine *e,
                         uint8_t              ip_version,
                         const uint8_t       *dst)
{
  if (ip_version == 4)
    return memcmp (dst, e->config.dns4, 4) == 0;
  return e->config.have_dns6 && memcmp (dst, e->config.dns6, 16) == 0;
}

/* UDP flows ----------------------------------------------------------------- */

static bool
is_fake_resolver (AdbscopeAgentEngine *e,
                  const EnginePacket  *pkt)
{
  return pkt->dport == 53 && engine_is_fake_resolver (e, pkt->ip_version, pkt->dst);
}

void
engine_udp_input (AdbscopeAgentEngine *e,
                  EnginePacket        *pkt)
{
  AdbscopeAgentFlowKey key;
  EngineFlow *f;
  ssize_t n;

  memset (&key, 0, sizeof key);
  key.ip_version = pkt->ip_version;
  key.protocol = 17;
  key.sport = pkt->sport;
  key.dport = pkt->dport;
  memcpy (key.src, pkt->src, pkt->ip_version == 4 ? 4 : 16);
  memcpy (key.dst, pkt->dst, pkt->ip_version == 4 ? 4 : 16);

  if (is_fake_resolver (e, pkt))
    {
      fake_dns_query (e, pkt, &key);
      return;
    }

  f = engine_flow_lookup (e, &key);
  if (f == NULL)
    {
      struct sockaddr_storage ss;
      socklen_t sl;
      int fd;

      f = engine_flow_new (e, &key);
      if (f == NULL)
        {
          e->c.errors++;
          return;
        }
      engine_flow_account_up (e, f, pkt->ip_len, pkt->payload_len);
      fd = engine_flow_socket (e, f, SOCK_DGRAM);
      if (fd < 0)
        {
          int err = errno;

          engine_flow_finish (e, f, ENGINE_CONN_FAILED,
                              fd == -2 ? ENGINE_FAIL_PROTECT : ENGINE_FAIL_SOCKET, err);
          return;
        }
      memset (&ss, 0, sizeof ss);
      if (key.ip_version == 4)
        {
          struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

          sin->sin_family = AF_INET;
          sin->sin_port = htons (key.dport);
          memcpy (&sin->sin_addr, key.dst, 4);
          sl = sizeof *sin;
        }
      else
        {
          struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

          sin6->sin6_family = AF_INET6;
          sin6->sin6_port = htons (key.dport);
          memcpy (&sin6->sin6_addr, key.dst, 16);
          sl = sizeof *sin6;
        }
      if (connect (fd, (struct sockaddr *) &ss, sl) < 0)
        {
          int err = errno;

          engine_flow_finish (e, f, ENGINE_CONN_FAILED, engine_failure_from_errno (err), err);
          return;
        }
      engine_flow_set_events (e, f, EPOLLIN);
    }
  else
    engine_flow_account_up (e, f, pkt->ip_len, pkt->payload_len);

  f->last_us = engine_now_us (e);
  if (f->fd < 0)
    return;
  do
    n = send (f->fd, pkt->payload, pkt->payload_len, 0);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    e->c.errors++;            /* full buffer or an ICMP error of an earlier datagram */
}

void
engine_udp_event (AdbscopeAgentEngine *e,
                  EngineFlow          *f,
                  uint32_t             events)
{
  size_t hlen = f->key.ip_version == 4 ? 28 : 48;
  size_t max = max_udp_payload (e, f->key.ip_version);
  int i;

  if (f->closed || f->fd < 0)
    return;
  for (i = 0; i < 32; i++)
    {
      uint8_t *buf = e->pkt_buf + hlen;
      ssize_t n;
      EnginePacket pkt;

      n = recv (f->fd, buf, ENGINE_MAX_PACKET - hlen, MSG_TRUNC);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno != EAGAIN && errno != EWOULDBLOCK)
            e->c.errors++;            /* e.g. ECONNREFUSED from an ICMP error */
          break;
        }
      if ((size_t) n > max)
        {
          e->c.errors++;              /* would not fit in the TUN's MTU */
          continue;
        }
      f->last_us = engine_now_us (e);
      if (f->key.dport == 53)
        {
          EngineDnsRecord tmp;

          memset (&tmp, 0, sizeof tmp);
          tmp.time_ms = engine_wall_us (e) / 1000;
          tmp.uid = f->uid;
          if (dns_record_response (e, &tmp, buf, (size_t) n))
            {
              EngineDnsRecord *r = dns_record_new (e);

              tmp.id = r->id;
              *r = tmp;
            }
        }
      memset (&pkt, 0, sizeof pkt);
      pkt.payload = NULL;             /* already in place in pkt_buf */
      pkt.payload_len = (size_t) n;
      engine_reply (e, f, &pkt);
    }
}

void
engine_udp_tick (AdbscopeAgentEngine *e,
                 EngineFlow          *f,
                 uint64_t             now)
{
  /* UDP has no close: an exchange ends when it falls silent.  One that
   * got replies ended normally; one that never got a single packet back
   * asked and was not answered (a black hole, a dead server). */
  if (now >= f->last_us + (uint64_t) e->config.udp_idle_ms * 1000u)
    {
      if (f->packets_down > 0)
        engine_flow_finish (e, f, ENGINE_CONN_CLOSED, ENGINE_FAIL_NONE, 0);
      else
        engine_flow_finish (e, f, ENGINE_CONN_FAILED, ENGINE_FAIL_TIMED_OUT, ETIMEDOUT);
    }
}
