/* adbscope-system-page.c: the device, the app's processes, Doze and background work */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-app-processes.h"
#include "adbscope-system-page.h"

struct _AdbscopeSystemPage
{
  AdbscopePage  parent_instance;

  AdwActionRow *model_row;
  AdwActionRow *android_row;
  AdwActionRow *abi_row;
  AdwActionRow *cores_row;
  AdwActionRow *page_row;
  AdwActionRow *refresh_row;
  AdwActionRow *package_row;
  AdwActionRow *pid_row;
  AdwActionRow *processes_row;
  AdwActionRow *restarts_row;
  AdwActionRow *samples_row;
  AdwActionRow *doze_row;
  AdwActionRow *bucket_row;
  AdwActionRow *jobs_row;
  AdwActionRow *alarms_row;
};

G_DEFINE_FINAL_TYPE (AdbscopeSystemPage, adbscope_system_page, ADBSCOPE_TYPE_PAGE)

static void
set_subtitle (AdwActionRow *row,
              const char   *text)
{
  adw_action_row_set_subtitle (row, text != NULL && *text != '\0' ? text : _("Unknown"));
}

/* @value: what the session has, NULL when it has nothing (yet) */
static void
set_source_row (AdwActionRow     *row,
                AdbscopeDataView *view,
                AdbscopeSource    source,
                const char       *value)
{
  const char *reason = NULL;

  if (!adbscope_data_view_is_supported (view, source, &reason))
    adw_action_row_set_subtitle (row, reason != NULL ? reason : _("Not supported on this device"));
  else if (value != NULL && *value != '\0')
    adw_action_row_set_subtitle (row, value);
  else
    adw_action_row_set_subtitle (row, _("Not collected yet"));
}

static void
update_device (AdbscopeSystemPage *self,
               AdbscopeDataView   *view)
{
  const AdbscopeProbeResult *p = adbscope_data_view_get_probe (view);
  g_autofree char *model = NULL;
  g_autofree char *android = NULL;
  g_autofree char *cores = NULL;
  g_autofree char *page = NULL;
  g_autofree char *refresh = NULL;

  if (p == NULL)
    return;

  model = g_strjoin (" ", p->manufacturer ? p->manufacturer : "", p->model ? p->model : "", NULL);
  /* Translators: Android release and SDK level, e.g. "14 (SDK 34)" */
  android = g_strdup_printf (_("%s (SDK %s)"), p->release ? p->release : "?", p->sdk ? p->sdk : "?");
  cores = g_strdup_printf ("%u", p->n_cores);
  if (p->page_size > 0)
    page = g_format_size_full (p->page_size, G_FORMAT_SIZE_IEC_UNITS);
  if (isfinite (p->refresh_hz))
    /* Translators: display refresh rate */
    refresh = g_strdup_printf (_("%.0f Hz"), p->refresh_hz);

  set_subtitle (self->model_row, g_strstrip (model));
  set_subtitle (self->android_row, android);
  set_subtitle (self->abi_row, p->abi);
  set_subtitle (self->cores_row, cores);
  set_subtitle (self->page_row, page);
  set_subtitle (self->refresh_row, refresh);
}

static void
append_size (GString    *text,
             const char *label,
             double      kb)
{
  g_autofree char *size = NULL;

  if (!isfinite (kb))
    return;
  size = g_format_size_full ((guint64) (kb * 1024), G_FORMAT_SIZE_IEC_UNITS);
  g_string_append_printf (text, " · %s %s", label, size);
}

/* One line per process of the app: its CPU and memory now, its restarts. */
static void
append_process_breakdown (GString   *text,
                          GPtrArray *app_procs)
{
  for (guint i = 0; i < app_procs->len; i++)
    {
      const AdbscopeProcessSeries *p = g_ptr_array_index (app_procs, i);
      gint64 t;
      double cpu = NAN, rss = NAN, pss = NAN;

      adbscope_series_get_last_finite (p->cpu_pct, &t, &cpu);
      adbscope_series_get_last_finite (p->rss_kb, &t, &rss);
      adbscope_series_get_last_finite (p->pss_kb, &t, &pss);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, p->name);
      if (!p->running)
        {
          g_string_append_printf (text, " · %s", _("gone"));
          continue;
        }
      g_string_append_printf (text, " · %" G_GINT64_FORMAT, g_array_index (p->pids, gint64, p->pids->len - 1));
      if (isfinite (cpu))
        /* Translators: a process's CPU, a share of all cores */
        g_string_append_printf (text, " · %s %.1f %%", _("CPU"), cpu);
      append_size (text, _("RSS"), rss);
      append_size (text, _("PSS"), pss);
      if (p->restarts > 0)
        {
          g_string_append (text, " · ");
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u restart", "%u restarts", p->restarts),
                                  p->restarts);
        }
    }
}

static void
update_app (AdbscopeSystemPage *self,
            AdbscopeDataView   *view)
{
  const GArray *pids = adbscope_data_view_get_pids (view);
  const GArray *procs = adbscope_data_view_get_system_state (view)->processes;
  GPtrArray *app_procs = adbscope_data_view_get_app_processes (view);
  g_autoptr(GString) pid_text = g_string_new (NULL);
  g_autoptr(GString) proc_text = g_string_new (NULL);
  g_autofree char *restarts = NULL;
  g_autofree char *samples = NULL;
  double interval = adbscope_data_view_get_measured_interval_ms (view);

  for (guint i = 0; pids != NULL && i < pids->len; i++)
    g_string_append_printf (pid_text, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "",
                            g_array_index (pids, gint64, i));
  if (pid_text->len == 0)
    g_string_append (pid_text, _("Not running"));

  if (app_procs != NULL && app_procs->len > 0)
    append_process_breakdown (proc_text, app_procs);
  else
    for (guint i = 0; procs != NULL && i < procs->len; i++)
      {
        const AdbscopeAppProcess *p = &g_array_index (procs, AdbscopeAppProcess, i);

        if (proc_text->len > 0)
          g_string_append_c (proc_text, '\n');
        g_string_append_printf (proc_text, "%d  %s", p->pid, p->name != NULL ? p->name : "");
        if (p->rss_kb >= 0)
          {
            g_autofree char *rss = g_format_size_full ((guint64) p->rss_kb * 1024, G_FORMAT_SIZE_IEC_UNITS);
            g_string_append_printf (proc_text, "  (%s)", rss);
          }
      }
  if (proc_text->len == 0)
    g_string_append (proc_text, _("None seen yet"));

  restarts = g_strdup_printf ("%u", adbscope_data_view_get_restarts (view));
  samples = g_strdup_printf ("%" G_GUINT64_FORMAT, adbscope_data_view_get_n_samples (view));
  if (isfinite (interval))
    {
      g_autofree char *count = g_steal_pointer (&samples);

      /* Translators: number of samples and the measured interval in ms */
      samples = g_strdup_printf (_("%s every %.0f ms"), count, interval);
    }

  set_subtitle (self->package_row, adbscope_data_view_get_package (view));
  set_subtitle (self->pid_row, pid_text->str);
  set_subtitle (self->processes_row, proc_text->str);
  set_subtitle (self->restarts_row, restarts);
  set_subtitle (self->samples_row, samples);
}

static void
adbscope_system_page_update (AdbscopePage     *page,
                             AdbscopeDataView *view)
{
  AdbscopeSystemPage *self = ADBSCOPE_SYSTEM_PAGE (page);
  const AdbscopeSystemState *st = adbscope_data_view_get_system_state (view);
  g_autofree char *doze = NULL;
  g_autofree char *jobs_text = NULL;
  g_autofree char *alarms_text = NULL;

  update_device (self, view);
  update_app (self, view);

  if (st->doze_deep != NULL || st->doze_light != NULL)
    /* Translators: Android's deep and light Doze states, e.g. "deep ACTIVE, light ACTIVE" */
    doze = g_strdup_printf (_("deep %s, light %s"), st->doze_deep ? st->doze_deep : "?",
                            st->doze_light ? st->doze_light : "?");
  set_source_row (self->doze_row, view, ADBSCOPE_SOURCE_DOZE, doze);
  set_source_row (self->bucket_row, view, ADBSCOPE_SOURCE_DOZE, st->standby_bucket);
  if (st->jobs >= 0)
    /* Translators: the app's scheduled jobs, e.g. "3 scheduled, 1 running" */
    jobs_text = g_strdup_printf (_("%lld scheduled, %lld running"),
                                 (long long) st->jobs, (long long) MAX (st->jobs_running, 0));
  if (st->alarms_pending >= 0 && st->alarm_wakeups >= 0)
    /* Translators: the app's alarms, e.g. "2 pending, 14 wakeups" */
    alarms_text = g_strdup_printf (_("%lld pending, %lld wakeups"),
                                   (long long) st->alarms_pending, (long long) st->alarm_wakeups);
  else if (st->alarms_pending >= 0)
    /* Translators: the app's pending alarms */
    alarms_text = g_strdup_printf (_("%lld pending"), (long long) st->alarms_pending);
  set_source_row (self->jobs_row, view, ADBSCOPE_SOURCE_JOBS, jobs_text);
  set_source_row (self->alarms_row, view, ADBSCOPE_SOURCE_ALARMS, alarms_text);
}

static void
adbscope_system_page_class_init (AdbscopeSystemPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  page_class->update = adbscope_system_page_update;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-system-page.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, AdbscopeSystemPage, name)
  BIND (model_row);
  BIND (android_row);
  BIND (abi_row);
  BIND (cores_row);
  BIND (page_row);
  BIND (refresh_row);
  BIND (package_row);
  BIND (pid_row);
  BIND (processes_row);
  BIND (restarts_row);
  BIND (samples_row);
  BIND (doze_row);
  BIND (bucket_row);
  BIND (jobs_row);
  BIND (alarms_row);
#undef BIND
}

static void
adbscope_system_page_init (AdbscopeSystemPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
