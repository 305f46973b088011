/* adbscope-cli-launch.c: `adbscope launch` measures start-up time */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-core.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

static void
measure_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

int
adbscope_cli_launch (int    argc,
                     char **argv)
{
  g_autofree char *serial = NULL;
  g_autofree char *package = NULL;
  gboolean cold = FALSE, warm = FALSE, hot = FALSE;
  int runs = 5;
  const GOptionEntry entries[] = {
    { "package", 'p', 0, G_OPTION_ARG_STRING, &package, N_("Package of the app to start"), N_("PKG") },
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial (default: the only device)"), N_("SERIAL") },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, N_("How many starts to measure (default 5)"), N_("N") },
    { "cold", 0, 0, G_OPTION_ARG_NONE, &cold, N_("Force-stop the app before each start (the default)"), NULL },
    { "warm", 0, 0, G_OPTION_ARG_NONE, &warm, N_("Leave the process, finish the activity (Back) before each start"), NULL },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &hot, N_("Send the app to the background (Home) before each start"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeLaunchResult) launch = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *chosen = NULL;
  GAsyncResult *result = NULL;
  AdbscopeLaunchMode mode = ADBSCOPE_LAUNCH_COLD;
  int rc;

  g_option_context_set_summary (context, _("Measure how long an app takes to start (am start -W), "
                                           "several times, and print every run and p50/p90/min/max as JSON."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);
  if (package == NULL)
    return adbscope_cli_usage_error (_("Which app? Give -p PKG"));
  if (cold + warm + hot > 1)
    return adbscope_cli_usage_error (_("Choose one of --cold, --warm and --hot"));
  if (runs < 1 || runs > 100)
    return adbscope_cli_usage_error (_("--runs must be between 1 and 100"));
  if (!adbscope_package_name_is_valid (package))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                   _("“%s” is not a valid package name"), package);
      return adbscope_cli_print_error (error);
    }
  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      return adbscope_cli_print_error (error);
    }
  mode = warm ? ADBSCOPE_LAUNCH_WARM : hot ? ADBSCOPE_LAUNCH_HOT : ADBSCOPE_LAUNCH_COLD;

  chosen = adbscope_cli_find_serial (serial, &error);
  if (chosen == NULL)
    return adbscope_cli_print_error (error);

  adbscope_launch_measure_async (chosen, package, mode, (guint) runs, NULL, measure_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  launch = adbscope_launch_measure_finish (result, &error);
  g_object_unref (result);
  if (launch == NULL)
    return adbscope_cli_print_error (error);

  root = adbscope_launch_result_to_json (launch);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}
