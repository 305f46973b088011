/* adbscope-agent-control.c: the agent app on the device
 *
 * Installed: `pm list packages io.github.adbscope.agent`; version:
 * `dumpsys package io.github.adbscope.agent`; start/stop: `am start` of its
 * ControlActivity; state: `dumpsys activity service …AgentVpnService`,
 * polled every 250 ms.  All through one-off `adb shell` processes on the
 * main loop.  The package given to `am start` is validated by the caller
 * (adbscope_package_name_is_valid) and is a single shell word.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-agent-control.h"
#include "adbscope-error.h"
#include "adbscope-parse-pm.h"
#include "adbscope-validate.h"

#define POLL_MS 250
/* A finished state that was already there before our am start is believed
 * only after this long (the device may not have updated it yet). */
#define STALE_MS 1500

#define AGENT_ACTIVITY ADBSCOPE_AGENT_PACKAGE "/.ControlActivity"
#define AGENT_SERVICE  ADBSCOPE_AGENT_PACKAGE "/.AgentVpnService"

void
adbscope_agent_status_free (AdbscopeAgentStatus *status)
{
  if (status == NULL)
    return;
  g_free (status->version_name);
  adbscope_agent_service_state_clear (&status->service);
  g_free (status);
}

gint64
adbscope_agent_our_version_code (void)
{
  return adbscope_agent_version_code (PACKAGE_VERSION);
}

/* One shell command; its stdout or an error naming adb's last words. */
static void
shell_async (const char          *serial,
             const char          *command,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  const char *args[] = { "shell", command, NULL };

  adbscope_adb_run_async (serial, args, cancellable, callback, user_data);
}

static char *
shell_finish (GAsyncResult  *result,
              GError       **error)
{
  g_autofree char *err = NULL;
  int status = -1;
  char *out = adbscope_adb_run_finish (result, &status, &err, error);

  if (out == NULL)
    return NULL;
  if (status != 0 && (out[0] == '\0'))
    {
      g_autofree char *line = g_strdup (g_strstrip (err ? err : (char *) ""));

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                   _("adb shell failed: %s"), line[0] ? line : _("no output"));
      g_free (out);
      return NULL;
    }
  return out;
}

/* Status ------------------------------------------------------------------ */

typedef struct
{
  char                *serial;
  AdbscopeAgentStatus *status;
} StatusData;

static void
status_data_free (StatusData *d)
{
  g_free (d->serial);
  adbscope_agent_status_free (d->status);
  g_free (d);
}

static void
status_service_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StatusData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = shell_finish (result, &error);

  if (out == NULL || !adbscope_agent_parse_service_state (out, -1, &d->status->service, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&d->status), (GDestroyNotify) adbscope_agent_status_free);
}

static void
status_package_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StatusData *d = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = shell_finish (result, &error);

  if (out == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  adbscope_agent_parse_dumpsys_package (out, -1, &d->status->version_code, &d->status->version_name);
  shell_async (d->serial, "dumpsys activity service " AGENT_SERVICE, cancellable,
               status_service_cb, g_steal_pointer (&task));
}

static void
status_list_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StatusData *d = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = shell_finish (result, &error);
  g_autoptr(GPtrArray) pkgs = NULL;

  if (out == NULL || (pkgs = adbscope_pm_parse_list_packages (out, -1, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* pm's argument is a filter (a substring): look for the exact name. */
  for (guint i = 0; i < pkgs->len; i++)
    if (g_strcmp0 (((AdbscopePmPackage *) g_ptr_array_index (pkgs, i))->package, ADBSCOPE_AGENT_PACKAGE) == 0)
      d->status->installed = TRUE;
  if (!d->status->installed)
    {
      shell_async (d->serial, "dumpsys activity service " AGENT_SERVICE, cancellable,
                   status_service_cb, g_steal_pointer (&task));
      return;
    }
  shell_async (d->serial, "dumpsys package " ADBSCOPE_AGENT_PACKAGE, cancellable,
               status_package_cb, g_steal_pointer (&task));
}

void
adbscope_agent_status_async (const char          *serial,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  StatusData *d = g_new0 (StatusData, 1);

  g_task_set_source_tag (task, adbscope_agent_status_async);
  d->serial = g_strdup (serial);
  d->status = g_new0 (AdbscopeAgentStatus, 1);
  d->status->version_code = -1;
  d->status->service.version_code = -1;
  g_task_set_task_data (task, d, (GDestroyNotify) status_data_free);
  shell_async (serial, "pm list packages " ADBSCOPE_AGENT_PACKAGE, cancellable, status_list_cb, task);
}

AdbscopeAgentStatus *
adbscope_agent_status_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Start ------------------------------------------------------------------- */

typedef struct
{
  char               *serial;
  char               *package;
  char               *token;
  char               *selftest;
  guint               timeout_ms;
  gint64              started_us;
  gint64              deadline_us;
  AdbscopeAgentState  before;
  char               *before_error;
  AdbscopeAgentState  last;
  guint               poll_id;
} StartData;

static void
start_data_free (StartData *d)
{
  g_clear_handle_id (&d->poll_id, g_source_remove);
  g_free (d->serial);
  g_free (d->package);
  g_free (d->token);
  g_free (d->selftest);
  g_free (d->before_error);
  g_free (d);
}

static void poll_state (GTask *task);

static gboolean
poll_cb (gpointer data)
{
  GTask *task = data;
  StartData *d = g_task_get_task_data (task);

  d->poll_id = 0;
  poll_state (task);
  return G_SOURCE_REMOVE;
}

static void
poll_again (GTask *task)
{
  StartData *d = g_task_get_task_data (task);

  if (g_get_monotonic_time () >= d->deadline_us)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                               d->last == ADBSCOPE_AGENT_STATE_WAITING_CONSENT
                               ? _("The agent is still waiting for the VPN request to be accepted on the device (waited %u s)")
                               : _("The agent did not start within %u s"),
                               d->timeout_ms / 1000);
      g_object_unref (task);
      return;
    }
  d->poll_id = g_timeout_add (POLL_MS, poll_cb, task);
}

static void
poll_state_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  StartData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = shell_finish (result, &error);
  AdbscopeAgentServiceState st;
  gboolean settled;

  if (out == NULL || !adbscope_agent_parse_service_state (out, -1, &st, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  d->last = st.state;
  settled = st.state != d->before || g_strcmp0 (st.error_code, d->before_error) != 0
            || g_get_monotonic_time () - d->started_us >= STALE_MS * 1000;
  if (st.state == ADBSCOPE_AGENT_STATE_RUNNING && g_strcmp0 (st.package, d->package) == 0)
    g_task_return_boolean (task, TRUE);
  else if (st.state == ADBSCOPE_AGENT_STATE_CONSENT_DENIED && settled)
    g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_VPN_CONSENT_DENIED,
                             _("The VPN request of the Adbscope agent was refused on the device; "
                               "accept it to capture the network traffic of %s"), d->package);
  else if (st.state == ADBSCOPE_AGENT_STATE_ERROR && settled)
    {
      g_autofree char *words = adbscope_agent_state_describe (st.state, st.error_code, st.reason);

      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_FAILED,
                               _("The agent failed to start on the device (error:%s): %s"),
                               st.error_code ? st.error_code : "", words);
    }
  else
    {
      adbscope_agent_service_state_clear (&st);
      poll_again (task);
      return;
    }
  adbscope_agent_service_state_clear (&st);
  g_object_unref (task);
}

static void
poll_state (GTask *task)
{
  StartData *d = g_task_get_task_data (task);

  shell_async (d->serial, "dumpsys activity service " AGENT_SERVICE, g_task_get_cancellable (task),
               poll_state_cb, task);
}

static void
am_start_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  StartData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = shell_finish (result, &error);

  if (out == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  /* "Error: Activity class {…} does not exist." */
  if (strstr (out, "Error") != NULL)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_FAILED,
                               _("The device could not start the agent: %s"), g_strstrip (out));
      g_object_unref (task);
      return;
    }
  d->started_us = g_get_monotonic_time ();
  d->deadline_us = d->started_us + (gint64) d->timeout_ms * 1000;
  poll_state (task);
}

static void
start_status_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  StartData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) status = adbscope_agent_status_finish (result, &error);
  g_autofree char *command = NULL;
  gint64 ours = adbscope_agent_our_version_code ();

  if (status == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  if (!status->installed)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED,
                               _("The Adbscope agent is not installed on %s; install it with “adbscope agent install”"),
                               d->serial);
      g_object_unref (task);
      return;
    }
  if (status->version_code >= 0 && status->version_code < ours)
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED,
                               _("The agent on %s has versionCode %.0f, older than this Adbscope's %.0f; "
                                 "replace it with “adbscope agent install --replace”"),
                               d->serial, (double) status->version_code, (double) ours);
      g_object_unref (task);
      return;
    }
  d->before = status->service.state;
  d->before_error = g_strdup (status->service.error_code);
  {
    GString *c = g_string_new ("am start -n " AGENT_ACTIVITY " -e package ");

    g_string_append (c, d->package);
    if (d->token != NULL)
      g_string_append_printf (c, " -e token %s", d->token);
    if (d->selftest != NULL)
      g_string_append_printf (c, " -e selftest %s", d->selftest);
    command = g_string_free (c, FALSE);
  }
  shell_async (d->serial, command, g_task_get_cancellable (task), am_start_cb, task);
}

/* One shell word of [A-Za-z0-9._:-] (a token, HOST:PORT). */
static gboolean
shell_word_ok (const char *s)
{
  if (s == NULL || *s == '\0' || strlen (s) > 128)
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_' && *p != ':' && *p != '-')
      return FALSE;
  return TRUE;
}

char *
adbscope_agent_new_token (void)
{
  return g_strdup_printf ("%08x%08x", g_random_int (), g_random_int ());
}

void
adbscope_agent_start_async (const char          *serial,
                            const char          *package,
                            guint                timeout_ms,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  adbscope_agent_start_full_async (serial, package, NULL, NULL, timeout_ms, cancellable, callback, user_data);
}

void
adbscope_agent_start_full_async (const char          *serial,
                                 const char          *package,
                                 const char          *token,
                                 const char          *selftest,
                                 guint                timeout_ms,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  StartData *d;

  g_task_set_source_tag (task, adbscope_agent_start_async);
  if (!adbscope_package_name_is_valid (package))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                               _("“%s” is not a valid package name"), package);
      g_object_unref (task);
      return;
    }
  if ((token != NULL && !shell_word_ok (token)) || (selftest != NULL && !shell_word_ok (selftest)))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                               _("“%s” is not a valid HOST:PORT"), selftest != NULL ? selftest : token);
      g_object_unref (task);
      return;
    }
  d = g_new0 (StartData, 1);
  d->serial = g_strdup (serial);
  d->package = g_strdup (package);
  d->token = g_strdup (token);
  d->selftest = g_strdup (selftest);
  d->timeout_ms = timeout_ms;
  g_task_set_task_data (task, d, (GDestroyNotify) start_data_free);
  adbscope_agent_status_async (serial, cancellable, start_status_cb, task);
}

gboolean
adbscope_agent_start_finish (GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Stop -------------------------------------------------------------------- */

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  g_autofree char *out = shell_finish (result, &error);

  if (out == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
adbscope_agent_stop_async (const char          *serial,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, adbscope_agent_stop_async);
  shell_async (serial, "am start -n " AGENT_ACTIVITY " -e stop 1", cancellable, stop_cb, task);
}

gboolean
adbscope_agent_stop_finish (GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
