/* adbscope-cpu-page.h: system and app CPU, per core, clusters and frequency */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CPU_PAGE (adbscope_cpu_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeCpuPage, adbscope_cpu_page, ADBSCOPE, CPU_PAGE, AdbscopePage)

G_END_DECLS
