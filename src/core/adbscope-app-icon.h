/* adbscope-app-icon.h: an app's launcher icon from its APK, as a PNG
 *
 * Bitmaps (PNG, WebP) at the best density, adaptive icons (background and
 * foreground layers composited under a circular mask), VectorDrawables
 * drawn through librsvg (their path data is SVG path data), <bitmap>
 * wrappers and colours.  Anything else (shape, layer-list, theme colours)
 * is an error: the caller shows a generic icon.
 */
#pragma once

#include <gio/gio.h>

#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"

G_BEGIN_DECLS

/* Launcher icons are 48 dp; the best density a table is likely to have. */
#define ADBSCOPE_APP_ICON_DENSITY 640

GBytes *adbscope_app_icon_render            (AdbscopeApkFile          *apk,
                                             AdbscopeArsc             *arsc,
                                             const AdbscopeApkValue   *icon,
                                             const AdbscopeResConfig  *config,
                                             guint                     size,
                                             GError                  **error);
/* A <vector> element as an SVG document; colour references resolved
 * through arsc (may be NULL). */
char   *adbscope_vector_drawable_to_svg     (const AdbscopeAxmlNode   *vector,
                                             AdbscopeArsc             *arsc,
                                             const AdbscopeResConfig  *config,
                                             GError                  **error);

G_END_DECLS
