/* adbscope-session-private.h: in-tree hooks into the session, for tests and benchmarks */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

AdbscopeCollector *_adbscope_session_get_collector (AdbscopeSession *self,
                                                    const char      *name);

G_END_DECLS
