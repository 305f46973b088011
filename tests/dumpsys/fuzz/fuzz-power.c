/* fuzz-power.c: libFuzzer target for the smaller dumpsys parsers (battery,
 * thermalservice, deviceidle, jobscheduler, alarm, standby bucket): one
 * input goes through all of them, so one bounded run covers them. */
#include "config.h"

#include <stdint.h>

#include "adbscope-parse-battery.h"
#include "adbscope-parse-deviceidle.h"
#include "adbscope-parse-jobs.h"
#include "adbscope-parse-thermal.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  gssize len = (gssize) size;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeBattery) b = adbscope_battery_parse (text, len, &error);

    g_assert ((b == NULL) != (error == NULL));
    if (b != NULL)
      (void) adbscope_battery_level_percent (b);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeThermal) th = adbscope_thermal_parse (text, len, &error);
    double v;

    g_assert ((th == NULL) != (error == NULL));
    if (th != NULL)
      (void) adbscope_thermal_max_of_type (th, ADBSCOPE_THERMAL_TYPE_CPU, &v);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeDeviceidle) idle = adbscope_deviceidle_parse (text, len, &error);

    g_assert ((idle == NULL) != (error == NULL));
    if (idle != NULL)
      (void) adbscope_deviceidle_whitelist (idle, "com.whatsapp");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeJobs) jobs = adbscope_jobs_parse (text, len, "com.whatsapp", &error);

    g_assert ((jobs == NULL) != (error == NULL));
    if (jobs != NULL)
      for (guint i = 0; i < jobs->jobs->len; i++)
        g_assert (((AdbscopeJob *) g_ptr_array_index (jobs->jobs, i))->unsatisfied_constraints != NULL);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeAlarms) alarms = adbscope_alarms_parse (text, len, "android", &error);

    g_assert ((alarms == NULL) != (error == NULL));
  }
  {
    g_autoptr(GError) error = NULL;
    AdbscopeStandbyBucket bucket;
    gboolean ok = adbscope_standby_bucket_parse (text, len, &bucket, &error);

    g_assert (ok == (error == NULL));
  }

  return 0;
}
