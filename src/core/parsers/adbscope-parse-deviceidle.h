/* adbscope-parse-deviceidle.h: `dumpsys deviceidle` → struct
 *
 * Pure.  Doze state (mState / mLightState), screen and charging flags, and
 * the power-save whitelists, so a package's membership can be checked.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* DeviceIdleController STATE_* names as printed by mState= */
typedef enum
{
  ADBSCOPE_DEEP_IDLE_UNKNOWN = -1,
  ADBSCOPE_DEEP_IDLE_ACTIVE,
  ADBSCOPE_DEEP_IDLE_INACTIVE,
  ADBSCOPE_DEEP_IDLE_IDLE_PENDING,
  ADBSCOPE_DEEP_IDLE_SENSING,
  ADBSCOPE_DEEP_IDLE_LOCATING,
  ADBSCOPE_DEEP_IDLE_IDLE,
  ADBSCOPE_DEEP_IDLE_IDLE_MAINTENANCE,
  ADBSCOPE_DEEP_IDLE_QUICK_DOZE_DELAY,
} AdbscopeDeepIdleState;

/* LIGHT_STATE_* names as printed by mLightState= */
typedef enum
{
  ADBSCOPE_LIGHT_IDLE_UNKNOWN = -1,
  ADBSCOPE_LIGHT_IDLE_ACTIVE,
  ADBSCOPE_LIGHT_IDLE_INACTIVE,
  ADBSCOPE_LIGHT_IDLE_PRE_IDLE,
  ADBSCOPE_LIGHT_IDLE_IDLE,
  ADBSCOPE_LIGHT_IDLE_WAITING_FOR_NETWORK,
  ADBSCOPE_LIGHT_IDLE_IDLE_MAINTENANCE,
  ADBSCOPE_LIGHT_IDLE_OVERRIDE,
} AdbscopeLightIdleState;

typedef enum
{
  ADBSCOPE_DEVICEIDLE_WHITELIST_NONE = 0,
  ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM_EXCEPT_IDLE = 1 << 0,
  ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM = 1 << 1,
  ADBSCOPE_DEVICEIDLE_WHITELIST_USER = 1 << 2,
} AdbscopeDeviceidleWhitelist;

typedef struct
{
  AdbscopeDeepIdleState  deep_state;
  char                  *deep_state_name;   /* as printed, or NULL */
  AdbscopeLightIdleState light_state;       /* UNKNOWN before Android 7 */
  char                  *light_state_name;
  int                    screen_on;         /* -1 unknown, 0, 1 */
  int                    charging;
  int                    screen_locked;
  int                    light_enabled;
  int                    deep_enabled;
  int                    force_idle;
  GPtrArray             *whitelist_system_except_idle; /* package names */
  GPtrArray             *whitelist_system;
  GPtrArray             *whitelist_user;
} AdbscopeDeviceidle;

AdbscopeDeviceidle          *adbscope_deviceidle_parse     (const char               *text,
                                                            gssize                    len,
                                                            GError                  **error);
void                         adbscope_deviceidle_free      (AdbscopeDeviceidle       *idle);
AdbscopeDeviceidleWhitelist  adbscope_deviceidle_whitelist (const AdbscopeDeviceidle *idle,
                                                            const char               *package);
gboolean                     adbscope_deviceidle_is_dozing (const AdbscopeDeviceidle *idle);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeDeviceidle, adbscope_deviceidle_free)

G_END_DECLS
