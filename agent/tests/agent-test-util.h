/* agent-test-util.h: network namespaces, a TUN, the engine in a thread,
 * test servers and clients for the agent tests.
 *
 * The test process first moves itself into a new network namespace (its
 * own loopback with 10.99.0.1 and fd99::1 for servers); each test then makes
 * an anonymous client namespace whose default routes go through a TUN device
 * created there, while the engine reads that TUN from the test namespace.
 * Anonymous namespaces vanish with their last file descriptor, so nothing
 * is left behind when a test fails or crashes. */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "adbscope-agent-engine.h"
#include "agent-linux.h"
#include "agent.pb-c.h"
#include "engine-parse.h"

#define AT_SERVER4 "10.99.0.1"
#define AT_SERVER6 "fd99::1"
#define AT_TUN     "adbt0"

typedef Adbscope__Agent__V1__Snapshot AtSnapshot;

typedef struct _AtNet AtNet;
typedef struct _AtEngine AtEngine;
typedef struct _AtServer AtServer;

/* Call first in main(): new namespace, loopback up, server addresses. */
void        at_init                (void);
/* Runs argv in the test namespace; returns the exit status. */
int         at_run                 (const char *const *argv);

AtNet      *at_net_new             (int mtu);
/* Without a TUN: for a device moved in later. */
AtNet      *at_net_new_full        (int      mtu,
                                    gboolean with_tun);
/* A thread inside the namespace (for `ip link set … netns TID`). */
pid_t       at_net_tid             (AtNet *net);
void        at_net_free            (AtNet *net);
int         at_net_tun_fd          (AtNet *net);
const char *at_net_proc_net        (AtNet *net);
/* Switch the calling thread into the client namespace and back. */
void        at_enter_client        (AtNet *net);
void        at_leave_client        (void);
/* Runs argv in the client namespace; returns the exit status. */
int         at_net_run             (AtNet       *net,
                                    const char  *const *argv);
/* net.ipv4.tcp_window_scaling of the client namespace (the app's stack;
 * it covers IPv6 too): whether its SYNs offer window scaling. */
void        at_net_set_window_scaling (AtNet   *net,
                                       gboolean on);

typedef struct {
  int          mtu;
  double       loss;              /* each direction, 0..1 */
  int          idle_exit_ms;      /* default -1 */
  int          snapshot_interval_ms;
  const char  *dns_upstream;      /* "IP:PORT" or NULL */
  int          dns_timeout_ms;
  int          udp_idle_ms;       /* default 120000 */
  /* get_uid sleeps this long for flows to this port: stalls the engine thread. */
  guint16      stall_port;
  int          stall_ms;
  const unsigned int *allowed_uids;
  size_t       n_allowed_uids;
  /* Called from the packet hook (reader or engine thread). */
  void       (*observe) (void                   *data,
                         AdbscopeAgentDirection  dir,
                         const EnginePacket     *pkt,
                         const uint8_t          *raw,
                         size_t                  len);
  void        *observe_data;
  /* No packet hook at all (the benchmark: production engines have none). */
  gboolean     no_hook;
  int          pcap_from_start_ms; /* default 0 */
  /* No resolve callback: the engine forwards DNS to these itself (Android
   * before 10); NULL-terminated. */
  const char *const *dns_servers;
  const char  *instance_token;
} AtEngineOptions;

void        at_engine_options_init (AtEngineOptions *opt);
AtEngine   *at_engine_start        (AtNet                 *net,
                                    const AtEngineOptions *opt);
/* Stops (unless it stopped by itself) and frees; returns run()'s result. */
AdbscopeAgentExit at_engine_stop   (AtEngine *engine);
const char *at_engine_socket_name  (AtEngine *engine);
const char *at_engine_pcap_name    (AtEngine *engine);
bool        at_engine_wait_exit    (AtEngine *engine,
                                    int       timeout_ms);
/* TRUE while the engine thread sleeps in a stall_port stall (a condition
 * for adbscope_test_wait_until: takes the AtEngine). */
gboolean    at_engine_stalling     (gpointer  engine);
guint64     at_engine_dropped      (AtEngine *engine,
                                    AdbscopeAgentDirection dir);
guint64     at_engine_passed       (AtEngine *engine);
void        at_engine_count_passed (AtEngine *engine,
                                    gboolean  on);

/* Abstract unix socket client (in the calling thread's namespace). */
int         at_unix_connect        (const char *name);
/* One length-delimited AgentMessage; NULL on EOF/timeout. */
Adbscope__Agent__V1__AgentMessage *at_read_message (int fd,
                                                    int timeout_ms,
                                                    GByteArray *raw_out);
/* recv() of at most @len bytes once @fd is readable within @timeout_ms; -1
 * when it is not. */
gssize at_recv_timeout (int     fd,
                        guint8 *buf,
                        gsize   len,
                        int     timeout_ms);
/* Reads snapshots until @pred is true (returns that snapshot) or timeout. */
typedef gboolean (*AtSnapshotPred) (const AtSnapshot *snap,
                                    gpointer          data);
Adbscope__Agent__V1__AgentMessage *at_wait_snapshot (int             fd,
                                                     AtSnapshotPred  pred,
                                                     gpointer        data,
                                                     int             timeout_ms);
const Adbscope__Agent__V1__Connection *at_find_connection (const AtSnapshot *snap,
                                                           int               protocol,
                                                           const char       *dst,
                                                           guint             dport);
/* The lookup of @name in @snap: NULL, or the test fails (must_). */
const Adbscope__Agent__V1__DnsLookup  *at_find_lookup      (const AtSnapshot *snap,
                                                           const char       *name);
const Adbscope__Agent__V1__DnsLookup  *at_must_find_lookup (const AtSnapshot *snap,
                                                           const char       *name);

/* Deterministic payloads. */
guint8      at_pattern             (guint64 seed,
                                    guint64 i);
void        at_pattern_fill        (guint8 *buf,
                                    gsize   len,
                                    guint64 seed,
                                    guint64 offset);

/* HTTP-ish test server in the test namespace: GET /bytes/N returns N
 * pattern bytes; POST with a pattern body answers "ok N" or "bad …";
 * anything else is read and discarded.  @hold: accept, then read nothing
 * until at_server_release(). */
AtServer   *at_server_new          (const char *addr,
                                    gboolean    hold);
guint16     at_server_port         (AtServer *server);
void        at_server_release      (AtServer *server);
guint64     at_server_sunk         (AtServer *server);
guint64     at_server_held_bytes   (AtServer *server);
gboolean    at_server_held_ok      (AtServer *server);
void        at_server_free         (AtServer *server);

/* Client side: a socket made in the client namespace. */
int         at_client_socket       (AtNet *net,
                                    int    family,
                                    int    type);
int         at_client_connect      (AtNet      *net,
                                    const char *addr,
                                    guint16     port);    /* -errno on failure */
gboolean    at_http_get            (int          fd,
                                    const char  *host,
                                    gsize        n,
                                    GError     **error);
gboolean    at_http_post           (int          fd,
                                    const char  *host,
                                    gsize        n,
                                    GError     **error);
gboolean    at_write_all           (int           fd,
                                    const void   *data,
                                    gsize         len);

/* A UDP echo server, and a DNS server answering NAME A ADDR. */
typedef struct _AtUdpServer AtUdpServer;
AtUdpServer *at_udp_echo_new       (const char *addr);
/* Reads every datagram and answers none (a black hole). */
AtUdpServer *at_udp_sink_new       (const char *addr);
AtUdpServer *at_dns_server_new     (const char *name,
                                    const char *a_addr,
                                    const char *ignore_name);
guint16     at_udp_server_port     (AtUdpServer *server);
/* Datagrams it received. */
guint       at_udp_server_received (AtUdpServer *server);
void        at_udp_server_free     (AtUdpServer *server);

/* A DNS query for NAME (type A) with id @id; returns its length. */
gsize       at_dns_query           (guint8     *buf,
                                    guint16     id,
                                    const char *name);
