/* adbscope-agent-linux: the agent engine on a Linux TUN device.
 *
 *   adbscope-agent-linux --tun NAME | --tun-fd N [--dns-upstream IP:PORT] [--allow-uid UID]…
 *                        [--idle-exit SECONDS] [--socket-name NAME] [--mtu N]
 *                        [--fwmark MARK] [--proc-net DIR] [--snapshot-interval MS]
 *                        [--udp-idle MS] [--dns-server ADDR]… [--instance-token TOKEN]
 *
 * --dns-server (up to 4, instead of --dns-upstream) runs the engine as on
 * Android before 10, where DnsResolver is missing: no resolve callback, and
 * the engine itself forwards the app's DNS to these resolvers over protected
 * UDP sockets.  --instance-token is echoed in the Hello.
 * Opens (creating if absent) the TUN interface in the current network
 * namespace with the agent's addresses, serves @NAME and @NAME-pcap, and
 * prints one JSON line on stdout once the sockets listen.  Routing the app
 * side through the TUN is the caller's job.  With --tun-fd the caller hands
 * over a TUN it opened and configured itself (as VpnService.establish() hands
 * one to the Android agent): the simulated device creates it in the app's
 * network namespace, so the agent's own sockets stay in its namespace. */
#include "agent-linux.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_UIDS 64

static AdbscopeAgentEngine *the_engine;
static int verbose;

static void
on_signal (int sig)
{
  if (the_engine)
    adbscope_agent_engine_stop (the_engine);
}

static void
log_stderr (AdbscopeAgentLogLevel level,
            const char           *message)
{
  static const char *names[] = { "debug", "info", "warning", "error" };

  if (level == ADBSCOPE_AGENT_LOG_DEBUG && !verbose)
    return;
  fprintf (stderr, "adbscope-agent: %s: %s\n", names[level], message);
}

static void
usage (FILE *out)
{
  fprintf (out,
           "usage: adbscope-agent-linux --tun NAME | --tun-fd N [--dns-upstream IP:PORT] [--allow-uid UID]...\n"
           "                            [--idle-exit SECONDS] [--socket-name NAME] [--mtu N (65535)]\n"
           "                            [--fwmark MARK] [--proc-net DIR]\n"
           "                            [--snapshot-interval MS] [--udp-idle MS (120000)]\n"
           "                            [--dns-server ADDR]... [--instance-token TOKEN] [--verbose]\n");
}

static bool
parse_int (const char *s,
           long        min,
           long        max,
           long       *out)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (s, &end, 10);
  if (errno || *end || end == s || v < min || v > max)
    return false;
  *out = v;
  return true;
}

int
main (int    argc,
      char **argv)
{
  static const struct option options[] = {
    { "tun", required_argument, NULL, 't' },
    { "tun-fd", required_argument, NULL, 'F' },
    { "dns-upstream", required_argument, NULL, 'd' },
    { "allow-uid", required_argument, NULL, 'u' },
    { "idle-exit", required_argument, NULL, 'i' },
    { "socket-name", required_argument, NULL, 's' },
    { "mtu", required_argument, NULL, 'm' },
    { "fwmark", required_argument, NULL, 'f' },
    { "proc-net", required_argument, NULL, 'p' },
    { "snapshot-interval", required_argument, NULL, 'n' },
    { "udp-idle", required_argument, NULL, 'U' },
    { "dns-server", required_argument, NULL, 'D' },
    { "instance-token", required_argument, NULL, 'T' },
    { "verbose", no_argument, NULL, 'v' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  AdbscopeAgentConfig config;
  AdbscopeAgentCallbacks cb;
  AgentLinux al;
  const char *tun = NULL;
  const char *socket_name = "adbscope-agent";
  char pcap_name[128];
  unsigned int uids[MAX_UIDS];
  size_t n_uids = 0;
  char error[256];
  struct sigaction sa;
  AdbscopeAgentExit result;
  int opt, tun_fd, given_fd = -1;
  long v;
  const char *dns_servers[5] = { NULL };
  size_t n_dns_servers = 0;

  agent_linux_init (&al);
  al.log = log_stderr;
  adbscope_agent_config_init (&config);
  /* The largest TUN MTU: with no window scaling a 64 KiB window is all the
   * app may have in flight, so the fewer packets it takes, the less the
   * engine spends per byte (bench-agent: about a quarter of the CPU per GB
   * of MTU 1500, and the most throughput). */
  config.mtu = AGENT_LINUX_DEFAULT_MTU;
  /* the app's first connections come before the desktop's pcap client */
  config.pcap_from_start_ms = AGENT_PCAP_FROM_START_MS;

  while ((opt = getopt_long (argc, argv, "", options, NULL)) != -1)
    {
      switch (opt)
        {
        case 't':
          tun = optarg;
          break;
        case 'F':
          if (!parse_int (optarg, 0, 0x7fffffff, &v) || fcntl ((int) v, F_GETFD) < 0)
            {
              fprintf (stderr, "adbscope-agent: bad --tun-fd (not an open descriptor): %s\n", optarg);
              return 2;
            }
          given_fd = (int) v;
          break;
        case 'd':
          if (!agent_linux_set_dns (&al, optarg))
            {
              fprintf (stderr, "adbscope-agent: bad --dns-upstream: %s\n", optarg);
              return 2;
            }
          break;
        case 'u':
          if (n_uids == MAX_UIDS || !parse_int (optarg, 0, 0x7fffffff, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --allow-uid: %s\n", optarg);
              return 2;
            }
          uids[n_uids++] = (unsigned int) v;
          break;
        case 'i':
          if (!parse_int (optarg, -1, 86400, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --idle-exit: %s\n", optarg);
              return 2;
            }
          config.idle_exit_ms = v < 0 ? -1 : (int) (v * 1000);
          break;
        case 's':
          socket_name = optarg;
          break;
        case 'm':
          if (!parse_int (optarg, 576, 65535, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --mtu: %s\n", optarg);
              return 2;
            }
          config.mtu = (int) v;
          break;
        case 'f':
          if (!parse_int (optarg, 0, 0x7fffffff, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --fwmark: %s\n", optarg);
              return 2;
            }
          al.fwmark = (unsigned int) v;
          break;
        case 'p':
          snprintf (al.proc_net, sizeof al.proc_net, "%s", optarg);
          break;
        case 'n':
          if (!parse_int (optarg, 10, 60000, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --snapshot-interval: %s\n", optarg);
              return 2;
            }
          config.snapshot_interval_ms = (int) v;
          break;
        case 'U':
          /* how long a UDP flow may be silent before it is closed */
          if (!parse_int (optarg, 100, 3600000, &v))
            {
              fprintf (stderr, "adbscope-agent: bad --udp-idle: %s\n", optarg);
              return 2;
            }
          config.udp_idle_ms = (int) v;
          break;
        case 'D':
          if (n_dns_servers == 4)
            {
              fprintf (stderr, "adbscope-agent: at most 4 --dns-server\n");
              return 2;
            }
          dns_servers[n_dns_servers++] = optarg;
          break;
        case 'T':
          config.instance_token = optarg;
          break;
        case 'v':
          verbose = 1;
          break;
        case 'h':
          usage (stdout);
          return 0;
        default:
          usage (stderr);
          return 2;
        }
    }
  if ((tun == NULL) == (given_fd < 0) || optind != argc)
    {
      usage (stderr);
      return 2;
    }
  if (snprintf (pcap_name, sizeof pcap_name, "%s-pcap", socket_name) >= (int) sizeof pcap_name)
    {
      fprintf (stderr, "adbscope-agent: socket name too long\n");
      return 2;
    }

  if (given_fd >= 0)
    {
      tun_fd = given_fd;
      fcntl (tun_fd, F_SETFD, FD_CLOEXEC);
      error[0] = '\0';
      tun = "fd";
    }
  else
    tun_fd = agent_linux_tun_open (tun, config.mtu, true, error, sizeof error);
  if (tun_fd < 0)
    {
      fprintf (stderr, "adbscope-agent: %s\n", error);
      return 1;
    }
  if (error[0])
    fprintf (stderr, "adbscope-agent: warning: %s\n", error);

  config.tun_fd = tun_fd;
  inet_pton (AF_INET, AGENT_LINUX_DNS4, config.dns4);
  config.have_dns6 = inet_pton (AF_INET6, AGENT_LINUX_DNS6, config.dns6) == 1;
  config.socket_name = socket_name;
  config.pcap_socket_name = pcap_name;
  if (n_uids > 0)
    {
      config.allowed_uids = uids;
      config.n_allowed_uids = n_uids;
    }
  config.platform = "linux";
  config.agent_version = PACKAGE_VERSION;

  agent_linux_callbacks (&al, &cb);
  if (n_dns_servers > 0)
    {
      /* As on Android 8-9: the engine forwards DNS itself. */
      config.dns_servers = dns_servers;
      cb.resolve_dns = NULL;
    }
  the_engine = adbscope_agent_engine_new (&config, &cb, error, sizeof error);
  if (the_engine == NULL)
    {
      fprintf (stderr, "adbscope-agent: %s\n", error);
      close (tun_fd);
      return 1;
    }

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  signal (SIGPIPE, SIG_IGN);

  printf ("{\"tun\":\"%s\",\"socket\":\"%s\",\"pcap_socket\":\"%s\",\"pid\":%d}\n",
          tun, socket_name, pcap_name, (int) getpid ());
  fflush (stdout);

  result = adbscope_agent_engine_run (the_engine);
  agent_linux_wait_jobs (&al);
  adbscope_agent_engine_free (the_engine);
  the_engine = NULL;
  agent_linux_clear (&al);
  close (tun_fd);
  return result == ADBSCOPE_AGENT_EXIT_ERROR ? 1 : 0;
}
