/* adbscope-adb-private.h: forget the adb path found, for tests */
#pragma once

#include "adbscope-adb.h"

G_BEGIN_DECLS

void         _adbscope_adb_reset_path     (void);

G_END_DECLS
