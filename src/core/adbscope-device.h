/* adbscope-device.h: one device as adb sees it; identity is the serial */
#pragma once

#include <gio/gio.h>

#include "adbscope-types.h"
#include "adbscope-adb-parse.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DEVICE_STATE (adbscope_device_state_get_type ())
GType adbscope_device_state_get_type (void);

#define ADBSCOPE_TYPE_DEVICE (adbscope_device_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDevice, adbscope_device, ADBSCOPE, DEVICE, GObject)

AdbscopeDevice      *adbscope_device_new            (const char         *serial);
const char          *adbscope_device_get_serial     (AdbscopeDevice     *self);
AdbscopeDeviceState  adbscope_device_get_state      (AdbscopeDevice     *self);
const char          *adbscope_device_get_state_text (AdbscopeDevice     *self);
const char          *adbscope_device_get_model      (AdbscopeDevice     *self);
const char          *adbscope_device_get_product    (AdbscopeDevice     *self);
const char          *adbscope_device_get_device_name(AdbscopeDevice     *self);
const char          *adbscope_device_get_transport  (AdbscopeDevice     *self);
gint64               adbscope_device_get_transport_id (AdbscopeDevice   *self);
char                *adbscope_device_dup_display_name (AdbscopeDevice   *self);
gboolean             adbscope_device_update         (AdbscopeDevice     *self,
                                                     const AdbscopeDeviceInfo *info);

G_END_DECLS
