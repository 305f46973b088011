/* bench-gui.c: what the window costs
 *
 *   draw   8 charts × 900 samples each, from scratch: the charts'
 *          snapshot (bucketing, paths, labels into render nodes) and then
 *          the cairo renderer rasterising them; mean and best of 40
 *   live   the window on a simulated device at a 1 s interval for
 *          ADBSCOPE_BENCH_SECONDS (60) while every page takes its turn
 *          on screen: this process's CPU % of one core and its RSS
 *   update the Overview page's work for each "updated" of the view while
 *          it is on screen (measured around the page's own handler during
 *          the fps phase): mean and max in µs, and updates per second
 *   fps    from a frames sample arriving (the frames collector's
 *          "sample") to the Overview's FPS chart drawing again: median
 *          and max over ADBSCOPE_BENCH_FPS_SAMPLES (20) samples, in ms
 *
 * Suite 'benchmark' (not run in CI).  Prints one JSON object.
 */
#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <sys/resource.h>
#include <unistd.h>

#include "adbscope-application.h"
#include "adbscope-chart.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart-private.h"
#include "adbscope-line-layer.h"
#include "adbscope-session-private.h"
#include "adbscope-test-device.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

#define N_CHARTS  8
#define N_SAMPLES 900

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double
rss_mib (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  double pages = 0;

  /* statm: size resident shared … in pages */
  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    {
      fields = g_strsplit (text, " ", -1);
      if (g_strv_length (fields) > 1)
        pages = g_ascii_strtod (fields[1], NULL);
    }
  return pages * (double) sysconf (_SC_PAGESIZE) / (1024 * 1024);
}

static void
bench_draw (double *mean_ms,
            double *best_ms,
            double *snapshot_ms)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  gint64 end = 1000 * (gint64) G_USEC_PER_SEC;
  double total = 0, best = INFINITY, snap_total = 0;
  const int rounds = 40;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_grid_set_column_homogeneous (GTK_GRID (grid), TRUE);
  gtk_grid_set_row_homogeneous (GTK_GRID (grid), TRUE);
  for (guint c = 0; c < N_CHARTS; c++)
    {
      g_autoptr(AdbscopeSeries) series = adbscope_series_new (N_SAMPLES);
      GtkWidget *chart = adbscope_chart_new ();

      for (guint i = 0; i < N_SAMPLES; i++)
        adbscope_series_push (series, end - (N_SAMPLES - 1 - i) * G_USEC_PER_SEC,
                              50 + 40 * sin (i / (10.0 + c)) + (i % 7));
      adbscope_chart_add_layer (ADBSCOPE_CHART (chart), adbscope_line_layer_new (series, "series"));
      adbscope_chart_set_title (ADBSCOPE_CHART (chart), "bench");
      adbscope_chart_set_visible_seconds (ADBSCOPE_CHART (chart), N_SAMPLES);
      gtk_widget_set_hexpand (chart, TRUE);
      gtk_widget_set_vexpand (chart, TRUE);
      gtk_grid_attach (GTK_GRID (grid), chart, c % 2, c / 2, 1, 1);
    }
  gtk_window_set_child (GTK_WINDOW (window), grid);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_spin (500);
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));

  for (int r = 0; r < rounds; r++)
    {
      int w = gtk_widget_get_width (grid);
      int h = gtk_widget_get_height (grid);
      GtkSnapshot *snapshot;
      GskRenderNode *node;
      GdkTexture *texture;
      gint64 t0, t1, t2;

      /* Each round draws from scratch: invalidate every chart's and
       * layer's cached render node, and do not let a frame redraw them
       * before the measurement. */
      for (GtkWidget *c = gtk_widget_get_first_child (grid); c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          adbscope_chart_queue_update (ADBSCOPE_CHART (c));
          gtk_widget_queue_draw (c);
          for (GtkWidget *l = gtk_widget_get_first_child (c); l != NULL; l = gtk_widget_get_next_sibling (l))
            gtk_widget_queue_draw (l);
        }

      t0 = g_get_monotonic_time ();
      snapshot = gtk_snapshot_new ();
      gtk_widget_snapshot_child (window, grid, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      g_assert_nonnull (node);
      t1 = g_get_monotonic_time ();
      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
      t2 = g_get_monotonic_time ();
      gsk_render_node_unref (node);
      g_object_unref (texture);

      snap_total += (t1 - t0) / 1000.0;
      total += (t2 - t0) / 1000.0;
      best = MIN (best, (t2 - t0) / 1000.0);
    }
  gsk_renderer_unrealize (renderer);
  gtk_window_destroy (GTK_WINDOW (window));

  *mean_ms = total / rounds;
  *best_ms = best;
  *snapshot_ms = snap_total / rounds;
}

static gboolean
mode_is (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_mode (data), "session") == 0;
}

static gboolean
apps_loaded (gpointer data)
{
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (data);

  return !adbscope_app_picker_get_loading (picker) &&
         g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) > 0;
}

typedef struct
{
  AdbscopeChart *chart;
  gint64         sample_us;     /* 0: none pending */
  guint          n_snapshots;
  GArray        *delays_ms;
} FpsProbe;

static void
on_frames_sample (AdbscopeCollector *collector,
                  gconstpointer      sample,
                  FpsProbe          *probe)
{
  if (probe->sample_us != 0)
    return;  /* the previous one was not drawn yet: measure from it */
  probe->sample_us = g_get_monotonic_time ();
  probe->n_snapshots = _adbscope_chart_get_n_snapshots (probe->chart);
}

static void
on_after_paint (GdkFrameClock *clock,
                FpsProbe      *probe)
{
  double ms;

  if (probe->sample_us == 0 || _adbscope_chart_get_n_snapshots (probe->chart) == probe->n_snapshots)
    return;
  ms = (_adbscope_chart_get_last_snapshot_us (probe->chart) - probe->sample_us) / 1000.0;
  g_array_append_val (probe->delays_ms, ms);
  probe->sample_us = 0;
}

static int
compare_ms (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static AdbscopeChart *
find_chart (AdbscopePage *page,
            const char   *series)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (page);

  for (guint i = 0; i < cards->len; i++)
    {
      g_autofree char *paths = NULL;

      g_object_get (g_ptr_array_index (cards, i), "series", &paths, NULL);
      if (g_strcmp0 (paths, series) == 0)
        return adbscope_chart_card_get_chart (g_ptr_array_index (cards, i));
    }
  g_assert_not_reached ();
}

typedef struct
{
  gint64  t0;
  double  total_us;
  double  max_us;
  guint   n;
} UpdateTimer;

static void
on_update_start (AdbscopeDataView *view,
                 UpdateTimer      *t)
{
  t->t0 = g_get_monotonic_time ();
}

static void
on_update_end (AdbscopeDataView *view,
               UpdateTimer      *t)
{
  double us = (double) (g_get_monotonic_time () - t->t0);

  t->total_us += us;
  t->max_us = MAX (t->max_us, us);
  t->n++;
}

static void
bench_fps_delay (AdbscopeWindow *window,
                 guint           n,
                 double         *median_ms,
                 double         *max_ms,
                 UpdateTimer    *timer,
                 double         *updates_per_s)
{
  AdbscopeCollector *frames = _adbscope_session_get_collector (_adbscope_window_get_session (window), "frames");
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  FpsProbe probe = { 0 };
  gulong sample_id, paint_id, start_id, end_id;
  gint64 t_start;

  g_assert_nonnull (frames);
  /* The page connects to "updated" when it is mapped: between ours. */
  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "cpu");
  gui_test_spin (300);
  start_id = g_signal_connect (view, "updated", G_CALLBACK (on_update_start), timer);
  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  end_id = g_signal_connect_after (view, "updated", G_CALLBACK (on_update_end), timer);
  gui_test_spin (500);
  timer->n = 0;
  timer->total_us = timer->max_us = 0;
  t_start = g_get_monotonic_time ();
  probe.chart = find_chart (_adbscope_window_get_page (window, "overview"), "frames.fps");
  probe.delays_ms = g_array_new (FALSE, FALSE, sizeof (double));
  sample_id = g_signal_connect (frames, "sample", G_CALLBACK (on_frames_sample), &probe);
  paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &probe);
  for (guint s = 0; s < 4 * n + 10 && probe.delays_ms->len < n; s++)
    gui_test_spin (250);
  g_signal_handler_disconnect (frames, sample_id);
  g_signal_handler_disconnect (clock, paint_id);
  g_signal_handler_disconnect (view, start_id);
  g_signal_handler_disconnect (view, end_id);
  *updates_per_s = timer->n / ((g_get_monotonic_time () - t_start) / 1e6);

  g_assert_cmpuint (probe.delays_ms->len, >, 0);
  g_array_sort (probe.delays_ms, compare_ms);
  *median_ms = g_array_index (probe.delays_ms, double, probe.delays_ms->len / 2);
  *max_ms = g_array_index (probe.delays_ms, double, probe.delays_ms->len - 1);
  g_array_unref (probe.delays_ms);
}

static void
bench_live (guint   seconds,
            double *cpu_pct,
            double *rss,
            double *rss_start,
            guint64 *samples,
            double *update_mean_us,
            double *update_max_us,
            double *updates_per_s,
            guint   fps_samples,
            double *fps_median_ms,
            double *fps_max_ms)
{
  static const char * const pages[] = {
    "overview", "cpu", "memory", "frames", "threads", "power", "system", "network",
  };
  g_autoptr(AdbscopeTestDevice) device = NULL;
  g_autoptr(AdbscopeApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeWindow *window;
  guint64 n0;
  double c0, t0;

  device = adbscope_test_device_start (NULL, NULL, &error);
  g_assert_no_error (error);
  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  window = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));

  _adbscope_window_choose_device (window, adbscope_test_device_get_serial (device));
  g_assert_true (gui_test_wait (apps_loaded, window, 20000));
  _adbscope_window_choose_app (window, ADBSCOPE_DEMO_PACKAGE);
  g_assert_true (gui_test_wait (mode_is, window, 30000));
  gui_test_spin (3000);

  *rss_start = rss_mib ();
  n0 = adbscope_session_get_n_samples (_adbscope_window_get_session (window));
  c0 = cpu_seconds ();
  t0 = g_get_monotonic_time () / 1e6;
  for (guint s = 0; s < seconds; s++)
    {
      adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), pages[s % G_N_ELEMENTS (pages)]);
      gui_test_spin (1000);
    }
  *cpu_pct = 100 * (cpu_seconds () - c0) / (g_get_monotonic_time () / 1e6 - t0);
  *rss = rss_mib ();
  *samples = adbscope_session_get_n_samples (_adbscope_window_get_session (window)) - n0;

  {
    UpdateTimer timer = { 0 };

    bench_fps_delay (window, fps_samples, fps_median_ms, fps_max_ms, &timer, updates_per_s);
    *update_mean_us = timer.n > 0 ? timer.total_us / timer.n : NAN;
    *update_max_us = timer.max_us;
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  const char *env = g_getenv ("ADBSCOPE_BENCH_SECONDS");
  guint seconds = env != NULL ? (guint) g_ascii_strtoull (env, NULL, 10) : 60;
  const char *fps_env = g_getenv ("ADBSCOPE_BENCH_FPS_SAMPLES");
  guint fps_n = fps_env != NULL ? (guint) g_ascii_strtoull (fps_env, NULL, 10) : 20;
  double mean, best, snap, cpu, rss, rss0, up_mean, up_max, up_rate, fps_med, fps_max;
  guint64 samples;

  gtk_init ();
  adw_init ();

  bench_draw (&mean, &best, &snap);
  bench_live (seconds, &cpu, &rss, &rss0, &samples, &up_mean, &up_max, &up_rate, MAX (fps_n, 1), &fps_med, &fps_max);

  g_print ("{\"draw_8x900_mean_ms\": %.3f, \"draw_8x900_best_ms\": %.3f, \"snapshot_8x900_mean_ms\": %.3f, "
           "\"live_seconds\": %u, \"live_samples\": %" G_GUINT64_FORMAT ", \"gui_cpu_pct_of_one_core\": %.2f, "
           "\"gui_rss_mib_start\": %.1f, \"gui_rss_mib_end\": %.1f, "
           "\"overview_update_mean_us\": %.1f, \"overview_update_max_us\": %.1f, \"overview_updates_per_s\": %.2f, "
           "\"fps_sample_to_redraw_median_ms\": %.1f, \"fps_sample_to_redraw_max_ms\": %.1f}\n",
           mean, best, snap, seconds, samples, cpu, rss0, rss, up_mean, up_max, up_rate, fps_med, fps_max);
  return 0;
}
