/* adbscope-plausible.h: values no device can have
 *
 * A phone's text can hold numbers no phone can measure: a battery level
 * above its scale, a temperature below absolute zero, 1e11 mV, an uptime
 * that ran far ahead of the host's clock.  Such a value is not a
 * measurement: the collectors make it NaN (the report's null) and count it
 * by kind, and the report says how many (`run.implausible`).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_IMPLAUSIBLE_BATTERY_LEVEL,   /* outside 0..100 % (a level above its scale) */
  ADBSCOPE_IMPLAUSIBLE_BATTERY_TEMP,    /* the battery's °C, as below */
  ADBSCOPE_IMPLAUSIBLE_VOLTAGE,         /* outside 0 < V ≤ 100 V */
  ADBSCOPE_IMPLAUSIBLE_TEMPERATURE,     /* a thermal sensor below absolute zero or above 500 °C */
  ADBSCOPE_IMPLAUSIBLE_DEVICE_CLOCK,    /* uptime ran far ahead of the host's clock */
  ADBSCOPE_IMPLAUSIBLE_N
} AdbscopeImplausible;

#define ADBSCOPE_PLAUSIBLE_MAX_TEMP_C     500.0
#define ADBSCOPE_PLAUSIBLE_MAX_VOLTAGE_MV 100000.0

const char *adbscope_implausible_to_string       (AdbscopeImplausible kind);
gboolean    adbscope_plausible_battery_level     (double              pct);
gboolean    adbscope_plausible_temperature_c     (double              c);
gboolean    adbscope_plausible_voltage_mv        (double              mv);
gboolean    adbscope_plausible_clock_step        (double              device_s,
                                                  double              host_s);

G_END_DECLS
