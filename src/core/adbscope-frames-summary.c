/* adbscope-frames-summary.c: names and words for where frames come from
 * and why the frame rate is 0 (report, Frames page) */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

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


void
adbscope_frames_summary_init (AdbscopeFramesSummary *f)
{
  memset (f, 0, sizeof *f);
  f->layers = g_ptr_array_new_with_free_func (g_free);
  f->frame_times = g_array_new (FALSE, FALSE, sizeof (double));
  f->counted_to_ns = -1;
}

void
adbscope_frames_summary_clear (AdbscopeFramesSummary *f)
{
  g_clear_pointer (&f->zero_detail, g_free);
  g_clear_pointer (&f->layer, g_free);
  g_clear_pointer (&f->layers, g_ptr_array_unref);
  g_clear_pointer (&f->frame_times, g_array_unref);
}

/* @to is cleared first; strings and arrays are copied. */
void
adbscope_frames_summary_copy (AdbscopeFramesSummary       *to,
                              const AdbscopeFramesSummary *from)
{
  adbscope_frames_summary_clear (to);
  *to = *from;
  to->zero_detail = g_strdup (from->zero_detail);
  to->layer = g_strdup (from->layer);
  to->layers = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; from->layers != NULL && i < from->layers->len; i++)
    g_ptr_array_add (to->layers, g_strdup (g_ptr_array_index (from->layers, i)));
  to->frame_times = from->frame_times ? g_array_copy (from->frame_times)
                                      : g_array_new (FALSE, FALSE, sizeof (double));
}

/* The report's frames.source and frames.total_source: where the FPS
 * samples came from, "gfxinfo+surfaceflinger" when from both. */
const char *
adbscope_frames_summary_source_key (const AdbscopeFramesSummary *f)
{
  gint64 n_gfx = f ? f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO] : 0;
  gint64 n_sf = f ? f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] : 0;

  return n_gfx > 0 && n_sf > 0 ? "gfxinfo+surfaceflinger"
         : n_sf > 0 ? "surfaceflinger" : n_gfx > 0 ? "gfxinfo" : NULL;
}
