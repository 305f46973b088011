/* adbscope-window-compare.c: another recording overlaid on the one shown
 *
 * Compare With Recording… reads a second recording whole and hands it to
 * every page as an AdbscopeComparison: each time chart draws its series
 * dashed over the shown run's.  A bar under the header names both runs,
 * picks the alignment (start to start, or a marker label both runs have)
 * and removes the comparison; the summary is the diff `adbscope compare
 * SHOWN OTHER` prints, with regressions in red.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-compare.h"
#include "adbscope-report.h"
#include "adbscope-window-private.h"

/* The summary's red: worse than the shown run by more than this, as
 * `adbscope compare --max-regress PATH=10` would fail. */
#define SUMMARY_MAX_REGRESS_PCT 10

static const char * const regress_suffixes[] = {
  ".avg", ".p50", ".p90", ".p95", ".p99", ".max", "janky_pct", NULL
};

static void
for_each_page (AdbscopeWindow     *self,
               AdbscopeComparison *comparison)
{
  AdbscopePage *pages[] = {
    self->overview_page, self->cpu_page, self->memory_page, self->frames_page,
    self->threads_page, self->power_page, self->system_page, self->network_page,
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    if (pages[i] != NULL)
      adbscope_page_set_comparison (pages[i], comparison);
}

/* Where the shown run's first marker @label is; its start for NULL. */
static gboolean
base_time (AdbscopeWindow *self,
           const char     *label,
           gint64         *time_us)
{
  guint n = adbscope_data_view_get_n_markers (self->view);

  if (label == NULL)
    {
      *time_us = adbscope_session_get_start_us (self->session);
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      const AdbscopeMarker *m = adbscope_data_view_get_marker (self->view, i);

      if (g_strcmp0 (m->label, label) == 0)
        {
          *time_us = m->time_us;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _adbscope_window_align_comparison:
 * @label: (nullable): a marker label both runs have, or %NULL for the start
 *
 * Places the other run so its marker @label (or its start) falls on the
 * shown run's.  Returns: %FALSE when a run has no such marker.
 */
gboolean
_adbscope_window_align_comparison (AdbscopeWindow *self,
                                   const char     *label)
{
  gint64 at = 0, other = 0;
  guint n;

  if (self->comparison == NULL || !base_time (self, label, &at) ||
      (label != NULL && !adbscope_comparison_find_marker (self->comparison, label, &other)))
    return FALSE;
  adbscope_comparison_set_offset (self->comparison, at - other);

  /* Show it in the bar, without coming back here */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->align_labels));
  self->aligning = TRUE;
  for (guint i = 0; i < n; i++)
    if ((label == NULL && i == 0) ||
        (label != NULL && i > 0 && g_strcmp0 (gtk_string_list_get_string (self->align_labels, i), label) == 0))
      gtk_drop_down_set_selected (self->align_dropdown, i);
  self->aligning = FALSE;
  return TRUE;
}

static void
on_align_selected (GtkDropDown    *dropdown,
                   GParamSpec     *pspec,
                   AdbscopeWindow *self)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  if (self->aligning || i == GTK_INVALID_LIST_POSITION)
    return;
  _adbscope_window_align_comparison (self, i == 0 ? NULL : gtk_string_list_get_string (self->align_labels, i));
}

/**
 * _adbscope_window_update_compare_markers:
 *
 * Lists the marker labels both runs have (a live run gains markers).
 */
void
_adbscope_window_update_compare_markers (AdbscopeWindow *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint selected, n_old, n;

  if (self->comparison == NULL || self->view == NULL)
    return;
  n = adbscope_data_view_get_n_markers (self->view);
  for (guint i = 0; i < n; i++)
    {
      const char *label = adbscope_data_view_get_marker (self->view, i)->label;
      gint64 t;

      if (label != NULL && adbscope_comparison_find_marker (self->comparison, label, &t) &&
          !g_ptr_array_find_with_equal_func (labels, label, g_str_equal, NULL))
        g_ptr_array_add (labels, (gpointer) label);
    }
  g_ptr_array_add (labels, NULL);

  selected = gtk_drop_down_get_selected (self->align_dropdown);
  n_old = g_list_model_get_n_items (G_LIST_MODEL (self->align_labels));
  self->aligning = TRUE;
  /* Labels are only ever added (markers are), so the selection keeps its index. */
  gtk_string_list_splice (self->align_labels, 1, n_old - 1, (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->align_dropdown, selected < n_old ? selected : 0);
  self->aligning = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->align_dropdown), labels->len > 1);
}

/**
 * _adbscope_window_compare_with:
 * @path: a recording
 *
 * Overlays @path on the run shown, aligned at the start.
 */
static gboolean
can_compare (AdbscopeWindow  *self,
             GError         **error)
{
  if (self->view == NULL || self->session == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("Open a recording or start a run first"));
      return FALSE;
    }
  return TRUE;
}

static void
show_comparison (AdbscopeWindow     *self,
                 AdbscopeComparison *comparison)
{
  g_autofree char *base = NULL;
  g_autofree char *other = NULL;
  g_autofree char *base_text = NULL;
  g_autofree char *other_text = NULL;

  _adbscope_window_remove_comparison (self);
  self->comparison = g_object_ref (comparison);
  {
    GDateTime *start = adbscope_session_get_start_time (self->session);
    g_autofree char *iso = start != NULL ? g_date_time_format_iso8601 (start) : NULL;

    base = adbscope_run_describe (self->opened_path != NULL ? self->opened_path
                                  : self->recording != NULL ? adbscope_recording_get_path (self->recording) : NULL,
                                  self->package, iso);
  }
  other = adbscope_comparison_dup_description (self->comparison);
  /* Translators: the comparison bar; a solid line is the run shown */
  base_text = g_strdup_printf (_("━━ Shown: %s"), base);
  /* Translators: the comparison bar; a dashed line is the overlaid run */
  other_text = g_strdup_printf (_("╍╍ Compared: %s"), other);
  gtk_label_set_text (self->compare_base_label, base_text);
  gtk_label_set_text (self->compare_run_label, other_text);

  gtk_drop_down_set_selected (self->align_dropdown, 0);
  _adbscope_window_update_compare_markers (self);
  _adbscope_window_align_comparison (self, NULL);
  for_each_page (self, self->comparison);
  gtk_widget_set_visible (self->compare_bar, TRUE);
  _adbscope_window_update_actions (self);
}

gboolean
_adbscope_window_compare_with (AdbscopeWindow  *self,
                               const char      *path,
                               GError         **error)
{
  g_autoptr(AdbscopeComparison) comparison = NULL;

  if (!can_compare (self, error))
    return FALSE;
  comparison = adbscope_comparison_new (path, error);
  if (comparison == NULL)
    return FALSE;
  show_comparison (self, comparison);
  return TRUE;
}

typedef struct
{
  AdbscopeWindow   *self;   /* ref */
  AdbscopeDataView *view;   /* ref: the one it is for */
} CompareJob;

static void
compare_read_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  CompareJob *job = user_data;
  AdbscopeWindow *self = job->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeComparison) comparison = adbscope_comparison_new_finish (result, &error);

  _adbscope_window_busy_end (self);
  self->n_compare_reads--;
  /* the run it was for is still shown (nothing else was opened meanwhile) */
  if (self->view == job->view)
    {
      if (comparison != NULL)
        show_comparison (self, comparison);
      else
        _adbscope_window_toast (self, error->message);
    }
  g_object_unref (job->view);
  g_object_unref (job->self);
  g_free (job);
}

/**
 * _adbscope_window_compare_with_async:
 *
 * As _adbscope_window_compare_with (), the recording read in a thread
 * (the whole run: the summary's report and the stacks' sums): the header
 * bar says so meanwhile; the overlay appears when it is read, if the run
 * it was for is still shown.  self->n_compare_reads counts the running.
 */
gboolean
_adbscope_window_compare_with_async (AdbscopeWindow  *self,
                                     const char      *path,
                                     GError         **error)
{
  CompareJob *job;
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *title = NULL;

  if (!can_compare (self, error))
    return FALSE;
  job = g_new0 (CompareJob, 1);
  job->self = g_object_ref (self);
  job->view = g_object_ref (self->view);
  /* Translators: in the header bar while the recording to compare with is read; %s is its file name */
  title = g_strdup_printf (_("Reading “%s”…"), name);
  _adbscope_window_busy_begin (self, title);
  self->n_compare_reads++;
  adbscope_comparison_new_async (path, NULL, compare_read_cb, job);
  return TRUE;
}

void
_adbscope_window_remove_comparison (AdbscopeWindow *self)
{
  if (self->compare_dialog != NULL)
    gtk_window_destroy (self->compare_dialog);
  g_clear_pointer (&self->compare_diff, json_node_unref);
  if (self->comparison == NULL)
    return;
  for_each_page (self, NULL);
  g_clear_object (&self->comparison);
  if (self->compare_bar != NULL)
    gtk_widget_set_visible (self->compare_bar, FALSE);
  _adbscope_window_update_actions (self);
}

static gboolean
gated (const char *path)
{
  for (guint i = 0; regress_suffixes[i] != NULL; i++)
    if (g_str_has_suffix (path, regress_suffixes[i]))
      return g_str_has_prefix (path, "cpu.") || g_str_has_prefix (path, "memory.") ||
             g_str_has_prefix (path, "frames.") || g_str_has_prefix (path, "power.") ||
             g_str_has_prefix (path, "thermal.");
  return FALSE;
}

static void
format_number (JsonObject *o,
               const char *key,
               GString    *text)
{
  JsonNode *node = json_object_get_member (o, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    g_string_append (text, "—");
  else
    g_string_append_printf (text, "%.6g", json_node_get_double (node));
}

static void
add_cell (GtkGrid    *grid,
          const char *text,
          int         column,
          int         row,
          gboolean    numeric,
          gboolean    red)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  gtk_widget_set_hexpand (label, column == 0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  if (red)
    gtk_widget_add_css_class (label, "error");
  if (row == 0)
    gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static GtkWidget *
build_summary (AdbscopeWindow *self,
               JsonNode       *diff)
{
  JsonObject *root = json_node_get_object (diff);
  JsonArray *metrics = json_object_get_array_member (root, "metrics");
  JsonArray *checks = json_object_get_array_member (root, "thresholds");
  g_autoptr(GHashTable) failed = g_hash_table_new (g_str_hash, g_str_equal);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  g_autofree char *heading = NULL;
  guint n_failed = json_object_get_int_member (root, "regressions");
  int row = 1;

  for (guint i = 0; i < json_array_get_length (checks); i++)
    {
      JsonObject *c = json_array_get_object_element (checks, i);

      if (!json_object_get_boolean_member (c, "pass"))
        g_hash_table_add (failed, (gpointer) json_object_get_string_member (c, "path"));
    }

  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u regression: worse than the shown run by more than %d %%",
                                          "%u regressions: worse than the shown run by more than %d %%", n_failed),
                             n_failed, SUMMARY_MAX_REGRESS_PCT);
  {
    GtkWidget *label = gtk_label_new (heading);

    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_widget_add_css_class (label, n_failed > 0 ? "error" : "dim-label");
    gtk_box_append (GTK_BOX (box), label);
  }

  gtk_grid_set_column_spacing (grid, 18);
  gtk_grid_set_row_spacing (grid, 2);
  /* Translators: columns of the comparison summary */
  add_cell (grid, _("Metric"), 0, 0, FALSE, FALSE);
  add_cell (grid, _("Shown"), 1, 0, TRUE, FALSE);
  add_cell (grid, _("Compared"), 2, 0, TRUE, FALSE);
  add_cell (grid, _("Change"), 3, 0, TRUE, FALSE);
  /* Regressions first, then everything in the order `adbscope compare` lists it */
  for (guint k = 0; k < 2 * json_array_get_length (metrics); k++)
    {
      guint i = k % json_array_get_length (metrics);
      JsonObject *m = json_array_get_object_element (metrics, i);
      const char *path = json_object_get_string_member (m, "path");
      gboolean red = g_hash_table_contains (failed, path);
      g_autoptr(GString) base = g_string_new (NULL);
      g_autoptr(GString) run = g_string_new (NULL);
      g_autoptr(GString) change = g_string_new (NULL);
      JsonNode *pct = json_object_get_member (m, "change_pct");

      if (red != (k < json_array_get_length (metrics)))
        continue;
      format_number (m, "base", base);
      format_number (m, "run", run);
      format_number (m, "change", change);
      if (pct != NULL && !JSON_NODE_HOLDS_NULL (pct))
        g_string_append_printf (change, " (%+.1f %%)", json_node_get_double (pct));
      add_cell (grid, path, 0, row, FALSE, red);
      add_cell (grid, base->str, 1, row, TRUE, red);
      add_cell (grid, run->str, 2, row, TRUE, red);
      add_cell (grid, change->str, 3, row, TRUE, red);
      row++;
    }
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (grid));
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 12);
  return box;
}

static JsonNode *show_summary (AdbscopeWindow *self,
                               JsonNode       *base);

/**
 * _adbscope_window_show_compare_summary:
 *
 * Computes the diff of the shown run (base) and the compared one, as
 * `adbscope compare` does, and shows it in a window.
 *
 * Returns: (transfer full): the diff
 */
JsonNode *
_adbscope_window_show_compare_summary (AdbscopeWindow  *self,
                                       GError         **error)
{
  g_autoptr(JsonNode) base = NULL;

  if (self->comparison == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("Compare with a recording first"));
      return NULL;
    }
  base = _adbscope_window_build_report (self, error);
  if (base == NULL)
    return NULL;
  return show_summary (self, base);
}

static void
base_report_thread (GTask        *task,
                    gpointer      source,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  GError *error = NULL;
  g_autoptr(AdbscopeRun) run = adbscope_run_load (task_data, G_MININT64, G_MAXINT64, &error);

  if (run == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, adbscope_report_build_run (run, NULL), (GDestroyNotify) json_node_unref);
}

static void
base_report_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AdbscopeWindow *self = ADBSCOPE_WINDOW (object);
  g_autoptr(AdbscopeComparison) comparison = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) base = g_task_propagate_pointer (G_TASK (result), &error);
  g_autoptr(JsonNode) diff = NULL;

  self->n_compare_reads--;
  _adbscope_window_busy_end (self);
  if (self->comparison != comparison)
    return;   /* removed or replaced meanwhile */
  if (base == NULL)
    _adbscope_window_toast (self, error->message);
  else
    diff = show_summary (self, base);
}

/**
 * _adbscope_window_show_compare_summary_async:
 *
 * As _adbscope_window_show_compare_summary (), for the menu: the shown
 * run's report, when it comes from its file (every sample), is computed
 * in a thread (self->n_compare_reads counts it) and the window opens
 * when it is ready.
 */
void
_adbscope_window_show_compare_summary_async (AdbscopeWindow *self)
{
  const char *file = self->session != NULL ? _adbscope_window_get_whole_run_file (self) : NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) diff = NULL;
  g_autoptr(GTask) task = NULL;

  if (self->comparison == NULL || file == NULL)
    {
      diff = _adbscope_window_show_compare_summary (self, &error);
      if (diff == NULL)
        _adbscope_window_toast (self, error->message);
      return;
    }
  self->n_compare_reads++;
  _adbscope_window_busy_begin (self, _("Comparing the reports…"));
  task = g_task_new (self, NULL, base_report_cb, g_object_ref (self->comparison));
  g_task_set_source_tag (task, _adbscope_window_show_compare_summary_async);
  g_task_set_task_data (task, g_strdup (file), g_free);
  g_task_run_in_thread (task, base_report_thread);
}

/* The diff of @base and the compared run's report, in a window. */
static JsonNode *
show_summary (AdbscopeWindow *self,
              JsonNode       *base)
{
  g_autoptr(GPtrArray) thresholds = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_threshold_free);
  g_autoptr(JsonNode) run = json_node_ref (adbscope_comparison_get_report (self->comparison));
  JsonArray *metrics;
  GtkWidget *window, *content, *header;
  guint n_regressions = 0;

  /* Every statistic of a measured series is gated, as --max-regress would */
  {
    g_autoptr(JsonNode) all = adbscope_compare_reports (base, run, NULL, &n_regressions);

    metrics = json_object_get_array_member (json_node_get_object (all), "metrics");
    for (guint i = 0; i < json_array_get_length (metrics); i++)
      {
        JsonObject *m = json_array_get_object_element (metrics, i);
        const char *path = json_object_get_string_member (m, "path");
        g_autofree char *spec = g_strdup_printf ("%s=%d", path, SUMMARY_MAX_REGRESS_PCT);
        AdbscopeThreshold *t;

        /* (a number one run lacks is listed, but is no regression) */
        if (!gated (path) || json_object_get_null_member (m, "base") || json_object_get_null_member (m, "run"))
          continue;
        if ((t = adbscope_threshold_parse (spec, NULL)) != NULL)
          g_ptr_array_add (thresholds, t);
      }
  }
  g_clear_pointer (&self->compare_diff, json_node_unref);
  self->compare_diff = adbscope_compare_reports (base, run, thresholds, &n_regressions);
  {
    JsonObject *o = json_node_get_object (self->compare_diff);

    if (self->opened_path != NULL)
      json_object_set_string_member (o, "base", self->opened_path);
    json_object_set_string_member (o, "run", adbscope_comparison_get_path (self->comparison));
  }

  if (self->compare_dialog != NULL)
    gtk_window_destroy (self->compare_dialog);
  window = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), _("Comparison"));
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_default_size (GTK_WINDOW (window), 760, 560);
  gtk_window_set_hide_on_close (GTK_WINDOW (window), FALSE);
  content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header),
                                   adw_window_title_new (_("Comparison"),
                                                         adbscope_comparison_get_name (self->comparison)));
  gtk_box_append (GTK_BOX (content), header);
  gtk_box_append (GTK_BOX (content), build_summary (self, self->compare_diff));
  adw_window_set_content (ADW_WINDOW (window), content);
  g_set_weak_pointer (&self->compare_dialog, GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
  return json_node_ref (self->compare_diff);
}

/* The bar above the pages: both runs, the alignment, Summary and Remove. */
void
_adbscope_window_init_compare (AdbscopeWindow *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *names = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *align_label, *summary, *remove;
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self->main_stack));

  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  self->compare_base_label = GTK_LABEL (gtk_label_new (NULL));
  self->compare_run_label = GTK_LABEL (gtk_label_new (NULL));
  for (GtkLabel **l = (GtkLabel *[]){ self->compare_base_label, self->compare_run_label, NULL }; *l; l++)
    {
      gtk_label_set_xalign (*l, 0);
      gtk_label_set_ellipsize (*l, PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (GTK_WIDGET (*l), "caption");
      gtk_box_append (GTK_BOX (names), GTK_WIDGET (*l));
    }
  gtk_widget_set_hexpand (names, TRUE);
  gtk_box_append (GTK_BOX (bar), names);

  /* Translators: comparison bar, before "Run start" or a marker label */
  align_label = gtk_label_new (_("Align at"));
  gtk_box_append (GTK_BOX (bar), align_label);
  self->align_labels = gtk_string_list_new (NULL);
  /* Translators: align the runs at their starts */
  gtk_string_list_append (self->align_labels, _("Run start"));
  self->align_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->align_labels), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->align_dropdown),
                               _("Line the runs up at their start, or at a marker both have"));
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->align_dropdown),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, align_label, NULL, -1);
  g_signal_connect (self->align_dropdown, "notify::selected", G_CALLBACK (on_align_selected), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->align_dropdown));

  summary = gtk_button_new_with_mnemonic (_("_Summary…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (summary), "win.compare-summary");
  gtk_widget_set_tooltip_text (summary, _("Every metric of both runs, as adbscope compare prints it"));
  gtk_box_append (GTK_BOX (bar), summary);
  remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "win.remove-comparison");
  gtk_widget_set_tooltip_text (remove, _("Remove Comparison"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Remove Comparison"), -1);
  gtk_widget_add_css_class (remove, "flat");
  gtk_box_append (GTK_BOX (bar), remove);

  gtk_widget_set_visible (bar, FALSE);
  gtk_box_insert_child_after (GTK_BOX (parent), bar, gtk_widget_get_prev_sibling (GTK_WIDGET (self->main_stack)));
  self->compare_bar = bar;
}
