/* bench-recording-gui.c: an 8-hour recording in the window
 *
 * Writes a synthetic run with every collector's shape (8 h at 1 s,
 * tests/common/adbscope-test-recording.h; ADBSCOPE_BENCH_HOURS changes
 * it), then measures:
 *   open   File → Open Recording until the Overview's charts have drawn, in
 *          steps (the summary read, the session made of it, the call,
 *          the first chart drawn, the frame times and threads read in the
 *          background), three times, alternating with the steps opening
 *          took before (every sample read: adbscope_run_load () and a
 *          session from it), with the ratio
 *   scroll the window sliding along the run one step every frame (the
 *          frame clock's "update"), at 5 min, 1 h and the whole run
 *   zoom   the window growing from 1 min to the whole run and back, one
 *          step a frame
 * For each sweep: every frame's work (update → after-paint: reading the
 * file, bucketing, snapshot, the cairo renderer; p50/p95/p99/max), its CPU
 * time on the main thread (what waiting for a shared core does not
 * inflate), of it the file reads and what follows layout (snapshot and the
 * renderer); a frame "dropped" is one whose work is over 16.7 ms (60 Hz).
 * After the first sweep: how many chart snapshots drew and how many were
 * skipped (scrolled out of view), and the frame's render nodes by kind
 * with the CPU time each kind takes drawn alone (frame_nodes).  Suite
 * 'benchmark' (not CI).  Prints one JSON object; fails when opening takes
 * 1 s or more, or more than 1 % of the frames are dropped.
 * ADBSCOPE_BENCH_INTERVAL_MS=100 (with ADBSCOPE_BENCH_HOURS=1) the issue's
 * other long run, ADBSCOPE_BENCH_ONLY=NAME runs one sweep (e.g. under perf),
 * ADBSCOPE_BENCH_STEPS=N gives each sweep N frames (default 240),
 * ADBSCOPE_BENCH_FRAMES_LOG=1 prints every frame's times and its start on
 * CLOCK_MONOTONIC (for `perf record -k CLOCK_MONOTONIC`).
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <time.h>

#include "adbscope-application.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart-private.h"
#include "adbscope-core.h"
#include "adbscope-line-layer.h"
#include "adbscope-test-recording.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

#define FRAME_BUDGET_US 16667

static AdbscopeWindow *window;

typedef struct
{
  const char *name;
  guint       n_steps;
  guint       step;
  double      from;
  double      to;
  gboolean    zoom;
  gint64      update_us;
  gint64      update_cpu_us;
  GArray     *work_us;   /* gint64 per frame */
  GArray     *cpu_us;    /* of it, CPU time of the main thread (the rest: waiting for a core) */
  GArray     *read_us;   /* of it, reading the file: every source of the Overview */
  GArray     *paint_us;  /* of it, from the end of layout: snapshot and the renderer */
  GArray     *before_us; /* of it, until the end of layout: the scroll, the pages' updates, layout */
  gint64      paint_start_us;
  gint64      paint_start_cpu_us;
  gboolean    done;
} Sweep;

/* What the Overview's charts read for the new window, as they read it in
 * their snapshot (which then finds it in the sources' chunks): µs. */
static gint64
read_overview (void)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));
  gint64 t0 = g_get_monotonic_time ();

  for (guint i = 0; i < cards->len; i++)
    {
      AdbscopeChart *chart = adbscope_chart_card_get_chart (g_ptr_array_index (cards, i));
      graphene_rect_t plot;
      gint64 a, z;

      if (!adbscope_chart_get_plot_area (chart, &plot) || plot.size.width < 1)
        continue;
      adbscope_chart_get_time_window (chart, &a, &z);
      for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (chart)); c; c = gtk_widget_get_next_sibling (c))
        if (ADBSCOPE_IS_LINE_LAYER (c) && adbscope_line_layer_get_source (ADBSCOPE_LINE_LAYER (c)) != NULL)
          {
            guint width = (guint) plot.size.width;
            g_autofree AdbscopeChartBucket *buckets = g_new (AdbscopeChartBucket, width);
            double lo, hi;

            adbscope_chart_source_get_extent (adbscope_line_layer_get_source (ADBSCOPE_LINE_LAYER (c)), a, z, &lo, &hi);
            adbscope_chart_source_bucket (adbscope_line_layer_get_source (ADBSCOPE_LINE_LAYER (c)), a, z,
                                          adbscope_chart_get_interval (chart), buckets, width);
          }
    }
  return g_get_monotonic_time () - t0;
}

/* On a shared machine a frame's wall time includes waiting for a core;
 * its CPU time does not. */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static void
on_update (GdkFrameClock *clock,
           Sweep         *s)
{
  double f;

  if (s->step >= s->n_steps)
    {
      s->done = TRUE;
      return;
    }
  f = s->n_steps > 1 ? (double) s->step / (s->n_steps - 1) : 0;
  s->update_us = g_get_monotonic_time ();
  s->update_cpu_us = thread_cpu_us ();
  if (s->zoom)
    {
      /* geometric: every step the same factor, out and back in */
      double g = f < 0.5 ? f * 2 : (1 - f) * 2;
      double seconds = s->from * pow (s->to / s->from, g);

      adbscope_data_view_set_visible_seconds (_adbscope_window_get_view (window), round (seconds));
    }
  else
    _adbscope_window_scroll_to (window, s->from + (s->to - s->from) * f);
  s->step++;
  {
    gint64 r = read_overview ();

    g_array_append_val (s->read_us, r);
  }
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_UPDATE);
}

/* Runs after GTK's own layout handler (connected first): paint is next. */
static void
on_layout (GdkFrameClock *clock,
           Sweep         *s)
{
  s->paint_start_us = g_get_monotonic_time ();
  s->paint_start_cpu_us = thread_cpu_us ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Sweep         *s)
{
  gint64 w, wall;

  if (s->update_us == 0)
    return;
  /* (a frame with nothing to draw has no layout after the update) */
  if (s->paint_start_us > s->update_us)
    {
      w = g_get_monotonic_time () - s->paint_start_us;
      g_array_append_val (s->paint_us, w);
      w = s->paint_start_us - s->update_us;
      g_array_append_val (s->before_us, w);
    }
  wall = w = g_get_monotonic_time () - s->update_us;
  g_array_append_val (s->work_us, w);
  w = thread_cpu_us () - s->update_cpu_us;
  g_array_append_val (s->cpu_us, w);
  if (g_getenv ("ADBSCOPE_BENCH_FRAMES_LOG") && s->paint_start_us > s->update_us)
    g_printerr ("frame %s %u wall %.1f cpu %.1f update+layout %.1f paint %.1f at %.6f\n", s->name, s->step, wall / 1e3,
                w / 1e3, (s->paint_start_cpu_us - s->update_cpu_us) / 1e3,
                (thread_cpu_us () - s->paint_start_cpu_us) / 1e3, s->update_us / 1e6);
  s->update_us = 0;
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static gboolean
sweep_done (gpointer data)
{
  return ((Sweep *) data)->done;
}

/* Returns the fraction of dropped frames. */
static double
run_sweep (JsonBuilder *b,
           Sweep       *s)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  gulong u, p, q;
  gint64 sum = 0;
  guint dropped = 0, n;

  s->work_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->read_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->paint_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->before_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->cpu_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  u = g_signal_connect (clock, "update", G_CALLBACK (on_update), s);
  p = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), s);
  q = g_signal_connect (clock, "layout", G_CALLBACK (on_layout), s);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_UPDATE);
  g_assert_true (gui_test_wait (sweep_done, s, 300000));
  g_signal_handler_disconnect (clock, u);
  g_signal_handler_disconnect (clock, p);
  g_signal_handler_disconnect (clock, q);

  n = s->work_us->len;
  g_array_sort (s->work_us, compare_int64);
  for (guint i = 0; i < n; i++)
    {
      gint64 w = g_array_index (s->work_us, gint64, i);

      sum += w;
      dropped += w > FRAME_BUDGET_US;
    }
  json_builder_set_member_name (b, s->name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frames");
  json_builder_add_int_value (b, n);
  json_builder_set_member_name (b, "work_ms_mean");
  json_builder_add_double_value (b, n ? sum / 1e3 / n : 0);
  json_builder_set_member_name (b, "work_ms_p50");
  json_builder_add_double_value (b, n ? g_array_index (s->work_us, gint64, n / 2) / 1e3 : 0);
  json_builder_set_member_name (b, "work_ms_p95");
  json_builder_add_double_value (b, n ? g_array_index (s->work_us, gint64, MIN (n - 1, n * 95 / 100)) / 1e3 : 0);
  json_builder_set_member_name (b, "work_ms_p99");
  json_builder_add_double_value (b, n ? g_array_index (s->work_us, gint64, MIN (n - 1, n * 99 / 100)) / 1e3 : 0);
  json_builder_set_member_name (b, "work_ms_max");
  json_builder_add_double_value (b, n ? g_array_index (s->work_us, gint64, n - 1) / 1e3 : 0);
  json_builder_set_member_name (b, "dropped");
  json_builder_add_int_value (b, dropped);
  g_array_sort (s->cpu_us, compare_int64);
  if (s->cpu_us->len > 0)
    {
      guint m = s->cpu_us->len;

      json_builder_set_member_name (b, "cpu_ms_p50");
      json_builder_add_double_value (b, g_array_index (s->cpu_us, gint64, m / 2) / 1e3);
      json_builder_set_member_name (b, "cpu_ms_p95");
      json_builder_add_double_value (b, g_array_index (s->cpu_us, gint64, MIN (m - 1, m * 95 / 100)) / 1e3);
    }
  g_array_sort (s->paint_us, compare_int64);
  if (s->paint_us->len > 0)
    {
      guint m = s->paint_us->len;

      json_builder_set_member_name (b, "paint_ms_p50");
      json_builder_add_double_value (b, g_array_index (s->paint_us, gint64, m / 2) / 1e3);
      json_builder_set_member_name (b, "paint_ms_p95");
      json_builder_add_double_value (b, g_array_index (s->paint_us, gint64, MIN (m - 1, m * 95 / 100)) / 1e3);
      g_array_sort (s->before_us, compare_int64);
      json_builder_set_member_name (b, "update_layout_ms_p50");
      json_builder_add_double_value (b, g_array_index (s->before_us, gint64, m / 2) / 1e3);
      json_builder_set_member_name (b, "update_layout_ms_p95");
      json_builder_add_double_value (b, g_array_index (s->before_us, gint64, MIN (m - 1, m * 95 / 100)) / 1e3);
    }
  g_array_sort (s->read_us, compare_int64);
  if (s->read_us->len > 0)
    {
      guint m = s->read_us->len;

      json_builder_set_member_name (b, "read_ms_p50");
      json_builder_add_double_value (b, g_array_index (s->read_us, gint64, m / 2) / 1e3);
      json_builder_set_member_name (b, "read_ms_p99");
      json_builder_add_double_value (b, g_array_index (s->read_us, gint64, MIN (m - 1, m * 99 / 100)) / 1e3);
      json_builder_set_member_name (b, "read_ms_max");
      json_builder_add_double_value (b, g_array_index (s->read_us, gint64, m - 1) / 1e3);
    }
  json_builder_end_object (b);
  g_array_unref (s->work_us);
  g_array_unref (s->read_us);
  g_array_unref (s->paint_us);
  g_array_unref (s->before_us);
  g_array_unref (s->cpu_us);
  return n ? (double) dropped / n : 1;
}

/* Where a frame's drawing goes: the window's render node tree, every
 * leaf drawn alone onto an image (offset by the translations above it,
 * clips ignored), its CPU time summed per node type. */
typedef struct
{
  guint  count[GSK_GL_SHADER_NODE + 1];
  gint64 us[GSK_GL_SHADER_NODE + 1];
} NodeCensus;

static void
census_node (GskRenderNode *node,
             cairo_t       *cr,
             double         dx,
             double         dy,
             NodeCensus    *census)
{
  GskRenderNodeType type = gsk_render_node_get_node_type (node);
  gint64 t0;

  switch ((int) type)
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        census_node (gsk_container_node_get_child (node, i), cr, dx, dy, census);
      return;
    case GSK_TRANSFORM_NODE:
      {
        float x = 0, y = 0;

        if (gsk_transform_get_category (gsk_transform_node_get_transform (node)) >= GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          gsk_transform_to_translate (gsk_transform_node_get_transform (node), &x, &y);
        census_node (gsk_transform_node_get_child (node), cr, dx + x, dy + y, census);
      }
      return;
    case GSK_CLIP_NODE:
      census_node (gsk_clip_node_get_child (node), cr, dx, dy, census);
      return;
    case GSK_ROUNDED_CLIP_NODE:
      census_node (gsk_rounded_clip_node_get_child (node), cr, dx, dy, census);
      return;
    case GSK_OPACITY_NODE:
      census_node (gsk_opacity_node_get_child (node), cr, dx, dy, census);
      return;
    case GSK_DEBUG_NODE:
      census_node (gsk_debug_node_get_child (node), cr, dx, dy, census);
      return;
    default:
      break;
    }
  cairo_save (cr);
  cairo_translate (cr, dx, dy);
  t0 = thread_cpu_us ();
  gsk_render_node_draw (node, cr);
  census->us[type] += thread_cpu_us () - t0;
  census->count[type]++;
  cairo_restore (cr);
}

static void
add_census (JsonBuilder *b)
{
  static const char *names[] = {
    [GSK_COLOR_NODE] = "color", [GSK_CAIRO_NODE] = "cairo", [GSK_TEXT_NODE] = "text",
    [GSK_BORDER_NODE] = "border", [GSK_OUTSET_SHADOW_NODE] = "outset_shadow",
    [GSK_INSET_SHADOW_NODE] = "inset_shadow", [GSK_TEXTURE_NODE] = "texture",
    [GSK_LINEAR_GRADIENT_NODE] = "linear_gradient",
  };
  GdkPaintable *paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  NodeCensus census = { { 0 } };
  cairo_surface_t *surface;
  cairo_t *cr;
  int w = gtk_widget_get_width (GTK_WIDGET (window)), h = gtk_widget_get_height (GTK_WIDGET (window));

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (surface);
  if (node != NULL)
    census_node (node, cr, 0, 0, &census);
  {
    g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));
    guint skipped = 0, drawn = 0;

    /* charts scrolled out of the page's view draw nothing */
    for (guint i = 0; i < cards->len; i++)
      {
        AdbscopeChart *chart = adbscope_chart_card_get_chart (g_ptr_array_index (cards, i));

        skipped += _adbscope_chart_get_n_skipped (chart);
        drawn += _adbscope_chart_get_n_snapshots (chart) - _adbscope_chart_get_n_skipped (chart);
      }
    json_builder_set_member_name (b, "overview_charts");
    json_builder_add_int_value (b, cards->len);
    json_builder_set_member_name (b, "chart_snapshots_drawn");
    json_builder_add_int_value (b, drawn);
    json_builder_set_member_name (b, "chart_snapshots_skipped");
    json_builder_add_int_value (b, skipped);
  }
  json_builder_set_member_name (b, "frame_nodes");
  json_builder_begin_object (b);
  for (guint t = 0; t < G_N_ELEMENTS (census.count); t++)
    if (census.count[t] > 0)
      {
        char name[32];

        g_snprintf (name, sizeof name, "%s", t < G_N_ELEMENTS (names) && names[t] ? names[t] : "other");
        json_builder_set_member_name (b, name);
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "n");
        json_builder_add_int_value (b, census.count[t]);
        json_builder_set_member_name (b, "ms");
        json_builder_add_double_value (b, census.us[t] / 1e3);
        json_builder_end_object (b);
      }
  json_builder_end_object (b);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_clear_pointer (&node, gsk_render_node_unref);
  g_object_unref (paintable);
}

static gint64 open_started_us;

static gboolean
drawn_since_open (gpointer data)
{
  return _adbscope_chart_get_last_snapshot_us (data) > open_started_us;
}

static gboolean
details_loaded (gpointer data)
{
  return !adbscope_data_view_get_details_pending (_adbscope_window_get_view (window));
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_double);
  return v[n / 2];
}

#define OPEN_ROUNDS 3

/* Opening, step by step, OPEN_ROUNDS times, alternating with what opening
 * did before it read the summary only (every sample of the run in memory:
 * adbscope_run_load () and a session from it; the window's work after is
 * the same).  Returns the median open (the call until the Overview's
 * first chart has drawn); @chart: that chart. */
static double
measure_open (JsonBuilder    *b,
              const char     *path,
              AdbscopeChart **chart)
{
  double old_load[OPEN_ROUNDS], old_session[OPEN_ROUNDS], summary[OPEN_ROUNDS], session[OPEN_ROUNDS];
  double call[OPEN_ROUNDS], open[OPEN_ROUNDS], details[OPEN_ROUNDS], old_total[OPEN_ROUNDS];
  g_autoptr(GError) error = NULL;

  for (guint r = 0; r < OPEN_ROUNDS; r++)
    {
      g_autoptr(GPtrArray) cards = NULL;
      gint64 t0 = g_get_monotonic_time (), t1;

      {
        g_autoptr(AdbscopeRun) run = adbscope_run_load (path, G_MININT64, G_MAXINT64, &error);
        g_autoptr(AdbscopeSession) s = NULL;

        g_assert_no_error (error);
        t1 = g_get_monotonic_time ();
        old_load[r] = (t1 - t0) / 1e3;
        s = adbscope_session_new_from_run (run);
        old_session[r] = (g_get_monotonic_time () - t1) / 1e3;
        old_total[r] = old_load[r] + old_session[r];
      }
      {
        g_autoptr(AdbscopeRun) run = NULL;
        g_autoptr(AdbscopeSession) s = NULL;

        t0 = g_get_monotonic_time ();
        run = adbscope_run_load_summary (path, &error);
        g_assert_no_error (error);
        t1 = g_get_monotonic_time ();
        summary[r] = (t1 - t0) / 1e3;
        s = adbscope_session_new_from_run (run);
        session[r] = (g_get_monotonic_time () - t1) / 1e3;
      }

      t0 = open_started_us = g_get_monotonic_time ();
      g_assert_true (_adbscope_window_open_recording (window, path, &error));
      g_assert_no_error (error);
      call[r] = (g_get_monotonic_time () - t0) / 1e3;
      cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));
      *chart = adbscope_chart_card_get_chart (g_ptr_array_index (cards, 0));
      g_assert_true (gui_test_wait (drawn_since_open, *chart, 10000));
      open[r] = (g_get_monotonic_time () - t0) / 1e3;
      g_assert_true (gui_test_wait (details_loaded, NULL, 60000));
      details[r] = (g_get_monotonic_time () - t0) / 1e3;
      gui_test_spin (300);
    }

  json_builder_set_member_name (b, "open_ms");
  json_builder_begin_object (b);
  {
    struct { const char *name; double *v; } rows[] = {
      { "summary_load", summary }, { "session_from_summary", session },
      { "open_call", call }, { "until_drawn", open },
      { "details_in_background", details },
      { "old_full_load", old_load }, { "old_session_from_run", old_session },
      { "old_load_and_session", old_total },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      {
        json_builder_set_member_name (b, rows[i].name);
        json_builder_begin_array (b);
        for (guint r = 0; r < OPEN_ROUNDS; r++)
          json_builder_add_double_value (b, round (rows[i].v[r] * 10) / 10);
        json_builder_end_array (b);
      }
    /* old before-drawing work over the new one, round by round */
    json_builder_set_member_name (b, "old_over_new_ratio");
    json_builder_begin_array (b);
    for (guint r = 0; r < OPEN_ROUNDS; r++)
      json_builder_add_double_value (b, round (old_total[r] / (summary[r] + session[r]) * 10) / 10);
    json_builder_end_array (b);
  }
  json_builder_end_object (b);
  return median (open, OPEN_ROUNDS) / 1e3;
}

int
main (int    argc,
      char **argv)
{
  const char *hours_env = g_getenv ("ADBSCOPE_BENCH_HOURS");
  double hours = hours_env ? g_ascii_strtod (hours_env, NULL) : 8;
  const char *only = g_getenv ("ADBSCOPE_BENCH_ONLY");
  const char *steps_env = g_getenv ("ADBSCOPE_BENCH_STEPS");
  guint n_steps = steps_env ? (guint) g_ascii_strtoull (steps_env, NULL, 10) : 240;
  const char *interval_env = g_getenv ("ADBSCOPE_BENCH_INTERVAL_MS");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("adbscope-bench-rec-gui-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  AdbscopeApplication *app;
  AdbscopeSynthRun synth = {
    .duration_s = (guint) (hours * 3600),
    .interval_ms = interval_env ? (guint) g_ascii_strtoull (interval_env, NULL, 10) : 1000, .n_cores = 8, .n_threads = 20, .fps = 60,
    .spike_value = 777,
  };
  AdbscopeChart *chart;
  double open_s, worst = 0, whole;
  GStatBuf st;

  gtk_init ();
  adw_init ();
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", tmpdir, TRUE);
  synth.spike_tick = adbscope_synth_n_ticks (&synth) / 3 + 7;
  path = g_build_filename (tmpdir, "long.adbscope", NULL);
  g_assert_true (adbscope_synth_write (path, &synth, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  whole = synth.duration_s;

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = adbscope_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_spin (500);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "hours");
  json_builder_add_double_value (b, hours);
  json_builder_set_member_name (b, "file_mb");
  json_builder_add_double_value (b, st.st_size / 1e6);
  open_s = measure_open (b, path, &chart);
  json_builder_set_member_name (b, "open_s");
  json_builder_add_double_value (b, open_s);
  {
    static const double windows[] = { 300, 3600, 0 };
    static const char *names[] = { "scroll_5min", "scroll_1h", "scroll_whole" };

    for (guint i = 0; i < G_N_ELEMENTS (windows); i++)
      {
        double w = windows[i] ? windows[i] : whole;
        Sweep s = { names[i], n_steps, 0, w, whole, FALSE };
        double d;

        if (only && !g_str_equal (only, names[i]))
          continue;

        _adbscope_window_set_visible_seconds (window, (guint) windows[i]);
        gui_test_spin (200);
        d = run_sweep (b, &s);  /* (not inside MAX: evaluated twice) */
        worst = MAX (worst, d);
        if (i == 0)
          add_census (b);
      }
  }
  {
    Sweep s = { "zoom", n_steps, 0, 60, whole, TRUE };
    double d;

    if (only && !g_str_equal (only, "zoom"))
      goto done;
    _adbscope_window_scroll_to (window, whole / 2);
    d = run_sweep (b, &s);
    worst = MAX (worst, d);
  }
done:
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json = json_generator_to_data (gen, NULL);
  g_print ("%s\n", json);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  adbscope_recording_remove_files (path);
  g_rmdir (tmpdir);
  return open_s < 1.0 && worst <= 0.01 ? 0 : 1;
}
