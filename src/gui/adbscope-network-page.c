/* adbscope-network-page.c: what the app talks to — its own traffic beside the device's,
 * connections, hosts, DNS lookups and interfaces
 *
 * The tables sit on the network model's live lists (one GObject per
 * connection, host and lookup, updated in place by the agent's snapshots),
 * so a row keeps its identity, selection and focus while its numbers
 * change; the cells on screen are redrawn once per snapshot.  Numbers
 * that sort a column change in place, so a snapshot sorts the table again
 * (sort_table: only a table on screen, only when the order changed, at
 * most every 2 s while most rows change places; the single selection
 * keeps the selected item through it).  While the view is paused the page
 * shows the view's frozen copy of the network instead.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-capture.h"
#include "adbscope-connection.h"
#include "adbscope-dns-lookup.h"
#include "adbscope-list-moves.h"
#include "adbscope-net-host.h"
#include "adbscope-network-page.h"

typedef struct _Cell Cell;

/* A sorted table and when it may sort again by itself. */
typedef struct
{
  GtkColumnView       *view;
  GtkSortListModel    *model;
  guint                big_sorts;   /* re-sorts in a row that moved many rows */
  gint64               busy_until;  /* monotonic µs; 0: not busy */
  guint                resort_id;   /* the re-sort waiting for busy_until */
} Table;

struct _AdbscopeNetworkPage
{
  AdbscopePage        parent_instance;

  /* Template */
  GtkRevealer        *capture_banner;
  GtkLabel           *banner_title;
  GtkLabel           *banner_text;
  GtkButton          *banner_button;
  GtkLabel           *summary_label;
  GtkButton          *capture_button;
  GtkStack           *tables;
  GtkSearchEntry     *search_entry;
  GtkToggleButton    *failed_toggle;
  GtkLabel           *count_label;
  GtkColumnView      *connection_view;
  GtkColumnViewColumn *c_protocol, *c_remote, *c_host, *c_state, *c_down, *c_up, *c_duration, *c_failure;
  GtkStack           *details_stack;
  GtkListBox         *details_list;
  GtkColumnView      *host_view;
  GtkColumnViewColumn *h_host, *h_source, *h_connections, *h_down, *h_up, *h_failures;
  GtkColumnView      *dns_view;
  GtkColumnViewColumn *d_name, *d_type, *d_answers, *d_latency, *d_result;
  GtkListBox         *interface_list;

  /* Models: network list → filter → sort → selection */
  AdbscopeNetwork    *network;          /* the one shown (live or frozen), borrowed from the view */
  GtkFilterListModel *connection_filter_model;
  GtkCustomFilter    *connection_filter;
  GtkSingleSelection *connection_selection;
  GtkSortListModel   *connection_sort_model;
  GtkSortListModel   *host_sort_model;
  GtkSortListModel   *dns_sort_model;
  Table               sorted[3];        /* connections, hosts, lookups */
  AdbscopeConnection *shown_details;   /* the connection in the details list */
  GPtrArray          *detail_rows;     /* AdwActionRow, in field order */

  guint64             refreshed_snapshots;
  Cell               *duration_cell;   /* owned by its factory */
  GPtrArray          *cells;           /* every column's Cell, owned by the factories */
  guint64             sorted_snapshots;

  AdbscopeCapture    *capture;
  GHashTable         *interface_rows;  /* name → AdwActionRow, borrowed */
};

G_DEFINE_FINAL_TYPE (AdbscopeNetworkPage, adbscope_network_page, ADBSCOPE_TYPE_PAGE)

/* Words -------------------------------------------------------------------- */

static char *
format_bytes (guint64 bytes)
{
  return g_format_size (bytes);
}

static char *
format_rate (double bytes_per_s)
{
  g_autofree char *size = NULL;

  if (!isfinite (bytes_per_s))
    return g_strdup ("—");
  size = g_format_size ((guint64) MAX (bytes_per_s, 0));
  return g_strdup_printf (_("%s/s"), size);
}

static const char *
host_source_text (const char *code)
{
  if (g_strcmp0 (code, "TLS_SNI") == 0)
    return _("TLS server name");
  if (g_strcmp0 (code, "HTTP_HOST") == 0)
    return _("HTTP Host header");
  if (g_strcmp0 (code, "DNS_ANSWER") == 0)
    return _("DNS answer");
  /* Translators: the host column shows a bare address: no name was seen */
  return _("Address only");
}

static const char *
state_text (const char *code)
{
  if (g_strcmp0 (code, "CONNECTING") == 0)
    return _("Connecting");
  if (g_strcmp0 (code, "OPEN") == 0)
    return _("Open");
  if (g_strcmp0 (code, "CLOSING") == 0)
    return _("Closing");
  if (g_strcmp0 (code, "CLOSED") == 0)
    return _("Closed");
  if (g_strcmp0 (code, "FAILED") == 0)
    return _("Failed");
  return code != NULL ? code : "—";
}

/* ms the connection lasted, or has lasted by the last snapshot. */
static gint64
connection_duration_ms (AdbscopeConnection *c,
                        AdbscopeNetwork    *network)
{
  gint64 open = adbscope_connection_get_open_time_ms (c);
  gint64 close = adbscope_connection_get_close_time_ms (c);
  gint64 end = close > 0 ? close : network != NULL ? adbscope_network_get_time_ms (network) : 0;

  if (open <= 0 || end < open)
    return -1;
  return end - open;
}

static char *
format_duration (gint64 ms)
{
  if (ms < 0)
    return g_strdup ("—");
  if (ms < 10000)
    return g_strdup_printf (_("%.1f s"), ms / 1000.0);
  if (ms < 3600 * 1000)
    return g_strdup_printf (_("%d:%02d"), (int) (ms / 60000), (int) (ms / 1000 % 60));
  return g_strdup_printf (_("%d:%02d:%02d"), (int) (ms / 3600000), (int) (ms / 60000 % 60), (int) (ms / 1000 % 60));
}

/* Cells ------------------------------------------------------------------- */

typedef char *(*CellText) (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error);

/* One column: the text of a cell and whether it is a number (right
 * aligned, tabular figures).  The page redraws the bound cells of every
 * column once per snapshot (and the durations of open connections on
 * every update), instead of every cell following its item's notify
 * signals: binding a row then connects nothing, and rows that a re-sort
 * brings into view cost only their text. */
struct _Cell
{
  AdbscopeNetworkPage *page;
  CellText             text;
  gboolean             numeric;
  GPtrArray           *bound;     /* the bound cell widgets */
};

static void
update_cell (GtkInscription *text_widget,
             gpointer        item,
             Cell           *cell)
{
  gboolean is_error = FALSE;
  g_autofree char *text = cell->text (cell->page, item, &is_error);

  /* A GtkInscription keeps its size whatever its text: a new number
   * redraws the cell without laying the table out again (a GtkLabel
   * queued a resize of the whole column view for every changed cell). */
  if (g_strcmp0 (gtk_inscription_get_text (text_widget), text) != 0)
    gtk_inscription_set_text (text_widget, text);
  if (is_error != gtk_widget_has_css_class (GTK_WIDGET (text_widget), "error"))
    {
      if (is_error)
        gtk_widget_add_css_class (GTK_WIDGET (text_widget), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (text_widget), "error");
    }
}

/* Only the cells on screen follow the snapshots (a list keeps some 200
 * rows bound, most of them out of view); one scrolled into view catches
 * up here. */
static void
on_cell_map (GtkWidget *text_widget)
{
  gpointer item = g_object_get_data (G_OBJECT (text_widget), "item");

  if (item != NULL)
    update_cell (GTK_INSCRIPTION (text_widget), item, g_object_get_data (G_OBJECT (text_widget), "cell"));
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            Cell                     *cell)
{
  GtkWidget *text_widget = gtk_inscription_new (NULL);

  gtk_inscription_set_xalign (GTK_INSCRIPTION (text_widget), cell->numeric ? 1 : 0);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (text_widget), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (text_widget), cell->numeric ? 8 : 16);
  if (cell->numeric)
    gtk_widget_add_css_class (text_widget, "numeric");
  g_object_set_data (G_OBJECT (text_widget), "cell", cell);
  g_signal_connect (text_widget, "map", G_CALLBACK (on_cell_map), NULL);
  gtk_list_item_set_child (list_item, text_widget);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           Cell                     *cell)
{
  GObject *item = gtk_list_item_get_item (list_item);
  GtkInscription *text_widget = GTK_INSCRIPTION (gtk_list_item_get_child (list_item));

  /* Most bound rows are out of view (unmapped): their text waits for
   * on_cell_map.  A reorder binds the rows it brings into the list's
   * bound range, most of them never shown. */
  g_object_set_data (G_OBJECT (text_widget), "item", item);
  if (gtk_widget_get_mapped (GTK_WIDGET (text_widget)))
    update_cell (text_widget, item, cell);
  g_ptr_array_add (cell->bound, text_widget);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             Cell                     *cell)
{
  GtkWidget *text_widget = gtk_list_item_get_child (list_item);

  g_object_set_data (G_OBJECT (text_widget), "item", NULL);
  g_ptr_array_remove_fast (cell->bound, text_widget);
}

static void
refresh_bound (Cell *cell)
{
  for (guint i = 0; i < cell->bound->len; i++)
    {
      GtkInscription *text_widget = g_ptr_array_index (cell->bound, i);

      if (gtk_widget_get_mapped (GTK_WIDGET (text_widget)))
        update_cell (text_widget, g_object_get_data (G_OBJECT (text_widget), "item"), cell);
    }
}

static void
free_cell (gpointer  data,
           GClosure *closure)
{
  Cell *cell = data;

  g_clear_pointer (&cell->bound, g_ptr_array_unref);
  g_free (cell);
}

/* @sorter: (transfer full) */
static Cell *
set_column (AdbscopeNetworkPage *self,
            GtkColumnViewColumn *column,
            CellText             text,
            gboolean             numeric,
            GtkSorter           *sorter)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  Cell *cell = g_new0 (Cell, 1);

  cell->page = self;
  cell->text = text;
  cell->numeric = numeric;
  cell->bound = g_ptr_array_new ();
  g_ptr_array_add (self->cells, cell);
  g_signal_connect_data (factory, "setup", G_CALLBACK (setup_cell), cell, free_cell, 0);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), cell);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), cell);
  gtk_column_view_column_set_factory (column, factory);
  g_object_unref (factory);
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  return cell;
}

/* Strings that may be missing (a connection without a host name or a
 * failure): missing sorts first, the rest case-insensitively.
 * GtkStringSorter does not take NULL. */
static int
compare_string_property (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  g_autofree char *sa = NULL;
  g_autofree char *sb = NULL;
  g_autofree char *ka = NULL;
  g_autofree char *kb = NULL;

  g_object_get ((gpointer) a, user_data, &sa, NULL);
  g_object_get ((gpointer) b, user_data, &sb, NULL);
  if (sa == NULL || sb == NULL)
    return (sa != NULL) - (sb != NULL);
  ka = g_utf8_collate_key (sa, -1);
  kb = g_utf8_collate_key (sb, -1);
  return strcmp (ka, kb);
}

static GtkSorter *
string_sorter (GType       type,
               const char *prop)
{
  return GTK_SORTER (gtk_custom_sorter_new (compare_string_property, (gpointer) prop, NULL));
}

static GtkSorter *
numeric_sorter (GType       type,
                const char *prop)
{
  return GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (type, NULL, prop)));
}

/* Connection cells */

static char *
c_protocol_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup (adbscope_connection_get_protocol (item));
}

static char *
c_remote_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup (adbscope_connection_get_remote (item));
}

static char *
c_host_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  const char *host = adbscope_connection_get_host (item);

  return g_strdup (host != NULL ? host : "—");
}

static char *
c_state_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  *is_error = adbscope_connection_is_failed (item);
  return g_strdup (state_text (adbscope_connection_get_state (item)));
}

static char *
c_down_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return format_bytes (adbscope_connection_get_bytes_down (item));
}

static char *
c_up_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return format_bytes (adbscope_connection_get_bytes_up (item));
}

static char *
c_duration_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return format_duration (connection_duration_ms (item, self->network));
}

static char *
c_failure_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  const char *text = adbscope_connection_get_failure_text (item);

  *is_error = text != NULL;
  return g_strdup (text != NULL ? text : "");
}

static int
compare_duration (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  AdbscopeNetworkPage *self = user_data;
  gint64 da = connection_duration_ms ((gpointer) a, self->network);
  gint64 db = connection_duration_ms ((gpointer) b, self->network);

  return (da > db) - (da < db);
}

/* Host cells */

static char *
h_host_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup (adbscope_net_host_get_host (item));
}

static char *
h_source_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup (host_source_text (adbscope_net_host_get_host_source (item)));
}

static char *
h_connections_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup_printf ("%u", adbscope_net_host_get_connections (item));
}

static char *
h_down_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return format_bytes (adbscope_net_host_get_bytes_down (item));
}

static char *
h_up_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return format_bytes (adbscope_net_host_get_bytes_up (item));
}

static char *
h_failures_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  guint n = adbscope_net_host_get_failures (item);

  *is_error = n > 0;
  return g_strdup_printf ("%u", n);
}

/* DNS cells */

static char *
d_name_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  *is_error = adbscope_dns_lookup_is_failed (item);
  return g_strdup (adbscope_dns_lookup_get_name (item));
}

static char *
d_type_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  return g_strdup (adbscope_dns_lookup_get_qtype_name (item));
}

static char *
d_answers_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  const char * const *answers = adbscope_dns_lookup_get_answers (item);

  if (answers == NULL || answers[0] == NULL)
    return g_strdup ("—");
  return g_strjoinv (", ", (char **) answers);
}

static char *
d_latency_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  double ms = adbscope_dns_lookup_get_latency_ms (item);

  if (!isfinite (ms) || ms <= 0)
    return g_strdup ("—");
  /* Translators: milliseconds */
  return g_strdup_printf (_("%.1f ms"), ms);
}

static char *
d_result_text (AdbscopeNetworkPage *self, gpointer item, gboolean *is_error)
{
  *is_error = adbscope_dns_lookup_is_failed (item);
  return g_strdup (adbscope_dns_result_text (adbscope_dns_lookup_get_result (item)));
}

static int
compare_answers (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const char * const *aa = adbscope_dns_lookup_get_answers ((gpointer) a);
  const char * const *bb = adbscope_dns_lookup_get_answers ((gpointer) b);

  return g_strcmp0 (aa ? aa[0] : NULL, bb ? bb[0] : NULL);
}

/* Filter -------------------------------------------------------------------- */

static gboolean
connection_matches (gpointer item,
                    gpointer user_data)
{
  AdbscopeNetworkPage *self = user_data;
  AdbscopeConnection *c = item;
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  g_autofree char *port = NULL;
  const char *fields[4];

  if (gtk_toggle_button_get_active (self->failed_toggle) && !adbscope_connection_is_failed (c))
    return FALSE;
  if (search == NULL || *search == '\0')
    return TRUE;
  needle = g_utf8_casefold (search, -1);
  port = g_strdup_printf ("%u", adbscope_connection_get_remote_port (c));
  fields[0] = adbscope_connection_get_host (c);
  fields[1] = adbscope_connection_get_remote (c);
  fields[2] = adbscope_connection_get_protocol (c);
  fields[3] = port;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *hay = fields[i] ? g_utf8_casefold (fields[i], -1) : NULL;

      if (hay != NULL && strstr (hay, needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
update_count (AdbscopeNetworkPage *self)
{
  GListModel *all = gtk_filter_list_model_get_model (self->connection_filter_model);
  guint total = all != NULL ? g_list_model_get_n_items (all) : 0;
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->connection_filter_model));
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u connection", "%u connections", total), total);
  else
    /* Translators: connections shown after filtering, of all connections */
    text = g_strdup_printf (_("%u of %u connections"), shown, total);
  gtk_label_set_text (self->count_label, text);
}

static void
refilter (AdbscopeNetworkPage *self)
{
  gtk_filter_changed (GTK_FILTER (self->connection_filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

/* Details ------------------------------------------------------------------- */

typedef enum
{
  D_PROTOCOL, D_REMOTE, D_LOCAL, D_HOST, D_HOST_SOURCE, D_STATE, D_FAILURE, D_OPENED, D_CLOSED,
  D_DURATION, D_DOWN, D_UP, D_PAYLOAD, D_UID, D_ID, N_DETAILS
} Detail;

static const char *
detail_title (Detail d)
{
  switch (d)
    {
    case D_PROTOCOL: return _("Protocol");
    case D_REMOTE: return _("Remote address");
    case D_LOCAL: return _("App’s address");
    case D_HOST: return _("Host");
    case D_HOST_SOURCE: return _("Name learned from");
    case D_STATE: return _("State");
    case D_FAILURE: return _("Failure");
    case D_OPENED: return _("Opened");
    case D_CLOSED: return _("Closed");
    case D_DURATION: return _("Duration");
    case D_DOWN: return _("Received");
    case D_UP: return _("Sent");
    case D_PAYLOAD: return _("Payload (received / sent)");
    case D_UID: return _("App user id");
    case D_ID: return _("Agent’s id (run)");
    case N_DETAILS:
    default: return "";
    }
}

static char *
format_wall_ms (gint64 ms)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (ms <= 0)
    return g_strdup ("—");
  utc = g_date_time_new_from_unix_utc (ms / 1000);
  if (utc == NULL)
    return g_strdup ("—");
  local = g_date_time_to_local (utc);
  return g_strdup_printf ("%s.%03d", g_date_time_format (local, "%X") , (int) (ms % 1000));
}

static char *
detail_value (AdbscopeNetworkPage *self,
              AdbscopeConnection  *c,
              Detail               d)
{
  const char *s;

  switch (d)
    {
    case D_PROTOCOL: return g_strdup (adbscope_connection_get_protocol (c));
    case D_REMOTE: return g_strdup (adbscope_connection_get_remote (c));
    case D_LOCAL: return g_strdup (adbscope_connection_get_local (c));
    case D_HOST: s = adbscope_connection_get_host (c); return g_strdup (s ? s : "—");
    case D_HOST_SOURCE: return g_strdup (host_source_text (adbscope_connection_get_host_source (c)));
    case D_STATE: return g_strdup (state_text (adbscope_connection_get_state (c)));
    case D_FAILURE:
      s = adbscope_connection_get_failure_text (c);
      if (s == NULL)
        return g_strdup (_("None"));
      if (adbscope_connection_get_failure_errno (c) != 0)
        /* Translators: a failure in words, its code and the system's error text */
        return g_strdup_printf (_("%s (%s: %s)"), s, adbscope_connection_get_failure (c),
                                g_strerror (adbscope_connection_get_failure_errno (c)));
      return g_strdup_printf ("%s (%s)", s, adbscope_connection_get_failure (c));
    case D_OPENED: return format_wall_ms (adbscope_connection_get_open_time_ms (c));
    case D_CLOSED:
      if (adbscope_connection_get_close_time_ms (c) <= 0)
        return g_strdup (_("Still open"));
      return format_wall_ms (adbscope_connection_get_close_time_ms (c));
    case D_DURATION: return format_duration (connection_duration_ms (c, self->network));
    case D_DOWN:
      {
        g_autofree char *b = format_bytes (adbscope_connection_get_bytes_down (c));

        /* Translators: bytes and packets */
        g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, adbscope_connection_get_packets_down (c));

        /* Translators: bytes, and the number of packets */
        return g_strdup_printf (_("%s in %s packets"), b, n);
      }
    case D_UP:
      {
        g_autofree char *b = format_bytes (adbscope_connection_get_bytes_up (c));

        g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, adbscope_connection_get_packets_up (c));

        /* Translators: bytes, and the number of packets */
        return g_strdup_printf (_("%s in %s packets"), b, n);
      }
    case D_PAYLOAD:
      {
        g_autofree char *down = format_bytes (adbscope_connection_get_payload_down (c));
        g_autofree char *up = format_bytes (adbscope_connection_get_payload_up (c));

        return g_strdup_printf ("%s / %s", down, up);
      }
    case D_UID: return g_strdup_printf ("%d", adbscope_connection_get_uid (c));
    case D_ID:
      return g_strdup_printf ("%" G_GUINT64_FORMAT " (%u)", adbscope_connection_get_id (c),
                              adbscope_connection_get_agent_run (c));
    case N_DETAILS:
    default:
      return g_strdup ("");
    }
}

static void
fill_details (AdbscopeNetworkPage *self)
{
  AdbscopeConnection *c = self->shown_details;

  if (c == NULL)
    {
      gtk_stack_set_visible_child_name (self->details_stack, "empty");
      return;
    }
  for (guint i = 0; i < N_DETAILS; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->detail_rows, i);
      g_autofree char *value = detail_value (self, c, i);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value);
    }
  if (adbscope_connection_is_failed (c))
    gtk_widget_add_css_class (g_ptr_array_index (self->detail_rows, D_FAILURE), "error");
  else
    gtk_widget_remove_css_class (g_ptr_array_index (self->detail_rows, D_FAILURE), "error");
  gtk_stack_set_visible_child_name (self->details_stack, "details");
}

static void
on_shown_notify (AdbscopeConnection  *c,
                 GParamSpec          *pspec,
                 AdbscopeNetworkPage *self)
{
  fill_details (self);
}

static void
show_details (AdbscopeNetworkPage *self,
              AdbscopeConnection  *c)
{
  if (self->shown_details == c)
    return;
  if (self->shown_details != NULL)
    g_signal_handlers_disconnect_by_func (self->shown_details, on_shown_notify, self);
  g_set_object (&self->shown_details, c);
  if (c != NULL)
    g_signal_connect_object (c, "notify", G_CALLBACK (on_shown_notify), self, 0);
  fill_details (self);
}

static void
on_selection_changed (GtkSingleSelection  *selection,
                      GParamSpec          *pspec,
                      AdbscopeNetworkPage *self)
{
  show_details (self, gtk_single_selection_get_selected_item (selection));
}

/* The capture banner ------------------------------------------------------ */

static void
update_banner (AdbscopeNetworkPage *self)
{
  AdbscopeCaptureState state = self->capture != NULL ? adbscope_capture_get_state (self->capture)
                                                     : ADBSCOPE_CAPTURE_IDLE;
  gboolean have_data = self->network != NULL && adbscope_network_get_n_snapshots (self->network) > 0;
  const GError *error = self->capture != NULL ? adbscope_capture_get_error (self->capture) : NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->capture_button), state == ADBSCOPE_CAPTURE_RUNNING
                                                             || state == ADBSCOPE_CAPTURE_STARTING);
  switch (state)
    {
    case ADBSCOPE_CAPTURE_RUNNING:
      if (self->network != NULL && adbscope_network_in_gap (self->network))
        {
          gtk_label_set_text (self->banner_title, _("The agent is not answering"));
          gtk_label_set_text (self->banner_text,
                              _("Adbscope reconnects by itself; the time without data is shown as a gap, never as zero."));
          gtk_widget_set_visible (GTK_WIDGET (self->banner_button), FALSE);
          gtk_revealer_set_reveal_child (self->capture_banner, TRUE);
        }
      else if (self->network != NULL && adbscope_network_get_private_dns (self->network) != NULL
               && adbscope_private_dns_hides_lookups (adbscope_network_get_private_dns (self->network)))
        {
          /* Private DNS set to a provider: the lookups never reach the agent. */
          gtk_label_set_text (self->banner_title, _("DNS lookups are encrypted on this phone"));
          gtk_label_set_text (self->banner_text,
                              _("Private DNS is set to a provider, so the app’s lookups are invisible to the "
                                "agent; host names come from TLS SNI instead."));
          gtk_widget_set_visible (GTK_WIDGET (self->banner_button), FALSE);
          gtk_revealer_set_reveal_child (self->capture_banner, TRUE);
        }
      else
        gtk_revealer_set_reveal_child (self->capture_banner, FALSE);
      return;
    case ADBSCOPE_CAPTURE_STARTING:
      gtk_label_set_text (self->banner_title, _("Starting the capture…"));
      gtk_label_set_text (self->banner_text, _("Accept the VPN request on the phone if it asks."));
      gtk_widget_set_visible (GTK_WIDGET (self->banner_button), FALSE);
      break;
    case ADBSCOPE_CAPTURE_FAILED:
      gtk_label_set_text (self->banner_title, _("The capture stopped"));
      gtk_label_set_text (self->banner_text, error != NULL ? error->message : "");
      gtk_widget_set_visible (GTK_WIDGET (self->banner_button), TRUE);
      break;
    case ADBSCOPE_CAPTURE_IDLE:
    case ADBSCOPE_CAPTURE_STOPPING:
    default:
      gtk_label_set_text (self->banner_title, have_data ? _("The capture is stopped")
                                                        : _("See every connection of the app"));
      gtk_label_set_text (self->banner_text,
                          _("A capture adds the app’s own traffic, each connection with its host, bytes and "
                            "failures, and its DNS lookups, through a small VPN agent on the phone. Nothing "
                            "leaves the phone."));
      gtk_widget_set_visible (GTK_WIDGET (self->banner_button), TRUE);
      break;
    }
  gtk_revealer_set_reveal_child (self->capture_banner, TRUE);
}

static void
on_capture_state (AdbscopeCapture     *capture,
                  GParamSpec          *pspec,
                  AdbscopeNetworkPage *self)
{
  update_banner (self);
}

void
adbscope_network_page_set_capture (AdbscopeNetworkPage *self,
                                   AdbscopeCapture     *capture)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self));

  if (self->capture == capture)
    return;
  if (self->capture != NULL)
    g_signal_handlers_disconnect_by_func (self->capture, on_capture_state, self);
  g_set_object (&self->capture, capture);
  if (capture != NULL)
    g_signal_connect_object (capture, "notify::state", G_CALLBACK (on_capture_state), self, 0);
  update_banner (self);
}

/* Tests: is the banner about the capture (start one, starting, failed) shown? */
gboolean
adbscope_network_page_get_banner_shown (AdbscopeNetworkPage *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self), FALSE);
  return gtk_revealer_get_reveal_child (self->capture_banner);
}

/**
 * adbscope_network_page_get_selected_connection:
 *
 * Returns: (transfer none) (nullable): the connection selected in the table
 */
AdbscopeConnection *
adbscope_network_page_get_selected_connection (AdbscopeNetworkPage *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self), NULL);
  return gtk_single_selection_get_selected_item (self->connection_selection);
}

/* Tests and the export dialog: the connections as listed (filtered, sorted). */
GListModel *
adbscope_network_page_get_connection_model (AdbscopeNetworkPage *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self), NULL);
  return G_LIST_MODEL (self->connection_selection);
}

void
adbscope_network_page_select_connection (AdbscopeNetworkPage *self,
                                         guint                position)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self));
  gtk_single_selection_set_selected (self->connection_selection, position);
}

void
adbscope_network_page_show_table (AdbscopeNetworkPage *self,
                                  const char          *name)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self));
  gtk_stack_set_visible_child_name (self->tables, name);
}

void
adbscope_network_page_set_search (AdbscopeNetworkPage *self,
                                  const char          *text,
                                  gboolean             failed_only)
{
  g_return_if_fail (ADBSCOPE_IS_NETWORK_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  gtk_toggle_button_set_active (self->failed_toggle, failed_only);
  refilter (self);
}

/* Interfaces (the device's, from /proc/net/dev) ----------------------------- */

static void
update_interfaces (AdbscopeNetworkPage *self,
                   AdbscopeDataView    *view)
{
  const GArray *rates = adbscope_data_view_get_net_rates (view);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; rates != NULL && i < rates->len; i++)
    {
      const AdbscopeNetRate *r = &g_array_index (rates, AdbscopeNetRate, i);
      g_autofree char *rx = format_rate (r->rx_bytes_per_s);
      g_autofree char *tx = format_rate (r->tx_bytes_per_s);
      g_autofree char *subtitle = NULL;
      GtkWidget *row = g_hash_table_lookup (self->interface_rows, r->name);

      if (row == NULL)
        {
          row = adw_action_row_new ();
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), r->name);
          gtk_list_box_append (self->interface_list, row);
          g_hash_table_insert (self->interface_rows, g_strdup (r->name), row);
        }
      /* Translators: received and sent data rates of a network interface */
      subtitle = g_strdup_printf (_("↓ %s   ↑ %s"), rx, tx);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      g_hash_table_add (seen, (gpointer) r->name);
    }

  g_hash_table_iter_init (&iter, self->interface_rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (seen, key))
      {
        gtk_list_box_remove (self->interface_list, value);
        g_hash_table_iter_remove (&iter);
      }
}

static void
clear_interfaces (AdbscopeNetworkPage *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->interface_rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      gtk_list_box_remove (self->interface_list, value);
      g_hash_table_iter_remove (&iter);
    }
}

/* Update -------------------------------------------------------------------- */

static void
update_summary (AdbscopeNetworkPage *self)
{
  guint64 up = 0, down = 0;
  guint n_conn, n_failed = 0;
  GListModel *conns;
  g_autofree char *up_text = NULL;
  g_autofree char *down_text = NULL;
  g_autofree char *text = NULL;

  if (self->network == NULL || adbscope_network_get_n_snapshots (self->network) == 0)
    {
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  conns = adbscope_network_get_connections (self->network);
  n_conn = g_list_model_get_n_items (conns);
  for (guint i = 0; i < n_conn; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);

      n_failed += adbscope_connection_is_failed (c);
    }
  adbscope_network_get_payload (self->network, &up, &down);
  up_text = format_bytes (up);
  down_text = format_bytes (down);
  /* Translators: the app's payload received and sent over the capture, and failed connections */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "↓ %s  ↑ %s  ·  %u failed connection",
                                       "↓ %s  ↑ %s  ·  %u failed connections", n_failed),
                          down_text, up_text, n_failed);
  gtk_label_set_text (self->summary_label, text);
}

static void
show_network (AdbscopeNetworkPage *self,
              AdbscopeNetwork     *network)
{
  AdbscopeConnection *selected = gtk_single_selection_get_selected_item (self->connection_selection);
  guint64 id = selected ? adbscope_connection_get_id (selected) : 0;
  guint run = selected ? adbscope_connection_get_agent_run (selected) : 0;
  GListModel *shown;
  guint n;

  self->network = network;
  /* other lists: sorted afresh, nothing busy */
  for (guint i = 0; i < G_N_ELEMENTS (self->sorted); i++)
    {
      self->sorted[i].big_sorts = 0;
      self->sorted[i].busy_until = 0;
      g_clear_handle_id (&self->sorted[i].resort_id, g_source_remove);
    }
  gtk_filter_list_model_set_model (self->connection_filter_model,
                                   network ? adbscope_network_get_connections (network) : NULL);
  gtk_sort_list_model_set_model (self->host_sort_model, network ? adbscope_network_get_hosts (network) : NULL);
  gtk_sort_list_model_set_model (self->dns_sort_model, network ? adbscope_network_get_dns (network) : NULL);

  /* Pause or resume: an equal list of other objects.  Keep the selected
   * connection selected. */
  shown = G_LIST_MODEL (self->connection_selection);
  n = g_list_model_get_n_items (shown);
  for (guint i = 0; selected != NULL && i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (shown, i);

      if (adbscope_connection_get_id (c) == id && adbscope_connection_get_agent_run (c) == run)
        {
          gtk_single_selection_set_selected (self->connection_selection, i);
          break;
        }
    }
  show_details (self, gtk_single_selection_get_selected_item (self->connection_selection));
}

/* Whether @model is still in @sorter's order after its numbers changed
 * in place: one comparison per row, far cheaper than a sort whose
 * items-changed moves every visible row. */
static gboolean
still_sorted (GListModel *model,
              GtkSorter  *sorter)
{
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GObject) prev = n > 0 ? g_list_model_get_item (model, 0) : NULL;

  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (gtk_sorter_compare (sorter, prev, item) == GTK_ORDERING_LARGER)
        return FALSE;
      g_set_object (&prev, item);
    }
  return TRUE;
}

static GtkWidget *
list_of (GtkColumnView *view)
{
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (view)); w; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_LIST_VIEW (w))
      return w;
  return NULL;
}

/* Two re-sorts in a row that each move more rows than this share of them
 * (and more than BUSY_MIN_MOVED) make the table busy: every connection is
 * moving bytes at rates so close that their order changes every second.
 * (One alone is a table filling up or a column whose numbers jumped.) */
#define BUSY_SHARE     4    /* a quarter */
#define BUSY_MIN_MOVED 20
/* While busy, a table sorts by itself at most this often, µs; the
 * numbers in it still follow every snapshot, and a click on a header, a
 * search or a filter sorts at once (GtkSortListModel does that). */
#define BUSY_INTERVAL  (2 * G_USEC_PER_SEC)
/* A snapshot this close to the end of the wait sorts (at one a second,
 * every other one does, in the same frame as its numbers). */
#define BUSY_SLACK     (G_USEC_PER_SEC / 4)

static void sort_table (Table *t, gboolean forced);

static gboolean
resort_later_cb (gpointer data)
{
  Table *t = data;

  t->resort_id = 0;
  sort_table (t, TRUE);
  return G_SOURCE_REMOVE;
}

/* Sorts @t again if the numbers changed its order.
 *
 * A table out of view waits (sort_table runs when it is mapped); a busy
 * one waits for busy_until (forced: it has come), then sorts from a
 * timeout if no snapshot does it first.
 *
 * GTK 4.8's list keeps the item at the top of the view where it is on
 * screen: a re-sort that moves it drags the view along (a table at the
 * top, sorted by ↓, would scroll down whenever a new connection overtook
 * the first one).  The rows stay where they were instead: the view keeps
 * its position, the rows under it change. */
static void
sort_table (Table    *t,
            gboolean  forced)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (t->view);
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (t->view));
  GListModel *list = G_LIST_MODEL (t->model);
  guint n = g_list_model_get_n_items (list);
  gint64 now = g_get_monotonic_time ();
  double row, value;
  guint top, moved_to, moved;
  g_autofree gconstpointer *before = NULL;
  g_autofree gconstpointer *after = NULL;

  if (!gtk_widget_get_mapped (GTK_WIDGET (t->view)) || sorter == NULL
      || gtk_sorter_get_order (sorter) == GTK_SORTER_ORDER_NONE)
    return;
  if (now + BUSY_SLACK < t->busy_until && !forced)
    {
      if (t->resort_id == 0)
        t->resort_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (t->busy_until - now + 999) / 1000,
                                           resort_later_cb, t, NULL);
      return;
    }
  g_clear_handle_id (&t->resort_id, g_source_remove);
  if (still_sorted (list, sorter))
    {
      t->big_sorts = 0;
      t->busy_until = 0;
      return;
    }

  /* Rows are one height: the list's estimate of its length is exact. */
  row = vadj != NULL && n > 0 ? gtk_adjustment_get_upper (vadj) / n : 0;
  value = row > 0 ? gtk_adjustment_get_value (vadj) : 0;
  top = row > 0 ? MIN ((guint) (value / row + 0.5), n - 1) : 0;
  before = g_new (gconstpointer, MAX (n, 1));
  after = g_new (gconstpointer, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (list, i);

      before[i] = item;  /* the list holds it */
    }

  gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);

  moved_to = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (list, i);

      after[i] = item;
      if (item == before[top])
        moved_to = i;
    }
  moved = adbscope_list_moves_count (before, after, n);
  t->big_sorts = moved > n / BUSY_SHARE && moved > BUSY_MIN_MOVED ? t->big_sorts + 1 : 0;
  t->busy_until = t->big_sorts >= 2 ? now + BUSY_INTERVAL : 0;
  g_debug ("re-sort moved %u of %u rows%s", moved, n, t->busy_until ? ": busy" : "");

  /* The list still measures from where it was: the row now at @top goes
   * to the top edge, where the old one was. */
  if (moved_to != top && moved_to != G_MAXUINT && row > 0)
    gtk_widget_activate_action (list_of (t->view), "list.scroll-to-item", "u", top);
}

static void
on_table_map (GtkWidget *view,
              Table     *t)
{
  sort_table (t, TRUE);
}

static void
adbscope_network_page_update (AdbscopePage     *page,
                              AdbscopeDataView *view)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (page);
  AdbscopeNetwork *network = adbscope_data_view_get_network (view);

  ADBSCOPE_PAGE_CLASS (adbscope_network_page_parent_class)->update (page, view);

  if (network != self->network)
    show_network (self, network);
  else if (!adbscope_data_view_get_paused (view)
           && adbscope_network_get_n_snapshots (network) != self->sorted_snapshots)
    {
      /* Numbers changed in place: sort again (and filter, for the state). */
      /* Only a snapshot changes these numbers (the view also updates for
       * every other collector's sample). */
      self->sorted_snapshots = adbscope_network_get_n_snapshots (network);
      for (guint i = 0; i < G_N_ELEMENTS (self->sorted); i++)
        sort_table (&self->sorted[i], FALSE);
      /* A row can start or stop matching only through what changes: its
       * state (failed only) or its host name (searched).  Refiltering
       * rebinds every visible row, so not without a reason. */
      if (gtk_toggle_button_get_active (self->failed_toggle)
          || *gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) != '\0')
        gtk_filter_changed (GTK_FILTER (self->connection_filter), GTK_FILTER_CHANGE_DIFFERENT);
    }
  if (network != NULL && self->refreshed_snapshots != adbscope_network_get_n_snapshots (network))
    {
      self->refreshed_snapshots = adbscope_network_get_n_snapshots (network);
      for (guint i = 0; i < self->cells->len; i++)
        refresh_bound (g_ptr_array_index (self->cells, i));
    }
  else
    refresh_bound (self->duration_cell);
  if (self->shown_details != NULL)
    fill_details (self);
  update_count (self);
  update_summary (self);
  update_banner (self);
  update_interfaces (self, view);
}

static void
adbscope_network_page_set_view (AdbscopePage     *page,
                                AdbscopeDataView *view)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (page);

  clear_interfaces (self);
  show_network (self, view != NULL ? adbscope_data_view_get_network (view) : NULL);
  update_count (self);
  update_summary (self);
  update_banner (self);
}

static void
on_search_changed (GtkSearchEntry      *entry,
                   AdbscopeNetworkPage *self)
{
  refilter (self);
}

static void
on_failed_toggled (GtkToggleButton     *button,
                   AdbscopeNetworkPage *self)
{
  refilter (self);
}

static gboolean
focus_search (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (widget);

  gtk_stack_set_visible_child_name (self->tables, "connections");
  return gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
adbscope_network_page_dispose (GObject *object)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (object);

  /* Taking the columns away re-sorts the table: a selection then
   * changing must not fill the disposed details view. */
  if (self->connection_selection != NULL)
    g_signal_handlers_disconnect_by_func (self->connection_selection, on_selection_changed, self);
  self->connection_selection = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (self->sorted); i++)
    g_clear_handle_id (&self->sorted[i].resort_id, g_source_remove);
  show_details (self, NULL);
  if (self->capture != NULL)
    g_signal_handlers_disconnect_by_func (self->capture, on_capture_state, self);
  g_clear_object (&self->capture);
  gtk_widget_dispose_template (GTK_WIDGET (self), ADBSCOPE_TYPE_NETWORK_PAGE);
  G_OBJECT_CLASS (adbscope_network_page_parent_class)->dispose (object);
}

static void
adbscope_network_page_finalize (GObject *object)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (object);

  g_hash_table_unref (self->interface_rows);
  g_ptr_array_unref (self->detail_rows);
  g_ptr_array_unref (self->cells);
  G_OBJECT_CLASS (adbscope_network_page_parent_class)->finalize (object);
}

static void
adbscope_network_page_class_init (AdbscopeNetworkPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  object_class->dispose = adbscope_network_page_dispose;
  object_class->finalize = adbscope_network_page_finalize;
  page_class->update = adbscope_network_page_update;
  page_class->set_view = adbscope_network_page_set_view;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-network-page.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, AdbscopeNetworkPage, name)
  CHILD (capture_banner); CHILD (banner_title); CHILD (banner_text); CHILD (banner_button);
  CHILD (summary_label); CHILD (capture_button); CHILD (tables); CHILD (search_entry);
  CHILD (failed_toggle); CHILD (count_label); CHILD (connection_view);
  CHILD (c_protocol); CHILD (c_remote); CHILD (c_host); CHILD (c_state); CHILD (c_down); CHILD (c_up);
  CHILD (c_duration); CHILD (c_failure); CHILD (details_stack); CHILD (details_list);
  CHILD (host_view); CHILD (h_host); CHILD (h_source); CHILD (h_connections); CHILD (h_down); CHILD (h_up);
  CHILD (h_failures); CHILD (dns_view); CHILD (d_name); CHILD (d_type); CHILD (d_answers); CHILD (d_latency);
  CHILD (d_result); CHILD (interface_list);
#undef CHILD

  gtk_widget_class_add_binding (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, focus_search, NULL);
}

static GtkSortListModel *
sorted_table (GtkColumnView *view)
{
  GtkSortListModel *sort = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (view)));
  GtkNoSelection *selection = gtk_no_selection_new (G_LIST_MODEL (sort));

  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  return sort;
}

static void
adbscope_network_page_init (AdbscopeNetworkPage *self)
{
  GType C = ADBSCOPE_TYPE_CONNECTION, H = ADBSCOPE_TYPE_NET_HOST, D = ADBSCOPE_TYPE_DNS_LOOKUP;
  GtkSortListModel *sort;
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cells = g_ptr_array_new ();
  self->interface_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  set_column (self, self->c_protocol, c_protocol_text, FALSE, string_sorter (C, "protocol"));
  set_column (self, self->c_remote, c_remote_text, FALSE, string_sorter (C, "remote"));
  set_column (self, self->c_host, c_host_text, FALSE, string_sorter (C, "host"));
  set_column (self, self->c_state, c_state_text, FALSE, string_sorter (C, "state"));
  set_column (self, self->c_down, c_down_text, TRUE, numeric_sorter (C, "bytes-down"));
  set_column (self, self->c_up, c_up_text, TRUE, numeric_sorter (C, "bytes-up"));
  self->duration_cell = set_column (self, self->c_duration, c_duration_text, TRUE,
                                    GTK_SORTER (gtk_custom_sorter_new (compare_duration, self, NULL)));
  set_column (self, self->c_failure, c_failure_text, FALSE, string_sorter (C, "failure-text"));

  set_column (self, self->h_host, h_host_text, FALSE, string_sorter (H, "host"));
  set_column (self, self->h_source, h_source_text, FALSE, string_sorter (H, "host-source"));
  set_column (self, self->h_connections, h_connections_text, TRUE, numeric_sorter (H, "connections"));
  set_column (self, self->h_down, h_down_text, TRUE, numeric_sorter (H, "bytes-down"));
  set_column (self, self->h_up, h_up_text, TRUE, numeric_sorter (H, "bytes-up"));
  set_column (self, self->h_failures, h_failures_text, TRUE, numeric_sorter (H, "failures"));

  set_column (self, self->d_name, d_name_text, FALSE, string_sorter (D, "name"));
  set_column (self, self->d_type, d_type_text, FALSE, string_sorter (D, "qtype-name"));
  set_column (self, self->d_answers, d_answers_text, FALSE,
              GTK_SORTER (gtk_custom_sorter_new (compare_answers, NULL, NULL)));
  set_column (self, self->d_latency, d_latency_text, TRUE, numeric_sorter (D, "latency-ms"));
  set_column (self, self->d_result, d_result_text, FALSE, string_sorter (D, "result"));

  /* connections: live list → filter → sort → single selection */
  self->connection_filter = gtk_custom_filter_new (connection_matches, self, NULL);
  self->connection_filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (self->connection_filter));
  sort = gtk_sort_list_model_new (G_LIST_MODEL (self->connection_filter_model),
                                  g_object_ref (gtk_column_view_get_sorter (self->connection_view)));
  self->connection_sort_model = sort;
  self->connection_selection = gtk_single_selection_new (G_LIST_MODEL (sort));
  gtk_single_selection_set_autoselect (self->connection_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->connection_selection, TRUE);
  gtk_column_view_set_model (self->connection_view, GTK_SELECTION_MODEL (self->connection_selection));
  g_object_unref (self->connection_selection);
  g_signal_connect (self->connection_selection, "notify::selected-item", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_sort_by_column (self->connection_view, self->c_down, GTK_SORT_DESCENDING);

  self->host_sort_model = sorted_table (self->host_view);
  gtk_column_view_sort_by_column (self->host_view, self->h_down, GTK_SORT_DESCENDING);
  /* lookups stay in the order they happened until a column is chosen */
  self->dns_sort_model = sorted_table (self->dns_view);

  {
    GtkColumnView *views[] = { self->connection_view, self->host_view, self->dns_view };
    GtkSortListModel *models[] = { self->connection_sort_model, self->host_sort_model, self->dns_sort_model };

    for (guint i = 0; i < G_N_ELEMENTS (self->sorted); i++)
      {
        self->sorted[i] = (Table) { .view = views[i], .model = models[i] };
        /* a table shown again catches up with the snapshots it missed */
        g_signal_connect (views[i], "map", G_CALLBACK (on_table_map), &self->sorted[i]);
      }
  }

  self->detail_rows = g_ptr_array_new ();
  for (guint i = 0; i < N_DETAILS; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), detail_title (i));
      gtk_list_box_append (self->details_list, row);
      g_ptr_array_add (self->detail_rows, row);
    }

  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->failed_toggle, "toggled", G_CALLBACK (on_failed_toggled), self);

  placeholder = gtk_label_new (_("Waiting for a second sample…"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->interface_list, placeholder);
  update_banner (self);
}
