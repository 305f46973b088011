/* test-window.c: the whole window against a simulated device
 *
 * One simulated phone (tests/common, private adb server) and one window,
 * driven like a user would: pick the device in the device list, the demo
 * app in the app list, look at every page, pause and resume, add a marker,
 * export, and finally kill the phone.  The cases run in order and share
 * the window; each one asserts what a broken feature would get wrong.
 * Runs under run-gui-test.sh (Xvfb, D-Bus) with G_DEBUG=fatal-warnings.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "adbscope-assertion.h"
#include "adbscope-test-device.h"

#include "adbscope-app.h"
#include "adbscope-application.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart-private.h"
#include "adbscope-report.h"
#include "adbscope-session-private.h"
#include "adbscope-demo.h"
#include "adbscope-error.h"
#include "adbscope-line-layer.h"
#include "adbscope-overlay-layer.h"
#include "adbscope-test-recording.h"
#include "adbscope-thread.h"
#include "adbscope-window-private.h"
#include "adbscope-overview-page.h"
#include "adbscope-screenshot-strip.h"
#include "gui-test-util.h"

#define DEMO ADBSCOPE_DEMO_PACKAGE

static AdbscopeTestDevice  *device;
static AdbscopeApplication *app;
static AdbscopeWindow      *window;
static char                *tmpdir;

static const char * const page_names[] = {
  "overview", "cpu", "memory", "frames", "threads", "power", "system", "network",
};

/* ---- helpers ---- */

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)) != NULL)
        return found;
    }
  return NULL;
}

static AdbscopeChartCard *
find_card (const char *page,
           const char *title)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, page));

  for (guint i = 0; i < cards->len; i++)
    if (g_strcmp0 (adbscope_chart_card_get_title (cards->pdata[i]), title) == 0)
      return cards->pdata[i];
  g_error ("no card “%s” on page %s", title, page);
  return NULL;
}

static AdbscopeSeries *
first_layer_series (AdbscopeChartCard *card)
{
  GtkWidget *chart = GTK_WIDGET (adbscope_chart_card_get_chart (card));

  for (GtkWidget *c = gtk_widget_get_first_child (chart); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (ADBSCOPE_IS_LINE_LAYER (c))
      return adbscope_line_layer_get_series (ADBSCOPE_LINE_LAYER (c));
  return NULL;
}

static void
show_page (const char *name)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", name));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (_adbscope_window_get_view_stack (window)), ==, name);
  gui_test_spin (100);  /* map, update, allocate, draw */
}

static gboolean
mode_is (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_mode (window), data) == 0;
}

static gboolean
samples_at_least (gpointer data)
{
  AdbscopeSession *s = _adbscope_window_get_session (window);

  return s != NULL && adbscope_session_get_n_samples (s) >= GPOINTER_TO_UINT (data);
}

static gboolean
card_state_is_chart (gpointer data)
{
  return g_strcmp0 (adbscope_chart_card_get_state (data), "chart") == 0;
}

/* ---- cases ---- */

static gboolean
device_row_ready (gpointer data)
{
  GtkListBox *box = adbscope_device_picker_get_list_box (_adbscope_window_get_device_picker (window));
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (box, 0);

  return row != NULL && gtk_list_box_row_get_activatable (row);
}

static gboolean
apps_loaded (gpointer data)
{
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);

  return !adbscope_app_picker_get_loading (picker) &&
         g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) > 0;
}

static void
test_pick_device_and_app (void)
{
  GtkListBox *devices = adbscope_device_picker_get_list_box (_adbscope_window_get_device_picker (window));
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);
  GListModel *apps;
  g_autoptr(AdbscopeApp) first = NULL;
  AdwActionRow *row;

  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "devices");
  /* Session actions are off before a session exists. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (window->pause_button)));

  g_assert_true (gui_test_wait (device_row_ready, NULL, 20000));
  row = ADW_ACTION_ROW (gtk_list_box_get_row_at_index (devices, 0));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), adbscope_test_device_get_serial (device)));
  g_signal_emit_by_name (devices, "row-activated", row);
  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "apps");

  g_assert_true (gui_test_wait (apps_loaded, NULL, 20000));
  /* Running apps come first, and the demo app runs. */
  apps = adbscope_app_picker_get_model (picker);
  first = g_list_model_get_item (apps, 0);
  g_assert_cmpstr (adbscope_app_get_package (first), ==, DEMO);
  g_assert_true (adbscope_app_get_running (first));
  g_assert_cmpint (adbscope_app_get_pid (first), ==, adbscope_test_device_get_app_pid (device, DEMO));

  /* The search filters: nothing matches this, then only the demo. */
  adbscope_app_picker_set_search (picker, "no.such.app");
  g_assert_cmpuint (g_list_model_get_n_items (apps), ==, 0);
  adbscope_app_picker_set_search (picker, "adbscope.DEMO");
  g_assert_cmpuint (g_list_model_get_n_items (apps), ==, 1);

  g_signal_emit_by_name (adbscope_app_picker_get_list_box (picker), "row-activated",
                         gtk_list_box_get_row_at_index (adbscope_app_picker_get_list_box (picker), 0));
  g_assert_true (gui_test_wait (mode_is, (gpointer) "session", 30000));
  g_assert_cmpstr (adbscope_session_get_package (_adbscope_window_get_session (window)), ==, DEMO);
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (4), 20000));
}

static gboolean
threads_listed (gpointer data)
{
  GtkColumnView *view = data;
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));

  return g_list_model_get_n_items (model) >= 4;
}

static gboolean
pss_arrived (gpointer data)
{
  return card_state_is_chart (find_card ("memory", "Total PSS"));
}

static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  GtkWidget *child;

  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return ADW_ACTION_ROW (widget);
  for (child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found = find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The System page shows the demo app's job and alarm (the sim schedules one of each). */
static gboolean
jobs_and_alarms_shown (gpointer data)
{
  GtkWidget *page = GTK_WIDGET (_adbscope_window_get_page (window, "system"));
  AdwActionRow *jobs = find_row (page, "Jobs");
  AdwActionRow *alarms = find_row (page, "Alarms");

  return jobs != NULL && alarms != NULL &&
         g_strcmp0 (adw_action_row_get_subtitle (jobs), "1 scheduled, 0 running") == 0 &&
         g_str_has_prefix (adw_action_row_get_subtitle (alarms), "1 pending");
}

static void
test_pages_fill (void)
{
  AdbscopeChartCard *cpu;
  GtkColumnView *columns;
  GListModel *model;
  gboolean render_thread = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    {
      AdbscopePage *page = _adbscope_window_get_page (window, page_names[i]);
      guint before = adbscope_page_get_n_updates (page);

      show_page (page_names[i]);
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
      /* Mapped pages follow the samples. */
      g_assert_true (gui_test_wait (samples_at_least,
                                    GUINT_TO_POINTER (adbscope_session_get_n_samples (_adbscope_window_get_session (window)) + 1),
                                    5000));
      gui_test_spin (50);
      g_assert_cmpuint (adbscope_page_get_n_updates (page), >, before);
    }

  /* A hidden page is not updated. */
  {
    AdbscopePage *cpu_page = _adbscope_window_get_page (window, "cpu");
    guint n = adbscope_page_get_n_updates (cpu_page);

    g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (cpu_page)));
    gui_test_wait (samples_at_least,
                   GUINT_TO_POINTER (adbscope_session_get_n_samples (_adbscope_window_get_session (window)) + 2), 5000);
    g_assert_cmpuint (adbscope_page_get_n_updates (cpu_page), ==, n);
  }

  show_page ("overview");
  cpu = find_card ("overview", "App CPU");
  g_assert_cmpstr (adbscope_chart_card_get_state (cpu), ==, "chart");
  g_assert_nonnull (strstr (adbscope_chart_card_get_value_text (cpu), "%"));
  g_assert_true (first_layer_series (cpu) ==
                 adbscope_session_get_series (_adbscope_window_get_session (window), ADBSCOPE_SERIES_CPU_APP));
  g_assert_true (card_state_is_chart (find_card ("overview", "Frame rate")));

  show_page ("memory");
  g_assert_true (gui_test_wait (pss_arrived, NULL, 15000));

  show_page ("threads");
  columns = GTK_COLUMN_VIEW (find_descendant (GTK_WIDGET (_adbscope_window_get_page (window, "threads")),
                                              GTK_TYPE_COLUMN_VIEW));
  g_assert_true (gui_test_wait (threads_listed, columns, 10000));
  model = G_LIST_MODEL (gtk_column_view_get_model (columns));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (model, i);
      render_thread |= g_strcmp0 (adbscope_thread_get_name (t), "RenderThread") == 0;
    }
  g_assert_true (render_thread);

  show_page ("system");
  g_assert_true (gui_test_wait (jobs_and_alarms_shown, NULL, 15000));
}

static void
test_thread_identity (void)
{
  GtkColumnView *columns = GTK_COLUMN_VIEW (find_descendant (GTK_WIDGET (_adbscope_window_get_page (window, "threads")),
                                                             GTK_TYPE_COLUMN_VIEW));
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (columns));
  GListModel *model = G_LIST_MODEL (selection);
  AdbscopeThread *chosen = NULL;
  double prev = -1;
  guint64 n;

  show_page ("threads");
  /* Sorted by CPU, busiest first. */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (model, i);
      double pct = adbscope_thread_get_cpu_pct (t);

      if (isfinite (pct) && prev >= 0)
        g_assert_cmpfloat (pct, <=, prev + 1e-9);
      if (isfinite (pct))
        prev = pct;
      if (g_strcmp0 (adbscope_thread_get_name (t), "RenderThread") == 0)
        {
          chosen = t;
          gtk_single_selection_set_selected (selection, i);
        }
    }
  g_assert_nonnull (chosen);
  n = adbscope_session_get_n_samples (_adbscope_window_get_session (window));
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (n + 3), 10000));
  gui_test_spin (50);
  /* The same object, still selected, after three updates and re-sorts. */
  g_assert_true (gtk_single_selection_get_selected_item (selection) == (gpointer) chosen);

  /* Filtering by name. */
  {
    GtkEditable *search = GTK_EDITABLE (find_descendant (GTK_WIDGET (_adbscope_window_get_page (window, "threads")),
                                                         GTK_TYPE_SEARCH_ENTRY));

    gtk_editable_set_text (search, "renderthr");
    g_signal_emit_by_name (search, "search-changed");
    gui_test_spin (50);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
    gtk_editable_set_text (search, "");
    g_signal_emit_by_name (search, "search-changed");
    gui_test_spin (50);
    g_assert_cmpuint (g_list_model_get_n_items (model), >=, 4);
  }
}

static gboolean
same_pixels (GdkTexture *a,
             GdkTexture *b)
{
  gsize sa, sb;
  g_autofree guchar *pa = gui_test_pixels (a, &sa);
  g_autofree guchar *pb = gui_test_pixels (b, &sb);

  return gdk_texture_get_width (a) == gdk_texture_get_width (b) &&
         gdk_texture_get_height (a) == gdk_texture_get_height (b) &&
         memcmp (pa, pb, sa * gdk_texture_get_height (a)) == 0;
}

/* The page as drawn once it has settled: rendered until two renders 50 ms
 * apart are the same (a page that was just shown lays out and loads its
 * labels over a few main-loop iterations, which a loaded host spreads out),
 * at most 5 s; then the last render. */
static GdkTexture *
render_settled (GtkWidget *widget)
{
  GdkTexture *last = gui_test_render (widget);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      GdkTexture *now;

      gui_test_spin (50);
      now = gui_test_render (widget);
      if (same_pixels (last, now))
        {
          g_object_unref (now);
          return last;
        }
      g_object_unref (last);
      last = now;
    }
  return last;
}

static void
test_pause_resume (void)
{
  AdbscopeSession *session = _adbscope_window_get_session (window);
  AdbscopeSeries *live = adbscope_session_get_series (session, ADBSCOPE_SERIES_CPU_APP);
  AdbscopeChartCard *card;
  AdbscopeSeries *drawn;
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  guint64 drawn_n, live_n;

  show_page ("overview");
  card = find_card ("overview", "App CPU");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  g_assert_true (adbscope_data_view_get_paused (_adbscope_window_get_view (window)));
  /* The header says so. */
  g_assert_true (g_str_has_prefix (adw_view_switcher_title_get_subtitle (window->switcher_title), "Paused"));
  g_assert_true (gtk_toggle_button_get_active (window->pause_button));
  gui_test_spin (100);
  drawn = first_layer_series (card);
  g_assert_true (drawn != live);
  drawn_n = adbscope_series_get_n_pushed (drawn);
  live_n = adbscope_series_get_n_pushed (live);
  g_assert_cmpuint (drawn_n, ==, live_n);
  before = gui_test_render (GTK_WIDGET (card));

  /* The session keeps collecting... */
  g_assert_true (gui_test_wait (samples_at_least,
                                GUINT_TO_POINTER (adbscope_session_get_n_samples (session) + 2), 10000));
  gui_test_spin (100);
  g_assert_cmpuint (adbscope_series_get_n_pushed (live), >=, live_n + 2);
  /* ...while the page draws exactly what it drew. */
  g_assert_true (first_layer_series (card) == drawn);
  g_assert_cmpuint (adbscope_series_get_n_pushed (drawn), ==, drawn_n);
  after = gui_test_render (GTK_WIDGET (card));
  g_assert_true (same_pixels (before, after));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  g_assert_false (adbscope_data_view_get_paused (_adbscope_window_get_view (window)));
  g_assert_false (g_str_has_prefix (adw_view_switcher_title_get_subtitle (window->switcher_title), "Paused"));
  g_assert_false (gtk_toggle_button_get_active (window->pause_button));
  gui_test_spin (100);
  /* Resumed: the live buffer with the samples collected meanwhile. */
  g_assert_true (first_layer_series (card) == live);
  g_assert_cmpuint (adbscope_series_get_n_pushed (first_layer_series (card)), >, drawn_n);
}


/* Every page, paused: drawn once, then again after the session collected
 * more fast, frames, meminfo and slow samples — not one pixel moves, the
 * System page included.  Then resumed, the Overview does move (so the
 * comparison can see a change). */
static void
test_paused_frozen (void)
{
  AdbscopeSession *session = _adbscope_window_get_session (window);
  GdkTexture *before[G_N_ELEMENTS (page_names)];
  g_autoptr(GdkTexture) live_a = NULL;
  g_autoptr(GdkTexture) live_b = NULL;
  guint64 n;

  /* A focused entry's blinking cursor is not data. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    {
      show_page (page_names[i]);
      before[i] = render_settled (GTK_WIDGET (_adbscope_window_get_page (window, page_names[i])));
    }

  /* ≥ 3 fast samples, so also a meminfo (2 s) and slow ticks (1 s). */
  n = adbscope_session_get_n_samples (session);
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (n + 3), 15000));

  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    {
      g_autoptr(GdkTexture) after = NULL;

      show_page (page_names[i]);
      after = render_settled (GTK_WIDGET (_adbscope_window_get_page (window, page_names[i])));
      if (!same_pixels (before[i], after))
        {
          g_autofree char *a = g_strdup_printf ("%s/paused-%s-before.png", g_get_tmp_dir (), page_names[i]);
          g_autofree char *b = g_strdup_printf ("%s/paused-%s-after.png", g_get_tmp_dir (), page_names[i]);

          gdk_texture_save_to_png (before[i], a);
          gdk_texture_save_to_png (after, b);
          g_error ("page %s changed while paused (%s, %s)", page_names[i], a, b);
        }
      g_object_unref (before[i]);
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  show_page ("overview");
  gui_test_spin (200);
  live_a = gui_test_render (GTK_WIDGET (_adbscope_window_get_page (window, "overview")));
  n = adbscope_session_get_n_samples (session);
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (n + 2), 10000));
  gui_test_spin (200);
  live_b = gui_test_render (GTK_WIDGET (_adbscope_window_get_page (window, "overview")));
  g_assert_false (same_pixels (live_a, live_b));
}

/* The frames page's p50 / p90 / p99 are the report's, to the digit. */
static void
test_frame_percentiles_match_report (void)
{
  AdbscopeSession *session = _adbscope_window_get_session (window);
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *expected = NULL;
  JsonObject *ft;
  GtkLabel *label;

  show_page ("frames");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  gui_test_spin (100);
  label = gui_test_find_label (GTK_WIDGET (_adbscope_window_get_page (window, "frames")), " ms");
  g_assert_nonnull (label);

  /* The view froze at the same moment as the session's frame times: no
   * main-loop iteration in between, so nothing was added. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  report = adbscope_report_build (session, NULL);
  ft = json_object_get_object_member (json_object_get_object_member (json_node_get_object (report), "frames"),
                                      "frame_time_ms");
  g_assert_cmpint (json_object_get_int_member (ft, "n"), >, 30);
  expected = g_strdup_printf ("%.1f / %.1f / %.1f ms",
                              json_object_get_double_member (ft, "p50"),
                              json_object_get_double_member (ft, "p90"),
                              json_object_get_double_member (ft, "p99"));
  g_assert_cmpstr (gtk_label_get_text (label), ==, expected);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
}

typedef struct
{
  AdbscopeChart *chart;
  gint64         sample_us;
  guint          n_samples;
} FramesProbe;

static void
on_frames_sample (AdbscopeCollector *collector,
                  gconstpointer      sample,
                  FramesProbe       *probe)
{
  probe->sample_us = g_get_monotonic_time ();
  probe->n_samples++;
}

static gboolean
redrawn_after_sample (gpointer data)
{
  FramesProbe *probe = data;

  return probe->sample_us > 0 && _adbscope_chart_get_last_snapshot_us (probe->chart) > probe->sample_us;
}

/* With the fast shell stopped, each frames sample still reaches the FPS
 * chart: it redraws after every one of them, with the new value. */
static void
test_frames_without_fast (void)
{
  AdbscopeSession *session = _adbscope_window_get_session (window);
  AdbscopeCollector *fast = _adbscope_session_get_collector (session, "fast");
  AdbscopeCollector *frames = _adbscope_session_get_collector (session, "frames");
  AdbscopeChartCard *card = find_card ("overview", "Frame rate");
  AdbscopeSeries *fps = adbscope_session_get_series (session, ADBSCOPE_SERIES_FPS);
  FramesProbe probe = { adbscope_chart_card_get_chart (card), 0, 0 };
  guint64 n_fast;
  gulong id;

  g_assert_nonnull (fast);
  g_assert_nonnull (frames);
  show_page ("overview");
  adbscope_collector_stop (fast);
  gui_test_spin (1500);  /* a fast sample under way when it stopped */
  n_fast = adbscope_session_get_n_samples (session);

  id = g_signal_connect (frames, "sample", G_CALLBACK (on_frames_sample), &probe);
  for (guint k = 0; k < 3; k++)
    {
      guint64 pushed = adbscope_series_get_n_pushed (fps);
      guint seen = probe.n_samples;
      double value;
      g_autoptr(GString) text = g_string_new (NULL);

      probe.sample_us = 0;
      g_assert_true (gui_test_wait (redrawn_after_sample, &probe, 5000));
      g_assert_cmpuint (probe.n_samples, ==, seen + 1);
      g_assert_cmpuint (adbscope_series_get_n_pushed (fps), >, pushed);
      /* The card shows the sample just folded in. */
      if (adbscope_series_get_last_finite (fps, NULL, &value))
        {
          g_string_printf (text, "%.1f fps", value);
          if (value >= 100)
            g_string_printf (text, "%.0f fps", value);
          g_assert_cmpstr (adbscope_chart_card_get_value_text (card), ==, text->str);
        }
    }
  g_signal_handler_disconnect (frames, id);
  g_assert_cmpuint (adbscope_session_get_n_samples (session), ==, n_fast);

  adbscope_collector_start (fast);
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (n_fast + 1), 10000));
}

static JsonNode *
load_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static gboolean
live_thumbnails (gpointer data)
{
  AdbscopeScreenshotStrip *strip = data;
  g_autoptr(GPtrArray) thumbs = adbscope_screenshot_strip_list_thumbnails (strip);

  return thumbs->len >= 2
         && gtk_picture_get_paintable (GTK_PICTURE (gtk_button_get_child (g_ptr_array_index (thumbs, 0)))) != NULL;
}

/* Live: the menu's toggle starts screenshots in the running session at
 * once; they arrive (from the sim's screencap through adb) into the
 * strip, at the device's size, and go into the live recording; off again,
 * no more come. */
static void
test_live_screenshots (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdbscopeScreenshotStrip *strip = adbscope_overview_page_get_screenshot_strip (
    ADBSCOPE_OVERVIEW_PAGE (_adbscope_window_get_page (window, "overview")));
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  const AdbscopeScreenshot *shot;
  guint n;

  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (strip)));
  g_settings_set_uint (settings, "screenshot-interval", 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "settings.screenshots", NULL));
  g_assert_true (g_settings_get_boolean (settings, "screenshots"));
  g_assert_true (gui_test_wait (live_thumbnails, strip, 30000));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (strip)));
  shot = adbscope_data_view_get_screenshot (view, 0);
  g_assert_cmpuint (shot->width, ==, 1080);
  g_assert_cmpuint (shot->height, ==, 2400);
  g_assert_nonnull (shot->png);
  g_assert_cmpfloat (shot->cpu_ms, >, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "settings.screenshots", NULL));
  g_assert_false (g_settings_get_boolean (settings, "screenshots"));
  gui_test_spin (1500);
  n = adbscope_data_view_get_n_screenshots (view);
  gui_test_spin (2500);
  g_assert_cmpuint (adbscope_data_view_get_n_screenshots (view), ==, n);
  g_settings_reset (settings, "screenshots");
  g_settings_reset (settings, "screenshot-interval");
}

static void
test_marker_and_export (void)
{
  g_autofree char *report_path = g_build_filename (tmpdir, "report.json", NULL);
  g_autofree char *csv_path = g_build_filename (tmpdir, "samples.csv", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  JsonObject *obj;
  JsonArray *markers;
  GtkWidget *entry;
  gboolean found = FALSE;
  int app_col = -1;
  guint n_rows = 0;

  /* Ctrl+M's action opens the popover with the label entry focused. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.add-marker", NULL));
  gui_test_spin (100);
  entry = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (GTK_IS_TEXT (entry) || GTK_IS_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "tapped login");
  g_signal_emit_by_name (GTK_IS_TEXT (entry) ? gtk_widget_get_parent (entry) : entry, "activate");
  g_assert_cmpuint (adbscope_session_get_markers (_adbscope_window_get_session (window))->len, ==, 1);
  g_assert_cmpstr (_adbscope_window_get_last_toast (window), ==, "Marker “tapped login” added");

  g_assert_true (_adbscope_window_export_report (window, report_path, &error));
  g_assert_no_error (error);
  root = load_json (report_path);
  obj = json_node_get_object (root);
  g_assert_true (json_object_has_member (obj, "markers"));
  markers = json_object_get_array_member (obj, "markers");
  for (guint i = 0; i < json_array_get_length (markers); i++)
    {
      JsonObject *m = json_array_get_object_element (markers, i);
      found |= g_strcmp0 (json_object_get_string_member_with_default (m, "label", NULL), "tapped login") == 0;
    }
  g_assert_true (found);

  g_assert_true (_adbscope_window_export_samples (window, csv_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  lines = g_strsplit (csv, "\n", -1);
  header = g_strsplit (lines[0], ",", -1);
  g_assert_cmpstr (header[0], ==, "time_s");
  for (guint i = 0; header[i] != NULL; i++)
    if (g_strcmp0 (header[i], "cpu.app_pct") == 0)
      app_col = i;
  g_assert_cmpint (app_col, >, 0);
  for (guint l = 1; lines[l] != NULL && lines[l][0] != '\0'; l++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[l], ",", -1);
      char *end = NULL;

      g_assert_cmpuint (g_strv_length (cells), ==, g_strv_length (header));
      g_ascii_strtod (cells[0], &end);
      g_assert_true (end != cells[0] && *end == '\0');
      if (cells[app_col][0] != '\0')
        {
          double v = g_ascii_strtod (cells[app_col], &end);

          g_assert_true (*end == '\0' && v >= 0 && v <= 100);
          n_rows++;
        }
    }
  g_assert_cmpuint (n_rows, >=, 4);
}

/* A recording overlaid on the live run: at the run's start (the session's
 * clock), then at a marker both have; the summary's base is the live run. */
static void
test_compare_live (void)
{
  static const AdbscopeSynthRun other = {
    .duration_s = 610, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .spike_tick = 3, .spike_value = 77,
  };
  g_autofree char *path = g_build_filename (tmpdir, "other.adbscope", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cards = NULL;
  g_autoptr(GPtrArray) overlays = NULL;
  g_autoptr(JsonNode) diff = NULL;
  AdbscopeSession *session = _adbscope_window_get_session (window);
  const GArray *markers;
  gint64 start = adbscope_session_get_start_us (session), m600 = 0;
  AdbscopeSample got;

  g_assert_true (adbscope_synth_write (path, &other, &error));
  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "overview"));
  g_assert_true (_adbscope_window_compare_with (window, path, &error));
  g_assert_no_error (error);
  gui_test_spin (200);
  g_assert_cmpint (adbscope_comparison_get_offset (window->comparison), ==, start);

  cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));
  overlays = adbscope_chart_card_list_overlays (g_ptr_array_index (cards, 0));   /* App CPU */
  g_assert_cmpuint (overlays->len, ==, 1);
  for (guint tick = 0; tick < 600; tick += 41)
    {
      g_assert_true (adbscope_overlay_layer_find_sample (g_ptr_array_index (overlays, 0),
                                                         start + (gint64) tick * G_USEC_PER_SEC, 0, &got));
      g_assert_cmpfloat (got.value, ==, adbscope_synth_app_pct (&other, tick));
    }
  g_assert_true (adbscope_overlay_layer_find_sample (g_ptr_array_index (overlays, 0), start + 3 * G_USEC_PER_SEC,
                                                     0, &got));
  g_assert_cmpfloat (got.value, ==, 77);

  /* A live marker of the label the other run has: offered, and aligned at */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->align_labels)), ==, 1);
  _adbscope_window_add_marker (window, "m600");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->align_labels)), ==, 2);
  markers = adbscope_session_get_markers (session);
  for (guint i = 0; i < markers->len; i++)
    if (g_strcmp0 (g_array_index (markers, AdbscopeMarker, i).label, "m600") == 0)
      m600 = g_array_index (markers, AdbscopeMarker, i).time_us;
  g_assert_cmpint (m600, >, start);
  gtk_drop_down_set_selected (window->align_dropdown, 1);
  g_assert_cmpint (adbscope_comparison_get_offset (window->comparison), ==, m600 - 600 * G_USEC_PER_SEC);
  g_assert_true (adbscope_overlay_layer_find_sample (g_ptr_array_index (overlays, 0),
                                                     m600 - 597 * G_USEC_PER_SEC, 0, &got));
  g_assert_cmpfloat (got.value, ==, 77);

  diff = _adbscope_window_show_compare_summary (window, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (diff), "metrics")),
                    >, 50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-comparison", NULL));
  g_assert_null (window->comparison);
  g_assert_null (window->compare_dialog);
}

static gboolean
lost_toast (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_last_toast (window), "Lost the device: no samples are coming in") == 0;
}

static gboolean
back_toast (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_last_toast (window), "The device is back") == 0;
}

static void
test_device_lost (void)
{
  g_autoptr(GError) error = NULL;
  AdbscopeSession *session = _adbscope_window_get_session (window);
  AdbscopeSeries *cpu = adbscope_session_get_series (session, ADBSCOPE_SERIES_CPU_APP);
  guint n_toasts = _adbscope_window_get_n_toasts (window);
  const AdbscopeGap *gap;

  adbscope_test_device_kill (device);
  g_assert_true (gui_test_wait (lost_toast, NULL, 20000));
  g_assert_cmpuint (_adbscope_window_get_n_toasts (window), ==, n_toasts + 1);
  g_assert_cmpuint (adbscope_session_get_gaps (session)->len, >=, 1);
  gui_test_spin (500);
  /* One toast for one loss, even if adb and the gap both notice. */
  g_assert_cmpuint (_adbscope_window_get_n_toasts (window), ==, n_toasts + 1);

  /* The phone comes back on the same address: samples resume. */
  g_assert_true (adbscope_test_device_restart (device, &error));
  g_assert_true (gui_test_wait (back_toast, NULL, 30000));
  gap = &g_array_index (adbscope_session_get_gaps (session), AdbscopeGap,
                        adbscope_session_get_gaps (session)->len - 1);
  g_assert_cmpint (gap->end_us, >, 0);
  /* The gap is no point in the series the chart draws (never a zero): it
   * runs from one sample to the next, with nothing between them. */
  for (guint i = 0; i < adbscope_series_get_length (cpu); i++)
    {
      gint64 t = adbscope_series_get (cpu, i)->time_us;

      g_assert_false (t > gap->start_us && t < gap->end_us);
    }
}

static gboolean
demo_apps_loaded (gpointer data)
{
  AdbscopeDemo *demo = _adbscope_window_get_demo (window);
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);

  return demo != NULL && adbscope_demo_get_serial (demo) != NULL &&
         g_strcmp0 (adbscope_app_picker_get_serial (picker), adbscope_demo_get_serial (demo)) == 0 &&
         !adbscope_app_picker_get_loading (picker) &&
         g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) == 1;
}

static gboolean
pid_gone (gpointer data)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d", GPOINTER_TO_INT (data));

  return !g_file_test (path, G_FILE_TEST_EXISTS);
}

/* "Try the demo device" starts `adbscope sim` on the same adb server, goes
 * to its apps with the demo app found, and says it is simulated. */
static void
test_try_demo (void)
{
  AdbscopeDemo *demo;
  GPid pid;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL));
  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "devices");
  g_assert_null (_adbscope_window_get_session (window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.try-demo", NULL));
  g_assert_true (gui_test_wait (demo_apps_loaded, NULL, 30000));
  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "apps");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->simulated_badge)));
  demo = _adbscope_window_get_demo (window);
  g_assert_cmpstr (adbscope_demo_get_serial (demo), !=, adbscope_test_device_get_serial (device));
  pid = adbscope_demo_get_pid (demo);
  g_assert_cmpint (pid, >, 0);

  /* Closing the window stops the demo device. */
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (gui_test_wait (pid_gone, GINT_TO_POINTER (pid), 10000));
  window = NULL;
}

/* legacy-8 has no PSI, no cpufreq and no thermal service: those cards
 * show the probe's reason instead of a chart. */
static void
test_unsupported (void)
{
  const AdbscopeProbeResult *probe = adbscope_session_get_probe (_adbscope_window_get_session (window));
  struct {
    const char     *page;
    const char     *title;
    AdbscopeSource  source;
  } cases[] = {
    { "overview", "Temperature", ADBSCOPE_SOURCE_THERMAL },
    { "memory", "Memory pressure", ADBSCOPE_SOURCE_PSI },
    { "cpu", "Frequency-normalised CPU", ADBSCOPE_SOURCE_CPUFREQ },
    { "power", "Thermal status", ADBSCOPE_SOURCE_THERMAL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AdbscopeChartCard *card;
      GtkWidget *stack;

      g_assert_false (probe->supported[cases[i].source]);
      g_assert_nonnull (probe->reason[cases[i].source]);
      show_page (cases[i].page);
      card = find_card (cases[i].page, cases[i].title);
      g_assert_cmpstr (adbscope_chart_card_get_state (card), ==, "unsupported");
      g_assert_cmpstr (adbscope_chart_card_get_value_text (card), ==, "");
      stack = find_descendant (GTK_WIDGET (card), GTK_TYPE_STACK);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_stack_get_visible_child (GTK_STACK (stack)))),
                       ==, probe->reason[cases[i].source]);
      /* The chart is not on screen at all: nothing drawn as zero. */
      g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (adbscope_chart_card_get_chart (card))));
    }

  /* What the device has is still drawn. */
  show_page ("overview");
  g_assert_cmpstr (adbscope_chart_card_get_state (find_card ("overview", "App CPU")), ==, "chart");
}

static gboolean
restart_toast (gpointer data)
{
  return g_str_has_prefix (_adbscope_window_get_last_toast (window), "The app restarted");
}

/* The app crashes and starts again: a toast names the new process. */
static void
test_app_restart (void)
{
  AdbscopeSession *session = _adbscope_window_get_session (window);
  GPid old_pid = adbscope_test_device_get_app_pid (device, DEMO);
  g_autofree char *expected = NULL;
  g_autofree char *proc = NULL;
  const GArray *pids;
  gint64 new_pid;

  adbscope_test_device_control (device, "kill-app " DEMO);
  gui_test_spin (1500);
  adbscope_test_device_control (device, "start-app " DEMO);
  g_assert_true (gui_test_wait (restart_toast, NULL, 20000));
  /* The session saw the old process and then a new one. */
  pids = adbscope_session_get_pids (session);
  g_assert_cmpuint (pids->len, >=, 2);
  g_assert_cmpint (g_array_index (pids, gint64, 0), ==, old_pid);
  new_pid = g_array_index (pids, gint64, pids->len - 1);
  g_assert_cmpint (new_pid, !=, old_pid);
  proc = g_strdup_printf ("/proc/%" G_GINT64_FORMAT, new_pid);
  g_assert_true (g_file_test (proc, G_FILE_TEST_IS_DIR));
  expected = g_strdup_printf ("The app restarted (pid %" G_GINT64_FORMAT ")", new_pid);
  g_assert_cmpstr (_adbscope_window_get_last_toast (window), ==, expected);
  g_assert_cmpuint (adbscope_session_get_restarts (session), >=, 1);
}

/* Record off stops collecting and keeps the data for export; on starts a
 * new recording of the same app. */
static void
test_record_toggle (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "stopped.json", NULL);
  g_autoptr(GError) error = NULL;
  AdbscopeSession *old = _adbscope_window_get_session (window);
  guint64 n;

  g_autofree char *file = NULL;

  g_assert_true (gtk_toggle_button_get_active (window->record_button));
  g_assert_nonnull (window->recording);
  file = g_strdup (adbscope_recording_get_path (window->recording));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  g_assert_false (adbscope_session_is_running (old));
  /* the recording keeps what only the session knew, as `record`'s does:
   * its report says what the session's says (the frames' refresh period
   * and layers, the processes, the network agent) */
  {
    g_autoptr(AdbscopeRun) run = adbscope_run_load (file, G_MININT64, G_MAXINT64, &error);
    g_autoptr(JsonNode) live = adbscope_report_build (old, NULL);
    g_autoptr(JsonNode) saved = NULL;
    static const char *paths[] = { "frames.surfaceflinger.refresh_period_ms", "frames.surfaceflinger.layers",
                                   "app.processes", "network.agent.enabled" };

    g_assert_no_error (error);
    saved = adbscope_report_build_run (run, NULL);
    for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
      {
        JsonNode *x = adbscope_report_lookup (live, paths[i]), *y = adbscope_report_lookup (saved, paths[i]);
        g_autofree char *a = x ? json_to_string (x, FALSE) : NULL;
        g_autofree char *b = y ? json_to_string (y, FALSE) : NULL;

        g_test_message ("%s: session %s, file %s", paths[i], a, b);
        g_assert_cmpstr (b, ==, a);
      }
    g_assert_cmpint (json_node_get_node_type (adbscope_report_lookup (saved, "frames.surfaceflinger.refresh_period_ms")),
                     ==, JSON_NODE_VALUE);
  }
  g_assert_false (gtk_toggle_button_get_active (window->record_button));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (window->marker_button)));
  n = adbscope_session_get_n_samples (old);
  gui_test_spin (2500);
  g_assert_cmpuint (adbscope_session_get_n_samples (old), ==, n);
  g_assert_true (_adbscope_window_export_report (window, path, &error));
  g_assert_no_error (error);
  g_unlink (path);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  g_assert_true (gui_test_wait (mode_is, (gpointer) "session", 30000));
  g_assert_true (_adbscope_window_get_session (window) != old);
  g_assert_true (gui_test_wait (samples_at_least, GUINT_TO_POINTER (3), 20000));
  g_assert_true (gtk_toggle_button_get_active (window->record_button));
}

static GtkWindow *
find_window (GType type)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;
  return NULL;
}

/* Preferences write GSettings; the shortcuts window and About open. */
static void
test_dialogs (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkWindow *prefs;
  GtkWindow *about;
  GtkSpinButton *spin;

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  gui_test_spin (200);
  prefs = find_window (ADW_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (prefs);
  spin = GTK_SPIN_BUTTON (find_descendant (GTK_WIDGET (prefs), GTK_TYPE_SPIN_BUTTON));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, g_settings_get_uint (settings, "sample-interval"));
  gtk_spin_button_set_value (spin, 2000);
  g_assert_cmpuint (g_settings_get_uint (settings, "sample-interval"), ==, 2000);
  g_settings_reset (settings, "sample-interval");
  gtk_window_destroy (prefs);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  gui_test_spin (200);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)))));
  gtk_widget_set_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))), FALSE);

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  gui_test_spin (200);
  about = find_window (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  gtk_window_destroy (about);

  /* The primary menu holds the exports and dialogs. */
  {
    GtkMenuButton *menu = window->primary_menu_button;
    GMenuModel *model = gtk_menu_button_get_menu_model (menu);

    g_assert_nonnull (model);
    g_assert_cmpint (g_menu_model_get_n_items (model), ==, 4);
  }
}

static GtkWindow *
connect_and_wait_answer (const char *address,
                         int        *verdict)
{
  GtkWindow *dialog, *answer = NULL;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.connect", NULL);
  gui_test_spin (200);
  dialog = find_window (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (dialog);
  gtk_editable_set_text (g_object_get_data (G_OBJECT (dialog), "entry"), address);
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "connect"));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "connect");
  for (guint t = 0; t < 200 && answer == NULL; t++)
    {
      gui_test_spin (50);
      for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
        if (g_object_get_data (l->data, "adbscope-connect-answer") != NULL)
          answer = l->data;
    }
  g_assert_nonnull (answer);
  *verdict = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (answer), "adbscope-connect-answer"));
  return answer;
}

/* Connect…: adb's own answer is shown, a reached address is remembered,
 * a refused one is not; adb's device list is the truth. */
static void
test_connect_dialog (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *serial = adbscope_test_device_get_serial (device);
  g_autofree char *want = g_strdup_printf ("connected to %s", serial);
  g_autofree char *devices = NULL;
  g_auto(GStrv) recent = NULL;
  GtkWindow *answer, *dialog;
  int verdict = 0;

  g_settings_reset (settings, "recent-addresses");
  g_free (adbscope_test_device_adb (device, NULL, "disconnect", serial, NULL));
  answer = connect_and_wait_answer (serial, &verdict);
  g_assert_cmpint (verdict, ==, 1);
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (answer)), ==, want);
  gtk_window_destroy (answer);
  devices = adbscope_test_device_adb (device, NULL, "devices", NULL);
  g_assert_nonnull (strstr (devices, serial));
  recent = g_settings_get_strv (settings, "recent-addresses");
  g_assert_cmpuint (g_strv_length (recent), ==, 1);
  g_assert_cmpstr (recent[0], ==, serial);

  /* Nothing listens on port 9 of this machine's loopback in these tests. */
  answer = connect_and_wait_answer ("127.0.0.1:9", &verdict);
  g_assert_cmpint (verdict, ==, 2);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (answer)), "failed to connect"));
  gtk_window_destroy (answer);
  g_strfreev (recent);
  recent = g_settings_get_strv (settings, "recent-addresses");
  g_assert_cmpuint (g_strv_length (recent), ==, 1);

  /* The recent address is offered the next time; a bad one cannot be sent. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.connect", NULL);
  gui_test_spin (200);
  dialog = find_window (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (find_descendant (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW));
  gtk_editable_set_text (g_object_get_data (G_OBJECT (dialog), "entry"), "a;reboot");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "connect"));
  gtk_window_destroy (dialog);
  g_settings_reset (settings, "recent-addresses");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  const char *profile = NULL;
  int ret;

  /* --profile=NAME (ours, before GTest sees the arguments) */
  for (int i = 1; i < argc; i++)
    if (g_str_has_prefix (argv[i], "--profile="))
      {
        profile = argv[i] + strlen ("--profile=");
        for (int j = i; j < argc; j++)
          argv[j] = argv[j + 1];
        argc--;
        break;
      }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  tmpdir = g_dir_make_tmp ("adbscope-gui-XXXXXX", &error);
  g_assert_no_error (error);
  device = adbscope_test_device_start (profile, NULL, &error);
  if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED))
    {
      /* This system cannot show the profile; say why instead of testing it. */
      g_print ("1..0 # SKIP %s\n", error->message);
      g_rmdir (tmpdir);
      return 0;
    }
  g_assert_no_error (error);

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));

  /* First: it disconnects the device, which would end a running session. */
  if (profile == NULL)
    g_test_add_func ("/gui/window/connect-dialog", test_connect_dialog);
  g_test_add_func ("/gui/window/pick-device-and-app", test_pick_device_and_app);
  if (g_strcmp0 (profile, "legacy-8") == 0)
    {
      g_test_add_func ("/gui/window/unsupported", test_unsupported);
      goto run;
    }
  g_test_add_func ("/gui/window/pages-fill", test_pages_fill);
  g_test_add_func ("/gui/window/live-screenshots", test_live_screenshots);
  g_test_add_func ("/gui/window/thread-identity", test_thread_identity);
  g_test_add_func ("/gui/window/pause-resume", test_pause_resume);
  g_test_add_func ("/gui/window/paused-frozen", test_paused_frozen);
  g_test_add_func ("/gui/window/frame-percentiles-match-report", test_frame_percentiles_match_report);
  g_test_add_func ("/gui/window/frames-without-fast", test_frames_without_fast);
  g_test_add_func ("/gui/window/marker-and-export", test_marker_and_export);
  g_test_add_func ("/gui/window/compare-live", test_compare_live);
  g_test_add_func ("/gui/window/app-restart", test_app_restart);
  g_test_add_func ("/gui/window/dialogs", test_dialogs);
  g_test_add_func ("/gui/window/record-toggle", test_record_toggle);
  g_test_add_func ("/gui/window/device-lost", test_device_lost);
  g_test_add_func ("/gui/window/try-demo", test_try_demo);
run:
  ret = g_test_run ();

  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  adbscope_test_device_free (device);
  {
    g_autoptr(GFile) dir = g_file_new_for_path (tmpdir);
    g_autofree char *report = g_build_filename (tmpdir, "report.json", NULL);
    g_autofree char *csv = g_build_filename (tmpdir, "samples.csv", NULL);

    g_unlink (report);
    g_unlink (csv);
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);
  return ret;
}
