/* adbscope-demo.c: runs `adbscope sim` (this same binary) for the demo
 *
 * The simulated device connects itself to the current adb server and
 * prints one JSON line with its serial; stopping it (SIGTERM) makes it
 * disconnect and clean up.  The demo is always labelled as simulated by
 * the callers.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "adbscope-demo.h"
#include "adbscope-error.h"

struct _AdbscopeDemo
{
  GObject      parent_instance;
  char        *profile;
  char        *serial;
  GSubprocess *proc;
};

G_DEFINE_FINAL_TYPE (AdbscopeDemo, adbscope_demo, G_TYPE_OBJECT)

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AdbscopeDemo *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *line = NULL;
  JsonNode *root;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  if (line == NULL)
    {
      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The simulated device did not start: %s"),
                               error ? error->message : _("it exited without saying why"));
      return;
    }
  if (!json_parser_load_from_data (parser, line, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The simulated device said something unexpected: %s"), line);
      return;
    }
  if (json_object_has_member (json_node_get_object (root), "error"))
    {
      JsonObject *err = json_object_get_object_member (json_node_get_object (root), "error");

      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The simulated device did not start: %s"),
                               json_object_get_string_member_with_default (err, "message", line));
      return;
    }
  self->serial = g_strdup (json_object_get_string_member_with_default (json_node_get_object (root), "serial", NULL));
  if (self->serial == NULL)
    {
      adbscope_demo_stop (self);
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                               _("The simulated device gave no serial"));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

void
adbscope_demo_start_async (AdbscopeDemo        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", &error);
  g_autoptr(GDataInputStream) in = NULL;

  if (exe == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* stdin is a pipe we never close: the sim takes control lines there. */
  self->proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                 &error, exe, "sim", "--profile", self->profile, NULL);
  if (self->proc == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->proc));
  g_object_set_data_full (G_OBJECT (self), "stdout", g_object_ref (in), g_object_unref);
  g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, cancellable, line_cb, g_steal_pointer (&task));
}

gboolean
adbscope_demo_start_finish (AdbscopeDemo  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

const char *
adbscope_demo_get_serial (AdbscopeDemo *self)
{
  return self->serial;
}

/* Asks the sim to quit (SIGTERM: it disconnects adb and removes its
 * sandbox) and waits up to 5 s before killing it.
 */
void
adbscope_demo_stop (AdbscopeDemo *self)
{
  if (self->proc == NULL)
    return;
  g_subprocess_send_signal (self->proc, SIGTERM);
  /* GSubprocess reaps in GLib's worker thread, so the identifier turns
   * NULL without a main loop here: the caller may be shutting down. */
  for (guint i = 0; i < 100 && g_subprocess_get_identifier (self->proc) != NULL; i++)
    g_usleep (50 * 1000);
  if (g_subprocess_get_identifier (self->proc) != NULL)
    g_subprocess_force_exit (self->proc);
  g_clear_object (&self->proc);
}

static void
adbscope_demo_finalize (GObject *object)
{
  AdbscopeDemo *self = ADBSCOPE_DEMO (object);

  adbscope_demo_stop (self);
  g_free (self->profile);
  g_free (self->serial);
  G_OBJECT_CLASS (adbscope_demo_parent_class)->finalize (object);
}

static void
adbscope_demo_class_init (AdbscopeDemoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = adbscope_demo_finalize;
}

static void
adbscope_demo_init (AdbscopeDemo *self)
{
}

AdbscopeDemo *
adbscope_demo_new (const char *profile)
{
  AdbscopeDemo *self = g_object_new (ADBSCOPE_TYPE_DEMO, NULL);

  self->profile = g_strdup (profile ? profile : "pixel-14");
  return self;
}
