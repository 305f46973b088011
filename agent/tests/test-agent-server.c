/* test-agent-server.c: the snapshot and pcap sockets (uid allow-list,
 * idle exit, a pcap that tshark reads) and the adbscope-agent-linux binary
 * end to end, which also writes proto/testdata/snapshots.bin on request
 * (ADBSCOPE_UPDATE_GOLDEN=1). */
#include "agent-test-util.h"
#include "adbscope-test-wait.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define OTHER_UID 4242

/* In a child with uid @uid: 0 if the socket was closed without a byte,
 * 1 if it sent data, 2 on timeout, 3 if it could not connect. */
static int
probe_as (const char *name,
          uid_t       uid)
{
  pid_t pid = fork ();
  int status = 0;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct pollfd pfd;
      char c;
      int fd;

      if (setresgid (uid, uid, uid) < 0 || setresuid (uid, uid, uid) < 0)
        _exit (4);
      fd = at_unix_connect (name);
      if (fd < 0)
        _exit (3);
      pfd.fd = fd;
      pfd.events = POLLIN;
      if (poll (&pfd, 1, 3000) != 1)
        _exit (2);
      _exit (read (fd, &c, 1) == 0 ? 0 : 1);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static gboolean
rejected_pred (const AtSnapshot *snap,
               gpointer          data)
{
  return snap->counters->clients_rejected >= GPOINTER_TO_UINT (data);
}

/* Only allowed uids (SO_PEERCRED) get data; others are closed and counted. */
static void
test_allow_list (void)
{
  static const unsigned int only_other[] = { OTHER_UID };
  AtNet *net = at_net_new (1500);
  AtEngineOptions opt;
  AtEngine *engine;
  Adbscope__Agent__V1__AgentMessage *msg;
  int fd;

  at_engine_options_init (&opt);
  engine = at_engine_start (net, &opt);          /* default in tests: uid 0 only */
  fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (fd, >=, 0);
  msg = at_read_message (fd, 3000, NULL);
  g_assert_nonnull (msg);
  g_assert_cmpint (msg->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO);
  g_assert_cmpuint (msg->hello->protocol_version, ==, ADBSCOPE_AGENT_PROTOCOL_VERSION);
  g_assert_cmpstr (msg->hello->platform, ==, "linux");
  g_assert_cmpuint (msg->hello->snapshot_interval_ms, ==, 200);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  g_assert_cmpint (probe_as (at_engine_socket_name (engine), OTHER_UID), ==, 0);
  g_assert_cmpint (probe_as (at_engine_pcap_name (engine), OTHER_UID), ==, 0);
  msg = at_wait_snapshot (fd, rejected_pred, GUINT_TO_POINTER (2), 3000);
  g_assert_nonnull (msg);
  g_assert_cmpuint (msg->snapshot->counters->clients_rejected, ==, 2);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  close (fd);
  at_engine_stop (engine);

  /* The list is configurable: now only OTHER_UID is welcome. */
  opt.allowed_uids = only_other;
  opt.n_allowed_uids = 1;
  engine = at_engine_start (net, &opt);
  g_assert_cmpint (probe_as (at_engine_socket_name (engine), OTHER_UID), ==, 1);
  g_assert_cmpint (probe_as (at_engine_pcap_name (engine), OTHER_UID), ==, 1);
  fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (fd, >=, 0);
  g_assert_null (at_read_message (fd, 1000, NULL));     /* root: closed, nothing sent */
  close (fd);
  at_engine_stop (engine);
  at_net_free (net);
}

/* The engine stops by itself the configured time after the last client
 * left, and not while one is connected. */
static void
test_idle_exit (void)
{
  AtNet *net = at_net_new (1500);
  AtEngineOptions opt;
  AtEngine *engine;
  gint64 left;
  int fd;

  at_engine_options_init (&opt);
  opt.idle_exit_ms = 300;
  engine = at_engine_start (net, &opt);
  fd = at_unix_connect (at_engine_socket_name (engine));
  g_assert_cmpint (fd, >=, 0);
  g_assert_false (at_engine_wait_exit (engine, 900));   /* a client is there */
  close (fd);
  left = g_get_monotonic_time ();
  g_assert_true (at_engine_wait_exit (engine, 3000));
  g_assert_cmpint (g_get_monotonic_time () - left, >=, 250 * 1000);
  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_IDLE);

  /* Nobody ever came: the same delay from the start. */
  engine = at_engine_start (net, &opt);
  g_assert_true (at_engine_wait_exit (engine, 3000));
  g_assert_cmpint (at_engine_stop (engine), ==, ADBSCOPE_AGENT_EXIT_IDLE);
  at_net_free (net);
}

typedef struct {
  guint16 tcp_port;
  guint16 udp_port;
  gint    seen;
} PcapCount;

static void
observe_ports (void                  *data,
               AdbscopeAgentDirection dir,
               const EnginePacket    *pkt,
               const uint8_t         *raw,
               size_t                 len)
{
  PcapCount *pc = data;
  guint16 a = pkt->sport, b = pkt->dport;

  if ((pkt->protocol == 6 && (a == pc->tcp_port || b == pc->tcp_port))
      || (pkt->protocol == 17 && (a == pc->udp_port || b == pc->udp_port)))
    g_atomic_int_inc (&pc->seen);
}

static char *
tshark (const char *file,
        const char *filter,
        guint      *lines)
{
  g_autofree char *home = g_dir_make_tmp ("agent-tshark-XXXXXX", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "HOME", home, TRUE);
  const char *argv[] = { "tshark", "-n", "-r", file, "-Y", filter, "-T", "fields",
                         "-e", "frame.number", NULL };
  int status = 0;
  char **l;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("tshark failed: %s", err);
  *lines = 0;
  {
    g_auto(GStrv) split = g_strsplit (out, "\n", -1);

    for (l = split; *l; l++)
      if (**l)
        (*lines)++;
  }
  g_rmdir (home);
  return g_steal_pointer (&out);
}

typedef enum {
  PCAP_CLIENT_FIRST,    /* the client is there before the traffic */
  PCAP_CLIENT_LATE,     /* it comes after: the packets kept from the start */
  PCAP_CLIENT_EXPIRED,  /* it comes after they were let go */
} PcapWhen;

typedef struct
{
  AtNet  *net;
  guint16 port;
} TcpClosed;

/* The client's connections to port are closed on its side, the FIN/ACK
 * exchange through the engine done: none left in the client namespace's
 * /proc/net/tcp but in TIME_WAIT (06) or CLOSE (07). */
static gboolean
client_tcp_closed (gpointer data)
{
  TcpClosed *c = data;
  g_autofree char *path = g_build_filename (at_net_proc_net (c->net), "tcp", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *rem = g_strdup_printf (":%04X ", c->port);

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr(GPtrArray) cols = g_ptr_array_new ();

      for (guint k = 0; f[k] != NULL; k++)
        if (f[k][0] != '\0')
          g_ptr_array_add (cols, f[k]);
      /* sl local_address rem_address st … */
      if (cols->len > 3)
        {
          g_autofree char *r = g_strconcat (g_ptr_array_index (cols, 2), " ", NULL);
          const char *st = g_ptr_array_index (cols, 3);

          if (g_str_has_suffix (r, rem) && !g_str_equal (st, "06") && !g_str_equal (st, "07"))
            return FALSE;
        }
    }
  return TRUE;
}

typedef struct
{
  GPid pid;
  int  status;
} ChildExit;

static gboolean
child_exited (gpointer data)
{
  ChildExit *e = data;

  return waitpid (e->pid, &e->status, WNOHANG) == e->pid;
}

/* A TCP and a UDP flow through the engine. */
static void
pcap_traffic (AtNet     *net,
              PcapCount *pc)
{
  g_autoptr(GError) error = NULL;
  guint8 buf[64];
  int fd, udp;
  gboolean ok;

  fd = at_client_connect (net, AT_SERVER4, pc->tcp_port);
  g_assert_cmpint (fd, >=, 0);
  ok = at_http_get (fd, "pcap.test", 64 << 10, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (fd);
  {
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (pc->udp_port) };
    struct pollfd p;

    inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
    udp = at_client_socket (net, AF_INET, SOCK_DGRAM);
    g_assert_cmpint (sendto (udp, "ping", 4, 0, (struct sockaddr *) &sin, sizeof sin), ==, 4);
    p.fd = udp;
    p.events = POLLIN;
    g_assert_cmpint (poll (&p, 1, 3000), ==, 1);
    g_assert_cmpint (recv (udp, buf, sizeof buf, 0), ==, 4);
    close (udp);
  }
  {
    TcpClosed c = { net, pc->tcp_port };

    adbscope_test_wait_until (client_tcp_closed, &c, 10000, "the client's TCP connection is closed (FIN/ACK done)");
  }
}

/* The pcap stream, read back by tshark, holds exactly the packets that
 * crossed the TUN (counted by the test's hook) for a TCP and a UDP flow:
 * with the client there first; with the client connecting after the
 * traffic, when the engine keeps the records from its start for the first
 * pcap client (pcap_from_start_ms: the app's first connections come before
 * the desktop's); and none of them once that time is over. */
static void
pcap_tshark (PcapWhen when)
{
  AtNet *net = at_net_new (1500);
  AtEngineOptions opt;
  AtEngine *engine;
  AtServer *server = at_server_new (AT_SERVER4, FALSE);
  AtUdpServer *echo = at_udp_echo_new (AT_SERVER4);
  PcapCount pc = { at_server_port (server), at_udp_server_port (echo), 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) pcap = g_byte_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("agent-pcap-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "capture.pcap", NULL);
  g_autofree char *filter = NULL;
  g_autofree char *out = NULL;
  guint8 buf[65536];
  guint32 hdr[6];
  guint lines = 0, syns = 0;
  gssize n;
  int pfd = -1;

  at_engine_options_init (&opt);
  opt.observe = observe_ports;
  opt.observe_data = &pc;
  opt.pcap_from_start_ms = when == PCAP_CLIENT_LATE ? 30000 : when == PCAP_CLIENT_EXPIRED ? 200 : 0;
  engine = at_engine_start (net, &opt);
  for (int pass = 0; pass < 2; pass++)
    {
      /* the client before the traffic, or after it */
      if ((pass == 0) == (when == PCAP_CLIENT_FIRST))
        {
          /* the time passing is the thing under test: the engine lets
           * the records kept from its start go after 200 ms */
          if (when == PCAP_CLIENT_EXPIRED)
            g_usleep (500 * 1000);
          pfd = at_unix_connect (at_engine_pcap_name (engine));
          g_assert_cmpint (pfd, >=, 0);
          g_assert_cmpint (read (pfd, hdr, sizeof hdr), ==, sizeof hdr);
          g_byte_array_append (pcap, (guint8 *) hdr, sizeof hdr);
          g_assert_cmphex (hdr[0], ==, 0xa1b2c3d4);
          g_assert_cmpuint (hdr[5], ==, 101);     /* LINKTYPE_RAW */
        }
      else
        pcap_traffic (net, &pc);
    }
  /* The client's last ACK (TIME_WAIT) may still be in the TUN's queue: the
   * hook and the pcap count the same packets either way, so this short
   * pause only keeps it from being a coin toss which run sees it. */
  g_usleep (100 * 1000);
  at_engine_stop (engine);                        /* flushes and closes the stream */

  while ((n = read (pfd, buf, sizeof buf)) > 0)
    g_byte_array_append (pcap, buf, (guint) n);
  g_assert_cmpint (n, ==, 0);
  close (pfd);
  g_file_set_contents (file, (char *) pcap->data, pcap->len, &error);
  g_assert_no_error (error);

  filter = g_strdup_printf ("tcp.port == %u || udp.port == %u", pc.tcp_port, pc.udp_port);
  g_free (tshark (file, filter, &lines));
  g_test_message ("tshark: %u packets, the hook saw %d", lines, g_atomic_int_get (&pc.seen));
  g_assert_cmpuint (g_atomic_int_get (&pc.seen), >, 50);
  if (when == PCAP_CLIENT_EXPIRED)
    {
      /* (the file is still a pcap tshark reads: header only) */
      g_assert_cmpuint (lines, ==, 0);
      goto out;
    }
  g_assert_cmpuint (lines, ==, (guint) g_atomic_int_get (&pc.seen));
  g_free (filter);
  filter = g_strdup_printf ("tcp.flags.syn == 1 && tcp.port == %u", pc.tcp_port);
  out = tshark (file, filter, &syns);
  g_assert_cmpuint (syns, ==, 2);                 /* SYN and SYN-ACK */
  g_free (filter);
  filter = g_strdup_printf ("udp.port == %u && data.len == 4", pc.udp_port);
  g_free (tshark (file, filter, &lines));
  g_assert_cmpuint (lines, ==, 2);

out:
  g_unlink (file);
  g_rmdir (dir);
  at_udp_server_free (echo);
  at_server_free (server);
  at_net_free (net);
}

static void
test_pcap_tshark (void)
{
  pcap_tshark (PCAP_CLIENT_FIRST);
}

static void
test_pcap_from_start (void)
{
  pcap_tshark (PCAP_CLIENT_LATE);
}

static void
test_pcap_from_start_expires (void)
{
  pcap_tshark (PCAP_CLIENT_EXPIRED);
}

/* adbscope-agent-linux: creates its TUN, which the test moves into a
 * client namespace; traffic, DNS and snapshots work; it exits by itself
 * after --idle-exit.  Its Hello and five snapshots are the golden file. */
static void
test_binary (void)
{
  AtNet *net = at_net_new_full (1500, FALSE);
  AtServer *server = at_server_new (AT_SERVER4, FALSE);
  AtUdpServer *dns = at_dns_server_new ("golden.adbscope.test", AT_SERVER4, NULL);
  g_autofree char *upstream = g_strdup_printf ("127.0.0.1:%u", at_udp_server_port (dns));
  g_autofree char *sock = g_strdup_printf ("adbscope-bin-%d", getpid ());
  g_autofree char *tid = g_strdup_printf ("%d", at_net_tid (net));
  const char *argv[] = { g_getenv ("ADBSCOPE_AGENT_LINUX"), "--tun", AT_TUN,
                         "--socket-name", sock, "--allow-uid", "0", "--idle-exit", "1",
                         "--dns-upstream", upstream, "--proc-net", at_net_proc_net (net),
                         "--snapshot-interval", "200", NULL };
  const char *move[] = { "ip", "link", "set", "dev", AT_TUN, "netns", tid, NULL };
  const char *cfg[][10] = {
    { "ip", "addr", "add", AGENT_LINUX_ADDR4 "/30", "dev", AT_TUN, NULL },
    { "ip", "-6", "addr", "add", AGENT_LINUX_ADDR6 "/64", "dev", AT_TUN, "nodad", NULL },
    { "ip", "link", "set", AT_TUN, "up", NULL },
    { "ip", "route", "add", "default", "dev", AT_TUN, NULL },
    { "ip", "-6", "route", "add", "default", "dev", AT_TUN, NULL },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  GPid pid;
  int out_fd, status = 0, fd, tcp, udp, i;
  char line[256];
  gssize n;
  guint snapshots = 0;
  guint64 prev_seq = 0;
  gint64 closed_at;
  gboolean ok, found = FALSE;
  guint8 q[512], r[512];
  gsize qlen;
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (53) };

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                           NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  n = read (out_fd, line, sizeof line - 1);        /* the ready line */
  g_assert_cmpint (n, >, 0);
  line[n] = '\0';
  g_assert_nonnull (strstr (line, sock));

  /* `ip link set netns` runs here, in the agent's namespace. */
  g_assert_cmpint (at_run (move), ==, 0);
  fd = at_unix_connect (sock);
  g_assert_cmpint (fd, >=, 0);
  for (i = 0; i < (int) G_N_ELEMENTS (cfg); i++)
    g_assert_cmpint (at_net_run (net, cfg[i]), ==, 0);

  /* A DNS lookup through the fake resolver, then a download. */
  inet_pton (AF_INET, AGENT_LINUX_DNS4, &sin.sin_addr);
  udp = at_client_socket (net, AF_INET, SOCK_DGRAM);
  qlen = at_dns_query (q, 0x4242, "golden.adbscope.test");
  g_assert_cmpint (sendto (udp, q, qlen, 0, (struct sockaddr *) &sin, sizeof sin), ==,
                   (gssize) qlen);
  {
    struct pollfd p = { udp, POLLIN, 0 };

    g_assert_cmpint (poll (&p, 1, 5000), ==, 1);
    g_assert_cmpint (recv (udp, r, sizeof r, 0), >, 12);
    g_assert_cmpuint (r[3] & 0x0f, ==, 0);
  }
  close (udp);
  tcp = at_client_connect (net, AT_SERVER4, at_server_port (server));
  g_assert_cmpint (tcp, >=, 0);
  ok = at_http_get (tcp, "golden.adbscope.test", 100000, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  close (tcp);
  {
    TcpClosed c = { net, at_server_port (server) };

    adbscope_test_wait_until (client_tcp_closed, &c, 10000, "the client's TCP connection is closed (FIN/ACK done)");
  }

  /* Hello and the next five snapshots, bytes as sent. */
  while (snapshots < 5)
    {
      Adbscope__Agent__V1__AgentMessage *msg = at_read_message (fd, 3000, raw);

      g_assert_nonnull (msg);
      if (msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT)
        {
          if (snapshots > 0)
            g_assert_cmpuint (msg->snapshot->seq, ==, prev_seq + 1);
          prev_seq = msg->snapshot->seq;
          snapshots++;
          if (at_find_connection (msg->snapshot, 6, AT_SERVER4, at_server_port (server)))
            {
              const Adbscope__Agent__V1__Connection *c =
                at_find_connection (msg->snapshot, 6, AT_SERVER4, at_server_port (server));

              g_assert_cmpstr (c->host, ==, "golden.adbscope.test");
              g_assert_cmpint (c->uid, ==, 0);
              found = TRUE;
            }
        }
      else
        g_assert_cmpstr (msg->hello->platform, ==, "linux");
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
    }
  g_assert_true (found);
  if (g_strcmp0 (g_getenv ("ADBSCOPE_UPDATE_GOLDEN"), "1") == 0)
    {
      g_file_set_contents (g_getenv ("AGENT_GOLDEN"), (char *) raw->data, raw->len, &error);
      g_assert_no_error (error);
      g_test_message ("wrote %s", g_getenv ("AGENT_GOLDEN"));
    }

  /* Last client gone: the agent exits on its own about a second later. */
  close (fd);
  closed_at = g_get_monotonic_time ();
  {
    ChildExit e = { pid, 0 };

    adbscope_test_wait_until (child_exited, &e, 5000, "the agent exits after its last client left");
    status = e.status;
  }
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpint (g_get_monotonic_time () - closed_at, >=, 800 * 1000);
  close (out_fd);
  g_spawn_close_pid (pid);
  at_udp_server_free (dns);
  at_server_free (server);
  at_net_free (net);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  at_init ();
  g_test_add_func ("/agent/server/allow-list", test_allow_list);
  g_test_add_func ("/agent/server/idle-exit", test_idle_exit);
  g_test_add_func ("/agent/pcap/tshark", test_pcap_tshark);
  g_test_add_func ("/agent/pcap/from-start", test_pcap_from_start);
  g_test_add_func ("/agent/pcap/from-start-expires", test_pcap_from_start_expires);
  g_test_add_func ("/agent/linux/binary", test_binary);
  return g_test_run ();
}
