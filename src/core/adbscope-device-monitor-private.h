/* adbscope-device-monitor-private.h: feed the monitor a device list, for tests */
#pragma once

#include "adbscope-device-monitor.h"

G_BEGIN_DECLS

void                   _adbscope_device_monitor_apply         (AdbscopeDeviceMonitor  *self,
                                                               GPtrArray              *infos);

G_END_DECLS
