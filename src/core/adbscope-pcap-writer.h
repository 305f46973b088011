/* adbscope-pcap-writer.h: the agent's pcap stream(s) into one file, whole records only */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AdbscopePcapWriter AdbscopePcapWriter;

AdbscopePcapWriter *adbscope_pcap_writer_new          (const char          *path,
                                                       GError             **error);
/* A new stream starts (its own pcap global header first). */
void                adbscope_pcap_writer_begin_stream (AdbscopePcapWriter  *self);
/* Bytes as they arrive; complete records go to the file at once. */
gboolean            adbscope_pcap_writer_feed         (AdbscopePcapWriter  *self,
                                                       const guint8        *data,
                                                       gsize                len,
                                                       GError             **error);
guint64             adbscope_pcap_writer_get_packets  (AdbscopePcapWriter  *self);
guint64             adbscope_pcap_writer_get_stream_packets (AdbscopePcapWriter *self);
guint64             adbscope_pcap_writer_get_bytes    (AdbscopePcapWriter  *self);
const char         *adbscope_pcap_writer_get_path     (AdbscopePcapWriter  *self);
void                adbscope_pcap_writer_free         (AdbscopePcapWriter  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopePcapWriter, adbscope_pcap_writer_free)

G_END_DECLS
