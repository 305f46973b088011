/* adbscope-screenshot.c: one screenshot of the device */
#include "config.h"

#include "adbscope-screenshot.h"

void
adbscope_screenshot_clear (AdbscopeScreenshot *shot)
{
  g_clear_pointer (&shot->png, g_bytes_unref);
}

AdbscopeScreenshot *
adbscope_screenshot_copy (const AdbscopeScreenshot *shot)
{
  AdbscopeScreenshot *copy = g_memdup2 (shot, sizeof *shot);

  if (copy->png != NULL)
    g_bytes_ref (copy->png);
  return copy;
}

void
adbscope_screenshot_free (AdbscopeScreenshot *shot)
{
  if (shot == NULL)
    return;
  adbscope_screenshot_clear (shot);
  g_free (shot);
}
