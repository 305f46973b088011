/* adbscope-apk-remote.h: byte ranges of a file on a phone, read through
 * `adb exec-out dd` (binary-safe, no tty) with a block cache
 *
 * Blocking: call it from a worker thread.  The read function has the
 * AdbscopeApkReadFunc signature, so the APK reader reads a phone's APK in
 * place.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_APK_REMOTE_BLOCK 16384

typedef struct _AdbscopeApkRemote AdbscopeApkRemote;

AdbscopeApkRemote *adbscope_apk_remote_new          (const char         *serial,
                                                     const char         *path,
                                                     guint64             size,
                                                     GCancellable       *cancellable);
void               adbscope_apk_remote_free         (AdbscopeApkRemote  *remote);
gboolean           adbscope_apk_remote_read         (gpointer            remote,
                                                     guint64             offset,
                                                     gsize               len,
                                                     guint8             *buf,
                                                     GError            **error);
/* Forget the cached blocks (memory), keep the counters. */
void               adbscope_apk_remote_drop_cache   (AdbscopeApkRemote  *remote);
guint64            adbscope_apk_remote_get_bytes_fetched (AdbscopeApkRemote *remote);
guint              adbscope_apk_remote_get_n_requests    (AdbscopeApkRemote *remote);
/* The dd command that reads blocks [first, first + count) of path. */
char              *adbscope_apk_remote_build_command (const char        *path,
                                                      guint64            first,
                                                      guint64            count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeApkRemote, adbscope_apk_remote_free)

G_END_DECLS
