/* adbscope-parse-jobs.c: jobscheduler, alarm and standby bucket parsers */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-dumpsys-private.h"
#include "adbscope-parse-jobs.h"

static gsize
indent_of (const char *line)
{
  return _adbscope_skip_space (line) - line;
}

/* TimeUtils.formatDuration(): "+1h10m37s223ms", "-20s565ms", "+1d0h0m0s0ms",
 * "0". */
gboolean
adbscope_parse_duration_ms (const char  *s,
                            const char **end,
                            gint64      *ms)
{
  gint64 total = 0;
  gboolean neg = FALSE;
  gboolean any = FALSE;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (ms != NULL, FALSE);

  if (*s == '+' || *s == '-')
    neg = *s++ == '-';

  while (g_ascii_isdigit (*s))
    {
      gint64 n = 0;
      gint64 unit;

      while (g_ascii_isdigit (*s))
        {
          if (n > G_MAXINT64 / 100)
            return FALSE;
          n = n * 10 + (*s++ - '0');
        }

      if (s[0] == 'm' && s[1] == 's')
        {
          unit = 1;
          s += 2;
        }
      else if (*s == 'd')
        unit = 86400000, s++;
      else if (*s == 'h')
        unit = 3600000, s++;
      else if (*s == 'm')
        unit = 60000, s++;
      else if (*s == 's')
        unit = 1000, s++;
      else if (!any && n == 0)
        unit = 0;        /* a bare "0" */
      else
        return FALSE;

      if (unit != 0 && n > (G_MAXINT64 / 4 - total) / unit)
        return FALSE;
      total += n * unit;
      any = TRUE;
      if (unit == 0 || unit == 1)
        break;
    }

  if (!any)
    return FALSE;
  *ms = neg ? -total : total;
  if (end != NULL)
    *end = s;
  return TRUE;
}

/* ---------------------------------------------------------------- jobs */

static void
job_free (gpointer data)
{
  AdbscopeJob *job = data;

  g_free (job->job_namespace);
  g_free (job->uid);
  g_free (job->service);
  g_free (job->source_package);
  g_free (job->standby_bucket);
  g_strfreev (job->required_constraints);
  g_strfreev (job->satisfied_constraints);
  g_strfreev (job->unsatisfied_constraints);
  g_free (job);
}

void
adbscope_jobs_free (AdbscopeJobs *jobs)
{
  if (jobs == NULL)
    return;
  g_ptr_array_unref (jobs->jobs);
  g_free (jobs);
}

/* "CHARGING TIMING_DELAY DEADLINE [0xc0000001]" → the names */
static GStrv
parse_constraints (const char *s)
{
  g_auto(GStrv) words = g_strsplit_set (s, " \t", -1);
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv result;

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && words[i][0] != '[')
      {
        /* g_strv_builder_take() is GLib 2.80. */
        g_autofree char *word = _adbscope_dup_valid (words[i], -1);

        g_strv_builder_add (builder, word);
      }

  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return result;
}

/* "JOB [namespace:]#?uid/id: hash [@namespace@]pkg/class" */
static AdbscopeJob *
parse_job_header (const char *t)
{
  const char *rest = _adbscope_after_prefix (t, "JOB ");
  const char *colon_space;
  const char *last_colon;
  const char *slash;
  const char *id_start;
  const char *service;
  g_autofree char *left = NULL;
  AdbscopeJob *job;
  gint64 id;
  const char *end;

  if (rest == NULL || (colon_space = strstr (rest, ": ")) == NULL)
    return NULL;

  left = g_strndup (rest, colon_space - rest);
  last_colon = strrchr (left, ':');
  id_start = last_colon != NULL ? last_colon + 1 : left;
  if (*id_start == '#')
    id_start++;
  slash = strchr (id_start, '/');
  if (slash == NULL || slash == id_start || !_adbscope_parse_int64 (slash + 1, &end, &id) || *end != '\0')
    return NULL;

  job = g_new0 (AdbscopeJob, 1);
  job->job_id = id;
  job->uid = _adbscope_dup_valid (id_start, slash - id_start);
  if (last_colon != NULL)
    job->job_namespace = _adbscope_dup_valid (left, last_colon - left);

  /* Skip the hash, then an "@namespace@" prefix of the component. */
  service = _adbscope_skip_space (colon_space + 2);
  while (*service != '\0' && *service != ' ')
    service++;
  service = _adbscope_skip_space (service);
  if (*service == '@')
    {
      const char *at = strchr (service + 1, '@');

      if (at != NULL)
        service = at + 1;
    }
  job->service = _adbscope_dup_valid (service, -1);
  g_strchomp (job->service);
  return job;
}

static gboolean
job_belongs_to (const AdbscopeJob *job,
                const char        *package)
{
  gsize n = strlen (package);

  if (g_strcmp0 (job->source_package, package) == 0)
    return TRUE;
  return job->service != NULL && strncmp (job->service, package, n) == 0 && job->service[n] == '/';
}

/* Pending queue and active jobs print job.toShortString():
 * "hash [{namespace} ]#uid/id component". */
static char *
short_string_key (const char *t)
{
  const char *hash = t;
  const char *id_end = NULL;
  const char *ns_open;
  g_autofree char *ns = NULL;

  /* The first " #uid/id" token; "Pending #0:" and "Slot #0(ID=…):" have
   * no slash. */
  while ((hash = strstr (hash, " #")) != NULL)
    {
      const char *slash;
      gint64 id;

      hash += 2;
      id_end = hash + strcspn (hash, " \t");
      slash = memchr (hash, '/', id_end - hash);
      if (slash != NULL && slash > hash && _adbscope_parse_int64 (slash + 1, &slash, &id) && slash == id_end)
        break;
    }
  if (hash == NULL)
    return NULL;

  ns_open = hash - 2;
  while (ns_open > t && ns_open[-1] == ' ')
    ns_open--;
  if (ns_open > t && ns_open[-1] == '}')
    {
      const char *close = ns_open - 1;
      const char *open = close;

      while (open > t && *open != '{')
        open--;
      if (*open == '{')
        ns = g_strndup (open + 1, close - open - 1);
    }
  return g_strdup_printf ("%s|%.*s", ns != NULL ? ns : "", (int) (id_end - hash), hash);
}

static char *
job_key (const AdbscopeJob *job)
{
  return g_strdup_printf ("%s|%s/%" G_GINT64_FORMAT,
                          job->job_namespace != NULL ? job->job_namespace : "",
                          job->uid, job->job_id);
}

typedef enum
{
  JOBS_NONE,
  JOBS_REGISTERED,
  JOBS_PENDING,
  JOBS_ACTIVE,
} JobsSection;

AdbscopeJobs *
adbscope_jobs_parse (const char  *text,
                     gssize       len,
                     const char  *package,
                     GError     **error)
{
  g_autoptr(AdbscopeJobs) jobs = NULL;
  g_autoptr(GHashTable) pending = NULL;
  g_autoptr(GHashTable) active = NULL;
  AdbscopeLines lines;
  JobsSection section = JOBS_NONE;
  AdbscopeJob *job = NULL;       /* the job whose block is being read */
  gboolean keep = FALSE;         /* … and whether it is the package's */
  gboolean recognised = FALSE;
  gboolean any_text = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (package != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  jobs = g_new0 (AdbscopeJobs, 1);
  jobs->n_registered = -1;
  jobs->jobs = g_ptr_array_new_with_free_func (job_free);
  pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  active = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

#define FINISH_JOB()                                       \
  G_STMT_START {                                           \
    if (job != NULL)                                       \
      {                                                    \
        if (keep && job_belongs_to (job, package))         \
          g_ptr_array_add (jobs->jobs, job);               \
        else                                               \
          job_free (job);                                  \
        job = NULL;                                        \
      }                                                    \
  } G_STMT_END

  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      gsize indent = indent_of (line);
      const char *rest;

      if (*t == '\0')
        continue;
      any_text = TRUE;
      if (!_adbscope_check_common_errors (t, error))
        {
          FINISH_JOB ();
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if (indent == 0)
        {
          FINISH_JOB ();
          section = JOBS_NONE;
          if ((rest = _adbscope_after_prefix (t, "Registered ")) != NULL)
            {
              gint64 n;

              if (_adbscope_parse_int64 (rest, NULL, &n))
                jobs->n_registered = n;
              section = JOBS_REGISTERED;
              recognised = TRUE;
            }
          else if (strcmp (t, "Pending queue:") == 0)
            section = JOBS_PENDING, recognised = TRUE;
          else if (strcmp (t, "Active jobs:") == 0)
            section = JOBS_ACTIVE, recognised = TRUE;
          continue;
        }

      switch (section)
        {
        case JOBS_REGISTERED:
          if (indent <= 2 && g_str_has_prefix (t, "JOB "))
            {
              FINISH_JOB ();
              job = parse_job_header (t);
              keep = job != NULL;
              recognised = TRUE;
            }
          else if (job == NULL || indent <= 2)
            FINISH_JOB ();
          else if ((rest = _adbscope_after_prefix (t, "Source: ")) != NULL)
            {
              const char *pkg = strstr (rest, "pkg=");

              if (pkg != NULL)
                {
                  g_free (job->source_package);
                  job->source_package = _adbscope_dup_valid (pkg + 4, strcspn (pkg + 4, " \t"));
                }
            }
          else if (g_str_has_prefix (t, "PERIODIC:"))
            job->periodic = TRUE;
          else if (strcmp (t, "PERSISTED") == 0)
            job->persisted = TRUE;
          else if ((rest = _adbscope_after_prefix (t, "Required constraints:")) != NULL)
            {
              g_strfreev (job->required_constraints);
              job->required_constraints = parse_constraints (rest);
            }
          else if ((rest = _adbscope_after_prefix (t, "Satisfied constraints:")) != NULL)
            {
              g_strfreev (job->satisfied_constraints);
              job->satisfied_constraints = parse_constraints (rest);
            }
          else if ((rest = _adbscope_after_prefix (t, "Unsatisfied constraints:")) != NULL)
            {
              g_strfreev (job->unsatisfied_constraints);
              job->unsatisfied_constraints = parse_constraints (rest);
            }
          else if ((rest = _adbscope_after_prefix (t, "Standby bucket: ")) != NULL)
            {
              g_free (job->standby_bucket);
              job->standby_bucket = _adbscope_dup_valid (rest, -1);
              g_strchomp (job->standby_bucket);
            }
          else if ((rest = _adbscope_after_prefix (t, "Ready: ")) != NULL)
            job->ready = g_str_has_prefix (rest, "true");
          break;

        case JOBS_PENDING:
        case JOBS_ACTIVE:
          /* Only the entry lines ("Pending #0: …", "Slot #0(ID=…): …"),
           * not their indented details. */
          if (indent <= 2)
            {
              char *key = short_string_key (t);

              if (key != NULL)
                g_hash_table_add (section == JOBS_PENDING ? pending : active, key);
            }
          break;

        case JOBS_NONE:
        default:
          break;
        }
    }
  FINISH_JOB ();
  _adbscope_lines_clear (&lines);
#undef FINISH_JOB

  if (!recognised)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   !any_text
                   ? _("The jobscheduler output is empty")
                   : _("The text is not jobscheduler output: no “Registered N jobs”, JOB or queue section"));
      return NULL;
    }

  for (guint i = 0; i < jobs->jobs->len; i++)
    {
      AdbscopeJob *j = g_ptr_array_index (jobs->jobs, i);
      g_autofree char *key = job_key (j);
      const char *empty[] = { NULL };

      j->pending = g_hash_table_contains (pending, key);
      j->running = g_hash_table_contains (active, key);
      if (j->required_constraints == NULL)
        j->required_constraints = g_strdupv ((char **) empty);
      if (j->satisfied_constraints == NULL)
        j->satisfied_constraints = g_strdupv ((char **) empty);
      if (j->unsatisfied_constraints == NULL)
        j->unsatisfied_constraints = g_strdupv ((char **) empty);
    }

  return g_steal_pointer (&jobs);
}

/* -------------------------------------------------------------- alarms */

static void
alarm_free (gpointer data)
{
  AdbscopeAlarm *alarm = data;

  g_free (alarm->type);
  g_free (alarm->package);
  g_free (alarm->tag);
  g_free (alarm);
}

void
adbscope_alarms_free (AdbscopeAlarms *alarms)
{
  if (alarms == NULL)
    return;
  g_ptr_array_unref (alarms->pending);
  g_free (alarms);
}

/* "ELAPSED_WAKEUP #2: Alarm{3a9ec9b type 2 origWhen 5455886 whenElapsed 5455886 android}"
 * (12+) or "… Alarm{… type 2 when 123 android}" (older). */
static AdbscopeAlarm *
parse_alarm_header (const char *t)
{
  const char *hash = strstr (t, " #");
  const char *open = strstr (t, ": Alarm{");
  const char *close;
  const char *pkg;
  const char *w;
  AdbscopeAlarm *alarm;

  if (hash == NULL || open == NULL || hash > open || (close = strrchr (open, '}')) == NULL)
    return NULL;

  pkg = close;
  while (pkg > open && pkg[-1] != ' ')
    pkg--;
  if (pkg == close)
    return NULL;

  alarm = g_new0 (AdbscopeAlarm, 1);
  alarm->type = _adbscope_dup_valid (t, hash - t);
  alarm->wakeup = g_str_has_suffix (alarm->type, "_WAKEUP");
  alarm->package = _adbscope_dup_valid (pkg, close - pkg);
  alarm->when_elapsed_ms = -1;
  alarm->when_in_ms = G_MININT64;
  alarm->repeat_interval_ms = -1;
  alarm->count = -1;

  if ((w = strstr (open, " whenElapsed ")) != NULL && w < close)
    _adbscope_parse_int64 (w + 13, NULL, &alarm->when_elapsed_ms);
  else if ((w = strstr (open, " when ")) != NULL && w < close)
    _adbscope_parse_int64 (w + 6, NULL, &alarm->when_elapsed_ms);
  return alarm;
}

/* "key=value" anywhere in a detail line, value up to the next blank. */
static const char *
find_assignment (const char *t,
                 const char *key)
{
  gsize n = strlen (key);
  const char *s = t;

  while ((s = strstr (s, key)) != NULL)
    {
      if ((s == t || s[-1] == ' ') && s[n] == '=')
        return s + n + 1;
      s += n;
    }
  return NULL;
}

/* "  u0a321:com.whatsapp +399ms running, 2 wakeups:" */
static gboolean
parse_stats_header (const char *t,
                    const char *package,
                    gint64     *running_ms,
                    gint64     *wakeups)
{
  const char *colon = strchr (t, ':');
  const char *space = strchr (t, ' ');
  gsize n = strlen (package);
  const char *s;

  if (colon == NULL || space == NULL || colon > space)
    return FALSE;
  if ((gsize) (space - colon - 1) != n || strncmp (colon + 1, package, n) != 0)
    return FALSE;

  s = _adbscope_skip_space (space);
  if (!adbscope_parse_duration_ms (s, &s, running_ms))
    *running_ms = -1;
  s = strstr (s, "running, ");
  if (s == NULL || !_adbscope_parse_int64 (s + 9, NULL, wakeups))
    *wakeups = -1;
  return TRUE;
}

typedef enum
{
  ALARMS_NONE,
  ALARMS_PAST_DUE,
  ALARMS_STATS,
} AlarmsSection;

AdbscopeAlarms *
adbscope_alarms_parse (const char  *text,
                       gssize       len,
                       const char  *package,
                       GError     **error)
{
  g_autoptr(AdbscopeAlarms) alarms = NULL;
  AdbscopeLines lines;
  AdbscopeAlarm *alarm = NULL;     /* the package's alarm whose details follow */
  gsize alarm_indent = 0;
  AlarmsSection section = ALARMS_NONE;
  gboolean in_package_stats = FALSE;
  gboolean recognised = FALSE;
  gboolean any_text = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (package != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  alarms = g_new0 (AdbscopeAlarms, 1);
  alarms->pending = g_ptr_array_new_with_free_func (alarm_free);
  alarms->stats_running_ms = alarms->stats_wakeups = alarms->stats_alarms = -1;

  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      gsize indent = indent_of (line);
      const char *v;
      AdbscopeAlarm *parsed;

      if (*t == '\0')
        continue;
      any_text = TRUE;
      if (!_adbscope_check_common_errors (t, error))
        {
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if (g_str_has_prefix (t, "Current Alarm Manager state") ||
          g_str_has_prefix (t, "Alarm Manager State"))
        recognised = TRUE;

      if (alarm != NULL && indent <= alarm_indent)
        alarm = NULL;

      if ((parsed = parse_alarm_header (t)) != NULL)
        {
          recognised = TRUE;
          if (strcmp (parsed->package, package) == 0)
            {
              parsed->past_due = section == ALARMS_PAST_DUE;
              g_ptr_array_add (alarms->pending, parsed);
              alarm = parsed;
              alarm_indent = indent;
            }
          else
            alarm_free (parsed);
          continue;
        }

      if (alarm != NULL)
        {
          if ((v = _adbscope_after_prefix (t, "tag=")) != NULL && alarm->tag == NULL)
            alarm->tag = _adbscope_dup_valid (v, -1);
          if ((v = find_assignment (t, "repeatInterval")) != NULL)
            _adbscope_parse_int64 (v, NULL, &alarm->repeat_interval_ms);
          if ((v = find_assignment (t, "count")) != NULL)
            _adbscope_parse_int64 (v, NULL, &alarm->count);
          if ((v = find_assignment (t, "whenElapsed")) != NULL && (*v == '+' || *v == '-'))
            adbscope_parse_duration_ms (v, NULL, &alarm->when_in_ms);
          continue;
        }

      /* Section headers sit at indent 2 under "Current Alarm Manager
       * state:"; so do the per-package lines of "Alarm Stats:". */
      if (indent <= 2)
        {
          if (g_str_has_prefix (t, "Past-due non-wakeup alarms"))
            section = ALARMS_PAST_DUE;
          else if (strcmp (t, "Alarm Stats:") == 0)
            {
              section = ALARMS_STATS;
              recognised = TRUE;
              continue;
            }
          else if (section != ALARMS_STATS || !g_str_has_suffix (t, "wakeups:"))
            section = ALARMS_NONE;
        }

      if (section == ALARMS_STATS)
        {
          gint64 running, wakeups;

          if (indent <= 2 && g_str_has_suffix (t, "wakeups:"))
            {
              in_package_stats = parse_stats_header (t, package, &running, &wakeups);
              if (in_package_stats)
                {
                  alarms->has_stats = TRUE;
                  alarms->stats_running_ms = running;
                  alarms->stats_wakeups = wakeups;
                  alarms->stats_alarms = 0;
                }
            }
          else if (in_package_stats && (v = strstr (t, " alarms, ")) != NULL)
            {
              /* "+251ms 0 wakes 6 alarms, last -1h14m24s606ms:" */
              const char *num = v;
              gint64 n;

              while (num > t && num[-1] != ' ')
                num--;
              if (_adbscope_parse_int64 (num, NULL, &n) && n >= 0)
                alarms->stats_alarms += n;
            }
        }
    }
  _adbscope_lines_clear (&lines);

  if (!recognised)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   !any_text
                   ? _("The alarm output is empty")
                   : _("The text is not alarm output: no “Alarm Manager state”, alarm or “Alarm Stats” line"));
      return NULL;
    }

  return g_steal_pointer (&alarms);
}

/* ------------------------------------------------------ standby bucket */

static const struct
{
  AdbscopeStandbyBucket bucket;
  const char           *name;
} bucket_names[] = {
  { ADBSCOPE_STANDBY_BUCKET_EXEMPTED, "EXEMPTED" },
  { ADBSCOPE_STANDBY_BUCKET_ACTIVE, "ACTIVE" },
  { ADBSCOPE_STANDBY_BUCKET_WORKING_SET, "WORKING_SET" },
  { ADBSCOPE_STANDBY_BUCKET_FREQUENT, "FREQUENT" },
  { ADBSCOPE_STANDBY_BUCKET_RARE, "RARE" },
  { ADBSCOPE_STANDBY_BUCKET_RESTRICTED, "RESTRICTED" },
  { ADBSCOPE_STANDBY_BUCKET_NEVER, "NEVER" },
};

const char *
adbscope_standby_bucket_to_string (AdbscopeStandbyBucket bucket)
{
  for (guint i = 0; i < G_N_ELEMENTS (bucket_names); i++)
    if (bucket_names[i].bucket == bucket)
      return bucket_names[i].name;
  return "UNKNOWN";
}

/* A name ("RARE") or a number ("40"), as `am get-standby-bucket` and
 * jobscheduler's "Standby bucket:" print them. */
gboolean
adbscope_standby_bucket_from_string (const char            *s,
                                     AdbscopeStandbyBucket *bucket)
{
  gint64 n;
  const char *end;

  g_return_val_if_fail (s != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (bucket_names); i++)
    if (g_ascii_strcasecmp (s, bucket_names[i].name) == 0)
      {
        *bucket = bucket_names[i].bucket;
        return TRUE;
      }

  if (_adbscope_parse_int64 (s, &end, &n) && *end == '\0')
    for (guint i = 0; i < G_N_ELEMENTS (bucket_names); i++)
      if (bucket_names[i].bucket == n)
        {
          *bucket = bucket_names[i].bucket;
          return TRUE;
        }
  return FALSE;
}

gboolean
adbscope_standby_bucket_parse (const char            *text,
                               gssize                 len,
                               AdbscopeStandbyBucket *bucket,
                               GError               **error)
{
  AdbscopeLines lines;
  g_autofree char *value = NULL;
  gboolean not_found = FALSE;
  gboolean unsupported = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (bucket != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The output is one word; a cut last line cannot be told from a short
   * answer here, so it is read like any other. */
  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      g_autofree char *t = g_strstrip (_adbscope_dup_valid (line, -1));

      if (*t == '\0')
        continue;
      if (strstr (t, "non existent package") != NULL || strstr (t, "Cannot get standby bucket") != NULL)
        not_found = TRUE;
      else if (strstr (t, "Unknown command") != NULL)
        unsupported = TRUE;
      else if (value == NULL)
        value = g_steal_pointer (&t);
      else
        {
          /* More than one word of output: not the answer we expect. */
          g_clear_pointer (&value, g_free);
          break;
        }
    }
  _adbscope_lines_clear (&lines);

  if (not_found)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,
                   _("The package is not installed, so it has no standby bucket"));
      return FALSE;
    }
  if (unsupported)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("This Android version has no `am get-standby-bucket`"));
      return FALSE;
    }
  if (value == NULL || !adbscope_standby_bucket_from_string (value, bucket))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The standby bucket output is not a bucket number or name"));
      return FALSE;
    }
  return TRUE;
}
