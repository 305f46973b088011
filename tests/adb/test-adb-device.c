/* The adb layer against the real adb and the simulated device. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"
#include "adbscope-adb-private.h"

typedef struct
{
  GMainLoop *loop;
  guint      pending;
  guint      ok;
  guint      failed;
  GError    *first_error;
  gint64     first_error_us;
} Counter;

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GTask *expect = user_data;
  Counter *c = g_task_get_task_data (expect);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int rc = -1;

  out = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), result, &rc, &error);
  if (out != NULL && g_str_equal (out, g_object_get_data (G_OBJECT (expect), "want")) && rc == 0)
    c->ok++;
  else
    {
      c->failed++;
      if (c->first_error == NULL)
        {
          c->first_error = error ? g_error_copy (error)
                                 : g_error_new (ADBSCOPE_ERROR, 0, "wrong output: %s (rc %d)", out, rc);
          c->first_error_us = g_get_monotonic_time ();
        }
    }
  if (--c->pending == 0)
    g_main_loop_quit (c->loop);
  g_object_unref (expect);
}

static void
queue_echo (AdbscopeShell *shell,
            Counter       *c,
            GTask         *holder,
            guint          i)
{
  GTask *expect = g_task_new (NULL, NULL, NULL, NULL);
  g_autofree char *cmd = NULL;

  g_task_set_task_data (expect, c, NULL);
  /* Alternate output shapes: with and without a final newline. */
  if (i % 2 == 0)
    {
      cmd = g_strdup_printf ("echo line-%u", i);
      g_object_set_data_full (G_OBJECT (expect), "want", g_strdup_printf ("line-%u\n", i), g_free);
    }
  else
    {
      cmd = g_strdup_printf ("printf 'no-newline-%u'", i);
      g_object_set_data_full (G_OBJECT (expect), "want", g_strdup_printf ("no-newline-%u", i), g_free);
    }
  c->pending++;
  adbscope_shell_run_async (shell, cmd, NULL, run_cb, expect);
}

static void
test_monitor_sees_sim (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeDeviceMonitor) monitor = adbscope_device_monitor_new ();
  AdbscopeDevice *d;
  gint64 deadline;

  g_assert_no_error (error);
  _adbscope_adb_reset_path ();
  adbscope_device_monitor_set_poll_interval (monitor, 200);
  adbscope_device_monitor_start (monitor);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (((d = adbscope_device_monitor_lookup (monitor, adbscope_test_device_get_serial (dev))) == NULL ||
          adbscope_device_get_model (d) == NULL) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_assert_nonnull (d);
  g_assert_cmpint (adbscope_device_get_state (d), ==, ADBSCOPE_DEVICE_STATE_DEVICE);
  g_assert_cmpstr (adbscope_device_get_model (d), ==, "Pixel_8");
  g_assert_cmpstr (adbscope_device_get_transport (d), ==, "tcp");

  /* The device disappears from the list when it goes away (the backstop
   * poll catches what adb 29's track-devices does not push). */
  adbscope_test_device_kill (dev);
  deadline = g_get_monotonic_time () + 15 * G_USEC_PER_SEC;
  while ((d = adbscope_device_monitor_lookup (monitor, adbscope_test_device_get_serial (dev))) != NULL &&
         adbscope_device_get_state (d) == ADBSCOPE_DEVICE_STATE_DEVICE &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (d == NULL || adbscope_device_get_state (d) != ADBSCOPE_DEVICE_STATE_DEVICE);
  adbscope_device_monitor_stop (monitor);
}

static void
test_500_round_trips (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Counter c = { loop };

  g_assert_no_error (error);
  shell = adbscope_shell_new (adbscope_test_device_get_serial (dev));
  for (guint i = 0; i < 500; i++)
    queue_echo (shell, &c, NULL, i);
  g_main_loop_run (loop);
  if (c.first_error)
    g_printerr ("first error: %s\n", c.first_error->message);
  g_assert_cmpuint (c.ok, ==, 500);
  g_assert_cmpuint (c.failed, ==, 0);
  g_assert_cmpuint (adbscope_shell_get_restarts (shell), ==, 0);
}

static void
one_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GAsyncResult **out = user_data;
  *out = g_object_ref (result);
}

static char *
run_one (AdbscopeShell  *shell,
         const char     *cmd,
         int            *rc,
         GError        **error)
{
  GAsyncResult *result = NULL;
  char *out;

  adbscope_shell_run_async (shell, cmd, NULL, one_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  out = adbscope_shell_run_finish (shell, result, rc, error);
  g_object_unref (result);
  return out;
}

static void
test_exit_status_and_stderr (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;
  int rc = -1;

  g_assert_no_error (error);
  shell = adbscope_shell_new (adbscope_test_device_get_serial (dev));
  out = run_one (shell, "echo out; echo err >&2; exit 3", &rc, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "out\nerr\n");
  g_assert_cmpint (rc, ==, 3);
  /* The same shell goes on after `exit` inside a command. */
  out2 = run_one (shell, "getprop ro.product.model", &rc, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out2, ==, "Pixel 8\n");
  g_assert_cmpint (rc, ==, 0);
  g_assert_cmpuint (adbscope_shell_get_restarts (shell), ==, 0);
}

static gboolean
quit_loop (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
test_kill_fails_pending_then_recovers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *warm = NULL;
  g_autofree char *after = NULL;
  Counter c = { loop };
  gint64 killed_us;
  int rc;

  g_assert_no_error (error);
  shell = adbscope_shell_new (adbscope_test_device_get_serial (dev));
  warm = run_one (shell, "echo warm", &rc, &error);
  g_assert_no_error (error);

  /* One request hangs on the device, more wait behind it. */
  {
    GTask *expect = g_task_new (NULL, NULL, NULL, NULL);
    g_task_set_task_data (expect, &c, NULL);
    g_object_set_data_full (G_OBJECT (expect), "want", g_strdup ("never\n"), g_free);
    c.pending++;
    adbscope_shell_run_async (shell, "sleep 30; echo never", NULL, run_cb, expect);
  }
  for (guint i = 0; i < 3; i++)
    queue_echo (shell, &c, NULL, i);
  g_timeout_add (300, quit_loop, loop);
  g_main_loop_run (loop);

  killed_us = g_get_monotonic_time ();
  adbscope_test_device_kill (dev);
  g_main_loop_run (loop);

  g_assert_cmpuint (c.ok, ==, 0);
  g_assert_cmpuint (c.failed, ==, 4);
  g_assert_nonnull (c.first_error);
  /* adb exits 0 and silent when the device vanishes: we say so. */
  g_assert_error (c.first_error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_LOST);
  g_assert_nonnull (strstr (c.first_error->message, adbscope_test_device_get_serial (dev)));
  g_assert_cmpint (c.first_error_us - killed_us, <, 2 * G_USEC_PER_SEC);
  g_clear_error (&c.first_error);

  /* While the device is gone a request fails with adb's own words. */
  g_assert_null (run_one (shell, "echo x", &rc, &error));
  g_assert_nonnull (error);
  g_assert_false (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT));
  g_clear_error (&error);

  /* Back: the same AdbscopeShell is used again. */
  g_assert_true (adbscope_test_device_restart (dev, &error));
  g_assert_no_error (error);
  after = run_one (shell, "echo back", &rc, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after, ==, "back\n");
  g_assert_cmpuint (adbscope_shell_get_restarts (shell), >=, 1);
  g_clear_error (&c.first_error);
}

static void
test_timeout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autofree char *out = NULL;
  g_autofree char *next = NULL;
  gint64 t0;
  int rc;

  g_assert_no_error (error);
  shell = adbscope_shell_new (adbscope_test_device_get_serial (dev));
  adbscope_shell_set_timeout (shell, 1000);
  t0 = g_get_monotonic_time ();
  out = run_one (shell, "sleep 20", &rc, &error);
  g_assert_null (out);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 3 * G_USEC_PER_SEC);
  g_clear_error (&error);
  /* The next request gets a fresh shell (after the 1 s back-off). */
  t0 = g_get_monotonic_time ();
  next = run_one (shell, "echo fresh", &rc, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (next, ==, "fresh\n");
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, 900 * 1000);
}

/* How many processes of ours run `adb … shell sleep 20` (from /proc). */
static guint
count_adb_sleepers (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmdline = NULL;
      gsize len = 0;
      gboolean adb = FALSE, sleep = FALSE;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmdline, &len, NULL))
        continue;
      for (gsize off = 0; off < len; off += strlen (cmdline + off) + 1)
        {
          adb |= g_str_has_suffix (cmdline + off, "adb") && off == 0;
          sleep |= g_str_equal (cmdline + off, "sleep 20");
        }
      n += adb && sleep;
    }
  return n;
}

/* A one-shot adb request on a device that does not answer ends with a
 * timeout error, and its adb is gone (not left hanging on the device). */
static void
test_run_sync_timeout (void)
{
  const char *args[] = { "shell", "sleep 20", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autofree char *out = NULL;
  gint64 t0, deadline;

  g_assert_no_error (error);
  g_assert_cmpuint (count_adb_sleepers (), ==, 0);
  t0 = g_get_monotonic_time ();
  out = adbscope_adb_run_sync_timeout (adbscope_test_device_get_serial (dev), args, 1, NULL, NULL, NULL,
                                       &error);
  g_assert_null (out);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "1 s"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (count_adb_sleepers () > 0 && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  g_assert_cmpuint (count_adb_sleepers (), ==, 0);
  g_clear_error (&error);

  /* Without a stall the same call answers. */
  {
    const char *echo[] = { "shell", "echo fine", NULL };
    int status = -1;

    g_free (out);
    out = adbscope_adb_run_sync_timeout (adbscope_test_device_get_serial (dev), echo, 10, NULL, &status, NULL,
                                         &error);
    g_assert_no_error (error);
    g_assert_cmpstr (out, ==, "fine\n");
    g_assert_cmpint (status, ==, 0);
  }
}

static void
test_unauthorized (void)
{
  const char *args[] = { "--unauthorized", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(AdbscopeDeviceMonitor) monitor = adbscope_device_monitor_new ();
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autofree char *out = NULL;
  AdbscopeDevice *d = NULL;
  gint64 deadline;
  int rc;

  g_assert_no_error (error);
  adbscope_device_monitor_set_poll_interval (monitor, 200);
  adbscope_device_monitor_start (monitor);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (((d = adbscope_device_monitor_lookup (monitor, adbscope_test_device_get_serial (dev))) == NULL ||
          adbscope_device_get_state (d) != ADBSCOPE_DEVICE_STATE_UNAUTHORIZED) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (d);
  g_assert_cmpint (adbscope_device_get_state (d), ==, ADBSCOPE_DEVICE_STATE_UNAUTHORIZED);

  shell = adbscope_shell_new (adbscope_test_device_get_serial (dev));
  out = run_one (shell, "echo hi", &rc, &error);
  g_assert_null (out);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED);
  adbscope_device_monitor_stop (monitor);
}

static void
test_devices_command (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("tablet-13", NULL, &error);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "devices", NULL };
  JsonArray *list;
  gboolean found = FALSE;
  int status;

  g_assert_no_error (error);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  list = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *o = json_array_get_object_element (list, i);

      if (g_str_equal (json_object_get_string_member (o, "serial"), adbscope_test_device_get_serial (dev)))
        {
          found = TRUE;
          g_assert_cmpstr (json_object_get_string_member (o, "state"), ==, "device");
          g_assert_cmpstr (json_object_get_string_member (o, "transport"), ==, "tcp");
          g_assert_nonnull (json_object_get_string_member (o, "model"));
        }
    }
  g_assert_true (found);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/adb/monitor-sees-sim", test_monitor_sees_sim);
  g_test_add_func ("/adb/shell/500-round-trips", test_500_round_trips);
  g_test_add_func ("/adb/shell/exit-status-stderr", test_exit_status_and_stderr);
  g_test_add_func ("/adb/shell/kill-fails-pending-then-recovers", test_kill_fails_pending_then_recovers);
  g_test_add_func ("/adb/shell/timeout", test_timeout);
  g_test_add_func ("/adb/run-sync-timeout", test_run_sync_timeout);
  g_test_add_func ("/adb/unauthorized", test_unauthorized);
  g_test_add_func ("/adb/devices-command", test_devices_command);
  return g_test_run ();
}
