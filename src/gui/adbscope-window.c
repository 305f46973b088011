/* adbscope-window.c: the main window — pick a device and an app, then watch it
 *
 * The flow is one GtkStack: devices → apps → starting → session.  The
 * session page is an AdwViewStack of AdbscopePages that all draw from one
 * AdbscopeDataView; the window owns the session and the view, and the
 * pages never see anything else.  Actions live in adbscope-window-actions.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-cpu-page.h"
#include "adbscope-frames-page.h"
#include "adbscope-memory-page.h"
#include "adbscope-network-page.h"
#include "adbscope-overview-page.h"
#include "adbscope-power-page.h"
#include "adbscope-system-page.h"
#include "adbscope-threads-page.h"
#include "adbscope-recent-recordings.h"
#include "adbscope-report.h"
#include "adbscope-validate.h"
#include <glib/gstdio.h>
#include "adbscope-window-private.h"

G_DEFINE_FINAL_TYPE (AdbscopeWindow, adbscope_window, ADW_TYPE_APPLICATION_WINDOW)

static void
set_pages_view (AdbscopeWindow   *self,
                AdbscopeDataView *view)
{
  AdbscopePage *list[] = {
    self->overview_page, self->cpu_page, self->memory_page, self->frames_page,
    self->threads_page, self->power_page, self->system_page, self->network_page,
  };

  for (guint i = 0; i < G_N_ELEMENTS (list); i++)
    adbscope_page_set_view (list[i], view);
}

void
_adbscope_window_toast (AdbscopeWindow *self,
                        const char     *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_timeout (toast, 4);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  g_free (self->last_toast);
  self->last_toast = g_strdup (title);
  self->n_toasts++;
}

static void
set_mode (AdbscopeWindow *self,
          const char     *mode)
{
  gboolean in_session = g_strcmp0 (mode, "session") == 0;
  gboolean live = in_session && self->opened_path == NULL;

  gtk_stack_set_visible_child_name (self->main_stack, mode);
  gtk_stack_set_visible_child_name (self->title_stack, in_session ? "session" : "picker");
  gtk_widget_set_visible (GTK_WIDGET (self->switcher_bar), in_session);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), live);
  gtk_widget_set_visible (GTK_WIDGET (self->pause_button), live);
  gtk_widget_set_visible (GTK_WIDGET (self->marker_button), live);
  gtk_widget_set_visible (GTK_WIDGET (self->time_scrollbar), in_session && !live);
  gtk_widget_set_visible (GTK_WIDGET (self->time_button), in_session);
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), g_strcmp0 (mode, "devices") != 0);
  gtk_spinner_set_spinning (self->starting_spinner, g_strcmp0 (mode, "starting") == 0);
  _adbscope_window_update_actions (self);
}

void
_adbscope_window_update_title (AdbscopeWindow *self)
{
  AdbscopeDevice *device = self->serial != NULL && self->monitor != NULL ?
                           adbscope_device_monitor_lookup (self->monitor, self->serial) : NULL;
  g_autofree char *name = device != NULL ? adbscope_device_dup_display_name (device) : g_strdup (self->serial);
  g_autofree char *title = NULL;
  gboolean simulated = self->demo != NULL && self->serial != NULL &&
                       g_strcmp0 (adbscope_demo_get_serial (self->demo), self->serial) == 0;

  if (self->opened_path != NULL)
    {
      g_autofree char *base = g_path_get_basename (self->opened_path);

      /* Translators: window title for a recording opened from a file: file name, package */
      title = g_strdup_printf (_("%s (recording of %s)"), base, self->package ? self->package : "");
    }
  else if (self->package != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "session") == 0)
    /* Translators: window title, app package on device name */
    title = g_strdup_printf (_("%s on %s"), self->package, name);
  adw_window_title_set_subtitle (self->window_title, name != NULL ? name : "");
  gtk_window_set_title (GTK_WINDOW (self), title != NULL ? title : _("Adbscope"));
  if (title != NULL && self->view != NULL && adbscope_data_view_get_paused (self->view))
    {
      /* Translators: window subtitle while the view is paused; %s is "app on device" */
      g_autofree char *paused = g_strdup_printf (_("Paused, still recording · %s"), title);

      adw_view_switcher_title_set_subtitle (self->switcher_title, paused);
    }
  else
    adw_view_switcher_title_set_subtitle (self->switcher_title, title != NULL ? title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->simulated_badge), simulated);
}

void
_adbscope_window_show_pickers (AdbscopeWindow *self)
{
  if (self->serial != NULL)
    set_mode (self, "apps");
  else
    set_mode (self, "devices");
  _adbscope_window_update_title (self);
}

void
_adbscope_window_choose_device (AdbscopeWindow *self,
                                const char     *serial)
{
  g_return_if_fail (serial != NULL);

  g_free (self->serial);
  self->serial = g_strdup (serial);
  g_settings_set_string (self->settings, "last-device", serial);
  adbscope_app_picker_set_serial (self->app_picker, serial);
  set_mode (self, "apps");
  _adbscope_window_update_title (self);
}

/* Another adb server: its devices replace the list (a running session
 * keeps its own adb commands, which now go to that server too). */
void
_adbscope_window_restart_monitor (AdbscopeWindow *self)
{
  adbscope_device_monitor_stop (self->monitor);
  adbscope_device_monitor_start (self->monitor);
}

static void
on_restarted (AdbscopeSession *session,
              int              pid,
              AdbscopeWindow  *self)
{
  g_autofree char *text = NULL;

  /* Translators: a toast; %d is the app's new process id */
  text = g_strdup_printf (_("The app restarted (pid %d)"), pid);
  _adbscope_window_toast (self, text);
}

static void
set_device_lost (AdbscopeWindow *self,
                 gboolean        lost)
{
  if (self->device_lost == lost || self->session == NULL)
    return;
  self->device_lost = lost;
  _adbscope_window_toast (self, lost ? _("Lost the device: no samples are coming in")
                                     : _("The device is back"));
}

static void
on_gap (AdbscopeSession *session,
        gboolean         started,
        AdbscopeWindow  *self)
{
  set_device_lost (self, started);
}

/* adb may notice first that the device left: say so without waiting for
 * the gap.  It coming back is only believed when samples arrive again. */
static void
on_devices_changed (GListModel     *model,
                    guint           position,
                    guint           removed,
                    guint           added,
                    AdbscopeWindow *self)
{
  AdbscopeDevice *device;

  _adbscope_window_update_title (self);
  if (self->session == NULL || !adbscope_session_is_running (self->session))
    return;
  device = adbscope_device_monitor_lookup (self->monitor, self->serial);
  if (device == NULL || adbscope_device_get_state (device) != ADBSCOPE_DEVICE_STATE_DEVICE)
    set_device_lost (self, TRUE);
}

/* The live run's recording ends with its session (stop, back, close). */
static void
close_recording (AdbscopeWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->recording == NULL)
    return;
  /* as `record` ends one: a report from the file says what the session said */
  if (!adbscope_report_finish_recording (self->recording, self->session, &error) && error != NULL)
    _adbscope_window_toast (self, error->message);
}

void
_adbscope_window_stop_session (AdbscopeWindow *self)
{
  /* The overlay was aligned to this run */
  _adbscope_window_remove_comparison (self);
  _adbscope_window_dispose_capture (self);
  g_cancellable_cancel (self->start_cancellable);
  g_clear_object (&self->start_cancellable);
  g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      adbscope_session_stop (self->session);
    }
  close_recording (self);
  g_clear_object (&self->recording);
  set_pages_view (self, NULL);
  g_clear_object (&self->view);
  g_clear_object (&self->session);
  g_clear_pointer (&self->opened_path, g_free);
  self->device_lost = FALSE;
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  AdbscopeWindow *self = user_data;
  AdbscopeSession *session = ADBSCOPE_SESSION (object);
  g_autoptr(GError) error = NULL;

  if (!adbscope_session_start_finish (session, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->session == session)
        {
          _adbscope_window_stop_session (self);
          _adbscope_window_toast (self, error->message);
          set_mode (self, "apps");
        }
      g_object_unref (self);
      return;
    }
  if (self->session != session)
    {
      g_object_unref (self);
      return;
    }

  self->view = adbscope_data_view_new (session);
  adbscope_data_view_set_visible_seconds (self->view, self->visible_seconds);
  if (self->recording != NULL)
    adbscope_data_view_set_recording (self->view, adbscope_recording_get_path (self->recording));
  g_signal_connect (session, "restarted", G_CALLBACK (on_restarted), self);
  g_signal_connect (session, "gap", G_CALLBACK (on_gap), self);
  set_pages_view (self, self->view);
  set_mode (self, "session");
  _adbscope_window_update_title (self);
  g_object_unref (self);
}

/* The preference (and the menu's toggle) applies at once to a live run. */
static void
apply_screenshots (AdbscopeWindow *self)
{
  if (self->session == NULL || self->opened_path != NULL)
    return;
  adbscope_session_set_screenshots (self->session, g_settings_get_boolean (self->settings, "screenshots"),
                                    g_settings_get_uint (self->settings, "screenshot-interval") * 1000);
  if (self->view != NULL)
    g_signal_emit_by_name (self->view, "updated");
}

static void
start_session (AdbscopeWindow *self)
{
  _adbscope_window_stop_session (self);

  self->session = adbscope_session_new (self->serial, self->package);
  adbscope_session_set_interval (self->session, g_settings_get_uint (self->settings, "sample-interval"));
  adbscope_session_set_history (self->session, g_settings_get_uint (self->settings, "history-length"));
  adbscope_session_set_meminfo_interval (self->session, g_settings_get_uint (self->settings, "meminfo-interval"));
  apply_screenshots (self);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
    g_autofree char *dir = adbscope_recording_default_dir ();
    g_autofree char *name = adbscope_recording_default_name (self->package, now);
    g_autofree char *path = g_build_filename (dir, name, NULL);

    /* Every run is a file too; without one it still runs, from memory.
     * Another window may start a run of the same app in the same second. */
    g_mkdir_with_parents (dir, 0700);
    self->recording = adbscope_recording_create_unique (path, NULL, &error);
    if (self->recording != NULL)
      adbscope_session_set_recording (self->session, self->recording);
    else
      _adbscope_window_toast (self, error->message);
  }
  self->start_cancellable = g_cancellable_new ();
  set_mode (self, "starting");
  adbscope_session_start_async (self->session, self->start_cancellable, start_cb, g_object_ref (self));
}

void
_adbscope_window_choose_app (AdbscopeWindow *self,
                             const char     *package)
{
  g_return_if_fail (package != NULL);
  g_return_if_fail (self->serial != NULL);

  if (!adbscope_package_name_is_valid (package))
    {
      _adbscope_window_toast (self, _("That is not a valid package name"));
      return;
    }
  g_free (self->package);
  self->package = g_strdup (package);
  g_settings_set_string (self->settings, "last-app", package);
  start_session (self);
}

/* Record: off stops collecting (the data stays for export); on starts a
 * new session of the same app. */
void
_adbscope_window_set_recording (AdbscopeWindow *self,
                                gboolean        recording)
{
  if (self->session == NULL || self->package == NULL)
    return;
  if (recording == adbscope_session_is_running (self->session))
    return;
  if (recording)
    {
      start_session (self);
      return;
    }
  _adbscope_window_stop_capture (self);
  adbscope_session_stop (self->session);
  close_recording (self);
  _adbscope_window_toast (self, _("Recording stopped; export the report from the main menu"));
  _adbscope_window_update_actions (self);
}

static void
on_device_activated (AdbscopeDevicePicker *picker,
                     AdbscopeDevice       *device,
                     AdbscopeWindow       *self)
{
  _adbscope_window_choose_device (self, adbscope_device_get_serial (device));
}

static void
on_app_activated (AdbscopeAppPicker *picker,
                  const char        *package,
                  AdbscopeWindow    *self)
{
  _adbscope_window_choose_app (self, package);
}

static void
on_marker_activate (GtkWidget      *widget,
                    AdbscopeWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->marker_entry));

  _adbscope_window_add_marker (self, text);
  gtk_editable_set_text (GTK_EDITABLE (self->marker_entry), "");
  gtk_popover_popdown (self->marker_popover);
}

/* The scrollbar is the window onto a recording: its page is the visible
 * time window, its value the left edge (seconds since the start). */
static void
sync_scrollbar (AdbscopeWindow *self)
{
  GtkAdjustment *adj = gtk_scrollbar_get_adjustment (self->time_scrollbar);
  double total = self->opened_end_us / 1e6;
  double page = self->view ? MIN (adbscope_data_view_get_visible_seconds (self->view), total) : total;
  gint64 end = self->view ? adbscope_data_view_get_end_time (self->view) : 0;
  double right = end > 0 ? end / 1e6 : total;

  self->scrolling = TRUE;
  gtk_adjustment_configure (adj, CLAMP (right - page, 0, MAX (total - page, 0)), 0, total,
                            MAX (page / 20, 1), MAX (page * 0.9, 1), page);
  self->scrolling = FALSE;
}

static void
on_scrolled (GtkAdjustment  *adj,
             AdbscopeWindow *self)
{
  if (self->scrolling || self->view == NULL || self->opened_path == NULL)
    return;
  adbscope_data_view_set_end_time (self->view, MAX ((gint64) ((gtk_adjustment_get_value (adj) +
                                                               gtk_adjustment_get_page_size (adj)) * 1e6), 1));
}

/* Ctrl+wheel zooms the time window; a sideways scroll (touchpad, or
 * Shift+wheel) moves a recording's window along the run. */
static gboolean
on_chart_scroll (GtkEventControllerScroll *controller,
                 double                    dx,
                 double                    dy,
                 AdbscopeWindow           *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GtkAdjustment *adj = gtk_scrollbar_get_adjustment (self->time_scrollbar);

  if (self->view == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    {
      if (dy != 0)
        _adbscope_window_zoom (self, dy < 0 ? 0.5 : 2);
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK && dx == 0)
    dx = dy;
  if (self->opened_path == NULL || dx == 0)
    return FALSE;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dx * gtk_adjustment_get_step_increment (adj));
  return TRUE;
}

/* Shows the recording at @end_s (seconds since its start) on the right. */
void
_adbscope_window_scroll_to (AdbscopeWindow *self,
                            double          end_s)
{
  GtkAdjustment *adj = gtk_scrollbar_get_adjustment (self->time_scrollbar);

  gtk_adjustment_set_value (adj, end_s - gtk_adjustment_get_page_size (adj));
}

/* Zooming keeps the right edge where it was, but never past either end. */
static void
on_visible_seconds (AdbscopeDataView *view,
                    GParamSpec       *pspec,
                    AdbscopeWindow   *self)
{
  GtkAdjustment *adj = gtk_scrollbar_get_adjustment (self->time_scrollbar);

  sync_scrollbar (self);
  adbscope_data_view_set_end_time (view, MAX ((gint64) ((gtk_adjustment_get_value (adj) +
                                                         gtk_adjustment_get_page_size (adj)) * 1e6), 1));
}

static void
load_details_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  GError *error = NULL;
  AdbscopeRun *run = adbscope_run_load_details (task_data, &error);

  if (run != NULL)
    g_task_return_pointer (task, run, (GDestroyNotify) adbscope_run_free);
  else
    g_task_return_error (task, error);
}

/* The frame times and threads are in: the pages that waited show them. */
static void
details_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AdbscopeWindow) self = user_data;
  AdbscopeDataView *view = ADBSCOPE_DATA_VIEW (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->view != view)
    return;
  if (run != NULL)
    adbscope_session_add_run_details (self->session, run);
  else
    _adbscope_window_toast (self, error->message);
  adbscope_data_view_set_details_pending (view, FALSE);
}

/**
 * _adbscope_window_open_recording:
 *
 * Shows a recording in the same pages, read-only; the time window scrolls
 * and zooms over all of it.  No sample is read here: charts read the
 * visible window from the file, and what the pages show of the whole run
 * comes from adbscope_run_load_summary (); the frame times and the threads
 * follow from a thread, the pages that show them wait for them.
 */
gboolean
_adbscope_window_open_recording (AdbscopeWindow  *self,
                                 const char      *path,
                                 GError         **error)
{
  g_autoptr(AdbscopeRun) run = adbscope_run_load_summary (path, error);
  g_autoptr(GTask) task = NULL;
  AdbscopeSession *session;

  if (run == NULL)
    return FALSE;
  _adbscope_window_stop_session (self);
  session = adbscope_session_new_from_run (run);
  self->session = session;
  self->opened_path = g_strdup (path);
  self->opened_end_us = MAX (run->end_us, G_USEC_PER_SEC);
  g_free (self->package);
  self->package = g_strdup (run->package);
  self->view = adbscope_data_view_new (session);
  adbscope_data_view_set_recording (self->view, path);
  adbscope_data_view_set_opened_path (self->view, path);
  adbscope_data_view_set_details_pending (self->view, TRUE);
  /* the whole run, and the time menu says so (it kept the last choice) */
  adbscope_data_view_set_visible_seconds (self->view, CLAMP (self->opened_end_us / 1e6, 10, 24 * 3600));
  gtk_menu_button_set_label (self->time_button, _("Whole run"));
  adbscope_data_view_set_end_time (self->view, self->opened_end_us);
  g_signal_connect (self->view, "notify::visible-seconds", G_CALLBACK (on_visible_seconds), self);

  self->open_cancellable = g_cancellable_new ();
  task = g_task_new (self->view, self->open_cancellable, details_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, _adbscope_window_open_recording);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_details_thread);

  set_pages_view (self, self->view);
  set_mode (self, "session");
  sync_scrollbar (self);
  _adbscope_window_update_title (self);
  adbscope_recent_recordings_add (self->settings, path);
  return TRUE;
}

const char *
_adbscope_window_get_opened_path (AdbscopeWindow *self)
{
  return self->opened_path;
}

static void
update_recent (AdbscopeWindow *self)
{
  g_auto(GStrv) recent = adbscope_recent_recordings_list (self->settings);

  adbscope_device_picker_set_recent (self->device_picker, (const char * const *) recent);
}

static void
on_recent_activated (AdbscopeDevicePicker *picker,
                     const char           *path,
                     AdbscopeWindow       *self)
{
  g_autoptr(GError) error = NULL;

  if (!_adbscope_window_open_recording (self, path, &error))
    _adbscope_window_toast (self, error->message);
}

static gboolean
on_drop (GtkDropTarget  *target,
         const GValue   *value,
         double          x,
         double          y,
         AdbscopeWindow *self)
{
  GFile *file = g_value_get_object (value);
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      _adbscope_window_toast (self, _("Choose a local file"));
      return FALSE;
    }
  if (!_adbscope_window_open_recording (self, path, &error))
    {
      _adbscope_window_toast (self, error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
adbscope_window_close_request (GtkWindow *window)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  _adbscope_window_stop_session (self);
  if (self->demo != NULL)
    adbscope_demo_stop (self->demo);

  return GTK_WINDOW_CLASS (adbscope_window_parent_class)->close_request (window);
}

/* GtkApplication loads gtk/menus.ui from the resource base path.  The
 * "application" property is not a construct property, so this waits for
 * it to be set. */
static void
on_application_notify (AdbscopeWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL)
    return;
  gtk_menu_button_set_menu_model (self->primary_menu_button,
                                  G_MENU_MODEL (gtk_application_get_menu_by_id (app, "primary_menu")));
  gtk_menu_button_set_menu_model (self->time_button,
                                  G_MENU_MODEL (gtk_application_get_menu_by_id (app, "time_menu")));
}

static void
adbscope_window_dispose (GObject *object)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (object);

  _adbscope_window_stop_session (self);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      adbscope_device_monitor_stop (self->monitor);
    }
  g_clear_object (&self->demo);
  gtk_widget_dispose_template (GTK_WIDGET (self), ADBSCOPE_TYPE_WINDOW);
  g_clear_object (&self->monitor);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (adbscope_window_parent_class)->dispose (object);
}

static void
adbscope_window_finalize (GObject *object)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (object);

  g_free (self->serial);
  g_free (self->package);
  g_free (self->last_toast);
  g_free (self->opened_path);
  G_OBJECT_CLASS (adbscope_window_parent_class)->finalize (object);
}

static void
adbscope_window_class_init (AdbscopeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = adbscope_window_dispose;
  object_class->finalize = adbscope_window_finalize;
  window_class->close_request = adbscope_window_close_request;

  g_type_ensure (ADBSCOPE_TYPE_DEVICE_PICKER);
  g_type_ensure (ADBSCOPE_TYPE_APP_PICKER);
  g_type_ensure (ADBSCOPE_TYPE_OVERVIEW_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_CPU_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_MEMORY_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_FRAMES_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_THREADS_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_POWER_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_SYSTEM_PAGE);
  g_type_ensure (ADBSCOPE_TYPE_NETWORK_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, AdbscopeWindow, name)
  BIND (toast_overlay);
  BIND (header_bar);
  BIND (back_button);
  BIND (record_button);
  BIND (pause_button);
  BIND (marker_button);
  BIND (marker_popover);
  BIND (marker_entry);
  BIND (marker_add_button);
  BIND (title_stack);
  BIND (window_title);
  BIND (switcher_title);
  BIND (primary_menu_button);
  BIND (time_button);
  BIND (simulated_badge);
  BIND (main_stack);
  BIND (device_picker);
  BIND (app_picker);
  BIND (starting_page);
  BIND (starting_spinner);
  BIND (view_stack);
  BIND (switcher_bar);
  BIND (overview_page);
  BIND (cpu_page);
  BIND (memory_page);
  BIND (frames_page);
  BIND (threads_page);
  BIND (power_page);
  BIND (system_page);
  BIND (network_page);
  BIND (time_scrollbar);
#undef BIND

  _adbscope_window_class_actions_init (klass);
}

static void
adbscope_window_init (AdbscopeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  self->visible_seconds = 300;
  _adbscope_window_set_visible_seconds (self, 300);

  g_object_bind_property (self->switcher_title, "title-visible",
                          self->switcher_bar, "reveal", G_BINDING_SYNC_CREATE);

  self->monitor = adbscope_device_monitor_new ();
  g_signal_connect (self->monitor, "items-changed", G_CALLBACK (on_devices_changed), self);
  adbscope_device_picker_set_monitor (self->device_picker, self->monitor);
  adbscope_device_monitor_start (self->monitor);

  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_notify), NULL);
  g_signal_connect (self->device_picker, "device-activated", G_CALLBACK (on_device_activated), self);
  g_signal_connect (self->app_picker, "app-activated", G_CALLBACK (on_app_activated), self);
  g_signal_connect (self->device_picker, "recording-activated", G_CALLBACK (on_recent_activated), self);
  g_signal_connect_swapped (self->settings, "changed::recent-recordings", G_CALLBACK (update_recent), self);
  g_signal_connect_swapped (self->settings, "changed::screenshots", G_CALLBACK (apply_screenshots), self);
  g_signal_connect_swapped (self->settings, "changed::screenshot-interval", G_CALLBACK (apply_screenshots), self);
  {
    g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
    g_autoptr(GAction) action = g_settings_create_action (self->settings, "screenshots");

    g_action_map_add_action (G_ACTION_MAP (group), action);
    gtk_widget_insert_action_group (GTK_WIDGET (self), "settings", G_ACTION_GROUP (group));
  }
  update_recent (self);
  g_signal_connect (self->marker_entry, "activate", G_CALLBACK (on_marker_activate), self);
  g_signal_connect (self->marker_add_button, "clicked", G_CALLBACK (on_marker_activate), self);
  {
    GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                                                  GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);

    gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
    g_signal_connect (scroll, "scroll", G_CALLBACK (on_chart_scroll), self);
    gtk_widget_add_controller (GTK_WIDGET (self->view_stack), scroll);
  }
  g_signal_connect (gtk_scrollbar_get_adjustment (self->time_scrollbar), "value-changed",
                    G_CALLBACK (on_scrolled), self);
  {
    GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

    g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  }

  _adbscope_window_init_compare (self);
  _adbscope_window_init_busy (self);
  set_mode (self, "devices");
}

AdbscopeWindow *
adbscope_window_new (AdbscopeApplication *application)
{
  return g_object_new (ADBSCOPE_TYPE_WINDOW, "application", application, NULL);
}

AdbscopeSession *
_adbscope_window_get_session (AdbscopeWindow *self)
{
  return self->session;
}

AdbscopeDataView *
_adbscope_window_get_view (AdbscopeWindow *self)
{
  return self->view;
}

AdbscopeDevicePicker *
_adbscope_window_get_device_picker (AdbscopeWindow *self)
{
  return self->device_picker;
}

AdbscopeAppPicker *
_adbscope_window_get_app_picker (AdbscopeWindow *self)
{
  return self->app_picker;
}

AdwViewStack *
_adbscope_window_get_view_stack (AdbscopeWindow *self)
{
  return self->view_stack;
}

AdbscopeDemo *
_adbscope_window_get_demo (AdbscopeWindow *self)
{
  return self->demo;
}

/* "devices", "apps", "starting" or "session" */
const char *
_adbscope_window_get_mode (AdbscopeWindow *self)
{
  return gtk_stack_get_visible_child_name (self->main_stack);
}

const char *
_adbscope_window_get_last_toast (AdbscopeWindow *self)
{
  return self->last_toast;
}

guint
_adbscope_window_get_n_toasts (AdbscopeWindow *self)
{
  return self->n_toasts;
}

AdbscopePage *
_adbscope_window_get_page (AdbscopeWindow *self,
                           const char     *name)
{
  GtkWidget *child = adw_view_stack_get_child_by_name (self->view_stack, name);

  return child != NULL ? ADBSCOPE_PAGE (child) : NULL;
}
