/* adbscope-sim-apks.c: `adbscope sim --apk FILE` installs real APK files
 *
 * As `pm install` does (adbscope-sim-packages.c): the file is copied to
 * SANDBOX/root/data/app/PACKAGE/base.apk (PACKAGE from its manifest, read
 * with the core's APK reader) and recorded; the fake pm lists it and prints
 * that absolute path for `pm path` and `-f`, so the shell's dd reads the
 * real bytes, as on a phone.
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
  g_autofree char *dir = NULL;
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
  dir = g_build_filename (device->fs_root, "data", "app", m->package, NULL);
  dest = g_build_filename (dir, "base.apk", NULL);
  src = g_file_new_for_path (file);
  dst = g_file_new_for_path (dest);
  g_mkdir_with_parents (dir, 0755);
  return g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error)
         && adbscope_sim_packages_record (device->sandbox, m->package, MAX (m->version_code, 0),
                                          m->version_name, m->min_sdk, m->target_sdk, error);
}
