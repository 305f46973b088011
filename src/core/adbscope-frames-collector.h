/* adbscope-frames-collector.h: `dumpsys gfxinfo PKG framestats` every sample interval */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-parse-gfxinfo.h"
#include "adbscope-parse-surfaceflinger.h"
#include "adbscope-frames-summary.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_FRAMES_COLLECTOR (adbscope_frames_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeFramesCollector, adbscope_frames_collector, ADBSCOPE, FRAMES_COLLECTOR, AdbscopeCollector)




typedef struct
{
  gint64   time_us;          /* host monotonic, middle of the round trip */
  double   uptime_s;         /* device clock, read in the same call */
  gint64   monotonic_ns;     /* gfxinfo's "Uptime:" (CLOCK_MONOTONIC), -1 if absent */
  double   dt_s;             /* NaN when there is no previous sample of this process */
  gboolean app_running;
  gint64   pid;
  gboolean restarted;
  gint64   total_frames;     /* Android's counter since the stats reset */
  double   fps;              /* of @source; NaN without a delta */
  AdbscopeFramesSource source;
  double   hwui_fps;         /* gfxinfo: Δ total frames / Δ uptime; NaN without a delta */
  gint64   new_frames;       /* Δ total frames */
  gint64   new_janky;        /* Δ "Janky frames" */
  gint64   new_causes[ADBSCOPE_JANK_N_CAUSES];
  gboolean has_cause[ADBSCOPE_JANK_N_CAUSES];
  GArray  *frames;           /* AdbscopeGfxinfoFrame seen for the first time */
  gint64   frames_over_deadline; /* of @frames, those longer than their deadline */

  /* SurfaceFlinger: the app's layer that drew most in this interval */
  gboolean sf_read;          /* --latency was read for at least one layer */
  char    *sf_layer;         /* NULL when no layer drew */
  AdbscopeSfLayerKind sf_layer_kind;
  double   sf_fps;           /* NaN without a delta */
  AdbscopeSfDelta sf;        /* of sf_layer (frame_times_ms may be NULL) */
  gint64   sf_refresh_period_ns;
  gint64   sf_counted_to_ns; /* the chosen layer's frames presented up to here
                              * (device CLOCK_MONOTONIC) are counted; -1 if none */
  GPtrArray *sf_layers;      /* char *: every layer of the app found by --list, or NULL */

  AdbscopeFramesZeroReason zero_reason;
  char    *zero_detail;      /* the layer or error behind the reason, or NULL */
} AdbscopeFramesSample;

AdbscopeFramesCollector *adbscope_frames_collector_new         (const char              *serial,
                                                                const char              *package);
void                     adbscope_frames_collector_set_refresh_rate (AdbscopeFramesCollector *self,
                                                                     double                   hz);
void                     adbscope_frames_sample_free           (AdbscopeFramesSample    *sample);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeFramesSample, adbscope_frames_sample_free)

G_END_DECLS
