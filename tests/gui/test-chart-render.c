/* test-chart-render.c: draw real charts on Xvfb and check their pixels
 *
 * Runs under tests/gui/run-xvfb.sh with GSK_RENDERER=cairo.  The chart is
 * put in a window, mapped, snapshotted with gtk_widget_snapshot_child() and
 * rendered by the cairo GSK renderer into a texture whose pixels are read
 * back.  PNGs of the results are saved in the build directory.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>

#include "adbscope-bar-layer.h"
#include "adbscope-card-frame-private.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart-raster.h"
#include "adbscope-chart.h"
#include "adbscope-line-layer.h"
#include "adbscope-overlay-layer.h"
#include "adbscope-test-recording.h"
#include "adbscope-stacked-layer.h"

#define SEC G_USEC_PER_SEC
#define WIDTH 640
#define HEIGHT 240

/* 900 samples, one a second, ending at T_END. */
#define T_END (10000 * (gint64)SEC)
#define T_OF(i) (T_END - (899 - (gint64)(i)) * SEC)
#define SPIKE 700
#define GAP_FIRST 300
#define GAP_LAST 379

typedef struct
{
  GdkTexture *texture;
  guchar     *pixels;
  gsize       stride;
  int         width;
  int         height;
} Image;

static void
image_clear (Image *image)
{
  g_clear_object (&image->texture);
  g_clear_pointer (&image->pixels, g_free);
}

static void
pixel_at (const Image *image,
          int          x,
          int          y,
          guint8      *r,
          guint8      *g,
          guint8      *b)
{
  /* GDK_MEMORY_DEFAULT: B8G8R8A8 premultiplied; the background is opaque. */
  const guchar *p = image->pixels + y * image->stride + x * 4;

  *b = p[0];
  *g = p[1];
  *r = p[2];
}

static gboolean
is_red (const Image *image,
        int          x,
        int          y)
{
  guint8 r, g, b;

  pixel_at (image, x, y, &r, &g, &b);
  return r > 180 && g < 100 && b < 100;
}

static gboolean
differs_from (const Image *image,
              int          x,
              int          y,
              guint8       br,
              guint8       bg,
              guint8       bb,
              int          threshold)
{
  guint8 r, g, b;

  pixel_at (image, x, y, &r, &g, &b);
  return ABS (r - br) + ABS (g - bg) + ABS (b - bb) > threshold;
}

static void
set_flag (gboolean *flag)
{
  *flag = TRUE;
}

/* Waits until the window has painted a frame after now, so styles (light
 * or dark) and allocations are up to date. */
static void
wait_for_draw (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong id;

  while (!(gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }

  clock = gtk_widget_get_frame_clock (widget);
  id = g_signal_connect_swapped (clock, "after-paint", G_CALLBACK (set_flag), &painted);
  gtk_widget_queue_draw (widget);
  while (!painted)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
}

static void
render (GtkWidget  *widget,
        Image      *image,
        const char *png_name)
{
  g_autoptr(GError) error = NULL;
  graphene_rect_t bounds;
  g_autoptr(GskRenderer) renderer = NULL;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  GdkRGBA background;
  int width, height;

  wait_for_draw (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget),
                                                 "window_bg_color", &background));
  G_GNUC_END_IGNORE_DEPRECATIONS

  /* Snapshot the widget itself (GtkWidgetPaintable would hand back the
   * last frame's image), shifted so it starts at 0,0. */
  g_assert_true (gtk_widget_compute_bounds (widget, gtk_widget_get_parent (widget), &bounds));
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-bounds.origin.x, -bounds.origin.y));
  gtk_widget_snapshot_child (gtk_widget_get_parent (widget), widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);

  image_clear (image);
  image->texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  image->width = gdk_texture_get_width (image->texture);
  image->height = gdk_texture_get_height (image->texture);
  image->stride = image->width * 4;
  image->pixels = g_malloc (image->stride * image->height);
  gdk_texture_download (image->texture, image->pixels, image->stride);

  if (png_name != NULL)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, png_name, NULL);

      g_assert_true (gdk_texture_save_to_png (image->texture, path));
      g_test_message ("saved %s", path);
    }

  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);
}

static AdbscopeSeries *
make_cpu_series (void)
{
  AdbscopeSeries *series = adbscope_series_new (900);

  for (guint i = 0; i < 900; i++)
    {
      double v = 20 + 6 * sin (i / 40.0);

      if (i == SPIKE)
        v = 95;
      else if (i >= GAP_FIRST && i <= GAP_LAST)
        v = NAN;
      adbscope_series_push (series, T_OF (i), v);
    }

  return series;
}

static GtkWidget *
show_in_window (GtkWidget *chart)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), chart);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
set_dark (gboolean dark)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  adw_style_manager_set_color_scheme (manager, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                    : ADW_COLOR_SCHEME_FORCE_LIGHT);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (adw_style_manager_get_dark (manager) == dark);
}

static double
x_of (const graphene_rect_t *plot,
      gint64                 t)
{
  return plot->origin.x + plot->size.width * (double)(t - (T_END - 900 * (gint64)SEC)) / (900.0 * SEC);
}

static double
y_of (const graphene_rect_t *plot,
      double                 value)
{
  return plot->origin.y + plot->size.height * (100 - value) / 100;
}

static gboolean
column_has_red (const Image           *image,
                int                    x,
                const graphene_rect_t *plot)
{
  for (int y = plot->origin.y; y < plot->origin.y + plot->size.height; y++)
    if (is_red (image, x, y))
      return TRUE;
  return FALSE;
}

static void
test_render_spike_and_gap (void)
{
  g_autoptr(AdbscopeSeries) series = make_cpu_series ();
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *line = adbscope_line_layer_new (series, "CPU");
  GtkWidget *window;
  GdkRGBA red = { 1, 0, 0, 1 };
  graphene_rect_t plot;
  Image image = { 0 };
  double spike_x, spike_y;
  int gap_x0, gap_x1;
  gboolean found;

  set_dark (FALSE);
  adbscope_chart_layer_set_color (line, &red);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), line);
  adbscope_chart_set_value_range (ADBSCOPE_CHART (chart), 0, 100);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_set_unit (ADBSCOPE_CHART (chart), "%");
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);

  render (chart, &image, "chart-test-red.png");
  g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));
  g_assert_cmpfloat (plot.size.width, >, WIDTH / 2);
  g_assert_cmpfloat (plot.size.height, >, HEIGHT / 2);

  /* The spike (95 % for one second of 900) reaches the top in its column. */
  spike_x = x_of (&plot, T_OF (SPIKE));
  spike_y = y_of (&plot, 95);
  found = FALSE;
  for (int x = spike_x - 2; x <= spike_x + 2; x++)
    for (int y = spike_y - 2; y <= spike_y + 2; y++)
      found |= is_red (&image, x, y);
  g_assert_true (found);
  /* …and no higher. */
  for (int x = spike_x - 3; x <= spike_x + 3; x++)
    for (int y = plot.origin.y; y < spike_y - 3; y++)
      g_assert_false (is_red (&image, x, y));

  /* The line exists elsewhere, at its value (not a vacuous test). */
  for (guint i = 50; i < 900; i += 100)
    {
      double v = 20 + 6 * sin (i / 40.0);
      int x = x_of (&plot, T_OF (i));
      int y = y_of (&plot, v);

      if (i >= GAP_FIRST - 2 && i <= GAP_LAST + 2)
        continue;
      found = FALSE;
      for (int dy = -2; dy <= 2; dy++)
        found |= is_red (&image, x, y + dy);
      g_assert_true (found);
    }

  /* The gap (80 NaN samples) has no line pixels at all: no line across it
   * and nothing at 0. */
  gap_x0 = ceil (x_of (&plot, T_OF (GAP_FIRST - 1))) + 2;
  gap_x1 = floor (x_of (&plot, T_OF (GAP_LAST + 1))) - 2;
  g_assert_cmpint (gap_x1 - gap_x0, >, 40);
  for (int x = gap_x0; x <= gap_x1; x++)
    g_assert_false (column_has_red (&image, x, &plot));
  /* The line does reach both edges of the gap. */
  g_assert_true (column_has_red (&image, gap_x0 - 4, &plot));
  g_assert_true (column_has_red (&image, gap_x1 + 4, &plot));

  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A value at the very edge of the range (60 fps with the axis at 60, a
 * battery at 100 %, an idle CPU at 0 %) is drawn whole, not clipped away
 * with the half of the line that lies outside the plot. */
static void
test_render_at_the_edges (void)
{
  g_autoptr(AdbscopeSeries) top = adbscope_series_new (900);
  g_autoptr(AdbscopeSeries) bottom = adbscope_series_new (900);
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *top_line = adbscope_line_layer_new (top, "Top");
  AdbscopeChartLayer *bottom_line = adbscope_line_layer_new (bottom, "Bottom");
  GdkRGBA red = { 1, 0, 0, 1 };
  GtkWidget *window;
  graphene_rect_t plot;
  Image image = { 0 };

  for (guint i = 0; i < 900; i++)
    {
      adbscope_series_push (top, T_OF (i), 100);
      adbscope_series_push (bottom, T_OF (i), 0);
    }
  set_dark (FALSE);
  adbscope_chart_layer_set_color (top_line, &red);
  adbscope_chart_layer_set_color (bottom_line, &red);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), top_line);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), bottom_line);
  adbscope_chart_set_value_range (ADBSCOPE_CHART (chart), 0, 100);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_set_unit (ADBSCOPE_CHART (chart), "%");
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);

  render (chart, &image, "chart-test-edges.png");
  g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));
  /* In every tenth column: a red pixel within a pixel of the top edge and
   * of the bottom edge. */
  for (int x = plot.origin.x + 10; x < plot.origin.x + plot.size.width - 10; x += 10)
    {
      gboolean at_top = FALSE, at_bottom = FALSE;

      for (int y = plot.origin.y - 1; y <= plot.origin.y + 1; y++)
        at_top |= is_red (&image, x, y);
      for (int y = plot.origin.y + plot.size.height - 2; y <= plot.origin.y + plot.size.height; y++)
        at_bottom |= is_red (&image, x, y);
      if (!at_top || !at_bottom)
        g_error ("column %d: the line at 100 %% %s, the line at 0 %% %s", x, at_top ? "drawn" : "missing",
                 at_bottom ? "drawn" : "missing");
    }

  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_render_light_dark (void)
{
  g_autoptr(AdbscopeSeries) series = make_cpu_series ();
  g_autoptr(AdbscopeSeries) app = adbscope_series_new (900);
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *line = adbscope_line_layer_new (series, "System");
  AdbscopeChartLayer *app_line = adbscope_line_layer_new (app, "App");
  AdbscopeChartMarker markers[] = {
    { T_OF (150), "cold start" },
    { T_OF (600), "scroll feed" },
  };
  GtkWidget *window;
  graphene_rect_t plot;
  Image light = { 0 }, dark = { 0 };
  GdkRGBA light_color, dark_color;
  guint8 lr, lg, lb, dr, dg, db;
  int x, y, n_marker_px;

  for (guint i = 0; i < 900; i++)
    adbscope_series_push (app, T_OF (i), i >= GAP_FIRST && i <= GAP_LAST ? NAN : 8 + 3 * cos (i / 25.0));

  adbscope_line_layer_set_fill (ADBSCOPE_LINE_LAYER (line), TRUE);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), line);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), app_line);
  adbscope_chart_set_value_range (ADBSCOPE_CHART (chart), 0, 100);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_set_title (ADBSCOPE_CHART (chart), "CPU");
  adbscope_chart_set_unit (ADBSCOPE_CHART (chart), "%");
  adbscope_chart_set_markers (ADBSCOPE_CHART (chart), markers, G_N_ELEMENTS (markers));
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);

  set_dark (FALSE);
  render (chart, &light, "chart-light.png");
  adbscope_chart_layer_get_color (app_line, &light_color);
  set_dark (TRUE);
  render (chart, &dark, "chart-dark.png");
  adbscope_chart_layer_get_color (app_line, &dark_color);
  g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));

  /* The palette has a shade for each scheme. */
  g_assert_false (gdk_rgba_equal (&light_color, &dark_color));

  /* Backgrounds: light is light, dark is dark. */
  pixel_at (&light, 2, 2, &lr, &lg, &lb);
  pixel_at (&dark, 2, 2, &dr, &dg, &db);
  g_assert_cmpint (lr + lg + lb, >, 3 * 200);
  g_assert_cmpint (dr + dg + db, <, 3 * 80);

  /* The app line is drawn in its palette colour, in both schemes. */
  x = x_of (&plot, T_OF (100));
  y = y_of (&plot, 8 + 3 * cos (100 / 25.0));
  for (guint pass = 0; pass < 2; pass++)
    {
      const Image *img = pass == 0 ? &light : &dark;
      const GdkRGBA *c = pass == 0 ? &light_color : &dark_color;
      gboolean found = FALSE;

      for (int dy = -1; dy <= 1; dy++)
        {
          guint8 r, g, b;

          pixel_at (img, x, y + dy, &r, &g, &b);
          found |= ABS (r - c->red * 255) + ABS (g - c->green * 255) + ABS (b - c->blue * 255) < 60;
        }
      g_assert_true (found);
    }

  /* Marker lines are dashed across the plot: count non-background pixels
   * in the marker's column above the data. */
  x = floor (x_of (&plot, T_OF (150)));
  n_marker_px = 0;
  for (y = plot.origin.y + 20; y < y_of (&plot, 40); y++)
    n_marker_px += differs_from (&light, x, y, lr, lg, lb, 60);
  g_assert_cmpint (n_marker_px, >, (y_of (&plot, 40) - plot.origin.y - 20) / 3);

  image_clear (&light);
  image_clear (&dark);
  set_dark (FALSE);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_description (GtkWidget  *widget,
                    const char *expected)
{
  /* Not gtk_test_accessible_assert_property(): it pastes the expected
   * string into a printf format, and these contain "%". */
  g_autofree char *wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                               GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                               expected);

  if (wrong != NULL)
    g_error ("accessible description is '%s', expected '%s'", wrong, expected);
}

static void
test_describe_and_accessible (void)
{
  g_autoptr(AdbscopeSeries) series = make_cpu_series ();
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *line = adbscope_line_layer_new (series, "App CPU");
  AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (line);
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *window;
  double min, max;

  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), line);
  adbscope_chart_set_title (ADBSCOPE_CHART (chart), "CPU");
  adbscope_chart_set_unit (ADBSCOPE_CHART (chart), "%");
  adbscope_series_push (series, T_END + SEC, 23.4);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);
  wait_for_draw (chart);

  /* Following the data: the window ends at the newest sample. */
  {
    gint64 t0, t1;

    adbscope_chart_get_time_window (ADBSCOPE_CHART (chart), &t0, &t1);
    g_assert_cmpint (t1, ==, T_END + SEC);
    g_assert_cmpint (t1 - t0, ==, 900 * (gint64)SEC);
  }

  /* Auto range: data up to 95 → 0..100. */
  adbscope_chart_get_value_range (ADBSCOPE_CHART (chart), &min, &max);
  g_assert_cmpfloat (min, ==, 0);
  g_assert_cmpfloat (max, ==, 100);

  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_PROPERTY_LABEL, "CPU");
  assert_description (chart, "App CPU: 23.4%");

  /* Hover text: the nearest sample, "no data" inside the gap. */
  klass->describe_at (line, 0, T_OF (SPIKE) + SEC / 4, text);
  g_assert_cmpstr (text->str, ==, "App CPU: 95.0%, 3:20 min ago");
  g_string_truncate (text, 0);
  klass->describe_at (line, 0, T_OF (340), text);
  g_assert_cmpstr (text->str, ==, "App CPU: no data");
  g_string_truncate (text, 0);
  klass->describe_at (line, 0, T_END + SEC, text);
  g_assert_cmpstr (text->str, ==, "App CPU: 23.4%, now");
  g_string_truncate (text, 0);
  klass->describe_at (line, 0, T_END - 11 * SEC, text);
  g_assert_cmpstr (text->str, ==, "App CPU: 18.8%, 12 s ago");

  /* The hover dot sits on the nearest sample: the spike's top. */
  {
    GtkSnapshot *snapshot = gtk_snapshot_new ();
    GskRenderNode *node;
    graphene_rect_t plot, bounds;
    double x, y;

    klass->snapshot_hover (line, snapshot, 0, T_OF (SPIKE) - SEC / 3);
    node = gtk_snapshot_free_to_node (snapshot);
    g_assert_nonnull (node);
    gsk_render_node_get_bounds (node, &bounds);
    g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));
    x = plot.size.width * (double)(T_OF (SPIKE) - (T_END + SEC - 900 * (gint64)SEC)) / (900.0 * SEC);
    y = plot.size.height * (1 - 95.0 / 100);
    g_assert_cmpfloat (fabs (bounds.origin.x + bounds.size.width / 2 - x), <, 1);
    g_assert_cmpfloat (fabs (bounds.origin.y + bounds.size.height / 2 - y), <, 1);
    gsk_render_node_unref (node);

    /* No dot inside the gap. */
    snapshot = gtk_snapshot_new ();
    klass->snapshot_hover (line, snapshot, 0, T_OF (340));
    node = gtk_snapshot_free_to_node (snapshot);
    g_assert_null (node);
  }

  /* The current value goes away with the data: a gap is "no data". */
  adbscope_series_push (series, T_END + 2 * SEC, NAN);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  assert_description (chart, "App CPU: no data");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_render_stacked (void)
{
  const char *titles[] = { "Java heap", "Native heap", "Graphics" };
  AdbscopeSeries *parts[3];
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *stacked = adbscope_stacked_layer_new ();
  GtkWidget *window;
  graphene_rect_t plot;
  Image image = { 0 };
  GdkRGBA colors[3] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } };
  double max;
  int x;

  for (guint s = 0; s < 3; s++)
    {
      parts[s] = adbscope_series_new (450);
      for (guint i = 0; i < 450; i++)
        {
          /* 2 s apart; the memory collector's interval. */
          gint64 t = T_END - (449 - (gint64)i) * 2 * SEC;

          adbscope_series_push (parts[s], t, i >= 200 && i < 230 ? NAN : 40 + 20 * s);
        }
      adbscope_stacked_layer_add_series (ADBSCOPE_STACKED_LAYER (stacked), parts[s], titles[s], &colors[s]);
    }

  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), stacked);
  adbscope_chart_set_interval (ADBSCOPE_CHART (chart), 2 * SEC);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_set_unit (ADBSCOPE_CHART (chart), "MB");
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));

  /* Auto range covers the stack's total, 40 + 60 + 80 = 180, not one part. */
  adbscope_chart_get_value_range (ADBSCOPE_CHART (chart), NULL, &max);
  g_assert_cmpfloat (max, >=, 180);
  g_assert_cmpfloat (max, <=, 250);

  window = show_in_window (chart);
  render (chart, &image, "chart-stacked.png");
  g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));

  /* Bands from the bottom: red 0..40, green 40..100, blue 100..180. */
  x = plot.origin.x + plot.size.width * 0.8;
  {
    double h = plot.size.height;
    double y0 = plot.origin.y + h;
    guint8 r, g, b;

    pixel_at (&image, x, y0 - h * 20 / max, &r, &g, &b);
    g_assert_cmpint (r, >, 150);
    g_assert_cmpint (g + b, <, 150);
    pixel_at (&image, x, y0 - h * 70 / max, &r, &g, &b);
    g_assert_cmpint (g, >, 150);
    g_assert_cmpint (r + b, <, 150);
    pixel_at (&image, x, y0 - h * 140 / max, &r, &g, &b);
    g_assert_cmpint (b, >, 150);
    g_assert_cmpint (r + g, <, 150);
    /* Above the stack: background, not blue. */
    pixel_at (&image, x, y0 - h * (180 + (max - 180) / 2) / max, &r, &g, &b);
    g_assert_false (b > 150 && r < 100 && g < 100);
  }

  /* The NaN stretch (samples 200..229) is empty: nothing stacked at 0. */
  {
    gint64 t_gap = T_END - (449 - 215) * 2 * (gint64)SEC;
    int gx = plot.origin.x + plot.size.width * (double)(t_gap - (T_END - 900 * (gint64)SEC)) / (900.0 * SEC);

    for (int y = plot.origin.y; y < plot.origin.y + plot.size.height - 2; y++)
      {
        guint8 r, g, b;

        pixel_at (&image, gx, y, &r, &g, &b);
        g_assert_false (r > 150 && g < 100 && b < 100);
        g_assert_false (g > 150 && r < 100 && b < 100);
        g_assert_false (b > 150 && r < 100 && g < 100);
      }
  }

  for (guint s = 0; s < 3; s++)
    adbscope_series_unref (parts[s]);
  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_render_bars (void)
{
  /* Frame-time histogram: bins in ms, the last one open. */
  const double edges[] = { 0, 8, 16.7, 33.3, 50, 100, INFINITY };
  const double counts[] = { 120, 840, 30, 8, 2, 0 };
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *bars = adbscope_bar_layer_new ("Frames");
  GtkWidget *window;
  graphene_rect_t plot;
  Image image = { 0 };
  GdkRGBA red = { 1, 0, 0, 1 };
  double max;

  adbscope_bar_layer_set_bins (ADBSCOPE_BAR_LAYER (bars), edges, G_N_ELEMENTS (edges), counts);
  adbscope_chart_layer_set_color (bars, &red);
  adbscope_chart_set_x_axis (ADBSCOPE_CHART (chart), ADBSCOPE_CHART_X_AXIS_BINS);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), bars);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  adbscope_chart_get_value_range (ADBSCOPE_CHART (chart), NULL, &max);
  g_assert_cmpfloat (max, >=, 840);
  g_assert_cmpfloat (max, <=, 1000);

  window = show_in_window (chart);
  render (chart, &image, "chart-bars.png");
  g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));

  /* Bar heights: sample the middle of each bin just above the baseline
   * and just below the bar's top. */
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      double bin_w = plot.size.width / G_N_ELEMENTS (counts);
      int x = plot.origin.x + bin_w * (i + 0.5);
      double top = plot.origin.y + plot.size.height * (1 - counts[i] / max);

      if (counts[i] / max * plot.size.height >= 4)
        {
          g_assert_true (is_red (&image, x, plot.origin.y + plot.size.height - 2));
          g_assert_true (is_red (&image, x, top + 2));
        }
      if (top - 3 > plot.origin.y)
        g_assert_false (is_red (&image, x, top - 3));
    }

  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A second run (synthetic: frames.fps is a flat 60) overlaid on a flat 20:
 * drawn dashed in the partner's colour, only where the run is, on the
 * chart's clock at its time + offset; moving the offset moves the line. */
static void
test_render_overlay (void)
{
  static const AdbscopeSynthRun other = {
    .duration_s = 300, .interval_ms = 1000, .n_cores = 1, .n_threads = 1, .fps = 60,
    .spike_tick = 1000, .spike_value = 0,
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("adbscope-overlay-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "other.adbscope", NULL);
  g_autoptr(AdbscopeComparison) comparison = NULL;
  g_autoptr(AdbscopeSeries) series = adbscope_series_new (900);
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartLayer *line = adbscope_line_layer_new (series, "FPS");
  AdbscopeChartLayer *overlay;
  GtkWidget *window;
  GdkRGBA red = { 1, 0, 0, 1 };
  graphene_rect_t plot;
  Image image = { 0 };

  g_assert_no_error (error);
  g_assert_true (adbscope_synth_write (path, &other, &error));
  g_assert_no_error (error);
  comparison = adbscope_comparison_new (path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 900; i++)
    adbscope_series_push (series, T_OF (i), 20);
  /* The other run's start at sample 450 of this one */
  adbscope_comparison_set_offset (comparison, T_OF (450));

  set_dark (FALSE);
  adbscope_chart_layer_set_color (line, &red);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), line);
  overlay = adbscope_overlay_layer_new (comparison, "frames.fps", line, 0);
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), overlay);
  adbscope_chart_set_value_range (ADBSCOPE_CHART (chart), 0, 100);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);

  for (guint pass = 0; pass < 2; pass++)
    {
      gint64 first = pass == 0 ? T_OF (450) : T_OF (100);   /* B's 0 s and 299 s */
      gint64 last = first + 299 * (gint64) SEC;
      int y, on = 0, off = 0, runs = 0;
      gboolean was_on = FALSE;

      render (chart, &image, pass == 0 ? "chart-overlay.png" : "chart-overlay-moved.png");
      g_assert_true (adbscope_chart_get_plot_area (ADBSCOPE_CHART (chart), &plot));
      y = round (y_of (&plot, 60));

      /* Dashed across its span: on and off, many times */
      for (int x = ceil (x_of (&plot, first)) + 2; x <= floor (x_of (&plot, last)) - 2; x++)
        {
          gboolean now_on = is_red (&image, x, y) || is_red (&image, x, y - 1) || is_red (&image, x, y + 1);

          on += now_on;
          off += !now_on;
          runs += now_on && !was_on;
          was_on = now_on;
        }
      g_test_message ("overlay: %d px on, %d off, %d dashes", on, off, runs);
      g_assert_cmpint (runs, >=, 10);
      g_assert_cmpint (on, >, off / 2);
      g_assert_cmpint (off, >, 0);
      /* Nothing outside it, at its value */
      for (int x = plot.origin.x + 1; x < x_of (&plot, first) - 3; x++)
        g_assert_false (is_red (&image, x, y));
      for (int x = x_of (&plot, last) + 3; x < plot.origin.x + plot.size.width - 1; x++)
        g_assert_false (is_red (&image, x, y));
      /* The shown run's line is still solid at 20 */
      for (int x = plot.origin.x + 2; x < plot.origin.x + plot.size.width - 2; x += 5)
        g_assert_true (is_red (&image, x, round (y_of (&plot, 20))) ||
                       is_red (&image, x, round (y_of (&plot, 20)) - 1) ||
                       is_red (&image, x, round (y_of (&plot, 20)) + 1));

      /* Screen readers get both runs: the other one has nothing at the end */
      if (pass == 0)
        assert_description (chart, "FPS: 20; FPS (other.adbscope): no data");

      /* Aligning elsewhere moves it: start at sample 100 */
      adbscope_comparison_set_offset (comparison, T_OF (100));
    }

  adbscope_comparison_set_offset (comparison, T_END - 299 * (gint64) SEC);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  assert_description (chart, "FPS: 20; FPS (other.adbscope): 60");

  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
near_color (const Image   *image,
            int            x,
            int            y,
            const GdkRGBA *color)
{
  return !differs_from (image, x, y, color->red * 255, color->green * 255, color->blue * 255, 6);
}

/* A card's background and shadows are drawn into an image once per size
 * and style: a chart redrawing inside leaves it alone, a dark style draws
 * it again, dark. */
/* The frame (its inside a colour node, its edges from its image) has the
 * pixels of the .card box drawn by GTK itself. */
static void
assert_frame_is_the_card (GtkWidget *frame)
{
  Image mine = { 0 }, gtks = { 0 };
  graphene_rect_t inside;
  int max_diff = 0;

  render (frame, &mine, NULL);
  g_assert_true (_adbscope_card_frame_get_inside (ADBSCOPE_CARD_FRAME (frame), &inside));
  g_assert_cmpfloat (inside.size.width * inside.size.height, >,
                     0.5 * gtk_widget_get_width (frame) * gtk_widget_get_height (frame));
  render (gtk_widget_get_first_child (frame), &gtks, NULL);
  g_assert_cmpint (mine.width, ==, gtks.width);
  g_assert_cmpint (mine.height, ==, gtks.height);
  for (int y = 0; y < mine.height; y++)
    for (int x = 0; x < mine.width * 4; x++)
      max_diff = MAX (max_diff, ABS (mine.pixels[y * mine.stride + x] - gtks.pixels[y * gtks.stride + x]));
  g_test_message ("card frame against GTK's card: %d levels at most", max_diff);
  g_assert_cmpint (max_diff, <=, 2);
  image_clear (&mine);
  image_clear (&gtks);
}

static void
test_card_frame (void)
{
  GtkWidget *card = adbscope_chart_card_new ();
  GtkWidget *frame = gtk_widget_get_first_child (card);
  GtkWidget *window;
  GdkRGBA card_bg;
  Image image = { 0 };
  int drawn;

  g_assert_true (ADBSCOPE_IS_CARD_FRAME (frame));
  set_dark (FALSE);
  window = show_in_window (card);
  gtk_widget_set_margin_start (card, 20);
  gtk_widget_set_margin_end (card, 20);
  gtk_widget_set_margin_top (card, 20);
  gtk_widget_set_margin_bottom (card, 20);
  render (card, &image, "card-frame-light.png");
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (card), "card_bg_color", &card_bg));
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* inside the card, away from its text: the card's background */
  g_assert_true (near_color (&image, 24, image.height - 24, &card_bg));
  g_assert_true (near_color (&image, image.width - 24, image.height - 24, &card_bg));

  assert_frame_is_the_card (frame);

  drawn = _adbscope_card_frame_get_n_drawn (ADBSCOPE_CARD_FRAME (frame));
  g_assert_cmpint (drawn, >, 0);
  /* (the content: its "waiting for data" page, no series given) */
  for (guint i = 0; i < 5; i++)
    wait_for_draw (gtk_widget_get_last_child (gtk_widget_get_last_child (card)));
  g_assert_cmpint (_adbscope_card_frame_get_n_drawn (ADBSCOPE_CARD_FRAME (frame)), ==, drawn);

  set_dark (TRUE);
  render (card, &image, "card-frame-dark.png");
  g_assert_cmpint (_adbscope_card_frame_get_n_drawn (ADBSCOPE_CARD_FRAME (frame)), >, drawn);
  assert_frame_is_the_card (frame);
  /* (dark cards are translucent white over the window) */
  {
    guint8 r, g, b;

    pixel_at (&image, 24, image.height - 24, &r, &g, &b);
    g_assert_cmpint (r + g + b, <, 3 * 100);
  }

  set_dark (FALSE);
  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The raster fills column boxes with the pixels cairo gives the same
 * rectangles: lines (padded, dashed), areas and bands with fractional
 * tops and bottoms, at scale 1 and 2, opaque and translucent, onto an
 * opaque background and onto transparency, boxes overlapping. */
static void
test_raster_matches_cairo (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);
  int worst = 0;

  for (int round = 0; round < 32; round++)
    {
      const int w = 200, scale = 1 + round % 2;
      const double top = -1, h = 82;
      g_autoptr(AdbscopeChartRaster) raster = adbscope_chart_raster_new (w, top, h, scale);
      AdbscopeChartColumn columns[200];
      cairo_surface_t *s[2];
      cairo_t *cr[2];
      const guint32 *px;
      int rw, rh, rstride, max_diff = 0, drawn = 0;

      for (int way = 0; way < 2; way++)
        {
          s[way] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, (int) h * scale);
          cr[way] = cairo_create (s[way]);
          cairo_scale (cr[way], scale, scale);
          cairo_translate (cr[way], 0, -top);
          if (round % 4 < 2)
            {
              cairo_set_source_rgb (cr[way], 1, 1, 1);
              cairo_paint (cr[way]);
            }
        }

      for (int op = 0; op < 3; op++)
        {
          GdkRGBA color = { g_rand_double (rand), g_rand_double (rand), g_rand_double (rand),
                            round % 3 == 0 ? 1 : g_rand_double_range (rand, 0.1, 0.9) };
          guint dash = op == 1 && round % 2 ? 3 : 0;
          double base = g_rand_double_range (rand, 10, 81);

          for (int c = 0; c < w; c++)
            {
              double t = g_rand_double_range (rand, -3, h);

              if (g_rand_int_range (rand, 0, 6) == 0)
                columns[c] = (AdbscopeChartColumn) { 1, 0 };    /* a gap */
              else
                columns[c] = (AdbscopeChartColumn) { t, t + (round % 5 == 0 ? 0 : g_rand_double_range (rand, 0, 30)) };
              if (c > 0 && g_rand_int_range (rand, 0, 4) == 0)
                columns[c] = columns[c - 1];                     /* a run of one extent */
            }
          /* cairo: one rectangle per column */
          for (int c = 0; c < w; c++)
            {
              if (columns[c].top > columns[c].bottom)
                continue;
              if (op == 0 && columns[c].top < base)
                cairo_rectangle (cr[0], c, columns[c].top, 1, base - columns[c].top);
              else if (op > 0 && (dash == 0 || (c / dash) % 2 == 0))
                cairo_rectangle (cr[0], c, columns[c].top - 0.75, 1, columns[c].bottom - columns[c].top + 1.5);
              drawn++;
            }
          cairo_set_source_rgba (cr[0], color.red, color.green, color.blue, color.alpha);
          cairo_fill (cr[0]);
          if (op == 0)
            adbscope_chart_raster_fill_area (raster, columns, w, base, &color);
          else
            adbscope_chart_raster_fill_columns (raster, columns, w, 0.75, dash, &color);
        }

      /* a box without finite ends draws nothing (as cairo does) */
      {
        GdkRGBA red = { 1, 0, 0, 1 };
        AdbscopeChartColumn bad[2] = { { NAN, 10 }, { 5, INFINITY } };

        adbscope_chart_raster_fill_columns (raster, bad, 2, 0.75, 0, &red);
        adbscope_chart_raster_fill_box (raster, 0, w, -INFINITY, NAN, &red);
      }

      /* the raster composited over the same background */
      px = adbscope_chart_raster_get_pixels (raster, &rw, &rh, &rstride);
      g_assert_nonnull (px);
      g_assert_cmpint (rw, ==, w * scale);
      g_assert_cmpint (rh, ==, (int) h * scale);
      {
        cairo_surface_t *r = cairo_image_surface_create_for_data ((guchar *) px, CAIRO_FORMAT_ARGB32, rw, rh, rstride);

        cairo_identity_matrix (cr[1]);
        cairo_set_source_surface (cr[1], r, 0, 0);
        cairo_paint (cr[1]);
        cairo_surface_destroy (r);
      }
      for (int way = 0; way < 2; way++)
        {
          cairo_destroy (cr[way]);
          cairo_surface_flush (s[way]);
        }
      {
        const guint8 *a = cairo_image_surface_get_data (s[0]), *b = cairo_image_surface_get_data (s[1]);
        int stride = cairo_image_surface_get_stride (s[0]);

        for (int y = 0; y < rh; y++)
          for (int x = 0; x < rw * 4; x++)
            max_diff = MAX (max_diff, ABS (a[y * stride + x] - b[y * stride + x]));
      }
      g_assert_cmpint (drawn, >, 0);
      worst = MAX (worst, max_diff);
      cairo_surface_destroy (s[0]);
      cairo_surface_destroy (s[1]);
    }
  g_test_message ("largest difference from cairo: %d levels", worst);
  /* cairo keeps coordinates in 1/256 px and rounds coverage and each blend
   * to 8 bits its own way; the raster takes the exact area: a level or two
   * per edge and layer, 3-4 over three layers in 15 random runs.  A box
   * dropped, misplaced by a pixel row or blended wrongly is 20 and more. */
  g_assert_cmpint (worst, <=, 6);
}

static void
count_nodes (GskRenderNode *node,
             guint         *textures,
             guint         *cairos)
{
  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        count_nodes (gsk_container_node_get_child (node, i), textures, cairos);
      break;
    case GSK_CLIP_NODE:
      count_nodes (gsk_clip_node_get_child (node), textures, cairos);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      count_nodes (gsk_rounded_clip_node_get_child (node), textures, cairos);
      break;
    case GSK_TRANSFORM_NODE:
      count_nodes (gsk_transform_node_get_child (node), textures, cairos);
      break;
    case GSK_OPACITY_NODE:
      count_nodes (gsk_opacity_node_get_child (node), textures, cairos);
      break;
    case GSK_DEBUG_NODE:
      count_nodes (gsk_debug_node_get_child (node), textures, cairos);
      break;
    case GSK_TEXTURE_NODE:
      (*textures)++;
      break;
    case GSK_CAIRO_NODE:
      (*cairos)++;
      break;
    default:
      break;
    }
}

/* A chart's layers of column boxes and its marker lines are one image:
 * one cairo node (painting it) in its snapshot, and no texture. */
static void
test_render_one_image (void)
{
  g_autoptr(AdbscopeSeries) a = make_cpu_series ();
  g_autoptr(AdbscopeSeries) b = make_cpu_series ();
  GtkWidget *chart = adbscope_chart_new ();
  AdbscopeChartMarker markers[] = { { T_OF (150), "start" }, { T_OF (600), "scroll" } };
  GtkWidget *window;
  GskRenderNode *node;
  GtkSnapshot *snapshot;
  guint textures = 0, cairos = 0;
  Image image = { 0 };

  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), adbscope_line_layer_new (a, "A"));
  adbscope_chart_add_layer (ADBSCOPE_CHART (chart), adbscope_line_layer_new (b, "B"));
  adbscope_chart_set_markers (ADBSCOPE_CHART (chart), markers, G_N_ELEMENTS (markers));
  adbscope_chart_set_value_range (ADBSCOPE_CHART (chart), 0, 100);
  adbscope_chart_set_end_time (ADBSCOPE_CHART (chart), T_END);
  adbscope_chart_queue_update (ADBSCOPE_CHART (chart));
  window = show_in_window (chart);
  render (chart, &image, NULL);

  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (chart)->snapshot (chart, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  count_nodes (node, &textures, &cairos);
  gsk_render_node_unref (node);
  g_assert_cmpuint (cairos, ==, 1);
  g_assert_cmpuint (textures, ==, 0);

  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/chart-render/spike-and-gap", test_render_spike_and_gap);
  g_test_add_func ("/chart-render/at-the-edges", test_render_at_the_edges);
  g_test_add_func ("/chart-render/light-dark", test_render_light_dark);
  g_test_add_func ("/chart-render/describe-accessible", test_describe_and_accessible);
  g_test_add_func ("/chart-render/stacked", test_render_stacked);
  g_test_add_func ("/chart-render/bars", test_render_bars);
  g_test_add_func ("/chart-render/overlay", test_render_overlay);
  g_test_add_func ("/chart-render/card-frame", test_card_frame);
  g_test_add_func ("/chart-render/raster-matches-cairo", test_raster_matches_cairo);
  g_test_add_func ("/chart-render/one-image", test_render_one_image);

  return g_test_run ();
}
