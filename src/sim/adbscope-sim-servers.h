/* adbscope-sim-servers.h: the simulated device's counting servers and
 * DNS resolver (see adbscope-sim-servers.c) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AdbscopeSimServers AdbscopeSimServers;

/* Binds every server in the current network namespace and starts their
 * thread. */
AdbscopeSimServers *adbscope_sim_servers_start         (GError            **error);
guint16             adbscope_sim_servers_get_dns_port  (AdbscopeSimServers *self);
/* One JSON object: endpoints[], hosts{}, dns{} (documented in docs/sim.md). */
char               *adbscope_sim_servers_dup_counts    (AdbscopeSimServers *self);
void                adbscope_sim_servers_stop          (AdbscopeSimServers *self);

G_END_DECLS
