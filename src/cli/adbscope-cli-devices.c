/* adbscope-cli-devices.c: `adbscope devices` */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-core.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"

int
adbscope_cli_devices (int    argc,
                      char **argv)
{
  g_autoptr(GError) error = g_error_new_literal (ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                                                 "not yet");
  return adbscope_cli_print_error (error);
}
