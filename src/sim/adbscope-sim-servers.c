/* adbscope-sim-servers.c: the simulated device's servers and DNS resolver
 *
 * They run on one thread of `adbscope sim --network`, in the "phone's"
 * network namespace (where the agent's upstream sockets are), on the
 * addresses of adbscope-sim-net-zone.h:
 *   HTTP/1.1   api:80, cdn:80   GET /bytes/N (N bytes), GET anything else (a
 *                               short text), POST with Content-Length (the
 *                               body is read and counted); Connection: close
 *   TLS        api:443, cdn:443 reads the ClientHello, notes its SNI, answers
 *                               a handshake_failure alert and closes
 *   UDP echo   echo:7           every datagram back as it came
 *   DNS        127.0.0.1:PORT   the agent's upstream: A records of the zone,
 *                               NXDOMAIN for anything else, no AAAA data
 * Nothing listens on port 81 (refused) and 198.19.0.0/24 is a black hole.
 *
 * Every byte read from a client and written to it is counted per endpoint
 * and per host (the HTTP Host header or the TLS SNI; "" before one is seen),
 * and every DNS query per name: tests compare what the product reports with
 * these counts (adbscope_sim_servers_dup_counts(), docs/sim.md).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "adbscope-error.h"
#include "adbscope-sim-net-parse.h"
#include "adbscope-sim-net-zone.h"
#include "adbscope-sim-servers.h"

#define MAX_HEADER   (16 * 1024)
#define MAX_HELLO    (16 * 1024)
#define MAX_BODY     (256 * 1024 * 1024)
#define MAX_BYTES    (1024 * 1024 * 1024)

typedef enum
{
  SERVICE_HTTP,
  SERVICE_TLS,
  SERVICE_ECHO,
  SERVICE_DNS,
} Service;

static const char * const service_names[] = { "http", "tls", "udp-echo", "dns" };

typedef struct
{
  Service  service;
  char    *name;
  char    *address;
  guint16  port;
  gboolean udp;
  int      fd;
  guint64  connections;   /* TCP: accepted; UDP: flows (distinct peers) */
  guint64  datagrams;     /* UDP: received */
  guint64  bytes_in;
  guint64  bytes_out;
  GHashTable *peers;      /* UDP: "address:port" seen */
} Endpoint;

typedef struct
{
  guint64 connections;
  guint64 bytes_in;
  guint64 bytes_out;
} HostCount;

typedef struct
{
  guint64 queries;
  guint64 bytes_in;
  guint64 bytes_out;
  char    rcode[12];
} NameCount;

typedef enum
{
  CONN_READ_HEAD,   /* HTTP header or TLS ClientHello */
  CONN_READ_BODY,
  CONN_WRITE,
  CONN_DRAIN,       /* our FIN is out: read until the client's */
} ConnState;

typedef struct
{
  int        fd;
  Endpoint  *endpoint;
  ConnState  state;
  GByteArray *head;
  char      *host;
  guint64    body_left;
  guint64    body_total;
  GByteArray *out;     /* the response head (or the alert) */
  gsize      out_off;
  guint64    fill_left; /* generated body bytes still to send */
  guint64    fill_off;
} Conn;

struct _AdbscopeSimServers
{
  GThread     *thread;
  GMutex       lock;
  int          wake[2];
  gboolean     quit;
  GPtrArray   *endpoints;
  GPtrArray   *conns;
  GHashTable  *hosts;     /* host → HostCount */
  GHashTable  *names;     /* DNS name → NameCount */
  guint64      dns_queries;
  guint16      dns_port;
};

static void
endpoint_free (gpointer data)
{
  Endpoint *ep = data;

  if (ep->fd >= 0)
    close (ep->fd);
  g_clear_pointer (&ep->peers, g_hash_table_unref);
  g_free (ep->name);
  g_free (ep->address);
  g_free (ep);
}

static void
conn_free (gpointer data)
{
  Conn *c = data;

  close (c->fd);
  g_byte_array_unref (c->head);
  if (c->out != NULL)
    g_byte_array_unref (c->out);
  g_free (c->host);
  g_free (c);
}

static gboolean
add_endpoint (AdbscopeSimServers *self,
              Service             service,
              const char         *name,
              const char         *address,
              guint16             port,
              GError            **error)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port) };
  gboolean udp = service == SERVICE_ECHO || service == SERVICE_DNS;
  int one = 1;
  int fd = socket (AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  Endpoint *ep;

  inet_pton (AF_INET, address, &sin.sin_addr);
  if (fd >= 0)
    setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind (fd, (struct sockaddr *) &sin, sizeof sin) != 0 ||
      (!udp && listen (fd, 256) != 0))
    {
      int err = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s server on %s:%u: %s",
                   service_names[service], address, port, g_strerror (err));
      return FALSE;
    }
  if (port == 0)
    {
      socklen_t len = sizeof sin;

      getsockname (fd, (struct sockaddr *) &sin, &len);
    }
  ep = g_new0 (Endpoint, 1);
  ep->service = service;
  ep->name = g_strdup (name);
  ep->address = g_strdup (address);
  ep->port = ntohs (sin.sin_port);
  ep->udp = udp;
  ep->fd = fd;
  if (udp)
    ep->peers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_ptr_array_add (self->endpoints, ep);
  if (service == SERVICE_DNS)
    self->dns_port = ep->port;
  return TRUE;
}

/* Called with the lock held. */
static HostCount *
host_count (AdbscopeSimServers *self,
            const char         *host)
{
  HostCount *hc = g_hash_table_lookup (self->hosts, host);

  if (hc == NULL)
    {
      hc = g_new0 (HostCount, 1);
      g_hash_table_insert (self->hosts, g_strdup (host), hc);
    }
  return hc;
}

static void
count (AdbscopeSimServers *self,
       Conn               *c,
       gsize               in,
       gsize               out)
{
  HostCount *hc;

  g_mutex_lock (&self->lock);
  c->endpoint->bytes_in += in;
  c->endpoint->bytes_out += out;
  hc = host_count (self, c->host != NULL ? c->host : "");
  hc->bytes_in += in;
  hc->bytes_out += out;
  g_mutex_unlock (&self->lock);
}

/* The host is known: the bytes counted under "" so far move to it. */
static void
set_host (AdbscopeSimServers *self,
          Conn               *c,
          const char         *host)
{
  HostCount *none, *hc;

  g_mutex_lock (&self->lock);
  none = host_count (self, "");
  hc = host_count (self, host);
  none->bytes_in -= c->head->len;
  none->connections--;
  hc->bytes_in += c->head->len;
  hc->connections++;
  g_mutex_unlock (&self->lock);
  c->host = g_strdup (host);
}

/* ---- HTTP -------------------------------------------------------------- */

static void
respond (Conn       *c,
         const char *status,
         const char *text,
         guint64     fill)
{
  g_autofree char *head = g_strdup_printf ("HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %" G_GUINT64_FORMAT
                                           "\r\nConnection: close\r\n\r\n%s",
                                           status, fill > 0 ? "application/octet-stream" : "text/plain",
                                           fill > 0 ? fill : (guint64) strlen (text), text);

  c->out = g_byte_array_new ();
  g_byte_array_append (c->out, (const guint8 *) head, strlen (head));
  c->fill_left = fill;
  c->state = CONN_WRITE;
}

static void
http_request (AdbscopeSimServers *self,
              Conn               *c,
              const char         *head)
{
  g_auto(GStrv) words = g_strsplit (head, " ", 3);
  g_autofree char *host = adbscope_sim_http_header (head, "Host");
  g_autofree char *length = adbscope_sim_http_header (head, "Content-Length");
  const char *method = words[0];
  const char *path = words[0] != NULL ? words[1] : NULL;

  if (host != NULL)
    {
      char *colon = strrchr (host, ':');

      if (colon != NULL && strchr (host, ']') == NULL)
        *colon = '\0';
      set_host (self, c, host);
    }
  if (method == NULL || path == NULL)
    {
      respond (c, "400 Bad Request", "bad request\n", 0);
      return;
    }
  if (g_str_equal (method, "POST") || g_str_equal (method, "PUT"))
    {
      guint64 n = 0;

      if (length == NULL || !g_ascii_string_to_unsigned (length, 10, 0, MAX_BODY, &n, NULL))
        {
          respond (c, "411 Length Required", "Content-Length wanted\n", 0);
          return;
        }
      c->body_left = c->body_total = n;
      c->state = CONN_READ_BODY;
      return;
    }
  if (g_str_has_prefix (path, "/bytes/"))
    {
      guint64 n = 0;

      if (!g_ascii_string_to_unsigned (path + 7, 10, 1, MAX_BYTES, &n, NULL))
        respond (c, "400 Bad Request", "bad size\n", 0);
      else
        respond (c, "200 OK", "", n);
      return;
    }
  {
    g_autofree char *text = g_strdup_printf ("hello from %s\n", host != NULL ? host : c->endpoint->name);

    respond (c, "200 OK", text, 0);
  }
}

/* ---- connections ------------------------------------------------------- */

static void
conn_finish_write (Conn *c)
{
  shutdown (c->fd, SHUT_WR);
  c->state = CONN_DRAIN;
}

static void
body_done (Conn *c)
{
  g_autofree char *text = g_strdup_printf ("received %" G_GUINT64_FORMAT "\n", c->body_total);

  respond (c, "200 OK", text, 0);
}

static void
head_complete (AdbscopeSimServers *self,
               Conn               *c)
{
  if (c->endpoint->service == SERVICE_TLS)
    {
      static const guint8 alert[] = { 0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28 };
      g_autofree char *sni = NULL;
      int r = adbscope_sim_parse_client_hello (c->head->data, c->head->len, &sni);

      if (r == 0 && c->head->len < MAX_HELLO)
        return;
      if (sni != NULL)
        set_host (self, c, sni);
      c->out = g_byte_array_new ();
      g_byte_array_append (c->out, alert, sizeof alert);
      c->state = CONN_WRITE;
      return;
    }
  {
    guint8 *end = memmem (c->head->data, c->head->len, "\r\n\r\n", 4);
    g_autofree char *head = NULL;
    gsize extra;

    if (end == NULL)
      {
        if (c->head->len >= MAX_HEADER)
          respond (c, "431 Request Header Fields Too Large", "too large\n", 0);
        return;
      }
    head = g_strndup ((const char *) c->head->data, end - c->head->data);
    extra = c->head->len - (end + 4 - c->head->data);
    http_request (self, c, head);
    if (c->state == CONN_READ_BODY)
      {
        c->body_left -= MIN (c->body_left, extra);
        if (c->body_left == 0)
          body_done (c);
      }
  }
}

/* FALSE: the connection is over. */
static gboolean
conn_read (AdbscopeSimServers *self,
           Conn               *c)
{
  guint8 buf[65536];
  ssize_t n = recv (c->fd, buf, sizeof buf, 0);

  if (n < 0)
    return errno == EAGAIN || errno == EINTR;
  if (n == 0)
    return FALSE;
  count (self, c, (gsize) n, 0);
  switch (c->state)
    {
    case CONN_READ_HEAD:
      g_byte_array_append (c->head, buf, (guint) n);
      head_complete (self, c);
      break;
    case CONN_READ_BODY:
      c->body_left -= MIN (c->body_left, (guint64) n);
      if (c->body_left == 0)
        body_done (c);
      break;
    case CONN_WRITE:
    case CONN_DRAIN:
      break;   /* counted, dropped (a pipelined request is not served) */
    }
  return TRUE;
}

static gboolean
conn_write (AdbscopeSimServers *self,
            Conn               *c)
{
  static guint8 fill[65536];
  static gboolean fill_ready;

  if (!fill_ready)
    {
      for (gsize i = 0; i < sizeof fill; i++)
        fill[i] = (guint8) ('a' + i % 26);
      fill_ready = TRUE;
    }
  for (;;)
    {
      const guint8 *data;
      gsize len;
      ssize_t n;

      if (c->out_off < c->out->len)
        data = c->out->data + c->out_off, len = c->out->len - c->out_off;
      else if (c->fill_left > 0)
        data = fill + c->fill_off % sizeof fill,
        len = MIN (c->fill_left, sizeof fill - c->fill_off % sizeof fill);
      else
        {
          conn_finish_write (c);
          return TRUE;
        }
      n = send (c->fd, data, len, MSG_NOSIGNAL);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      count (self, c, 0, (gsize) n);
      if (c->out_off < c->out->len)
        c->out_off += (gsize) n;
      else
        c->fill_left -= (guint64) n, c->fill_off += (guint64) n;
    }
}

/* ---- UDP --------------------------------------------------------------- */

/* With the lock held.  UDP has no Host or SNI: its host is the name the
 * resolver gives the address, as the agent learns it from the DNS answer. */
static void
count_datagram (AdbscopeSimServers            *self,
                Endpoint                      *ep,
                const struct sockaddr_storage *from,
                gsize                          in,
                gsize                          out)
{
  const struct sockaddr_in *sin = (const struct sockaddr_in *) from;
  char addr[INET6_ADDRSTRLEN] = "";
  g_autofree char *peer = NULL;
  gboolean new_flow;
  HostCount *hc;

  inet_ntop (AF_INET, &sin->sin_addr, addr, sizeof addr);
  peer = g_strdup_printf ("%s:%u", addr, ntohs (sin->sin_port));
  new_flow = !g_hash_table_contains (ep->peers, peer);
  if (new_flow)
    g_hash_table_add (ep->peers, g_steal_pointer (&peer));
  ep->connections += new_flow;
  ep->datagrams++;
  ep->bytes_in += in;
  ep->bytes_out += out;
  if (ep->service != SERVICE_ECHO)
    return;
  hc = host_count (self, ep->name);
  hc->connections += new_flow;
  hc->bytes_in += in;
  hc->bytes_out += out;
}

static void
echo_datagram (AdbscopeSimServers *self,
               Endpoint           *ep)
{
  guint8 buf[65536];
  struct sockaddr_storage from;
  socklen_t flen = sizeof from;
  ssize_t n = recvfrom (ep->fd, buf, sizeof buf, 0, (struct sockaddr *) &from, &flen);
  ssize_t sent;

  if (n < 0)
    return;
  sent = sendto (ep->fd, buf, (size_t) n, 0, (struct sockaddr *) &from, flen);
  g_mutex_lock (&self->lock);
  count_datagram (self, ep, &from, (gsize) n, sent > 0 ? (gsize) sent : 0);
  g_mutex_unlock (&self->lock);
}

static void
dns_query (AdbscopeSimServers *self,
           Endpoint           *ep)
{
  guint8 buf[1500], reply[1600];
  struct sockaddr_storage from;
  socklen_t flen = sizeof from;
  ssize_t n = recvfrom (ep->fd, buf, sizeof buf, 0, (struct sockaddr *) &from, &flen);
  g_autofree char *name = NULL;
  const char *address = NULL;
  const char *rcode_name;
  guint qtype = 0;
  gsize qend = 0, rlen;
  int rcode;
  NameCount *nc;
  ssize_t sent;

  if (n < 0)
    return;
  if (!adbscope_sim_parse_dns_question (buf, (gsize) n, &name, &qtype, &qend))
    return;   /* not a query we answer: dropped, as a resolver would */
  for (guint i = 0; i < G_N_ELEMENTS (adbscope_sim_net_names); i++)
    if (g_str_equal (adbscope_sim_net_names[i].name, name))
      address = adbscope_sim_net_names[i].address;
  rcode = address != NULL ? 0 : 3;
  rcode_name = rcode == 0 ? "NOERROR" : "NXDOMAIN";

  memcpy (reply, buf, qend);
  reply[2] = 0x80 | (buf[2] & 0x79) | 0x04;   /* QR, opcode and RD kept, AA */
  reply[3] = 0x80 | (guint8) rcode;           /* RA */
  reply[6] = reply[7] = reply[8] = reply[9] = reply[10] = reply[11] = 0;
  rlen = qend;
  if (address != NULL && qtype == 1)
    {
      static const guint8 answer[] = { 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4 };

      reply[7] = 1;
      memcpy (reply + rlen, answer, sizeof answer);
      rlen += sizeof answer;
      inet_pton (AF_INET, address, reply + rlen);
      rlen += 4;
    }
  sent = sendto (ep->fd, reply, rlen, 0, (struct sockaddr *) &from, flen);

  g_mutex_lock (&self->lock);
  self->dns_queries++;
  count_datagram (self, ep, &from, (gsize) n, sent > 0 ? (gsize) sent : 0);
  nc = g_hash_table_lookup (self->names, name);
  if (nc == NULL)
    {
      nc = g_new0 (NameCount, 1);
      g_hash_table_insert (self->names, g_strdup (name), nc);
    }
  nc->queries++;
  nc->bytes_in += (guint64) n;
  if (sent > 0)
    nc->bytes_out += (guint64) sent;
  g_strlcpy (nc->rcode, rcode_name, sizeof nc->rcode);
  g_mutex_unlock (&self->lock);
}

/* ---- the loop ---------------------------------------------------------- */

static void
accept_conn (AdbscopeSimServers *self,
             Endpoint           *ep)
{
  for (;;)
    {
      int fd = accept4 (ep->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
      Conn *c;

      if (fd < 0)
        return;
      c = g_new0 (Conn, 1);
      c->fd = fd;
      c->endpoint = ep;
      c->head = g_byte_array_new ();
      g_ptr_array_add (self->conns, c);
      g_mutex_lock (&self->lock);
      ep->connections++;
      host_count (self, "")->connections++;
      g_mutex_unlock (&self->lock);
    }
}

static gpointer
servers_thread (gpointer data)
{
  AdbscopeSimServers *self = data;
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (struct pollfd));

  while (!self->quit)
    {
      guint n_ep = self->endpoints->len;
      struct pollfd wake = { .fd = self->wake[0], .events = POLLIN };

      g_array_set_size (fds, 0);
      g_array_append_val (fds, wake);
      for (guint i = 0; i < n_ep; i++)
        {
          struct pollfd p = { .fd = ((Endpoint *) self->endpoints->pdata[i])->fd, .events = POLLIN };

          g_array_append_val (fds, p);
        }
      for (guint i = 0; i < self->conns->len; i++)
        {
          Conn *c = self->conns->pdata[i];
          struct pollfd p = { .fd = c->fd, .events = c->state == CONN_WRITE ? POLLOUT | POLLIN : POLLIN };

          g_array_append_val (fds, p);
        }
      if (poll ((struct pollfd *) fds->data, fds->len, -1) < 0 && errno != EINTR)
        break;
      for (guint i = 0; i < n_ep; i++)
        {
          Endpoint *ep = self->endpoints->pdata[i];

          if ((g_array_index (fds, struct pollfd, i + 1).revents & POLLIN) == 0)
            continue;
          if (ep->service == SERVICE_DNS)
            dns_query (self, ep);
          else if (ep->service == SERVICE_ECHO)
            echo_datagram (self, ep);
          else
            accept_conn (self, ep);
        }
      /* Connections accepted above are not in fds yet: walk the old ones
       * from the end so removals keep the indices of the rest. */
      for (guint i = fds->len - 1 - n_ep; i-- > 0;)
        {
          Conn *c = self->conns->pdata[i];
          short revents = g_array_index (fds, struct pollfd, 1 + n_ep + i).revents;
          gboolean alive = TRUE;

          if (revents & (POLLIN | POLLHUP | POLLERR))
            alive = conn_read (self, c);
          if (alive && c->state == CONN_WRITE && (revents & (POLLOUT | POLLIN)))
            alive = conn_write (self, c);
          if (!alive)
            g_ptr_array_remove_index (self->conns, i);
        }
    }
  return NULL;
}

AdbscopeSimServers *
adbscope_sim_servers_start (GError **error)
{
  AdbscopeSimServers *self = g_new0 (AdbscopeSimServers, 1);
  static const struct { Service service; const char *address; guint16 port; } plan[] = {
    { SERVICE_HTTP, ADBSCOPE_SIM_NET_API_ADDR, ADBSCOPE_SIM_NET_HTTP_PORT },
    { SERVICE_TLS, ADBSCOPE_SIM_NET_API_ADDR, ADBSCOPE_SIM_NET_TLS_PORT },
    { SERVICE_HTTP, ADBSCOPE_SIM_NET_CDN_ADDR, ADBSCOPE_SIM_NET_HTTP_PORT },
    { SERVICE_TLS, ADBSCOPE_SIM_NET_CDN_ADDR, ADBSCOPE_SIM_NET_TLS_PORT },
    { SERVICE_ECHO, ADBSCOPE_SIM_NET_ECHO_ADDR, ADBSCOPE_SIM_NET_ECHO_PORT },
  };

  g_mutex_init (&self->lock);
  self->endpoints = g_ptr_array_new_with_free_func (endpoint_free);
  self->conns = g_ptr_array_new_with_free_func (conn_free);
  self->hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->wake[0] = self->wake[1] = -1;
  for (guint i = 0; i < G_N_ELEMENTS (plan); i++)
    {
      const char *name = NULL;

      for (guint j = 0; j < G_N_ELEMENTS (adbscope_sim_net_names); j++)
        if (g_str_equal (adbscope_sim_net_names[j].address, plan[i].address))
          name = adbscope_sim_net_names[j].name;
      if (!add_endpoint (self, plan[i].service, name, plan[i].address, plan[i].port, error))
        goto fail;
    }
  if (!add_endpoint (self, SERVICE_DNS, "resolver", "127.0.0.1", 0, error))
    goto fail;
  if (!g_unix_open_pipe (self->wake, FD_CLOEXEC, error))
    goto fail;
  self->thread = g_thread_new ("sim-servers", servers_thread, self);
  return self;

fail:
  adbscope_sim_servers_stop (self);
  return NULL;
}

guint16
adbscope_sim_servers_get_dns_port (AdbscopeSimServers *self)
{
  return self->dns_port;
}

char *
adbscope_sim_servers_dup_counts (AdbscopeSimServers *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GHashTableIter iter;
  gpointer key, value;

#define ADD_INT(k, v) G_STMT_START { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (gint64) (v)); } G_STMT_END
  g_mutex_lock (&self->lock);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "endpoints");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->endpoints->len; i++)
    {
      Endpoint *ep = self->endpoints->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, ep->name);
      json_builder_set_member_name (b, "service");
      json_builder_add_string_value (b, service_names[ep->service]);
      json_builder_set_member_name (b, "protocol");
      json_builder_add_string_value (b, ep->udp ? "udp" : "tcp");
      json_builder_set_member_name (b, "address");
      json_builder_add_string_value (b, ep->address);
      ADD_INT ("port", ep->port);
      ADD_INT ("connections", ep->connections);
      if (ep->udp)
        ADD_INT ("datagrams", ep->datagrams);
      ADD_INT ("bytes_in", ep->bytes_in);
      ADD_INT ("bytes_out", ep->bytes_out);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "hosts");
  json_builder_begin_object (b);
  g_hash_table_iter_init (&iter, self->hosts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      HostCount *hc = value;

      json_builder_set_member_name (b, key);
      json_builder_begin_object (b);
      ADD_INT ("connections", hc->connections);
      ADD_INT ("bytes_in", hc->bytes_in);
      ADD_INT ("bytes_out", hc->bytes_out);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "dns");
  json_builder_begin_object (b);
  ADD_INT ("port", self->dns_port);
  ADD_INT ("queries", self->dns_queries);
  json_builder_set_member_name (b, "names");
  json_builder_begin_object (b);
  g_hash_table_iter_init (&iter, self->names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      NameCount *nc = value;

      json_builder_set_member_name (b, key);
      json_builder_begin_object (b);
      ADD_INT ("queries", nc->queries);
      ADD_INT ("bytes_in", nc->bytes_in);
      ADD_INT ("bytes_out", nc->bytes_out);
      json_builder_set_member_name (b, "rcode");
      json_builder_add_string_value (b, nc->rcode);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  g_mutex_unlock (&self->lock);
#undef ADD_INT
  root = json_builder_get_root (b);
  return json_to_string (root, FALSE);
}

void
adbscope_sim_servers_stop (AdbscopeSimServers *self)
{
  if (self == NULL)
    return;
  if (self->thread != NULL)
    {
      self->quit = TRUE;
      if (write (self->wake[1], "q", 1) < 0)
        g_debug ("sim: wake the servers: %s", g_strerror (errno));
      g_thread_join (self->thread);
    }
  for (int i = 0; i < 2; i++)
    if (self->wake[i] >= 0)
      close (self->wake[i]);
  g_ptr_array_unref (self->conns);
  g_ptr_array_unref (self->endpoints);
  g_hash_table_unref (self->hosts);
  g_hash_table_unref (self->names);
  g_mutex_clear (&self->lock);
  g_free (self);
}
