/* adbscope-overview-page.h: the overview: small charts of everything with current values */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_OVERVIEW_PAGE (adbscope_overview_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeOverviewPage, adbscope_overview_page, ADBSCOPE, OVERVIEW_PAGE, AdbscopePage)

typedef struct _AdbscopeScreenshotStrip AdbscopeScreenshotStrip;

AdbscopeScreenshotStrip *adbscope_overview_page_get_screenshot_strip (AdbscopeOverviewPage *self);

G_END_DECLS
