/* Every number checked against the truth: the session against the real
 * /proc of the simulated device's processes, read by the test itself.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

typedef struct
{
  int    pid;
  gint64 time_us;
  double rss_kb;
} RssPoint;

typedef struct
{
  guint      samples;
  GArray    *app_pct;      /* double, finite values only */
  GArray    *all_app_pct;  /* double, including NaN */
  gint64     last_time_us;
  double     app_pct_wsum; /* app_pct × its interval, samples 2… */
  double     app_pct_span; /* µs */
  guint64    app_ticks0, total_ticks0;
  guint64    app_ticks1, total_ticks1;
  GPid       pid;
  guint      want_samples;
  GMainLoop *loop;
  GArray    *rss;          /* RssPoint, every fast sample of a running app */
  char      *thread_name;
  double     thread_max;
  double     thread_sum;
  guint      thread_n;
  /* With gfx_dev set: the app's frame counter and the device's uptime read
   * by the test at the first and the last sample (the window measured). */
  AdbscopeTestDevice *gfx_dev;
  gint64     gfx_f0, gfx_f1;
  double     gfx_u0, gfx_u1;
  gint64     gfx_t0, gfx_t1;   /* host monotonic µs, middle of those reads */
} Watch;

static gint64 gfx_total_frames (AdbscopeTestDevice *dev,
                                double             *uptime_s);

static guint64
read_total_ticks (void)
{
  g_autofree char *text = NULL;
  guint64 v[10] = { 0 }, sum = 0;

  g_assert_true (g_file_get_contents ("/proc/stat", &text, NULL, NULL));
  sscanf (text, "cpu %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
          " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
          &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  for (guint i = 0; i < 8; i++)
    sum += v[i];
  return sum;
}

static guint64
read_app_ticks (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) f = NULL;
  const char *rp;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  rp = strrchr (text, ')');
  f = g_strsplit (rp + 2, " ", -1);
  /* after "pid (comm) ": state is f[0]; utime is field 14 → f[11], stime f[12] */
  return g_ascii_strtoull (f[11], NULL, 10) + g_ascii_strtoull (f[12], NULL, 10);
}

static void
on_sample (AdbscopeSession          *session,
           const AdbscopeFastSample *s,
           Watch                    *w)
{
  w->samples++;
  g_array_append_val (w->all_app_pct, s->app_pct);
  if (s->app_running && isfinite (s->app_rss_kb))
    {
      RssPoint p = { s->pid, s->time_us, s->app_rss_kb };
      g_array_append_val (w->rss, p);
    }
  if (w->samples == 1 && w->gfx_dev != NULL)
    {
      gint64 before = g_get_monotonic_time ();

      w->gfx_f0 = gfx_total_frames (w->gfx_dev, &w->gfx_u0);
      w->gfx_t0 = (before + g_get_monotonic_time ()) / 2;
    }
  if (w->samples == 1 && w->pid)
    {
      w->app_ticks0 = read_app_ticks (w->pid);
      w->total_ticks0 = read_total_ticks ();
    }
  else if (w->samples > 1 && isfinite (s->app_pct))
    {
      g_array_append_val (w->app_pct, s->app_pct);
      w->app_pct_wsum += s->app_pct * (s->time_us - w->last_time_us);
      w->app_pct_span += s->time_us - w->last_time_us;
    }
  w->last_time_us = s->time_us;
  if (w->thread_name != NULL && s->threads != NULL)
    for (guint i = 0; i < s->threads->len; i++)
      {
        const AdbscopeThreadUsage *t = &g_array_index (s->threads, AdbscopeThreadUsage, i);
        if ((w->thread_name[0] == '\0' || g_str_equal (t->comm, w->thread_name)) && isfinite (t->pct))
          {
            w->thread_max = MAX (w->thread_max, t->pct);
            w->thread_sum += t->pct;
            w->thread_n++;
          }
      }
  if (w->samples == w->want_samples)
    {
      if (w->pid)
        {
          w->app_ticks1 = read_app_ticks (w->pid);
          w->total_ticks1 = read_total_ticks ();
        }
      if (w->gfx_dev != NULL)
        {
          gint64 before = g_get_monotonic_time ();

          w->gfx_f1 = gfx_total_frames (w->gfx_dev, &w->gfx_u1);
          w->gfx_t1 = (before + g_get_monotonic_time ()) / 2;
        }
      g_main_loop_quit (w->loop);
    }
}

static void
started_cb (GObject *o, GAsyncResult *r, gpointer data)
{
  g_autoptr(GError) error = NULL;

  adbscope_session_start_finish (ADBSCOPE_SESSION (o), r, &error);
  g_assert_no_error (error);
}

static AdbscopeSession *
start_session (AdbscopeTestDevice *dev,
               const char         *package,
               Watch              *w)
{
  AdbscopeSession *session = adbscope_session_new (adbscope_test_device_get_serial (dev), package);

  w->loop = g_main_loop_new (NULL, FALSE);
  w->app_pct = g_array_new (FALSE, FALSE, sizeof (double));
  w->all_app_pct = g_array_new (FALSE, FALSE, sizeof (double));
  w->rss = g_array_new (FALSE, FALSE, sizeof (RssPoint));
  g_signal_connect (session, "sample", G_CALLBACK (on_sample), w);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  return session;
}

static void
watch_clear (Watch *w)
{
  g_main_loop_unref (w->loop);
  g_array_unref (w->app_pct);
  g_array_unref (w->all_app_pct);
  g_array_unref (w->rss);
}

/* The test's own least squares of RSS over minutes for one pid. */
static double
rss_slope_of (GArray *rss,
              int     pid,
              double *span_s)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  gint64 t0 = -1, t1 = 0;
  guint k = 0;

  for (guint i = 0; i < rss->len; i++)
    {
      RssPoint *p = &g_array_index (rss, RssPoint, i);
      double x;

      if (p->pid != pid)
        continue;
      if (t0 < 0)
        t0 = p->time_us;
      t1 = p->time_us;
      x = (p->time_us - t0) / 60e6;
      sx += x; sy += p->rss_kb; sxx += x * x; sxy += x * p->rss_kb;
      k++;
    }
  *span_s = (t1 - t0) / 1e6;
  return k < 2 ? NAN : (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* The app's CPU over samples 2… of the run, each interval weighted by its
 * length: the share of the whole window, as the truth read at the first
 * and the last sample is (on a loaded host the intervals differ). */
static double
app_pct_over_window (const Watch *w)
{
  return w->app_pct_span > 0 ? w->app_pct_wsum / w->app_pct_span : NAN;
}

/* App CPU over 20 s against our own before/after read of /proc. */
static void
test_app_cpu_matches_proc (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Watch w = { 0 };
  double truth, measured;

  g_assert_no_error (error);
  w.pid = adbscope_test_device_get_app_pid (dev, ADBSCOPE_DEMO_PACKAGE);
  g_assert_cmpint (w.pid, >, 0);
  w.want_samples = 21;
  session = start_session (dev, ADBSCOPE_DEMO_PACKAGE, &w);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  truth = 100.0 * (w.app_ticks1 - w.app_ticks0) / (double) (w.total_ticks1 - w.total_ticks0);
  measured = app_pct_over_window (&w);
  g_test_message ("app CPU: adbscope %.2f %%, /proc %.2f %% over %u samples", measured, truth, w.app_pct->len);
  g_assert_cmpuint (w.app_pct->len, ==, 20);
  g_assert_cmpfloat (fabs (measured - truth), <=, 1.0);
  watch_clear (&w);
}

/* A busy loop in one thread: ≈ 100/ncores % of the device, ≈ 100 % of one core. */
static void
test_busy_loop (void)
{
  const char *args[] = { "--app", "com.example.busy=sh -c 'while :; do :; done'", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Watch w = { 0 };
  long ncores = sysconf (_SC_NPROCESSORS_ONLN);
  double truth, measured;
  GListModel *threads;

  g_assert_no_error (error);
  w.pid = adbscope_test_device_get_app_pid (dev, "com.example.busy");
  g_assert_cmpint (w.pid, >, 0);
  w.want_samples = 7;
  w.thread_name = g_strdup ("");   /* its only thread, whatever the shell calls it */
  w.thread_max = 0;
  session = start_session (dev, "com.example.busy", &w);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  truth = 100.0 * (w.app_ticks1 - w.app_ticks0) / (double) (w.total_ticks1 - w.total_ticks0);
  measured = app_pct_over_window (&w);
  g_test_message ("busy loop: app %.1f %% of the device (truth %.1f %%; a whole core is %.1f %%), "
                  "thread %.1f %% of one core on average, max %.1f %%",
                  measured, truth, 100.0 / ncores, w.thread_sum / MAX (w.thread_n, 1), w.thread_max);
  g_assert_cmpfloat (fabs (measured - truth), <=, 1.0);
  g_assert_cmpuint (w.thread_n, >=, 5);
  /* A thread is a share of one core, the app a share of all of them: the
   * same work reads ncores times larger on the thread.  (How much of a
   * core the loop gets depends on what else the machine runs; on an idle
   * machine it is all of it, ≈ 100 % and ≈ 100/ncores %.) */
  g_assert_cmpfloat (fabs (measured * ncores - w.thread_sum / w.thread_n), <=, 5.0);
  /* The loop's own share is the kernel's to give (another test or a
   * compile on this 2-core machine takes its part): the truth above is what
   * the numbers are held to; this only says the loop was seen busy. */
  g_assert_cmpfloat (w.thread_sum / w.thread_n, >=, 10.0);
  g_assert_cmpfloat (w.thread_max, <=, 102.0);
  g_assert_cmpfloat (measured, <=, 100.0 / ncores + 1.0);

  threads = adbscope_session_get_threads (session);
  g_assert_cmpuint (g_list_model_get_n_items (threads), ==, 1);
  g_free (w.thread_name);
  watch_clear (&w);
}

static gint64
gfx_total_frames (AdbscopeTestDevice *dev,
                  double             *uptime_s)
{
  g_autofree char *out = adbscope_test_device_adb (dev, NULL, "shell",
                                                   "dumpsys gfxinfo " ADBSCOPE_DEMO_PACKAGE, NULL);
  g_autoptr(AdbscopeGfxinfo) info = adbscope_gfxinfo_parse (out, -1, NULL);
  AdbscopeGfxinfoProcess *p;

  g_assert_nonnull (info);
  p = adbscope_gfxinfo_find_process (info, ADBSCOPE_DEMO_PACKAGE);
  g_assert_nonnull (p);
  *uptime_s = info->uptime_ms / 1000.0;
  return p->stats.total_frames;
}

/* FPS within ±1 of the app's real rate over the same window, never above
 * refresh + 2.  The truth is the app's frame counter read by the test at
 * the first and the last sample, and it is held against the FPS of the
 * intervals between those two samples, weighted by their length: on a
 * loaded host the app's rate changes over a run (it misses frames when it
 * gets no CPU), so a truth over another window (from before the session
 * started to after it stopped) differs by more than the tolerance. */
static void
test_fps (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("tablet-13", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Watch w = { 0 };
  AdbscopeSeries *fps;
  AdbscopeSeriesStats st;
  double truth, sum = 0, span = 0, measured;
  gint64 prev_us = -1;

  g_assert_no_error (error);
  w.want_samples = 11;
  w.gfx_dev = dev;
  session = start_session (dev, ADBSCOPE_DEMO_PACKAGE, &w);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  truth = (w.gfx_f1 - w.gfx_f0) / (w.gfx_u1 - w.gfx_u0);
  fps = adbscope_session_get_series (session, ADBSCOPE_SERIES_FPS);
  g_assert_true (adbscope_series_compute_stats (fps, &st));
  /* Each FPS value is the rate since the previous sample: the measured
   * rate over the truth's window is their mean weighted by how much of
   * each interval lies in that window. */
  for (guint i = 0; i < adbscope_series_get_length (fps); i++)
    {
      const AdbscopeSample *s = adbscope_series_get (fps, i);
      gint64 from = MAX (prev_us, w.gfx_t0), to = MIN (s->time_us, w.gfx_t1);

      if (prev_us >= 0 && to > from && isfinite (s->value))
        {
          sum += s->value * (to - from);
          span += to - from;
        }
      prev_us = s->time_us;
    }
  g_assert_cmpfloat (span, >, 0);
  measured = sum / span;
  g_test_message ("FPS: adbscope avg %.2f (over the truth's window %.2f, %.1f s) max %.2f, "
                  "truth %.2f over %.1f s, refresh %.1f Hz",
                  st.avg, measured, span / 1e6, st.max, truth, w.gfx_u1 - w.gfx_u0,
                  adbscope_session_get_refresh_rate (session));
  g_assert_cmpfloat (fabs (adbscope_session_get_refresh_rate (session) - 90.0), <, 0.1);
  g_assert_cmpuint (st.n, >=, 8);
  /* at least most of the window was covered by FPS samples */
  g_assert_cmpfloat (span / 1e6, >=, 0.7 * (w.gfx_u1 - w.gfx_u0));
  g_assert_cmpfloat (fabs (measured - truth), <=, 1.0);
  g_assert_cmpfloat (st.max, <=, 90.0 + 2.0);
  g_assert_cmpfloat (st.avg, >, 60.0);
  watch_clear (&w);
}

typedef struct
{
  AdbscopeTestDevice *dev;
  const char         *line;
} Control;

static gboolean
send_control (gpointer data)
{
  Control *c = data;

  adbscope_test_device_control (c->dev, c->line);
  return G_SOURCE_REMOVE;
}

/* Kill and restart the app mid-run: one restart, no negative or phantom CPU. */
static void
test_restart (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Control kill = { NULL, "kill-app " ADBSCOPE_DEMO_PACKAGE };
  Control start = { NULL, "start-app " ADBSCOPE_DEMO_PACKAGE };
  Watch w = { 0 };
  guint n_nan = 0;

  g_assert_no_error (error);
  kill.dev = start.dev = dev;
  w.want_samples = 10;
  session = start_session (dev, ADBSCOPE_DEMO_PACKAGE, &w);
  g_timeout_add (3500, send_control, &kill);
  g_timeout_add (5500, send_control, &start);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  for (guint i = 0; i < adbscope_session_get_pids (session)->len; i++)
    g_test_message ("pid %" G_GINT64_FORMAT, g_array_index (adbscope_session_get_pids (session), gint64, i));
  for (guint i = 0; i < w.all_app_pct->len; i++)
    g_test_message ("app_pct[%u] = %.2f", i, g_array_index (w.all_app_pct, double, i));
  g_assert_cmpuint (adbscope_session_get_restarts (session), ==, 1);
  g_assert_cmpuint (adbscope_session_get_pids (session)->len, ==, 2);
  for (guint i = 0; i < w.all_app_pct->len; i++)
    {
      double v = g_array_index (w.all_app_pct, double, i);

      if (isnan (v))
        n_nan++;
      else
        {
          g_assert_cmpfloat (v, >=, 0.0);
          g_assert_cmpfloat (v, <=, 100.0);
        }
    }
  /* The first sample, the ones while it was dead and the one at the new
   * process have no delta: NaN, not 0 and not a jump. */
  g_assert_cmpuint (n_nan, >=, 3);

  /* Memory growth is per process: the slope over the longest one, never
   * a line drawn across the restart. */
  {
    g_autoptr(JsonNode) report = adbscope_report_build (session, NULL);
    const GArray *pids = adbscope_session_get_pids (session);
    double best_span = -1, expected = NAN, reported;

    for (guint i = 0; i < pids->len; i++)
      {
        double span, slope = rss_slope_of (w.rss, (int) g_array_index (pids, gint64, i), &span);

        g_test_message ("pid %" G_GINT64_FORMAT ": RSS %.1f kB/min over %.1f s",
                        g_array_index (pids, gint64, i), slope, span);
        if (span > best_span)
          {
            best_span = span;
            expected = slope;
          }
      }
    reported = json_node_get_double (adbscope_report_lookup (report, "memory.app_rss_kb.growth_per_min"));
    g_test_message ("reported %.1f kB/min, expected %.1f", reported, expected);
    g_assert_true (isfinite (expected));
    g_assert_cmpfloat (fabs (reported - expected), <=, 1e-6 * fabs (expected) + 1e-3);
  }
  watch_clear (&w);
}

/* A 7 s stall shows as gaps in the samples and in the report.  The phone
 * reads on time and its answer is held, and a sample's time is the middle
 * of its round trip, so the stall is split between the two intervals
 * around the held answer (3.5 s + one interval each): each is a gap from
 * one sample to the next. */
static void
test_stall_gap (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(JsonNode) report = NULL;
  Control stall = { NULL, "stall 7000" };
  Watch w = { 0 };
  JsonArray *gap_list;
  AdbscopeSeries *cpu;
  const GArray *gaps;
  double total = 0;

  g_assert_no_error (error);
  stall.dev = dev;
  w.want_samples = 8;
  session = start_session (dev, ADBSCOPE_DEMO_PACKAGE, &w);
  g_timeout_add (2500, send_control, &stall);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  /* A gap runs from one sample to the next: the series has both ends and
   * nothing between them. */
  gaps = adbscope_session_get_gaps (session);
  g_assert_cmpuint (gaps->len, >=, 1);
  g_assert_cmpuint (gaps->len, <=, 2);
  cpu = adbscope_session_get_series (session, ADBSCOPE_SERIES_CPU_APP);
  for (guint k = 0; k < gaps->len; k++)
    {
      const AdbscopeGap *gap = &g_array_index (gaps, AdbscopeGap, k);
      gboolean at_start = FALSE, at_end = FALSE;

      for (guint i = 0; i < adbscope_series_get_length (cpu); i++)
        {
          gint64 t = adbscope_series_get (cpu, i)->time_us;

          g_assert_false (t > gap->start_us && t < gap->end_us);
          at_start |= t == gap->start_us;
          at_end |= t == gap->end_us;
        }
      g_assert_true (at_start && at_end);
    }

  report = adbscope_report_build (session, NULL);
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "run.gaps")), ==, gaps->len);
  gap_list = json_node_get_array (adbscope_report_lookup (report, "run.gap_list"));
  for (guint k = 0; k < gaps->len; k++)
    {
      double d = json_object_get_double_member (json_array_get_object_element (gap_list, k), "duration_s");

      g_test_message ("gap of %.2f s", d);
      g_assert_cmpfloat (d, >=, 3.0);
      total += d;
    }
  /* the held 7 s and at most the two intervals around them */
  g_assert_cmpfloat (total, <=, 7.0 + 2 * 1.5 + 1.0);
  watch_clear (&w);
}

typedef struct
{
  double uptime_s, dt_s, window_s, system_pct, app_pct;
} StallRow;

typedef struct
{
  GArray    *fast;     /* StallRow */
  guint      want;
  GMainLoop *loop;
  GPid       pid;
  guint64    app_ticks0, total_ticks0;
  guint64    app_ticks1, total_ticks1;
} StallWatch;

static void
on_stall_sample (AdbscopeSession          *session,
                 const AdbscopeFastSample *s,
                 StallWatch               *w)
{
  StallRow row = { s->uptime_s, s->dt_s, s->window_s, s->system_pct, s->app_pct };

  g_array_append_val (w->fast, row);
  /* Truth from the second read on: samples 3… cover that span. */
  if (w->fast->len == 2)
    {
      w->app_ticks0 = read_app_ticks (w->pid);
      w->total_ticks0 = read_total_ticks ();
    }
  if (w->fast->len == w->want)
    {
      w->app_ticks1 = read_app_ticks (w->pid);
      w->total_ticks1 = read_total_ticks ();
      g_main_loop_quit (w->loop);
    }
}

static gboolean
sigstop_sim (gpointer data)
{
  kill (adbscope_test_device_get_pid (data), SIGSTOP);
  return G_SOURCE_REMOVE;
}

static gboolean
sigcont_sim (gpointer data)
{
  kill (adbscope_test_device_get_pid (data), SIGCONT);
  return G_SOURCE_REMOVE;
}

/* A phone that stops answering for 2.5 s (less than a gap), by the sim's
 * `stall` control (its answers held) or SIGSTOP (it reads nothing either):
 * the samples around it are real numbers or NaN, never noise from two reads
 * milliseconds apart.  The seed rule: after a slow command the next read
 * waits a whole interval; the delta rule: a window shorter than
 * ADBSCOPE_DELTA_MIN_WINDOW_S is NaN. */
static void
stall_run (const char *how)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Control stall = { NULL, "stall 2500" };
  StallWatch w = { 0 };
  AdbscopeSeries *fps;
  double refresh, sum = 0, span = 0, truth;
  guint short_reads = 0;

  g_assert_no_error (error);
  stall.dev = dev;
  w.fast = g_array_new (FALSE, FALSE, sizeof (StallRow));
  w.loop = g_main_loop_new (NULL, FALSE);
  w.want = 9;
  w.pid = adbscope_test_device_get_app_pid (dev, ADBSCOPE_DEMO_PACKAGE);
  session = adbscope_session_new (adbscope_test_device_get_serial (dev), ADBSCOPE_DEMO_PACKAGE);
  g_signal_connect (session, "sample", G_CALLBACK (on_stall_sample), &w);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  if (g_str_equal (how, "stall"))
    g_timeout_add (3300, send_control, &stall);
  else
    {
      g_timeout_add (3300, sigstop_sim, dev);
      g_timeout_add (5800, sigcont_sim, dev);
    }
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);
  refresh = adbscope_session_get_refresh_rate (session);

  for (guint i = 0; i < w.fast->len; i++)
    {
      StallRow *r = &g_array_index (w.fast, StallRow, i);

      g_test_message ("%s: uptime %.3f dt %.3f system %.1f %% app %.1f %%",
                      how, r->uptime_s, r->dt_s, r->system_pct, r->app_pct);
      if (i > 0 && r->dt_s < 0.5)
        short_reads++;
      /* A delta over a window too short for 1/100 s ticks is NaN (its
       * ticks go to the next sample, whose window covers both). */
      if (!isfinite (r->window_s))
        {
          g_assert_true (isnan (r->system_pct));
          g_assert_true (isnan (r->app_pct));
        }
      if (isfinite (r->window_s))
        g_assert_cmpfloat (r->window_s, >=, ADBSCOPE_DELTA_MIN_WINDOW_S - 1e-9);
      if (isfinite (r->system_pct))
        g_assert_cmpfloat (r->system_pct, <=, 100.0);
      if (i >= 2)
        {
          g_assert_true (isfinite (r->app_pct));
          sum += r->app_pct * r->window_s;
          span += r->window_s;
        }
    }
  /* No near-duplicate read: every device read is at least half an interval
   * after the one before. */
  g_assert_cmpuint (short_reads, ==, 0);
  /* And the numbers are the kernel's: app CPU weighted by each window
   * against the test's own read of /proc over the same samples. */
  truth = 100.0 * (w.app_ticks1 - w.app_ticks0) / (double) (w.total_ticks1 - w.total_ticks0);
  g_test_message ("%s: app %.2f %% over %.1f s, /proc %.2f %%", how, sum / span, span, truth);
  g_assert_cmpfloat (fabs (sum / span - truth), <=, 1.0);

  fps = adbscope_session_get_series (session, ADBSCOPE_SERIES_FPS);
  for (guint i = 0; i < adbscope_series_get_length (fps); i++)
    {
      double v = adbscope_series_get (fps, i)->value;

      if (isfinite (v))
        g_assert_cmpfloat (v, <=, refresh + 2.0);
    }
  g_array_unref (w.fast);
  g_main_loop_unref (w.loop);
}

static void
test_short_stall_control (void)
{
  stall_run ("stall");
}

static void
test_short_stall_sigstop (void)
{
  stall_run ("sigstop");
}

typedef struct
{
  GPid       pid;
  GMainLoop *loop;
  guint      n, n_null, want;
  gboolean   started;
  guint64    ticks0, ticks1;
  double     cpu_s;       /* Σ app_pct/100 × cores × window_s */
  double     span_s;      /* Σ window_s */
} CarryWatch;

static void
on_carry_sample (AdbscopeSession          *session,
                 const AdbscopeFastSample *s,
                 CarryWatch               *w)
{
  long ncores = sysconf (_SC_NPROCESSORS_ONLN);

  w->n++;
  if (!w->started)
    {
      /* The baseline of the next delta: from here on every tick of the
       * app is in some sample's window. */
      if (w->n >= 2 && isfinite (s->app_pct))
        {
          w->ticks0 = read_app_ticks (w->pid);
          w->started = TRUE;
          w->n = 0;
        }
      return;
    }
  if (!isfinite (s->app_pct))
    {
      w->n_null++;
      return;
    }
  g_assert_true (isfinite (s->window_s));
  w->cpu_s += s->app_pct / 100.0 * ncores * s->window_s;
  w->span_s += s->window_s;
  /* End on a sample that was measured, so no tick is left in a carry. */
  if (w->n >= w->want)
    {
      w->ticks1 = read_app_ticks (w->pid);
      g_main_loop_quit (w->loop);
    }
}

/* At 100 ms a sample's window is often under ten ticks (too short to
 * measure): its CPU is NaN and its ticks are carried into the next sample,
 * never lost.  The app's CPU time added up from the samples (pct × cores
 * × window) equals the kernel's own utime + stime of the process over the
 * same span. */
static void
test_cpu_carried_at_100ms (void)
{
  const char *args[] = { "--app", "com.example.busy=sh -c 'while :; do :; done'", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  CarryWatch w = { 0 };
  double truth_s;

  g_assert_no_error (error);
  w.pid = adbscope_test_device_get_app_pid (dev, "com.example.busy");
  g_assert_cmpint (w.pid, >, 0);
  w.want = 100;
  w.loop = g_main_loop_new (NULL, FALSE);
  session = adbscope_session_new (adbscope_test_device_get_serial (dev), "com.example.busy");
  adbscope_session_set_interval (session, 100);
  g_signal_connect (session, "sample", G_CALLBACK (on_carry_sample), &w);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  truth_s = (w.ticks1 - w.ticks0) / 100.0;
  g_test_message ("100 ms: %u samples, %u null (%.0f %%); app CPU %.2f s from the samples over %.2f s, "
                  "/proc %.2f s", w.n, w.n_null, 100.0 * w.n_null / MAX (w.n, 1), w.cpu_s, w.span_s, truth_s);
  g_assert_cmpfloat (truth_s, >, 1.0);
  /* Tick resolution: one tick at each end, and the all-core tick count of
   * each window against cores × window (a few per cent). */
  g_assert_cmpfloat (fabs (w.cpu_s - truth_s), <=, 0.02 + 0.05 * truth_s);
  g_main_loop_unref (w.loop);
}

/* Threads named with a newline, or cut by the kernel's 15-byte limit in
 * the middle of a CJK character: both are listed, bytes replaced, and the
 * other threads are still there. */
static void
test_odd_thread_names (void)
{
  const char *args[] = {
    "--app", "com.example.names=/usr/bin/python3 -c '"
    "import threading, time\n"
    "def run(name):\n"
    "    open(\"/proc/self/task/%d/comm\" % threading.get_native_id(), \"wb\").write(name)\n"
    "    time.sleep(3600)\n"
    "for n in (b\"line\\nbreak\", \"a渲染线程工作\".encode()[:15], b\"plain\"):\n"
    "    threading.Thread(target=run, args=(n,), daemon=True).start()\n"
    "time.sleep(3600)\n'",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  Watch w = { 0 };
  GListModel *threads;
  gboolean newline = FALSE, cut = FALSE, plain = FALSE;

  g_assert_no_error (error);
  w.pid = adbscope_test_device_get_app_pid (dev, "com.example.names");
  g_assert_cmpint (w.pid, >, 0);
  w.want_samples = 4;
  session = start_session (dev, "com.example.names", &w);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  threads = adbscope_session_get_threads (session);
  for (guint i = 0; i < g_list_model_get_n_items (threads); i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, i);
      const char *name = adbscope_thread_get_name (t);

      g_test_message ("thread %d “%s”", adbscope_thread_get_tid (t), name);
      g_assert_true (g_utf8_validate (name, -1, NULL));
      newline |= g_str_equal (name, "line?break");
      cut |= g_str_has_prefix (name, "a渲染线程") && strlen (name) > strlen ("a渲染线程");
      plain |= g_str_equal (name, "plain");
    }
  g_assert_cmpuint (g_list_model_get_n_items (threads), ==, 4);
  g_assert_true (newline);
  g_assert_true (cut);
  g_assert_true (plain);
  watch_clear (&w);
}

/* legacy-8: PSI, cpufreq and thermal not supported, with reasons, never zero. */
static void
test_legacy_unsupported (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("legacy-8", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(JsonNode) report = NULL;
  Watch w = { 0 };
  static const char * const keys[] = { "psi", "cpufreq", "thermal" };
  static const char * const empty[] = {
    "memory.psi_some_avg10.avg", "memory.psi_full_avg10.avg", "cpu.app_norm_pct.avg",
    "cpu.system_norm_pct.avg", "thermal.max_temp_c.avg", "thermal.status.avg",
  };

  if (adbscope_test_device_skip_if_unsupported (error))
    return;
  g_assert_no_error (error);
  w.want_samples = 4;
  session = start_session (dev, ADBSCOPE_DEMO_PACKAGE, &w);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);
  report = adbscope_report_build (session, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *sup = g_strdup_printf ("sources.%s.supported", keys[i]);
      g_autofree char *why = g_strdup_printf ("sources.%s.reason", keys[i]);
      JsonNode *reason = adbscope_report_lookup (report, why);

      g_assert_false (json_node_get_boolean (adbscope_report_lookup (report, sup)));
      g_assert_true (JSON_NODE_HOLDS_VALUE (reason));
      g_assert_cmpuint (strlen (json_node_get_string (reason)), >, 10);
    }
  for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
    g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, empty[i])));
  /* The supported ones have data. */
  g_assert_true (json_node_get_boolean (adbscope_report_lookup (report, "sources.frames.supported")));
  g_assert_false (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "cpu.app_pct.avg")));
  g_assert_cmpint (json_node_get_int (adbscope_report_lookup (report, "device.sdk")), ==, 26);
  watch_clear (&w);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record/truth/app-cpu-matches-proc", test_app_cpu_matches_proc);
  g_test_add_func ("/record/truth/busy-loop", test_busy_loop);
  g_test_add_func ("/record/truth/fps", test_fps);
  g_test_add_func ("/record/truth/restart", test_restart);
  g_test_add_func ("/record/truth/stall-gap", test_stall_gap);
  g_test_add_func ("/record/truth/short-stall-control", test_short_stall_control);
  g_test_add_func ("/record/truth/odd-thread-names", test_odd_thread_names);
  g_test_add_func ("/record/truth/short-stall-sigstop", test_short_stall_sigstop);
  g_test_add_func ("/record/truth/legacy-unsupported", test_legacy_unsupported);
  g_test_add_func ("/record/truth/cpu-carried-at-100ms", test_cpu_carried_at_100ms);
  return g_test_run ();
}
