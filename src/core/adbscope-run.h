/* adbscope-run.h: everything the report needs about one run, whole
 *
 * Loaded from a recording (the whole run, or a window of it) or taken from
 * a live session (what it holds in memory).  The report is computed from
 * this and nothing else, so a live run and its recording give one answer.
 * Times are microseconds since the run's start.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "adbscope-screenshot.h"
#include "adbscope-session.h"

G_BEGIN_DECLS

typedef struct
{
  int     tid;
  char   *name;
  double  last_pct;
  double  max_pct;
} AdbscopeRunThread;

typedef struct _AdbscopeRun
{
  char       *recording;       /* path; NULL for a live session */
  char       *serial;
  char       *package;
  char       *start;           /* ISO 8601 UTC */
  guint       interval_ms;
  gint64      end_us;          /* length of the whole run */
  gboolean    windowed;
  gboolean    to_end;          /* the window reaches the run's end (its latest sample is the run's) */
  gint64      from_us;         /* the window: [from_us, to_us] */
  gint64      to_us;
  JsonObject *device;          /* the report's objects, as probed */
  JsonObject *sources;
  JsonObject *network_agent;   /* the report's network.agent, as the run ended */
  JsonObject *device_loss;     /* the report's run.device_lost/device_losses */
  JsonObject *session_extras;  /* adbscope_report_session_extras (), kept in the meta */
  double      refresh_hz;

  GArray     *series[ADBSCOPE_N_SERIES];  /* AdbscopeSample */
  GPtrArray  *cores;                      /* GArray of AdbscopeSample */
  GArray     *markers;         /* AdbscopeMarker */
  GArray     *gaps;            /* AdbscopeGap, end_us filled in */
  GArray     *dts;             /* double s */
  GArray     *pids;            /* gint64 */
  guint64     n_samples;
  guint       restarts;
  GArray     *restart_times;   /* gint64 µs of each restart, oldest first */

  AdbscopeFrameTotals totals;
  GArray     *frame_times;     /* double ms, sorted */
  /* Where the frames came from and SurfaceFlinger's counts (frame_times
   * sorted when read from a file).  The rows of a recording before
   * version 3 do not hold them: its summary comes from the meta's
   * session_extras, whole run (fsum_whole_run). */
  AdbscopeFramesSummary fsum;
  gboolean    fsum_whole_run;
  int         version;         /* of the recording; 0 for a live session */

  GArray     *threads;         /* AdbscopeRunThread, alive at the end */
  AdbscopeSystemState *system; /* the last word of the slow loop */
  /* Screenshots (AdbscopeScreenshot*, png NULL: adbscope_run_read_screenshot)
   * in the window, and their interval (NaN: screenshots were off; 0: at
   * markers only). */
  GPtrArray  *screenshots;
  double      screenshot_interval_s;
  guint       screenshots_skipped;   /* over the whole run */
  guint       implausible[ADBSCOPE_IMPLAUSIBLE_N]; /* values no device can have, by kind, over the whole run */
  /* A live run's session, for what recordings do not keep yet (frame
   * sources, the app's processes, the GPU node); NULL for a recording. */
  AdbscopeSession *session;
  /* adbscope_run_load_summary () or _details (): not every part was read */
  gboolean    partial;
} AdbscopeRun;

/* A window: G_MININT64 / G_MAXINT64 for "from the start" / "to the end". */
AdbscopeRun *adbscope_run_load              (const char       *path,
                                             gint64            from_us,
                                             gint64            to_us,
                                             GError          **error);
AdbscopeRun *adbscope_run_load_summary      (const char       *path,
                                             GError          **error);
AdbscopeRun *adbscope_run_load_details      (const char       *path,
                                             GError          **error);
guint64      adbscope_run_get_n_samples_read (void);
AdbscopeRun *adbscope_run_new_from_session  (AdbscopeSession  *session);
void         adbscope_run_free              (AdbscopeRun      *run);
AdbscopeProbeResult *adbscope_run_dup_probe (const AdbscopeRun *run);
/* The first marker labelled @label: its time and the next marker's (or
 * the end); FALSE when there is none. */
gboolean     adbscope_run_find_marker       (const char       *path,
                                             const char       *label,
                                             gint64           *from_us,
                                             gint64           *to_us,
                                             GError          **error);

/* The PNG of the screenshot taken at @t_us (µs since the run's start). */
GBytes      *adbscope_run_read_screenshot   (const char       *path,
                                             gint64            t_us,
                                             GError          **error);

/* One column of a chart: the extremes of a time range. */
typedef struct
{
  gint64 t_us;         /* start of the range */
  gint64 width_us;
  guint  n;            /* finite samples in it */
  double min;
  double max;
  double avg;
} AdbscopeRunBucket;

GArray      *adbscope_run_read_buckets      (const char       *path,
                                             const char       *series_path,
                                             gint64            from_us,
                                             gint64            to_us,
                                             guint             max_buckets,
                                             GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeRun, adbscope_run_free)

G_END_DECLS
