/* adbscope-connect-dialog.c: see the header
 *
 * adb connect exits 0 even when it failed: its text decides
 * (adbscope_parse_connect_output) and is what the user sees, as adb said it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-connect-dialog.h"
#include "adbscope-validate.h"

typedef struct
{
  GtkWindow *parent;
  GSettings *settings;
  char      *address;
} Attempt;

static void
attempt_free (Attempt *a)
{
  g_clear_object (&a->parent);
  g_clear_object (&a->settings);
  g_free (a->address);
  g_free (a);
}

void
adbscope_connect_remember (GSettings  *settings,
                           const char *address)
{
  g_auto(GStrv) old = g_settings_get_strv (settings, "recent-addresses");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  guint n = 1;

  g_strv_builder_add (b, address);
  for (guint i = 0; old[i] != NULL && n < ADBSCOPE_RECENT_ADDRESSES_MAX; i++)
    if (g_strcmp0 (old[i], address) != 0)
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  list = g_strv_builder_end (b);
  g_settings_set_strv (settings, "recent-addresses", (const char * const *) list);
}

static void
show_answer (Attempt    *a,
             gboolean    ok,
             const char *answer)
{
  GtkWidget *d = adw_message_dialog_new (a->parent, ok ? _("Connected") : _("Could Not Connect"), answer);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (d), "close", _("_Close"));
  g_object_set_data (G_OBJECT (d), "adbscope-connect-answer", GINT_TO_POINTER (ok ? 1 : 2));
  if (gtk_window_get_application (a->parent) != NULL)
    gtk_window_set_application (GTK_WINDOW (d), gtk_window_get_application (a->parent));
  gtk_window_present (GTK_WINDOW (d));
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Attempt *a = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = adbscope_adb_run_finish (result, NULL, &err, &error);
  g_autofree char *answer = NULL;

  if (out == NULL)
    show_answer (a, FALSE, error->message);
  else
    {
      gboolean ok = adbscope_parse_connect_output (out, NULL);

      answer = adbscope_adb_stderr_last_line (out);
      if (answer == NULL)
        answer = adbscope_adb_stderr_last_line (err);
      if (ok)
        adbscope_connect_remember (a->settings, a->address);
      show_answer (a, ok, answer != NULL ? answer : _("adb printed nothing"));
    }
  attempt_free (a);
}

static void
on_response (AdwMessageDialog *dialog,
             const char       *response,
             GtkEntry         *entry)
{
  Attempt *a;
  const char *args[] = { "connect", NULL, NULL };

  if (g_strcmp0 (response, "connect") != 0)
    return;
  a = g_new0 (Attempt, 1);
  a->parent = g_object_ref (gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  a->settings = g_object_ref (g_object_get_data (G_OBJECT (dialog), "settings"));
  a->address = adbscope_network_address_normalize (gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_assert (a->address != NULL);   /* the response is only enabled for a valid one */
  args[1] = a->address;
  adbscope_adb_run_async (NULL, args, NULL, connect_cb, a);
}

static void
on_text_changed (GtkEditable      *entry,
                 AdwMessageDialog *dialog)
{
  g_autofree char *address = adbscope_network_address_normalize (gtk_editable_get_text (entry));

  adw_message_dialog_set_response_enabled (dialog, "connect", address != NULL);
  if (address == NULL && *gtk_editable_get_text (entry) != '\0')
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
}

static void
on_recent_activated (GtkListBox    *box,
                     GtkListBoxRow *row,
                     GtkEntry      *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  gtk_widget_grab_focus (GTK_WIDGET (entry));
}

GtkWidget *
adbscope_connect_dialog_present (GtkWindow *parent,
                                 GSettings *settings)
{
  g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-addresses");
  GtkWidget *dialog, *box, *entry;

  dialog = adw_message_dialog_new (parent, _("Connect to a Device"),
                                   _("A phone with wireless debugging, or a device farm’s endpoint: "
                                     "its address as HOST or HOST:PORT (port 5555 when not given)."));
  g_object_set_data_full (G_OBJECT (dialog), "settings", g_object_ref (settings), g_object_unref);
  g_object_set_data (G_OBJECT (dialog), "entry", NULL);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "192.168.1.20:5555");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Address"), -1);
  gtk_box_append (GTK_BOX (box), entry);
  if (recent[0] != NULL)
    {
      GtkWidget *label = gtk_label_new (_("Recent"));
      GtkWidget *list = gtk_list_box_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
      gtk_widget_add_css_class (list, "boxed-list");
      for (guint i = 0; recent[i] != NULL; i++)
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), recent[i]);
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
          gtk_list_box_append (GTK_LIST_BOX (list), row);
        }
      g_signal_connect (list, "row-activated", G_CALLBACK (on_recent_activated), entry);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), list);
    }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);   /* for tests */
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "connect", _("C_onnect"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "connect", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "connect");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "connect", FALSE);
  g_signal_connect (entry, "changed", G_CALLBACK (on_text_changed), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), entry);
  if (gtk_window_get_application (parent) != NULL)
    gtk_window_set_application (GTK_WINDOW (dialog), gtk_window_get_application (parent));
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
  return dialog;
}
