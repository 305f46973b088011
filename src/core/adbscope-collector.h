/* adbscope-collector.h: base of the collectors — one shell, one schedule, one parser
 *
 * A collector owns its AdbscopeShell and its ticker.  Each tick it asks the
 * subclass for a command, runs it, and hands the output to the subclass's
 * parse(), which turns it into the subclass's sample struct (with the pure
 * parsers); the base emits that as "sample" and frees it.  That is the one
 * way a collector reports: a failed command or a parse error drops the
 * tick and the session sees a missing sample.  The ticker never fires to
 * catch up (the seed rule): after a slow command the next tick waits one
 * whole interval from the answer, and the schedule continues from there.
 */
#pragma once

#include <gio/gio.h>

#include "adbscope-shell.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_COLLECTOR (adbscope_collector_get_type ())

G_DECLARE_DERIVABLE_TYPE (AdbscopeCollector, adbscope_collector, ADBSCOPE, COLLECTOR, GObject)

struct _AdbscopeCollectorClass
{
  GObjectClass parent_class;

  /* Returns the command for this tick, or NULL to skip it. */
  char *(*build_command) (AdbscopeCollector *self,
                          guint              tick);
  /* The output of this tick's command, into a sample stamped @time_us
   * (the middle of the round trip), or NULL with @error to drop it. */
  gpointer (*parse)      (AdbscopeCollector *self,
                          const char        *output,
                          gint64             time_us,
                          GError           **error);
  GDestroyNotify free_sample;

  gpointer padding[8];
};

const char    *adbscope_collector_get_name      (AdbscopeCollector *self);
const char    *adbscope_collector_get_package   (AdbscopeCollector *self);
void           adbscope_collector_set_interval  (AdbscopeCollector *self,
                                                 guint              interval_ms);
void           adbscope_collector_start         (AdbscopeCollector *self);
void           adbscope_collector_stop          (AdbscopeCollector *self);

G_END_DECLS
