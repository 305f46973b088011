/* adbscope-memory-page.h: app memory by PSS category, RSS, system memory and pressure */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_MEMORY_PAGE (adbscope_memory_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeMemoryPage, adbscope_memory_page, ADBSCOPE, MEMORY_PAGE, AdbscopePage)

G_END_DECLS
