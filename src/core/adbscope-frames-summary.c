/* adbscope-frames-summary.c: names and words for where frames come from
 * and why the frame rate is 0 (report, Frames page) */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-frames-summary.h"

static const char * const source_keys[] = {
  [ADBSCOPE_FRAMES_SOURCE_NONE] = NULL,
  [ADBSCOPE_FRAMES_SOURCE_GFXINFO] = "gfxinfo",
  [ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] = "surfaceflinger",
};

const char *
adbscope_frames_source_to_key (AdbscopeFramesSource source)
{
  g_return_val_if_fail (source <= ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER, NULL);
  return source_keys[source];
}

static const char * const zero_keys[] = {
  [ADBSCOPE_FRAMES_ZERO_NONE] = NULL,
  [ADBSCOPE_FRAMES_ZERO_NOT_RUNNING] = "not_running",
  [ADBSCOPE_FRAMES_ZERO_NOT_FOREGROUND] = "not_foreground",
  [ADBSCOPE_FRAMES_ZERO_STATIC] = "static",
  [ADBSCOPE_FRAMES_ZERO_UNREADABLE] = "unreadable",
};

const char *
adbscope_frames_zero_reason_to_key (AdbscopeFramesZeroReason reason)
{
  g_return_val_if_fail (reason <= ADBSCOPE_FRAMES_ZERO_UNREADABLE, NULL);
  return zero_keys[reason];
}

/* The reason in words, for the Frames page and the report. */
char *
adbscope_frames_zero_reason_describe (AdbscopeFramesZeroReason reason,
                                      const char              *detail)
{
  switch (reason)
    {
    case ADBSCOPE_FRAMES_ZERO_NOT_RUNNING:
      return g_strdup (_("The app is not running."));
    case ADBSCOPE_FRAMES_ZERO_NOT_FOREGROUND:
      return g_strdup (_("The app is not in the foreground: none of its layers is on screen."));
    case ADBSCOPE_FRAMES_ZERO_STATIC:
      return g_strdup (_("Nothing was drawn: the screen is static."));
    case ADBSCOPE_FRAMES_ZERO_UNREADABLE:
      return g_strdup_printf (_("The app's frames are in a layer that cannot be read: %s"),
                              detail != NULL ? detail : _("SurfaceFlinger keeps no frame history for it"));
    case ADBSCOPE_FRAMES_ZERO_NONE:
    default:
      return NULL;
    }
}

