/* adbscope-agent-install.c: putting the agent APK on the device
 *
 * One way to install for the command line (`adbscope agent install`) and
 * the desktop's capture dialog: check the APK is the agent (the core APK
 * reader), the phone's API level against its minSdk and the installed
 * versionCode against its own before touching the phone, `adb install -r`,
 * Android's refusals (`Failure [CODE: …]`) as errors in words, then believe
 * only what the device reports afterwards (`dumpsys package`), never adb's
 * "Success" alone; on Android 13+ grant POST_NOTIFICATIONS.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-agent-install.h"
#include "adbscope-apk.h"
#include "adbscope-error.h"
#include "adbscope-parse-agent.h"

gboolean
adbscope_agent_has_embedded_apk (void)
{
  return g_resources_get_info (ADBSCOPE_AGENT_APK_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL);
}

char *
adbscope_agent_extract_apk (GError **error)
{
  g_autoptr(GBytes) apk = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) local = NULL;

  apk = g_resources_lookup_data (ADBSCOPE_AGENT_APK_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (apk == NULL)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED,
                           _("This build of Adbscope has no agent APK inside it (meson option agent_apk); "
                             "install one with “adbscope agent install --apk FILE”"));
      return NULL;
    }
  dir = g_dir_make_tmp ("adbscope-agent-XXXXXX", &local);
  if (dir == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s", local->message);
      return NULL;
    }
  path = g_build_filename (dir, "adbscope-agent.apk", NULL);
  if (!g_file_set_contents (path, g_bytes_get_data (apk, NULL), g_bytes_get_size (apk), &local))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s", local->message);
      g_rmdir (dir);
      return NULL;
    }
  return g_steal_pointer (&path);
}

void
adbscope_agent_remove_extracted_apk (const char *path)
{
  g_autofree char *dir = NULL;

  if (path == NULL)
    return;
  dir = g_path_get_dirname (path);
  g_unlink (path);
  g_rmdir (dir);
}

/* adb's own words: its last non-empty line of stderr, or stdout. */
static char *
adb_words (const char *out,
           const char *err)
{
  g_autofree char *line = adbscope_adb_stderr_last_line (err);

  if (line != NULL && *line)
    return g_steal_pointer (&line);
  return g_strstrip (g_strdup (out ? out : ""));
}

gboolean
adbscope_agent_uninstall_sync (const char    *serial,
                               gboolean      *was_installed,
                               GCancellable  *cancellable,
                               GError       **error)
{
  const char *args[] = { "shell", "pm uninstall " ADBSCOPE_AGENT_PACKAGE, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *words = NULL;

  out = adbscope_adb_run_sync (serial, args, cancellable, NULL, &err, error);
  if (out == NULL)
    return FALSE;
  *was_installed = strstr (out, "Success") != NULL;
  if (*was_installed || strstr (out, "Failure") != NULL)
    return TRUE;
  words = adb_words (out, err);
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
               _("pm uninstall failed: %s"), words[0] ? words : _("no output"));
  return FALSE;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The status, asked on a context of this thread's own so that this works
 * from the main thread (the CLI) and from a worker (the desktop). */
static AdbscopeAgentStatus *
query_status (const char  *serial,
              GError     **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  GAsyncResult *result = NULL;
  AdbscopeAgentStatus *status;

  g_main_context_push_thread_default (context);
  adbscope_agent_status_async (serial, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  status = adbscope_agent_status_finish (result, error);
  g_object_unref (result);
  g_main_context_pop_thread_default (context);
  return status;
}

/* The API level from `getprop ro.build.version.sdk`, or -1. */
static int
device_sdk (const char   *serial,
            GCancellable *cancellable)
{
  const char *args[] = { "shell", "getprop ro.build.version.sdk", NULL };
  g_autofree char *out = adbscope_adb_run_sync (serial, args, cancellable, NULL, NULL, NULL);

  return adbscope_agent_parse_sdk (out);
}

/* Android's install failure in words, with its code; what the user can do. */
static void
set_install_error (GError    **error,
                   const char *code,
                   const char *words,
                   gboolean    replace)
{
  if (g_strcmp0 (code, "INSTALL_FAILED_UPDATE_INCOMPATIBLE") == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_SIGNATURE,
                 _("The agent on the phone is signed with another key than this APK, so Android refuses "
                   "the update (%s). “adbscope agent install --replace” uninstalls it first; the phone then "
                   "asks for the VPN consent again at the next capture"), words);
  else if (g_strcmp0 (code, "INSTALL_FAILED_INSUFFICIENT_STORAGE") == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_STORAGE_FULL,
                 _("The phone has not enough free storage to install the agent (%s); free some space and "
                   "try again"), words);
  else if (g_strcmp0 (code, "INSTALL_FAILED_ABORTED") == 0
           || g_strcmp0 (code, "INSTALL_FAILED_USER_RESTRICTED") == 0
           || g_strcmp0 (code, "INSTALL_FAILED_VERIFICATION_FAILURE") == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INSTALL_REJECTED,
                 _("The install was cancelled or refused on the phone (%s). Accept the install prompt on "
                   "the phone; some phones also need “Install via USB” turned on in the developer options"),
                 words);
  else if (g_strcmp0 (code, "INSTALL_FAILED_OLDER_SDK") == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_TOO_OLD,
                 _("The phone's Android is too old for this agent (%s)"), words);
  else if (g_strcmp0 (code, "INSTALL_FAILED_VERSION_DOWNGRADE") == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_DOWNGRADE,
                 _("The phone has a newer agent than this APK (%s); “adbscope agent install --replace” "
                   "uninstalls it first"), words);
  else if (code != NULL && (g_str_has_prefix (code, "INSTALL_PARSE_FAILED")
                            || g_strcmp0 (code, "INSTALL_FAILED_INVALID_APK") == 0))
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APK_INVALID,
                 _("Android cannot read this APK (%s)"), words);
  else
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                 replace ? _("adb install failed: %s")
                         : _("adb install failed: %s (if the installed agent is signed differently or newer, "
                             "use “adbscope agent install --replace”)"),
                 words);
}

AdbscopeAgentStatus *
adbscope_agent_install_sync (const char    *serial,
                             const char    *apk_arg,
                             gboolean       replace,
                             gboolean      *replaced,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autofree char *apk = apk_arg ? g_strdup (apk_arg) : adbscope_agent_extract_apk (error);
  g_autoptr(AdbscopeApkManifest) manifest = NULL;
  g_autoptr(AdbscopeAgentStatus) before = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  AdbscopeAgentStatus *st = NULL;
  gboolean removed = FALSE;
  int sdk;

  if (replaced != NULL)
    *replaced = FALSE;
  if (apk == NULL)
    return NULL;
  /* Everything is checked before the phone is touched: a refused install
   * leaves the installed agent (or none) as it was. */
  manifest = adbscope_apk_read_manifest (apk, &local);
  if (manifest == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APK_INVALID,
                   _("%s is not an Android app (APK) Adbscope can read: %s"), apk, local->message);
      goto out;
    }
  if (g_strcmp0 (manifest->package, ADBSCOPE_AGENT_PACKAGE) != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APK_WRONG_PACKAGE,
                   _("%s is the app “%s”, not the Adbscope agent (%s)"), apk,
                   manifest->package ? manifest->package : "?", ADBSCOPE_AGENT_PACKAGE);
      goto out;
    }
  sdk = device_sdk (serial, cancellable);
  if (sdk >= 0 && manifest->min_sdk > sdk)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_TOO_OLD,
                   _("This phone runs Android API level %d; the agent needs API level %d or newer "
                     "(Android 8.0 is level 26)"), sdk, manifest->min_sdk);
      goto out;
    }
  before = query_status (serial, error);
  if (before == NULL)
    goto out;
  if (!replace && before->installed && before->version_code > manifest->version_code)
    {
      g_autofree char *theirs = g_strdup_printf ("%" G_GINT64_FORMAT, before->version_code);
      g_autofree char *ours = g_strdup_printf ("%" G_GINT64_FORMAT, manifest->version_code);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_DOWNGRADE,
                   _("The phone has a newer agent (versionCode %s) than %s (versionCode %s); Android does not "
                     "downgrade. “adbscope agent install --replace” uninstalls it first (the VPN consent is "
                     "then asked again)"), theirs, apk, ours);
      goto out;
    }

  /* Replacing uninstalls first: an agent signed with another key cannot be
   * updated, and Android refuses a lower versionCode. */
  if (replace && !adbscope_agent_uninstall_sync (serial, &removed, cancellable, error))
    goto out;
  if (replaced != NULL)
    *replaced = removed;
  {
    const char *args[] = { "install", "-r", apk, NULL };

    out = adbscope_adb_run_sync (serial, args, cancellable, NULL, &err, error);
    if (out == NULL)
      goto out;
  }
  if (strstr (out, "Success") == NULL)
    {
      g_autofree char *words = adb_words (out, err);
      g_autofree char *code = NULL;
      g_autofree char *detail = NULL;
      g_autofree char *both = g_strconcat (out, "\n", err ? err : "", NULL);

      adbscope_agent_parse_install_failure (both, &code, &detail);
      set_install_error (error, code, words[0] ? words : _("no output"), replace);
      goto out;
    }

  /* What the device now says, not what we hoped. */
  st = query_status (serial, error);
  if (st != NULL && (!st->installed || st->version_code != manifest->version_code))
    {
      g_autofree char *got = g_strdup_printf ("%" G_GINT64_FORMAT, st->version_code);
      g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT, manifest->version_code);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("adb install said Success, but the device reports versionCode %s instead of %s"), got, want);
      g_clear_pointer (&st, adbscope_agent_status_free);
    }
  /* Android 13+ asks before an app may show notifications; the agent's
   * foreground-service notification is how the user sees it runs. */
  if (st != NULL && sdk >= 33)
    {
      const char *args[] = { "shell", "pm grant " ADBSCOPE_AGENT_PACKAGE " android.permission.POST_NOTIFICATIONS",
                             NULL };
      g_autoptr(GError) grant_error = NULL;
      g_autofree char *grant = adbscope_adb_run_sync (serial, args, cancellable, NULL, NULL, &grant_error);

      if (grant == NULL)
        g_debug ("agent install: pm grant POST_NOTIFICATIONS: %s", grant_error->message);
    }

out:
  if (apk_arg == NULL)
    adbscope_agent_remove_extracted_apk (apk);
  return st;
}

typedef struct
{
  char     *serial;
  char     *apk;
  gboolean  replace;
} InstallData;

static void
install_data_free (InstallData *d)
{
  g_free (d->serial);
  g_free (d->apk);
  g_free (d);
}

static void
install_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  InstallData *d = task_data;
  GError *error = NULL;
  AdbscopeAgentStatus *st = adbscope_agent_install_sync (d->serial, d->apk, d->replace, NULL, cancellable, &error);

  if (st != NULL)
    g_task_return_pointer (task, st, (GDestroyNotify) adbscope_agent_status_free);
  else
    g_task_return_error (task, error);
}

void
adbscope_agent_install_async (const char          *serial,
                              const char          *apk,
                              gboolean             replace,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  InstallData *d = g_new0 (InstallData, 1);

  d->serial = g_strdup (serial);
  d->apk = g_strdup (apk);
  d->replace = replace;
  g_task_set_source_tag (task, adbscope_agent_install_async);
  g_task_set_task_data (task, d, (GDestroyNotify) install_data_free);
  g_task_run_in_thread (task, install_thread);
}

AdbscopeAgentStatus *
adbscope_agent_install_finish (GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
