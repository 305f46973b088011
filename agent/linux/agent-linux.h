/* agent-linux.h: the engine's Linux callbacks and TUN set-up, shared by
 * adbscope-agent-linux and the engine tests. */
#pragma once

#include "adbscope-agent-engine.h"

#include <pthread.h>
#include <stdbool.h>
#include <sys/socket.h>

/* The agent's addresses on the TUN device (PCAPdroid's VPN addresses). */
#define AGENT_LINUX_ADDR4      "10.215.173.1"
#define AGENT_LINUX_PREFIX4    30
#define AGENT_LINUX_DNS4       "10.215.173.2"
#define AGENT_LINUX_ADDR6      "fd00:adb5::1"
#define AGENT_LINUX_PREFIX6    64
#define AGENT_LINUX_DNS6       "fd00:adb5::2"
/* adbscope-agent-linux's TUN MTU unless --mtu says otherwise. */
#define AGENT_LINUX_DEFAULT_MTU 65535

typedef struct {
  /* SO_MARK for protected sockets; 0: protect is a no-op (the caller routes). */
  unsigned int            fwmark;
  /* Where the app's sockets are listed (tcp, tcp6, udp, udp6); "/proc/net"
   * by default, "/proc/PID/net" for an app in another namespace. */
  char                    proc_net[256];
  bool                    have_dns;
  struct sockaddr_storage dns;
  socklen_t               dns_len;
  int                     dns_timeout_ms;
  /* DNS jobs in flight (one thread each); wait for them before freeing the engine. */
  pthread_mutex_t         lock;
  pthread_cond_t          cond;
  unsigned                jobs;
  void                  (*log) (AdbscopeAgentLogLevel level,
                                const char           *message);
} AgentLinux;

void agent_linux_init           (AgentLinux             *al);
void agent_linux_clear          (AgentLinux             *al);
/* "IP:PORT" or "[IPv6]:PORT". */
bool agent_linux_set_dns        (AgentLinux             *al,
                                 const char             *ip_port);
void agent_linux_callbacks      (AgentLinux             *al,
                                 AdbscopeAgentCallbacks *cb);
void agent_linux_wait_jobs      (AgentLinux             *al);

/* Opens (creating if absent) TUN interface @name.  With @configure it also
 * sets the MTU, the agent's IPv4/IPv6 addresses and brings it up, in the
 * calling thread's network namespace.  Returns the fd or -1 (errno set,
 * reason in @error). */
int  agent_linux_tun_open       (const char             *name,
                                 int                     mtu,
                                 bool                    configure,
                                 char                   *error,
                                 size_t                  error_len);

/* Owner uid of a socket from the proc_net tables, -1 if not found. */
int  agent_linux_lookup_uid     (const char                 *proc_net,
                                 const AdbscopeAgentFlowKey *flow);
