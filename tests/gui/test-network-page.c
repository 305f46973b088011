/* test-network-page.c: the Network page, the capture flow and its exports
 *
 * A simulated phone with a network (the demo app behind a TUN, the agent
 * installed, the sim's own counting servers), the window picks the demo
 * app and starts a capture through win.start-capture like the button does.
 * Truth comes from outside the page: the sim's servers' counts (hosts), the
 * agent's refused connection, tshark on the exported files.  Needs root
 * (network namespaces and a TUN), as the network suites do.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-test-device.h"

#include "adbscope-application.h"
#include "adbscope-chart-card.h"
#include "adbscope-connection.h"
#include "adbscope-demo.h"
#include "adbscope-net-host.h"
#include "adbscope-network-page.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

#define DEMO ADBSCOPE_DEMO_PACKAGE

static AdbscopeTestDevice  *device;
static AdbscopeApplication *app;
static AdbscopeWindow      *window;
static char                *tmpdir;

static AdbscopeNetworkPage *
page (void)
{
  return ADBSCOPE_NETWORK_PAGE (_adbscope_window_get_page (window, "network"));
}

static gboolean
mode_is (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_mode (window), data) == 0;
}

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

  return !adbscope_app_picker_get_loading (picker)
         && g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) > 0;
}

static AdbscopeNetwork *
live_network (void)
{
  return adbscope_session_get_network (_adbscope_window_get_session (window));
}

static void
open_demo (void)
{
  GtkListBox *devices = adbscope_device_picker_get_list_box (_adbscope_window_get_device_picker (window));
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);

  g_assert_true (gui_test_wait (device_row_ready, NULL, 20000));
  g_signal_emit_by_name (devices, "row-activated", gtk_list_box_get_row_at_index (devices, 0));
  g_assert_true (gui_test_wait (apps_loaded, NULL, 20000));
  adbscope_app_picker_set_search (picker, DEMO);
  g_signal_emit_by_name (adbscope_app_picker_get_list_box (picker), "row-activated",
                         gtk_list_box_get_row_at_index (adbscope_app_picker_get_list_box (picker), 0));
  g_assert_true (gui_test_wait (mode_is, (gpointer) "session", 30000));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "network"));
  gui_test_spin (200);
}

static gboolean
capture_running (gpointer data)
{
  AdbscopeCapture *c = _adbscope_window_get_capture (window);

  return c != NULL && adbscope_capture_get_state (c) == ADBSCOPE_CAPTURE_RUNNING
         && adbscope_agent_link_is_connected (adbscope_capture_get_link (c));
}

/* Connections with their refused one and a finished demo round. */
static gboolean
traffic_listed (gpointer data)
{
  GListModel *rows = adbscope_network_page_get_connection_model (page ());
  guint n = g_list_model_get_n_items (rows);
  gboolean refused = FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      refused |= g_strcmp0 (adbscope_connection_get_failure (c), "CONNECTION_REFUSED") == 0;
    }
  return n >= 5 && refused;
}

static void
test_capture_flow (void)
{
  AdbscopeNetworkPage *p;

  open_demo ();
  p = page ();
  /* Before a capture the page says what one adds and offers to start it. */
  g_assert_true (adbscope_network_page_get_banner_shown (p));
  g_assert_null (_adbscope_window_get_capture (window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.start-capture", NULL));
  /* The agent is installed and current here: no install dialog, the
   * consent dialog waits with a spinner until the agent runs. */
  g_assert_true (gui_test_wait (capture_running, NULL, 30000));
  g_assert_null (_adbscope_window_get_capture_dialog (window));
  g_assert_true (gui_test_wait (traffic_listed, NULL, 40000));
  g_assert_false (adbscope_network_page_get_banner_shown (p));
}

static char *
sim_counts (void)
{
  g_autofree char *path = g_build_filename (adbscope_test_device_get_sandbox (device), "state", "net.json", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Every host the sim's servers counted is on the Hosts table with the
 * bytes the servers served (payload), once a round is complete. */
static void
test_hosts_match_servers (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *counts = NULL;
  JsonObject *hosts;
  GListModel *model = adbscope_network_get_hosts (live_network ());
  g_autoptr(GList) names = NULL;
  guint matched = 0;

  /* Wait for two more snapshots after the round so the agent's counts are final. */
  gui_test_spin (2500);
  counts = sim_counts ();
  g_assert_true (json_parser_load_from_data (parser, counts, -1, NULL));
  hosts = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "hosts");
  names = json_object_get_members (hosts);
  g_assert_nonnull (names);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonObject *h = json_object_get_object_member (hosts, l->data);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(AdbscopeNetHost) host = g_list_model_get_item (model, i);

          if (g_strcmp0 (adbscope_net_host_get_host (host), l->data) != 0)
            continue;
          g_test_message ("%s: agent ↓%" G_GUINT64_FORMAT " ↑%" G_GUINT64_FORMAT ", servers ↓%" G_GINT64_FORMAT
                          " ↑%" G_GINT64_FORMAT, (char *) l->data,
                          adbscope_net_host_get_bytes_down (host), adbscope_net_host_get_bytes_up (host),
                          json_object_get_int_member (h, "bytes_out"), json_object_get_int_member (h, "bytes_in"));
          g_assert_cmpuint (adbscope_net_host_get_bytes_down (host), ==, json_object_get_int_member (h, "bytes_out"));
          g_assert_cmpuint (adbscope_net_host_get_bytes_up (host), ==, json_object_get_int_member (h, "bytes_in"));
          matched++;
        }
    }
  g_assert_cmpuint (matched, >=, 2);
}

static guint
find_row (GListModel *rows,
          const char *failure)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      if (failure == NULL ? adbscope_connection_get_bytes_down (c) > 0
                          : g_strcmp0 (adbscope_connection_get_failure (c), failure) == 0)
        return i;
    }
  return G_MAXUINT;
}

/* The failures are events on every time chart (the Overview's too), and
 * hovering one names it. */
static void
test_failures_on_timeline (void)
{
  const GArray *events = adbscope_network_get_events (live_network ());
  g_autoptr(GPtrArray) cards = NULL;
  gboolean refused = FALSE, nxdomain = FALSE;

  g_assert_cmpuint (events->len, >=, 2);
  for (guint i = 0; i < events->len; i++)
    {
      const AdbscopeNetEvent *ev = &g_array_index (events, AdbscopeNetEvent, i);

      refused |= g_strcmp0 (ev->code, "CONNECTION_REFUSED") == 0;
      nxdomain |= g_strcmp0 (ev->code, "NXDOMAIN") == 0;
    }
  g_assert_true (refused && nxdomain);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "overview"));
  gui_test_spin (500);
  cards = adbscope_page_list_cards (_adbscope_window_get_page (window, "overview"));
  g_assert_cmpuint (cards->len, >, 0);
  for (guint c = 0; c < cards->len; c++)
    {
      AdbscopeChart *chart = adbscope_chart_card_get_chart (cards->pdata[c]);
      const AdbscopeNetEvent *ev = NULL;
      g_autofree char *text = NULL;

      if (!gtk_widget_get_mapped (GTK_WIDGET (chart)))
        continue;
      g_assert_cmpuint (adbscope_chart_get_n_events (chart), ==, events->len);
      for (guint i = 0; i < events->len && ev == NULL; i++)
        if (g_strcmp0 (g_array_index (events, AdbscopeNetEvent, i).code, "CONNECTION_REFUSED") == 0)
          ev = &g_array_index (events, AdbscopeNetEvent, i);
      g_assert_nonnull (ev);
      text = adbscope_chart_describe_events_at (chart, adbscope_chart_time_to_x (chart, ev->time_us));
      g_test_message ("hover: %s", text);
      g_assert_nonnull (strstr (text, "Connection refused"));
      g_assert_nonnull (strstr (text, ev->subject));
      break;
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "network"));
  gui_test_spin (200);
}

static void
test_search_filter_sort (void)
{
  AdbscopeNetworkPage *p = page ();
  GListModel *rows = adbscope_network_page_get_connection_model (p);
  guint all = g_list_model_get_n_items (rows);
  guint64 prev = G_MAXUINT64;

  /* Open connections have lasted until the last snapshot. */
  for (guint i = 0; i < all; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      g_test_message ("%s %s open %" G_GINT64_FORMAT " close %" G_GINT64_FORMAT " snapshot %" G_GINT64_FORMAT,
                      adbscope_connection_get_protocol (c), adbscope_connection_get_state (c),
                      adbscope_connection_get_open_time_ms (c), adbscope_connection_get_close_time_ms (c),
                      adbscope_network_get_time_ms (live_network ()));
      g_assert_cmpint (adbscope_connection_get_open_time_ms (c), <=, adbscope_network_get_time_ms (live_network ()));
    }

  /* Sorted by bytes received, most first (the default). */
  for (guint i = 0; i < all; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      g_assert_cmpuint (adbscope_connection_get_bytes_down (c), <=, prev);
      prev = adbscope_connection_get_bytes_down (c);
    }

  adbscope_network_page_set_search (p, NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, all);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      g_assert_true (adbscope_connection_is_failed (c));
    }

  adbscope_network_page_set_search (p, "UDP", FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      g_assert_cmpstr (adbscope_connection_get_protocol (c), ==, "UDP");
    }
  adbscope_network_page_set_search (p, "no-such-host.example", FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  adbscope_network_page_set_search (p, NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, all);
}

static gboolean
snapshots_at_least (gpointer data)
{
  return adbscope_network_get_n_snapshots (live_network ()) >= GPOINTER_TO_SIZE (data);
}

/* Whether any GtkInscription below @w shows exactly @text. */
static gboolean
shows_text (GtkWidget  *w,
            const char *text)
{
  if (GTK_IS_INSCRIPTION (w) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (w)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    if (shows_text (c, text))
      return TRUE;
  return FALSE;
}

/* The row of the connections table (a child of the column view's list)
 * that holds @w, or NULL. */
static GtkWidget *
table_row_of (GtkWidget     *w,
              GtkColumnView *view)
{
  for (; w != NULL; w = gtk_widget_get_parent (w))
    {
      GtkWidget *parent = gtk_widget_get_parent (w);

      if (parent != NULL && gtk_widget_get_parent (parent) == GTK_WIDGET (view)
          && GTK_IS_LIST_VIEW (parent))
        return w;
    }
  return NULL;
}

static GtkColumnView *
connections_view (AdbscopeNetworkPage *p)
{
  GtkColumnView *view = gui_test_find_column_view (GTK_WIDGET (p), adbscope_network_page_get_connection_model (p));

  g_assert_nonnull (view);
  return view;
}

/* The table row showing @c's remote address, as a click would focus it. */
static GtkWidget *
row_showing (GtkColumnView      *view,
             AdbscopeConnection *c)
{
  GtkWidget *list = gtk_widget_get_last_child (GTK_WIDGET (view));

  g_assert_true (GTK_IS_LIST_VIEW (list));
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) && shows_text (row, adbscope_connection_get_remote (c)))
      return row;
  return NULL;
}

static void
test_selection_and_details (void)
{
  AdbscopeNetworkPage *p = page ();
  GListModel *rows = adbscope_network_page_get_connection_model (p);
  guint refused = find_row (rows, "CONNECTION_REFUSED");
  AdbscopeConnection *selected;
  guint64 snapshots;

  g_assert_cmpuint (refused, !=, G_MAXUINT);
  adbscope_network_page_select_connection (p, refused);
  selected = adbscope_network_page_get_selected_connection (p);
  g_assert_cmpstr (adbscope_connection_get_failure (selected), ==, "CONNECTION_REFUSED");

  /* The reason in words in the details view. */
  {
    gboolean seen = FALSE;
    GtkWidget *w = GTK_WIDGET (p);
    g_autoptr(GPtrArray) stack = g_ptr_array_new ();

    g_ptr_array_add (stack, w);
    while (stack->len > 0 && !seen)
      {
        GtkWidget *cur = g_ptr_array_steal_index (stack, stack->len - 1);

        if (ADW_IS_ACTION_ROW (cur) && gtk_widget_get_mapped (cur)
            && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (cur)), "Failure") == 0)
          seen = g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (cur)), "Connection refused");
        for (GtkWidget *c = gtk_widget_get_first_child (cur); c; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (stack, c);
      }
    g_assert_true (seen);
  }

  /* Keyboard focus on the selected row, as a click leaves it. */
  {
    GtkColumnView *view = connections_view (p);
    GtkWidget *row = row_showing (view, selected);
    GtkWidget *focused;

    g_assert_nonnull (row);
    g_assert_true (gtk_widget_grab_focus (row));
    g_assert_true (table_row_of (gtk_root_get_focus (GTK_ROOT (window)), view) == row);

    /* Over 10 snapshots, while numbers change and rows re-sort, the same
     * object stays selected and the focus stays on the row that shows it
     * (the user's next arrow key moves from there). */
    snapshots = adbscope_network_get_n_snapshots (live_network ());
    g_assert_true (gui_test_wait (snapshots_at_least, GSIZE_TO_POINTER (snapshots + 10), 30000));
    g_assert_true (adbscope_network_page_get_selected_connection (p) == selected);
    focused = table_row_of (gtk_root_get_focus (GTK_ROOT (window)), view);
    g_assert_true (focused == row);
    g_assert_true (shows_text (focused, adbscope_connection_get_remote (selected)));
  }
}

static gboolean
frozen_shown (gpointer data)
{
  return adbscope_data_view_get_network (_adbscope_window_get_view (window)) != live_network ();
}

static void
test_pause_freezes (void)
{
  AdbscopeNetworkPage *p = page ();
  AdbscopeConnection *selected = adbscope_network_page_get_selected_connection (p);
  guint64 id = adbscope_connection_get_id (selected);
  AdbscopeNetwork *frozen;
  guint64 n, down;
  GListModel *rows = adbscope_network_page_get_connection_model (p);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  gui_test_spin (200);
  g_assert_true (frozen_shown (NULL));
  frozen = adbscope_data_view_get_network (_adbscope_window_get_view (window));
  n = g_list_model_get_n_items (rows);
  {
    g_autoptr(AdbscopeConnection) first = g_list_model_get_item (rows, 0);

    down = adbscope_connection_get_bytes_down (first);
  }
  /* The selection followed to the frozen copy of the same connection. */
  g_assert_cmpuint (adbscope_connection_get_id (adbscope_network_page_get_selected_connection (p)), ==, id);

  adbscope_test_device_control (device, "traffic-round");
  gui_test_spin (4000);
  g_assert_true (adbscope_data_view_get_network (_adbscope_window_get_view (window)) == frozen);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  {
    g_autoptr(AdbscopeConnection) first = g_list_model_get_item (rows, 0);

    g_assert_cmpuint (adbscope_connection_get_bytes_down (first), ==, down);
  }
  /* The live model went on. */
  g_assert_cmpuint (g_list_model_get_n_items (adbscope_network_get_connections (live_network ())), >, n);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause", NULL));
  gui_test_spin (300);
  g_assert_true (adbscope_data_view_get_network (_adbscope_window_get_view (window)) == live_network ());
  g_assert_cmpuint (adbscope_connection_get_id (adbscope_network_page_get_selected_connection (p)), ==, id);
}

/* tshark's count of the packets in @path that match @filter (or all). */
static guint
tshark_count (const char *path,
              const char *filter)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  const char *argv[] = { "tshark", "-n", "-r", path, "-T", "fields", "-e", "frame.number",
                         filter ? "-Y" : NULL, filter, NULL };
  guint n = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (status != 0)
    g_error ("tshark -r %s failed: %s", path, err);
  for (const char *p = out; *p; p++)
    n += *p == '\n';
  return n;
}

static gboolean
capture_idle (gpointer data)
{
  AdbscopeCapture *capture = _adbscope_window_get_capture (window);

  return capture == NULL || adbscope_capture_get_state (capture) == ADBSCOPE_CAPTURE_IDLE;
}

static void
test_exports (void)
{
  AdbscopeNetworkPage *p = page ();
  GListModel *rows = adbscope_network_page_get_connection_model (p);
  AdbscopeNetwork *net = live_network ();
  g_autofree char *all = g_build_filename (tmpdir, "all.pcap", NULL);
  g_autofree char *one = g_build_filename (tmpdir, "one.pcap", NULL);
  g_autofree char *csv = g_build_filename (tmpdir, "connections.csv", NULL);
  g_autofree char *text = NULL;
  g_autofree char *filter = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeConnection *c;
  guint64 n_all = 0, n_one = 0;
  guint source_count, lines = 0;
  guint busy = find_row (rows, NULL);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-capture", NULL));
  /* Stopped only once the last packets are drained into the pcap (a
   * fixed wait lost the tail under load). */
  g_assert_true (gui_test_wait (capture_idle, NULL, 20000));
  source_count = tshark_count (adbscope_network_get_pcap_file (net), NULL);
  g_assert_cmpuint (source_count, >, 10);

  g_assert_true (_adbscope_window_export_pcap (window, all, "all", &n_all, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tshark_count (all, NULL), ==, n_all);
  g_assert_cmpuint (n_all, ==, source_count);

  /* Only the selected connection: what tshark finds for its ports in the
   * whole capture. */
  g_assert_cmpuint (busy, !=, G_MAXUINT);
  adbscope_network_page_select_connection (p, busy);
  c = adbscope_network_page_get_selected_connection (p);
  g_assert_true (_adbscope_window_export_pcap (window, one, "connection", &n_one, &error));
  g_assert_no_error (error);
  {
    const char *local = adbscope_connection_get_local (c);
    const char *lport = strrchr (local, ':') + 1;
    const char *proto = g_ascii_strdown (adbscope_connection_get_protocol (c), -1);

    filter = g_strdup_printf ("ip.addr==%s && %s.port==%s && %s.port==%u", adbscope_connection_get_remote_address (c),
                              proto, lport, proto, adbscope_connection_get_remote_port (c));
    g_free ((char *) proto);
  }
  g_test_message ("connection filter: %s (%s, %" G_GUINT64_FORMAT " packets down, %" G_GUINT64_FORMAT " up)",
                  filter, adbscope_connection_get_state (c), adbscope_connection_get_packets_down (c),
                  adbscope_connection_get_packets_up (c));
  g_assert_cmpuint (n_one, >, 2);
  g_assert_cmpuint (n_one, <, n_all);
  g_assert_cmpuint (tshark_count (one, NULL), ==, n_one);
  g_assert_cmpuint (tshark_count (adbscope_network_get_pcap_file (net), filter), ==, n_one);

  /* The whole capture but cut to the visible window is never more. */
  {
    g_autofree char *win = g_build_filename (tmpdir, "window.pcap", NULL);
    guint64 n_win = 0;

    g_assert_true (_adbscope_window_export_pcap (window, win, "window", &n_win, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (n_win, <=, n_all);
    g_assert_cmpuint (tshark_count (win, NULL), ==, n_win);
    g_unlink (win);
  }

  /* CSV: a header and one row per connection. */
  g_assert_true (_adbscope_window_export_connections (window, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  for (const char *q = text; *q; q++)
    lines += *q == '\n';
  g_assert_true (g_str_has_prefix (text, "id,agent_run,protocol,local,remote,host,"));
  g_assert_cmpuint (lines, ==, g_list_model_get_n_items (adbscope_network_get_connections (net)) + 1);
  g_assert_nonnull (strstr (text, "CONNECTION_REFUSED"));

  g_unlink (all);
  g_unlink (one);
  g_unlink (csv);
}

int
main (int    argc,
      char **argv)
{
  static const char * const sim_args[] = { "--network", "--agent-installed", "--demo-traffic", "auto", NULL };
  g_autoptr(GError) error = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  if (geteuid () != 0)
    {
      /* Network namespaces and a TUN need root here (CI runs as root). */
      g_test_skip ("the simulated network needs root");
      return 77;
    }
  tmpdir = g_dir_make_tmp ("adbscope-netpage-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CACHE_HOME", tmpdir, TRUE);
  device = adbscope_test_device_start (NULL, sim_args, &error);
  g_assert_no_error (error);

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = adbscope_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/gui/network/capture-flow", test_capture_flow);
  g_test_add_func ("/gui/network/hosts-match-servers", test_hosts_match_servers);
  g_test_add_func ("/gui/network/failures-on-timeline", test_failures_on_timeline);
  g_test_add_func ("/gui/network/search-filter-sort", test_search_filter_sort);
  g_test_add_func ("/gui/network/selection-and-details", test_selection_and_details);
  g_test_add_func ("/gui/network/pause-freezes", test_pause_freezes);
  g_test_add_func ("/gui/network/exports", test_exports);
  ret = g_test_run ();

  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  adbscope_test_device_free (device);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    (void) !system (cmd);
  }
  g_free (tmpdir);
  return ret;
}
