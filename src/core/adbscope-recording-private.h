/* adbscope-recording-private.h: what the writer and the reader share */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* frames.frame_ms is float32 little-endian; in place both ways. */
void _adbscope_recording_floats_to_le (float *values,
                                       gsize  n);

/* The reader's side (adbscope-run.c): open with a clear error, the meta
 * checked against the schema version, and the first sample rowid at or
 * after a time (rows are appended in time order to within this slack). */
#define ADBSCOPE_RECORDING_ROWID_SLACK_US (20 * G_USEC_PER_SEC)

sqlite3    *_adbscope_recording_open_db   (const char  *path,
                                           GError     **error);
GHashTable *_adbscope_recording_read_meta (sqlite3     *db,
                                           const char  *path,
                                           GError     **error);
gint64      _adbscope_recording_rowid_at  (sqlite3     *db,
                                           gint64       t_us);

G_END_DECLS
