/* adbscope-sim-wire.h: pure parsers for the bytes the host sends
 *
 * No I/O here, so each one has a fuzz target (tests/sim/fuzz-sim-wire.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint32       command;
  guint32       arg0;
  guint32       arg1;
  const guint8 *data;      /* points into the input */
  guint32       length;
} AdbscopeSimPacket;

/* One transport packet: returns the bytes it used, 0 when more are needed,
 * -1 when the header is not a packet (bad magic, too long). */
gssize adbscope_sim_wire_parse_packet (const guint8      *data,
                                       gsize              len,
                                       guint32            max_payload,
                                       AdbscopeSimPacket *packet);

/* One shell-protocol v2 packet (u8 id, u32le length, data): same returns. */
gssize adbscope_sim_wire_parse_shell  (const guint8      *data,
                                       gsize              len,
                                       guint8            *id,
                                       const guint8     **payload,
                                       guint32           *payload_len);

/* One sync request ("ID" u32le length payload; "DONE" carries an mtime and
 * no payload): same returns; -1 also for a length over max_len. */
gssize adbscope_sim_wire_parse_sync   (const guint8      *data,
                                       gsize              len,
                                       guint32            max_len,
                                       char               id[5],
                                       guint32           *value,
                                       const guint8     **payload);

/* "/a/../b" → root + "/b": never above root. */
char  *adbscope_sim_wire_resolve_path (const char        *root,
                                       const char        *path);

G_END_DECLS
