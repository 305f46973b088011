/* adbscope-cli-commands.h: entry points of the subcommands */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int adbscope_cli_devices (int argc, char **argv);

#ifdef ADBSCOPE_HAVE_SIM
int adbscope_sim_main      (int argc, char **argv);
int adbscope_sim_tool_main (int argc, char **argv);
int adbscope_sim_app_main  (int argc, char **argv);
#endif

G_END_DECLS
