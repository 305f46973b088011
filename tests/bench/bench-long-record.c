/* Benchmark (not a test; CI does not wait 16 minutes): a real record
 * longer than the 15 minutes the session keeps in memory.  The report must
 * count every sample of the run (n ≈ 960 at 1 s), as `adbscope report`
 * on the recording does.  Usage: bench-long-record [MINUTES]
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

static JsonNode *
load (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static gint64
count (JsonNode   *report,
       const char *path)
{
  return json_node_get_int (adbscope_report_lookup (report, path));
}

int
main (int argc, char *argv[])
{
  double minutes = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 16;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autofree char *dir = g_dir_make_tmp ("adbscope-long-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "long.json", NULL);
  g_autofree char *rec = g_build_filename (dir, "long.adbscope", NULL);
  g_autofree char *duration = g_strdup_printf ("%.0fs", minutes * 60);
  g_autofree char *text = NULL;
  g_autofree char *again_text = NULL;
  g_autoptr(JsonNode) report = NULL;
  const char *record[] = { g_getenv ("ADBSCOPE_BIN"), "record", "-s", NULL, "-p", ADBSCOPE_DEMO_PACKAGE,
                           "--duration", duration, "-o", out, NULL };
  const char *again[] = { g_getenv ("ADBSCOPE_BIN"), "report", rec, NULL };
  gint64 expect = (gint64) (minutes * 60);
  static const char * const series[] = { "cpu.app_pct.n", "cpu.system_pct.n", "memory.app_rss_kb.n", "frames.fps.n" };
  gboolean ok = TRUE;
  int status;

  g_assert_no_error (error);
  record[3] = adbscope_test_device_get_serial (dev);
  g_setenv ("XDG_RUNTIME_DIR", dir, TRUE);
  g_spawn_sync (NULL, (char **) record, NULL, 0, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  report = load (text);

  printf ("record %.0f min at 1 s: run.samples %" G_GINT64_FORMAT " (expected about %" G_GINT64_FORMAT ")",
          minutes, count (report, "run.samples"), expect);
  ok &= count (report, "run.samples") >= expect - expect / 50;
  for (guint i = 0; i < G_N_ELEMENTS (series); i++)
    {
      printf (", %s %" G_GINT64_FORMAT, series[i], count (report, series[i]));
      /* every series covers the whole run, not the last 15 minutes (900) */
      ok &= count (report, series[i]) >= expect - expect / 25;
    }
  g_spawn_sync (NULL, (char **) again, NULL, 0, NULL, NULL, &again_text, NULL, &status, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) rebuilt = load (again_text);
    g_autofree char *a = json_to_string (report, TRUE);
    g_autofree char *b = json_to_string (rebuilt, TRUE);

    ok &= g_str_equal (a, b);
    printf (", report from the recording %s\n", g_str_equal (a, b) ? "identical" : "DIFFERENT");
  }
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
    (void) system (cmd);
  }
  return ok ? 0 : 1;
}
