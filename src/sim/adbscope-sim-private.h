/* adbscope-sim-private.h: the parts of the simulated device that talk to
 * each other (transport, services, sandbox, apps). Not installed.
 */
#pragma once

#include <gio/gio.h>

#include "adbscope-sim-profile.h"

G_BEGIN_DECLS

#define ADBSCOPE_SIM_DEMO_PACKAGE "io.github.adbscope.demo"
/* The game-like demo (`adbscope sim --game`): frames in a SurfaceView. */
#define ADBSCOPE_SIM_GAME_PACKAGE "io.github.adbscope.game"

/* adb message commands (protocol.txt) */
#define ADB_CMD_SYNC 0x434e5953
#define ADB_CMD_CNXN 0x4e584e43
#define ADB_CMD_AUTH 0x48545541
#define ADB_CMD_OPEN 0x4e45504f
#define ADB_CMD_OKAY 0x59414b4f
#define ADB_CMD_CLSE 0x45534c43
#define ADB_CMD_WRTE 0x45545257

#define ADB_VERSION_MIN      0x01000000
#define ADB_VERSION_SKIP_SUM 0x01000001
#define ADB_MAX_PAYLOAD      (1024 * 1024)
#define ADB_MAX_PAYLOAD_V1   4096

typedef struct _AdbscopeSimDevice     AdbscopeSimDevice;
typedef struct _AdbscopeSimConnection AdbscopeSimConnection;
typedef struct _AdbscopeSimStream     AdbscopeSimStream;
typedef struct _AdbscopeSimApp        AdbscopeSimApp;
typedef struct _AdbscopeSimNetwork    AdbscopeSimNetwork;
typedef struct _AdbscopeSimHostCommand AdbscopeSimHostCommand;
typedef struct _AdbscopeSimReplay     AdbscopeSimReplay;

/* What a service does with its stream.  Every callback is optional. */
typedef struct
{
  /* Bytes from the host; call adbscope_sim_stream_ack() once taken. */
  void (*data)   (AdbscopeSimStream *stream,
                  const guint8      *data,
                  gsize              len);
  /* The host acknowledged our last WRTE: one more may be sent. */
  void (*ready)  (AdbscopeSimStream *stream);
  /* The stream is gone (host CLSE, connection lost, or we closed it);
   * free the service state.  The stream must not be used afterwards. */
  void (*closed) (AdbscopeSimStream *stream,
                  gboolean           by_host);
} AdbscopeSimStreamClass;

struct _AdbscopeSimStream
{
  AdbscopeSimConnection        *connection;
  guint32                       local_id;
  guint32                       remote_id;
  gboolean                      can_send;
  const AdbscopeSimStreamClass *klass;
  gpointer                      service;
};

typedef enum
{
  ADBSCOPE_SIM_TRAFFIC_AUTO,     /* a round every 10 s */
  ADBSCOPE_SIM_TRAFFIC_MANUAL,   /* a round per `traffic-round` */
  ADBSCOPE_SIM_TRAFFIC_OFF,
} AdbscopeSimTraffic;

struct _AdbscopeSimDevice
{
  const AdbscopeSimProfile *profile;
  guint32                   proto_version;
  guint32                   max_payload;
  gboolean                  unauthorized;
  gboolean                  shell_v2;
  char                     *banner;

  char                     *sandbox;     /* private directory; everything written goes here */
  char                     *fs_root;     /* sandbox/root: sync paths and the shell's cwd */
  char                     *self_exe;
  char                    **child_env;
  gboolean                  use_namespace;
  char                     *ns_cpu_dir;  /* bind over /sys/devices/system/cpu, or NULL */
  char                     *ns_empty_dir;/* bind over /proc/pressure, or NULL */
  char                     *ns_power_dir;/* bind over /sys/class/power_supply, or NULL */
  char                     *ns_class_dir;/* laid over /sys/class (GPU nodes), or NULL */
  char                     *ns_class_opts;/* its overlay options, made before any fork */
  int                       n_cpus;
  int                       startup_ms;  /* the demo apps' time to their first frame */
  AdbscopeSimNetwork       *network;     /* --network, or NULL */
  AdbscopeSimTraffic        demo_traffic;/* what the demo app does with a network */
  AdbscopeSimReplay        *replay;      /* --replay DIR, or NULL */
  char                     *replay_proc_dir;  /* bound over /proc, or NULL */
  char                     *replay_sys_dir;   /* bound over /sys */
  char                     *replay_hostproc_dir; /* the real /proc, for /proc/self */

  gint64                    stall_until; /* monotonic µs; bytes to the host wait until then */
  gboolean                  battery_frozen; /* `battery-freeze`: the battery files are the test's */
  GSocketService           *service;
  guint16                   port;
  GList                    *connections;
  GHashTable               *apps;        /* package → AdbscopeSimApp */
  GHashTable               *sessions;    /* pgid → ShellSession, for cleanup */
  GMainLoop                *loop;
  guint                     tick_id;
};

/* adbscope-sim-connection.c */
void      adbscope_sim_connection_new        (AdbscopeSimDevice     *device,
                                              GSocketConnection     *gconn);
AdbscopeSimDevice *adbscope_sim_connection_get_device (AdbscopeSimConnection *conn);
void      adbscope_sim_connection_close_all  (AdbscopeSimDevice     *device);
void      adbscope_sim_device_flush_all      (AdbscopeSimDevice     *device);
gsize     adbscope_sim_stream_get_max_payload (AdbscopeSimStream    *stream);
void      adbscope_sim_stream_send           (AdbscopeSimStream     *stream,
                                              const guint8          *data,
                                              gsize                  len);
void      adbscope_sim_stream_ack            (AdbscopeSimStream     *stream);
void      adbscope_sim_stream_close          (AdbscopeSimStream     *stream);

/* adbscope-sim-shell.c: shell, exec and socket forwards */
gboolean  adbscope_sim_shell_open            (AdbscopeSimStream     *stream,
                                              const char            *service);
gboolean  adbscope_sim_forward_open          (AdbscopeSimStream     *stream,
                                              const char            *service);
void      adbscope_sim_shell_kill_all        (AdbscopeSimDevice     *device);
void      adbscope_sim_child_setup           (gpointer               user_data);
gboolean  adbscope_sim_enter_profile_namespace (AdbscopeSimDevice   *device);

/* adbscope-sim-sync.c */
gboolean  adbscope_sim_sync_open             (AdbscopeSimStream     *stream);
char     *adbscope_sim_sync_resolve          (AdbscopeSimDevice     *device,
                                              const char            *path);

/* adbscope-sim-apks.c */
gboolean  adbscope_sim_install_apk           (AdbscopeSimDevice     *device,
                                              const char            *file,
                                              GError               **error);

/* adbscope-sim-sandbox.c */
gboolean  adbscope_sim_sandbox_create        (AdbscopeSimDevice     *device,
                                              GError               **error);
void      adbscope_sim_sandbox_tick          (AdbscopeSimDevice     *device);
void      adbscope_sim_sandbox_remove        (AdbscopeSimDevice     *device);
void      adbscope_sim_write_atomic          (const char            *path,
                                              const char            *contents);

/* adbscope-sim-apps.c */
gboolean  adbscope_sim_apps_add              (AdbscopeSimDevice     *device,
                                              const char            *package,
                                              const char            *command,
                                              GError               **error);
gboolean  adbscope_sim_apps_start            (AdbscopeSimDevice     *device,
                                              const char            *package,
                                              GError               **error);
gboolean  adbscope_sim_apps_kill             (AdbscopeSimDevice     *device,
                                              const char            *package,
                                              GError               **error);
gboolean  adbscope_sim_apps_set_drawing      (AdbscopeSimDevice     *device,
                                              const char            *package,
                                              gboolean               drawing,
                                              GError               **error);
GPid      adbscope_sim_apps_get_pid          (AdbscopeSimDevice     *device,
                                              const char            *package);
void      adbscope_sim_apps_stop_all         (AdbscopeSimDevice     *device);

/* adbscope-sim-control.c: the line commands (stdin and the tools' socket) */
char     *adbscope_sim_control_run           (AdbscopeSimDevice     *device,
                                              const char            *line);

/* adbscope-sim-gpu.c: kgsl / devfreq nodes per profile */
void      adbscope_sim_gpu_create            (AdbscopeSimDevice     *device);
void      adbscope_sim_gpu_tick              (AdbscopeSimDevice     *device,
                                              double                 load);

/* adbscope-sim-surfaceflinger.c: `dumpsys SurfaceFlinger --list|--latency` */
int       adbscope_sim_surfaceflinger_dump   (const AdbscopeSimProfile *profile,
                                              const char            *sandbox,
                                              const char * const    *running,
                                              int                    argc,
                                              char                 **argv);
/* adbscope-sim-network.c: --network (namespaces, TUN, the agent) */
gboolean  adbscope_sim_network_enter_user_namespace (GError          **error);
AdbscopeSimNetwork *adbscope_sim_network_enter   (AdbscopeSimDevice     *device,
                                                  gboolean               consent_accept,
                                                  const GError          *user_ns_error,
                                                  GError               **error);
const char *adbscope_sim_network_get_mode        (AdbscopeSimNetwork    *net);
GPid      adbscope_sim_network_get_app_ns_pid    (AdbscopeSimNetwork    *net);
guint16   adbscope_sim_network_get_dns_port      (AdbscopeSimNetwork    *net);
void      adbscope_sim_network_child_setup       (AdbscopeSimNetwork    *net);
/* NULL when COMMAND is not a network command. */
char     *adbscope_sim_network_control           (AdbscopeSimDevice     *device,
                                                  const char            *command,
                                                  const char            *args);
void      adbscope_sim_network_tick              (AdbscopeSimNetwork    *net);
void      adbscope_sim_network_free              (AdbscopeSimNetwork    *net);

/* adbscope-sim-packages.c: installed packages (SANDBOX/state/packages) */
char     *adbscope_sim_packages_dir              (const char            *sandbox);
gboolean  adbscope_sim_packages_record           (const char            *sandbox,
                                                  const char            *package,
                                                  gint64                 version_code,
                                                  const char            *version_name,
                                                  int                    min_sdk,
                                                  int                    target_sdk,
                                                  GError               **error);
gint64    adbscope_sim_packages_agent_version_code (void);
void      adbscope_sim_packages_install_agent    (AdbscopeSimDevice     *device);

/* adbscope-sim-screencap.c: `screencap [-p] [FILE]` of the demo app's screen */
int       adbscope_sim_screencap_main            (const char               *sandbox,
                                                  const AdbscopeSimProfile *profile,
                                                  int                       argc,
                                                  char                    **argv);

/* adbscope-sim-tool.c and adbscope-sim-tool-agent.c: the fake tools */
char     *adbscope_sim_tool_control              (const char            *sandbox,
                                                  const char            *line);
GPtrArray *adbscope_sim_tool_installed_packages  (const char            *sandbox);
gboolean  adbscope_sim_tool_package_installed    (const char            *sandbox,
                                                  const char            *package);
int       adbscope_sim_tool_selftest_client      (int                    argc,
                                                  char                 **argv);
int       adbscope_sim_tool_package_grant        (const char            *sandbox,
                                                  int                    sdk,
                                                  const char            *package,
                                                  const char            *permission);
int       adbscope_sim_tool_package_install      (const char            *sandbox,
                                                  int                    sdk,
                                                  int                    argc,
                                                  char                 **argv);
int       adbscope_sim_tool_package_uninstall    (const char            *sandbox,
                                                  const char            *package);
int       adbscope_sim_tool_dumpsys_package      (const char            *sandbox,
                                                  int                    argc,
                                                  char                 **argv);
int       adbscope_sim_tool_dumpsys_activity     (const char            *sandbox,
                                                  int                    argc,
                                                  char                 **argv);
int       adbscope_sim_tool_am_start_agent       (const char            *sandbox,
                                                  const char            *component,
                                                  int                    argc,
                                                  char                 **argv);

/* adbscope-sim-host-command.c */
typedef void (*AdbscopeSimHostCommandDone) (int         wait_status,
                                            const char *out,
                                            const char *err,
                                            gpointer    user_data);
AdbscopeSimHostCommand *adbscope_sim_host_command_prepare (const char * const *argv,
                                                           GError            **error);
void      adbscope_sim_host_command_run_async    (AdbscopeSimHostCommand     *cmd,
                                                  AdbscopeSimHostCommandDone  done,
                                                  gpointer                    user_data);
void      adbscope_sim_host_command_run_sync     (AdbscopeSimHostCommand     *cmd);
void      adbscope_sim_host_command_free         (AdbscopeSimHostCommand     *cmd);

/* Environment names the fake tools read. */
#define ADBSCOPE_SIM_ENV_SANDBOX "ADBSCOPE_SIM_SANDBOX"
#define ADBSCOPE_SIM_ENV_PROFILE "ADBSCOPE_SIM_PROFILE"
#define ADBSCOPE_SIM_ENV_EXE     "ADBSCOPE_SIM_EXE"
#define ADBSCOPE_SIM_ENV_REPLAY  "ADBSCOPE_SIM_REPLAY"

/* adbscope-sim-replay.c */
AdbscopeSimReplay *adbscope_sim_replay_load     (const char         *dir,
                                                 GError            **error);
void        adbscope_sim_replay_free            (AdbscopeSimReplay  *replay);
const char *adbscope_sim_replay_get_dir         (AdbscopeSimReplay  *replay);
const char *adbscope_sim_replay_get_package     (AdbscopeSimReplay  *replay);
int         adbscope_sim_replay_get_pid         (AdbscopeSimReplay  *replay);
char       *adbscope_sim_replay_banner          (AdbscopeSimReplay  *replay,
                                                 gboolean            shell_v2);
gboolean    adbscope_sim_replay_prepare         (AdbscopeSimDevice  *device,
                                                 GError            **error);
void        adbscope_sim_replay_tick            (AdbscopeSimDevice  *device);
void        adbscope_sim_replay_get_dirs        (AdbscopeSimReplay  *replay,
                                                 const char        **proc_dir,
                                                 const char        **sys_dir,
                                                 const char        **hostproc_dir);
char       *adbscope_sim_replay_offset          (const char         *path,
                                                 const char         *text,
                                                 const char         *first,
                                                 const char         *last,
                                                 guint               repeats,
                                                 guint64             cycle);
int         adbscope_sim_replay_tool            (const char         *sandbox,
                                                 const char         *dir,
                                                 int                 argc,
                                                 char              **argv);

G_END_DECLS
