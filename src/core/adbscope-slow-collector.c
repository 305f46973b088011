/* adbscope-slow-collector.c: one 1 s ticker, each source at its own offset
 *
 *   battery      even seconds   dumpsys battery + power_supply current/voltage
 *   thermal      odd seconds    dumpsys thermalservice
 *   processes    every 5 s      ps -A (the package and its ":remote" kin)
 *   Doze/bucket  every 5 s      dumpsys deviceidle, am get-standby-bucket
 *   jobs/alarms  every 10 s     dumpsys jobscheduler PKG, dumpsys alarm
 *
 * Each part of the command is introduced by a "___S:NAME___" line so one
 * round trip carries all that is due.  Power is V × I where the kernel's
 * current_now is readable; a phone that hides it gets no power, not zero.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-parse-battery.h"
#include "adbscope-parse-deviceidle.h"
#include "adbscope-parse-grep.h"
#include "adbscope-parse-jobs.h"
#include "adbscope-parse-ps.h"
#include "adbscope-plausible.h"
#include "adbscope-parse-thermal.h"
#include "adbscope-slow-collector.h"
#include "adbscope-slow-collector-private.h"

#define POWER_SUPPLY ADBSCOPE_POWER_SUPPLY

struct _AdbscopeSlowCollector
{
  AdbscopeCollector  parent_instance;
  gboolean           thermal;
  gboolean           doze;
  gboolean           jobs;
  gboolean           alarms;
};

G_DEFINE_FINAL_TYPE (AdbscopeSlowCollector, adbscope_slow_collector, ADBSCOPE_TYPE_COLLECTOR)


static void
app_process_clear (AdbscopeAppProcess *p)
{
  g_free (p->name);
}

void
adbscope_slow_sample_free (AdbscopeSlowSample *s)
{
  if (s == NULL)
    return;
  g_free (s->doze_deep);
  g_free (s->doze_light);
  g_free (s->standby_bucket);
  g_clear_pointer (&s->processes, g_array_unref);
  g_free (s);
}

char *
_adbscope_slow_collector_command (AdbscopeSlowCollector *self,
                                  guint                  tick)
{
  const char *package = adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self));
  GString *cmd = g_string_new (NULL);

  if (tick % 2 == 0)
    g_string_append (cmd, "echo ___S:battery___; " ADBSCOPE_CMD_BATTERY "; echo ___S:power___; "
                          "grep -H '' " ADBSCOPE_FILES_POWER " 2>/dev/null; ");
  else if (self->thermal)
    g_string_append (cmd, "echo ___S:thermal___; " ADBSCOPE_CMD_THERMAL "; ");
  if (tick % 5 == 0)
    {
      g_string_append (cmd, "echo ___S:ps___; " ADBSCOPE_CMD_PS "; ");
      if (self->doze)
        g_string_append (cmd, "echo ___S:deviceidle___; " ADBSCOPE_CMD_DEVICEIDLE "; ");
      g_string_append_printf (cmd, "echo ___S:bucket___; " ADBSCOPE_CMD_BUCKET " 2>&1; ", package);
    }
  if (tick % 10 == 0)
    {
      if (self->jobs)
        g_string_append_printf (cmd, "echo ___S:jobs___; " ADBSCOPE_CMD_JOBS "; ", package);
      if (self->alarms)
        g_string_append (cmd, "echo ___S:alarms___; " ADBSCOPE_CMD_ALARMS "; ");
    }
  if (cmd->len == 0)
    {
      g_string_free (cmd, TRUE);
      return NULL;
    }
  return g_string_free (cmd, FALSE);
}

static gboolean
is_temperature_type (int type)
{
  /* BCL types are volts, amps and percent, not °C. */
  return type >= 0 && type != 6 && type != 7 && type != 8;
}

AdbscopeSlowSample *
_adbscope_slow_collector_parse (AdbscopeSlowCollector *self,
                                const char            *output,
                                gint64                 time_us)
{
  const char *package = adbscope_collector_get_package (ADBSCOPE_COLLECTOR (self));
  AdbscopeSlowSample *s = g_new0 (AdbscopeSlowSample, 1);
  g_auto(GStrv) parts = g_strsplit (output, "___S:", -1);

  s->time_us = time_us;
  s->battery_level_pct = s->battery_temp_c = s->voltage_mv = s->current_ma = s->power_mw = NAN;
  s->thermal_status = s->max_temp_c = NAN;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *name = parts[i];
      const char *body = strstr (parts[i], "___\n");
      guint bad = 0;
      g_autofree char *key = NULL;

      if (body == NULL)
        continue;
      key = g_strndup (name, body - name);
      body += 4;

      if (g_str_equal (key, "battery"))
        {
          g_autoptr(AdbscopeBattery) b = adbscope_battery_parse (body, -1, NULL);

          if (b != NULL)
            {
              s->has_battery = TRUE;
              s->battery_level_pct = adbscope_battery_level_percent (b);
              s->battery_temp_c = b->temperature_decidegc != -1 ? b->temperature_decidegc / 10.0 : NAN;
              s->voltage_mv = b->voltage_mv > 0 ? (double) b->voltage_mv : NAN;
              s->charging = b->status == ADBSCOPE_BATTERY_STATUS_CHARGING;
              /* Not measurements: a level above its scale, a battery
               * below absolute zero, 1e11 mV. */
              if (!adbscope_plausible_battery_level (s->battery_level_pct))
                {
                  bad |= 1u << ADBSCOPE_IMPLAUSIBLE_BATTERY_LEVEL;
                  s->battery_level_pct = NAN;
                }
              if (!adbscope_plausible_temperature_c (s->battery_temp_c))
                {
                  bad |= 1u << ADBSCOPE_IMPLAUSIBLE_BATTERY_TEMP;
                  s->battery_temp_c = NAN;
                }
              if (!adbscope_plausible_voltage_mv (s->voltage_mv))
                {
                  bad |= 1u << ADBSCOPE_IMPLAUSIBLE_VOLTAGE;
                  s->voltage_mv = NAN;
                }
            }
        }
      else if (g_str_equal (key, "power"))
        {
          g_autoptr(AdbscopeGrepOutput) g = adbscope_grep_output_parse (body, -1, NULL);
          const char *cur = g ? adbscope_grep_output_lookup (g, POWER_SUPPLY "/current_now") : NULL;
          const char *volt = g ? adbscope_grep_output_lookup (g, POWER_SUPPLY "/voltage_now") : NULL;

          /* current_now is µA and voltage_now µV on nearly every kernel. */
          if (cur != NULL)
            s->current_ma = g_ascii_strtod (cur, NULL) / 1000.0;
          if (volt != NULL && !isfinite (s->voltage_mv) && !(s->implausible & (1u << ADBSCOPE_IMPLAUSIBLE_VOLTAGE)))
            {
              s->voltage_mv = g_ascii_strtod (volt, NULL) / 1000.0;
              if (!adbscope_plausible_voltage_mv (s->voltage_mv))
                {
                  bad |= 1u << ADBSCOPE_IMPLAUSIBLE_VOLTAGE;
                  s->voltage_mv = NAN;
                }
            }
          if (isfinite (s->current_ma) && isfinite (s->voltage_mv))
            s->power_mw = fabs (s->current_ma * s->voltage_mv) / 1000.0;
        }
      else if (g_str_equal (key, "thermal"))
        {
          g_autoptr(GError) error = NULL;
          AdbscopeThermal *t = adbscope_thermal_parse (body, -1, &error);

          if (t != NULL)
            {
              GArray *temps = t->current && t->current->len ? t->current : t->cached;

              s->has_thermal = TRUE;
              s->thermal_status = t->status >= 0 ? (double) t->status : NAN;
              for (guint k = 0; temps != NULL && k < temps->len; k++)
                {
                  const AdbscopeThermalTemperature *tt = &g_array_index (temps, AdbscopeThermalTemperature, k);

                  if (!is_temperature_type (tt->type) || !isfinite (tt->value))
                    continue;
                  /* a sensor below absolute zero is not the coolest one */
                  if (!adbscope_plausible_temperature_c (tt->value))
                    bad |= 1u << ADBSCOPE_IMPLAUSIBLE_TEMPERATURE;
                  else if (!(tt->value <= s->max_temp_c))
                    s->max_temp_c = tt->value;
                }
              adbscope_thermal_free (t);
            }
        }
      else if (g_str_equal (key, "deviceidle"))
        {
          AdbscopeDeviceidle *d = adbscope_deviceidle_parse (body, -1, NULL);

          if (d != NULL)
            {
              s->has_doze = TRUE;
              s->doze_deep = g_strdup (d->deep_state_name);
              s->doze_light = g_strdup (d->light_state_name);
              adbscope_deviceidle_free (d);
            }
        }
      else if (g_str_equal (key, "bucket"))
        {
          AdbscopeStandbyBucket bucket;

          if (adbscope_standby_bucket_parse (body, -1, &bucket, NULL))
            s->standby_bucket = g_strdup (adbscope_standby_bucket_to_string (bucket));
          s->has_doze = TRUE;
        }
      else if (g_str_equal (key, "jobs"))
        {
          g_autoptr(AdbscopeJobs) jobs = adbscope_jobs_parse (body, -1, package, NULL);

          if (jobs != NULL)
            {
              s->has_jobs = TRUE;
              s->n_jobs = jobs->jobs->len;
              for (guint k = 0; k < jobs->jobs->len; k++)
                s->n_jobs_running += ((AdbscopeJob *) g_ptr_array_index (jobs->jobs, k))->running;
            }
        }
      else if (g_str_equal (key, "alarms"))
        {
          g_autoptr(AdbscopeAlarms) alarms = adbscope_alarms_parse (body, -1, package, NULL);

          if (alarms != NULL)
            {
              s->has_alarms = TRUE;
              s->n_alarms_pending = alarms->pending->len;
              s->alarm_wakeups = alarms->has_stats ? alarms->stats_wakeups : -1;
            }
        }
      else if (g_str_equal (key, "ps"))
        {
          g_autoptr(AdbscopePsTable) table = adbscope_ps_parse (body, -1, NULL);
          g_autofree char *prefix = g_strconcat (package, ":", NULL);

          if (table == NULL)
            continue;
          s->has_processes = TRUE;
          s->processes = g_array_new (FALSE, TRUE, sizeof (AdbscopeAppProcess));
          g_array_set_clear_func (s->processes, (GDestroyNotify) app_process_clear);
          for (guint k = 0; k < table->rows->len; k++)
            {
              const AdbscopePsRow *row = g_ptr_array_index (table->rows, k);
              AdbscopeAppProcess p;

              /* a fork that has not exec'd yet carries its parent's name */
              if (row->name == NULL ||
                  (g_strcmp0 (row->name, package) != 0 && !g_str_has_prefix (row->name, prefix)) ||
                  adbscope_ps_table_is_fork_child (table, row))
                continue;
              p.pid = row->pid;
              p.name = g_strdup (row->name);
              p.rss_kb = row->rss_kb;
              g_array_append_val (s->processes, p);
            }
        }
      s->implausible |= bad;
    }
  return s;
}

static char *
build_command (AdbscopeCollector *collector,
               guint              tick)
{
  return _adbscope_slow_collector_command (ADBSCOPE_SLOW_COLLECTOR (collector), tick);
}

/* Never fails: the parts that did not parse are simply not set (has_*). */
static gpointer
parse (AdbscopeCollector  *collector,
       const char         *output,
       gint64              time_us,
       GError            **error)
{
  return _adbscope_slow_collector_parse (ADBSCOPE_SLOW_COLLECTOR (collector), output, time_us);
}

static void
adbscope_slow_collector_class_init (AdbscopeSlowCollectorClass *klass)
{
  AdbscopeCollectorClass *collector_class = ADBSCOPE_COLLECTOR_CLASS (klass);

  collector_class->build_command = build_command;
  collector_class->parse = parse;
  collector_class->free_sample = (GDestroyNotify) adbscope_slow_sample_free;
}

static void
adbscope_slow_collector_init (AdbscopeSlowCollector *self)
{
}

AdbscopeSlowCollector *
adbscope_slow_collector_new (const char *serial,
                             const char *package,
                             gboolean    thermal,
                             gboolean    doze,
                             gboolean    jobs,
                             gboolean    alarms)
{
  AdbscopeSlowCollector *self = g_object_new (ADBSCOPE_TYPE_SLOW_COLLECTOR,
                                              "name", "slow", "serial", serial, "package", package,
                                              "interval", 1000, NULL);
  self->thermal = thermal;
  self->doze = doze;
  self->jobs = jobs;
  self->alarms = alarms;
  return self;
}
