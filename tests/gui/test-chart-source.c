/* test-chart-source.c: charts reading a recording through its level of detail
 *
 * No display: the chart sources are GTK-free.  The truth is the synthetic
 * recording's formula (tests/common/adbscope-test-recording.h), and the
 * in-memory bucketing the live charts have always used.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "adbscope-chart-bucket.h"
#include "adbscope-chart-source.h"
#include "adbscope-core.h"
#include "adbscope-recording-source.h"
#include "adbscope-test-recording.h"

#define SEC ((gint64) G_USEC_PER_SEC)

static char *tmpdir;
static char *hour_path;

static const AdbscopeSynthRun hour = {
  .duration_s = 3600, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 1,
  .spike_tick = 1234, .spike_value = 400,
};

static AdbscopeRecordingReader *
open_hour (void)
{
  g_autoptr(GError) error = NULL;
  AdbscopeRecordingReader *reader = adbscope_recording_reader_new (hour_path, &error);

  g_assert_no_error (error);
  return reader;
}

static double
max_of (const AdbscopeChartBucket *b,
        guint                      width,
        guint                     *at)
{
  double max = -INFINITY;

  for (guint c = 0; c < width; c++)
    if (b[c].count > 0 && b[c].max > max)
      {
        max = b[c].max;
        *at = c;
      }
  return max;
}

/* The runs: an hour at 1 s (levels 10 s, 100 s, 1000 s), 20 minutes at
 * 100 ms and at 250 ms (and the 1 s level), and the hour again as a
 * version 1 file (10 s, 100 s, 1000 s numbered 0, 1, 2). */
static const AdbscopeSynthRun fast = {
  .duration_s = 1200, .interval_ms = 100, .n_cores = 1, .n_threads = 1, .fps = 1,
  .spike_tick = 7777, .spike_value = 400,
};
static const AdbscopeSynthRun quarter = {
  .duration_s = 1200, .interval_ms = 250, .n_cores = 1, .n_threads = 1, .fps = 1,
  .spike_tick = 2345, .spike_value = 400,
};
static char *fast_path;
static char *quarter_path;
static char *v1_path;

static AdbscopeRecordingReader *
open_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  AdbscopeRecordingReader *reader = adbscope_recording_reader_new (path, &error);

  g_assert_no_error (error);
  return reader;
}

/* The goal: one spike of one sample in a run reaches the drawn
 * max at every zoom and width, whichever level of detail the window is
 * read at, in the column of its time (or of the bucket it is in); and
 * every level the file has is used at some zoom. */
static void
spike_every_zoom (const AdbscopeSynthRun *run,
                  const char             *path)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_path (path);
  g_autoptr(AdbscopeChartSource) source = adbscope_recording_source_new (reader, "cpu.app_pct", 0, NULL);
  static const guint spans_s[] = { 10, 30, 60, 300, 900, 1200, 1800, 3600 };
  static const guint widths[] = { 2, 4, 20, 33, 100, 350, 799, 1500 };
  static const double where[] = { 0.02, 0.5, 0.98 };
  g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 1500);
  g_autofree AdbscopeChartColumn *columns = g_new (AdbscopeChartColumn, 1500);
  gint64 interval = (gint64) run->interval_ms * 1000, duration = (gint64) run->duration_s * SEC;
  gint64 spike = (gint64) run->spike_tick * interval;
  guint n_ticks = adbscope_synth_n_ticks (run);
  gboolean levels[ADBSCOPE_RECORDING_LOD_LEVELS + 1] = { FALSE };

  for (guint s = 0; s < G_N_ELEMENTS (spans_s) && (gint64) spans_s[s] * SEC <= duration; s++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      for (guint k = 0; k < G_N_ELEMENTS (where); k++)
        {
          gint64 span = (gint64) spans_s[s] * SEC;
          gint64 t0 = CLAMP (spike - (gint64) (span * where[k]), 0, duration - span);
          gint64 t1 = t0 + span;
          guint width = widths[w], at = 0;
          int level = adbscope_recording_reader_pick_level (reader, span, width);
          gint64 cell = adbscope_recording_reader_get_level_width_us (reader, level);
          gint64 expected_col;
          double min, max;

          adbscope_chart_source_bucket (source, t0, t1, interval, b, width);
          g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (source)), ==, level);
          g_assert_true (level == ADBSCOPE_RECORDING_LEVEL_SAMPLES || cell > 0);
          levels[level + 1] = TRUE;
          g_assert_cmpfloat (max_of (b, width, &at), ==, run->spike_value);
          /* the column of the spike, or of where its bucket starts */
          expected_col = (gint64) floor ((double) (MAX (spike / MAX (cell, 1) * cell, t0) - t0) * width / span);
          if (cell == 0)
            expected_col = (gint64) floor ((double) (spike - t0) * width / span);
          g_assert_cmpint (at, ==, MIN (expected_col, (gint64) width - 1));
          /* …and what the line layer draws reaches the top there (0 … spike
           * on 100 px) */
          adbscope_chart_line_columns (b, width, 100, 0, run->spike_value, columns);
          g_assert_cmpfloat (columns[at].top, ==, 0);
          g_assert_true (adbscope_chart_source_get_extent (source, t0, t1, &min, &max));
          g_assert_cmpfloat (max, ==, run->spike_value);
          {
            double exact = INFINITY;

            for (gint64 i = (t0 + interval - 1) / interval; i <= t1 / interval && i < n_ticks; i++)
              exact = MIN (exact, adbscope_synth_app_pct (run, i));
            /* a bucket of the level of detail may reach past the window */
            if (cell == 0)
              g_assert_cmpfloat (min, ==, exact);
            else
              g_assert_cmpfloat (min, <=, exact);
          }
        }
  /* the samples, and every level of detail the file has */
  g_assert_true (levels[0]);
  for (int l = 0; l < ADBSCOPE_RECORDING_LOD_LEVELS; l++)
    g_assert_true (levels[l + 1] == (adbscope_recording_reader_get_level_width_us (reader, l) > 0));
}

static void
test_spike_every_zoom (void)
{
  spike_every_zoom (&hour, hour_path);
}

static void
test_spike_every_zoom_fast (void)
{
  spike_every_zoom (&fast, fast_path);
  spike_every_zoom (&quarter, quarter_path);
}

/* What the reader picks, and what a window then gets: the finest of the
 * samples and the levels with no more than √10 rows a column (the next
 * finer one would have had more); between a third of its columns (or of
 * its samples, when it has fewer) and all of them drawn.  At 100 ms,
 * 250 ms and 1 s, zoomed from 10 s to the whole run, at four widths. */
static void
points_per_window (const AdbscopeSynthRun *run,
                   const char             *path)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_path (path);
  g_autoptr(AdbscopeChartSource) source = adbscope_recording_source_new (reader, "cpu.app_pct", 0, NULL);
  static const guint widths[] = { 300, 640, 1000, 1500 };
  g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 1500);
  gint64 interval = (gint64) run->interval_ms * 1000, duration = (gint64) run->duration_s * SEC;

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (gint64 span = 10 * SEC;; span = MIN (span * 2, duration))
      {
        guint width = widths[w], points = 0, rows_in = 0;
        gint64 t0 = (duration - span) / 3, t1 = t0 + span;
        gint64 samples = span / interval;
        int level;
        gint64 cell, finer;
        g_autoptr(GArray) rows = NULL;

        adbscope_chart_source_bucket (source, t0, t1, interval, b, width);
        level = adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (source));
        cell = level < 0 ? interval : adbscope_recording_reader_get_level_width_us (reader, level);
        /* the finest with at most √10 rows a column… */
        g_assert_cmpfloat ((double) span / cell, <=, sqrt (10) * width + 1e-9);
        /* …the finer one had more */
        finer = 0;
        for (int l = level - 1; l >= 0 && finer == 0; l--)
          finer = adbscope_recording_reader_get_level_width_us (reader, l);
        if (level >= 0)
          g_assert_cmpfloat ((double) span / (finer ? finer : interval), >, sqrt (10) * width);
        /* what it read, and what the chart draws */
        rows = adbscope_recording_reader_read (reader, "cpu.app_pct", level, t0, t1, NULL);
        for (guint i = 0; i < rows->len; i++)
          rows_in += g_array_index (rows, AdbscopeRunBucket, i).t_us >= t0;
        for (guint c = 0; c < width; c++)
          points += b[c].count > 0;
        g_assert_cmpuint (rows_in, <=, sqrt (10) * width + 1);
        g_assert_cmpfloat (points, >=, floor (MIN (width, samples) / sqrt (10)));
        g_test_message ("%u ms, %" G_GINT64_FORMAT " s in %u columns: level %d, %u rows, %u points",
                        run->interval_ms, span / SEC, width, level, rows_in, points);
        if (span == duration)
          break;
      }
}

static void
test_points_per_window (void)
{
  points_per_window (&hour, hour_path);
  points_per_window (&fast, fast_path);
  points_per_window (&quarter, quarter_path);
}

/* The windows the brief measured: they read every column now (30 and 90
 * buckets before: the 10 s level). */
static void
test_points_zoomed_in (void)
{
  g_autoptr(AdbscopeRecordingReader) fast_reader = open_path (fast_path);
  g_autoptr(AdbscopeChartSource) src = adbscope_recording_source_new (fast_reader, "cpu.app_pct", 0, NULL);
  g_autoptr(AdbscopeRecordingReader) hour_reader = open_path (hour_path);
  g_autoptr(AdbscopeChartSource) hsrc = adbscope_recording_source_new (hour_reader, "cpu.app_pct", 0, NULL);
  g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 1000);
  guint points = 0;

  /* 5 minutes of 100 ms in 1000 columns: the samples, every column */
  adbscope_chart_source_bucket (src, 300 * SEC, 600 * SEC, SEC / 10, b, 1000);
  g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (src)), ==,
                   ADBSCOPE_RECORDING_LEVEL_SAMPLES);
  for (guint c = 0; c < 1000; c++)
    points += b[c].count > 0;
  g_assert_cmpuint (points, ==, 1000);
  /* 15 minutes: the 1 s level, a point every 1.1 columns (the buckets
   * from 100 s to 1000 s, both ends in) */
  points = 0;
  adbscope_chart_source_bucket (src, 100 * SEC, 1000 * SEC, SEC / 10, b, 1000);
  g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (src)), ==, 0);
  for (guint c = 0; c < 1000; c++)
    points += b[c].count > 0;
  g_assert_cmpuint (points, ==, 901);
  /* 30 minutes of 1 s: the samples (180 buckets of 10 s before) */
  points = 0;
  adbscope_chart_source_bucket (hsrc, 600 * SEC, 2400 * SEC, SEC, b, 1000);
  g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (hsrc)), ==,
                   ADBSCOPE_RECORDING_LEVEL_SAMPLES);
  for (guint c = 0; c < 1000; c++)
    points += b[c].count > 0;
  g_assert_cmpuint (points, ==, 1000);
}

/* A version 1 file (the hour, its levels numbered as version 1 did: this
 * build writes the same rows, 10 s as level 1): opened, its levels read
 * as 10 s, 100 s and 1000 s (a 10 s bucket holds ten samples, not one),
 * and the spike drawn at every zoom; and one the old code wrote. */
static void
test_version_1 (void)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_path (v1_path);
  g_autoptr(GArray) rows = NULL;

  g_assert_cmpint (adbscope_recording_reader_get_level_width_us (reader, 0), ==, 10 * SEC);
  g_assert_cmpint (adbscope_recording_reader_get_level_width_us (reader, 1), ==, 100 * SEC);
  g_assert_cmpint (adbscope_recording_reader_get_level_width_us (reader, 2), ==, 1000 * SEC);
  g_assert_cmpint (adbscope_recording_reader_get_level_width_us (reader, 3), ==, 0);
  rows = adbscope_recording_reader_read (reader, "cpu.app_pct", 0, 0, 3599 * SEC, NULL);
  g_assert_cmpuint (rows->len, ==, 360);
  for (guint i = 0; i < rows->len; i++)
    {
      const AdbscopeRunBucket *r = &g_array_index (rows, AdbscopeRunBucket, i);

      g_assert_cmpint (r->t_us, ==, (gint64) i * 10 * SEC);
      g_assert_cmpint (r->width_us, ==, 10 * SEC);
      g_assert_cmpuint (r->n, ==, 10);
    }
  spike_every_zoom (&hour, v1_path);

  /* the file the old code wrote (250 ms, 45 s) draws its samples' extremes
   * at every width: zoomed out from its 10 s buckets, zoomed in from the
   * samples themselves */
  {
    g_autofree char *old = adbscope_test_version_1_recording (tmpdir);
    g_autoptr(AdbscopeRecordingReader) old_reader = open_path (old);
    g_autoptr(AdbscopeChartSource) source = adbscope_recording_source_new (old_reader, "cpu.app_pct", 0, NULL);
    g_autoptr(GArray) samples = adbscope_recording_reader_read (old_reader, "cpu.app_pct",
                                                                ADBSCOPE_RECORDING_LEVEL_SAMPLES, 0, 45 * SEC, NULL);
    static const guint widths[] = { 4, 20, 1000 };
    static const int levels[] = { 0, 0, ADBSCOPE_RECORDING_LEVEL_SAMPLES };
    g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 1000);
    double want = -INFINITY;

    g_assert_cmpint (adbscope_recording_reader_get_level_width_us (old_reader, 0), ==, 10 * SEC);
    g_assert_cmpuint (samples->len, >, 100);
    for (guint i = 0; i < samples->len; i++)
      if (g_array_index (samples, AdbscopeRunBucket, i).n > 0)
        want = MAX (want, g_array_index (samples, AdbscopeRunBucket, i).max);
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        guint at = 0;

        adbscope_chart_source_bucket (source, 0, 45 * SEC, SEC / 4, b, widths[w]);
        g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (source)), ==, levels[w]);
        g_assert_cmpfloat (max_of (b, widths[w], &at), ==, want);
      }
    g_clear_object (&source);
    g_clear_object (&old_reader);
    adbscope_recording_remove_files (old);
  }
}

/* The columns the file gives are those the same samples give from memory. */
static void
assert_same_columns (const AdbscopeChartBucket *a,
                     const AdbscopeChartBucket *m,
                     guint                      width)
{
  for (guint c = 0; c < width; c++)
    {
      g_assert_cmpuint (a[c].count, ==, m[c].count);
      g_assert_cmpint (a[c].gap, ==, m[c].gap);
      if (m[c].count == 0)
        continue;
      g_assert_cmpfloat (a[c].min, ==, m[c].min);
      g_assert_cmpfloat (a[c].max, ==, m[c].max);
      g_assert_cmpfloat (a[c].first, ==, m[c].first);
      g_assert_cmpfloat (a[c].last, ==, m[c].last);
    }
}

/* Reading the samples (up to √10 a column), the file gives exactly the
 * columns the same samples give from memory. */
static void
test_same_as_memory (void)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_hour ();
  g_autoptr(AdbscopeChartSource) file = adbscope_recording_source_new (reader, "cpu.app_pct", 0, NULL);
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (3600);
  g_autoptr(AdbscopeChartSource) memory = NULL;
  g_autofree AdbscopeChartBucket *a = g_new (AdbscopeChartBucket, 900);
  g_autofree AdbscopeChartBucket *m = g_new (AdbscopeChartBucket, 900);

  for (guint i = 0; i < 3600; i++)
    adbscope_series_push (series, (gint64) i * SEC, adbscope_synth_app_pct (&hour, i));
  memory = adbscope_chart_source_new_for_series (series);

  for (gint64 t0 = 0; t0 < (gint64) 3000 * SEC; t0 += 487 * SEC)
    for (guint width = 200; width <= 900; width += 100)
      {
        gint64 t1 = t0 + 600 * SEC;

        adbscope_chart_source_bucket (file, t0, t1, SEC, a, width);
        /* up to √10 samples a column: the samples, at every width here */
        g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (file)), ==,
                         ADBSCOPE_RECORDING_LEVEL_SAMPLES);
        adbscope_chart_source_bucket (memory, t0, t1, SEC, m, width);
        assert_same_columns (a, m, width);
      }

  {
    AdbscopeSample s;
    double v;

    g_assert_true (adbscope_chart_source_find_nearest (file, 1234 * SEC + 300000, 2 * SEC, &s));
    g_assert_cmpint (s.time_us, ==, 1234 * SEC);
    g_assert_cmpfloat (s.value, ==, 400);
    g_assert_true (adbscope_chart_source_get_last_finite (file, NULL, &v));
    g_assert_cmpfloat (v, ==, adbscope_synth_app_pct (&hour, 3599));
  }
}

/* Scrolling inside a chunk reads nothing; every series of a window is
 * read in one scan. */
static void
test_one_scan (void)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_hour ();
  g_autoptr(AdbscopeChartSource) app = adbscope_recording_source_new (reader, "cpu.app_pct", 0, NULL);
  g_autoptr(AdbscopeChartSource) sys = adbscope_recording_source_new (reader, "cpu.system_pct", 0, NULL);
  g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 600);
  guint at = 0;

  adbscope_chart_source_bucket (app, 1000 * SEC, 1300 * SEC, SEC, b, 600);
  adbscope_chart_source_bucket (sys, 1000 * SEC, 1300 * SEC, SEC, b, 600);
  g_assert_cmpfloat (max_of (b, 600, &at), ==, 59);
  for (gint64 t0 = 1000 * SEC; t0 < 1250 * SEC; t0 += 10 * SEC)
    {
      adbscope_chart_source_bucket (app, t0, t0 + 300 * SEC, SEC, b, 600);
      adbscope_chart_source_bucket (sys, t0, t0 + 300 * SEC, SEC, b, 600);
    }
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_scans, ==, 1);
}

static gboolean
prefetch_idle (AdbscopeRecordingReader *reader)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (_adbscope_recording_reader_get_stats (reader)->prefetching && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return !_adbscope_recording_reader_get_stats (reader)->prefetching;
}

/* Reading ahead: a 5-minute window scrolled along the hour and back, 20 s
 * a step, is read by the worker before it gets there (one scan on the
 * main thread, the first), and every step's columns are exactly those of
 * the same samples in memory, so joining the stretches loses and doubles
 * nothing; a jump still reads at once.  (The test fails without reading
 * ahead: every chunk is then a scan.) */
static void
test_read_ahead (void)
{
  g_autoptr(AdbscopeRecordingReader) reader = open_hour ();
  g_autoptr(AdbscopeChartSource) file = adbscope_recording_source_new (reader, "cpu.app_pct", 0, NULL);
  g_autoptr(AdbscopeChartSource) other = adbscope_recording_source_new (reader, "cpu.system_pct", 0, NULL);
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (3600);
  g_autoptr(AdbscopeChartSource) memory = NULL;
  g_autofree AdbscopeChartBucket *a = g_new (AdbscopeChartBucket, 600);
  g_autofree AdbscopeChartBucket *m = g_new (AdbscopeChartBucket, 600);
  const gint64 span = 300 * SEC;
  guint steps = 0;

  for (guint i = 0; i < 3600; i++)
    adbscope_series_push (series, (gint64) i * SEC, adbscope_synth_app_pct (&hour, i));
  memory = adbscope_chart_source_new_for_series (series);
  adbscope_recording_reader_set_prefetch (reader, TRUE);

  for (int pass = 0; pass < 3; pass++)
    for (gint64 k = 0; k <= 165; k++)
      {
        /* later, earlier, then earlier again from a jump near the end */
        gint64 t0 = pass == 1 ? (165 - k) * 20 * SEC : pass == 2 ? (3200 - k * 10) * SEC : k * 20 * SEC;

        if (pass == 2 && k == 0)
          {
            guint before = _adbscope_recording_reader_get_stats (reader)->n_scans;

            /* (the stretch in memory is around the start: the end is a miss) */
            adbscope_chart_source_bucket (file, t0, t0 + span, SEC, a, 600);
            g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_scans, ==, before + 1);
          }
        adbscope_chart_source_bucket (file, t0, t0 + span, SEC, a, 600);
        adbscope_chart_source_bucket (other, t0, t0 + span, SEC, m, 600);
        adbscope_chart_source_bucket (memory, t0, t0 + span, SEC, m, 600);
        g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (file)), ==,
                         ADBSCOPE_RECORDING_LEVEL_SAMPLES);
        assert_same_columns (a, m, 600);
        g_assert_true (prefetch_idle (reader));
        steps++;
      }
  /* the first read and the jump scanned at once; everything else was read ahead */
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_scans, ==, 2);
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_prefetches, >=, 6);
  g_test_message ("%u steps, %u stretches read ahead", steps, _adbscope_recording_reader_get_stats (reader)->n_prefetches);
}

/* A live run: the file is still being written (the writer thread commits
 * once a second), memory holds only the newest stretch.  A window reaching
 * back past it has every sample exactly once, no hole at the boundary. */
static void
test_live_reaches_back (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "live.adbscope", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRecording) rec = adbscope_recording_create (path, &error);
  g_autoptr(AdbscopeSeries) tail = adbscope_series_new (150);  /* 15 s of 100 ms */
  g_autoptr(AdbscopeRecordingReader) reader = NULL;
  g_autoptr(AdbscopeChartSource) source = NULL;
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autofree AdbscopeChartBucket *b = g_new (AdbscopeChartBucket, 600);
  gint64 origin = g_get_monotonic_time (), step = SEC / 10, deadline;
  const guint n = 600, spike = 77;
  AdbscopeSample last = { 0 };
  guint total = 0, at = 0;

  g_assert_no_error (error);
  adbscope_recording_begin (rec, origin, start, "live:1", "io.github.adbscope.demo", 100, NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      double v = i == spike ? 500 : i % 100;

      adbscope_recording_add_sample (rec, "cpu.app_pct", "%", origin + i * step, v);
      adbscope_series_push (tail, origin + i * step, v);
      if (i % 10 == 9)
        adbscope_recording_flush (rec);
    }
  adbscope_recording_flush (rec);

  /* the writer thread commits in its own time: wait for the last row */
  deadline = g_get_monotonic_time () + 20 * SEC;
  while (reader == NULL && g_get_monotonic_time () < deadline)
    {
      g_clear_error (&error);
      reader = adbscope_recording_reader_new (path, &error);
      if (reader == NULL)
        g_usleep (20000);
    }
  g_assert_nonnull (reader);
  while (g_get_monotonic_time () < deadline &&
         !(adbscope_recording_reader_get_last (reader, "cpu.app_pct", FALSE, &last) && last.time_us == (n - 1) * step))
    g_usleep (20000);
  g_assert_cmpint (last.time_us, ==, (n - 1) * step);
  g_assert_cmpfloat (adbscope_series_get (tail, 0)->time_us, ==, origin + (n - 150) * step);

  source = adbscope_recording_source_new (reader, "cpu.app_pct", origin, tail);
  /* one column a sample, over the whole minute: 450 from the file, 150 from memory */
  adbscope_chart_source_bucket (source, origin, origin + n * step - 1, step, b, n);
  for (guint c = 0; c < n; c++)
    {
      g_assert_cmpuint (b[c].count, ==, 1);
      g_assert_cmpfloat (b[c].max, ==, c == spike ? 500 : c % 100);
      total += b[c].count;
    }
  g_assert_cmpuint (total, ==, n);
  /* zoomed out: the level of detail and the samples it has not closed yet */
  adbscope_chart_source_bucket (source, origin, origin + n * step - 1, step, b, 50);
  g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (source)), ==, 0);
  g_assert_cmpfloat (max_of (b, 50, &at), ==, 500);
  for (guint c = 0; c < 50; c++)
    g_assert_false (b[c].gap);

  /* the file's version moves when the writer commits, and only then */
  {
    gint64 v = adbscope_recording_reader_get_version (reader);
    AdbscopeSample newest;

    g_assert_cmpint (adbscope_recording_reader_get_version (reader), ==, v);
    adbscope_recording_add_sample (rec, "cpu.app_pct", "%", origin + n * step, 1);
    adbscope_recording_flush (rec);
    deadline = g_get_monotonic_time () + 20 * SEC;
    while (g_get_monotonic_time () < deadline &&
           !(adbscope_recording_reader_get_last (reader, "cpu.app_pct", FALSE, &newest) &&
             newest.time_us == n * step))
      g_usleep (20000);
    g_assert_cmpint (newest.time_us, ==, n * step);
    g_assert_cmpint (adbscope_recording_reader_get_version (reader), !=, v);
  }

  g_assert_true (adbscope_recording_close (rec, origin + (n + 1) * step, &error));
  g_assert_no_error (error);
}

static gboolean
levels_idle (AdbscopeRecordingReader *reader,
             guint                    loads)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (_adbscope_recording_reader_get_stats (reader)->n_level_loads < loads && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return _adbscope_recording_reader_get_stats (reader)->n_level_loads >= loads;
}

static void
assert_same_rows (GArray *a,
                  GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const AdbscopeRunBucket *x = &g_array_index (a, AdbscopeRunBucket, i);
      const AdbscopeRunBucket *y = &g_array_index (b, AdbscopeRunBucket, i);

      g_assert_cmpint (x->t_us, ==, y->t_us);
      g_assert_cmpint (x->width_us, ==, y->width_us);
      g_assert_cmpuint (x->n, ==, y->n);
      if (y->n == 0 && y->width_us > 0)
        {
          g_assert_true (isnan (x->min) && isnan (x->max) && isnan (x->avg));
          continue;
        }
      g_assert_true (x->min == y->min || (isnan (x->min) && isnan (y->min)));
      g_assert_true (x->max == y->max || (isnan (x->max) && isnan (y->max)));
      g_assert_true (x->avg == y->avg || (isnan (x->avg) && isnan (y->avg)));
    }
}

/* The small levels of detail held whole (prefetch on, read on a worker):
 * every level and window, in the run, at its edges and past them, gives
 * the rows the file gives, without a query of the file once they are
 * held (a finished run: nothing can follow them); and a zoom from 10 s
 * to the whole hour draws the same columns as a reader without them.
 * (Fails if a row is lost or doubled at the held level's end, or if the
 * held levels are not used.) */
static void
test_levels_in_memory (void)
{
  g_autoptr(AdbscopeRecordingReader) held = open_hour ();
  g_autoptr(AdbscopeRecordingReader) file = open_hour ();
  g_autoptr(AdbscopeChartSource) a = adbscope_recording_source_new (held, "cpu.app_pct", 0, NULL);
  g_autoptr(AdbscopeChartSource) b = adbscope_recording_source_new (file, "cpu.app_pct", 0, NULL);
  g_autofree AdbscopeChartBucket *ca = g_new (AdbscopeChartBucket, 640);
  g_autofree AdbscopeChartBucket *cb = g_new (AdbscopeChartBucket, 640);
  static const gint64 windows[][2] = {
    { 0, 3600 }, { 0, 10 }, { 1230, 1240 }, { 1234, 2222 }, { 3000, 3600 }, { 3595, 3700 }, { 3700, 3800 },
  };
  static const char *paths[] = { "cpu.app_pct", "cpu.core1_pct", "power.battery_mw", "no.such_series" };
  guint levels = 0;

  adbscope_recording_reader_set_prefetch (held, TRUE);
  g_assert_true (levels_idle (held, 1));
  for (int l = 0; l < ADBSCOPE_RECORDING_LOD_LEVELS; l++)
    {
      if (adbscope_recording_reader_get_level_width_us (held, l) == 0)
        continue;
      levels++;
      for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
        for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
          {
            g_autoptr(GArray) x = adbscope_recording_reader_read (held, paths[p], l, windows[w][0] * SEC,
                                                                  windows[w][1] * SEC, NULL);
            g_autoptr(GArray) y = adbscope_recording_reader_read (file, paths[p], l, windows[w][0] * SEC,
                                                                  windows[w][1] * SEC, NULL);

            assert_same_rows (x, y);
          }
    }
  g_assert_cmpuint (levels, ==, 3);
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (held)->n_lod_queries, ==, 0);
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (file)->n_lod_queries, >, 0);

  for (gint64 span = 10 * SEC; span <= 3600 * SEC; span = span * 5 / 4)
    {
      gint64 t0 = (3600 * SEC - span) / 2;

      adbscope_chart_source_bucket (a, t0, t0 + span, SEC, ca, 640);
      adbscope_chart_source_bucket (b, t0, t0 + span, SEC, cb, 640);
      assert_same_columns (ca, cb, 640);
    }
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (held)->n_lod_queries, ==, 0);
  g_assert_cmpuint (_adbscope_recording_reader_get_stats (held)->n_level_loads, ==, 1);
}

/* A live run's held levels: what the writer adds after them is read from
 * the file (the rows are those a fresh reader gets), and once that tail
 * grows long the levels are read again. */
static void
test_levels_in_memory_live (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "live-levels.adbscope", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRecording) rec = adbscope_recording_create (path, &error);
  g_autoptr(AdbscopeRecordingReader) reader = NULL;
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  gint64 origin = g_get_monotonic_time (), deadline;
  guint written = 0;

  g_assert_no_error (error);
  /* 1 s samples: levels 10 s, 100 s, 1000 s (numbered 1, 2, 3) */
  adbscope_recording_begin (rec, origin, start, "live:1", "io.github.adbscope.demo", 1000, NULL, NULL);

  for (int round = 0; round < 3; round++)
    {
      /* 100 s, then 500 s more (50 rows at 10 s: a short tail), then
       * 3000 s more (300 rows: the levels are read again) */
      guint more = round == 0 ? 100 : round == 1 ? 500 : 3000;
      guint loads = reader ? _adbscope_recording_reader_get_stats (reader)->n_level_loads : 0;
      AdbscopeSample last = { 0 };

      for (guint i = written; i < written + more; i++)
        {
          adbscope_recording_add_sample (rec, "cpu.app_pct", "%", origin + i * SEC, i % 97 == 0 ? 300 : i % 50);
          if (i % 50 == 49)
            adbscope_recording_flush (rec);
        }
      written += more;
      adbscope_recording_flush (rec);
      deadline = g_get_monotonic_time () + 20 * SEC;
      while (reader == NULL && g_get_monotonic_time () < deadline)
        {
          g_clear_error (&error);
          if ((reader = adbscope_recording_reader_new (path, &error)) == NULL)
            g_usleep (20000);
        }
      g_assert_nonnull (reader);
      while (g_get_monotonic_time () < deadline &&
             !(adbscope_recording_reader_get_last (reader, "cpu.app_pct", FALSE, &last) &&
               last.time_us == (gint64) (written - 1) * SEC))
        g_usleep (20000);
      g_assert_cmpint (last.time_us, ==, (gint64) (written - 1) * SEC);

      if (round == 0)
        {
          adbscope_recording_reader_set_prefetch (reader, TRUE);
          g_assert_true (levels_idle (reader, 1));
          g_assert_cmpint (adbscope_recording_reader_get_level_width_us (reader, 1), ==, 10 * SEC);
        }
      {
        g_autoptr(AdbscopeRecordingReader) fresh = open_path (path);
        guint queries = _adbscope_recording_reader_get_stats (reader)->n_lod_queries;
        g_autoptr(GArray) x = adbscope_recording_reader_read (reader, "cpu.app_pct", 1, 0, written * SEC, NULL);
        g_autoptr(GArray) y = adbscope_recording_reader_read (fresh, "cpu.app_pct", 1, 0, written * SEC, NULL);

        assert_same_rows (x, y);
        /* 10 s buckets closed, then the samples after the last */
        g_assert_cmpuint (x->len, >=, written / 10);
        if (round == 0)
          g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_lod_queries, ==, queries);
        else
          g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_lod_queries, ==, queries + 1);
        if (round == 2)
          {
            /* a tail of ~300 rows: read again, then nothing from the file */
            g_assert_true (levels_idle (reader, loads + 1));
            queries = _adbscope_recording_reader_get_stats (reader)->n_lod_queries;
            g_clear_pointer (&x, g_array_unref);
            x = adbscope_recording_reader_read (reader, "cpu.app_pct", 1, 0, (written - 100) * SEC, NULL);
            g_clear_pointer (&y, g_array_unref);
            y = adbscope_recording_reader_read (fresh, "cpu.app_pct", 1, 0, (written - 100) * SEC, NULL);
            assert_same_rows (x, y);
            g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_lod_queries, ==, queries);
          }
        else
          g_assert_cmpuint (_adbscope_recording_reader_get_stats (reader)->n_level_loads, ==, loads ? loads : 1);
      }
    }
  g_assert_true (adbscope_recording_close (rec, origin + written * SEC, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("adbscope-chart-source-XXXXXX", &error);
  g_assert_no_error (error);
  hour_path = g_build_filename (tmpdir, "hour.adbscope", NULL);
  g_assert_true (adbscope_synth_write (hour_path, &hour, &error));
  g_assert_no_error (error);
  fast_path = g_build_filename (tmpdir, "fast.adbscope", NULL);
  g_assert_true (adbscope_synth_write (fast_path, &fast, &error));
  g_assert_no_error (error);
  quarter_path = g_build_filename (tmpdir, "quarter.adbscope", NULL);
  g_assert_true (adbscope_synth_write (quarter_path, &quarter, &error));
  g_assert_no_error (error);
  /* version 1: the same rows, the levels numbered from 10 s */
  v1_path = g_build_filename (tmpdir, "hour-v1.adbscope", NULL);
  {
    g_autoptr(GFile) from = g_file_new_for_path (hour_path);
    g_autoptr(GFile) to = g_file_new_for_path (v1_path);
    g_autofree char *out = NULL;

    g_assert_true (g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    out = adbscope_test_sqlite3 (v1_path, "UPDATE lod SET level = level - 1;"
                                 " DELETE FROM meta WHERE key = 'lod_levels';"
                                 " UPDATE meta SET value = 'adbscope-recording/1' WHERE key = 'schema';"
                                 " PRAGMA user_version = 1; SELECT min (level) FROM lod");
    g_assert_cmpstr (out, ==, "0");
  }

  g_test_add_func ("/chart-source/spike-every-zoom", test_spike_every_zoom);
  g_test_add_func ("/chart-source/spike-every-zoom-100ms-250ms", test_spike_every_zoom_fast);
  g_test_add_func ("/chart-source/points-per-window", test_points_per_window);
  g_test_add_func ("/chart-source/points-zoomed-in", test_points_zoomed_in);
  g_test_add_func ("/chart-source/version-1", test_version_1);
  g_test_add_func ("/chart-source/same-as-memory", test_same_as_memory);
  g_test_add_func ("/chart-source/one-scan", test_one_scan);
  g_test_add_func ("/chart-source/read-ahead", test_read_ahead);
  g_test_add_func ("/chart-source/levels-in-memory", test_levels_in_memory);
  g_test_add_func ("/chart-source/levels-in-memory-live", test_levels_in_memory_live);
  g_test_add_func ("/chart-source/live-reaches-back", test_live_reaches_back);
  ret = g_test_run ();

  adbscope_recording_remove_files (hour_path);
  adbscope_recording_remove_files (fast_path);
  adbscope_recording_remove_files (quarter_path);
  adbscope_recording_remove_files (v1_path);
  {
    g_autofree char *live = g_build_filename (tmpdir, "live.adbscope", NULL);
    adbscope_recording_remove_files (live);
  }
  g_rmdir (tmpdir);
  return ret;
}
