/* test-engine-tcp.c: the engine on a real TUN device with the Linux kernel's
 * TCP as the app: transfers (with and without loss), many connections,
 * refusals, IPv6, keepalives, zero-window probes, resets. */
#include "agent-test-util.h"

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

static gboolean
counters_pred (const AtSnapshot *snap,
               gpointer          data)
{
  return snap->counters->tcp_open == 0 && snap->counters->tcp_connections_total >= 1;
}

/* 2 % loss each way between the TUN and the engine: 2 MiB down and 512 KiB
 * up stay byte-exact, and the engine's own retransmission ran. */
static void
test_loss (void)
{
  Fixture fx;
  AtEngineOptions opt;
  g_autoptr(GError) error = NULL;
  Adbscope__Agent__V1__AgentMessage *msg;
  gboolean ok;
  int fd;

  at_engine_options_init (&opt);
  opt.loss = 0.02;
  fixture_start (&fx, &opt, AT_SERVER4, FALSE);

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
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  fixture_stop (&fx);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  at_init ();
  g_test_add_func ("/agent/tcp/download-upload", test_download_upload);
  g_test_add_func ("/agent/tcp/loss", test_loss);
  return g_test_run ();
}
