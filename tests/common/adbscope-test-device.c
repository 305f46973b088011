/* adbscope-test-device.c: see adbscope-test-device.h */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "adbscope-error.h"
#include "adbscope-test-device.h"

struct _AdbscopeTestDevice
{
  char       *profile;
  GStrv       extra_args;
  GPid        pid;
  int         stdin_fd;
  int         stdout_fd;
  char       *serial;
  int         port;
  char       *sandbox;
  GHashTable *app_pids;   /* package → pid */
  gboolean    connect;
  gboolean    unauthorized;
};

/* One private adb server per test process, shared by its devices. */
static struct
{
  int   refs;
  GPid  pid;
  int   port;
  char *home;
} server;

gboolean
adbscope_test_device_skip_if_unsupported (const GError *error)
{
  if (!g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED))
    return FALSE;
  g_test_skip (error->message);
  return TRUE;
}

const char *
adbscope_test_adb_path (void)
{
  const char *adb = g_getenv ("ADB");

  return adb != NULL && *adb != '\0' ? adb : "adb";
}

static void
remove_tree (const char *path);

static int
remove_entry (const char        *path,
              const struct stat *st,
              int                flag,
              struct FTW        *ftw)
{
  remove (path);
  return 0;
}

static void
remove_tree (const char *path)
{
  nftw (path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static void
server_child_setup (gpointer user_data)
{
  setsid ();
  prctl (PR_SET_PDEATHSIG, GPOINTER_TO_INT (user_data));
}

static int
free_port (void)
{
  for (int attempt = 0; attempt < 50; attempt++)
    {
      struct sockaddr_in addr = { .sin_family = AF_INET };
      socklen_t len = sizeof addr;
      int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      int port;

      addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
      if (fd < 0)
        return -1;
      if (bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
          getsockname (fd, (struct sockaddr *) &addr, &len) != 0)
        {
          close (fd);
          return -1;
        }
      close (fd);
      port = ntohs (addr.sin_port);
      if (port != 5037 && (port < 5555 || port > 5585))
        return port;
    }
  return -1;
}

static gboolean
port_accepts (int port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gboolean ok;

  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  addr.sin_port = htons ((guint16) port);
  ok = connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  close (fd);
  return ok;
}

/* Waits for pid to exit for up to timeout_ms; TRUE if it did (and is reaped). */
static gboolean
wait_exit (GPid pid,
           int  timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  do
    {
      pid_t r = waitpid (pid, NULL, WNOHANG);

      if (r == pid || (r < 0 && errno == ECHILD))
        return TRUE;
      g_usleep (10 * 1000);
    }
  while (g_get_monotonic_time () < end);
  return FALSE;
}

static gboolean
server_ref (GError **error)
{
  g_autofree char *port_str = NULL;
  g_autofree char *log_path = NULL;
  const char *argv[6];
  int log_fd;
  gint64 end;

  if (server.refs++ > 0)
    return TRUE;

  server.port = free_port ();
  /* Under the build dir when there is one: a test that aborts cannot
   * clean up, and a leftover there is harmless. */
  if (g_getenv ("G_TEST_BUILDDIR") != NULL)
    {
      g_autofree char *tmpl = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "adbscope-test-home-XXXXXX", NULL);

      server.home = g_mkdtemp (g_steal_pointer (&tmpl));
      if (server.home == NULL)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "mkdtemp: %s", g_strerror (errno));
    }
  else
    server.home = g_dir_make_tmp ("adbscope-test-home-XXXXXX", error);
  if (server.port < 0 || server.home == NULL)
    {
      server.refs = 0;
      if (server.port < 0)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE, "no free port");
      return FALSE;
    }
  port_str = g_strdup_printf ("%d", server.port);
  g_setenv ("ANDROID_ADB_SERVER_PORT", port_str, TRUE);
  g_setenv ("HOME", server.home, TRUE);
  g_setenv ("ADB_MDNS", "0", TRUE);
  g_setenv ("ADB_EMU", "0", TRUE);
  g_unsetenv ("ADB_SERVER_SOCKET");

  /* In the foreground so its pid is ours to track and kill. */
  argv[0] = adbscope_test_adb_path ();
  argv[1] = "-P";
  argv[2] = port_str;
  argv[3] = "nodaemon";
  argv[4] = "server";
  argv[5] = NULL;
  log_path = g_build_filename (server.home, "adb-server.log", NULL);
  log_fd = open (log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (!g_spawn_async_with_pipes_and_fds (server.home, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                         server_child_setup, GINT_TO_POINTER (SIGKILL),
                                         -1, log_fd, log_fd, NULL, NULL, 0,
                                         &server.pid, NULL, NULL, NULL, error))
    {
      close (log_fd);
      remove_tree (server.home);
      g_clear_pointer (&server.home, g_free);
      server.refs = 0;
      return FALSE;
    }
  close (log_fd);

  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!port_accepts (server.port))
    {
      if (g_get_monotonic_time () > end || waitpid (server.pid, NULL, WNOHANG) == server.pid)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                       "the private adb server did not start (see %s)", log_path);
          kill (server.pid, SIGKILL);
          wait_exit (server.pid, 1000);
          server.refs = 0;
          return FALSE;
        }
      g_usleep (10 * 1000);
    }
  /* Every adb client from now on (the sim's adb connect/disconnect, record,
   * the tests' own) reaches this server by a "remote" socket spec, so none
   * can ever start a daemon of its own when ours is gone: a test that
   * fails or is killed leaves no adb server behind. */
  {
    g_autofree char *spec = g_strdup_printf ("tcp:127.0.0.1:%d", server.port);
    g_setenv ("ADB_SERVER_SOCKET", spec, TRUE);
  }
  return TRUE;
}

static void
server_unref (void)
{
  const char *argv[] = { adbscope_test_adb_path (), "kill-server", NULL };

  if (server.refs == 0 || --server.refs > 0)
    return;
  g_spawn_sync (NULL, (char **) argv, NULL,
                G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, NULL, NULL);
  if (!wait_exit (server.pid, 3000))
    {
      kill (server.pid, SIGKILL);
      wait_exit (server.pid, 3000);
    }
  server.pid = 0;
  remove_tree (server.home);
  g_clear_pointer (&server.home, g_free);
}

/* The state file of a running record in RUNTIME's adbscope/runs/ (the
 * first by name), or NULL when there is none. */
char *
adbscope_test_find_record_state (const char *runtime)
{
  g_autofree char *dir_path = g_build_filename (runtime, "adbscope", "runs", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autofree char *first = NULL;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json") && (first == NULL || strcmp (name, first) < 0))
      {
        g_free (first);
        first = g_strdup (name);
      }
  return first != NULL ? g_build_filename (dir_path, first, NULL) : NULL;
}

GArray *
adbscope_test_list_descendants (GPid pid)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (GPid));
  g_autoptr(GHashTable) parent_of = g_hash_table_new (NULL, NULL);
  GDir *dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  gboolean grew = TRUE;

  if (dir == NULL)
    return result;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat = NULL;
      const char *close_paren;
      int ppid;

      if (!g_ascii_isdigit (name[0]))
        continue;
      path = g_strdup_printf ("/proc/%s/stat", name);
      if (!g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      close_paren = strrchr (stat, ')');
      if (close_paren == NULL || sscanf (close_paren + 2, "%*c %d", &ppid) != 1)
        continue;
      g_hash_table_insert (parent_of, GINT_TO_POINTER (atoi (name)), GINT_TO_POINTER (ppid));
    }
  g_dir_close (dir);

  /* Fixed point: add every process whose parent is in the set. */
  while (grew)
    {
      GHashTableIter iter;
      gpointer k, v;

      grew = FALSE;
      g_hash_table_iter_init (&iter, parent_of);
      while (g_hash_table_iter_next (&iter, &k, &v))
        {
          GPid child = GPOINTER_TO_INT (k);
          GPid parent = GPOINTER_TO_INT (v);
          gboolean parent_in = parent == pid;
          gboolean child_in = FALSE;

          for (guint i = 0; i < result->len; i++)
            {
              GPid p = g_array_index (result, GPid, i);

              parent_in |= p == parent;
              child_in |= p == child;
            }
          if (parent_in && !child_in)
            {
              g_array_append_val (result, child);
              grew = TRUE;
            }
        }
    }
  return result;
}

static gboolean
read_line (int      fd,
           int      timeout_ms,
           char   **line,
           GError **error)
{
  g_autoptr(GString) buf = g_string_new (NULL);
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      gint64 left = (end - g_get_monotonic_time ()) / 1000;
      char c;
      ssize_t n;

      if (left <= 0)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                       "adbscope sim printed no ready line in %d ms", timeout_ms);
          return FALSE;
        }
      if (poll (&pfd, 1, (int) left) <= 0)
        continue;
      n = read (fd, &c, 1);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                       "adbscope sim exited before its ready line: %s", buf->str);
          return FALSE;
        }
      if (c == '\n')
        break;
      g_string_append_c (buf, c);
    }
  *line = g_string_free (g_steal_pointer (&buf), FALSE);
  return TRUE;
}

static char *
run_adb (const char * const  *args,
         int                 *exit_status,
         char               **stderr_out)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) adbscope_test_adb_path ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, stderr_out, &status, &error))
    {
      if (exit_status != NULL)
        *exit_status = -1;
      if (stderr_out != NULL)
        *stderr_out = g_strdup (error->message);
      return g_strdup ("");
    }
  if (exit_status != NULL)
    *exit_status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  return out;
}

/* adb devices shows the serial in the wanted state. */
static gboolean
wait_for_state (AdbscopeTestDevice *dev,
                const char         *state,
                GError            **error)
{
  static const char * const args[] = { "devices", NULL };
  g_autofree char *want = g_strdup_printf ("%s\t%s", dev->serial, state);
  gint64 end = g_get_monotonic_time () + 15 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end)
    {
      g_autofree char *out = run_adb (args, NULL, NULL);
      g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_equal (g_strstrip (lines[i]), want))
          return TRUE;
      g_usleep (50 * 1000);
    }
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
               "adb devices did not show %s as %s", dev->serial, state);
  return FALSE;
}

static gboolean
spawn_sim (AdbscopeTestDevice *dev,
           int                 port,
           gboolean            reconnect,
           GError            **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *line = NULL;
  const char *bin = g_getenv ("ADBSCOPE_BIN");
  JsonObject *root, *apps;
  GList *members;

  if (bin == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED, "ADBSCOPE_BIN is not set");
      return FALSE;
    }
  g_ptr_array_add (argv, g_strdup (bin));
  g_ptr_array_add (argv, g_strdup ("sim"));
  g_ptr_array_add (argv, g_strdup ("--profile"));
  g_ptr_array_add (argv, g_strdup (dev->profile));
  if (port > 0)
    {
      g_ptr_array_add (argv, g_strdup ("--port"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", port));
    }
  for (guint i = 0; dev->extra_args != NULL && dev->extra_args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (dev->extra_args[i]));
  if (reconnect && dev->connect)
    g_ptr_array_add (argv, g_strdup ("--no-connect"));
  g_ptr_array_add (argv, NULL);

  /* SIGTERM when the test dies: the sim then cleans up after itself. */
  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char * const *) argv->pdata, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD,
                                         server_child_setup, GINT_TO_POINTER (SIGTERM),
                                         -1, -1, -1, NULL, NULL, 0,
                                         &dev->pid, &dev->stdin_fd, &dev->stdout_fd, NULL, error))
    return FALSE;

  if (!read_line (dev->stdout_fd, 30000, &line, error))
    return FALSE;
  if (!json_parser_load_from_data (parser, line, -1, error))
    return FALSE;
  root = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (root, "error"))
    {
      JsonObject *e = json_object_get_object_member (root, "error");

      /* not_supported: this system cannot show the profile as it is. */
      g_set_error (error, ADBSCOPE_ERROR,
                   g_strcmp0 (json_object_get_string_member (e, "code"), "not_supported") == 0 ?
                   ADBSCOPE_ERROR_NOT_SUPPORTED : ADBSCOPE_ERROR_FAILED,
                   "adbscope sim: %s", json_object_get_string_member (e, "message"));
      return FALSE;
    }
  g_free (dev->serial);
  g_free (dev->sandbox);
  dev->serial = g_strdup (json_object_get_string_member (root, "serial"));
  dev->port = (int) json_object_get_int_member (root, "port");
  dev->sandbox = g_strdup (json_object_get_string_member (root, "sandbox"));
  g_hash_table_remove_all (dev->app_pids);
  apps = json_object_get_object_member (root, "app_pids");
  members = json_object_get_members (apps);
  for (GList *l = members; l != NULL; l = l->next)
    g_hash_table_insert (dev->app_pids, g_strdup (l->data),
                         GINT_TO_POINTER ((int) json_object_get_int_member (apps, l->data)));
  g_list_free (members);

  if (reconnect && dev->connect)
    {
      /* adb would retry the old transport only every 10 s: drop it and
       * connect again back to back, now that the device listens, so the
       * serial is "not found" for as short a time as possible. */
      const char * const disconnect[] = { "disconnect", dev->serial, NULL };
      const char * const connect[] = { "connect", dev->serial, NULL };
      g_autofree char *out1 = run_adb (disconnect, NULL, NULL);
      g_autofree char *out2 = run_adb (connect, NULL, NULL);
    }
  if (dev->connect)
    return wait_for_state (dev, dev->unauthorized ? "unauthorized" : "device", error);
  return TRUE;
}

static void
sim_reap (AdbscopeTestDevice *dev,
          gboolean            graceful)
{
  g_autoptr(GArray) descendants = NULL;

  if (dev->pid <= 0)
    return;
  descendants = adbscope_test_list_descendants (dev->pid);
  if (graceful)
    {
      kill (dev->pid, SIGTERM);
      if (!wait_exit (dev->pid, 5000))
        graceful = FALSE;
    }
  if (!graceful)
    {
      kill (dev->pid, SIGKILL);
      wait_exit (dev->pid, 5000);
    }
  /* Whatever the sim left (grandchildren of a shell, after a SIGKILL). */
  for (guint i = 0; i < descendants->len; i++)
    kill (g_array_index (descendants, GPid, i), SIGKILL);
  if (dev->stdin_fd >= 0)
    close (dev->stdin_fd);
  if (dev->stdout_fd >= 0)
    close (dev->stdout_fd);
  dev->stdin_fd = dev->stdout_fd = -1;
  dev->pid = 0;
  /* A killed sim cannot remove its sandbox. */
  if (dev->sandbox != NULL && g_str_has_prefix (dev->sandbox, g_get_tmp_dir ()) &&
      strstr (dev->sandbox, "/adbscope-sim-") != NULL && g_file_test (dev->sandbox, G_FILE_TEST_IS_DIR))
    remove_tree (dev->sandbox);
}

AdbscopeTestDevice *
adbscope_test_device_start (const char          *profile,
                            const char * const  *extra_args,
                            GError             **error)
{
  AdbscopeTestDevice *dev;

  /* Control lines go to the sim's stdin: a sim that died (the tests kill
   * it) must give EPIPE, not kill the test. */
  signal (SIGPIPE, SIG_IGN);
  if (!server_ref (error))
    return NULL;
  dev = g_new0 (AdbscopeTestDevice, 1);
  dev->profile = g_strdup (profile != NULL ? profile : "pixel-14");
  dev->extra_args = g_strdupv ((char **) extra_args);
  dev->stdin_fd = dev->stdout_fd = -1;
  dev->app_pids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dev->connect = !(extra_args != NULL && g_strv_contains (extra_args, "--no-connect"));
  dev->unauthorized = extra_args != NULL && g_strv_contains (extra_args, "--unauthorized");
  if (!spawn_sim (dev, 0, FALSE, error))
    {
      adbscope_test_device_free (dev);
      return NULL;
    }
  return dev;
}

const char *
adbscope_test_device_get_serial (AdbscopeTestDevice *dev)
{
  return dev->serial;
}

int
adbscope_test_device_get_port (AdbscopeTestDevice *dev)
{
  return dev->port;
}

GPid
adbscope_test_device_get_app_pid (AdbscopeTestDevice *dev,
                                  const char         *package)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (dev->app_pids, package));
}

GPid
adbscope_test_device_get_pid (AdbscopeTestDevice *dev)
{
  return dev->pid;
}

const char *
adbscope_test_device_get_sandbox (AdbscopeTestDevice *dev)
{
  return dev->sandbox;
}

void
adbscope_test_device_control (AdbscopeTestDevice *dev,
                              const char         *line)
{
  g_autofree char *text = g_strconcat (line, "\n", NULL);
  gsize len = strlen (text);
  gsize done = 0;

  while (dev->stdin_fd >= 0 && done < len)
    {
      ssize_t n = write (dev->stdin_fd, text + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (gsize) n;
    }
}

/* control.sock answers on the same connection (stdin does not). */
char *
adbscope_test_device_query (AdbscopeTestDevice *dev,
                            const char         *line)
{
  g_autofree char *path = g_build_filename (dev->sandbox, "control.sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  GString *reply = g_string_new (NULL);
  char buf[4096];
  ssize_t n;
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (write (fd, line, strlen (line)), ==, (gssize) strlen (line));
  g_assert_cmpint (write (fd, "\n", 1), ==, 1);
  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (reply, buf, n);
  close (fd);
  return g_strstrip (g_string_free (reply, FALSE));
}

void
adbscope_test_device_kill (AdbscopeTestDevice *dev)
{
  sim_reap (dev, FALSE);
}

gboolean
adbscope_test_device_restart (AdbscopeTestDevice *dev,
                              GError            **error)
{
  sim_reap (dev, FALSE);
  return spawn_sim (dev, dev->port, TRUE, error);
}

char *
adbscope_test_device_adbv (AdbscopeTestDevice  *dev,
                           const char * const  *args,
                           int                 *exit_status,
                           char               **stderr_out)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) "-s");
  g_ptr_array_add (argv, dev->serial);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  return run_adb ((const char * const *) argv->pdata, exit_status, stderr_out);
}

char *
adbscope_test_device_adb (AdbscopeTestDevice *dev,
                          int                *exit_status,
                          const char         *first_arg,
                          ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first_arg);
  for (const char *a = first_arg; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return adbscope_test_device_adbv (dev, (const char * const *) args->pdata, exit_status, NULL);
}

void
adbscope_test_device_free (AdbscopeTestDevice *dev)
{
  if (dev == NULL)
    return;
  sim_reap (dev, TRUE);
  g_free (dev->profile);
  g_strfreev (dev->extra_args);
  g_free (dev->serial);
  g_free (dev->sandbox);
  g_hash_table_unref (dev->app_pids);
  g_free (dev);
  server_unref ();
}
