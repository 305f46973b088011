/* adbscope-test-device.h: a simulated device and a private adb server for tests
 *
 * adbscope_test_device_start() starts (once per test process) a private adb
 * server on a free port with HOME in a temporary directory, ADB_MDNS=0 and
 * ADB_EMU=0, and exports that into this process's environment (g_setenv) so
 * everything spawned later uses it; then it runs `adbscope sim` ($ADBSCOPE_BIN)
 * and waits until `adb devices` lists it.  Every process is started in its
 * own session and tracked; free() and kill() leave nothing behind, and the
 * children die with the test process if it crashes (PR_SET_PDEATHSIG).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AdbscopeTestDevice AdbscopeTestDevice;

AdbscopeTestDevice *adbscope_test_device_start       (const char          *profile,
                                                      const char * const  *extra_args,
                                                      GError             **error);
const char         *adbscope_test_device_get_serial  (AdbscopeTestDevice  *dev);
int                 adbscope_test_device_get_port    (AdbscopeTestDevice  *dev);
GPid                adbscope_test_device_get_app_pid (AdbscopeTestDevice  *dev,
                                                      const char          *package);
/* The sim's own pid and sandbox directory (for checks after it stops). */
GPid                adbscope_test_device_get_pid     (AdbscopeTestDevice  *dev);
const char         *adbscope_test_device_get_sandbox (AdbscopeTestDevice  *dev);
/* One control line to the sim's stdin: "stall MS", "kill-app PKG", … */
void                adbscope_test_device_control     (AdbscopeTestDevice  *dev,
                                                      const char          *line);
/* One line to the sim's control.sock and its one-line answer, e.g.
 * "net-counts" (JSON, docs/sim.md) or "traffic-round". */
char               *adbscope_test_device_query       (AdbscopeTestDevice  *dev,
                                                      const char          *line);
/* SIGKILL the sim (the device is lost); its leftovers are cleaned up. */
void                adbscope_test_device_kill        (AdbscopeTestDevice  *dev);
/* Start it again on the same port; adb is reconnected at once. */
gboolean            adbscope_test_device_restart     (AdbscopeTestDevice  *dev,
                                                      GError             **error);
/* Runs `adb -s SERIAL ARGS…`; returns stdout, exit status in *exit_status. */
char               *adbscope_test_device_adb         (AdbscopeTestDevice  *dev,
                                                      int                 *exit_status,
                                                      const char          *first_arg,
                                                      ...) G_GNUC_NULL_TERMINATED;
/* The same with an argument vector and stderr too (either may be NULL). */
char               *adbscope_test_device_adbv        (AdbscopeTestDevice  *dev,
                                                      const char * const  *args,
                                                      int                 *exit_status,
                                                      char               **stderr_out);
/* Stops the sim (SIGTERM, then SIGKILL) and, with the last device, the
 * private adb server. */
void                adbscope_test_device_free        (AdbscopeTestDevice  *dev);

/* Where this system cannot give the sim the profile asked for (a
 * container without mount namespaces: the sim refuses legacy-8 rather
 * than show what it claims not to have), skips the test with the sim's
 * reason and returns TRUE.  Any other error is left to the test. */
gboolean            adbscope_test_device_skip_if_unsupported (const GError *error);

/* The adb binary tests use: $ADB or "adb". */
const char         *adbscope_test_adb_path           (void);
/* A running record's control file in RUNTIME (its XDG_RUNTIME_DIR), or NULL. */
char               *adbscope_test_find_record_state  (const char          *runtime);
/* Pids of every live descendant of pid (for leftover checks). */
GArray             *adbscope_test_list_descendants   (GPid                 pid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeTestDevice, adbscope_test_device_free)

G_END_DECLS
