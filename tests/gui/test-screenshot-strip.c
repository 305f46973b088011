/* Screenshots on the timeline: the strip under the Overview's charts shows
 * the screenshots a recording holds at their times, in the charts' time
 * window; a click opens the right one full size, with its time and cost;
 * Left/Right step, Escape closes.  The recording is written here through
 * AdbscopeRecording with pictures of known, distinct sizes, so which one
 * is shown is checked from the picture itself. */
#include "config.h"

#include <cairo.h>
#include <math.h>

#include "adbscope-application.h"
#include "adbscope-core.h"
#include "adbscope-overview-page.h"
#include "adbscope-screenshot-dialog.h"
#include "adbscope-screenshot-strip.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

#define N_SHOTS    6
#define RUN_S      60

static AdbscopeApplication *app;
static AdbscopeWindow *window;
static char *tmpdir;
static char *path;

/* Shot i is taken at 5 + 10 i s, is (60 + 2 i) × 120 px and cost 100 + i ms. */
static double
shot_time_s (guint i)
{
  return 5 + 10.0 * i;
}

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static GBytes *
make_png (guint i)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 60 + 2 * i, 120);
  cairo_t *cr = cairo_create (s);
  GByteArray *out = g_byte_array_new ();

  cairo_set_source_rgb (cr, i / (double) N_SHOTS, 0.4, 1 - i / (double) N_SHOTS);
  cairo_paint (cr);
  cairo_destroy (cr);
  g_assert_cmpint (cairo_surface_write_to_png_stream (s, append_bytes, out), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
  return g_byte_array_free_to_bytes (out);
}

static void
write_recording (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRecording) rec = adbscope_recording_create (path, &error);
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  /* The recording keeps its end up to date on the real clock: the run
   * happened over the last minute. */
  gint64 origin = g_get_monotonic_time () - RUN_S * G_USEC_PER_SEC;

  g_assert_no_error (error);
  adbscope_recording_begin (rec, origin, start, "sim", "io.github.adbscope.demo", 1000, NULL, NULL);
  adbscope_recording_set_meta (rec, "screenshot_interval_s", "10");
  for (guint t = 0; t <= RUN_S; t++)
    {
      adbscope_recording_add_tick (rec, origin + t * G_USEC_PER_SEC, 1.0, TRUE, 4242);
      adbscope_recording_add_sample (rec, "cpu.system_pct", "%", origin + t * G_USEC_PER_SEC, 20 + t % 7);
    }
  for (guint i = 0; i < N_SHOTS; i++)
    {
      g_autoptr(GBytes) png = make_png (i);

      adbscope_recording_add_screenshot (rec, origin + (gint64) (shot_time_s (i) * G_USEC_PER_SEC), png,
                                         100 + i, 50, 60 + 2 * i, 120, i == 3);
    }
  g_assert_true (adbscope_recording_close (rec, origin + RUN_S * G_USEC_PER_SEC, &error));
  g_assert_no_error (error);
}

static AdbscopeScreenshotStrip *
strip (void)
{
  return adbscope_overview_page_get_screenshot_strip (
    ADBSCOPE_OVERVIEW_PAGE (_adbscope_window_get_page (window, "overview")));
}

static gboolean
all_drawn (gpointer data)
{
  g_autoptr(GPtrArray) shown = adbscope_screenshot_strip_list_thumbnails (strip ());

  for (guint i = 0; i < shown->len; i++)
    if (gtk_picture_get_paintable (GTK_PICTURE (gtk_button_get_child (g_ptr_array_index (shown, i)))) == NULL)
      return FALSE;
  return shown->len > 0;
}

/* Every screenshot of the file, at its time on the window's scale. */
static void
test_strip_shows_recording (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  AdbscopeDataView *view;
  double width, last_x = -1;
  graphene_point_t p;

  g_assert_true (_adbscope_window_open_recording (window, path, &error));
  g_assert_no_error (error);
  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  gui_test_spin (300);
  view = _adbscope_window_get_view (window);
  g_assert_cmpuint (adbscope_data_view_get_n_screenshots (view), ==, N_SHOTS);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (strip ())));
  g_assert_true (gui_test_wait (all_drawn, NULL, 10000));

  shown = adbscope_screenshot_strip_list_thumbnails (strip ());
  g_assert_cmpuint (shown->len, ==, N_SHOTS);
  width = gtk_widget_get_width (GTK_WIDGET (strip ()));
  for (guint i = 0; i < shown->len; i++)
    {
      GtkWidget *thumb = g_ptr_array_index (shown, i);
      GdkPaintable *pic = gtk_picture_get_paintable (GTK_PICTURE (gtk_button_get_child (GTK_BUTTON (thumb))));
      double expected = shot_time_s (i) / RUN_S * width;

      g_assert_cmpuint (adbscope_screenshot_strip_thumbnail_index (thumb), ==, i);
      g_assert_true (gtk_widget_compute_point (thumb, GTK_WIDGET (strip ()),
                                               &GRAPHENE_POINT_INIT (gtk_widget_get_width (thumb) / 2.0, 0), &p));
      /* at its time, to the pixel of rounding */
      g_assert_cmpfloat (fabs (p.x - expected), <=, 2.0);
      g_assert_cmpfloat (p.x, >, last_x);
      last_x = p.x;
      /* the thumbnail is that picture, scaled to the strip's height */
      g_assert_cmpfloat (fabs ((double) gdk_paintable_get_intrinsic_width (pic) /
                               gdk_paintable_get_intrinsic_height (pic) - (60 + 2.0 * i) / 120), <, 0.03);
    }
}

static GtkWindow *
find_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (tops, i);

      if (ADBSCOPE_IS_SCREENSHOT_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
dialog_gone (gpointer data)
{
  return find_dialog () == NULL;
}

/* The key bindings the dialog really has, in the order GTK dispatches a
 * key pressed in it (capture phase before the window's own bindings, which
 * move the focus on the arrows): the first shortcut for @trigger runs. */
static void
press (GtkWidget  *widget,
       const char *trigger)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean found = FALSE;
  guint n = g_list_model_get_n_items (controllers);

  for (guint j = 0; j < 2 * n && !found; j++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, j % n);
      gboolean capture;

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      capture = gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (c)) == GTK_PHASE_CAPTURE;
      if (capture != (j < n))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)) && !found; k++)
        {
          g_autoptr(GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
          g_autofree char *t = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (s));

          if (g_str_equal (t, trigger))
            {
              found = TRUE;
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0, widget,
                                                           gtk_shortcut_get_arguments (s)));
            }
        }
    }
  g_assert_true (found);
}

static guint
shown_width (AdbscopeScreenshotDialog *dialog)
{
  return gdk_paintable_get_intrinsic_width (adbscope_screenshot_dialog_get_paintable (dialog));
}

static void
test_click_opens_the_right_one (void)
{
  g_autoptr(GPtrArray) shown = adbscope_screenshot_strip_list_thumbnails (strip ());
  AdbscopeScreenshotDialog *dialog;
  const char *title;

  g_assert_cmpuint (shown->len, ==, N_SHOTS);
  g_signal_emit_by_name (g_ptr_array_index (shown, 2), "clicked");
  gui_test_spin (200);
  dialog = ADBSCOPE_SCREENSHOT_DIALOG (find_dialog ());
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  g_assert_cmpuint (adbscope_screenshot_dialog_get_index (dialog), ==, 2);
  /* full size: the third picture's own pixels */
  g_assert_cmpuint (shown_width (dialog), ==, 64);
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (adbscope_screenshot_dialog_get_paintable (dialog)), ==, 120);
  title = gtk_window_get_title (GTK_WINDOW (dialog));
  g_assert_nonnull (strstr (title, "25.0 s"));
  g_assert_nonnull (strstr (title, "3 of 6"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (dialog), "102 ms"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (dialog), "50 ms of CPU"));

  press (GTK_WIDGET (dialog), "Right");
  g_assert_cmpuint (adbscope_screenshot_dialog_get_index (dialog), ==, 3);
  g_assert_cmpuint (shown_width (dialog), ==, 66);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (dialog), "at a marker"));
  press (GTK_WIDGET (dialog), "Left");
  press (GTK_WIDGET (dialog), "Left");
  g_assert_cmpuint (adbscope_screenshot_dialog_get_index (dialog), ==, 1);
  g_assert_cmpuint (shown_width (dialog), ==, 62);
  /* at the ends it stays */
  g_assert_true (adbscope_screenshot_dialog_step (dialog, -1));
  g_assert_false (adbscope_screenshot_dialog_step (dialog, -1));
  g_assert_cmpuint (adbscope_screenshot_dialog_get_index (dialog), ==, 0);

  press (GTK_WIDGET (dialog), "Escape");
  g_assert_true (gui_test_wait (dialog_gone, NULL, 2000));
}

/* Zoomed in at the end: only the screenshots of that window. */
static void
test_follows_zoom (void)
{
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  g_autoptr(GPtrArray) shown = NULL;

  adbscope_data_view_set_visible_seconds (view, 20);
  adbscope_data_view_set_end_time (view, RUN_S * G_USEC_PER_SEC);
  gui_test_spin (200);
  shown = adbscope_screenshot_strip_list_thumbnails (strip ());
  g_assert_cmpuint (shown->len, ==, 2);
  g_assert_cmpuint (adbscope_screenshot_strip_thumbnail_index (g_ptr_array_index (shown, 0)), ==, 4);
  g_assert_cmpuint (adbscope_screenshot_strip_thumbnail_index (g_ptr_array_index (shown, 1)), ==, 5);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  tmpdir = g_dir_make_tmp ("adbscope-gui-shots-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", tmpdir, TRUE);
  path = g_build_filename (tmpdir, "shots.adbscope", NULL);
  write_recording ();

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/gui/screenshots/strip-shows-recording", test_strip_shows_recording);
  g_test_add_func ("/gui/screenshots/click-opens-the-right-one", test_click_opens_the_right_one);
  g_test_add_func ("/gui/screenshots/follows-zoom", test_follows_zoom);
  ret = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    (void) system (cmd);
  }
  return ret;
}
