/* adbscope-slow-collector.h: the 1 s ticker with offsets — battery, thermal, Doze, processes */
#pragma once

#include "adbscope-collector.h"
#include "adbscope-types.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_SLOW_COLLECTOR (adbscope_slow_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeSlowCollector, adbscope_slow_collector, ADBSCOPE, SLOW_COLLECTOR, AdbscopeCollector)


/* One tick: only the parts that were due are set (has_*). */
typedef struct
{
  gint64     time_us;
  gboolean   has_battery;
  double     battery_level_pct;
  double     battery_temp_c;
  double     voltage_mv;
  double     current_ma;      /* sign as the kernel reports it; NaN when unreadable */
  double     power_mw;        /* |V × I|; NaN without a current */
  gboolean   charging;
  gboolean   has_thermal;
  double     thermal_status;  /* PowerManager.THERMAL_STATUS_*, NaN unknown */
  double     max_temp_c;      /* hottest temperature sensor */
  gboolean   has_doze;
  char      *doze_deep;       /* "ACTIVE", "IDLE", … or NULL */
  char      *doze_light;
  char      *standby_bucket;  /* "ACTIVE", "WORKING_SET", … or NULL */
  gboolean   has_jobs;
  gint64     n_jobs;          /* the package's scheduled jobs */
  gint64     n_jobs_running;
  gboolean   has_alarms;
  gint64     n_alarms_pending;
  gint64     alarm_wakeups;   /* from the alarm stats; -1 when not listed */
  gboolean   has_processes;
  GArray    *processes;       /* AdbscopeAppProcess, the package and its :suffix processes */
  guint      implausible;     /* 1 << AdbscopeImplausible for each value read that no device
                               * can have (left NaN) */
} AdbscopeSlowSample;

AdbscopeSlowCollector *adbscope_slow_collector_new   (const char            *serial,
                                                      const char            *package,
                                                      gboolean               thermal,
                                                      gboolean               doze,
                                                      gboolean               jobs,
                                                      gboolean               alarms);
void                   adbscope_slow_sample_free     (AdbscopeSlowSample    *sample);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeSlowSample, adbscope_slow_sample_free)

G_END_DECLS
