/* adbscope-threads-page.c: the app's threads in a live, sortable, filterable table
 *
 * The session's thread list keeps one AdbscopeThread per tid and updates
 * it in place; cells follow the items' notify signals.  Sorting by CPU
 * needs a re-sort on every sample (a property change alone does not move
 * a row); the single selection keeps the selected thread through it.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-app-processes.h"
#include "adbscope-thread.h"
#include "adbscope-threads-page.h"

struct _AdbscopeThreadsPage
{
  AdbscopePage        parent_instance;

  GtkSearchEntry     *search_entry;
  GtkLabel           *count_label;
  GtkColumnView      *column_view;
  GtkStack           *list_stack;
  GtkSpinner         *spinner;
  GtkDropDown        *process_dropdown;
  GtkStringList      *process_names;   /* [0] is "All processes" */
  GtkStringFilter    *process_filter;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *process_column;
  GtkColumnViewColumn *tid_column;
  GtkColumnViewColumn *cpu_column;
  GtkColumnViewColumn *max_column;

  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;
  GtkStringFilter    *filter;
};

G_DEFINE_FINAL_TYPE (AdbscopeThreadsPage, adbscope_threads_page, ADBSCOPE_TYPE_PAGE)

typedef enum
{
  CELL_NAME,
  CELL_TID,
  CELL_CPU,
  CELL_MAX_CPU,
  CELL_PROCESS,
} CellKind;

static const char * const cell_props[] = { "name", "tid", "cpu-pct", "max-cpu-pct", "process" };

static void
update_cell (GtkLabel       *label,
             AdbscopeThread *thread,
             CellKind        kind)
{
  char buf[32];
  double pct;

  switch (kind)
    {
    case CELL_NAME:
      gtk_label_set_text (label, adbscope_thread_get_name (thread));
      return;
    case CELL_PROCESS:
      gtk_label_set_text (label, adbscope_thread_get_process (thread) ? adbscope_thread_get_process (thread) : "—");
      return;
    case CELL_TID:
      g_snprintf (buf, sizeof buf, "%d", adbscope_thread_get_tid (thread));
      break;
    case CELL_CPU:
    case CELL_MAX_CPU:
    default:
      pct = kind == CELL_CPU ? adbscope_thread_get_cpu_pct (thread) : adbscope_thread_get_max_cpu_pct (thread);
      if (isfinite (pct))
        g_snprintf (buf, sizeof buf, "%.1f %%", pct);
      else
        g_strlcpy (buf, "—", sizeof buf);
      break;
    }
  gtk_label_set_text (label, buf);
}

static void
on_thread_notify (AdbscopeThread *thread,
                  GParamSpec     *pspec,
                  GtkLabel       *label)
{
  update_cell (label, thread, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "cell-kind")));
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  if (kind == CELL_NAME || kind == CELL_PROCESS)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
    }
  g_object_set_data (G_OBJECT (label), "cell-kind", user_data);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  CellKind kind = GPOINTER_TO_INT (user_data);
  AdbscopeThread *thread = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *signal = g_strconcat ("notify::", cell_props[kind], NULL);

  update_cell (label, thread, kind);
  g_signal_connect_object (thread, signal, G_CALLBACK (on_thread_notify), label, 0);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  AdbscopeThread *thread = gtk_list_item_get_item (item);

  if (thread != NULL)
    g_signal_handlers_disconnect_by_func (thread, on_thread_notify, gtk_list_item_get_child (item));
}

static void
set_column (GtkColumnViewColumn *column,
            CellKind             kind)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkExpression *expr;
  GtkSorter *sorter;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (kind));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (kind));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GINT_TO_POINTER (kind));
  gtk_column_view_column_set_factory (column, factory);
  g_object_unref (factory);

  expr = gtk_property_expression_new (ADBSCOPE_TYPE_THREAD, NULL, cell_props[kind]);
  if (kind == CELL_NAME || kind == CELL_PROCESS)
    sorter = GTK_SORTER (gtk_string_sorter_new (expr));
  else
    sorter = GTK_SORTER (gtk_numeric_sorter_new (expr));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
}

static void
update_count (AdbscopeThreadsPage *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  GListModel *all = gtk_filter_list_model_get_model (self->filter_model);
  guint total = all != NULL ? g_list_model_get_n_items (all) : 0;
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", total), total);
  else
    /* Translators: threads shown after filtering, of all threads */
    text = g_strdup_printf (_("%u of %u threads"), shown, total);
  gtk_label_set_text (self->count_label, text);
}

/* The dropdown lists every process of the app seen; the column and the
 * filter only matter with more than one. */
static void
update_processes (AdbscopeThreadsPage *self,
                  AdbscopeDataView    *view)
{
  GPtrArray *procs = adbscope_data_view_get_app_processes (view);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->process_names));

  for (guint i = 0; procs != NULL && i < procs->len; i++)
    {
      const char *name = ((AdbscopeProcessSeries *) g_ptr_array_index (procs, i))->name;
      gboolean known = FALSE;

      for (guint k = 1; k < n && !known; k++)
        known = g_str_equal (gtk_string_list_get_string (self->process_names, k), name);
      if (!known)
        {
          gtk_string_list_append (self->process_names, name);
          n++;
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->process_dropdown), n > 2);
  gtk_column_view_column_set_visible (self->process_column, n > 2);
}

static void
on_process_selected (GtkDropDown         *dropdown,
                     GParamSpec          *pspec,
                     AdbscopeThreadsPage *self)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  gtk_string_filter_set_search (self->process_filter,
                                i == 0 || i == GTK_INVALID_LIST_POSITION
                                ? NULL : gtk_string_list_get_string (self->process_names, i));
  update_count (self);
}

static void
adbscope_threads_page_update (AdbscopePage     *page,
                              AdbscopeDataView *view)
{
  AdbscopeThreadsPage *self = ADBSCOPE_THREADS_PAGE (page);
  GListModel *threads = adbscope_data_view_get_threads (view);
  gboolean pending = adbscope_data_view_get_details_pending (view);

  /* an opened recording's threads are being read: no empty table meanwhile */
  gtk_stack_set_visible_child_name (self->list_stack, pending ? "loading" : "list");
  gtk_spinner_set_spinning (self->spinner, pending);
  gtk_widget_set_visible (GTK_WIDGET (self->count_label), !pending);
  update_processes (self, view);

  if (gtk_filter_list_model_get_model (self->filter_model) != threads)
    {
      /* Pause or resume: a different list of equal threads.  Keep the
       * selected tid selected. */
      AdbscopeThread *selected = gtk_single_selection_get_selected_item (self->selection);
      int tid = selected != NULL ? adbscope_thread_get_tid (selected) : -1;

      gtk_filter_list_model_set_model (self->filter_model, threads);
      for (guint i = 0; tid >= 0 && i < g_list_model_get_n_items (G_LIST_MODEL (self->sort_model)); i++)
        {
          g_autoptr(AdbscopeThread) t = g_list_model_get_item (G_LIST_MODEL (self->sort_model), i);

          if (adbscope_thread_get_tid (t) == tid)
            {
              gtk_single_selection_set_selected (self->selection, i);
              break;
            }
        }
    }
  else
    {
      GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);

      /* CPU values changed in place: sort again. */
      if (sorter != NULL)
        gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
    }
  update_count (self);
}

static void
adbscope_threads_page_set_view (AdbscopePage     *page,
                                AdbscopeDataView *view)
{
  AdbscopeThreadsPage *self = ADBSCOPE_THREADS_PAGE (page);

  gtk_filter_list_model_set_model (self->filter_model,
                                   view != NULL ? adbscope_data_view_get_threads (view) : NULL);
}

static void
on_search_changed (GtkSearchEntry      *entry,
                   AdbscopeThreadsPage *self)
{
  gtk_string_filter_set_search (self->filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
  update_count (self);
}

static void
adbscope_threads_page_dispose (GObject *object)
{
  AdbscopeThreadsPage *self = ADBSCOPE_THREADS_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), ADBSCOPE_TYPE_THREADS_PAGE);
  G_OBJECT_CLASS (adbscope_threads_page_parent_class)->dispose (object);
}

static gboolean
focus_search (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  return gtk_widget_grab_focus (GTK_WIDGET (ADBSCOPE_THREADS_PAGE (widget)->search_entry));
}

static void
adbscope_threads_page_class_init (AdbscopeThreadsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  object_class->dispose = adbscope_threads_page_dispose;
  page_class->update = adbscope_threads_page_update;
  page_class->set_view = adbscope_threads_page_set_view;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-threads-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, list_stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, name_column);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, process_column);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, process_dropdown);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, tid_column);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, cpu_column);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeThreadsPage, max_column);

  gtk_widget_class_add_binding (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, focus_search, NULL);
}

static void
adbscope_threads_page_init (AdbscopeThreadsPage *self)
{
  GtkExpression *name_expr;

  gtk_widget_init_template (GTK_WIDGET (self));

  set_column (self->name_column, CELL_NAME);
  set_column (self->process_column, CELL_PROCESS);
  set_column (self->tid_column, CELL_TID);
  set_column (self->cpu_column, CELL_CPU);
  set_column (self->max_column, CELL_MAX_CPU);

  name_expr = gtk_property_expression_new (ADBSCOPE_TYPE_THREAD, NULL, "name");
  self->filter = gtk_string_filter_new (name_expr);
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->filter, TRUE);

  /* One process, matched whole; no search matches every thread. */
  self->process_filter = gtk_string_filter_new (gtk_property_expression_new (ADBSCOPE_TYPE_THREAD, NULL, "process"));
  gtk_string_filter_set_match_mode (self->process_filter, GTK_STRING_FILTER_MATCH_MODE_EXACT);
  gtk_string_filter_set_search (self->process_filter, NULL);
  {
    GtkEveryFilter *every = gtk_every_filter_new ();

    gtk_multi_filter_append (GTK_MULTI_FILTER (every), GTK_FILTER (self->filter));
    gtk_multi_filter_append (GTK_MULTI_FILTER (every), GTK_FILTER (self->process_filter));
    /* filter → sort → selection; the models own each other down the chain. */
    self->filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (every));
  }
  self->process_names = gtk_string_list_new ((const char * const []) { _("All processes"), NULL });
  gtk_drop_down_set_model (self->process_dropdown, G_LIST_MODEL (self->process_names));
  g_object_unref (self->process_names);
  gtk_widget_set_visible (GTK_WIDGET (self->process_dropdown), FALSE);
  gtk_column_view_column_set_visible (self->process_column, FALSE);
  g_signal_connect (self->process_dropdown, "notify::selected", G_CALLBACK (on_process_selected), self);
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (self->filter_model),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sort_model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);
  gtk_column_view_sort_by_column (self->column_view, self->cpu_column, GTK_SORT_DESCENDING);

  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
}
