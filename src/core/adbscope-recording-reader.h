/* adbscope-recording-reader.h: time ranges of a recording, for charts
 *
 * One read-only connection to a recording (finished, or still being
 * written by this or another process), answering "the rows of series S
 * over [from, to]" either as samples or from the level of detail the
 * writer keeps (docs/recording.md, `lod`).  Times are µs since the run's
 * start, as in the file.
 */
#pragma once

#include <gio/gio.h>

#include "adbscope-run.h"
#include "adbscope-series.h"

G_BEGIN_DECLS

/* Level for adbscope_recording_reader_read(): the samples themselves. */
#define ADBSCOPE_RECORDING_LEVEL_SAMPLES (-1)

#define ADBSCOPE_TYPE_RECORDING_READER (adbscope_recording_reader_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeRecordingReader, adbscope_recording_reader, ADBSCOPE, RECORDING_READER, GObject)

AdbscopeRecordingReader *adbscope_recording_reader_new          (const char              *path,
                                                                 GError                 **error);
const char              *adbscope_recording_reader_get_path     (AdbscopeRecordingReader *self);
gint64                   adbscope_recording_reader_get_interval_us (AdbscopeRecordingReader *self);
int                      adbscope_recording_reader_pick_level   (AdbscopeRecordingReader *self,
                                                                 gint64                   span_us,
                                                                 guint                    width);
gint64                   adbscope_recording_reader_get_level_width_us (AdbscopeRecordingReader *self,
                                                                       int                      level);
GArray                  *adbscope_recording_reader_read         (AdbscopeRecordingReader *self,
                                                                 const char              *series_path,
                                                                 int                      level,
                                                                 gint64                   from_us,
                                                                 gint64                   to_us,
                                                                 gint64                  *complete_to_us);
gboolean                 adbscope_recording_reader_get_last     (AdbscopeRecordingReader *self,
                                                                 const char              *series_path,
                                                                 gboolean                 finite,
                                                                 AdbscopeSample          *sample);
gboolean                 adbscope_recording_reader_find_nearest (AdbscopeRecordingReader *self,
                                                                 const char              *series_path,
                                                                 gint64                   time_us,
                                                                 gint64                   max_distance_us,
                                                                 AdbscopeSample          *sample);
gint64                   adbscope_recording_reader_get_version  (AdbscopeRecordingReader *self);
void                     adbscope_recording_reader_set_prefetch (AdbscopeRecordingReader *self,
                                                                 gboolean                 prefetch);

/* What a reader did (tests). */
typedef struct
{
  guint    n_scans;         /* samples scanned at once, on a miss */
  guint    n_prefetches;    /* stretches read ahead and joined */
  gboolean prefetching;
  guint    n_level_loads;   /* the small levels of detail read whole */
  gboolean loading_levels;
  guint    n_lod_queries;   /* range queries of the level of detail sent to the file */
} AdbscopeRecordingReaderStats;

const AdbscopeRecordingReaderStats *_adbscope_recording_reader_get_stats (AdbscopeRecordingReader *self);

G_END_DECLS
