/* adbscope-cli-devices.c: `adbscope devices` prints the device list as JSON */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-core.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_device_monitor_refresh_finish (ADBSCOPE_DEVICE_MONITOR (object), result, &error))
    g_object_set_data_full (G_OBJECT (task), "error", g_steal_pointer (&error), (GDestroyNotify) g_error_free);
  g_object_set_data (G_OBJECT (task), "done", GINT_TO_POINTER (1));
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

JsonNode *
adbscope_cli_devices_to_json (GListModel *devices)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n = g_list_model_get_n_items (devices);

  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeDevice) dev = g_list_model_get_item (devices, i);
      g_autofree char *name = adbscope_device_dup_display_name (dev);

      json_builder_begin_object (builder);
      add_string (builder, "serial", adbscope_device_get_serial (dev));
      add_string (builder, "state", adbscope_device_state_to_string (adbscope_device_get_state (dev)));
      add_string (builder, "model", adbscope_device_get_model (dev));
      add_string (builder, "name", name);
      add_string (builder, "product", adbscope_device_get_product (dev));
      add_string (builder, "device", adbscope_device_get_device_name (dev));
      add_string (builder, "transport", adbscope_device_get_transport (dev));
      json_builder_set_member_name (builder, "transport_id");
      if (adbscope_device_get_transport_id (dev) >= 0)
        json_builder_add_int_value (builder, adbscope_device_get_transport_id (dev));
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  return json_builder_get_root (builder);
}

int
adbscope_cli_devices (int    argc,
                      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(AdbscopeDeviceMonitor) monitor = NULL;
  g_autoptr(GTask) waiter = NULL;
  g_autoptr(JsonNode) root = NULL;
  GError *error;
  int rc;

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Print the devices adb sees as a JSON array."));
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);

  monitor = adbscope_device_monitor_new ();
  waiter = g_task_new (NULL, NULL, NULL, NULL);
  adbscope_device_monitor_refresh_async (monitor, NULL, refresh_cb, waiter);
  while (g_object_get_data (G_OBJECT (waiter), "done") == NULL)
    g_main_context_iteration (NULL, TRUE);

  error = g_object_get_data (G_OBJECT (waiter), "error");
  if (error != NULL)
    return adbscope_cli_print_error (error);

  root = adbscope_cli_devices_to_json (G_LIST_MODEL (monitor));
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}
