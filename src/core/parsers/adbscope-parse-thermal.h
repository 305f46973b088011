/* adbscope-parse-thermal.h: `dumpsys thermalservice` → struct
 *
 * Pure.  Reads "Thermal Status: N", "HAL Ready", the HAL connection line,
 * the cached temperatures, the current temperatures from the HAL and the
 * cooling devices (Thermal HAL 1.0/2.0 and AIDL layouts).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* android.os.Temperature.TYPE_* */
typedef enum
{
  ADBSCOPE_THERMAL_TYPE_UNKNOWN = -1,
  ADBSCOPE_THERMAL_TYPE_CPU = 0,
  ADBSCOPE_THERMAL_TYPE_GPU = 1,
  ADBSCOPE_THERMAL_TYPE_BATTERY = 2,
  ADBSCOPE_THERMAL_TYPE_SKIN = 3,
  ADBSCOPE_THERMAL_TYPE_USB_PORT = 4,
  ADBSCOPE_THERMAL_TYPE_POWER_AMPLIFIER = 5,
  ADBSCOPE_THERMAL_TYPE_BCL_VOLTAGE = 6,
  ADBSCOPE_THERMAL_TYPE_BCL_CURRENT = 7,
  ADBSCOPE_THERMAL_TYPE_BCL_PERCENTAGE = 8,
  ADBSCOPE_THERMAL_TYPE_NPU = 9,
  ADBSCOPE_THERMAL_TYPE_TPU = 10,
  ADBSCOPE_THERMAL_TYPE_DISPLAY = 11,
  ADBSCOPE_THERMAL_TYPE_MODEM = 12,
  ADBSCOPE_THERMAL_TYPE_SOC = 13,
  ADBSCOPE_THERMAL_TYPE_WIFI = 14,
  ADBSCOPE_THERMAL_TYPE_CAMERA = 15,
  ADBSCOPE_THERMAL_TYPE_FLASHLIGHT = 16,
  ADBSCOPE_THERMAL_TYPE_SPEAKER = 17,
  ADBSCOPE_THERMAL_TYPE_AMBIENT = 18,
  ADBSCOPE_THERMAL_TYPE_POGO = 19,
} AdbscopeThermalType;

/* PowerManager.THERMAL_STATUS_* */
typedef enum
{
  ADBSCOPE_THERMAL_STATUS_UNKNOWN = -1,
  ADBSCOPE_THERMAL_STATUS_NONE = 0,
  ADBSCOPE_THERMAL_STATUS_LIGHT = 1,
  ADBSCOPE_THERMAL_STATUS_MODERATE = 2,
  ADBSCOPE_THERMAL_STATUS_SEVERE = 3,
  ADBSCOPE_THERMAL_STATUS_CRITICAL = 4,
  ADBSCOPE_THERMAL_STATUS_EMERGENCY = 5,
  ADBSCOPE_THERMAL_STATUS_SHUTDOWN = 6,
} AdbscopeThermalStatus;

typedef struct
{
  char   *name;      /* mName: "CPU", "battery", "ibat", … */
  int     type;      /* AdbscopeThermalType, or the raw number if newer */
  double  value;     /* mValue: °C for temperatures; V / A / % for BCL types; NAN if "NaN" */
  int     status;    /* mStatus, a throttling level */
} AdbscopeThermalTemperature;

typedef struct
{
  char   *name;
  int     type;      /* CoolingDevice.TYPE_* (raw) */
  gint64  value;     /* throttling step */
} AdbscopeThermalCoolingDevice;

typedef struct
{
  AdbscopeThermalStatus status;        /* "Thermal Status: N" */
  int                   hal_ready;     /* -1 unknown, 0, 1 */
  char                 *hal_version;   /* "ThermalHAL 2.0", "ThermalHAL AIDL 3", or NULL */
  int                   hal_connected; /* -1 unknown, 0, 1 */
  GArray               *cached;        /* AdbscopeThermalTemperature */
  GArray               *current;       /* AdbscopeThermalTemperature, from the HAL */
  GArray               *cooling_devices; /* AdbscopeThermalCoolingDevice */
} AdbscopeThermal;

AdbscopeThermal *adbscope_thermal_parse             (const char            *text,
                                                     gssize                 len,
                                                     GError               **error);
void             adbscope_thermal_free              (AdbscopeThermal       *thermal);
gboolean         adbscope_thermal_max_of_type       (const AdbscopeThermal *thermal,
                                                     int                    type,
                                                     double                *value);
const char      *adbscope_thermal_type_to_string    (int                    type);
const char      *adbscope_thermal_status_to_string  (int                    status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeThermal, adbscope_thermal_free)

G_END_DECLS
