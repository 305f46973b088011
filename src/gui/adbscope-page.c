/* adbscope-page.c: one page of the session view, drawn from an AdbscopeDataView
 *
 * Like gnome-system-monitor's live tables, a page only follows the data
 * while it is mapped: map() connects to the view's "updated" and draws at
 * once, unmap() disconnects.  A hidden page costs nothing per sample.  The
 * page never fetches data itself; the session's collectors do.
 */
#include "config.h"

#include "adbscope-chart-card.h"
#include "adbscope-page.h"

typedef struct
{
  AdbscopeDataView *view;
  gulong            updated_id;
  guint             n_updates;
} AdbscopePagePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (AdbscopePage, adbscope_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
collect_cards (GtkWidget *widget,
               GPtrArray *cards)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (ADBSCOPE_IS_CHART_CARD (child))
        g_ptr_array_add (cards, child);
      /* No card lives in a list's rows, and a table holds thousands of
       * widgets: walking them on every update cost more than the cards. */
      else if (!GTK_IS_COLUMN_VIEW (child) && !GTK_IS_LIST_VIEW (child) && !GTK_IS_GRID_VIEW (child))
        collect_cards (child, cards);
    }
}

/**
 * adbscope_page_list_cards:
 *
 * Returns: (transfer container) (element-type AdbscopeChartCard): the
 *   chart cards inside the page, in widget order
 */
GPtrArray *
adbscope_page_list_cards (AdbscopePage *self)
{
  GPtrArray *cards = g_ptr_array_new ();

  g_return_val_if_fail (ADBSCOPE_IS_PAGE (self), cards);
  collect_cards (GTK_WIDGET (self), cards);
  return cards;
}

static void
adbscope_page_real_update (AdbscopePage     *self,
                           AdbscopeDataView *view)
{
  g_autoptr(GPtrArray) cards = adbscope_page_list_cards (self);

  for (guint i = 0; i < cards->len; i++)
    adbscope_chart_card_update (g_ptr_array_index (cards, i), view);
}

static void
run_update (AdbscopePage *self)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  if (priv->view == NULL)
    return;
  priv->n_updates++;
  ADBSCOPE_PAGE_GET_CLASS (self)->update (self, priv->view);
}

static void
on_updated (AdbscopeDataView *view,
            AdbscopePage     *self)
{
  run_update (self);
}

static void
connect_view (AdbscopePage *self)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  if (priv->view == NULL || priv->updated_id != 0)
    return;
  priv->updated_id = g_signal_connect (priv->view, "updated", G_CALLBACK (on_updated), self);
  run_update (self);
}

static void
disconnect_view (AdbscopePage *self)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  if (priv->updated_id != 0)
    g_clear_signal_handler (&priv->updated_id, priv->view);
}

static void
adbscope_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (adbscope_page_parent_class)->map (widget);
  connect_view (ADBSCOPE_PAGE (widget));
}

static void
adbscope_page_unmap (GtkWidget *widget)
{
  disconnect_view (ADBSCOPE_PAGE (widget));
  GTK_WIDGET_CLASS (adbscope_page_parent_class)->unmap (widget);
}

AdbscopeDataView *
adbscope_page_get_view (AdbscopePage *self)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_PAGE (self), NULL);
  return priv->view;
}

void
adbscope_page_set_view (AdbscopePage     *self,
                        AdbscopeDataView *view)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_PAGE (self));
  g_return_if_fail (view == NULL || ADBSCOPE_IS_DATA_VIEW (view));

  if (priv->view == view)
    return;
  disconnect_view (self);
  g_set_object (&priv->view, view);
  {
    g_autoptr(GPtrArray) cards = adbscope_page_list_cards (self);

    for (guint i = 0; i < cards->len; i++)
      adbscope_chart_card_set_view (g_ptr_array_index (cards, i), view);
  }
  if (ADBSCOPE_PAGE_GET_CLASS (self)->set_view != NULL)
    ADBSCOPE_PAGE_GET_CLASS (self)->set_view (self, view);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    connect_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/* How often the page drew from its view (tests: a hidden page does not). */
guint
adbscope_page_get_n_updates (AdbscopePage *self)
{
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_PAGE (self), 0);
  return priv->n_updates;
}

static void
adbscope_page_dispose (GObject *object)
{
  AdbscopePage *self = ADBSCOPE_PAGE (object);
  AdbscopePagePrivate *priv = adbscope_page_get_instance_private (self);

  disconnect_view (self);
  g_clear_object (&priv->view);
  G_OBJECT_CLASS (adbscope_page_parent_class)->dispose (object);
}

static void
adbscope_page_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_object (value, adbscope_page_get_view (ADBSCOPE_PAGE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_page_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW:
      adbscope_page_set_view (ADBSCOPE_PAGE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_page_class_init (AdbscopePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_page_dispose;
  object_class->get_property = adbscope_page_get_property;
  object_class->set_property = adbscope_page_set_property;
  widget_class->map = adbscope_page_map;
  widget_class->unmap = adbscope_page_unmap;
  klass->update = adbscope_page_real_update;

  properties[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL, ADBSCOPE_TYPE_DATA_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (ADBSCOPE_TYPE_CHART_CARD);
}

static void
adbscope_page_init (AdbscopePage *self)
{
}
