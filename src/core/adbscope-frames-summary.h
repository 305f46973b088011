/* adbscope-frames-summary.h: names and words for where frames come from
 * and why the frame rate is 0 */
#pragma once

#include <glib.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

const char *adbscope_frames_source_to_key (AdbscopeFramesSource source);
const char *adbscope_frames_zero_reason_to_key (AdbscopeFramesZeroReason reason);
char       *adbscope_frames_zero_reason_describe (AdbscopeFramesZeroReason reason,
                                                  const char              *detail);

G_END_DECLS
