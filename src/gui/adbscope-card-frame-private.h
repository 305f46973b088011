/* adbscope-card-frame-private.h: in-tree API of AdbscopeCardFrame */
#pragma once

#include "adbscope-card-frame.h"

G_BEGIN_DECLS

int      _adbscope_card_frame_get_n_drawn (AdbscopeCardFrame *self);
gboolean _adbscope_card_frame_get_inside  (AdbscopeCardFrame *self,
                                           graphene_rect_t   *inside);

G_END_DECLS
