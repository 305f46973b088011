/* agent-test-util.c: see agent-test-util.h. */
#include "agent-test-util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define AT_ERROR (g_quark_from_static_string ("agent-test"))

static int orig_ns_fd = -1;

int
at_run (const char *const *argv)
{
  pid_t pid = fork ();
  int status = 0;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      execvp (argv[0], (char *const *) argv);
      _exit (127);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static void
run_or_die (const char *const *argv)
{
  if (at_run (argv) != 0)
    g_error ("%s %s %s … failed", argv[0], argv[1], argv[2]);
}

static void
link_up (const char *name)
{
  struct ifreq ifr;
  int s = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (s, >=, 0);
  memset (&ifr, 0, sizeof ifr);
  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  g_assert_cmpint (ioctl (s, SIOCGIFFLAGS, &ifr), ==, 0);
  ifr.ifr_flags |= IFF_UP;
  g_assert_cmpint (ioctl (s, SIOCSIFFLAGS, &ifr), ==, 0);
  close (s);
}

void
at_init (void)
{
  static const char *addr4[] = { "ip", "addr", "add", AT_SERVER4 "/32", "dev", "lo", NULL };
  static const char *addr6[] = { "ip", "-6", "addr", "add", AT_SERVER6 "/128", "dev", "lo",
                                 "nodad", NULL };

  signal (SIGPIPE, SIG_IGN);
  if (getuid () != 0)
    g_error ("the agent tests need root (TUN devices, network namespaces)");
  if (unshare (CLONE_NEWNET) < 0)
    g_error ("unshare(CLONE_NEWNET): %s", g_strerror (errno));
  orig_ns_fd = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (orig_ns_fd, >=, 0);
  link_up ("lo");
  run_or_die (addr4);
  run_or_die (addr6);
}

/* Client namespace ------------------------------------------------------- */

struct _AtNet {
  int      mtu;
  gboolean with_tun;
  int      ns_fd;
  int      tun_fd;
  pid_t    tid;
  int      park[2];
  GThread *thread;
  GMutex   lock;
  GCond    cond;
  gboolean ready;
  char    *error;
  char    *proc_net;
};

static gpointer
ns_thread_main (gpointer data)
{
  AtNet *net = data;
  char error[256] = "";
  char c;

  if (unshare (CLONE_NEWNET) < 0)
    net->error = g_strdup_printf ("unshare: %s", g_strerror (errno));
  else
    {
      net->ns_fd = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
      net->tid = gettid ();
      link_up ("lo");
      if (net->with_tun)
        {
          net->tun_fd = agent_linux_tun_open (AT_TUN, net->mtu, TRUE, error, sizeof error);
          if (net->tun_fd < 0 || error[0])
            net->error = g_strdup (error);
        }
    }
  g_mutex_lock (&net->lock);
  net->ready = TRUE;
  g_cond_signal (&net->cond);
  g_mutex_unlock (&net->lock);

  /* Stay, so /proc/PID/task/TID/net shows the namespace (uid lookups). */
  while (read (net->park[0], &c, 1) < 0 && errno == EINTR)
    ;
  return NULL;
}

AtNet *
at_net_new_full (int      mtu,
                 gboolean with_tun)
{
  AtNet *net = g_new0 (AtNet, 1);
  const char *route4[] = { "ip", "route", "add", "default", "dev", AT_TUN, NULL };
  const char *route6[] = { "ip", "-6", "route", "add", "default", "dev", AT_TUN, NULL };

  net->mtu = mtu;
  net->with_tun = with_tun;
  net->ns_fd = net->tun_fd = -1;
  g_mutex_init (&net->lock);
  g_cond_init (&net->cond);
  g_assert_cmpint (pipe2 (net->park, O_CLOEXEC), ==, 0);
  net->thread = g_thread_new ("client-ns", ns_thread_main, net);
  g_mutex_lock (&net->lock);
  while (!net->ready)
    g_cond_wait (&net->cond, &net->lock);
  g_mutex_unlock (&net->lock);
  if (net->error)
    g_error ("client namespace: %s", net->error);
  if (with_tun)
    {
      g_assert_cmpint (at_net_run (net, route4), ==, 0);
      g_assert_cmpint (at_net_run (net, route6), ==, 0);
    }
  net->proc_net = g_strdup_printf ("/proc/%d/task/%d/net", getpid (), net->tid);
  return net;
}

AtNet *
at_net_new (int mtu)
{
  return at_net_new_full (mtu, TRUE);
}

pid_t
at_net_tid (AtNet *net)
{
  return net->tid;
}

void
at_net_free (AtNet *net)
{
  if (net == NULL)
    return;
  close (net->park[1]);
  g_thread_join (net->thread);
  close (net->park[0]);
  if (net->tun_fd >= 0)
    close (net->tun_fd);
  if (net->ns_fd >= 0)
    close (net->ns_fd);
  g_free (net->proc_net);
  g_free (net->error);
  g_mutex_clear (&net->lock);
  g_cond_clear (&net->cond);
  g_free (net);
}

int
at_net_tun_fd (AtNet *net)
{
  return net->tun_fd;
}

const char *
at_net_proc_net (AtNet *net)
{
  return net->proc_net;
}

void
at_enter_client (AtNet *net)
{
  g_assert_cmpint (setns (net->ns_fd, CLONE_NEWNET), ==, 0);
}

void
at_leave_client (void)
{
  g_assert_cmpint (setns (orig_ns_fd, CLONE_NEWNET), ==, 0);
}

int
at_net_run (AtNet             *net,
            const char *const *argv)
{
  pid_t pid = fork ();
  int status = 0;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (setns (net->ns_fd, CLONE_NEWNET) < 0)
        _exit (126);
      execvp (argv[0], (char *const *) argv);
      _exit (127);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

void
at_net_set_window_scaling (AtNet   *net,
                           gboolean on)
{
  int fd;

  /* /proc/sys/net is the namespace of the thread that opens it. */
  at_enter_client (net);
  fd = open ("/proc/sys/net/ipv4/tcp_window_scaling", O_WRONLY | O_CLOEXEC);
  at_leave_client ();
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, on ? "1\n" : "0\n", 2), ==, 2);
  close (fd);
}

/* Engine in a thread ---------------------------------------------------- */

struct _AtEngine {
  AtNet                  *net;
  AdbscopeAgentEngine    *engine;
  AgentLinux              al;
  AdbscopeAgentCallbacks  lcb;
  AtEngineOptions         opt;
  GThread                *thread;
  AdbscopeAgentExit       result;
  gint                    done;
  gint                    stalling;   /* get_uid is in its stall (atomic) */
  char                    sock[80];
  char                    pcap[96];
  guint64                 rng[2];
  guint64                 dropped[2];
  guint64                 passed;
  gint                    count_passed;
};

void
at_engine_options_init (AtEngineOptions *opt)
{
  memset (opt, 0, sizeof *opt);
  opt->mtu = 1500;
  opt->idle_exit_ms = -1;
  opt->snapshot_interval_ms = 200;
  opt->dns_timeout_ms = 500;
  opt->udp_idle_ms = 120000;
}

static guint64
xorshift (guint64 *s)
{
  guint64 x = *s;

  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x;
}

static int
hook (void                  *user_data,
      AdbscopeAgentDirection dir,
      const uint8_t         *packet,
      size_t                 len)
{
  AtEngine *at = user_data;

  /* Each direction runs on one thread only, so each has its own state. */
  if (at->opt.loss > 0
      && (double) (xorshift (&at->rng[dir]) >> 11) / 9007199254740992.0 < at->opt.loss)
    {
      __atomic_add_fetch (&at->dropped[dir], 1, __ATOMIC_RELAXED);
      return 1;
    }
  if (g_atomic_int_get (&at->count_passed))
    __atomic_add_fetch (&at->passed, 1, __ATOMIC_RELAXED);
  if (at->opt.observe)
    {
      EnginePacket pkt;

      if (engine_packet_parse (packet, len, &pkt) == ENGINE_PKT_OK)
        at->opt.observe (at->opt.observe_data, dir, &pkt, packet, len);
    }
  return 0;
}

static int
cb_protect (void *user_data,
            int   fd)
{
  AtEngine *at = user_data;

  return at->lcb.protect_socket (at->lcb.user_data, fd);
}

static int
cb_uid (void                       *user_data,
        const AdbscopeAgentFlowKey *key)
{
  AtEngine *at = user_data;

  if (at->opt.stall_port && key->dport == at->opt.stall_port)
    {
      /* the stall is what the option asks for */
      g_atomic_int_set (&at->stalling, 1);
      g_usleep ((gulong) at->opt.stall_ms * 1000);
      g_atomic_int_set (&at->stalling, 0);
    }
  return at->lcb.get_uid (at->lcb.user_data, key);
}

static void
cb_resolve (void                *user_data,
            AdbscopeAgentEngine *engine,
            uint64_t             id,
            const uint8_t       *query,
            size_t               len)
{
  AtEngine *at = user_data;

  at->lcb.resolve_dns (at->lcb.user_data, engine, id, query, len);
}

static void
cb_log (void                 *user_data,
        AdbscopeAgentLogLevel level,
        const char           *message)
{
  if (level >= ADBSCOPE_AGENT_LOG_WARNING)
    g_test_message ("engine: %s", message);
}

static gpointer
engine_thread (gpointer data)
{
  AtEngine *at = data;

  at->result = adbscope_agent_engine_run (at->engine);
  g_atomic_int_set (&at->done, 1);
  return NULL;
}

AtEngine *
at_engine_start (AtNet                 *net,
                 const AtEngineOptions *opt)
{
  static unsigned counter;
  static const unsigned int root_only[] = { 0 };
  AtEngine *at = g_new0 (AtEngine, 1);
  AdbscopeAgentConfig config;
  AdbscopeAgentCallbacks cb;
  char error[256];

  at->net = net;
  at->opt = *opt;
  at->rng[0] = 0x9e3779b97f4a7c15ull;
  at->rng[1] = 0xd1b54a32d192ed03ull;
  g_snprintf (at->sock, sizeof at->sock, "adbscope-test-%d-%u", getpid (), ++counter);
  g_snprintf (at->pcap, sizeof at->pcap, "%s-pcap", at->sock);

  agent_linux_init (&at->al);
  g_strlcpy (at->al.proc_net, at_net_proc_net (net), sizeof at->al.proc_net);
  at->al.dns_timeout_ms = opt->dns_timeout_ms;
  if (opt->dns_upstream)
    g_assert_true (agent_linux_set_dns (&at->al, opt->dns_upstream));
  agent_linux_callbacks (&at->al, &at->lcb);

  memset (&cb, 0, sizeof cb);
  cb.user_data = at;
  cb.protect_socket = cb_protect;
  cb.get_uid = cb_uid;
  cb.resolve_dns = cb_resolve;
  cb.log = cb_log;
  cb.packet_hook = opt->no_hook ? NULL : hook;

  adbscope_agent_config_init (&config);
  config.tun_fd = at_net_tun_fd (net);
  config.mtu = opt->mtu;
  inet_pton (AF_INET, AGENT_LINUX_DNS4, config.dns4);
  config.have_dns6 = inet_pton (AF_INET6, AGENT_LINUX_DNS6, config.dns6) == 1;
  config.socket_name = at->sock;
  config.pcap_socket_name = at->pcap;
  config.allowed_uids = opt->allowed_uids ? opt->allowed_uids : root_only;
  config.n_allowed_uids = opt->allowed_uids ? opt->n_allowed_uids : 1;
  config.idle_exit_ms = opt->idle_exit_ms;
  config.snapshot_interval_ms = opt->snapshot_interval_ms;
  config.udp_idle_ms = opt->udp_idle_ms;
  config.pcap_from_start_ms = opt->pcap_from_start_ms;
  config.platform = "linux";
  config.agent_version = "test";
  config.instance_token = opt->instance_token;
  if (opt->dns_servers)
    {
      /* the engine's own forwarding waits config.dns_timeout_ms */
      config.dns_servers = opt->dns_servers;
      config.dns_timeout_ms = opt->dns_timeout_ms;
      cb.resolve_dns = NULL;
    }

  at->engine = adbscope_agent_engine_new (&config, &cb, error, sizeof error);
  if (at->engine == NULL)
    g_error ("engine: %s", error);
  at->thread = g_thread_new ("engine", engine_thread, at);
  return at;
}

bool
at_engine_wait_exit (AtEngine *at,
                     int       timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!g_atomic_int_get (&at->done))
    {
      if (g_get_monotonic_time () > deadline)
        return false;
      g_usleep (10000);
    }
  return true;
}

gboolean
at_engine_stalling (gpointer engine)
{
  AtEngine *at = engine;

  return g_atomic_int_get (&at->stalling);
}

AdbscopeAgentExit
at_engine_stop (AtEngine *at)
{
  AdbscopeAgentExit result;

  adbscope_agent_engine_stop (at->engine);
  g_thread_join (at->thread);
  agent_linux_wait_jobs (&at->al);
  adbscope_agent_engine_free (at->engine);
  agent_linux_clear (&at->al);
  result = at->result;
  g_free (at);
  return result;
}

const char *
at_engine_socket_name (AtEngine *at)
{
  return at->sock;
}

const char *
at_engine_pcap_name (AtEngine *at)
{
  return at->pcap;
}

guint64
at_engine_dropped (AtEngine              *at,
                   AdbscopeAgentDirection dir)
{
  return __atomic_load_n (&at->dropped[dir], __ATOMIC_RELAXED);
}

guint64
at_engine_passed (AtEngine *at)
{
  return __atomic_load_n (&at->passed, __ATOMIC_RELAXED);
}

void
at_engine_count_passed (AtEngine *at,
                        gboolean  on)
{
  g_atomic_int_set (&at->count_passed, on);
}

/* Snapshots --------------------------------------------------------------- */

int
at_unix_connect (const char *name)
{
  struct sockaddr_un sun;
  size_t n = strlen (name);
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  memset (&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  memcpy (sun.sun_path + 1, name, n);
  if (connect (fd, (struct sockaddr *) &sun, (socklen_t) (offsetof (struct sockaddr_un, sun_path)
                                                          + 1 + n)) < 0)
    {
      int err = errno;

      close (fd);
      return -err;
    }
  return fd;
}

static gboolean
read_full (int     fd,
           guint8 *buf,
           gsize   len,
           gint64  deadline)
{
  gsize got = 0;

  while (got < len)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      ssize_t n;

      if (left <= 0 || poll (&pfd, 1, (int) left) <= 0)
        return FALSE;
      n = read (fd, buf + got, len - got);
      if (n <= 0)
        return FALSE;
      got += (gsize) n;
    }
  return TRUE;
}

Adbscope__Agent__V1__AgentMessage *
at_read_message (int         fd,
                 int         timeout_ms,
                 GByteArray *raw_out)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint8 hdr[10];
  guint64 len = 0;
  guint i;
  g_autofree guint8 *body = NULL;

  for (i = 0; i < sizeof hdr; i++)
    {
      if (!read_full (fd, &hdr[i], 1, deadline))
        return NULL;
      len |= (guint64) (hdr[i] & 0x7f) << (7 * i);
      if (!(hdr[i] & 0x80))
        break;
    }
  g_assert_cmpuint (i, <, sizeof hdr);
  g_assert_cmpuint (len, <, 16 * 1024 * 1024);
  body = g_malloc (len ? len : 1);
  if (!read_full (fd, body, len, deadline))
    return NULL;
  if (raw_out)
    {
      g_byte_array_append (raw_out, hdr, i + 1);
      g_byte_array_append (raw_out, body, (guint) len);
    }
  return adbscope__agent__v1__agent_message__unpack (NULL, len, body);
}

Adbscope__Agent__V1__AgentMessage *
at_wait_snapshot (int            fd,
                  AtSnapshotPred pred,
                  gpointer       data,
                  int            timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      int left = (int) ((deadline - g_get_monotonic_time ()) / 1000);
      Adbscope__Agent__V1__AgentMessage *msg = at_read_message (fd, left > 0 ? left : 1, NULL);

      if (msg == NULL)
        return NULL;
      if (msg->payload_case == ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT
          && (pred == NULL || pred (msg->snapshot, data)))
        return msg;
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
    }
  return NULL;
}

gssize
at_recv_timeout (int     fd,
                 guint8 *buf,
                 gsize   len,
                 int     timeout_ms)
{
  struct pollfd pfd = { fd, POLLIN, 0 };

  if (poll (&pfd, 1, timeout_ms) != 1)
    return -1;
  return recv (fd, buf, len, 0);
}

const Adbscope__Agent__V1__DnsLookup *
at_find_lookup (const AtSnapshot *snap,
                const char       *name)
{
  size_t i;

  for (i = 0; i < snap->n_dns; i++)
    if (g_strcmp0 (snap->dns[i]->name, name) == 0)
      return snap->dns[i];
  return NULL;
}

const Adbscope__Agent__V1__DnsLookup *
at_must_find_lookup (const AtSnapshot *snap,
                     const char       *name)
{
  const Adbscope__Agent__V1__DnsLookup *l = at_find_lookup (snap, name);

  if (l == NULL)
    g_error ("no lookup of %s in the snapshot", name);
  return l;
}

const Adbscope__Agent__V1__Connection *
at_find_connection (const AtSnapshot *snap,
                    int               protocol,
                    const char       *dst,
                    guint             dport)
{
  guint8 addr[16];
  size_t alen = strchr (dst, ':') ? 16 : 4;
  size_t i;

  g_assert_cmpint (inet_pton (alen == 4 ? AF_INET : AF_INET6, dst, addr), ==, 1);
  for (i = 0; i < snap->n_connections; i++)
    {
      const Adbscope__Agent__V1__Connection *c = snap->connections[i];

      if ((int) c->protocol == (protocol == 6 ? 1 : 2) && c->destination
          && c->destination->port == dport && c->destination->address.len == alen
          && memcmp (c->destination->address.data, addr, alen) == 0)
        return c;
    }
  return NULL;
}

/* Payloads ---------------------------------------------------------------- */

guint8
at_pattern (guint64 seed,
            guint64 i)
{
  return (guint8) (((i + seed) * 0x9E3779B1u) >> 24);
}

void
at_pattern_fill (guint8 *buf,
                 gsize   len,
                 guint64 seed,
                 guint64 offset)
{
  gsize i;

  for (i = 0; i < len; i++)
    buf[i] = at_pattern (seed, offset + i);
}

gboolean
at_write_all (int         fd,
              const void *data,
              gsize       len)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* The HTTP-ish server ------------------------------------------------------ */

typedef enum { CONN_HEAD, CONN_SEND, CONN_BODY, CONN_SINK, CONN_HELD } ConnMode;

typedef struct {
  int         fd;
  ConnMode    mode;
  GByteArray *in;
  GByteArray *out;          /* header or reply being sent */
  gsize       out_off;
  guint64     total;        /* body bytes to send / receive */
  guint64     done;
  guint64     bad_at;       /* G_MAXUINT64: no mismatch */
} Conn;

struct _AtServer {
  int      listen_fd;
  int      epfd;
  int      stop_fd;
  int      release_fd;
  guint16  port;
  gboolean hold;
  GThread *thread;
  GPtrArray *conns;
  guint64  sunk;
  guint64  held_bytes;
  gint     held_ok;
};

static void
conn_free (gpointer data)
{
  Conn *c = data;

  close (c->fd);
  g_byte_array_unref (c->in);
  g_byte_array_unref (c->out);
  g_free (c);
}

static void
conn_set (AtServer *s,
          Conn     *c,
          uint32_t  events)
{
  struct epoll_event ev = { .events = events, .data.ptr = c };

  epoll_ctl (s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void
conn_reply (AtServer   *s,
            Conn       *c,
            const char *text)
{
  g_autofree char *reply = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n%s",
                                            strlen (text), text);

  g_byte_array_append (c->out, (const guint8 *) reply, (guint) strlen (reply));
  c->mode = CONN_SEND;
  c->total = c->done = 0;
  conn_set (s, c, EPOLLIN | EPOLLOUT);
}

/* Returns FALSE when the connection is finished. */
static gboolean
conn_input (AtServer *s,
            Conn     *c)
{
  guint8 buf[65536];
  ssize_t n = read (c->fd, buf, sizeof buf);

  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    return FALSE;
  if (n < 0)
    return TRUE;

  if (c->mode == CONN_HELD)
    {
      gssize i;

      for (i = 0; i < n; i++)
        if (buf[i] != at_pattern (7, s->held_bytes + (guint64) i))
          g_atomic_int_set (&s->held_ok, FALSE);
      __atomic_add_fetch (&s->held_bytes, (guint64) n, __ATOMIC_RELAXED);
      return TRUE;
    }
  if (c->mode == CONN_SINK || c->mode == CONN_SEND)
    {
      __atomic_add_fetch (&s->sunk, (guint64) n, __ATOMIC_RELAXED);
      return TRUE;
    }
  if (c->mode == CONN_BODY)
    {
      gssize i;

      for (i = 0; i < n && c->done < c->total; i++, c->done++)
        if (c->bad_at == G_MAXUINT64 && buf[i] != at_pattern (c->total, c->done))
          c->bad_at = c->done;
      if (c->done == c->total)
        {
          g_autofree char *text = c->bad_at == G_MAXUINT64
            ? g_strdup_printf ("ok %" G_GUINT64_FORMAT, c->total)
            : g_strdup_printf ("bad at %" G_GUINT64_FORMAT, c->bad_at);

          conn_reply (s, c, text);
        }
      return TRUE;
    }

  /* CONN_HEAD */
  g_byte_array_append (c->in, buf, (guint) n);
  if (c->in->len >= 4 && memcmp (c->in->data, "GET ", 4) != 0
      && memcmp (c->in->data, "POST", 4) != 0)
    {
      __atomic_add_fetch (&s->sunk, c->in->len, __ATOMIC_RELAXED);
      c->mode = CONN_SINK;
      return TRUE;
    }
  {
    guint8 *end = memmem (c->in->data, c->in->len, "\r\n\r\n", 4);
    gsize head_len;
    g_autofree char *head = NULL;

    if (end == NULL)
      return TRUE;
    head_len = (gsize) (end - c->in->data) + 4;
    head = g_strndup ((const char *) c->in->data, head_len);
    if (g_str_has_prefix (head, "GET /bytes/"))
      {
        g_autofree char *hdr = NULL;

        c->total = g_ascii_strtoull (head + 11, NULL, 10);
        c->done = 0;
        hdr = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Length: %" G_GUINT64_FORMAT "\r\n\r\n",
                               c->total);
        g_byte_array_append (c->out, (const guint8 *) hdr, (guint) strlen (hdr));
        c->mode = CONN_SEND;
        conn_set (s, c, EPOLLIN | EPOLLOUT);
      }
    else
      {
        const char *cl = strstr (head, "Content-Length: ");
        guint64 i;
        gsize rest = c->in->len - head_len;

        c->total = cl ? g_ascii_strtoull (cl + 16, NULL, 10) : 0;
        c->done = 0;
        c->bad_at = G_MAXUINT64;
        c->mode = CONN_BODY;
        for (i = 0; i < rest && c->done < c->total; i++, c->done++)
          if (c->bad_at == G_MAXUINT64 && c->in->data[head_len + i] != at_pattern (c->total, c->done))
            c->bad_at = c->done;
        if (c->done == c->total)
          conn_reply (s, c, c->bad_at == G_MAXUINT64 ? "ok" : "bad");
      }
    g_byte_array_set_size (c->in, 0);
  }
  return TRUE;
}

static gboolean
conn_output (AtServer *s,
             Conn     *c)
{
  for (;;)
    {
      guint8 buf[65536];
      gsize len;
      ssize_t n;

      if (c->out_off < c->out->len)
        {
          n = write (c->fd, c->out->data + c->out_off, c->out->len - c->out_off);
          if (n < 0)
            return errno == EAGAIN || errno == EINTR;
          c->out_off += (gsize) n;
          continue;
        }
      if (c->done == c->total)
        {
          /* Response complete: the next request may follow. */
          c->mode = CONN_HEAD;
          g_byte_array_set_size (c->out, 0);
          c->out_off = 0;
          conn_set (s, c, EPOLLIN);
          return TRUE;
        }
      len = MIN (sizeof buf, c->total - c->done);
      at_pattern_fill (buf, len, c->total, c->done);
      n = write (c->fd, buf, len);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      c->done += (guint64) n;
    }
}

static void
add_conn (AtServer *s,
          int       fd,
          ConnMode  mode)
{
  Conn *c = g_new0 (Conn, 1);
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };

  c->fd = fd;
  c->mode = mode;
  c->in = g_byte_array_new ();
  c->out = g_byte_array_new ();
  c->bad_at = G_MAXUINT64;
  g_ptr_array_add (s->conns, c);
  g_assert_cmpint (epoll_ctl (s->epfd, EPOLL_CTL_ADD, fd, &ev), ==, 0);
}

static gpointer
server_main (gpointer data)
{
  AtServer *s = data;
  GPtrArray *held = g_ptr_array_new ();
  int stop_tag, release_tag, listen_tag;
  struct epoll_event ev;

  ev.events = EPOLLIN;
  ev.data.ptr = &stop_tag;
  epoll_ctl (s->epfd, EPOLL_CTL_ADD, s->stop_fd, &ev);
  ev.data.ptr = &release_tag;
  epoll_ctl (s->epfd, EPOLL_CTL_ADD, s->release_fd, &ev);
  ev.data.ptr = &listen_tag;
  epoll_ctl (s->epfd, EPOLL_CTL_ADD, s->listen_fd, &ev);

  for (;;)
    {
      struct epoll_event evs[64];
      int n = epoll_wait (s->epfd, evs, 64, -1);
      int i;

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >=, 0);
      for (i = 0; i < n; i++)
        {
          void *tag = evs[i].data.ptr;

          if (tag == &stop_tag)
            goto out;
          if (tag == &release_tag)
            {
              guint k;
              guint64 v;

              if (read (s->release_fd, &v, sizeof v) < 0)
                (void) v;
              for (k = 0; k < held->len; k++)
                add_conn (s, GPOINTER_TO_INT (g_ptr_array_index (held, k)), CONN_HELD);
              g_ptr_array_set_size (held, 0);
              s->hold = FALSE;
              continue;
            }
          if (tag == &listen_tag)
            {
              int fd = accept4 (s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

              if (fd < 0)
                continue;
              if (s->hold)
                g_ptr_array_add (held, GINT_TO_POINTER (fd));
              else
                add_conn (s, fd, CONN_HEAD);
              continue;
            }
          {
            Conn *c = tag;
            gboolean alive = TRUE;

            if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
              alive = conn_input (s, c);
            if (alive && (evs[i].events & EPOLLOUT))
              alive = conn_output (s, c);
            if (!alive)
              {
                epoll_ctl (s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
                g_ptr_array_remove_fast (s->conns, c);
              }
          }
        }
    }
out:
  {
    guint k;

    for (k = 0; k < held->len; k++)
      close (GPOINTER_TO_INT (g_ptr_array_index (held, k)));
    g_ptr_array_unref (held);
  }
  return NULL;
}

static int
listen_socket (const char *addr,
               int         type,
               guint16    *port,
               gboolean    small_buffer)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  int family = strchr (addr, ':') ? AF_INET6 : AF_INET;
  int fd = socket (family, type | SOCK_CLOEXEC | (type == SOCK_STREAM ? SOCK_NONBLOCK : 0), 0);
  int one = 1;

  g_assert_cmpint (fd, >=, 0);
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (small_buffer)
    {
      int size = 4096;

      setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    }
  memset (&ss, 0, sizeof ss);
  if (family == AF_INET)
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

      sin->sin_family = AF_INET;
      inet_pton (AF_INET, addr, &sin->sin_addr);
      sl = sizeof *sin;
    }
  else
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

      sin6->sin6_family = AF_INET6;
      inet_pton (AF_INET6, addr, &sin6->sin6_addr);
      sl = sizeof *sin6;
    }
  g_assert_cmpint (bind (fd, (struct sockaddr *) &ss, sl), ==, 0);
  if (type == SOCK_STREAM)
    g_assert_cmpint (listen (fd, 512), ==, 0);
  sl = sizeof ss;
  getsockname (fd, (struct sockaddr *) &ss, &sl);
  *port = ntohs (family == AF_INET ? ((struct sockaddr_in *) &ss)->sin_port
                                   : ((struct sockaddr_in6 *) &ss)->sin6_port);
  return fd;
}

AtServer *
at_server_new (const char *addr,
               gboolean    hold)
{
  AtServer *s = g_new0 (AtServer, 1);

  s->hold = hold;
  s->held_ok = TRUE;
  s->listen_fd = listen_socket (addr, SOCK_STREAM, &s->port, hold);
  s->epfd = epoll_create1 (EPOLL_CLOEXEC);
  s->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  s->release_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  s->conns = g_ptr_array_new_with_free_func (conn_free);
  s->thread = g_thread_new ("at-server", server_main, s);
  return s;
}

guint16
at_server_port (AtServer *s)
{
  return s->port;
}

void
at_server_release (AtServer *s)
{
  guint64 one = 1;

  g_assert_cmpint (write (s->release_fd, &one, sizeof one), ==, sizeof one);
}

guint64
at_server_sunk (AtServer *s)
{
  return __atomic_load_n (&s->sunk, __ATOMIC_RELAXED);
}

guint64
at_server_held_bytes (AtServer *s)
{
  return __atomic_load_n (&s->held_bytes, __ATOMIC_RELAXED);
}

gboolean
at_server_held_ok (AtServer *s)
{
  return g_atomic_int_get (&s->held_ok);
}

void
at_server_free (AtServer *s)
{
  guint64 one = 1;

  if (s == NULL)
    return;
  g_assert_cmpint (write (s->stop_fd, &one, sizeof one), ==, sizeof one);
  g_thread_join (s->thread);
  g_ptr_array_unref (s->conns);
  close (s->listen_fd);
  close (s->epfd);
  close (s->stop_fd);
  close (s->release_fd);
  g_free (s);
}

/* Clients ------------------------------------------------------------------ */

int
at_client_socket (AtNet *net,
                  int    family,
                  int    type)
{
  int fd;

  at_enter_client (net);
  fd = socket (family, type | SOCK_CLOEXEC, 0);
  at_leave_client ();
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

int
at_client_connect (AtNet      *net,
                   const char *addr,
                   guint16     port)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  int family = strchr (addr, ':') ? AF_INET6 : AF_INET;
  int fd = at_client_socket (net, family, SOCK_STREAM);
  struct timeval tv = { 8, 0 };

  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  memset (&ss, 0, sizeof ss);
  if (family == AF_INET)
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &ss;

      sin->sin_family = AF_INET;
      sin->sin_port = htons (port);
      inet_pton (AF_INET, addr, &sin->sin_addr);
      sl = sizeof *sin;
    }
  else
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &ss;

      sin6->sin6_family = AF_INET6;
      sin6->sin6_port = htons (port);
      inet_pton (AF_INET6, addr, &sin6->sin6_addr);
      sl = sizeof *sin6;
    }
  if (connect (fd, (struct sockaddr *) &ss, sl) < 0)
    {
      int err = errno;

      close (fd);
      return -err;
    }
  return fd;
}

/* Reads the response head; leftover body bytes go to @rest. */
static gboolean
read_head (int          fd,
           GByteArray  *rest,
           guint64     *content_length,
           GError     **error)
{
  guint8 buf[4096];

  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);
      guint8 *end;

      if (n <= 0)
        {
          g_set_error (error, AT_ERROR, 1, "reading the response head: %s",
                       n == 0 ? "EOF" : g_strerror (errno));
          return FALSE;
        }
      g_byte_array_append (rest, buf, (guint) n);
      end = memmem (rest->data, rest->len, "\r\n\r\n", 4);
      if (end)
        {
          gsize head_len = (gsize) (end - rest->data) + 4;
          g_autofree char *head = g_strndup ((const char *) rest->data, head_len);
          const char *cl = strstr (head, "Content-Length: ");

          if (!g_str_has_prefix (head, "HTTP/1.1 200") || cl == NULL)
            {
              g_set_error (error, AT_ERROR, 1, "bad response head: %s", head);
              return FALSE;
            }
          *content_length = g_ascii_strtoull (cl + 16, NULL, 10);
          g_byte_array_remove_range (rest, 0, (guint) head_len);
          return TRUE;
        }
    }
}

gboolean
at_http_get (int          fd,
             const char  *host,
             gsize        n,
             GError     **error)
{
  g_autofree char *req = g_strdup_printf ("GET /bytes/%zu HTTP/1.1\r\nHost: %s\r\n\r\n", n, host);
  g_autoptr(GByteArray) rest = g_byte_array_new ();
  guint64 len = 0, got = 0, i;
  guint8 buf[65536];

  if (!at_write_all (fd, req, strlen (req)))
    {
      g_set_error (error, AT_ERROR, 1, "sending the request: %s", g_strerror (errno));
      return FALSE;
    }
  if (!read_head (fd, rest, &len, error))
    return FALSE;
  if (len != n)
    {
      g_set_error (error, AT_ERROR, 1, "Content-Length %" G_GUINT64_FORMAT, len);
      return FALSE;
    }
  for (i = 0; i < rest->len; i++, got++)
    if (rest->data[i] != at_pattern (n, got))
      {
        g_set_error (error, AT_ERROR, 1, "byte %" G_GUINT64_FORMAT " differs", got);
        return FALSE;
      }
  while (got < n)
    {
      ssize_t r = read (fd, buf, MIN (sizeof buf, n - got));

      if (r <= 0)
        {
          g_set_error (error, AT_ERROR, 1, "body at %" G_GUINT64_FORMAT "/%zu: %s", got, n,
                       r == 0 ? "EOF" : g_strerror (errno));
          return FALSE;
        }
      for (i = 0; i < (guint64) r; i++, got++)
        if (buf[i] != at_pattern (n, got))
          {
            g_set_error (error, AT_ERROR, 1, "byte %" G_GUINT64_FORMAT " differs", got);
            return FALSE;
          }
    }
  return TRUE;
}

gboolean
at_http_post (int          fd,
              const char  *host,
              gsize        n,
              GError     **error)
{
  g_autofree char *req = g_strdup_printf ("POST /upload HTTP/1.1\r\nHost: %s\r\n"
                                          "Content-Length: %zu\r\n\r\n", host, n);
  g_autoptr(GByteArray) rest = g_byte_array_new ();
  guint8 buf[65536];
  guint64 len = 0, sent = 0;
  g_autofree char *expect = g_strdup_printf ("ok %zu", n);

  if (!at_write_all (fd, req, strlen (req)))
    {
      g_set_error (error, AT_ERROR, 1, "sending the request: %s", g_strerror (errno));
      return FALSE;
    }
  while (sent < n)
    {
      gsize chunk = MIN (sizeof buf, n - sent);

      at_pattern_fill (buf, chunk, n, sent);
      if (!at_write_all (fd, buf, chunk))
        {
          g_set_error (error, AT_ERROR, 1, "body at %" G_GUINT64_FORMAT ": %s", sent,
                       g_strerror (errno));
          return FALSE;
        }
      sent += chunk;
    }
  if (!read_head (fd, rest, &len, error))
    return FALSE;
  while (rest->len < len)
    {
      ssize_t r = read (fd, buf, sizeof buf);

      if (r <= 0)
        {
          g_set_error (error, AT_ERROR, 1, "reading the reply");
          return FALSE;
        }
      g_byte_array_append (rest, buf, (guint) r);
    }
  if (rest->len != strlen (expect) || memcmp (rest->data, expect, rest->len) != 0)
    {
      g_set_error (error, AT_ERROR, 1, "server said: %.*s", (int) rest->len, rest->data);
      return FALSE;
    }
  return TRUE;
}

/* UDP servers ---------------------------------------------------------------- */

struct _AtUdpServer {
  int      fd;
  int      stop_fd;
  guint16  port;
  GThread *thread;
  gboolean dns;
  gboolean sink;      /* reads, never answers */
  gint     received;
  char    *name;
  guint8   a_addr[4];
  char    *ignore_name;
};

static gsize
dns_reply (AtUdpServer  *s,
           const guint8 *q,
           gsize         len,
           guint8       *out)
{
  EngineDnsQuery query;
  gsize n;

  if (!engine_dns_parse_question (q, len, &query))
    return 0;
  if (s->ignore_name && strcmp (query.name, s->ignore_name) == 0)
    return 0;
  memcpy (out, q, query.question_end);
  out[2] = 0x81;
  out[3] = 0x80;
  out[4] = 0;
  out[5] = 1;
  memset (out + 6, 0, 6);
  n = query.question_end;
  if (strcmp (query.name, s->name) == 0 && query.qtype == 1)
    {
      static const guint8 rr[] = { 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4 };

      out[7] = 1;
      memcpy (out + n, rr, sizeof rr);
      n += sizeof rr;
      memcpy (out + n, s->a_addr, 4);
      n += 4;
    }
  else if (strcmp (query.name, "big.adbscope.test") == 0 && query.qtype == 1)
    {
      /* 100 A records (1.6 KB): more than a 1500-byte TUN's datagram */
      static const guint8 rr[] = { 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4 };

      out[7] = 100;
      for (guint i = 0; i < 100; i++)
        {
          memcpy (out + n, rr, sizeof rr);
          n += sizeof rr;
          out[n++] = 10;
          out[n++] = 77;
          out[n++] = 0;
          out[n++] = (guint8) (i + 1);
        }
    }
  else if (strcmp (query.name, s->name) != 0)
    out[3] = 0x83;            /* NXDOMAIN */
  return n;
}

static gpointer
udp_main (gpointer data)
{
  AtUdpServer *s = data;

  for (;;)
    {
      struct pollfd pfd[2] = { { s->fd, POLLIN, 0 }, { s->stop_fd, POLLIN, 0 } };
      guint8 buf[65536], out[4096];
      struct sockaddr_storage from;
      socklen_t fl = sizeof from;
      ssize_t n;

      if (poll (pfd, 2, -1) < 0)
        continue;
      if (pfd[1].revents)
        break;
      n = recvfrom (s->fd, buf, sizeof buf, 0, (struct sockaddr *) &from, &fl);
      if (n < 0)
        continue;
      g_atomic_int_inc (&s->received);
      if (s->dns)
        {
          gsize r = dns_reply (s, buf, (gsize) n, out);

          if (r > 0)
            sendto (s->fd, out, r, 0, (struct sockaddr *) &from, fl);
        }
      else if (!s->sink)
        sendto (s->fd, buf, (size_t) n, 0, (struct sockaddr *) &from, fl);
    }
  return NULL;
}

static AtUdpServer *
udp_server_new (const char *addr)
{
  AtUdpServer *s = g_new0 (AtUdpServer, 1);

  s->fd = listen_socket (addr, SOCK_DGRAM, &s->port, FALSE);
  s->stop_fd = eventfd (0, EFD_CLOEXEC);
  return s;
}

AtUdpServer *
at_udp_echo_new (const char *addr)
{
  AtUdpServer *s = udp_server_new (addr);

  s->thread = g_thread_new ("at-udp-echo", udp_main, s);
  return s;
}

AtUdpServer *
at_udp_sink_new (const char *addr)
{
  AtUdpServer *s = udp_server_new (addr);

  s->sink = TRUE;
  s->thread = g_thread_new ("at-udp-sink", udp_main, s);
  return s;
}

AtUdpServer *
at_dns_server_new (const char *name,
                   const char *a_addr,
                   const char *ignore_name)
{
  AtUdpServer *s = udp_server_new ("127.0.0.1");

  s->dns = TRUE;
  s->name = g_strdup (name);
  s->ignore_name = g_strdup (ignore_name);
  inet_pton (AF_INET, a_addr, s->a_addr);
  s->thread = g_thread_new ("at-dns", udp_main, s);
  return s;
}

guint16
at_udp_server_port (AtUdpServer *s)
{
  return s->port;
}

guint
at_udp_server_received (AtUdpServer *s)
{
  return (guint) g_atomic_int_get (&s->received);
}

void
at_udp_server_free (AtUdpServer *s)
{
  guint64 one = 1;

  if (s == NULL)
    return;
  g_assert_cmpint (write (s->stop_fd, &one, sizeof one), ==, sizeof one);
  g_thread_join (s->thread);
  close (s->fd);
  close (s->stop_fd);
  g_free (s->name);
  g_free (s->ignore_name);
  g_free (s);
}

gsize
at_dns_query (guint8     *buf,
              guint16     id,
              const char *name)
{
  gsize n = 12;
  g_auto(GStrv) labels = g_strsplit (name, ".", -1);
  guint i;

  memset (buf, 0, 12);
  buf[0] = id >> 8;
  buf[1] = id & 0xff;
  buf[2] = 0x01;              /* RD */
  buf[5] = 1;
  for (i = 0; labels[i]; i++)
    {
      gsize l = strlen (labels[i]);

      buf[n++] = (guint8) l;
      memcpy (buf + n, labels[i], l);
      n += l;
    }
  buf[n++] = 0;
  buf[n++] = 0;
  buf[n++] = 1;               /* A */
  buf[n++] = 0;
  buf[n++] = 1;               /* IN */
  return n;
}
