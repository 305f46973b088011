/* adbscope-validate.h: what a user may type where it reaches a device command */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean adbscope_package_name_is_valid (const char *name);
gboolean adbscope_serial_is_valid       (const char *serial);

G_END_DECLS
