/* test-battery.c: `dumpsys battery` parser against real captures
 *
 * Expected numbers were read off the fixture files by eye.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-battery.h"
#include "dumpsys-test-util.h"

static AdbscopeBattery *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("battery", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeBattery *b;
  gsize len;

  text = load_fixture (path, &len);
  b = adbscope_battery_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b);
  return b;
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("battery");

  g_assert_cmpuint (names->len, >=, 3);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(AdbscopeBattery) b = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (names, i), &len);
      b = adbscope_battery_parse (text, len, &error);
      g_assert_no_error (error);
      g_assert_cmpint (b->level, >=, 0);
      g_assert_cmpint (b->scale, ==, 100);
      g_assert_cmpint (b->present, ==, ADBSCOPE_BATTERY_FLAG_TRUE);
    }
}

static void
test_android13_usb (void)
{
  g_autoptr(AdbscopeBattery) b = parse_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-battery.txt");

  g_assert_cmpint (b->ac_powered, ==, ADBSCOPE_BATTERY_FLAG_FALSE);
  g_assert_cmpint (b->usb_powered, ==, ADBSCOPE_BATTERY_FLAG_TRUE);
  g_assert_cmpint (b->wireless_powered, ==, ADBSCOPE_BATTERY_FLAG_FALSE);
  /* No "Dock powered" line on this build: unknown, not false. */
  g_assert_cmpint (b->dock_powered, ==, ADBSCOPE_BATTERY_FLAG_UNKNOWN);
  g_assert_true (adbscope_battery_is_powered (b));
  g_assert_cmpint (b->status, ==, ADBSCOPE_BATTERY_STATUS_CHARGING);
  g_assert_cmpstr (adbscope_battery_status_to_string (b->status), ==, "charging");
  g_assert_cmpint (b->health, ==, ADBSCOPE_BATTERY_HEALTH_GOOD);
  g_assert_cmpint (b->level, ==, 58);
  g_assert_cmpfloat_with_epsilon (adbscope_battery_level_percent (b), 58.0, 1e-9);
  g_assert_cmpint (b->voltage_mv, ==, 4060);
  g_assert_cmpint (b->temperature_decidegc, ==, 370);
  g_assert_cmpstr (b->technology, ==, "Li-ion");
  g_assert_cmpint (b->charge_counter_uah, ==, 1708680);
  g_assert_cmpint (b->max_charging_current_ua, ==, 0);
  g_assert_cmpint (b->current_now, ==, -1);
  g_assert_false (b->updates_stopped);
}

static void
test_android14_ac (void)
{
  g_autoptr(AdbscopeBattery) b = parse_fixture ("android14-xiaomi-pad6-dumpsys-battery-ac-charging.txt");

  g_assert_cmpint (b->ac_powered, ==, ADBSCOPE_BATTERY_FLAG_TRUE);
  g_assert_cmpint (b->usb_powered, ==, ADBSCOPE_BATTERY_FLAG_FALSE);
  g_assert_cmpint (b->dock_powered, ==, ADBSCOPE_BATTERY_FLAG_FALSE);
  g_assert_cmpint (b->max_charging_current_ua, ==, 1900000);
  g_assert_cmpint (b->max_charging_voltage_uv, ==, 12000000);
  g_assert_cmpint (b->charge_counter_uah, ==, 2010829);
  g_assert_cmpint (b->level, ==, 22);
  g_assert_cmpint (b->voltage_mv, ==, 3826);
  g_assert_cmpint (b->temperature_decidegc, ==, 337);
  g_assert_cmpstr (b->technology, ==, "Li-poly");
}

static void
test_samsung_vendor (void)
{
  g_autoptr(AdbscopeBattery) b = parse_fixture ("samsung-dumpsys-battery-vendor-extended.txt");

  g_assert_cmpint (b->usb_powered, ==, ADBSCOPE_BATTERY_FLAG_TRUE);
  g_assert_cmpint (b->status, ==, ADBSCOPE_BATTERY_STATUS_CHARGING);
  g_assert_cmpint (b->level, ==, 84);
  g_assert_cmpint (b->voltage_mv, ==, 4063);
  g_assert_cmpint (b->temperature_decidegc, ==, 326);
  /* "current now: 321" (vendor line); the lower-case duplicate
   * "charge counter: 0" does not override "Charge counter: 0". */
  g_assert_cmpint (b->current_now, ==, 321);
  g_assert_cmpint (b->charge_counter_uah, ==, 0);
  g_assert_cmpstr (b->technology, ==, "Li-ion");
}

static void
test_status_numbers (void)
{
  const struct { const char *text; AdbscopeBatteryStatus status; } cases[] = {
    { "  level: 5\n  status: 3\n", ADBSCOPE_BATTERY_STATUS_DISCHARGING },
    { "  level: 5\n  status: 4\n", ADBSCOPE_BATTERY_STATUS_NOT_CHARGING },
    { "  level: 5\n  status: 5\n", ADBSCOPE_BATTERY_STATUS_FULL },
    { "  level: 5\n  status: 9\n", ADBSCOPE_BATTERY_STATUS_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AdbscopeBattery) b = adbscope_battery_parse (cases[i].text, -1, NULL);

      g_assert_nonnull (b);
      g_assert_cmpint (b->status, ==, cases[i].status);
      g_assert_false (adbscope_battery_is_powered (b));
      g_assert_true (isnan (adbscope_battery_level_percent (b)) == FALSE);
    }
}

/* After `dumpsys battery unplug` the values are fake: say so. */
static void
test_updates_stopped (void)
{
  g_autoptr(AdbscopeBattery) b =
    adbscope_battery_parse ("Current Battery Service state:\n  (UPDATES STOPPED -- use 'reset' to restart)\n"
                            "  AC powered: false\n  level: 50\n  scale: 100\n", -1, NULL);

  g_assert_nonnull (b);
  g_assert_true (b->updates_stopped);
  g_assert_cmpint (b->level, ==, 50);
}

static void
test_errors (void)
{
  g_autofree char *junk = random_bytes (3, 2048);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;
  g_autoptr(GError) e5 = NULL;

  g_assert_null (adbscope_battery_parse ("", 0, &e1));
  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_battery_parse ("Can't find service: battery\n", -1, &e2));
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  /* Cut before the level line. */
  g_assert_null (adbscope_battery_parse ("Current Battery Service state:\n  AC powered: false\n  lev", -1, &e3));
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_battery_parse (junk, 2048, &e4));
  g_assert_error (e4, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  /* "level: 5" of "level: 58" without its newline is not trusted. */
  g_assert_null (adbscope_battery_parse ("  status: 2\n  level: 5", -1, &e5));
  g_assert_error (e5, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/battery/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/battery/android13-usb", test_android13_usb);
  g_test_add_func ("/dumpsys/battery/android14-ac", test_android14_ac);
  g_test_add_func ("/dumpsys/battery/samsung-vendor", test_samsung_vendor);
  g_test_add_func ("/dumpsys/battery/status-numbers", test_status_numbers);
  g_test_add_func ("/dumpsys/battery/updates-stopped", test_updates_stopped);
  g_test_add_func ("/dumpsys/battery/errors", test_errors);

  return g_test_run ();
}
