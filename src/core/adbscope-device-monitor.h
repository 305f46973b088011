/* adbscope-device-monitor.h: a live GListModel of AdbscopeDevice */
#pragma once

#include <gio/gio.h>

#include "adbscope-device.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DEVICE_MONITOR (adbscope_device_monitor_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDeviceMonitor, adbscope_device_monitor, ADBSCOPE, DEVICE_MONITOR, GObject)

AdbscopeDeviceMonitor *adbscope_device_monitor_new            (void);
void                   adbscope_device_monitor_start          (AdbscopeDeviceMonitor  *self);
void                   adbscope_device_monitor_stop           (AdbscopeDeviceMonitor  *self);
void                   adbscope_device_monitor_set_poll_interval (AdbscopeDeviceMonitor *self,
                                                               guint                   interval_ms);
AdbscopeDevice        *adbscope_device_monitor_lookup         (AdbscopeDeviceMonitor  *self,
                                                               const char             *serial);
const GError          *adbscope_device_monitor_get_error      (AdbscopeDeviceMonitor  *self);
void                   adbscope_device_monitor_refresh_async  (AdbscopeDeviceMonitor  *self,
                                                               GCancellable           *cancellable,
                                                               GAsyncReadyCallback     callback,
                                                               gpointer                user_data);
gboolean               adbscope_device_monitor_refresh_finish (AdbscopeDeviceMonitor  *self,
                                                               GAsyncResult           *result,
                                                               GError                **error);

G_END_DECLS
