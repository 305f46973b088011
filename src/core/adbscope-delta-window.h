/* adbscope-delta-window.h: what a delta needs (docs/architecture.md)
 *
 * A rate is a difference of two counter reads over the time between them.
 * The counters are coarse: /proc/stat, /proc/PID/stat and /proc/uptime
 * advance in clock ticks of 1/USER_HZ = 10 ms, the frames counter in whole
 * frames.  Over a window of W seconds each read is off by up to one tick,
 * so the error is about 1 / (W · USER_HZ) of the value: 10 % at 100 ms,
 * 100 % at 10 ms.  A window shorter than ADBSCOPE_DELTA_MIN_WINDOW_S (ten
 * ticks; also the shortest sample interval) gives NaN, never a number.
 *
 * Kept to one function so the module that computes values across two
 * samples can own it.
 */
#pragma once

#include <glib.h>
#include <math.h>

G_BEGIN_DECLS

#define ADBSCOPE_DELTA_MIN_TICKS    10
#define ADBSCOPE_DELTA_MIN_WINDOW_S (ADBSCOPE_DELTA_MIN_TICKS / 100.0)

/* TRUE when a delta over @window_s seconds (device clock) means something. */
static inline gboolean
adbscope_delta_window_is_usable (double window_s)
{
  return isfinite (window_s) && window_s >= ADBSCOPE_DELTA_MIN_WINDOW_S;
}

G_END_DECLS
