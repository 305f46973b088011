/* adbscope-collector.h: base of the collectors — one shell, one schedule, one parser
 *
 * A collector owns its AdbscopeShell and its ticker.  Each tick it asks the
 * subclass for a command, runs it, and hands the output to the subclass,
 * which parses it (pure parsers) and emits its own update signal.  The
 * ticker never fires to catch up (the seed rule): after a slow command the
 * next tick waits one whole interval from the answer, and the schedule
 * continues from there.
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
  void  (*handle_output) (AdbscopeCollector *self,
                          guint              tick,
                          const char        *output,
                          int                exit_status,
                          gint64             sent_us,
                          gint64             received_us);
  void  (*handle_error)  (AdbscopeCollector *self,
                          guint              tick,
                          const GError      *error);
  /* The default handle_output: parse into a sample (emitted, then freed
   * with free_sample), or fail and the tick is dropped. */
  gpointer (*parse)      (AdbscopeCollector *self,
                          const char        *output,
                          gint64             time_us,
                          GError           **error);
  GDestroyNotify free_sample;

  gpointer padding[6];
};

const char    *adbscope_collector_get_name      (AdbscopeCollector *self);
const char    *adbscope_collector_get_package   (AdbscopeCollector *self);
void           adbscope_collector_emit_sample   (AdbscopeCollector *self,
                                                 gconstpointer      sample);
AdbscopeShell *adbscope_collector_get_shell     (AdbscopeCollector *self);
guint          adbscope_collector_get_interval  (AdbscopeCollector *self);
void           adbscope_collector_set_interval  (AdbscopeCollector *self,
                                                 guint              interval_ms);
void           adbscope_collector_start         (AdbscopeCollector *self);
void           adbscope_collector_stop          (AdbscopeCollector *self);
gboolean       adbscope_collector_is_running    (AdbscopeCollector *self);
guint64        adbscope_collector_get_n_ticks   (AdbscopeCollector *self);
guint64        adbscope_collector_get_n_errors  (AdbscopeCollector *self);
double         adbscope_collector_get_last_round_trip_ms (AdbscopeCollector *self);

G_END_DECLS
