/* gui-test-util.c: helpers for the window tests and the screenshot tour */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

typedef struct
{
  GuiTestCond cond;
  gpointer    data;
} Waiter;

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * gui_test_wait:
 *
 * Runs the main loop until @cond holds or @timeout_ms pass.
 *
 * Returns: whether @cond held
 */
gboolean
gui_test_wait (GuiTestCond cond,
               gpointer    data,
               guint       timeout_ms)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (timeout_ms, timeout_cb, &timed_out);

  while (!cond (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return cond (data);
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

/* Runs the main loop for @ms. */
void
gui_test_spin (guint ms)
{
  gui_test_wait (never, NULL, ms);
}

/**
 * gui_test_render:
 *
 * Draws @widget (as it is allocated now) with the cairo renderer.
 *
 * Returns: (transfer full): the texture
 */
GdkTexture *
gui_test_render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GError) error = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GdkTexture *texture;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  /* An opaque backdrop, so transparent parts compare equal. */
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  gsk_renderer_unrealize (renderer);
  return texture;
}

/* Returns: (transfer full): B8G8R8A8 premultiplied pixels */
guchar *
gui_test_pixels (GdkTexture *texture,
                 gsize      *stride)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  guchar *pixels;

  *stride = (gsize) width * 4;
  pixels = g_malloc (*stride * height);
  gdk_texture_download (texture, pixels, *stride);
  return pixels;
}

gboolean
gui_test_save_window (GtkWidget  *window,
                      const char *path)
{
  g_autoptr(GdkTexture) texture = gui_test_render (window);

  return gdk_texture_save_to_png (texture, path);
}

GtkLabel *
gui_test_find_label (GtkWidget  *widget,
                     const char *needle)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found;

      if (GTK_IS_LABEL (child) && strstr (gtk_label_get_text (GTK_LABEL (child)), needle) != NULL)
        return GTK_LABEL (child);
      if ((found = gui_test_find_label (child, needle)) != NULL)
        return found;
    }
  return NULL;
}

GtkColumnView *
gui_test_find_column_view (GtkWidget  *widget,
                           GListModel *model)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, widget);
  while (stack->len > 0)
    {
      GtkWidget *cur = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_COLUMN_VIEW (cur) && gtk_column_view_get_model (GTK_COLUMN_VIEW (cur)) == (gpointer) model)
        return GTK_COLUMN_VIEW (cur);
      for (GtkWidget *c = gtk_widget_get_first_child (cur); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  return NULL;
}
