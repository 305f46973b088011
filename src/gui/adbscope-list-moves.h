/* adbscope-list-moves.h: how many items a reorder of a list moved
 *
 * GTK-free: the Network page asks it after every re-sort, the tests
 * check it without a display.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint adbscope_list_moves_count (gconstpointer const *before,
                                 gconstpointer const *after,
                                 guint                n);

G_END_DECLS
