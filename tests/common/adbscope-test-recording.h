/* adbscope-test-recording.h: a synthetic recording with known values
 *
 * Written through AdbscopeRecording itself, shaped like a real run with
 * every collector (fast series and cores every tick, app memory, battery
 * and thermal every second tick, frames with per-frame times, threads,
 * system rows every fifth tick, a marker every ten minutes), so long-run
 * goals can be checked without waiting hours.  The values follow the
 * formulas below, so a test can compute every statistic itself.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a tick's frames (and its FPS) come from. */
typedef enum
{
  ADBSCOPE_SYNTH_FRAMES_GFXINFO,         /* an HWUI app */
  ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER,  /* a game: a SurfaceView, gfxinfo counts none */
  ADBSCOPE_SYNTH_FRAMES_MIXED,           /* even ticks gfxinfo, odd ticks SurfaceFlinger */
} AdbscopeSynthFrames;

#define ADBSCOPE_SYNTH_SF_LAYER "SurfaceView[io.github.adbscope.demo/io.github.adbscope.demo.MainActivity](BLAST)#0"

typedef struct
{
  guint  duration_s;
  guint  interval_ms;
  guint  n_cores;
  guint  n_threads;
  guint  fps;           /* frames a second */
  guint  spike_tick;    /* cpu.app_pct is spike_value at this tick */
  double spike_value;
  AdbscopeSynthFrames frames_from;
} AdbscopeSynthRun;

#define ADBSCOPE_SYNTH_MARKER_EVERY_S 600

/* Tick i is at i × interval.  cpu.app_pct = i % 100 (but the spike),
 * cpu.system_pct = 10 + i % 50, memory.app_pss_kb = 100000 + t_s (every
 * second tick), frame k of a tick lasts 4 + k % 10 ms, one janky frame a
 * tick (gfxinfo); a SurfaceFlinger tick presents as many frames, frame k
 * 10 + k % 10 ms after the one before, two of them late (janky), one Jank,
 * and gfxinfo counts none (frames.gfxinfo_fps is 0 there, else the fps;
 * frames.surfaceflinger_fps the fps there, else none); thread j (tid
 * 1000 + j) uses j % 5 percent; every other series is a
 * saw-tooth i % 7 on a base within its unit's physical range. */
double   adbscope_synth_app_pct      (const AdbscopeSynthRun *run,
                                      guint                   tick);
guint    adbscope_synth_n_ticks      (const AdbscopeSynthRun *run);
gboolean adbscope_synth_write        (const char             *path,
                                      const AdbscopeSynthRun *run,
                                      GError                **error);

/* What the `sqlite3` shell prints for @sql on @path (stripped); the test
 * fails if the shell fails. */
char    *adbscope_test_sqlite3       (const char             *path,
                                      const char             *sql);

/* tests/core/recording-v1-250ms.adbscope.gz (a version 1 recording made
 * by the code before version 2: tests/core/recording-v1-250ms.README),
 * unpacked into @dir: its path. */
char    *adbscope_test_version_1_recording (const char *dir);

G_END_DECLS
