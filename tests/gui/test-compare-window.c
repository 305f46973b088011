/* Compare: a second recording overlaid on the one shown, in every time
 * chart.  Two synthetic runs with known values (tests/common), markers put
 * in with sqlite3; B's samples are read back with sqlite3 (not through
 * Adbscope) and must be what the overlay layers hold, at B's time plus the
 * alignment; the summary must be what `adbscope compare A B` prints. */
#include "config.h"

#include <math.h>
#include <sqlite3.h>

#include "adbscope-application.h"
#include "adbscope-chart-card.h"
#include "adbscope-chart.h"
#include "adbscope-core.h"
#include "adbscope-overlay-layer.h"
#include "adbscope-test-recording.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

static AdbscopeApplication *app;
static AdbscopeWindow *window;
static char *tmpdir;
static char *path_a;
static char *path_b;

/* Different lengths, core counts and spikes, so A and B differ. */
static const AdbscopeSynthRun run_a = {
  .duration_s = 1200, .interval_ms = 1000, .n_cores = 4, .n_threads = 3, .fps = 60,
  .spike_tick = 300, .spike_value = 250,
};
static const AdbscopeSynthRun run_b = {
  .duration_s = 900, .interval_ms = 1000, .n_cores = 2, .n_threads = 3, .fps = 60,
  .spike_tick = 100, .spike_value = 333,
};

/* "launch" at 100 s in A, 40 s in B */
#define LAUNCH_A_US (G_GINT64_CONSTANT (100) * G_USEC_PER_SEC)
#define LAUNCH_B_US (G_GINT64_CONSTANT (40) * G_USEC_PER_SEC)

static void
sql_exec (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char *msg = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    g_error ("%s: %s", sql, msg);
  sqlite3_close (db);
}

/* (t_us, value) of a series of B, straight from the file */
static GArray *
read_samples (const char *path,
              const char *series)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (AdbscopeSample));
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT t_us, value FROM sample JOIN series ON series.id = sample.series"
                                           " WHERE path = ?1 AND value IS NOT NULL ORDER BY t_us", -1, &st, NULL),
                   ==, SQLITE_OK);
  sqlite3_bind_text (st, 1, series, -1, SQLITE_STATIC);
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      AdbscopeSample s = { sqlite3_column_int64 (st, 0), sqlite3_column_double (st, 1) };

      g_array_append_val (out, s);
    }
  sqlite3_finalize (st);
  sqlite3_close (db);
  return out;
}

static AdbscopeChartCard *
find_card (const char *page,
           const char *title)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, page));

  for (guint i = 0; i < cards->len; i++)
    if (g_strcmp0 (adbscope_chart_card_get_title (g_ptr_array_index (cards, i)), title) == 0)
      return g_ptr_array_index (cards, i);
  g_error ("no card “%s” on %s", title, page);
  return NULL;
}

/* Every overlaid sample of @series is B's row at its time + @offset. */
static void
assert_overlay_is_b (AdbscopeOverlayLayer *layer,
                     const char           *series,
                     gint64                offset)
{
  g_autoptr(GArray) rows = read_samples (path_b, series);
  guint checked = 0;

  g_assert_cmpuint (rows->len, >, 100);
  for (guint i = 0; i < rows->len; i += 7)
    {
      const AdbscopeSample *r = &g_array_index (rows, AdbscopeSample, i);
      AdbscopeSample got;

      g_assert_true (adbscope_overlay_layer_find_sample (layer, r->time_us + offset, 0, &got));
      g_assert_cmpint (got.time_us, ==, r->time_us + offset);
      g_assert_cmpfloat (got.value, ==, r->value);
      checked++;
    }
  g_assert_cmpuint (checked, >, 14);
}

static AdbscopeOverlayLayer *
first_overlay (AdbscopeChartCard *card)
{
  g_autoptr(GPtrArray) overlays = adbscope_chart_card_list_overlays (card);

  g_assert_cmpuint (overlays->len, >, 0);
  return g_ptr_array_index (overlays, 0);
}

static char *
describe (AdbscopeChartLayer *layer,
          gint64              time_us)
{
  GString *text = g_string_new (NULL);

  ADBSCOPE_CHART_LAYER_GET_CLASS (layer)->describe_at (layer, 0, time_us, text);
  return g_string_free (text, FALSE);
}

static gboolean
compare_read (gpointer data)
{
  return window->n_compare_reads == 0;
}

static void
test_compare (void)
{
  g_autoptr(GError) error = NULL;
  const char *pages[] = { "overview", "cpu", "memory", "frames", "power" };
  guint n_overlaid = 0;

  g_assert_true (_adbscope_window_open_recording (window, path_a, &error));
  g_assert_no_error (error);
  gui_test_spin (200);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));

  /* as the menu does it: read in a thread, shown when read */
  g_assert_true (_adbscope_window_compare_with_async (window, path_b, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (window->n_compare_reads, ==, 1);
  g_assert_null (window->comparison);
  g_assert_true (gtk_widget_get_visible (window->busy_box));
  g_assert_nonnull (strstr (gtk_label_get_text (window->busy_label), "b.adbscope"));
  g_assert_true (gui_test_wait (compare_read, NULL, 30000));
  g_assert_false (gtk_widget_get_visible (window->busy_box));
  gui_test_spin (200);
  g_assert_nonnull (window->comparison);
  g_assert_true (gtk_widget_get_visible (window->compare_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->compare_base_label), "a.adbscope"));
  g_assert_nonnull (strstr (gtk_label_get_text (window->compare_run_label), "b.adbscope"));
  g_assert_nonnull (strstr (gtk_label_get_text (window->compare_run_label), "io.github.adbscope.demo"));

  /* Every card of every page with time charts has one overlay per series */
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      g_autoptr(GPtrArray) cards = NULL;

      adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), pages[p]);
      gui_test_spin (150);
      cards = adbscope_page_list_cards (_adbscope_window_get_page (window, pages[p]));
      for (guint i = 0; i < cards->len; i++)
        {
          g_autoptr(GPtrArray) overlays = adbscope_chart_card_list_overlays (g_ptr_array_index (cards, i));

          if (g_strcmp0 (adbscope_chart_card_get_state (g_ptr_array_index (cards, i)), "chart") != 0)
            continue;
          g_assert_cmpuint (overlays->len, >, 0);
          n_overlaid++;
        }
    }
  g_assert_cmpuint (n_overlaid, >=, 15);

  /* Aligned at the start: B's own times (both recordings start at 0) */
  assert_overlay_is_b (first_overlay (find_card ("overview", "App CPU")), "cpu.app_pct", 0);
  assert_overlay_is_b (first_overlay (find_card ("overview", "App RSS")), "memory.app_rss_kb", 0);
}

static void
test_align_at_marker (void)
{
  AdbscopeChartCard *card = find_card ("overview", "App CPU");
  AdbscopeOverlayLayer *overlay = first_overlay (card);
  AdbscopeChartLayer *base_layer = NULL;
  GListModel *labels = G_LIST_MODEL (window->align_labels);
  gboolean has_launch = FALSE, has_m600 = FALSE;
  gint64 spike_b = (gint64) run_b.spike_tick * run_b.interval_ms * 1000;
  g_autofree char *tip_base = NULL;
  g_autofree char *tip_overlay = NULL;

  for (guint i = 1; i < g_list_model_get_n_items (labels); i++)
    {
      has_launch |= g_str_equal (gtk_string_list_get_string (window->align_labels, i), "launch");
      has_m600 |= g_str_equal (gtk_string_list_get_string (window->align_labels, i), "m600");
    }
  g_assert_true (has_launch && has_m600);
  /* m1200 is only in A (B is 900 s): not offered */
  g_assert_cmpuint (g_list_model_get_n_items (labels), ==, 3);

  g_assert_false (_adbscope_window_align_comparison (window, "m1200"));
  g_assert_true (_adbscope_window_align_comparison (window, "launch"));
  gui_test_spin (100);
  g_assert_cmpstr (gtk_string_list_get_string (window->align_labels,
                                               gtk_drop_down_get_selected (window->align_dropdown)), ==, "launch");
  g_assert_cmpint (adbscope_comparison_get_offset (window->comparison), ==, LAUNCH_A_US - LAUNCH_B_US);
  assert_overlay_is_b (overlay, "cpu.app_pct", LAUNCH_A_US - LAUNCH_B_US);

  /* The hover names both runs' values at one time: B's spike, moved */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (adbscope_chart_card_get_chart (card)));
       c != NULL; c = gtk_widget_get_next_sibling (c))
    if (ADBSCOPE_IS_CHART_LAYER (c) && !ADBSCOPE_IS_OVERLAY_LAYER (c))
      base_layer = ADBSCOPE_CHART_LAYER (c);
  g_assert_nonnull (base_layer);
  tip_base = describe (base_layer, spike_b + LAUNCH_A_US - LAUNCH_B_US);
  tip_overlay = describe (ADBSCOPE_CHART_LAYER (overlay), spike_b + LAUNCH_A_US - LAUNCH_B_US);
  g_test_message ("tooltip: %s / %s", tip_base, tip_overlay);
  g_assert_nonnull (strstr (tip_base, "60.0%"));          /* A at 160 s: 160 % 100 */
  g_assert_nonnull (strstr (tip_overlay, "333%"));      /* B's spike at 100 s */
  g_assert_nonnull (strstr (tip_overlay, "b.adbscope"));

  /* The dropdown aligns too: back to the start */
  gtk_drop_down_set_selected (window->align_dropdown, 0);
  gui_test_spin (50);
  g_assert_cmpint (adbscope_comparison_get_offset (window->comparison), ==, 0);
  gtk_drop_down_set_selected (window->align_dropdown, 2);  /* whichever marker: its own difference */
  {
    const char *label = gtk_string_list_get_string (window->align_labels, 2);
    gint64 want = g_str_equal (label, "launch") ? LAUNCH_A_US - LAUNCH_B_US : 0;  /* m600 is at 600 s in both */

    g_assert_cmpint (adbscope_comparison_get_offset (window->comparison), ==, want);
  }
  g_assert_true (_adbscope_window_align_comparison (window, "launch"));

  adw_view_stack_set_visible_child_name (_adbscope_window_get_view_stack (window), "overview");
  gui_test_spin (300);
  {
    const char *keep = g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR");
    g_autofree char *png = g_build_filename (keep ? keep : tmpdir, "compare-overview.png", NULL);

    g_assert_true (gui_test_save_window (GTK_WIDGET (window), png));
  }
}

static void
test_summary_is_compare (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) diff = NULL;
  g_autoptr(JsonNode) sync_diff = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *async_text = NULL;
  g_autofree char *sync_text = NULL;
  int status = 0;
  const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "compare", path_a, path_b, NULL };
  JsonArray *mine, *cli, *checks;
  guint n_red = 0;

  /* as the menu does it: the shown run's report from a thread */
  _adbscope_window_show_compare_summary_async (window);
  g_assert_null (window->compare_dialog);
  g_assert_true (gui_test_wait (compare_read, NULL, 30000));
  g_assert_nonnull (window->compare_dialog);
  g_assert_nonnull (window->compare_diff);
  diff = json_node_ref (window->compare_diff);
  sync_diff = _adbscope_window_show_compare_summary (window, &error);
  g_assert_no_error (error);
  async_text = json_to_string (diff, TRUE);
  sync_text = json_to_string (sync_diff, TRUE);
  g_assert_cmpstr (async_text, ==, sync_text);
  g_assert_nonnull (window->compare_dialog);
  gui_test_spin (200);

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  mine = json_object_get_array_member (json_node_get_object (diff), "metrics");
  cli = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "metrics");
  g_assert_cmpuint (json_array_get_length (mine), ==, json_array_get_length (cli));
  g_assert_cmpuint (json_array_get_length (mine), >, 50);
  for (guint i = 0; i < json_array_get_length (mine); i++)
    {
      JsonObject *m = json_array_get_object_element (mine, i);
      JsonObject *c = json_array_get_object_element (cli, i);

      g_assert_cmpstr (json_object_get_string_member (m, "path"), ==, json_object_get_string_member (c, "path"));
      for (const char **k = (const char *[]){ "base", "run", "change", NULL }; *k; k++)
        {
          JsonNode *a = json_object_get_member (m, *k), *b = json_object_get_member (c, *k);

          g_assert_cmpint (JSON_NODE_HOLDS_NULL (a), ==, JSON_NODE_HOLDS_NULL (b));
          if (!JSON_NODE_HOLDS_NULL (a))
            g_assert_cmpfloat_with_epsilon (json_node_get_double (a), json_node_get_double (b),
                                            1e-9 * MAX (1, fabs (json_node_get_double (b))));
        }
    }
  /* Red is "worse by more than 10 %": recomputed here from the numbers */
  checks = json_object_get_array_member (json_node_get_object (diff), "thresholds");
  g_assert_cmpuint (json_array_get_length (checks), >, 10);
  for (guint i = 0; i < json_array_get_length (checks); i++)
    {
      JsonObject *c = json_array_get_object_element (checks, i);
      double b = json_object_get_double_member (c, "base"), r = json_object_get_double_member (c, "run");
      int dir = g_str_equal (json_object_get_string_member (c, "worse_when"), "higher") ? 1 : -1;
      gboolean worse = b != 0 ? dir * (r - b) / fabs (b) * 100 > 10 : dir * (r - b) > 0;

      g_assert_false (json_object_get_null_member (c, "base") || json_object_get_null_member (c, "run"));
      g_assert_cmpint (!json_object_get_boolean_member (c, "pass"), ==, worse);
      n_red += worse;
      if (g_str_equal (json_object_get_string_member (c, "path"), "cpu.app_pct.max"))
        {
          g_assert_cmpfloat (b, ==, run_a.spike_value);
          g_assert_cmpfloat (r, ==, run_b.spike_value);
          g_assert_true (worse);
        }
    }
  /* B's spike is higher than A's: the app CPU maximum regressed */
  g_assert_cmpuint (n_red, >, 0);
  g_assert_cmpuint (json_object_get_int_member (json_node_get_object (diff), "regressions"), ==, n_red);
  {
    const char *keep = g_getenv ("ADBSCOPE_TEST_SCREENSHOT_DIR");
    g_autofree char *png = g_build_filename (keep ? keep : tmpdir, "compare-summary.png", NULL);

    g_assert_true (gui_test_save_window (GTK_WIDGET (window->compare_dialog), png));
  }
}

static void
test_remove_and_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_build_filename (tmpdir, "not-a-recording.adbscope", NULL);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-comparison", NULL));
  gui_test_spin (100);
  g_assert_null (window->comparison);
  g_assert_null (window->compare_dialog);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));
  {
    const char *pages[] = { "overview", "cpu", "memory", "frames", "power" };

    for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
      {
        g_autoptr(GPtrArray) cards = adbscope_page_list_cards (_adbscope_window_get_page (window, pages[p]));

        for (guint i = 0; i < cards->len; i++)
          {
            g_autoptr(GPtrArray) overlays = adbscope_chart_card_list_overlays (g_ptr_array_index (cards, i));

            g_assert_cmpuint (overlays->len, ==, 0);
          }
      }
  }

  /* A bad file is an error and changes nothing */
  g_assert_true (g_file_set_contents (text, "hello", -1, NULL));
  g_assert_false (_adbscope_window_compare_with (window, text, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (window->comparison);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));

  /* Opening another recording drops the comparison aligned to the old one */
  g_clear_error (&error);
  g_assert_true (_adbscope_window_compare_with (window, path_b, &error));
  g_assert_true (_adbscope_window_open_recording (window, path_b, &error));
  g_assert_null (window->comparison);
  g_assert_false (gtk_widget_get_visible (window->compare_bar));

  /* ... and one still being read is not shown over the new one; a bad
   * file read in a thread is a toast */
  g_assert_true (_adbscope_window_compare_with_async (window, path_a, &error));
  g_assert_true (_adbscope_window_open_recording (window, path_a, &error));
  g_assert_true (gui_test_wait (compare_read, NULL, 30000));
  gui_test_spin (100);
  g_assert_null (window->comparison);
  g_assert_true (_adbscope_window_compare_with_async (window, text, &error));
  g_assert_true (gui_test_wait (compare_read, NULL, 30000));
  g_assert_null (window->comparison);
  g_assert_nonnull (strstr (window->last_toast, "not an Adbscope recording"));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  tmpdir = g_dir_make_tmp ("adbscope-gui-cmp-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", tmpdir, TRUE);
  path_a = g_build_filename (tmpdir, "a.adbscope", NULL);
  path_b = g_build_filename (tmpdir, "b.adbscope", NULL);
  g_assert_true (adbscope_synth_write (path_a, &run_a, &error));
  g_assert_true (adbscope_synth_write (path_b, &run_b, &error));
  g_assert_no_error (error);
  {
    g_autofree char *a = g_strdup_printf ("INSERT INTO marker (t_us, label) VALUES (%" G_GINT64_FORMAT ", 'launch')",
                                          LAUNCH_A_US);
    g_autofree char *b = g_strdup_printf ("INSERT INTO marker (t_us, label) VALUES (%" G_GINT64_FORMAT ", 'launch')",
                                          LAUNCH_B_US);
    sql_exec (path_a, a);
    sql_exec (path_b, b);
  }

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/gui/compare/overlay-in-every-chart", test_compare);
  g_test_add_func ("/gui/compare/align-at-marker", test_align_at_marker);
  g_test_add_func ("/gui/compare/summary-is-compare", test_summary_is_compare);
  g_test_add_func ("/gui/compare/remove-and-errors", test_remove_and_errors);
  ret = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    (void) system (cmd);
  }
  return ret;
}
