/* adbscope-thread.h: one thread of the watched app, a live list item */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_THREAD (adbscope_thread_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeThread, adbscope_thread, ADBSCOPE, THREAD, GObject)

AdbscopeThread *adbscope_thread_new         (int             tid,
                                             const char     *name);
int             adbscope_thread_get_tid     (AdbscopeThread *self);
const char     *adbscope_thread_get_name    (AdbscopeThread *self);
void            adbscope_thread_set_name    (AdbscopeThread *self,
                                             const char     *name);
double          adbscope_thread_get_cpu_pct (AdbscopeThread *self);
void            adbscope_thread_set_cpu_pct (AdbscopeThread *self,
                                             double          pct);
double          adbscope_thread_get_max_cpu_pct (AdbscopeThread *self);
const char     *adbscope_thread_get_process (AdbscopeThread *self);
void            adbscope_thread_set_process (AdbscopeThread *self,
                                             const char     *process);

G_END_DECLS
