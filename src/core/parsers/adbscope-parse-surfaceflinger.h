/* adbscope-parse-surfaceflinger.h: `dumpsys SurfaceFlinger --list` and
 * `--latency LAYER` → structs, and the frame counting on top of them
 *
 * Pure: text in, plain structs out.  --list prints one layer name a line;
 * Android 15 wraps each as "RequestedLayerState{NAME parentId=… z=…}".
 * --latency prints the display's refresh period (ns), then one row per
 * frame of the layer's history (oldest first, ~127 rows): desired present,
 * actual present and frame-ready times in ns on CLOCK_MONOTONIC.  Unused
 * rows are 0; a frame whose fence has not signalled yet has INT64_MAX.
 * See docs/parsers-dumpsys.md.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_SF_LAYER_WINDOW,        /* "PKG/ACTIVITY#0": what HWUI draws into */
  ADBSCOPE_SF_LAYER_SURFACE_VIEW,  /* "SurfaceView - …", "SurfaceView[…]…" */
} AdbscopeSfLayerKind;

typedef struct
{
  char                *name;       /* exactly as --latency wants it */
  AdbscopeSfLayerKind  kind;
} AdbscopeSfLayer;

typedef struct
{
  gint64 desired_present_ns;
  gint64 actual_present_ns;
  gint64 frame_ready_ns;           /* -1 while pending */
} AdbscopeSfFrame;

typedef struct
{
  gint64  refresh_period_ns;
  GArray *frames;                  /* AdbscopeSfFrame with a real present time, oldest first */
  guint   n_rows;                  /* every row printed */
  guint   n_empty;                 /* unused rows (all 0) */
  guint   n_pending;               /* present fence not signalled (INT64_MAX) */
  guint   n_bad_rows;              /* not three numbers; dropped */
  guint   n_repeats;               /* a buffer presented again (same desired-present and
                                    * frame-ready times as an earlier row): one frame */
} AdbscopeSfLatency;

/* The frames of one interval, found by adbscope_sf_tracker_advance(). */
typedef struct
{
  guint    new_frames;             /* presented in (from, to] */
  double   span_s;                 /* what FPS is counted over */
  double   fps;                    /* NaN without a previous read */
  gboolean lost;                   /* the history did not reach back to the previous read */
  guint    lost_estimate;          /* frames that fell out of the history (estimated) */
  guint    janky;                  /* presented ≥ half a refresh period after their desired time */
  guint    jank;                   /* PerfDog's Jank (docs/report.md) */
  guint    big_jank;               /* PerfDog's BigJank */
  GArray  *frame_times_ms;         /* float: present-to-present of the new frames */
} AdbscopeSfDelta;

/* Remembers, between two reads of one layer, where counting stopped. */
typedef struct
{
  gboolean have_cursor;
  gint64   cursor_ns;              /* frames presented up to here are counted */
  gint64   last_present_ns;        /* newest present counted (for frame times) */
  double   recent_ms[3];           /* the last three frame times, newest last */
  guint    n_recent;
} AdbscopeSfTracker;

GPtrArray         *adbscope_sf_list_parse        (const char              *text,
                                                  gssize                   len,
                                                  GError                 **error);
GPtrArray         *adbscope_sf_find_app_layers   (GPtrArray               *names,
                                                  const char              *package);
void               adbscope_sf_layer_free        (AdbscopeSfLayer         *layer);

AdbscopeSfLatency *adbscope_sf_latency_parse     (const char              *text,
                                                  gssize                   len,
                                                  GError                 **error);
void               adbscope_sf_latency_free      (AdbscopeSfLatency       *latency);
gboolean           adbscope_sf_latency_is_full   (const AdbscopeSfLatency *latency);

void               adbscope_sf_tracker_reset     (AdbscopeSfTracker       *tracker);
void               adbscope_sf_tracker_advance   (AdbscopeSfTracker       *tracker,
                                                  const AdbscopeSfLatency *latency,
                                                  gint64                   now_ns,
                                                  AdbscopeSfDelta         *delta);
void               adbscope_sf_delta_clear       (AdbscopeSfDelta         *delta);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeSfLatency, adbscope_sf_latency_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeSfLayer, adbscope_sf_layer_free)

G_END_DECLS
