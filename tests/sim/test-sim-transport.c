/* test-sim-transport.c: the unmodified adb talks to `adbscope sim`
 *
 * Real adb, private adb server (tests/common).  One shared device for the
 * plain cases; the modes (unauthorized, legacy shell, old protocol) start
 * their own.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"

static AdbscopeTestDevice *shared;

static AdbscopeTestDevice *
get_shared (void)
{
  g_autoptr(GError) error = NULL;

  if (shared == NULL)
    {
      shared = adbscope_test_device_start ("pixel-14", NULL, &error);
      g_assert_no_error (error);
    }
  return shared;
}

static void
test_devices_lists_model (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  const char *argv[] = { adbscope_test_adb_path (), "devices", "-l", NULL };
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;
  int status;

  /* Not through -s: `adb devices -l` is a host command. */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, NULL));
  /* adb pads the serial to 22 columns, then the state */
  expect = g_strdup_printf ("%-22s device ", adbscope_test_device_get_serial (dev));
  g_assert_nonnull (strstr (out, expect));
  g_assert_nonnull (strstr (out, "model:Pixel_8"));
  g_assert_nonnull (strstr (out, "product:shiba"));
}

static void
test_shell_v2_exit_and_stderr (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  const char * const args[] = { "shell", "echo out; echo err >&2; exit 3", NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status;

  out = adbscope_test_device_adbv (dev, args, &status, &err);
  g_assert_cmpstr (out, ==, "out\n");
  g_assert_cmpstr (err, ==, "err\n");
  g_assert_cmpint (status, ==, 3);

  g_free (out);
  out = adbscope_test_device_adb (dev, &status, "shell", "kill -9 $$", NULL);
  g_assert_cmpint (status, ==, 137);
  g_free (out);
  out = adbscope_test_device_adb (dev, &status, "shell", "exit 256", NULL);
  g_assert_cmpint (status, ==, 0);
}

static char *
run_with_stdin (AdbscopeTestDevice *dev,
                const char         *input,
                int                *status,
                const char         *first_arg,
                ...) G_GNUC_NULL_TERMINATED;

/* adb with piped stdin (the persistent-shell case). */
static char *
run_with_stdin (AdbscopeTestDevice *dev,
                const char         *input,
                int                *status,
                const char         *first_arg,
                ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) in = g_bytes_new (input, strlen (input));
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  va_list ap;

  g_ptr_array_add (argv, (char *) adbscope_test_adb_path ());
  g_ptr_array_add (argv, (char *) "-s");
  g_ptr_array_add (argv, (char *) adbscope_test_device_get_serial (dev));
  va_start (ap, first_arg);
  for (const char *a = first_arg; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, in, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (proc);
  return g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
}

static void
test_shell_v2_stdin (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;
  int status;

  /* close-stdin (id 4) reaches cat as EOF */
  out = run_with_stdin (dev, "hello\n", &status, "shell", "cat", NULL);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_cmpint (status, ==, 0);

  /* interactive shell with piped commands */
  out2 = run_with_stdin (dev, "echo a\nexit 7\n", &status, "shell", NULL);
  g_assert_cmpstr (out2, ==, "a\n");
  g_assert_cmpint (status, ==, 7);
}

static void
test_shell_large_output (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *out = NULL;
  int status;

  out = adbscope_test_device_adb (dev, &status, "shell", "head -c 3000000 /dev/zero | tr '\\0' x", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (strlen (out), ==, 3000000);
  g_assert_true (out[0] == 'x' && out[2999999] == 'x');
}

static void
test_shell_round_trip (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  int status;

  for (int i = 0; i < 10; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autofree char *out = adbscope_test_device_adb (dev, &status, "shell", "echo hi", NULL);
      double ms = (g_get_monotonic_time () - t0) / 1000.0;

      g_assert_cmpstr (out, ==, "hi\n");
      g_array_append_val (times, ms);
    }
  {
    double sum = 0;

    for (guint i = 0; i < times->len; i++)
      sum += g_array_index (times, double, i);
    g_test_message ("adb shell 'echo hi' (whole adb client run): mean %.1f ms", sum / times->len);
  }
  g_array_unref (times);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Median round trip of commands on one persistent `adb shell`. */
static double
persistent_median_ms (AdbscopeTestDevice *dev,
                      gboolean            one_write,
                      int                 n)
{
  g_autoptr(GSubprocess) shell = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  GOutputStream *in;
  GInputStream *out;

  shell = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                            adbscope_test_adb_path (), "-s", adbscope_test_device_get_serial (dev),
                            "shell", NULL);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (shell);
  out = g_subprocess_get_stdout_pipe (shell);
  for (int i = 0; i < n; i++)
    {
      const char *line = one_write ? "__o=$(cat /proc/stat; echo ___M___); echo \"$__o\"\n"
                                   : "cat /proc/stat; echo ___M___\n";
      g_autoptr(GString) got = g_string_new (NULL);
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      g_assert_true (g_output_stream_write_all (in, line, strlen (line), NULL, NULL, &error));
      while (!g_str_has_suffix (got->str, "___M___\n"))
        {
          char buf[65536];
          gssize r = g_input_stream_read (out, buf, sizeof buf, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpint (r, >, 0);
          g_string_append_len (got, buf, r);
        }
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (times, ms);
    }
  g_output_stream_close (in, NULL, NULL);
  g_subprocess_wait (shell, NULL, NULL);
  g_array_sort (times, compare_double);
  return g_array_index (times, double, n / 2);
}

/* The device forwards each read as it comes, like adbd, so output and
 * marker in two writes hit the adb server's Nagle stall (as real phones
 * do) and one write does not (DESIGN.md, "adb shell sessions"). */
static void
test_persistent_shell_latency (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  double two = persistent_median_ms (dev, FALSE, 12);
  double one = persistent_median_ms (dev, TRUE, 30);

  g_test_message ("persistent shell, median round trip: %.1f ms (two writes), %.1f ms (one write)", two, one);
  g_assert_cmpfloat (one, <, two / 2);
}

static void
test_cwd_is_sandbox (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *out = NULL;
  g_autofree char *expect = NULL;
  int status;

  out = adbscope_test_device_adb (dev, &status, "shell", "pwd", NULL);
  expect = g_strdup_printf ("%s/root\n", adbscope_test_device_get_sandbox (dev));
  g_assert_cmpstr (out, ==, expect);
}

static void
test_unknown_service_refused (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  const char * const args[] = { "reverse", "tcp:1234", "tcp:1234", NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status;

  out = adbscope_test_device_adbv (dev, args, &status, &err);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "closed"));
}

/* An echo server on a Linux abstract socket, in a thread. */
typedef struct
{
  int    listen_fd;
  GThread *thread;
} EchoServer;

static gpointer
echo_thread (gpointer user_data)
{
  EchoServer *server = user_data;
  int fd = accept (server->listen_fd, NULL, NULL);
  char buf[65536];
  ssize_t n;

  if (fd < 0)
    return NULL;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    {
      ssize_t done = 0;

      while (done < n)
        {
          ssize_t w = write (fd, buf + done, n - done);

          if (w <= 0)
            break;
          done += w;
        }
    }
  close (fd);
  return NULL;
}

static void
test_forward_localabstract (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *name = g_strdup_printf ("adbscope-test-echo-%d", getpid ());
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  EchoServer server;
  g_autofree char *port_str = NULL;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) conn = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = g_malloc (1 << 20);
  g_autofree guint8 *back = g_malloc (1 << 20);
  g_autofree char *spec = NULL;
  gsize got = 0;
  int status;

  memcpy (addr.sun_path + 1, name, strlen (name));
  server.listen_fd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (bind (server.listen_fd, (struct sockaddr *) &addr,
                         offsetof (struct sockaddr_un, sun_path) + 1 + strlen (name)), ==, 0);
  g_assert_cmpint (listen (server.listen_fd, 1), ==, 0);
  server.thread = g_thread_new ("echo", echo_thread, &server);

  spec = g_strdup_printf ("localabstract:%s", name);
  port_str = adbscope_test_device_adb (dev, &status, "forward", "tcp:0", spec, NULL);
  g_assert_cmpint (status, ==, 0);
  g_strstrip (port_str);
  g_assert_cmpint (atoi (port_str), >, 0);

  for (gsize i = 0; i < (1 << 20); i++)
    data[i] = (guint8) g_random_int ();
  g_socket_client_set_enable_proxy (client, FALSE);
  conn = g_socket_client_connect_to_host (client, "127.0.0.1", (guint16) atoi (port_str), NULL, &error);
  g_assert_no_error (error);
  /* Write in chunks and read back as we go: the echo server is synchronous. */
  {
    GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
    GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
    gsize sent = 0;

    while (got < (1 << 20))
      {
        if (sent < (1 << 20))
          {
            gsize chunk = MIN (65536, (1 << 20) - sent);

            g_assert_true (g_output_stream_write_all (out, data + sent, chunk, NULL, NULL, &error));
            sent += chunk;
          }
        while (got < sent)
          {
            gssize n = g_input_stream_read (in, back + got, sent - got, NULL, &error);

            g_assert_no_error (error);
            g_assert_cmpint (n, >, 0);
            got += (gsize) n;
          }
      }
  }
  g_assert_cmpmem (data, 1 << 20, back, 1 << 20);
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_thread_join (server.thread);
  close (server.listen_fd);
  {
    g_autofree char *tcp = g_strdup_printf ("tcp:%s", port_str);
    g_autofree char *rm = adbscope_test_device_adb (dev, &status, "forward", "--remove", tcp, NULL);

    g_assert_cmpint (status, ==, 0);
  }
}

static void
test_push_pull (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *dir = g_dir_make_tmp ("adbscope-test-push-XXXXXX", NULL);
  g_autofree char *src = g_build_filename (dir, "src.bin", NULL);
  g_autofree char *dst = g_build_filename (dir, "dst.bin", NULL);
  g_autofree char *on_device = NULL;
  g_autofree guint8 *data = g_malloc (3 * 1024 * 1024 + 17);
  g_autofree char *back = NULL;
  g_autofree char *out = NULL;
  gsize len = 0;
  int status;

  for (gsize i = 0; i < 3 * 1024 * 1024 + 17; i++)
    data[i] = (guint8) g_random_int ();
  g_assert_true (g_file_set_contents (src, (char *) data, 3 * 1024 * 1024 + 17, NULL));

  out = adbscope_test_device_adb (dev, &status, "push", src, "/data/local/tmp/sub/x.bin", NULL);
  g_assert_cmpint (status, ==, 0);
  /* The file lives in the sandbox (sync paths are rooted there). */
  on_device = g_build_filename (adbscope_test_device_get_sandbox (dev), "root/data/local/tmp/sub/x.bin", NULL);
  g_assert_true (g_file_test (on_device, G_FILE_TEST_IS_REGULAR));

  g_free (out);
  out = adbscope_test_device_adb (dev, &status, "pull", "/data/local/tmp/sub/x.bin", dst, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (dst, &back, &len, NULL));
  g_assert_cmpmem (data, 3 * 1024 * 1024 + 17, back, len);

  g_free (out);
  out = adbscope_test_device_adb (dev, &status, "pull", "/nonexistent", dst, NULL);
  g_assert_cmpint (status, ==, 1);

  g_unlink (src);
  g_unlink (dst);
  g_rmdir (dir);
}

static void
test_install (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *dir = g_dir_make_tmp ("adbscope-test-apk-XXXXXX", NULL);
  g_autofree char *apk = g_build_filename (dir, "fake.apk", NULL);
  g_autofree char *payload = g_strnfill (200000, 'A');
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { "install", apk, NULL };
  int status;

  /* The streamed install (exec:cmd package install -S N) carries every
   * byte: the device reads them all and only then finds it is no APK (a
   * short stream would be INSTALL_FAILED_INVALID_APK: short read).  Real
   * APKs: test-sim-network. */
  g_assert_true (g_file_set_contents (apk, payload, -1, NULL));
  out = adbscope_test_device_adbv (dev, argv, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "Failure [INSTALL_PARSE_FAILED_NOT_APK"));
  g_unlink (apk);
  g_rmdir (dir);
}

static void
test_stall (void)
{
  AdbscopeTestDevice *dev = get_shared ();
  g_autofree char *out = NULL;
  gint64 t0;
  int status;

  adbscope_test_device_control (dev, "stall 1000");
  t0 = g_get_monotonic_time ();
  out = adbscope_test_device_adb (dev, &status, "shell", "echo after", NULL);
  g_assert_cmpstr (out, ==, "after\n");
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, 1000 * 1000 - 20000);
}

static void
test_unauthorized (void)
{
  const char * const extra[] = { "--unauthorized", NULL };
  const char * const args[] = { "shell", "true", NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status;

  /* start() itself waits for `unauthorized` in adb devices */
  dev = adbscope_test_device_start ("pixel-14", extra, &error);
  g_assert_no_error (error);
  out = adbscope_test_device_adbv (dev, args, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "device unauthorized"));
}

static void
test_legacy_shell (void)
{
  const char * const extra[] = { "--legacy-shell", NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *features = NULL;
  g_autofree char *out = NULL;
  g_autofree char *interactive = NULL;
  int status;

  dev = adbscope_test_device_start ("pixel-14", extra, &error);
  g_assert_no_error (error);
  features = adbscope_test_device_adb (dev, &status, "features", NULL);
  g_assert_null (strstr (features, "shell_v2"));

  /* legacy: stderr merged, exit code lost */
  out = adbscope_test_device_adb (dev, &status, "shell", "echo out; echo err >&2; exit 3", NULL);
  g_assert_cmpstr (out, ==, "out\nerr\n");
  g_assert_cmpint (status, ==, 0);

  /* legacy interactive: a PTY, so CRLF and echo */
  interactive = run_with_stdin (dev, "echo hi\nexit\n", &status, "shell", NULL);
  g_assert_nonnull (strstr (interactive, "hi\r\n"));
}

static void
test_old_protocol (void)
{
  const char * const extra[] = { "--proto-version", "0x01000000", "--max-payload", "4096", NULL };
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status;

  dev = adbscope_test_device_start ("pixel-14", extra, &error);
  g_assert_no_error (error);
  out = adbscope_test_device_adb (dev, &status, "shell", "head -c 1000000 /dev/zero | tr '\\0' y; exit 4", NULL);
  g_assert_cmpint (status, ==, 4);
  g_assert_cmpuint (strlen (out), ==, 1000000);
}

/* The sim runs an interactive shell as a login shell, argv SHELL "-"
 * (adbscope-sim-shell.c): TRUE once one runs under it. */
static gboolean
sim_runs_login_shell (gpointer dev)
{
  g_autoptr(GArray) pids = adbscope_test_list_descendants (adbscope_test_device_get_pid (dev));

  for (guint i = 0; i < pids->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", g_array_index (pids, GPid, i));
      g_autofree char *cmdline = NULL;
      gsize len;

      /* "SHELL\0-\0" */
      if (g_file_get_contents (path, &cmdline, &len, NULL) && len >= 3 &&
          strlen (cmdline) == len - 3 && g_str_equal (cmdline + len - 2, "-"))
        return TRUE;
    }
  return FALSE;
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
test_kill_ends_running_shell (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) shell = NULL;
  g_autofree char *sandbox = NULL;
  g_autofree char *ready = NULL;
  gint64 t0;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  sandbox = g_strdup (adbscope_test_device_get_sandbox (dev));
  shell = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                            adbscope_test_adb_path (), "-s", adbscope_test_device_get_serial (dev),
                            "shell", NULL);
  g_assert_no_error (error);
  /* the interactive shell has started on the device, and the stream to it
   * is open end to end: a command typed into the client has run there.  The login shell alone is not enough: the
   * client may not have had its OKAY yet, and a kill then is adb's
   * "error: closed" (exit 1), another case than the one tested here. */
  adbscope_test_wait_until (sim_runs_login_shell, dev, 20000, "the device runs the adb shell's login shell");
  ready = g_build_filename (g_get_tmp_dir (), "adbscope-shell-ready-XXXXXX", NULL);
  g_close (g_mkstemp (ready), NULL);
  g_unlink (ready);
  {
    g_autofree char *quoted = g_shell_quote (ready);
    g_autofree char *command = g_strdup_printf ("echo > %s\n", quoted);

    g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (shell), command, strlen (command),
                                              NULL, NULL, &error));
    g_assert_no_error (error);
  }
  adbscope_test_wait_until (file_exists, ready, 20000, "the command typed into adb shell ran on the device");
  g_assert_nonnull (g_subprocess_get_identifier (shell));  /* still running */

  t0 = g_get_monotonic_time ();
  adbscope_test_device_kill (dev);
  g_assert_true (g_subprocess_wait (shell, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("adb shell exited %.0f ms after the kill",
                  (g_get_monotonic_time () - t0) / 1000.0);
  /* adb 29: EOF, rc 0, nothing on stderr */
  g_assert_cmpint (g_subprocess_get_exit_status (shell), ==, 0);
  g_assert_false (g_file_test (sandbox, G_FILE_TEST_EXISTS));
  g_unlink (ready);

  /* and the device comes back on the same port */
  g_assert_true (adbscope_test_device_restart (dev, &error));
  g_assert_no_error (error);
  {
    int status;
    g_autofree char *out = adbscope_test_device_adb (dev, &status, "shell", "echo back", NULL);

    g_assert_cmpstr (out, ==, "back\n");
  }
}

static void
test_sigterm_cleans_up (void)
{
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sandbox = NULL;
  GPid app;

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  sandbox = g_strdup (adbscope_test_device_get_sandbox (dev));
  app = adbscope_test_device_get_app_pid (dev, "io.github.adbscope.demo");
  g_assert_cmpint (app, >, 0);
  g_assert_true (g_file_test (sandbox, G_FILE_TEST_IS_DIR));
  g_clear_pointer (&dev, adbscope_test_device_free);
  g_assert_false (g_file_test (sandbox, G_FILE_TEST_EXISTS));
  g_assert_cmpint (kill (app, 0), ==, -1);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/transport/devices-lists-model", test_devices_lists_model);
  g_test_add_func ("/sim/transport/shell-v2-exit-and-stderr", test_shell_v2_exit_and_stderr);
  g_test_add_func ("/sim/transport/shell-v2-stdin", test_shell_v2_stdin);
  g_test_add_func ("/sim/transport/shell-large-output", test_shell_large_output);
  g_test_add_func ("/sim/transport/shell-round-trip", test_shell_round_trip);
  g_test_add_func ("/sim/transport/persistent-shell-latency", test_persistent_shell_latency);
  g_test_add_func ("/sim/transport/cwd-is-sandbox", test_cwd_is_sandbox);
  g_test_add_func ("/sim/transport/unknown-service-refused", test_unknown_service_refused);
  g_test_add_func ("/sim/transport/forward-localabstract", test_forward_localabstract);
  g_test_add_func ("/sim/transport/push-pull", test_push_pull);
  g_test_add_func ("/sim/transport/install", test_install);
  g_test_add_func ("/sim/transport/stall", test_stall);
  g_test_add_func ("/sim/transport/unauthorized", test_unauthorized);
  g_test_add_func ("/sim/transport/legacy-shell", test_legacy_shell);
  g_test_add_func ("/sim/transport/old-protocol", test_old_protocol);
  g_test_add_func ("/sim/transport/kill-ends-running-shell", test_kill_ends_running_shell);
  g_test_add_func ("/sim/transport/sigterm-cleans-up", test_sigterm_cleans_up);
  rc = g_test_run ();
  g_clear_pointer (&shared, adbscope_test_device_free);
  {
    /* nothing may outlive the devices: no sim, app, shell or adb server */
    g_autoptr(GArray) left = adbscope_test_list_descendants (getpid ());

    if (left->len > 0)
      {
        g_printerr ("leftover processes: %u (first pid %d)\n", left->len, g_array_index (left, GPid, 0));
        rc = 1;
      }
  }
  return rc;
}
