/* agent-linux.c: Linux callbacks for the engine: protect with SO_MARK, the
 * owner uid from /proc/net, DNS to an upstream server (one short-lived
 * thread per query, so the engine thread never waits), and the TUN device. */
#include "agent-linux.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

void
agent_linux_init (AgentLinux *al)
{
  memset (al, 0, sizeof *al);
  snprintf (al->proc_net, sizeof al->proc_net, "/proc/net");
  al->dns_timeout_ms = 2000;
  pthread_mutex_init (&al->lock, NULL);
  pthread_cond_init (&al->cond, NULL);
}

void
agent_linux_clear (AgentLinux *al)
{
  agent_linux_wait_jobs (al);
  pthread_mutex_destroy (&al->lock);
  pthread_cond_destroy (&al->cond);
}

bool
agent_linux_set_dns (AgentLinux *al,
                     const char *ip_port)
{
  char host[INET6_ADDRSTRLEN + 2];
  const char *colon = strrchr (ip_port, ':');
  const char *h = ip_port;
  size_t hlen;
  char *end;
  long port;

  if (colon == NULL)
    return false;
  hlen = (size_t) (colon - ip_port);
  if (hlen > 1 && ip_port[0] == '[' && ip_port[hlen - 1] == ']')
    {
      h++;
      hlen -= 2;
    }
  if (hlen == 0 || hlen >= sizeof host)
    return false;
  memcpy (host, h, hlen);
  host[hlen] = '\0';
  port = strtol (colon + 1, &end, 10);
  if (*end != '\0' || port <= 0 || port > 65535)
    return false;

  memset (&al->dns, 0, sizeof al->dns);
  {
    struct sockaddr_in *sin = (struct sockaddr_in *) &al->dns;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &al->dns;

    if (inet_pton (AF_INET, host, &sin->sin_addr) == 1)
      {
        sin->sin_family = AF_INET;
        sin->sin_port = htons ((uint16_t) port);
        al->dns_len = sizeof *sin;
      }
    else if (inet_pton (AF_INET6, host, &sin6->sin6_addr) == 1)
      {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons ((uint16_t) port);
        al->dns_len = sizeof *sin6;
      }
    else
      return false;
  }
  al->have_dns = true;
  return true;
}

/* Callbacks ------------------------------------------------------------- */

static int
cb_protect (void *user_data,
            int   fd)
{
  AgentLinux *al = user_data;

  if (al->fwmark == 0)
    return 0;
  return setsockopt (fd, SOL_SOCKET, SO_MARK, &al->fwmark, sizeof al->fwmark);
}

static int
cb_get_uid (void                       *user_data,
            const AdbscopeAgentFlowKey *flow)
{
  AgentLinux *al = user_data;

  return agent_linux_lookup_uid (al->proc_net, flow);
}

typedef struct {
  AgentLinux          *al;
  AdbscopeAgentEngine *engine;
  uint64_t             id;
  size_t               len;
  uint8_t              query[];
} DnsJob;

static void *
dns_job_main (void *data)
{
  DnsJob *job = data;
  AgentLinux *al = job->al;
  uint8_t buf[4096];
  ssize_t n = -1;
  int fd = socket (al->dns.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (fd >= 0 && connect (fd, (struct sockaddr *) &al->dns, al->dns_len) == 0
      && send (fd, job->query, job->len, 0) == (ssize_t) job->len)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };

      /* A refused port shows up as ECONNREFUSED on recv: a failure. */
      if (poll (&pfd, 1, al->dns_timeout_ms) == 1)
        n = recv (fd, buf, sizeof buf, 0);
    }
  if (fd >= 0)
    close (fd);
  adbscope_agent_engine_dns_answer (job->engine, job->id, n > 0 ? buf : NULL,
                                    n > 0 ? (size_t) n : 0);

  pthread_mutex_lock (&al->lock);
  al->jobs--;
  pthread_cond_broadcast (&al->cond);
  pthread_mutex_unlock (&al->lock);
  free (job);
  return NULL;
}

static void
cb_resolve (void                *user_data,
            AdbscopeAgentEngine *engine,
            uint64_t             id,
            const uint8_t       *query,
            size_t               len)
{
  AgentLinux *al = user_data;
  DnsJob *job;
  pthread_t thread;
  pthread_attr_t attr;

  if (!al->have_dns || (job = malloc (sizeof *job + len)) == NULL)
    {
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
      return;
    }
  job->al = al;
  job->engine = engine;
  job->id = id;
  job->len = len;
  memcpy (job->query, query, len);

  pthread_mutex_lock (&al->lock);
  al->jobs++;
  pthread_mutex_unlock (&al->lock);
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&thread, &attr, dns_job_main, job) != 0)
    {
      pthread_mutex_lock (&al->lock);
      al->jobs--;
      pthread_mutex_unlock (&al->lock);
      free (job);
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
    }
  pthread_attr_destroy (&attr);
}

static void
cb_log (void                 *user_data,
        AdbscopeAgentLogLevel level,
        const char           *message)
{
  AgentLinux *al = user_data;

  if (al->log)
    al->log (level, message);
}

void
agent_linux_callbacks (AgentLinux             *al,
                       AdbscopeAgentCallbacks *cb)
{
  memset (cb, 0, sizeof *cb);
  cb->user_data = al;
  cb->protect_socket = cb_protect;
  cb->get_uid = cb_get_uid;
  cb->resolve_dns = cb_resolve;
  cb->log = cb_log;
}

void
agent_linux_wait_jobs (AgentLinux *al)
{
  pthread_mutex_lock (&al->lock);
  while (al->jobs > 0)
    pthread_cond_wait (&al->cond, &al->lock);
  pthread_mutex_unlock (&al->lock);
}

/* /proc/net ---------------------------------------------------------------- */

/* "0100007F:1F90" or the IPv6 form: 32 hex digits, each 8 a native u32. */
static bool
parse_proc_addr (const char *s,
                 uint8_t    *addr,
                 size_t      alen,
                 uint16_t   *port)
{
  size_t i;

  for (i = 0; i < alen / 4; i++)
    {
      char word[9];
      uint32_t v;
      char *end;

      memcpy (word, s + i * 8, 8);
      word[8] = '\0';
      v = (uint32_t) strtoul (word, &end, 16);
      if (*end != '\0')
        return false;
      memcpy (addr + i * 4, &v, 4);
    }
  if (s[alen * 2] != ':')
    return false;
  *port = (uint16_t) strtoul (s + alen * 2 + 1, NULL, 16);
  return true;
}

static int
lookup_file (const char                 *path,
             size_t                      alen,
             const uint8_t              *src,
             const uint8_t              *dst,
             const AdbscopeAgentFlowKey *flow)
{
  FILE *f = fopen (path, "re");
  char line[512];
  int uid = -1;
  static const uint8_t zero[16];

  if (f == NULL)
    return -1;
  if (fgets (line, sizeof line, f) == NULL)   /* header */
    {
      fclose (f);
      return -1;
    }
  while (uid < 0 && fgets (line, sizeof line, f))
    {
      char local[64], remote[64];
      unsigned st, u;
      uint8_t la[16], ra[16];
      uint16_t lp, rp;

      if (sscanf (line, "%*u: %63s %63s %x %*s %*s %*s %u", local, remote, &st, &u) != 4)
        continue;
      if (strlen (local) != alen * 2 + 5 || strlen (remote) != alen * 2 + 5
          || !parse_proc_addr (local, la, alen, &lp) || !parse_proc_addr (remote, ra, alen, &rp))
        continue;
      if (lp != flow->sport)
        continue;
      if (memcmp (la, src, alen) != 0 && memcmp (la, zero, alen) != 0)
        continue;
      /* A connected socket must match the remote side too. */
      if (memcmp (ra, zero, alen) != 0 && (rp != flow->dport || memcmp (ra, dst, alen) != 0))
        continue;
      uid = (int) u;
    }
  fclose (f);
  return uid;
}

int
agent_linux_lookup_uid (const char                 *proc_net,
                        const AdbscopeAgentFlowKey *flow)
{
  const char *proto = flow->protocol == 6 ? "tcp" : "udp";
  char path[320];
  int uid;

  if (flow->ip_version == 6)
    {
      snprintf (path, sizeof path, "%s/%s6", proc_net, proto);
      return lookup_file (path, 16, flow->src, flow->dst, flow);
    }
  snprintf (path, sizeof path, "%s/%s", proc_net, proto);
  uid = lookup_file (path, 4, flow->src, flow->dst, flow);
  if (uid < 0)
    {
      /* A dual-stack socket lists the IPv4 peer as ::ffff:a.b.c.d. */
      uint8_t s6[16] = { 0 }, d6[16] = { 0 };

      s6[10] = s6[11] = d6[10] = d6[11] = 0xff;
      memcpy (s6 + 12, flow->src, 4);
      memcpy (d6 + 12, flow->dst, 4);
      snprintf (path, sizeof path, "%s/%s6", proc_net, proto);
      uid = lookup_file (path, 16, s6, d6, flow);
    }
  return uid;
}

/* TUN -------------------------------------------------------------------- */

struct agent_in6_ifreq {
  struct in6_addr addr;
  uint32_t        prefixlen;
  int             ifindex;
};

/* A new IPv6 address is tentative until the kernel's address work has
 * run (even on a TUN, which needs no duplicate detection).  A connect()
 * made before that has no source address and sends its SYN from ::, which
 * no answer reaches, until the connection times out.  So wait for it,
 * bounded (2 s), reading /proc/thread-self/net/if_inet6 (this thread's
 * namespace).  No IPv6 or no such address: nothing to wait for. */
static void
wait_ipv6_usable (const char *name)
{
  char want[33];
  struct in6_addr a;
  int i, j;

  inet_pton (AF_INET6, AGENT_LINUX_ADDR6, &a);
  for (j = 0; j < 16; j++)
    snprintf (want + 2 * j, 3, "%02x", a.s6_addr[j]);
  for (i = 0; i < 200; i++)
    {
      FILE *f = fopen ("/proc/thread-self/net/if_inet6", "re");
      char line[256], addr[64], dev[64];
      unsigned idx, plen, scope, flags;
      bool tentative = false;

      if (f == NULL)
        return;
      while (fgets (line, sizeof line, f))
        if (sscanf (line, "%63s %x %x %x %x %63s", addr, &idx, &plen, &scope, &flags, dev) == 6
            && strcmp (addr, want) == 0 && strcmp (dev, name) == 0)
          tentative = (flags & 0x40) != 0;          /* IFA_F_TENTATIVE */
      fclose (f);
      if (!tentative)
        return;
      usleep (10000);
    }
}

static int
configure_tun (const char *name,
               int         mtu,
               char       *error,
               size_t      error_len)
{
  struct ifreq ifr;
  struct sockaddr_in *sin = (struct sockaddr_in *) &ifr.ifr_addr;
  struct agent_in6_ifreq ifr6;
  int s4 = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int s6 = socket (AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  const char *step = "socket";

  if (s4 < 0)
    goto fail;

  memset (&ifr, 0, sizeof ifr);
  snprintf (ifr.ifr_name, IFNAMSIZ, "%s", name);
  ifr.ifr_mtu = mtu;
  step = "SIOCSIFMTU";
  if (ioctl (s4, SIOCSIFMTU, &ifr) < 0)
    goto fail;

  memset (&ifr, 0, sizeof ifr);
  snprintf (ifr.ifr_name, IFNAMSIZ, "%s", name);
  sin->sin_family = AF_INET;
  inet_pton (AF_INET, AGENT_LINUX_ADDR4, &sin->sin_addr);
  step = "SIOCSIFADDR";
  if (ioctl (s4, SIOCSIFADDR, &ifr) < 0)
    goto fail;
  sin->sin_addr.s_addr = htonl (~((1u << (32 - AGENT_LINUX_PREFIX4)) - 1));
  step = "SIOCSIFNETMASK";
  if (ioctl (s4, SIOCSIFNETMASK, &ifr) < 0)
    goto fail;

  memset (&ifr, 0, sizeof ifr);
  snprintf (ifr.ifr_name, IFNAMSIZ, "%s", name);
  step = "SIOCGIFFLAGS";
  if (ioctl (s4, SIOCGIFFLAGS, &ifr) < 0)
    goto fail;
  ifr.ifr_flags |= IFF_UP;
  step = "SIOCSIFFLAGS";
  if (ioctl (s4, SIOCSIFFLAGS, &ifr) < 0)
    goto fail;

  /* IPv6 is optional (a kernel may have it disabled). */
  if (s6 >= 0)
    {
      memset (&ifr6, 0, sizeof ifr6);
      inet_pton (AF_INET6, AGENT_LINUX_ADDR6, &ifr6.addr);
      ifr6.prefixlen = AGENT_LINUX_PREFIX6;
      ifr6.ifindex = (int) if_nametoindex (name);
      if (ioctl (s6, SIOCSIFADDR, &ifr6) < 0 && errno != EEXIST && error)
        snprintf (error, error_len, "IPv6 address: %s", strerror (errno));
      else
        wait_ipv6_usable (name);
      close (s6);
    }
  close (s4);
  return 0;

fail:
  {
    int err = errno;

    if (error)
      snprintf (error, error_len, "%s %s: %s", step, name, strerror (err));
    if (s4 >= 0)
      close (s4);
    if (s6 >= 0)
      close (s6);
    errno = err;
    return -1;
  }
}

int
agent_linux_tun_open (const char *name,
                      int         mtu,
                      bool        configure,
                      char       *error,
                      size_t      error_len)
{
  struct ifreq ifr;
  int fd = open ("/dev/net/tun", O_RDWR | O_CLOEXEC);

  if (error && error_len)
    error[0] = '\0';
  if (fd < 0)
    {
      if (error)
        snprintf (error, error_len, "/dev/net/tun: %s", strerror (errno));
      return -1;
    }
  memset (&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  snprintf (ifr.ifr_name, IFNAMSIZ, "%s", name);
  if (ioctl (fd, TUNSETIFF, &ifr) < 0)
    {
      int err = errno;

      if (error)
        snprintf (error, error_len, "TUNSETIFF %s: %s", name, strerror (err));
      close (fd);
      errno = err;
      return -1;
    }
  if (configure && configure_tun (name, mtu, error, error_len) < 0)
    {
      int err = errno;

      close (fd);
      errno = err;
      return -1;
    }
  return fd;
}
