/* adbscope-app-picker.c: search and choose the app to watch
 *
 * The list comes from adbscope_app_list_async() (core): third-party apps
 * by default, every package with "All apps"; running apps first.  The
 * package name is always shown, the label too when it is known.  Labels
 * and icons come afterwards from adbscope_app_info_load_async() (read from
 * the APKs, cached): rows update in place as they arrive, names first, and
 * the list is sorted again by name once they are all in.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-app-info.h"
#include "adbscope-app-list.h"
#include "adbscope-app-picker.h"

struct _AdbscopeAppPicker
{
  AdwBin              parent_instance;

  GtkSearchEntry     *search_entry;
  GtkToggleButton    *all_toggle;
  GtkButton          *refresh_button;
  GtkStack           *stack;
  GtkSpinner         *spinner;
  GtkListBox         *list_box;
  AdwStatusPage      *error_page;

  char               *serial;
  GCancellable       *cancellable;
  GtkFilterListModel *filter_model;
  GtkCustomFilter    *filter;
  GtkSortListModel   *sort_model;
  GtkCustomSorter    *sorter;
  gboolean            loading;
};

G_DEFINE_FINAL_TYPE (AdbscopeAppPicker, adbscope_app_picker, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

enum {
  SIGNAL_APP_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
match_app (gpointer item,
           gpointer user_data)
{
  AdbscopeAppPicker *self = user_data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  g_autofree char *package = NULL;
  g_autofree char *label = NULL;

  if (text == NULL || *text == '\0')
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  package = g_utf8_casefold (adbscope_app_get_package (item), -1);
  if (strstr (package, needle) != NULL)
    return TRUE;
  if (adbscope_app_get_label (item) == NULL)
    return FALSE;
  label = g_utf8_casefold (adbscope_app_get_label (item), -1);
  return strstr (label, needle) != NULL;
}

/* Title, subtitle and icon from the app's current label and icon. */
static void
update_row (GtkWidget   *row,
            AdbscopeApp *app)
{
  GtkImage *icon = g_object_get_data (G_OBJECT (row), "icon");
  g_autofree char *name = adbscope_app_dup_display_name (app);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  /* The package is always on the row: as the title when no label is
   * known, else in the subtitle. */
  if (adbscope_app_get_running (app))
    {
      g_autofree char *subtitle = NULL;

      if (g_strcmp0 (name, adbscope_app_get_package (app)) != 0)
        /* Translators: package name and process id of a running app */
        subtitle = g_strdup_printf (_("%s · pid %d"), adbscope_app_get_package (app),
                                    adbscope_app_get_pid (app));
      else
        /* Translators: process id of a running app */
        subtitle = g_strdup_printf (_("pid %d"), adbscope_app_get_pid (app));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
    }
  else if (g_strcmp0 (name, adbscope_app_get_package (app)) != 0)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), adbscope_app_get_package (app));
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), NULL);

  if (adbscope_app_get_icon (app) != NULL)
    gtk_image_set_from_file (icon, adbscope_app_get_icon (app));
  else
    gtk_image_set_from_icon_name (icon, "application-x-executable-symbolic");
  gtk_image_set_pixel_size (icon, 32);
}

static void
on_app_notify (AdbscopeApp *app,
               GParamSpec  *pspec,
               GtkWidget   *row)
{
  update_row (row, app);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  AdbscopeApp *app = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new ();

  gtk_widget_add_css_class (icon, "app-icon");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  g_object_set_data (G_OBJECT (row), "icon", icon);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (adbscope_app_get_running (app))
    {
      GtkWidget *running = gtk_label_new (_("Running"));

      gtk_widget_add_css_class (running, "accent");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), running);
    }
  update_row (row, app);
  g_signal_connect_object (app, "notify::display-name", G_CALLBACK (on_app_notify), row, 0);
  g_signal_connect_object (app, "notify::icon", G_CALLBACK (on_app_notify), row, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "app", g_object_ref (app), g_object_unref);
  return row;
}

static int
sort_apps (gconstpointer a,
           gconstpointer b,
           gpointer      user_data)
{
  return adbscope_app_compare ((AdbscopeApp *) a, (AdbscopeApp *) b);
}

static void
info_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AdbscopeAppPicker *self = user_data;
  g_autoptr(GError) error = NULL;

  /* A failure here costs names and icons, never the list. */
  if (adbscope_app_info_load_finish (result, NULL, &error))
    {
      gtk_sorter_changed (GTK_SORTER (self->sorter), GTK_SORTER_CHANGE_DIFFERENT);
      gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("app labels and icons: %s", error->message);
  g_object_unref (self);
}

static void
set_loading (AdbscopeAppPicker *self,
             gboolean           loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  gtk_spinner_set_spinning (self->spinner, loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AdbscopeAppPicker *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) apps = NULL;

  apps = adbscope_app_list_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }

  if (apps == NULL)
    {
      adw_status_page_set_description (self->error_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "error");
    }
  else
    {
      gtk_sort_list_model_set_model (self->sort_model, apps);
      gtk_stack_set_visible_child_name (self->stack, "list");
      adbscope_app_info_load_async (self->serial, apps, NULL, self->cancellable, info_cb, g_object_ref (self));
    }
  set_loading (self, FALSE);
  g_object_unref (self);
}

void
adbscope_app_picker_refresh (AdbscopeAppPicker *self)
{
  g_return_if_fail (ADBSCOPE_IS_APP_PICKER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->serial == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_loading (self, TRUE);
  adbscope_app_list_async (self->serial, gtk_toggle_button_get_active (self->all_toggle),
                           self->cancellable, list_cb, g_object_ref (self));
}

void
adbscope_app_picker_set_serial (AdbscopeAppPicker *self,
                                const char        *serial)
{
  g_return_if_fail (ADBSCOPE_IS_APP_PICKER (self));

  g_free (self->serial);
  self->serial = g_strdup (serial);
  gtk_sort_list_model_set_model (self->sort_model, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  adbscope_app_picker_refresh (self);
}

const char *
adbscope_app_picker_get_serial (AdbscopeAppPicker *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP_PICKER (self), NULL);
  return self->serial;
}

gboolean
adbscope_app_picker_get_loading (AdbscopeAppPicker *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP_PICKER (self), FALSE);
  return self->loading;
}

/* The apps shown (after the search filter). */
GListModel *
adbscope_app_picker_get_model (AdbscopeAppPicker *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP_PICKER (self), NULL);
  return G_LIST_MODEL (self->filter_model);
}

void
adbscope_app_picker_set_search (AdbscopeAppPicker *self,
                                const char        *text)
{
  g_return_if_fail (ADBSCOPE_IS_APP_PICKER (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

GtkListBox *
adbscope_app_picker_get_list_box (AdbscopeAppPicker *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP_PICKER (self), NULL);
  return self->list_box;
}

static void
on_search_changed (GtkSearchEntry    *entry,
                   AdbscopeAppPicker *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* Enter in the search entry picks the first match. */
static void
on_search_activate (GtkSearchEntry    *entry,
                    AdbscopeAppPicker *self)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list_box, 0);

  if (row != NULL)
    g_signal_emit_by_name (self->list_box, "row-activated", row);
}

static void
on_row_activated (GtkListBox        *box,
                  GtkListBoxRow     *row,
                  AdbscopeAppPicker *self)
{
  AdbscopeApp *app = g_object_get_data (G_OBJECT (row), "app");

  if (app != NULL)
    g_signal_emit (self, signals[SIGNAL_APP_ACTIVATED], 0, adbscope_app_get_package (app));
}

static void
on_all_toggled (GtkToggleButton   *button,
                AdbscopeAppPicker *self)
{
  adbscope_app_picker_refresh (self);
}

static void
on_refresh_clicked (GtkButton         *button,
                    AdbscopeAppPicker *self)
{
  adbscope_app_picker_refresh (self);
}

static void
adbscope_app_picker_map (GtkWidget *widget)
{
  AdbscopeAppPicker *self = ADBSCOPE_APP_PICKER (widget);

  GTK_WIDGET_CLASS (adbscope_app_picker_parent_class)->map (widget);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
adbscope_app_picker_dispose (GObject *object)
{
  AdbscopeAppPicker *self = ADBSCOPE_APP_PICKER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->filter_model != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sorter);
  G_OBJECT_CLASS (adbscope_app_picker_parent_class)->dispose (object);
}

static void
adbscope_app_picker_finalize (GObject *object)
{
  g_free (ADBSCOPE_APP_PICKER (object)->serial);
  G_OBJECT_CLASS (adbscope_app_picker_parent_class)->finalize (object);
}

static void
adbscope_app_picker_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, ADBSCOPE_APP_PICKER (object)->loading);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_app_picker_class_init (AdbscopeAppPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_app_picker_dispose;
  object_class->finalize = adbscope_app_picker_finalize;
  object_class->get_property = adbscope_app_picker_get_property;
  widget_class->map = adbscope_app_picker_map;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_APP_ACTIVATED] =
    g_signal_new ("app-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-app-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, all_toggle);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, list_box);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeAppPicker, error_page);
}

static void
adbscope_app_picker_init (AdbscopeAppPicker *self)
{
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (match_app, self, NULL);
  self->sorter = gtk_custom_sorter_new (sort_apps, NULL, NULL);
  self->sort_model = gtk_sort_list_model_new (NULL, g_object_ref (GTK_SORTER (self->sorter)));
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (self->sort_model), GTK_FILTER (self->filter));
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->filter_model), create_row, self, NULL);

  placeholder = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (placeholder), "system-search-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (placeholder), _("No Apps Found"));
  adw_status_page_set_description (ADW_STATUS_PAGE (placeholder),
                                   _("Try another search, or show all apps"));
  gtk_list_box_set_placeholder (self->list_box, placeholder);

  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->list_box, "row-activated", G_CALLBACK (on_row_activated), self);
  g_signal_connect (self->all_toggle, "toggled", G_CALLBACK (on_all_toggled), self);
  g_signal_connect (self->refresh_button, "clicked", G_CALLBACK (on_refresh_clicked), self);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
}
