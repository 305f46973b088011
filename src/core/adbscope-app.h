/* adbscope-app.h: one installed app of a device, an item of the app picker */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_APP (adbscope_app_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeApp, adbscope_app, ADBSCOPE, APP, GObject)

AdbscopeApp *adbscope_app_new           (const char  *package);
const char  *adbscope_app_get_package   (AdbscopeApp *self);
const char  *adbscope_app_get_label     (AdbscopeApp *self);
void         adbscope_app_set_label     (AdbscopeApp *self,
                                         const char  *label);
const char  *adbscope_app_get_apk_path  (AdbscopeApp *self);
void         adbscope_app_set_apk_path  (AdbscopeApp *self,
                                         const char  *apk_path);
const char  *adbscope_app_get_icon      (AdbscopeApp *self);
void         adbscope_app_set_icon      (AdbscopeApp *self,
                                         const char  *icon);
int          adbscope_app_get_pid       (AdbscopeApp *self);
void         adbscope_app_set_pid       (AdbscopeApp *self,
                                         int          pid);
gboolean     adbscope_app_get_running   (AdbscopeApp *self);
gboolean     adbscope_app_get_third_party (AdbscopeApp *self);
void         adbscope_app_set_third_party (AdbscopeApp *self,
                                           gboolean     third_party);
char        *adbscope_app_dup_display_name (AdbscopeApp *self);

G_END_DECLS
