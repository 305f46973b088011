/* adbscope-recording-private.h: what the writer and the reader share */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* frames.frame_ms is float32 little-endian; in place both ways. */
void _adbscope_recording_floats_to_le (float *values,
                                       gsize  n);

G_END_DECLS
