/* adbscope-app-list.h: the apps installed on a device, and which of them run */
#pragma once

#include <gio/gio.h>

#include "adbscope-app.h"

G_BEGIN_DECLS

char       *adbscope_app_list_build_command (gboolean       all);
GListModel *adbscope_app_list_parse         (const char    *output,
                                             GError       **error);
void        adbscope_app_list_async         (const char    *serial,
                                             gboolean       all,
                                             GCancellable  *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer       user_data);
GListModel *adbscope_app_list_finish        (GAsyncResult  *result,
                                             GError       **error);
int         adbscope_app_compare            (AdbscopeApp   *a,
                                             AdbscopeApp   *b);

G_END_DECLS
