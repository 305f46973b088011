/* adbscope-recording.h: a run streamed into an SQLite file (docs/recording.md)
 *
 * The main loop only appends rows to a batch in memory; once a second the
 * batch goes to a writer thread that commits it in one transaction (WAL), so
 * a crash loses at most the last interval and the file always opens.
 * Times given to it are host monotonic microseconds; the file stores them
 * relative to the run's start (adbscope_recording_begin()).
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "adbscope-frames-collector.h"
#include "adbscope-delta.h"
#include "adbscope-parse-gfxinfo.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

#define ADBSCOPE_RECORDING_SCHEMA   "adbscope-recording/3"
#define ADBSCOPE_RECORDING_VERSION  3
/* The first version whose frames rows say where each interval's FPS came
 * from (source, sf_*); older files open with what they can tell
 * (docs/recording.md). */
#define ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION 3
#define ADBSCOPE_RECORDING_SUFFIX   ".adbscope"
/* Level-of-detail bucket widths: level L holds min/max of 10^L s (level 0,
 * 1 s, only in runs sampled faster than once a second; version 1 files
 * numbered 10 s, 100 s, 1000 s as levels 0, 1, 2). */
#define ADBSCOPE_RECORDING_LOD_LEVELS 4

#define ADBSCOPE_TYPE_RECORDING (adbscope_recording_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeRecording, adbscope_recording, ADBSCOPE, RECORDING, GObject)

/**
 * AdbscopeRecordingFlags:
 * @ADBSCOPE_RECORDING_PRIVATE: only this connection reads or writes the
 *   file while it is written (`record`): SQLite's exclusive locking mode,
 *   so the WAL index lives in the heap, not in a memory-mapped -shm file
 *   whose pages kill the process with SIGBUS once the file cannot be
 *   written (chattr +i).  Without it other connections (the window's live
 *   view) read the file while it grows.
 */
typedef enum
{
  ADBSCOPE_RECORDING_DEFAULT = 0,
  ADBSCOPE_RECORDING_PRIVATE = 1 << 0,
} AdbscopeRecordingFlags;

AdbscopeRecording *adbscope_recording_create        (const char         *path,
                                                     GError            **error);
AdbscopeRecording *adbscope_recording_create_full   (const char         *path,
                                                     AdbscopeRecordingFlags flags,
                                                     GError            **error);
const char        *adbscope_recording_get_path      (AdbscopeRecording  *self);
void               adbscope_recording_begin         (AdbscopeRecording  *self,
                                                     gint64              origin_us,
                                                     GDateTime          *start,
                                                     const char         *serial,
                                                     const char         *package,
                                                     guint               interval_ms,
                                                     JsonObject         *device,
                                                     JsonObject         *sources);
gboolean           adbscope_recording_has_begun     (AdbscopeRecording  *self);
void               adbscope_recording_set_meta      (AdbscopeRecording  *self,
                                                     const char         *key,
                                                     const char         *value);
/* Series are named by report path ("cpu.app_pct", "cpu.core3_pct"). */
void               adbscope_recording_add_sample    (AdbscopeRecording  *self,
                                                     const char         *path,
                                                     const char         *unit,
                                                     gint64              time_us,
                                                     double              value);
void               adbscope_recording_add_tick      (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     double              dt_s,
                                                     gboolean            app_running,
                                                     gint64              pid);
void               adbscope_recording_add_restart   (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     gint64              pid);
void               adbscope_recording_add_marker    (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     const char         *label);
void               adbscope_recording_gap_started   (AdbscopeRecording  *self,
                                                     gint64              start_us);
void               adbscope_recording_gap_ended     (AdbscopeRecording  *self,
                                                     gint64              start_us,
                                                     gint64              end_us);
void               adbscope_recording_gap_cancelled (AdbscopeRecording  *self,
                                                     gint64              start_us);
void               adbscope_recording_add_frames    (AdbscopeRecording  *self,
                                                     const AdbscopeFramesSample *sample);
/* @usage NULL: the app has no threads now (it is not running). */
void               adbscope_recording_add_threads   (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     const GArray       *usage);
void               adbscope_recording_add_system    (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     const AdbscopeSystemState *state);
void               adbscope_recording_add_screenshot (AdbscopeRecording *self,
                                                     gint64              time_us,
                                                     GBytes             *png,
                                                     double              cost_ms,
                                                     double              cpu_ms,
                                                     guint               width,
                                                     guint               height,
                                                     gboolean            at_marker);
/* The network capture's hook (the agent link writes these). */
void               adbscope_recording_add_connection (AdbscopeRecording *self,
                                                     gint64              start_us,
                                                     gint64              end_us,
                                                     const char         *protocol,
                                                     const char         *local,
                                                     const char         *remote,
                                                     const char         *host,
                                                     gint64              uid,
                                                     gint64              rx_bytes,
                                                     gint64              tx_bytes);
void               adbscope_recording_add_dns       (AdbscopeRecording  *self,
                                                     gint64              time_us,
                                                     const char         *name,
                                                     const char         *type,
                                                     const char         *answers);
/* Hands what is pending to the writer thread (also done once a second). */
void               adbscope_recording_flush         (AdbscopeRecording  *self);
/* Final flush, end time, checkpoint; waits for the writer.  Reports the
 * first write error of the whole run (a failed commit or checkpoint, or
 * the file removed or replaced under the writer). */
gboolean           adbscope_recording_close         (AdbscopeRecording  *self,
                                                     gint64              end_us,
                                                     GError            **error);

char              *adbscope_recording_default_dir   (void);
char              *adbscope_recording_default_name  (const char         *package,
                                                     GDateTime          *start);
char              *adbscope_recording_path_beside   (const char         *report_path);
AdbscopeRecording *adbscope_recording_create_unique (const char         *base,
                                                     char              **path_out,
                                                     GError            **error);
AdbscopeRecording *adbscope_recording_create_unique_full (const char    *base,
                                                     AdbscopeRecordingFlags flags,
                                                     char              **path_out,
                                                     GError            **error);
void               adbscope_recording_remove_files  (const char         *path);

G_END_DECLS
