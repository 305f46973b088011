/* adbscope-frames-collector-private.h: the frames collector's parser, for tests */
#pragma once

#include "adbscope-frames-collector.h"

G_BEGIN_DECLS

AdbscopeFramesSample    *_adbscope_frames_collector_parse      (AdbscopeFramesCollector *self,
                                                                const char              *output,
                                                                gint64                   time_us,
                                                                GError                 **error);

G_END_DECLS
