/* adbscope-preferences-window.h: sampling settings and the adb server */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_PREFERENCES_WINDOW (adbscope_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopePreferencesWindow, adbscope_preferences_window, ADBSCOPE, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget   *adbscope_preferences_window_new (GtkWindow *parent);
AdwEntryRow *_adbscope_preferences_window_get_adb_server_row (AdbscopePreferencesWindow *self);

G_END_DECLS
