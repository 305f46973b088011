/* adbscope-meminfo-collector.c: the app's memory by category
 *
 * `dumpsys meminfo PKG` is slow on a phone (hundreds of ms, it walks the
 * process's maps), so it has its own shell and a longer interval than the
 * fast loop, which gives RSS every second.  The app's other processes
 * (PKG:name, told by the session from the fast loop) are dumped in the same
 * call by process name, for their PSS.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-error.h"
#include "adbscope-meminfo-collector.h"
#include "adbscope-parse-meminfo.h"
#include "adbscope-meminfo-collector-private.h"

struct _AdbscopeMeminfoCollector
{
  AdbscopeCollector  parent_instance;
  GStrv              others;
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

/* "PKG:name" */
static gboolean
is_other_process (const char *name,
                  const char *package)
{
  return name != NULL && g_str_has_prefix (name, package) && name[strlen (package)] == ':';
}

static void
process_pss_clear (AdbscopeProcessPss *p)
{
  g_clear_pointer (&p->name, g_free);
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
  /* The first process when none is named so (old builds print no name),
   * but never another process of the app. */
  if (p == NULL && info->processes->len > 0 &&
      !is_other_process (((AdbscopeMeminfoProcess *) g_ptr_array_index (info->processes, 0))->package, package))
    p = g_ptr_array_index (info->processes, 0);
  if (p == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING,
                   _("No process is running for “%s”"), package);
      return FALSE;
    }

  for (guint i = 0; i < info->processes->len; i++)
    {
      const AdbscopeMeminfoProcess *o = g_ptr_array_index (info->processes, i);
      AdbscopeProcessPss pss;

      if (o == p || !is_other_process (o->package, package))
        continue;
      if (s->processes == NULL)
        {
          s->processes = g_array_new (FALSE, TRUE, sizeof (AdbscopeProcessPss));
          g_array_set_clear_func (s->processes, (GDestroyNotify) process_pss_clear);
        }
      pss.pid = (int) o->pid;
      pss.name = g_strdup (o->package);
      pss.pss_kb = known (o->total_pss_kb);
      g_array_append_val (s->processes, pss);
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
  AdbscopeMeminfoCollector *self = ADBSCOPE_MEMINFO_COLLECTOR (collector);
  GString *cmd = g_string_new (NULL);

  g_string_append_printf (cmd, ADBSCOPE_CMD_MEMINFO, adbscope_collector_get_package (collector));
  for (guint i = 0; self->others != NULL && self->others[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (self->others[i]);

      g_string_append_printf (cmd, "; " ADBSCOPE_CMD_MEMINFO, quoted);
    }
  return g_string_free (cmd, FALSE);
}

/* The app's PKG:name processes to dump too (from the next tick on). */
void
adbscope_meminfo_collector_set_other_processes (AdbscopeMeminfoCollector *self,
                                                const char * const       *names)
{
  g_return_if_fail (ADBSCOPE_IS_MEMINFO_COLLECTOR (self));
  g_strfreev (self->others);
  self->others = g_strdupv ((char **) names);
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
meminfo_sample_free (AdbscopeMeminfoSample *s)
{
  g_clear_pointer (&s->processes, g_array_unref);
  g_free (s);
}

static void
adbscope_meminfo_collector_finalize (GObject *object)
{
  g_strfreev (ADBSCOPE_MEMINFO_COLLECTOR (object)->others);
  G_OBJECT_CLASS (adbscope_meminfo_collector_parent_class)->finalize (object);
}

static void
adbscope_meminfo_collector_class_init (AdbscopeMeminfoCollectorClass *klass)
{
  AdbscopeCollectorClass *collector_class = ADBSCOPE_COLLECTOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = adbscope_meminfo_collector_finalize;
  collector_class->build_command = build_command;
  collector_class->parse = parse;
  collector_class->free_sample = (GDestroyNotify) meminfo_sample_free;
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
