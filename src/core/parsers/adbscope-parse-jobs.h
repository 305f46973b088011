/* adbscope-parse-jobs.h: one package's background work
 *
 * Pure parsers for `dumpsys jobscheduler` (the package's jobs), `dumpsys
 * alarm` (its pending alarms and per-package stats) and
 * `am get-standby-bucket PKG`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char    *job_namespace;    /* "androidx.work.systemjobscheduler" (14+), or NULL */
  char    *uid;              /* "1000", "u0a321" */
  gint64   job_id;
  char    *service;          /* "com.whatsapp/androidx.work.impl.background.systemjob.SystemJobService" */
  char    *source_package;   /* "Source: … pkg=" */
  char    *standby_bucket;   /* "ACTIVE", "RARE", …, or NULL */
  gboolean periodic;
  gboolean persisted;
  gboolean ready;            /* "Ready: true": every constraint met, waiting to run */
  gboolean running;          /* listed under "Active jobs:" */
  gboolean pending;          /* listed under "Pending queue:" */
  GStrv    required_constraints;    /* "CHARGING", "TIMING_DELAY", … */
  GStrv    satisfied_constraints;
  GStrv    unsatisfied_constraints; /* empty when all required ones are met */
} AdbscopeJob;

typedef struct
{
  gint64     n_registered;   /* "Registered N jobs:", all packages; -1 if absent */
  GPtrArray *jobs;           /* AdbscopeJob of the package */
} AdbscopeJobs;

typedef struct
{
  char    *type;             /* "ELAPSED_WAKEUP", "RTC", … */
  gboolean wakeup;
  gboolean past_due;         /* from "Past-due non-wakeup alarms:" */
  char    *package;
  char    *tag;              /* "*walarm*:com.whatsapp.action.HEARTBEAT_WAKEUP" */
  gint64   when_elapsed_ms;  /* elapsedRealtime of delivery (Alarm{… whenElapsed N}) */
  gint64   when_in_ms;       /* from now ("whenElapsed=+11m22s835ms"), may be < 0; G_MININT64 if absent */
  gint64   repeat_interval_ms;
  gint64   count;
} AdbscopeAlarm;

typedef struct
{
  GPtrArray *pending;        /* AdbscopeAlarm of the package */
  gboolean   has_stats;      /* the package has an "Alarm Stats:" entry */
  gint64     stats_running_ms;
  gint64     stats_wakeups;
  gint64     stats_alarms;   /* sum of "N alarms" over its tags */
} AdbscopeAlarms;

/* UsageStatsManager.STANDBY_BUCKET_* */
typedef enum
{
  ADBSCOPE_STANDBY_BUCKET_EXEMPTED = 5,
  ADBSCOPE_STANDBY_BUCKET_ACTIVE = 10,
  ADBSCOPE_STANDBY_BUCKET_WORKING_SET = 20,
  ADBSCOPE_STANDBY_BUCKET_FREQUENT = 30,
  ADBSCOPE_STANDBY_BUCKET_RARE = 40,
  ADBSCOPE_STANDBY_BUCKET_RESTRICTED = 45,
  ADBSCOPE_STANDBY_BUCKET_NEVER = 50,
} AdbscopeStandbyBucket;

AdbscopeJobs   *adbscope_jobs_parse             (const char   *text,
                                                 gssize        len,
                                                 const char   *package,
                                                 GError      **error);
void            adbscope_jobs_free              (AdbscopeJobs *jobs);

AdbscopeAlarms *adbscope_alarms_parse           (const char   *text,
                                                 gssize        len,
                                                 const char   *package,
                                                 GError      **error);
void            adbscope_alarms_free            (AdbscopeAlarms *alarms);

gboolean        adbscope_standby_bucket_parse   (const char            *text,
                                                 gssize                 len,
                                                 AdbscopeStandbyBucket *bucket,
                                                 GError               **error);
gboolean        adbscope_standby_bucket_from_string (const char            *s,
                                                     AdbscopeStandbyBucket *bucket);
const char     *adbscope_standby_bucket_to_string (AdbscopeStandbyBucket bucket);

gboolean        adbscope_parse_duration_ms      (const char   *s,
                                                 const char  **end,
                                                 gint64       *ms);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeJobs, adbscope_jobs_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAlarms, adbscope_alarms_free)

G_END_DECLS
