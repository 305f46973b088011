/* adbscope-connect-dialog.h: "Connect…" — adb connect HOST[:PORT] from the
 * device picker, with adb's real answer and the recent addresses */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define ADBSCOPE_RECENT_ADDRESSES_MAX 5

/* Returns the dialog (owned by GTK). */
GtkWidget *adbscope_connect_dialog_present (GtkWindow *parent,
                                            GSettings *settings);
/* Puts address first in the "recent-addresses" setting (no duplicates, at
 * most ADBSCOPE_RECENT_ADDRESSES_MAX). */
void       adbscope_connect_remember       (GSettings  *settings,
                                            const char *address);

G_END_DECLS
