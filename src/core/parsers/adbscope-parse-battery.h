/* adbscope-parse-battery.h: `dumpsys battery` → struct
 *
 * Pure.  AOSP keys are read by name; vendor lines (Samsung's "current now",
 * LLB …) are skipped unless listed here.  Numbers not printed stay -1,
 * booleans not printed stay ADBSCOPE_BATTERY_FLAG_UNKNOWN.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_BATTERY_FLAG_UNKNOWN = -1,
  ADBSCOPE_BATTERY_FLAG_FALSE = 0,
  ADBSCOPE_BATTERY_FLAG_TRUE = 1,
} AdbscopeBatteryFlag;

/* BatteryManager.BATTERY_STATUS_* */
typedef enum
{
  ADBSCOPE_BATTERY_STATUS_UNKNOWN = 1,
  ADBSCOPE_BATTERY_STATUS_CHARGING = 2,
  ADBSCOPE_BATTERY_STATUS_DISCHARGING = 3,
  ADBSCOPE_BATTERY_STATUS_NOT_CHARGING = 4,
  ADBSCOPE_BATTERY_STATUS_FULL = 5,
} AdbscopeBatteryStatus;

/* BatteryManager.BATTERY_HEALTH_* */
typedef enum
{
  ADBSCOPE_BATTERY_HEALTH_UNKNOWN = 1,
  ADBSCOPE_BATTERY_HEALTH_GOOD = 2,
  ADBSCOPE_BATTERY_HEALTH_OVERHEAT = 3,
  ADBSCOPE_BATTERY_HEALTH_DEAD = 4,
  ADBSCOPE_BATTERY_HEALTH_OVER_VOLTAGE = 5,
  ADBSCOPE_BATTERY_HEALTH_UNSPECIFIED_FAILURE = 6,
  ADBSCOPE_BATTERY_HEALTH_COLD = 7,
} AdbscopeBatteryHealth;

typedef struct
{
  AdbscopeBatteryFlag   ac_powered;
  AdbscopeBatteryFlag   usb_powered;
  AdbscopeBatteryFlag   wireless_powered;
  AdbscopeBatteryFlag   dock_powered;       /* Android 13+ on some builds */
  AdbscopeBatteryFlag   present;
  AdbscopeBatteryStatus status;             /* numbers outside 1..5 → UNKNOWN */
  gint64                status_raw;
  AdbscopeBatteryHealth health;
  gint64                health_raw;
  gint64                level;
  gint64                scale;
  gint64                voltage_mv;
  gint64                temperature_decidegc; /* tenths of °C: 370 = 37.0 °C */
  char                 *technology;         /* "Li-ion", or NULL */
  gint64                charge_counter_uah;
  gint64                max_charging_current_ua;
  gint64                max_charging_voltage_uv;
  gint64                current_now;        /* vendor line "current now:", Samsung: mA */
  gboolean              updates_stopped;    /* after `dumpsys battery set/unplug`: values are fake */
} AdbscopeBattery;

AdbscopeBattery *adbscope_battery_parse          (const char            *text,
                                                  gssize                 len,
                                                  GError               **error);
void             adbscope_battery_free           (AdbscopeBattery       *battery);
gboolean         adbscope_battery_is_powered     (const AdbscopeBattery *battery);
double           adbscope_battery_level_percent  (const AdbscopeBattery *battery);
const char      *adbscope_battery_status_to_string (AdbscopeBatteryStatus status);
const char      *adbscope_battery_health_to_string (AdbscopeBatteryHealth health);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeBattery, adbscope_battery_free)

G_END_DECLS
