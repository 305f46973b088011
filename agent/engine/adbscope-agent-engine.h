/* adbscope-agent-engine.h: the agent's packet engine, the only public header.
 *
 * A user-space TCP/UDP forwarder behind a TUN device: it reads the app's IP
 * packets, terminates TCP itself, forwards UDP, answers DNS sent to a fake
 * resolver through a callback, counts everything and serves snapshots and a
 * pcap stream on two abstract unix sockets.  Portable C (POSIX + Linux
 * epoll/eventfd, which Android has); no GLib, no JNI.  The platform supplies
 * the callbacks below and owns the thread that calls
 * adbscope_agent_engine_run().
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _AdbscopeAgentEngine AdbscopeAgentEngine;

#define ADBSCOPE_AGENT_PROTOCOL_VERSION 1
#define ADBSCOPE_AGENT_QUEUE_PACKETS    8192

typedef enum {
  ADBSCOPE_AGENT_LOG_DEBUG,
  ADBSCOPE_AGENT_LOG_INFO,
  ADBSCOPE_AGENT_LOG_WARNING,
  ADBSCOPE_AGENT_LOG_ERROR,
} AdbscopeAgentLogLevel;

typedef enum {
  ADBSCOPE_AGENT_CLOCK_MONOTONIC,
  ADBSCOPE_AGENT_CLOCK_REALTIME,
} AdbscopeAgentClock;

typedef enum {
  /* Read from the TUN device: the app's packet. */
  ADBSCOPE_AGENT_FROM_APP,
  /* About to be written to the TUN device. */
  ADBSCOPE_AGENT_TO_APP,
} AdbscopeAgentDirection;

/* A flow as the app sees it: src is the app's side.  Addresses are in
 * network order (IPv4 in the first 4 bytes), ports in host order. */
typedef struct {
  uint8_t  ip_version;            /* 4 or 6 */
  uint8_t  protocol;              /* IPPROTO_TCP or IPPROTO_UDP */
  uint16_t sport;
  uint16_t dport;
  uint8_t  src[16];
  uint8_t  dst[16];
} AdbscopeAgentFlowKey;

typedef struct {
  void *user_data;

  /* Keep @fd (a socket the engine is about to connect) out of the VPN.
   * Returns 0, or -1 with errno set.  NULL means nothing to do. */
  int       (*protect_socket) (void                       *user_data,
                               int                         fd);

  /* The uid owning the app side of @flow, or -1 when unknown.  Called once
   * when the flow starts, on the engine thread.  NULL means unknown. */
  int       (*get_uid)        (void                       *user_data,
                               const AdbscopeAgentFlowKey *flow);

  /* Resolve a DNS query the app sent to the fake resolver.  Must not block:
   * answer later, from any thread, with adbscope_agent_engine_dns_answer().
   * NULL: the engine forwards the query to config.dns_servers itself when
   * those are set, else every query fails (the app gets SERVFAIL). */
  void      (*resolve_dns)    (void                       *user_data,
                               AdbscopeAgentEngine        *engine,
                               uint64_t                    query_id,
                               const uint8_t              *query,
                               size_t                      query_len);

  /* Current time in microseconds.  NULL means clock_gettime(). */
  uint64_t  (*now_us)         (void                       *user_data,
                               AdbscopeAgentClock          clock);

  /* NULL means quiet. */
  void      (*log)            (void                       *user_data,
                               AdbscopeAgentLogLevel       level,
                               const char                 *message);

  /* Tests only: sees every packet between the TUN device and the engine
   * (FROM_APP from whichever of the reader and the engine thread read it,
   * never both at once and always in the order read; TO_APP from the engine
   * thread); returning nonzero drops the packet as if the link lost it.
   * With a hook (or a pcap client) the engine copies each packet it sends
   * into one buffer; without, it sends TCP payload straight from its
   * buffers. */
  int       (*packet_hook)    (void                       *user_data,
                               AdbscopeAgentDirection      direction,
                               const uint8_t              *packet,
                               size_t                      len);
} AdbscopeAgentCallbacks;

/* What the agents (Linux and Android) keep of the pcap from the start. */
#define AGENT_PCAP_FROM_START_MS 30000

typedef struct {
  /* The TUN device; the engine makes it non-blocking and does not close it. */
  int          tun_fd;
  /* MTU of the TUN device (576..65535); bounds the segments sent to the app. */
  int          mtu;
  /* The fake resolver: DNS to port 53 of these addresses, over UDP or TCP,
   * goes to resolve_dns; TCP to any other port of them (Private DNS's
   * probe of 853) is refused with a reset; nothing to them is forwarded. */
  uint8_t      dns4[4];
  uint8_t      dns6[16];
  int          have_dns6;
  /* Abstract unix socket names (without the leading NUL); NULL: no server. */
  const char  *socket_name;
  const char  *pcap_socket_name;
  /* Peer uids (SO_PEERCRED) allowed on both sockets. */
  const unsigned int *allowed_uids;
  size_t       n_allowed_uids;
  /* Stop this long after the last client left (or after the start if none
   * came); negative: never. */
  int          idle_exit_ms;
  int          snapshot_interval_ms;
  int          udp_idle_ms;
  /* How long a fake-resolver query may wait for its answer. */
  int          dns_timeout_ms;
  /* Keep the pcap records from the start for the first pcap client, for
   * up to this long (the app's first connections happen before the
   * desktop has connected); 0: a client gets what crosses the TUN from its
   * arrival on. */
  int          pcap_from_start_ms;
  const char  *agent_version;
  const char  *platform;
  /* Numeric IPv4/IPv6 addresses of the real network's resolvers, NULL-terminated; used to forward the
   * app's DNS over protected UDP sockets when callbacks.resolve is NULL (Android before 10). */
  const char *const *dns_servers;
  /* Echoed in the Hello so the desktop can tell its own agent (NULL: none). */
  const char        *instance_token;
} AdbscopeAgentConfig;

typedef enum {
  ADBSCOPE_AGENT_EXIT_STOPPED,
  ADBSCOPE_AGENT_EXIT_IDLE,
  ADBSCOPE_AGENT_EXIT_ERROR,
} AdbscopeAgentExit;

/* Defaults: mtu 1500, 10.215.173.2 as fake resolver, uids 0 and 2000,
 * idle exit 30 s, snapshots every 1 s, UDP idle 2 min, DNS timeout 5 s. */
void                 adbscope_agent_config_init        (AdbscopeAgentConfig          *config);

/* Creates the engine and binds its sockets.  Returns NULL with errno set and
 * a reason in @error (which may be NULL). */
AdbscopeAgentEngine *adbscope_agent_engine_new         (const AdbscopeAgentConfig    *config,
                                                        const AdbscopeAgentCallbacks *callbacks,
                                                        char                         *error,
                                                        size_t                        error_len);

/* Runs the engine in the calling thread (it starts its own TUN reader
 * thread) until adbscope_agent_engine_stop() or the idle exit. */
AdbscopeAgentExit    adbscope_agent_engine_run         (AdbscopeAgentEngine          *engine);

/* Thread-safe and async-signal-safe. */
void                 adbscope_agent_engine_stop        (AdbscopeAgentEngine          *engine);

/* Thread-safe.  @response NULL (or @len 0) means the lookup failed: the app
 * gets a SERVFAIL built from its own query. */
void                 adbscope_agent_engine_dns_answer  (AdbscopeAgentEngine          *engine,
                                                        uint64_t                      query_id,
                                                        const uint8_t                *response,
                                                        size_t                        len);

/* After run() returned (or if it never ran). */
void                 adbscope_agent_engine_free        (AdbscopeAgentEngine          *engine);

#ifdef __cplusplus
}
#endif
