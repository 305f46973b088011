/* adbscope-app-picker.h: search and choose the app to watch */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_APP_PICKER (adbscope_app_picker_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeAppPicker, adbscope_app_picker, ADBSCOPE, APP_PICKER, AdwBin)

void        adbscope_app_picker_set_serial    (AdbscopeAppPicker *self,
                                               const char        *serial);
const char *adbscope_app_picker_get_serial    (AdbscopeAppPicker *self);
void        adbscope_app_picker_refresh       (AdbscopeAppPicker *self);
gboolean    adbscope_app_picker_get_loading   (AdbscopeAppPicker *self);
GListModel *adbscope_app_picker_get_model     (AdbscopeAppPicker *self);
void        adbscope_app_picker_set_search    (AdbscopeAppPicker *self,
                                               const char        *text);
GtkListBox *adbscope_app_picker_get_list_box  (AdbscopeAppPicker *self);

G_END_DECLS
