/* test-network-table.c: the Network page's connections table while the
 * snapshots reorder it
 *
 * No phone: a window shows the page of a session whose network model is
 * fed made-up agent snapshots (fake-network.c), bursts on random
 * connections so that the first rows change places every second.  Truth
 * comes from the snapshots' own counters: after every one, the rows on
 * screen are the model's rows at their positions, each showing its
 * connection's bytes, the model is in order, the view stays where it was
 * (at the top, or scrolled down) and selection and focus stay with their
 * connection.
 */
#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

#include "adbscope-connection.h"
#include "adbscope-network-page.h"
#include "fake-network.h"
#include "gui-test-util.h"

#define N_CONNECTIONS 300

typedef struct
{
  AdbscopeSession     *session;
  AdbscopeDataView    *view;
  AdbscopeNetwork     *net;
  AdbscopeNetworkPage *page;
  GtkColumnView       *table;
  GtkWidget           *window;
  FakeNetwork         *fake;
  guint64              seq;
  guint                updates;  /* the view's "updated", after the page's */
} Fixture;

static gboolean
updated_since (gpointer data)
{
  Fixture *fx = ((gpointer *) data)[0];

  return fx->updates != GPOINTER_TO_UINT (((gpointer *) data)[1]);
}


static GtkAdjustment *
vadj (Fixture *fx)
{
  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fx->table));
}

static double
row_height (Fixture *fx)
{
  return gtk_adjustment_get_upper (vadj (fx)) / N_CONNECTIONS;
}

/* Every snapshot: a trickle on every connection, and (unless @all_alike)
 * bursts that take three random connections past the first row; or
 * (@all_alike) every connection a similar amount, so that most rows
 * change places when their totals are close. */
static void
feed_some (Fixture  *fx,
           gboolean  all_alike)
{
  guint64 max = 0;

  fake_network_tick (fx->fake, ++fx->seq, 0);
  for (guint i = 0; i < fx->fake->n; i++)
    {
      Adbscope__Agent__V1__Connection *c = &fx->fake->conns[i];
      guint64 step = g_test_rand_int_range (0, 3000);

      c->bytes_down += step;
      c->bytes_up += step / 3;
      c->packets_down += 1;
      max = MAX (max, c->bytes_down);
    }
  for (guint b = 0; b < 3 && !all_alike; b++)
    {
      Adbscope__Agent__V1__Connection *c = &fx->fake->conns[g_test_rand_int_range (0, fx->fake->n)];

      c->bytes_down = max + g_test_rand_int_range (1, 4) * G_GUINT64_CONSTANT (1000000);
      c->bytes_up += 1000;
    }
  {
    gpointer wait[2] = { fx, GUINT_TO_POINTER (fx->updates) };

    adbscope_network_apply_snapshot (fx->net, &fx->fake->snap, g_get_monotonic_time ());
    /* the page has seen it (the view says "updated" from an idle) */
    g_assert_true (gui_test_wait (updated_since, wait, 10000));
  }
}

static void
feed_random (Fixture *fx)
{
  feed_some (fx, FALSE);
}

static void
on_updated (AdbscopeDataView *view,
            Fixture          *fx)
{
  fx->updates++;
}

static void
collect_texts (GtkWidget *w,
               GString   *out)
{
  if (GTK_IS_INSCRIPTION (w) && gtk_inscription_get_text (GTK_INSCRIPTION (w)) != NULL)
    g_string_append_printf (out, "|%s", gtk_inscription_get_text (GTK_INSCRIPTION (w)));
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    collect_texts (c, out);
}

/* The row widgets on screen, top to bottom, with their list positions. */
static GPtrArray *
visible_rows (Fixture *fx,
              GArray  *positions)
{
  GtkWidget *list = gtk_widget_get_last_child (GTK_WIDGET (fx->table));
  GPtrArray *rows = g_ptr_array_new ();
  double value = gtk_adjustment_get_value (vadj (fx));
  double h = row_height (fx);

  g_assert_true (GTK_IS_LIST_VIEW (list));
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row))
    {
      graphene_point_t p;
      guint pos;

      if (!gtk_widget_get_mapped (row)
          || !gtk_widget_compute_point (row, list, &GRAPHENE_POINT_INIT (0, 0), &p)
          || p.y + gtk_widget_get_height (row) <= 0 || p.y >= gtk_widget_get_height (list))
        continue;
      pos = (guint) ((p.y + value) / h + 0.5);
      g_ptr_array_add (rows, row);
      g_array_append_val (positions, pos);
    }
  return rows;
}

/* The rows on screen are the model's rows at their positions, each
 * showing its connection's current numbers. */
static gboolean
screen_matches_model (gpointer data)
{
  Fixture *fx = data;
  GListModel *model = adbscope_network_page_get_connection_model (fx->page);
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) rows = visible_rows (fx, positions);

  if (rows->len < 5)
    return FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (model, g_array_index (positions, guint, i));
      g_autoptr(GString) texts = g_string_new (NULL);
      g_autofree char *remote = NULL;
      g_autofree char *down_size = NULL;
      g_autofree char *up_size = NULL;
      g_autofree char *down = NULL;
      g_autofree char *up = NULL;

      if (c == NULL)
        return FALSE;
      remote = g_strdup_printf ("|%s|", adbscope_connection_get_remote (c));
      down_size = g_format_size (adbscope_connection_get_bytes_down (c));
      up_size = g_format_size (adbscope_connection_get_bytes_up (c));
      down = g_strdup_printf ("|%s|", down_size);
      up = g_strdup_printf ("|%s|", up_size);
      collect_texts (rows->pdata[i], texts);
      g_string_append_c (texts, '|');
      if (strstr (texts->str, remote) == NULL || strstr (texts->str, down) == NULL || strstr (texts->str, up) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Sorted by ↓, biggest first, by the snapshots' own counters. */
static void
assert_sorted (Fixture *fx)
{
  GListModel *model = adbscope_network_page_get_connection_model (fx->page);
  guint64 max = 0;
  guint64 prev = G_MAXUINT64;

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_CONNECTIONS);
  for (guint i = 0; i < fx->fake->n; i++)
    max = MAX (max, fx->fake->conns[i].bytes_down);
  for (guint i = 0; i < N_CONNECTIONS; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (model, i);
      guint64 down = adbscope_connection_get_bytes_down (c);

      if (i == 0)
        g_assert_cmpuint (down, ==, max);
      g_assert_cmpuint (down, <=, prev);
      prev = down;
    }
}

static guint64
top_id (Fixture *fx)
{
  g_autoptr(AdbscopeConnection) c = g_list_model_get_item (adbscope_network_page_get_connection_model (fx->page), 0);

  return adbscope_connection_get_id (c);
}

static void
fixture_set_up (Fixture       *fx,
                gconstpointer  data)
{
  fx->session = adbscope_session_new ("table", "io.github.adbscope.demo");
  fx->view = adbscope_data_view_new (fx->session);
  fx->net = adbscope_session_get_network (fx->session);
  fake_network_begin (fx->net);
  fx->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fx->window), 1000, 700);
  fx->page = g_object_new (ADBSCOPE_TYPE_NETWORK_PAGE, NULL);
  gtk_window_set_child (GTK_WINDOW (fx->window), GTK_WIDGET (fx->page));
  adbscope_page_set_view (ADBSCOPE_PAGE (fx->page), fx->view);
  gtk_window_present (GTK_WINDOW (fx->window));
  fx->table = gui_test_find_column_view (GTK_WIDGET (fx->page), adbscope_network_page_get_connection_model (fx->page));
  g_assert_nonnull (fx->table);
  fx->fake = fake_network_new (N_CONNECTIONS);
  /* totals far apart: the trickle keeps their order, bursts overtake */
  for (guint i = 0; i < fx->fake->n; i++)
    fx->fake->conns[i].bytes_down = (i + 1) * G_GUINT64_CONSTANT (100000);
  gui_test_spin (100);
  g_signal_connect (fx->view, "updated", G_CALLBACK (on_updated), fx);
  feed_random (fx);
  g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
}

static void
fixture_tear_down (Fixture       *fx,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fx->window));
  fake_network_free (fx->fake);
  g_object_unref (fx->view);
  g_object_unref (fx->session);
}

/* At the top, the table shows the biggest connections whatever overtakes
 * whom: the first row is always the biggest and the view stays at 0. */
static void
test_top_stays_top (Fixture       *fx,
                    gconstpointer  data)
{
  guint top_changes = 0;

  for (guint s = 0; s < 15; s++)
    {
      guint64 before = top_id (fx);

      feed_random (fx);
      g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
      assert_sorted (fx);
      g_assert_cmpfloat (gtk_adjustment_get_value (vadj (fx)), ==, 0);
      top_changes += top_id (fx) != before;
    }
  /* the bursts did overtake the first row */
  g_assert_cmpuint (top_changes, >=, 10);
}

/* Scrolled down, the view keeps its place (within a row) while the rows
 * under it change. */
static void
test_scrolled_stays (Fixture       *fx,
                     gconstpointer  data)
{
  double h = row_height (fx);
  double at = 100 * h;

  gtk_adjustment_set_value (vadj (fx), at);
  g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
  at = gtk_adjustment_get_value (vadj (fx));
  g_assert_cmpfloat (at, >, 50 * h);
  for (guint s = 0; s < 15; s++)
    {
      feed_random (fx);
      g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
      assert_sorted (fx);
      g_assert_cmpfloat (fabs (gtk_adjustment_get_value (vadj (fx)) - at), <, h);
    }
}

/* The selected connection stays selected, and the keyboard focus on the
 * row that shows it, while it moves. */
static void
test_selection_and_focus_follow (Fixture       *fx,
                                 gconstpointer  data)
{
  GListModel *model = adbscope_network_page_get_connection_model (fx->page);
  g_autoptr(AdbscopeConnection) chosen = g_list_model_get_item (model, 4);
  g_autofree char *remote = g_strdup_printf ("|%s|", adbscope_connection_get_remote (chosen));
  guint moves = 0, was = 4;
  GtkWidget *focus_row = NULL;

  adbscope_network_page_select_connection (fx->page, 4);
  {
    g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GPtrArray) rows = visible_rows (fx, positions);

    for (guint i = 0; i < rows->len; i++)
      if (g_array_index (positions, guint, i) == 4)
        focus_row = rows->pdata[i];
  }
  g_assert_nonnull (focus_row);
  g_assert_true (gtk_widget_grab_focus (focus_row));
  for (guint s = 0; s < 15; s++)
    {
      GtkWidget *focus;
      g_autoptr(GString) texts = g_string_new (NULL);
      guint now;

      feed_random (fx);
      g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
      g_assert_true (adbscope_network_page_get_selected_connection (fx->page) == chosen);
      g_assert_true (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model)) == chosen);
      now = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
      moves += now != was;
      was = now;
      /* the focus is in the row showing the chosen connection */
      for (focus = gtk_root_get_focus (GTK_ROOT (fx->window)); focus != NULL; focus = gtk_widget_get_parent (focus))
        if (gtk_widget_get_parent (focus) == gtk_widget_get_last_child (GTK_WIDGET (fx->table)))
          break;
      g_assert_nonnull (focus);
      collect_texts (focus, texts);
      g_string_append_c (texts, '|');
      g_assert_nonnull (strstr (texts->str, remote));
    }
  g_assert_cmpuint (moves, >=, 3);
}

/* Snapshots that come while another table is shown: back on the
 * connections, every row on screen shows the last one's numbers. */
static void
test_hidden_catches_up (Fixture       *fx,
                        gconstpointer  data)
{
  adbscope_network_page_show_table (fx->page, "hosts");
  gui_test_spin (100);
  for (guint s = 0; s < 5; s++)
    {
      feed_random (fx);
      gui_test_spin (50);
    }
  adbscope_network_page_show_table (fx->page, "connections");
  g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
  assert_sorted (fx);
}

static gboolean
is_sorted (gpointer data)
{
  Fixture *fx = data;
  GListModel *model = adbscope_network_page_get_connection_model (fx->page);
  guint64 prev = G_MAXUINT64;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (model, i);

      if (adbscope_connection_get_bytes_down (c) > prev)
        return FALSE;
      prev = adbscope_connection_get_bytes_down (c);
    }
  return TRUE;
}

static void
count_resort (GListModel *model,
              guint       position,
              guint       removed,
              guint       added,
              guint      *n)
{
  (*n)++;
}

/* While most rows change places at every snapshot, the table sorts by
 * itself at most every 2 s (the numbers follow every snapshot), catches
 * up when the snapshots stop, and a click on a header sorts at once. */
static void
test_busy_sorts_less_often (Fixture       *fx,
                            gconstpointer  data)
{
  GListModel *model = adbscope_network_page_get_connection_model (fx->page);
  guint resorts = 0;
  gint64 start;
  guint snapshots = 0;

  /* similar totals first, so that similar steps reorder most rows */
  for (guint i = 0; i < fx->fake->n; i++)
    fx->fake->conns[i].bytes_down = 1000000;
  g_signal_connect (model, "items-changed", G_CALLBACK (count_resort), &resorts);
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 3 * G_USEC_PER_SEC)
    {
      feed_some (fx, TRUE);
      snapshots++;
      g_assert_true (gui_test_wait (screen_matches_model, fx, 10000));
      gui_test_spin (100);
    }
  g_test_message ("%u re-sorts in %u snapshots over 3 s", resorts, snapshots);
  g_assert_cmpuint (snapshots, >=, 10);
  g_assert_cmpuint (resorts, >=, 1);
  g_assert_cmpuint (resorts, <=, 3);
  /* no more snapshots: the order catches up by itself */
  g_assert_true (gui_test_wait (is_sorted, fx, 5000));
  assert_sorted (fx);
  g_signal_handlers_disconnect_by_func (model, count_resort, &resorts);

  /* busy again, then a click on ↑: sorted at once */
  for (guint i = 0; i < 3; i++)
    feed_some (fx, TRUE);
  {
    GListModel *cols = gtk_column_view_get_columns (fx->table);
    g_autoptr(GtkColumnViewColumn) up = g_list_model_get_item (cols, 5);
    guint64 prev = G_MAXUINT64;

    g_assert_cmpstr (gtk_column_view_column_get_title (up), ==, "↑");
    gtk_column_view_sort_by_column (fx->table, up, GTK_SORT_DESCENDING);
    for (guint i = 0; i < N_CONNECTIONS; i++)
      {
        g_autoptr(AdbscopeConnection) c = g_list_model_get_item (model, i);

        g_assert_cmpuint (adbscope_connection_get_bytes_up (c), <=, prev);
        prev = adbscope_connection_get_bytes_up (c);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, fn) g_test_add ("/gui/network-table/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("top-stays-top", test_top_stays_top);
  ADD ("scrolled-stays", test_scrolled_stays);
  ADD ("selection-and-focus-follow", test_selection_and_focus_follow);
  ADD ("hidden-catches-up", test_hidden_catches_up);
  ADD ("busy-sorts-less-often", test_busy_sorts_less_often);
#undef ADD
  return g_test_run ();
}
