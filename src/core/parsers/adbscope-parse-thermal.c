/* adbscope-parse-thermal.c: `dumpsys thermalservice` → struct */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-dumpsys-private.h"
#include "adbscope-parse-thermal.h"

static const char * const type_names[] = {
  "CPU", "GPU", "BATTERY", "SKIN", "USB_PORT", "POWER_AMPLIFIER",
  "BCL_VOLTAGE", "BCL_CURRENT", "BCL_PERCENTAGE", "NPU", "TPU", "DISPLAY",
  "MODEM", "SOC", "WIFI", "CAMERA", "FLASHLIGHT", "SPEAKER", "AMBIENT", "POGO",
};

static const char * const status_names[] = {
  "NONE", "LIGHT", "MODERATE", "SEVERE", "CRITICAL", "EMERGENCY", "SHUTDOWN",
};

typedef enum
{
  SECTION_NONE,
  SECTION_CACHED,
  SECTION_CURRENT,
  SECTION_COOLING,
  SECTION_HAL,
} Section;

static void
temperature_clear (gpointer data)
{
  AdbscopeThermalTemperature *t = data;

  g_free (t->name);
}

static void
cooling_clear (gpointer data)
{
  AdbscopeThermalCoolingDevice *c = data;

  g_free (c->name);
}

void
adbscope_thermal_free (AdbscopeThermal *thermal)
{
  if (thermal == NULL)
    return;
  g_free (thermal->hal_version);
  g_array_unref (thermal->cached);
  g_array_unref (thermal->current);
  g_array_unref (thermal->cooling_devices);
  g_free (thermal);
}

/* The value of "key=" inside "Temperature{mValue=25.6, mType=0, …}", up to
 * the next ", " or "}". */
static char *
field (const char *record,
       const char *key)
{
  const char *s = strstr (record, key);
  const char *end;

  if (s == NULL)
    return NULL;
  s += strlen (key);
  end = s;
  while (*end != '\0' && *end != ',' && *end != '}')
    end++;
  return _adbscope_dup_valid (s, end - s);
}

/* mName may hold a comma ("devfreq-3d00000.qcom,kgsl-3d0"): it runs to
 * ", mStatus=" or the closing brace. */
static char *
name_field (const char *record)
{
  const char *s = strstr (record, "mName=");
  const char *end;

  if (s == NULL)
    return NULL;
  s += 6;
  if ((end = strstr (s, ", mStatus=")) == NULL && (end = strrchr (s, '}')) == NULL)
    end = s + strlen (s);
  return _adbscope_dup_valid (s, end - s);
}

static gboolean
int_field (const char *record,
           const char *key,
           gint64     *out)
{
  g_autofree char *v = field (record, key);
  const char *end;

  return v != NULL && _adbscope_parse_int64 (v, &end, out) && *end == '\0';
}

static gboolean
parse_temperature (const char                 *t,
                   AdbscopeThermalTemperature *temp)
{
  g_autofree char *value = field (t, "mValue=");
  gint64 type = -1, status = 0;
  const char *end;

  if (value == NULL || !int_field (t, "mType=", &type))
    return FALSE;
  if (g_ascii_strcasecmp (value, "NaN") == 0)
    temp->value = NAN;
  else if (!_adbscope_dumpsys_parse_double (value, &end, &temp->value) || *end != '\0')
    return FALSE;
  int_field (t, "mStatus=", &status);
  temp->type = (int) CLAMP (type, G_MININT, G_MAXINT);
  temp->name = name_field (t);
  /* The type is the number.  A sensor's name is a vendor's label ("soc" is
   * the battery's state of charge, mType=8 BCL_PERCENTAGE, on Qualcomm):
   * it only fills in where the number is unknown or vendor-specific, and
   * only when it is a type's name.  The exception is a name spelled as
   * the enum constant itself: Samsung's own HAL numbers the types one
   * above AOSP's and names each "TYPE_CPU", "TYPE_BATTERY", … — that name
   * is the type. */
  if (temp->name != NULL &&
      (g_str_has_prefix (temp->name, "TYPE_") ||
       temp->type < ADBSCOPE_THERMAL_TYPE_CPU || temp->type > ADBSCOPE_THERMAL_TYPE_POGO))
    {
      const char *n = g_str_has_prefix (temp->name, "TYPE_") ? temp->name + 5 : temp->name;

      for (int i = ADBSCOPE_THERMAL_TYPE_CPU; i <= ADBSCOPE_THERMAL_TYPE_POGO; i++)
        if (g_ascii_strcasecmp (n, adbscope_thermal_type_to_string (i)) == 0)
          {
            temp->type = i;
            break;
          }
    }
  temp->status = (int) CLAMP (status, G_MININT, G_MAXINT);
  return TRUE;
}

static gboolean
parse_cooling (const char                   *t,
               AdbscopeThermalCoolingDevice *dev)
{
  gint64 type = -1;

  if (!int_field (t, "mValue=", &dev->value) || !int_field (t, "mType=", &type))
    return FALSE;
  dev->type = (int) CLAMP (type, G_MININT, G_MAXINT);
  dev->name = name_field (t);
  return TRUE;
}

static int
parse_bool (const char *s)
{
  s = _adbscope_skip_space (s);
  if (g_str_has_prefix (s, "true") || g_str_has_prefix (s, "yes"))
    return 1;
  if (g_str_has_prefix (s, "false") || g_str_has_prefix (s, "no"))
    return 0;
  return -1;
}

AdbscopeThermal *
adbscope_thermal_parse (const char  *text,
                        gssize       len,
                        GError     **error)
{
  g_autoptr(AdbscopeThermal) th = NULL;
  AdbscopeLines lines;
  Section section = SECTION_NONE;
  gboolean any_text = FALSE;
  gboolean seen_status = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  th = g_new0 (AdbscopeThermal, 1);
  th->status = ADBSCOPE_THERMAL_STATUS_UNKNOWN;
  th->hal_ready = th->hal_connected = -1;
  th->cached = g_array_new (FALSE, FALSE, sizeof (AdbscopeThermalTemperature));
  th->current = g_array_new (FALSE, FALSE, sizeof (AdbscopeThermalTemperature));
  th->cooling_devices = g_array_new (FALSE, FALSE, sizeof (AdbscopeThermalCoolingDevice));
  g_array_set_clear_func (th->cached, temperature_clear);
  g_array_set_clear_func (th->current, temperature_clear);
  g_array_set_clear_func (th->cooling_devices, cooling_clear);

  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      const char *rest;
      const char *connected;

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

      if ((rest = _adbscope_after_prefix (t, "Thermal Status: ")) != NULL)
        {
          gint64 v;

          if (_adbscope_parse_int64 (rest, NULL, &v) && v >= 0 && v <= ADBSCOPE_THERMAL_STATUS_SHUTDOWN)
            th->status = (AdbscopeThermalStatus) v;
          seen_status = TRUE;
          section = SECTION_NONE;
        }
      else if (strcmp (t, "Cached temperatures:") == 0)
        section = SECTION_CACHED;
      else if (strcmp (t, "Current temperatures from HAL:") == 0)
        section = SECTION_CURRENT;
      else if (strcmp (t, "Current cooling devices from HAL:") == 0)
        section = SECTION_COOLING;
      else if ((rest = _adbscope_after_prefix (t, "HAL Ready: ")) != NULL)
        {
          th->hal_ready = parse_bool (rest);
          section = SECTION_NONE;
        }
      else if (strcmp (t, "HAL connection:") == 0)
        section = SECTION_HAL;
      else if ((g_str_has_prefix (t, "ThermalHAL") || section == SECTION_HAL)
               && (connected = strstr (t, " connected: ")) != NULL)
        {
          /* "ThermalHAL AIDL 3  connected: yes" (two blanks on AIDL);
           * Samsung's own HAL: "Sdhms connected: yes" */
          g_free (th->hal_version);
          th->hal_version = _adbscope_dup_valid (t, connected - t);
          g_strchomp (th->hal_version);
          th->hal_connected = parse_bool (connected + 12);
        }
      else if (g_str_has_prefix (t, "Temperature{") &&
               (section == SECTION_CACHED || section == SECTION_CURRENT))
        {
          AdbscopeThermalTemperature temp = { 0 };

          if (parse_temperature (t, &temp))
            g_array_append_val (section == SECTION_CACHED ? th->cached : th->current, temp);
        }
      else if (g_str_has_prefix (t, "CoolingDevice{") && section == SECTION_COOLING)
        {
          AdbscopeThermalCoolingDevice dev = { 0 };

          if (parse_cooling (t, &dev))
            g_array_append_val (th->cooling_devices, dev);
        }
      else if (line == t && g_str_has_suffix (t, ":"))
        section = SECTION_NONE;
    }
  _adbscope_lines_clear (&lines);

  if (!seen_status && th->current->len == 0 && th->cached->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   !any_text
                   ? _("The thermalservice output is empty")
                   : _("The text is not thermalservice output: no “Thermal Status” line and no temperatures"));
      return NULL;
    }

  return g_steal_pointer (&th);
}

/* Highest current temperature of @type (cached ones when the HAL gave
 * none); FALSE when there is none. */
gboolean
adbscope_thermal_max_of_type (const AdbscopeThermal *thermal,
                              int                    type,
                              double                *value)
{
  GArray *arrays[2];
  gboolean found = FALSE;
  double max = -INFINITY;

  g_return_val_if_fail (thermal != NULL, FALSE);

  arrays[0] = thermal->current;
  arrays[1] = thermal->cached;
  for (guint a = 0; a < 2 && !found; a++)
    for (guint i = 0; i < arrays[a]->len; i++)
      {
        const AdbscopeThermalTemperature *t = &g_array_index (arrays[a], AdbscopeThermalTemperature, i);

        if (t->type == type && !isnan (t->value))
          {
            max = MAX (max, t->value);
            found = TRUE;
          }
      }

  if (found && value != NULL)
    *value = max;
  return found;
}

const char *
adbscope_thermal_type_to_string (int type)
{
  if (type >= 0 && type < (int) G_N_ELEMENTS (type_names))
    return type_names[type];
  return "UNKNOWN";
}

const char *
adbscope_thermal_status_to_string (int status)
{
  if (status >= 0 && status < (int) G_N_ELEMENTS (status_names))
    return status_names[status];
  return "UNKNOWN";
}
