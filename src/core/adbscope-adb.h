/* adbscope-adb.h: finding and running the adb binary
 *
 * Everything that spawns adb goes through here: the binary is found once
 * (ADB, else PATH), argv is built in one place, and adb's quirks are
 * handled explicitly (see the comments in adbscope-adb.c).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_ADB_DEFAULT_SERVER_PORT 5037

gboolean     adbscope_adb_set_server      (const char           *address,
                                           GError              **error);
char        *adbscope_adb_dup_server      (void);
char        *adbscope_adb_dup_server_host (void);
gboolean     adbscope_adb_server_is_local (void);
void         adbscope_adb_check_server_async  (const char          *address,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean     adbscope_adb_check_server_finish (GAsyncResult        *result,
                                               GError             **error);

const char  *adbscope_adb_get_path        (GError              **error);
char       **adbscope_adb_build_argv      (const char           *adb_path,
                                           const char           *serial,
                                           const char * const   *args);
GSubprocess *adbscope_adb_spawn           (const char           *serial,
                                           const char * const   *args,
                                           GSubprocessFlags      flags,
                                           GError              **error);
void         adbscope_adb_run_async       (const char           *serial,
                                           const char * const   *args,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
char        *adbscope_adb_run_finish      (GAsyncResult         *result,
                                           int                  *exit_status,
                                           char                **stderr_text,
                                           GError              **error);
char        *adbscope_adb_run_sync        (const char           *serial,
                                           const char * const   *args,
                                           GCancellable         *cancellable,
                                           int                  *exit_status,
                                           char                **stderr_text,
                                           GError              **error);
/* The same, ended (adb killed) with ADBSCOPE_ERROR_TIMEOUT after
 * @timeout_s seconds: for requests that must not hang on a stalled device. */
char        *adbscope_adb_run_sync_timeout (const char          *serial,
                                           const char * const   *args,
                                           guint                 timeout_s,
                                           GCancellable         *cancellable,
                                           int                  *exit_status,
                                           char                **stderr_text,
                                           GError              **error);
void         adbscope_adb_connect_async   (const char           *address,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
gboolean     adbscope_adb_connect_finish  (GAsyncResult         *result,
                                           GError              **error);

G_END_DECLS
