/* adbscope-agent-link.h: the desktop's connection to the on-phone agent */
#pragma once

#include <gio/gio.h>

#include "adbscope-network.h"

G_BEGIN_DECLS

#define ADBSCOPE_AGENT_SOCKET      "adbscope-agent"
#define ADBSCOPE_AGENT_PCAP_SOCKET "adbscope-agent-pcap"

#define ADBSCOPE_TYPE_AGENT_LINK (adbscope_agent_link_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeAgentLink, adbscope_agent_link, ADBSCOPE, AGENT_LINK, GObject)

AdbscopeAgentLink *adbscope_agent_link_new             (const char         *serial,
                                                        AdbscopeNetwork    *network);
/* Connect to these addresses instead of through adb forwards (tests:
 * the agent's abstract sockets in this network namespace). */
void               adbscope_agent_link_set_addresses   (AdbscopeAgentLink  *self,
                                                        GSocketAddress     *snapshots,
                                                        GSocketAddress     *pcap);
gboolean           adbscope_agent_link_set_pcap_file   (AdbscopeAgentLink  *self,
                                                        const char         *path,
                                                        GError            **error);
void               adbscope_agent_link_start           (AdbscopeAgentLink  *self);
void               adbscope_agent_link_stop            (AdbscopeAgentLink  *self);
gboolean           adbscope_agent_link_is_connected    (AdbscopeAgentLink  *self);
/* Hellos received after the first (reconnects). */
guint              adbscope_agent_link_get_reconnects  (AdbscopeAgentLink  *self);
/* The error that made the link give up (an agent we must not talk to). */
const GError      *adbscope_agent_link_get_error       (AdbscopeAgentLink  *self);
/* The last reason a connection attempt failed (for logs), or NULL. */
const char        *adbscope_agent_link_get_last_problem (AdbscopeAgentLink *self);
guint64            adbscope_agent_link_get_pcap_packets (AdbscopeAgentLink *self);
/* Packets of the current pcap connection (the agent counts per run). */
guint64            adbscope_agent_link_get_pcap_stream_packets (AdbscopeAgentLink *self);
gboolean           adbscope_agent_check_hello          (const Adbscope__Agent__V1__Hello *hello,
                                                        GError            **error);
/* The same, and with @token the Hello must echo it (else agent_impostor). */
gboolean           adbscope_agent_check_hello_token    (const Adbscope__Agent__V1__Hello *hello,
                                                        const char        *token,
                                                        GError            **error);
/* The instance token given to the agent (`am start … -e token T`): a
 * Hello without it is refused (another app took the socket name). */
void               adbscope_agent_link_set_token       (AdbscopeAgentLink  *self,
                                                        const char         *token);

G_END_DECLS
