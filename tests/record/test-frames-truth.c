/* Frames from SurfaceFlinger against the truth: the game demo's own record
 * of the frames it presented (its shared state, read by the test), at the
 * profiles' 60, 90 and 120 Hz; a static screen; a read gap longer than
 * the layer's history.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "adbscope-core.h"
#include "adbscope-sim-app-state.h"
#include "adbscope-test-device.h"

#define GAME ADBSCOPE_DEMO_GAME_PACKAGE

typedef struct
{
  AdbscopeTestDevice *dev;
  AdbscopeSession    *session;
  GMainLoop          *loop;
  guint               want;        /* finite FPS samples to wait for */
  guint               seen;
  gint64              last_time_us;
  gint64              first_time_us;
  double              truth0_s, truth1_s;
  guint64             truth0, truth1;
  gint64              counted0, counted1;   /* the session's SurfaceFlinger frame count */
  gint64              total0, total1;       /* its frame totals (frames.total) */
  const char         *control;     /* sent after control_after samples */
  guint               control_after;
} Run;

static gint64
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Frames the game really had on screen at @at_ns (CLOCK_MONOTONIC: the
 * sim's clock is ours), from its ring of the last 128 frames; at_ns < 0
 * means now.  A sample's own time (the middle of its round trip) is the
 * moment its dump was taken, give or take half a round trip, so the
 * truth is read at the same moments the session counted up to. */
static guint64
presented_at (Run    *run,
              gint64  at_ns,
              double *when_s)
{
  AdbscopeSimAppState *st = g_new0 (AdbscopeSimAppState, 1);
  gint64 now = at_ns >= 0 ? at_ns : monotonic_ns ();
  guint64 n;

  g_assert_true (adbscope_sim_app_state_read (adbscope_test_device_get_sandbox (run->dev), GAME, st));
  /* Walk back from the newest frame over those presented after @now. */
  n = st->sf_presented;
  for (guint64 back = 0; back < MIN (st->sf_presented, (guint64) ADBSCOPE_SIM_SF_RING) &&
                         st->sf_frames[(st->sf_presented - 1 - back) % ADBSCOPE_SIM_SF_RING].actual_present > now;
       back++)
    n--;
  *when_s = now / 1e9;
  g_free (st);
  return n;
}

/* Up to when the session says it counted the frames: the newest moment
 * on the device's clock it counted up to (the sim's CLOCK_MONOTONIC is
 * ours), else the sample's time, which can be half a round trip off (a
 * tenth of a second under load: a dozen frames at 120 Hz). */
static gint64
read_time_ns (Run    *run,
              gint64  sample_time_us)
{
  gint64 device_ns = adbscope_session_get_frames_summary (run->session)->counted_to_ns;

  return device_ns >= 0 ? device_ns : sample_time_us * 1000;
}

static gboolean
poll_cb (gpointer data)
{
  Run *run = data;
  AdbscopeSeries *fps = adbscope_session_get_series (run->session, ADBSCOPE_SERIES_FPS_SURFACEFLINGER);
  gint64 t;
  double v;

  if (!adbscope_series_get_last_finite (fps, &t, &v) || t == run->last_time_us)
    return G_SOURCE_CONTINUE;
  run->last_time_us = t;
  run->seen++;
  if (run->seen == 1)
    {
      run->first_time_us = t;
      run->truth0 = presented_at (run, read_time_ns (run, t), &run->truth0_s);
      run->counted0 = adbscope_session_get_frames_summary (run->session)->frames;
      run->total0 = adbscope_session_get_frame_totals (run->session)->frames;
    }
  if (run->control != NULL && run->seen == run->control_after)
    adbscope_test_device_control (run->dev, run->control);
  if (run->seen == run->want + 1)
    {
      run->truth1 = presented_at (run, read_time_ns (run, t), &run->truth1_s);
      run->counted1 = adbscope_session_get_frames_summary (run->session)->frames;
      run->total1 = adbscope_session_get_frame_totals (run->session)->frames;
      g_main_loop_quit (run->loop);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
timeout_cb (gpointer data)
{
  g_error ("no SurfaceFlinger FPS samples in time");
  return G_SOURCE_REMOVE;
}

static void
started_cb (GObject *o, GAsyncResult *r, gpointer data)
{
  g_autoptr(GError) error = NULL;

  adbscope_session_start_finish (ADBSCOPE_SESSION (o), r, &error);
  g_assert_no_error (error);
}

static void
run_session (Run        *run,
             const char *profile,
             guint       interval_ms)
{
  static const char * const game_args[] = { "--game", NULL };
  g_autoptr(GError) error = NULL;
  guint poll, timeout;

  run->dev = adbscope_test_device_start (profile, game_args, &error);
  g_assert_no_error (error);
  run->session = adbscope_session_new (adbscope_test_device_get_serial (run->dev), GAME);
  adbscope_session_set_interval (run->session, interval_ms);
  run->loop = g_main_loop_new (NULL, FALSE);
  adbscope_session_start_async (run->session, NULL, started_cb, NULL);
  poll = g_timeout_add (5, poll_cb, run);
  timeout = g_timeout_add_seconds (20 + run->want * interval_ms / 400, timeout_cb, NULL);
  g_main_loop_run (run->loop);
  g_source_remove (timeout);
  g_source_remove (poll);
  adbscope_session_stop (run->session);
}

static void
run_clear (Run *run)
{
  g_clear_object (&run->session);
  g_clear_pointer (&run->dev, adbscope_test_device_free);
  g_clear_pointer (&run->loop, g_main_loop_unref);
}

/* Mean of the samples after the first one (the window the truth spans),
 * each weighted by its interval (the time since the sample before it): a
 * rate over the whole window, as the truth is.  On a loaded host the
 * intervals differ, and a plain mean would weigh a short slow one like a
 * long fast one. */
static double
mean_after (AdbscopeSeries *series,
            gint64          after_us,
            guint          *n,
            double         *max)
{
  double sum = 0, span = 0;
  gint64 prev_us = -1;

  *n = 0;
  *max = -INFINITY;
  for (guint i = 0; i < adbscope_series_get_length (series); i++)
    {
      const AdbscopeSample *s = adbscope_series_get (series, i);
      gint64 prev = prev_us;

      prev_us = s->time_us;
      if (s->time_us <= after_us || prev < 0 || !isfinite (s->value))
        continue;
      sum += s->value * (s->time_us - prev);
      span += s->time_us - prev;
      *max = MAX (*max, s->value);
      (*n)++;
    }
  return span > 0 ? sum / span : NAN;
}

/* interval_ms: at 120 Hz the layer's 127 frames last 1.06 s, so a 1 s read
 * that slips under load overruns it (the history-overrun test covers that);
 * this one checks the counting itself. */
static void
check_rate (const char *profile,
            double      refresh,
            guint       interval_ms)
{
  Run run = { .want = 8000 / interval_ms };
  AdbscopeSeries *fps;
  const AdbscopeFramesSummary *sum;
  double truth, counted, avg, max, span;
  guint n;

  run_session (&run, profile, interval_ms);
  span = run.truth1_s - run.truth0_s;
  truth = (run.truth1 - run.truth0) / span;
  counted = (run.counted1 - run.counted0) / span;
  fps = adbscope_session_get_series (run.session, ADBSCOPE_SERIES_FPS);
  avg = mean_after (fps, run.first_time_us, &n, &max);
  sum = adbscope_session_get_frames_summary (run.session);
  g_test_message ("%s: adbscope %.2f fps over the run (%" G_GINT64_FORMAT " frames), mean of %u samples %.2f"
                  " (max %.2f); truth %.2f (%" G_GUINT64_FORMAT " frames); janky %" G_GINT64_FORMAT
                  " jank %" G_GINT64_FORMAT " big %" G_GINT64_FORMAT " lost %u",
                  profile, counted, run.counted1 - run.counted0, n, avg, max, truth, run.truth1 - run.truth0,
                  sum->janky, sum->jank, sum->big_jank, sum->lost_intervals);

  g_assert_cmpuint (n, >=, run.want - 1);
  /* The frames counted over the run: what was presented up to the moment
   * the session says it counted to, within ±1 fps (an overrun's estimate). */
  g_assert_cmpfloat (fabs (counted - truth), <=, 1.0);
  /* The per-interval rates, weighted by their intervals, over the same
   * window (the sample times are the host's, the truth's the device's
   * dump times: they differ by a round trip's jitter). */
  g_assert_cmpfloat (fabs (avg - truth), <=, 2.5);
  g_assert_cmpfloat (max, <=, refresh + 2.0);
  /* The game really drew fast (more than half the refresh: at 120 Hz more
   * than a 60 Hz cap would let through), whatever the load did to it. */
  g_assert_cmpfloat (truth, >, refresh * 0.5);
  /* frames.total counts the same frames: the game's, not HWUI's zero */
  g_assert_cmpfloat (fabs ((run.total1 - run.total0) / span - truth), <=, 1.0);
  {
    g_autoptr(JsonNode) report = adbscope_report_build (run.session, NULL);
    const AdbscopeFrameTotals *totals = adbscope_session_get_frame_totals (run.session);
    JsonNode *source = adbscope_report_lookup (report, "frames.total_source");
    JsonNode *causes = adbscope_report_lookup (report, "frames.causes.missed_vsync");

    g_test_message ("frames.total %" G_GINT64_FORMAT ", janky %" G_GINT64_FORMAT ", janky_pct %.2f",
                    json_node_get_int (adbscope_report_lookup (report, "frames.total")),
                    json_node_get_int (adbscope_report_lookup (report, "frames.janky")),
                    json_node_get_double (adbscope_report_lookup (report, "frames.janky_pct")));
    g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "frames.total")), ==, totals->frames);
    g_assert_cmpint (totals->frames, ==, sum->frames);
    g_assert_cmpint (totals->janky, ==, sum->janky);
    g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "frames.janky")), ==, sum->janky);
    g_assert_true (JSON_NODE_HOLDS_VALUE (adbscope_report_lookup (report, "frames.janky_pct")));
    g_assert_cmpstr (json_node_get_string (source), ==, "surfaceflinger");
    g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "frames.gfxinfo.total")), ==, 0);
    g_assert_true (JSON_NODE_HOLDS_NULL (causes));
  }
  /* the number came from the SurfaceView, and says so */
  g_assert_cmpint (sum->source, ==, ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER);
  g_assert_nonnull (sum->layer);
  g_assert_true (g_str_has_prefix (sum->layer, "SurfaceView"));
  g_assert_cmpint (sum->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO], ==, 0);
  g_assert_cmpfloat (fabs (1e9 / sum->refresh_period_ns - refresh), <, 0.1);
  /* HWUI never saw a frame of the game */
  {
    AdbscopeSeriesStats st = { 0 };

    g_assert_true (adbscope_series_compute_stats (adbscope_session_get_series (run.session, ADBSCOPE_SERIES_FPS_GFXINFO), &st));
    g_assert_cmpfloat (st.max, ==, 0.0);
  }
  run_clear (&run);
}

static void
test_rate_60 (void)
{
  check_rate ("legacy-8", 60.0, 1000);
}

static void
test_rate_90 (void)
{
  check_rate ("tablet-13", 90.0, 1000);
}

static void
test_rate_120 (void)
{
  check_rate ("pixel-14", 120.0, 500);
}

/* The game stops drawing: FPS 0, and the reason is "nothing drawn". */
static void
test_static (void)
{
  Run run = { .want = 7, .control = "frames-off " GAME, .control_after = 3 };
  const AdbscopeFramesSummary *sum;
  AdbscopeSeries *fps;
  g_autofree char *message = NULL;
  guint zeros = 0;

  run_session (&run, "tablet-13", 1000);
  fps = adbscope_session_get_series (run.session, ADBSCOPE_SERIES_FPS);
  for (guint i = 0; i < adbscope_series_get_length (fps); i++)
    zeros += adbscope_series_get (fps, i)->value == 0.0;
  sum = adbscope_session_get_frames_summary (run.session);
  message = adbscope_frames_zero_reason_describe (sum->zero_reason, sum->zero_detail);
  g_test_message ("zeros %u, reason %s: %s", zeros, adbscope_frames_zero_reason_to_key (sum->zero_reason), message);
  g_assert_cmpuint (run.truth1 - run.truth0, <, 400);
  g_assert_cmpuint (zeros, >=, 3);
  g_assert_cmpint (sum->zero_reason, ==, ADBSCOPE_FRAMES_ZERO_STATIC);
  g_assert_nonnull (strstr (message, "static"));
  {
    gint64 t;
    double v;

    g_assert_true (adbscope_series_get_last_finite (fps, &t, &v));
    g_assert_cmpfloat (v, ==, 0.0);
  }
  run_clear (&run);
}

/* Reads 3 s apart at 120 Hz: up to 360 frames each time, 127 in the
 * history (even a game slowed to 45 fps by a loaded machine overruns it). */
static void
test_lost (void)
{
  Run run = { .want = 3 };
  const AdbscopeFramesSummary *sum;
  double truth, avg, max;
  guint n;

  run_session (&run, "pixel-14", 3000);
  truth = (run.truth1 - run.truth0) / (run.truth1_s - run.truth0_s);
  avg = mean_after (adbscope_session_get_series (run.session, ADBSCOPE_SERIES_FPS), run.first_time_us, &n, &max);
  sum = adbscope_session_get_frames_summary (run.session);
  g_test_message ("lost intervals %u, estimated %" G_GINT64_FORMAT " frames; adbscope %.2f fps, truth %.2f",
                  sum->lost_intervals, sum->lost_estimate, avg, truth);
  g_assert_cmpuint (sum->lost_intervals, >=, 2);
  g_assert_cmpint (sum->lost_estimate, >, 100);
  /* Flagged and estimated, not the ~63 fps that counting the history
   * alone gives.  The estimate carries the visible frames' rate over the
   * lost part, so a hitch in either part (the game hitches every 4–7 s)
   * moves it a few fps. */
  g_assert_cmpfloat (avg, >=, truth - 6.0);
  g_assert_cmpfloat (fabs (avg - truth), <=, 8.0);
  g_assert_cmpfloat (max, <=, 122.0);
  run_clear (&run);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/frames/truth/surfaceflinger-60hz", test_rate_60);
  g_test_add_func ("/frames/truth/surfaceflinger-90hz", test_rate_90);
  g_test_add_func ("/frames/truth/surfaceflinger-120hz", test_rate_120);
  g_test_add_func ("/frames/truth/static-screen", test_static);
  g_test_add_func ("/frames/truth/history-overrun", test_lost);
  return g_test_run ();
}
