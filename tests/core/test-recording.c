/* The recording file: schema round trip, whole-run statistics with known
 * values, windows, level of detail, and bad files. */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-recording.h"

static char *tmpdir;

static const AdbscopeSynthRun hour = {
  .duration_s = 3600, .interval_ms = 1000, .n_cores = 4, .n_threads = 12, .fps = 60,
  .spike_tick = 1234, .spike_value = 500,
};

static char *
synth_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static const char *
hour_file (void)
{
  static char *path;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      path = synth_path ("hour.adbscope");
      g_assert_true (adbscope_synth_write (path, &hour, &error));
      g_assert_no_error (error);
    }
  return path;
}

/* What the sqlite3 shell (not our reader) says. */
static char *
sqlite3_shell (const char *path,
               const char *sql)
{
  const char *argv[] = { "sqlite3", path, sql, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strdup (g_strstrip (out));
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
num (JsonNode   *report,
     const char *path)
{
  JsonNode *n = adbscope_report_lookup (report, path);

  g_assert_nonnull (n);
  if (JSON_NODE_HOLDS_NULL (n))
    return NAN;
  return json_node_get_double (n);
}

static const char *
str (JsonNode   *report,
     const char *path)
{
  JsonNode *n = adbscope_report_lookup (report, path);

  g_assert_nonnull (n);
  return JSON_NODE_HOLDS_NULL (n) ? NULL : json_node_get_string (n);
}

static void
test_whole_run_statistics (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (hour_file (), G_MININT64, G_MAXINT64, &error);
  g_autoptr(JsonNode) report = NULL;
  guint n = adbscope_synth_n_ticks (&hour);
  g_autofree double *v = g_new (double, n);
  g_autofree char *shell = NULL;
  double sum = 0;
  JsonArray *threads;

  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);

  /* every sample of the hour, not the last 15 minutes */
  for (guint i = 0; i < n; i++)
    sum += v[i] = adbscope_synth_app_pct (&hour, i);
  qsort (v, n, sizeof (double), compare_double);
  g_assert_cmpfloat (num (report, "cpu.app_pct.n"), ==, 3600);
  g_assert_cmpfloat (num (report, "cpu.app_pct.max"), ==, 500);
  g_assert_cmpfloat (num (report, "cpu.app_pct.min"), ==, 0);
  g_assert_cmpfloat_with_epsilon (num (report, "cpu.app_pct.avg"), sum / n, 1e-9);
  g_assert_cmpfloat (num (report, "cpu.app_pct.p50"), ==, v[1800 - 1]);
  g_assert_cmpfloat (num (report, "cpu.app_pct.p90"), ==, v[3240 - 1]);
  g_assert_cmpfloat (num (report, "cpu.app_pct.p99"), ==, v[3564 - 1]);
  g_assert_cmpfloat (num (report, "cpu.system_pct.n"), ==, 3600);
  g_assert_cmpfloat (num (report, "memory.app_pss_kb.n"), ==, 1800);
  g_assert_cmpfloat_with_epsilon (num (report, "memory.app_pss_kb.growth_per_min"), 60.0, 1e-6);
  g_assert_cmpfloat (num (report, "run.samples"), ==, 3600);
  g_assert_cmpfloat (num (report, "run.duration_s"), ==, 3600);
  g_assert_cmpfloat (num (report, "run.interval_ms_measured"), ==, 1000);
  g_assert_cmpfloat (num (report, "frames.total"), ==, 3600 * 60);
  g_assert_cmpfloat (num (report, "frames.janky"), ==, 3600);
  g_assert_cmpfloat (num (report, "frames.causes.missed_vsync"), ==, 3600);
  g_assert_cmpstr (str (report, "frames.total_source"), ==, "gfxinfo");
  g_assert_cmpfloat (num (report, "frames.gfxinfo.total"), ==, 3600 * 60);
  g_assert_cmpfloat (num (report, "frames.gfxinfo.causes.missed_vsync"), ==, 3600);
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "frames.causes.slow_ui_thread")));
  /* frame k of each tick lasts 4 + k % 10 ms: six of each 4..13 a tick */
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.n"), ==, 3600 * 60);
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.p50"), ==, 8);
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.p90"), ==, 12);
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.max"), ==, 13);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (report, "cpu.cores"))), ==, 4);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (adbscope_report_lookup (report, "markers"))), ==, 5);
  threads = json_node_get_array (adbscope_report_lookup (report, "cpu.threads"));
  g_assert_cmpuint (json_array_get_length (threads), ==, 12);
  for (guint j = 0; j < 12; j++)
    {
      JsonObject *t = json_array_get_object_element (threads, j);

      g_assert_cmpint (json_object_get_int_member (t, "tid"), ==, 1000 + j);
      g_assert_cmpfloat (json_object_get_double_member (t, "max_pct"), ==, j % 5);
      g_assert_cmpfloat (json_object_get_double_member (t, "last_pct"), ==, j % 5);
    }
  g_assert_cmpfloat (num (report, "system.jobs"), ==, 3);
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (report, "run.start")), ==, "2026-01-02T03:04:05Z");

  /* and the sqlite3 shell reads the same file the same way */
  shell = sqlite3_shell (hour_file (), "SELECT count (value), max (value) FROM sample"
                         " JOIN series ON series.id = sample.series WHERE path = 'cpu.app_pct'");
  g_assert_cmpstr (shell, ==, "3600|500.0");
}

static void
assert_totals_equal (const AdbscopeFrameTotals *a,
                     const AdbscopeFrameTotals *b)
{
  g_assert_cmpint (a->frames, ==, b->frames);
  g_assert_cmpint (a->janky, ==, b->janky);
  g_assert_cmpint (a->gfx_frames, ==, b->gfx_frames);
  g_assert_cmpint (a->gfx_janky, ==, b->gfx_janky);
  g_assert_cmpint (a->unattributed, ==, b->unattributed);
  g_assert_cmpint (a->over_deadline, ==, b->over_deadline);
  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    {
      g_assert_cmpint (a->has_cause[c], ==, b->has_cause[c]);
      g_assert_cmpint (a->causes[c], ==, b->causes[c]);
    }
}

/* What a view opens with (no sample read) and what it reads next (the
 * frame times and threads) are the full load's, part by part. */
static void
test_summary_and_details (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) full = adbscope_run_load (hour_file (), G_MININT64, G_MAXINT64, &error);
  g_autoptr(AdbscopeRun) summary = NULL;
  g_autoptr(AdbscopeRun) details = NULL;
  g_autofree char *rows = sqlite3_shell (hour_file (), "SELECT count (*) FROM sample");
  guint64 before = adbscope_run_get_n_samples_read ();
  g_autoptr(AdbscopeRun) again = NULL;

  g_assert_no_error (error);
  summary = adbscope_run_load_summary (hour_file (), &error);
  g_assert_no_error (error);
  details = adbscope_run_load_details (hour_file (), &error);
  g_assert_no_error (error);
  /* neither reads a sample row; the full load reads them all */
  g_assert_cmpuint (adbscope_run_get_n_samples_read (), ==, before);
  again = adbscope_run_load (hour_file (), G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (adbscope_run_get_n_samples_read () - before, ==, g_ascii_strtoull (rows, NULL, 10));

  g_assert_true (summary->partial && details->partial && !full->partial);
  g_assert_cmpint (summary->end_us, ==, full->end_us);
  g_assert_cmpuint (summary->n_samples, ==, full->n_samples);
  g_assert_cmpuint (summary->restarts, ==, full->restarts);
  g_assert_cmpuint (summary->dts->len, ==, full->dts->len);
  g_assert_cmpuint (summary->pids->len, ==, full->pids->len);
  g_assert_cmpuint (summary->markers->len, ==, full->markers->len);
  g_assert_cmpuint (summary->markers->len, ==, 5);
  g_assert_cmpuint (summary->gaps->len, ==, full->gaps->len);
  g_assert_cmpint (summary->system->jobs, ==, full->system->jobs);
  g_assert_cmpuint (summary->cores->len, ==, 4);
  for (guint c = 0; c < summary->cores->len; c++)
    g_assert_cmpuint (((GArray *) g_ptr_array_index (summary->cores, c))->len, ==, 0);
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_assert_cmpuint (summary->series[i]->len, ==, 0);
  g_assert_cmpuint (summary->frame_times->len, ==, 0);
  g_assert_cmpuint (summary->threads->len, ==, 0);
  g_assert_cmpint (summary->totals.frames, ==, 3600 * 60);
  assert_totals_equal (&summary->totals, &full->totals);

  assert_totals_equal (&details->totals, &full->totals);
  g_assert_cmpuint (details->frame_times->len, ==, 3600 * 60);
  g_assert_cmpmem (details->frame_times->data, details->frame_times->len * sizeof (double),
                   full->frame_times->data, full->frame_times->len * sizeof (double));
  g_assert_cmpuint (details->threads->len, ==, full->threads->len);
  for (guint i = 0; i < full->threads->len; i++)
    {
      const AdbscopeRunThread *a = &g_array_index (details->threads, AdbscopeRunThread, i);
      const AdbscopeRunThread *b = &g_array_index (full->threads, AdbscopeRunThread, i);

      g_assert_cmpint (a->tid, ==, b->tid);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpfloat (a->max_pct, ==, b->max_pct);
      g_assert_cmpfloat (a->last_pct, ==, b->last_pct);
    }
}

static void
note_progress (double   fraction,
               gpointer user_data)
{
  GArray *seen = user_data;

  g_array_append_val (seen, fraction);
}

static void
cancel_at_first (double   fraction,
                 gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

/* The CSV of a recording, written from the file a stretch at a time, is
 * the CSV of a session holding the whole run; a failed or cancelled
 * export leaves the file that was there. */
static void
test_csv_from_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (hour_file (), G_MININT64, G_MAXINT64, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *want_path = synth_path ("whole.csv");
  g_autofree char *got_path = synth_path ("streamed.csv");
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree char *missing = synth_path ("no-such-dir/out.csv");
  g_auto(GStrv) lines = NULL;
  guint64 before;

  g_assert_no_error (error);
  session = adbscope_session_new_from_run (run);
  g_assert_true (adbscope_csv_write_session (session, want_path, &error));
  g_assert_no_error (error);
  before = adbscope_run_get_n_samples_read ();
  g_assert_true (adbscope_csv_write_recording (hour_file (), adbscope_session_get_interval (session),
                                               adbscope_session_get_meminfo_interval (session), got_path,
                                               NULL, note_progress, seen, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (adbscope_run_get_n_samples_read (), ==, before);
  g_assert_true (g_file_get_contents (want_path, &want, NULL, NULL));
  g_assert_true (g_file_get_contents (got_path, &got, NULL, NULL));
  lines = g_strsplit (got, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 3600 + 1);  /* header, a row a second, "" */
  g_assert_true (g_str_has_prefix (lines[0], "time_s,cpu."));
  g_assert_true (g_str_has_suffix (lines[0], ",cpu.core3_pct"));
  g_assert_cmpstr (got, ==, want);
  /* six stretches of ten minutes */
  g_assert_cmpuint (seen->len, >=, 6);
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);

  /* cancelled after the first stretch: the file there is kept */
  g_assert_true (g_file_set_contents (got_path, "kept", -1, NULL));
  g_assert_false (adbscope_csv_write_recording (hour_file (), 1000, 1000, got_path, cancellable,
                                                cancel_at_first, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_pointer (&got, g_free);
  g_assert_true (g_file_get_contents (got_path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "kept");
  /* nowhere to write, or not a recording: a clear error */
  g_assert_false (adbscope_csv_write_recording (hour_file (), 1000, 1000, missing, NULL, NULL, NULL, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_clear_error (&error);
  g_assert_false (adbscope_csv_write_recording (want_path, 1000, 1000, got_path, NULL, NULL, NULL, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

static void
test_window (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (hour_file (), (gint64) 600 * G_USEC_PER_SEC, (gint64) 1200 * G_USEC_PER_SEC, &error);
  g_autoptr(JsonNode) report = NULL;
  gint64 from = 0, to = 0;

  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);
  /* both ends are in the window */
  g_assert_cmpfloat (num (report, "cpu.app_pct.n"), ==, 601);
  g_assert_cmpfloat (num (report, "run.samples"), ==, 601);
  g_assert_cmpfloat (num (report, "run.window.from_s"), ==, 600);
  g_assert_cmpfloat (num (report, "run.window.to_s"), ==, 1200);
  g_assert_cmpfloat (num (report, "run.duration_s"), ==, 600);
  g_assert_cmpfloat (num (report, "frames.total"), ==, 601 * 60);
  /* the spike (tick 1234) is outside */
  g_assert_cmpfloat (num (report, "cpu.app_pct.max"), ==, 99);

  g_assert_true (adbscope_run_find_marker (hour_file (), "m1200", &from, &to, &error));
  g_assert_cmpint (from, ==, (gint64) 1200 * G_USEC_PER_SEC);
  g_assert_cmpint (to, ==, (gint64) 1800 * G_USEC_PER_SEC);
  g_assert_true (adbscope_run_find_marker (hour_file (), "m3000", &from, &to, &error));
  g_assert_cmpint (to, ==, (gint64) 3600 * G_USEC_PER_SEC);
  g_assert_false (adbscope_run_find_marker (hour_file (), "nope", &from, &to, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE);
}

/* At every zoom the spike is in the buckets, and the buckets agree with
 * the samples they summarise. */
static void
test_level_of_detail (void)
{
  static const guint widths[] = { 20000, 2000, 200, 20, 4 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) b = adbscope_run_read_buckets (hour_file (), "cpu.app_pct", 0, (gint64) 3600 * G_USEC_PER_SEC,
                                                       widths[w], &error);
      double max = -1;
      guint n = 0;

      g_assert_no_error (error);
      g_assert_cmpuint (b->len, >, 0);
      g_assert_cmpuint (b->len, <=, widths[w] * 10 + 1);
      for (guint i = 0; i < b->len; i++)
        {
          const AdbscopeRunBucket *k = &g_array_index (b, AdbscopeRunBucket, i);

          max = MAX (max, k->max);
          n += k->n;
          if (i > 0)
            g_assert_cmpint (k->t_us, >, g_array_index (b, AdbscopeRunBucket, i - 1).t_us);
        }
      g_assert_cmpfloat (max, ==, 500);
      g_assert_cmpuint (n, ==, 3600);
    }

  /* zoomed in: the samples themselves, found by bisecting the rowids */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) b = adbscope_run_read_buckets (hour_file (), "cpu.app_pct", (gint64) 1200 * G_USEC_PER_SEC,
                                                     (gint64) 1300 * G_USEC_PER_SEC, 1000, &error);
    double max = -1;

    g_assert_no_error (error);
    g_assert_cmpuint (b->len, ==, 101);
    for (guint i = 0; i < b->len; i++)
      {
        const AdbscopeRunBucket *k = &g_array_index (b, AdbscopeRunBucket, i);

        g_assert_cmpint (k->t_us, ==, (gint64) (1200 + i) * G_USEC_PER_SEC);
        g_assert_cmpfloat (k->min, ==, adbscope_synth_app_pct (&hour, 1200 + i));
        max = MAX (max, k->max);
      }
    g_assert_cmpfloat (max, ==, 500);
  }
}

/* Every level of detail holds exactly what the samples say, as the sqlite3
 * shell groups them (count, min, max, sum per bucket of 10^L s; a bucket
 * on one side only is a mismatch too): at 100 ms with the 1 s level, at
 * 1 s without it. */
static void
assert_lod_is_samples (const char *path,
                       const char *want_levels)
{
  g_autofree char *levels = sqlite3_shell (path, "SELECT group_concat (level, ' ') FROM"
                                           " (SELECT DISTINCT level FROM lod ORDER BY level)");
  g_autofree char *meta = sqlite3_shell (path, "SELECT value FROM meta WHERE key = 'lod_levels'");
  g_auto(GStrv) each = g_strsplit (want_levels, " ", -1);

  g_assert_cmpstr (levels, ==, want_levels);
  g_assert_cmpstr (meta, ==, want_levels);
  for (guint i = 0; each[i] != NULL; i++)
    {
      gint64 w = G_USEC_PER_SEC;
      g_autofree char *sql = NULL;
      g_autofree char *bad = NULL;
      g_autofree char *rows = NULL;

      for (int l = atoi (each[i]); l > 0; l--)
        w *= 10;
      /* both ways round (EXCEPT: a set difference), then the sums */
      sql = g_strdup_printf ("CREATE TEMP TABLE s AS SELECT series, t_us / %1$" G_GINT64_FORMAT " * %1$" G_GINT64_FORMAT
                             "  AS b, count (value) AS n, min (value) AS lo, max (value) AS hi, total (value) AS sum"
                             "  FROM sample WHERE value IS NOT NULL GROUP BY series, b;"
                             "CREATE TEMP TABLE l AS SELECT series, t_us AS b, n, min AS lo, max AS hi FROM lod"
                             "  WHERE level = %2$s;"
                             "SELECT (SELECT count (*) FROM (SELECT series, b, n, lo, hi FROM s EXCEPT SELECT * FROM l))"
                             " + (SELECT count (*) FROM (SELECT * FROM l EXCEPT SELECT series, b, n, lo, hi FROM s))"
                             " + (SELECT count (*) FROM s JOIN lod ON lod.series = s.series AND lod.level = %2$s"
                             "    AND lod.t_us = s.b WHERE abs (lod.sum - s.sum) > 1e-9 * (1 + abs (s.sum)))",
                             w, each[i]);
      bad = sqlite3_shell (path, sql);
      g_assert_cmpstr (bad, ==, "0");
      g_free (sql);
      sql = g_strdup_printf ("SELECT count (*) FROM lod WHERE level = %s", each[i]);
      rows = sqlite3_shell (path, sql);
      g_assert_cmpint (atoi (rows), >, 0);
    }
}

static void
test_lod_round_trip (void)
{
  static const AdbscopeSynthRun fast = {
    .duration_s = 600, .interval_ms = 100, .n_cores = 2, .n_threads = 2, .fps = 10,
    .spike_tick = 4321, .spike_value = 500,
  };
  g_autofree char *path = synth_path ("fast.adbscope");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) b = NULL;
  double max = -1;
  guint n = 0;

  g_assert_true (adbscope_synth_write (path, &fast, &error));
  g_assert_no_error (error);
  assert_lod_is_samples (path, "0 1 2 3");
  assert_lod_is_samples (hour_file (), "1 2 3");

  /* 10 minutes at 100 ms in 1000 columns: the 1 s buckets (600 of them),
   * the spike of one 100 ms sample among them */
  b = adbscope_run_read_buckets (path, "cpu.app_pct", 0, (gint64) 600 * G_USEC_PER_SEC, 1000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->len, ==, 600);
  for (guint i = 0; i < b->len; i++)
    {
      const AdbscopeRunBucket *k = &g_array_index (b, AdbscopeRunBucket, i);

      g_assert_cmpint (k->width_us, ==, G_USEC_PER_SEC);
      g_assert_cmpint (k->t_us, ==, (gint64) i * G_USEC_PER_SEC);
      g_assert_cmpuint (k->n, ==, 10);
      max = MAX (max, k->max);
      n += k->n;
    }
  g_assert_cmpfloat (max, ==, 500);
  g_assert_cmpuint (n, ==, 6000);
  adbscope_recording_remove_files (path);
}

static JsonNode *
load_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* A file of version 1 (made by the code before version 2:
 * tests/core/recording-v1-250ms.README) opens, never refused, and reads
 * right: the report rebuilt from it is the one `record` printed then, and
 * its level of detail reads as what version 1 wrote, 10 s buckets, with
 * the extremes and counts of its samples. */
static void
test_version_1 (void)
{
  g_autofree char *json = g_test_build_filename (G_TEST_DIST, "core", "recording-v1-250ms.json", NULL);
  g_autofree char *path = adbscope_test_version_1_recording (tmpdir);
  g_autoptr(GError) error = NULL;
  g_autofree char *then_text = NULL;
  g_autofree char *now_text = NULL;
  g_autofree char *version = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  g_autoptr(JsonNode) then = NULL;
  g_autoptr(JsonNode) now = NULL;
  g_autoptr(GArray) b = NULL;
  static const char * const same[] = { "run", "cpu", "memory", "power", "thermal", "markers" };
  const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "report", path, NULL };
  double min = INFINITY, max = -INFINITY;
  guint n = 0;
  int status;

  version = sqlite3_shell (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "1");

  /* the report, as `record` printed it then (but the path it names) */
  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &now_text, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (json, &then_text, NULL, NULL));
  then = load_json (then_text);
  now = load_json (now_text);
  json_object_remove_member (json_node_get_object (adbscope_report_lookup (then, "run")), "recording");
  json_object_remove_member (json_node_get_object (adbscope_report_lookup (now, "run")), "recording");
  /* added since (nothing implausible in it) */
  g_assert_cmpfloat (num (now, "run.implausible.battery_level"), ==, 0);
  g_assert_cmpfloat (num (now, "run.implausible.device_clock"), ==, 0);
  json_object_remove_member (json_node_get_object (adbscope_report_lookup (now, "run")), "implausible");
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    {
      JsonNode *a = adbscope_report_lookup (then, same[i]), *c = adbscope_report_lookup (now, same[i]);

      g_assert_nonnull (a);
      g_assert_nonnull (c);
      if (!json_node_equal (a, c))
        g_error ("%s of the version 1 recording's report differs from the one printed then", same[i]);
    }
  g_assert_cmpfloat (num (now, "cpu.app_pct.n"), >, 100);
  /* its frames (an HWUI app: every interval's FPS was gfxinfo's) count as
   * they did, and say so; so they do without the summary `record` kept */
  for (guint i = 0; i < 4; i++)
    {
      const char *keys[] = { "frames.total", "frames.janky", "frames.janky_pct", "frames.causes" };

      if (!json_node_equal (adbscope_report_lookup (then, keys[i]), adbscope_report_lookup (now, keys[i])))
        g_error ("%s of the version 1 recording's report differs from the one printed then", keys[i]);
    }
  g_assert_cmpstr (json_node_get_string (adbscope_report_lookup (now, "frames.total_source")), ==, "gfxinfo");
  g_assert_cmpfloat (num (now, "frames.total"), >, 1000);
  {
    g_autoptr(AdbscopeRun) bare = NULL;

    g_free (sqlite3_shell (path, "DELETE FROM meta WHERE key = 'session_extras'"));
    bare = adbscope_run_load (path, G_MININT64, G_MAXINT64, &error);
    g_assert_no_error (error);
    g_assert_false (bare->totals.unattributed);
    g_assert_cmpfloat (bare->totals.frames, ==, num (then, "frames.total"));
    g_assert_cmpfloat (bare->totals.janky, ==, num (then, "frames.janky"));
  }

  /* its level 0 is 10 s wide (version 2's level 0 would be 1 s) */
  b = adbscope_run_read_buckets (path, "cpu.app_pct", 0, 45 * G_USEC_PER_SEC, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->len, ==, 5);
  for (guint i = 0; i < b->len; i++)
    {
      const AdbscopeRunBucket *k = &g_array_index (b, AdbscopeRunBucket, i);

      g_assert_cmpint (k->width_us, ==, 10 * G_USEC_PER_SEC);
      g_assert_cmpint (k->t_us, ==, (gint64) i * 10 * G_USEC_PER_SEC);
      min = MIN (min, k->min);
      max = MAX (max, k->max);
      n += k->n;
    }
  /* the samples, as SQLite itself reads them (the shell prints too few digits) */
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count (value), min (value), max (value) FROM sample"
                                       " JOIN series ON series.id = sample.series WHERE path = 'cpu.app_pct'",
                                       -1, &st, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (st), ==, SQLITE_ROW);
  g_assert_cmpuint (n, ==, sqlite3_column_int (st, 0));
  g_assert_cmpfloat (min, ==, sqlite3_column_double (st, 1));
  g_assert_cmpfloat (max, ==, sqlite3_column_double (st, 2));
  sqlite3_finalize (st);
  sqlite3_close (db);
  adbscope_recording_remove_files (path);
}

static void
test_schema (void)
{
  g_autofree char *tables = sqlite3_shell (hour_file (), "SELECT group_concat (name, ' ') FROM"
                                           " (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)");
  g_autofree char *version = sqlite3_shell (hour_file (), "PRAGMA user_version");
  g_autofree char *schema = sqlite3_shell (hour_file (), "SELECT value FROM meta WHERE key = 'schema'");
  g_autofree char *journal = sqlite3_shell (hour_file (), "PRAGMA journal_mode");
  g_autofree char *doc_path = g_test_build_filename (G_TEST_DIST, "..", "docs", "recording.md", NULL);
  g_autofree char *doc = NULL;
  g_auto(GStrv) names = g_strsplit (tables, " ", -1);

  g_autofree char *levels = sqlite3_shell (hour_file (), "SELECT value FROM meta WHERE key = 'lod_levels'");

  g_assert_cmpstr (version, ==, "3");
  g_assert_cmpstr (schema, ==, ADBSCOPE_RECORDING_SCHEMA);
  /* once a second: no 1 s level (it would be the samples again) */
  g_assert_cmpstr (levels, ==, "1 2 3");
  /* a finished recording is back in rollback-journal mode: readers that
   * may not write beside it need no -wal/-shm (issue 24) */
  g_assert_cmpstr (journal, ==, "delete");
  /* every table is documented for people querying with sqlite3 */
  g_assert_true (g_file_get_contents (doc_path, &doc, NULL, NULL));
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *heading = g_strdup_printf ("### `%s`", names[i]);

      if (!strstr (doc, heading))
        g_error ("table %s is not documented in docs/recording.md", names[i]);
    }
  g_assert_cmpuint (g_strv_length (names), >=, 14);
}

/* The rows the network capture and screenshots write, as the sqlite3
 * shell reads them back. */
static void
test_capture_rows (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = synth_path ("capture.adbscope");
  g_autoptr(AdbscopeRecording) rec = adbscope_recording_create (path, &error);
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr(GBytes) png = g_bytes_new_static ("\x89PNG\r\n\x1a\n", 8);
  gint64 origin = g_get_monotonic_time ();
  g_autofree char *conn = NULL;
  g_autofree char *dns = NULL;
  g_autofree char *shot = NULL;

  g_assert_no_error (error);
  adbscope_recording_begin (rec, origin, start, "s", "p.q", 1000, NULL, NULL);
  adbscope_recording_add_connection (rec, origin + 1000000, origin + 3000000, "tcp", "10.0.0.2:40000",
                                     "93.184.216.34:443", "example.com", 10123, 5000, 700);
  adbscope_recording_add_connection (rec, origin + 2000000, 0, "udp", NULL, "10.0.0.1:53", NULL, -1, -1, -1);
  adbscope_recording_add_dns (rec, origin + 900000, "example.com", "A", "93.184.216.34");
  adbscope_recording_add_screenshot (rec, origin + 1500000, png, 42.5, 30, 1080, 2400, TRUE);
  g_assert_true (adbscope_recording_close (rec, origin + 4000000, &error));
  g_assert_no_error (error);

  conn = sqlite3_shell (path, "SELECT group_concat (quote (start_us) || ',' || quote (end_us) || ',' || protocol || ','"
                        " || quote (host) || ',' || quote (rx_bytes), ';') FROM connection");
  g_assert_cmpstr (conn, ==, "1000000,3000000,tcp,'example.com',5000;2000000,NULL,udp,NULL,NULL");
  dns = sqlite3_shell (path, "SELECT t_us, name, type, answers FROM dns");
  g_assert_cmpstr (dns, ==, "900000|example.com|A|93.184.216.34");
  shot = sqlite3_shell (path, "SELECT t_us, length (png), hex (substr (png, 2, 3)), cost_ms, cpu_ms, width,"
                        " height, at_marker FROM screenshot");
  g_assert_cmpstr (shot, ==, "1500000|8|504E47|42.5|30.0|1080|2400|1");
}

static void
test_refuses_to_overwrite (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = synth_path ("precious.adbscope");
  g_autofree char *nowhere = synth_path ("no/such/dir/x.adbscope");
  g_autofree char *text = NULL;
  g_autoptr(AdbscopeRecording) rec = NULL;

  g_assert_true (g_file_set_contents (path, "precious", -1, NULL));
  rec = adbscope_recording_create (path, &error);
  g_assert_null (rec);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "precious");
  g_clear_error (&error);

  rec = adbscope_recording_create (nowhere, &error);
  g_assert_null (rec);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
}

typedef struct
{
  const char        *base;
  gint              *go;
  AdbscopeRecording *rec;
  char              *path;
  GError            *error;
} Racer;

static gpointer
race_create (gpointer data)
{
  Racer *r = data;

  while (!g_atomic_int_get (r->go))
    ;
  r->rec = adbscope_recording_create_unique (r->base, &r->path, &r->error);
  return NULL;
}

/* Runs creating the same default name in the same instant (one app
 * recorded on two devices, two windows) each get a name of their own and
 * a recording that works; before the name was claimed with O_EXCL, the
 * loser of SQLite's lock removed the winner's file and both failed. */
static void
test_unique_in_parallel (void)
{
  for (guint round = 0; round < 40; round++)
    {
      g_autofree char *base = g_strdup_printf ("%s/race-%u.adbscope", tmpdir, round);
      Racer racers[4];
      GThread *threads[G_N_ELEMENTS (racers)];
      gint go = 0;

      for (guint k = 0; k < G_N_ELEMENTS (racers); k++)
        {
          racers[k] = (Racer) { base, &go, NULL, NULL, NULL };
          threads[k] = g_thread_new ("racer", race_create, &racers[k]);
        }
      g_atomic_int_set (&go, 1);
      for (guint k = 0; k < G_N_ELEMENTS (racers); k++)
        g_thread_join (threads[k]);
      for (guint k = 0; k < G_N_ELEMENTS (racers); k++)
        {
          g_autoptr(GError) error = NULL;
          AdbscopeRun *run;

          g_assert_no_error (racers[k].error);
          g_assert_nonnull (racers[k].rec);
          for (guint j = 0; j < k; j++)
            g_assert_cmpstr (racers[j].path, !=, racers[k].path);
          g_assert_true (adbscope_recording_close (racers[k].rec, 1000, &error));
          g_assert_no_error (error);
          g_object_unref (racers[k].rec);
          /* it opens: a recording, not a file another run removed */
          run = adbscope_run_load (racers[k].path, G_MININT64, G_MAXINT64, &error);
          g_assert_no_error (error);
          g_assert_nonnull (run);
          adbscope_run_free (run);
        }
      for (guint k = 0; k < G_N_ELEMENTS (racers); k++)
        g_free (racers[k].path);
    }
}

static void
test_bad_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = synth_path ("missing.adbscope");
  g_autofree char *text = synth_path ("text.adbscope");
  g_autofree char *other = synth_path ("other.db");
  g_autofree char *newer = synth_path ("newer.adbscope");
  g_autofree char *out = NULL;
  AdbscopeRun *run;

  run = adbscope_run_load (missing, G_MININT64, G_MAXINT64, &error);
  g_assert_null (run);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (text, "{\"schema\": \"adbscope-report/1\"}", -1, NULL));
  run = adbscope_run_load (text, G_MININT64, G_MAXINT64, &error);
  g_assert_null (run);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);

  out = sqlite3_shell (other, "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  run = adbscope_run_load (other, G_MININT64, G_MAXINT64, &error);
  g_assert_null (run);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);

  {
    g_autofree char *copy_cmd = g_strdup_printf ("cp '%s' '%s'", hour_file (), newer);

    g_assert_cmpint (system (copy_cmd), ==, 0);
    g_free (sqlite3_shell (newer, "UPDATE meta SET value = 'adbscope-recording/4' WHERE key = 'schema'; PRAGMA user_version = 4;"));
  }
  run = adbscope_run_load (newer, G_MININT64, G_MAXINT64, &error);
  g_assert_null (run);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
}

static char *
synth_file (const char             *name,
            const AdbscopeSynthRun *run)
{
  g_autoptr(GError) error = NULL;
  char *path = synth_path (name);

  g_assert_true (adbscope_synth_write (path, run, &error));
  g_assert_no_error (error);
  return path;
}

static JsonNode *
report_of (const char *path,
           gint64      from_us,
           gint64      to_us)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (path, from_us, to_us, &error);

  g_assert_no_error (error);
  return adbscope_report_build_run (run, NULL);
}

static double
shell_number (const char *path,
              const char *sql)
{
  g_autofree char *out = sqlite3_shell (path, sql);

  return g_ascii_strtod (out, NULL);
}

/* A game: every frame presented by its SurfaceView, none drawn by HWUI.
 * The totals are SurfaceFlinger's, for the whole run and for a window,
 * and the sqlite3 shell adds up the same rows. */
static void
test_game_totals (void)
{
  static const AdbscopeSynthRun game = {
    .duration_s = 600, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .frames_from = ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER,
  };
  g_autofree char *path = synth_file ("game.adbscope", &game);
  g_autoptr(JsonNode) report = report_of (path, G_MININT64, G_MAXINT64);
  g_autoptr(JsonNode) window = report_of (path, 100 * G_USEC_PER_SEC, 199 * G_USEC_PER_SEC);

  g_assert_cmpfloat (num (report, "frames.total"), ==, 600 * 60);
  g_assert_cmpfloat (num (report, "frames.total"), ==,
                     shell_number (path, "SELECT sum (sf_frames + sf_lost_estimate) FROM frames"
                                   " WHERE source = 'surfaceflinger' AND fps IS NOT NULL"));
  g_assert_cmpfloat (num (report, "frames.janky"), ==, 600 * 2);
  g_assert_cmpfloat_with_epsilon (num (report, "frames.janky_pct"), 100.0 * 2 / 60, 1e-9);
  g_assert_cmpstr (str (report, "frames.total_source"), ==, "surfaceflinger");
  g_assert_cmpstr (str (report, "frames.source"), ==, "surfaceflinger");
  g_assert_cmpfloat (num (report, "frames.source_samples.surfaceflinger"), ==, 600);
  /* SurfaceFlinger's own summary, from the same rows */
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frames"), ==, 600 * 60);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.janky"), ==, 600 * 2);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.jank"), ==, 600);
  g_assert_cmpstr (str (report, "frames.surfaceflinger.layer"), ==, ADBSCOPE_SYNTH_SF_LAYER);
  /* present to present 10 + k % 10 ms: 3600 of each of 10..19 */
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frame_time_ms.n"), ==, 600 * 60);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frame_time_ms.p50"), ==, 14);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frame_time_ms.p90"), ==, 18);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frame_time_ms.max"), ==, 19);
  /* HWUI drew nothing, and its causes do not pretend to cover the game */
  g_assert_cmpfloat (num (report, "frames.gfxinfo.total"), ==, 0);
  g_assert_cmpfloat (num (report, "frames.gfxinfo.causes.missed_vsync"), ==, 0);
  g_assert_true (isnan (num (report, "frames.gfxinfo.janky_pct")));
  g_assert_true (isnan (num (report, "frames.causes.missed_vsync")));
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.n"), ==, 0);

  /* ticks 100..199 s: 100 intervals */
  g_assert_cmpfloat (num (window, "frames.total"), ==, 100 * 60);
  g_assert_cmpfloat (num (window, "frames.janky"), ==, 100 * 2);
  g_assert_cmpfloat (num (window, "frames.surfaceflinger.frames"), ==, 100 * 60);
  g_assert_cmpfloat (num (window, "frames.surfaceflinger.frame_time_ms.n"), ==, 100 * 60);
  g_assert_cmpstr (str (window, "frames.total_source"), ==, "surfaceflinger");
}

/* Even ticks HWUI, odd ticks a SurfaceView: each interval counts its own
 * source's frames and jank rule; both sources' own numbers stay. */
static void
test_mixed_totals (void)
{
  static const AdbscopeSynthRun mixed = {
    .duration_s = 600, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .frames_from = ADBSCOPE_SYNTH_FRAMES_MIXED,
  };
  g_autofree char *path = synth_file ("mixed.adbscope", &mixed);
  g_autoptr(JsonNode) report = report_of (path, G_MININT64, G_MAXINT64);
  g_autoptr(AdbscopeRun) summary = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (num (report, "frames.total"), ==, 600 * 60);
  g_assert_cmpfloat (num (report, "frames.janky"), ==, 300 * 1 + 300 * 2);
  g_assert_cmpfloat (num (report, "frames.total"), ==,
                     shell_number (path, "SELECT sum (CASE source WHEN 'surfaceflinger' THEN sf_frames + sf_lost_estimate"
                                   " ELSE new_frames END) FROM frames WHERE fps IS NOT NULL"));
  g_assert_cmpstr (str (report, "frames.total_source"), ==, "gfxinfo+surfaceflinger");
  g_assert_cmpfloat (num (report, "frames.source_samples.gfxinfo"), ==, 300);
  g_assert_cmpfloat (num (report, "frames.source_samples.surfaceflinger"), ==, 300);
  g_assert_cmpfloat (num (report, "frames.gfxinfo.total"), ==, 300 * 60);
  g_assert_cmpfloat (num (report, "frames.gfxinfo.janky"), ==, 300);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frames"), ==, 300 * 60);
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.janky"), ==, 300 * 2);
  /* frame times: each interval's own source's */
  g_assert_cmpfloat (num (report, "frames.surfaceflinger.frame_time_ms.n"), ==, 300 * 60);
  g_assert_cmpfloat (num (report, "frames.frame_time_ms.n"), ==, 300 * 60);
  /* HWUI's causes cover only some of the counted frames */
  g_assert_true (isnan (num (report, "frames.causes.missed_vsync")));
  g_assert_cmpfloat (num (report, "frames.gfxinfo.causes.missed_vsync"), ==, 300);

  /* what a window opens with is the same */
  summary = adbscope_run_load_summary (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (summary->totals.frames, ==, 600 * 60);
  g_assert_cmpint (summary->totals.janky, ==, 900);
  g_assert_cmpint (summary->totals.gfx_frames, ==, 300 * 60);
  g_assert_cmpint (summary->fsum.samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER], ==, 300);
  g_assert_cmpint (summary->fsum.frames, ==, 300 * 60);
  g_assert_cmpstr (summary->fsum.layer, ==, ADBSCOPE_SYNTH_SF_LAYER);
}

/* A copy of @from as version 2 wrote it: no source columns in frames. */
static char *
as_version_2 (const char *from,
              const char *name,
              const char *extras_json)
{
  char *path = synth_path (name);
  g_autofree char *copy = g_strdup_printf ("cp '%s' '%s'", from, path);
  g_autofree char *sql = NULL;
  g_autofree char *quoted = NULL;
  GString *drop = g_string_new (NULL);
  const char *cols[] = { "source", "sf_layer", "sf_fps", "sf_frames", "sf_lost_estimate", "sf_janky",
                         "sf_jank", "sf_big_jank", "sf_lost", "sf_frame_ms" };

  g_assert_cmpint (system (copy), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cols); i++)
    g_string_append_printf (drop, "ALTER TABLE frames DROP COLUMN %s; ", cols[i]);
  if (extras_json != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (extras_json, "'", -1);
      g_autofree char *escaped = g_strjoinv ("''", parts);

      quoted = g_strdup_printf ("INSERT OR REPLACE INTO meta VALUES ('session_extras', '%s');", escaped);
    }
  sql = g_strdup_printf ("%s UPDATE meta SET value = 'adbscope-recording/2' WHERE key = 'schema';"
                         " PRAGMA user_version = 2; %s", drop->str, quoted ? quoted : "");
  g_string_free (drop, TRUE);
  g_free (sqlite3_shell (path, sql));
  return path;
}

/* Files before version 3 open: an HWUI run's totals are gfxinfo's (every
 * interval's FPS was gfxinfo's rate); a game's come from the summary its
 * meta kept, for the whole run only; anything the file cannot tell is
 * null, never a guess. */
static void
test_frames_before_version_3 (void)
{
  static const AdbscopeSynthRun hwui = {
    .duration_s = 120, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
  };
  static const AdbscopeSynthRun game = {
    .duration_s = 120, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .frames_from = ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER,
  };
  static const char game_extras[] =
    "{\"processes\": [], \"gpu\": {}, \"frames\": {\"source\": \"surfaceflinger\","
    " \"source_samples\": {\"gfxinfo\": 0, \"surfaceflinger\": 120}, \"zero_reason\": null,"
    " \"surfaceflinger\": {\"layers\": [\"" ADBSCOPE_SYNTH_SF_LAYER "\"], \"layer\": \"" ADBSCOPE_SYNTH_SF_LAYER "\","
    " \"frames\": 7200, \"janky\": 240, \"janky_pct\": 3.3333, \"jank\": 120, \"big_jank\": 0,"
    " \"lost_intervals\": 0, \"lost_frames_estimate\": 0, \"refresh_period_ms\": 16.667,"
    " \"frame_time_ms\": {\"n\": 7200, \"p50\": 14, \"p90\": 18, \"p95\": 19, \"p99\": 19, \"max\": 19}}}}";
  g_autofree char *hwui_v3 = synth_file ("hwui-v3.adbscope", &hwui);
  g_autofree char *game_v3 = synth_file ("game-v3.adbscope", &game);
  g_autofree char *hwui_old = as_version_2 (hwui_v3, "hwui-v2.adbscope", NULL);
  g_autofree char *game_old = as_version_2 (game_v3, "game-v2.adbscope", game_extras);
  g_autofree char *bare_old = as_version_2 (game_v3, "game-bare-v2.adbscope", NULL);
  g_autoptr(JsonNode) h = report_of (hwui_old, G_MININT64, G_MAXINT64);
  g_autoptr(JsonNode) g = report_of (game_old, G_MININT64, G_MAXINT64);
  g_autoptr(JsonNode) gw = report_of (game_old, 10 * G_USEC_PER_SEC, 20 * G_USEC_PER_SEC);
  g_autoptr(JsonNode) bare = report_of (bare_old, G_MININT64, G_MAXINT64);
  g_autoptr(AdbscopeRun) summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = sqlite3_shell (game_old, "PRAGMA user_version");

  g_assert_cmpstr (version, ==, "2");
  /* the HWUI app: as before */
  g_assert_cmpfloat (num (h, "frames.total"), ==, 120 * 60);
  g_assert_cmpfloat (num (h, "frames.janky"), ==, 120);
  g_assert_cmpstr (str (h, "frames.total_source"), ==, "gfxinfo");
  g_assert_cmpfloat (num (h, "frames.causes.missed_vsync"), ==, 120);
  /* the game, whole run: the summary the meta kept */
  g_assert_cmpfloat (num (g, "frames.total"), ==, 7200);
  g_assert_cmpfloat (num (g, "frames.janky"), ==, 240);
  g_assert_cmpstr (str (g, "frames.total_source"), ==, "surfaceflinger");
  g_assert_cmpfloat (num (g, "frames.gfxinfo.total"), ==, 0);
  g_assert_true (isnan (num (g, "frames.causes.missed_vsync")));
  /* a window of it: the file cannot say */
  g_assert_true (isnan (num (gw, "frames.total")));
  g_assert_true (isnan (num (gw, "frames.janky")));
  g_assert_true (isnan (num (gw, "frames.janky_pct")));
  g_assert_null (str (gw, "frames.total_source"));
  g_assert_true (isfinite (num (gw, "frames.fps.avg")));
  g_assert_cmpfloat (num (gw, "frames.gfxinfo.total"), ==, 0);
  /* without the meta's summary (a crash, or the desktop app) neither */
  g_assert_true (isnan (num (bare, "frames.total")));
  g_assert_null (str (bare, "frames.total_source"));

  /* and a window opening them: the same */
  summary = adbscope_run_load_summary (hwui_old, &error);
  g_assert_no_error (error);
  g_assert_false (summary->totals.unattributed);
  g_assert_cmpint (summary->totals.frames, ==, 120 * 60);
  g_assert_cmpint (summary->fsum.source, ==, ADBSCOPE_FRAMES_SOURCE_GFXINFO);
  g_clear_pointer (&summary, adbscope_run_free);
  summary = adbscope_run_load_summary (bare_old, &error);
  g_assert_no_error (error);
  g_assert_true (summary->totals.unattributed);
}

static guint
array_length (JsonNode   *report,
              const char *path)
{
  JsonNode *n = adbscope_report_lookup (report, path);

  g_assert_true (n != NULL && JSON_NODE_HOLDS_ARRAY (n));
  return json_array_get_length (json_node_get_array (n));
}

/* What the meta keeps of the whole run (every layer `--list` showed, the
 * latest zero reason) is the whole run's: a window cut from it names the
 * layers its own rows saw, and the zero reason only when the window ends
 * with the run (the reason is that of the run's latest sample); the
 * refresh period holds for any window. */
static void
test_window_frames_extras (void)
{
  static const AdbscopeSynthRun game = {
    .duration_s = 120, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .frames_from = ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER,
  };
  g_autofree char *path = synth_file ("extras-window.adbscope", &game);
  g_autoptr(JsonNode) whole = NULL;
  g_autoptr(JsonNode) early = NULL;
  g_autoptr(JsonNode) late = NULL;
  g_autofree char *sql = g_strdup (
    "INSERT OR REPLACE INTO meta VALUES ('session_extras', '{\"processes\": [], \"gpu\": {}, \"frames\": {"
    "\"zero_reason\": {\"code\": \"static\", \"message\": \"The app drew nothing new\"},"
    " \"surfaceflinger\": {\"layers\": [\"" ADBSCOPE_SYNTH_SF_LAYER "\", \"SurfaceView[never]#0\"],"
    " \"refresh_period_ms\": 16.667}}}')");

  g_free (sqlite3_shell (path, sql));
  whole = report_of (path, G_MININT64, G_MAXINT64);
  early = report_of (path, 10 * G_USEC_PER_SEC, 20 * G_USEC_PER_SEC);
  late = report_of (path, 100 * G_USEC_PER_SEC, G_MAXINT64);

  /* the whole run: what the meta kept */
  g_assert_cmpuint (array_length (whole, "frames.surfaceflinger.layers"), ==, 2);
  g_assert_cmpstr (str (whole, "frames.zero_reason.code"), ==, "static");
  /* a window: its rows' layer, no reason of a later sample */
  g_assert_cmpuint (array_length (early, "frames.surfaceflinger.layers"), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (
                     adbscope_report_lookup (early, "frames.surfaceflinger.layers")), 0), ==, ADBSCOPE_SYNTH_SF_LAYER);
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (early, "frames.zero_reason")));
  /* a window to the end: the run's latest reason is its latest */
  g_assert_cmpuint (array_length (late, "frames.surfaceflinger.layers"), ==, 1);
  g_assert_cmpstr (str (late, "frames.zero_reason.code"), ==, "static");
  /* the refresh period: the device's, in every window */
  g_assert_cmpfloat_with_epsilon (num (early, "frames.surfaceflinger.refresh_period_ms"), 16.667, 1e-6);
  g_assert_cmpfloat_with_epsilon (num (whole, "frames.surfaceflinger.refresh_period_ms"), 16.667, 1e-6);
}

int
main (int argc, char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("adbscope-recording-XXXXXX", NULL);

  g_test_add_func ("/recording/whole-run-statistics", test_whole_run_statistics);
  g_test_add_func ("/recording/summary-and-details", test_summary_and_details);
  g_test_add_func ("/recording/csv-from-file", test_csv_from_file);
  g_test_add_func ("/recording/window", test_window);
  g_test_add_func ("/recording/level-of-detail", test_level_of_detail);
  g_test_add_func ("/recording/lod-round-trip", test_lod_round_trip);
  g_test_add_func ("/recording/version-1", test_version_1);
  g_test_add_func ("/recording/schema", test_schema);
  g_test_add_func ("/recording/game-totals", test_game_totals);
  g_test_add_func ("/recording/mixed-totals", test_mixed_totals);
  g_test_add_func ("/recording/frames-before-version-3", test_frames_before_version_3);
  g_test_add_func ("/recording/window-frames-extras", test_window_frames_extras);
  g_test_add_func ("/recording/capture-rows", test_capture_rows);
  g_test_add_func ("/recording/refuses-to-overwrite", test_refuses_to_overwrite);
  g_test_add_func ("/recording/bad-files", test_bad_files);
  g_test_add_func ("/recording/unique-in-parallel", test_unique_in_parallel);
  rc = g_test_run ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    (void) system (cmd);
  }
  return rc;
}
