/* adbscope-shell.c: one persistent `adb -s SERIAL shell` with a request queue
 *
 * Each request is written to the shell's stdin wrapped so that the device
 * prints the command's output and our end marker in ONE write:
 *
 *   __adbscope_o=$( { trap 'echo ".$?"' EXIT; CMD
 *   } </dev/null 2>&1 ); printf '%s\n%s%s\n' "$__adbscope_o" 'MARK' 'ER'
 *
 * When output and marker reach the adb server as two writes, the server's
 * client socket (no TCP_NODELAY) holds the second one for the delayed ACK,
 * about 40 ms, on every command, with real phones too (notes/adb-transport.md).
 * The marker is printed from two halves so the shell's echo of the command
 * (PTY on old devices) never contains it.  stdin is /dev/null so a command
 * cannot eat the commands queued after it; stderr is merged so error text
 * reaches the caller in order.  The EXIT trap prints the ".RC" trailer
 * even when CMD runs `exit`, without forking another subshell.
 *
 * One request is in flight at a time; the reply is complete when the
 * buffer ENDS WITH the marker line (a command's output may lack a final
 * newline, and $(…) strips newlines: the ".RC" trailer keeps them).
 *
 * When adb reaches EOF before the marker, the device went away: adb 29
 * exits 0 and prints nothing then.  On EOF, timeout or error the shell is
 * killed, every waiting request fails with adb's last stderr line (or
 * "device disconnected"), and the next request starts a new shell no
 * sooner than 1 s after the failure.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-error.h"
#include "adbscope-shell-private.h"

#define RESTART_DELAY_US   G_USEC_PER_SEC
#define STDERR_KEEP        4096
#define STDERR_GRACE_MS    300

typedef struct _Proc Proc;

struct _AdbscopeShell
{
  GObject        parent_instance;

  char          *serial;
  char          *marker_base;
  guint          seq;
  guint          timeout_ms;
  guint          restarts;

  Proc          *proc;
  GQueue         queue;        /* GTask*, waiting */
  GTask         *in_flight;
  guint          timeout_id;
  guint          restart_id;
  gint64         last_failure;
};

G_DEFINE_FINAL_TYPE (AdbscopeShell, adbscope_shell, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SERIAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* One adb process.  Callbacks hold a reference and ignore a Proc that is no
 * longer the shell's current one, so a dead shell's late I/O is harmless.
 */
struct _Proc
{
  gatomicrefcount  ref;
  AdbscopeShell   *shell;       /* NULL once detached */
  GSubprocess     *subprocess;
  GInputStream    *out;
  GInputStream    *err;
  GOutputStream   *in;
  GCancellable    *cancellable;
  GString         *out_buf;
  GString         *err_buf;
  gboolean         out_eof;
  gboolean         err_eof;
  guint            grace_id;
};

typedef struct
{
  char         *command;
  char         *marker;
  GCancellable *cancellable;
  gulong        cancel_id;
  int           exit_status;
  gboolean      returned;
} Request;

static void kick (AdbscopeShell *self);

static Proc *
proc_ref (Proc *proc)
{
  g_atomic_ref_count_inc (&proc->ref);
  return proc;
}

static void
proc_unref (Proc *proc)
{
  if (!g_atomic_ref_count_dec (&proc->ref))
    return;
  g_assert (proc->grace_id == 0);
  g_clear_object (&proc->subprocess);
  g_clear_object (&proc->cancellable);
  g_string_free (proc->out_buf, TRUE);
  g_string_free (proc->err_buf, TRUE);
  g_free (proc);
}

static void
request_free (Request *req)
{
  g_assert (req->cancel_id == 0);
  g_clear_object (&req->cancellable);
  g_free (req->command);
  g_free (req->marker);
  g_free (req);
}

char *
_adbscope_shell_frame_command (const char *command,
                               const char *marker)
{
  gsize half = strlen (marker) / 2;
  g_autofree char *m1 = g_strndup (marker, half);

  return g_strdup_printf ("__adbscope_o=$( { trap 'echo \".$?\"' EXIT; %s\n} </dev/null 2>&1 ); "
                          "printf '%%s\\n%%s%%s\\n' \"$__adbscope_o\" '%s' '%s'\n",
                          command, m1, marker + half);
}

/* If @buffer ends with the marker line, splits off the reply.  Accepts the
 * marker on its own line or glued to the output, and CRLF line ends.
 */
gboolean
_adbscope_shell_take_reply (GString     *buffer,
                            const char  *marker,
                            char       **output,
                            int         *exit_status)
{
  gsize mlen = strlen (marker);
  gsize end = buffer->len;
  gsize content_len;
  const char *dot;
  char *content;
  int rc = -1;

  if (end > 0 && buffer->str[end - 1] == '\n')
    end--;
  if (end > 0 && buffer->str[end - 1] == '\r')
    end--;
  if (end < mlen || memcmp (buffer->str + end - mlen, marker, mlen) != 0)
    return FALSE;

  content_len = end - mlen;
  if (content_len > 0 && buffer->str[content_len - 1] == '\n')
    content_len--;
  if (content_len > 0 && buffer->str[content_len - 1] == '\r')
    content_len--;
  content = g_strndup (buffer->str, content_len);

  /* The ".RC" trailer from the framing. */
  dot = strrchr (content, '.');
  if (dot != NULL && dot[1] != '\0')
    {
      char *endp = NULL;
      gint64 v = g_ascii_strtoll (dot + 1, &endp, 10);

      if (endp != NULL && *endp == '\0' && v >= 0 && v <= 255)
        {
          rc = (int) v;
          content[dot - content] = '\0';
        }
    }

  g_string_truncate (buffer, 0);
  *output = content;
  if (exit_status)
    *exit_status = rc;
  return TRUE;
}

static void
complete_request (GTask  *task,
                  char   *output,
                  int     exit_status,
                  GError *error)
{
  Request *req = g_task_get_task_data (task);

  if (req->returned)
    {
      g_free (output);
      g_clear_error (&error);
      return;
    }
  req->returned = TRUE;
  if (req->cancel_id != 0)
    g_cancellable_disconnect (req->cancellable, req->cancel_id);
  req->cancel_id = 0;
  if (error != NULL)
    {
      g_free (output);
      g_task_return_error (task, error);
    }
  else
    {
      req->exit_status = exit_status;
      g_task_return_pointer (task, output, g_free);
    }
}

static void
detach_proc (AdbscopeShell *self)
{
  Proc *proc = self->proc;

  if (proc == NULL)
    return;
  self->proc = NULL;
  proc->shell = NULL;
  g_clear_handle_id (&proc->grace_id, g_source_remove);
  g_cancellable_cancel (proc->cancellable);
  if (proc->subprocess != NULL)
    g_subprocess_force_exit (proc->subprocess);
  proc_unref (proc);
}

/* Kills the shell and fails every waiting request with @error. */
static void
fail_all (AdbscopeShell *self,
          GError        *error)
{
  GTask *task;

  g_debug ("shell %s failed: %s", self->serial, error->message);
  detach_proc (self);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->last_failure = g_get_monotonic_time ();

  if (self->in_flight != NULL)
    {
      task = g_steal_pointer (&self->in_flight);
      complete_request (task, NULL, 0, g_error_copy (error));
      g_object_unref (task);
    }
  while ((task = g_queue_pop_head (&self->queue)))
    {
      complete_request (task, NULL, 0, g_error_copy (error));
      g_object_unref (task);
    }
  g_error_free (error);
}

static void
fail_from_stderr (AdbscopeShell *self)
{
  g_autofree char *text = g_strdup (self->proc->err_buf->str);

  fail_all (self, adbscope_adb_error_from_stderr (text, self->serial));
}

static gboolean
stderr_grace_cb (gpointer data)
{
  Proc *proc = data;

  proc->grace_id = 0;
  if (proc->shell != NULL && proc->shell->proc == proc)
    fail_from_stderr (proc->shell);
  return G_SOURCE_REMOVE;
}

/* stdout ended: fail once stderr has been read to its end (adb exits right
 * after), so the message is adb's, not a guess.
 */
static void
on_stdout_eof (Proc *proc)
{
  proc->out_eof = TRUE;
  if (proc->err_eof)
    fail_from_stderr (proc->shell);
  else if (proc->grace_id == 0)
    proc->grace_id = g_timeout_add_full (G_PRIORITY_DEFAULT, STDERR_GRACE_MS,
                                         stderr_grace_cb, proc_ref (proc),
                                         (GDestroyNotify) proc_unref);
}

static void read_stdout (Proc *proc);
static void read_stderr (Proc *proc);

static void
stdout_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Proc *proc = user_data;
  AdbscopeShell *self = proc->shell;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (self == NULL || self->proc != proc)
    goto out;

  if (bytes == NULL)
    {
      fail_all (self, g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                                   _("Reading from adb failed: %s"), error->message));
      goto out;
    }
  if (g_bytes_get_size (bytes) == 0)
    {
      on_stdout_eof (proc);
      goto out;
    }

  g_string_append_len (proc->out_buf, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  if (self->in_flight != NULL)
    {
      Request *req = g_task_get_task_data (self->in_flight);
      char *output = NULL;
      int rc = -1;

      if (_adbscope_shell_take_reply (proc->out_buf, req->marker, &output, &rc))
        {
          GTask *task = g_steal_pointer (&self->in_flight);

          g_clear_handle_id (&self->timeout_id, g_source_remove);
          complete_request (task, output, rc, NULL);
          g_object_unref (task);
          kick (self);
        }
    }
  else if (proc->out_buf->len > 0)
    {
      /* Output with no request: the greeting of some shells; drop it. */
      g_string_truncate (proc->out_buf, 0);
    }

  if (self->proc == proc)
    read_stdout (proc);

out:
  proc_unref (proc);
}

static void
read_stdout (Proc *proc)
{
  g_input_stream_read_bytes_async (proc->out, 65536, G_PRIORITY_DEFAULT, proc->cancellable,
                                   stdout_read_cb, proc_ref (proc));
}

static void
stderr_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Proc *proc = user_data;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  if (proc->shell == NULL || proc->shell->proc != proc)
    goto out;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      proc->err_eof = TRUE;
      if (proc->out_eof)
        {
          g_clear_handle_id (&proc->grace_id, g_source_remove);
          fail_from_stderr (proc->shell);
        }
      goto out;
    }

  g_string_append_len (proc->err_buf, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (proc->err_buf->len > STDERR_KEEP)
    g_string_erase (proc->err_buf, 0, proc->err_buf->len - STDERR_KEEP);
  read_stderr (proc);

out:
  proc_unref (proc);
}

static void
read_stderr (Proc *proc)
{
  g_input_stream_read_bytes_async (proc->err, 4096, G_PRIORITY_DEFAULT, proc->cancellable,
                                   stderr_read_cb, proc_ref (proc));
}

static gboolean
start_proc (AdbscopeShell  *self,
            GError        **error)
{
  const char *args[] = { "shell", NULL };
  GSubprocess *subprocess;
  Proc *proc;

  subprocess = adbscope_adb_spawn (self->serial, args,
                                   G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                   G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                   error);
  if (subprocess == NULL)
    return FALSE;

  proc = g_new0 (Proc, 1);
  g_atomic_ref_count_init (&proc->ref);
  proc->shell = self;
  proc->subprocess = subprocess;
  proc->in = g_subprocess_get_stdin_pipe (subprocess);
  proc->out = g_subprocess_get_stdout_pipe (subprocess);
  proc->err = g_subprocess_get_stderr_pipe (subprocess);
  proc->cancellable = g_cancellable_new ();
  proc->out_buf = g_string_new (NULL);
  proc->err_buf = g_string_new (NULL);
  self->proc = proc;
  if (self->last_failure != 0)
    self->restarts++;

  read_stdout (proc);
  read_stderr (proc);
  return TRUE;
}

static gboolean
restart_cb (gpointer data)
{
  AdbscopeShell *self = data;

  self->restart_id = 0;
  kick (self);
  return G_SOURCE_REMOVE;
}

static gboolean
timeout_cb (gpointer data)
{
  AdbscopeShell *self = data;
  Request *req;

  self->timeout_id = 0;
  req = self->in_flight ? g_task_get_task_data (self->in_flight) : NULL;
  fail_all (self, g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                               _("Device %s did not answer within %u s (command: %.60s)"),
                               self->serial, self->timeout_ms / 1000,
                               req ? req->command : ""));
  return G_SOURCE_REMOVE;
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Proc *proc = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error) &&
      proc->shell != NULL && proc->shell->proc == proc)
    {
      /* A broken pipe means adb is gone; its stderr says why. */
      if (proc->out_eof || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
        on_stdout_eof (proc);
      else
        fail_all (proc->shell, g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                                            _("Writing to adb failed: %s"), error->message));
    }
  g_free (g_object_steal_data (object, "adbscope-pending"));
  proc_unref (proc);
}

static void
kick (AdbscopeShell *self)
{
  g_autoptr(GError) error = NULL;
  Request *req;
  char *framed;
  gint64 since;

  if (self->in_flight != NULL)
    return;

  /* Drop requests cancelled while queued. */
  while (!g_queue_is_empty (&self->queue))
    {
      GTask *head = g_queue_peek_head (&self->queue);

      if (!((Request *) g_task_get_task_data (head))->returned)
        break;
      g_object_unref (g_queue_pop_head (&self->queue));
    }
  if (g_queue_is_empty (&self->queue))
    return;

  if (self->proc == NULL)
    {
      if (self->restart_id != 0)
        return;
      since = g_get_monotonic_time () - self->last_failure;
      if (self->last_failure != 0 && since < RESTART_DELAY_US)
        {
          self->restart_id = g_timeout_add ((RESTART_DELAY_US - since) / 1000 + 1, restart_cb, self);
          return;
        }
      if (!start_proc (self, &error))
        {
          fail_all (self, g_steal_pointer (&error));
          return;
        }
    }

  self->in_flight = g_queue_pop_head (&self->queue);
  req = g_task_get_task_data (self->in_flight);
  framed = _adbscope_shell_frame_command (req->command, req->marker);
  /* The buffer must outlive the write; it is freed in write_cb. */
  g_object_set_data (G_OBJECT (self->proc->in), "adbscope-pending", framed);
  g_output_stream_write_all_async (self->proc->in, framed, strlen (framed), G_PRIORITY_DEFAULT,
                                   self->proc->cancellable, write_cb, proc_ref (self->proc));
  self->timeout_id = g_timeout_add (self->timeout_ms, timeout_cb, self);
}

static gboolean
cancel_idle_cb (gpointer data)
{
  GTask *task = data;

  complete_request (task, NULL, 0,
                    g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled")));
  return G_SOURCE_REMOVE;
}

/* Called where g_cancellable_cancel() was called; finish in an idle so we
 * never re-enter the queue from inside the cancellable's lock.  A request
 * already sent keeps its place: its reply is read and dropped.
 */
static void
on_cancelled (GCancellable *cancellable,
              gpointer      data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, cancel_idle_cb, g_object_ref (data), g_object_unref);
}

void
adbscope_shell_run_async (AdbscopeShell       *self,
                          const char          *command,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
  Request *req;

  g_return_if_fail (ADBSCOPE_IS_SHELL (self));
  g_return_if_fail (command != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_shell_run_async);
  req = g_new0 (Request, 1);
  req->command = g_strdup (command);
  req->marker = g_strdup_printf ("%s%u__", self->marker_base, ++self->seq);
  g_task_set_task_data (task, req, (GDestroyNotify) request_free);
  if (cancellable != NULL)
    {
      req->cancellable = g_object_ref (cancellable);
      req->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), task, NULL);
    }

  g_queue_push_tail (&self->queue, task);
  kick (self);
}

char *
adbscope_shell_run_finish (AdbscopeShell  *self,
                           GAsyncResult   *result,
                           int            *exit_status,
                           GError        **error)
{
  GTask *task = G_TASK (result);
  Request *req;

  g_return_val_if_fail (ADBSCOPE_IS_SHELL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  req = g_task_get_task_data (task);
  if (exit_status)
    *exit_status = req->exit_status;
  return g_task_propagate_pointer (task, error);
}

/* Kills the adb process; waiting requests fail as "closed". */
void
adbscope_shell_close (AdbscopeShell *self)
{
  g_return_if_fail (ADBSCOPE_IS_SHELL (self));

  g_clear_handle_id (&self->restart_id, g_source_remove);
  if (self->proc != NULL || self->in_flight != NULL || !g_queue_is_empty (&self->queue))
    fail_all (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED, _("The shell was closed")));
  self->last_failure = 0;
}

const char *
adbscope_shell_get_serial (AdbscopeShell *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SHELL (self), NULL);
  return self->serial;
}

void
adbscope_shell_set_timeout (AdbscopeShell *self,
                            guint          timeout_ms)
{
  g_return_if_fail (ADBSCOPE_IS_SHELL (self));
  self->timeout_ms = timeout_ms;
}

/* How many times a new adb process replaced a failed one. */
guint
adbscope_shell_get_restarts (AdbscopeShell *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SHELL (self), 0);
  return self->restarts;
}

static void
adbscope_shell_dispose (GObject *object)
{
  AdbscopeShell *self = ADBSCOPE_SHELL (object);

  adbscope_shell_close (self);
  G_OBJECT_CLASS (adbscope_shell_parent_class)->dispose (object);
}

static void
adbscope_shell_finalize (GObject *object)
{
  AdbscopeShell *self = ADBSCOPE_SHELL (object);

  g_free (self->serial);
  g_free (self->marker_base);
  G_OBJECT_CLASS (adbscope_shell_parent_class)->finalize (object);
}

static void
adbscope_shell_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AdbscopeShell *self = ADBSCOPE_SHELL (object);

  switch (prop_id)
    {
    case PROP_SERIAL:
      g_value_set_string (value, self->serial);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_shell_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AdbscopeShell *self = ADBSCOPE_SHELL (object);

  switch (prop_id)
    {
    case PROP_SERIAL:
      self->serial = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_shell_class_init (AdbscopeShellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_shell_dispose;
  object_class->finalize = adbscope_shell_finalize;
  object_class->get_property = adbscope_shell_get_property;
  object_class->set_property = adbscope_shell_set_property;

  properties[PROP_SERIAL] =
    g_param_spec_string ("serial", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_shell_init (AdbscopeShell *self)
{
  self->timeout_ms = ADBSCOPE_SHELL_DEFAULT_TIMEOUT_MS;
  self->marker_base = g_strdup_printf ("__ADBSCOPE_%08x%08x_", g_random_int (), g_random_int ());
  g_queue_init (&self->queue);
}

AdbscopeShell *
adbscope_shell_new (const char *serial)
{
  return g_object_new (ADBSCOPE_TYPE_SHELL, "serial", serial, NULL);
}
