/* bench-chart.c: cost of one live update of 8 charts × 900 samples
 *
 * Each run pushes one sample to every series (a live tick), calls
 * adbscope_chart_queue_update() and then measures, per phase:
 *   bucket   adbscope_chart_bucket_series() alone, 8 × 600 columns
 *   snapshot every chart snapshotted to a render node: bucketing, cairo
 *            path recording, axes and labels (what GTK does per frame)
 *   render   those nodes rasterised by the GSK cairo renderer (the GL
 *            renderer would do this on the GPU instead)
 * and prints the median of 200 runs.  Needs a display: run-xvfb.sh.
 */
#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "adbscope-chart.h"
#include "adbscope-chart-bucket.h"
#include "adbscope-line-layer.h"

#define N_CHARTS 8
#define N_SAMPLES 900
#define N_RUNS 200
#define PLOT_WIDTH 600
#define SEC G_USEC_PER_SEC

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (const void *a,
                const void *b)
{
  double da = *(const double *)a, db = *(const double *)b;

  return (da > db) - (da < db);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main (int   argc,
      char *argv[])
{
  AdbscopeSeries *series[N_CHARTS];
  GtkWidget *charts[N_CHARTS];
  GskRenderNode *nodes[N_CHARTS];
  AdbscopeChartBucket buckets[PLOT_WIDTH];
  double t_bucket[N_RUNS], t_snapshot[N_RUNS], t_render[N_RUNS];
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *window, *box;
  graphene_rect_t plot;
  int chart_width;

  gtk_init ();
  adw_init ();

  window = gtk_window_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_window_set_child (GTK_WINDOW (window), box);
  for (guint c = 0; c < N_CHARTS; c++)
    {
      series[c] = adbscope_series_new (N_SAMPLES);
      for (guint i = 0; i < N_SAMPLES; i++)
        adbscope_series_push (series[c], i * SEC, i % 97 == 0 ? 90 : 20 + 10 * sin (i / 30.0 + c));
      charts[c] = adbscope_chart_new ();
      adbscope_chart_add_layer (ADBSCOPE_CHART (charts[c]),
                                adbscope_line_layer_new (series[c], "metric"));
      gtk_widget_set_size_request (charts[c], -1, 110);
      gtk_box_append (GTK_BOX (box), charts[c]);
      adbscope_chart_queue_update (ADBSCOPE_CHART (charts[c]));
    }

  /* Size the window so the plot area is PLOT_WIDTH wide. */
  gtk_window_set_default_size (GTK_WINDOW (window), PLOT_WIDTH + 40, -1);
  gtk_window_present (GTK_WINDOW (window));
  while (gtk_widget_get_width (charts[0]) == 0)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  adbscope_chart_get_plot_area (ADBSCOPE_CHART (charts[0]), &plot);
  chart_width = gtk_widget_get_width (charts[0]) + PLOT_WIDTH - (int)plot.size.width;
  gtk_window_set_default_size (GTK_WINDOW (window), chart_width, -1);
  for (guint i = 0; i < 20 && (int)plot.size.width != PLOT_WIDTH; i++)
    {
      g_main_context_iteration (NULL, TRUE);
      adbscope_chart_get_plot_area (ADBSCOPE_CHART (charts[0]), &plot);
    }

  renderer = gsk_cairo_renderer_new ();
  if (!gsk_renderer_realize (renderer, NULL, &error))
    g_error ("%s", error->message);

  for (guint run = 0; run < N_RUNS; run++)
    {
      double t0, t1, t2, t3;
      gint64 now = (N_SAMPLES + run) * (gint64)SEC;

      /* A live tick: one new sample per series; the owner tells the chart. */
      for (guint c = 0; c < N_CHARTS; c++)
        {
          adbscope_series_push (series[c], now, 20 + 10 * sin (run / 7.0 + c));
          adbscope_chart_set_end_time (ADBSCOPE_CHART (charts[c]), now);
          adbscope_chart_queue_update (ADBSCOPE_CHART (charts[c]));
        }

      t0 = now_ms ();
      for (guint c = 0; c < N_CHARTS; c++)
        adbscope_chart_bucket_series (series[c], now - 900 * (gint64)SEC, now, SEC,
                                      buckets, PLOT_WIDTH);
      t1 = now_ms ();

      for (guint c = 0; c < N_CHARTS; c++)
        {
          /* What the frame clock does for a queued draw: the chart and its
           * layers build new render nodes (GtkWidgetPaintable would only
           * hand back the last frame's image). */
          GtkSnapshot *snapshot = gtk_snapshot_new ();

          gtk_widget_snapshot_child (box, charts[c], snapshot);
          nodes[c] = gtk_snapshot_free_to_node (snapshot);
          g_assert (nodes[c] != NULL);
        }
      t2 = now_ms ();

      for (guint c = 0; c < N_CHARTS; c++)
        {
          graphene_rect_t bounds;
          GdkTexture *texture;

          gsk_render_node_get_bounds (nodes[c], &bounds);
          texture = gsk_renderer_render_texture (renderer, nodes[c], &bounds);
          g_object_unref (texture);
          gsk_render_node_unref (nodes[c]);
        }
      t3 = now_ms ();

      t_bucket[run] = t1 - t0;
      t_snapshot[run] = t2 - t1;
      t_render[run] = t3 - t2;
    }

  adbscope_chart_get_plot_area (ADBSCOPE_CHART (charts[0]), &plot);
  printf ("charts: %d x %d samples, plot %.0f x %.0f px, median of %d runs\n",
          N_CHARTS, N_SAMPLES, plot.size.width, plot.size.height, N_RUNS);
  printf ("bucket only:              %.3f ms\n", median (t_bucket, N_RUNS));
  printf ("bucket+draw (snapshot):   %.3f ms  (goal <= 2 ms)\n", median (t_snapshot, N_RUNS));
  printf ("rasterise (cairo GSK):    %.3f ms\n", median (t_render, N_RUNS));

  for (guint c = 0; c < N_CHARTS; c++)
    {
      adbscope_series_unref (series[c]);
    }
  gsk_renderer_unrealize (renderer);
  gtk_window_destroy (GTK_WINDOW (window));

  return 0;
}
