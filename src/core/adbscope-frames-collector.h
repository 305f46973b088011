/* adbscope-frames-collector.h: `dumpsys gfxinfo PKG framestats` every sample interval */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-parse-gfxinfo.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_FRAMES_COLLECTOR (adbscope_frames_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeFramesCollector, adbscope_frames_collector, ADBSCOPE, FRAMES_COLLECTOR, AdbscopeCollector)


typedef struct
{
  gint64   time_us;          /* host monotonic, middle of the round trip */
  double   uptime_s;         /* device clock, read in the same call */
  double   dt_s;             /* NaN when there is no previous sample of this process */
  gboolean app_running;
  gint64   pid;
  gboolean restarted;
  gint64   total_frames;     /* Android's counter since the stats reset */
  double   fps;              /* Δ total frames / Δ uptime; NaN without a delta */
  gint64   new_frames;       /* Δ total frames */
  gint64   new_janky;        /* Δ "Janky frames" */
  gint64   new_causes[ADBSCOPE_JANK_N_CAUSES];
  gboolean has_cause[ADBSCOPE_JANK_N_CAUSES];
  GArray  *frames;           /* AdbscopeGfxinfoFrame seen for the first time */
  gint64   frames_over_deadline; /* of @frames, those longer than their deadline */
} AdbscopeFramesSample;

AdbscopeFramesCollector *adbscope_frames_collector_new         (const char              *serial,
                                                                const char              *package);
void                     adbscope_frames_collector_set_refresh_rate (AdbscopeFramesCollector *self,
                                                                     double                   hz);
void                     adbscope_frames_sample_free           (AdbscopeFramesSample    *sample);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeFramesSample, adbscope_frames_sample_free)

G_END_DECLS
