/* adbscope-cli.h: the headless subcommands (never initialise GTK) */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Exit codes, documented in docs/cli.md and adbscope(1). */
enum {
  ADBSCOPE_EXIT_OK = 0,
  ADBSCOPE_EXIT_ERROR = 1,
  ADBSCOPE_EXIT_USAGE = 2,
  ADBSCOPE_EXIT_ASSERTION = 3,
  ADBSCOPE_EXIT_DEVICE_LOST = 4,   /* record: the device was gone at the end */
};

typedef int (*AdbscopeCliCommandFunc) (int argc, char **argv);

typedef struct
{
  const char             *name;
  const char             *summary;  /* N_() */
  AdbscopeCliCommandFunc  func;
} AdbscopeCliCommand;

gboolean adbscope_cli_handles      (const char   *arg);
int      adbscope_cli_run          (int           argc,
                                    char        **argv);
gboolean adbscope_cli_print_json   (JsonNode     *node);
int      adbscope_cli_print_result (JsonNode     *node,
                                    int           rc);
JsonNode *adbscope_cli_error_to_json (const GError *error);
int      adbscope_cli_print_error  (const GError *error);
/* {"error":…} on stderr, where stdout cannot take it. */
void     adbscope_cli_print_error_stderr (const GError *error);
int      adbscope_cli_usage_error  (const char   *format,
                                    ...) G_GNUC_PRINTF (1, 2);
gboolean adbscope_cli_parse        (GOptionContext *context,
                                    int          *argc,
                                    char       ***argv,
                                    int          *exit_code);

gboolean adbscope_cli_parse_assertions (char      **expressions,
                                        GPtrArray  *assertions,
                                        GError    **error);

G_END_DECLS
