/* adbscope-device-commands.c: the list of what Adbscope runs on a phone */
#include "config.h"

#include "adbscope-device-commands.h"

/* What the probe asks getprop for. */
static const char * const props[] = {
  "ro.build.version.sdk", "ro.build.version.release", "ro.product.model",
  "ro.product.manufacturer", "ro.product.cpu.abi", "ro.product.device", NULL
};

/* The dumpsys services the probe checks with `service check`. */
static const char * const services[] = {
  "thermalservice", "gfxinfo", "meminfo", "battery", "deviceidle", "jobscheduler", "alarm", NULL
};

const char * const *
adbscope_device_commands_props (void)
{
  return props;
}

const char * const *
adbscope_device_commands_services (void)
{
  return services;
}

/**
 * adbscope_device_commands_tools:
 * @package: (nullable): the watched app (validated), or %NULL
 *
 * Returns: (transfer full): every tool command line the probe and the
 * collectors run (shell words, package filled in); the SurfaceFlinger
 * layers of the app (`--latency LAYER`) come from the list's answer and
 * are not in here.
 */
GPtrArray *
adbscope_device_commands_tools (const char *package)
{
  GPtrArray *cmds = g_ptr_array_new_with_free_func (g_free);
  static const char * const plain[] = {
    ADBSCOPE_CMD_GETPROP, ADBSCOPE_CMD_PAGE_SIZE, ADBSCOPE_CMD_BATTERY, ADBSCOPE_CMD_THERMAL,
    ADBSCOPE_CMD_DEVICEIDLE, ADBSCOPE_CMD_ALARMS, ADBSCOPE_CMD_PS,
    ADBSCOPE_CMD_SF_LIST, ADBSCOPE_CMD_SF_LATENCY, ADBSCOPE_CMD_PM_LIST_3, ADBSCOPE_CMD_PM_LIST_ALL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    g_ptr_array_add (cmds, g_strdup (plain[i]));
  for (guint i = 0; services[i] != NULL; i++)
    g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_SERVICE_CHECK " %s", services[i]));
  if (package != NULL)
    {
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_JOBS, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_BUCKET, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_PIDOF, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_PM_PATH, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_PACKAGE, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_GFXINFO, package));
      g_ptr_array_add (cmds, g_strdup_printf (ADBSCOPE_CMD_MEMINFO, package));
    }
  return cmds;
}

/**
 * adbscope_device_commands_files:
 * @pid: the app's pid, or 0
 *
 * Returns: (transfer full): the shell globs of every file the probe and
 * the collectors read.
 */
GPtrArray *
adbscope_device_commands_files (int pid)
{
  GPtrArray *globs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *all = NULL;
  g_auto(GStrv) words = NULL;

  all = g_strjoin (" ", ADBSCOPE_FILES_FAST, ADBSCOPE_FILES_PROBE, ADBSCOPE_FILES_CPUFREQ_CUR,
                   ADBSCOPE_FILES_POWER, NULL);
  words = g_strsplit (all, " ", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      gboolean seen = FALSE;

      for (guint j = 0; j < globs->len && !seen; j++)
        seen = g_str_equal (g_ptr_array_index (globs, j), words[i]);
      if (!seen && words[i][0] != '\0')
        g_ptr_array_add (globs, g_strdup (words[i]));
    }
  if (pid > 0)
    {
      g_autofree char *p = g_strdup_printf (ADBSCOPE_FILES_PID, pid, pid, pid);
      g_auto(GStrv) pw = g_strsplit (p, " ", -1);

      for (guint i = 0; pw[i] != NULL; i++)
        g_ptr_array_add (globs, g_strdup (pw[i]));
    }
  return globs;
}
