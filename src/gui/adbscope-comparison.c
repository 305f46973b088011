/* adbscope-comparison.c: a second recording overlaid on the one shown
 *
 * Holds the whole second run (read once, in a thread when opened from the
 * window: its report, markers and the stacks' sums), a reader of its file (charts read their visible
 * window through its level of detail) and the alignment: overlay layers
 * draw its sample at time t at t + offset in the shown run's clock, and
 * follow the offset when it changes.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-comparison.h"
#include "adbscope-report.h"

struct _AdbscopeComparison
{
  GObject      parent_instance;

  AdbscopeRun *run;
  JsonNode    *report;       /* of run, for the summary */
  AdbscopeRecordingReader *reader;
  char        *path;
  char        *name;
  gint64       offset_us;
};

G_DEFINE_FINAL_TYPE (AdbscopeComparison, adbscope_comparison, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_OFFSET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
adbscope_comparison_finalize (GObject *object)
{
  AdbscopeComparison *self = ADBSCOPE_COMPARISON (object);

  g_clear_pointer (&self->run, adbscope_run_free);
  g_clear_pointer (&self->report, json_node_unref);
  g_clear_object (&self->reader);
  g_free (self->path);
  g_free (self->name);
  G_OBJECT_CLASS (adbscope_comparison_parent_class)->finalize (object);
}

static void
adbscope_comparison_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AdbscopeComparison *self = ADBSCOPE_COMPARISON (object);

  switch (prop_id)
    {
    case PROP_OFFSET:
      g_value_set_int64 (value, self->offset_us);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_comparison_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AdbscopeComparison *self = ADBSCOPE_COMPARISON (object);

  switch (prop_id)
    {
    case PROP_OFFSET:
      adbscope_comparison_set_offset (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_comparison_class_init (AdbscopeComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = adbscope_comparison_finalize;
  object_class->get_property = adbscope_comparison_get_property;
  object_class->set_property = adbscope_comparison_set_property;

  /* Added to the second run's times to place them on the shown run's clock */
  properties[PROP_OFFSET] =
    g_param_spec_int64 ("offset-us", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_comparison_init (AdbscopeComparison *self)
{
}

/**
 * adbscope_comparison_new:
 * @path: a recording
 *
 * Reads the whole recording; a file that is not one is an error.
 */
AdbscopeComparison *
adbscope_comparison_new (const char  *path,
                         GError     **error)
{
  AdbscopeRun *run;
  AdbscopeRecordingReader *reader;
  AdbscopeComparison *self;

  g_return_val_if_fail (path != NULL, NULL);

  run = adbscope_run_load (path, G_MININT64, G_MAXINT64, error);
  if (run == NULL)
    return NULL;
  reader = adbscope_recording_reader_new (path, error);
  if (reader == NULL)
    {
      adbscope_run_free (run);
      return NULL;
    }
  adbscope_recording_reader_set_prefetch (reader, TRUE);
  self = g_object_new (ADBSCOPE_TYPE_COMPARISON, NULL);
  self->run = run;
  self->reader = reader;
  self->path = g_strdup (path);
  self->name = g_path_get_basename (path);
  return self;
}

static void
new_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;
  AdbscopeComparison *self = adbscope_comparison_new (task_data, &error);

  if (self == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  self->report = adbscope_report_build_run (self->run, NULL);
  g_task_return_pointer (task, self, g_object_unref);
}

/**
 * adbscope_comparison_new_async:
 *
 * adbscope_comparison_new () and the report of the run, in a thread.
 */
void
adbscope_comparison_new_async (const char          *path,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_return_if_fail (path != NULL);
  g_task_set_source_tag (task, adbscope_comparison_new_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, new_thread);
}

AdbscopeComparison *
adbscope_comparison_new_finish (GAsyncResult  *result,
                                GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * adbscope_comparison_get_report:
 *
 * Returns: (transfer none): the report of the compared run, as `adbscope
 *   report` gives it (computed once)
 */
JsonNode *
adbscope_comparison_get_report (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  if (self->report == NULL)
    self->report = adbscope_report_build_run (self->run, NULL);
  return self->report;
}

const AdbscopeRun *
adbscope_comparison_get_run (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return self->run;
}

const char *
adbscope_comparison_get_path (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return self->path;
}

/* Returns: (transfer none): where overlay layers read the file */
AdbscopeRecordingReader *
adbscope_comparison_get_reader (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return self->reader;
}

/* The file's name, for legends */
const char *
adbscope_comparison_get_name (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return self->name;
}

/**
 * adbscope_run_describe:
 * @path: (nullable): the run's file
 * @start: (nullable): ISO 8601 start
 *
 * Returns: "FILE · PACKAGE · DATE", what the comparison legend names a run by
 */
char *
adbscope_run_describe (const char *path,
                       const char *package,
                       const char *start)
{
  g_autoptr(GDateTime) utc = start != NULL ? g_date_time_new_from_iso8601 (start, NULL) : NULL;
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  g_autofree char *date = local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M") : NULL;
  g_autofree char *name = path != NULL ? g_path_get_basename (path) : NULL;
  GString *text = g_string_new (name != NULL ? name : _("Live run"));

  if (package != NULL)
    g_string_append_printf (text, " · %s", package);
  if (date != NULL)
    g_string_append_printf (text, " · %s", date);
  return g_string_free (text, FALSE);
}

char *
adbscope_comparison_dup_description (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return adbscope_run_describe (self->path, self->run->package, self->run->start);
}

gint64
adbscope_comparison_get_offset (AdbscopeComparison *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), 0);
  return self->offset_us;
}

void
adbscope_comparison_set_offset (AdbscopeComparison *self,
                                gint64              offset_us)
{
  g_return_if_fail (ADBSCOPE_IS_COMPARISON (self));

  if (self->offset_us == offset_us)
    return;
  self->offset_us = offset_us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET]);
}

/* Returns: (transfer none) (nullable): core @core's samples, if it had one */
const GArray *
adbscope_comparison_get_core_samples (AdbscopeComparison *self,
                                      guint               core)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), NULL);
  return core < self->run->cores->len ? g_ptr_array_index (self->run->cores, core) : NULL;
}

/**
 * adbscope_comparison_sum_samples:
 *
 * The sum of several series sampled together (a stack's top), at the
 * times of the first; NaN where any part has no finite sample then.
 *
 * Returns: (transfer full) (element-type AdbscopeSample)
 */
GArray *
adbscope_comparison_sum_samples (AdbscopeComparison     *self,
                                 const AdbscopeSeriesId *ids,
                                 guint                   n_ids)
{
  GArray *sum = g_array_new (FALSE, FALSE, sizeof (AdbscopeSample));
  g_autofree guint *next = g_new0 (guint, n_ids);
  const GArray *first;

  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), sum);
  if (n_ids == 0)
    return sum;

  first = self->run->series[ids[0]];
  for (guint i = 0; i < first->len; i++)
    {
      AdbscopeSample s = g_array_index (first, AdbscopeSample, i);

      for (guint k = 1; k < n_ids; k++)
        {
          const GArray *part = self->run->series[ids[k]];

          while (next[k] < part->len && g_array_index (part, AdbscopeSample, next[k]).time_us < s.time_us)
            next[k]++;
          if (next[k] < part->len && g_array_index (part, AdbscopeSample, next[k]).time_us == s.time_us)
            s.value += g_array_index (part, AdbscopeSample, next[k]).value;
          else
            s.value = NAN;
        }
      g_array_append_val (sum, s);
    }
  return sum;
}

/**
 * adbscope_comparison_find_marker:
 * @time_us: (out): the first marker labelled @label, since the run's start
 */
gboolean
adbscope_comparison_find_marker (AdbscopeComparison *self,
                                 const char         *label,
                                 gint64             *time_us)
{
  g_return_val_if_fail (ADBSCOPE_IS_COMPARISON (self), FALSE);

  for (guint i = 0; i < self->run->markers->len; i++)
    {
      const AdbscopeMarker *m = &g_array_index (self->run->markers, AdbscopeMarker, i);

      if (g_strcmp0 (m->label, label) == 0)
        {
          *time_us = m->time_us;
          return TRUE;
        }
    }
  return FALSE;
}
