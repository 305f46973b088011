/* adbscope-delta.h: values across two samples
 *
 * Every number that is the difference of two readings is computed here,
 * once, and the collectors, the session, the report and the GUI use these
 * functions instead of their own arithmetic.  The rules:
 *
 *  interval    Δ device uptime in seconds (the device's clock, never the
 *              host's).  The counters are coarse: /proc/stat, /proc/PID/stat
 *              and /proc/uptime advance in ticks of 1/USER_HZ = 10 ms, the
 *              frames counter in whole frames, so over W seconds each read
 *              is off by up to one tick, about 1 / (W · USER_HZ) of the
 *              value: 10 % at 100 ms, 100 % at 10 ms.  A window shorter
 *              than ADBSCOPE_DELTA_MIN_WINDOW_S (eight ticks: a 100 ms
 *              interval, the shortest, reads 9 to 11 ticks of the
 *              centisecond uptime) is NaN, and so is every value across
 *              it: never a number made of noise.  Its ticks are not lost:
 *              the collector keeps the reading before it as the base, so
 *              the next sample's window covers both (window_s).
 *  CPU %       Δ busy ticks / Δ all ticks of /proc/stat, idle = idle +
 *              iowait.  System and app CPU are a share of all cores (100 =
 *              every core busy); a core present in only one snapshot or
 *              whose counters went back (hot-plug) is NaN.
 *  app CPU %   Δ (utime + stime) of the app / Δ all-core ticks.  NaN when
 *              the two readings are not the same process: a restarted
 *              app (new pid, or the same pid with a new start time,
 *              stat field 22) never gets a delta across the restart.
 *  thread %    Δ ticks of one thread / (interval × USER_HZ): percent of
 *              one core, so a busy thread reads 100.  A tid reused by a
 *              new thread (other start time) is left out.
 *  rate        Δ counter / interval (bytes per second); NaN when the
 *              counter went back (the interface was reset).
 *  counter     Δ of a cumulative count (janky frames, jank causes): ≥ 0,
 *              or -1 when either reading is unknown (-1).
 *  FPS         Δ frames / span, span = max (interval, the time between
 *              the newest frame of each dump (IntendedVsync)): the frames
 *              counted are exactly those, so a late dump can never give
 *              a rate above what the display can show (the vsync clamp).
 *  normalised  usage × Σ cur freq / Σ max freq, summed over the cores
 *              that have a maximum frequency; NaN unless every one of them
 *              reported its current frequency.  One formula for the
 *              system and the app.
 */
#pragma once

#include <glib.h>

#include "adbscope-parse-proc.h"
#include "adbscope-types.h"

G_BEGIN_DECLS

#define ADBSCOPE_DELTA_MIN_TICKS    8
#define ADBSCOPE_DELTA_MIN_WINDOW_S (ADBSCOPE_DELTA_MIN_TICKS / 100.0)

typedef struct
{
  double  total_pct;        /* share of all online cores; NaN if unknown */
  guint64 total_delta;      /* Δ ticks of all cores (denominator for app CPU) */
  guint   n_cpus;           /* highest cpu number seen in either sample + 1 */
  double *cpu_pct;          /* n_cpus entries, NaN for offline/unknown cores */
} AdbscopeCpuUsage;

typedef struct
{
  int     tid;
  char    comm[ADBSCOPE_COMM_MAX + 1];
  guint64 delta_ticks;
  double  pct;          /* percent of one core */
  int     pid;          /* the process it belongs to (set by the caller), 0 if unknown */
} AdbscopeThreadUsage;

double            adbscope_delta_interval        (double                  uptime_before_s,
                                                  double                  uptime_after_s);
AdbscopeCpuUsage *adbscope_delta_cpu             (const AdbscopeProcStat *before,
                                                  const AdbscopeProcStat *after);
void              adbscope_cpu_usage_free        (AdbscopeCpuUsage       *usage);
gboolean          adbscope_delta_same_process    (const AdbscopePidStat  *before,
                                                  const AdbscopePidStat  *after);
double            adbscope_delta_process_cpu_pct (const AdbscopePidStat  *before,
                                                  const AdbscopePidStat  *after,
                                                  guint64                 total_delta_ticks);
GArray           *adbscope_delta_threads         (const GArray           *before,
                                                  const GArray           *after,
                                                  double                  interval_s);
double            adbscope_delta_rate            (guint64                 before,
                                                  guint64                 after,
                                                  double                  interval_s);
GArray           *adbscope_delta_net_rates       (const GArray           *before,
                                                  const GArray           *after,
                                                  double                  interval_s,
                                                  double                 *rx_total,
                                                  double                 *tx_total);
gint64            adbscope_delta_counter         (gint64                  before,
                                                  gint64                  after);
double            adbscope_delta_fps             (gint64                  frames_before,
                                                  gint64                  frames_after,
                                                  double                  interval_s,
                                                  gint64                  last_vsync_before_ns,
                                                  gint64                  last_vsync_after_ns);
double            adbscope_delta_normalise       (double                  usage_pct,
                                                  const double           *cur_freq_khz,
                                                  const double           *max_freq_khz,
                                                  guint                   n_cores);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeCpuUsage, adbscope_cpu_usage_free)

G_END_DECLS
