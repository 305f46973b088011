/* adbscope-network.h: what the agent told us about the watched app's network */
#pragma once

#include <gio/gio.h>

#include "agent.pb-c.h"
#include "adbscope-parse-agent.h"

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_NET_EVENT_CONNECTION_FAILED,
  ADBSCOPE_NET_EVENT_DNS_FAILED,
} AdbscopeNetEventKind;

/* One event on the session's timeline (time_us on the session's clock,
 * g_get_monotonic_time, like markers and gaps). */
typedef struct
{
  gint64                time_us;
  AdbscopeNetEventKind  kind;
  char                 *subject;  /* "host:port" or the DNS name */
  char                 *code;     /* "CONNECTION_REFUSED", "NXDOMAIN", … */
} AdbscopeNetEvent;

/* A time the link was down (end_us 0 while it lasts), session clock. */
typedef struct
{
  gint64 start_us;
  gint64 end_us;
} AdbscopeNetGap;

/* The agent's counters, summed over every agent run of the session. */
typedef struct
{
  guint64 dropped_queue_full;
  guint64 unsupported_icmp;
  guint64 unsupported_fragments;
  guint64 unsupported_protocol;
  guint64 malformed;
  guint64 errors;
  guint64 pcap_packets;
  guint64 pcap_dropped;
  guint64 clients_rejected;
} AdbscopeNetCounters;

/* What the desktop keeps from the agent's stream is bounded: anything on
 * the phone can bind the agent's socket name, so the stream is hostile
 * input (a stream of fresh connection ids grew the desktop ~6 MB/s).  Far
 * above what a real app's run lists (the agent itself lists at most 1024
 * connections and 512 lookups a snapshot); what is past a cap is counted,
 * not kept (docs/report.md: network.agent.dropped_*). */
#define ADBSCOPE_NETWORK_MAX_CONNECTIONS  20000
#define ADBSCOPE_NETWORK_MAX_DNS          20000
#define ADBSCOPE_NETWORK_MAX_HOSTS        2000
#define ADBSCOPE_NETWORK_MAX_EVENTS       5000
/* the longest text kept from the agent (a host name, an answer) */
#define ADBSCOPE_NETWORK_MAX_TEXT         255
/* bytes a second above which a counter's step is not a rate but a reset
 * (100 Gbit/s, past any phone's link) */
#define ADBSCOPE_NETWORK_MAX_RATE         12.5e9

/* What the caps kept out, and the app counters that went back. */
typedef struct
{
  guint64 connections;   /* fresh connection ids past the cap (each once) */
  guint64 dns;           /* fresh lookup ids past the cap */
  guint64 hosts;         /* hosts of kept connections not listed */
  guint64 events;        /* failure events past the cap */
  guint64 counter_resets;/* app byte counters that went back or jumped past MAX_RATE */
} AdbscopeNetDropped;

#define ADBSCOPE_TYPE_NETWORK (adbscope_network_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeNetwork, adbscope_network, ADBSCOPE, NETWORK, GObject)

AdbscopeNetwork *adbscope_network_new                  (void);
GListModel      *adbscope_network_get_connections      (AdbscopeNetwork                     *self);
GListModel      *adbscope_network_get_hosts            (AdbscopeNetwork                     *self);
GListModel      *adbscope_network_get_dns              (AdbscopeNetwork                     *self);
const GArray    *adbscope_network_get_events           (AdbscopeNetwork                     *self);
const GArray    *adbscope_network_get_gaps             (AdbscopeNetwork                     *self);

void             adbscope_network_begin_run            (AdbscopeNetwork                     *self,
                                                        const Adbscope__Agent__V1__Hello    *hello);
void             adbscope_network_apply_snapshot       (AdbscopeNetwork                     *self,
                                                        const Adbscope__Agent__V1__Snapshot *snapshot,
                                                        gint64                               received_us);
void             adbscope_network_link_lost            (AdbscopeNetwork                     *self,
                                                        gint64                               time_us);
gboolean         adbscope_network_in_gap               (AdbscopeNetwork                     *self);

guint            adbscope_network_get_n_runs           (AdbscopeNetwork                     *self);
guint            adbscope_network_get_n_hellos         (AdbscopeNetwork                     *self);
guint64          adbscope_network_get_n_snapshots      (AdbscopeNetwork                     *self);
guint64          adbscope_network_get_missed_snapshots (AdbscopeNetwork                     *self);
void             adbscope_network_get_dropped          (AdbscopeNetwork                     *self,
                                                        AdbscopeNetDropped                  *dropped);
const char      *adbscope_network_get_agent_version    (AdbscopeNetwork                     *self);
const char      *adbscope_network_get_agent_platform   (AdbscopeNetwork                     *self);
/* The phone's Private DNS setting as the capture read it (a copy), and it
 * back; NULL until read.  Emits ::updated. */
void             adbscope_network_set_private_dns      (AdbscopeNetwork                     *self,
                                                        const AdbscopePrivateDns            *dns);
const AdbscopePrivateDns *adbscope_network_get_private_dns (AdbscopeNetwork                 *self);
void             adbscope_network_get_payload          (AdbscopeNetwork                     *self,
                                                        guint64                             *up,
                                                        guint64                             *down);
void             adbscope_network_get_counters         (AdbscopeNetwork                     *self,
                                                        AdbscopeNetCounters                 *counters);
/* The current agent run's counters only. */
void             adbscope_network_get_run_counters     (AdbscopeNetwork                     *self,
                                                        AdbscopeNetCounters                 *counters);
/* The app's own traffic (IP bytes on the TUN device) over the last
 * snapshot interval; FALSE before two snapshots in a row. */
gboolean         adbscope_network_get_app_rate         (AdbscopeNetwork                     *self,
                                                        gint64                              *time_us,
                                                        double                              *rx_bytes_per_s,
                                                        double                              *tx_bytes_per_s);

void             adbscope_network_set_pcap             (AdbscopeNetwork                     *self,
                                                        const char                          *file);
const char      *adbscope_network_get_pcap_file        (AdbscopeNetwork                     *self);
void             adbscope_network_set_pcap_packets     (AdbscopeNetwork                     *self,
                                                        guint64                              n);
guint64          adbscope_network_get_pcap_packets     (AdbscopeNetwork                     *self);
AdbscopeNetwork *adbscope_network_copy                 (AdbscopeNetwork                     *self);
gint64           adbscope_network_get_clock_offset_us  (AdbscopeNetwork                     *self);
char            *adbscope_net_event_describe           (const AdbscopeNetEvent              *ev);
gint64           adbscope_network_get_time_ms          (AdbscopeNetwork                     *self);

G_END_DECLS
