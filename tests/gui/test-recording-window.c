/* A recording in the window: opened read-only in the same pages, the whole
 * run there, the same numbers as the report, scrolled and zoomed over all
 * of it, listed on the start page.  A synthetic hour with known values
 * (tests/common/adbscope-test-recording.h); no device needed. */
#include "config.h"

#include <sqlite3.h>

#include <math.h>

#include "adbscope-application.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart.h"
#include "adbscope-chart-private.h"
#include "adbscope-core.h"
#include "adbscope-line-layer.h"
#include "adbscope-recording-source.h"
#include "adbscope-test-recording.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

static AdbscopeApplication *app;
static AdbscopeWindow *window;
static char *tmpdir;
static char *path;

static const AdbscopeSynthRun hour = {
  .duration_s = 3600, .interval_ms = 1000, .n_cores = 4, .n_threads = 6, .fps = 60,
  .spike_tick = 2000, .spike_value = 400,
};

/* A spinner spinning under @w: a page that says it waits. */
static gboolean
has_spinning_spinner (GtkWidget *w)
{
  if (GTK_IS_SPINNER (w) && gtk_spinner_get_spinning (GTK_SPINNER (w)) && gtk_widget_is_visible (w))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    if (has_spinning_spinner (c))
      return TRUE;
  return FALSE;
}

static gboolean
details_loaded (gpointer data)
{
  return !adbscope_data_view_get_details_pending (_adbscope_window_get_view (window));
}

static void
test_open (void)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  guint64 samples_read = adbscope_run_get_n_samples_read ();
  double open_s;
  AdbscopeDataView *view;

  g_assert_true (_adbscope_window_open_recording (window, path, &error));
  g_assert_no_error (error);
  open_s = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("opened an hour at 1 s in %.3f s", open_s);
  g_assert_cmpfloat (open_s, <, 1.0);
  /* the whole run is shown, and the time menu says so */
  g_assert_cmpstr (gtk_menu_button_get_label (window->time_button), ==, "Whole run");
  /* the frame times and threads come from a thread: until then the pages
   * that show them wait, with no numbers from empty lists */
  view = _adbscope_window_get_view (window);
  g_assert_true (adbscope_data_view_get_details_pending (view));
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_data_view_get_threads (view)), ==, 0);
  g_assert_true (gui_test_wait (details_loaded, NULL, 20000));
  gui_test_spin (200);
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_data_view_get_threads (view)), ==, 6);
  /* how a shown page waits (the flag set again by hand: the thread may
   * be done before a page is drawn) */
  for (const char **page = (const char *[]){ "threads", "frames", NULL }; *page; page++)
    {
      GtkWidget *w = GTK_WIDGET (_adbscope_window_get_page (window, *page));

      adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), *page);
      gui_test_spin (100);
      g_assert_false (has_spinning_spinner (w));
      adbscope_data_view_set_details_pending (view, TRUE);
      g_assert_true (has_spinning_spinner (w));
      if (g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR") != NULL)   /* to look at it */
        {
          g_autofree char *name = g_strdup_printf ("recording-waiting-%s.png", *page);
          g_autofree char *png = g_build_filename (g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR"), name, NULL);

          gui_test_spin (100);
          g_assert_true (gui_test_save_window (GTK_WIDGET (window), png));
        }
      adbscope_data_view_set_details_pending (view, FALSE);
      g_assert_false (has_spinning_spinner (w));
    }
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_data_view_get_threads (view)), ==, 6);
  /* Opening read no sample into memory: the charts read the file's
   * visible window themselves (the report of the file reads them all,
   * test_same_values_as_report) */
  g_assert_cmpuint (adbscope_run_get_n_samples_read (), ==, samples_read);
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_assert_cmpuint (adbscope_series_get_length (adbscope_data_view_get_series (view, i)), ==, 0);

  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "session");
  g_assert_cmpstr (_adbscope_window_get_opened_path (window), ==, path);
  /* read-only: nothing to record, pause or mark; the scrollbar is there */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->record_button)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->marker_button)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->time_scrollbar)));
  g_assert_null (window->recording);
  g_assert_true (strstr (gtk_window_get_title (GTK_WINDOW (window)), "recording.adbscope") != NULL);
}

/* The row titled @title under @w. */
static AdwActionRow *
find_row (GtkWidget  *w,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (w) && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (w)), title) == 0)
    return ADW_ACTION_ROW (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      AdwActionRow *row = find_row (c, title);

      if (row != NULL)
        return row;
    }
  return NULL;
}

/* The text of the row's value (its numeric suffix label). */
static const char *
row_value (GtkWidget  *page,
           const char *title)
{
  AdwActionRow *row = find_row (page, title);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_assert_nonnull (row);
  g_ptr_array_add (stack, row);
  while (stack->len > 0)
    {
      GtkWidget *cur = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_LABEL (cur) && gtk_widget_has_css_class (cur, "numeric"))
        return gtk_label_get_text (GTK_LABEL (cur));
      for (GtkWidget *c = gtk_widget_get_first_child (cur); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  g_error ("no value in the row %s", title);
}

/* What the pages read is what the report says, over the whole hour. */
static void
test_same_values_as_report (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (path, G_MININT64, G_MAXINT64, &error);
  g_autoptr(JsonNode) report = NULL;
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  guint64 samples_read = adbscope_run_get_n_samples_read ();
  g_autofree char *expected = NULL;
  GtkLabel *label;

  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);
  g_assert_cmpuint (adbscope_data_view_get_n_samples (view), ==, 3600);
  g_assert_cmpuint (adbscope_data_view_get_n_samples (view), ==,
                    json_node_get_int (adbscope_report_lookup (report, "run.samples")));
  g_assert_cmpuint (adbscope_data_view_get_n_markers (view), ==, 5);
  g_assert_cmpuint (adbscope_data_view_get_n_cores (view), ==, 4);
  g_assert_cmpint (adbscope_data_view_get_frame_totals (view)->frames, ==,
                   json_node_get_int (adbscope_report_lookup (report, "frames.total")));
  g_assert_cmpint (adbscope_data_view_get_frame_totals (view)->janky, ==,
                   json_node_get_int (adbscope_report_lookup (report, "frames.janky")));
  /* the threads table is the report's cpu.threads */
  {
    GListModel *threads = adbscope_data_view_get_threads (view);
    JsonArray *want = json_node_get_array (adbscope_report_lookup (report, "cpu.threads"));

    g_assert_cmpuint (g_list_model_get_n_items (threads), ==, 6);
    g_assert_cmpuint (json_array_get_length (want), ==, 6);
    for (guint i = 0; i < 6; i++)
      {
        JsonObject *w = json_array_get_object_element (want, i);
        gboolean found = FALSE;

        for (guint k = 0; k < 6 && !found; k++)
          {
            g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, k);

            if (adbscope_thread_get_tid (t) != json_object_get_int_member (w, "tid"))
              continue;
            found = TRUE;
            g_assert_cmpfloat (adbscope_thread_get_max_cpu_pct (t), ==, json_object_get_double_member (w, "max_pct"));
            g_assert_cmpfloat (adbscope_thread_get_cpu_pct (t), ==, json_object_get_double_member (w, "last_pct"));
          }
        g_assert_true (found);
      }
  }

  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "frames");
  gui_test_spin (300);
  label = gui_test_find_label (GTK_WIDGET (_adbscope_window_get_page (window, "frames")), " ms");
  g_assert_nonnull (label);
  expected = g_strdup_printf ("%.1f / %.1f / %.1f ms",
                              json_node_get_double (adbscope_report_lookup (report, "frames.frame_time_ms.p50")),
                              json_node_get_double (adbscope_report_lookup (report, "frames.frame_time_ms.p90")),
                              json_node_get_double (adbscope_report_lookup (report, "frames.frame_time_ms.p99")));
  g_assert_cmpstr (gtk_label_get_text (label), ==, expected);
  /* an opened recording names the source of its frame rate */
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (find_row (GTK_WIDGET (_adbscope_window_get_page (window, "frames")),
                                                                "Source of the frame rate")), "gfxinfo"));
  g_assert_cmpstr (row_value (GTK_WIDGET (_adbscope_window_get_page (window, "frames")), "Frames"), ==, "216000");

  /* Export report of an opened recording is the recording's report */
  {
    g_autofree char *out = g_build_filename (tmpdir, "exported.json", NULL);
    g_autofree char *text = NULL;
    g_autofree char *want = json_to_string (report, TRUE);

    g_assert_true (_adbscope_window_export_report (window, out, &error));
    g_assert_no_error (error);
    /* (which reads every sample: the counter test_open relies on counts) */
    g_assert_cmpuint (adbscope_run_get_n_samples_read (), >, samples_read);
    g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
    g_assert_cmpstr (g_strstrip (text), ==, want);
  }
}

static gboolean
exports_done (gpointer data)
{
  return window->n_exports == 0;
}

/* Export Samples and Export Report of an opened recording run in a
 * thread: the CSV is what a session holding the whole run writes, the
 * report is `adbscope report`'s. */
static void
test_exports_in_a_thread (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (path, G_MININT64, G_MAXINT64, &error);
  g_autoptr(AdbscopeSession) whole = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *want_csv = g_build_filename (tmpdir, "whole.csv", NULL);
  g_autofree char *csv = g_build_filename (tmpdir, "exported.csv", NULL);
  g_autofree char *json = g_build_filename (tmpdir, "exported-async.json", NULL);
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree char *want_report = NULL;
  guint toasts = window->n_toasts;

  g_assert_no_error (error);
  whole = adbscope_session_new_from_run (run);
  g_assert_true (adbscope_csv_write_session (whole, want_csv, &error));
  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);
  want_report = json_to_string (report, TRUE);

  g_assert_true (_adbscope_window_export_async (window, csv, FALSE));
  g_assert_true (_adbscope_window_export_async (window, json, TRUE));
  g_assert_cmpuint (window->n_exports, ==, 2);
  /* the header bar says what runs */
  g_assert_true (gtk_widget_get_visible (window->busy_box));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->busy_label), "Exporting"));
  if (g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR") != NULL)   /* to look at it */
    {
      g_autofree char *png = g_build_filename (g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR"), "recording-exporting.png", NULL);

      gui_test_spin (30);
      g_assert_true (gui_test_save_window (GTK_WIDGET (window), png));
    }
  g_assert_true (gui_test_wait (exports_done, NULL, 60000));
  g_assert_false (gtk_widget_get_visible (window->busy_box));
  g_assert_cmpuint (window->n_toasts, ==, toasts + 2);
  g_assert_true (g_str_has_prefix (window->last_toast, "Saved “exported"));
  g_assert_true (g_file_get_contents (want_csv, &want, NULL, NULL));
  g_assert_true (g_file_get_contents (csv, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, want);
  g_clear_pointer (&got, g_free);
  g_assert_true (g_file_get_contents (json, &got, NULL, NULL));
  g_assert_cmpstr (g_strstrip (got), ==, want_report);

  /* nowhere to write: the error, as a toast */
  {
    g_autofree char *bad = g_build_filename (tmpdir, "no-such-dir", "x.csv", NULL);

    g_assert_true (_adbscope_window_export_async (window, bad, FALSE));
    g_assert_true (gui_test_wait (exports_done, NULL, 60000));
    g_assert_true (strstr (window->last_toast, "Cannot write the samples") != NULL);
  }
}

static AdbscopeChart *
first_chart (void)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));

  g_assert_cmpuint (cards->len, >, 0);
  return adbscope_chart_card_get_chart (g_ptr_array_index (cards, 0));
}

/* The whole run fits, zooming narrows it, scrolling moves every chart. */
static void
test_scroll_and_zoom (void)
{
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  GtkAdjustment *adj = gtk_scrollbar_get_adjustment (window->time_scrollbar);
  AdbscopeChart *chart;

  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  gui_test_spin (200);
  chart = first_chart ();
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), ==, 3600);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, 3600);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 300));
  gui_test_spin (100);
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), ==, 300);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (adj), ==, 300);

  {
    gint64 before = _adbscope_chart_get_last_snapshot_us (chart);

    _adbscope_window_scroll_to (window, 1000);
    gui_test_spin (300);
    /* no new sample, but the charts were drawn again at the new place */
    g_assert_cmpint (_adbscope_chart_get_last_snapshot_us (chart), >, before);
  }
  g_assert_cmpint (adbscope_data_view_get_end_time (view), ==, (gint64) 1000 * G_USEC_PER_SEC);
  g_assert_cmpint (adbscope_chart_get_end_time (chart), ==, (gint64) 1000 * G_USEC_PER_SEC);
  g_assert_cmpfloat (adbscope_chart_get_visible_seconds (chart), ==, 300);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 0));
  gui_test_spin (100);
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), >=, 3600);
  /* the whole run: the right edge moved back to its end */
  g_assert_cmpint (adbscope_data_view_get_end_time (view), >=, (gint64) 3600 * G_USEC_PER_SEC);
  {
    const char *keep = g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR");   /* to look at it */
    g_autofree char *png = g_build_filename (keep ? keep : tmpdir, "recording-whole-run.png", NULL);
    g_assert_true (gui_test_save_window (GTK_WIDGET (window), png));
  }
}

static AdbscopeChart *
last_chart (void)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));

  return adbscope_chart_card_get_chart (g_ptr_array_index (cards, cards->len - 1));
}

static guint
n_drawn (AdbscopeChart *chart)
{
  return _adbscope_chart_get_n_snapshots (chart) - _adbscope_chart_get_n_skipped (chart);
}

static gboolean
below_the_view (gpointer data)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (data, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t b;

  return gtk_widget_compute_bounds (data, scrolled, &b) && b.origin.y >= gtk_widget_get_height (scrolled);
}

static gboolean
drawn_since (gpointer data)
{
  guint *counts = data;

  return n_drawn (last_chart ()) > counts[0];
}

/* A chart scrolled out of the page's view draws nothing while the window
 * moves through the run, and draws once it is scrolled into view. */
static void
test_charts_out_of_view (void)
{
  AdbscopeChart *first, *last;
  GtkScrolledWindow *scrolled;
  GtkAdjustment *vadj;
  guint first_drawn, last_drawn, last_skipped, counts[1];
  int width, height;

  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 480);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 300));
  first = first_chart ();
  last = last_chart ();
  scrolled = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (last), GTK_TYPE_SCROLLED_WINDOW));
  vadj = gtk_scrolled_window_get_vadjustment (scrolled);
  gtk_adjustment_set_value (vadj, 0);
  g_assert_true (gui_test_wait (below_the_view, last, 10000));
  gui_test_spin (200);

  first_drawn = n_drawn (first);
  last_drawn = n_drawn (last);
  last_skipped = _adbscope_chart_get_n_skipped (last);
  _adbscope_window_scroll_to (window, 1500);
  gui_test_spin (300);
  _adbscope_window_scroll_to (window, 1700);
  gui_test_spin (300);
  g_assert_cmpuint (n_drawn (first), >, first_drawn);
  g_assert_cmpuint (n_drawn (last), ==, last_drawn);
  g_assert_cmpuint (_adbscope_chart_get_n_skipped (last), >, last_skipped);

  /* scrolled into view: drawn at the window's new place */
  counts[0] = n_drawn (last);
  gtk_adjustment_set_value (vadj, gtk_adjustment_get_upper (vadj));
  g_assert_true (gui_test_wait (drawn_since, counts, 10000));
  g_assert_false (below_the_view (last));
  g_assert_cmpint (adbscope_chart_get_end_time (last), ==, (gint64) 1700 * G_USEC_PER_SEC);

  gtk_adjustment_set_value (vadj, 0);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gui_test_spin (200);
}

static void
test_recent_and_bad_files (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-recordings");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_build_filename (tmpdir, "not-a-recording.adbscope", NULL);
  GtkListBox *list;

  g_assert_cmpstr (recent[0], ==, path);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL));
  gui_test_spin (100);
  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "devices");
  list = adbscope_device_picker_get_recent_list (_adbscope_window_get_device_picker (window));
  g_assert_nonnull (gtk_list_box_get_row_at_index (list, 0));
  g_assert_null (gtk_list_box_get_row_at_index (list, 1));

  /* a bad file is an error, and the window stays where it was */
  g_assert_true (g_file_set_contents (text, "hello", -1, NULL));
  g_assert_false (_adbscope_window_open_recording (window, text, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "devices");
  g_clear_error (&error);

  /* a shared recording is hostile input: 200 000 levels of JSON in its
   * meta overflowed json-glib's recursive parser (SIGSEGV); now the one
   * reader of untrusted JSON refuses it, and the window stays */
  {
    g_autofree char *deep_path = g_build_filename (tmpdir, "deep-meta.adbscope", NULL);
    g_autofree char *data = NULL;
    GString *deep = g_string_new ("{\"model\": ");
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    gsize len;

    for (guint i = 0; i < 200000; i++)
      g_string_append_c (deep, '[');
    for (guint i = 0; i < 200000; i++)
      g_string_append_c (deep, ']');
    g_string_append_c (deep, '}');
    g_assert_true (g_file_get_contents (path, &data, &len, NULL));
    g_assert_true (g_file_set_contents (deep_path, data, len, NULL));
    g_assert_cmpint (sqlite3_open (deep_path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT OR REPLACE INTO meta VALUES ('device', ?1)", -1, &st, NULL), ==, SQLITE_OK);
    sqlite3_bind_text (st, 1, deep->str, (int) deep->len, SQLITE_TRANSIENT);
    g_assert_cmpint (sqlite3_step (st), ==, SQLITE_DONE);
    sqlite3_finalize (st);
    g_assert_cmpint (sqlite3_close (db), ==, SQLITE_OK);
    g_string_free (deep, TRUE);

    g_assert_false (_adbscope_window_open_recording (window, deep_path, &error));
    g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "nested"));
    g_assert_cmpstr (_adbscope_window_get_mode (window), ==, "devices");
  }

  /* a recent row opens its recording */
  g_signal_emit_by_name (gtk_list_box_get_row_at_index (list, 0), "activate");
  gui_test_spin (200);
  g_assert_cmpstr (_adbscope_window_get_opened_path (window), ==, path);
}

/* The line layer of any chart on @page reading @source, or NULL. */
static AdbscopeChart *
chart_reading (const char          *page,
               AdbscopeChartSource *source)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, page));

  for (guint i = 0; i < cards->len; i++)
    {
      AdbscopeChart *chart = adbscope_chart_card_get_chart (g_ptr_array_index (cards, i));

      for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (chart)); c; c = gtk_widget_get_next_sibling (c))
        if (ADBSCOPE_IS_LINE_LAYER (c) && adbscope_line_layer_get_source (ADBSCOPE_LINE_LAYER (c)) == source)
          return chart;
    }
  return NULL;
}

/* The charts read the file through its level of detail, and what they
 * draw over the whole run is the report's: the CPU max reaches the spike,
 * the columns' mean is the report's mean.  The axis is the run's clock. */
static void
test_charts_read_the_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (path, G_MININT64, G_MAXINT64, &error);
  g_autoptr(JsonNode) report = NULL;
  AdbscopeDataView *view = _adbscope_window_get_view (window);
  AdbscopeChartSource *source = adbscope_data_view_get_source (view, ADBSCOPE_SERIES_CPU_APP);
  g_autofree AdbscopeChartBucket *b = NULL;
  g_auto(GStrv) labels = NULL;
  g_autoptr(GString) hover = g_string_new (NULL);
  graphene_rect_t plot;
  AdbscopeChart *chart;
  double max = -INFINITY, sum = 0;
  guint width, n = 0;
  gint64 t0, t1;

  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 0));
  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  gui_test_spin (300);

  g_assert_true (ADBSCOPE_IS_RECORDING_SOURCE (source));
  chart = chart_reading ("overview", source);
  g_assert_nonnull (chart);
  g_assert_true (adbscope_chart_get_plot_area (chart, &plot));
  width = (guint) plot.size.width;
  g_assert_cmpuint (width, >, 50);
  b = g_new (AdbscopeChartBucket, width);
  adbscope_chart_get_time_window (chart, &t0, &t1);
  g_assert_cmpint (t1 - t0, >=, (gint64) 3600 * G_USEC_PER_SEC);
  adbscope_chart_source_bucket (source, MAX (t0, 0), t1, adbscope_chart_get_interval (chart), b, width);
  /* an hour in a few hundred columns: read from the level of detail */
  g_assert_cmpint (adbscope_recording_source_get_level (ADBSCOPE_RECORDING_SOURCE (source)), >=, 0);
  for (guint c = 0; c < width; c++)
    if (b[c].count > 0)
      {
        max = MAX (max, b[c].max);
        sum += b[c].sum;
        n += b[c].count;
      }
  g_assert_cmpuint (n, ==, json_node_get_int (adbscope_report_lookup (report, "cpu.app_pct.n")));
  g_assert_cmpfloat (max, ==, json_node_get_double (adbscope_report_lookup (report, "cpu.app_pct.max")));
  g_assert_cmpfloat_with_epsilon (sum / n, json_node_get_double (adbscope_report_lookup (report, "cpu.app_pct.avg")),
                                  0.005);

  /* the run's clock on the axis and in the tooltip, never "now" */
  g_assert_true (adbscope_chart_get_run_clock (chart));
  labels = _adbscope_chart_dup_time_labels (chart);
  g_assert_cmpuint (g_strv_length (labels), >=, 2);
  for (guint i = 0; labels[i]; i++)
    {
      g_test_message ("axis label %s", labels[i]);
      g_assert_true (g_regex_match_simple ("^[0-9]+:[0-5][0-9]:[0-5][0-9]$", labels[i], 0, 0));
    }
  g_assert_true (g_strv_contains ((const char * const *) labels, "0:30:00"));
  adbscope_chart_format_time (chart, (gint64) 1234 * G_USEC_PER_SEC, hover);
  g_assert_cmpstr (hover->str, ==, "0:20:34");
}

/* "1:02:03" or "2:03" in seconds. */
static gint64
label_seconds (const char *label)
{
  g_auto(GStrv) parts = g_strsplit (label, ":", -1);
  gint64 s = 0;

  g_assert_cmpuint (g_strv_length (parts), >=, 2);
  for (guint i = 0; parts[i] != NULL; i++)
    s = s * 60 + g_ascii_strtoll (parts[i], NULL, 10);
  return s;
}

/* The time charts of @page: the Janky frames one and the others. */
static void
time_charts (const char     *page,
             AdbscopeChart **janky,
             GPtrArray      *others)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, page));

  *janky = NULL;
  for (guint i = 0; i < cards->len; i++)
    {
      AdbscopeChartCard *card = g_ptr_array_index (cards, i);
      AdbscopeChart *chart = adbscope_chart_card_get_chart (card);

      if (adbscope_chart_get_x_axis (chart) != ADBSCOPE_CHART_X_AXIS_TIME)
        continue;
      if (g_str_has_prefix (adbscope_chart_card_get_title (card), "Janky frames"))
        *janky = chart;
      else
        g_ptr_array_add (others, chart);
    }
}

/* The Janky frames charts (Overview and Frames) show the run's window on
 * the run's clock, like every other chart: the same time window, and axis
 * labels that are times inside it, over the whole run and scrolled. */
static void
test_janky_axis (void)
{
  const struct { guint seconds; guint scroll_to; } windows[] = { { 0, 0 }, { 300, 1000 }, { 300, 3000 } };
  const char *pages[] = { "overview", "frames" };

  for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", windows[w].seconds));
      if (windows[w].scroll_to > 0)
        _adbscope_window_scroll_to (window, windows[w].scroll_to);
      for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
        {
          g_autoptr(GPtrArray) others = g_ptr_array_new ();
          g_auto(GStrv) labels = NULL;
          AdbscopeChart *janky;
          gint64 t0, t1;

          adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), pages[p]);
          gui_test_spin (300);
          time_charts (pages[p], &janky, others);
          g_assert_nonnull (janky);
          g_assert_cmpuint (others->len, >=, 1);
          g_assert_true (adbscope_chart_get_run_clock (janky));
          adbscope_chart_get_time_window (janky, &t0, &t1);
          g_test_message ("%s, %u s window at %u s: janky %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " us",
                          pages[p], windows[w].seconds, windows[w].scroll_to, t0, t1);
          g_assert_cmpint (t1, ==, windows[w].scroll_to > 0 ? (gint64) windows[w].scroll_to * G_USEC_PER_SEC
                                                             : (gint64) 3600 * G_USEC_PER_SEC);
          for (guint i = 0; i < others->len; i++)
            {
              gint64 o0, o1;

              adbscope_chart_get_time_window (g_ptr_array_index (others, i), &o0, &o1);
              g_assert_cmpint (o0, ==, t0);
              g_assert_cmpint (o1, ==, t1);
              g_assert_true (adbscope_chart_get_run_clock (g_ptr_array_index (others, i)));
            }
          labels = _adbscope_chart_dup_time_labels (janky);
          g_assert_cmpuint (g_strv_length (labels), >=, 2);
          for (guint i = 0; labels[i] != NULL; i++)
            {
              gint64 s = label_seconds (labels[i]);

              g_assert_cmpint (s, >=, t0 / G_USEC_PER_SEC);
              g_assert_cmpint (s, <=, (t1 + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
            }
        }
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 0));
  gui_test_spin (100);
}

/* Ctrl+plus / Ctrl+minus halve and double the window, between 10 s and
 * the whole run. */
static void
test_zoom_keys (void)
{
  AdbscopeDataView *view = _adbscope_window_get_view (window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 300));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL));
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), ==, 150);
  for (guint i = 0; i < 10; i++)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL);
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), ==, 10);
  for (guint i = 0; i < 12; i++)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-out", NULL);
  g_assert_cmpfloat (adbscope_data_view_get_visible_seconds (view), ==, 3601);
  g_assert_cmpstr (gtk_menu_button_get_label (window->time_button), ==, "Whole run");
}

/* An opened game (its frames from a SurfaceView, none from HWUI): the
 * Frames page shows the report's frame count and janky share, says they
 * are SurfaceFlinger's, and names the source of the frame rate; its
 * percentiles are SurfaceFlinger's present-to-present times. */
static void
test_game_frames_page (void)
{
  static const AdbscopeSynthRun game = {
    .duration_s = 300, .interval_ms = 1000, .n_cores = 2, .n_threads = 2, .fps = 60,
    .frames_from = ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER,
  };
  g_autofree char *game_path = g_build_filename (tmpdir, "game.adbscope", NULL);
  g_autofree char *janky = NULL;
  g_autofree char *total = NULL;
  g_autofree char *percentiles = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = NULL;
  g_autoptr(JsonNode) report = NULL;
  GtkWidget *page = GTK_WIDGET (_adbscope_window_get_page (window, "frames"));
  AdwActionRow *frames_row, *source_row, *missed;

  g_assert_true (adbscope_synth_write (game_path, &game, &error));
  g_assert_no_error (error);
  run = adbscope_run_load (game_path, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  report = adbscope_report_build_run (run, NULL);
  g_assert_true (_adbscope_window_open_recording (window, game_path, &error));
  g_assert_no_error (error);
  g_assert_true (gui_test_wait (details_loaded, NULL, 20000));
  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "frames");
  gui_test_spin (300);

  total = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (adbscope_report_lookup (report, "frames.total")));
  janky = g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f %%)",
                           json_node_get_int (adbscope_report_lookup (report, "frames.janky")),
                           json_node_get_double (adbscope_report_lookup (report, "frames.janky_pct")));
  percentiles = g_strdup_printf ("%.1f / %.1f / %.1f ms",
                                 json_node_get_double (adbscope_report_lookup (report, "frames.surfaceflinger.frame_time_ms.p50")),
                                 json_node_get_double (adbscope_report_lookup (report, "frames.surfaceflinger.frame_time_ms.p90")),
                                 json_node_get_double (adbscope_report_lookup (report, "frames.surfaceflinger.frame_time_ms.p99")));
  g_test_message ("Frames %s, Janky %s, p50/p90/p99 %s", row_value (page, "Frames"), row_value (page, "Janky frames"),
                  row_value (page, "Frame time p50 / p90 / p99"));
  g_assert_cmpstr (total, ==, "18000");
  g_assert_cmpstr (row_value (page, "Frames"), ==, total);
  g_assert_cmpstr (row_value (page, "Janky frames"), ==, janky);
  g_assert_cmpstr (janky, ==, "600 (3.3 %)");
  g_assert_cmpstr (row_value (page, "Frame time p50 / p90 / p99"), ==, percentiles);
  frames_row = find_row (page, "Frames");
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (frames_row), "SurfaceFlinger"));
  source_row = find_row (page, "Source of the frame rate");
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (source_row), "SurfaceFlinger"));
  g_assert_cmpstr (adw_action_row_get_subtitle (source_row), ==, ADBSCOPE_SYNTH_SF_LAYER);
  /* HWUI's jank causes are not shown for frames HWUI never drew */
  g_assert_nonnull (gui_test_find_label (page, "HWUI drew no frames"));
  missed = find_row (page, "Missed vsync");
  g_assert_true (missed == NULL || !gtk_widget_get_visible (GTK_WIDGET (missed)));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  tmpdir = g_dir_make_tmp ("adbscope-gui-rec-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", tmpdir, TRUE);
  path = g_build_filename (tmpdir, "recording.adbscope", NULL);
  g_assert_true (adbscope_synth_write (path, &hour, &error));
  g_assert_no_error (error);

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/gui/recording/open", test_open);
  g_test_add_func ("/gui/recording/same-values-as-report", test_same_values_as_report);
  g_test_add_func ("/gui/recording/exports-in-a-thread", test_exports_in_a_thread);
  g_test_add_func ("/gui/recording/scroll-and-zoom", test_scroll_and_zoom);
  g_test_add_func ("/gui/recording/charts-read-the-file", test_charts_read_the_file);
  g_test_add_func ("/gui/recording/janky-axis", test_janky_axis);
  g_test_add_func ("/gui/recording/zoom-keys", test_zoom_keys);
  g_test_add_func ("/gui/recording/charts-out-of-view", test_charts_out_of_view);
  g_test_add_func ("/gui/recording/recent-and-bad-files", test_recent_and_bad_files);
  g_test_add_func ("/gui/recording/game-frames-page", test_game_frames_page);
  ret = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    (void) system (cmd);
  }
  return ret;
}
