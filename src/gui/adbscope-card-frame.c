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
 * which is a copy of the pixels under the damage.  Even a copy costs:
 * the cairo renderer replays a cairo node into a cleared image of its
 * own first.  So where the image's inside is one colour (the card's
 * background, away from its rounded corners and shadows) it is a colour
 * node, a plain fill, and only the four edges are painted from the image.
 */
#include "config.h"

#include "adbscope-card-frame-private.h"

struct _AdbscopeCardFrame
{
  GtkWidget        parent_instance;

  GtkWidget       *card;
  cairo_surface_t *image;   /* the last drawing of the card, device-scaled */
  graphene_rect_t  bounds;  /* where it goes, shadows included */
  graphene_rect_t  inside;  /* one colour there (empty: none found) */
  GdkRGBA          inside_color;
  int              n_drawn; /* tests */
};

/* Beyond the corners' radius (12 px in libadwaita 1.2) and a border. */
#define INSET 16

/* Whether the image is one colour over the card's inside; sets
 * self->inside and its colour if so. */
static void
find_inside (AdbscopeCardFrame *self,
             int                scale)
{
  int w = gtk_widget_get_width (self->card), h = gtk_widget_get_height (self->card);
  graphene_rect_t in = GRAPHENE_RECT_INIT (INSET, INSET, w - 2 * INSET, h - 2 * INSET);
  const guchar *data = cairo_image_surface_get_data (self->image);
  int stride = cairo_image_surface_get_stride (self->image);
  int x0 = (int) (in.origin.x - self->bounds.origin.x) * scale;
  int y0 = (int) (in.origin.y - self->bounds.origin.y) * scale;
  int x1 = x0 + (int) in.size.width * scale, y1 = y0 + (int) in.size.height * scale;
  guint32 pixel, a;

  graphene_rect_init (&self->inside, 0, 0, 0, 0);
  if (in.size.width < INSET || in.size.height < INSET || x0 < 0 || y0 < 0 ||
      x1 > cairo_image_surface_get_width (self->image) || y1 > cairo_image_surface_get_height (self->image))
    return;
  cairo_surface_flush (self->image);
  pixel = *(const guint32 *) (gconstpointer) (data + (gsize) y0 * stride + (gsize) x0 * 4);
  for (int y = y0; y < y1; y++)
    {
      const guint32 *row = (const guint32 *) (gconstpointer) (data + (gsize) y * stride);

      for (int x = x0; x < x1; x++)
        if (row[x] != pixel)
          return;
    }
  /* premultiplied ARGB32 to a colour */
  a = pixel >> 24;
  if (a == 0)
    return;
  self->inside_color = (GdkRGBA) {
    ((pixel >> 16) & 0xff) / (float) a, ((pixel >> 8) & 0xff) / (float) a, (pixel & 0xff) / (float) a,
    a / 255.f,
  };
  self->inside = in;
}

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
  find_inside (self, scale);
  self->n_drawn++;
}

static void
paint_image (AdbscopeCardFrame     *self,
             GtkSnapshot           *snapshot,
             const graphene_rect_t *part)
{
  cairo_t *cr;

  if (part->size.width <= 0 || part->size.height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, part);
  cairo_set_source_surface (cr, self->image, self->bounds.origin.x, self->bounds.origin.y);
  cairo_paint (cr);
  cairo_destroy (cr);
}

static void
adbscope_card_frame_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  AdbscopeCardFrame *self = ADBSCOPE_CARD_FRAME (widget);
  const graphene_rect_t *b = &self->bounds, *in = &self->inside;
  float right, bottom;

  /* GTK reuses this widget's last snapshot until the card's size or
   * style changes: each call here is such a change. */
  draw_card (self);
  if (self->image == NULL)
    return;
  if (in->size.width <= 0)
    {
      paint_image (self, snapshot, b);
      return;
    }

  right = in->origin.x + in->size.width;
  bottom = in->origin.y + in->size.height;
  gtk_snapshot_append_color (snapshot, &self->inside_color, in);
  paint_image (self, snapshot, &GRAPHENE_RECT_INIT (b->origin.x, b->origin.y, b->size.width, in->origin.y - b->origin.y));
  paint_image (self, snapshot, &GRAPHENE_RECT_INIT (b->origin.x, bottom, b->size.width, b->origin.y + b->size.height - bottom));
  paint_image (self, snapshot, &GRAPHENE_RECT_INIT (b->origin.x, in->origin.y, in->origin.x - b->origin.x, in->size.height));
  paint_image (self, snapshot, &GRAPHENE_RECT_INIT (right, in->origin.y, b->origin.x + b->size.width - right, in->size.height));
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

/* Where the frame is a colour node rather than the image: tests. */
gboolean
_adbscope_card_frame_get_inside (AdbscopeCardFrame *self,
                                 graphene_rect_t   *inside)
{
  g_return_val_if_fail (ADBSCOPE_IS_CARD_FRAME (self), FALSE);

  *inside = self->inside;
  return self->inside.size.width > 0;
}

/* How often the card was drawn into the image: tests. */
int
_adbscope_card_frame_get_n_drawn (AdbscopeCardFrame *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CARD_FRAME (self), 0);

  return self->n_drawn;
}
