/* Benchmark (not a test): long recordings.  Writes synthetic runs with
 * every collector's shape (tests/common/adbscope-test-recording.h) — 8 h at
 * 1 s and 1 h at 100 ms — and measures the file size, `adbscope report` on
 * it (the real command, wall clock, best of three), and reading one chart's
 * min/max columns over the whole run.  Fails when a goal is missed: report
 * < 2 s, file <= 50 MB per 8 h at 1 s, the spike in every view.
 * Usage: bench-recording [HOURS_AT_1S]
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>

#include "adbscope-core.h"
#include "adbscope-test-recording.h"

static double
report_seconds (const char *path,
                JsonNode  **report)
{
  double best = INFINITY;

  for (guint k = 0; k < 3; k++)
    {
      const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "report", path, NULL };
      g_autofree char *out = NULL;
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      int status;

      g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, &status, &error);
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      if (k == 0)
        {
          g_autoptr(JsonParser) parser = json_parser_new ();

          g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
          *report = json_node_copy (json_parser_get_root (parser));
        }
    }
  return best;
}

static gboolean
one (const char *label,
     guint       duration_s,
     guint       interval_ms,
     double      max_mb)
{
  AdbscopeSynthRun synth = {
    .duration_s = duration_s, .interval_ms = interval_ms, .n_cores = 8, .n_threads = 20, .fps = 60,
    .spike_tick = adbscope_synth_n_ticks (&(AdbscopeSynthRun) { .duration_s = duration_s, .interval_ms = interval_ms }) / 3 + 7,
    .spike_value = 777,
  };
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "adbscope-bench-XXXXXX.adbscope", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) report = NULL;
  GStatBuf st;
  gint64 t0;
  double write_s, report_s, mb, lod_ms = 0;
  guint n = adbscope_synth_n_ticks (&synth);
  gboolean ok = TRUE;
  int fd = g_mkstemp (path);

  close (fd);
  g_unlink (path);
  t0 = g_get_monotonic_time ();
  g_assert_true (adbscope_synth_write (path, &synth, &error));
  g_assert_no_error (error);
  write_s = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  mb = st.st_size / 1e6;

  report_s = report_seconds (path, &report);
  ok &= json_node_get_int (adbscope_report_lookup (report, "run.samples")) == n;
  ok &= json_node_get_int (adbscope_report_lookup (report, "cpu.app_pct.n")) == n;
  ok &= json_node_get_double (adbscope_report_lookup (report, "cpu.app_pct.max")) == 777;

  /* a chart 1000 columns wide over the whole run, then zoomed to 10 min */
  for (guint k = 0; k < 2; k++)
    {
      gint64 from = k == 0 ? 0 : (gint64) duration_s * G_USEC_PER_SEC / 3;
      gint64 to = k == 0 ? (gint64) duration_s * G_USEC_PER_SEC : from + 600 * G_USEC_PER_SEC;
      g_autoptr(GArray) b = NULL;
      double max = 0;

      t0 = g_get_monotonic_time ();
      b = adbscope_run_read_buckets (path, "cpu.app_pct", from, to, 1000, &error);
      g_assert_no_error (error);
      lod_ms = MAX (lod_ms, (g_get_monotonic_time () - t0) / 1e3);
      for (guint i = 0; i < b->len; i++)
        max = MAX (max, g_array_index (b, AdbscopeRunBucket, i).max);
      ok &= max == 777;
    }

  {
    g_autofree char *goal = max_mb > 0 ? g_strdup_printf ("goal <= %.0f", max_mb) : g_strdup ("no size goal");

    printf ("%s: %u ticks, written in %.1f s, file %.1f MB (%s), report %.2f s (goal < 2), "
            "1000-column chart read <= %.1f ms, counts and spike %s\n",
            label, n, write_s, mb, goal, report_s, lod_ms, ok ? "right" : "WRONG");
  }
  adbscope_recording_remove_files (path);
  return ok && report_s < 2.0 && (max_mb <= 0 || mb <= max_mb);
}

int
main (int argc, char *argv[])
{
  double hours = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 8;
  gboolean ok = TRUE;

  ok &= one ("8 h at 1 s", (guint) (hours * 3600), 1000, 50 * hours / 8);
  ok &= one ("1 h at 100 ms", 3600, 100, 0); /* the issue sets a size only for 8 h at 1 s */
  return ok ? 0 : 1;
}
