/* adbscope-preferences-window.c: sampling settings, bound to GSettings,
 * and the adb server (checked before it is kept) */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-adb.h"
#include "adbscope-application.h"
#include "adbscope-preferences-window.h"

struct _AdbscopePreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GtkSpinButton        *interval_spin;
  GtkSpinButton        *history_spin;
  GtkSpinButton        *meminfo_spin;
  GtkSwitch            *screenshots_switch;
  GtkSpinButton        *screenshot_interval_spin;
  AdwEntryRow          *adb_server_row;
  AdwActionRow         *adb_server_status;
  GSettings            *settings;
  GCancellable         *check_cancellable;
  char                 *checking;         /* the address being checked */
};

G_DEFINE_FINAL_TYPE (AdbscopePreferencesWindow, adbscope_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
adbscope_preferences_window_dispose (GObject *object)
{
  AdbscopePreferencesWindow *self = ADBSCOPE_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  g_clear_pointer (&self->checking, g_free);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (adbscope_preferences_window_parent_class)->dispose (object);
}

static void
show_server_in_use (AdbscopePreferencesWindow *self)
{
  g_autofree char *server = adbscope_adb_dup_server ();

  adw_action_row_set_subtitle (self->adb_server_status, server != NULL ? server : _("This computer"));
}

static void
check_server_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  AdbscopePreferencesWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  if (!adbscope_adb_check_server_finish (result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->adb_server_row), TRUE);
  if (error != NULL)
    {
      /* Nothing changes: the devices still come from the server in use. */
      gtk_widget_add_css_class (GTK_WIDGET (self->adb_server_row), "error");
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (error->message));
    }
  else if (adbscope_adb_set_server (self->checking, &error))
    {
      g_autofree char *server = adbscope_adb_dup_server ();
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      gtk_widget_remove_css_class (GTK_WIDGET (self->adb_server_row), "error");
      g_settings_set_string (self->settings, "adb-server", server != NULL ? server : "");
      if (server != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->adb_server_row), server);
      message = server != NULL ? g_strdup_printf (_("Devices now come from the adb server at %s"), server)
                               : g_strdup (_("Devices now come from the adb server on this computer"));
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (message));
      show_server_in_use (self);
      if (ADBSCOPE_IS_APPLICATION (app))
        adbscope_application_adb_server_changed (ADBSCOPE_APPLICATION (app));
    }
  g_clear_pointer (&self->checking, g_free);
  g_object_unref (self);
}

/* The address is kept only once an adb server answers there. */
static void
on_adb_server_apply (AdwEntryRow               *row,
                     AdbscopePreferencesWindow *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  self->check_cancellable = g_cancellable_new ();
  g_free (self->checking);
  self->checking = g_steal_pointer (&text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->adb_server_row), FALSE);
  adbscope_adb_check_server_async (self->checking, self->check_cancellable, check_server_cb, g_object_ref (self));
}

static void
on_adb_server_changed (AdwEntryRow               *row,
                       GParamSpec                *pspec,
                       AdbscopePreferencesWindow *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
}

static void
adbscope_preferences_window_class_init (AdbscopePreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, history_spin);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, meminfo_spin);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, screenshots_switch);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, screenshot_interval_spin);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, adb_server_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopePreferencesWindow, adb_server_status);
}

static void
adbscope_preferences_window_init (AdbscopePreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  /* The schema's ranges match the adjustments, so every value binds. */
  g_settings_bind (self->settings, "sample-interval", self->interval_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "history-length", self->history_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "meminfo-interval", self->meminfo_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "screenshots", self->screenshots_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "screenshot-interval", self->screenshot_interval_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "screenshots", self->screenshot_interval_spin, "sensitive", G_SETTINGS_BIND_GET);

  {
    g_autofree char *server = g_settings_get_string (self->settings, "adb-server");

    gtk_editable_set_text (GTK_EDITABLE (self->adb_server_row), server);
  }
  show_server_in_use (self);
  g_signal_connect (self->adb_server_row, "apply", G_CALLBACK (on_adb_server_apply), self);
  g_signal_connect (self->adb_server_row, "notify::text", G_CALLBACK (on_adb_server_changed), self);
}

/* For tests: the address row (type, then emit "apply"). */
AdwEntryRow *
_adbscope_preferences_window_get_adb_server_row (AdbscopePreferencesWindow *self)
{
  return self->adb_server_row;
}

GtkWidget *
adbscope_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (ADBSCOPE_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
