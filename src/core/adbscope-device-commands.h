/* adbscope-device-commands.h: every command Adbscope runs on a phone
 *
 * The collectors and the probe build their shell lines from these, and
 * `adbscope capture-device` captures exactly these (adbscope-device-capture.c),
 * so a capture cannot fall behind what the collectors read.  "%s" is the
 * package (validated before it gets here), "%d" a pid.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Tools */
#define ADBSCOPE_CMD_GETPROP          "getprop"
#define ADBSCOPE_CMD_PAGE_SIZE        "getconf PAGE_SIZE"
#define ADBSCOPE_CMD_SERVICE_CHECK    "service check"          /* + NAME */
#define ADBSCOPE_CMD_BATTERY          "dumpsys battery"
#define ADBSCOPE_CMD_THERMAL          "dumpsys thermalservice"
#define ADBSCOPE_CMD_DEVICEIDLE       "dumpsys deviceidle"
#define ADBSCOPE_CMD_ALARMS           "dumpsys alarm"
#define ADBSCOPE_CMD_JOBS             "dumpsys jobscheduler %s"
#define ADBSCOPE_CMD_BUCKET           "am get-standby-bucket %s"
/* PPID: a fork child carries its parent's name until it execs
 * (adbscope_ps_table_is_fork_child()) */
#define ADBSCOPE_CMD_PS               "ps -A -o PID,PPID,RSS,NAME"
/* every pid of the name, for the same reason */
#define ADBSCOPE_CMD_PIDOF            "pidof %s"
#define ADBSCOPE_CMD_PM_PATH          "pm path %s"
#define ADBSCOPE_CMD_PACKAGE          "dumpsys package %s"
#define ADBSCOPE_CMD_GFXINFO          "dumpsys gfxinfo %s framestats"
#define ADBSCOPE_CMD_MEMINFO          "dumpsys meminfo %s"
#define ADBSCOPE_CMD_SF_LIST          "dumpsys SurfaceFlinger --list"
#define ADBSCOPE_CMD_SF_LATENCY       "dumpsys SurfaceFlinger --latency" /* + [LAYER] */
#define ADBSCOPE_CMD_PM_LIST_3        "pm list packages -f -3"
#define ADBSCOPE_CMD_PM_LIST_ALL      "pm list packages -f"

/* Files (shell globs), read with `grep -H ''` */
#define ADBSCOPE_FILES_FAST           "/proc/uptime /proc/stat /proc/meminfo /proc/net/dev"
#define ADBSCOPE_FILE_PSI_MEMORY      "/proc/pressure/memory"
#define ADBSCOPE_FILES_PID            "/proc/%d/stat /proc/%d/status /proc/%d/task/*/stat"
#define ADBSCOPE_FILES_CPUFREQ_CUR    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq"
#define ADBSCOPE_POWER_SUPPLY         "/sys/class/power_supply/battery"
#define ADBSCOPE_FILES_POWER          ADBSCOPE_POWER_SUPPLY "/current_now " ADBSCOPE_POWER_SUPPLY "/voltage_now"
#define ADBSCOPE_KGSL_DIR             "/sys/class/kgsl/kgsl-3d0"
#define ADBSCOPE_GPU_DIRS             ADBSCOPE_KGSL_DIR " /sys/class/devfreq/*"
#define ADBSCOPE_FILES_PROBE          "/sys/devices/system/cpu/present" \
                                      " /sys/devices/system/cpu/cpu[0-9]*/cpufreq/related_cpus" \
                                      " /sys/devices/system/cpu/cpu[0-9]*/cpufreq/cpuinfo_max_freq" \
                                      " /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq" \
                                      " " ADBSCOPE_KGSL_DIR "/gpu_busy_percentage " ADBSCOPE_KGSL_DIR "/gpubusy" \
                                      " " ADBSCOPE_KGSL_DIR "/gpuclk " ADBSCOPE_KGSL_DIR "/max_gpuclk" \
                                      " /sys/class/devfreq/*/cur_freq /sys/class/devfreq/*/max_freq" \
                                      " " ADBSCOPE_FILE_PSI_MEMORY " /proc/stat"

const char * const *adbscope_device_commands_props    (void);
const char * const *adbscope_device_commands_services (void);
GPtrArray          *adbscope_device_commands_tools    (const char *package);
GPtrArray          *adbscope_device_commands_files    (int         pid);

G_END_DECLS
