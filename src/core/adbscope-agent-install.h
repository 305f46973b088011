/* adbscope-agent-install.h: putting the agent APK on the device (docs/agent-protocol.md) */
#pragma once

#include <gio/gio.h>

#include "adbscope-agent-control.h"

G_BEGIN_DECLS

/* The resource path of the APK embedded with meson -Dagent_apk=PATH. */
#define ADBSCOPE_AGENT_APK_RESOURCE "/io/github/adbscope/Adbscope/agent/adbscope-agent.apk"

gboolean             adbscope_agent_has_embedded_apk (void);
/* The embedded APK in a new temporary folder (adb install needs a path);
 * remove it with adbscope_agent_remove_extracted_apk(). */
char                *adbscope_agent_extract_apk     (GError             **error);
void                 adbscope_agent_remove_extracted_apk (const char      *path);

/* Installs @apk (NULL: the embedded one) after checking it is the agent;
 * with @replace uninstalls first (a differently signed or newer agent).
 * Returns what the device reports afterwards; blocks (run it in a thread,
 * or use the async variant). */
AdbscopeAgentStatus *adbscope_agent_install_sync    (const char          *serial,
                                                     const char          *apk,
                                                     gboolean             replace,
                                                     gboolean            *replaced,
                                                     GCancellable        *cancellable,
                                                     GError             **error);
void                 adbscope_agent_install_async   (const char          *serial,
                                                     const char          *apk,
                                                     gboolean             replace,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
AdbscopeAgentStatus *adbscope_agent_install_finish  (GAsyncResult        *result,
                                                     GError             **error);
/* `pm uninstall`: TRUE when the device answered; @was_installed FALSE when
 * there was nothing to remove. */
gboolean             adbscope_agent_uninstall_sync  (const char          *serial,
                                                     gboolean            *was_installed,
                                                     GCancellable        *cancellable,
                                                     GError             **error);

G_END_DECLS
