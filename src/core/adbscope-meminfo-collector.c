/* adbscope-meminfo-collector.c: the app's memory by category
 *
 * `dumpsys meminfo PKG` is slow on a phone (hundreds of ms, it walks the
 * process's maps), so it has its own shell and a longer interval than the
 * fast loop, which gives RSS every second.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-error.h"
#include "adbscope-meminfo-collector.h"
#include "adbscope-parse-meminfo.h"
#include "adbscope-meminfo-collector-private.h"

struct _AdbscopeMeminfoCollector
{
  AdbscopeCollector  parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopeMeminfoCollector, adbscope_meminfo_collector, ADBSCOPE_TYPE_COLLECTOR)


static double
known (gint64 v)
{
  return v >= 0 ? (double) v : NAN;
}

static double
row_pss (const AdbscopeMeminfoProcess *p,
         const char                   *label)
{
  const AdbscopeMeminfoRow *row = adbscope_meminfo_process_find_row (p, label);

  /* The first column is Pss (Total) in every layout. */
  return row != NULL && p->n_columns > 0 ? known (row->values[0]) : NAN;
}

gboolean
_adbscope_meminfo_collector_parse (const char             *package,
                                   const char             *output,
                                   AdbscopeMeminfoSample  *s,
                                   GError                **error)
{
  g_autoptr(AdbscopeMeminfo) info = adbscope_meminfo_parse (output, -1, error);
  const AdbscopeMeminfoProcess *p;
  const gint64 *sum;

  if (info == NULL)
    return FALSE;
  p = adbscope_meminfo_find_process (info, package);
  if (p == NULL && info->processes->len > 0)
    p = g_ptr_array_index (info->processes, 0);
  if (p == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING,
                   _("No process is running for “%s”"), package);
      return FALSE;
    }

  s->pid = p->pid;
  s->total_pss_kb = known (p->total_pss_kb);
  s->total_rss_kb = known (p->total_rss_kb);
  s->swap_pss_kb = known (p->total_swap_kb);
  sum = p->summary_pss_kb;
  if (sum[ADBSCOPE_MEMINFO_JAVA_HEAP] >= 0)
    {
      s->java_heap_kb = known (sum[ADBSCOPE_MEMINFO_JAVA_HEAP]);
      s->native_heap_kb = known (sum[ADBSCOPE_MEMINFO_NATIVE_HEAP]);
      s->code_kb = known (sum[ADBSCOPE_MEMINFO_CODE]);
      s->stack_kb = known (sum[ADBSCOPE_MEMINFO_STACK]);
      s->graphics_kb = known (sum[ADBSCOPE_MEMINFO_GRAPHICS]);
      s->private_other_kb = known (sum[ADBSCOPE_MEMINFO_PRIVATE_OTHER]);
      s->system_kb = known (sum[ADBSCOPE_MEMINFO_SYSTEM]);
    }
  else
    {
      /* Before the App Summary (Android 6): only the heaps are clear-cut. */
      s->java_heap_kb = row_pss (p, "Dalvik Heap");
      s->native_heap_kb = row_pss (p, "Native Heap");
      s->code_kb = s->stack_kb = s->graphics_kb = s->private_other_kb = s->system_kb = NAN;
    }
  return TRUE;
}

static char *
build_command (AdbscopeCollector *collector,
               guint              tick)
{
  return g_strdup_printf ("dumpsys meminfo %s", adbscope_collector_get_package (collector));
}

/* Never fails: an app that is not running (or garbage) is a sample of
 * unknowns, never zeros. */
static gpointer
parse (AdbscopeCollector  *collector,
       const char         *output,
       gint64              time_us,
       GError            **error)
{
  AdbscopeMeminfoSample *s = g_new0 (AdbscopeMeminfoSample, 1);
  g_autoptr(GError) local_error = NULL;

  if (!_adbscope_meminfo_collector_parse (adbscope_collector_get_package (collector), output, s, &local_error))
    {
      s->pid = -1;
      s->total_pss_kb = s->total_rss_kb = s->swap_pss_kb = s->java_heap_kb = s->native_heap_kb = NAN;
      s->code_kb = s->stack_kb = s->graphics_kb = s->private_other_kb = s->system_kb = NAN;
      g_debug ("meminfo: %s", local_error->message);
    }
  s->time_us = time_us;
  return s;
}

static void
adbscope_meminfo_collector_class_init (AdbscopeMeminfoCollectorClass *klass)
{
  AdbscopeCollectorClass *collector_class = ADBSCOPE_COLLECTOR_CLASS (klass);

  collector_class->build_command = build_command;
  collector_class->parse = parse;
  collector_class->free_sample = g_free;
}

static void
adbscope_meminfo_collector_init (AdbscopeMeminfoCollector *self)
{
}

AdbscopeMeminfoCollector *
adbscope_meminfo_collector_new (const char *serial,
                                const char *package)
{
  return g_object_new (ADBSCOPE_TYPE_MEMINFO_COLLECTOR,
                       "name", "meminfo", "serial", serial, "package", package,
                       "interval", 2000, NULL);
}
