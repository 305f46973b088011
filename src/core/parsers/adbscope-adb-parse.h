/* adbscope-adb-parse.h: pure parsers for what the adb client prints */
#pragma once

#include <gio/gio.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

typedef struct
{
  char                *serial;
  AdbscopeDeviceState  state;
  char                *state_text;     /* as adb printed it */
  char                *product;
  char                *model;          /* underscores as adb prints them */
  char                *device;
  char                *usb;
  char                *features;
  gint64               transport_id;   /* -1 when not printed */
} AdbscopeDeviceInfo;

void                 adbscope_device_info_free        (AdbscopeDeviceInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeDeviceInfo, adbscope_device_info_free)

AdbscopeDeviceState  adbscope_device_state_from_string (const char *text);
const char          *adbscope_device_state_to_string   (AdbscopeDeviceState state);
GPtrArray           *adbscope_parse_devices            (const char  *text,
                                                        GError     **error);
gboolean             adbscope_parse_track_devices      (GString     *buffer,
                                                        char       **payload,
                                                        GError     **error);
gboolean             adbscope_parse_connect_output     (const char  *text,
                                                        GError     **error);
char                *adbscope_adb_stderr_last_line     (const char  *text);
GError              *adbscope_adb_error_from_stderr    (const char  *text,
                                                        const char  *serial);
char                *adbscope_choose_device            (GPtrArray   *infos,
                                                        const char  *serial,
                                                        GError     **error);
const char          *adbscope_device_transport_kind    (const char  *serial,
                                                        const char  *usb);

G_END_DECLS
