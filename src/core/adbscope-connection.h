/* adbscope-connection.h: one connection of the watched app, as the agent saw it; a live list item */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CONNECTION (adbscope_connection_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeConnection, adbscope_connection, ADBSCOPE, CONNECTION, GObject)

guint64     adbscope_connection_get_id              (AdbscopeConnection *self);
guint       adbscope_connection_get_agent_run       (AdbscopeConnection *self);
const char *adbscope_connection_get_protocol        (AdbscopeConnection *self);
const char *adbscope_connection_get_local           (AdbscopeConnection *self);
const char *adbscope_connection_get_remote          (AdbscopeConnection *self);
const char *adbscope_connection_get_remote_address  (AdbscopeConnection *self);
guint       adbscope_connection_get_remote_port     (AdbscopeConnection *self);
int         adbscope_connection_get_uid             (AdbscopeConnection *self);
const char *adbscope_connection_get_host            (AdbscopeConnection *self);
const char *adbscope_connection_get_host_source     (AdbscopeConnection *self);
const char *adbscope_connection_get_host_key        (AdbscopeConnection *self);
guint64     adbscope_connection_get_bytes_up        (AdbscopeConnection *self);
guint64     adbscope_connection_get_bytes_down      (AdbscopeConnection *self);
guint64     adbscope_connection_get_packets_up      (AdbscopeConnection *self);
guint64     adbscope_connection_get_packets_down    (AdbscopeConnection *self);
guint64     adbscope_connection_get_payload_up      (AdbscopeConnection *self);
guint64     adbscope_connection_get_payload_down    (AdbscopeConnection *self);
const char *adbscope_connection_get_state           (AdbscopeConnection *self);
gint64      adbscope_connection_get_open_time_ms    (AdbscopeConnection *self);
gint64      adbscope_connection_get_close_time_ms   (AdbscopeConnection *self);
const char *adbscope_connection_get_failure         (AdbscopeConnection *self);
const char *adbscope_connection_get_failure_text    (AdbscopeConnection *self);
int         adbscope_connection_get_failure_errno   (AdbscopeConnection *self);
const char *adbscope_connection_failure_text_for (const char *code);
gboolean    adbscope_connection_is_failed           (AdbscopeConnection *self);

G_END_DECLS
