/* adbscope-demo.h: `adbscope sim` run for "Try the demo device" and `record --demo` */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ADBSCOPE_DEMO_PACKAGE "io.github.adbscope.demo"
/* The game-like demo app (frames in a SurfaceView), with adbscope_demo_set_game() */
#define ADBSCOPE_DEMO_GAME_PACKAGE "io.github.adbscope.game"

#define ADBSCOPE_TYPE_DEMO (adbscope_demo_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDemo, adbscope_demo, ADBSCOPE, DEMO, GObject)

AdbscopeDemo *adbscope_demo_new            (const char          *profile);
void          adbscope_demo_set_game       (AdbscopeDemo        *self,
                                            gboolean             game);
void          adbscope_demo_start_async    (AdbscopeDemo        *self,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean      adbscope_demo_start_finish   (AdbscopeDemo        *self,
                                            GAsyncResult        *result,
                                            GError             **error);
const char   *adbscope_demo_get_serial     (AdbscopeDemo        *self);
GPid          adbscope_demo_get_pid        (AdbscopeDemo        *self);
void          adbscope_demo_stop           (AdbscopeDemo        *self);
void          adbscope_demo_stop_and_wait  (AdbscopeDemo        *self);

G_END_DECLS
