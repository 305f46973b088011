/* adbscope-demo-device.h: `adbscope sim` run for the GUI's "Try the demo device" */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_DEMO_PACKAGE "io.github.adbscope.demo"

#define ADBSCOPE_TYPE_DEMO_DEVICE (adbscope_demo_device_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDemoDevice, adbscope_demo_device, ADBSCOPE, DEMO_DEVICE, GObject)

AdbscopeDemoDevice *adbscope_demo_device_new          (const char          *profile);
void                adbscope_demo_device_start_async  (AdbscopeDemoDevice  *self,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            adbscope_demo_device_start_finish (AdbscopeDemoDevice  *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
const char         *adbscope_demo_device_get_serial   (AdbscopeDemoDevice  *self);
GPid                adbscope_demo_device_get_pid      (AdbscopeDemoDevice  *self);
void                adbscope_demo_device_stop         (AdbscopeDemoDevice  *self);

G_END_DECLS
