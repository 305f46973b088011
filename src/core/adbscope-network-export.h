/* adbscope-network-export.h: a capture's packets and connections written out for other tools */
#pragma once

#include <gio/gio.h>

#include "adbscope-connection.h"
#include "adbscope-network.h"

G_BEGIN_DECLS

/* Which packets of a capture file go into an export. */
typedef struct
{
  /* Agent wall time in µs (the pcap's own timestamps); from 0 and to
   * G_MAXINT64 take everything. */
  gint64              from_us;
  gint64              to_us;
  /* Only the packets of this connection (both directions), or NULL. */
  AdbscopeConnection *connection;
} AdbscopePcapSelection;

/* Called from the worker thread with the share of the source read so far. */
typedef void (*AdbscopeExportProgress) (double   fraction,
                                        gpointer user_data);

gboolean adbscope_pcap_export_sync       (const char                  *source,
                                          const char                  *destination,
                                          const AdbscopePcapSelection *selection,
                                          AdbscopeExportProgress       progress,
                                          gpointer                     progress_data,
                                          guint64                     *n_packets,
                                          GCancellable                *cancellable,
                                          GError                     **error);
/* The same in a thread; @progress is called from that thread. */
void     adbscope_pcap_export_async      (const char                  *source,
                                          const char                  *destination,
                                          const AdbscopePcapSelection *selection,
                                          AdbscopeExportProgress       progress,
                                          gpointer                     progress_data,
                                          GCancellable                *cancellable,
                                          GAsyncReadyCallback          callback,
                                          gpointer                     user_data);
gboolean adbscope_pcap_export_finish     (GAsyncResult                *result,
                                          guint64                     *n_packets,
                                          GError                     **error);

/* One CSV row per connection of @connections (columns in docs/report.md). */
char    *adbscope_connections_to_csv     (GListModel                  *connections);
gboolean adbscope_connections_write_csv  (GListModel                  *connections,
                                          const char                  *path,
                                          GError                     **error);

G_END_DECLS
