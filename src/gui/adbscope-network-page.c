/* adbscope-network-page.c: device traffic and its interfaces
 *
 * The interface rows are kept by name and updated in place, so focus and
 * screen readers stay on a row while its numbers change.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-network-page.h"

struct _AdbscopeNetworkPage
{
  AdbscopePage  parent_instance;

  GtkListBox   *interface_list;
  GHashTable   *rows;           /* name → AdwActionRow, borrowed */
};

G_DEFINE_FINAL_TYPE (AdbscopeNetworkPage, adbscope_network_page, ADBSCOPE_TYPE_PAGE)

static char *
format_rate (double bytes_per_s)
{
  g_autofree char *size = NULL;

  if (!isfinite (bytes_per_s))
    return g_strdup ("—");
  size = g_format_size ((guint64) MAX (bytes_per_s, 0));
  return g_strdup_printf (_("%s/s"), size);
}

static void
adbscope_network_page_update (AdbscopePage     *page,
                              AdbscopeDataView *view)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (page);
  const GArray *rates = adbscope_data_view_get_net_rates (view);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;

  ADBSCOPE_PAGE_CLASS (adbscope_network_page_parent_class)->update (page, view);

  for (guint i = 0; i < rates->len; i++)
    {
      const AdbscopeNetRate *r = &g_array_index (rates, AdbscopeNetRate, i);
      g_autofree char *rx = format_rate (r->rx_bytes_per_s);
      g_autofree char *tx = format_rate (r->tx_bytes_per_s);
      g_autofree char *subtitle = NULL;
      GtkWidget *row = g_hash_table_lookup (self->rows, r->name);

      if (row == NULL)
        {
          row = adw_action_row_new ();
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), r->name);
          gtk_list_box_append (self->interface_list, row);
          g_hash_table_insert (self->rows, g_strdup (r->name), row);
        }
      /* Translators: received and sent data rates of a network interface */
      subtitle = g_strdup_printf (_("↓ %s   ↑ %s"), rx, tx);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      g_hash_table_add (seen, (gpointer) r->name);
    }

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (seen, key))
      {
        gtk_list_box_remove (self->interface_list, value);
        g_hash_table_iter_remove (&iter);
      }
}

static void
adbscope_network_page_set_view (AdbscopePage     *page,
                                AdbscopeDataView *view)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (page);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      gtk_list_box_remove (self->interface_list, value);
      g_hash_table_iter_remove (&iter);
    }
}

static void
adbscope_network_page_finalize (GObject *object)
{
  AdbscopeNetworkPage *self = ADBSCOPE_NETWORK_PAGE (object);

  g_hash_table_unref (self->rows);
  G_OBJECT_CLASS (adbscope_network_page_parent_class)->finalize (object);
}

static void
adbscope_network_page_class_init (AdbscopeNetworkPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  object_class->finalize = adbscope_network_page_finalize;
  page_class->update = adbscope_network_page_update;
  page_class->set_view = adbscope_network_page_set_view;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-network-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeNetworkPage, interface_list);
}

static void
adbscope_network_page_init (AdbscopeNetworkPage *self)
{
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  placeholder = gtk_label_new (_("Waiting for a second sample…"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->interface_list, placeholder);
}
