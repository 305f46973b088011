/* adbscope-report-network.h: the report's network.agent section (docs/report.md) */
#pragma once

#include <json-glib/json-glib.h>

#include "adbscope-session.h"

G_BEGIN_DECLS

/* Connections listed besides the failed ones: the top ones by bytes. */
#define ADBSCOPE_REPORT_TOP_CONNECTIONS 20

/* Every other list of the section (hosts, failed connections, failed
 * lookups, events) lists at most this many; "…_not_listed" counts the
 * rest (a hostile agent's stream made a 126 MB report). */
#define ADBSCOPE_REPORT_MAX_LISTED 500

/* @session NULL: the skeleton (every key, no data). */
JsonObject *adbscope_report_network_agent    (AdbscopeSession *session);
/* The same for @net (NULL: the skeleton), times against @start_us. */
JsonObject *adbscope_report_network_agent_of (AdbscopeNetwork *net,
                                              gint64           start_us);

G_END_DECLS
