/* adbscope-screenshot-dialog.h: one screenshot full size, with its time and cost */
#pragma once

#include <adwaita.h>

#include "adbscope-data-view.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_SCREENSHOT_DIALOG (adbscope_screenshot_dialog_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeScreenshotDialog, adbscope_screenshot_dialog, ADBSCOPE, SCREENSHOT_DIALOG, AdwWindow)

GtkWidget *adbscope_screenshot_dialog_new       (AdbscopeDataView         *view,
                                                 guint                     index_);
guint      adbscope_screenshot_dialog_get_index (AdbscopeScreenshotDialog *self);
/* -1 / +1: the previous / next screenshot (Left / Right); FALSE at an end. */
gboolean   adbscope_screenshot_dialog_step      (AdbscopeScreenshotDialog *self,
                                                 int                       delta);
GdkPaintable *adbscope_screenshot_dialog_get_paintable (AdbscopeScreenshotDialog *self);

G_END_DECLS
