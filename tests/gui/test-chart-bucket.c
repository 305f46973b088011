/* test-chart-bucket.c: bucketing samples into pixel columns and tick layout
 *
 * No display: adbscope-chart-bucket.c is GTK-free and compiled into this
 * test directly.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-chart-bucket.h"

#define SEC G_USEC_PER_SEC

static gint64
column_of_time (gint64 t,
                gint64 t0,
                gint64 t1,
                guint  width)
{
  gint64 c = (gint64)floor ((double)(t - t0) * width / (double)(t1 - t0));

  return MIN (c, (gint64)width - 1);
}

/* The test: one 88 % spike among 899 samples of 5 % must show as a
 * column max of 88 at every width from 50 to 1000. */
static void
test_bucket_spike_every_width (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  g_autofree AdbscopeChartBucket *buckets = g_new (AdbscopeChartBucket, 1000);
  const guint spike = 449;
  gint64 t0 = 1000 * SEC;
  gint64 t1 = t0 + 899 * SEC;

  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, t0 + i * SEC, i == spike ? 88 : 5);

  for (guint width = 50; width <= 1000; width++)
    {
      gint64 spike_col = column_of_time (t0 + spike * SEC, t0, t1, width);
      guint n_spike_cols = 0;
      guint n_samples = 0;

      adbscope_chart_bucket_series (series, t0, t1, SEC, buckets, width);

      g_assert_cmpfloat (buckets[spike_col].max, ==, 88);
      g_assert_cmpfloat (buckets[spike_col].min, >=, 5);
      for (guint c = 0; c < width; c++)
        {
          g_assert_false (buckets[c].gap);
          n_samples += buckets[c].count;
          if (buckets[c].count == 0)
            continue;
          if (buckets[c].max == 88)
            n_spike_cols++;
          else
            g_assert_cmpfloat (buckets[c].max, ==, 5);
          g_assert_cmpfloat (buckets[c].min, ==, buckets[c].count > 1 ? 5 : buckets[c].max);
        }
      g_assert_cmpuint (n_spike_cols, ==, 1);
      g_assert_cmpuint (n_samples, ==, 900);
    }
}

static void
test_bucket_ramp_min_max (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  AdbscopeChartBucket buckets[90];

  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, i * SEC, i);

  /* [0, 900 s) in 90 columns: column c holds samples 10c … 10c+9. */
  adbscope_chart_bucket_series (series, 0, 900 * SEC, SEC, buckets, 90);
  for (guint c = 0; c < 90; c++)
    {
      g_assert_cmpuint (buckets[c].count, ==, 10);
      g_assert_cmpfloat (buckets[c].min, ==, 10 * c);
      g_assert_cmpfloat (buckets[c].max, ==, 10 * c + 9);
      g_assert_cmpfloat (buckets[c].first, ==, 10 * c);
      g_assert_cmpfloat (buckets[c].last, ==, 10 * c + 9);
      g_assert_cmpfloat (buckets[c].sum, ==, 100 * c + 45);
      g_assert_false (buckets[c].gap);
    }

  /* A window in the middle: only samples inside it count. */
  adbscope_chart_bucket_series (series, 100 * SEC, 190 * SEC, SEC, buckets, 9);
  g_assert_cmpfloat (buckets[0].min, ==, 100);
  g_assert_cmpfloat (buckets[0].max, ==, 109);
  /* The end time is included in the last column. */
  g_assert_cmpfloat (buckets[8].max, ==, 190);
  g_assert_cmpuint (buckets[8].count, ==, 11);
}

static void
test_bucket_nan_gap (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  g_autofree AdbscopeChartBucket *buckets = g_new (AdbscopeChartBucket, 1000);
  const guint widths[] = { 50, 90, 100, 300, 600, 899, 900, 1000 };
  gint64 t1 = 899 * SEC;

  /* 60 NaN samples (the session's "no data" marks) at 300 … 359 s. */
  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, i * SEC, i >= 300 && i < 360 ? NAN : 50);

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      guint width = widths[w];
      gint64 last_before = column_of_time (299 * SEC, 0, t1, width);
      gint64 first_after = column_of_time (360 * SEC, 0, t1, width);
      guint n_gaps = 0;

      adbscope_chart_bucket_series (series, 0, t1, SEC, buckets, width);

      for (guint c = 0; c < width; c++)
        {
          /* Never a zero: only 50 or nothing. */
          if (buckets[c].count > 0)
            {
              g_assert_cmpfloat (buckets[c].min, ==, 50);
              g_assert_cmpfloat (buckets[c].max, ==, 50);
              g_assert_false (buckets[c].gap);
            }
          else
            {
              g_assert_true (isnan (buckets[c].min));
              g_assert_true (isnan (buckets[c].max));
              g_assert_true (isnan (buckets[c].last));
            }

          if (buckets[c].gap)
            {
              n_gaps++;
              g_assert_cmpint (c, >, last_before);
              g_assert_cmpint (c, <, first_after);
            }
          else if (c > last_before && c < first_after)
            {
              g_assert_not_reached ();  /* strictly inside the NaN stretch */
            }
        }

      /* 60 s of a 899 s window. */
      g_assert_cmpuint (n_gaps, >=, (guint)floor (59.0 * width / 899) - 1);
      g_assert_cmpuint (n_gaps, >, 0);
    }
}

static void
test_bucket_all_nan (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  g_autofree AdbscopeChartBucket *buckets = g_new (AdbscopeChartBucket, 1000);

  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, i * SEC, NAN);

  for (guint width = 50; width <= 1000; width += 7)
    {
      adbscope_chart_bucket_series (series, 0, 899 * SEC, SEC, buckets, width);
      for (guint c = 0; c < width; c++)
        {
          g_assert_true (buckets[c].gap);
          g_assert_cmpuint (buckets[c].count, ==, 0);
          g_assert_true (isnan (buckets[c].max));
        }
    }

  /* A single NaN sample is a gap too. */
  adbscope_series_clear (series);
  adbscope_series_push (series, 5 * SEC, NAN);
  adbscope_chart_bucket_series (series, 0, 10 * SEC, SEC, buckets, 10);
  for (guint c = 0; c < 10; c++)
    g_assert_true (buckets[c].gap == (c == 5));
}

static void
test_bucket_missing_by_distance (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (200);
  AdbscopeChartBucket buckets[200];

  /* No NaN: samples simply stop for 30 s (100 → 130). */
  for (guint i = 0; i <= 100; i++)
    adbscope_series_push (series, i * SEC, 20);
  for (guint i = 130; i < 200; i++)
    adbscope_series_push (series, i * SEC, 20);

  adbscope_chart_bucket_series (series, 0, 200 * SEC, SEC, buckets, 200);
  for (guint c = 0; c < 200; c++)
    {
      gboolean expect_gap = c > 100 && c < 130;

      g_assert_true (buckets[c].gap == expect_gap);
    }

  /* Zoomed in (4 px a second): empty columns between normal samples are
   * bridged, not gaps. */
  {
    AdbscopeChartBucket zoom[80];

    adbscope_chart_bucket_series (series, 0, 20 * SEC - 1, SEC, zoom, 80);
    for (guint c = 0; c < 80; c++)
      {
        g_assert_false (zoom[c].gap);
        g_assert_cmpuint (zoom[c].count, ==, c % 4 == 0 ? 1 : 0);
      }
  }
}

static void
test_bucket_interval_changes (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  AdbscopeChartBucket buckets[900];
  guint n_gaps;

  /* 1 s for 300 s, then the interval is raised to 5 s. */
  for (guint t = 0; t < 300; t++)
    adbscope_series_push (series, t * SEC, 10);
  for (guint t = 300; t < 900; t += 5)
    adbscope_series_push (series, t * SEC, 10);

  /* Measured interval still 1 s: every 5 s hole is a missing stretch. */
  adbscope_chart_bucket_series (series, 0, 900 * SEC, SEC, buckets, 900);
  n_gaps = 0;
  for (guint c = 0; c < 900; c++)
    {
      if (buckets[c].gap)
        {
          g_assert_cmpuint (c, >, 300);
          g_assert_cmpuint (c % 5, !=, 0);
          n_gaps++;
        }
    }
  g_assert_cmpuint (n_gaps, ==, 119 * 4);

  /* With the new measured interval, the same data has no gaps. */
  adbscope_chart_bucket_series (series, 0, 900 * SEC, 5 * SEC, buckets, 900);
  for (guint c = 0; c < 900; c++)
    g_assert_false (buckets[c].gap);

  /* 5 s is exactly 2.5 × 2 s: not more, so not missing. */
  adbscope_chart_bucket_series (series, 0, 900 * SEC, 2 * SEC, buckets, 900);
  for (guint c = 0; c < 900; c++)
    g_assert_false (buckets[c].gap);

  /* Unknown interval: only NaN makes gaps. */
  adbscope_chart_bucket_series (series, 0, 900 * SEC, 0, buckets, 900);
  for (guint c = 0; c < 900; c++)
    g_assert_false (buckets[c].gap);
}

static void
test_bucket_stretch_across_edges (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (100);
  AdbscopeChartBucket buckets[10];

  /* Missing from 0 to 50 s: the window [20, 30] lies wholly inside. */
  adbscope_series_push (series, 0, 1);
  adbscope_series_push (series, 50 * SEC, 1);
  adbscope_chart_bucket_series (series, 20 * SEC, 30 * SEC, SEC, buckets, 10);
  for (guint c = 0; c < 10; c++)
    g_assert_true (buckets[c].gap);

  /* Wrapped ring (two spans) behaves the same. */
  adbscope_series_clear (series);
  for (guint i = 0; i < 150; i++)
    adbscope_series_push (series, i * SEC, i >= 120 && i < 140 ? NAN : 3);
  adbscope_chart_bucket_series (series, 115 * SEC, 125 * SEC, SEC, buckets, 10);
  for (guint c = 0; c < 10; c++)
    g_assert_true (buckets[c].gap == (c >= 5));
}

static void
test_bucket_degenerate (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (10);
  AdbscopeChartBucket buckets[4];

  adbscope_chart_bucket_series (series, 0, 10 * SEC, SEC, buckets, 4);
  for (guint c = 0; c < 4; c++)
    {
      g_assert_cmpuint (buckets[c].count, ==, 0);
      g_assert_false (buckets[c].gap);
    }

  adbscope_series_push (series, 5 * SEC, 1);
  adbscope_chart_bucket_series (series, 10 * SEC, 10 * SEC, SEC, buckets, 4);
  for (guint c = 0; c < 4; c++)
    g_assert_cmpuint (buckets[c].count, ==, 0);
  adbscope_chart_bucket_series (series, 0, 10 * SEC, SEC, NULL, 0);
}

static void
test_ticks_nice_step (void)
{
  double lo, hi;

  g_assert_cmpfloat_with_epsilon (adbscope_chart_nice_step (0.3), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (adbscope_chart_nice_step (0.07), 0.1, 1e-12);
  g_assert_cmpfloat (adbscope_chart_nice_step (1), ==, 1);
  g_assert_cmpfloat (adbscope_chart_nice_step (1.2), ==, 2);
  g_assert_cmpfloat (adbscope_chart_nice_step (2), ==, 2);
  g_assert_cmpfloat (adbscope_chart_nice_step (3), ==, 5);
  g_assert_cmpfloat (adbscope_chart_nice_step (7), ==, 10);
  g_assert_cmpfloat (adbscope_chart_nice_step (22), ==, 50);
  g_assert_cmpfloat (adbscope_chart_nice_step (120), ==, 200);

  adbscope_chart_auto_range (5, 88, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 100);
  adbscope_chart_auto_range (0, 7.3, &lo, &hi);
  g_assert_cmpfloat (hi, ==, 8);
  adbscope_chart_auto_range (NAN, NAN, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, >, 0);
  adbscope_chart_auto_range (-3, 12, &lo, &hi);
  g_assert_cmpfloat (lo, <=, -3);
  g_assert_cmpfloat (hi, >=, 12);
}

static void
assert_labels_fit (const AdbscopeChartTick *ticks,
                   guint                    n,
                   double                   length)
{
  for (guint i = 0; i < n; i++)
    {
      if (!ticks[i].show_label)
        continue;
      g_assert_cmpfloat (ticks[i].label_pos, >=, 0);
      g_assert_cmpfloat (ticks[i].label_pos + ticks[i].label_size, <=, length + 1e-9);
      for (guint j = 0; j < i; j++)
        {
          if (!ticks[j].show_label)
            continue;
          g_assert_true (ticks[i].label_pos >= ticks[j].label_pos + ticks[j].label_size ||
                         ticks[j].label_pos >= ticks[i].label_pos + ticks[i].label_size);
        }
    }
}

static double
fake_measure (const char *text,
              gpointer    user_data)
{
  /* 7 px a character, like a small UI font. */
  return 7.0 * g_utf8_strlen (text, -1);
}

static void
test_ticks_time_labels (void)
{
  const gint64 spans_s[] = { 10, 60, 5 * 60, 15 * 60, 3600, 24 * 3600 };
  AdbscopeChartTick ticks[ADBSCOPE_CHART_MAX_TICKS];
  gint64 now = 5000 * (gint64)SEC;

  for (guint s = 0; s < G_N_ELEMENTS (spans_s); s++)
    {
      for (guint width = 40; width <= 2000; width++)
        {
          guint n = adbscope_chart_time_ticks (now - spans_s[s] * SEC, now, width,
                                               fake_measure, NULL,
                                               ticks, G_N_ELEMENTS (ticks));
          guint shown = 0;

          g_assert_cmpuint (n, >, 0);
          assert_labels_fit (ticks, n, width);
          for (guint i = 0; i < n; i++)
            shown += ticks[i].show_label;

          /* "now" is always there and right-aligned when it fits. */
          g_assert_cmpstr (ticks[0].label, ==, "now");
          g_assert_cmpfloat (ticks[0].pos, ==, width);
          g_assert_true (ticks[0].show_label);
          g_assert_cmpfloat (ticks[0].label_pos + ticks[0].label_size, ==, width);
          if (width >= 300)
            g_assert_cmpuint (shown, >=, 2);
        }
    }

  /* 15 min in 600 px: the widest label "-14 min" needs 61 px, so 2 min
   * (80 px) is the step. */
  {
    guint n = adbscope_chart_time_ticks (now - 900 * SEC, now, 600, fake_measure, NULL,
                                         ticks, G_N_ELEMENTS (ticks));

    g_assert_cmpuint (n, ==, 8);
    g_assert_cmpstr (ticks[1].label, ==, "-2 min");
    g_assert_cmpstr (ticks[7].label, ==, "-14 min");
    g_assert_cmpfloat_with_epsilon (ticks[1].pos, 600 - 80, 1e-6);
    g_assert_cmpfloat (ticks[1].value, ==, -120.0 * SEC);
    for (guint i = 0; i < n; i++)
      g_assert_true (ticks[i].show_label);
  }

  /* 60 s in 600 px: "-60 s" needs 47 px, so 5 s (50 px) in seconds. */
  {
    guint n = adbscope_chart_time_ticks (now - 60 * SEC, now, 600, fake_measure, NULL,
                                         ticks, G_N_ELEMENTS (ticks));

    g_assert_cmpuint (n, ==, 13);
    g_assert_cmpstr (ticks[1].label, ==, "-5 s");
    g_assert_cmpstr (ticks[12].label, ==, "-60 s");
    g_assert_cmpfloat (ticks[12].pos, ==, 0);
  }
}

/* A proportional font at @user_data px a digit: colons, spaces and
 * minus signs narrower, letters a little narrower, CJK wider. */
static double
font_measure (const char *text,
              gpointer    user_data)
{
  double digit = *(const double *) user_data, w = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_ascii_isdigit (c))
        w += digit;
      else if (c == ':' || c == ' ')
        w += digit * 0.45;
      else if (c == '-')
        w += digit * 0.6;
      else if (c < 128)
        w += digit * 0.9;
      else
        w += digit * 1.8;
    }
  return w;
}

/* Evenly spaced labels with none missing between two shown ones (the
 * axis read "0:15, 0:30, 1:00" without 0:45: the label at the right end,
 * pulled inside the axis, hid its neighbour), none overlapping or
 * outside the axis; only a label at an end may give way.  Many widths,
 * windows (scrolled along a run: ticks anywhere near the ends), fonts,
 * on a run's clock and on the live axis (where "now" stays). */
static void
assert_no_hole (const AdbscopeChartTick *ticks,
                guint                    n,
                double                   length,
                const char              *what)
{
  int first = -1, last = -1;

  for (guint i = 0; i < n; i++)
    {
      if (!ticks[i].show_label)
        continue;
      if (first < 0)
        first = i;
      last = i;
      g_assert_cmpfloat (ticks[i].label_pos, >=, -1e-9);
      g_assert_cmpfloat (ticks[i].label_pos + ticks[i].label_size, <=, length + 1e-9);
      /* ticks are newest first: each shown label lies left of the one before, apart */
      for (guint j = first; j < i; j++)
        if (ticks[j].show_label)
          g_assert_cmpfloat (ticks[i].label_pos + ticks[i].label_size, <=, ticks[j].label_pos);
    }
  for (int i = first; i >= 0 && i <= last; i++)
    if (!ticks[i].show_label)
      g_error ("%s: label %s hidden between %s and %s", what, ticks[i].label, ticks[first].label, ticks[last].label);
}

static void
test_ticks_no_gap_in_the_middle (void)
{
  static const gint64 spans_s[] = { 10, 45, 60, 90, 5 * 60, 15 * 60, 3600, 8 * 3600 };
  static const double digits[] = { 5, 6.5, 7, 8, 9.5, 12 };
  AdbscopeChartTick ticks[ADBSCOPE_CHART_MAX_TICKS];
  guint cases = 0, edge_labels_hidden = 0;

  for (guint s = 0; s < G_N_ELEMENTS (spans_s); s++)
    for (guint f = 0; f < G_N_ELEMENTS (digits); f++)
      for (guint width = 60; width <= 1600; width += 7)
        for (guint k = 0; k < 4; k++)
          {
            gint64 span = spans_s[s] * SEC;
            /* scrolled: 0, then ticks at every distance from the ends */
            gint64 t0 = k == 0 ? 0 : span * k * 37 / 100 + k * 1234567;
            g_autofree char *what = g_strdup_printf ("%" G_GINT64_FORMAT " s from %" G_GINT64_FORMAT
                                                     " µs in %u px at %.1f px a digit",
                                                     spans_s[s], t0, width, digits[f]);
            guint n = adbscope_chart_elapsed_ticks (t0, t0 + span, width, font_measure, (gpointer) &digits[f],
                                                    ticks, G_N_ELEMENTS (ticks));
            guint shown = 0;

            assert_no_hole (ticks, n, width, what);
            for (guint i = 0; i < n; i++)
              shown += ticks[i].show_label;
            edge_labels_hidden += n - shown;
            if (width >= 300 && n >= 2)
              g_assert_cmpuint (shown, >=, 2);

            n = adbscope_chart_time_ticks (t0, t0 + span, width, font_measure, (gpointer) &digits[f],
                                           ticks, G_N_ELEMENTS (ticks));
            assert_no_hole (ticks, n, width, what);
            /* "now" stays at the right end */
            if (ticks[0].label_size <= width)
              g_assert_true (ticks[0].show_label);
            cases++;
          }
  g_test_message ("%u windows, %u labels at an end gave way", cases, edge_labels_hidden);
}

static void
test_ticks_value_labels (void)
{
  const double ranges[][2] = { { 0, 100 }, { 0, 8 }, { 0, 0.5 }, { -20, 60 }, { 0, 250000 } };
  AdbscopeChartTick ticks[ADBSCOPE_CHART_MAX_TICKS];

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      for (guint height = 40; height <= 2000; height++)
        {
          guint n = adbscope_chart_value_ticks (ranges[r][0], ranges[r][1], height, 14,
                                                ticks, G_N_ELEMENTS (ticks));
          guint shown = 0;

          g_assert_cmpuint (n, >=, 1);
          assert_labels_fit (ticks, n, height);
          for (guint i = 0; i < n; i++)
            {
              g_assert_cmpfloat (ticks[i].pos, >=, -1e-9);
              g_assert_cmpfloat (ticks[i].pos, <=, height + 1e-9);
              shown += ticks[i].show_label;
            }
          g_assert_cmpuint (shown, >=, 1);
        }
    }

  /* 0..100 in 200 px with 14 px labels: at most 5 intervals → step 20. */
  {
    guint n = adbscope_chart_value_ticks (0, 100, 200, 14, ticks, G_N_ELEMENTS (ticks));

    g_assert_cmpuint (n, ==, 6);
    g_assert_cmpstr (ticks[0].label, ==, "0");
    g_assert_cmpfloat (ticks[0].pos, ==, 200);
    g_assert_cmpstr (ticks[5].label, ==, "100");
    g_assert_cmpfloat (ticks[5].pos, ==, 0);
    g_assert_cmpstr (ticks[1].label, ==, "20");
  }

  {
    guint n = adbscope_chart_value_ticks (0, 0.5, 200, 14, ticks, G_N_ELEMENTS (ticks));

    g_assert_cmpuint (n, ==, 6);
    g_assert_cmpstr (ticks[1].label, ==, "0.1");
  }
}

/* Axes speak the series table's unit: memory (kB) in KiB/MiB/GiB like the
 * value beside the title, rates in B/s…MB/s, % with a %, others as given. */
static void
test_ticks_units (void)
{
  AdbscopeChartTick ticks[ADBSCOPE_CHART_MAX_TICKS];
  g_autoptr(GString) text = g_string_new (NULL);
  double lo, hi;
  guint n;

  /* 0 – 30000 kB of memory: ticks in MiB, never "20000k" */
  adbscope_chart_unit_range ("kB", 0, 29500, &lo, &hi);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 30 * 1024);
  n = adbscope_chart_unit_ticks ("kB", lo, hi, 200, 14, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (ticks[0].label, ==, "0 MiB");
  g_assert_cmpstr (ticks[n - 1].label, ==, "30 MiB");
  g_assert_cmpfloat (ticks[n - 1].value, ==, 30 * 1024);
  for (guint i = 0; i < n; i++)
    g_assert_null (strchr (ticks[i].label, 'k'));
  /* 22 GiB available */
  n = adbscope_chart_unit_ticks ("kB", 0, 30.0 * 1024 * 1024, 200, 14, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpstr (ticks[n - 1].label, ==, "30 GiB");

  /* Rates: SI like g_format_size(); an idle axis counts whole bytes */
  n = adbscope_chart_unit_ticks ("B/s", 0, 2000000, 200, 14, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpstr (ticks[n - 1].label, ==, "2.0 MB/s");  /* steps of 0.5 */
  adbscope_chart_unit_range ("B/s", 0, 0, &lo, &hi);
  g_assert_cmpfloat (hi, ==, 4);
  n = adbscope_chart_unit_ticks ("B/s", lo, hi, 200, 14, ticks, G_N_ELEMENTS (ticks));
  for (guint i = 0; i < n; i++)
    g_assert_null (strchr (ticks[i].label, '.'));

  /* Janky frames in %: a % axis */
  n = adbscope_chart_unit_ticks ("%", 0, 100, 200, 14, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpstr (ticks[n - 1].label, ==, "100%");
  n = adbscope_chart_unit_ticks ("mW", 0, 4000, 200, 14, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpstr (ticks[n - 1].label, ==, "4000 mW");

  /* The value beside the title, in the same families */
  adbscope_chart_format_with_unit (20000, "kB", text);
  g_assert_cmpstr (text->str, ==, "19.5\u00a0MiB");  /* g_format_size_full () keeps number and unit together */
  g_string_truncate (text, 0);
  adbscope_chart_format_with_unit (1500000, "B/s", text);
  g_assert_cmpstr (text->str, ==, "1.5\u00a0MB/s");
  g_string_truncate (text, 0);
  adbscope_chart_format_with_unit (12.34, "%", text);
  g_assert_cmpstr (text->str, ==, "12.3%");
}

/* What the line layers draw: one vertical run per column.  The spike of
 * the width test reaches the top of the plot in its column at every width,
 * and nothing else rises above the 5 % line. */
static void
test_columns_spike_every_width (void)
{
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  g_autofree AdbscopeChartBucket *buckets = g_new (AdbscopeChartBucket, 1000);
  g_autofree AdbscopeChartColumn *columns = g_new (AdbscopeChartColumn, 1000);
  const guint spike = 449;
  const double height = 100;   /* 0 … 100 %: y = 100 - value */
  gint64 t0 = 1000 * SEC;
  gint64 t1 = t0 + 899 * SEC;

  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, t0 + i * SEC, i == spike ? 88 : 5);

  for (guint width = 50; width <= 1000; width += 7)
    {
      gint64 spike_col = column_of_time (t0 + spike * SEC, t0, t1, width);

      adbscope_chart_bucket_series (series, t0, t1, SEC, buckets, width);
      adbscope_chart_line_columns (buckets, width, height, 0, 100, columns);
      g_assert_cmpfloat_with_epsilon (columns[spike_col].top, 100 - 88, 1e-4);
      for (guint c = 0; c < width; c++)
        {
          /* every column is drawn: the line is continuous */
          g_assert_cmpfloat (columns[c].top, <=, columns[c].bottom);
          g_assert_cmpfloat (columns[c].bottom, <=, 95 + 1e-4);
          /* only the spike and the ramps to it (a sample either side)
           * leave the 5 % line */
          if (ABS ((gint64) c - spike_col) > 1 + width / 899.0)
            g_assert_cmpfloat_with_epsilon (columns[c].top, 95, 1e-4);
        }
    }
}

/* Zoomed in past the samples (columns without one between them) the line
 * runs straight from sample to sample; a gap breaks it; a lone sample
 * between gaps is still drawn. */
static void
test_columns_bridge_and_gap (void)
{
  AdbscopeChartBucket b[40];
  AdbscopeChartColumn col[40];

  for (guint c = 0; c < G_N_ELEMENTS (b); c++)
    b[c] = (AdbscopeChartBucket) { NAN, NAN, NAN, NAN, 0, 0, FALSE };
  /* 10 at column 0, 30 at column 10: empty columns between */
  b[0] = (AdbscopeChartBucket) { 10, 10, 10, 10, 10, 1, FALSE };
  b[10] = (AdbscopeChartBucket) { 30, 30, 30, 30, 30, 1, FALSE };
  /* a gap, then a lone sample, a gap, and a column holding 0 … 50 */
  for (guint c = 11; c < 20; c++)
    b[c].gap = TRUE;
  b[20] = (AdbscopeChartBucket) { 40, 40, 40, 40, 40, 1, FALSE };
  b[21].gap = TRUE;
  b[30] = (AdbscopeChartBucket) { 0, 50, 20, 50, 70, 3, FALSE };

  adbscope_chart_line_columns (b, G_N_ELEMENTS (b), 100, 0, 100, col);

  /* from y 90 at x 0.5 to y 70 at x 10.5: 2 px a column */
  g_assert_cmpfloat_with_epsilon (col[0].top, 89, 1e-4);
  g_assert_cmpfloat_with_epsilon (col[0].bottom, 90, 1e-4);
  for (guint c = 1; c < 10; c++)
    {
      g_assert_cmpfloat_with_epsilon (col[c].top, 90 - 1 - 2.0 * c, 1e-4);
      g_assert_cmpfloat_with_epsilon (col[c].bottom, 90 + 1 - 2.0 * c, 1e-4);
    }
  g_assert_cmpfloat_with_epsilon (col[10].top, 70, 1e-4);
  g_assert_cmpfloat_with_epsilon (col[10].bottom, 71, 1e-4);
  /* nothing in the gap, nor bridged across it */
  for (guint c = 11; c < 20; c++)
    g_assert_cmpfloat (col[c].top, >, col[c].bottom);
  g_assert_cmpfloat (col[20].top, ==, 60);
  g_assert_cmpfloat (col[20].bottom, ==, 60);
  for (guint c = 21; c < 30; c++)
    g_assert_cmpfloat (col[c].top, >, col[c].bottom);
  /* a column's min and max, whatever its first and last */
  g_assert_cmpfloat (col[30].top, ==, 50);
  g_assert_cmpfloat (col[30].bottom, ==, 100);
  for (guint c = 31; c < G_N_ELEMENTS (col); c++)
    g_assert_cmpfloat (col[c].top, >, col[c].bottom);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart-bucket/spike-every-width", test_bucket_spike_every_width);
  g_test_add_func ("/chart-bucket/ramp-min-max", test_bucket_ramp_min_max);
  g_test_add_func ("/chart-bucket/nan-gap", test_bucket_nan_gap);
  g_test_add_func ("/chart-bucket/all-nan", test_bucket_all_nan);
  g_test_add_func ("/chart-bucket/missing-by-distance", test_bucket_missing_by_distance);
  g_test_add_func ("/chart-bucket/interval-changes", test_bucket_interval_changes);
  g_test_add_func ("/chart-bucket/stretch-across-edges", test_bucket_stretch_across_edges);
  g_test_add_func ("/chart-bucket/degenerate", test_bucket_degenerate);
  g_test_add_func ("/chart-columns/spike-every-width", test_columns_spike_every_width);
  g_test_add_func ("/chart-columns/bridge-and-gap", test_columns_bridge_and_gap);
  g_test_add_func ("/chart-ticks/nice-step", test_ticks_nice_step);
  g_test_add_func ("/chart-ticks/time-labels", test_ticks_time_labels);
  g_test_add_func ("/chart-ticks/no-gap-in-the-middle", test_ticks_no_gap_in_the_middle);
  g_test_add_func ("/chart-ticks/value-labels", test_ticks_value_labels);
  g_test_add_func ("/chart-ticks/units", test_ticks_units);

  return g_test_run ();
}
