/* bench-network.c: what the Network page costs with many connections
 *
 *   live  a window showing the Network page of a session whose network
 *         model gets one agent snapshot a second listing
 *         ADBSCOPE_BENCH_CONNECTIONS (1000) open connections, every one
 *         with new byte counts, for ADBSCOPE_BENCH_SECONDS (30): this
 *         process's CPU % of one core (the GUI side of a capture; the
 *         session runs no collectors here); then as long again with
 *         only 5 % of them moving bytes each second, big flows and small
 *         (gui_cpu_pct_5pct_active)
 *         per_snapshot*: where it goes, per snapshot: the connection
 *         table's setup/bind/unbind (all columns), items-changed and the
 *         rows they span, frames, and this thread's CPU ms in the page's
 *         update (re-sort included), the frame clock's layout and paint
 *   sort  ADBSCOPE_BENCH_ROWS (10000) connections sorted by each column
 *         of the Connections table (the page's own sorters): mean ms per
 *         full sort
 *
 * Suite 'benchmark' (not run in CI).  Prints one JSON object.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "adbscope-application.h"
#include "adbscope-network-page.h"
#include "adbscope-window-private.h"
#include "fake-network.h"
#include "gui-test-util.h"

/* Where a snapshot's time goes: the factories' setup/bind/unbind of the
 * connection table's cells, the items-changed the table gets, and the
 * frame clock's layout and paint phases. */
typedef struct
{
  guint  setups, binds, unbinds, changes, changed_rows;
  double layout_ms, paint_ms, frames, update_ms;
  gint64 phase_start, update_start;
} Profile;

static Profile prof;

static void
count_setup (GtkListItemFactory *f, GtkListItem *item, gpointer data)
{
  prof.setups++;
}

static void
count_bind (GtkListItemFactory *f, GtkListItem *item, gpointer data)
{
  prof.binds++;
}

static void
count_unbind (GtkListItemFactory *f, GtkListItem *item, gpointer data)
{
  prof.unbinds++;
}

static void
count_change (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  prof.changes++;
  prof.changed_rows += MAX (removed, added);
}

/* this thread's CPU time, µs: the phases' own work, not the machine's load */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000) + ts.tv_nsec / 1000;
}

static void
phase_start (GdkFrameClock *clock, gpointer data)
{
  prof.phase_start = thread_cpu_us ();
}

static void
layout_end (GdkFrameClock *clock, gpointer data)
{
  gint64 now = thread_cpu_us ();

  prof.layout_ms += (now - prof.phase_start) / 1000.0;
  prof.phase_start = now;
}

static void
paint_end (GdkFrameClock *clock, gpointer data)
{
  if (prof.phase_start == 0)
    return;  /* a frame with no update phase counted by us */
  prof.paint_ms += (thread_cpu_us () - prof.phase_start) / 1000.0;
  prof.phase_start = 0;
  prof.frames++;
}

/* The view's "updated": the hook runs before the page's handler, ours
 * (connected later) after it. */
static gboolean
update_hook (GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data)
{
  prof.update_start = thread_cpu_us ();
  return TRUE;
}

static void
update_end (AdbscopeDataView *view, gpointer data)
{
  prof.update_ms += (thread_cpu_us () - prof.update_start) / 1000.0;
}


static void
profile_table (GtkColumnView    *cv,
               GListModel       *model,
               GtkWidget        *win,
               AdbscopeDataView *view)
{
  GListModel *cols = gtk_column_view_get_columns (cv);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (win);

  for (guint c = 0; c < g_list_model_get_n_items (cols); c++)
    {
      g_autoptr(GtkColumnViewColumn) col = g_list_model_get_item (cols, c);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (col);

      g_signal_connect (factory, "setup", G_CALLBACK (count_setup), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (count_bind), NULL);
      g_signal_connect (factory, "unbind", G_CALLBACK (count_unbind), NULL);
    }
  g_signal_connect (model, "items-changed", G_CALLBACK (count_change), NULL);
  /* the window's own handlers run first: layout ends when ours runs */
  g_signal_connect (clock, "update", G_CALLBACK (phase_start), NULL);
  g_signal_connect_after (clock, "layout", G_CALLBACK (layout_end), NULL);
  g_signal_connect_after (clock, "paint", G_CALLBACK (paint_end), NULL);
  g_signal_add_emission_hook (g_signal_lookup ("updated", ADBSCOPE_TYPE_DATA_VIEW), 0, update_hook, NULL, NULL);
  g_signal_connect (view, "updated", G_CALLBACK (update_end), NULL);
}

static void
print_profile (const char *name,
               Profile    *p,
               guint       seconds)
{
  g_print ("\"%s\": {\"setups\": %.0f, \"binds\": %.0f, \"unbinds\": %.0f, \"items_changed\": %.1f, "
           "\"changed_rows\": %.0f, \"frames\": %.1f, \"page_update_ms\": %.2f, \"layout_ms\": %.2f, \"paint_ms\": %.2f}, ",
           name, p->setups / (double) seconds, p->binds / (double) seconds, p->unbinds / (double) seconds,
           p->changes / (double) seconds, p->changed_rows / (double) seconds, p->frames / seconds, p->update_ms / seconds,
           p->layout_ms / seconds, p->paint_ms / seconds);
}

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int
main (int    argc,
      char **argv)
{
  const char *env_n = g_getenv ("ADBSCOPE_BENCH_CONNECTIONS");
  const char *env_s = g_getenv ("ADBSCOPE_BENCH_SECONDS");
  const char *env_rows = g_getenv ("ADBSCOPE_BENCH_ROWS");
  guint n = env_n ? atoi (env_n) : 1000;
  guint seconds = env_s ? atoi (env_s) : 30;
  guint rows = env_rows ? atoi (env_rows) : 10000;
  g_autoptr(AdbscopeApplication) app = NULL;
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(AdbscopeDataView) view = NULL;
  AdbscopeNetworkPage *page;
  GtkWidget *win;
  AdbscopeNetwork *net;
  FakeNetwork *f;
  GListModel *rows_model;
  Profile prof_all, prof_5pct;
  double cpu0, cpu1, cpu2, cpu3;
  gint64 t0, t1, t2, t3;
  guint64 seq = 0;
  guint active_pct = 100;
  double sort_ms = 0;
  double merge_ms = 0;
  guint n_sorts = 0;

  gtk_init ();
  adw_init ();

  /* A session that is never started: its network model is fed here as
   * the agent link would, and the view and page react as in a capture. */
  session = adbscope_session_new ("bench", "io.github.adbscope.demo");
  view = adbscope_data_view_new (session);
  net = adbscope_session_get_network (session);
  fake_network_begin (net);

  win = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (win), 1200, 800);
  page = g_object_new (ADBSCOPE_TYPE_NETWORK_PAGE, NULL);
  gtk_window_set_child (GTK_WINDOW (win), GTK_WIDGET (page));
  adbscope_page_set_view (ADBSCOPE_PAGE (page), view);
  gtk_window_present (GTK_WINDOW (win));

  f = fake_network_new (n);
  fake_network_feed (f, net, ++seq, active_pct);
  gui_test_spin (1000);
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_network_page_get_connection_model (page)), ==, n);

  /* the model's own work per snapshot, no drawing */
  {
    g_autoptr(AdbscopeSession) bare = adbscope_session_new ("bench0", "io.github.adbscope.demo");
    AdbscopeNetwork *bare_net = adbscope_session_get_network (bare);
    FakeNetwork *h = fake_network_new (n);
    gint64 m0;

    fake_network_begin (bare_net);
    fake_network_feed (h, bare_net, 1, 100);
    m0 = g_get_monotonic_time ();
    for (guint i = 0; i < 50; i++)
      fake_network_feed (h, bare_net, 2 + i, 100);
    merge_ms = (g_get_monotonic_time () - m0) / 1000.0 / 50;
  }

  rows_model = adbscope_network_page_get_connection_model (page);
  profile_table (gui_test_find_column_view (GTK_WIDGET (page), rows_model), rows_model, win, view);

  /* live */
  memset (&prof, 0, sizeof prof);
  cpu0 = cpu_seconds ();
  t0 = g_get_monotonic_time ();
  for (guint s = 0; s < seconds; s++)
    {
      fake_network_feed (f, net, ++seq, active_pct);
      gui_test_spin (1000);
    }
  t1 = g_get_monotonic_time ();
  cpu1 = cpu_seconds ();
  prof_all = prof;

  /* live, as an app's traffic: 5 % of the connections move bytes each second */
  active_pct = 5;
  memset (&prof, 0, sizeof prof);
  cpu2 = cpu_seconds ();
  t2 = g_get_monotonic_time ();
  for (guint s = 0; s < seconds; s++)
    {
      fake_network_feed (f, net, ++seq, active_pct);
      gui_test_spin (1000);
    }
  t3 = g_get_monotonic_time ();
  cpu3 = cpu_seconds ();
  prof_5pct = prof;

  /* sort: a bigger model, each column's sorter in turn */
  {
    g_autoptr(AdbscopeSession) big = adbscope_session_new ("bench2", "io.github.adbscope.demo");
    g_autoptr(AdbscopeDataView) big_view = adbscope_data_view_new (big);
    FakeNetwork *g = fake_network_new (rows);
    const char *columns[] = { "Protocol", "Remote", "Host", "State", "↓", "↑", "Duration", "Failure" };
    GtkColumnView *cv;
    GListModel *cols;

    fake_network_begin (adbscope_session_get_network (big));
    fake_network_feed (g, adbscope_session_get_network (big), 1, 100);
    adbscope_page_set_view (ADBSCOPE_PAGE (page), big_view);
    gui_test_spin (500);
    cv = gui_test_find_column_view (GTK_WIDGET (page), rows_model);
    g_assert_nonnull (cv);
    cols = gtk_column_view_get_columns (cv);
    for (guint c = 0; c < g_list_model_get_n_items (cols); c++)
      {
        g_autoptr(GtkColumnViewColumn) col = g_list_model_get_item (cols, c);

        for (int dir = 0; dir < 2; dir++)
          {
            gint64 s0 = g_get_monotonic_time ();

            gtk_column_view_sort_by_column (cv, col, dir ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
            /* GtkSortListModel sorts incrementally: take its first item,
             * which needs the whole sort done. */
            while (g_list_model_get_n_items (adbscope_network_page_get_connection_model (page)) > 0
                   && gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (gtk_single_selection_get_model (
                        GTK_SINGLE_SELECTION (adbscope_network_page_get_connection_model (page))))) > 0)
              g_main_context_iteration (NULL, FALSE);
            sort_ms += (g_get_monotonic_time () - s0) / 1000.0;
            n_sorts++;
          }
      }
    (void) columns;
  }

  g_print ("{\"connections\": %u, \"model_ms_per_snapshot\": %.2f, \"seconds\": %.1f, \"gui_cpu_pct_of_one_core\": %.2f, "
           "\"gui_cpu_pct_5pct_active\": %.2f, ",
           n, merge_ms, (t1 - t0) / 1e6, 100.0 * (cpu1 - cpu0) / ((t1 - t0) / 1e6),
           100.0 * (cpu3 - cpu2) / ((t3 - t2) / 1e6));
  print_profile ("per_snapshot", &prof_all, seconds);
  print_profile ("per_snapshot_5pct_active", &prof_5pct, seconds);
  g_print ("\"sort_rows\": %u, \"sort_ms_mean\": %.1f, \"sorts\": %u}\n", rows, sort_ms / n_sorts, n_sorts);
  gtk_window_destroy (GTK_WINDOW (win));
  return 0;
}
