/* adbscope-sim-app-state.h: the demo app's live state, shared by mmap
 *
 * The app (adbscope sim-app) writes it; the fake dumpsys and the device's
 * cpufreq ticker read it.  A sequence counter (odd while writing) gives
 * readers a consistent copy without locks across processes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_SIM_APP_STATE_MAGIC   0x53504153u
#define ADBSCOPE_SIM_APP_STATE_VERSION 2
/* Android keeps the last 120 frames for framestats. */
#define ADBSCOPE_SIM_APP_RING          120
#define ADBSCOPE_SIM_APP_HIST          154
#define ADBSCOPE_SIM_APP_GPU_HIST      26
/* SurfaceFlinger's FrameTracker keeps 128 records per layer (NUM_FRAME_RECORDS). */
#define ADBSCOPE_SIM_SF_RING           128

typedef enum
{
  ADBSCOPE_SIM_PHASE_IDLE,
  ADBSCOPE_SIM_PHASE_SCROLLING,
  ADBSCOPE_SIM_PHASE_BUSY,
} AdbscopeSimPhase;

typedef enum
{
  ADBSCOPE_SIM_JANK_NONE,
  ADBSCOPE_SIM_JANK_SLOW_UI,         /* "Slow UI thread" */
  ADBSCOPE_SIM_JANK_SLOW_DRAW,       /* "Slow issue draw commands" */
  ADBSCOPE_SIM_JANK_SLOW_BITMAP,     /* "Slow bitmap uploads" */
} AdbscopeSimJankCause;

typedef struct
{
  gint64  vsync_id;
  gint64  intended_vsync;
  gint64  vsync;
  gint64  handle_input_start;
  gint64  animation_start;
  gint64  perform_traversals_start;
  gint64  draw_start;
  gint64  frame_deadline;
  gint64  frame_start_time;
  gint64  frame_interval;
  gint64  sync_queued;
  gint64  sync_start;
  gint64  issue_draw_commands_start;
  gint64  swap_buffers;
  gint64  frame_completed;
  gint64  dequeue_buffer_duration;
  gint64  queue_buffer_duration;
  gint64  gpu_completed;
  gint64  swap_buffers_completed;
  gint64  display_present_time;
  gint64  command_submission_completed;
  guint32 flags;
  guint32 cause;                     /* AdbscopeSimJankCause */
} AdbscopeSimFrame;

/* One frame as SurfaceFlinger's FrameTracker records it (CLOCK_MONOTONIC ns). */
typedef struct
{
  gint64 desired_present;
  gint64 actual_present;
  gint64 frame_ready;
} AdbscopeSimSfFrame;

typedef struct
{
  guint32          magic;
  guint32          version;
  volatile guint32 seq;
  guint32          phase;            /* AdbscopeSimPhase */
  gint32           pid;
  gint32           refresh_hz;
  gint64           stats_since_ns;   /* CLOCK_MONOTONIC, like Android */
  guint64          total_frames;
  guint64          janky_frames;
  guint64          janky_legacy;
  guint64          missed_vsync;
  guint64          high_input_latency;
  guint64          slow_ui_thread;
  guint64          slow_bitmap_uploads;
  guint64          slow_issue_draw;
  guint64          deadline_missed;
  guint64          deadline_missed_legacy;
  guint32          histogram[ADBSCOPE_SIM_APP_HIST];
  guint32          gpu_histogram[ADBSCOPE_SIM_APP_GPU_HIST];
  /* memory, KiB */
  gint64           java_heap_size;
  gint64           java_heap_alloc;
  gint64           native_heap_size;
  gint64           native_heap_alloc;
  gint64           views;
  AdbscopeSimFrame frames[ADBSCOPE_SIM_APP_RING];  /* frames[n % RING] is frame n */
  /* What SurfaceFlinger saw of the app's drawing layer: the window for the
   * HWUI demo, the SurfaceView for the game (game != 0). */
  guint32          game;
  guint32          drawing;          /* 0 while the screen is static */
  guint64          sf_presented;     /* frames queued to SurfaceFlinger */
  AdbscopeSimSfFrame sf_frames[ADBSCOPE_SIM_SF_RING]; /* sf_frames[n % RING] is frame n */
} AdbscopeSimAppState;

gboolean adbscope_sim_app_state_read (const char          *sandbox,
                                      const char          *package,
                                      AdbscopeSimAppState *out);

/* Frame-time histogram buckets in ms, as Android prints them. */
static inline int
adbscope_sim_hist_bucket_ms (int i)
{
  if (i < 28)
    return 5 + i;                    /* 5..32 */
  if (i < 36)
    return 34 + (i - 28) * 2;        /* 34..48 */
  if (i < 57)
    return 53 + (i - 36) * 4;        /* 53..133 */
  return 150 + (i - 57) * 50;        /* 150..4950 */
}

static inline int
adbscope_sim_gpu_bucket_ms (int i)
{
  return i < 25 ? i + 1 : 4950;
}

G_END_DECLS
