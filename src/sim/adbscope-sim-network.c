/* adbscope-sim-network.c: `adbscope sim --network`
 *
 * The device becomes a phone with a network, built from Linux parts (see
 * DESIGN.md "Network on the simulated device"):
 *
 *  - the device process moves into a network namespace of its own, the
 *    "phone's" network: loopback with 198.18.0.0/24 on it (the servers of
 *    adbscope-sim-servers.c), a TUN nobody reads for 198.19.0.0/24 (a black
 *    hole) and tcp_syn_retries 2 so a connect into it fails after ~7 s.  The
 *    shells, `localabstract:` and `tcp:` forwards and the agent live here;
 *  - the apps run in a second namespace whose only routes go to the TUN
 *    tun0 (10.215.173.1/30, as the agent's VpnService would configure it).
 *    The device opens that TUN and, when the agent's ControlActivity is
 *    started and the consent given, hands its fd to `adbscope-agent-linux
 *    --tun-fd N`, as VpnService.establish() hands one to the Android agent.
 *
 * As root these are plain network namespaces.  Otherwise the device first
 * enters a user namespace (the user's own uid and gid mapped to themselves,
 * so files, shells and SO_PEERCRED see the same ids) where the kernel allows
 * it.  Where neither works, the network is not supported and says why; it
 * never falls back to the host's network.
 *
 * The agent's state (the line `dumpsys activity service` prints) is kept
 * in SANDBOX/state/agent; the servers' counts in SANDBOX/state/net.json.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <linux/if_tun.h>
#include <net/route.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "agent-linux.h"
#include "adbscope-error.h"
#include "adbscope-sim-net-zone.h"
#include "adbscope-sim-private.h"
#include "adbscope-sim-servers.h"

#define BLACKHOLE_TUN  "blackhole0"
#define CONSENT_MS     300

struct _AdbscopeSimNetwork
{
  AdbscopeSimDevice  *device;
  char               *mode;          /* "netns" or "userns" */
  int                 phone_ns;
  int                 app_ns;
  int                 tun_fd;
  int                 blackhole_fd;
  GPid                anchor;        /* sleeps in the app namespace: /proc/PID/net */
  AdbscopeSimServers *servers;

  gboolean            consent_accept;
  char               *agent_exe;
  GPid                agent_pid;
  guint               agent_watch;
  int                 agent_out;
  guint               agent_out_id;
  GString            *agent_line;
  guint               consent_id;
  char               *package;
  char               *version;
  char               *state;
  char               *token;         /* echoed in the agent's Hello (-e token) */
  char               *selftest;      /* HOST:PORT of the selftest traffic (-e selftest), or NULL */
  char               *selftest_result; /* ok | fail:WHY once the client ended */
  GPid                selftest_pid;
  guint               selftest_watch;
  int                 selftest_out;
  gboolean            respawn;       /* the running agent exits to start with a new token */
};

/* STATE is ours; the line says what the contract knows (starting is
 * still waiting for the VPN, stopping is still running). */
static void
write_state (AdbscopeSimNetwork *net,
             const char         *state)
{
  g_autofree char *path = g_build_filename (net->device->sandbox, "state", "agent", NULL);
  g_autofree char *line = NULL;
  char *copy = g_strdup (state);
  const char *shown = g_str_equal (copy, "starting") ? "waiting_consent"
                      : g_str_equal (copy, "stopping") ? "running" : copy;

  g_free (net->state);
  net->state = copy;
  line = g_strdup_printf ("  adbscope-agent state=%s package=%s version=%s%s%s\n", shown,
                          net->package != NULL ? net->package : "",
                          net->version != NULL ? net->version : "0",
                          net->selftest_result != NULL ? " selftest=" : "",
                          net->selftest_result != NULL ? net->selftest_result : "");
  adbscope_sim_write_atomic (path, line);
}

/* ---- namespaces -------------------------------------------------------- */

static gboolean
fail_errno (GError    **error,
            const char *what)
{
  int err = errno;

  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED, "%s: %s", what, g_strerror (err));
  return FALSE;
}

static gboolean
write_proc (const char *path,
            const char *text,
            GError    **error)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gssize len = (gssize) strlen (text);

  if (fd < 0 || write (fd, text, len) != len)
    {
      int err = errno;

      if (fd >= 0)
        close (fd);
      errno = err;
      return fail_errno (error, path);
    }
  close (fd);
  return TRUE;
}

static gboolean
single_threaded (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return FALSE;
  p = strstr (status, "\nThreads:");
  return p != NULL && g_ascii_strtoll (p + 9, NULL, 10) == 1;
}

static gboolean
enter_user_namespace_here (GError **error)
{
  g_autofree char *uid_map = g_strdup_printf ("%u %u 1\n", getuid (), getuid ());
  g_autofree char *gid_map = g_strdup_printf ("%u %u 1\n", getgid (), getgid ());

  /* The kernel refuses a new user namespace to a threaded process. */
  if (!single_threaded ())
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("the device already runs threads, so it cannot enter a user namespace"));
      return FALSE;
    }
  if (unshare (CLONE_NEWUSER) != 0)
    return fail_errno (error, "unshare(CLONE_NEWUSER)");
  return write_proc ("/proc/self/setgroups", "deny", error) &&
         write_proc ("/proc/self/uid_map", uid_map, error) &&
         write_proc ("/proc/self/gid_map", gid_map, error);
}

static gboolean
if_set (int         sock,
        const char *name,
        const char *address,
        int         prefix,
        GError    **error)
{
  struct ifreq ifr = { 0 };
  struct sockaddr_in *sin = (struct sockaddr_in *) &ifr.ifr_addr;

  if (address != NULL)
    {
      g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
      sin->sin_family = AF_INET;
      inet_pton (AF_INET, address, &sin->sin_addr);
      if (ioctl (sock, SIOCSIFADDR, &ifr) != 0)
        return fail_errno (error, "SIOCSIFADDR");
      sin->sin_addr.s_addr = htonl (~((1u << (32 - prefix)) - 1));
      if (ioctl (sock, SIOCSIFNETMASK, &ifr) != 0)
        return fail_errno (error, "SIOCSIFNETMASK");
    }
  memset (&ifr, 0, sizeof ifr);
  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  /* An alias ("lo:1") is up with its device. */
  if (strchr (name, ':') != NULL)
    return TRUE;
  if (ioctl (sock, SIOCGIFFLAGS, &ifr) != 0)
    return fail_errno (error, "SIOCGIFFLAGS");
  ifr.ifr_flags |= IFF_UP;
  if (ioctl (sock, SIOCSIFFLAGS, &ifr) != 0)
    return fail_errno (error, "SIOCSIFFLAGS");
  return TRUE;
}

static int
open_tun (const char *name,
          GError    **error)
{
  struct ifreq ifr = { 0 };
  int fd = open ("/dev/net/tun", O_RDWR | O_CLOEXEC);

  if (fd < 0)
    {
      fail_errno (error, "/dev/net/tun");
      return -1;
    }
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  if (ioctl (fd, TUNSETIFF, &ifr) != 0)
    {
      fail_errno (error, "TUNSETIFF");
      close (fd);
      return -1;
    }
  return fd;
}

/* The phone's network, in the namespace the device is now in. */
static gboolean
build_phone (AdbscopeSimNetwork *net,
             GError            **error)
{
  int sock = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  gboolean ok;

  if (sock < 0)
    return fail_errno (error, "socket");
  ok = if_set (sock, "lo", NULL, 0, error) &&
       if_set (sock, "lo:1", ADBSCOPE_SIM_NET_LOCAL_PREFIX, 24, error);
  if (ok)
    {
      net->blackhole_fd = open_tun (BLACKHOLE_TUN, error);
      ok = net->blackhole_fd >= 0 &&
           if_set (sock, BLACKHOLE_TUN, ADBSCOPE_SIM_NET_BLACKHOLE_ME, 24, error);
    }
  close (sock);
  /* A connect into the black hole gives up after 1 + 2 + 4 s. */
  return ok && write_proc ("/proc/sys/net/ipv4/tcp_syn_retries", "2", error);
}

/* Whether this namespace has a global unicast IPv6 address (2000::/3),
 * i.e. the phone's network gives IPv6. */
static gboolean
has_global_ipv6 (void)
{
  struct ifaddrs *ifs = NULL;
  gboolean found = FALSE;

  if (getifaddrs (&ifs) != 0)
    return FALSE;
  for (struct ifaddrs *i = ifs; i != NULL && !found; i = i->ifa_next)
    if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET6)
      {
        const guint8 *a = ((struct sockaddr_in6 *) (void *) i->ifa_addr)->sin6_addr.s6_addr;

        found = (a[0] & 0xe0) == 0x20;
      }
  freeifaddrs (ifs);
  return found;
}

static gboolean
add_default_routes (const char *dev,
                    gboolean    with_ipv6,
                    GError    **error)
{
  struct rtentry rt = { 0 };
  struct in6_rtmsg rt6 = { 0 };
  struct sockaddr_in *any = (struct sockaddr_in *) &rt.rt_dst;
  int sock = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int sock6 = socket (AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  gboolean ok = TRUE;

  any->sin_family = AF_INET;
  ((struct sockaddr_in *) &rt.rt_genmask)->sin_family = AF_INET;
  rt.rt_flags = RTF_UP;
  rt.rt_dev = (char *) dev;
  if (sock < 0 || ioctl (sock, SIOCADDRT, &rt) != 0)
    ok = fail_errno (error, "SIOCADDRT");
  /* IPv6 only where the phone's network has it (as the phone's agent
   * decides) and the kernel too; otherwise an app's IPv6 attempt fails
   * at once in the app (no route) instead of becoming a failed
   * connection of the agent. */
  if (ok && with_ipv6 && sock6 >= 0)
    {
      rt6.rtmsg_ifindex = (int) if_nametoindex (dev);
      rt6.rtmsg_flags = RTF_UP;
      rt6.rtmsg_metric = 1;
      if (ioctl (sock6, SIOCADDRT, &rt6) != 0)
        g_debug ("sim: IPv6 default route: %s", g_strerror (errno));
    }
  if (sock >= 0)
    close (sock);
  if (sock6 >= 0)
    close (sock6);
  return ok;
}

/* The apps' namespace, entered and left again by this thread. */
static gboolean
build_app (AdbscopeSimNetwork *net,
           GError            **error)
{
  char message[256] = "";
  int sock;
  gboolean ok;
  gboolean ipv6 = has_global_ipv6 ();   /* the phone's network, still current */

  if (unshare (CLONE_NEWNET) != 0)
    return fail_errno (error, "unshare(CLONE_NEWNET)");
  net->app_ns = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (net->app_ns < 0)
    return fail_errno (error, "/proc/thread-self/ns/net");
  net->tun_fd = agent_linux_tun_open (ADBSCOPE_SIM_NET_TUN_NAME, AGENT_LINUX_DEFAULT_MTU, true,
                                      message, sizeof message);
  if (net->tun_fd < 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED, "%s", message);
      return FALSE;
    }
  sock = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ok = sock >= 0 && if_set (sock, "lo", NULL, 0, error) &&
       add_default_routes (ADBSCOPE_SIM_NET_TUN_NAME, ipv6, error);
  if (sock >= 0)
    close (sock);
  if (setns (net->phone_ns, CLONE_NEWNET) != 0)
    return fail_errno (error, "setns");
  return ok;
}

/* A process that only sits in the app namespace, so the agent can read
 * that namespace's socket tables (owner uid of a flow) whatever the apps
 * do.  Single-threaded at this point: fork is safe. */
static gboolean
start_anchor (AdbscopeSimNetwork *net,
              GError            **error)
{
  pid_t pid = fork ();

  if (pid < 0)
    return fail_errno (error, "fork");
  if (pid == 0)
    {
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      prctl (PR_SET_NAME, "sim-app-netns");
      if (setns (net->app_ns, CLONE_NEWNET) != 0)
        _exit (1);
      for (;;)
        pause ();
    }
  net->anchor = pid;
  return TRUE;
}

static char *
find_agent (AdbscopeSimDevice *device)
{
  const char *env = g_getenv ("ADBSCOPE_AGENT_LINUX");
  g_autofree char *dir = g_path_get_dirname (device->self_exe);
  const char *candidates[] = { "adbscope-agent-linux", "../agent/linux/adbscope-agent-linux",
                               "../libexec/adbscope/adbscope-agent-linux" };

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_canonicalize_filename (path, NULL);
    }
  return NULL;
}

/* Not root: before the device makes its first socket (GLib starts a thread
 * with it), so that it is still single-threaded.  The host's network
 * namespace stays: adb reaches the device there.  A child tries it first,
 * with a network namespace and a TUN: a kernel that allows the user
 * namespace but not what the device needs inside (no TUN access, a
 * security module that strips its capabilities) must not leave the device
 * in a half-made namespace. */
gboolean
adbscope_sim_network_enter_user_namespace (GError **error)
{
  char message[512] = "";
  int pipe_fds[2];
  int status = 0;
  ssize_t n;
  pid_t pid;

  if (!single_threaded ())
    return enter_user_namespace_here (error);   /* says why not */
  if (pipe2 (pipe_fds, O_CLOEXEC) != 0)
    return fail_errno (error, "pipe");
  pid = fork ();
  if (pid < 0)
    {
      close (pipe_fds[0]), close (pipe_fds[1]);
      return fail_errno (error, "fork");
    }
  if (pid == 0)
    {
      g_autoptr(GError) child_error = NULL;
      int tun;

      close (pipe_fds[0]);
      if (!enter_user_namespace_here (&child_error) ||
          (unshare (CLONE_NEWNET) != 0 && !fail_errno (&child_error, "unshare(CLONE_NEWNET)")) ||
          (tun = open_tun ("probe0", &child_error)) < 0)
        {
          if (write (pipe_fds[1], child_error->message, strlen (child_error->message)) < 0)
            _exit (2);
          _exit (1);
        }
      _exit (0);
    }
  close (pipe_fds[1]);
  n = read (pipe_fds[0], message, sizeof message - 1);
  close (pipe_fds[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      message[MAX (n, 0)] = '\0';
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED, "%s",
                   message[0] != '\0' ? message : "the user namespace probe failed");
      return FALSE;
    }
  return enter_user_namespace_here (error);
}

/* USER_NS_ERROR: why adbscope_sim_network_enter_user_namespace() failed,
 * when it was called and did. */
AdbscopeSimNetwork *
adbscope_sim_network_enter (AdbscopeSimDevice *device,
                            gboolean           consent_accept,
                            const GError      *user_ns_error,
                            GError           **error)
{
  AdbscopeSimNetwork *net = g_new0 (AdbscopeSimNetwork, 1);
  g_autoptr(GError) local_error = user_ns_error != NULL ? g_error_copy (user_ns_error) : NULL;
  /* Where a failure half-way goes back to (root may; in a user namespace
   * the probe made a failure here unlikely). */
  int start_ns = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

  net->device = device;
  net->phone_ns = net->app_ns = net->tun_fd = net->blackhole_fd = net->agent_out = net->selftest_out = -1;
  net->consent_accept = consent_accept;
  net->agent_line = g_string_new (NULL);

  net->mode = g_strdup (geteuid () == 0 ? "netns" : "userns");
  if (local_error == NULL && unshare (CLONE_NEWNET) != 0)
    fail_errno (&local_error, "unshare(CLONE_NEWNET)");
  if (local_error == NULL)
    {
      net->phone_ns = open ("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
      if (net->phone_ns < 0)
        fail_errno (&local_error, "/proc/thread-self/ns/net");
    }
  if (local_error == NULL && build_phone (net, &local_error) && build_app (net, &local_error) &&
      start_anchor (net, &local_error))
    net->servers = adbscope_sim_servers_start (&local_error);
  if (local_error != NULL && start_ns >= 0 && setns (start_ns, CLONE_NEWNET) != 0)
    g_debug ("sim: back to the first network namespace: %s", g_strerror (errno));
  if (start_ns >= 0)
    close (start_ns);
  if (local_error != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   geteuid () == 0 ? _("The simulated network is not supported here (as root, network namespaces): %s")
                                   : _("The simulated network is not supported here (not root, so a user namespace first): %s"),
                   local_error->message);
      adbscope_sim_network_free (net);
      return NULL;
    }
  net->agent_exe = find_agent (device);
  /* Never ran: no state file, so no state line, as on a phone. */
  net->state = g_strdup ("stopped");
  return net;
}

const char *
adbscope_sim_network_get_mode (AdbscopeSimNetwork *net)
{
  return net->mode;
}

GPid
adbscope_sim_network_get_app_ns_pid (AdbscopeSimNetwork *net)
{
  return net->anchor;
}

guint16
adbscope_sim_network_get_dns_port (AdbscopeSimNetwork *net)
{
  return adbscope_sim_servers_get_dns_port (net->servers);
}

/* In an app's child, after fork: the app joins the apps' namespace. */
void
adbscope_sim_network_child_setup (AdbscopeSimNetwork *net)
{
  if (net != NULL && setns (net->app_ns, CLONE_NEWNET) != 0)
    _exit (126);
}

/* ---- the agent --------------------------------------------------------- */

static void
agent_clear_io (AdbscopeSimNetwork *net)
{
  if (net->agent_out_id != 0)
    g_source_remove (net->agent_out_id);
  net->agent_out_id = 0;
  if (net->agent_out >= 0)
    close (net->agent_out);
  net->agent_out = -1;
}

static void spawn_agent (AdbscopeSimNetwork *net);

static void
on_agent_exit (GPid     pid,
               int      status,
               gpointer user_data)
{
  AdbscopeSimNetwork *net = user_data;
  g_autofree char *state = NULL;

  g_spawn_close_pid (pid);
  if (net->agent_pid != pid)
    return;
  net->agent_pid = 0;
  net->agent_watch = 0;
  agent_clear_io (net);
  if (net->respawn)
    {
      /* A START with another token: the VPN comes up again for it (the
       * consent holds), as the phone's agent restarts its engine. */
      net->respawn = FALSE;
      spawn_agent (net);
      return;
    }
  if (g_str_equal (net->state, "running") || g_str_equal (net->state, "stopping"))
    write_state (net, "stopped");
  else
    {
      state = g_strdup_printf ("error:agent_exit_%d", WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
      write_state (net, state);
    }
}

/* The selftest client (`sim-tool selftest-client`) ended: its one line is
 * the agent's verdict on the state line. */
static void
on_selftest_exit (GPid     pid,
                  int      status,
                  gpointer user_data)
{
  AdbscopeSimNetwork *net = user_data;
  char buf[128] = "";
  ssize_t n;

  g_spawn_close_pid (pid);
  if (net->selftest_pid != pid)
    return;
  net->selftest_pid = 0;
  net->selftest_watch = 0;
  n = net->selftest_out >= 0 ? read (net->selftest_out, buf, sizeof buf - 1) : -1;
  buf[MAX (n, 0)] = '\0';
  g_strstrip (buf);
  if (net->selftest_out >= 0)
    close (net->selftest_out);
  net->selftest_out = -1;
  g_free (net->selftest_result);
  net->selftest_result = g_strdup (buf[0] != '\0' && strchr (buf, ' ') == NULL ? buf : "fail:client_died");
  write_state (net, net->state);
}

static void
selftest_child_setup (gpointer user_data)
{
  AdbscopeSimNetwork *net = user_data;

  adbscope_sim_child_setup (net->device);
  adbscope_sim_network_child_setup (net);
}

/* As the phone's agent does for `-e selftest HOST:PORT`: its own traffic
 * through the VPN once it runs, from the apps' namespace here. */
static void
start_selftest (AdbscopeSimNetwork *net)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { net->device->self_exe, "sim-tool", "selftest-client", net->selftest, NULL };

  if (net->selftest == NULL || net->selftest_pid > 0)
    return;
  if (!g_spawn_async_with_pipes (net->device->fs_root, (char **) argv, net->device->child_env,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
                                 selftest_child_setup, net, &net->selftest_pid, NULL, &net->selftest_out, NULL,
                                 &error))
    {
      g_free (net->selftest_result);
      net->selftest_result = g_strdup ("fail:spawn");
      write_state (net, net->state);
      return;
    }
  net->selftest_watch = g_child_watch_add (net->selftest_pid, on_selftest_exit, net);
}

/* The agent prints one JSON line once its sockets listen. */
static gboolean
on_agent_output (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  AdbscopeSimNetwork *net = user_data;
  char buf[512];
  ssize_t n = read (fd, buf, sizeof buf);

  if (n > 0)
    {
      g_string_append_len (net->agent_line, buf, n);
      if (strchr (net->agent_line->str, '\n') != NULL && g_str_equal (net->state, "starting"))
        {
          write_state (net, "running");
          start_selftest (net);
        }
      return G_SOURCE_CONTINUE;
    }
  if (n < 0 && errno == EINTR)
    return G_SOURCE_CONTINUE;
  net->agent_out_id = 0;
  close (net->agent_out);
  net->agent_out = -1;
  return G_SOURCE_REMOVE;
}

static void
agent_child_setup (gpointer user_data)
{
  AdbscopeSimNetwork *net = user_data;

  adbscope_sim_child_setup (net->device);
  /* The TUN is the one descriptor the agent inherits, like the fd
   * VpnService.establish() returns. */
  fcntl (net->tun_fd, F_SETFD, 0);
}

/* establish() gives a phone's agent a new, empty TUN: drop what queued up
 * while no agent read this one. */
static void
flush_tun (int fd)
{
  int flags = fcntl (fd, F_GETFL);
  char buf[65536];

  fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  while (read (fd, buf, sizeof buf) > 0)
    ;
  fcntl (fd, F_SETFL, flags);
}

static void
spawn_agent (AdbscopeSimNetwork *net)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tun_fd = g_strdup_printf ("%d", net->tun_fd);
  g_autofree char *dns = g_strdup_printf ("127.0.0.1:%u", adbscope_sim_servers_get_dns_port (net->servers));
  g_autofree char *uid = g_strdup_printf ("%u", getuid ());
  g_autofree char *proc_net = g_strdup_printf ("/proc/%d/net", net->anchor);
  const char *udp_idle = g_getenv ("ADBSCOPE_SIM_AGENT_UDP_IDLE_MS");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int out = -1;

  g_ptr_array_add (argv, net->agent_exe);
  g_ptr_array_add (argv, (char *) "--tun-fd");
  g_ptr_array_add (argv, tun_fd);
  /* Before Android 10 there is no DnsResolver: the agent forwards DNS to
   * the network's resolver itself (over protected UDP), as the phone's
   * agent does there. */
  g_ptr_array_add (argv, (char *) (net->device->profile->sdk < 29 ? "--dns-server" : "--dns-upstream"));
  g_ptr_array_add (argv, dns);
  g_ptr_array_add (argv, (char *) "--allow-uid");
  g_ptr_array_add (argv, uid);
  g_ptr_array_add (argv, (char *) "--proc-net");
  g_ptr_array_add (argv, proc_net);
  if (net->token != NULL)
    {
      g_ptr_array_add (argv, (char *) "--instance-token");
      g_ptr_array_add (argv, net->token);
    }
  /* Tests that need UDP flows to end within a run shorten the agent's
   * idle time (2 min) with ADBSCOPE_SIM_AGENT_UDP_IDLE_MS. */
  if (udp_idle != NULL)
    {
      g_ptr_array_add (argv, (char *) "--udp-idle");
      g_ptr_array_add (argv, (char *) udp_idle);
    }
  g_ptr_array_add (argv, NULL);

  flush_tun (net->tun_fd);
  if (!g_spawn_async_with_pipes (net->device->fs_root, (char **) argv->pdata, net->device->child_env,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
                                 agent_child_setup, net, &net->agent_pid, NULL, &out, NULL, &error))
    {
      g_printerr ("adbscope sim: %s\n", error->message);
      write_state (net, "error:agent_spawn_failed");
      return;
    }
  g_string_truncate (net->agent_line, 0);
  net->agent_out = out;
  g_unix_set_fd_nonblocking (out, TRUE, NULL);
  net->agent_out_id = g_unix_fd_add (out, G_IO_IN | G_IO_HUP | G_IO_ERR, on_agent_output, net);
  net->agent_watch = g_child_watch_add (net->agent_pid, on_agent_exit, net);
  write_state (net, "starting");
}

/* How long the simulated user takes to answer the consent dialog:
 * CONSENT_MS, or ADBSCOPE_SIM_CONSENT_MS (the screenshot tour gives
 * itself time to take the waiting dialog in both colour schemes). */
static guint
consent_ms (void)
{
  const char *env = g_getenv ("ADBSCOPE_SIM_CONSENT_MS");
  guint64 ms;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 0, 60000, &ms, NULL))
    return ms;
  return CONSENT_MS;
}

/* The user answers the consent dialog a moment after it opened. */
static gboolean
on_consent (gpointer user_data)
{
  AdbscopeSimNetwork *net = user_data;

  net->consent_id = 0;
  if (!net->consent_accept)
    write_state (net, "consent_denied");
  else if (net->agent_exe == NULL)
    write_state (net, "error:agent_binary_missing");
  else
    spawn_agent (net);
  return G_SOURCE_REMOVE;
}

static char *
agent_start (AdbscopeSimNetwork *net,
             const char         *package,
             const char         *version,
             const char         *token,
             const char         *selftest)
{
  gboolean same_token = g_strcmp0 (token, net->token) == 0;

  g_free (net->selftest);
  net->selftest = g_strdup (selftest);
  g_clear_pointer (&net->selftest_result, g_free);
  g_free (net->version);
  net->version = g_strdup (version);
  g_free (net->token);
  net->token = g_strdup (token);
  /* Another package while running: the VPN stays, the label moves (the
   * simulated TUN carries every app); another token restarts the engine
   * so its Hello carries the new one. */
  if (net->agent_pid > 0)
    {
      g_free (net->package);
      net->package = g_strdup (package);
      if (!same_token && !g_str_equal (net->state, "stopping"))
        {
          net->respawn = TRUE;
          write_state (net, "starting");
          kill (net->agent_pid, SIGTERM);
          return g_strdup ("ok");
        }
      write_state (net, net->state);
      return g_strdup ("ok");
    }
  g_free (net->package);
  net->package = g_strdup (package);
  if (net->consent_id != 0)
    g_source_remove (net->consent_id);
  write_state (net, "waiting_consent");
  net->consent_id = g_timeout_add (consent_ms (), on_consent, net);
  return g_strdup ("ok");
}

static void
agent_stop (AdbscopeSimNetwork *net)
{
  if (net->consent_id != 0)
    {
      g_source_remove (net->consent_id);
      net->consent_id = 0;
      write_state (net, "stopped");
    }
  net->respawn = FALSE;
  if (net->agent_pid > 0)
    {
      write_state (net, "stopping");
      kill (net->agent_pid, SIGTERM);
    }
}

/* agent-start PKG VERSIONCODE [token=T] [selftest=HOST:PORT] | agent-stop | net-counts */
char *
adbscope_sim_network_control (AdbscopeSimDevice *device,
                              const char        *command,
                              const char        *args)
{
  AdbscopeSimNetwork *net = device->network;

  if (g_str_equal (command, "net-counts"))
    {
      if (net == NULL)
        return g_strdup_printf ("error %s", _("the device has no network (start it with --network)"));
      return adbscope_sim_servers_dup_counts (net->servers);
    }
  if (g_str_equal (command, "agent-start"))
    {
      g_auto(GStrv) words = g_strsplit (args != NULL ? args : "", " ", -1);
      const char *token = NULL, *selftest = NULL;

      if (words[0] == NULL || words[1] == NULL)
        return g_strdup_printf ("error %s", _("agent-start wants PKG VERSIONCODE [token=T] [selftest=HOST:PORT]"));
      for (guint i = 2; words[i] != NULL; i++)
        {
          g_strstrip (words[i]);
          if (g_str_has_prefix (words[i], "token=") && words[i][6] != '\0')
            token = words[i] + 6;
          else if (g_str_has_prefix (words[i], "selftest=") && words[i][9] != '\0')
            selftest = words[i] + 9;
        }
      if (net == NULL)
        {
          /* The agent is installed but the VPN cannot come up. */
          g_autofree char *path = g_build_filename (device->sandbox, "state", "agent", NULL);
          g_autofree char *line = g_strdup_printf ("  adbscope-agent state=error:network_not_supported package=%s version=%s\n",
                                                   g_strstrip (words[0]), g_strstrip (words[1]));

          adbscope_sim_write_atomic (path, line);
          return g_strdup ("ok");
        }
      return agent_start (net, g_strstrip (words[0]), g_strstrip (words[1]), token, selftest);
    }
  if (g_str_equal (command, "agent-stop"))
    {
      if (net != NULL)
        agent_stop (net);
      return g_strdup ("ok");
    }
  return NULL;
}

void
adbscope_sim_network_tick (AdbscopeSimNetwork *net)
{
  g_autofree char *path = NULL;
  g_autofree char *counts = NULL;

  if (net == NULL)
    return;
  path = g_build_filename (net->device->sandbox, "state", "net.json", NULL);
  counts = adbscope_sim_servers_dup_counts (net->servers);
  adbscope_sim_write_atomic (path, counts);
}

void
adbscope_sim_network_free (AdbscopeSimNetwork *net)
{
  if (net == NULL)
    return;
  if (net->consent_id != 0)
    g_source_remove (net->consent_id);
  if (net->agent_pid > 0)
    {
      if (net->agent_watch != 0)
        g_source_remove (net->agent_watch);
      kill (net->agent_pid, SIGKILL);
      waitpid (net->agent_pid, NULL, 0);
    }
  agent_clear_io (net);
  if (net->anchor > 0)
    {
      kill (net->anchor, SIGKILL);
      waitpid (net->anchor, NULL, 0);
    }
  adbscope_sim_servers_stop (net->servers);
  {
    int fds[] = { net->phone_ns, net->app_ns, net->tun_fd, net->blackhole_fd };

    for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
      if (fds[i] >= 0)
        close (fds[i]);
  }
  g_string_free (net->agent_line, TRUE);
  g_free (net->agent_exe);
  g_free (net->package);
  g_free (net->version);
  g_free (net->token);
  g_free (net->selftest);
  g_free (net->selftest_result);
  if (net->selftest_watch != 0)
    g_source_remove (net->selftest_watch);
  if (net->selftest_pid > 0)
    {
      kill (net->selftest_pid, SIGKILL);
      waitpid (net->selftest_pid, NULL, 0);
    }
  if (net->selftest_out >= 0)
    close (net->selftest_out);
  g_free (net->state);
  g_free (net->mode);
  g_free (net);
}
