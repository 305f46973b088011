/* adbscope-app-info.h: labels and icons of a device's apps, read from the
 * APKs in place and cached on the desktop
 *
 * For each AdbscopeApp with an apk-path: the cache (XDG cache directory,
 * keyed by package, versionCode, the APK's modification time and size, the
 * locale and the icon size) answers at once; otherwise the APK's end
 * record, central directory, AndroidManifest.xml, resources.arsc (in place)
 * and the chosen icon entry are read by byte range through adb, in worker
 * threads.  Labels are set on the apps first, icons after, on the calling
 * thread's main context; the list is never blocked.  An app that cannot be
 * read keeps its package name and no icon.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_APP_ICON_SIZE 96

typedef struct
{
  guint   n_apps;        /* with an APK path */
  guint   n_cached;
  guint   n_read;        /* read from the device */
  guint   n_failed;      /* no label could be read */
  guint64 bytes_read;    /* from the device, for the n_read apps */
  guint64 apk_bytes;     /* their APKs' sizes */
  guint   n_requests;    /* adb exec-out calls */
} AdbscopeAppInfoStats;

/* locale: "fr_CA.UTF-8" style, NULL for the desktop's. */
void     adbscope_app_info_load_async  (const char           *serial,
                                        GListModel           *apps,
                                        const char           *locale,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
gboolean adbscope_app_info_load_finish (GAsyncResult         *result,
                                        AdbscopeAppInfoStats *stats,
                                        GError              **error);
/* $XDG_CACHE_HOME/adbscope/apps */
char    *adbscope_app_info_dup_cache_dir (void);

G_END_DECLS
