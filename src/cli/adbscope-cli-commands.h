/* adbscope-cli-commands.h: entry points of the subcommands */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#include <json-glib/json-glib.h>

int       adbscope_cli_devices         (int argc, char **argv);
JsonNode *adbscope_cli_devices_to_json (GListModel *devices);
int       adbscope_cli_record          (int argc, char **argv);
int       adbscope_cli_apps            (int argc, char **argv);
int       adbscope_cli_capture_device  (int argc, char **argv);
int       adbscope_cli_connect         (int argc, char **argv);
char     *adbscope_cli_find_serial     (const char *serial, GError **error);
int       adbscope_cli_launch          (int argc, char **argv);
int       adbscope_cli_mark            (int argc, char **argv);
int       adbscope_cli_stop            (int argc, char **argv);
int       adbscope_cli_report          (int argc, char **argv);
int       adbscope_cli_compare         (int argc, char **argv);
int       adbscope_cli_agent           (int argc, char **argv);

#ifdef ADBSCOPE_HAVE_SIM
int adbscope_sim_main      (int argc, char **argv);
int adbscope_sim_tool_main (int argc, char **argv);
int adbscope_sim_app_main  (int argc, char **argv);
#endif

G_END_DECLS
