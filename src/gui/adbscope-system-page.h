/* adbscope-system-page.h: the device, the app's processes, Doze and background work */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_SYSTEM_PAGE (adbscope_system_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeSystemPage, adbscope_system_page, ADBSCOPE, SYSTEM_PAGE, AdbscopePage)

G_END_DECLS
