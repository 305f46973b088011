/* adbscope-types.h: forward declarations and enums shared across the core.
 * It sits with the parsers, the lowest layer, because they use the enums too. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _AdbscopeShell         AdbscopeShell;
typedef struct _AdbscopeDevice        AdbscopeDevice;
typedef struct _AdbscopeDeviceMonitor AdbscopeDeviceMonitor;

typedef enum
{
  ADBSCOPE_DEVICE_STATE_UNKNOWN,
  ADBSCOPE_DEVICE_STATE_DEVICE,
  ADBSCOPE_DEVICE_STATE_UNAUTHORIZED,
  ADBSCOPE_DEVICE_STATE_AUTHORIZING,
  ADBSCOPE_DEVICE_STATE_OFFLINE,
  ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS,
  ADBSCOPE_DEVICE_STATE_RECOVERY,
  ADBSCOPE_DEVICE_STATE_SIDELOAD,
  ADBSCOPE_DEVICE_STATE_BOOTLOADER,
  ADBSCOPE_DEVICE_STATE_HOST,
  ADBSCOPE_DEVICE_STATE_CONNECTING,
} AdbscopeDeviceState;

G_END_DECLS
