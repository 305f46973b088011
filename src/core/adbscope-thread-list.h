/* adbscope-thread-list.h: the app's live threads as a GListModel */
#pragma once

#include <gio/gio.h>

#include "adbscope-delta.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_THREAD_LIST (adbscope_thread_list_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeThreadList, adbscope_thread_list, ADBSCOPE, THREAD_LIST, GObject)

AdbscopeThreadList *adbscope_thread_list_new   (void);
void                adbscope_thread_list_apply (AdbscopeThreadList *self,
                                                const GArray       *usage);
void                adbscope_thread_list_clear (AdbscopeThreadList *self);

G_END_DECLS
