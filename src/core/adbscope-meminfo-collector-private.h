/* adbscope-meminfo-collector-private.h: the meminfo collector's parser, for tests */
#pragma once

#include "adbscope-meminfo-collector.h"

G_BEGIN_DECLS

gboolean                  _adbscope_meminfo_collector_parse (const char  *package,
                                                             const char  *output,
                                                             AdbscopeMeminfoSample *sample,
                                                             GError     **error);

G_END_DECLS
