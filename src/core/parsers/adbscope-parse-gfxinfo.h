/* adbscope-parse-gfxinfo.h: `dumpsys gfxinfo [PKG] [framestats]` → structs
 *
 * Pure: text in, plain structs out.  Every version from Android 4.3 (no
 * stats at all) to 14+ (legacy jank lines, GPU percentiles, 23-column
 * framestats) parses; numbers a version does not print stay
 * ADBSCOPE_GFXINFO_UNKNOWN (-1).  See docs/parsers-dumpsys.md.
 */
#pragma once

#include <glib.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

#define ADBSCOPE_GFXINFO_UNKNOWN (-1)

typedef enum
{
  ADBSCOPE_GFXINFO_P50,
  ADBSCOPE_GFXINFO_P90,
  ADBSCOPE_GFXINFO_P95,
  ADBSCOPE_GFXINFO_P99,
  ADBSCOPE_GFXINFO_N_PERCENTILES,
} AdbscopeGfxinfoPercentile;

typedef struct
{
  gint64 ms;     /* upper edge of the bucket, as printed ("5ms=…") */
  gint64 count;
} AdbscopeGfxinfoBucket;

/* The summary block; printed per process and (since 6) per window. */
typedef struct
{
  gboolean present;                 /* any stats line was seen */
  gint64   stats_since_ns;
  gint64   total_frames;
  gint64   janky_frames;
  double   janky_pct;               /* -1 when not printed */
  gint64   janky_frames_legacy;     /* 12+: "Janky frames (legacy)" */
  double   janky_pct_legacy;
  gint64   percentile_ms[ADBSCOPE_GFXINFO_N_PERCENTILES];
  gint64   gpu_percentile_ms[ADBSCOPE_GFXINFO_N_PERCENTILES];
  gint64   missed_vsync;
  gint64   high_input_latency;
  gint64   slow_ui_thread;
  gint64   slow_bitmap_uploads;
  gint64   slow_issue_draw_commands; /* M preview says "Slow draw" */
  gint64   frame_deadline_missed;    /* 9+ */
  gint64   frame_deadline_missed_legacy; /* 12+ */
  GArray  *histogram;               /* AdbscopeGfxinfoBucket, or NULL */
  GArray  *gpu_histogram;           /* AdbscopeGfxinfoBucket, or NULL */
} AdbscopeGfxinfoStats;

/* One framestats row.  Rows with flags != 0 are kept (so nothing is
 * silently lost) but are not frames: use adbscope_gfxinfo_frame_is_valid(). */
typedef struct
{
  guint64 flags;
  gint64  vsync_id;           /* FrameTimelineVsyncId (12+), -1 if absent */
  gint64  intended_vsync_ns;
  gint64  duration_ns;        /* FrameCompleted − IntendedVsync, -1 if unusable */
  gint64  deadline_ns;        /* FrameDeadline − IntendedVsync (12+), -1 if absent */
  gint64  gpu_ns;             /* GpuCompleted − SwapBuffers, -1 if absent */
  gint64  frame_interval_ns;  /* vsync period (12+), -1 if absent */
} AdbscopeGfxinfoFrame;

typedef struct
{
  char                 *name;   /* "pkg/Activity/android.view.ViewRootImpl@hash", or NULL */
  char                 *title;  /* "Window: …" (12+), or NULL */
  AdbscopeGfxinfoStats  stats;
  GArray               *frames; /* AdbscopeGfxinfoFrame in dump order */
  guint                 n_bad_rows; /* truncated or non-numeric rows, dropped */
} AdbscopeGfxinfoWindow;

typedef struct
{
  gint64                pid;     /* -1 for text without a "Graphics info" line */
  char                 *package; /* NULL likewise */
  AdbscopeGfxinfoStats  stats;
  GPtrArray            *windows; /* AdbscopeGfxinfoWindow */
  char                 *dump_failure; /* "Failure while dumping the app: …": the app runs but did
                                       * not answer this time (its counters are unknown, not reset);
                                       * NULL otherwise */
} AdbscopeGfxinfoProcess;

typedef struct
{
  gint64     uptime_ms;          /* "Uptime: N Realtime: M", -1 if absent */
  gint64     realtime_ms;
  GPtrArray *processes;          /* AdbscopeGfxinfoProcess, never empty */
} AdbscopeGfxinfo;

AdbscopeGfxinfo        *adbscope_gfxinfo_parse          (const char                   *text,
                                                         gssize                        len,
                                                         GError                      **error);
void                    adbscope_gfxinfo_free           (AdbscopeGfxinfo              *info);
AdbscopeGfxinfoProcess *adbscope_gfxinfo_find_process   (const AdbscopeGfxinfo        *info,
                                                         const char                   *package);
gboolean                adbscope_gfxinfo_frame_is_valid (const AdbscopeGfxinfoFrame   *frame);
guint                   adbscope_gfxinfo_process_count_frames (const AdbscopeGfxinfoProcess *process);
GArray                 *adbscope_gfxinfo_new_frames     (const AdbscopeGfxinfoProcess *previous,
                                                         const AdbscopeGfxinfoProcess *current);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeGfxinfo, adbscope_gfxinfo_free)

const char *adbscope_jank_cause_to_key       (AdbscopeJankCause           cause);
gint64      adbscope_gfxinfo_stats_get_cause (const AdbscopeGfxinfoStats *stats,
                                              AdbscopeJankCause           cause);

G_END_DECLS
