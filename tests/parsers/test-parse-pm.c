/* test-parse-pm.c: pm list packages, and the package/serial validators */
#include "config.h"

#include "adbscope-parse-pm.h"
#include "adbscope-validate.h"
#include "parsers-test-util.h"

static AdbscopePmPackage *
find_pkg (GPtrArray  *pkgs,
          const char *name)
{
  guint i;

  for (i = 0; i < pkgs->len; i++)
    if (g_str_equal (((AdbscopePmPackage *) g_ptr_array_index (pkgs, i))->package, name))
      return g_ptr_array_index (pkgs, i);
  return NULL;
}

static void
test_pm_list_f (void)
{
  g_autofree char *text = fixture_read ("other/android14-xiaomi-pad6-pm-list-packages-f.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (text, -1, &error);
  AdbscopePmPackage *p;
  guint i;

  g_assert_no_error (error);
  g_assert_cmpuint (pkgs->len, ==, 322);
  p = g_ptr_array_index (pkgs, 0);
  g_assert_cmpstr (p->package, ==, "com.miui.miwallpaper.config.overlay");
  g_assert_cmpstr (p->apk_path, ==, "/product/overlay/MIWallpaperOverlay.apk");
  g_assert_cmpint (p->uid, ==, -1);

  /* the path holds "==": split on the last '=' */
  p = find_pkg (pkgs, "io.github.muntashirakon.AppManager");
  g_assert_nonnull (p);
  g_assert_cmpstr (p->apk_path, ==,
                   "/data/app/~~bt-GwgDT0B0WlSsvXrZynw==/io.github.muntashirakon.AppManager-Vgj7nt0khQox6qBv7ngwMQ==/base.apk");
  for (i = 0; i < pkgs->len; i++)
    {
      p = g_ptr_array_index (pkgs, i);
      g_assert_true (p->valid_name);
      g_assert_true (g_str_has_prefix (p->apk_path, "/"));
    }
}

static void
test_pm_list_3 (void)
{
  g_autofree char *text = fixture_read ("other/android14-xiaomi-pad6-pm-list-packages-3.txt", NULL);
  g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (text, -1, NULL);

  g_assert_nonnull (pkgs);
  g_assert_cmpuint (pkgs->len, ==, 55);
  g_assert_cmpstr (((AdbscopePmPackage *) g_ptr_array_index (pkgs, 0))->package, ==, "com.junkfood.seal");
  g_assert_null (((AdbscopePmPackage *) g_ptr_array_index (pkgs, 0))->apk_path);
  g_assert_nonnull (find_pkg (pkgs, "com.termux.api"));
}

static void
test_pm_uid (void)
{
  static const char text[] =
    "package:/data/app/~~x==/com.example.app-y==/base.apk=com.example.app uid:10123\r\n"
    "package:android uid:1000\n"
    "package:com.multi.user uid:10200,1010200\n"
    "\n";
  g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (text, -1, NULL);
  g_autoptr(GPtrArray) none = adbscope_pm_parse_list_packages ("", -1, NULL);
  AdbscopePmPackage *p;

  g_assert_nonnull (pkgs);
  g_assert_cmpuint (pkgs->len, ==, 3);
  p = g_ptr_array_index (pkgs, 0);
  g_assert_cmpstr (p->package, ==, "com.example.app");
  g_assert_cmpint (p->uid, ==, 10123);
  p = g_ptr_array_index (pkgs, 1);
  g_assert_cmpstr (p->package, ==, "android");
  g_assert_true (p->valid_name);
  g_assert_cmpint (p->uid, ==, 1000);
  g_assert_cmpint (((AdbscopePmPackage *) g_ptr_array_index (pkgs, 2))->uid, ==, 10200);

  /* no third-party app installed: nothing printed, no error */
  g_assert_nonnull (none);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_pm_errors (void)
{
  static const char *const inputs[] = {
    "Error: java.lang.SecurityException: Shell does not have permission\n",
    "package:com.x uid:abc\n",
    "package:\n",
    "package:/path/base.apk=\n",
    "cmd: Can't find service: package\n",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (adbscope_pm_parse_list_packages (inputs[i], -1, &error));
      assert_parse_error (error);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (adbscope_pm_parse_list_packages (NULL, -1, &error));
    assert_parse_error (error);
    g_clear_error (&error);
    g_assert_null (adbscope_pm_parse_list_packages ("package:a\0b", 11, &error));
    assert_parse_error (error);
  }
}

static void
test_package_name_rules (void)
{
  char long_name[300];

  g_assert_true (adbscope_package_name_is_valid ("com.example.app"));
  g_assert_true (adbscope_package_name_is_valid ("io.github.adbscope.demo"));
  g_assert_true (adbscope_package_name_is_valid ("android"));
  g_assert_true (adbscope_package_name_is_valid ("com.a_b.C9"));

  g_assert_false (adbscope_package_name_is_valid (NULL));
  g_assert_false (adbscope_package_name_is_valid (""));
  g_assert_false (adbscope_package_name_is_valid (".com.x"));
  g_assert_false (adbscope_package_name_is_valid ("com.x."));
  g_assert_false (adbscope_package_name_is_valid ("com..x"));
  g_assert_false (adbscope_package_name_is_valid ("com.9x"));
  g_assert_false (adbscope_package_name_is_valid ("com._x"));
  g_assert_false (adbscope_package_name_is_valid ("com.x;reboot"));
  g_assert_false (adbscope_package_name_is_valid ("com.x y"));
  g_assert_false (adbscope_package_name_is_valid ("com.x-y"));
  g_assert_false (adbscope_package_name_is_valid ("com.x:remote"));
  g_assert_false (adbscope_package_name_is_valid ("com.ex\xc3\xa4mple"));

  memset (long_name, 'a', sizeof long_name);
  long_name[255] = '\0';
  g_assert_true (adbscope_package_name_is_valid (long_name));
  long_name[255] = 'a';
  long_name[256] = '\0';
  g_assert_false (adbscope_package_name_is_valid (long_name));
}

static void
test_serial_rules (void)
{
  char long_serial[200];

  g_assert_true (adbscope_serial_is_valid ("R3CN5030RFM"));
  g_assert_true (adbscope_serial_is_valid ("emulator-5554"));
  g_assert_true (adbscope_serial_is_valid ("127.0.0.1:5555"));
  g_assert_true (adbscope_serial_is_valid ("adb-R3CN5030RFM-abc._adb-tls-connect._tcp"));
  g_assert_true (adbscope_serial_is_valid ("[::1]:5555"));

  g_assert_false (adbscope_serial_is_valid (NULL));
  g_assert_false (adbscope_serial_is_valid (""));
  g_assert_false (adbscope_serial_is_valid ("a b"));
  g_assert_false (adbscope_serial_is_valid ("a\tb"));
  g_assert_false (adbscope_serial_is_valid ("x;reboot"));
  g_assert_false (adbscope_serial_is_valid ("x&y"));
  g_assert_false (adbscope_serial_is_valid ("x|y"));
  g_assert_false (adbscope_serial_is_valid ("$(id)"));
  g_assert_false (adbscope_serial_is_valid ("`id`"));
  g_assert_false (adbscope_serial_is_valid ("a'b"));
  g_assert_false (adbscope_serial_is_valid ("a\"b"));
  g_assert_false (adbscope_serial_is_valid ("a\\b"));
  g_assert_false (adbscope_serial_is_valid ("a\nb"));
  g_assert_false (adbscope_serial_is_valid ("caf\xc3\xa9"));

  memset (long_serial, 'S', sizeof long_serial);
  long_serial[128] = '\0';
  g_assert_true (adbscope_serial_is_valid (long_serial));
  long_serial[128] = 'S';
  long_serial[129] = '\0';
  g_assert_false (adbscope_serial_is_valid (long_serial));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pm/list-f", test_pm_list_f);
  g_test_add_func ("/pm/list-3", test_pm_list_3);
  g_test_add_func ("/pm/uid", test_pm_uid);
  g_test_add_func ("/pm/errors", test_pm_errors);
  g_test_add_func ("/validate/package-name", test_package_name_rules);
  g_test_add_func ("/validate/serial", test_serial_rules);

  return g_test_run ();
}
