/* adbscope-parse-battery.c: `dumpsys battery` → struct */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-battery.h"
#include "adbscope-parse-dumpsys-private.h"

#define FIELD(f) G_STRUCT_OFFSET (AdbscopeBattery, f)

static const struct
{
  const char *key;
  gssize      offset;
} flag_keys[] = {
  { "AC powered", FIELD (ac_powered) },
  { "USB powered", FIELD (usb_powered) },
  { "Wireless powered", FIELD (wireless_powered) },
  { "Dock powered", FIELD (dock_powered) },
  { "present", FIELD (present) },
};

static const struct
{
  const char *key;
  gssize      offset;
} number_keys[] = {
  { "status", FIELD (status_raw) },
  { "health", FIELD (health_raw) },
  { "level", FIELD (level) },
  { "scale", FIELD (scale) },
  { "voltage", FIELD (voltage_mv) },
  { "temperature", FIELD (temperature_decidegc) },
  { "Charge counter", FIELD (charge_counter_uah) },
  { "Max charging current", FIELD (max_charging_current_ua) },
  { "Max charging voltage", FIELD (max_charging_voltage_uv) },
  { "current now", FIELD (current_now) },
};

#undef FIELD

void
adbscope_battery_free (AdbscopeBattery *battery)
{
  if (battery == NULL)
    return;
  g_free (battery->technology);
  g_free (battery);
}

AdbscopeBattery *
adbscope_battery_parse (const char  *text,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(AdbscopeBattery) b = NULL;
  AdbscopeLines lines;
  gboolean seen_header = FALSE;
  gboolean any_text = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  b = g_new0 (AdbscopeBattery, 1);
  for (guint i = 0; i < G_N_ELEMENTS (flag_keys); i++)
    G_STRUCT_MEMBER (AdbscopeBatteryFlag, b, flag_keys[i].offset) = ADBSCOPE_BATTERY_FLAG_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (number_keys); i++)
    G_STRUCT_MEMBER (gint64, b, number_keys[i].offset) = -1;

  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      const char *colon;
      g_autofree char *key = NULL;
      const char *value;

      if (*t == '\0')
        continue;
      any_text = TRUE;
      if (!_adbscope_check_common_errors (t, error))
        {
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if (g_str_has_prefix (t, "Current Battery Service state"))
        {
          seen_header = TRUE;
          continue;
        }
      if (strstr (t, "UPDATES STOPPED") != NULL)
        {
          b->updates_stopped = TRUE;
          continue;
        }

      /* Vendor lines are not always indented: read every "key: value". */
      colon = strchr (t, ':');
      if (colon == NULL)
        continue;
      key = g_strndup (t, colon - t);
      value = _adbscope_skip_space (colon + 1);

      for (guint i = 0; i < G_N_ELEMENTS (flag_keys); i++)
        if (strcmp (key, flag_keys[i].key) == 0)
          {
            AdbscopeBatteryFlag *flag = &G_STRUCT_MEMBER (AdbscopeBatteryFlag, b, flag_keys[i].offset);

            if (g_str_has_prefix (value, "true"))
              *flag = ADBSCOPE_BATTERY_FLAG_TRUE;
            else if (g_str_has_prefix (value, "false"))
              *flag = ADBSCOPE_BATTERY_FLAG_FALSE;
          }

      for (guint i = 0; i < G_N_ELEMENTS (number_keys); i++)
        if (strcmp (key, number_keys[i].key) == 0)
          {
            gint64 v;
            const char *end;

            if (_adbscope_parse_int64 (value, &end, &v) && *_adbscope_skip_space (end) == '\0')
              G_STRUCT_MEMBER (gint64, b, number_keys[i].offset) = v;
          }

      if (strcmp (key, "technology") == 0 && *value != '\0')
        {
          g_free (b->technology);
          b->technology = _adbscope_dup_valid (value, -1);
          g_strchomp (b->technology);
        }
    }
  _adbscope_lines_clear (&lines);

  if (b->level < 0)
    {
      if (!any_text)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("The battery output is empty"));
      else
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     seen_header
                     ? _("The battery output has no “level” line (truncated?)")
                     : _("The text is not battery output: no “level” line"));
      return NULL;
    }

  b->status = b->status_raw >= ADBSCOPE_BATTERY_STATUS_UNKNOWN && b->status_raw <= ADBSCOPE_BATTERY_STATUS_FULL
              ? (AdbscopeBatteryStatus) b->status_raw : ADBSCOPE_BATTERY_STATUS_UNKNOWN;
  b->health = b->health_raw >= ADBSCOPE_BATTERY_HEALTH_UNKNOWN && b->health_raw <= ADBSCOPE_BATTERY_HEALTH_COLD
              ? (AdbscopeBatteryHealth) b->health_raw : ADBSCOPE_BATTERY_HEALTH_UNKNOWN;

  return g_steal_pointer (&b);
}

gboolean
adbscope_battery_is_powered (const AdbscopeBattery *battery)
{
  g_return_val_if_fail (battery != NULL, FALSE);

  return battery->ac_powered == ADBSCOPE_BATTERY_FLAG_TRUE ||
         battery->usb_powered == ADBSCOPE_BATTERY_FLAG_TRUE ||
         battery->wireless_powered == ADBSCOPE_BATTERY_FLAG_TRUE ||
         battery->dock_powered == ADBSCOPE_BATTERY_FLAG_TRUE;
}

/* level/scale in percent; NAN when the scale is unusable. */
double
adbscope_battery_level_percent (const AdbscopeBattery *battery)
{
  g_return_val_if_fail (battery != NULL, NAN);

  if (battery->level < 0)
    return NAN;
  if (battery->scale <= 0)
    return battery->level <= 100 ? (double) battery->level : NAN;
  return 100.0 * (double) battery->level / (double) battery->scale;
}

const char *
adbscope_battery_status_to_string (AdbscopeBatteryStatus status)
{
  switch (status)
    {
    case ADBSCOPE_BATTERY_STATUS_CHARGING: return "charging";
    case ADBSCOPE_BATTERY_STATUS_DISCHARGING: return "discharging";
    case ADBSCOPE_BATTERY_STATUS_NOT_CHARGING: return "not_charging";
    case ADBSCOPE_BATTERY_STATUS_FULL: return "full";
    case ADBSCOPE_BATTERY_STATUS_UNKNOWN:
    default: return "unknown";
    }
}

const char *
adbscope_battery_health_to_string (AdbscopeBatteryHealth health)
{
  switch (health)
    {
    case ADBSCOPE_BATTERY_HEALTH_GOOD: return "good";
    case ADBSCOPE_BATTERY_HEALTH_OVERHEAT: return "overheat";
    case ADBSCOPE_BATTERY_HEALTH_DEAD: return "dead";
    case ADBSCOPE_BATTERY_HEALTH_OVER_VOLTAGE: return "over_voltage";
    case ADBSCOPE_BATTERY_HEALTH_UNSPECIFIED_FAILURE: return "unspecified_failure";
    case ADBSCOPE_BATTERY_HEALTH_COLD: return "cold";
    case ADBSCOPE_BATTERY_HEALTH_UNKNOWN:
    default: return "unknown";
    }
}
