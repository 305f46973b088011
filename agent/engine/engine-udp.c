/* engine-udp.c: UDP flows (one connected socket each, closed after the idle
 * time) and DNS: queries to the fake resolver go to the resolve_dns
 * callback and are answered when it calls back (SERVFAIL on failure or
 * timeout); DNS responses seen on any flow feed host attribution. */
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

static void
dns_answer_pending (AdbscopeAgentEngine *e,
                    EngineDnsPending    *p,
                    const uint8_t       *response,
                    size_t               len)
{
  EngineFlow *f = engine_flow_lookup (e, &p->key);
  EngineDnsRecord *r = dns_record_new (e);
  uint8_t fallback[512 + ENGINE_DNS_NAME_MAX];
  uint8_t *copy = NULL;
  EngineDnsQuery q;

  r->time_ms = p->time_ms;
  r->latency_us = engine_now_us (e) - p->start_us;
  r->via_fake = true;
  r->uid = f ? f->uid : -1;
  if (engine_dns_parse_question (p->query, p->query_len, &q))
    {
      memcpy (r->name, q.name, sizeof r->name);
      r->qtype = q.qtype;
    }

  if (response && len >= 12 && len <= max_udp_payload (e, p->key.ip_version)
      && (copy = malloc (len)) != NULL)
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

  if (f && len > 0)
    udp_reply (e, f, response, len);
  free (copy);
}

static void
fake_dns_query (AdbscopeAgentEngine        *e,
                const EnginePacket         *pkt,
                const AdbscopeAgentFlowKey *key)
{
  EngineFlow *f = engine_flow_lookup (e, key);
  EngineDnsPending *p;
  EngineDnsQuery q;

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

  if (!engine_dns_parse_question (pkt->payload, pkt->payload_len, &q) || (q.flags & 0x8000))
    {
      e->c.malformed++;
      return;
    }
  e->c.dns_queries++;
  p = calloc (1, sizeof *p);
  if (p == NULL || (p->query = malloc (pkt->payload_len)) == NULL)
    {
      free (p);
      e->c.errors++;
      return;
    }
  p->id = ++e->next_dns_id;
  p->key = *key;
  memcpy (p->query, pkt->payload, pkt->payload_len);
  p->query_len = pkt->payload_len;
  p->start_us = engine_now_us (e);
  p->time_ms = engine_wall_us (e) / 1000;
  p->next = e->dns_pending;
  e->dns_pending = p;

  if (e->cb.resolve_dns)
    e->cb.resolve_dns (e->cb.user_data, e, p->id, p->query, p->query_len);
  else
    adbscope_agent_engine_dns_answer (e, p->id, NULL, 0);
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
            free (p->query);
            free (p);
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
          free (p->query);
          free (p);
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
      free (p->query);
      free (p);
    }
  e->dns_pending = NULL;
}

/* UDP flows ----------------------------------------------------------------- */

static bool
is_fake_resolver (AdbscopeAgentEngine *e,
                  const EnginePacket  *pkt)
{
  if (pkt->dport != 53)
    return false;
  if (pkt->ip_version == 4)
    return memcmp (pkt->dst, e->config.dns4, 4) == 0;
  return e->config.have_dns6 && memcmp (pkt->dst, e->config.dns6, 16) == 0;
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
