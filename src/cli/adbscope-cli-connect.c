/* adbscope-cli-connect.c: `adbscope connect HOST[:PORT]` runs `adb connect`
 * and prints its real answer
 *
 * adb connect exits 0 even when it failed: its text decides (the core's
 * adbscope_parse_connect_output).  Wireless-debugging phones and device-farm
 * endpoints (OpenSTF-style) are just an address.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-core.h"
#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

int
adbscope_cli_connect (int    argc,
                      char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  g_autoptr(GOptionContext) context = g_option_context_new (_("HOST[:PORT]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *address = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *answer = NULL;
  const char *args[] = { "connect", NULL, NULL };
  int rc;

  g_option_context_set_summary (context, _("Connect to a phone or a device farm over the network (adb connect) "
                                           "and print adb's answer as JSON."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc != 2)
    return adbscope_cli_usage_error (_("Give one address, HOST or HOST:PORT"));
  address = adbscope_network_address_normalize (argv[1]);
  if (address == NULL)
    return adbscope_cli_usage_error (_("“%s” is not a HOST[:PORT] address"), argv[1]);

  args[1] = address;
  out = adbscope_adb_run_sync (NULL, args, NULL, NULL, &err, &error);
  if (out == NULL)
    return adbscope_cli_print_error (error);
  answer = adbscope_adb_stderr_last_line (out);
  if (!adbscope_parse_connect_output (out, &error))
    return adbscope_cli_print_error (error);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "address");
  json_builder_add_string_value (b, address);
  json_builder_set_member_name (b, "connected");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, answer);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}
