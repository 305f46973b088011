/* adbscope-preferences-window.c: sampling settings, bound to GSettings */
#include "config.h"

#include "adbscope-preferences-window.h"

struct _AdbscopePreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GtkSpinButton        *interval_spin;
  GtkSpinButton        *history_spin;
  GtkSpinButton        *meminfo_spin;
  GtkSwitch            *screenshots_switch;
  GtkSpinButton        *screenshot_interval_spin;
  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (AdbscopePreferencesWindow, adbscope_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
adbscope_preferences_window_dispose (GObject *object)
{
  AdbscopePreferencesWindow *self = ADBSCOPE_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (adbscope_preferences_window_parent_class)->dispose (object);
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
}

GtkWidget *
adbscope_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (ADBSCOPE_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
