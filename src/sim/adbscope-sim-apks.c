/* adbscope-sim-apks.c: `adbscope sim --apk FILE` installs real APK files
 *
 * The file is copied to SANDBOX/root/data/app/PACKAGE.apk (PACKAGE from its
 * manifest, read with the core's APK reader); the fake pm lists it and
 * prints that absolute path for `pm path` and `-f`, so the shell's dd
 * reads the real bytes, as on a phone.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "adbscope-apk.h"
#include "adbscope-error.h"
#include "adbscope-sim-private.h"
#include "adbscope-validate.h"

gboolean
adbscope_sim_install_apk (AdbscopeSimDevice  *device,
                          const char         *file,
                          GError            **error)
{
  g_autoptr(AdbscopeApkManifest) m = adbscope_apk_read_manifest (file, error);
  g_autofree char *name = NULL;
  g_autofree char *dest = NULL;
  g_autoptr(GFile) src = NULL;
  g_autoptr(GFile) dst = NULL;

  if (m == NULL)
    return FALSE;
  if (!adbscope_package_name_is_valid (m->package))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                   _("%s: “%s” is not a valid package name"), file, m->package);
      return FALSE;
    }
  name = g_strconcat (m->package, ".apk", NULL);
  dest = g_build_filename (device->fs_root, "data", "app", name, NULL);
  src = g_file_new_for_path (file);
  dst = g_file_new_for_path (dest);
  return g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error);
}
