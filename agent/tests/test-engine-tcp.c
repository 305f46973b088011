/* test-engine-tcp.c: the engine on a real TUN device with the Linux kernel's
 * TCP as the app: transfers (with and without loss), many connections,
 * refusals, IPv6, keepalives, zero-window probes, resets. */
#include "agent-test-util.h"
#include "adbscope-test-wait.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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
               const AtEngineOptions *opt,
               const char            *server_addr,
               gboolean               hold)
{
  fx->net = at_net_new (opt->mtu);
  fx->engine = at_engine_start (fx->net, opt);
  fx->server = server_addr ? at_server_new (server_addr, hold) : NULL;
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

typedef struct {
  const char *dst;
  guint       port;
  int         protocol;
  int         state;          /* 0: any */
  guint64     payload_down;
  guint64     payload_up;
} ConnPred;

static gboolean
conn_pred (const AtSnapshot *snap,
           gpointer          data)
{
  ConnPred *p = data;
  const Adbscope__Agent__V1__Connection *c = at_find_connection (snap, p->protocol, p->dst,
                                                                 p->port);

  return c && (p->state == 0 || (int) c->state == p->state)
         && c->payload_down >= p->payload_down && c->payload_up >= p->payload_up;
}

/* HTTP download and upload, byte-exact; the snapshot has the flow with the
 * Host header, the uid of the client socket and the byte counts. */
static void
test_download_upload (void)
{
  Fixture fx;
  AtEngineOptions opt;
  g_autoptr(GError) error = NULL;
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  ConnPred pred = { AT_SERVER4, 0, 6, 4, 1 << 20, 1 << 20 };
  gboolean ok;
  int fd;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt, AT_SERVER4, FALSE);

  fd = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "download.adbscope.test", 1 << 20, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  ok = at_http_post (fd, "download.adbscope.test", 1 << 20, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (fd);

  pred.port = at_server_port (fx.server);
  msg = at_wait_snapshot (fx.snap_fd, conn_pred, &pred, 10000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 6, AT_SERVER4, pred.port);
  g_assert_cmpstr (c->host, ==, "download.adbscope.test");
  g_assert_cmpint (c->host_source, ==, ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_HTTP_HOST);
  g_assert_cmpint (c->uid, ==, (int) getuid ());
  g_assert_cmpint (c->ip_version, ==, 4);
  g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_NONE);
  g_assert_cmpuint (c->bytes_down, >, c->payload_down);
  g_assert_cmpuint (c->open_time_ms, >, 0);
  g_assert_cmpuint (c->close_time_ms, >=, c->open_time_ms);
  g_assert_cmpuint (msg->snapshot->counters->tcp_connections_total, ==, 1);
  g_assert_cmpuint (msg->snapshot->counters->malformed, ==, 0);
  {
    size_t i;
    gboolean found = FALSE;

    for (i = 0; i < msg->snapshot->n_apps; i++)
      if (msg->snapshot->apps[i]->uid == (int) getuid ())
        {
          found = TRUE;
          g_assert_cmpuint (msg->snapshot->apps[i]->bytes_down, >=, c->bytes_down);
          g_assert_cmpuint (msg->snapshot->apps[i]->connections_total, >=, 1);
        }
    g_assert_true (found);
  }
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  fixture_stop (&fx);
}

static gboolean counters_pred (const AtSnapshot *snap,
                               gpointer          data);

/* One counter of the Tcp lines in a namespace's /proc/net/snmp. */
static guint64
snmp_tcp (AtNet      *net,
          const char *name)
{
  g_autofree char *path = g_build_filename (at_net_proc_net (net), "snmp", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint i, j;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] && lines[i + 1]; i++)
    if (g_str_has_prefix (lines[i], "Tcp:") && g_str_has_prefix (lines[i + 1], "Tcp:"))
      {
        g_auto(GStrv) names = g_strsplit (lines[i], " ", -1);
        g_auto(GStrv) values = g_strsplit (lines[i + 1], " ", -1);

        for (j = 0; names[j] && values[j]; j++)
          if (strcmp (names[j], name) == 0)
            return g_ascii_strtoull (values[j], NULL, 10);
      }
  g_error ("no Tcp %s in %s", name, path);
  return 0;
}

/* Packets the app's kernel dropped on their way into the TUN (its queue
 * towards the engine was full): the transmit "drop" column of every
 * interface but loopback in the app's /proc/net/dev. */
static guint64
tun_tx_dropped (AtNet *net)
{
  g_autofree char *path = g_build_filename (at_net_proc_net (net), "dev", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 dropped = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 2; lines[i] != NULL; i++)
    {
      char *colon = strchr (lines[i], ':');
      g_auto(GStrv) fields = NULL;
      guint n = 0;

      if (colon == NULL)
        continue;
      *colon = '\0';
      if (strcmp (g_strstrip (lines[i]), "lo") == 0)
        continue;
      fields = g_strsplit_set (colon + 1, " \t", -1);
      for (guint j = 0; fields[j] != NULL; j++)
        if (*fields[j] != '\0' && n++ == 11)   /* rx: 8 fields, then tx bytes packets errs drop */
          dropped += g_ascii_strtoull (fields[j], NULL, 10);
    }
  return dropped;
}

/* Without the test hook and without a pcap client the engine sends its
 * segments straight from the ring with writev() and sums them in place
 * (pieces wrapping around the ring's end at odd offsets included).  The
 * app's kernel checks every checksum: byte-exact transfers in both
 * directions, IPv4 and IPv6, at several MTUs, and not one checksum error
 * or retransmission on either side. */
static void
test_fast_path (void)
{
  static const int mtus[] = { 1500, 9000, 21885, 65535 };
  guint i, v;

  for (i = 0; i < G_N_ELEMENTS (mtus); i++)
    for (v = 4; v <= 6; v += 2)
      {
        const char *addr = v == 4 ? AT_SERVER4 : AT_SERVER6;
        Fixture fx;
        AtEngineOptions opt;
        g_autoptr(GError) error = NULL;
        Adbscope__Agent__V1__AgentMessage *msg;
        gboolean ok;
        guint64 dropped0;
        int fd;

        at_engine_options_init (&opt);
        opt.mtu = mtus[i];
        opt.no_hook = TRUE;
        fixture_start (&fx, &opt, addr, FALSE);
        fd = at_client_connect (fx.net, addr, at_server_port (fx.server));
        g_assert_cmpint (fd, >=, 0);
        dropped0 = tun_tx_dropped (fx.net);
        ok = at_http_get (fd, "fast.test", (4 << 20) + 7, &error);
        g_assert_no_error (error);
        g_assert_true (ok);
        ok = at_http_post (fd, "fast.test", (2 << 20) + 3, &error);
        g_assert_no_error (error);
        g_assert_true (ok);
        close (fd);
        g_assert_cmpuint (snmp_tcp (fx.net, "InCsumErrors"), ==, 0);
        g_assert_cmpuint (snmp_tcp (fx.net, "InErrs"), ==, 0);
        /* Nothing of the app's (up to 480 KiB) bursts was lost in the
         * TUN's queue.  (The app's kernel may still resend on a timeout
         * when a loaded machine leaves the engine unscheduled for its
         * 200 ms RTO: that is no loss, so it is only reported.) */
        g_assert_cmpuint (tun_tx_dropped (fx.net) - dropped0, ==, 0);
        g_test_message ("MTU %d IPv%u: app RetransSegs %" G_GUINT64_FORMAT, mtus[i], v,
                        (guint64) snmp_tcp (fx.net, "RetransSegs"));
        msg = at_wait_snapshot (fx.snap_fd, counters_pred, NULL, 10000);
        g_assert_nonnull (msg);
        g_assert_cmpuint (msg->snapshot->counters->retransmissions, ==, 0);
        g_assert_cmpuint (msg->snapshot->counters->malformed, ==, 0);
        g_assert_cmpuint (msg->snapshot->counters->errors, ==, 0);
        adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
        fixture_stop (&fx);
      }
}

static gboolean
counters_pred (const AtSnapshot *snap,
               gpointer          data)
{
  return snap->counters->tcp_open == 0 && snap->counters->tcp_connections_total >= 1;
}

/* What one connection shows on the TUN (the packet hook sees every packet
 * both ways): the window scale options of the app's SYN and the engine's
 * SYN-ACK; the bytes in flight each way (a data segment's end minus the
 * other side's last ACK); the engine's pure ACKs: runs of identical
 * duplicates (what the app's fast retransmit needs) and a right window
 * edge (ack + window << shift) that never moves left. */
typedef struct {
  GMutex   lock;              /* FROM_APP: reader or engine thread */
  guint16  port;
  gboolean syn_wscale;
  gboolean synack_seen;
  gboolean synack_wscale;
  guint    shift;
  gboolean have_app_ack, have_engine_ack;
  guint32  app_ack, engine_ack;
  guint32  max_down, max_up;
  guint32  max_window;        /* the engine's, in bytes */
  gboolean have_pure;
  guint32  ack;
  guint32  edge;
  guint16  window;
  guint    run;
  guint    triples;
  guint    shrinks;
} TcpWatch;

static void
observe_tcp (void                  *data,
             AdbscopeAgentDirection dir,
             const EnginePacket    *pkt,
             const uint8_t         *raw,
             size_t                 len)
{
  TcpWatch *w = data;

  if (pkt->protocol != 6)
    return;
  g_mutex_lock (&w->lock);
  if (dir == ADBSCOPE_AGENT_TO_APP && pkt->sport == w->port)
    {
      if (pkt->flags & ENGINE_TCP_SYN)
        {
          w->synack_seen = TRUE;
          w->synack_wscale = pkt->wscale;
          w->shift = pkt->wscale ? pkt->wscale_shift : 0;
        }
      else if (pkt->flags & ENGINE_TCP_ACK)
        {
          guint32 edge = pkt->ack + ((guint32) pkt->window << w->shift);

          if (pkt->payload_len > 0 && w->have_app_ack
              && (gint32) (pkt->seq + (guint32) pkt->payload_len - w->app_ack) > (gint32) w->max_down)
            w->max_down = pkt->seq + (guint32) pkt->payload_len - w->app_ack;
          w->engine_ack = pkt->ack;
          w->have_engine_ack = TRUE;
          w->max_window = MAX (w->max_window, (guint32) pkt->window << w->shift);
          if (pkt->flags == ENGINE_TCP_ACK && pkt->payload_len == 0)
            {
              if (w->have_pure)
                {
                  if (pkt->ack == w->ack && pkt->window == w->window)
                    {
                      if (++w->run == 3)
                        w->triples++;
                    }
                  else
                    w->run = 0;
                  if ((gint32) (edge - w->edge) < 0)
                    w->shrinks++;
                }
              w->have_pure = TRUE;
              w->ack = pkt->ack;
              w->window = pkt->window;
              w->edge = edge;
            }
        }
    }
  else if (dir == ADBSCOPE_AGENT_FROM_APP && pkt->dport == w->port)
    {
      if ((pkt->flags & (ENGINE_TCP_SYN | ENGINE_TCP_ACK)) == ENGINE_TCP_SYN)
        w->syn_wscale = pkt->wscale;
      if (pkt->payload_len > 0 && w->have_engine_ack
          && (gint32) (pkt->seq + (guint32) pkt->payload_len - w->engine_ack) > (gint32) w->max_up)
        w->max_up = pkt->seq + (guint32) pkt->payload_len - w->engine_ack;
      if ((pkt->flags & ENGINE_TCP_ACK)
          && (!w->have_app_ack || (gint32) (pkt->ack - w->app_ack) > 0))
        {
          w->app_ack = pkt->ack;
          w->have_app_ack = TRUE;
        }
    }
  g_mutex_unlock (&w->lock);
}

/* The window scale options: offered by the app (as its namespace's sysctl
 * says), answered by the engine exactly then. */
static void
assert_wscale (TcpWatch *w,
               gboolean  scaling)
{
  g_assert_true (w->synack_seen);
  g_assert_cmpint (w->syn_wscale, ==, scaling);
  g_assert_cmpint (w->synack_wscale, ==, scaling);
  if (scaling)
    g_assert_cmpuint (w->shift, >, 0);
}

/* 2 % loss each way between the TUN and the engine: 2 MiB down and 512 KiB
 * up stay byte-exact, and the engine's own retransmission ran; with window
 * scaling (the kernel's default) and without. */
static void
test_loss (gconstpointer data)
{
  gboolean scaling = GPOINTER_TO_INT (data);
  Fixture fx;
  AtEngineOptions opt;
  TcpWatch w = { 0 };
  g_autoptr(GError) error = NULL;
  Adbscope__Agent__V1__AgentMessage *msg;
  gboolean ok;
  int fd;

  g_mutex_init (&w.lock);
  at_engine_options_init (&opt);
  opt.loss = 0.02;
  opt.observe = observe_tcp;
  opt.observe_data = &w;
  fx.net = at_net_new (opt.mtu);
  at_net_set_window_scaling (fx.net, scaling);
  fx.server = at_server_new (AT_SERVER4, FALSE);
  w.port = at_server_port (fx.server);
  fx.engine = at_engine_start (fx.net, &opt);
  fx.snap_fd = at_unix_connect (at_engine_socket_name (fx.engine));

  fd = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "loss.test", 2 << 20, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  ok = at_http_post (fd, "loss.test", 512 << 10, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (fd);

  g_assert_cmpuint (at_engine_dropped (fx.engine, ADBSCOPE_AGENT_FROM_APP), >, 0);
  g_assert_cmpuint (at_engine_dropped (fx.engine, ADBSCOPE_AGENT_TO_APP), >, 0);
  msg = at_wait_snapshot (fx.snap_fd, counters_pred, NULL, 20000);
  g_assert_nonnull (msg);
  g_test_message ("dropped %" G_GUINT64_FORMAT " up, %" G_GUINT64_FORMAT " down; "
                  "retransmissions %" G_GUINT64_FORMAT ", fast %" G_GUINT64_FORMAT,
                  at_engine_dropped (fx.engine, ADBSCOPE_AGENT_FROM_APP),
                  at_engine_dropped (fx.engine, ADBSCOPE_AGENT_TO_APP),
                  msg->snapshot->counters->retransmissions,
                  msg->snapshot->counters->fast_retransmissions);
  g_assert_cmpuint (msg->snapshot->counters->retransmissions, >, 0);
  g_assert_cmpuint (msg->snapshot->counters->fast_retransmissions, >, 0);
  g_mutex_lock (&w.lock);
  g_test_message ("window scaling %d (shift %u); identical duplicate-ACK triples %u, "
                  "window shrinks %u; most in flight %u down, %u up", scaling, w.shift,
                  w.triples, w.shrinks, w.max_down, w.max_up);
  assert_wscale (&w, scaling);
  g_assert_cmpuint (w.triples, >, 0);
  g_assert_cmpuint (w.shrinks, ==, 0);
  g_mutex_unlock (&w.lock);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  fixture_stop (&fx);
  g_mutex_clear (&w.lock);
}

/* With window scaling the app really has more than 64 KiB in flight both
 * ways (seen on the TUN, not taken from the engine), the engine's window
 * exceeds 64 KiB and the transfers stay byte-exact; without it (the app's
 * sysctl off) no option is answered and nothing exceeds 64 KiB. */
typedef struct {
  gboolean scaling;
  int      mtu;
  int      ip_version;
} WindowCase;

static void
test_window_scaling (gconstpointer data)
{
  const WindowCase *wc = data;
  const char *addr = wc->ip_version == 4 ? AT_SERVER4 : AT_SERVER6;
  Fixture fx;
  AtEngineOptions opt;
  TcpWatch w = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean ok;
  int fd;

  g_mutex_init (&w.lock);
  at_engine_options_init (&opt);
  opt.mtu = wc->mtu;
  opt.observe = observe_tcp;
  opt.observe_data = &w;
  fx.net = at_net_new (opt.mtu);
  at_net_set_window_scaling (fx.net, wc->scaling);
  fx.server = at_server_new (addr, FALSE);
  w.port = at_server_port (fx.server);
  fx.engine = at_engine_start (fx.net, &opt);
  fx.snap_fd = at_unix_connect (at_engine_socket_name (fx.engine));

  fd = at_client_connect (fx.net, addr, w.port);
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "window.test", (8 << 20) + 5, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  ok = at_http_post (fd, "window.test", (8 << 20) + 3, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (fd);

  g_mutex_lock (&w.lock);
  g_test_message ("window scaling %d, MTU %d, IPv%d: shift %u, largest window %u; "
                  "most in flight %u down, %u up; window shrinks %u",
                  wc->scaling, wc->mtu, wc->ip_version, w.shift, w.max_window, w.max_down,
                  w.max_up, w.shrinks);
  assert_wscale (&w, wc->scaling);
  g_assert_cmpuint (w.shrinks, ==, 0);
  if (wc->scaling)
    {
      g_assert_cmpuint (w.max_window, >, 65535);
      g_assert_cmpuint (w.max_down, >, 65535);
      g_assert_cmpuint (w.max_up, >, 65535);
    }
  else
    {
      g_assert_cmpuint (w.max_window, <=, 65535);
      g_assert_cmpuint (w.max_down, <=, 65535);
      g_assert_cmpuint (w.max_up, <=, 65535);
      /* Still more than a trickle: the 64 KiB windows were used. */
      g_assert_cmpuint (w.max_down, >, 32768);
      g_assert_cmpuint (w.max_up, >, 32768);
    }
  g_mutex_unlock (&w.lock);
  fixture_stop (&fx);
  g_mutex_clear (&w.lock);
}

static gboolean
open_pred (const AtSnapshot *snap,
           gpointer          data)
{
  return snap->counters->tcp_open >= GPOINTER_TO_UINT (data);
}

static gboolean
all_closed_pred (const AtSnapshot *snap,
                 gpointer          data)
{
  return snap->counters->tcp_open == 0
         && snap->counters->tcp_connections_total >= GPOINTER_TO_UINT (data);
}

/* 200 connections open at once, each a byte-exact download.  A second
 * snapshot client that never reads shows the one-slot rule: it later gets
 * fewer, newer snapshots with gaps, not a backlog. */
static void
test_concurrent (void)
{
  enum { N = 200, SIZE = 16384 };
  Fixture fx;
  AtEngineOptions opt;
  int fds[N], i, lazy;
  Adbscope__Agent__V1__AgentMessage *msg;
  guint64 last_seq = 0, prev = 0, first_seq = 0;
  guint frames = 0, gaps = 0;

  at_engine_options_init (&opt);
  opt.snapshot_interval_ms = 50;
  fixture_start (&fx, &opt, AT_SERVER4, FALSE);
  lazy = at_unix_connect (at_engine_socket_name (fx.engine));
  g_assert_cmpint (lazy, >=, 0);

  for (i = 0; i < N; i++)
    {
      fds[i] = at_client_connect (fx.net, AT_SERVER4, at_server_port (fx.server));
      g_assert_cmpint (fds[i], >=, 0);
    }
  msg = at_wait_snapshot (fx.snap_fd, open_pred, GUINT_TO_POINTER (N), 10000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->tcp_open, ==, N);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  for (i = 0; i < N; i++)
    {
      g_autofree char *req = g_strdup_printf ("GET /bytes/%d HTTP/1.1\r\nHost: c%d.test\r\n\r\n",
                                              SIZE, i);

      g_assert_true (at_write_all (fds[i], req, strlen (req)));
    }
  for (i = 0; i < N; i++)
    {
      /* The requests are out; read each reply (head, then the body). */
      guint8 buf[SIZE + 256];
      gsize got = 0;
      const guint8 *body;
      gsize j;

      for (;;)
        {
          ssize_t n = read (fds[i], buf + got, sizeof buf - got);

          g_assert_cmpint (n, >, 0);
          got += (gsize) n;
          body = memmem (buf, got, "\r\n\r\n", 4);
          if (body && got - (gsize) (body + 4 - buf) >= SIZE)
            break;
        }
      body += 4;
      for (j = 0; j < SIZE; j++)
        if (body[j] != at_pattern (SIZE, j))
          g_error ("connection %d: byte %zu differs", i, j);
      close (fds[i]);
    }
  msg = at_wait_snapshot (fx.snap_fd, all_closed_pred, GUINT_TO_POINTER (N), 20000);
  g_assert_nonnull (msg);
  last_seq = msg->snapshot->seq;
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  /* Let the lazy client fall well behind (snapshots of 200 connections
   * fill a unix socket buffer in about ten), then read what it got. */
  msg = at_wait_snapshot (fx.snap_fd, NULL, NULL, 5000);
  g_assert_nonnull (msg);
  while (msg && msg->snapshot->seq < last_seq + 30)
    {
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
      msg = at_wait_snapshot (fx.snap_fd, NULL, NULL, 5000);
    }
  if (msg == NULL)
    g_error ("the snapshots stopped");
  last_seq = msg->snapshot->seq;
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  while ((msg = at_read_message (lazy, 300, NULL)) != NULL)
    {
      if (msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT)
        {
          guint64 seq = msg->snapshot->seq;

          if (frames == 0)
            first_seq = seq;
          else
            {
              g_assert_cmpuint (seq, >, prev);
              if (seq != prev + 1)
                gaps++;
            }
          prev = seq;
          frames++;
        }
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
      if (prev >= last_seq)
        break;                    /* caught up with the present */
    }
  g_test_message ("lazy client: %u snapshots from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                  " (%u gaps), fast client at %" G_GUINT64_FORMAT, frames, first_seq, prev, gaps,
                  last_seq);
  g_assert_cmpuint (gaps, >, 0);
  g_assert_cmpuint (frames, <, prev - first_seq + 1);
  g_assert_cmpuint (prev, >=, last_seq);
  close (lazy);
  fixture_stop (&fx);
}

static guint16
closed_port (const char *addr)
{
  struct sockaddr_in sin = { 0 };
  socklen_t sl = sizeof sin;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  guint16 port;

  sin.sin_family = AF_INET;
  inet_pton (AF_INET, addr, &sin.sin_addr);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  getsockname (fd, (struct sockaddr *) &sin, &sl);
  port = ntohs (sin.sin_port);
  close (fd);
  return port;
}

/* The server refuses: the app's connect() fails with ECONNREFUSED (the
 * engine's RST) and the snapshot records why. */
static void
test_refused (void)
{
  Fixture fx;
  AtEngineOptions opt;
  ConnPred pred = { AT_SERVER4, 0, 6, 5, 0, 0 };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  int fd;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt, NULL, FALSE);
  pred.port = closed_port (AT_SERVER4);
  fd = at_client_connect (fx.net, AT_SERVER4, pred.port);
  g_assert_cmpint (fd, ==, -ECONNREFUSED);

  msg = at_wait_snapshot (fx.snap_fd, conn_pred, &pred, 5000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 6, AT_SERVER4, pred.port);
  g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED);
  g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_CONNECTION_REFUSED);
  g_assert_cmpint (c->failure_errno, ==, ECONNREFUSED);
  g_assert_cmpstr (c->failure_text, ==, "Connection refused");
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  fixture_stop (&fx);
}

/* An IPv6 flow end to end. */
static void
test_ipv6 (void)
{
  Fixture fx;
  AtEngineOptions opt;
  g_autoptr(GError) error = NULL;
  ConnPred pred = { AT_SERVER6, 0, 6, 4, 256 << 10, 64 << 10 };
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  gboolean ok;
  int fd;

  at_engine_options_init (&opt);
  fixture_start (&fx, &opt, AT_SERVER6, FALSE);
  fd = at_client_connect (fx.net, AT_SERVER6, at_server_port (fx.server));
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "v6.adbscope.test", 256 << 10, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  ok = at_http_post (fd, "v6.adbscope.test", 64 << 10, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (fd);

  pred.port = at_server_port (fx.server);
  msg = at_wait_snapshot (fx.snap_fd, conn_pred, &pred, 10000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 6, AT_SERVER6, pred.port);
  g_assert_cmpint (c->ip_version, ==, 6);
  g_assert_cmpuint (c->source->address.len, ==, 16);
  g_assert_cmpint (c->uid, ==, (int) getuid ());
  g_assert_cmpstr (c->host, ==, "v6.adbscope.test");
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  fixture_stop (&fx);
}

/* Probes: segments from the app one below the engine's last ACK (Linux
 * sends keepalives and zero-window probes that way), and the engine's
 * answers to them. */
typedef struct {
  GMutex   lock;
  guint16  port;              /* server port of the watched flow */
  guint32  last_ack;          /* engine → app */
  gboolean have_ack;
  guint    probes;
  guint    answers;
  gboolean awaiting;
  guint    zero_windows;
} Probes;

typedef struct
{
  Probes *p;
  guint   min;
} ProbesWait;

typedef struct
{
  AtServer *server;
  guint64   total;
} HeldWait;

static gboolean
server_holds (gpointer data)
{
  HeldWait *w = data;

  return at_server_held_bytes (w->server) >= w->total;
}

/* The app's kernel sent at least min probes and each was answered. */
static gboolean
probes_answered (gpointer data)
{
  ProbesWait *w = data;
  gboolean ok;

  g_mutex_lock (&w->p->lock);
  ok = w->p->probes >= w->min && w->p->answers >= w->p->probes;
  g_mutex_unlock (&w->p->lock);
  return ok;
}

static void
observe_probes (void                  *data,
                AdbscopeAgentDirection dir,
                const EnginePacket    *pkt,
                const uint8_t         *raw,
                size_t                 len)
{
  Probes *p = data;

  if (pkt->protocol != 6)
    return;
  g_mutex_lock (&p->lock);
  if (dir == ADBSCOPE_AGENT_TO_APP && pkt->sport == p->port && (pkt->flags & ENGINE_TCP_ACK))
    {
      p->last_ack = pkt->ack;
      p->have_ack = TRUE;
      if (pkt->window == 0)
        p->zero_windows++;
      if (p->awaiting && pkt->payload_len == 0)
        {
          p->answers++;
          p->awaiting = FALSE;
        }
    }
  else if (dir == ADBSCOPE_AGENT_FROM_APP && pkt->dport == p->port && p->have_ack
           && pkt->seq == p->last_ack - 1 && pkt->payload_len <= 1
           && !(pkt->flags & (ENGINE_TCP_SYN | ENGINE_TCP_FIN | ENGINE_TCP_RST)))
    {
      p->probes++;
      p->awaiting = TRUE;
    }
  g_mutex_unlock (&p->lock);
}

/* Keepalives every second, two unanswered ones kill the connection: after
 * 3.5 s it still works only if the engine answered. */
static void
test_keepalive (void)
{
  Fixture fx;
  AtEngineOptions opt;
  Probes probes = { 0 };
  g_autoptr(GError) error = NULL;
  int fd, one = 1, cnt = 2;
  gboolean ok;

  g_mutex_init (&probes.lock);
  at_engine_options_init (&opt);
  opt.observe = observe_probes;
  opt.observe_data = &probes;
  fx.server = NULL;
  fx.net = at_net_new (opt.mtu);
  fx.server = at_server_new (AT_SERVER4, FALSE);
  probes.port = at_server_port (fx.server);
  fx.engine = at_engine_start (fx.net, &opt);
  fx.snap_fd = at_unix_connect (at_engine_socket_name (fx.engine));

  fd = at_client_connect (fx.net, AT_SERVER4, probes.port);
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "ka.test", 1000, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one), ==, 0);
  g_assert_cmpint (setsockopt (fd, IPPROTO_TCP, TCP_KEEPIDLE, &one, sizeof one), ==, 0);
  g_assert_cmpint (setsockopt (fd, IPPROTO_TCP, TCP_KEEPINTVL, &one, sizeof one), ==, 0);
  g_assert_cmpint (setsockopt (fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt), ==, 0);
  {
    ProbesWait w = { &probes, 2 };

    /* a keepalive a second after a second idle: two in about 2 s */
    adbscope_test_wait_until (probes_answered, &w, 20000, "two keepalives were sent and answered");
  }

  ok = at_http_get (fd, "ka.test", 1000, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_mutex_lock (&probes.lock);
  g_test_message ("keepalives %u, answered %u", probes.probes, probes.answers);
  g_assert_cmpuint (probes.probes, >=, 2);
  g_assert_cmpuint (probes.answers, >=, probes.probes);
  g_mutex_unlock (&probes.lock);
  close (fd);
  fixture_stop (&fx);
  g_mutex_clear (&probes.lock);
}

/* The server stops reading: the engine's window closes, the app's kernel
 * probes it and gets answers; once the server reads again everything
 * arrives in order.  With window scaling and without, and at MTU 65535. */
static void
test_zero_window (gconstpointer data)
{
  const WindowCase *wc = data;
  Fixture fx;
  AtEngineOptions opt;
  Probes probes = { 0 };
  guint8 buf[65536];
  guint64 sent = 0, total;
  int fd, flags;
  gint64 deadline;

  g_mutex_init (&probes.lock);
  at_engine_options_init (&opt);
  opt.observe = observe_probes;
  opt.observe_data = &probes;
  opt.mtu = wc->mtu;
  fx.net = at_net_new (opt.mtu);
  at_net_set_window_scaling (fx.net, wc->scaling);
  fx.server = at_server_new (AT_SERVER4, TRUE);
  probes.port = at_server_port (fx.server);
  fx.engine = at_engine_start (fx.net, &opt);
  fx.snap_fd = at_unix_connect (at_engine_socket_name (fx.engine));

  fd = at_client_connect (fx.net, AT_SERVER4, probes.port);
  g_assert_cmpint (fd, >=, 0);
  flags = fcntl (fd, F_GETFL);
  fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  for (;;)
    {
      struct pollfd pfd = { fd, POLLOUT, 0 };
      ssize_t n;
      guint zero;

      at_pattern_fill (buf, sizeof buf, 7, sent);
      n = write (fd, buf, sizeof buf);
      if (n > 0)
        {
          sent += (guint64) n;
          continue;
        }
      g_assert_cmpint (errno, ==, EAGAIN);
      g_mutex_lock (&probes.lock);
      zero = probes.zero_windows;
      g_mutex_unlock (&probes.lock);
      /* Blocked for good: the engine closed its window and nothing moves
       * (a slow machine may stall without that; then keep going). */
      if (poll (&pfd, 1, 500) == 0 && zero > 0)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  {
    ProbesWait w = { &probes, 1 };

    adbscope_test_wait_until (probes_answered, &w, 20000, "a zero-window probe was sent and answered");
  }
  g_mutex_lock (&probes.lock);
  g_test_message ("blocked after %" G_GUINT64_FORMAT " bytes; zero windows %u, probes %u, "
                  "answered %u", sent, probes.zero_windows, probes.probes, probes.answers);
  g_assert_cmpuint (probes.zero_windows, >=, 1);
  g_assert_cmpuint (probes.probes, >=, 1);
  g_assert_cmpuint (probes.answers, >=, probes.probes);
  g_mutex_unlock (&probes.lock);

  at_server_release (fx.server);
  fcntl (fd, F_SETFL, flags);
  total = sent + (256 << 10);
  while (sent < total)
    {
      at_pattern_fill (buf, sizeof buf, 7, sent);
      g_assert_true (at_write_all (fd, buf, sizeof buf));
      sent += sizeof buf;
    }
  shutdown (fd, SHUT_WR);
  {
    HeldWait w = { fx.server, total };

    adbscope_test_wait_until (server_holds, &w, 20000, "the server has every byte sent");
  }
  g_assert_cmpuint (at_server_held_bytes (fx.server), ==, total);
  g_assert_true (at_server_held_ok (fx.server));
  close (fd);
  fixture_stop (&fx);
  g_mutex_clear (&probes.lock);
}

/* Half-close and resets, with window scaling on (the kernel's default) and
 * transfers larger than any window.  A one-connection server thread:
 *   APP_FIRST: reads the app's data to EOF, then answers and closes;
 *   SERVER_FIRST: sends and shuts its side first, then reads the app's data
 *     (the app writes only after it saw the server's EOF);
 *   RST_SERVER: after the app's first byte sends part of its data, then
 *     resets (SO_LINGER 0);
 *   RST_APP: reads until the app's reset arrives as ECONNRESET. */
typedef enum {
  PEER_APP_FIRST,
  PEER_SERVER_FIRST,
  PEER_RST_SERVER,
  PEER_RST_APP,
} PeerMode;

enum { PEER_UP = (3 << 20) + 11, PEER_DOWN = (3 << 20) + 13 };

typedef struct {
  PeerMode mode;
  int      listen_fd;
  guint16  port;
  guint64  got;               /* bytes from the app, pattern checked */
  gint     got_all;           /* got reached PEER_UP (atomic) */
  gboolean pattern_ok;
  int      read_errno;        /* how the server's reading ended (0: EOF) */
} Peer;

static void
peer_read_all (Peer *p,
               int   fd)
{
  guint8 buf[65536];

  p->pattern_ok = TRUE;
  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);
      ssize_t i;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          p->read_errno = n < 0 ? errno : 0;
          return;
        }
      for (i = 0; i < n; i++)
        if (buf[i] != at_pattern (1, p->got + (guint64) i))
          p->pattern_ok = FALSE;
      p->got += (guint64) n;
      if (p->got >= PEER_UP)
        g_atomic_int_set (&p->got_all, 1);
    }
}

/* @n pattern bytes of @seed (the app writes seed 1, the server seed 2). */
static void
write_pattern (int     fd,
               guint64 n,
               guint64 seed)
{
  guint8 buf[65536];
  guint64 sent = 0;

  while (sent < n)
    {
      gsize len = MIN (sizeof buf, n - sent);

      at_pattern_fill (buf, len, seed, sent);
      g_assert_true (at_write_all (fd, buf, len));
      sent += len;
    }
}

static gpointer
peer_main (gpointer data)
{
  Peer *p = data;
  int fd = accept (p->listen_fd, NULL, NULL);

  g_assert_cmpint (fd, >=, 0);
  switch (p->mode)
    {
    case PEER_APP_FIRST:
      peer_read_all (p, fd);
      write_pattern (fd, PEER_DOWN, 2);
      break;
    case PEER_SERVER_FIRST:
      write_pattern (fd, PEER_DOWN, 2);
      shutdown (fd, SHUT_WR);
      peer_read_all (p, fd);
      break;
    case PEER_RST_SERVER:
      {
        struct linger lg = { 1, 0 };
        char c;

        /* The app's byte first: the app is connected before the reset
         * (otherwise the reset may beat the SYN-ACK, and the app's connect
         * is refused instead). */
        g_assert_cmpint (read (fd, &c, 1), ==, 1);
        write_pattern (fd, PEER_DOWN / 2, 2);
        setsockopt (fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
      }
      break;
    case PEER_RST_APP:
      peer_read_all (p, fd);
      break;
    }
  close (fd);
  return NULL;
}

/* Reads @n pattern bytes (seed 2), then expects EOF (or, with @rst, the
 * reset once the data stops); returns the bytes read. */
static guint64
app_read (int      fd,
          guint64  n,
          gboolean rst)
{
  guint8 buf[65536];
  guint64 got = 0;

  for (;;)
    {
      ssize_t r = read (fd, buf, sizeof buf);
      ssize_t i;

      if (r < 0 && errno == EINTR)
        continue;
      if (rst && r < 0)
        {
          g_assert_cmpint (errno, ==, ECONNRESET);
          return got;
        }
      g_assert_cmpint (r, >=, 0);
      if (r == 0)
        break;
      for (i = 0; i < r; i++)
        if (buf[i] != at_pattern (2, got + (guint64) i))
          g_error ("app: byte %" G_GUINT64_FORMAT " differs", got + (guint64) i);
      got += (guint64) r;
    }
  g_assert_false (rst);
  g_assert_cmpuint (got, ==, n);
  return got;
}

static gboolean
failed_pred (const AtSnapshot *snap,
             gpointer          data)
{
  const ConnPred *p = data;
  const Adbscope__Agent__V1__Connection *c = at_find_connection (snap, 6, p->dst, p->port);

  return c && (c->state == ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED
               || c->state == ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED);
}

static void
test_peer (gconstpointer data)
{
  Peer peer = { .mode = GPOINTER_TO_INT (data) };
  Fixture fx;
  AtEngineOptions opt;
  TcpWatch w = { 0 };
  ConnPred pred = { AT_SERVER4, 0, 6, 0, 0, 0 };
  struct sockaddr_in sin = { .sin_family = AF_INET };
  socklen_t sl = sizeof sin;
  Adbscope__Agent__V1__AgentMessage *msg;
  const Adbscope__Agent__V1__Connection *c;
  GThread *thread;
  int fd;

  g_mutex_init (&w.lock);
  at_engine_options_init (&opt);
  opt.observe = observe_tcp;
  opt.observe_data = &w;
  fixture_start (&fx, &opt, NULL, FALSE);
  peer.listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
  g_assert_cmpint (bind (peer.listen_fd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  g_assert_cmpint (listen (peer.listen_fd, 1), ==, 0);
  getsockname (peer.listen_fd, (struct sockaddr *) &sin, &sl);
  peer.port = pred.port = w.port = ntohs (sin.sin_port);
  thread = g_thread_new ("peer", peer_main, &peer);

  fd = at_client_connect (fx.net, AT_SERVER4, peer.port);
  g_assert_cmpint (fd, >=, 0);
  switch (peer.mode)
    {
    case PEER_APP_FIRST:
      write_pattern (fd, PEER_UP, 1);
      shutdown (fd, SHUT_WR);
      app_read (fd, PEER_DOWN, FALSE);
      break;
    case PEER_SERVER_FIRST:
      app_read (fd, PEER_DOWN, FALSE);
      write_pattern (fd, PEER_UP, 1);
      shutdown (fd, SHUT_WR);
      break;
    case PEER_RST_SERVER:
      g_assert_true (at_write_all (fd, "x", 1));
      g_assert_cmpuint (app_read (fd, PEER_DOWN, TRUE), <=, PEER_DOWN / 2);
      break;
    case PEER_RST_APP:
      {
        struct linger lg = { 1, 0 };

        write_pattern (fd, PEER_UP, 1);
        /* Wait until the server has it all, so the reset is all that is left. */
        while (g_atomic_int_get (&peer.got_all) == 0)
          g_usleep (10000);
        setsockopt (fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close (fd);             /* the reset */
        fd = -1;
      }
      break;
    }
  g_thread_join (thread);       /* the server saw the end it should see */
  if (fd >= 0)
    close (fd);
  close (peer.listen_fd);

  switch (peer.mode)
    {
    case PEER_APP_FIRST:
    case PEER_SERVER_FIRST:
      g_assert_cmpint (peer.read_errno, ==, 0);
      g_assert_cmpuint (peer.got, ==, PEER_UP);
      g_assert_true (peer.pattern_ok);
      break;
    case PEER_RST_APP:
      g_assert_cmpint (peer.read_errno, ==, ECONNRESET);
      g_assert_cmpuint (peer.got, ==, PEER_UP);
      g_assert_true (peer.pattern_ok);
      break;
    case PEER_RST_SERVER:
      break;
    }

  msg = at_wait_snapshot (fx.snap_fd, failed_pred, &pred, 10000);
  g_assert_nonnull (msg);
  c = at_find_connection (msg->snapshot, 6, AT_SERVER4, pred.port);
  switch (peer.mode)
    {
    case PEER_APP_FIRST:
    case PEER_SERVER_FIRST:
      g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_CLOSED);
      g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_NONE);
      g_assert_cmpuint (c->payload_up, ==, PEER_UP);
      g_assert_cmpuint (c->payload_down, >=, PEER_DOWN);
      break;
    case PEER_RST_SERVER:
      g_assert_cmpint (c->state, ==, ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_FAILED);
      g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_RESET_BY_SERVER);
      break;
    case PEER_RST_APP:
      g_assert_cmpint (c->failure, ==, ADBSCOPE__AGENT__V1__FAILURE__FAILURE_RESET_BY_APP);
      break;
    }
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  g_mutex_lock (&w.lock);
  g_test_message ("mode %d: shift %u, most in flight %u down, %u up", peer.mode, w.shift,
                  w.max_down, w.max_up);
  assert_wscale (&w, TRUE);
  g_mutex_unlock (&w.lock);
  fixture_stop (&fx);
  g_mutex_clear (&w.lock);
}

static const WindowCase window_cases[] = {
  { TRUE, 1500, 4 },
  { TRUE, 65535, 6 },
  { FALSE, 1500, 4 },
};

static const WindowCase zero_window_cases[] = {
  { TRUE, 1500, 4 },
  { FALSE, 1500, 4 },
  { TRUE, 65535, 4 },
};

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  at_init ();
  g_test_add_func ("/agent/tcp/download-upload", test_download_upload);
  g_test_add_func ("/agent/tcp/fast-path", test_fast_path);
  g_test_add_data_func ("/agent/tcp/loss", GINT_TO_POINTER (TRUE), test_loss);
  g_test_add_data_func ("/agent/tcp/loss-no-scaling", GINT_TO_POINTER (FALSE), test_loss);
  g_test_add_data_func ("/agent/tcp/window-scaling", &window_cases[0], test_window_scaling);
  g_test_add_data_func ("/agent/tcp/window-scaling-v6-65535", &window_cases[1],
                        test_window_scaling);
  g_test_add_data_func ("/agent/tcp/window-no-scaling", &window_cases[2],
                        test_window_scaling);
  g_test_add_func ("/agent/tcp/concurrent-200", test_concurrent);
  g_test_add_func ("/agent/tcp/refused", test_refused);
  g_test_add_func ("/agent/tcp/ipv6", test_ipv6);
  g_test_add_func ("/agent/tcp/keepalive", test_keepalive);
  g_test_add_data_func ("/agent/tcp/zero-window", &zero_window_cases[0], test_zero_window);
  g_test_add_data_func ("/agent/tcp/zero-window-no-scaling", &zero_window_cases[1],
                        test_zero_window);
  /* 64 KiB segments into a full socket and a full 512 KiB ring. */
  g_test_add_data_func ("/agent/tcp/zero-window-65535", &zero_window_cases[2],
                        test_zero_window);
  g_test_add_data_func ("/agent/tcp/half-close-app-first", GINT_TO_POINTER (PEER_APP_FIRST),
                        test_peer);
  g_test_add_data_func ("/agent/tcp/half-close-server-first",
                        GINT_TO_POINTER (PEER_SERVER_FIRST), test_peer);
  g_test_add_data_func ("/agent/tcp/rst-from-server", GINT_TO_POINTER (PEER_RST_SERVER),
                        test_peer);
  g_test_add_data_func ("/agent/tcp/rst-from-app", GINT_TO_POINTER (PEER_RST_APP), test_peer);
  return g_test_run ();
}
