/* adbscope-sim-packages.c: apps installed on the simulated device
 *
 * One file per installed package in SANDBOX/state/packages/PKG with the
 * lines `versionCode=N`, `versionName=NAME`, `minSdk=N`, `targetSdk=N` (what `pm install` read from
 * the APK's manifest, or what --agent-installed says), `signer=SHA256` (its
 * signing certificate, when the APK had a v2/v3 signature) and
 * `granted=PERMISSION` lines (`pm grant`); the APK itself is in
 * SANDBOX/root/data/app/PKG/base.apk when there was one.  The fake pm and
 * dumpsys read and write these; the device writes the agent's at start.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "adbscope-sim-private.h"

#define AGENT_PACKAGE "io.github.adbscope.agent"

char *
adbscope_sim_packages_dir (const char *sandbox)
{
  return g_build_filename (sandbox, "state", "packages", NULL);
}

gboolean
adbscope_sim_packages_record (const char *sandbox,
                              const char *package,
                              gint64      version_code,
                              const char *version_name,
                              int         min_sdk,
                              int         target_sdk,
                              GError    **error)
{
  g_autofree char *dir = adbscope_sim_packages_dir (sandbox);
  g_autofree char *path = g_build_filename (dir, package, NULL);
  g_autofree char *text = g_strdup_printf ("versionCode=%" G_GINT64_FORMAT "\nversionName=%s\nminSdk=%d\ntargetSdk=%d\n",
                                           version_code, version_name != NULL ? version_name : "",
                                           min_sdk, target_sdk);

  g_mkdir_with_parents (dir, 0755);
  return g_file_set_contents (path, text, -1, error);
}

/* major×10000 + minor×100 + patch of this build's version, the agent's
 * versionCode rule (docs/agent-protocol.md). */
gint64
adbscope_sim_packages_agent_version_code (void)
{
  g_auto(GStrv) parts = g_strsplit (PACKAGE_VERSION, ".", 3);
  gint64 code = 0;

  for (int i = 0; i < 3; i++)
    code = code * 100 + (parts[0] != NULL && i < (int) g_strv_length (parts) ? g_ascii_strtoll (parts[i], NULL, 10) : 0);
  return code;
}

void
adbscope_sim_packages_install_agent (AdbscopeSimDevice *device)
{
  g_autoptr(GError) error = NULL;

  if (!adbscope_sim_packages_record (device->sandbox, AGENT_PACKAGE,
                                     adbscope_sim_packages_agent_version_code (), PACKAGE_VERSION,
                                     26, 34, &error))   /* the agent supports Android 8.0 on */
    g_printerr ("adbscope sim: %s\n", error->message);
}
