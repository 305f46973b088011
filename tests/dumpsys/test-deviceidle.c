/* test-deviceidle.c: `dumpsys deviceidle` parser against real captures */
#include "config.h"

#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-deviceidle.h"
#include "dumpsys-test-util.h"

static AdbscopeDeviceidle *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("deviceidle", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeDeviceidle *idle;
  gsize len;

  text = load_fixture (path, &len);
  idle = adbscope_deviceidle_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (idle);
  return idle;
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("deviceidle");

  g_assert_cmpuint (names->len, >=, 3);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(AdbscopeDeviceidle) idle = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (names, i), &len);
      idle = adbscope_deviceidle_parse (text, len, &error);
      g_assert_no_error (error);
      g_assert_cmpint (idle->deep_state, !=, ADBSCOPE_DEEP_IDLE_UNKNOWN);
      g_assert_false (adbscope_deviceidle_is_dozing (idle));
    }
}

static void
test_android13 (void)
{
  g_autoptr(AdbscopeDeviceidle) idle = parse_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-deviceidle.txt");

  g_assert_cmpint (idle->deep_state, ==, ADBSCOPE_DEEP_IDLE_ACTIVE);
  g_assert_cmpstr (idle->deep_state_name, ==, "ACTIVE");
  g_assert_cmpint (idle->light_state, ==, ADBSCOPE_LIGHT_IDLE_ACTIVE);
  g_assert_cmpint (idle->screen_on, ==, 0);
  g_assert_cmpint (idle->screen_locked, ==, 1);
  g_assert_cmpint (idle->charging, ==, 1);
  g_assert_cmpint (idle->light_enabled, ==, 0);
  g_assert_cmpint (idle->deep_enabled, ==, 0);
  g_assert_cmpint (idle->force_idle, ==, 0);
  g_assert_cmpuint (idle->whitelist_system_except_idle->len, ==, 6);
  g_assert_cmpuint (idle->whitelist_system->len, ==, 4);
  g_assert_cmpuint (idle->whitelist_user->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (idle->whitelist_user, 0), ==, "com.android.phone");
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.android.phone"), ==, ADBSCOPE_DEVICEIDLE_WHITELIST_USER);
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.android.shell"), ==,
                   ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM_EXCEPT_IDLE | ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM);
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.android.proxyhandler"), ==,
                   ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM_EXCEPT_IDLE);
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.example"), ==, ADBSCOPE_DEVICEIDLE_WHITELIST_NONE);
}

static void
test_android14 (void)
{
  g_autoptr(AdbscopeDeviceidle) idle = parse_fixture ("android14-xiaomi-pad6-deviceidle-full.txt");

  g_assert_cmpint (idle->deep_state, ==, ADBSCOPE_DEEP_IDLE_ACTIVE);
  g_assert_cmpint (idle->light_state, ==, ADBSCOPE_LIGHT_IDLE_ACTIVE);
  g_assert_cmpint (idle->screen_on, ==, 1);
  g_assert_cmpint (idle->screen_locked, ==, 0);
  g_assert_cmpint (idle->light_enabled, ==, 1);
  g_assert_cmpint (idle->deep_enabled, ==, 1);
  g_assert_cmpuint (idle->whitelist_system_except_idle->len, ==, 18);
  g_assert_cmpuint (idle->whitelist_system->len, ==, 13);
  g_assert_cmpuint (idle->whitelist_user->len, ==, 34);
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.whatsapp"), ==, ADBSCOPE_DEVICEIDLE_WHITELIST_USER);
  /* com.android.deskclock is on both the system and the user list. */
  g_assert_cmpint (adbscope_deviceidle_whitelist (idle, "com.android.deskclock"), ==,
                   ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM_EXCEPT_IDLE | ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM |
                   ADBSCOPE_DEVICEIDLE_WHITELIST_USER);
}

static void
test_android6_excerpt (void)
{
  g_autoptr(AdbscopeDeviceidle) idle = parse_fixture ("android6.0.1-sony-so02g-deviceidle-excerpt.txt");

  g_assert_cmpint (idle->deep_state, ==, ADBSCOPE_DEEP_IDLE_INACTIVE);
  /* Android 6 has no light Doze. */
  g_assert_cmpint (idle->light_state, ==, ADBSCOPE_LIGHT_IDLE_UNKNOWN);
  g_assert_null (idle->light_state_name);
  g_assert_cmpint (idle->screen_on, ==, -1);
  g_assert_cmpuint (idle->whitelist_user->len, ==, 0);
}

static void
test_dozing (void)
{
  g_autoptr(AdbscopeDeviceidle) deep = adbscope_deviceidle_parse ("  mState=IDLE mLightState=OVERRIDE\n", -1, NULL);
  g_autoptr(AdbscopeDeviceidle) light = adbscope_deviceidle_parse ("  mState=INACTIVE mLightState=IDLE\n", -1, NULL);
  g_autoptr(AdbscopeDeviceidle) odd = adbscope_deviceidle_parse ("  mState=SOMETHING_NEW\n", -1, NULL);

  g_assert_true (adbscope_deviceidle_is_dozing (deep));
  g_assert_cmpint (deep->light_state, ==, ADBSCOPE_LIGHT_IDLE_OVERRIDE);
  g_assert_true (adbscope_deviceidle_is_dozing (light));
  g_assert_cmpint (odd->deep_state, ==, ADBSCOPE_DEEP_IDLE_UNKNOWN);
  g_assert_cmpstr (odd->deep_state_name, ==, "SOMETHING_NEW");
}

static void
test_errors (void)
{
  g_autofree char *junk = random_bytes (5, 2048);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_null (adbscope_deviceidle_parse ("", 0, &e1));
  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_deviceidle_parse ("Can't find service: deviceidle\n", -1, &e2));
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  g_assert_null (adbscope_deviceidle_parse (junk, 2048, &e3));
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/deviceidle/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/deviceidle/android13", test_android13);
  g_test_add_func ("/dumpsys/deviceidle/android14", test_android14);
  g_test_add_func ("/dumpsys/deviceidle/android6-excerpt", test_android6_excerpt);
  g_test_add_func ("/dumpsys/deviceidle/dozing", test_dozing);
  g_test_add_func ("/dumpsys/deviceidle/errors", test_errors);

  return g_test_run ();
}
