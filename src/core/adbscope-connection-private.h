/* adbscope-connection-private.h: how the network model fills a connection */
#pragma once

#include "adbscope-connection.h"
#include "agent.pb-c.h"

G_BEGIN_DECLS

AdbscopeConnection *_adbscope_connection_new    (guint                                   agent_run,
                                                 const Adbscope__Agent__V1__Connection *c);
/* Returns TRUE when anything changed (each change is notified). */
gboolean            _adbscope_connection_update (AdbscopeConnection                    *self,
                                                 const Adbscope__Agent__V1__Connection *c);
/* "CONNECTION_REFUSED" for FAILURE_CONNECTION_REFUSED: the enum value's
 * name without the type prefix; NULL for value 0 or one this build does
 * not know (then "UNKNOWN_<n>" is in @buf). */
const char         *_adbscope_agent_enum_name   (const ProtobufCEnumDescriptor         *desc,
                                                 int                                    value,
                                                 char                                  *buf,
                                                 gsize                                  buf_len);
AdbscopeConnection *_adbscope_connection_copy   (AdbscopeConnection                    *self);
char               *_adbscope_endpoint_to_string (const Adbscope__Agent__V1__Endpoint  *ep,
                                                  gboolean                              with_port);

G_END_DECLS
