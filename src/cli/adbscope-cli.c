/* adbscope-cli.c: subcommand dispatch and the JSON output conventions
 *
 * Every command prints JSON (or CSV) on stdout and nothing else, errors
 * included: {"error":{"code":"…","message":"…"}}.  Codes are untranslated,
 * messages are translated.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"
#include "adbscope-cli-output.h"

static const AdbscopeCliCommand commands[] = {
  { "devices", N_("List connected devices and their state"), adbscope_cli_devices },
  { "apps", N_("List the apps of a device (running apps first)"), adbscope_cli_apps },
  { "connect", N_("Connect to a device over the network (adb connect HOST[:PORT])"), adbscope_cli_connect },
  { "record", N_("Record an app and write a JSON report (with --assert for CI)"), adbscope_cli_record },
  { "launch", N_("Measure an app's start-up time (cold, warm or hot)"), adbscope_cli_launch },
  { "mark", N_("Add a marker to the running record"), adbscope_cli_mark },
  { "stop", N_("Stop the running record"), adbscope_cli_stop },
  { "report", N_("Rebuild the report of a recording (or a window of it)"), adbscope_cli_report },
  { "compare", N_("Compare two runs; exit 3 when one regressed past a threshold"), adbscope_cli_compare },
  { "agent", N_("Install, check or remove the on-phone network agent"), adbscope_cli_agent },
  { "capture-device", N_("Save a phone's raw answers to every command Adbscope runs (for sim --replay)"), adbscope_cli_capture_device },
#ifdef ADBSCOPE_HAVE_SIM
  { "sim", N_("Run a simulated Android device that adb connects to"), adbscope_sim_main },
  /* Hidden helpers of the simulated device (no summary: not in --help). */
  { "sim-tool", NULL, adbscope_sim_tool_main },
  { "sim-app", NULL, adbscope_sim_app_main },
#endif
};

static const AdbscopeCliCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_strcmp0 (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* A first argument that is not an option is a subcommand (even an unknown
 * one: that is a usage error, not a reason to open a window).
 */
gboolean
adbscope_cli_handles (const char *arg)
{
  if (arg == NULL)
    return FALSE;
  if (g_str_equal (arg, "--version") || g_str_equal (arg, "--help") ||
      g_str_equal (arg, "--adb-server") || g_str_has_prefix (arg, "--adb-server=") ||
      g_str_equal (arg, "-h") || g_str_equal (arg, "help"))
    return TRUE;
  /* `adbscope run.adbscope` opens the recording in the window. */
  if (g_str_has_suffix (arg, ADBSCOPE_RECORDING_SUFFIX) && g_file_test (arg, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  return arg[0] != '-';
}

static void
print_help (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: adbscope [COMMAND [OPTION…]]"));
  fprintf (out, "\n%s\n", _("Watch what one Android app costs, over adb. Without a command, opens the window."));
  fprintf (out, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (commands[i].summary != NULL)
      fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Options of every command:"));
  fprintf (out, "  %-22s %s\n", "--adb-server HOST:PORT",
           _("Use the adb server on another machine (adb -H/-P); also $ADBSCOPE_ADB_SERVER"));
  fprintf (out, "\n%s\n", _("Run “adbscope COMMAND --help” for the options of a command."));
  fprintf (out, "%s\n", _("Exit status: 0 ok, 1 error, 2 usage error, 3 an assertion failed, 4 the device was lost."));
}

/* FALSE (and @error) when stdout could not take it (closed, full, a pipe
 * nobody reads).  Every command's stdout goes through here, and so through
 * the one writer (adbscope_cli_output_write_stdout). */
static gboolean
print_json_checked (JsonNode  *node,
                    GError   **error)
{
  g_autofree char *text = adbscope_json_to_string (node, TRUE);
  g_autofree char *line = g_strconcat (text, "\n", NULL);

  return adbscope_cli_output_write_stdout (line, strlen (line), error);
}

gboolean
adbscope_cli_print_json (JsonNode *node)
{
  return print_json_checked (node, NULL);
}

/* The error as JSON on stderr: where stdout is gone, a script reading
 * stderr still gets {"error":…}. */
void
adbscope_cli_print_error_stderr (const GError *error)
{
  g_autoptr(JsonNode) root = adbscope_cli_error_to_json (error);
  g_autofree char *text = json_to_string (root, FALSE);

  g_printerr ("%s\n", text);
}

/* Prints a command's result on stdout and returns @rc; when stdout cannot
 * take it, the write error as JSON on stderr and exit status 1. */
int
adbscope_cli_print_result (JsonNode *node,
                           int       rc)
{
  g_autoptr(GError) error = NULL;

  if (print_json_checked (node, &error))
    return rc;
  adbscope_cli_print_error_stderr (error);
  return ADBSCOPE_EXIT_ERROR;
}

/* {"error":{"code":"…","message":"…"}} */
JsonNode *
adbscope_cli_error_to_json (const GError *error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, adbscope_error_get_code_name (error));
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, error->message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

int
adbscope_cli_print_error (const GError *error)
{
  g_autoptr(JsonNode) root = adbscope_cli_error_to_json (error);

  /* Where stdout is gone the error still reaches a person or a script. */
  if (!adbscope_cli_print_json (root))
    adbscope_cli_print_error_stderr (error);

  if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE))
    return ADBSCOPE_EXIT_USAGE;
  if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ASSERTION_FAILED))
    return ADBSCOPE_EXIT_ASSERTION;
  return ADBSCOPE_EXIT_ERROR;
}

int
adbscope_cli_usage_error (const char *format,
                          ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  error = g_error_new_literal (ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE, message);
  return adbscope_cli_print_error (error);
}

/* Option parsing for subcommands: --help goes to stdout as text (a person
 * asked for it), bad options become a JSON usage error.
 */
gboolean
adbscope_cli_parse (GOptionContext   *context,
                    int              *argc,
                    char           ***argv,
                    int              *exit_code)
{
  g_autoptr(GError) error = NULL;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *exit_code = adbscope_cli_usage_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* --adb-server HOST:PORT (or =HOST:PORT) is an option of every command,
 * before or after the command's name: taken out of argv here (up to a
 * "--"), so no command has to know it.  Without it, $ADBSCOPE_ADB_SERVER.
 * FALSE (and *exit_code) on a bad or missing value. */
static gboolean
take_adb_server_option (int   *argc,
                        char **argv,
                        int   *exit_code)
{
  const char *value = g_getenv ("ADBSCOPE_ADB_SERVER");
  const char *origin = "ADBSCOPE_ADB_SERVER";
  g_autoptr(GError) error = NULL;
  int out = 1;

  for (int i = 1; i < *argc; i++)
    {
      const char *arg = argv[i];

      if (g_str_equal (arg, "--"))
        {
          for (; i < *argc; i++)
            argv[out++] = argv[i];
          break;
        }
      if (g_str_equal (arg, "--adb-server"))
        {
          if (i + 1 >= *argc)
            {
              *exit_code = adbscope_cli_usage_error (_("--adb-server needs a HOST:PORT"));
              return FALSE;
            }
          value = argv[++i];
          origin = "--adb-server";
        }
      else if (g_str_has_prefix (arg, "--adb-server="))
        {
          value = arg + strlen ("--adb-server=");
          origin = "--adb-server";
        }
      else
        argv[out++] = argv[i];
    }
  *argc = out;
  argv[out] = NULL;
  if (value != NULL && !adbscope_adb_set_server (value, &error))
    {
      *exit_code = adbscope_cli_usage_error ("%s: %s", origin, error->message);
      return FALSE;
    }
  return TRUE;
}

int
adbscope_cli_run (int    argc,
                  char **argv)
{
  const AdbscopeCliCommand *command;
  const char *name;
  int rc;

  g_return_val_if_fail (argc > 1, ADBSCOPE_EXIT_USAGE);

  if (!take_adb_server_option (&argc, argv, &rc))
    return rc;
  if (argc < 2)
    return adbscope_cli_usage_error (_("Name a command: run “adbscope --help” for the list"));

  name = argv[1];
  if (g_str_equal (name, "--version"))
    {
      printf ("adbscope %s\n", PACKAGE_VERSION);
      return ADBSCOPE_EXIT_OK;
    }
  if (g_str_equal (name, "--help") || g_str_equal (name, "-h") || g_str_equal (name, "help"))
    {
      print_help (stdout);
      return ADBSCOPE_EXIT_OK;
    }

  command = find_command (name);
  if (command == NULL)
    return adbscope_cli_usage_error (_("Unknown command “%s”. Run “adbscope --help” for the list."), name);

  /* The subcommand sees argv[0] = "adbscope COMMAND" for its --help. */
  {
    g_autofree char *prog = g_strdup_printf ("adbscope %s", name);
    char *saved = argv[1];

    argv[1] = prog;
    rc = command->func (argc - 1, argv + 1);
    argv[1] = saved;
    return rc;
  }
}

/* --assert EXPR…, each parsed and checked against the report's shape (a
 * path the report does not have is a usage error before anything runs). */
gboolean
adbscope_cli_parse_assertions (char       **expressions,
                               GPtrArray   *assertions,
                               GError     **error)
{
  g_autoptr(JsonNode) skeleton = adbscope_report_build_skeleton ();

  for (guint i = 0; expressions != NULL && expressions[i] != NULL; i++)
    {
      AdbscopeAssertion *a = adbscope_assertion_parse (expressions[i], error);

      if (a == NULL || !adbscope_assertion_check_path (a, skeleton, error))
        {
          adbscope_assertion_free (a);
          return FALSE;
        }
      g_ptr_array_add (assertions, a);
    }
  return TRUE;
}
