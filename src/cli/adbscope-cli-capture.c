/* adbscope-cli-capture.c: `adbscope capture-device` saves a phone's raw
 * answers for `adbscope sim --replay` */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-core.h"
#include "adbscope-device-capture.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

/* "10s", "500ms", "1m" or plain seconds → seconds. */
static gboolean
parse_seconds (const char *text,
               double     *seconds)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || !(v > 0) || !isfinite (v))
    return FALSE;
  if (g_str_equal (end, "ms"))
    v /= 1000;
  else if (g_str_equal (end, "m"))
    v *= 60;
  else if (*end != '\0' && !g_str_equal (end, "s"))
    return FALSE;
  *seconds = v;
  return TRUE;
}

int
adbscope_cli_capture_device (int    argc,
                             char **argv)
{
  g_autofree char *serial = NULL;
  g_autofree char *package = NULL;
  g_autofree char *output = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *chosen = NULL;
  gboolean force = FALSE;
  int repeats = 5;
  double seconds = 10;
  GOptionEntry entries[] = {
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial"), N_("SERIAL") },
    { "package", 'p', 0, G_OPTION_ARG_STRING, &package, N_("Also capture what Adbscope reads for this app"), N_("PKG") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Directory of the capture"), N_("DIR") },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &duration, N_("Time the repeats are spread over (default 10s)"), N_("TIME") },
    { "repeats", 0, 0, G_OPTION_ARG_INT, &repeats, N_("How many times every command is run (default 5)"), N_("N") },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("Replace a capture in a directory that is not empty"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  int rc;

  g_option_context_set_summary (context, _("Save the raw output of every command Adbscope runs on a phone, "
                                           "for “adbscope sim --replay DIR”."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);
  if (output == NULL)
    return adbscope_cli_usage_error (_("-o DIR is required"));
  if (duration != NULL && !parse_seconds (duration, &seconds))
    return adbscope_cli_usage_error (_("--duration wants a time such as 10s or 500ms"));
  if (repeats < 1 || repeats > 1000)
    return adbscope_cli_usage_error (_("--repeats must be between 1 and 1000"));
  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      return adbscope_cli_print_error (error);
    }
  if (package != NULL && !adbscope_package_name_is_valid (package))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                   _("“%s” is not a valid package name"), package);
      return adbscope_cli_print_error (error);
    }

  chosen = adbscope_cli_find_serial (serial, &error);
  if (chosen == NULL)
    return adbscope_cli_print_error (error);
  if (!adbscope_device_capture_run (chosen, package, output, seconds, (guint) repeats, force, &error))
    return adbscope_cli_print_error (error);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "capture");
  json_builder_add_string_value (b, output);
  json_builder_set_member_name (b, "repeats");
  json_builder_add_int_value (b, repeats);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}
