/* adbscope-sim-net-parse.h: parsers of the device's servers (pure) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *adbscope_sim_http_header        (const char   *head,
                                           const char   *name);
/* 1: a complete ClientHello (*sni set, or NULL without server_name),
 * 0: need more bytes, -1: not a ClientHello this parser reads (one record). */
int       adbscope_sim_parse_client_hello (const guint8 *data,
                                           gsize         len,
                                           char        **sni);
/* A query's one question: its name (lower case, dotted), type and where the
 * question ends; FALSE for a response or anything malformed. */
gboolean  adbscope_sim_parse_dns_question (const guint8 *msg,
                                           gsize         len,
                                           char        **name,
                                           guint        *qtype,
                                           gsize        *end);

G_END_DECLS
