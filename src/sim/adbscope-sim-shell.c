/* adbscope-sim-shell.c: shell (v2 and legacy), exec and socket forwards
 *
 * All of them move bytes between a stream and file descriptors:
 *  - shell v2 raw: stdin/stdout on a socketpair (so close-stdin can be a
 *    shutdown(SHUT_WR)), stderr on a pipe, shell packets both ways, an exit
 *    packet once both outputs hit EOF and the child is reaped;
 *  - pty (v2 `pty:` and legacy interactive `shell:`): one PTY master;
 *  - legacy `shell:CMD` and `exec:CMD`: one socketpair for 0/1/2, no exit code;
 *  - forwards: a connected socket and no child.
 * Each read from a descriptor becomes one WRTE, as adbd does; reading
 * stops while a WRTE waits for its OKAY (flow control).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <glib-unix.h>

#include "adbscope-sim-private.h"
#include "adbscope-sim-wire.h"

typedef enum
{
  MODE_V2,        /* shell protocol packets */
  MODE_RAW,       /* bytes as they are */
} SessionMode;

typedef struct
{
  AdbscopeSimDevice *device;
  AdbscopeSimStream *stream;      /* NULL once the stream is gone */
  SessionMode        mode;
  gboolean           pty;
  GPid               pid;         /* 0: no child (forward) */
  gboolean           reaped;
  int                exit_code;
  guint              child_watch;
  guint              kill_timeout;
  int                in_fd;       /* host → child; may equal out_fd[0] */
  int                out_fd[2];   /* [0] stdout or combined, [1] stderr; -1 at EOF */
  guint              out_watch[2];
  guint              in_watch;
  GByteArray        *pending_in;  /* host bytes not yet written to in_fd */
  gboolean           close_stdin; /* v2 id 4 seen: shutdown once pending_in drains */
  gboolean           ack_owed;
  GByteArray        *v2_in;       /* shell packets from the host, re-assembled */
  gboolean           exit_sent;
  guint8            *buf;
} ShellSession;

enum
{
  ID_STDIN = 0,
  ID_STDOUT = 1,
  ID_STDERR = 2,
  ID_EXIT = 3,
  ID_CLOSE_STDIN = 4,
  ID_WINDOW_SIZE = 5,
};

static void session_arm_outputs (ShellSession *s);
static void session_maybe_finish (ShellSession *s);
static void session_free_if_done (ShellSession *s);

static void
set_nonblock (int fd)
{
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) | O_NONBLOCK);
}

static void
session_disarm_outputs (ShellSession *s)
{
  for (int i = 0; i < 2; i++)
    if (s->out_watch[i] != 0)
      {
        g_source_remove (s->out_watch[i]);
        s->out_watch[i] = 0;
      }
}

static void
session_close_out (ShellSession *s,
                   int           i)
{
  if (s->out_watch[i] != 0)
    g_source_remove (s->out_watch[i]);
  s->out_watch[i] = 0;
  if (s->out_fd[i] >= 0 && s->out_fd[i] != s->in_fd)
    close (s->out_fd[i]);
  s->out_fd[i] = -1;
}

static void
session_close_in (ShellSession *s)
{
  if (s->in_watch != 0)
    g_source_remove (s->in_watch);
  s->in_watch = 0;
  if (s->in_fd >= 0 && s->in_fd != s->out_fd[0] && s->in_fd != s->out_fd[1])
    close (s->in_fd);
  s->in_fd = -1;
}

static gboolean
on_output (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  ShellSession *s = user_data;
  int which = fd == s->out_fd[0] ? 0 : 1;
  gsize max, header;
  ssize_t n;

  if (s->stream == NULL || !s->stream->can_send)
    {
      s->out_watch[which] = 0;
      return G_SOURCE_REMOVE;
    }

  header = s->mode == MODE_V2 ? 5 : 0;
  max = adbscope_sim_stream_get_max_payload (s->stream) - header;
  n = read (fd, s->buf + header, max);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      /* EOF, or EIO from a PTY master once the child side is gone. */
      s->out_watch[which] = 0;
      if (s->in_fd == fd)
        {
          if (s->in_watch != 0)
            g_source_remove (s->in_watch);
          s->in_watch = 0;
          s->in_fd = -1;
        }
      close (fd);
      s->out_fd[which] = -1;
      session_maybe_finish (s);
      return G_SOURCE_REMOVE;
    }

  if (s->mode == MODE_V2)
    {
      s->buf[0] = which == 0 ? ID_STDOUT : ID_STDERR;
      s->buf[1] = n & 0xff;
      s->buf[2] = (n >> 8) & 0xff;
      s->buf[3] = (n >> 16) & 0xff;
      s->buf[4] = (n >> 24) & 0xff;
    }
  adbscope_sim_stream_send (s->stream, s->buf, header + (gsize) n);
  /* Nothing more until the host's OKAY. */
  session_disarm_outputs (s);
  return G_SOURCE_REMOVE;
}

static void
session_arm_outputs (ShellSession *s)
{
  if (s->stream == NULL || !s->stream->can_send)
    return;
  for (int i = 0; i < 2; i++)
    if (s->out_fd[i] >= 0 && s->out_watch[i] == 0)
      s->out_watch[i] = g_unix_fd_add (s->out_fd[i], G_IO_IN | G_IO_HUP | G_IO_ERR,
                                       on_output, s);
}

static void
session_maybe_finish (ShellSession *s)
{
  if (s->stream == NULL || s->out_fd[0] >= 0 || s->out_fd[1] >= 0)
    return;

  if (s->mode == MODE_V2 && s->pid != 0)
    {
      guint8 packet[6];

      /* The exit code only after the child is reaped, like adbd. */
      if (!s->reaped || !s->stream->can_send)
        return;
      packet[0] = ID_EXIT;
      packet[1] = 1;
      packet[2] = packet[3] = packet[4] = 0;
      packet[5] = (guint8) s->exit_code;
      adbscope_sim_stream_send (s->stream, packet, sizeof packet);
      s->exit_sent = TRUE;
    }
  adbscope_sim_stream_close (s->stream);
}

static gboolean
on_input_writable (int          fd,
                   GIOCondition condition,
                   gpointer     user_data);

/* Write what the host sent; OKAY it only once the child took all of it. */
static void
session_drain_input (ShellSession *s)
{
  while (s->pending_in->len > 0 && s->in_fd >= 0)
    {
      ssize_t n;

      if (s->pty)
        n = write (s->in_fd, s->pending_in->data, s->pending_in->len);
      else
        n = send (s->in_fd, s->pending_in->data, s->pending_in->len, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          if (s->in_watch == 0)
            s->in_watch = g_unix_fd_add (s->in_fd, G_IO_OUT | G_IO_ERR | G_IO_HUP,
                                         on_input_writable, s);
          return;
        }
      if (n < 0)
        {
          /* The child stopped reading for good: drop the bytes. */
          g_byte_array_set_size (s->pending_in, 0);
          break;
        }
      g_byte_array_remove_range (s->pending_in, 0, (guint) n);
    }
  if (s->in_fd < 0)
    g_byte_array_set_size (s->pending_in, 0);

  if (s->close_stdin && s->in_fd >= 0)
    {
      if (s->pty)
        {
          /* No half-close on a terminal: send EOF the way a user would. */
          char eot = 4;

          if (write (s->in_fd, &eot, 1) < 0)
            g_debug ("sim: EOF to pty: %s", g_strerror (errno));
        }
      else if (s->in_fd == s->out_fd[0] || s->in_fd == s->out_fd[1])
        shutdown (s->in_fd, SHUT_WR);
      else
        session_close_in (s);
      s->close_stdin = FALSE;
    }

  if (s->ack_owed && s->stream != NULL)
    {
      s->ack_owed = FALSE;
      adbscope_sim_stream_ack (s->stream);
    }
}

static gboolean
on_input_writable (int          fd,
                   GIOCondition condition,
                   gpointer     user_data)
{
  ShellSession *s = user_data;

  s->in_watch = 0;
  session_drain_input (s);
  return G_SOURCE_REMOVE;
}

static void
set_window_size (ShellSession *s,
                 const char   *spec)
{
  struct winsize ws = { 0 };
  unsigned rows, cols, x, y;

  if (!s->pty || s->in_fd < 0)
    return;
  if (sscanf (spec, "%ux%u,%ux%u", &rows, &cols, &x, &y) != 4)
    return;
  ws.ws_row = (unsigned short) rows;
  ws.ws_col = (unsigned short) cols;
  ws.ws_xpixel = (unsigned short) x;
  ws.ws_ypixel = (unsigned short) y;
  ioctl (s->in_fd, TIOCSWINSZ, &ws);
}

static void
stream_data (AdbscopeSimStream *stream,
             const guint8      *data,
             gsize              len)
{
  ShellSession *s = stream->service;

  s->ack_owed = TRUE;
  if (s->mode == MODE_RAW)
    g_byte_array_append (s->pending_in, data, (guint) len);
  else
    {
      gsize pos = 0;

      /* Shell packets straddle WRTE boundaries: re-assemble. */
      g_byte_array_append (s->v2_in, data, (guint) len);
      for (;;)
        {
          const guint8 *payload;
          guint32 plen;
          guint8 id;
          gssize used = adbscope_sim_wire_parse_shell (s->v2_in->data + pos, s->v2_in->len - pos,
                                                       &id, &payload, &plen);

          if (used <= 0)
            break;
          switch (id)
            {
            case ID_STDIN:
              g_byte_array_append (s->pending_in, payload, plen);
              break;
            case ID_CLOSE_STDIN:
              s->close_stdin = TRUE;
              break;
            case ID_WINDOW_SIZE:
              {
                g_autofree char *spec = g_strndup ((const char *) payload, plen);

                set_window_size (s, spec);
              }
              break;
            default:
              break;
            }
          pos += (gsize) used;
        }
      g_byte_array_remove_range (s->v2_in, 0, (guint) pos);
    }
  session_drain_input (s);
}

static void
stream_ready (AdbscopeSimStream *stream)
{
  ShellSession *s = stream->service;

  session_arm_outputs (s);
  if (s->out_fd[0] < 0 && s->out_fd[1] < 0)
    session_maybe_finish (s);
}

static gboolean
on_kill_timeout (gpointer user_data)
{
  ShellSession *s = user_data;

  s->kill_timeout = 0;
  if (s->pid > 0 && kill (-s->pid, 0) == 0)
    kill (-s->pid, SIGKILL);
  session_free_if_done (s);
  return G_SOURCE_REMOVE;
}

static void
session_free_if_done (ShellSession *s)
{
  if (s->stream != NULL || s->kill_timeout != 0 || (s->pid > 0 && !s->reaped))
    return;
  if (s->pid > 0)
    g_hash_table_remove (s->device->sessions, GINT_TO_POINTER (s->pid));
  g_byte_array_unref (s->pending_in);
  g_byte_array_unref (s->v2_in);
  g_free (s->buf);
  g_free (s);
}

static void
stream_closed (AdbscopeSimStream *stream,
               gboolean           by_host)
{
  ShellSession *s = stream->service;

  s->stream = NULL;
  session_disarm_outputs (s);
  session_close_out (s, 0);
  session_close_out (s, 1);
  session_close_in (s);

  if (s->pid > 0 && !s->reaped)
    {
      /* As adbd: hang up the child; then make sure. */
      kill (-s->pid, SIGHUP);
      s->kill_timeout = g_timeout_add (2000, on_kill_timeout, s);
    }
  session_free_if_done (s);
}

static const AdbscopeSimStreamClass session_class = {
  .data = stream_data,
  .ready = stream_ready,
  .closed = stream_closed,
};

static void
on_child_exit (GPid     pid,
               int      status,
               gpointer user_data)
{
  ShellSession *s = user_data;

  s->child_watch = 0;
  s->reaped = TRUE;
  if (WIFEXITED (status))
    s->exit_code = WEXITSTATUS (status);
  else if (WIFSIGNALED (status))
    s->exit_code = 128 + WTERMSIG (status);
  else
    s->exit_code = 1;
  g_spawn_close_pid (pid);
  if (s->stream != NULL)
    session_maybe_finish (s);
  else
    session_free_if_done (s);
}

/* async-signal-safe: writes "N N 1" to a /proc/self map file. */
static gboolean
write_id_map (const char *path,
              unsigned    id)
{
  char buf[32], num[12];
  int n = 0, len = 0, fd;
  gboolean ok;

  do
    num[n++] = (char) ('0' + id % 10);
  while ((id /= 10) > 0 && n < (int) sizeof num);
  for (int round = 0; round < 2; round++)
    {
      for (int i = n - 1; i >= 0; i--)
        buf[len++] = num[i];
      buf[len++] = ' ';
    }
  buf[len++] = '1';
  fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  ok = write (fd, buf, (size_t) len) == len;
  close (fd);
  return ok;
}

/* The profile's view of /proc/pressure, cpufreq and the power supplies:
 * bind mounts in a private mount namespace, so nothing outside changes.
 * Without CAP_SYS_ADMIN the namespace comes with a user namespace of our
 * own uid; in a chroot, where "/" is no mount point, just /proc and /sys
 * are made private.  Async-signal-safe; FALSE when a step failed. */
gboolean
adbscope_sim_enter_profile_namespace (AdbscopeSimDevice *device)
{
  if (unshare (CLONE_NEWNS) != 0)
    {
      unsigned uid = (unsigned) geteuid (), gid = (unsigned) getegid ();
      int fd;

      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return FALSE;
      fd = open ("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
      if (fd >= 0)
        {
          (void) !write (fd, "deny", 4);
          close (fd);
        }
      if (!write_id_map ("/proc/self/uid_map", uid) || !write_id_map ("/proc/self/gid_map", gid))
        return FALSE;
    }
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 &&
      (mount (NULL, "/proc", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
       mount (NULL, "/sys", NULL, MS_REC | MS_PRIVATE, NULL) != 0))
    return FALSE;
  /* A replay: the capture's trees instead of /proc and /sys (the real
   * /proc stays reachable for /proc/self). */
  if (device->replay_proc_dir != NULL)
    return mount ("/proc", device->replay_hostproc_dir, NULL, MS_BIND | MS_REC, NULL) == 0 &&
           mount (device->replay_proc_dir, "/proc", NULL, MS_BIND, NULL) == 0 &&
           mount (device->replay_sys_dir, "/sys", NULL, MS_BIND, NULL) == 0;
  if (device->ns_empty_dir != NULL &&
      mount (device->ns_empty_dir, "/proc/pressure", NULL, MS_BIND, NULL) != 0)
    return FALSE;
  if (device->ns_cpu_dir != NULL &&
      mount (device->ns_cpu_dir, "/sys/devices/system/cpu", NULL, MS_BIND | MS_REC, NULL) != 0)
    return FALSE;
  /* The GPU nodes over the real classes (read-only overlay); where the
   * kernel refuses it, the profile just shows no GPU. */
  if (device->ns_class_opts != NULL)
    (void) mount ("overlay", "/sys/class", "overlay", MS_RDONLY, device->ns_class_opts);
  if (device->ns_power_dir != NULL &&
      mount (device->ns_power_dir, "/sys/class/power_supply", NULL, MS_BIND | MS_REC, NULL) != 0)
    return FALSE;
  return TRUE;
}

/* Runs in the child between fork and exec: only async-signal-safe calls. */
void
adbscope_sim_child_setup (gpointer user_data)
{
  AdbscopeSimDevice *device = user_data;

  setsid ();
  /* Die with the simulated device, like an app dies with its phone. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (isatty (0))
    ioctl (0, TIOCSCTTY, 0);
  if (device == NULL || !device->use_namespace)
    return;
  /* The sandbox checked at start that this works; a child that cannot
   * see the profile must not run as if it did. */
  if (!adbscope_sim_enter_profile_namespace (device))
    _exit (127);
}

static ShellSession *
session_new (AdbscopeSimStream *stream,
             SessionMode        mode)
{
  ShellSession *s = g_new0 (ShellSession, 1);

  s->stream = stream;
  s->mode = mode;
  s->in_fd = s->out_fd[0] = s->out_fd[1] = -1;
  s->pending_in = g_byte_array_new ();
  s->v2_in = g_byte_array_new ();
  s->buf = g_malloc (ADB_MAX_PAYLOAD + 8);
  return s;
}

static AdbscopeSimDevice *
stream_device (AdbscopeSimStream *stream)
{
  return adbscope_sim_connection_get_device (stream->connection);
}

/* Parses "shell[,ARG…]:CMD" / "exec:CMD" and starts /bin/sh. */
gboolean
adbscope_sim_shell_open (AdbscopeSimStream *stream,
                         const char        *service)
{
  AdbscopeSimDevice *device = stream_device (stream);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) env = NULL;
  const char *colon = strchr (service, ':');
  const char *command;
  g_autofree char *head = NULL;
  gboolean v2 = FALSE, exec = FALSE, want_pty = FALSE, want_raw = FALSE, pty;
  int child_fds[3] = { -1, -1, -1 };
  int parent_fds[3] = { -1, -1, -1 };
  /* A replay runs bash: its command_not_found_handle answers as a phone. */
  const char *shell = device->replay != NULL ? "/bin/bash" : "/bin/sh";
  const char *argv_cmd[] = { shell, "-c", NULL, NULL };
  const char *argv_login[] = { shell, "-", NULL };
  ShellSession *s;
  GPid pid;

  if (colon == NULL)
    return FALSE;
  head = g_strndup (service, colon - service);
  command = colon + 1;
  args = g_strsplit (head, ",", -1);
  env = g_strdupv (device->child_env);

  if (g_str_equal (args[0], "exec"))
    exec = TRUE;
  else if (!g_str_equal (args[0], "shell"))
    return FALSE;
  for (guint i = 1; args[i] != NULL; i++)
    {
      if (g_str_equal (args[i], "v2"))
        v2 = TRUE;
      else if (g_str_equal (args[i], "raw"))
        want_raw = TRUE;
      else if (g_str_equal (args[i], "pty"))
        want_pty = TRUE;
      else if (g_str_has_prefix (args[i], "TERM="))
        env = g_environ_setenv (env, "TERM", args[i] + 5, TRUE);
    }
  if (v2 && !device->shell_v2)
    return FALSE;
  /* adbd's default: a PTY for an interactive shell, raw for a command. */
  pty = !exec && (want_pty || (!want_raw && *command == '\0'));

  if (pty)
    {
      int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
      const char *name;

      if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0 ||
          (name = ptsname (master)) == NULL)
        {
          if (master >= 0)
            close (master);
          return FALSE;
        }
      child_fds[0] = open (name, O_RDWR | O_NOCTTY | O_CLOEXEC);
      if (child_fds[0] < 0)
        {
          close (master);
          return FALSE;
        }
      child_fds[1] = child_fds[2] = child_fds[0];
      parent_fds[0] = master;
    }
  else
    {
      int sv[2];

      if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return FALSE;
      parent_fds[0] = sv[0];
      child_fds[0] = child_fds[1] = sv[1];
      child_fds[2] = sv[1];
      if (v2)
        {
          int p[2];

          if (pipe2 (p, O_CLOEXEC) != 0)
            {
              close (sv[0]);
              close (sv[1]);
              return FALSE;
            }
          parent_fds[2] = p[0];
          child_fds[2] = p[1];
        }
    }

  argv_cmd[2] = command;
  if (!g_spawn_async_with_pipes_and_fds (device->fs_root,
                                         *command != '\0' ? argv_cmd : argv_login,
                                         (const char * const *) env,
                                         G_SPAWN_DO_NOT_REAP_CHILD,
                                         adbscope_sim_child_setup, device,
                                         child_fds[0], child_fds[1], child_fds[2],
                                         NULL, NULL, 0,
                                         &pid, NULL, NULL, NULL, &error))
    {
      g_warning ("sim: cannot start the shell: %s", error->message);
      for (int i = 0; i < 3; i++)
        if (parent_fds[i] >= 0)
          close (parent_fds[i]);
      close (child_fds[0]);
      if (child_fds[2] != child_fds[0])
        close (child_fds[2]);
      return FALSE;
    }
  close (child_fds[0]);
  if (child_fds[2] != child_fds[0])
    close (child_fds[2]);

  s = session_new (stream, v2 ? MODE_V2 : MODE_RAW);
  s->device = device;
  s->pty = pty;
  s->pid = pid;
  s->in_fd = parent_fds[0];
  s->out_fd[0] = parent_fds[0];
  s->out_fd[1] = parent_fds[2];
  set_nonblock (s->out_fd[0]);
  if (s->out_fd[1] >= 0)
    set_nonblock (s->out_fd[1]);
  s->child_watch = g_child_watch_add (pid, on_child_exit, s);
  g_hash_table_insert (device->sessions, GINT_TO_POINTER (pid), s);

  stream->klass = &session_class;
  stream->service = s;
  return TRUE;
}

static int
connect_abstract (const char *name)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  gsize len = strlen (name);
  int fd;

  if (len + 1 > sizeof addr.sun_path)
    return -1;
  memcpy (addr.sun_path + 1, name, len);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (connect (fd, (struct sockaddr *) &addr, offsetof (struct sockaddr_un, sun_path) + 1 + len) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static int
connect_tcp (const char *port_str)
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  guint64 port;
  int fd;

  if (!g_ascii_string_to_unsigned (port_str, 10, 1, 65535, &port, NULL))
    return -1;
  addr.sin_port = htons ((guint16) port);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* localabstract:NAME reaches the Linux abstract socket NAME, as on a phone;
 * tcp:PORT reaches 127.0.0.1:PORT. */
gboolean
adbscope_sim_forward_open (AdbscopeSimStream *stream,
                           const char        *service)
{
  ShellSession *s;
  int fd;

  if (g_str_has_prefix (service, "localabstract:"))
    fd = connect_abstract (service + strlen ("localabstract:"));
  else
    fd = connect_tcp (service + strlen ("tcp:"));
  if (fd < 0)
    return FALSE;
  set_nonblock (fd);
  s = session_new (stream, MODE_RAW);
  s->device = stream_device (stream);
  s->in_fd = s->out_fd[0] = fd;
  stream->klass = &session_class;
  stream->service = s;
  return TRUE;
}

/* Shutdown: kill every child's process group now. */
void
adbscope_sim_shell_kill_all (AdbscopeSimDevice *device)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, device->sessions);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    kill (-GPOINTER_TO_INT (key), SIGKILL);
}
