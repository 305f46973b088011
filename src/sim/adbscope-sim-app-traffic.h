/* adbscope-sim-app-traffic.h: the demo app's network traffic (with
 * `adbscope sim --network`), see adbscope-sim-app-traffic.c */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void adbscope_sim_app_traffic_start (const char *state_dir,
                                     gboolean    manual_rounds);

G_END_DECLS
