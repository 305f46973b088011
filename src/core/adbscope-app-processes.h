/* adbscope-app-processes.h: every process of the app over the run
 *
 * The main process (named PKG) and each PKG:name process ("…:remote",
 * "…:push"), kept by name: its pids, restarts, and series of CPU, RSS,
 * threads and PSS.  Fed by the session from the fast and meminfo samples.
 */
#pragma once

#include "adbscope-fast-collector.h"
#include "adbscope-meminfo-collector.h"
#include "adbscope-series.h"

G_BEGIN_DECLS

typedef struct
{
  char           *name;
  gboolean        main;
  gboolean        running;      /* in the latest fast sample */
  GArray         *pids;         /* gint64, every pid seen under this name */
  guint           restarts;
  gint64          first_us;     /* host monotonic µs of the first and latest sample with it */
  gint64          last_us;
  AdbscopeSeries *cpu_pct;      /* share of all cores */
  AdbscopeSeries *rss_kb;
  AdbscopeSeries *threads;
  AdbscopeSeries *pss_kb;       /* on the meminfo cadence */
} AdbscopeProcessSeries;

GPtrArray *adbscope_app_processes_new             (void);
gboolean   adbscope_app_processes_take_fast       (GPtrArray                   *processes,
                                                   const AdbscopeFastSample    *sample,
                                                   guint                        capacity);
char     **adbscope_app_processes_dup_other_names (GPtrArray                   *processes);
double     adbscope_app_processes_take_pss        (GPtrArray                   *processes,
                                                   const AdbscopeMeminfoSample *sample);
const char *adbscope_app_processes_name_for_pid   (GPtrArray                   *processes,
                                                   gint64                       pid);

G_END_DECLS
