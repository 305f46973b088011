/* adbscope-threads-page.h: the app's threads in a live, sortable, filterable table */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_THREADS_PAGE (adbscope_threads_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeThreadsPage, adbscope_threads_page, ADBSCOPE, THREADS_PAGE, AdbscopePage)

G_END_DECLS
