/* adbscope-net-host.h: the watched app's traffic with one host; a live list item */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_NET_HOST (adbscope_net_host_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeNetHost, adbscope_net_host, ADBSCOPE, NET_HOST, GObject)

AdbscopeNetHost *adbscope_net_host_new             (const char      *host);
const char      *adbscope_net_host_get_host        (AdbscopeNetHost *self);
const char      *adbscope_net_host_get_host_source (AdbscopeNetHost *self);
guint64          adbscope_net_host_get_bytes_up    (AdbscopeNetHost *self);
guint64          adbscope_net_host_get_bytes_down  (AdbscopeNetHost *self);
guint            adbscope_net_host_get_connections (AdbscopeNetHost *self);
guint            adbscope_net_host_get_failures    (AdbscopeNetHost *self);
/* Sets every total at once; notifies what changed. */
void             adbscope_net_host_set_totals      (AdbscopeNetHost *self,
                                                    const char      *host_source,
                                                    guint64          bytes_up,
                                                    guint64          bytes_down,
                                                    guint            connections,
                                                    guint            failures);

G_END_DECLS
