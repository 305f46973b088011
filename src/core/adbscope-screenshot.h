/* adbscope-screenshot.h: one screenshot of the device, with what it cost */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64  time_us;        /* host monotonic: when it was asked for */
  GBytes *png;            /* NULL once dropped from memory (the recording has it) */
  guint   width;
  guint   height;
  double  cost_ms;        /* device-side wall time of screencap (10 ms steps) */
  double  cpu_ms;         /* CPU screencap took on the device (10 ms steps) */
  double  round_trip_ms;  /* host: from the request to the last byte */
  gboolean at_marker;
} AdbscopeScreenshot;

AdbscopeScreenshot *adbscope_screenshot_copy (const AdbscopeScreenshot *shot);
void                adbscope_screenshot_free (AdbscopeScreenshot       *shot);
void                adbscope_screenshot_clear (AdbscopeScreenshot      *shot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeScreenshot, adbscope_screenshot_free)

G_END_DECLS
