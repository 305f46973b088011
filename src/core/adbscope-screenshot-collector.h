/* adbscope-screenshot-collector.h: `screencap -p` now and then, with its cost
 *
 * Every interval (and whenever asked, e.g. at a marker) one
 * `adb exec-out` (binary-safe: no tty, no CR/LF rewriting) runs
 * ADBSCOPE_SCREENCAP_COMMAND in a worker thread, so neither the transfer
 * nor the parse touches the main loop and the sampling ticks run on
 * their own schedule.  Never two at once: a tick that comes while one is
 * in flight is skipped, a request waits for it.  Results come back on
 * the main loop as "screenshot" (or "failed").
 */
#pragma once

#include <gio/gio.h>

#include "adbscope-screenshot.h"

G_BEGIN_DECLS


#define ADBSCOPE_TYPE_SCREENSHOT_COLLECTOR (adbscope_screenshot_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeScreenshotCollector, adbscope_screenshot_collector,
                      ADBSCOPE, SCREENSHOT_COLLECTOR, GObject)

AdbscopeScreenshotCollector *adbscope_screenshot_collector_new          (const char                  *serial);
/* 0: only when asked. */
void                         adbscope_screenshot_collector_set_interval (AdbscopeScreenshotCollector *self,
                                                                         guint                        interval_ms);
guint                        adbscope_screenshot_collector_get_interval (AdbscopeScreenshotCollector *self);
void                         adbscope_screenshot_collector_start        (AdbscopeScreenshotCollector *self);
void                         adbscope_screenshot_collector_stop         (AdbscopeScreenshotCollector *self);
/* One now (after the one in flight); @at_marker is passed on. */
void                         adbscope_screenshot_collector_request      (AdbscopeScreenshotCollector *self,
                                                                         gboolean                     at_marker);
guint                        adbscope_screenshot_collector_get_n_skipped (AdbscopeScreenshotCollector *self);
gboolean                     adbscope_screenshot_collector_is_busy      (AdbscopeScreenshotCollector *self);

G_END_DECLS
