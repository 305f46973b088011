/* test-series.c: AdbscopeSeries ring buffer and its statistics */
#include "config.h"

#include <math.h>

#include "adbscope-series.h"

#define SEC G_USEC_PER_SEC

static void
test_series_push_get (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (4);
  gint64 t;
  double v;

  g_assert_cmpuint (adbscope_series_get_capacity (series), ==, 4);
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 0);
  g_assert_false (adbscope_series_get_last (series, &t, &v));

  adbscope_series_push (series, 1 * SEC, 10);
  adbscope_series_push (series, 2 * SEC, 20);
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 2);
  g_assert_cmpint (adbscope_series_get (series, 0)->time_us, ==, 1 * SEC);
  g_assert_cmpfloat (adbscope_series_get (series, 1)->value, ==, 20);
  g_assert_true (adbscope_series_get_last (series, &t, &v));
  g_assert_cmpint (t, ==, 2 * SEC);
  g_assert_cmpfloat (v, ==, 20);
}

static void
test_series_wrap_around (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (5);
  AdbscopeSeriesSpans spans;
  guint64 before;

  for (int i = 0; i < 13; i++)
    adbscope_series_push (series, i * SEC, i);

  /* Only the newest 5 remain, oldest first. */
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpint (adbscope_series_get (series, i)->time_us, ==, (8 + i) * SEC);
      g_assert_cmpfloat (adbscope_series_get (series, i)->value, ==, 8 + i);
    }

  /* 13 pushes into 5 slots: head is at 3, so the spans are 2 + 3. */
  adbscope_series_get_spans (series, &spans);
  g_assert_cmpuint (spans.n_first + spans.n_second, ==, 5);
  g_assert_cmpuint (spans.n_first, ==, 2);
  g_assert_cmpfloat (spans.first[0].value, ==, 8);
  g_assert_cmpfloat (spans.first[1].value, ==, 9);
  g_assert_cmpfloat (spans.second[0].value, ==, 10);
  g_assert_cmpfloat (spans.second[2].value, ==, 12);

  before = adbscope_series_get_n_pushed (series);
  adbscope_series_push (series, 13 * SEC, 13);
  g_assert_cmpuint (adbscope_series_get_n_pushed (series), !=, before);
  g_assert_cmpfloat (adbscope_series_get (series, 0)->value, ==, 9);

  g_assert_cmpuint (adbscope_series_lower_bound (series, 0), ==, 0);
  g_assert_cmpuint (adbscope_series_lower_bound (series, 11 * SEC), ==, 2);
  g_assert_cmpuint (adbscope_series_lower_bound (series, 11 * SEC + 1), ==, 3);
  g_assert_cmpuint (adbscope_series_lower_bound (series, 100 * SEC), ==, 5);
}

static void
test_series_capacity_one (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (1);
  AdbscopeSeriesSpans spans;
  AdbscopeSeriesStats stats;

  for (int i = 0; i < 3; i++)
    adbscope_series_push (series, i * SEC, i * 2);

  g_assert_cmpuint (adbscope_series_get_length (series), ==, 1);
  g_assert_cmpfloat (adbscope_series_get (series, 0)->value, ==, 4);
  adbscope_series_get_spans (series, &spans);
  g_assert_cmpuint (spans.n_first, ==, 1);
  g_assert_cmpuint (spans.n_second, ==, 0);
  g_assert_true (adbscope_series_compute_stats (series, &stats));
  g_assert_cmpuint (stats.n, ==, 1);
  g_assert_cmpfloat (stats.p99, ==, 4);
  g_assert_cmpfloat (stats.p50, ==, 4);
}

static void
test_series_capacity_max (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (ADBSCOPE_SERIES_MAX_CAPACITY);
  AdbscopeSeriesSpans spans;

  for (guint i = 0; i < ADBSCOPE_SERIES_MAX_CAPACITY + 10; i++)
    adbscope_series_push (series, (gint64)i * SEC, i);

  g_assert_cmpuint (adbscope_series_get_length (series), ==, ADBSCOPE_SERIES_MAX_CAPACITY);
  g_assert_cmpfloat (adbscope_series_get (series, 0)->value, ==, 10);
  adbscope_series_get_spans (series, &spans);
  g_assert_cmpuint (spans.n_first, ==, ADBSCOPE_SERIES_MAX_CAPACITY - 10);
  g_assert_cmpuint (spans.n_second, ==, 10);
  g_assert_cmpfloat (spans.second[9].value, ==, ADBSCOPE_SERIES_MAX_CAPACITY + 9);
}

static void
test_series_capacity_invalid (void)
{
  if (g_test_subprocess ())
    {
      AdbscopeSeries *series = adbscope_series_new (ADBSCOPE_SERIES_MAX_CAPACITY + 1);

      g_assert_null (series);
      series = adbscope_series_new (0);
      g_assert_null (series);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*capacity <= ADBSCOPE_SERIES_MAX_CAPACITY*");
}

static void
test_series_time_backwards (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(AdbscopeSeries) series = adbscope_series_new (4);

      adbscope_series_push (series, 5 * SEC, 1);
      adbscope_series_push (series, 4 * SEC, 2);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*time_us >=*");
}

static void
test_series_clear (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (3);
  AdbscopeSeriesStats stats;

  for (int i = 0; i < 5; i++)
    adbscope_series_push (series, i * SEC, i);
  adbscope_series_clear (series);
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 0);
  g_assert_false (adbscope_series_compute_stats (series, &stats));
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_true (isnan (stats.avg));
  g_assert_true (isnan (stats.p50));

  /* Earlier times than before the clear are fine now. */
  adbscope_series_push (series, 0, 7);
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 1);
  g_assert_cmpfloat (adbscope_series_get (series, 0)->value, ==, 7);
}

static void
test_series_copy_independent (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (4);
  g_autoptr(AdbscopeSeries) copy = NULL;
  AdbscopeSeriesSpans spans;

  /* Wrapped, so the copy must linearise two spans. */
  for (int i = 0; i < 6; i++)
    adbscope_series_push (series, i * SEC, i);

  copy = adbscope_series_copy (series);
  g_assert_cmpuint (adbscope_series_get_length (copy), ==, 4);
  g_assert_cmpuint (adbscope_series_get_capacity (copy), ==, 4);
  adbscope_series_get_spans (copy, &spans);
  g_assert_cmpuint (spans.n_first, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (adbscope_series_get (copy, i)->value, ==, 2 + i);

  adbscope_series_push (series, 6 * SEC, 600);
  adbscope_series_clear (series);
  adbscope_series_push (series, 7 * SEC, 700);

  g_assert_cmpuint (adbscope_series_get_length (copy), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (adbscope_series_get (copy, i)->value, ==, 2 + i);

  adbscope_series_push (copy, 6 * SEC, 66);
  g_assert_cmpuint (adbscope_series_get_length (series), ==, 1);
  g_assert_cmpfloat (adbscope_series_get (series, 0)->value, ==, 700);
  g_assert_cmpfloat (adbscope_series_get (copy, 3)->value, ==, 66);
}

static void
test_series_stats_percentiles (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  AdbscopeSeriesStats stats;

  /* 1..100 pushed in a scrambled order: the stats must sort a copy. */
  for (int i = 0; i < 100; i++)
    adbscope_series_push (series, i * SEC, 1 + (i * 37) % 100);

  g_assert_true (adbscope_series_compute_stats (series, &stats));
  g_assert_cmpuint (stats.n, ==, 100);
  g_assert_cmpfloat_with_epsilon (stats.avg, 50.5, 1e-9);
  g_assert_cmpfloat (stats.min, ==, 1);
  g_assert_cmpfloat (stats.max, ==, 100);
  g_assert_cmpfloat (stats.p50, ==, 50);
  g_assert_cmpfloat (stats.p90, ==, 90);
  g_assert_cmpfloat (stats.p99, ==, 99);

  /* Stats did not reorder the ring. */
  g_assert_cmpfloat (adbscope_series_get (series, 1)->value, ==, 38);
}

static void
test_series_percentile_small (void)
{
  const double one[] = { 42 };
  const double four[] = { 1, 2, 3, 4 };
  const double ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

  g_assert_true (isnan (adbscope_percentile_nearest_rank (NULL, 0, 50)));
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (one, 1, 0), ==, 42);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (one, 1, 99), ==, 42);
  /* ceil(0.5 × 4) = 2 → the 2nd value; ceil(0.9 × 4) = 4. */
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (four, 4, 50), ==, 2);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (four, 4, 90), ==, 4);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (four, 4, 25), ==, 1);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (four, 4, 26), ==, 2);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (ten, 10, 29), ==, 3);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (ten, 10, 30), ==, 3);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (ten, 10, 31), ==, 4);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (ten, 10, 100), ==, 10);
  g_assert_cmpfloat (adbscope_percentile_nearest_rank (ten, 10, 0), ==, 1);
}

static void
test_series_stats_ignore_nan (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (16);
  AdbscopeSeriesStats stats;
  gint64 t;
  double v;

  adbscope_series_push (series, 1 * SEC, 4);
  adbscope_series_push (series, 2 * SEC, NAN);
  adbscope_series_push (series, 3 * SEC, 8);
  adbscope_series_push (series, 4 * SEC, NAN);
  adbscope_series_push (series, 5 * SEC, INFINITY);
  adbscope_series_push (series, 6 * SEC, NAN);

  g_assert_true (adbscope_series_compute_stats (series, &stats));
  g_assert_cmpuint (stats.n, ==, 2);
  g_assert_cmpfloat (stats.avg, ==, 6);
  g_assert_cmpfloat (stats.min, ==, 4);
  g_assert_cmpfloat (stats.max, ==, 8);
  g_assert_cmpfloat (stats.p50, ==, 4);
  g_assert_cmpfloat (stats.p99, ==, 8);

  /* The last sample is a gap; the last finite one is 8 at 3 s. */
  g_assert_true (adbscope_series_get_last (series, &t, &v));
  g_assert_true (isnan (v));
  g_assert_true (adbscope_series_get_last_finite (series, &t, &v));
  g_assert_cmpint (t, ==, 3 * SEC);
  g_assert_cmpfloat (v, ==, 8);

  /* A range holding only gaps has no statistics. */
  g_assert_false (adbscope_series_compute_stats_range (series, 4 * SEC, 6 * SEC, &stats));
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_true (isnan (stats.max));
}

static void
test_series_stats_range (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (50);
  AdbscopeSeriesStats stats;

  /* Wrapped: 0..79 pushed, 30..79 kept. */
  for (int i = 0; i < 80; i++)
    adbscope_series_push (series, i * SEC, i);

  /* Both ends inclusive. */
  g_assert_true (adbscope_series_compute_stats_range (series, 40 * SEC, 49 * SEC, &stats));
  g_assert_cmpuint (stats.n, ==, 10);
  g_assert_cmpfloat (stats.min, ==, 40);
  g_assert_cmpfloat (stats.max, ==, 49);
  g_assert_cmpfloat_with_epsilon (stats.avg, 44.5, 1e-9);
  g_assert_cmpfloat (stats.p50, ==, 44);
  g_assert_cmpfloat (stats.p90, ==, 48);

  /* A range that reaches before the oldest kept sample. */
  g_assert_true (adbscope_series_compute_stats_range (series, 0, 31 * SEC + 1, &stats));
  g_assert_cmpuint (stats.n, ==, 2);
  g_assert_cmpfloat (stats.min, ==, 30);

  g_assert_false (adbscope_series_compute_stats_range (series, 100 * SEC, 200 * SEC, &stats));
}

static void
test_series_find_nearest (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (8);
  AdbscopeSample s;

  adbscope_series_push (series, 10 * SEC, 1);
  adbscope_series_push (series, 11 * SEC, NAN);
  adbscope_series_push (series, 12 * SEC, 3);

  g_assert_true (adbscope_series_find_nearest (series, 10 * SEC + 400000, SEC, &s));
  g_assert_cmpint (s.time_us, ==, 10 * SEC);
  g_assert_cmpfloat (s.value, ==, 1);
  g_assert_true (adbscope_series_find_nearest (series, 11 * SEC - 400000, SEC, &s));
  g_assert_true (isnan (s.value));
  g_assert_true (adbscope_series_find_nearest (series, 50 * SEC, 100 * SEC, &s));
  g_assert_cmpfloat (s.value, ==, 3);
  g_assert_false (adbscope_series_find_nearest (series, 50 * SEC, SEC, &s));
  g_assert_true (adbscope_series_find_nearest (series, 0, 10 * SEC, &s));
  g_assert_cmpfloat (s.value, ==, 1);
}

static void
test_series_boxed (void)
{
  AdbscopeSeries *series = adbscope_series_new (2);
  GValue value = G_VALUE_INIT;

  g_assert_true (G_TYPE_IS_BOXED (ADBSCOPE_TYPE_SERIES));
  g_value_init (&value, ADBSCOPE_TYPE_SERIES);
  g_value_set_boxed (&value, series);
  g_assert_true (g_value_get_boxed (&value) == series);
  adbscope_series_unref (series);
  /* The GValue still holds a reference. */
  adbscope_series_push (g_value_get_boxed (&value), 1, 1);
  g_assert_cmpuint (adbscope_series_get_length (g_value_get_boxed (&value)), ==, 1);
  g_value_unset (&value);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/series/push-get", test_series_push_get);
  g_test_add_func ("/series/wrap-around", test_series_wrap_around);
  g_test_add_func ("/series/capacity-one", test_series_capacity_one);
  g_test_add_func ("/series/capacity-max", test_series_capacity_max);
  g_test_add_func ("/series/capacity-invalid", test_series_capacity_invalid);
  g_test_add_func ("/series/time-backwards", test_series_time_backwards);
  g_test_add_func ("/series/clear", test_series_clear);
  g_test_add_func ("/series/copy-independent", test_series_copy_independent);
  g_test_add_func ("/series/stats-percentiles", test_series_stats_percentiles);
  g_test_add_func ("/series/percentile-small", test_series_percentile_small);
  g_test_add_func ("/series/stats-ignore-nan", test_series_stats_ignore_nan);
  g_test_add_func ("/series/stats-range", test_series_stats_range);
  g_test_add_func ("/series/find-nearest", test_series_find_nearest);
  g_test_add_func ("/series/boxed", test_series_boxed);

  return g_test_run ();
}
