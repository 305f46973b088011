/* adbscope-screenshot-strip.h: screenshot thumbnails along the charts' time window */
#pragma once

#include <gtk/gtk.h>

#include "adbscope-data-view.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_SCREENSHOT_STRIP (adbscope_screenshot_strip_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeScreenshotStrip, adbscope_screenshot_strip, ADBSCOPE, SCREENSHOT_STRIP, GtkWidget)

GtkWidget *adbscope_screenshot_strip_new            (void);
/* Follows the view's time window (the charts'); hidden while the view has
 * no screenshots and takes none. */
void       adbscope_screenshot_strip_update         (AdbscopeScreenshotStrip *self,
                                                     AdbscopeDataView        *view);
/* The thumbnails shown (buttons, left to right) and which screenshot of
 * the view each one is. */
GPtrArray *adbscope_screenshot_strip_list_thumbnails (AdbscopeScreenshotStrip *self);
guint      adbscope_screenshot_strip_thumbnail_index (GtkWidget              *thumbnail);

G_END_DECLS
