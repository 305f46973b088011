/* adbscope-card-frame.c: a card's background and shadow, drawn once per size and style
 *
 * libadwaita's .card has three blurred box shadows.  The cairo renderer
 * draws every node that meets the frame's damage again, and it blurs a
 * box shadow's sides on every draw, so cards whose charts move every frame
 * (a scrolled recording, the live view) paid about a third of each frame
 * for shadows that never changed.  This widget sits under a card's content
 * (AdbscopeChartCard): its child, a box with the .card style, is drawn
 * into an image when its size or style changes (only then does GTK ask
 * this widget for a new snapshot), and each frame paints that image,
 * which is a copy of the pixels under the damage.
 */
#include "config.h"

#include "adbscope-card-frame-private.h"

struct _AdbscopeCardFrame
{
  GtkWidget        parent_instance;

  GtkWidget       *card;
  cairo_surface_t *image;   /* the last drawing of the card, device-scaled */
  graphene_rect_t  bounds;  /* where it goes, shadows included */
  int              n_drawn; /* tests */
};

G_DEFINE_FINAL_TYPE (AdbscopeCardFrame, adbscope_card_frame, GTK_TYPE_WIDGET)

static void
draw_card (AdbscopeCardFrame *self)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  cairo_t *cr;

  g_clear_pointer (&self->image, cairo_surface_destroy);
  gtk_widget_snapshot_child (GTK_WIDGET (self), self->card, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return;

  gsk_render_node_get_bounds (node, &self->bounds);
  graphene_rect_round_extents (&self->bounds, &self->bounds);
  self->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            MAX (1, (int) self->bounds.size.width * scale),
                                            MAX (1, (int) self->bounds.size.height * scale));
  cairo_surface_set_device_scale (self->image, scale, scale);
  cr = cairo_create (self->image);
  cairo_translate (cr, -self->bounds.origin.x, -self->bounds.origin.y);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  gsk_render_node_unref (node);
  self->n_drawn++;
}

static void
adbscope_card_frame_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  AdbscopeCardFrame *self = ADBSCOPE_CARD_FRAME (widget);
  cairo_t *cr;

  /* GTK reuses this widget's last snapshot until the card's size or
   * style changes: each call here is such a change. */
  draw_card (self);
  if (self->image == NULL)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &self->bounds);
  cairo_set_source_surface (cr, self->image, self->bounds.origin.x, self->bounds.origin.y);
  cairo_paint (cr);
  cairo_destroy (cr);
}

static void
adbscope_card_frame_dispose (GObject *object)
{
  AdbscopeCardFrame *self = ADBSCOPE_CARD_FRAME (object);

  g_clear_pointer (&self->card, gtk_widget_unparent);
  g_clear_pointer (&self->image, cairo_surface_destroy);

  G_OBJECT_CLASS (adbscope_card_frame_parent_class)->dispose (object);
}

static void
adbscope_card_frame_class_init (AdbscopeCardFrameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_card_frame_dispose;
  widget_class->snapshot = adbscope_card_frame_snapshot;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "cardframe");
}

static void
adbscope_card_frame_init (AdbscopeCardFrame *self)
{
  self->card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (self->card, "card");
  gtk_widget_set_parent (self->card, GTK_WIDGET (self));
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}

GtkWidget *
adbscope_card_frame_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_CARD_FRAME, NULL);
}

/* How often the card was drawn into the image: tests. */
int
_adbscope_card_frame_get_n_drawn (AdbscopeCardFrame *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CARD_FRAME (self), 0);

  return self->n_drawn;
}
