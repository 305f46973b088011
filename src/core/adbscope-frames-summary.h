/* adbscope-frames-summary.h: names and words for where frames come from
 * and why the frame rate is 0 */
#pragma once

#include <glib.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

/* Where frames came from over the run, and why FPS is 0 right now. */
typedef struct
{
  gint64                   samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER + 1]; /* FPS samples per source */
  AdbscopeFramesSource     source;        /* of the latest sample with an FPS */
  AdbscopeFramesZeroReason zero_reason;   /* of the latest sample */
  char                    *zero_detail;
  /* SurfaceFlinger */
  char                    *layer;         /* the latest layer that drew */
  GPtrArray               *layers;        /* char *: every layer of the app seen */
  gint64                   frames;        /* presented, counted on the device clock */
  gint64                   janky;         /* ≥ half a refresh period late */
  gint64                   jank;          /* PerfDog Jank */
  gint64                   big_jank;      /* PerfDog BigJank */
  guint                    lost_intervals;/* reads that found the history overrun */
  gint64                   lost_estimate; /* frames that fell out of it (estimated) */
  gint64                   refresh_period_ns;
  gint64                   counted_to_ns; /* `frames` counts the frames presented up to
                                           * here (device CLOCK_MONOTONIC), -1 if unknown */
  GArray                  *frame_times;   /* double ms, present to present, in arrival order */
} AdbscopeFramesSummary;


const char *adbscope_frames_source_to_key (AdbscopeFramesSource source);
const char *adbscope_frames_zero_reason_to_key (AdbscopeFramesZeroReason reason);
char       *adbscope_frames_zero_reason_describe (AdbscopeFramesZeroReason reason,
                                                  const char              *detail);

void        adbscope_frames_summary_init  (AdbscopeFramesSummary       *f);
void        adbscope_frames_summary_clear (AdbscopeFramesSummary       *f);
void        adbscope_frames_summary_copy  (AdbscopeFramesSummary       *to,
                                           const AdbscopeFramesSummary *from);
const char *adbscope_frames_summary_source_key (const AdbscopeFramesSummary *f);

G_END_DECLS
