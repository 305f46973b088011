/* adbscope-launch-window.h: "Measure Start-up…", the desktop's `adbscope launch` */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_LAUNCH_WINDOW (adbscope_launch_window_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeLaunchWindow, adbscope_launch_window, ADBSCOPE, LAUNCH_WINDOW, AdwWindow)

AdbscopeLaunchWindow *adbscope_launch_window_new (GtkWindow  *parent,
                                                  const char *serial,
                                                  const char *package);

G_END_DECLS
