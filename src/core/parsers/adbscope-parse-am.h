/* adbscope-parse-am.h: `am start -W`, `cmd package resolve-activity --brief`
 * and logcat's "Displayed" line → structs
 *
 * Pure.  `am start -W` prints "Status: ok", "LaunchState: COLD|WARM|HOT"
 * (Android 10+), "Activity: PKG/.A", "ThisTime:" (up to 9), "TotalTime:",
 * "WaitTime:", "Complete"; or "Error: …" / "Warning: …" lines.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean ok;              /* "Status: ok" */
  gboolean timed_out;       /* "Status: timeout": the start took longer than am waits (a slow
                             * start, not a failed one); TotalTime is then usually absent */
  char    *launch_state;    /* "COLD", "WARM", "HOT", or NULL */
  char    *activity;        /* NULL when not printed */
  gint64   total_ms;        /* -1 when not printed */
  gint64   wait_ms;
  gint64   this_ms;
  char    *warning;         /* "Warning: …" (e.g. brought to the front), or NULL */
} AdbscopeAmStart;

AdbscopeAmStart *adbscope_am_start_parse         (const char       *text,
                                                  gssize            len,
                                                  GError          **error);
void             adbscope_am_start_free          (AdbscopeAmStart  *start);
char            *adbscope_resolve_activity_parse (const char       *text,
                                                  gssize            len,
                                                  const char       *package,
                                                  GError          **error);
gint64           adbscope_logcat_displayed_ms    (const char       *text,
                                                  gssize            len,
                                                  const char       *package);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAmStart, adbscope_am_start_free)

G_END_DECLS
