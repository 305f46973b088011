/* adbscope-application.c: the application, its app-wide actions and shortcuts */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-adb.h"
#include "adbscope-application.h"
#include "adbscope-validate.h"
#include "adbscope-window-private.h"
#include "adbscope-preferences-window.h"
#include "adbscope-window.h"

struct _AdbscopeApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopeApplication, adbscope_application, ADW_TYPE_APPLICATION)

static void
adbscope_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (adbscope_window_new (ADBSCOPE_APPLICATION (app)));
  gtk_window_present (window);
}

/* `adbscope FILE.adbscope`, a file manager, drag and drop onto the icon */
static void
adbscope_application_open (GApplication  *app,
                           GFile        **files,
                           int            n_files,
                           const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      AdbscopeWindow *window = adbscope_window_new (ADBSCOPE_APPLICATION (app));
      g_autofree char *path = g_file_get_path (files[i]);
      g_autoptr(GError) error = NULL;

      gtk_window_present (GTK_WINDOW (window));
      if (path == NULL)
        _adbscope_window_toast (window, _("Choose a local file"));
      else if (!_adbscope_window_open_recording (window, path, &error))
        _adbscope_window_toast (window, error->message);
    }
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkWidget *prefs = adbscope_preferences_window_new (parent);

  gtk_window_set_application (GTK_WINDOW (prefs), GTK_APPLICATION (user_data));
  gtk_window_present (GTK_WINDOW (prefs));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (adbscope_window_new (ADBSCOPE_APPLICATION (user_data))));
}

/* app.open-device('SERIAL'): that device in a window of its own, with its
 * own session (the device picker's "Open in New Window"). */
static void
open_device_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  const char *serial = g_variant_get_string (param, NULL);
  AdbscopeWindow *window;

  if (!adbscope_serial_is_valid (serial))
    return;
  window = adbscope_window_new (ADBSCOPE_APPLICATION (user_data));
  _adbscope_window_choose_device (window, serial);
  gtk_window_present (GTK_WINDOW (window));
}

/* The adb server was changed (Preferences): every window lists the
 * devices of the new one. */
void
adbscope_application_adb_server_changed (AdbscopeApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (ADBSCOPE_IS_WINDOW (l->data))
      _adbscope_window_restart_monitor (l->data);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *developers[] = { _("The Adbscope contributors"), NULL };

  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", TRUE,
                        "application", user_data,
                        "application-name", _("Adbscope"),
                        "application-icon", APP_ID,
                        "version", PACKAGE_VERSION,
                        "developer-name", _("The Adbscope contributors"),
                        "developers", developers,
                        "comments", _("Watch what one Android app costs: CPU, memory, frames, power and network, over adb"),
                        "license-type", GTK_LICENSE_MIT_X11,
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Closing (not destroying) lets each window stop its session and demo. */
  for (GList *l = windows; l != NULL; )
    {
      GList *next = l->next;

      gtk_window_close (l->data);
      l = next;
    }
}

static const GActionEntry app_actions[] = {
  { "preferences", preferences_action },
  { "new-window", new_window_action },
  { "open-device", open_device_action, "s" },
  { "about", about_action },
  { "quit", quit_action },
};

static void
adbscope_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };
  static const char *new_window_accels[] = { "<Control>n", NULL };

  G_APPLICATION_CLASS (adbscope_application_parent_class)->startup (app);

  /* The adb server: $ADBSCOPE_ADB_SERVER for this run, else the preference. */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autofree char *pref = g_settings_get_string (settings, "adb-server");
    const char *env = g_getenv ("ADBSCOPE_ADB_SERVER");
    g_autoptr(GError) error = NULL;

    if (!adbscope_adb_set_server (env != NULL ? env : pref, &error))
      g_message ("%s", error->message);
  }

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "window.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.new-window", new_window_accels);
}

static void
adbscope_application_class_init (AdbscopeApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = adbscope_application_activate;
  app_class->open = adbscope_application_open;
  app_class->startup = adbscope_application_startup;
}

static void
adbscope_application_init (AdbscopeApplication *self)
{
}

AdbscopeApplication *
adbscope_application_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/adbscope/Adbscope",
                       NULL);
}

int
adbscope_application_run (int    argc,
                          char **argv)
{
  g_autoptr(AdbscopeApplication) app = NULL;

  g_set_application_name (_("Adbscope"));
  app = adbscope_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
