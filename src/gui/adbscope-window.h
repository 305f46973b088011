/* adbscope-window.h: the main window — pick a device and an app, then watch it */
#pragma once

#include <adwaita.h>

#include "adbscope-application.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_WINDOW (adbscope_window_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeWindow, adbscope_window, ADBSCOPE, WINDOW, AdwApplicationWindow)

AdbscopeWindow *adbscope_window_new (AdbscopeApplication *application);

G_END_DECLS
