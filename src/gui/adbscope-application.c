/* adbscope-application.c */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-application.h"
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

static void
adbscope_application_class_init (AdbscopeApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = adbscope_application_activate;
}

static void
adbscope_application_init (AdbscopeApplication *self)
{
}

int
adbscope_application_run (int    argc,
                          char **argv)
{
  g_autoptr(AdbscopeApplication) app = NULL;

  g_set_application_name (_("Adbscope"));
  app = g_object_new (ADBSCOPE_TYPE_APPLICATION,
                      "application-id", APP_ID,
                      "flags", G_APPLICATION_DEFAULT_FLAGS,
                      NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
