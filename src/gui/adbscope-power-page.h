/* adbscope-power-page.h: battery, power and temperatures */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_POWER_PAGE (adbscope_power_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopePowerPage, adbscope_power_page, ADBSCOPE, POWER_PAGE, AdbscopePage)

G_END_DECLS
