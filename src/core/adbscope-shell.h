/* adbscope-shell.h: one persistent `adb -s SERIAL shell` with a request queue */
#pragma once

#include <gio/gio.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_SHELL (adbscope_shell_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeShell, adbscope_shell, ADBSCOPE, SHELL, GObject)

#define ADBSCOPE_SHELL_DEFAULT_TIMEOUT_MS 15000

AdbscopeShell *adbscope_shell_new          (const char          *serial);
const char    *adbscope_shell_get_serial   (AdbscopeShell       *self);
void           adbscope_shell_set_timeout  (AdbscopeShell       *self,
                                            guint                timeout_ms);
guint          adbscope_shell_get_restarts (AdbscopeShell       *self);
void           adbscope_shell_run_async    (AdbscopeShell       *self,
                                            const char          *command,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
char          *adbscope_shell_run_finish   (AdbscopeShell       *self,
                                            GAsyncResult        *result,
                                            int                 *exit_status,
                                            GError             **error);
void           adbscope_shell_close        (AdbscopeShell       *self);

G_END_DECLS
