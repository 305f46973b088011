/* adbscope-cli-report.c: `adbscope report` and `adbscope compare`
 *
 * report rebuilds the JSON report from a recording (the same computation
 * record ran), optionally for a window of it; compare sets two reports
 * side by side and is the CI gate "is this build slower than the last".
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"
#include "adbscope-cli-output.h"

/* "90", "90s", "1.5m", "500ms", "1h": a time since the run's start. */
static gboolean
parse_time_us (const char *text,
               gint64     *time_us)
{
  char *end = NULL;
  double v;

  v = g_ascii_strtod (text, &end);
  if (end == text || !(v >= 0) || !isfinite (v))
    return FALSE;
  if (*end == '\0' || g_str_equal (end, "s"))
    v *= 1e6;
  else if (g_str_equal (end, "ms"))
    v *= 1e3;
  else if (g_str_equal (end, "m") || g_str_equal (end, "min"))
    v *= 60e6;
  else if (g_str_equal (end, "h"))
    v *= 3600e6;
  else
    return FALSE;
  if (v > 1e15)
    return FALSE;
  *time_us = (gint64) v;
  return TRUE;
}

static gboolean
is_recording (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);
  char head[16] = { 0 };
  gsize n = 0;

  if (in == NULL)
    return g_str_has_suffix (path, ADBSCOPE_RECORDING_SUFFIX);
  g_input_stream_read_all (G_INPUT_STREAM (in), head, sizeof head, &n, NULL, NULL);
  return n == sizeof head && memcmp (head, "SQLite format 3", 16) == 0;
}

static JsonNode *
report_of_recording (const char  *path,
                     gint64       from_us,
                     gint64       to_us,
                     GPtrArray   *assertions,
                     GError     **error)
{
  g_autoptr(AdbscopeRun) run = adbscope_run_load (path, from_us, to_us, error);

  return run ? adbscope_report_build_run (run, assertions) : NULL;
}

/* A report file, or a recording (its whole-run report). */
static JsonNode *
load_report (const char  *path,
             GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  JsonNode *schema;

  if (is_recording (path))
    return report_of_recording (path, G_MININT64, G_MAXINT64, NULL, error);
  /* a report is untrusted input: size and nesting limited */
  root = adbscope_json_load_untrusted (path, ADBSCOPE_JSON_MAX_FILE_SIZE, &local);
  if (root == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, local->code,
                   _("Cannot read the report %s: %s"), path, local->message);
      return NULL;
    }
  schema = adbscope_report_lookup (root, "schema");
  if (schema == NULL || !JSON_NODE_HOLDS_VALUE (schema) ||
      g_strcmp0 (json_node_get_string (schema), ADBSCOPE_REPORT_SCHEMA) != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s is neither an Adbscope report (%s) nor a recording"), path, ADBSCOPE_REPORT_SCHEMA);
      return NULL;
    }
  return g_steal_pointer (&root);
}

static int
assertions_exit (GPtrArray *assertions)
{
  for (guint i = 0; i < assertions->len; i++)
    if (!((AdbscopeAssertion *) g_ptr_array_index (assertions, i))->pass)
      return ADBSCOPE_EXIT_ASSERTION;
  return ADBSCOPE_EXIT_OK;
}

int
adbscope_cli_report (int    argc,
                     char **argv)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *marker = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) asserts = NULL;
  const GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Start of the window, since the run started (e.g. 90s, 5m)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("End of the window, since the run started"), N_("T") },
    { "marker", 0, 0, G_OPTION_ARG_STRING, &marker, N_("The window from this marker to the next one (or the end)"), N_("LABEL") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the report here instead of stdout"), N_("FILE") },
    { "assert", 0, 0, G_OPTION_ARG_STRING_ARRAY, &asserts, N_("Fail (exit 3) unless PATH OP NUMBER holds, e.g. 'frames.janky_pct < 5'"), N_("EXPR") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("RECORDING"));
  g_autoptr(GPtrArray) assertions = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_assertion_free);
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeCliOutput) out = NULL;
  gint64 from_us = G_MININT64, to_us = G_MAXINT64;
  int rc;

  g_option_context_set_summary (context, _("Rebuild the JSON report of a recording, or of a window of it."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc != 2)
    return adbscope_cli_usage_error (_("Name one recording: adbscope report FILE.adbscope"));
  if (marker != NULL && (from != NULL || to != NULL))
    return adbscope_cli_usage_error (_("--marker cannot be used with --from or --to"));
  if (from != NULL && !parse_time_us (from, &from_us))
    return adbscope_cli_usage_error (_("Cannot read the time “%s” (write e.g. 90s, 5m)"), from);
  if (to != NULL && !parse_time_us (to, &to_us))
    return adbscope_cli_usage_error (_("Cannot read the time “%s” (write e.g. 90s, 5m)"), to);
  if (from != NULL && to != NULL && to_us <= from_us)
    return adbscope_cli_usage_error (_("--to must be after --from"));

  if (!adbscope_cli_parse_assertions (asserts, assertions, &error))
    return adbscope_cli_print_error (error);

  /* The output is checked before the recording is read: never the
   * recording itself (or one of its names), never a folder. */
  if (output != NULL)
    {
      out = adbscope_cli_output_prepare (output, &error);
      if (out == NULL)
        return adbscope_cli_print_error (error);
      if (adbscope_cli_output_is_file (out, argv[1]))
        return adbscope_cli_usage_error (_("The report cannot be written over the recording it is made from (%s)"),
                                         output);
    }

  if (marker != NULL && !adbscope_run_find_marker (argv[1], marker, &from_us, &to_us, &error))
    return adbscope_cli_print_error (error);
  report = report_of_recording (argv[1], from_us, to_us, assertions, &error);
  if (report == NULL)
    return adbscope_cli_print_error (error);
  if (out != NULL)
    {
      g_autofree char *text = adbscope_json_to_string (report, TRUE);
      g_autofree char *line = g_strconcat (text, "\n", NULL);

      if (!adbscope_cli_output_write_all (out, line, strlen (line), &error))
        return adbscope_cli_print_error (error);
      return assertions_exit (assertions);
    }
  return adbscope_cli_print_result (report, assertions_exit (assertions));
}

int
adbscope_cli_compare (int    argc,
                      char **argv)
{
  g_auto(GStrv) limits = NULL;
  const GOptionEntry entries[] = {
    { "max-regress", 0, 0, G_OPTION_ARG_STRING_ARRAY, &limits,
      N_("Fail (exit 3) when PATH is worse than the base by more than PCT percent, e.g. cpu.app_pct.avg=10"), N_("PATH=PCT") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("BASE RUN"));
  g_autoptr(GPtrArray) thresholds = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_threshold_free);
  g_autoptr(JsonNode) base = NULL;
  g_autoptr(JsonNode) run = NULL;
  g_autoptr(JsonNode) diff = NULL;
  g_autoptr(GError) error = NULL;
  guint regressions = 0;
  int rc;

  g_option_context_set_summary (context, _("Compare two reports or recordings: every metric, base, run and change."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc != 3)
    return adbscope_cli_usage_error (_("Name the base and the run: adbscope compare BASE RUN"));
  for (guint i = 0; limits != NULL && limits[i] != NULL; i++)
    {
      AdbscopeThreshold *t = adbscope_threshold_parse (limits[i], &error);

      if (t == NULL)
        return adbscope_cli_print_error (error);
      g_ptr_array_add (thresholds, t);
    }

  base = load_report (argv[1], &error);
  if (base == NULL)
    return adbscope_cli_print_error (error);
  run = load_report (argv[2], &error);
  if (run == NULL)
    return adbscope_cli_print_error (error);
  {
    g_autoptr(JsonNode) skeleton = adbscope_report_build_skeleton ();

    for (guint i = 0; i < thresholds->len; i++)
      if (!adbscope_threshold_check_path (g_ptr_array_index (thresholds, i), skeleton, &error))
        return adbscope_cli_print_error (error);
  }

  diff = adbscope_compare_reports (base, run, thresholds, &regressions);
  {
    JsonObject *o = json_node_get_object (diff);

    json_object_set_string_member (o, "base", argv[1]);
    json_object_set_string_member (o, "run", argv[2]);
  }
  return adbscope_cli_print_result (diff, regressions > 0 ? ADBSCOPE_EXIT_ASSERTION : ADBSCOPE_EXIT_OK);
}
