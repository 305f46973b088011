/* adbscope-sim.h: entry points of the simulated device and its helpers */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `adbscope sim …`: the device itself. */
int adbscope_sim_main      (int argc, char **argv);
/* `adbscope sim-tool NAME …`: the fake Android tools its shell runs. */
int adbscope_sim_tool_main (int argc, char **argv);
/* `adbscope sim-app PKG …`: the demo app process. */
int adbscope_sim_app_main  (int argc, char **argv);

G_END_DECLS
