/* engine-tcp.c: TCP terminated in the engine.  Toward the app the engine is
 * the server: its SYN is answered only after the real connect() succeeded,
 * data is acknowledged once the engine holds it, and the engine's own
 * segments are retransmitted (500 ms doubling to 8 s, fast retransmit after
 * three duplicate ACKs, NewReno-style partial ACKs).  Toward the server it
 * is an ordinary kernel socket.  Window scaling (RFC 7323) when the app's
 * SYN offers it, with rings sized for the larger window; otherwise no
 * window exceeds 64 KiB. */
#include "engine-private.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define SEQ_LT(a, b)  ((int32_t) ((a) - (b)) < 0)
#define SEQ_LEQ(a, b) ((int32_t) ((a) - (b)) <= 0)
#define SEQ_GT(a, b)  ((int32_t) ((a) - (b)) > 0)
#define SEQ_GEQ(a, b) ((int32_t) ((a) - (b)) >= 0)

/* Rings ----------------------------------------------------------------- */

static bool
ring_ensure (EngineRing *r,
             uint32_t    size)
{
  if (r->buf == NULL)
    {
      r->buf = malloc (size);
      r->size = r->buf ? size : 0;
      r->start = 0;
    }
  return r->buf != NULL;
}

/* Room left; a ring not yet allocated has its full size to come. */
static uint32_t
ring_room (const EngineRing *r,
           uint32_t          size)
{
  return (r->buf ? r->size : size) - r->len;
}

static void
ring_push (EngineRing    *r,
           const uint8_t *data,
           uint32_t       len)
{
  uint32_t pos = (r->start + r->len) & (r->size - 1);
  uint32_t first = r->size - pos;

  if (first > len)
    first = len;
  memcpy (r->buf + pos, data, first);
  memcpy (r->buf, data + first, len - first);
  r->len += len;
}

/* The iovecs of @len bytes from offset @off of the used part. */
static int
ring_iov_range (const EngineRing *r,
                uint32_t          off,
                uint32_t          len,
                struct iovec      iov[2])
{
  uint32_t pos = (r->start + off) & (r->size - 1);
  uint32_t first = r->size - pos;

  if (len == 0)
    return 0;
  iov[0].iov_base = r->buf + pos;
  if (first >= len)
    {
      iov[0].iov_len = len;
      return 1;
    }
  iov[0].iov_len = first;
  iov[1].iov_base = r->buf;
  iov[1].iov_len = len - first;
  return 2;
}

static void
ring_consume (EngineRing *r,
              uint32_t    n)
{
  r->start = (r->start + n) & (r->size - 1);
  r->len -= n;
}

/* The iovecs of the used part (which = 0) or the free part (which = 1). */
static int
ring_iov (EngineRing   *r,
          bool          free_part,
          struct iovec  iov[2])
{
  uint32_t pos, len, first;

  if (free_part)
    {
      pos = (r->start + r->len) & (r->size - 1);
      len = r->size - r->len;
    }
  else
    {
      pos = r->start;
      len = r->len;
    }
  if (len == 0)
    return 0;
  first = r->size - pos;
  if (first >= len)
    {
      iov[0].iov_base = r->buf + pos;
      iov[0].iov_len = len;
      return 1;
    }
  iov[0].iov_base = r->buf + pos;
  iov[0].iov_len = first;
  iov[1].iov_base = r->buf;
  iov[1].iov_len = len - first;
  return 2;
}

void
engine_tcp_free (EngineTcp *t)
{
  EngineSeg *s, *n;

  free (t->up.buf);
  free (t->down.buf);
  t->up.buf = t->down.buf = NULL;
  t->up.len = t->down.len = 0;
  for (s = t->ooo; s; s = n)
    {
      n = s->next;
      free (s);
    }
  t->ooo = NULL;
  t->ooo_bytes = 0;
}

/* Sending to the app ---------------------------------------------------- */

/* Bytes the up ring can still take (it may take a little more than the
 * window: see tcp_window()). */
static uint32_t
rcv_space (const EngineTcp *t)
{
  return t->up_size - t->up.len;
}

/* The window field for the next segment.  Without scaling it is the room
 * below rcv_wnd_max, so the right edge (rcv_nxt + window) never moves
 * left: accepted bytes move rcv_nxt right exactly as much as the room
 * shrinks.  With scaling the field counts units of 2^rcv_wscale bytes;
 * rounding the room down could pull the edge back by up to a unit, so the
 * field is rounded up to the last edge instead (RFC 7323 2.4: no
 * shrinking), which the ring's slack above rcv_wnd_max covers. */
static uint16_t
tcp_window (const EngineTcp *t)
{
  uint32_t room = t->up.len < t->rcv_wnd_max ? t->rcv_wnd_max - t->up.len : 0;
  uint32_t w = room >> t->rcv_wscale;

  if (t->rcv_wscale > 0)
    {
      uint32_t last = SEQ_GT (t->rcv_adv_edge, t->rcv_nxt) ? t->rcv_adv_edge - t->rcv_nxt : 0;
      uint32_t unit = 1u << t->rcv_wscale;

      if (w << t->rcv_wscale < last)
        w = (last + unit - 1) >> t->rcv_wscale;
      if (w << t->rcv_wscale > rcv_space (t))
        w = rcv_space (t) >> t->rcv_wscale;
    }
  return (uint16_t) (w > 65535 ? 65535 : w);
}

/* One segment: @len bytes of the down ring from offset @off. */
static void
tcp_send (AdbscopeAgentEngine *e,
          EngineFlow          *f,
          uint8_t              flags,
          uint32_t             seq,
          uint32_t             off,
          uint32_t             len,
          bool                 dup_window)
{
  EngineTcp *t = f->tcp;
  EnginePacket pkt;
  struct iovec iov[2];
  int n_iov;

  memset (&pkt, 0, sizeof pkt);
  n_iov = ring_iov_range (&t->down, off, len, iov);
  pkt.payload_len = len;
  pkt.seq = seq;
  pkt.ack = t->rcv_nxt;
  pkt.flags = flags;
  if (flags & ENGINE_TCP_SYN)
    {
      pkt.mss = (uint16_t) (e->config.mtu - (f->key.ip_version == 4 ? 40 : 60));
      /* Offered only in answer to the app's offer (RFC 7323 1.3); the
       * window of a SYN is never scaled. */
      pkt.wscale = t->wscale;
      pkt.wscale_shift = t->rcv_wscale;
      pkt.window = (uint16_t) (t->rcv_wnd_max < 65535 ? t->rcv_wnd_max : 65535);
      t->rcv_adv_edge = t->rcv_nxt + pkt.window;
    }
  else
    {
      /* A duplicate ACK repeats the last window exactly, or the app's stack
       * would take it for a window update and not count it. */
      pkt.window = dup_window ? t->adv_wnd : tcp_window (t);
      t->rcv_adv_edge = t->rcv_nxt + ((uint32_t) pkt.window << t->rcv_wscale);
    }
  t->adv_wnd = pkt.window;
  t->ack_pending = false;         /* every segment carries rcv_nxt */
  engine_reply_iov (e, f, &pkt, iov, n_iov);
}

static void
tcp_ack (AdbscopeAgentEngine *e,
         EngineFlow          *f,
         bool                 dup)
{
  tcp_send (e, f, ENGINE_TCP_ACK, f->tcp->snd_nxt, 0, 0, dup);
}

static void
tcp_rst (AdbscopeAgentEngine *e,
         EngineFlow          *f)
{
  EngineTcp *t = f->tcp;

  if (t->state == ENGINE_TCP_CONNECTING)
    {
      EnginePacket pkt;

      /* The SYN was never answered: seq 0, acknowledge the SYN. */
      memset (&pkt, 0, sizeof pkt);
      pkt.ack = t->irs + 1;
      pkt.flags = ENGINE_TCP_RST | ENGINE_TCP_ACK;
      engine_reply (e, f, &pkt);
      return;
    }
  tcp_send (e, f, ENGINE_TCP_RST | ENGINE_TCP_ACK, t->snd_nxt, 0, 0, false);
}

static void
rst_segment (AdbscopeAgentEngine *e,
             const EnginePacket  *in)
{
  EnginePacket r;
  uint32_t seg_len = (uint32_t) in->payload_len;

  memset (&r, 0, sizeof r);
  r.ip_version = in->ip_version;
  r.protocol = 6;
  memcpy (r.src, in->dst, 16);
  memcpy (r.dst, in->src, 16);
  r.sport = in->dport;
  r.dport = in->sport;
  /* RFC 793 reset generation for a segment of no connection. */
  if (in->flags & ENGINE_TCP_ACK)
    {
      r.seq = in->ack;
      r.flags = ENGINE_TCP_RST;
    }
  else
    {
      if (in->flags & ENGINE_TCP_SYN)
        seg_len++;
      if (in->flags & ENGINE_TCP_FIN)
        seg_len++;
      r.ack = in->seq + seg_len;
      r.flags = ENGINE_TCP_RST | ENGINE_TCP_ACK;
    }
  engine_send (e, &r);
}

static void
rst_unknown (AdbscopeAgentEngine *e,
             const EnginePacket  *in)
{
  e->c.rst_unknown++;
  rst_segment (e, in);
}

static void
arm_rto (AdbscopeAgentEngine *e,
         EngineTcp           *t)
{
  t->rto_at_us = engine_now_us (e) + (uint64_t) t->rto_ms * 1000u;
}

/* Resend the oldest unacknowledged segment (data, or the FIN alone). */
static void
retransmit_head (AdbscopeAgentEngine *e,
                 EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  uint32_t outstanding = t->snd_nxt - t->snd_una;
  uint32_t data = outstanding - (t->fin_sent ? 1 : 0);
  uint32_t len = data < t->mss ? data : t->mss;
  uint8_t flags = ENGINE_TCP_ACK;

  if (outstanding == 0)
    return;
  if (len == data && t->fin_sent)
    flags |= ENGINE_TCP_FIN;
  if (len > 0)
    flags |= ENGINE_TCP_PSH;
  tcp_send (e, f, flags, t->snd_una, 0, len, false);
  f->retransmissions++;
  e->c.retransmissions++;
}

static void
send_down (AdbscopeAgentEngine *e,
           EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  uint32_t in_flight;

  if (t->state != ENGINE_TCP_ESTABLISHED || t->fin_sent)
    return;
  in_flight = t->snd_nxt - t->snd_una;
  while (in_flight < t->down.len)
    {
      uint32_t unsent = t->down.len - in_flight;
      uint32_t room = t->snd_wnd > in_flight ? t->snd_wnd - in_flight : 0;
      uint32_t len = unsent;

      if (room == 0)
        break;
      if (engine_tun_burst_spent (e))
        {
          engine_flow_defer (e, f);     /* the rest after the TUN was read */
          break;
        }
      if (len > t->mss)
        len = t->mss;
      if (len > room)
        len = room;
      tcp_send (e, f, ENGINE_TCP_ACK | (len == unsent ? ENGINE_TCP_PSH : 0), t->snd_nxt,
                in_flight, len, false);
      t->snd_nxt += len;
      in_flight += len;
      if (t->rto_at_us == 0)
        arm_rto (e, t);
    }
  if (t->server_eof && in_flight == t->down.len)
    {
      tcp_send (e, f, ENGINE_TCP_FIN | ENGINE_TCP_ACK, t->snd_nxt, 0, 0, false);
      t->snd_nxt++;
      t->fin_sent = true;
      if (f->state == ENGINE_CONN_OPEN)
        f->state = ENGINE_CONN_CLOSING;
      if (t->rto_at_us == 0)
        arm_rto (e, t);
    }
  else if (t->snd_wnd == 0 && in_flight == 0 && t->down.len > 0 && t->rto_at_us == 0)
    arm_rto (e, t);               /* persist timer: probe the closed window */
}

/* Ending ---------------------------------------------------------------- */

static void
abort_flow (AdbscopeAgentEngine *e,
            EngineFlow          *f,
            bool                 rst_app,
            bool                 rst_server,
            uint8_t              state,
            uint8_t              failure,
            int                  err)
{
  if (rst_app)
    tcp_rst (e, f);
  if (rst_server && f->fd >= 0)
    {
      /* SO_LINGER 0: close() sends a RST to the server. */
      struct linger lg = { 1, 0 };

      setsockopt (f->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
  engine_flow_finish (e, f, state, failure, err);
}

static void
maybe_finish (AdbscopeAgentEngine *e,
              EngineFlow          *f)
{
  EngineTcp *t = f->tcp;

  if (t->app_fin && t->shut_wr && t->fin_acked)
    engine_flow_finish (e, f, ENGINE_CONN_CLOSED, ENGINE_FAIL_NONE, 0);
}

static void
update_events (AdbscopeAgentEngine *e,
               EngineFlow          *f)
{
  EngineTcp *t = f->tcp;

  if (f->closed || f->fd < 0)
    return;
  /* Connected: registered once, edge-triggered, and never changed: no
   * epoll_ctl() each time the down ring fills and drains.  The flags in
   * EngineTcp remember what the edges said. */
  engine_flow_set_events (e, f, t->state == ENGINE_TCP_CONNECTING
                                ? EPOLLOUT
                                : EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET);
}

/* app → server ---------------------------------------------------------- */

static bool
flush_up (AdbscopeAgentEngine *e,
          EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  uint32_t before = (uint32_t) t->adv_wnd << t->rcv_wscale;

  while (t->up.len > 0 && t->server_writable)
    {
      struct iovec iov[2];
      int n_iov = ring_iov (&t->up, false, iov);
      ssize_t n = writev (f->fd, iov, n_iov);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK)
            {
              t->server_writable = false;   /* until EPOLLOUT */
              break;
            }
          abort_flow (e, f, true, false, ENGINE_CONN_FAILED,
                      engine_failure_from_errno (errno), errno);
          return false;
        }
      ring_consume (&t->up, (uint32_t) n);
    }
  if (t->up.len == 0 && t->app_fin && !t->shut_wr)
    {
      shutdown (f->fd, SHUT_WR);
      t->shut_wr = true;
      maybe_finish (e, f);
      if (f->closed)
        return false;
    }
  /* Reopen the window once it is worth a segment or two. */
  {
    uint32_t w = (uint32_t) tcp_window (t) << t->rcv_wscale;
    uint32_t step = 2u * t->mss < 32768u ? 2u * t->mss : 32768u;

    if (t->state == ENGINE_TCP_ESTABLISHED && !t->app_fin
        && (w >= before + step || (before < t->mss && w >= t->mss)))
      tcp_ack (e, f, false);
  }
  return true;
}

/* Takes in-order bytes into the up ring; the end of the batch writes them
 * (engine_tcp_pending). */
static void
accept_data (AdbscopeAgentEngine *e,
             EngineFlow          *f,
             const uint8_t       *data,
             uint32_t            len)
{
  EngineTcp *t = f->tcp;

  engine_flow_peek (e, f, data, len);
  if (!ring_ensure (&t->up, t->up_size))
    return;
  ring_push (&t->up, data, len);
  t->rcv_nxt += len;
}

static void
ooo_store (EngineTcp     *t,
           uint32_t       seq,
           const uint8_t *data,
           uint32_t       len,
           bool           fin)
{
  EngineSeg **pp, *s;

  for (pp = &t->ooo; *pp; pp = &(*pp)->next)
    {
      if ((*pp)->seq == seq && (*pp)->len >= len)
        return;                         /* already have it */
      if (SEQ_GT ((*pp)->seq, seq))
        break;
    }
  if (t->ooo_bytes + len > 2u * t->rcv_wnd_max)
    return;
  s = malloc (sizeof *s + len);
  if (s == NULL)
    return;
  s->seq = seq;
  s->len = len;
  s->fin = fin;
  memcpy (s->data, data, len);
  s->next = *pp;
  *pp = s;
  t->ooo_bytes += len;
}

/* Moves kept segments that the new rcv_nxt reaches into the stream. */
static void
ooo_pull (AdbscopeAgentEngine *e,
          EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  EngineSeg *s;

  while ((s = t->ooo) != NULL && SEQ_LEQ (s->seq, t->rcv_nxt) && !t->app_fin)
    {
      uint32_t skip = t->rcv_nxt - s->seq;

      t->ooo = s->next;
      t->ooo_bytes -= s->len;
      if (skip < s->len || (skip == s->len && s->fin))
        {
          uint32_t len = s->len - skip;
          uint32_t room = rcv_space (t);

          if (len > room)
            len = room;
          accept_data (e, f, s->data + skip, len);
          if (len == s->len - skip && s->fin)
            {
              t->rcv_nxt++;
              t->app_fin = true;
            }
        }
      free (s);
    }
}

static void
tcp_data (AdbscopeAgentEngine *e,
          EngineFlow          *f,
          const EnginePacket  *pkt)
{
  EngineTcp *t = f->tcp;
  const uint8_t *data = pkt->payload;
  uint32_t len = (uint32_t) pkt->payload_len;
  uint32_t seq = pkt->seq;
  bool fin = (pkt->flags & ENGINE_TCP_FIN) != 0;
  uint32_t room;

  if (t->app_fin)
    {
      /* Anything after the app's FIN is a retransmission: acknowledge. */
      tcp_ack (e, f, false);
      return;
    }

  if (SEQ_LT (seq, t->rcv_nxt))
    {
      uint32_t skip = t->rcv_nxt - seq;

      if (skip >= len)
        {
          /* Old data, a keepalive (seq = rcv_nxt - 1) or a zero-window
           * probe: answer with the current state. */
          if (!(fin && skip == len))
            {
              tcp_ack (e, f, false);
              return;
            }
          len = 0;
          data = NULL;
          seq = t->rcv_nxt;
        }
      else
        {
          data += skip;
          len -= skip;
          seq = t->rcv_nxt;
        }
    }

  room = rcv_space (t);
  if (seq == t->rcv_nxt)
    {
      uint32_t take = len < room ? len : room;

      if (take > 0)
        accept_data (e, f, data, take);
      if (take == len && fin)
        {
          t->rcv_nxt++;
          t->app_fin = true;
        }
      ooo_pull (e, f);
      t->ack_pending = true;
      if (t->app_fin && f->state == ENGINE_CONN_OPEN)
        f->state = ENGINE_CONN_CLOSING;
      return;
    }

  /* A gap: keep what fits in the window, repeat the last ACK unchanged. */
  {
    uint32_t off = seq - t->rcv_nxt;

    if (off < room && len > 0)
      {
        uint32_t take = len < room - off ? len : room - off;

        ooo_store (t, seq, data, take, fin && take == len);
      }
    else if (off < room && fin)
      ooo_store (t, seq, data, 0, true);
    /* An ACK still owed for earlier in-order data goes first, so the
     * duplicate repeats exactly what the app last saw. */
    if (t->ack_pending)
      tcp_ack (e, f, false);
    tcp_ack (e, f, true);
  }
}

/* ACKs from the app ------------------------------------------------------ */

static void
tcp_ack_input (AdbscopeAgentEngine *e,
               EngineFlow          *f,
               const EnginePacket  *pkt)
{
  EngineTcp *t = f->tcp;
  uint32_t ack = pkt->ack;
  bool pure = pkt->payload_len == 0 && !(pkt->flags & (ENGINE_TCP_FIN | ENGINE_TCP_SYN));

  if (SEQ_GT (ack, t->snd_nxt))
    {
      tcp_ack (e, f, false);
      return;
    }
  if (SEQ_GT (ack, t->snd_una))
    {
      uint32_t acked = ack - t->snd_una;

      if (t->fin_sent && ack == t->snd_nxt)
        {
          t->fin_acked = true;
          acked--;
        }
      ring_consume (&t->down, acked);
      t->snd_una = ack;
      t->snd_wnd = (uint32_t) pkt->window << t->snd_wscale;
      t->dupacks = 0;
      t->retries = 0;
      t->rto_ms = ENGINE_RTO_MIN_MS;
      t->rto_at_us = 0;
      if (t->in_recovery)
        {
          if (SEQ_GEQ (ack, t->recover))
            t->in_recovery = false;
          else
            retransmit_head (e, f);   /* a partial ACK: the next hole */
        }
      if (t->snd_una != t->snd_nxt)
        arm_rto (e, t);
    }
  else if (ack == t->snd_una)
    {
      if (pure && t->snd_una != t->snd_nxt && pkt->window == t->dupack_wnd)
        {
          if (++t->dupacks == 3 && !t->in_recovery)
            {
              retransmit_head (e, f);
              t->in_recovery = true;
              t->recover = t->snd_nxt;
              e->c.fast_retransmissions++;
              arm_rto (e, t);
            }
        }
      else if (pkt->window != t->dupack_wnd)
        t->dupacks = 0;
      t->snd_wnd = (uint32_t) pkt->window << t->snd_wscale;
    }
  t->dupack_wnd = pkt->window;
}

/* Segments from the app ------------------------------------------------- */

static void read_server (AdbscopeAgentEngine *e,
                         EngineFlow          *f);

static void
start_connect (AdbscopeAgentEngine *e,
               const EnginePacket  *pkt,
               const AdbscopeAgentFlowKey *key)
{
  EngineFlow *f = engine_flow_new (e, key);
  EngineTcp *t;
  struct sockaddr_storage ss;
  socklen_t sl;
  int fd, max_mss;

  if (f == NULL)
    {
      e->c.errors++;
      return;
    }
  f->fake_dns = engine_is_fake_resolver (e, key->ip_version, key->dst);
  engine_flow_account_up (e, f, pkt->ip_len, 0);
  t = f->tcp = calloc (1, sizeof *t);
  if (t == NULL)
    {
      engine_flow_finish (e, f, ENGINE_CONN_FAILED, ENGINE_FAIL_SOCKET, ENOMEM);
      return;
    }
  t->state = ENGINE_TCP_CONNECTING;
  t->irs = pkt->seq;
  t->rcv_nxt = pkt->seq + 1;
  max_mss = e->config.mtu - (key->ip_version == 4 ? 40 : 60);
  t->mss = pkt->mss ? pkt->mss : 536;
  if (t->mss > max_mss)
    t->mss = (uint16_t) max_mss;
  t->snd_wnd = pkt->window;        /* a SYN's window is never scaled */
  t->dupack_wnd = pkt->window;
  t->iss = (uint32_t) random () ^ (uint32_t) (f->id * 2654435761u);
  t->snd_una = t->snd_nxt = t->iss;
  t->rto_ms = ENGINE_RTO_MIN_MS;
  if (pkt->wscale)
    {
      /* RFC 7323: both sides scale.  The up ring keeps 1/16 above the
       * window as slack for the rounding in tcp_window(); our shift is the
       * smallest that fits that window in 16 bits. */
      t->wscale = true;
      t->snd_wscale = pkt->wscale_shift > 14 ? 14 : pkt->wscale_shift;
      t->up_size = ENGINE_SCALED_UP_RING;
      t->down_size = ENGINE_SCALED_DOWN_RING;
      t->rcv_wnd_max = t->up_size - t->up_size / 16;
      while ((t->rcv_wnd_max >> t->rcv_wscale) > 65535)
        t->rcv_wscale++;
    }
  else
    {
      t->up_size = ENGINE_RING_SIZE;
      t->down_size = ENGINE_DOWN_RING_SIZE;
      t->rcv_wnd_max = ENGINE_MAX_WINDOW;
    }
  t->adv_wnd = (uint16_t) (t->rcv_wnd_max < 65535 ? t->rcv_wnd_max : 65535);

  if (f->fake_dns)
    {
      /* DNS over TCP to the fake resolver: the engine's own end of a
       * socketpair stands in for the server (engine_dns_tcp_open). */
      fd = engine_dns_tcp_open (e, key);
      if (fd >= 0)
        {
          f->fd = fd;
          f->ep_events = 0;
          update_events (e, f);   /* EPOLLOUT at once: connected() */
          return;
        }
    }
  else
    fd = engine_flow_socket (e, f, SOCK_STREAM);
  if (fd < 0)
    {
      int err = errno;

      engine_log (e, ADBSCOPE_AGENT_LOG_WARNING, "flow %llu: socket: %s",
                  (unsigned long long) f->id, strerror (err));
      abort_flow (e, f, true, false, ENGINE_CONN_FAILED,
                  fd == -2 ? ENGINE_FAIL_PROTECT : ENGINE_FAIL_SOCKET, err);
      return;
    }

  /* The app's own stack already decided how to cut its stream; Nagle here
   * would only hold its last small segment back for the server's ACK. */
  {
    int one = 1;

    setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }

  memset (&ss, 0, sizeof ss);
  if (key->ip_version == 4)
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

      sin->sin_family = AF_INET;
      sin->sin_port = htons (key->dport);
      memcpy (&sin->sin_addr, key->dst, 4);
      sl = sizeof *sin;
    }
  else
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

      sin6->sin6_family = AF_INET6;
      sin6->sin6_port = htons (key->dport);
      memcpy (&sin6->sin6_addr, key->dst, 16);
      sl = sizeof *sin6;
    }
  if (connect (fd, (struct sockaddr *) &ss, sl) < 0 && errno != EINPROGRESS)
    {
      int err = errno;

      abort_flow (e, f, true, false, ENGINE_CONN_FAILED, engine_failure_from_errno (err), err);
      return;
    }
  /* Even an immediate success is reported through EPOLLOUT. */
  update_events (e, f);
}

static void
connected (AdbscopeAgentEngine *e,
           EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  int err = 0;
  socklen_t len = sizeof err;

  if (getsockopt (f->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
    err = errno;
  if (err != 0)
    {
      engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "flow %llu: connect: %s",
                  (unsigned long long) f->id, strerror (err));
      abort_flow (e, f, true, false, ENGINE_CONN_FAILED, engine_failure_from_errno (err), err);
      return;
    }
  t->state = ENGINE_TCP_SYN_RCVD;
  t->server_readable = true;
  t->server_writable = true;
  tcp_send (e, f, ENGINE_TCP_SYN | ENGINE_TCP_ACK, t->iss, 0, 0, false);
  t->snd_nxt = t->iss + 1;
  arm_rto (e, t);
}

void
engine_tcp_input (AdbscopeAgentEngine *e,
                  EnginePacket        *pkt)
{
  AdbscopeAgentFlowKey key;
  EngineFlow *f;
  EngineTcp *t;
  uint8_t fl = pkt->flags;

  memset (&key, 0, sizeof key);
  key.ip_version = pkt->ip_version;
  key.protocol = 6;
  key.sport = pkt->sport;
  key.dport = pkt->dport;
  memcpy (key.src, pkt->src, pkt->ip_version == 4 ? 4 : 16);
  memcpy (key.dst, pkt->dst, pkt->ip_version == 4 ? 4 : 16);

  f = engine_flow_lookup (e, &key);
  if (f && f->closed && (fl & ENGINE_TCP_SYN) && !(fl & ENGINE_TCP_ACK)
      && pkt->seq != f->tcp->irs)
    {
      /* The port is reused for a new connection: forget the old one. */
      engine_flow_unhash (e, f);
      f = NULL;
    }
  if (f == NULL)
    {
      if ((fl & (ENGINE_TCP_SYN | ENGINE_TCP_ACK | ENGINE_TCP_RST)) == ENGINE_TCP_SYN
          && key.dport != 53 && engine_is_fake_resolver (e, key.ip_version, key.dst))
        {
          /* TCP to the fake resolver is never forwarded (its address means
           * nothing on the real network).  Android's Private DNS in its
           * default mode probes DNS-over-TLS on 853 there: refused at once,
           * not a connection of the app, not its failure. */
          e->c.fake_resolver_refused++;
          rst_segment (e, pkt);
        }
      else if ((fl & (ENGINE_TCP_SYN | ENGINE_TCP_ACK | ENGINE_TCP_RST)) == ENGINE_TCP_SYN)
        start_connect (e, pkt, &key);
      else if (!(fl & ENGINE_TCP_RST))
        rst_unknown (e, pkt);
      return;
    }

  engine_flow_account_up (e, f, pkt->ip_len, pkt->payload_len);
  f->last_us = engine_now_us (e);
  t = f->tcp;

  if (t->state == ENGINE_TCP_DONE)
    {
      if (fl & ENGINE_TCP_RST)
        return;
      if (f->state == ENGINE_CONN_FAILED || f->failure == ENGINE_FAIL_RESET_BY_APP)
        rst_unknown (e, pkt);
      else if (pkt->payload_len > 0 || (fl & (ENGINE_TCP_FIN | ENGINE_TCP_SYN)))
        tcp_ack (e, f, false);
      return;
    }

  if (fl & ENGINE_TCP_RST)
    {
      /* Accept a reset that is in the window (RFC 5961 would be stricter;
       * the TUN is not an open network). */
      uint32_t off = pkt->seq - t->rcv_nxt;

      if (t->state == ENGINE_TCP_CONNECTING || off <= t->rcv_wnd_max)
        abort_flow (e, f, false, true, ENGINE_CONN_CLOSED, ENGINE_FAIL_RESET_BY_APP, 0);
      return;
    }

  if (t->state == ENGINE_TCP_CONNECTING)
    return;                     /* a repeated SYN: the answer waits for connect() */

  if (fl & ENGINE_TCP_SYN)
    {
      if (t->state == ENGINE_TCP_SYN_RCVD && pkt->seq == t->irs)
        {
          tcp_send (e, f, ENGINE_TCP_SYN | ENGINE_TCP_ACK, t->iss, 0, 0, false);
          f->retransmissions++;
          e->c.retransmissions++;
        }
      else
        tcp_ack (e, f, false);
      return;
    }
  if (!(fl & ENGINE_TCP_ACK))
    return;

  if (t->state == ENGINE_TCP_SYN_RCVD)
    {
      if (pkt->ack != t->iss + 1)
        {
          rst_unknown (e, pkt);
          return;
        }
      t->state = ENGINE_TCP_ESTABLISHED;
      t->snd_una = t->iss + 1;
      t->snd_wnd = (uint32_t) pkt->window << t->snd_wscale;
      t->dupack_wnd = pkt->window;
      t->rto_at_us = 0;
      t->retries = 0;
      t->rto_ms = ENGINE_RTO_MIN_MS;
      f->state = ENGINE_CONN_OPEN;
    }
  else
    tcp_ack_input (e, f, pkt);

  if (pkt->payload_len > 0 || (fl & ENGINE_TCP_FIN) || SEQ_LT (pkt->seq, t->rcv_nxt))
    tcp_data (e, f, pkt);

  engine_flow_defer (e, f);
}

/* After a batch of packets from the app: write what it sent to the server,
 * send what its ACKs made room for (refilling the down ring now rather than
 * after another trip through epoll_wait()), and acknowledge once. */
void
engine_tcp_pending (AdbscopeAgentEngine *e,
                    EngineFlow          *f)
{
  EngineTcp *t = f->tcp;

  if (f->closed || t->state == ENGINE_TCP_DONE || t->state == ENGINE_TCP_CONNECTING)
    return;
  if (t->up.len > 0 || (t->app_fin && !t->shut_wr))
    {
      if (!flush_up (e, f))
        return;
    }
  send_down (e, f);
  if (t->state == ENGINE_TCP_ESTABLISHED)
    read_server (e, f);
  if (f->closed)
    return;
  if (t->ack_pending)
    tcp_ack (e, f, false);
  maybe_finish (e, f);
  update_events (e, f);
}

/* Socket events ---------------------------------------------------------- */

/* Reads what the down ring has room for.  Called on the socket's edge and
 * whenever the app's ACK frees room (without waiting for epoll to say the
 * socket is still readable). */
static void
read_server (AdbscopeAgentEngine *e,
             EngineFlow          *f)
{
  EngineTcp *t = f->tcp;
  struct iovec iov[2];
  int n_iov;
  uint32_t want;
  ssize_t n;

  if (f->fd < 0 || t->server_eof || !t->server_readable
      || ring_room (&t->down, t->down_size) == 0)
    return;
  if (!ring_ensure (&t->down, t->down_size))
    return;
  want = t->down.size - t->down.len;
  n_iov = ring_iov (&t->down, true, iov);
  do
    n = readv (f->fd, iov, n_iov);
  while (n < 0 && errno == EINTR);
  if (n > 0)
    {
      /* A short read emptied the socket: the next data is a new edge.
       * Not when its FIN is pending, which no new edge would announce. */
      if ((uint32_t) n < want && !t->server_rdhup)
        t->server_readable = false;
      t->down.len += (uint32_t) n;
      send_down (e, f);
    }
  else if (n == 0)
    {
      t->server_eof = true;
      send_down (e, f);
      maybe_finish (e, f);
    }
  else if (errno == EAGAIN || errno == EWOULDBLOCK)
    t->server_readable = false;
  else
    {
      int err = errno;

      abort_flow (e, f, true, false, ENGINE_CONN_FAILED, engine_failure_from_errno (err), err);
    }
}

void
engine_tcp_event (AdbscopeAgentEngine *e,
                  EngineFlow          *f,
                  uint32_t             events)
{
  EngineTcp *t = f->tcp;

  if (f->closed)
    return;
  if (t->state == ENGINE_TCP_CONNECTING)
    {
      connected (e, f);
      update_events (e, f);
      return;
    }
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
    {
      t->server_readable = true;
      if (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        t->server_rdhup = true;
      read_server (e, f);
    }
  if (!f->closed && (events & (EPOLLOUT | EPOLLERR)))
    {
      t->server_writable = true;
      if (t->up.len > 0)
        flush_up (e, f);
    }
  if (!f->closed && (events & EPOLLERR))
    {
      int err = 0;
      socklen_t len = sizeof err;

      if (getsockopt (f->fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err != 0)
        abort_flow (e, f, true, false, ENGINE_CONN_FAILED, engine_failure_from_errno (err), err);
    }
  if (!f->closed)
    update_events (e, f);
}

void
engine_tcp_tick (AdbscopeAgentEngine *e,
                 EngineFlow          *f,
                 uint64_t             now)
{
  EngineTcp *t = f->tcp;
  bool probing;

  /* An idle flow gives its empty rings back (up to 320 KiB, 1.5 MiB with
   * window scaling): a phone keeps many quiet connections open. */
  if (now - f->last_us >= ENGINE_RING_IDLE_FREE_MS * 1000u)
    {
      EngineRing *rings[2] = { &t->up, &t->down };
      int i;

      for (i = 0; i < 2; i++)
        if (rings[i]->buf && rings[i]->len == 0)
          {
            free (rings[i]->buf);
            rings[i]->buf = NULL;
            rings[i]->size = 0;
            rings[i]->start = 0;
          }
    }

  if (t->rto_at_us == 0 || now < t->rto_at_us || t->state == ENGINE_TCP_DONE)
    return;

  probing = t->state == ENGINE_TCP_ESTABLISHED && t->snd_una == t->snd_nxt;
  if (!probing && ++t->retries > ENGINE_TCP_MAX_RETRIES)
    {
      engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "flow %llu: the app stopped answering",
                  (unsigned long long) f->id);
      abort_flow (e, f, true, true, ENGINE_CONN_FAILED, ENGINE_FAIL_TIMED_OUT, ETIMEDOUT);
      return;
    }

  if (t->state == ENGINE_TCP_SYN_RCVD)
    {
      tcp_send (e, f, ENGINE_TCP_SYN | ENGINE_TCP_ACK, t->iss, 0, 0, false);
      f->retransmissions++;
      e->c.retransmissions++;
    }
  else if (!probing)
    {
      retransmit_head (e, f);
      t->in_recovery = true;
      t->recover = t->snd_nxt;
      t->dupacks = 0;
    }
  else if (t->snd_wnd == 0 && t->down.len > 0)
    {
      /* The app's window is closed: a segment below its window makes it
       * answer with the current one, in case its update got lost. */
      tcp_send (e, f, ENGINE_TCP_ACK, t->snd_una - 1, 0, 0, false);
    }
  else
    {
      t->rto_at_us = 0;
      return;
    }
  t->rto_ms = t->rto_ms * 2 > ENGINE_RTO_MAX_MS ? ENGINE_RTO_MAX_MS : t->rto_ms * 2;
  t->rto_at_us = now + (uint64_t) t->rto_ms * 1000u;
}
