/* adbscope-adb.c: finding and running the adb binary
 *
 * adb's quirks, handled here on purpose:
 * - `adb connect` exits 0 even when it failed; its text is parsed instead
 *   (adbscope_parse_connect_output()).
 * - Starting the server prints "* daemon not running; starting now…" and
 *   "* daemon started successfully" on stderr: never taken for an error.
 * - ANDROID_ADB_SERVER_PORT is inherited by every adb we spawn, so tests and
 *   benchmarks can run a private server.  Only an adb server chosen with
 *   adbscope_adb_set_server() (--adb-server, ADBSCOPE_ADB_SERVER, the
 *   preference) is passed, as `-L tcp:HOST:PORT` (adb's -H/-P, written so
 *   an IPv6 address survives); it overrides every adb variable.  adb never
 *   starts a server on a remote host: it fails with "cannot connect to
 *   daemon at tcp:…", which adbscope_adb_error_from_stderr() reports.
 * - `track-devices` in adb 29 does not report a TCP device going offline:
 *   the device monitor also polls `adb devices -l` (adbscope-device-monitor.c).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-error.h"
#include "adbscope-adb-private.h"
#include "adbscope-validate.h"

G_LOCK_DEFINE_STATIC (adb_path);
static char *adb_path;

G_LOCK_DEFINE_STATIC (adb_server);
static char *server_host;   /* NULL: adb's own choice (local) */
static guint server_port;

/* Found once: $ADB (a path, or a name looked up in PATH), else `adb` in PATH. */
const char *
adbscope_adb_get_path (GError **error)
{
  const char *env;
  char *found = NULL;

  G_LOCK (adb_path);
  if (adb_path != NULL)
    {
      G_UNLOCK (adb_path);
      return adb_path;
    }

  env = g_getenv ("ADB");
  if (env != NULL && env[0] != '\0')
    {
      if (g_path_is_absolute (env))
        found = g_file_test (env, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (env) : NULL;
      else
        found = g_find_program_in_path (env);
      if (found == NULL)
        {
          G_UNLOCK (adb_path);
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_NOT_FOUND,
                       _("The adb program named by $ADB (%s) was not found or is not executable"), env);
          return NULL;
        }
    }
  else
    {
      found = g_find_program_in_path ("adb");
      if (found == NULL)
        {
          G_UNLOCK (adb_path);
          g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_NOT_FOUND,
                               _("adb was not found in PATH; install it (Debian: apt install adb) or set $ADB"));
          return NULL;
        }
    }

  adb_path = found;
  G_UNLOCK (adb_path);
  return adb_path;
}

/* Tests change $ADB between cases. */
void
_adbscope_adb_reset_path (void)
{
  G_LOCK (adb_path);
  g_clear_pointer (&adb_path, g_free);
  G_UNLOCK (adb_path);
}

/* NULL, "" and "local" give *host NULL (adb's own choice). */
static gboolean
parse_server (const char  *address,
              char       **host,
              guint       *port,
              GError     **error)
{
  *host = NULL;
  *port = 0;
  if (address == NULL || address[0] == '\0' || g_str_equal (address, "local"))
    return TRUE;
  if (adbscope_network_address_split (address, ADBSCOPE_ADB_DEFAULT_SERVER_PORT, host, port))
    return TRUE;
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
               _("“%s” is not an adb server address: write HOST:PORT (e.g. farm.example.com:5037) or “local”"),
               address);
  return FALSE;
}

/* Chooses the adb server every later adb command talks to: "HOST:PORT",
 * "HOST" (port 5037), "[V6]:PORT"; NULL, "" or "local" for adb's default
 * (the local server, ANDROID_ADB_SERVER_PORT honoured).  Nothing is
 * contacted here: adbscope_adb_check_server() does that. */
gboolean
adbscope_adb_set_server (const char  *address,
                         GError     **error)
{
  g_autofree char *host = NULL;
  guint port = 0;

  if (!parse_server (address, &host, &port, error))
    return FALSE;
  G_LOCK (adb_server);
  g_free (server_host);
  server_host = g_steal_pointer (&host);
  server_port = port;
  G_UNLOCK (adb_server);
  return TRUE;
}

/* "HOST:PORT" of the chosen server, or NULL for the local default. */
char *
adbscope_adb_dup_server (void)
{
  char *text = NULL;

  G_LOCK (adb_server);
  if (server_host != NULL)
    text = adbscope_network_address_join (server_host, server_port);
  G_UNLOCK (adb_server);
  return text;
}

/* Where a port that `adb forward` opened can be reached: the chosen
 * server's host (its forwards listen on its machine), or NULL for this
 * machine's loopback. */
char *
adbscope_adb_dup_server_host (void)
{
  char *host;

  G_LOCK (adb_server);
  host = g_strdup (server_host);
  G_UNLOCK (adb_server);
  return host;
}

/* Whether the chosen server runs on this machine (the local default, or a
 * loopback host): only such a server can reach something that listens on
 * this machine's 127.0.0.1, like the simulated device. */
gboolean
adbscope_adb_server_is_local (void)
{
  g_autofree char *host = adbscope_adb_dup_server_host ();
  g_autoptr(GInetAddress) address = NULL;

  if (host == NULL || g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

/* The one place an adb command line is built: ADB [-L SERVER] [-s SERIAL] ARGS… */
char **
adbscope_adb_build_argv (const char         *path,
                         const char         *serial,
                         const char * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_return_val_if_fail (path != NULL, NULL);

  g_ptr_array_add (argv, g_strdup (path));
  G_LOCK (adb_server);
  if (server_host != NULL)
    {
      g_autofree char *address = adbscope_network_address_join (server_host, server_port);

      g_ptr_array_add (argv, g_strdup ("-L"));
      g_ptr_array_add (argv, g_strconcat ("tcp:", address, NULL));
    }
  G_UNLOCK (adb_server);
  if (serial != NULL)
    {
      g_ptr_array_add (argv, g_strdup ("-s"));
      g_ptr_array_add (argv, g_strdup (serial));
    }
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (argv, FALSE);
}

GSubprocess *
adbscope_adb_spawn (const char         *serial,
                    const char * const *args,
                    GSubprocessFlags    flags,
                    GError            **error)
{
  g_auto(GStrv) argv = NULL;
  const char *path;

  if (!(path = adbscope_adb_get_path (error)))
    return NULL;
  argv = adbscope_adb_build_argv (path, serial, args);
  return g_subprocess_newv ((const char * const *) argv, flags, error);
}

typedef struct
{
  char         *stdout_text;
  char         *stderr_text;
  int           exit_status;
  GCancellable *cancellable;    /* kills adb when cancelled */
  gulong        kill_id;
} RunResult;

static void
run_result_free (RunResult *r)
{
  if (r->kill_id != 0)
    g_cancellable_disconnect (r->cancellable, r->kill_id);
  g_clear_object (&r->cancellable);
  g_free (r->stdout_text);
  g_free (r->stderr_text);
  g_free (r);
}

/* A cancelled request ends its adb too: a stalled device would otherwise
 * keep the process (and its connection to the server) forever. */
static void
run_kill (GCancellable *cancellable,
          GSubprocess  *proc)
{
  g_subprocess_force_exit (proc);
}

static void
run_wait_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GSubprocess *proc = G_SUBPROCESS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  RunResult *r = g_task_get_task_data (task);

  if (!g_subprocess_wait_finish (proc, result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  r->exit_status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc)
                                                     : 128 + g_subprocess_get_term_sig (proc);
  g_task_return_boolean (task, TRUE);
}

/* Output first, then the exit status: the pipes can close before the
 * process is reaped. */
static void
run_communicate_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GSubprocess *proc = G_SUBPROCESS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  RunResult *r = g_task_get_task_data (task);

  if (!g_subprocess_communicate_utf8_finish (proc, result, &r->stdout_text, &r->stderr_text, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    g_subprocess_wait_async (proc, cancellable, run_wait_cb, g_steal_pointer (&task));
  }
}

/* Runs `adb [-s SERIAL] ARGS…` to completion and collects both outputs.
 * A non-zero exit status is not an error here: callers know what adb's
 * exit status means for their command (for some it means nothing).
 */
/* Runs ARGV (a whole adb command line, or NULL with @error) to completion
 * for adbscope_adb_run_finish(). */
static void
run_argv_async (char               **argv,
                const GError        *error,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) local = NULL;

  g_task_set_source_tag (task, adbscope_adb_run_async);
  g_task_set_task_data (task, g_new0 (RunResult, 1), (GDestroyNotify) run_result_free);
  if (argv == NULL)
    {
      g_task_return_error (task, g_error_copy (error));
      return;
    }
  proc = g_subprocess_newv ((const char * const *) argv,
                            G_SUBPROCESS_FLAGS_STDIN_PIPE |
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                            G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &local);
  if (proc == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&local));
      return;
    }
  if (cancellable != NULL)
    {
      RunResult *r = g_task_get_task_data (task);

      r->cancellable = g_object_ref (cancellable);
      r->kill_id = g_cancellable_connect (cancellable, G_CALLBACK (run_kill), g_object_ref (proc),
                                          g_object_unref);
    }
  g_subprocess_communicate_utf8_async (proc, NULL, cancellable, run_communicate_cb, g_steal_pointer (&task));
}

void
adbscope_adb_run_async (const char         *serial,
                        const char * const *args,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  const char *path = adbscope_adb_get_path (&error);

  if (path != NULL)
    argv = adbscope_adb_build_argv (path, serial, args);
  run_argv_async (argv, error, cancellable, callback, user_data);
}

char *
adbscope_adb_run_finish (GAsyncResult  *result,
                         int           *exit_status,
                         char         **stderr_text,
                         GError       **error)
{
  RunResult *r;

  g_return_val_if_fail (G_IS_TASK (result), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  r = g_task_get_task_data (G_TASK (result));
  if (exit_status)
    *exit_status = r->exit_status;
  if (stderr_text)
    *stderr_text = g_steal_pointer (&r->stderr_text);
  return g_steal_pointer (&r->stdout_text);
}

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
  GCancellable *cancellable;
  gboolean      timed_out;
} SyncData;

static void
sync_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SyncData *data = user_data;

  data->result = g_object_ref (result);
  g_main_loop_quit (data->loop);
}

static void
cancel_other (GCancellable *cancellable,
              GCancellable *other)
{
  g_cancellable_cancel (other);
}

static gboolean
sync_timed_out (gpointer user_data)
{
  SyncData *data = user_data;

  data->timed_out = TRUE;
  g_cancellable_cancel (data->cancellable);
  return G_SOURCE_REMOVE;
}

/* For the CLI, worker threads and tests: runs the async version in a
 * private main context. */
char *
adbscope_adb_run_sync_timeout (const char         *serial,
                               const char * const *args,
                               guint               timeout_s,
                               GCancellable       *cancellable,
                               int                *exit_status,
                               char              **stderr_text,
                               GError            **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GError) local = NULL;
  SyncData data = { 0 };
  GSource *timeout = NULL;
  gulong chained = 0;
  char *out;

  g_main_context_push_thread_default (context);
  data.loop = g_main_loop_new (context, FALSE);
  data.cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    chained = g_cancellable_connect (cancellable, G_CALLBACK (cancel_other),
                                     g_object_ref (data.cancellable), g_object_unref);
  if (timeout_s > 0)
    {
      timeout = g_timeout_source_new_seconds (timeout_s);
      g_source_set_callback (timeout, sync_timed_out, &data, NULL);
      g_source_attach (timeout, context);
    }
  adbscope_adb_run_async (serial, args, data.cancellable, sync_cb, &data);
  g_main_loop_run (data.loop);
  if (timeout != NULL)
    {
      g_source_destroy (timeout);
      g_source_unref (timeout);
    }
  if (chained != 0)
    g_cancellable_disconnect (cancellable, chained);
  out = adbscope_adb_run_finish (data.result, exit_status, stderr_text, &local);
  g_object_unref (data.result);
  g_main_loop_unref (data.loop);
  g_object_unref (data.cancellable);
  /* what a cancelled operation still had attached (its socket's and
   * child's sources) is let go here, not left holding the context */
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  if (out == NULL && data.timed_out && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                   _("The device did not answer “adb %s” within %u s"), args[0], timeout_s);
      return NULL;
    }
  if (out == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return out;
}

char *
adbscope_adb_run_sync (const char         *serial,
                       const char * const *args,
                       GCancellable       *cancellable,
                       int                *exit_status,
                       char              **stderr_text,
                       GError            **error)
{
  return adbscope_adb_run_sync_timeout (serial, args, 0, cancellable, exit_status, stderr_text, error);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *err_text = NULL;
  g_autofree char *out = NULL;

  out = adbscope_adb_run_finish (result, NULL, &err_text, &error);
  if (out == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* The verdict is on stdout; stderr only has the daemon chatter. */
  if (!adbscope_parse_connect_output (out, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
adbscope_adb_connect_async (const char         *address,
                            GCancellable       *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer            user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  const char *args[] = { "connect", address, NULL };

  g_task_set_source_tag (task, adbscope_adb_connect_async);
  adbscope_adb_run_async (NULL, args, cancellable, connect_cb, task);
}

gboolean
adbscope_adb_connect_finish (GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
check_server_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *err_text = NULL;
  g_autofree char *out = NULL;
  int status = 0;

  out = adbscope_adb_run_finish (result, &status, &err_text, &error);
  if (out == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else if (status != 0)
    g_task_return_error (task, adbscope_adb_error_from_stderr (err_text, NULL));
  else
    g_task_return_boolean (task, TRUE);
}

/* Asks the adb server at @address ("HOST:PORT"; NULL, "" or "local" for
 * the local one) for its device list, without choosing it: an error says
 * that nothing answers there (or what adb said instead). */
void
adbscope_adb_check_server_async (const char          *address,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *host = NULL;
  const char *path;
  guint port;

  g_task_set_source_tag (task, adbscope_adb_check_server_async);
  if (!parse_server (address, &host, &port, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  path = adbscope_adb_get_path (&error);
  if (path != NULL)
    {
      g_ptr_array_add (argv, g_strdup (path));
      if (host != NULL)
        {
          g_autofree char *joined = adbscope_network_address_join (host, port);

          g_ptr_array_add (argv, g_strdup ("-L"));
          g_ptr_array_add (argv, g_strconcat ("tcp:", joined, NULL));
        }
      g_ptr_array_add (argv, g_strdup ("devices"));
      g_ptr_array_add (argv, NULL);
    }
  run_argv_async (path != NULL ? (char **) argv->pdata : NULL, error, cancellable, check_server_cb, task);
}

gboolean
adbscope_adb_check_server_finish (GAsyncResult  *result,
                                  GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
