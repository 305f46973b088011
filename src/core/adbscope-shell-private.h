/* adbscope-shell-private.h: the marker framing, exposed for unit tests */
#pragma once

#include "adbscope-shell.h"

G_BEGIN_DECLS

char     *_adbscope_shell_frame_command (const char  *command,
                                         const char  *marker);
gboolean  _adbscope_shell_take_reply    (GString     *buffer,
                                         const char  *marker,
                                         char       **output,
                                         int         *exit_status);

G_END_DECLS
