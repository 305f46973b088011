/* adbscope-device-picker.h: the live list of devices, or what to do without one */
#pragma once

#include <adwaita.h>

#include "adbscope-device-monitor.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DEVICE_PICKER (adbscope_device_picker_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDevicePicker, adbscope_device_picker, ADBSCOPE, DEVICE_PICKER, AdwBin)

void        adbscope_device_picker_set_monitor     (AdbscopeDevicePicker  *self,
                                                    AdbscopeDeviceMonitor *monitor);
void        adbscope_device_picker_set_demo_serial (AdbscopeDevicePicker  *self,
                                                    const char            *serial);
void        adbscope_device_picker_set_busy        (AdbscopeDevicePicker  *self,
                                                    gboolean               busy);
GtkListBox *adbscope_device_picker_get_list_box    (AdbscopeDevicePicker  *self);
void        adbscope_device_picker_set_recent      (AdbscopeDevicePicker  *self,
                                                    const char * const    *paths);
GtkListBox *adbscope_device_picker_get_recent_list (AdbscopeDevicePicker  *self);

G_END_DECLS
