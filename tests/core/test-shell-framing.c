/* The marker framing of AdbscopeShell, without a device; and the same
 * framing run through a real /bin/sh, as the device's shell would.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-shell-private.h"
#include "adbscope-adb.h"
#include "adbscope-adb-private.h"
#include "adbscope-device-monitor-private.h"

#define MARK "__ADBSCOPE_0123abcd_7__"

static void
check_take (const char *buffer_text,
            gboolean    complete,
            const char *want_output,
            int         want_rc)
{
  g_autoptr(GString) buf = g_string_new (buffer_text);
  g_autofree char *output = NULL;
  int rc = -2;

  g_assert_cmpint (_adbscope_shell_take_reply (buf, MARK, &output, &rc), ==, complete);
  if (!complete)
    {
      g_assert_cmpstr (buf->str, ==, buffer_text);
      return;
    }
  g_assert_cmpstr (output, ==, want_output);
  g_assert_cmpint (rc, ==, want_rc);
  g_assert_cmpuint (buf->len, ==, 0);
}

static void
test_take_reply (void)
{
  /* Marker on its own line. */
  check_take ("line1\nline2\n.0\n" MARK "\n", TRUE, "line1\nline2\n", 0);
  /* Output without a final newline: the trailer is glued to it. */
  check_take ("abc.3\n" MARK "\n", TRUE, "abc", 3);
  /* Marker glued to the output (no newline before it). */
  check_take ("hello.0" MARK "\n", TRUE, "hello", 0);
  /* CRLF, as a PTY shell prints. */
  check_take ("x\r\n.1\r\n" MARK "\r\n", TRUE, "x\r\n", 1);
  /* Empty output. */
  check_take (".0\n" MARK "\n", TRUE, "", 0);
  /* Output that contains dots and numbers itself. */
  check_take ("1.5 2.25\n.127\n" MARK "\n", TRUE, "1.5 2.25\n", 127);
  /* Incomplete: half a marker, or the marker not at the end. */
  check_take ("partial\n.0\n__ADBSCOPE_0123", FALSE, NULL, 0);
  check_take (MARK "\nmore output after", FALSE, NULL, 0);
  /* A marker of an older request is not ours. */
  check_take ("x\n.0\n__ADBSCOPE_0123abcd_6__\n", FALSE, NULL, 0);
}

static void
run_through_sh (const char *command,
                const char *want_output,
                int         want_rc)
{
  g_autofree char *framed = _adbscope_shell_frame_command (command, MARK);
  g_autoptr(GSubprocess) sh = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) in = g_bytes_new (framed, strlen (framed));
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GString) buf = NULL;
  g_autofree char *output = NULL;
  int rc = -2;

  /* The echo of the framed command must never contain the marker: old
   * devices echo stdin through a PTY. */
  g_assert_null (strstr (framed, MARK));

  sh = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                         &error, "/bin/sh", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (sh, in, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  buf = g_string_new_len (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_assert_true (_adbscope_shell_take_reply (buf, MARK, &output, &rc));
  g_assert_cmpstr (output, ==, want_output);
  g_assert_cmpint (rc, ==, want_rc);
}

static void
test_frame_through_sh (void)
{
  run_through_sh ("echo hello", "hello\n", 0);
  run_through_sh ("printf 'no newline'", "no newline", 0);
  run_through_sh ("printf 'two\\n\\n\\n'", "two\n\n\n", 0);
  run_through_sh ("echo out; echo err >&2; exit 3", "out\nerr\n", 3);
  run_through_sh ("false", "", 1);
  /* A command that reads stdin must not eat what follows it. */
  run_through_sh ("cat", "", 0);
  /* A trailing comment or background job must not break the framing. */
  run_through_sh ("echo a # comment", "a\n", 0);
}

static void
test_build_argv (void)
{
  const char *args[] = { "shell", "echo hi", NULL };
  g_auto(GStrv) a = adbscope_adb_build_argv ("/usr/bin/adb", "127.0.0.1:5555", args);
  g_auto(GStrv) b = adbscope_adb_build_argv ("/usr/bin/adb", NULL, args);
  const char *want_a[] = { "/usr/bin/adb", "-s", "127.0.0.1:5555", "shell", "echo hi", NULL };
  const char *want_b[] = { "/usr/bin/adb", "shell", "echo hi", NULL };

  g_assert_cmpstrv (a, want_a);
  g_assert_cmpstrv (b, want_b);
}

static void
test_find_adb (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("adbscope-XXXXXX", NULL);
  g_autofree char *fake = g_build_filename (tmp, "my-adb", NULL);
  const char *path;

  g_setenv ("ADB", "/nonexistent/adb", TRUE);
  _adbscope_adb_reset_path ();
  g_assert_null (adbscope_adb_get_path (&error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_NOT_FOUND);
  g_clear_error (&error);

  g_file_set_contents (fake, "#!/bin/sh\n", -1, &error);
  g_assert_no_error (error);
  g_chmod (fake, 0755);
  g_setenv ("ADB", fake, TRUE);
  _adbscope_adb_reset_path ();
  path = adbscope_adb_get_path (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, fake);

  /* Found once: a later change of $ADB is not looked at. */
  g_setenv ("ADB", "/nonexistent/adb", TRUE);
  g_assert_cmpstr (adbscope_adb_get_path (&error), ==, fake);

  g_unsetenv ("ADB");
  g_setenv ("PATH", tmp, TRUE);
  _adbscope_adb_reset_path ();
  g_assert_null (adbscope_adb_get_path (&error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_NOT_FOUND);
  g_clear_error (&error);
  {
    g_autofree char *real = g_build_filename (tmp, "adb", NULL);
    g_rename (fake, real);
  }
  _adbscope_adb_reset_path ();
  g_assert_nonnull (adbscope_adb_get_path (&error));
  g_assert_true (g_str_has_suffix (adbscope_adb_get_path (NULL), "/adb"));
}

static void
test_monitor_identity (void)
{
  g_autoptr(AdbscopeDeviceMonitor) monitor = adbscope_device_monitor_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) l1 = adbscope_parse_devices ("List of devices attached\n"
                                                    "A  device product:p model:Model_A device:d\n"
                                                    "B  unauthorized\n", &error);
  g_autoptr(GPtrArray) l2 = adbscope_parse_devices ("List of devices attached\n"
                                                    "B  device product:q model:Model_B device:e transport_id:4\n"
                                                    "C  offline\n", &error);
  AdbscopeDevice *b_before;
  AdbscopeDevice *b_after;

  g_assert_no_error (error);
  _adbscope_device_monitor_apply (monitor, l1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (monitor)), ==, 2);
  b_before = adbscope_device_monitor_lookup (monitor, "B");
  g_assert_cmpint (adbscope_device_get_state (b_before), ==, ADBSCOPE_DEVICE_STATE_UNAUTHORIZED);

  _adbscope_device_monitor_apply (monitor, l2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (monitor)), ==, 2);
  g_assert_null (adbscope_device_monitor_lookup (monitor, "A"));
  b_after = adbscope_device_monitor_lookup (monitor, "B");
  /* The same object, updated in place. */
  g_assert_true (b_before == b_after);
  g_assert_cmpint (adbscope_device_get_state (b_after), ==, ADBSCOPE_DEVICE_STATE_DEVICE);
  g_assert_cmpstr (adbscope_device_get_model (b_after), ==, "Model_B");
  g_assert_cmpint (adbscope_device_get_transport_id (b_after), ==, 4);
  {
    g_autofree char *name = adbscope_device_dup_display_name (b_after);
    g_assert_cmpstr (name, ==, "Model B");
  }
  g_assert_nonnull (adbscope_device_monitor_lookup (monitor, "C"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shell/take-reply", test_take_reply);
  g_test_add_func ("/shell/frame-through-sh", test_frame_through_sh);
  g_test_add_func ("/adb/build-argv", test_build_argv);
  g_test_add_func ("/adb/find", test_find_adb);
  g_test_add_func ("/device-monitor/identity", test_monitor_identity);
  return g_test_run ();
}
