/* adbscope-parse-agent.h: what the device says about the agent app
 * (docs/agent-protocol.md, "Control from the desktop") */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_AGENT_PACKAGE "io.github.adbscope.agent"

typedef enum
{
  ADBSCOPE_AGENT_STATE_NONE,             /* the service never ran */
  ADBSCOPE_AGENT_STATE_WAITING_CONSENT,
  ADBSCOPE_AGENT_STATE_RUNNING,
  ADBSCOPE_AGENT_STATE_CONSENT_DENIED,
  ADBSCOPE_AGENT_STATE_STOPPED,
  ADBSCOPE_AGENT_STATE_ERROR,
} AdbscopeAgentState;

typedef struct
{
  AdbscopeAgentState  state;
  char               *package;      /* the app it captures, or NULL */
  gint64              version_code; /* -1 unknown */
  char               *error_code;   /* for ADBSCOPE_AGENT_STATE_ERROR */
  char               *reason;       /* "reason=…" (the platform's words), or NULL */
  char               *selftest;     /* "selftest=ok|fail:WHY" (agent selftest), or NULL */
} AdbscopeAgentServiceState;

/* A sentence for an agent state (error codes in words; NULL error_code
 * and reason allowed), translated. */
char    *adbscope_agent_state_describe       (AdbscopeAgentState         state,
                                               const char                *error_code,
                                               const char                *reason);

/* versionCode of "MAJOR.MINOR.PATCH" = major*10000 + minor*100 + patch
 * (minor and patch below 100); -1 when @version is not of that form. */
gint64   adbscope_agent_version_code         (const char                *version);
/* `dumpsys package io.github.adbscope.agent`: versionCode and versionName
 * of the Packages: section; FALSE (no error) when the package is not there. */
gboolean adbscope_agent_parse_dumpsys_package (const char                *text,
                                               gssize                     len,
                                               gint64                    *version_code,
                                               char                     **version_name);
/* `dumpsys activity service io.github.adbscope.agent/.AgentVpnService`. */
gboolean adbscope_agent_parse_service_state  (const char                *text,
                                               gssize                     len,
                                               AdbscopeAgentServiceState *out,
                                               GError                   **error);
void     adbscope_agent_service_state_clear  (AdbscopeAgentServiceState *state);
const char *adbscope_agent_state_to_string   (AdbscopeAgentState         state);

/* `pm install` / `adb install` output: the code of "Failure [CODE: …]"
 * or "Failure [CODE]" (also "adb: failed to install X: Failure [CODE: …]"),
 * and the text after the colon; FALSE when there is no Failure line. */
gboolean adbscope_agent_parse_install_failure (const char               *text,
                                               char                    **code,
                                               char                    **detail);
/* `getprop ro.build.version.sdk`: the API level, or -1. */
int      adbscope_agent_parse_sdk            (const char                *text);

/* The phone's Private DNS setting, read once per capture with
 * `getprop ro.build.version.sdk; settings get global private_dns_mode;
 * settings get global private_dns_specifier` (three lines). */
typedef struct
{
  int       sdk;          /* -1 unknown */
  /* "off", "opportunistic" (Android's "Automatic") or "hostname" (strict:
   * a provider); "off" before Android 9, which has no Private DNS */
  char     *mode;
  char     *specifier;    /* the provider's host name in hostname mode, else NULL */
  gboolean  is_default;   /* private_dns_mode was unset ("null"): Android's default */
} AdbscopePrivateDns;

gboolean adbscope_agent_parse_private_dns    (const char                *text,
                                               gssize                     len,
                                               AdbscopePrivateDns        *out);
void     adbscope_private_dns_clear          (AdbscopePrivateDns        *dns);
/* In hostname mode lookups go over TLS to the provider: the agent sees none. */
gboolean adbscope_private_dns_hides_lookups  (const AdbscopePrivateDns  *dns);

G_END_DECLS

G_BEGIN_DECLS
/* `adb forward --list`: the local tcp port that forwards to
 * localabstract:@socket_name on @serial, or -1. */
int      adbscope_agent_parse_forward_list   (const char                *text,
                                               const char                *serial,
                                               const char                *socket_name);
G_END_DECLS
