/* adbscope-cli-commands.h: entry points of the subcommands */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#include <json-glib/json-glib.h>

int       adbscope_cli_devices         (int argc, char **argv);
JsonNode *adbscope_cli_devices_to_json (GListModel *devices);

#ifdef ADBSCOPE_HAVE_SIM
int adbscope_sim_main (int argc, char **argv);
#endif

G_END_DECLS
