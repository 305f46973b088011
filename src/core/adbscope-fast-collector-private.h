/* adbscope-fast-collector-private.h: the fast collector's parser, for tests */
#pragma once

#include "adbscope-fast-collector.h"

G_BEGIN_DECLS

AdbscopeFastSample    *_adbscope_fast_collector_parse        (AdbscopeFastCollector *self,
                                                              const char            *output,
                                                              gint64                 time_us,
                                                              GError               **error);

G_END_DECLS
