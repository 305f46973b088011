/* adbscope-parse-pm.h: `pm list packages [-f] [-U] [-3]` */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char    *package;    /* as pm prints it */
  char    *apk_path;   /* with -f, else NULL */
  gint64   uid;        /* with -U (first uid), else -1 */
  gint64   version_code; /* with --show-versioncode (Android 9+), else -1 */
  gboolean valid_name; /* adbscope_package_name_is_valid (package) */
} AdbscopePmPackage;

GPtrArray *adbscope_pm_parse_list_packages (const char  *text,
                                            gssize       len,
                                            GError     **error);
void       adbscope_pm_package_free        (AdbscopePmPackage *pkg);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopePmPackage, adbscope_pm_package_free)

G_END_DECLS
