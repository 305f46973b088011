/* adbscope-plausible.c: values no device can have (the rules are in the header) */
#include "config.h"

#include <math.h>

#include "adbscope-plausible.h"

const char *
adbscope_implausible_to_string (AdbscopeImplausible kind)
{
  static const char * const names[ADBSCOPE_IMPLAUSIBLE_N] = {
    "battery_level", "battery_temp", "voltage", "temperature", "device_clock",
  };

  return kind < ADBSCOPE_IMPLAUSIBLE_N ? names[kind] : NULL;
}

/* NaN is "not read", not implausible: only a number can be. */
gboolean
adbscope_plausible_battery_level (double pct)
{
  return !isfinite (pct) ? isnan (pct) : pct >= 0 && pct <= 100;
}

gboolean
adbscope_plausible_temperature_c (double c)
{
  return !isfinite (c) ? isnan (c) : c >= -273.15 && c <= ADBSCOPE_PLAUSIBLE_MAX_TEMP_C;
}

gboolean
adbscope_plausible_voltage_mv (double mv)
{
  return !isfinite (mv) ? isnan (mv) : mv > 0 && mv <= ADBSCOPE_PLAUSIBLE_MAX_VOLTAGE_MV;
}

/* Between two reads the device's uptime may run ahead of the host's
 * clock by a slow answer's round trip, never by much more: more than twice
 * the host's time and 2 s is a clock that jumped (or text that lies). */
gboolean
adbscope_plausible_clock_step (double device_s,
                               double host_s)
{
  if (!isfinite (device_s) || !isfinite (host_s))
    return TRUE;
  return device_s <= 2 * MAX (host_s, 0) + 2.0;
}
