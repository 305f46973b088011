/* gui-test-util.h: helpers for the window tests and the screenshot tour */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef gboolean (*GuiTestCond) (gpointer data);

gboolean    gui_test_wait        (GuiTestCond  cond,
                                  gpointer     data,
                                  guint        timeout_ms);
void        gui_test_spin        (guint        ms);
GdkTexture *gui_test_render      (GtkWidget   *widget);
guchar     *gui_test_pixels      (GdkTexture  *texture,
                                  gsize       *stride);
gboolean    gui_test_save_window (GtkWidget   *window,
                                  const char  *path);

/* The first label under @widget whose text contains @needle. */
GtkLabel   *gui_test_find_label  (GtkWidget   *widget,
                                  const char  *needle);

/* The column view under @widget whose model is @model. */
GtkColumnView *gui_test_find_column_view (GtkWidget  *widget,
                                          GListModel *model);

G_END_DECLS
