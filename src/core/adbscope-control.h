/* adbscope-control.h: how `adbscope mark` and `adbscope stop` reach a running record
 *
 * Each `record` serves HTTP on 127.0.0.1 at a random port and writes the
 * port and a random token to a 0600 file of its own (named by the record's
 * id) in the user's runtime directory; the client commands pick a record
 * by id or serial and read its file.  No daemon.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_CONTROL_SERVER (adbscope_control_server_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeControlServer, adbscope_control_server, ADBSCOPE, CONTROL_SERVER, GObject)

AdbscopeControlServer *adbscope_control_server_new        (const char             *id,
                                                           const char             *serial);
gboolean               adbscope_control_server_start      (AdbscopeControlServer  *self,
                                                           GError                **error);
void                   adbscope_control_server_stop       (AdbscopeControlServer  *self);
guint                  adbscope_control_server_get_port   (AdbscopeControlServer  *self);
const char            *adbscope_control_server_get_token  (AdbscopeControlServer  *self);
const char            *adbscope_control_server_get_id     (AdbscopeControlServer  *self);

gboolean               adbscope_control_id_is_valid       (const char             *id);
char                  *adbscope_control_dup_state_path    (const char             *id);
JsonNode              *adbscope_control_request           (const char             *id,
                                                           const char             *serial,
                                                           const char             *command,
                                                           const char             *label,
                                                           GError                **error);

G_END_DECLS
