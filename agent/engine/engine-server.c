/* engine-server.c: the two abstract unix sockets.  Snapshot clients get a
 * Hello and then one Snapshot per interval, each a varint-length-delimited
 * AgentMessage; a client that has not taken the last snapshot yet has it
 * replaced (one slot each), so a slow desktop never grows the agent.  Pcap
 * clients get a classic pcap stream (microsecond timestamps, LINKTYPE_RAW);
 * beyond ENGINE_CLIENT_OUT_MAX unsent bytes packets are dropped and counted.
 * Peers are checked with SO_PEERCRED against the allow-list. */
#include "engine-private.h"
#include "agent.pb-c.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define PCAP_SNAPLEN   65535u
#define LINKTYPE_RAW   101u

static int
listen_abstract (const char *name,
                 char       *error,
                 size_t      error_len)
{
  struct sockaddr_un sun;
  size_t n = strlen (name);
  int fd;

  if (n == 0 || n + 1 > sizeof sun.sun_path)
    {
      if (error)
        snprintf (error, error_len, "socket name too long: %s", name);
      errno = ENAMETOOLONG;
      return -1;
    }
  memset (&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  memcpy (sun.sun_path + 1, name, n);   /* sun_path[0] = 0: abstract */
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    goto fail;
  if (bind (fd, (struct sockaddr *) &sun, (socklen_t) (offsetof (struct sockaddr_un, sun_path)
                                                       + 1 + n)) < 0
      || listen (fd, 16) < 0)
    goto fail;
  return fd;

fail:
  {
    int err = errno;

    if (error)
      snprintf (error, error_len, "cannot listen on @%s: %s", name, strerror (err));
    if (fd >= 0)
      close (fd);
    errno = err;
    return -1;
  }
}

static int
add_listener (AdbscopeAgentEngine *e,
              EngineListener      *l,
              const char          *name,
              bool                 pcap,
              char                *error,
              size_t               error_len)
{
  struct epoll_event ev = { 0 };

  l->ev.kind = ENGINE_EV_LISTENER;
  l->pcap = pcap;
  l->fd = listen_abstract (name, error, error_len);
  if (l->fd < 0)
    return -1;
  ev.events = EPOLLIN;
  ev.data.ptr = &l->ev;
  return epoll_ctl (e->epfd, EPOLL_CTL_ADD, l->fd, &ev);
}

int
engine_server_open (AdbscopeAgentEngine *e,
                    char                *error,
                    size_t               error_len)
{
  if (e->socket_name && add_listener (e, &e->snap_listener, e->socket_name, false,
                                      error, error_len) < 0)
    return -1;
  if (e->pcap_socket_name && add_listener (e, &e->pcap_listener, e->pcap_socket_name, true,
                                           error, error_len) < 0)
    return -1;
  /* the packets from the start, for the first pcap client */
  if (e->pcap_socket_name && e->config.pcap_from_start_ms > 0)
    {
      e->pcap_early = calloc (1, sizeof *e->pcap_early);
      if (e->pcap_early == NULL)
        return -1;
      e->pcap_early->fd = -1;
    }
  return 0;
}

/* Output buffers ------------------------------------------------------------- */

static bool
client_append (EngineClient  *c,
               const void    *data,
               size_t         len)
{
  if (c->out_off > 0 && c->out_off == c->out_len)
    c->out_off = c->out_len = 0;
  if (c->out_len + len > c->out_cap)
    {
      size_t cap;
      uint8_t *n;

      if (c->out_off > 0)
        {
          memmove (c->out, c->out + c->out_off, c->out_len - c->out_off);
          c->out_len -= c->out_off;
          c->out_off = 0;
        }
      cap = c->out_cap ? c->out_cap : 4096;
      while (cap < c->out_len + len)
        cap *= 2;
      if (cap != c->out_cap)
        {
          n = realloc (c->out, cap);
          if (n == NULL)
            return false;
          c->out = n;
          c->out_cap = cap;
        }
    }
  memcpy (c->out + c->out_len, data, len);
  c->out_len += len;
  return true;
}

static size_t
varint_encode (uint8_t *out,
               uint64_t v)
{
  size_t n = 0;

  while (v >= 0x80)
    {
      out[n++] = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  out[n++] = (uint8_t) v;
  return n;
}

/* A length-delimited AgentMessage in a new buffer. */
static uint8_t *
frame_message (const Adbscope__Agent__V1__AgentMessage *msg,
               size_t                                  *len)
{
  size_t body = adbscope__agent__v1__agent_message__get_packed_size (msg);
  uint8_t *buf = malloc (body + 10);
  size_t hdr;

  if (buf == NULL)
    return NULL;
  hdr = varint_encode (buf, body);
  adbscope__agent__v1__agent_message__pack (msg, buf + hdr);
  *len = hdr + body;
  return buf;
}

static void
client_close (AdbscopeAgentEngine *e,
              EngineClient        *c)
{
  EngineClient **pp;

  for (pp = &e->clients; *pp; pp = &(*pp)->next)
    if (*pp == c)
      {
        *pp = c->next;
        break;
      }
  epoll_ctl (e->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  close (c->fd);
  if (c->pcap)
    e->n_pcap_clients--;
  e->n_clients--;
  if (e->n_clients == 0)
    e->last_client_left_us = engine_now_us (e);
  engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "%s client left", c->pcap ? "pcap" : "snapshot");
  free (c->out);
  free (c->slot);
  free (c);
}

static void
client_set_events (AdbscopeAgentEngine *e,
                   EngineClient        *c,
                   uint32_t             events)
{
  struct epoll_event ev = { 0 };

  if (events == c->ep_events)
    return;
  ev.events = events;
  ev.data.ptr = &c->ev;
  if (epoll_ctl (e->epfd, EPOLL_CTL_MOD, c->fd, &ev) == 0)
    c->ep_events = events;
}

/* Returns false when the client is gone. */
static bool
client_flush (AdbscopeAgentEngine *e,
              EngineClient        *c)
{
  for (;;)
    {
      if (c->out_off == c->out_len && c->slot)
        {
          free (c->out);
          c->out = c->slot;
          c->out_cap = c->out_len = c->slot_len;
          c->out_off = 0;
          c->slot = NULL;
          c->slot_len = 0;
        }
      if (c->out_off == c->out_len)
        break;
      {
        ssize_t n = send (c->fd, c->out + c->out_off, c->out_len - c->out_off,
                          MSG_NOSIGNAL | MSG_DONTWAIT);

        if (n < 0)
          {
            if (errno == EINTR)
              continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
              break;
            client_close (e, c);
            return false;
          }
        c->out_off += (size_t) n;
      }
    }
  client_set_events (e, c, c->out_off < c->out_len ? EPOLLIN | EPOLLOUT : EPOLLIN);
  return true;
}

void
engine_server_flush (AdbscopeAgentEngine *e)
{
  EngineClient *c, *next;

  for (c = e->clients; c; c = next)
    {
      next = c->next;
      if (c->out_off < c->out_len || c->slot)
        client_flush (e, c);
    }
}

static void
send_hello (AdbscopeAgentEngine *e,
            EngineClient        *c)
{
  Adbscope__Agent__V1__AgentMessage msg = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__INIT;
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  uint8_t *frame;
  size_t len;

  hello.protocol_version = ADBSCOPE_AGENT_PROTOCOL_VERSION;
  hello.agent_version = e->agent_version;
  hello.platform = e->platform;
  hello.start_time_ms = e->start_ms;
  hello.snapshot_interval_ms = (uint32_t) e->config.snapshot_interval_ms;
  hello.instance_token = e->instance_token ? e->instance_token : (char *) "";
  msg.payload_case = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO;
  msg.hello = &hello;
  frame = frame_message (&msg, &len);
  if (frame)
    client_append (c, frame, len);
  free (frame);
}

static void
send_pcap_header (EngineClient *c)
{
  uint32_t hdr[6];
  uint16_t version[2] = { 2, 4 };

  /* Written in host order; the magic tells readers which one. */
  hdr[0] = 0xa1b2c3d4u;
  memcpy (&hdr[1], version, sizeof version);
  hdr[2] = 0;                     /* thiszone */
  hdr[3] = 0;                     /* sigfigs */
  hdr[4] = PCAP_SNAPLEN;
  hdr[5] = LINKTYPE_RAW;
  client_append (c, hdr, sizeof hdr);
}

static void pcap_early_end (AdbscopeAgentEngine *e);

static bool
uid_allowed (AdbscopeAgentEngine *e,
             unsigned int         uid)
{
  size_t i;

  for (i = 0; i < e->config.n_allowed_uids; i++)
    if (e->allowed_uids[i] == uid)
      return true;
  return false;
}

void
engine_server_accept (AdbscopeAgentEngine *e,
                      EngineListener      *l)
{
  for (;;)
    {
      struct ucred cred;
      socklen_t len = sizeof cred;
      struct epoll_event ev = { 0 };
      EngineClient *c;
      int fd = accept4 (l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

      if (fd < 0)
        {
          if (errno == EINTR)
            continue;
          return;
        }
      if (getsockopt (fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
        {
          engine_log (e, ADBSCOPE_AGENT_LOG_WARNING, "SO_PEERCRED: %s", strerror (errno));
          e->c.clients_rejected++;
          close (fd);
          continue;
        }
      if (!uid_allowed (e, cred.uid))
        {
          engine_log (e, ADBSCOPE_AGENT_LOG_WARNING,
                      "rejected a %s client: uid %u (pid %d) is not allowed",
                      l->pcap ? "pcap" : "snapshot", (unsigned) cred.uid, (int) cred.pid);
          e->c.clients_rejected++;
          close (fd);
          continue;
        }
      c = calloc (1, sizeof *c);
      if (c == NULL)
        {
          close (fd);
          continue;
        }
      c->ev.kind = ENGINE_EV_CLIENT;
      c->fd = fd;
      c->pcap = l->pcap;
      c->ep_events = EPOLLIN;
      ev.events = EPOLLIN;
      ev.data.ptr = &c->ev;
      if (epoll_ctl (e->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
        {
          close (fd);
          free (c);
          continue;
        }
      c->next = e->clients;
      e->clients = c;
      e->n_clients++;
      if (c->pcap)
        {
          e->n_pcap_clients++;
          send_pcap_header (c);
          /* the first pcap client: everything since the start */
          if (e->pcap_early != NULL)
            {
              EngineClient *q = e->pcap_early;

              if (q->out_len == q->out_off || client_append (c, q->out + q->out_off, q->out_len - q->out_off))
                e->c.pcap_packets += e->pcap_early_packets;
              else
                e->c.pcap_dropped += e->pcap_early_packets;
              pcap_early_end (e);
            }
        }
      else
        send_hello (e, c);
      engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "%s client connected: uid %u pid %d",
                  c->pcap ? "pcap" : "snapshot", (unsigned) cred.uid, (int) cred.pid);
      client_flush (e, c);
    }
}

void
engine_client_event (AdbscopeAgentEngine *e,
                     EngineClient        *c,
                     uint32_t             events)
{
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
    {
      uint8_t buf[256];
      ssize_t n = recv (c->fd, buf, sizeof buf, MSG_DONTWAIT);

      /* Clients have nothing to say; EOF or an error means they left. */
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        {
          client_close (e, c);
          return;
        }
    }
  if (events & EPOLLOUT)
    client_flush (e, c);
}

void
engine_server_close (AdbscopeAgentEngine *e)
{
  uint64_t deadline = engine_now_us (e) + 1000000u;

  pcap_early_end (e);
  /* Best effort: hand over what is queued (the end of a pcap) for up to 1 s. */
  while (e->clients && engine_now_us (e) < deadline)
    {
      EngineClient *c, *next;
      bool pending = false;

      for (c = e->clients; c; c = next)
        {
          next = c->next;
          if ((c->out_off < c->out_len || c->slot) && client_flush (e, c)
              && (c->out_off < c->out_len || c->slot))
            pending = true;
        }
      if (!pending)
        break;
      poll (NULL, 0, 5);
    }
  while (e->clients)
    client_close (e, e->clients);
  if (e->snap_listener.fd >= 0)
    close (e->snap_listener.fd);
  if (e->pcap_listener.fd >= 0)
    close (e->pcap_listener.fd);
  e->snap_listener.fd = e->pcap_listener.fd = -1;
}

/* Pcap ------------------------------------------------------------------------ */

/* The records kept from the start are let go: handed to the first pcap
 * client, or dropped when none came in time (or the engine stops). */
static void
pcap_early_end (AdbscopeAgentEngine *e)
{
  if (e->pcap_early == NULL)
    return;
  free (e->pcap_early->out);
  free (e->pcap_early);
  e->pcap_early = NULL;
  e->pcap_early_packets = 0;
}

void
engine_pcap_early_expire (AdbscopeAgentEngine *e,
                          uint64_t             now_us)
{
  if (e->pcap_early == NULL || now_us < e->start_us + (uint64_t) e->config.pcap_from_start_ms * 1000u)
    return;
  engine_log (e, ADBSCOPE_AGENT_LOG_INFO, "no pcap client within %d ms: the %llu packets kept from the start"
              " are dropped", e->config.pcap_from_start_ms, (unsigned long long) e->pcap_early_packets);
  pcap_early_end (e);
}

/* One record onto @c's queue, whole or not at all (a header without its
 * packet would break the stream), unless the queue would pass @max. */
static bool
pcap_append (EngineClient  *c,
             const uint32_t rec[4],
             const uint8_t *data,
             size_t         incl,
             size_t         max)
{
  if (c->out_len - c->out_off + 4 * sizeof (uint32_t) + incl > max || !client_append (c, rec, 4 * sizeof (uint32_t)))
    return false;
  if (!client_append (c, data, incl))
    {
      c->out_len -= 4 * sizeof (uint32_t);
      return false;
    }
  return true;
}

void
engine_pcap_packet (AdbscopeAgentEngine *e,
                    const uint8_t       *data,
                    size_t               len,
                    uint64_t             wall_us)
{
  EngineClient *c;
  uint32_t rec[4];
  size_t incl = len < PCAP_SNAPLEN ? len : PCAP_SNAPLEN;
  bool sent = false;

  rec[0] = (uint32_t) (wall_us / 1000000u);
  rec[1] = (uint32_t) (wall_us % 1000000u);
  rec[2] = (uint32_t) incl;
  rec[3] = (uint32_t) len;
  /* no pcap client yet: kept for the first (past the limit, it learns of
   * the rest from Counters.pcap_dropped) */
  if (e->pcap_early != NULL)
    {
      if (pcap_append (e->pcap_early, rec, data, incl, ENGINE_PCAP_EARLY_MAX))
        e->pcap_early_packets++;
      else
        e->c.pcap_dropped++;
      return;
    }
  for (c = e->clients; c; c = c->next)
    {
      if (!c->pcap)
        continue;
      if (!pcap_append (c, rec, data, incl, ENGINE_CLIENT_OUT_MAX))
        {
          e->c.pcap_dropped++;
          continue;
        }
      sent = true;
    }
  if (sent)
    e->c.pcap_packets++;
}

/* Snapshots --------------------------------------------------------------- */

static const char *
errno_text (int err)
{
  /* Fixed English text: the desktop translates the Failure code; this is
   * for logs and must not depend on the device's libc or locale. */
  switch (err)
    {
    case 0:
      return "";
    case ECONNREFUSED:
      return "Connection refused";
    case ETIMEDOUT:
      return "Connection timed out";
    case EHOSTUNREACH:
      return "No route to host";
    case ENETUNREACH:
      return "Network is unreachable";
    case ECONNRESET:
      return "Connection reset by peer";
    case EPIPE:
      return "Broken pipe";
    case EACCES:
      return "Permission denied";
    case EPERM:
      return "Operation not permitted";
    case EADDRNOTAVAIL:
      return "Cannot assign requested address";
    case ENOMEM:
      return "Out of memory";
    case EMFILE:
      return "Too many open files";
    default:
      return "Socket error";
    }
}

static void
fill_connection (Adbscope__Agent__V1__Connection *pc,
                 Adbscope__Agent__V1__Endpoint   *src,
                 Adbscope__Agent__V1__Endpoint   *dst,
                 EngineFlow                      *f)
{
  size_t alen = f->key.ip_version == 4 ? 4 : 16;

  adbscope__agent__v1__connection__init (pc);
  adbscope__agent__v1__endpoint__init (src);
  adbscope__agent__v1__endpoint__init (dst);
  src->address.data = f->key.src;
  src->address.len = alen;
  src->port = f->key.sport;
  dst->address.data = f->key.dst;
  dst->address.len = alen;
  dst->port = f->key.dport;
  pc->id = f->id;
  pc->protocol = f->key.protocol == 6 ? ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP
                                      : ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_UDP;
  pc->ip_version = f->key.ip_version;
  pc->source = src;
  pc->destination = dst;
  pc->uid = f->uid;
  pc->host = f->host;
  pc->host_source = (Adbscope__Agent__V1__HostSource) f->host_source;
  pc->bytes_up = f->bytes_up;
  pc->bytes_down = f->bytes_down;
  pc->packets_up = f->packets_up;
  pc->packets_down = f->packets_down;
  pc->state = (Adbscope__Agent__V1__ConnectionState) f->state;
  pc->open_time_ms = f->open_ms;
  pc->close_time_ms = f->close_ms;
  pc->failure = (Adbscope__Agent__V1__Failure) f->failure;
  pc->failure_errno = f->failure_errno;
  pc->failure_text = (char *) errno_text (f->failure_errno);
  pc->payload_up = f->payload_up;
  pc->payload_down = f->payload_down;
  pc->retransmissions = f->retransmissions;
}

void
engine_snapshot_publish (AdbscopeAgentEngine *e)
{
  Adbscope__Agent__V1__AgentMessage msg = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__INIT;
  Adbscope__Agent__V1__Snapshot snap = ADBSCOPE__AGENT__V1__SNAPSHOT__INIT;
  Adbscope__Agent__V1__Counters counters = ADBSCOPE__AGENT__V1__COUNTERS__INIT;
  Adbscope__Agent__V1__AppTraffic *apps = NULL, **app_ptrs = NULL;
  Adbscope__Agent__V1__Connection *conns = NULL, **conn_ptrs = NULL;
  Adbscope__Agent__V1__Endpoint *eps = NULL;
  Adbscope__Agent__V1__DnsLookup *dns = NULL, **dns_ptrs = NULL;
  char **answer_ptrs = NULL;
  EngineFlow *f;
  EngineClient *c;
  size_t n_conns = 0, i, k, n_dns = 0;
  uint8_t *frame = NULL;
  size_t frame_len = 0;
  bool have_snapshot_client = false;

  for (c = e->clients; c; c = c->next)
    if (!c->pcap)
      have_snapshot_client = true;
  e->snapshot_seq++;
  if (!have_snapshot_client)
    return;

  snap.seq = e->snapshot_seq;
  snap.time_ms = engine_wall_us (e) / 1000;
  snap.uptime_ms = (engine_now_us (e) - e->start_us) / 1000;

  apps = calloc (e->n_apps, sizeof *apps);
  app_ptrs = calloc (e->n_apps, sizeof *app_ptrs);
  for (f = e->live; f; f = f->next)
    n_conns++;
  n_conns += e->n_closed;
  conns = calloc (n_conns + 1, sizeof *conns);
  conn_ptrs = calloc (n_conns + 1, sizeof *conn_ptrs);
  eps = calloc (2 * n_conns + 2, sizeof *eps);
  dns = calloc (e->dns_log_len + 1, sizeof *dns);
  dns_ptrs = calloc (e->dns_log_len + 1, sizeof *dns_ptrs);
  answer_ptrs = calloc ((size_t) (e->dns_log_len + 1) * ENGINE_DNS_ANSWERS_MAX,
                        sizeof *answer_ptrs);
  if (!apps || !app_ptrs || !conns || !conn_ptrs || !eps || !dns || !dns_ptrs || !answer_ptrs)
    goto out;

  k = 0;
  for (i = 0; i < e->n_apps; i++)
    {
      EngineApp *a = &e->apps[i];

      if (a->total == 0)
        continue;
      adbscope__agent__v1__app_traffic__init (&apps[k]);
      apps[k].uid = a->uid;
      apps[k].bytes_up = a->bytes_up;
      apps[k].bytes_down = a->bytes_down;
      apps[k].packets_up = a->packets_up;
      apps[k].packets_down = a->packets_down;
      apps[k].connections_open = a->open;
      apps[k].connections_total = a->total;
      app_ptrs[k] = &apps[k];
      k++;
    }
  snap.n_apps = k;
  snap.apps = app_ptrs;

  /* Open connections oldest first (the live list is newest first). */
  k = 0;
  for (f = e->live; f && f->next; f = f->next)
    ;
  for (; f; f = f->prev)
    {
      fill_connection (&conns[k], &eps[2 * k], &eps[2 * k + 1], f);
      conn_ptrs[k] = &conns[k];
      k++;
    }
  for (f = e->closed_head; f; f = f->next)
    {
      fill_connection (&conns[k], &eps[2 * k], &eps[2 * k + 1], f);
      conn_ptrs[k] = &conns[k];
      k++;
    }
  snap.n_connections = k;
  snap.connections = conn_ptrs;

  for (i = 0; i < e->dns_log_len; i++)
    {
      EngineDnsRecord *r = &e->dns_log[(e->dns_log_start + i) % ENGINE_DNS_LOG_MAX];
      unsigned a;

      if (r->time_ms + ENGINE_CLOSED_KEEP_MS < snap.time_ms)
        continue;
      adbscope__agent__v1__dns_lookup__init (&dns[n_dns]);
      dns[n_dns].id = r->id;
      dns[n_dns].uid = r->uid;
      dns[n_dns].name = r->name;
      dns[n_dns].qtype = r->qtype;
      dns[n_dns].answers = &answer_ptrs[n_dns * ENGINE_DNS_ANSWERS_MAX];
      for (a = 0; a < r->n_answers; a++)
        dns[n_dns].answers[a] = r->answers[a];
      dns[n_dns].n_answers = r->n_answers;
      dns[n_dns].latency_us = r->latency_us;
      dns[n_dns].result = (Adbscope__Agent__V1__DnsResult) r->result;
      dns[n_dns].rcode = r->rcode;
      dns[n_dns].time_ms = r->time_ms;
      dns[n_dns].via_fake_resolver = r->via_fake;
      dns_ptrs[n_dns] = &dns[n_dns];
      n_dns++;
    }
  snap.n_dns = n_dns;
  snap.dns = dns_ptrs;

  counters.packets_read = e->c.packets_read;
  counters.bytes_read = e->c.bytes_read;
  counters.packets_written = e->c.packets_written;
  counters.bytes_written = e->c.bytes_written;
  counters.dropped_queue_full = atomic_load (&e->dropped_queue_full);
  counters.unsupported_icmp = e->c.unsupported_icmp;
  counters.unsupported_fragments = e->c.unsupported_fragments;
  counters.unsupported_protocol = e->c.unsupported_protocol;
  counters.malformed = e->c.malformed;
  counters.errors = e->c.errors;
  counters.tcp_connections_total = e->c.tcp_total;
  counters.udp_flows_total = e->c.udp_total;
  counters.tcp_open = e->tcp_open;
  counters.udp_open = e->udp_open;
  counters.rst_unknown_connection = e->c.rst_unknown;
  counters.retransmissions = e->c.retransmissions;
  counters.fast_retransmissions = e->c.fast_retransmissions;
  counters.dns_queries = e->c.dns_queries;
  counters.dns_failures = e->c.dns_failures;
  counters.pcap_packets = e->c.pcap_packets;
  counters.pcap_dropped = e->c.pcap_dropped;
  counters.clients_rejected = e->c.clients_rejected;
  counters.fake_resolver_refused = e->c.fake_resolver_refused;
  counters.fake_resolver_tcp = e->c.fake_resolver_tcp;
  snap.counters = &counters;

  msg.payload_case = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT;
  msg.snapshot = &snap;
  frame = frame_message (&msg, &frame_len);
  if (frame == NULL)
    goto out;

  for (c = e->clients; c; c = c->next)
    {
      uint8_t *copy;

      if (c->pcap)
        continue;
      if (c->out_off == c->out_len && c->slot == NULL)
        {
          client_append (c, frame, frame_len);
          continue;
        }
      /* Busy: this snapshot takes the slot, replacing an unsent one. */
      copy = malloc (frame_len);
      if (copy == NULL)
        continue;
      memcpy (copy, frame, frame_len);
      free (c->slot);
      c->slot = copy;
      c->slot_len = frame_len;
    }

out:
  free (frame);
  free (apps);
  free (app_ptrs);
  free (conns);
  free (conn_ptrs);
  free (eps);
  free (dns);
  free (dns_ptrs);
  free (answer_ptrs);
}
