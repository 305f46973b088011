/* adbscope-device-picker.c: the live list of devices, or what to do without one
 *
 * Rows follow the monitor's model and each device's notify, so a phone
 * that goes from "unauthorized" to "device" becomes choosable in place.
 * Rows that cannot be chosen say what to do on the phone.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-device-picker.h"

struct _AdbscopeDevicePicker
{
  AdwBin                 parent_instance;

  GtkStack              *stack;
  GtkListBox            *list_box;
  AdwStatusPage         *error_page;
  GtkButton             *demo_button;
  GtkSpinner            *demo_spinner;
  GtkWidget             *recent_clamp;
  GtkListBox            *recent_list;

  AdbscopeDeviceMonitor *monitor;
  char                  *demo_serial;
};

G_DEFINE_FINAL_TYPE (AdbscopeDevicePicker, adbscope_device_picker, ADW_TYPE_BIN)

enum {
  SIGNAL_DEVICE_ACTIVATED,
  SIGNAL_RECORDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
state_advice (AdbscopeDeviceState state)
{
  switch (state)
    {
    case ADBSCOPE_DEVICE_STATE_DEVICE:
      return NULL;
    case ADBSCOPE_DEVICE_STATE_UNAUTHORIZED:
      return _("Unlock the phone and allow USB debugging in the dialog it shows");
    case ADBSCOPE_DEVICE_STATE_AUTHORIZING:
      return _("Waiting for the phone to allow USB debugging");
    case ADBSCOPE_DEVICE_STATE_OFFLINE:
      return _("The phone does not answer: reconnect the cable, or turn USB debugging off and on again");
    case ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS:
      return _("No permission to use this USB device: check the udev rules for Android devices");
    case ADBSCOPE_DEVICE_STATE_RECOVERY:
    case ADBSCOPE_DEVICE_STATE_SIDELOAD:
    case ADBSCOPE_DEVICE_STATE_BOOTLOADER:
      return _("The phone is not running Android: restart it normally");
    case ADBSCOPE_DEVICE_STATE_CONNECTING:
      return _("Connecting…");
    case ADBSCOPE_DEVICE_STATE_HOST:
    case ADBSCOPE_DEVICE_STATE_UNKNOWN:
    default:
      return _("This device cannot be watched in its current state");
    }
}

static void
update_row (AdwActionRow   *row,
            AdbscopeDevice *device)
{
  AdbscopeDevicePicker *self = g_object_get_data (G_OBJECT (row), "picker");
  AdbscopeDeviceState state = adbscope_device_get_state (device);
  const char *advice = state_advice (state);
  g_autofree char *name = adbscope_device_dup_display_name (device);
  g_autofree char *subtitle = NULL;
  GtkWidget *badge = g_object_get_data (G_OBJECT (row), "badge");
  GtkWidget *arrow = g_object_get_data (G_OBJECT (row), "arrow");
  GtkWidget *new_window = g_object_get_data (G_OBJECT (row), "new-window");
  gboolean ready = state == ADBSCOPE_DEVICE_STATE_DEVICE;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  if (advice != NULL)
    subtitle = g_strdup_printf ("%s · %s\n%s", adbscope_device_get_serial (device),
                                adbscope_device_get_state_text (device), advice);
  else
    subtitle = g_strdup (adbscope_device_get_serial (device));
  adw_action_row_set_subtitle (row, subtitle);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), ready);
  gtk_widget_set_sensitive (GTK_WIDGET (row), TRUE);
  gtk_widget_set_visible (arrow, ready);
  gtk_widget_set_visible (new_window, ready);
  gtk_widget_set_visible (badge, self != NULL && g_strcmp0 (self->demo_serial, adbscope_device_get_serial (device)) == 0);
  if (ready)
    gtk_widget_remove_css_class (GTK_WIDGET (row), "dim-label");
  else
    gtk_widget_add_css_class (GTK_WIDGET (row), "dim-label");
}

static void
on_device_notify (AdbscopeDevice *device,
                  GParamSpec     *pspec,
                  AdwActionRow   *row)
{
  update_row (row, device);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  AdbscopeDevicePicker *self = user_data;
  AdbscopeDevice *device = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("phone-symbolic");
  GtkWidget *badge = gtk_label_new (_("Simulated"));
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");
  GtkWidget *new_window = gtk_button_new_from_icon_name ("window-new-symbolic");

  /* The device in a window of its own (app.open-device), this one stays. */
  gtk_widget_set_tooltip_text (new_window, _("Open in New Window"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (new_window), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Open in New Window"), -1);
  gtk_widget_add_css_class (new_window, "flat");
  gtk_widget_set_valign (new_window, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (new_window), "app.open-device");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (new_window),
                                          g_variant_new_string (adbscope_device_get_serial (device)));
  gtk_widget_add_css_class (badge, "simulated-badge");
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), new_window);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
  g_object_set_data (G_OBJECT (row), "picker", self);
  g_object_set_data (G_OBJECT (row), "badge", badge);
  g_object_set_data (G_OBJECT (row), "arrow", arrow);
  g_object_set_data (G_OBJECT (row), "new-window", new_window);
  g_object_set_data_full (G_OBJECT (row), "device", g_object_ref (device), g_object_unref);
  update_row (ADW_ACTION_ROW (row), device);
  g_signal_connect_object (device, "notify", G_CALLBACK (on_device_notify), row, 0);
  return row;
}

static void
update_stack (AdbscopeDevicePicker *self)
{
  const GError *error = self->monitor != NULL ? adbscope_device_monitor_get_error (self->monitor) : NULL;
  guint n = self->monitor != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->monitor)) : 0;

  if (n > 0)
    gtk_stack_set_visible_child_name (self->stack, "list");
  else if (error != NULL)
    {
      adw_status_page_set_description (self->error_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "error");
    }
  else
    gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
on_items_changed (GListModel           *model,
                  guint                 position,
                  guint                 removed,
                  guint                 added,
                  AdbscopeDevicePicker *self)
{
  update_stack (self);
}

static void
on_error_notify (GObject              *object,
                 GParamSpec           *pspec,
                 AdbscopeDevicePicker *self)
{
  update_stack (self);
}

static void
on_row_activated (GtkListBox           *box,
                  GtkListBoxRow        *row,
                  AdbscopeDevicePicker *self)
{
  AdbscopeDevice *device = g_object_get_data (G_OBJECT (row), "device");

  if (device != NULL && adbscope_device_get_state (device) == ADBSCOPE_DEVICE_STATE_DEVICE)
    g_signal_emit (self, signals[SIGNAL_DEVICE_ACTIVATED], 0, device);
}

void
adbscope_device_picker_set_monitor (AdbscopeDevicePicker  *self,
                                    AdbscopeDeviceMonitor *monitor)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_PICKER (self));

  if (self->monitor != NULL)
    g_signal_handlers_disconnect_by_data (self->monitor, self);
  g_set_object (&self->monitor, monitor);
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (monitor), create_row, self, NULL);
  if (monitor != NULL)
    {
      g_signal_connect (monitor, "items-changed", G_CALLBACK (on_items_changed), self);
      g_signal_connect (monitor, "notify::error-message", G_CALLBACK (on_error_notify), self);
    }
  update_stack (self);
}

/* The serial of the simulated device, which gets a "Simulated" badge. */
void
adbscope_device_picker_set_demo_serial (AdbscopeDevicePicker *self,
                                        const char           *serial)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_PICKER (self));

  g_free (self->demo_serial);
  self->demo_serial = g_strdup (serial);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (g_object_get_data (G_OBJECT (row), "device") != NULL)
      update_row (ADW_ACTION_ROW (row), g_object_get_data (G_OBJECT (row), "device"));
}

/* While the demo device starts. */
void
adbscope_device_picker_set_busy (AdbscopeDevicePicker *self,
                                 gboolean              busy)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_PICKER (self));

  gtk_widget_set_visible (GTK_WIDGET (self->demo_spinner), busy);
  gtk_spinner_set_spinning (self->demo_spinner, busy);
}

GtkListBox *
adbscope_device_picker_get_list_box (AdbscopeDevicePicker *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE_PICKER (self), NULL);
  return self->list_box;
}

static void
adbscope_device_picker_dispose (GObject *object)
{
  AdbscopeDevicePicker *self = ADBSCOPE_DEVICE_PICKER (object);

  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
    }
  g_clear_object (&self->monitor);
  G_OBJECT_CLASS (adbscope_device_picker_parent_class)->dispose (object);
}

static void
adbscope_device_picker_finalize (GObject *object)
{
  g_free (ADBSCOPE_DEVICE_PICKER (object)->demo_serial);
  G_OBJECT_CLASS (adbscope_device_picker_parent_class)->finalize (object);
}

static void
adbscope_device_picker_class_init (AdbscopeDevicePickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_device_picker_dispose;
  object_class->finalize = adbscope_device_picker_finalize;

  /* the path of a recent recording the user picked */
  signals[SIGNAL_RECORDING_ACTIVATED] =
    g_signal_new ("recording-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_DEVICE_ACTIVATED] =
    g_signal_new ("device-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, ADBSCOPE_TYPE_DEVICE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-device-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, list_box);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, error_page);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, demo_button);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, demo_spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, recent_clamp);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeDevicePicker, recent_list);
}

static void
adbscope_device_picker_init (AdbscopeDevicePicker *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->list_box, "row-activated", G_CALLBACK (on_row_activated), self);
  update_stack (self);
}

static void
on_recent_activated (AdwActionRow         *row,
                     AdbscopeDevicePicker *self)
{
  g_signal_emit (self, signals[SIGNAL_RECORDING_ACTIVATED], 0, g_object_get_data (G_OBJECT (row), "path"));
}

/**
 * adbscope_device_picker_set_recent:
 * @paths: (array zero-terminated=1): recordings, newest first
 *
 * Lists them under the devices; hidden when there are none.
 */
void
adbscope_device_picker_set_recent (AdbscopeDevicePicker *self,
                                   const char * const   *paths)
{
  GtkWidget *child;

  g_return_if_fail (ADBSCOPE_IS_DEVICE_PICKER (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *base = g_path_get_basename (paths[i]);
      g_autofree char *dir = g_path_get_dirname (paths[i]);
      g_autofree char *title = g_markup_escape_text (base, -1);
      g_autofree char *subtitle = g_markup_escape_text (dir, -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "path", g_strdup (paths[i]), g_free);
      g_signal_connect (row, "activated", G_CALLBACK (on_recent_activated), self);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (self->recent_clamp, paths != NULL && paths[0] != NULL);
}

GtkListBox *
adbscope_device_picker_get_recent_list (AdbscopeDevicePicker *self)
{
  return self->recent_list;
}
