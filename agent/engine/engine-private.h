/* engine-private.h: the engine's state, shared by its files.  Everything
 * here is owned by the engine thread except what the comments mark. */
#pragma once

#include "adbscope-agent-engine.h"
#include "engine-parse.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* Ring sizes (powers of two).  Without window scaling (the app's SYN did
 * not offer it) no window exceeds 64 KiB: the up ring is 64 KiB, and the
 * down ring holds more than the app's window, so the next window's data is
 * read from the server while the app still digests the last one and the
 * read is off the path from the app's ACK to our next segment.  With
 * scaling (RFC 7323) both rings are larger; see start_connect(). */
#define ENGINE_RING_SIZE        65536u
#define ENGINE_DOWN_RING_SIZE   (4u * ENGINE_RING_SIZE)
#define ENGINE_MAX_WINDOW       65535u   /* without window scaling */
#define ENGINE_SCALED_UP_RING   (512u * 1024u)
#define ENGINE_SCALED_DOWN_RING (1024u * 1024u)
#define ENGINE_RING_IDLE_FREE_MS 1000u   /* empty rings of idle flows go */
#define ENGINE_PEEK_MAX         16384u   /* host attribution looks this far */
#define ENGINE_RTO_MIN_MS       500u
#define ENGINE_RTO_MAX_MS       8000u
#define ENGINE_TCP_MAX_RETRIES  12u
#define ENGINE_LINGER_MS        5000u
#define ENGINE_CLOSED_KEEP_MS   30000u
#define ENGINE_CLOSED_KEEP_MAX  1024u
#define ENGINE_DNS_LOG_MAX      512u
#define ENGINE_DNS_ANSWERS_MAX  8u
#define ENGINE_TICK_MS          100u
#define ENGINE_HASH_BUCKETS     4096u
#define ENGINE_HOST_CACHE_SIZE  2048u
#define ENGINE_CLIENT_OUT_MAX   (8u * 1024u * 1024u)
/* The pcap records kept from the start for the first client: half of what
 * a client may have queued, so the live records after them still fit. */
#define ENGINE_PCAP_EARLY_MAX   (ENGINE_CLIENT_OUT_MAX / 2)
#define ENGINE_MAX_PACKET       65600u
#define ENGINE_MAX_PAYLOAD_IOV  2        /* a ring segment wraps at most once */
#define ENGINE_DNS_SERVERS_MAX  4        /* config.dns_servers taken */

typedef enum {
  ENGINE_EV_WAKE,
  ENGINE_EV_TUN,
  ENGINE_EV_LISTENER,
  ENGINE_EV_CLIENT,
  ENGINE_EV_FLOW,
  ENGINE_EV_DNS_TCP,
  ENGINE_EV_DNS_FWD,
} EngineEvKind;

/* First member of everything registered with epoll. */
typedef struct {
  EngineEvKind kind;
} EngineEv;

/* Values of ConnectionState, HostSource and Failure in agent.proto. */
enum {
  ENGINE_CONN_CONNECTING = 1,
  ENGINE_CONN_OPEN = 2,
  ENGINE_CONN_CLOSING = 3,
  ENGINE_CONN_CLOSED = 4,
  ENGINE_CONN_FAILED = 5,
};

enum {
  ENGINE_HOST_SRC_NONE = 0,
  ENGINE_HOST_SRC_SNI = 1,
  ENGINE_HOST_SRC_HTTP = 2,
  ENGINE_HOST_SRC_DNS = 3,
};

enum {
  ENGINE_FAIL_NONE = 0,
  ENGINE_FAIL_REFUSED = 1,
  ENGINE_FAIL_TIMED_OUT = 2,
  ENGINE_FAIL_HOST_UNREACH = 3,
  ENGINE_FAIL_NET_UNREACH = 4,
  ENGINE_FAIL_RESET_BY_SERVER = 5,
  ENGINE_FAIL_RESET_BY_APP = 6,
  ENGINE_FAIL_SOCKET = 7,
  ENGINE_FAIL_PROTECT = 8,
  ENGINE_FAIL_IDLE = 9,
  ENGINE_FAIL_ABORTED = 10,
};

typedef enum {
  ENGINE_TCP_CONNECTING,          /* real connect in progress, SYN unanswered */
  ENGINE_TCP_SYN_RCVD,            /* SYN-ACK sent */
  ENGINE_TCP_ESTABLISHED,         /* including half-closed states: see flags */
  ENGINE_TCP_DONE,                /* closed; lingers to answer stray segments */
} EngineTcpState;

typedef struct _EngineSeg EngineSeg;
struct _EngineSeg {
  EngineSeg *next;
  uint32_t   seq;
  uint32_t   len;
  bool       fin;
  uint8_t    data[];
};

typedef struct {
  uint8_t  *buf;                  /* allocated on use */
  uint32_t  size;                 /* a power of two */
  uint32_t  start;
  uint32_t  len;
} EngineRing;

typedef struct {
  EngineTcpState state;
  uint16_t   mss;                 /* largest segment we send to the app */

  /* Window scaling (RFC 7323): on when the app's SYN offered it. */
  bool       wscale;
  uint8_t    snd_wscale;          /* the app's shift: its window fields << this */
  uint8_t    rcv_wscale;          /* ours: our window fields are bytes >> this */
  uint32_t   up_size;             /* ring sizes of this flow's mode */
  uint32_t   down_size;

  /* app → server */
  uint32_t   irs;
  uint32_t   rcv_nxt;
  EngineRing up;                  /* accepted from the app, not yet written */
  EngineSeg *ooo;                 /* out of order, sorted by seq */
  uint32_t   ooo_bytes;
  uint32_t   rcv_wnd_max;         /* the window when the up ring is empty */
  uint16_t   adv_wnd;             /* the window field we last sent */
  uint32_t   rcv_adv_edge;        /* the right edge it announced */
  bool       app_fin;             /* the app's FIN arrived in order */
  bool       shut_wr;

  /* server → app */
  uint32_t   iss;
  uint32_t   snd_una;
  uint32_t   snd_nxt;
  EngineRing down;                /* starts at snd_una: unacked, then unsent */
  uint32_t   snd_wnd;             /* the app's window, in bytes */
  bool       server_eof;
  bool       fin_sent;
  bool       fin_acked;

  /* retransmission */
  uint64_t   rto_at_us;           /* 0: not armed */
  uint32_t   rto_ms;
  unsigned   retries;
  unsigned   dupacks;
  uint16_t   dupack_wnd;          /* the window field of the app's last ACK */
  bool       in_recovery;
  uint32_t   recover;
  uint64_t   linger_until_us;

  /* The server socket is registered edge-triggered: what the last event
   * said and no read/write since has contradicted. */
  bool       server_readable;
  bool       server_writable;
  bool       server_rdhup;        /* its FIN (or an error) is pending */

  /* In-order data from the app is acknowledged once per batch of packets,
   * after it was written to the server (engine_tcp_pending). */
  bool       ack_pending;
} EngineTcp;

typedef struct _EngineFlow EngineFlow;
struct _EngineFlow {
  EngineEv             ev;
  AdbscopeAgentFlowKey key;
  EngineFlow          *hnext;
  EngineFlow          *prev;
  EngineFlow          *next;
  uint64_t             id;
  int                  fd;
  uint32_t             ep_events;
  bool                 in_hash;
  bool                 closed;      /* on the closed list */
  bool                 fake_dns;
  int                  uid;
  int                  app;         /* index in engine->apps */
  char                 host[256];
  uint8_t              host_source;
  uint8_t             *peek;
  uint32_t             peek_len;
  bool                 peek_done;
  uint8_t              state;
  uint8_t              failure;
  int                  failure_errno;
  uint64_t             bytes_up, bytes_down, packets_up, packets_down;
  uint64_t             payload_up, payload_down;
  uint32_t             retransmissions;
  uint64_t             open_ms;
  uint64_t             close_ms;
  uint64_t             last_us;
  EngineTcp           *tcp;
  /* On the engine's list of flows to finish after the current batch. */
  EngineFlow          *pending_next;
  bool                 pending;
};

typedef struct {
  int      uid;
  uint64_t bytes_up, bytes_down, packets_up, packets_down;
  uint32_t open;
  uint64_t total;
} EngineApp;

typedef struct _EngineDnsPending EngineDnsPending;
struct _EngineDnsPending {
  EngineEv             ev;        /* ENGINE_EV_DNS_FWD, for fwd_fd */
  EngineDnsPending    *next;
  uint64_t             id;
  AdbscopeAgentFlowKey key;       /* the app's query flow (UDP, or the TCP one) */
  uint64_t             tcp_id;    /* its EngineDnsTcp, 0 for UDP */
  /* Forwarded to config.dns_servers (no resolve_dns): one protected UDP
   * socket per address family, -1 when unused. */
  int                  fwd_fd[2];
  uint8_t             *query;
  size_t               query_len;
  uint64_t             start_us;
  uint64_t             time_ms;
};

/* DNS over TCP to the fake resolver: the flow's "server" socket is one end
 * of a socketpair, and this is the other end, where the engine reads the
 * app's length-prefixed queries and writes the answers (RFC 7766). */
typedef struct _EngineDnsTcp EngineDnsTcp;
struct _EngineDnsTcp {
  EngineEv             ev;        /* ENGINE_EV_DNS_TCP */
  EngineDnsTcp        *next;
  uint64_t             id;
  int                  fd;
  AdbscopeAgentFlowKey key;       /* the app's TCP flow */
  uint8_t             *in;        /* 2 + 65535 bytes */
  size_t               in_len;
  uint8_t             *out;
  size_t               out_len;
  size_t               out_off;
  size_t               out_cap;
  unsigned             pending;   /* queries not answered yet */
  bool                 eof;       /* the app will send no more */
  uint32_t             ep_events;
};

/* Handed over from other threads under dns_lock. */
typedef struct _EngineDnsAnswer EngineDnsAnswer;
struct _EngineDnsAnswer {
  EngineDnsAnswer *next;
  uint64_t         id;
  size_t           len;
  uint8_t          data[];
};

typedef struct {
  uint64_t id;
  int      uid;
  char     name[ENGINE_DNS_NAME_MAX];
  uint16_t qtype;
  char     answers[ENGINE_DNS_ANSWERS_MAX][64];
  unsigned n_answers;
  uint64_t latency_us;
  uint8_t  result;
  uint8_t  rcode;
  uint64_t time_ms;
  bool     via_fake;
} EngineDnsRecord;

typedef struct {
  uint8_t ip_version;
  uint8_t addr[16];
  char    name[ENGINE_DNS_NAME_MAX];
} EngineHostEntry;

typedef struct {
  EngineEv ev;
  int      fd;
  bool     pcap;
} EngineListener;

typedef struct _EngineClient EngineClient;
struct _EngineClient {
  EngineEv      ev;
  EngineClient *next;
  int           fd;
  bool          pcap;
  uint32_t      ep_events;
  uint8_t      *out;              /* bytes being sent */
  size_t        out_len;
  size_t        out_off;
  size_t        out_cap;
  uint8_t      *slot;             /* the next snapshot frame, replaced if unsent */
  size_t        slot_len;
};

typedef struct {
  uint64_t packets_read, bytes_read, packets_written, bytes_written;
  uint64_t unsupported_icmp, unsupported_fragments, unsupported_protocol;
  uint64_t malformed, errors;
  uint64_t tcp_total, udp_total, rst_unknown;
  uint64_t retransmissions, fast_retransmissions;
  uint64_t dns_queries, dns_failures;
  uint64_t pcap_packets, pcap_dropped, clients_rejected;
  uint64_t fake_resolver_refused, fake_resolver_tcp;
} EngineCounters;

typedef struct _EngineQPkt {
  size_t   len;
  uint64_t wall_us;               /* for the pcap timestamp */
  uint8_t  data[];
} EngineQPkt;

struct _AdbscopeAgentEngine {
  AdbscopeAgentConfig    config;
  AdbscopeAgentCallbacks cb;
  unsigned int          *allowed_uids;
  char                  *socket_name;
  char                  *pcap_socket_name;
  char                  *agent_version;
  char                  *platform;
  char                  *instance_token;
  /* config.dns_servers, parsed (port 53 unless the test build said else) */
  struct sockaddr_storage dns_servers[ENGINE_DNS_SERVERS_MAX];
  socklen_t              dns_server_lens[ENGINE_DNS_SERVERS_MAX];
  unsigned               n_dns_servers;
  EngineDnsTcp          *dns_tcp;
  uint64_t               next_dns_tcp_id;

  int                    tun_fd;
  int                    epfd;
  int                    wake_fd;       /* eventfd: packets, DNS answers, stop */
  int                    reader_stop_fd;
  int                    reader_wake_fd; /* eventfd: the engine has work again */
  EngineEv               wake_ev;
  /* The engine reads the TUN itself while it waits for it (see run()). */
  EngineEv               tun_ev;
  bool                   tun_direct;
  struct _EngineQPkt    *engine_spare;
  atomic_bool            stop;
  pthread_t              reader;
  bool                   reader_started;

  /* The reader's queue: shared with the reader thread, under qlock. */
  pthread_mutex_t        qlock;
  EngineQPkt           **q;
  unsigned               q_head;
  unsigned               q_len;
  /* The engine is in (or about to enter) epoll_wait(): only then does a
   * packet need the eventfd.  See run(). */
  atomic_bool            engine_idle;
  /* Counts the engine's rounds: the reader takes over the TUN only when it
   * stands still while the engine is busy (a stall).  See reader_main(). */
  atomic_uint_fast64_t   engine_beat;
  /* The reader sleeps without a timeout (the engine was idle a while): the
   * engine wakes it with reader_wake_fd when it has work again. */
  atomic_bool            reader_asleep;
  atomic_uint_fast64_t   dropped_queue_full;

  /* Shared with any thread, under dns_lock. */
  pthread_mutex_t        dns_lock;
  EngineDnsAnswer       *answers;
  EngineDnsAnswer      **answers_tail;

  EngineFlow           **hash;
  EngineFlow            *pending;       /* see engine_flow_defer */
  /* c.packets_written when the engine last found the TUN empty, moved on by
   * one for each packet read since: see
   * engine_tun_burst_spent(). */
  uint64_t               tun_empty_mark;
  EngineFlow            *live;
  EngineFlow            *closed_head;   /* oldest first */
  EngineFlow            *closed_tail;
  unsigned               n_closed;
  unsigned               tcp_open;
  unsigned               udp_open;
  uint64_t               next_flow_id;

  EngineDnsPending      *dns_pending;
  uint64_t               next_dns_id;
  EngineDnsRecord       *dns_log;       /* ring of ENGINE_DNS_LOG_MAX */
  unsigned               dns_log_start;
  unsigned               dns_log_len;
  uint64_t               next_dns_record_id;
  EngineHostEntry       *hosts;

  EngineApp             *apps;
  unsigned               n_apps;

  EngineCounters         c;

  EngineListener         snap_listener;
  EngineListener         pcap_listener;
  EngineClient          *clients;
  unsigned               n_clients;
  unsigned               n_pcap_clients;
  uint64_t               last_client_left_us;
  /* the pcap records from the start, queued as for a client until the
   * first pcap client comes (config.pcap_from_start_ms; NULL once it came
   * or the time is over): at most ENGINE_PCAP_EARLY_MAX bytes */
  EngineClient          *pcap_early;
  uint64_t               pcap_early_packets;

  uint64_t               start_us;
  uint64_t               start_ms;
  uint64_t               next_tick_us;
  uint64_t               next_snapshot_us;
  uint64_t               snapshot_seq;

  uint8_t               *pkt_buf;       /* packets built by the engine thread */
  uint8_t               *io_buf;        /* socket reads (UDP) */
};

/* Whether the packets crossing the TUN go to the pcap: a client is
 * connected, or they are kept from the start for the first one. */
static inline bool
engine_pcap_wanted (const AdbscopeAgentEngine *e)
{
  return e->n_pcap_clients > 0 || e->pcap_early != NULL;
}

/* engine.c */
uint64_t    engine_now_us             (AdbscopeAgentEngine *e);
uint64_t    engine_wall_us            (AdbscopeAgentEngine *e);
void        engine_log                (AdbscopeAgentEngine  *e,
                                       AdbscopeAgentLogLevel level,
                                       const char           *fmt,
                                       ...) __attribute__ ((format (printf, 3, 4)));
void        engine_send               (AdbscopeAgentEngine *e,
                                       EnginePacket        *pkt);
void        engine_reply              (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       EnginePacket        *pkt);
/* The same with the payload in up to ENGINE_MAX_PAYLOAD_IOV pieces, sent
 * with writev() (copied only for the test hook or a pcap client);
 * pkt->payload_len must be their total. */
void        engine_send_iov           (AdbscopeAgentEngine *e,
                                       EnginePacket        *pkt,
                                       const struct iovec  *payload,
                                       int                  n_payload);
void        engine_reply_iov          (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       EnginePacket        *pkt,
                                       const struct iovec  *payload,
                                       int                  n_payload);
EngineFlow *engine_flow_lookup        (AdbscopeAgentEngine        *e,
                                       const AdbscopeAgentFlowKey *key);
EngineFlow *engine_flow_new           (AdbscopeAgentEngine        *e,
                                       const AdbscopeAgentFlowKey *key);
void        engine_flow_unhash        (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow);
void        engine_flow_finish        (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint8_t              state,
                                       uint8_t              failure,
                                       int                  err);
/* Queue @flow's socket writes, reads and ACK for the end of the current
 * batch of packets from the app, so a burst costs one write(), one read()
 * and one ACK instead of one per segment. */
void        engine_flow_defer         (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow);
void        engine_flow_account_up    (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       size_t               ip_len,
                                       size_t               payload_len);
int         engine_flow_set_events    (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint32_t             events);
void        engine_flow_close_fd      (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow);
int         engine_flow_socket        (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       int                  type);
void        engine_flow_peek          (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       const uint8_t       *data,
                                       size_t               len);
void        engine_host_cache_put     (AdbscopeAgentEngine *e,
                                       uint8_t              ip_version,
                                       const uint8_t       *addr,
                                       const char          *name);
const char *engine_host_cache_get     (AdbscopeAgentEngine *e,
                                       uint8_t              ip_version,
                                       const uint8_t       *addr);
uint8_t     engine_failure_from_errno (int err);

/* engine-tcp.c */
void        engine_tcp_input          (AdbscopeAgentEngine *e,
                                       EnginePacket        *pkt);
void        engine_tcp_event          (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint32_t             events);
void        engine_tcp_tick           (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint64_t             now_us);
/* Every segment the engine writes to the app may draw an ACK (the app's
 * kernel acknowledges each segment in quick-ACK mode), and the app's
 * packets wait in the TUN's queue until the engine reads them: 500 packets
 * (the TUN's default txqueuelen, on Linux and on Android, where a VPN app
 * cannot change it), and what does not fit is dropped.  So the engine
 * writes at most ENGINE_TUN_BURST packets before it has seen the TUN empty
 * again; a flow with more to send waits on the pending list meanwhile. */
#define ENGINE_TUN_BURST 192u

static inline bool
engine_tun_burst_spent (const AdbscopeAgentEngine *e)
{
  return e->c.packets_written - e->tun_empty_mark >= ENGINE_TUN_BURST;
}

void        engine_tcp_pending        (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow);
void        engine_tcp_free           (EngineTcp *tcp);

/* engine-udp.c */
void        engine_udp_input          (AdbscopeAgentEngine *e,
                                       EnginePacket        *pkt);
void        engine_udp_event          (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint32_t             events);
void        engine_udp_tick           (AdbscopeAgentEngine *e,
                                       EngineFlow          *flow,
                                       uint64_t             now_us);
void        engine_dns_process_answers (AdbscopeAgentEngine *e);
void        engine_dns_tick           (AdbscopeAgentEngine *e,
                                       uint64_t             now_us);
void        engine_dns_free_all       (AdbscopeAgentEngine *e);
bool        engine_is_fake_resolver   (AdbscopeAgentEngine *e,
                                       uint8_t              ip_version,
                                       const uint8_t       *dst);
/* The engine end of a DNS-over-TCP flow's socketpair; -1 with errno set. */
int         engine_dns_tcp_open       (AdbscopeAgentEngine        *e,
                                       const AdbscopeAgentFlowKey *key);
void        engine_dns_tcp_event      (AdbscopeAgentEngine *e,
                                       EngineDnsTcp        *conn,
                                       uint32_t             events);
void        engine_dns_fwd_event      (AdbscopeAgentEngine *e,
                                       EngineDnsPending    *p);

/* engine-server.c */
int         engine_server_open        (AdbscopeAgentEngine *e,
                                       char                *error,
                                       size_t               error_len);
void        engine_server_close       (AdbscopeAgentEngine *e);
void        engine_server_accept      (AdbscopeAgentEngine *e,
                                       EngineListener      *l);
void        engine_client_event       (AdbscopeAgentEngine *e,
                                       EngineClient        *client,
                                       uint32_t             events);
void        engine_server_flush       (AdbscopeAgentEngine *e);
void        engine_pcap_early_expire  (AdbscopeAgentEngine *e,
                                       uint64_t             now_us);
void        engine_snapshot_publish   (AdbscopeAgentEngine *e);
void        engine_pcap_packet        (AdbscopeAgentEngine *e,
                                       const uint8_t       *data,
                                       size_t               len,
                                       uint64_t             wall_us);
