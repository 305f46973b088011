/* adbscope-parse-screencap.h: one `exec-out` screenshot with its cost → struct
 *
 * The command (adbscope_screencap_command) prints /proc/uptime, then the
 * PNG of `screencap -p`, then /proc/uptime and the shell's own
 * /proc/PID/stat: the PNG's end is found by walking its chunks to IEND, so
 * nothing is guessed from the bytes.  The shell's cutime + cstime are the
 * CPU its reaped children took (screencap, and a `cat` that costs nothing
 * measurable); the uptime difference is the device-side wall time.  Both
 * in clock ticks (USER_HZ, 100 on Android and Linux), so 10 ms steps.
 * Pure: bytes in, struct out.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_SCREENCAP_COMMAND \
  "cat /proc/uptime; screencap -p; cat /proc/uptime /proc/$$/stat"

typedef struct
{
  gsize  png_offset;   /* the PNG is data[png_offset, png_offset + png_len) */
  gsize  png_len;
  guint  width;        /* from IHDR */
  guint  height;
  double wall_ms;      /* NaN where the uptimes are missing */
  double cpu_ms;       /* NaN where the stat line is missing */
} AdbscopeScreencap;

gboolean adbscope_parse_screencap (const guint8      *data,
                                   gsize              len,
                                   AdbscopeScreencap *out,
                                   GError           **error);

G_END_DECLS
