/* adbscope-cli-agent.c: `adbscope agent install [--apk FILE] [--replace] | status | uninstall`
 *
 * The APK comes from --apk or, when the build was configured with
 * -Dagent_apk=PATH, from the GResource it was embedded as (registered when
 * the binary starts, so the desktop's capture dialog finds it too).  The
 * install itself is the core's (adbscope-agent-install.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-apk.h"
#include "adbscope-core.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs the main context until the async call behind @result finished. */
static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static AdbscopeAgentStatus *
query_status (const char  *serial,
              GError     **error)
{
  GAsyncResult *result = NULL;
  AdbscopeAgentStatus *status;

  adbscope_agent_status_async (serial, NULL, result_cb, &result);
  status = adbscope_agent_status_finish (wait_for (&result), error);
  g_object_unref (result);
  return status;
}

/* Parses -s and finds the device; NULL after printing the error. */
static char *
device_for (const char *serial,
            int        *rc)
{
  g_autoptr(GError) error = NULL;
  char *chosen;

  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      *rc = adbscope_cli_print_error (error);
      return NULL;
    }
  chosen = adbscope_cli_find_serial (serial, &error);
  if (chosen == NULL)
    *rc = adbscope_cli_print_error (error);
  return chosen;
}

static void
add_version (JsonBuilder *b,
             const char  *key,
             gint64       code)
{
  json_builder_set_member_name (b, key);
  if (code >= 0)
    json_builder_add_int_value (b, code);
  else
    json_builder_add_null_value (b);
}

static int
agent_status (const char *serial)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = query_status (serial, &error);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gint64 ours = adbscope_agent_our_version_code ();

  if (st == NULL)
    return adbscope_cli_print_error (error);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "installed");
  json_builder_add_boolean_value (b, st->installed);
  add_version (b, "version_code", st->installed ? st->version_code : -1);
  json_builder_set_member_name (b, "version_name");
  if (st->installed && st->version_name != NULL)
    json_builder_add_string_value (b, st->version_name);
  else
    json_builder_add_null_value (b);
  add_version (b, "our_version_code", ours);
  json_builder_set_member_name (b, "our_version_name");
  json_builder_add_string_value (b, PACKAGE_VERSION);
  json_builder_set_member_name (b, "matches");
  json_builder_add_boolean_value (b, st->installed && st->version_code == ours);
  json_builder_set_member_name (b, "capture_running");
  json_builder_add_boolean_value (b, st->service.state == ADBSCOPE_AGENT_STATE_RUNNING);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, adbscope_agent_state_to_string (st->service.state));
  json_builder_set_member_name (b, "capture_package");
  if (st->service.state == ADBSCOPE_AGENT_STATE_RUNNING && st->service.package != NULL)
    json_builder_add_string_value (b, st->service.package);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

static int
agent_uninstall (const char *serial)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean was = FALSE;

  if (!adbscope_agent_uninstall_sync (serial, &was, NULL, &error))
    return adbscope_cli_print_error (error);
  if (!was)
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED,
                   _("The Adbscope agent is not installed on %s"), serial);
      return adbscope_cli_print_error (error);
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "uninstalled");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

static int
agent_install (const char *serial,
               const char *apk_arg,
               gboolean    replace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean removed = FALSE;

  if (apk_arg == NULL && !adbscope_agent_has_embedded_apk ())
    return adbscope_cli_usage_error ("%s", _("This build has no agent APK embedded (meson option agent_apk); "
                                             "give one with “adbscope agent install --apk FILE”"));
  st = adbscope_agent_install_sync (serial, apk_arg, replace, &removed, NULL, &error);
  if (st == NULL)
    return adbscope_cli_print_error (error);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "installed");
  json_builder_add_boolean_value (b, TRUE);
  add_version (b, "version_code", st->version_code);
  add_version (b, "our_version_code", adbscope_agent_our_version_code ());
  json_builder_set_member_name (b, "replaced");
  json_builder_add_boolean_value (b, removed);
  json_builder_set_member_name (b, "apk");
  json_builder_add_string_value (b, apk_arg ? apk_arg : "(embedded)");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

int
adbscope_cli_agent (int    argc,
                    char **argv)
{
  g_autofree char *serial = NULL;
  g_autofree char *apk = NULL;
  gboolean replace = FALSE;
  const GOptionEntry entries[] = {
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial (default: the only device)"), N_("SERIAL") },
    { "apk", 0, 0, G_OPTION_ARG_FILENAME, &apk, N_("install: the agent APK to install (default: the one built in)"), N_("FILE") },
    { "replace", 0, 0, G_OPTION_ARG_NONE, &replace, N_("install: uninstall the agent first (needed when it was signed differently)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("install|status|uninstall");
  g_autofree char *chosen = NULL;
  const char *action;
  int rc;

  g_option_context_set_summary (context, _("Install, check or remove the on-phone network agent."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc < 2)
    return adbscope_cli_usage_error (_("Say what to do: adbscope agent install|status|uninstall"));
  if (argc > 2)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[2]);
  action = argv[1];
  if (!g_str_equal (action, "install") && !g_str_equal (action, "status") && !g_str_equal (action, "uninstall"))
    return adbscope_cli_usage_error (_("Unknown agent command “%s” (install, status, uninstall)"), action);
  if ((apk != NULL || replace) && !g_str_equal (action, "install"))
    return adbscope_cli_usage_error (_("--apk and --replace go with “agent install”"));
  if (apk != NULL && !g_file_test (apk, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr(GError) error = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read %s"), apk);

      return adbscope_cli_print_error (error);
    }

  chosen = device_for (serial, &rc);
  if (chosen == NULL)
    return rc;
  if (g_str_equal (action, "status"))
    return agent_status (chosen);
  if (g_str_equal (action, "uninstall"))
    return agent_uninstall (chosen);
  return agent_install (chosen, apk, replace);
}
