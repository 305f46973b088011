/* adbscope-sim.c: `adbscope sim`, a simulated Android device for adb
 *
 * Listens on 127.0.0.1, speaks the device side of the adb transport, runs
 * `adb connect` against the current adb server and prints one JSON line:
 *   {"serial":"127.0.0.1:PORT","port":PORT,"profile":"…","sandbox":"…","app_pids":{…}}
 *
 * Control, one command per line on stdin (also accepted on the sandbox's
 * control.sock, which the fake `am` uses):
 *   stall MS         hold every byte to the host for MS ms (a hung phone)
 *   kill-app PKG     SIGKILL the app (as a crash or the OOM killer would)
 *   start-app PKG    start it again (new pid)
 *   frames-off PKG   the demo app stops drawing (a static screen); frames-on resumes
 *   quit             disconnect and stop
 * End of file on stdin is not quit: the device may run with stdin closed.
 * SIGINT/SIGTERM stop it cleanly (adb disconnect, children killed, sandbox
 * removed).  See docs/sim.md.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-error.h"
#include "adbscope-sim.h"
#include "adbscope-sim-private.h"

typedef struct
{
  AdbscopeSimDevice *device;
  GDataInputStream  *control_in;
  GCancellable      *cancellable;
  gboolean           no_connect;
  gboolean           connected;
  int                exit_code;
  char              *adb;
  char              *serial;
  AdbscopeSimHostCommand *connect_cmd;
  AdbscopeSimHostCommand *disconnect_cmd;
  char              *network_reason;  /* --try-network that could not */
} SimRun;

static int
print_error (int         code,
             const char *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, adbscope_error_code_to_string (code));
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  printf ("%s\n", text);
  fflush (stdout);
  return code == ADBSCOPE_ERROR_USAGE ? 2 : 1;
}

static void
print_ready_line (SimRun *run)
{
  AdbscopeSimDevice *device = run->device;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GHashTableIter iter;
  gpointer key;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "serial");
  json_builder_add_string_value (builder, run->serial);
  json_builder_set_member_name (builder, "port");
  json_builder_add_int_value (builder, device->port);
  json_builder_set_member_name (builder, "profile");
  json_builder_add_string_value (builder, device->profile->name);
  json_builder_set_member_name (builder, "sandbox");
  json_builder_add_string_value (builder, device->sandbox);
  if (device->replay != NULL)
    {
      json_builder_set_member_name (builder, "replay");
      json_builder_add_string_value (builder, adbscope_sim_replay_get_dir (device->replay));
    }
  json_builder_set_member_name (builder, "app_pids");
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, device->apps);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, adbscope_sim_apps_get_pid (device, key));
    }
  if (device->replay != NULL && adbscope_sim_replay_get_package (device->replay) != NULL &&
      adbscope_sim_replay_get_pid (device->replay) > 0)
    {
      json_builder_set_member_name (builder, adbscope_sim_replay_get_package (device->replay));
      json_builder_add_int_value (builder, adbscope_sim_replay_get_pid (device->replay));
    }
  json_builder_end_object (builder);
  if (device->network != NULL || run->network_reason != NULL)
    {
      json_builder_set_member_name (builder, "network");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "supported");
      json_builder_add_boolean_value (builder, device->network != NULL);
      if (device->network != NULL)
        {
          json_builder_set_member_name (builder, "mode");
          json_builder_add_string_value (builder, adbscope_sim_network_get_mode (device->network));
          json_builder_set_member_name (builder, "app_netns_pid");
          json_builder_add_int_value (builder, adbscope_sim_network_get_app_ns_pid (device->network));
          json_builder_set_member_name (builder, "device_pid");
          json_builder_add_int_value (builder, getpid ());
          json_builder_set_member_name (builder, "dns_port");
          json_builder_add_int_value (builder, adbscope_sim_network_get_dns_port (device->network));
        }
      else
        {
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, run->network_reason);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  printf ("%s\n", text);
  fflush (stdout);
}

char *
adbscope_sim_control_run (AdbscopeSimDevice *device,
                          const char        *line)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = g_strstrip (g_strdup (line));
  g_auto(GStrv) words = g_strsplit (copy, " ", 2);

  if (words[0] == NULL || words[0][0] == '\0')
    return g_strdup ("ok");

  if (g_str_equal (words[0], "stall") && words[1] != NULL)
    {
      guint64 ms;

      if (!g_ascii_string_to_unsigned (g_strstrip (words[1]), 10, 0, 3600 * 1000, &ms, &error))
        return g_strdup_printf ("error %s", error->message);
      device->stall_until = g_get_monotonic_time () + (gint64) ms * 1000;
      adbscope_sim_device_flush_all (device);
      return g_strdup ("ok");
    }
  if (g_str_equal (words[0], "kill-app") && words[1] != NULL)
    {
      if (!adbscope_sim_apps_kill (device, g_strstrip (words[1]), &error))
        return g_strdup_printf ("error %s", error->message);
      return g_strdup ("ok");
    }
  if (g_str_equal (words[0], "start-app") && words[1] != NULL)
    {
      const char *package = g_strstrip (words[1]);

      if (!adbscope_sim_apps_start (device, package, &error))
        return g_strdup_printf ("error %s", error->message);
      return g_strdup_printf ("ok %d", adbscope_sim_apps_get_pid (device, package));
    }
  if ((g_str_equal (words[0], "frames-off") || g_str_equal (words[0], "frames-on")) && words[1] != NULL)
    {
      if (!adbscope_sim_apps_set_drawing (device, g_strstrip (words[1]), g_str_equal (words[0], "frames-on"), &error))
        return g_strdup_printf ("error %s", error->message);
      return g_strdup ("ok");
    }
  if (g_str_equal (words[0], "traffic-round"))
    {
      GPid pid = adbscope_sim_apps_get_pid (device, ADBSCOPE_SIM_DEMO_PACKAGE);

      g_autofree char *ready = g_build_filename (device->sandbox, "state", "traffic", NULL);

      /* The file is written once the app takes the signal. */
      if (device->network == NULL || device->demo_traffic == ADBSCOPE_SIM_TRAFFIC_OFF || pid <= 0 ||
          !g_file_test (ready, G_FILE_TEST_EXISTS))
        return g_strdup_printf ("error %s", _("the demo app makes no traffic (no network, --demo-traffic off, or not running yet)"));
      kill (pid, SIGUSR1);
      return g_strdup ("ok");
    }
  /* The battery files stay as they are (a test writes its own values into
   * SANDBOX/sys/power_supply/battery); `battery-thaw` lets them move again. */
  if (g_str_equal (words[0], "battery-freeze") || g_str_equal (words[0], "battery-thaw"))
    {
      device->battery_frozen = g_str_equal (words[0], "battery-freeze");
      return g_strdup ("ok");
    }
  if (g_str_equal (words[0], "pid") && words[1] != NULL)
    return g_strdup_printf ("ok %d", adbscope_sim_apps_get_pid (device, g_strstrip (words[1])));
  if (g_str_equal (words[0], "quit"))
    {
      g_main_loop_quit (device->loop);
      return g_strdup ("ok");
    }
  {
    char *reply = adbscope_sim_network_control (device, words[0], words[1]);

    if (reply != NULL)
      return reply;
  }
  return g_strdup_printf ("error %s", _("unknown command"));
}

static void read_control_line (SimRun *run);

static void
on_control_line (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SimRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *reply = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, &error);
  if (line == NULL)
    return;  /* EOF or error: not quit, the device keeps running */
  reply = adbscope_sim_control_run (run->device, line);
  if (g_str_has_prefix (reply, "error"))
    g_printerr ("adbscope sim: %s: %s\n", line, reply);
  read_control_line (run);
}

static void
read_control_line (SimRun *run)
{
  g_data_input_stream_read_line_async (run->control_in, G_PRIORITY_DEFAULT, run->cancellable,
                                       on_control_line, run);
}

/* The fake tools' control socket: one line in, one line back. */
static void
on_tool_line (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GSocketConnection *conn = user_data;
  AdbscopeSimDevice *device = g_object_get_data (G_OBJECT (conn), "device");
  g_autofree char *line = NULL;
  g_autofree char *reply = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, NULL);
  if (line != NULL)
    {
      GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));

      reply = adbscope_sim_control_run (device, line);
      g_output_stream_write_all (out, reply, strlen (reply), NULL, NULL, NULL);
      g_output_stream_write_all (out, "\n", 1, NULL, NULL, NULL);
    }
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_object_unref (source);
  g_object_unref (conn);
}

static gboolean
on_tool_incoming (GSocketService    *service,
                  GSocketConnection *conn,
                  GObject           *source_object,
                  gpointer           user_data)
{
  GDataInputStream *in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));

  g_object_set_data (G_OBJECT (conn), "device", user_data);
  g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, NULL, on_tool_line,
                                       g_object_ref (conn));
  return TRUE;
}

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *conn,
             GObject           *source_object,
             gpointer           user_data)
{
  adbscope_sim_connection_new (user_data, conn);
  return TRUE;
}

static gboolean
on_quit_signal (gpointer user_data)
{
  AdbscopeSimDevice *device = user_data;

  g_main_loop_quit (device->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_tick (gpointer user_data)
{
  AdbscopeSimDevice *device = user_data;

  if (device->replay != NULL)
    adbscope_sim_replay_tick (device);
  else
    adbscope_sim_sandbox_tick (device);
  return G_SOURCE_CONTINUE;
}

/* adb connect exits 0 even when it failed: read what it says. */
static void
on_connect_done (int         wait_status,
                 const char *out,
                 const char *err,
                 gpointer    user_data)
{
  SimRun *run = user_data;
  g_autoptr(GError) error = NULL;

  if (!WIFEXITED (wait_status) || WEXITSTATUS (wait_status) == 127)
    {
      g_autofree char *message = g_strdup_printf (_("Cannot run %s"), run->adb);

      run->exit_code = print_error (ADBSCOPE_ERROR_ADB_NOT_FOUND, message);
      g_main_loop_quit (run->device->loop);
      return;
    }
  /* core's reading of adb's verdict; an unauthorized sim is connected
   * when adb says so */
  if (adbscope_parse_connect_output (out, &error) ||
      (run->device->unauthorized && g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED)))
    {
      run->connected = TRUE;
      print_ready_line (run);
      return;
    }
  {
    g_autofree char *message = g_strdup_printf (_("adb connect %s failed: %s"), run->serial, error->message);

    run->exit_code = print_error (ADBSCOPE_ERROR_ADB_FAILED, message);
  }
  g_main_loop_quit (run->device->loop);
}

/* The adb server chosen with --adb-server (or $ADBSCOPE_ADB_SERVER; the
 * CLI took it out of argv into core's settings) must be on this machine:
 * it connects to the device at 127.0.0.1, its own loopback. */
static gboolean
check_adb_server (GError **error)
{
  g_autofree char *server = NULL;

  if (adbscope_adb_server_is_local ())
    return TRUE;
  server = adbscope_adb_dup_server ();
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
               _("The simulated device listens on this machine’s 127.0.0.1, which the adb server at %s "
                 "cannot reach: use a server on this machine (--adb-server 127.0.0.1:PORT) or --no-connect"),
               server);
  return FALSE;
}

/* Forked now, run later: with --network the device leaves the host's
 * network namespace, where the adb server is (adbscope-sim-host-command.c).
 * Core builds the command lines, so they talk to the chosen server. */
static gboolean
prepare_adb_commands (SimRun  *run,
                      GError **error)
{
  const char *adb = adbscope_adb_get_path (error);  /* core's: $ADB, else PATH */
  const char *connect_args[] = { "connect", run->serial, NULL };
  const char *disconnect_args[] = { "disconnect", run->serial, NULL };
  g_auto(GStrv) connect_argv = NULL;
  g_auto(GStrv) disconnect_argv = NULL;

  if (adb == NULL)
    return FALSE;
  g_free (run->adb);
  run->adb = g_strdup (adb);
  connect_argv = adbscope_adb_build_argv (adb, NULL, connect_args);
  disconnect_argv = adbscope_adb_build_argv (adb, NULL, disconnect_args);

  run->connect_cmd = adbscope_sim_host_command_prepare ((const char * const *) connect_argv, error);
  if (run->connect_cmd == NULL)
    return FALSE;
  run->disconnect_cmd = adbscope_sim_host_command_prepare ((const char * const *) disconnect_argv, error);
  return run->disconnect_cmd != NULL;
}

static gboolean
listen_tcp (AdbscopeSimDevice *device,
            guint16            port,
            GError           **error)
{
  for (int attempt = 0; attempt < 8; attempt++)
    {
      g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, port);
      g_autoptr(GSocketAddress) effective = NULL;
      GSocketService *service = g_socket_service_new ();
      guint16 got;

      if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                          G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                          NULL, &effective, error))
        {
          g_object_unref (service);
          return FALSE;
        }
      got = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
      /* adb probes 5555-5585 for emulators: stay off them unless asked. */
      if (port == 0 && got >= 5555 && got <= 5585)
        {
          g_socket_service_stop (service);
          g_socket_listener_close (G_SOCKET_LISTENER (service));
          g_object_unref (service);
          continue;
        }
      device->service = service;
      device->port = got;
      g_signal_connect (service, "incoming", G_CALLBACK (on_incoming), device);
      g_socket_service_start (service);
      return TRUE;
    }
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE, _("No free port"));
  return FALSE;
}

static GSocketService *
listen_control (AdbscopeSimDevice *device,
                GError           **error)
{
  g_autofree char *path = g_build_filename (device->sandbox, "control.sock", NULL);
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (path);
  GSocketService *service = g_socket_service_new ();

  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT,
                                      NULL, NULL, error))
    {
      g_object_unref (service);
      return NULL;
    }
  g_signal_connect (service, "incoming", G_CALLBACK (on_tool_incoming), device);
  g_socket_service_start (service);
  return service;
}

static gboolean
parse_u32 (const char *text,
           guint32    *out)
{
  guint64 v;
  char *end = NULL;

  errno = 0;
  v = g_ascii_strtoull (text, &end, 0);
  if (errno != 0 || end == text || *end != '\0' || v > G_MAXUINT32)
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

int
adbscope_sim_main (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) user_ns_error = NULL;
  g_autoptr(GSocketService) control_service = NULL;
  g_autofree char *profile_name = NULL;
  g_autofree char *proto_version = NULL;
  g_auto(GStrv) app_specs = NULL;
  g_auto(GStrv) apk_files = NULL;
  AdbscopeSimDevice device_storage = { 0 };
  AdbscopeSimDevice *device = &device_storage;
  SimRun run = { 0 };
  int port = 0, max_payload = ADB_MAX_PAYLOAD;
  gboolean unauthorized = FALSE, no_connect = FALSE, legacy_shell = FALSE, game = FALSE;
  int startup_ms = 0;

  gboolean network = FALSE, try_network = FALSE, agent_installed = FALSE;
  g_autofree char *vpn_consent = NULL;
  g_autofree char *private_dns = NULL;
  g_autofree char *install_fault = NULL;
  g_autofree char *demo_traffic = NULL;
  g_autofree char *replay_dir = NULL;
  GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port, N_("TCP port on 127.0.0.1 (0 picks a free one)"), N_("PORT") },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile_name, N_("Device profile: pixel-14, legacy-8, tablet-13, redmi-13"), N_("NAME") },
    { "app", 0, 0, G_OPTION_ARG_STRING_ARRAY, &app_specs, N_("Also run COMMAND as the app PKG"), N_("PKG=COMMAND") },
    { "game", 0, 0, G_OPTION_ARG_NONE, &game, N_("Also run the game-like demo app, which draws into a SurfaceView"), NULL },
    { "startup-ms", 0, 0, G_OPTION_ARG_INT, &startup_ms, N_("How long the demo apps take to draw their first frame"), N_("MS") },
    { "apk", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &apk_files, N_("Install the APK FILE as an app (pm lists it, its bytes can be read)"), N_("FILE") },
    { "unauthorized", 0, 0, G_OPTION_ARG_NONE, &unauthorized, N_("Never accept the host's key (adb shows “unauthorized”)"), NULL },
    { "proto-version", 0, 0, G_OPTION_ARG_STRING, &proto_version, N_("Transport version, 0x01000000 or 0x01000001"), N_("V") },
    { "max-payload", 0, 0, G_OPTION_ARG_INT, &max_payload, N_("Largest packet payload the device accepts"), N_("BYTES") },
    { "legacy-shell", 0, 0, G_OPTION_ARG_NONE, &legacy_shell, N_("Do not advertise shell_v2 (old devices)"), NULL },
    { "no-connect", 0, 0, G_OPTION_ARG_NONE, &no_connect, N_("Do not run “adb connect”"), NULL },
    { "network", 0, 0, G_OPTION_ARG_NONE, &network, N_("Give the apps a network behind the agent's TUN (fails where the machine cannot)"), NULL },
    { "try-network", 0, 0, G_OPTION_ARG_NONE, &try_network, N_("Like --network where the machine allows it; otherwise run without one and say why"), NULL },
    { "vpn-consent", 0, 0, G_OPTION_ARG_STRING, &vpn_consent, N_("How the user answers the agent's VPN dialog: accept (default) or deny"), N_("ANSWER") },
    { "agent-installed", 0, 0, G_OPTION_ARG_NONE, &agent_installed, N_("Start with the agent app installed"), NULL },
    { "install-fault", 0, 0, G_OPTION_ARG_STRING, &install_fault, N_("Every install fails as Android says it: storage (INSTALL_FAILED_INSUFFICIENT_STORAGE), aborted (INSTALL_FAILED_ABORTED) or user-restricted (INSTALL_FAILED_USER_RESTRICTED)"), N_("FAULT") },
    { "private-dns", 0, 0, G_OPTION_ARG_STRING, &private_dns, N_("The phone's Private DNS setting: off, opportunistic or hostname:HOST (default: unset, which Android 9+ treats as opportunistic)"), N_("MODE") },
    { "demo-traffic", 0, 0, G_OPTION_ARG_STRING, &demo_traffic, N_("The demo app's traffic with a network: auto (a round every 10 s, default), manual (a round per “traffic-round” command) or off"), N_("MODE") },
    { "replay", 0, 0, G_OPTION_ARG_FILENAME, &replay_dir, N_("Answer from a capture of “adbscope capture-device” instead of the demo"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Run a simulated Android device that adb connects to."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return print_error (ADBSCOPE_ERROR_USAGE, error->message);
  if (argc > 1)
    {
      g_autofree char *m = g_strdup_printf (_("Unexpected argument “%s”"), argv[1]);
      return print_error (ADBSCOPE_ERROR_USAGE, m);
    }
  if (!no_connect && !check_adb_server (&error))
    return print_error (ADBSCOPE_ERROR_USAGE, error->message);

  device->profile = adbscope_sim_profile_lookup (profile_name != NULL ? profile_name : "pixel-14");
  if (device->profile == NULL)
    {
      g_autofree char *m = g_strdup_printf (_("Unknown profile “%s” (known: %s)"), profile_name,
                                            adbscope_sim_profile_list_names ());
      return print_error (ADBSCOPE_ERROR_USAGE, m);
    }
  device->proto_version = ADB_VERSION_SKIP_SUM;
  if (proto_version != NULL &&
      (!parse_u32 (proto_version, &device->proto_version) ||
       device->proto_version < ADB_VERSION_MIN || device->proto_version > ADB_VERSION_SKIP_SUM))
    return print_error (ADBSCOPE_ERROR_USAGE, _("--proto-version must be 0x01000000 or 0x01000001"));
  if (max_payload < 1024 || max_payload > ADB_MAX_PAYLOAD)
    return print_error (ADBSCOPE_ERROR_USAGE, _("--max-payload must be between 1024 and 1048576"));
  if (port < 0 || port > 65535)
    return print_error (ADBSCOPE_ERROR_USAGE, _("--port must be between 0 and 65535"));
  if (startup_ms < 0 || startup_ms > 60000)
    return print_error (ADBSCOPE_ERROR_USAGE, _("--startup-ms must be between 0 and 60000"));
  device->startup_ms = startup_ms;
  if (vpn_consent != NULL && !g_str_equal (vpn_consent, "accept") && !g_str_equal (vpn_consent, "deny"))
    return print_error (ADBSCOPE_ERROR_USAGE, _("--vpn-consent must be accept or deny"));
  device->max_payload = (guint32) max_payload;
  if (demo_traffic == NULL || g_str_equal (demo_traffic, "auto"))
    device->demo_traffic = ADBSCOPE_SIM_TRAFFIC_AUTO;
  else if (g_str_equal (demo_traffic, "manual"))
    device->demo_traffic = ADBSCOPE_SIM_TRAFFIC_MANUAL;
  else if (g_str_equal (demo_traffic, "off"))
    device->demo_traffic = ADBSCOPE_SIM_TRAFFIC_OFF;
  else
    return print_error (ADBSCOPE_ERROR_USAGE, _("--demo-traffic must be auto, manual or off"));
  device->unauthorized = unauthorized;
  device->shell_v2 = !legacy_shell;
  device->banner = g_strdup_printf ("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;"
                                    "features=%scmd,fixed_push_mkdir",
                                    device->profile->product, device->profile->model,
                                    device->profile->device, legacy_shell ? "" : "shell_v2,");
  if (replay_dir != NULL)
    {
      if (game || app_specs != NULL || apk_files != NULL || network || try_network || agent_installed)
        return print_error (ADBSCOPE_ERROR_USAGE, _("--replay answers from the capture only: it takes no apps, APKs or network"));
      device->replay = adbscope_sim_replay_load (replay_dir, &error);
      if (device->replay == NULL)
        return print_error (error->domain == ADBSCOPE_ERROR ? error->code : ADBSCOPE_ERROR_IO, error->message);
      g_free (device->banner);
      device->banner = adbscope_sim_replay_banner (device->replay, !legacy_shell);
    }
  device->apps = g_hash_table_new (g_str_hash, g_str_equal);
  device->sessions = g_hash_table_new (NULL, NULL);
  device->loop = g_main_loop_new (NULL, FALSE);

  signal (SIGPIPE, SIG_IGN);

  /* First, while nothing runs threads yet (adbscope-sim-network.c). */
  if ((network || try_network) && geteuid () != 0)
    adbscope_sim_network_enter_user_namespace (&user_ns_error);

  if (!adbscope_sim_sandbox_create (device, &error))
    return print_error (error->domain == ADBSCOPE_ERROR ? error->code : ADBSCOPE_ERROR_IO, error->message);

  run.device = device;
  run.exit_code = 0;
  run.no_connect = no_connect;
  run.cancellable = g_cancellable_new ();

  if (!listen_tcp (device, (guint16) port, &error) ||
      (control_service = listen_control (device, &error)) == NULL)
    {
      run.exit_code = print_error (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE)
                                   ? ADBSCOPE_ERROR_ADDRESS_IN_USE : ADBSCOPE_ERROR_IO,
                                   error->message);
      goto out;
    }
  run.serial = g_strdup_printf ("127.0.0.1:%u", device->port);
  if (!no_connect && !prepare_adb_commands (&run, &error))
    {
      run.exit_code = print_error (ADBSCOPE_ERROR_ADB_NOT_FOUND, error->message);
      goto out;
    }
  if (network || try_network)
    {
      device->network = adbscope_sim_network_enter (device, vpn_consent == NULL || g_str_equal (vpn_consent, "accept"),
                                                    user_ns_error, &error);
      if (device->network == NULL && network)
        {
          run.exit_code = print_error (ADBSCOPE_ERROR_NOT_SUPPORTED, error->message);
          goto out;
        }
      if (device->network == NULL)
        {
          g_printerr ("adbscope sim: %s\n", error->message);
          run.network_reason = g_strdup (error->message);
          g_clear_error (&error);
        }
    }
  if (agent_installed)
    adbscope_sim_packages_install_agent (device);
  if (install_fault != NULL)
    {
      g_autofree char *path = g_build_filename (device->sandbox, "state", "install-fault", NULL);

      if (!g_str_equal (install_fault, "storage") && !g_str_equal (install_fault, "aborted")
          && !g_str_equal (install_fault, "user-restricted"))
        {
          run.exit_code = print_error (ADBSCOPE_ERROR_USAGE,
                                       _("--install-fault must be storage, aborted or user-restricted"));
          goto out;
        }
      adbscope_sim_write_atomic (path, install_fault);
    }
  if (private_dns != NULL)
    {
      /* `settings get global private_dns_mode` / `…_specifier` answer from
       * SANDBOX/state/settings ("NAMESPACE KEY VALUE" lines). */
      g_autofree char *path = g_build_filename (device->sandbox, "state", "settings", NULL);
      g_autofree char *text = NULL;

      if (g_str_has_prefix (private_dns, "hostname:") && private_dns[9] != '\0')
        text = g_strdup_printf ("global private_dns_mode hostname\nglobal private_dns_specifier %s\n",
                                private_dns + 9);
      else if (g_str_equal (private_dns, "off") || g_str_equal (private_dns, "opportunistic"))
        text = g_strdup_printf ("global private_dns_mode %s\n", private_dns);
      else
        {
          run.exit_code = print_error (ADBSCOPE_ERROR_USAGE,
                                       _("--private-dns must be off, opportunistic or hostname:HOST"));
          goto out;
        }
      adbscope_sim_write_atomic (path, text);
    }

  if (device->replay == NULL && !adbscope_sim_apps_add (device, ADBSCOPE_SIM_DEMO_PACKAGE, NULL, &error))
    {
      run.exit_code = print_error (ADBSCOPE_ERROR_FAILED, error->message);
      goto out;
    }
  if (game && !adbscope_sim_apps_add (device, ADBSCOPE_SIM_GAME_PACKAGE, NULL, &error))
    {
      run.exit_code = print_error (ADBSCOPE_ERROR_FAILED, error->message);
      goto out;
    }
  for (guint i = 0; app_specs != NULL && app_specs[i] != NULL; i++)
    {
      const char *eq = strchr (app_specs[i], '=');
      g_autofree char *package = eq != NULL ? g_strndup (app_specs[i], eq - app_specs[i]) : NULL;

      if (package == NULL || !adbscope_sim_apps_add (device, package, eq + 1, &error))
        {
          run.exit_code = print_error (ADBSCOPE_ERROR_USAGE,
                                       error != NULL ? error->message : _("--app wants PKG=COMMAND"));
          goto out;
        }
    }

  for (guint i = 0; apk_files != NULL && apk_files[i] != NULL; i++)
    if (!adbscope_sim_install_apk (device, apk_files[i], &error))
      {
        run.exit_code = print_error (ADBSCOPE_ERROR_USAGE, error->message);
        goto out;
      }

  g_unix_signal_add (SIGINT, on_quit_signal, device);
  g_unix_signal_add (SIGTERM, on_quit_signal, device);
  g_unix_signal_add (SIGHUP, on_quit_signal, device);
  device->tick_id = g_timeout_add (500, on_tick, device);
  adbscope_sim_sandbox_tick (device);

  {
    GInputStream *in = g_unix_input_stream_new (STDIN_FILENO, FALSE);

    run.control_in = g_data_input_stream_new (in);
    g_object_unref (in);
    read_control_line (&run);
  }

  if (no_connect)
    print_ready_line (&run);
  else
    adbscope_sim_host_command_run_async (run.connect_cmd, on_connect_done, &run);

  g_main_loop_run (device->loop);

  /* Synchronous is fine here: the loop is done and nothing answers the
   * adb server any more. */
  if (run.connected)
    adbscope_sim_host_command_run_sync (run.disconnect_cmd);

out:
  g_cancellable_cancel (run.cancellable);
  if (device->tick_id != 0)
    g_source_remove (device->tick_id);
  if (device->service != NULL)
    {
      g_socket_service_stop (device->service);
      g_socket_listener_close (G_SOCKET_LISTENER (device->service));
    }
  if (control_service != NULL)
    {
      g_socket_service_stop (control_service);
      g_socket_listener_close (G_SOCKET_LISTENER (control_service));
    }
  adbscope_sim_connection_close_all (device);
  adbscope_sim_shell_kill_all (device);
  adbscope_sim_apps_stop_all (device);
  g_clear_pointer (&device->network, adbscope_sim_network_free);
  g_clear_pointer (&run.connect_cmd, adbscope_sim_host_command_free);
  g_clear_pointer (&run.disconnect_cmd, adbscope_sim_host_command_free);
  g_free (run.network_reason);
  adbscope_sim_sandbox_remove (device);

  g_clear_object (&run.control_in);
  g_clear_object (&run.cancellable);
  g_clear_object (&device->service);
  g_free (run.adb);
  g_free (run.serial);
  g_free (device->banner);
  g_clear_pointer (&device->replay, adbscope_sim_replay_free);
  g_free (device->replay_proc_dir);
  g_free (device->replay_sys_dir);
  g_free (device->replay_hostproc_dir);
  g_hash_table_unref (device->apps);
  g_hash_table_unref (device->sessions);
  g_main_loop_unref (device->loop);
  return run.exit_code;
}
