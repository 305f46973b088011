/* adbscope-launch.c: measure an app's start-up time with `am start -W`
 *
 * One persistent shell.  First the launcher activity is resolved (`cmd
 * package resolve-activity --brief`); for warm and hot starts the app is
 * started once, uncounted, so there is something to come back to.  Each
 * run is one command: the preparation (force-stop, Back, or Home), `am
 * start -W -n COMPONENT`, and logcat's "Displayed" lines before and after,
 * so a line is only taken when this run added it.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-launch.h"
#include "adbscope-parse-am.h"
#include "adbscope-series.h"
#include "adbscope-shell.h"
#include "adbscope-validate.h"

#define AFTER_MARK "@@adbscope-displayed-before:"

typedef struct
{
  AdbscopeShell        *shell;
  AdbscopeLaunchResult *result;
  guint                 runs;
  gboolean              primed;
} Launch;

static void
launch_free (Launch *l)
{
  if (l->shell != NULL)
    adbscope_shell_close (l->shell);
  g_clear_object (&l->shell);
  g_clear_pointer (&l->result, adbscope_launch_result_free);
  g_free (l);
}

static void
run_clear (AdbscopeLaunchRun *r)
{
  g_clear_pointer (&r->launch_state, g_free);
}

void
adbscope_launch_result_free (AdbscopeLaunchResult *result)
{
  if (result == NULL)
    return;
  g_free (result->package);
  g_free (result->component);
  g_array_unref (result->runs);
  g_free (result);
}

const char *
adbscope_launch_mode_to_string (AdbscopeLaunchMode mode)
{
  switch (mode)
    {
    case ADBSCOPE_LAUNCH_WARM: return "warm";
    case ADBSCOPE_LAUNCH_HOT: return "hot";
    case ADBSCOPE_LAUNCH_COLD:
    default: return "cold";
    }
}

static void next_step (GTask *task);

static char *
run_command (Launch *l)
{
  g_autofree char *comp = g_shell_quote (l->result->component);
  const char *pkg = l->result->package;
  g_autofree char *logcat = g_strdup_printf ("logcat -d -s ActivityTaskManager:I ActivityManager:I 2>/dev/null"
                                             " | grep 'Displayed %s/'", pkg);
  const char *prep;

  if (!l->primed)
    prep = "true";
  else if (l->result->mode == ADBSCOPE_LAUNCH_COLD)
    prep = NULL;
  else if (l->result->mode == ADBSCOPE_LAUNCH_WARM)
    prep = "input keyevent 4; sleep 1";
  else
    prep = "input keyevent 3; sleep 1";

  /* The package was validated; it has no quotes or spaces. */
  if (prep == NULL)
    return g_strdup_printf ("b=$(%s | grep -c .); am force-stop %s; am start -W -n %s 2>&1; echo \"" AFTER_MARK "$b\"; %s",
                            logcat, pkg, comp, logcat);
  return g_strdup_printf ("b=$(%s | grep -c .); %s; am start -W -n %s 2>&1; echo \"" AFTER_MARK "$b\"; %s",
                          logcat, prep, comp, logcat);
}

/* One run from what `am start -W` printed.  "Status: timeout" is a start
 * slower than am waits: a run, marked timed_out, with the times am gave
 * (TotalTime usually none: -1, never a made-up number); a start without
 * "Status: ok" and a time is an error. */
gboolean
_adbscope_launch_run_from_am (const AdbscopeAmStart *st,
                              AdbscopeLaunchRun     *run,
                              GError               **error)
{
  if (!st->timed_out && (!st->ok || st->total_ms < 0))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("The app did not start: %s"),
                   st->warning != NULL ? st->warning : _("am start reported no start time"));
      return FALSE;
    }
  run->timed_out = st->timed_out;
  run->total_ms = st->total_ms;
  run->wait_ms = st->wait_ms;
  run->launch_state = g_strdup (st->launch_state);
  return TRUE;
}

static void
run_cb (GObject      *object,
        GAsyncResult *res,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Launch *l = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAmStart) st = NULL;
  g_autofree char *output = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), res, NULL, &error);
  AdbscopeLaunchRun run = { -1, -1, -1, NULL };
  const char *mark;
  gsize am_len;

  if (output == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  mark = strstr (output, AFTER_MARK);
  am_len = mark != NULL ? (gsize) (mark - output) : strlen (output);
  st = adbscope_am_start_parse (output, am_len, &error);
  if (st == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!l->primed)
    {
      l->primed = TRUE;
      next_step (g_steal_pointer (&task));
      return;
    }
  if (!_adbscope_launch_run_from_am (st, &run, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (mark != NULL)
    {
      const char *after = strchr (mark, '\n');
      guint64 before = g_ascii_strtoull (mark + strlen (AFTER_MARK), NULL, 10);
      guint64 now = 0;

      for (const char *p = after; p != NULL && (p = strchr (p, '\n')) != NULL && p[1] != '\0'; p++)
        now++;
      /* Only a line this run added is its own. */
      if (after != NULL && now > before)
        run.displayed_ms = adbscope_logcat_displayed_ms (after, -1, l->result->package);
    }
  g_array_append_val (l->result->runs, run);
  next_step (g_steal_pointer (&task));
}

static void
resolve_cb (GObject      *object,
            GAsyncResult *res,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Launch *l = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *output = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), res, NULL, &error);

  if (output == NULL ||
      (l->result->component = adbscope_resolve_activity_parse (output, -1, l->result->package, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* A cold start needs nothing to come back to. */
  l->primed = l->result->mode == ADBSCOPE_LAUNCH_COLD;
  next_step (g_steal_pointer (&task));
}

static void
next_step (GTask *task)
{
  Launch *l = g_task_get_task_data (task);
  g_autofree char *cmd = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  if (l->result->runs->len == l->runs)
    {
      g_task_return_pointer (task, g_steal_pointer (&l->result), (GDestroyNotify) adbscope_launch_result_free);
      g_object_unref (task);
      return;
    }
  cmd = run_command (l);
  adbscope_shell_run_async (l->shell, cmd, g_task_get_cancellable (task), run_cb, task);
}

void
adbscope_launch_measure_async (const char          *serial,
                               const char          *package,
                               AdbscopeLaunchMode   mode,
                               guint                runs,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  g_autofree char *cmd = NULL;
  Launch *l;

  g_task_set_source_tag (task, adbscope_launch_measure_async);
  if (package == NULL || !adbscope_package_name_is_valid (package))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                               _("“%s” is not a valid package name"), package ? package : "");
      g_object_unref (task);
      return;
    }
  if (serial == NULL || !adbscope_serial_is_valid (serial))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                               _("“%s” is not a valid device serial"), serial ? serial : "");
      g_object_unref (task);
      return;
    }
  l = g_new0 (Launch, 1);
  l->shell = adbscope_shell_new (serial);
  /* a cold start of a big app takes seconds; am waits for it */
  adbscope_shell_set_timeout (l->shell, 60000);
  l->runs = MAX (runs, 1);
  l->result = g_new0 (AdbscopeLaunchResult, 1);
  l->result->package = g_strdup (package);
  l->result->mode = mode;
  l->result->runs = g_array_new (FALSE, TRUE, sizeof (AdbscopeLaunchRun));
  g_array_set_clear_func (l->result->runs, (GDestroyNotify) run_clear);
  g_task_set_task_data (task, l, (GDestroyNotify) launch_free);
  cmd = g_strdup_printf ("cmd package resolve-activity --brief %s 2>&1", package);
  adbscope_shell_run_async (l->shell, cmd, cancellable, resolve_cb, task);
}

AdbscopeLaunchResult *
adbscope_launch_measure_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gint64
column_value (const AdbscopeLaunchRun *r,
              const char              *column)
{
  if (g_str_equal (column, "total"))
    return r->total_ms;
  if (g_str_equal (column, "wait"))
    return r->wait_ms;
  return r->displayed_ms;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

gboolean
adbscope_launch_result_stats (const AdbscopeLaunchResult *result,
                              const char                 *column,
                              double                     *p50,
                              double                     *p90,
                              double                     *min,
                              double                     *max)
{
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (double));

  g_return_val_if_fail (result != NULL && column != NULL, FALSE);
  for (guint i = 0; i < result->runs->len; i++)
    {
      gint64 x = column_value (&g_array_index (result->runs, AdbscopeLaunchRun, i), column);

      if (x >= 0)
        {
          double d = (double) x;
          g_array_append_val (v, d);
        }
    }
  *p50 = *p90 = *min = *max = NAN;
  if (v->len == 0)
    return FALSE;
  g_array_sort (v, compare_double);
  *p50 = adbscope_percentile_nearest_rank ((double *) v->data, v->len, 50);
  *p90 = adbscope_percentile_nearest_rank ((double *) v->data, v->len, 90);
  *min = g_array_index (v, double, 0);
  *max = g_array_index (v, double, v->len - 1);
  return TRUE;
}

static void
add_ms (JsonBuilder *b,
        const char  *key,
        double       v)
{
  json_builder_set_member_name (b, key);
  if (isfinite (v) && v >= 0)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_null_value (b);
}

/* {"package","component","mode","runs":[{"total_ms","wait_ms","displayed_ms","launch_state","timed_out"}],
 *  "timeouts", "total_ms":{"p50","p90","min","max","n"}, "wait_ms":{…}, "displayed_ms":{…}} */
JsonNode *
adbscope_launch_result_to_json (const AdbscopeLaunchResult *result)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  static const char * const columns[] = { "total", "wait", "displayed" };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "package");
  json_builder_add_string_value (b, result->package);
  json_builder_set_member_name (b, "component");
  json_builder_add_string_value (b, result->component);
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, adbscope_launch_mode_to_string (result->mode));
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < result->runs->len; i++)
    {
      const AdbscopeLaunchRun *r = &g_array_index (result->runs, AdbscopeLaunchRun, i);

      json_builder_begin_object (b);
      add_ms (b, "total_ms", r->total_ms);
      add_ms (b, "wait_ms", r->wait_ms);
      add_ms (b, "displayed_ms", r->displayed_ms);
      json_builder_set_member_name (b, "launch_state");
      if (r->launch_state != NULL)
        json_builder_add_string_value (b, r->launch_state);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "timed_out");
      json_builder_add_boolean_value (b, r->timed_out);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  {
    guint timeouts = 0;

    for (guint i = 0; i < result->runs->len; i++)
      timeouts += g_array_index (result->runs, AdbscopeLaunchRun, i).timed_out;
    json_builder_set_member_name (b, "timeouts");
    json_builder_add_int_value (b, timeouts);
  }
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      g_autofree char *key = g_strconcat (columns[c], "_ms", NULL);
      double p50, p90, min, max;
      guint n = 0;

      for (guint i = 0; i < result->runs->len; i++)
        n += column_value (&g_array_index (result->runs, AdbscopeLaunchRun, i), columns[c]) >= 0;
      adbscope_launch_result_stats (result, columns[c], &p50, &p90, &min, &max);
      json_builder_set_member_name (b, key);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "n");
      json_builder_add_int_value (b, n);
      add_ms (b, "p50", p50);
      add_ms (b, "p90", p90);
      add_ms (b, "min", min);
      add_ms (b, "max", max);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
