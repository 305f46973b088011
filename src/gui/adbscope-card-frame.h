/* adbscope-card-frame.h: a card's background and shadow, drawn once per size and style */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CARD_FRAME (adbscope_card_frame_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeCardFrame, adbscope_card_frame, ADBSCOPE, CARD_FRAME, GtkWidget)

GtkWidget *adbscope_card_frame_new (void);

G_END_DECLS
