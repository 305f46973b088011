/* adbscope-application.h */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_APPLICATION (adbscope_application_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeApplication, adbscope_application, ADBSCOPE, APPLICATION, AdwApplication)

AdbscopeApplication *adbscope_application_new (void);
void                 adbscope_application_adb_server_changed (AdbscopeApplication *self);
int                  adbscope_application_run (int    argc,
                                           char **argv);

G_END_DECLS
