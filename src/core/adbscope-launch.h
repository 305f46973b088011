/* adbscope-launch.h: measure an app's start-up time with `am start -W` */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "adbscope-parse-am.h"

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_LAUNCH_COLD,   /* force-stopped first: a new process */
  ADBSCOPE_LAUNCH_WARM,   /* process alive, activity finished (Back) */
  ADBSCOPE_LAUNCH_HOT,    /* activity in the background (Home) */
} AdbscopeLaunchMode;

typedef struct
{
  gint64  total_ms;       /* TotalTime, -1 if not printed */
  gint64  wait_ms;        /* WaitTime */
  gint64  displayed_ms;   /* logcat "Displayed … +Nms", -1 where absent */
  char   *launch_state;   /* as am reported it (Android 10+), or NULL */
  gboolean timed_out;     /* am start -W said "Status: timeout": a slow start, its
                           * TotalTime unknown (-1) unless am printed one */
} AdbscopeLaunchRun;

typedef struct
{
  char               *package;
  char               *component;
  AdbscopeLaunchMode  mode;
  GArray             *runs;   /* AdbscopeLaunchRun */
} AdbscopeLaunchResult;

const char           *adbscope_launch_mode_to_string (AdbscopeLaunchMode    mode);
void                  adbscope_launch_measure_async  (const char           *serial,
                                                      const char           *package,
                                                      AdbscopeLaunchMode    mode,
                                                      guint                 runs,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
AdbscopeLaunchResult *adbscope_launch_measure_finish (GAsyncResult         *result,
                                                      GError              **error);
/* p50, p90 (nearest rank), min, max of one column ("total", "wait",
 * "displayed") over the runs that printed it; FALSE when none did. */
gboolean              adbscope_launch_result_stats   (const AdbscopeLaunchResult *result,
                                                      const char           *column,
                                                      double               *p50,
                                                      double               *p90,
                                                      double               *min,
                                                      double               *max);
JsonNode             *adbscope_launch_result_to_json (const AdbscopeLaunchResult *result);
void                  adbscope_launch_result_free    (AdbscopeLaunchResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeLaunchResult, adbscope_launch_result_free)

/* In-tree, for tests: one run from `am start -W`'s output. */
gboolean              _adbscope_launch_run_from_am   (const AdbscopeAmStart *st,
                                                      AdbscopeLaunchRun     *run,
                                                      GError               **error);

G_END_DECLS
