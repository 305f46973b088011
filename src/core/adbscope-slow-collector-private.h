/* adbscope-slow-collector-private.h: the slow collector's schedule and parser, for tests */
#pragma once

#include "adbscope-slow-collector.h"

G_BEGIN_DECLS

char                  *_adbscope_slow_collector_command (AdbscopeSlowCollector *self,
                                                         guint                  tick);
AdbscopeSlowSample    *_adbscope_slow_collector_parse   (AdbscopeSlowCollector *self,
                                                         const char            *output,
                                                         gint64                 time_us);

G_END_DECLS
