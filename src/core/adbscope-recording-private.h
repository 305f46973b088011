/* adbscope-recording-private.h: what the writer and the reader share */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "adbscope-recording.h"

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

/* The level of detail a file has (docs/recording.md, `lod`): its levels,
 * finest first, and their bucket widths.  Version 2 files say which
 * levels they hold in meta.lod_levels (level L: 10^L s); version 1 files
 * have 10 s, 100 s and 1000 s numbered 0, 1, 2. */
typedef struct
{
  guint  n;
  int    level[ADBSCOPE_RECORDING_LOD_LEVELS];
  gint64 width_us[ADBSCOPE_RECORDING_LOD_LEVELS];
} AdbscopeRecordingLadder;

void   _adbscope_recording_ladder_init     (AdbscopeRecordingLadder       *ladder,
                                            GHashTable                    *meta);
gint64 _adbscope_recording_ladder_width_us (const AdbscopeRecordingLadder *ladder,
                                            int                            level);
int    _adbscope_recording_ladder_pick     (const AdbscopeRecordingLadder *ladder,
                                            gint64                         interval_us,
                                            gint64                         span_us,
                                            double                         max_rows);

G_END_DECLS
