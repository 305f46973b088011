/* adbscope-window.c: the main window (pickers and pages come with the GUI issue) */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-window.h"

struct _AdbscopeWindow
{
  AdwApplicationWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (AdbscopeWindow, adbscope_window, ADW_TYPE_APPLICATION_WINDOW)

static void
adbscope_window_class_init (AdbscopeWindowClass *klass)
{
}

static void
adbscope_window_init (AdbscopeWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *status = adw_status_page_new ();

  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("No Device Connected"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   _("Connect a phone with USB debugging enabled"));
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "phone-symbolic");
  gtk_widget_set_vexpand (status, TRUE);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), status);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (self), box);
  gtk_window_set_title (GTK_WINDOW (self), _("Adbscope"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 720);
}

AdbscopeWindow *
adbscope_window_new (AdbscopeApplication *application)
{
  return g_object_new (ADBSCOPE_TYPE_WINDOW, "application", application, NULL);
}
