/* adbscope-recent-recordings.h: the recordings opened last (GSettings) */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_RECENT_RECORDINGS_MAX 10

void    adbscope_recent_recordings_add  (GSettings  *settings,
                                         const char *path);
GStrv   adbscope_recent_recordings_list (GSettings  *settings);

G_END_DECLS
