/* adbscope-sim-host-command.c: a command prepared now, run later, in the
 * namespaces the device started in
 *
 * With --network the device moves itself into the "phone's" network
 * namespace (a user namespace too when not root), from where the adb server
 * on the host's loopback cannot be reached and, in a user namespace, never
 * re-entered.  So `adb connect` and `adb disconnect` are forked before the
 * move: each child waits on a pipe and runs its command when the device
 * writes one byte to it (or exits quietly when the pipe closes unwritten).
 * The child only read()s, dup2()s and execve()s: safe after fork().
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-sim-private.h"

struct _AdbscopeSimHostCommand
{
  GPid                       pid;
  int                        go;        /* write end: one byte runs it */
  int                        out;       /* read ends of stdout and stderr */
  int                        err;
  guint                      watch;
  AdbscopeSimHostCommandDone done;
  gpointer                   user_data;
};

AdbscopeSimHostCommand *
adbscope_sim_host_command_prepare (const char * const *argv,
                                   GError            **error)
{
  g_autofree char *path = g_find_program_in_path (argv[0]);
  g_auto(GStrv) env = g_get_environ ();
  AdbscopeSimHostCommand *cmd;
  int go[2], out[2], err[2];
  pid_t pid;

  if (path == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_NOT_FOUND,
                   _("Cannot find the program “%s”"), argv[0]);
      return NULL;
    }
  if (pipe2 (go, O_CLOEXEC) != 0)
    goto fail;
  if (pipe2 (out, O_CLOEXEC) != 0)
    {
      close (go[0]), close (go[1]);
      goto fail;
    }
  if (pipe2 (err, O_CLOEXEC) != 0)
    {
      close (go[0]), close (go[1]), close (out[0]), close (out[1]);
      goto fail;
    }
  pid = fork ();
  if (pid < 0)
    {
      close (go[0]), close (go[1]), close (out[0]), close (out[1]), close (err[0]), close (err[1]);
      goto fail;
    }
  if (pid == 0)
    {
      char c;
      int devnull = open ("/dev/null", O_RDONLY | O_CLOEXEC);

      /* stdin stays unread, so the adb client never waits on it. */
      if (devnull >= 0)
        dup2 (devnull, 0);
      close (go[1]);
      if (read (go[0], &c, 1) != 1)
        _exit (0);
      dup2 (out[1], 1);
      dup2 (err[1], 2);
      execve (path, (char **) argv, env);
      _exit (127);
    }
  close (go[0]);
  close (out[1]);
  close (err[1]);
  cmd = g_new0 (AdbscopeSimHostCommand, 1);
  cmd->pid = pid;
  cmd->go = go[1];
  cmd->out = out[0];
  cmd->err = err[0];
  return cmd;

fail:
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s: %s", argv[0], g_strerror (errno));
  return NULL;
}

static char *
read_all (int fd)
{
  GString *text = g_string_new (NULL);
  char buf[4096];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (text, buf, n);
  return g_string_free (text, FALSE);
}

static void
finish (AdbscopeSimHostCommand *cmd,
        int                     status)
{
  g_autofree char *out = read_all (cmd->out);
  g_autofree char *err = read_all (cmd->err);

  if (cmd->done != NULL)
    cmd->done (status, out, err, cmd->user_data);
}

static void
on_command_exit (GPid     pid,
         int      status,
         gpointer user_data)
{
  AdbscopeSimHostCommand *cmd = user_data;

  g_spawn_close_pid (pid);
  cmd->pid = 0;
  cmd->watch = 0;
  finish (cmd, status);
}

/* The output is small (adb connect/disconnect): read after the exit. */
void
adbscope_sim_host_command_run_async (AdbscopeSimHostCommand     *cmd,
                                     AdbscopeSimHostCommandDone  done,
                                     gpointer                    user_data)
{
  cmd->done = done;
  cmd->user_data = user_data;
  if (write (cmd->go, "g", 1) != 1)
    g_debug ("sim: host command: %s", g_strerror (errno));
  close (cmd->go);
  cmd->go = -1;
  cmd->watch = g_child_watch_add (cmd->pid, on_command_exit, cmd);
}

void
adbscope_sim_host_command_run_sync (AdbscopeSimHostCommand *cmd)
{
  int status = 0;

  if (write (cmd->go, "g", 1) != 1)
    g_debug ("sim: host command: %s", g_strerror (errno));
  close (cmd->go);
  cmd->go = -1;
  if (cmd->watch != 0)
    g_source_remove (cmd->watch);
  cmd->watch = 0;
  while (waitpid (cmd->pid, &status, 0) < 0 && errno == EINTR)
    ;
  cmd->pid = 0;
}

/* Unrun: the child exits at once, reaped here. */
void
adbscope_sim_host_command_free (AdbscopeSimHostCommand *cmd)
{
  if (cmd == NULL)
    return;
  if (cmd->go >= 0)
    close (cmd->go);
  if (cmd->watch != 0)
    g_source_remove (cmd->watch);
  if (cmd->pid > 0)
    while (waitpid (cmd->pid, NULL, 0) < 0 && errno == EINTR)
      ;
  close (cmd->out);
  close (cmd->err);
  g_free (cmd);
}
