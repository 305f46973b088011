/* adbscope-fast-collector.h: /proc and cpufreq every sample interval, in one grep -H */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-delta.h"
#include "adbscope-parse-proc.h"
#include "adbscope-types.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_FAST_COLLECTOR (adbscope_fast_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeFastCollector, adbscope_fast_collector, ADBSCOPE, FAST_COLLECTOR, AdbscopeCollector)


/* One process of the app: the main one (named PKG) or a PKG:name one. */
typedef struct
{
  int      pid;
  char    *name;               /* "PKG" or "PKG:remote" */
  gboolean main;
  guint64  starttime;
  gboolean restarted;          /* a new process under this name since the last sample */
  guint    restarts;           /* of this name, over the run */
  double   cpu_pct;            /* share of all cores; NaN without a delta */
  double   rss_kb;
  double   swap_kb;
  double   threads;
} AdbscopeProcessUsage;

/* One sample.  Every value that could not be measured is NaN, never 0. */
typedef struct
{
  gint64   time_us;            /* host monotonic, middle of the round trip */
  double   uptime_s;           /* device clock */
  double   dt_s;               /* Δ device uptime since the previous sample; NaN on the first */
  double   window_s;           /* Δ device uptime the values across two samples cover: dt_s, or
                                * longer when the samples before were too close to measure and
                                * their ticks were carried into this one; NaN without a delta */
  double   system_pct;         /* share of all cores, 100 = every core busy */
  guint    n_cores;
  double  *core_pct;           /* n_cores, NaN for offline cores */
  double  *core_freq_khz;      /* n_cores, NaN where unreadable */
  double   system_norm_pct;    /* system_pct × Σ cur freq / Σ max freq */
  gboolean app_running;
  int      pid;
  guint64  starttime;
  gboolean restarted;          /* a new process of the app since the last sample */
  /* The app: the sum over its processes (main and PKG:name ones) */
  double   app_pct;            /* share of all cores */
  double   app_norm_pct;
  double   app_rss_kb;
  double   app_swap_kb;
  double   app_threads;
  GArray  *threads;            /* AdbscopeThreadUsage of every process, % of one core; NULL without a delta */
  GArray  *processes;          /* AdbscopeProcessUsage, main first; NULL while the app does not run */
  double   mem_total_kb;
  double   mem_available_kb;
  double   swap_used_kb;
  double   psi_some_avg10;
  double   psi_full_avg10;
  GArray  *net;                /* AdbscopeNetRate; NULL on the first sample */
  double   gpu_busy_pct;       /* where the probe found a readable counter */
  double   gpu_freq_mhz;
  double   net_rx_bytes_per_s; /* all interfaces but lo */
  double   net_tx_bytes_per_s;
  gboolean clock_implausible;  /* the device's uptime ran far ahead of the host's clock since
                                * the sample before (adbscope_plausible_clock_step ()): nothing
                                * across the two samples is taken as measured */
} AdbscopeFastSample;

void                   adbscope_fast_collector_set_max_freqs (AdbscopeFastCollector *self,
                                                              const double          *max_freq_khz,
                                                              guint                  n_cores);
void                   adbscope_fast_collector_set_read_psi  (AdbscopeFastCollector *self,
                                                              gboolean               read_psi);
void                   adbscope_fast_collector_set_gpu       (AdbscopeFastCollector *self,
                                                              const char            *busy_path,
                                                              const char            *freq_path);
guint                  adbscope_fast_collector_get_restarts  (AdbscopeFastCollector *self);
void                   adbscope_fast_sample_free             (AdbscopeFastSample    *sample);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeFastSample, adbscope_fast_sample_free)

G_END_DECLS
