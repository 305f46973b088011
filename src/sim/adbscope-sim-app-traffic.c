/* adbscope-sim-app-traffic.c: the demo app's network traffic
 *
 * With `adbscope sim --network` the demo app runs in a namespace whose only
 * route is the agent's TUN, and every 10 s it does one round of what an app
 * does (all sizes fixed, so a test can compare byte counts exactly with the
 * device's servers):
 *   DNS   A queries to the agent's fake resolver 10.215.173.2 for
 *         api/cdn/echo/slow.demo.test and missing.demo.test (NXDOMAIN)
 *   HTTP  GET http://api.demo.test/ (Host header), POST of 16 KiB to
 *         api.demo.test/upload, GET cdn.demo.test/bytes/65536, and every
 *         third round a bulk download of 3 MiB from cdn.demo.test
 *   TLS   a ClientHello with SNI api.demo.test to api.demo.test:443 (the
 *         server answers an alert)
 *   UDP   two 512-byte datagrams to echo.demo.test:7 and their echoes
 *   fail  a connect to api.demo.test:81 (refused) and one to
 *         slow.demo.test:443 (a black hole: the agent gives up, ~7 s)
 * When a lookup gets no answer (the agent is not running, so the TUN is not
 * read) the round is skipped and tried again 2 s later.  SIGUSR1 (the
 * device's `traffic-round` command) starts a round at once; with
 * `--traffic manual` that is the only way.  After each round the app writes
 * `rounds=N` to STATE_DIR/traffic.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib.h>

#include "adbscope-sim-app-traffic.h"
#include "adbscope-sim-net-zone.h"

#define ROUND_S          10
#define RETRY_S          2
#define IO_TIMEOUT_S     10
#define BLACKHOLE_WAIT_S 12
#define UPLOAD_BYTES     16384
#define SMALL_DOWN_BYTES 65536
#define BULK_DOWN_BYTES  (3 * 1024 * 1024)
#define BULK_EVERY       3
#define DATAGRAM_BYTES   512

static int
tcp_connect (struct in_addr addr,
             guint16        port)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr = addr };
  struct timeval tv = { .tv_sec = IO_TIMEOUT_S };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  if (fd < 0)
    return -1;
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (connect (fd, (struct sockaddr *) &sin, sizeof sin) != 0)
    {
      int err = errno;

      close (fd);
      errno = err;
      return -1;
    }
  return fd;
}

static gboolean
send_all (int           fd,
          const guint8 *data,
          gsize         len)
{
  while (len > 0)
    {
      ssize_t n = send (fd, data, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Reads to the server's FIN; the number of bytes, or -1. */
static gssize
read_to_end (int fd)
{
  guint8 buf[65536];
  gssize total = 0;

  for (;;)
    {
      ssize_t n = recv (fd, buf, sizeof buf, 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        return total;
      total += n;
    }
}

/* One request per connection (the server says Connection: close). */
static void
http_request (struct in_addr addr,
              const char    *host,
              const char    *method,
              const char    *path,
              gsize          body_len)
{
  g_autofree char *length = body_len > 0 ? g_strdup_printf ("Content-Type: application/octet-stream\r\n"
                                                            "Content-Length: %" G_GSIZE_FORMAT "\r\n", body_len)
                                          : g_strdup ("");
  g_autofree char *head = g_strdup_printf ("%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: okhttp/4.12.0\r\n"
                                           "Accept-Encoding: identity\r\n%s\r\n", method, path, host, length);
  g_autofree guint8 *body = NULL;
  int fd = tcp_connect (addr, ADBSCOPE_SIM_NET_HTTP_PORT);

  if (fd < 0)
    return;
  if (body_len > 0)
    {
      body = g_malloc (body_len);
      for (gsize i = 0; i < body_len; i++)
        body[i] = (guint8) (i * 7);
    }
  if (send_all (fd, (const guint8 *) head, strlen (head)) &&
      (body == NULL || send_all (fd, body, body_len)))
    {
      shutdown (fd, SHUT_WR);
      read_to_end (fd);
    }
  close (fd);
}

static void
put16 (GByteArray *b,
       guint       v)
{
  guint8 x[2] = { (guint8) (v >> 8), (guint8) v };

  g_byte_array_append (b, x, 2);
}

/* A TLS 1.2 ClientHello with server_name, as a client library sends it. */
static GByteArray *
client_hello (const char *sni)
{
  static const guint16 suites[] = { 0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0x009c };
  GByteArray *body = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();
  gsize name_len = strlen (sni);
  guint8 zero = 0;

  put16 (body, 0x0303);
  for (int i = 0; i < 32; i++)
    g_byte_array_append (body, (guint8[]) { (guint8) (i * 13 + 1) }, 1);
  g_byte_array_append (body, &zero, 1);                 /* no session id */
  put16 (body, sizeof suites);
  for (guint i = 0; i < G_N_ELEMENTS (suites); i++)
    put16 (body, suites[i]);
  g_byte_array_append (body, (guint8[]) { 1, 0 }, 2);   /* null compression */
  put16 (body, 4 + 5 + name_len + 4 + 4);               /* extensions */
  put16 (body, 0x0000);                                 /* server_name */
  put16 (body, 5 + name_len);
  put16 (body, 3 + name_len);
  g_byte_array_append (body, &zero, 1);                 /* host_name */
  put16 (body, name_len);
  g_byte_array_append (body, (const guint8 *) sni, name_len);
  put16 (body, 0x000a);                                 /* supported_groups: x25519 */
  put16 (body, 4);
  put16 (body, 2);
  put16 (body, 0x001d);

  g_byte_array_append (out, (guint8[]) { 0x16, 0x03, 0x01 }, 3);
  put16 (out, 4 + body->len);
  g_byte_array_append (out, (guint8[]) { 0x01, 0, (guint8) (body->len >> 8), (guint8) body->len }, 4);
  g_byte_array_append (out, body->data, body->len);
  g_byte_array_unref (body);
  return out;
}

static void
tls_hello (struct in_addr addr,
           const char    *sni)
{
  g_autoptr(GByteArray) hello = client_hello (sni);
  int fd = tcp_connect (addr, ADBSCOPE_SIM_NET_TLS_PORT);

  if (fd < 0)
    return;
  if (send_all (fd, hello->data, hello->len))
    {
      read_to_end (fd);          /* the alert, then the server's FIN */
      shutdown (fd, SHUT_WR);
    }
  close (fd);
}

static void
udp_echo (struct in_addr addr)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (ADBSCOPE_SIM_NET_ECHO_PORT), .sin_addr = addr };
  struct timeval tv = { .tv_sec = 2 };
  guint8 buf[DATAGRAM_BYTES];
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (fd < 0)
    return;
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect (fd, (struct sockaddr *) &sin, sizeof sin) == 0)
    for (int i = 0; i < 2; i++)
      {
        memset (buf, 'u' + i, sizeof buf);
        if (send (fd, buf, sizeof buf, 0) == sizeof buf)
          (void) recv (fd, buf, sizeof buf, 0);
      }
  close (fd);
}

/* A query for NAME; TRUE with the rcode when an answer came. */
static gboolean
dns_lookup (const char     *name,
            struct in_addr *addr,
            int            *rcode)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (53) };
  struct timeval tv = { .tv_sec = 2 };
  guint8 q[300], r[1500];
  gsize len = 12;
  guint16 id = (guint16) g_random_int ();
  g_auto(GStrv) labels = g_strsplit (name, ".", -1);
  ssize_t n;
  int fd;

  memset (q, 0, 12);
  q[0] = (guint8) (id >> 8), q[1] = (guint8) id;
  q[2] = 0x01;                     /* RD */
  q[5] = 1;                        /* one question */
  for (guint i = 0; labels[i] != NULL; i++)
    {
      gsize l = strlen (labels[i]);

      q[len++] = (guint8) l;
      memcpy (q + len, labels[i], l);
      len += l;
    }
  q[len++] = 0;
  q[len++] = 0, q[len++] = 1;      /* A */
  q[len++] = 0, q[len++] = 1;      /* IN */

  inet_pton (AF_INET, ADBSCOPE_SIM_NET_FAKE_DNS, &sin.sin_addr);
  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return FALSE;
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect (fd, (struct sockaddr *) &sin, sizeof sin) != 0 || send (fd, q, len, 0) != (ssize_t) len)
    {
      close (fd);
      return FALSE;
    }
  n = recv (fd, r, sizeof r, 0);
  close (fd);
  if (n < 12 || r[0] != q[0] || r[1] != q[1])
    return FALSE;
  *rcode = r[3] & 0x0f;
  /* The answer the sim's resolver gives is the last 4 bytes of an A record. */
  if (*rcode == 0 && (r[6] << 8 | r[7]) > 0 && n >= (ssize_t) len + 16)
    memcpy (addr, r + n - 4, 4);
  else
    addr->s_addr = 0;
  return TRUE;
}

static volatile gint blackhole_busy;

static gpointer
blackhole_thread (gpointer data)
{
  struct in_addr addr = { .s_addr = GPOINTER_TO_UINT (data) };
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (ADBSCOPE_SIM_NET_TLS_PORT), .sin_addr = addr };
  struct pollfd p;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

  if (fd >= 0)
    {
      if (connect (fd, (struct sockaddr *) &sin, sizeof sin) != 0 && errno == EINPROGRESS)
        {
          p.fd = fd;
          p.events = POLLOUT;
          poll (&p, 1, BLACKHOLE_WAIT_S * 1000);
        }
      close (fd);
    }
  g_atomic_int_set (&blackhole_busy, 0);
  return NULL;
}

static void
refused (struct in_addr addr)
{
  int fd = tcp_connect (addr, ADBSCOPE_SIM_NET_CLOSED_PORT);

  if (fd >= 0)
    close (fd);
}

typedef struct
{
  struct in_addr api, cdn, echo, slow;
} Addresses;

/* FALSE when the resolver did not answer (no agent yet). */
static gboolean
resolve_all (Addresses *a)
{
  struct in_addr none;
  int rcode;

  if (!dns_lookup ("api.demo.test", &a->api, &rcode) ||
      !dns_lookup ("cdn.demo.test", &a->cdn, &rcode) ||
      !dns_lookup ("echo.demo.test", &a->echo, &rcode) ||
      !dns_lookup ("slow.demo.test", &a->slow, &rcode))
    return FALSE;
  dns_lookup (ADBSCOPE_SIM_NET_MISSING_NAME, &none, &rcode);
  return a->api.s_addr != 0 && a->cdn.s_addr != 0;
}

static int      wake_pipe[2] = { -1, -1 };
static gboolean manual;
static char    *rounds_path;

static void
on_sigusr1 (int sig)
{
  int saved = errno;

  if (write (wake_pipe[1], "r", 1) < 0)
    {
      /* full: a round is asked for already */
    }
  errno = saved;
}

/* TRUE when asked for a round (SIGUSR1), FALSE when the time ran out. */
static gboolean
wait_round (int seconds)
{
  struct pollfd p = { .fd = wake_pipe[0], .events = POLLIN };
  char buf[16];

  if (poll (&p, 1, seconds < 0 ? -1 : seconds * 1000) <= 0)
    return FALSE;
  while (read (wake_pipe[0], buf, sizeof buf) > 0)
    ;
  return TRUE;
}

static void
write_rounds (guint rounds)
{
  g_autofree char *text = g_strdup_printf ("rounds=%u\n", rounds);

  g_file_set_contents (rounds_path, text, -1, NULL);
}

static gpointer
traffic_thread (gpointer data)
{
  guint round = 0;
  gboolean asked = FALSE;

  prctl (PR_SET_NAME, "OkHttp TaskRunner");
  write_rounds (0);
  if (manual)
    asked = wait_round (-1);
  else
    asked = wait_round (1);
  for (;;)
    {
      Addresses a = { 0 };

      if (!resolve_all (&a))
        {
          /* Asked for a round without an agent: it is done, with nothing. */
          if (asked && manual)
            {
              write_rounds (++round);
              asked = wait_round (-1);
            }
          else
            asked = wait_round (RETRY_S) || asked;
          continue;
        }
      http_request (a.api, "api.demo.test", "GET", "/", 0);
      tls_hello (a.api, "api.demo.test");
      http_request (a.api, "api.demo.test", "POST", "/upload", UPLOAD_BYTES);
      {
        g_autofree char *path = g_strdup_printf ("/bytes/%d", round % BULK_EVERY == 0 ? BULK_DOWN_BYTES : SMALL_DOWN_BYTES);

        http_request (a.cdn, "cdn.demo.test", "GET", path, 0);
      }
      if (a.echo.s_addr != 0)
        udp_echo (a.echo);
      refused (a.api);
      if (a.slow.s_addr != 0 && g_atomic_int_compare_and_exchange (&blackhole_busy, 0, 1))
        g_thread_unref (g_thread_new ("OkHttp slow", blackhole_thread, GUINT_TO_POINTER (a.slow.s_addr)));
      write_rounds (++round);
      asked = wait_round (manual ? -1 : ROUND_S);
    }
  return NULL;
}

void
adbscope_sim_app_traffic_start (const char *state_dir,
                                gboolean    manual_rounds)
{
  struct sigaction sa = { .sa_handler = on_sigusr1 };

  manual = manual_rounds;
  rounds_path = g_build_filename (state_dir, "traffic", NULL);
  if (pipe2 (wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    return;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, NULL);
  g_thread_unref (g_thread_new ("OkHttp TaskRunner", traffic_thread, NULL));
}
