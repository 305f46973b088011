/* adbscope-window-actions.c: the window's actions, exports and shortcuts
 *
 * Every action is a class action (gtk_widget_class_install_action) with a
 * keyboard shortcut, so everything the header bar and menus do can be done
 * without a mouse.
 */
#include "config.h"

#include <math.h>

#include "adbscope-connect-dialog.h"

#include <glib/gi18n.h>

#include "adbscope-report.h"
#include "adbscope-csv.h"
#include "adbscope-launch-window.h"
#include "adbscope-window-private.h"

void
_adbscope_window_update_actions (AdbscopeWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const char *mode = gtk_stack_get_visible_child_name (self->main_stack);
  gboolean in_session = g_strcmp0 (mode, "session") == 0 && self->view != NULL;
  gboolean running = in_session && adbscope_session_is_running (self->session);
  gboolean paused = in_session && adbscope_data_view_get_paused (self->view);

  gtk_widget_action_set_enabled (widget, "win.back", g_strcmp0 (mode, "devices") != 0);
  gtk_widget_action_set_enabled (widget, "win.record", in_session && self->opened_path == NULL);
  gtk_widget_action_set_enabled (widget, "win.pause", in_session && self->opened_path == NULL);
  gtk_widget_action_set_enabled (widget, "win.add-marker", running);
  gtk_widget_action_set_enabled (widget, "win.time-window", in_session);
  gtk_widget_action_set_enabled (widget, "win.show-page", in_session);
  gtk_widget_action_set_enabled (widget, "win.export-report", in_session);
  gtk_widget_action_set_enabled (widget, "win.export-samples", in_session);
  gtk_widget_action_set_enabled (widget, "win.measure-startup", in_session);
  gtk_widget_action_set_enabled (widget, "win.try-demo", self->demo == NULL);
  gtk_widget_action_set_enabled (widget, "win.start-capture",
                                 running && !self->capture_checking && !_adbscope_window_is_capturing (self));
  gtk_widget_action_set_enabled (widget, "win.stop-capture", in_session && _adbscope_window_is_capturing (self));
  gtk_widget_action_set_enabled (widget, "win.export-pcap",
                                 in_session && adbscope_network_get_pcap_file (adbscope_data_view_get_network (self->view)) != NULL);
  gtk_widget_action_set_enabled (widget, "win.export-connections", in_session);
  gtk_widget_action_set_enabled (widget, "win.compare-recording", in_session);
  gtk_widget_action_set_enabled (widget, "win.remove-comparison", in_session && self->comparison != NULL);
  gtk_widget_action_set_enabled (widget, "win.compare-summary", in_session && self->comparison != NULL);

  /* The toggle buttons show the state; their action has no state of its
   * own (class actions are stateless in GTK 4.8). */
  /* The marker button opens its popover itself, not through the action. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->marker_button), running);
  gtk_toggle_button_set_active (self->record_button, running);
  gtk_toggle_button_set_active (self->pause_button, paused);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->record_button),
                               running ? _("Stop recording (Ctrl+R)") : _("Record again (Ctrl+R)"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               paused ? _("Resume the live view (Ctrl+P)")
                                      : _("Pause the view; collection goes on (Ctrl+P)"));
  gtk_button_set_icon_name (GTK_BUTTON (self->pause_button),
                            paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->pause_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, paused ? _("Resume") : _("Pause"), -1);
}

void
_adbscope_window_set_paused (AdbscopeWindow *self,
                             gboolean        paused)
{
  if (self->view == NULL)
    return;
  adbscope_data_view_set_paused (self->view, paused);
  _adbscope_window_update_actions (self);
  _adbscope_window_update_title (self);
}

static guint
whole_seconds (AdbscopeWindow *self)
{
  guint history = g_settings_get_uint (self->settings, "history-length");

  if (self->opened_path != NULL)
    return (guint) MIN (self->opened_end_us / G_USEC_PER_SEC + 1, 24 * 3600);
  if (self->view != NULL && adbscope_data_view_get_reader (self->view) != NULL)
    {
      gint64 run_s = (g_get_monotonic_time () - adbscope_session_get_start_us (self->session)) / G_USEC_PER_SEC + 1;

      return (guint) CLAMP (run_s, history, 24 * 3600);
    }
  return history;
}

/**
 * _adbscope_window_zoom:
 * @factor: the new window over the old one: 0.5 zooms in, 2 out
 *
 * Between 10 s and the whole run (reaching into a live run's recording
 * beyond what memory keeps).
 */
void
_adbscope_window_zoom (AdbscopeWindow *self,
                       double          factor)
{
  double whole, next;

  if (self->view == NULL)
    return;
  whole = MAX (whole_seconds (self), 10);
  next = CLAMP (round (adbscope_data_view_get_visible_seconds (self->view) * factor), 10, whole);
  _adbscope_window_set_visible_seconds (self, next >= whole ? 0 : (guint) next);
}

void
_adbscope_window_set_visible_seconds (AdbscopeWindow *self,
                                      guint           seconds)
{
  g_autofree char *label = NULL;

  /* 0: the whole run (of a recording; of a live run, what memory keeps
   * or, with its recording, since it started) */
  if (seconds == 0)
    {
      guint whole = whole_seconds (self);

      gtk_menu_button_set_label (self->time_button, _("Whole run"));
      if (self->view != NULL)
        adbscope_data_view_set_visible_seconds (self->view, MAX (whole, 10));
      return;
    }
  self->visible_seconds = seconds;
  if (seconds % 60 == 0)
    /* Translators: the time window shown by the charts */
    label = g_strdup_printf (_("%u min"), seconds / 60);
  else
    label = g_strdup_printf (_("%u s"), seconds);
  gtk_menu_button_set_label (self->time_button, label);
  if (self->view != NULL)
    adbscope_data_view_set_visible_seconds (self->view, seconds);
}

void
_adbscope_window_add_marker (AdbscopeWindow *self,
                             const char     *label)
{
  g_autofree char *text = NULL;

  if (self->session == NULL || !adbscope_session_is_running (self->session))
    return;
  if (label == NULL || *label == '\0')
    label = _("Marker");
  adbscope_session_add_marker (self->session, label);
  _adbscope_window_update_compare_markers (self);
  /* Translators: a toast; %s is the marker's label */
  text = g_strdup_printf (_("Marker “%s” added"), label);
  _adbscope_window_toast (self, text);
}

/* The file behind what the window shows when its whole run is in a file
 * (an opened recording, or a live run that has ended), else NULL. */
const char *
_adbscope_window_get_whole_run_file (AdbscopeWindow *self)
{
  if (self->opened_path != NULL)
    return self->opened_path;
  if (self->recording != NULL && !adbscope_session_is_running (self->session) &&
      g_file_test (adbscope_recording_get_path (self->recording), G_FILE_TEST_IS_REGULAR))
    return adbscope_recording_get_path (self->recording);
  return NULL;
}

/**
 * _adbscope_window_build_report:
 *
 * The report of what the window shows (what Export Report writes).
 */
JsonNode *
_adbscope_window_build_report (AdbscopeWindow  *self,
                               GError         **error)
{
  if (self->session == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("Nothing was recorded yet"));
      return NULL;
    }
  /* An opened recording, or a live run that has ended: its file, so the
   * report covers the whole run, exactly as `adbscope report` gives it. */
  if (_adbscope_window_get_whole_run_file (self) != NULL)
    {
      const char *file = _adbscope_window_get_whole_run_file (self);
      g_autoptr(AdbscopeRun) run = adbscope_run_load (file, G_MININT64, G_MAXINT64, error);

      return run != NULL ? adbscope_report_build_run (run, NULL) : NULL;
    }
  return adbscope_report_build (self->session, NULL);
}

gboolean
_adbscope_window_export_report (AdbscopeWindow  *self,
                                const char      *path,
                                GError         **error)
{
  g_autoptr(JsonNode) report = _adbscope_window_build_report (self, error);

  return report != NULL && adbscope_report_write (report, path, error);
}

/**
 * _adbscope_window_export_samples:
 *
 * The CSV of what the window shows: an opened recording's whole run,
 * streamed from its file; a live session's history in memory.
 */
gboolean
_adbscope_window_export_samples (AdbscopeWindow  *self,
                                 const char      *path,
                                 GError         **error)
{
  if (self->session == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("Nothing was recorded yet"));
      return FALSE;
    }
  if (self->opened_path != NULL)
    return adbscope_csv_write_recording (self->opened_path, adbscope_session_get_interval (self->session),
                                         adbscope_session_get_meminfo_interval (self->session), path,
                                         NULL, NULL, NULL, error);
  return adbscope_csv_write_session (self->session, path, error);
}

static void
announce_saved (AdbscopeWindow *self,
                const char     *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = g_strdup_printf (_("Saved “%s”"), base);

  _adbscope_window_toast (self, text);
}

/* ---- exports from a file, in a thread ---- */

/* ---- work in a thread: a spinner and what it does, in the header bar ----
 * (not a toast: dismissing a toast while it slides in crashes
 * libadwaita 1.2, and a job may end that soon) */

void
_adbscope_window_init_busy (AdbscopeWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->busy_spinner = GTK_SPINNER (gtk_spinner_new ());
  self->busy_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->busy_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->busy_label), "numeric");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->busy_spinner));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->busy_label));
  gtk_widget_set_visible (box, FALSE);
  adw_header_bar_pack_end (self->header_bar, box);
  self->busy_box = box;
}

/* @text: what runs now (the newest job's words are shown) */
void
_adbscope_window_busy_begin (AdbscopeWindow *self,
                             const char     *text)
{
  self->n_busy++;
  gtk_label_set_text (self->busy_label, text);
  gtk_spinner_set_spinning (self->busy_spinner, TRUE);
  gtk_widget_set_visible (self->busy_box, TRUE);
}

void
_adbscope_window_busy_end (AdbscopeWindow *self)
{
  g_return_if_fail (self->n_busy > 0);
  if (--self->n_busy > 0)
    return;
  gtk_spinner_set_spinning (self->busy_spinner, FALSE);
  gtk_widget_set_visible (self->busy_box, FALSE);
}

typedef struct
{
  char     *recording;   /* read */
  char     *path;        /* written */
  gboolean  report;      /* the report; else the samples */
  guint     interval_ms;
  guint     meminfo_ms;
  AdbscopeWindow *self;  /* ref */
  int       percent;     /* last shown, worker thread only */
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_free (job->recording);
  g_free (job->path);
  g_clear_object (&job->self);
  g_free (job);
}

typedef struct
{
  AdbscopeWindow *self;
  int             percent;
} ProgressUpdate;

static gboolean
show_progress (gpointer data)
{
  ProgressUpdate *u = data;
  g_autofree char *title = NULL;

  /* Translators: in the header bar while a long export runs; %d is a percentage */
  title = g_strdup_printf (_("Exporting samples… %d %%"), u->percent);
  if (u->self->n_busy > 0)
    gtk_label_set_text (u->self->busy_label, title);
  g_object_unref (u->self);
  g_free (u);
  return G_SOURCE_REMOVE;
}

/* (in the worker) */
static void
on_export_progress (double   fraction,
                    gpointer user_data)
{
  ExportJob *job = user_data;
  int percent = (int) (fraction * 100);
  ProgressUpdate *u;

  if (percent == job->percent)
    return;
  job->percent = percent;
  u = g_new (ProgressUpdate, 1);
  u->self = g_object_ref (job->self);
  u->percent = percent;
  g_main_context_invoke (NULL, show_progress, u);
}

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportJob *job = task_data;
  GError *error = NULL;
  gboolean ok;

  if (job->report)
    {
      g_autoptr(AdbscopeRun) run = adbscope_run_load (job->recording, G_MININT64, G_MAXINT64, &error);
      g_autoptr(JsonNode) report = run != NULL ? adbscope_report_build_run (run, NULL) : NULL;

      ok = report != NULL && adbscope_report_write (report, job->path, &error);
    }
  else
    ok = adbscope_csv_write_recording (job->recording, job->interval_ms, job->meminfo_ms, job->path,
                                       cancellable, on_export_progress, job, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
export_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (object);
  ExportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  _adbscope_window_busy_end (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    _adbscope_window_toast (self, error->message);
  else
    announce_saved (self, job->path);
  self->n_exports--;
}

/**
 * _adbscope_window_export_async:
 * @report: the report, else the samples
 *
 * Writes the report or the CSV of the file behind the window (see
 * _adbscope_window_get_whole_run_file ()) from a thread, the main loop
 * free meanwhile: the header bar tells the progress, then a toast "Saved"
 * or the error (self->n_exports counts
 * the ones running).  FALSE (nothing started) when the window shows no
 * such file: export with the synchronous call.
 */
gboolean
_adbscope_window_export_async (AdbscopeWindow *self,
                               const char     *path,
                               gboolean        report)
{
  const char *file = self->session != NULL ? _adbscope_window_get_whole_run_file (self) : NULL;
  g_autoptr(GTask) task = NULL;
  ExportJob *job;

  if (file == NULL || (!report && self->opened_path == NULL))
    return FALSE;
  job = g_new0 (ExportJob, 1);
  job->recording = g_strdup (file);
  job->path = g_strdup (path);
  job->report = report;
  job->interval_ms = adbscope_session_get_interval (self->session);
  job->meminfo_ms = adbscope_session_get_meminfo_interval (self->session);
  job->percent = -1;
  job->self = g_object_ref (self);
  _adbscope_window_busy_begin (self, report ? _("Exporting the report…") : _("Exporting samples…"));

  self->n_exports++;
  task = g_task_new (self, NULL, export_done, NULL);
  g_task_set_source_tag (task, _adbscope_window_export_async);
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_thread);
  return TRUE;
}

typedef gboolean (*ExportFunc) (AdbscopeWindow *self, const char *path, GError **error);

/* A chooser's answer: the "chooser-func" attached to it gets the local
 * path. */
static void
chooser_response (GtkNativeDialog *dialog,
                  int              response,
                  AdbscopeWindow  *self)
{
  ExportFunc func = g_object_get_data (G_OBJECT (dialog), "chooser-func");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        _adbscope_window_toast (self, _("Choose a local file"));
      else if (!func (self, path, &error))
        _adbscope_window_toast (self, error->message);
    }
  g_object_unref (dialog);
}

static void
export_with_chooser (AdbscopeWindow *self,
                     const char     *title,
                     const char     *extension,
                     const char     *mime_type,
                     ExportFunc      func)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("adbscope-%s-%s.%s",
                                           self->package != NULL ? self->package : "session",
                                           stamp, extension);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_set_name (filter, extension);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "chooser-func", func);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A whole run's file is exported in a thread (it tells when done);
 * a live session's memory at once. */
static gboolean
export_chosen (AdbscopeWindow  *self,
               const char      *path,
               gboolean         report,
               GError         **error)
{
  if (_adbscope_window_export_async (self, path, report))
    return TRUE;
  if (!(report ? _adbscope_window_export_report : _adbscope_window_export_samples) (self, path, error))
    return FALSE;
  announce_saved (self, path);
  return TRUE;
}

static gboolean
export_report_chosen (AdbscopeWindow  *self,
                      const char      *path,
                      GError         **error)
{
  return export_chosen (self, path, TRUE, error);
}

static gboolean
export_samples_chosen (AdbscopeWindow  *self,
                       const char      *path,
                       GError         **error)
{
  return export_chosen (self, path, FALSE, error);
}

static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  export_with_chooser (ADBSCOPE_WINDOW (widget), _("Export Report"), "json", "application/json",
                       export_report_chosen);
}

static void
export_samples_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  export_with_chooser (ADBSCOPE_WINDOW (widget), _("Export Samples"), "csv", "text/csv",
                       export_samples_chosen);
}

static void
measure_startup_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);
  AdbscopeSession *session = _adbscope_window_get_session (self);
  AdbscopeLaunchWindow *win;

  if (session == NULL)
    return;
  win = adbscope_launch_window_new (GTK_WINDOW (self), adbscope_session_get_serial (session),
                                    adbscope_session_get_package (session));
  gtk_window_present (GTK_WINDOW (win));
}

static void
choose_recording (AdbscopeWindow *self,
                  const char     *title,
                  ExportFunc      func)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *dir = adbscope_recording_default_dir ();
  g_autoptr(GFile) folder = g_file_new_for_path (dir);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Open"), _("_Cancel"));
  gtk_file_filter_add_pattern (filter, "*" ADBSCOPE_RECORDING_SUFFIX);
  gtk_file_filter_set_name (filter, _("Adbscope recordings"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "chooser-func", func);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_recording_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  choose_recording (ADBSCOPE_WINDOW (widget), _("Open Recording"), _adbscope_window_open_recording);
}

static void
compare_recording_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  choose_recording (ADBSCOPE_WINDOW (widget), _("Compare With Recording"), _adbscope_window_compare_with_async);
}

static void
remove_comparison_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  _adbscope_window_remove_comparison (ADBSCOPE_WINDOW (widget));
}

static void
compare_summary_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  _adbscope_window_show_compare_summary_async (ADBSCOPE_WINDOW (widget));
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);
  const char *mode = gtk_stack_get_visible_child_name (self->main_stack);

  if (g_strcmp0 (mode, "session") == 0 || g_strcmp0 (mode, "starting") == 0)
    {
      _adbscope_window_stop_session (self);
      _adbscope_window_show_pickers (self);
      adbscope_app_picker_refresh (self->app_picker);
    }
  else if (g_strcmp0 (mode, "apps") == 0)
    {
      g_clear_pointer (&self->serial, g_free);
      _adbscope_window_show_pickers (self);
    }
}

static void
record_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  if (self->session != NULL)
    _adbscope_window_set_recording (self, !adbscope_session_is_running (self->session));
}

static void
pause_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  if (self->view != NULL)
    _adbscope_window_set_paused (self, !adbscope_data_view_get_paused (self->view));
}

static void
add_marker_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  gtk_menu_button_popup (self->marker_button);
  gtk_widget_grab_focus (GTK_WIDGET (self->marker_entry));
}

static void
time_window_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  _adbscope_window_set_visible_seconds (ADBSCOPE_WINDOW (widget), g_variant_get_uint32 (param));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  _adbscope_window_zoom (ADBSCOPE_WINDOW (widget), g_str_equal (action_name, "win.zoom-in") ? 0.5 : 2);
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, g_variant_get_string (param, NULL));
}

static void
demo_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AdbscopeWindow *self = user_data;
  AdbscopeDemo *demo = ADBSCOPE_DEMO (object);
  g_autoptr(GError) error = NULL;

  adbscope_device_picker_set_busy (self->device_picker, FALSE);
  if (!adbscope_demo_start_finish (demo, result, &error))
    {
      if (self->demo == demo)
        {
          g_clear_object (&self->demo);
          _adbscope_window_toast (self, error->message);
          _adbscope_window_update_actions (self);
        }
      g_object_unref (self);
      return;
    }
  if (self->demo == demo)
    {
      adbscope_device_picker_set_demo_serial (self->device_picker, adbscope_demo_get_serial (demo));
      _adbscope_window_choose_device (self, adbscope_demo_get_serial (demo));
      /* The demo app is the obvious choice: put it in the search. */
      adbscope_app_picker_set_search (self->app_picker, g_getenv ("ADBSCOPE_DEMO_GAME") != NULL
                                      ? ADBSCOPE_DEMO_GAME_PACKAGE : ADBSCOPE_DEMO_PACKAGE);
    }
  g_object_unref (self);
}

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  adbscope_connect_dialog_present (GTK_WINDOW (self), self->settings);
}

static void
try_demo_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (widget);

  if (self->demo != NULL)
    return;
  self->demo = adbscope_demo_new (g_getenv ("ADBSCOPE_DEMO_PROFILE"));
  /* the game-like demo too (frames from SurfaceFlinger) */
  adbscope_demo_set_game (self->demo, g_getenv ("ADBSCOPE_DEMO_GAME") != NULL);
  adbscope_device_picker_set_busy (self->device_picker, TRUE);
  _adbscope_window_update_actions (self);
  adbscope_demo_start_async (self->demo, NULL, demo_cb, g_object_ref (self));
}

static void
start_capture_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  _adbscope_window_start_capture (ADBSCOPE_WINDOW (widget));
}

static void
stop_capture_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  _adbscope_window_stop_capture (ADBSCOPE_WINDOW (widget));
}

static void
export_pcap_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  _adbscope_window_export_pcap_dialog (ADBSCOPE_WINDOW (widget));
}

static void
export_connections_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *param)
{
  _adbscope_window_export_connections_dialog (ADBSCOPE_WINDOW (widget));
}

static const char * const page_names[] = {
  "overview", "cpu", "memory", "frames", "threads", "power", "system", "network",
};

void
_adbscope_window_class_actions_init (AdbscopeWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "win.connect", NULL, connect_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.pause", NULL, pause_action);
  gtk_widget_class_install_action (widget_class, "win.add-marker", NULL, add_marker_action);
  gtk_widget_class_install_action (widget_class, "win.time-window", "u", time_window_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "win.export-samples", NULL, export_samples_action);
  gtk_widget_class_install_action (widget_class, "win.try-demo", NULL, try_demo_action);
  gtk_widget_class_install_action (widget_class, "win.measure-startup", NULL, measure_startup_action);
  gtk_widget_class_install_action (widget_class, "win.start-capture", NULL, start_capture_action);
  gtk_widget_class_install_action (widget_class, "win.stop-capture", NULL, stop_capture_action);
  gtk_widget_class_install_action (widget_class, "win.export-pcap", NULL, export_pcap_action);
  gtk_widget_class_install_action (widget_class, "win.export-connections", NULL, export_connections_action);
  gtk_widget_class_install_action (widget_class, "win.open-recording", NULL, open_recording_action);
  gtk_widget_class_install_action (widget_class, "win.compare-recording", NULL, compare_recording_action);
  gtk_widget_class_install_action (widget_class, "win.remove-comparison", NULL, remove_comparison_action);
  gtk_widget_class_install_action (widget_class, "win.compare-summary", NULL, compare_summary_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.record", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-recording", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.compare-recording", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK, "win.pause", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.add-marker", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-samples", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.start-capture", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-pcap", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK, "win.time-window", "u", 60);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_CONTROL_MASK, "win.time-window", "u", 300);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_CONTROL_MASK, "win.time-window", "u", 900);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_CONTROL_MASK, "win.time-window", "u", 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "win.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "win.zoom-out", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK,
                                         "win.show-page", "s", page_names[i]);
}
