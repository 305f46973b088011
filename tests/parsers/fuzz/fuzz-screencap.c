/* fuzz-screencap.c: uptime, PNG, uptime and stat from `exec-out` */
#include "config.h"

#include <math.h>

#include "adbscope-error.h"
#include "adbscope-parse-screencap.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  AdbscopeScreencap cap;

  if (adbscope_parse_screencap (data, size, &cap, &error))
    {
      g_assert (error == NULL);
      g_assert (cap.png_offset + cap.png_len <= size);
      g_assert (cap.png_len >= 8 + 3 * 12);
      g_assert (cap.width > 0 && cap.height > 0);
      g_assert (isnan (cap.wall_ms) || cap.wall_ms >= 0);
    }
  else
    g_assert (error != NULL && g_utf8_validate (error->message, -1, NULL));
  return 0;
}
