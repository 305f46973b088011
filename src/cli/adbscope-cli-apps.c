/* adbscope-cli-apps.c: `adbscope apps` prints the device's apps as JSON */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-core.h"
#include "adbscope-app-list.h"
#include "adbscope-app-info.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static int
compare_apps (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  return adbscope_app_compare (*(AdbscopeApp **) a, *(AdbscopeApp **) b);
}

int
adbscope_cli_apps (int    argc,
                   char **argv)
{
  g_autofree char *serial = NULL;
  gboolean all = FALSE;
  const GOptionEntry entries[] = {
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial (default: the only device)"), N_("SERIAL") },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, N_("Every package, not only the installed (third-party) apps"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) apps = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *chosen = NULL;
  GAsyncResult *result = NULL;
  AdbscopeAppInfoStats stats;
  g_autoptr(GPtrArray) sorted = NULL;
  int rc;

  g_option_context_set_summary (context, _("Print the apps of a device as JSON, running apps first."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);
  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      return adbscope_cli_print_error (error);
    }

  chosen = adbscope_cli_find_serial (serial, &error);
  if (chosen == NULL)
    return adbscope_cli_print_error (error);

  adbscope_app_list_async (chosen, all, NULL, list_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  apps = adbscope_app_list_finish (result, &error);
  g_clear_object (&result);
  if (apps == NULL)
    return adbscope_cli_print_error (error);

  /* Labels and icons from the APKs (cached after the first time).  An app
   * whose APK cannot be read keeps label and icon null. */
  adbscope_app_info_load_async (chosen, apps, NULL, NULL, list_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (!adbscope_app_info_load_finish (result, &stats, &error))
    return adbscope_cli_print_error (error);
  g_clear_object (&result);

  /* The labels change the order (running first, then by name). */
  sorted = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (apps); i++)
    g_ptr_array_add (sorted, g_list_model_get_item (apps, i));
  g_ptr_array_sort_with_data (sorted, compare_apps, NULL);

  json_builder_begin_array (b);
  for (guint i = 0; i < sorted->len; i++)
    {
      AdbscopeApp *app = g_ptr_array_index (sorted, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "package");
      json_builder_add_string_value (b, adbscope_app_get_package (app));
      json_builder_set_member_name (b, "pid");
      if (adbscope_app_get_running (app))
        json_builder_add_int_value (b, adbscope_app_get_pid (app));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "label");
      if (adbscope_app_get_label (app) != NULL)
        json_builder_add_string_value (b, adbscope_app_get_label (app));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "icon");
      if (adbscope_app_get_icon (app) != NULL)
        json_builder_add_string_value (b, adbscope_app_get_icon (app));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "third_party");
      json_builder_add_boolean_value (b, adbscope_app_get_third_party (app));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}
