/* adbscope-report-network.h: the report's network.agent section (docs/report.md) */
#pragma once

#include <json-glib/json-glib.h>

#include "adbscope-session.h"

G_BEGIN_DECLS

/* Connections listed besides the failed ones: the top ones by bytes. */
#define ADBSCOPE_REPORT_TOP_CONNECTIONS 20

/* @session NULL: the skeleton (every key, no data). */
JsonObject *adbscope_report_network_agent (AdbscopeSession *session);

G_END_DECLS
