/* test-thermal.c: `dumpsys thermalservice` parser against real captures
 *
 * Expected numbers were read off the fixture files by eye.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-thermal.h"
#include "dumpsys-test-util.h"

/* A capture kept in tests/dumpsys/data (see its SOURCES.md). */
static AdbscopeThermal *
parse_repo_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "dumpsys", "data", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeThermal *th;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  th = adbscope_thermal_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (th);
  return th;
}

static AdbscopeThermal *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("thermal", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeThermal *th;
  gsize len;

  text = load_fixture (path, &len);
  th = adbscope_thermal_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (th);
  return th;
}

static const AdbscopeThermalTemperature *
temp_at (GArray *a,
         guint   i)
{
  g_assert_cmpuint (i, <, a->len);
  return &g_array_index (a, AdbscopeThermalTemperature, i);
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("thermal");

  g_assert_cmpuint (names->len, >=, 3);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(AdbscopeThermal) th = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (names, i), &len);
      th = adbscope_thermal_parse (text, len, &error);
      g_assert_no_error (error);
      g_assert_cmpint (th->status, ==, ADBSCOPE_THERMAL_STATUS_NONE);
      g_assert_cmpint (th->hal_ready, ==, 1);
      g_assert_cmpint (th->hal_connected, ==, 1);
      g_assert_cmpuint (th->current->len, >, 0);
    }
}

static void
test_android13_hal2 (void)
{
  g_autoptr(AdbscopeThermal) th = parse_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-thermalservice.txt");
  const AdbscopeThermalTemperature *t;
  const AdbscopeThermalCoolingDevice *c;
  double v;

  g_assert_cmpstr (th->hal_version, ==, "ThermalHAL 2.0");
  g_assert_cmpuint (th->cached->len, ==, 4);
  g_assert_cmpuint (th->current->len, ==, 4);
  /* Cached CPU 50.2 vs current CPU 45.3: the current one wins. */
  g_assert_cmpfloat_with_epsilon (temp_at (th->cached, 0)->value, 50.2, 1e-9);
  t = temp_at (th->current, 0);
  g_assert_cmpstr (t->name, ==, "CPU");
  g_assert_cmpint (t->type, ==, ADBSCOPE_THERMAL_TYPE_CPU);
  g_assert_cmpfloat_with_epsilon (t->value, 45.3, 1e-9);
  g_assert_cmpint (t->status, ==, 0);
  t = temp_at (th->current, 3);
  g_assert_cmpstr (t->name, ==, "NPU");
  g_assert_cmpstr (adbscope_thermal_type_to_string (t->type), ==, "NPU");
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 35.0, 1e-9);
  g_assert_false (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_BATTERY, &v));
  /* cpu_adaptive_0 … mtkclVR_FPS */
  g_assert_cmpuint (th->cooling_devices->len, >, 50);
  c = &g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0);
  g_assert_cmpstr (c->name, ==, "cpu_adaptive_0");
  g_assert_cmpint (c->type, ==, 2);
  g_assert_cmpint (c->value, ==, 0);
}

static void
test_aidl3 (void)
{
  g_autoptr(AdbscopeThermal) th = parse_fixture ("android14plus-xiaomi-sd8gen3-thermalservice-aidl3-full.txt");
  const AdbscopeThermalCoolingDevice *c;
  gboolean found_kgsl = FALSE;
  double v;

  /* "ThermalHAL AIDL 3  connected: yes": two blanks, trimmed. */
  g_assert_cmpstr (th->hal_version, ==, "ThermalHAL AIDL 3");
  g_assert_cmpuint (th->cached->len, ==, 26);
  g_assert_cmpuint (th->current->len, ==, 26);
  g_assert_cmpstr (temp_at (th->current, 0)->name, ==, "battery");
  g_assert_cmpfloat_with_epsilon (temp_at (th->current, 0)->value, 31.2, 1e-9);
  /* ibat is a current (BCL_CURRENT) and may be negative. */
  g_assert_cmpstr (temp_at (th->current, 3)->name, ==, "ibat");
  g_assert_cmpint (temp_at (th->current, 3)->type, ==, ADBSCOPE_THERMAL_TYPE_BCL_CURRENT);
  g_assert_cmpfloat_with_epsilon (temp_at (th->current, 3)->value, -1.125, 1e-9);
  g_assert_cmpint (temp_at (th->current, 1)->type, ==, ADBSCOPE_THERMAL_TYPE_BCL_VOLTAGE);
  /* Hottest current CPU: CPU1 and CPU0 … max 35.8 (cached ones are stale, 89.5). */
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 35.8, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_BATTERY, &v));
  g_assert_cmpfloat_with_epsilon (v, 31.2, 1e-9);
  g_assert_cmpuint (th->cooling_devices->len, ==, 18);
  c = &g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0);
  g_assert_cmpstr (c->name, ==, "panel0-backlight");
  g_assert_cmpint (c->value, ==, 255);
  for (guint i = 0; i < th->cooling_devices->len; i++)
    if (g_strcmp0 (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, i).name,
                   "devfreq-3d00000.qcom,kgsl-3d0") == 0)
      found_kgsl = TRUE;
  g_assert_true (found_kgsl);
}

static void
test_samsung (void)
{
  g_autoptr(AdbscopeThermal) th = parse_fixture ("samsung-a52-5g-android12-thermalservice.txt");
  double v;

  g_assert_cmpuint (th->cached->len, ==, 9);
  g_assert_cmpuint (th->current->len, ==, 9);
  g_assert_cmpuint (th->cooling_devices->len, ==, 0);
  g_assert_cmpstr (temp_at (th->current, 0)->name, ==, "AP");
  g_assert_cmpfloat_with_epsilon (temp_at (th->current, 0)->value, 25.6, 1e-9);
  g_assert_cmpint (temp_at (th->current, 5)->type, ==, ADBSCOPE_THERMAL_TYPE_POWER_AMPLIFIER);
  g_assert_cmpstr (adbscope_thermal_type_to_string (5), ==, "POWER_AMPLIFIER");
  /* BAT 23.8, SUBBAT 0.0, SUBBATRAW 0.0 */
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_BATTERY, &v));
  g_assert_cmpfloat_with_epsilon (v, 23.8, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 24.7, 1e-9);
}

/* Samsung's own HAL ("Sdhms connected: yes") numbers the types one above
 * AOSP's: the names TYPE_CPU… are authoritative. */
static void
test_samsung_sdhms (void)
{
  g_autoptr(AdbscopeThermal) th = parse_repo_fixture ("samsung-sdhms-thermalservice-skia-buildbot.txt");
  double v;

  g_assert_cmpint (th->hal_connected, ==, 1);
  g_assert_cmpint (th->hal_ready, ==, 1);
  g_assert_cmpstr (th->hal_version, ==, "Sdhms");
  g_assert_cmpuint (th->current->len, ==, 5);
  g_assert_cmpuint (th->cached->len, ==, 5);
  g_assert_cmpstr (temp_at (th->current, 0)->name, ==, "TYPE_CPU");
  g_assert_cmpint (temp_at (th->current, 0)->type, ==, ADBSCOPE_THERMAL_TYPE_CPU);
  g_assert_cmpint (temp_at (th->current, 1)->type, ==, ADBSCOPE_THERMAL_TYPE_BATTERY);
  g_assert_cmpint (temp_at (th->current, 2)->type, ==, ADBSCOPE_THERMAL_TYPE_SKIN);
  g_assert_cmpint (temp_at (th->current, 3)->type, ==, ADBSCOPE_THERMAL_TYPE_USB_PORT);
  g_assert_cmpint (temp_at (th->current, 4)->type, ==, ADBSCOPE_THERMAL_TYPE_POWER_AMPLIFIER);
  /* By the number, 24.0 would have been the GPU and 25.3 the USB port. */
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 24.0, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 25.3, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_BATTERY, &v));
  g_assert_cmpfloat_with_epsilon (v, 24.4, 1e-9);
  g_assert_false (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_GPU, &v));
  g_assert_cmpuint (th->cooling_devices->len, ==, 4);
  g_assert_cmpint (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0).type, ==, 2);
}

/* Thermal HAL variants from memfault/bort's parser tests (SOURCES.md). */
static void
test_aidl1_samsung (void)
{
  g_autoptr(AdbscopeThermal) th = parse_repo_fixture ("samsung-thermalhal-aidl1-thresholds-memfault-bort.txt");
  double v;

  g_assert_cmpstr (th->hal_version, ==, "ThermalHAL AIDL 1");
  g_assert_cmpint (th->hal_connected, ==, 1);
  g_assert_cmpuint (th->cached->len, ==, 6);
  g_assert_cmpuint (th->current->len, ==, 6);
  /* an empty cooling list, then threshold lines that are not temperatures */
  g_assert_cmpuint (th->cooling_devices->len, ==, 0);
  g_assert_cmpstr (temp_at (th->current, 0)->name, ==, "AP");
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 34.6, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_BATTERY, &v));
  g_assert_cmpfloat_with_epsilon (v, 25.2, 1e-9);
}

static void
test_qcom_bcl_npu (void)
{
  g_autoptr(AdbscopeThermal) th = parse_repo_fixture ("qcom-bcl-nsp-cooling-devices-memfault-bort.txt");
  double v;

  g_assert_cmpstr (th->hal_version, ==, "ThermalHAL 2.0");
  g_assert_cmpuint (th->current->len, ==, 14);
  g_assert_cmpuint (th->cooling_devices->len, ==, 12);
  g_assert_cmpint (temp_at (th->current, 0)->type, ==, ADBSCOPE_THERMAL_TYPE_BCL_PERCENTAGE);
  g_assert_cmpfloat_with_epsilon (temp_at (th->current, 7)->value, 4.384, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_NPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 34.7, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 36.2, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_GPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 34.3, 1e-9);
  g_assert_cmpstr (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 3).name, ==, "cdsp_hw");
}

static void
test_hidl_thresholds_throttling (void)
{
  g_autoptr(AdbscopeThermal) th = parse_repo_fixture ("hidl-struct-thresholds-throttling-memfault-bort.txt");
  double v;

  g_assert_cmpint (th->status, ==, ADBSCOPE_THERMAL_STATUS_MODERATE);
  g_assert_cmpuint (th->current->len, ==, 11);
  g_assert_cmpint (temp_at (th->current, 1)->status, ==, 2);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 44.637, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 48.2, 1e-9);
  /* throttled cooling devices, and the HIDL-struct thresholds are no device */
  g_assert_cmpuint (th->cooling_devices->len, ==, 9);
  g_assert_cmpint (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0).value, ==, 11);
  g_assert_cmpstr (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 8).name, ==, "thermal-cpufreq-1");
}

static void
test_names_with_spaces (void)
{
  g_autoptr(AdbscopeThermal) th = parse_repo_fixture ("emulator-names-with-spaces-memfault-bort.txt");
  double v;

  g_assert_cmpuint (th->current->len, ==, 1);
  g_assert_cmpstr (temp_at (th->current, 0)->name, ==, "test temperature sensor");
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 30.8, 1e-9);
  g_assert_cmpuint (th->cooling_devices->len, ==, 1);
  g_assert_cmpstr (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0).name, ==, "test cooling device");
  g_assert_cmpint (g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, 0).value, ==, 100);
}

static void
test_status_and_nan (void)
{
  g_autoptr(AdbscopeThermal) th =
    adbscope_thermal_parse ("Thermal Status: 3\nCurrent temperatures from HAL:\n"
                            "\tTemperature{mValue=NaN, mType=3, mName=skin, mStatus=0}\n"
                            "\tTemperature{mValue=41.5, mType=3, mName=skin2, mStatus=2}\n", -1, NULL);
  double v = 0;

  g_assert_nonnull (th);
  g_assert_cmpint (th->status, ==, ADBSCOPE_THERMAL_STATUS_SEVERE);
  g_assert_cmpstr (adbscope_thermal_status_to_string (th->status), ==, "SEVERE");
  g_assert_cmpint (th->hal_ready, ==, -1);
  g_assert_true (isnan (temp_at (th->current, 0)->value));
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SKIN, &v));
  g_assert_cmpfloat_with_epsilon (v, 41.5, 1e-9);
  g_assert_cmpint (temp_at (th->current, 1)->status, ==, 2);
}

/* A sensor's name is the vendor's label, not its type: Qualcomm's battery
 * state of charge is mName=soc, mType=8 (BCL_PERCENTAGE), and must not
 * become a SoC temperature of 0 °C.  A name fills in only where the
 * number is unknown or vendor-specific (synthetic, the shape of a real
 * capture). */
static void
test_name_only_fills_in (void)
{
  g_autoptr(AdbscopeThermal) th =
    adbscope_thermal_parse ("Thermal Status: 0\nCurrent temperatures from HAL:\n"
                            "\tTemperature{mValue=0.0, mType=8, mName=soc, mStatus=0}\n"
                            "\tTemperature{mValue=38.5, mType=0, mName=gpu, mStatus=0}\n"
                            "\tTemperature{mValue=31.5, mType=2, mName=skin, mStatus=0}\n"
                            "\tTemperature{mValue=44.0, mType=-1, mName=soc, mStatus=0}\n"
                            "\tTemperature{mValue=36.0, mType=42, mName=cpu, mStatus=0}\n", -1, NULL);
  double v = 0;

  g_assert_nonnull (th);
  g_assert_cmpint (temp_at (th->current, 0)->type, ==, ADBSCOPE_THERMAL_TYPE_BCL_PERCENTAGE);
  g_assert_cmpint (temp_at (th->current, 1)->type, ==, ADBSCOPE_THERMAL_TYPE_CPU);
  g_assert_cmpint (temp_at (th->current, 2)->type, ==, ADBSCOPE_THERMAL_TYPE_BATTERY);
  /* unknown or vendor-specific numbers: the name fills in */
  g_assert_cmpint (temp_at (th->current, 3)->type, ==, ADBSCOPE_THERMAL_TYPE_SOC);
  g_assert_cmpint (temp_at (th->current, 4)->type, ==, ADBSCOPE_THERMAL_TYPE_CPU);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_SOC, &v));
  g_assert_cmpfloat_with_epsilon (v, 44.0, 1e-9);
  g_assert_true (adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v));
  g_assert_cmpfloat_with_epsilon (v, 38.5, 1e-9);
}

static void
test_errors (void)
{
  g_autofree char *junk = random_bytes (11, 2048);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_null (adbscope_thermal_parse ("", 0, &e1));
  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_thermal_parse ("Can't find service: thermalservice\n", -1, &e2));
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  g_assert_null (adbscope_thermal_parse (junk, 2048, &e3));
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/thermal/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/thermal/android13-hal2", test_android13_hal2);
  g_test_add_func ("/dumpsys/thermal/aidl3", test_aidl3);
  g_test_add_func ("/dumpsys/thermal/samsung", test_samsung);
  g_test_add_func ("/dumpsys/thermal/samsung-sdhms", test_samsung_sdhms);
  g_test_add_func ("/dumpsys/thermal/aidl1-samsung", test_aidl1_samsung);
  g_test_add_func ("/dumpsys/thermal/qcom-bcl-npu", test_qcom_bcl_npu);
  g_test_add_func ("/dumpsys/thermal/hidl-thresholds-throttling", test_hidl_thresholds_throttling);
  g_test_add_func ("/dumpsys/thermal/names-with-spaces", test_names_with_spaces);
  g_test_add_func ("/dumpsys/thermal/status-and-nan", test_status_and_nan);
  g_test_add_func ("/dumpsys/thermal/errors", test_errors);
  g_test_add_func ("/dumpsys/thermal/name-only-fills-in", test_name_only_fills_in);

  return g_test_run ();
}
