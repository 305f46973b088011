/* adbscope-demo.c: `adbscope sim` run for "Try the demo device" and `record --demo`
 *
 * The simulated device is this same binary run as `adbscope sim`: it
 * connects itself to the current adb server and prints one JSON line with
 * its serial.  It lives as long as this object (or until stop), and is
 * always labelled as simulated in the UI.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sys/prctl.h>

#include "adbscope-demo.h"
#include "adbscope-adb.h"
#include "adbscope-error.h"

struct _AdbscopeDemo
{
  GObject           parent_instance;

  char             *profile;
  gboolean          game;
  GSubprocess      *process;
  GDataInputStream *stdout_stream;
  char             *serial;
};

G_DEFINE_FINAL_TYPE (AdbscopeDemo, adbscope_demo, G_TYPE_OBJECT)

/* ADBSCOPE_BIN lets tests run the built binary from a test executable. */
static char *
find_self (void)
{
  const char *bin = g_getenv ("ADBSCOPE_BIN");

  if (bin != NULL && *bin != '\0')
    return g_strdup (bin);
  return g_file_read_link ("/proc/self/exe", NULL);
}

/* The demo device must not outlive the app, even when the app crashes. */
static void
child_setup (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AdbscopeDemo *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *line = NULL;
  JsonObject *obj;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  if (line == NULL)
    {
      adbscope_demo_stop (self);
      if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                                 _("The demo device stopped before it was ready"));
      return;
    }

  if (!json_parser_load_from_data (parser, line, -1, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The demo device printed something unexpected: %s"), line);
      return;
    }

  obj = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (obj, "error"))
    {
      JsonObject *err = json_object_get_object_member (obj, "error");
      const char *message = err != NULL ? json_object_get_string_member_with_default (err, "message", line) : line;

      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The demo device did not start: %s"), message);
      return;
    }

  self->serial = g_strdup (json_object_get_string_member_with_default (obj, "serial", NULL));
  if (self->serial == NULL)
    {
      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The demo device printed something unexpected: %s"), line);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* Also run the game-like demo app (before start). */
void
adbscope_demo_set_game (AdbscopeDemo *self,
                        gboolean      game)
{
  g_return_if_fail (ADBSCOPE_IS_DEMO (self));
  self->game = game;
}

/**
 * adbscope_demo_start_async:
 *
 * Starts `adbscope sim` and waits for its ready line.
 */
void
adbscope_demo_start_async (AdbscopeDemo  *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bin = find_self ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_auto(GStrv) apks = NULL;
  g_autofree char *server = NULL;
  GTask *task;

  g_return_if_fail (ADBSCOPE_IS_DEMO (self));
  g_return_if_fail (self->process == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_demo_start_async);

  /* The simulated device listens on this machine's loopback and connects
   * itself to the chosen adb server, which must be on this machine too:
   * a server elsewhere could never reach it. */
  server = adbscope_adb_dup_server ();
  if (!adbscope_adb_server_is_local ())
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                               _("The demo device runs on this machine and needs an adb server on it; it cannot be "
                                 "used with the adb server at %s"), server);
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (argv, bin);
  if (server != NULL)
    {
      g_ptr_array_add (argv, (char *) "--adb-server");
      g_ptr_array_add (argv, server);
    }
  g_ptr_array_add (argv, (char *) "sim");
  /* The demo has a network and the agent wherever the machine allows it,
   * so `record --demo --capture` works out of the box. */
  g_ptr_array_add (argv, (char *) "--try-network");
  g_ptr_array_add (argv, (char *) "--agent-installed");
  if (self->profile != NULL)
    {
      g_ptr_array_add (argv, (char *) "--profile");
      g_ptr_array_add (argv, self->profile);
    }
  if (self->game)
    g_ptr_array_add (argv, (char *) "--game");
  /* ADBSCOPE_DEMO_APKS=A.apk:B.apk installs real APKs on the demo device
   * (screenshots of the app picker with names and icons). */
  apks = g_strsplit (g_getenv ("ADBSCOPE_DEMO_APKS") != NULL ? g_getenv ("ADBSCOPE_DEMO_APKS") : "", ":", -1);
  for (guint i = 0; apks[i] != NULL; i++)
    if (apks[i][0] != '\0')
      {
        g_ptr_array_add (argv, (char *) "--apk");
        g_ptr_array_add (argv, apks[i]);
      }
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  if (self->process == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  self->stdout_stream = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  g_data_input_stream_read_line_async (self->stdout_stream, G_PRIORITY_DEFAULT, cancellable,
                                       read_line_cb, task);
}

gboolean
adbscope_demo_start_finish (AdbscopeDemo  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

const char *
adbscope_demo_get_serial (AdbscopeDemo *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEMO (self), NULL);
  return self->serial;
}

/* The sim's pid (tests kill it to lose the device); 0 when not running. */
GPid
adbscope_demo_get_pid (AdbscopeDemo *self)
{
  const char *id;

  g_return_val_if_fail (ADBSCOPE_IS_DEMO (self), 0);

  id = self->process != NULL ? g_subprocess_get_identifier (self->process) : NULL;
  return id != NULL ? (GPid) g_ascii_strtoll (id, NULL, 10) : 0;
}

/**
 * adbscope_demo_stop:
 *
 * SIGTERM lets the sim disconnect from adb and remove its sandbox.
 */
void
adbscope_demo_stop (AdbscopeDemo *self)
{
  g_return_if_fail (ADBSCOPE_IS_DEMO (self));

  if (self->process != NULL)
    {
      g_subprocess_send_signal (self->process, SIGTERM);
      /* Reap it in the background; nobody waits for the result. */
      g_subprocess_wait_async (self->process, NULL, NULL, NULL);
    }
  g_clear_object (&self->stdout_stream);
  g_clear_object (&self->process);
}

/* For a command line that is about to exit: stop, and give the sim up to
 * 5 s to disconnect from adb and remove its sandbox. */
void
adbscope_demo_stop_and_wait (AdbscopeDemo *self)
{
  g_autoptr(GSubprocess) process = NULL;

  g_return_if_fail (ADBSCOPE_IS_DEMO (self));

  if (self->process == NULL)
    return;
  process = g_object_ref (self->process);
  adbscope_demo_stop (self);
  /* GSubprocess reaps in GLib's worker thread: no main loop needed. */
  for (guint i = 0; i < 100 && g_subprocess_get_identifier (process) != NULL; i++)
    g_usleep (50 * 1000);
  if (g_subprocess_get_identifier (process) != NULL)
    g_subprocess_force_exit (process);
}

static void
adbscope_demo_dispose (GObject *object)
{
  adbscope_demo_stop (ADBSCOPE_DEMO (object));
  G_OBJECT_CLASS (adbscope_demo_parent_class)->dispose (object);
}

static void
adbscope_demo_finalize (GObject *object)
{
  AdbscopeDemo *self = ADBSCOPE_DEMO (object);

  g_free (self->profile);
  g_free (self->serial);
  G_OBJECT_CLASS (adbscope_demo_parent_class)->finalize (object);
}

static void
adbscope_demo_class_init (AdbscopeDemoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_demo_dispose;
  object_class->finalize = adbscope_demo_finalize;
}

static void
adbscope_demo_init (AdbscopeDemo *self)
{
}

/**
 * adbscope_demo_new:
 * @profile: (nullable): a sim profile (pixel-14, legacy-8, tablet-13)
 */
AdbscopeDemo *
adbscope_demo_new (const char *profile)
{
  AdbscopeDemo *self = g_object_new (ADBSCOPE_TYPE_DEMO, NULL);

  self->profile = g_strdup (profile);
  return self;
}
