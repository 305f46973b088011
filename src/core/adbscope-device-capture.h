/* adbscope-device-capture.h: a phone's raw answers to every command
 * Adbscope runs, saved for `adbscope sim --replay` (docs/sim.md) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_DEVICE_CAPTURE_FORMAT "adbscope-device-capture"

/* One answer in a capture run's output. */
typedef struct
{
  char     kind;      /* 'T' tool, 'F' file, 'D' directory */
  char    *key;       /* the command line or the path */
  char    *text;      /* its output (not for 'D') */
  int      status;    /* exit status */
} AdbscopeCaptureEntry;

char      *adbscope_device_capture_build_script (GPtrArray   *tools,
                                                 GPtrArray   *globs,
                                                 const char  *dirs,
                                                 const char  *token);
GPtrArray *adbscope_device_capture_split        (const char  *output,
                                                 const char  *token,
                                                 GError     **error);
char      *adbscope_device_capture_redact       (const char  *text,
                                                 gboolean     is_tool,
                                                 const char * const *secrets,
                                                 GHashTable  *counts);
gboolean   adbscope_device_capture_run          (const char  *serial,
                                                 const char  *package,
                                                 const char  *dir,
                                                 double       duration_s,
                                                 guint        repeats,
                                                 gboolean     force,
                                                 GError     **error);

G_END_DECLS
