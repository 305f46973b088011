/* adbscope-agent-control.h: the agent app on the device — installed?, start, stop
 * (docs/agent-protocol.md, "Control from the desktop") */
#pragma once

#include <gio/gio.h>

#include "adbscope-parse-agent.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean                  installed;
  gint64                    version_code;   /* -1 unknown */
  char                     *version_name;
  AdbscopeAgentServiceState service;
} AdbscopeAgentStatus;

void                 adbscope_agent_status_free    (AdbscopeAgentStatus *status);
/* This build's versionCode (major*10000 + minor*100 + patch). */
gint64               adbscope_agent_our_version_code (void);

void                 adbscope_agent_status_async   (const char          *serial,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
AdbscopeAgentStatus *adbscope_agent_status_finish  (GAsyncResult        *result,
                                                    GError             **error);
/* Checks the agent is installed and not older than us, starts it for
 * @package and waits (up to @timeout_ms) until it runs; the VPN consent is
 * asked on the device meanwhile. */
void                 adbscope_agent_start_async    (const char          *serial,
                                                    const char          *package,
                                                    guint                timeout_ms,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
/* The same, with the instance token the agent echoes in its Hello (`-e
 * token`) and, for `adbscope agent selftest`, HOST:PORT the agent's own
 * test traffic goes to (`-e selftest`); either may be NULL. */
void                 adbscope_agent_start_full_async (const char          *serial,
                                                      const char          *package,
                                                      const char          *token,
                                                      const char          *selftest,
                                                      guint                timeout_ms,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
/* A fresh random instance token (16 hex digits). */
char                *adbscope_agent_new_token      (void);
gboolean             adbscope_agent_start_finish   (GAsyncResult        *result,
                                                    GError             **error);
void                 adbscope_agent_stop_async     (const char          *serial,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean             adbscope_agent_stop_finish    (GAsyncResult        *result,
                                                    GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAgentStatus, adbscope_agent_status_free)

G_END_DECLS
