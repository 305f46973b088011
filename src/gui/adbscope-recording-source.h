/* adbscope-recording-source.h: a chart source reading a recording
 *
 * Reads one series of a recording through its level of detail: only the
 * window drawn (and one window either side, so a scroll reads nothing),
 * at most about one row per pixel column.  With a series in memory (the
 * live run writing the file), the newest stretch comes from memory and
 * everything older from the file.
 */
#pragma once

#include "adbscope-chart-source.h"
#include "adbscope-recording-reader.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_RECORDING_SOURCE (adbscope_recording_source_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeRecordingSource, adbscope_recording_source, ADBSCOPE, RECORDING_SOURCE, AdbscopeChartSource)

AdbscopeChartSource *adbscope_recording_source_new       (AdbscopeRecordingReader *reader,
                                                          const char              *series_path,
                                                          gint64                   origin_us,
                                                          AdbscopeSeries          *tail);
int                  adbscope_recording_source_get_level (AdbscopeRecordingSource *self);

G_END_DECLS
