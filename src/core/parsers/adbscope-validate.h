/* adbscope-validate.h: what a user may type where it reaches a device command */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean adbscope_package_name_is_valid (const char *name);
gboolean adbscope_serial_is_valid       (const char *serial);
/* "host", "host:port", "[v6]:port" → "host:port" (5555 by default, adb's
 * port for network debugging); NULL when it is not such an address. */
char    *adbscope_network_address_normalize (const char *text);
gboolean adbscope_network_address_split     (const char  *text,
                                             guint        default_port,
                                             char       **host,
                                             guint       *port);
char    *adbscope_network_address_join      (const char  *host,
                                             guint        port);

G_END_DECLS
