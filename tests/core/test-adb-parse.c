/* Parsers for what the adb client prints, on real captures. */
#include "config.h"

#include "adbscope-core.h"

static char *
read_fixture (const char *name)
{
  const char *dir = g_getenv ("ADBSCOPE_FIXTURES");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "adb", name, NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static GPtrArray *
parse_fixture (const char *name)
{
  g_autofree char *text = read_fixture (name);
  g_autoptr(GError) error = NULL;
  GPtrArray *devices = adbscope_parse_devices (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (devices);
  return devices;
}

#define DEV(a, i) ((AdbscopeDeviceInfo *) g_ptr_array_index ((a), (i)))

static void
test_devices_l_nexus7 (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-l-nexus7-usb.txt");

  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "05a02bac");
  g_assert_cmpint (DEV (d, 0)->state, ==, ADBSCOPE_DEVICE_STATE_DEVICE);
  g_assert_cmpstr (DEV (d, 0)->usb, ==, "336592896X");
  g_assert_cmpstr (DEV (d, 0)->product, ==, "razor");
  g_assert_cmpstr (DEV (d, 0)->model, ==, "Nexus_7");
  g_assert_cmpstr (DEV (d, 0)->device, ==, "flo");
  g_assert_cmpint (DEV (d, 0)->transport_id, ==, -1);
  g_assert_cmpstr (adbscope_device_transport_kind (DEV (d, 0)->serial, DEV (d, 0)->usb), ==, "usb");
}

static void
test_devices_l_nexus6_features (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-l-nexus6-android-n-features.txt");

  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "ZX1G22JJWR");
  g_assert_cmpstr (DEV (d, 0)->usb, ==, "3-3");
  g_assert_cmpstr (DEV (d, 0)->model, ==, "Nexus_6");
  g_assert_cmpstr (DEV (d, 0)->features, ==, "cmd,shell_v2");
}

static void
test_devices_l_emulator (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-l-emulator-transport-id.txt");

  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "emulator-5554");
  g_assert_cmpstr (DEV (d, 0)->model, ==, "sdk_gphone64_x86_64");
  g_assert_cmpstr (DEV (d, 0)->device, ==, "emu64xa");
  g_assert_cmpint (DEV (d, 0)->transport_id, ==, 3);
  g_assert_cmpstr (adbscope_device_transport_kind (DEV (d, 0)->serial, NULL), ==, "emulator");
}

static void
test_devices_l_mixed (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-l-tcp-usb-emulator-host-short-listings.txt");

  g_assert_cmpuint (d->len, ==, 3);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "localhost:36790");
  g_assert_cmpint (DEV (d, 0)->state, ==, ADBSCOPE_DEVICE_STATE_DEVICE);
  g_assert_null (DEV (d, 0)->model);
  g_assert_cmpstr (adbscope_device_transport_kind (DEV (d, 0)->serial, DEV (d, 0)->usb), ==, "tcp");
  g_assert_cmpstr (DEV (d, 1)->serial, ==, "0149947A0D01500C");
  g_assert_cmpstr (DEV (d, 1)->usb, ==, "340787200X");
  g_assert_cmpstr (DEV (d, 2)->serial, ==, "emulator-5612");
  g_assert_cmpint (DEV (d, 2)->state, ==, ADBSCOPE_DEVICE_STATE_HOST);
  g_assert_cmpstr (DEV (d, 2)->features, ==, "shell_2");
}

static void
test_devices_unauthorized_spaces (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-mixed-unauthorized-markdown-spaces.txt");

  g_assert_cmpuint (d->len, ==, 4);
  g_assert_cmpstr (DEV (d, 1)->serial, ==, "fc74d864");
  g_assert_cmpint (DEV (d, 1)->state, ==, ADBSCOPE_DEVICE_STATE_DEVICE);
  g_assert_cmpstr (DEV (d, 2)->serial, ==, "emulator-5556");
  g_assert_cmpint (DEV (d, 2)->state, ==, ADBSCOPE_DEVICE_STATE_UNAUTHORIZED);
  g_assert_cmpstr (DEV (d, 2)->state_text, ==, "unauthorized");
}

static void
test_devices_offline_tab (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-offline-tab-separated.txt");

  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "emulator-5554");
  g_assert_cmpint (DEV (d, 0)->state, ==, ADBSCOPE_DEVICE_STATE_OFFLINE);
}

static void
test_devices_authorizing_windows_prompt (void)
{
  g_autoptr(GPtrArray) d = parse_fixture ("devices-authorizing-windows.txt");

  /* The pasted "C:\…>adb devices" prompt before the header is ignored. */
  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpstr (DEV (d, 0)->serial, ==, "3949363555493098");
  g_assert_cmpint (DEV (d, 0)->state, ==, ADBSCOPE_DEVICE_STATE_AUTHORIZING);
}

static void
test_devices_not_a_list (void)
{
  g_autofree char *text = read_fixture ("devices-l-error-old-platform-tools-missing.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) d = adbscope_parse_devices (text, &error);

  g_assert_null (d);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED);
  g_assert_nonnull (strstr (error->message, "Android SDK Platform-tools"));
}

static void
test_devices_no_permissions_and_noise (void)
{
  const char *text =
    "* daemon not running; starting now at tcp:5037\n"
    "* daemon started successfully\n"
    "List of devices attached\n"
    "0123456789ABCDEF       no permissions (user in plugdev group; are your udev rules wrong?); "
    "see [http://developer.android.com/tools/device.html] usb:1-1 transport_id:7\n"
    "\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) d = adbscope_parse_devices (text, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (d->len, ==, 1);
  g_assert_cmpint (DEV (d, 0)->state, ==, ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS);
  g_assert_cmpstr (DEV (d, 0)->usb, ==, "1-1");
  g_assert_cmpint (DEV (d, 0)->transport_id, ==, 7);
}

static void
test_devices_empty_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) d = adbscope_parse_devices ("List of devices attached\n\n", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (d->len, ==, 0);
}

static void
test_track_devices_frames (void)
{
  g_autoptr(GString) buf = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  char *payload = NULL;

  /* A message split across reads, then two in one read. */
  g_string_append (buf, "0016127.0.0");
  g_assert_false (adbscope_parse_track_devices (buf, &payload, &error));
  g_assert_no_error (error);
  g_string_append (buf, ".1:5555\tdevice\n0000");
  g_assert_true (adbscope_parse_track_devices (buf, &payload, &error));
  g_assert_cmpstr (payload, ==, "127.0.0.1:5555\tdevice\n");
  g_free (payload);
  g_assert_true (adbscope_parse_track_devices (buf, &payload, &error));
  g_assert_cmpstr (payload, ==, "");
  g_free (payload);
  g_assert_cmpuint (buf->len, ==, 0);

  g_string_assign (buf, "garbage!");
  g_assert_false (adbscope_parse_track_devices (buf, &payload, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

static void
test_connect_output (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (adbscope_parse_connect_output ("connected to 127.0.0.1:15555\n", &error));
  g_assert_true (adbscope_parse_connect_output ("already connected to 127.0.0.1:15555\n", &error));
  /* adb connect exits 0 here: only the text says it failed. */
  g_assert_false (adbscope_parse_connect_output ("failed to connect to '127.0.0.1:15599': Connection refused\n", &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "Connection refused"));
  g_clear_error (&error);
  g_assert_false (adbscope_parse_connect_output ("failed to authenticate to 127.0.0.1:15562\n", &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED);
  g_clear_error (&error);
  g_assert_false (adbscope_parse_connect_output ("", &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE);
}

static void
test_stderr_mapping (void)
{
  g_autoptr(GError) e1 = adbscope_adb_error_from_stderr ("* daemon not running; starting now at tcp:15037\n"
                                                         "* daemon started successfully\n"
                                                         "error: device offline\n", "S");
  g_autoptr(GError) e2 = adbscope_adb_error_from_stderr ("error: device '127.0.0.1:15556' not found\n", "S");
  g_autoptr(GError) e3 = adbscope_adb_error_from_stderr ("error: device unauthorized.\n"
                                                         "This adb server's $ADB_VENDOR_KEYS is not set\n"
                                                         "Try 'adb kill-server' if that seems wrong.\n"
                                                         "Otherwise check for a confirmation dialog on your device.\n", "S");
  g_autoptr(GError) e4 = adbscope_adb_error_from_stderr ("", "127.0.0.1:1");
  g_autoptr(GError) e5 = adbscope_adb_error_from_stderr ("* daemon started successfully\n", "S");

  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_OFFLINE);
  g_assert_cmpstr (e1->message, ==, "device offline");
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE);
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED);
  /* adb says nothing when a device vanishes under a running shell. */
  g_assert_error (e4, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_LOST);
  g_assert_nonnull (strstr (e4->message, "127.0.0.1:1"));
  g_assert_error (e5, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_LOST);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/adb-parse/devices-l/nexus7", test_devices_l_nexus7);
  g_test_add_func ("/adb-parse/devices-l/nexus6-features", test_devices_l_nexus6_features);
  g_test_add_func ("/adb-parse/devices-l/emulator-transport-id", test_devices_l_emulator);
  g_test_add_func ("/adb-parse/devices-l/tcp-usb-host", test_devices_l_mixed);
  g_test_add_func ("/adb-parse/devices/unauthorized-spaces", test_devices_unauthorized_spaces);
  g_test_add_func ("/adb-parse/devices/offline-tab", test_devices_offline_tab);
  g_test_add_func ("/adb-parse/devices/authorizing-prompt", test_devices_authorizing_windows_prompt);
  g_test_add_func ("/adb-parse/devices/not-a-list", test_devices_not_a_list);
  g_test_add_func ("/adb-parse/devices/no-permissions-noise", test_devices_no_permissions_and_noise);
  g_test_add_func ("/adb-parse/devices/empty", test_devices_empty_list);
  g_test_add_func ("/adb-parse/track-devices", test_track_devices_frames);
  g_test_add_func ("/adb-parse/connect", test_connect_output);
  g_test_add_func ("/adb-parse/stderr", test_stderr_mapping);
  return g_test_run ();
}
