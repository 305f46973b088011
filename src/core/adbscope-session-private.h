/* adbscope-session-private.h: in-tree hooks into the session, for tests and benchmarks */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

AdbscopeCollector *_adbscope_session_get_collector (AdbscopeSession *self,
                                                    const char      *name);

/* The gap logic without a device: the watchdog looking at @now_us, a fast
 * sample taken at @time_us. */
void               _adbscope_session_gap_check     (AdbscopeSession *self,
                                                    gint64           now_us);
void               _adbscope_session_gap_sample    (AdbscopeSession *self,
                                                    gint64           time_us);

G_END_DECLS
