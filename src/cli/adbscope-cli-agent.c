/* adbscope-cli-agent.c: `adbscope agent install [--apk FILE] [--replace] | status | uninstall |
 * apk -o FILE | selftest [-p PKG] [--host HOST:PORT]`
 *
 * The APK comes from --apk or from the GResource it was embedded as
 * (registered when the binary starts, so the desktop's capture dialog finds
 * it too): the one built from agent/android, or a packager's own given with
 * -Dagent_apk=PATH.  `agent apk -o FILE` writes the embedded one out.  The
 * install itself is the core's (adbscope-agent-install.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-apk.h"
#include "adbscope-core.h"
#include "adbscope-validate.h"
#include "adbscope-agent-install.h"
#include "adbscope-cli.h"
#include "adbscope-cli-output.h"
#include "adbscope-cli-commands.h"

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs the main context until the async call behind @result finished. */
static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static AdbscopeAgentStatus *
query_status (const char  *serial,
              GError     **error)
{
  GAsyncResult *result = NULL;
  AdbscopeAgentStatus *status;

  adbscope_agent_status_async (serial, NULL, result_cb, &result);
  status = adbscope_agent_status_finish (wait_for (&result), error);
  g_object_unref (result);
  return status;
}

/* Parses -s and finds the device; NULL after printing the error. */
static char *
device_for (const char *serial,
            int        *rc)
{
  g_autoptr(GError) error = NULL;
  char *chosen;

  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      *rc = adbscope_cli_print_error (error);
      return NULL;
    }
  chosen = adbscope_cli_find_serial (serial, &error);
  if (chosen == NULL)
    *rc = adbscope_cli_print_error (error);
  return chosen;
}

static void
add_version (JsonBuilder *b,
             const char  *key,
             gint64       code)
{
  json_builder_set_member_name (b, key);
  if (code >= 0)
    json_builder_add_int_value (b, code);
  else
    json_builder_add_null_value (b);
}

static int
agent_status (const char *serial)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = query_status (serial, &error);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gint64 ours = adbscope_agent_our_version_code ();

  if (st == NULL)
    return adbscope_cli_print_error (error);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "installed");
  json_builder_add_boolean_value (b, st->installed);
  add_version (b, "version_code", st->installed ? st->version_code : -1);
  json_builder_set_member_name (b, "version_name");
  if (st->installed && st->version_name != NULL)
    json_builder_add_string_value (b, st->version_name);
  else
    json_builder_add_null_value (b);
  add_version (b, "our_version_code", ours);
  json_builder_set_member_name (b, "our_version_name");
  json_builder_add_string_value (b, PACKAGE_VERSION);
  json_builder_set_member_name (b, "matches");
  json_builder_add_boolean_value (b, st->installed && st->version_code == ours);
  json_builder_set_member_name (b, "capture_running");
  json_builder_add_boolean_value (b, st->service.state == ADBSCOPE_AGENT_STATE_RUNNING);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, adbscope_agent_state_to_string (st->service.state));
  json_builder_set_member_name (b, "capture_package");
  if (st->service.state == ADBSCOPE_AGENT_STATE_RUNNING && st->service.package != NULL)
    json_builder_add_string_value (b, st->service.package);
  else
    json_builder_add_null_value (b);
  /* error:<code> and the platform's reason=…, and all of it in words */
  json_builder_set_member_name (b, "error_code");
  if (st->service.state == ADBSCOPE_AGENT_STATE_ERROR && st->service.error_code != NULL)
    json_builder_add_string_value (b, st->service.error_code);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "reason");
  if (st->service.reason != NULL)
    json_builder_add_string_value (b, st->service.reason);
  else
    json_builder_add_null_value (b);
  {
    g_autofree char *words = adbscope_agent_state_describe (st->service.state, st->service.error_code,
                                                            st->service.reason);

    json_builder_set_member_name (b, "state_text");
    json_builder_add_string_value (b, words);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

static int
agent_uninstall (const char *serial)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean was = FALSE;

  if (!adbscope_agent_uninstall_sync (serial, &was, NULL, &error))
    return adbscope_cli_print_error (error);
  if (!was)
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED,
                   _("The Adbscope agent is not installed on %s"), serial);
      return adbscope_cli_print_error (error);
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "uninstalled");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

static int
agent_install (const char *serial,
               const char *apk_arg,
               gboolean    replace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean removed = FALSE;

  if (apk_arg == NULL && !adbscope_agent_has_embedded_apk ())
    return adbscope_cli_usage_error ("%s", _("This build has no agent APK embedded (built without agent_apk_build "
                                             "and without agent_apk); give one with “adbscope agent install --apk FILE”"));
  st = adbscope_agent_install_sync (serial, apk_arg, replace, &removed, NULL, &error);
  if (st == NULL)
    return adbscope_cli_print_error (error);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "installed");
  json_builder_add_boolean_value (b, TRUE);
  add_version (b, "version_code", st->version_code);
  add_version (b, "our_version_code", adbscope_agent_our_version_code ());
  json_builder_set_member_name (b, "replaced");
  json_builder_add_boolean_value (b, removed);
  json_builder_set_member_name (b, "apk");
  json_builder_add_string_value (b, apk_arg ? apk_arg : "(embedded)");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return adbscope_cli_print_result (root, ADBSCOPE_EXIT_OK);
}

#ifdef ADBSCOPE_HAVE_AGENT_APK
/* The embedded APK's GResource registers itself from a constructor, but a
 * static library's object that nothing references is left out of the link:
 * this reference keeps it in (without it the APK was never embedded). */
GResource *adbscope_agent_apk_get_resource (void);
GResource *(*adbscope_cli_agent_apk_resource) (void) = adbscope_agent_apk_get_resource;
#endif

/* `agent apk -o FILE`: the embedded APK, through the output writer. */
static int
agent_apk (const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) apk = NULL;
  g_autoptr(AdbscopeCliOutput) out = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *sha256 = NULL;
  const char *data;
  gsize len;

  apk = g_resources_lookup_data (ADBSCOPE_AGENT_APK_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (apk == NULL)
    {
      g_set_error_literal (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_NOT_INSTALLED,
                           _("This build of Adbscope has no agent APK inside it "
                             "(built without agent_apk_build and without agent_apk)"));
      return adbscope_cli_print_error (error);
    }
  out = adbscope_cli_output_prepare (output, &error);
  if (out == NULL)
    return adbscope_cli_print_error (error);
  data = g_bytes_get_data (apk, &len);
  if (!adbscope_cli_output_write_all (out, data, len, &error))
    return adbscope_cli_print_error (error);
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, len);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "output");
  json_builder_add_string_value (b, adbscope_cli_output_get_path (out));
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, (gint64) len);
  json_builder_set_member_name (b, "sha256");
  json_builder_add_string_value (b, sha256);
  json_builder_set_member_name (b, "version_code");
  json_builder_add_int_value (b, adbscope_agent_our_version_code ());
  json_builder_set_member_name (b, "version_name");
  json_builder_add_string_value (b, PACKAGE_VERSION);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  adbscope_cli_print_json (root);
  return ADBSCOPE_EXIT_OK;
}

/* Selftest ----------------------------------------------------------------- */

#define SELFTEST_DEFAULT_HOST "connectivitycheck.gstatic.com:80"
#define SELFTEST_START_MS     30000
#define SELFTEST_WAIT_MS      20000

typedef struct
{
  JsonBuilder *b;
  guint        failed;
  char        *first_failure;
} Steps;

static void
step (Steps      *st,
      const char *name,
      gboolean    pass,
      const char *format,
      ...) G_GNUC_PRINTF (4, 5);

static void
step (Steps      *st,
      const char *name,
      gboolean    pass,
      const char *format,
      ...)
{
  g_autofree char *reason = NULL;
  va_list ap;

  va_start (ap, format);
  reason = g_strdup_vprintf (format, ap);
  va_end (ap);
  json_builder_begin_object (st->b);
  json_builder_set_member_name (st->b, "step");
  json_builder_add_string_value (st->b, name);
  json_builder_set_member_name (st->b, "pass");
  json_builder_add_boolean_value (st->b, pass);
  json_builder_set_member_name (st->b, "reason");
  json_builder_add_string_value (st->b, reason);
  json_builder_end_object (st->b);
  if (!pass)
    {
      st->failed++;
      if (st->first_failure == NULL)
        st->first_failure = g_strdup_printf ("%s: %s", name, reason);
    }
}

/* A TCP connection that did not fail, to @port (0: any), or NULL. */
static AdbscopeConnection *
find_tcp (AdbscopeNetwork *net,
          guint            port)
{
  GListModel *conns = adbscope_network_get_connections (net);
  g_autofree char *suffix = port ? g_strdup_printf (":%u", port) : g_strdup ("");

  for (guint i = 0; i < g_list_model_get_n_items (conns); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);

      if (g_strcmp0 (adbscope_connection_get_protocol (c), "TCP") == 0
          && g_str_has_suffix (adbscope_connection_get_remote (c), suffix)
          && !adbscope_connection_is_failed (c))
        return g_steal_pointer (&c);
    }
  return NULL;
}

static AdbscopeDnsLookup *
find_lookup (AdbscopeNetwork *net,
             const char      *name)
{
  GListModel *dns = adbscope_network_get_dns (net);

  for (guint i = 0; i < g_list_model_get_n_items (dns); i++)
    {
      g_autoptr(AdbscopeDnsLookup) d = g_list_model_get_item (dns, i);

      if (name == NULL || g_ascii_strcasecmp (adbscope_dns_lookup_get_name (d), name) == 0)
        return g_steal_pointer (&d);
    }
  return NULL;
}

/* The DNS flow of the app to the agent's resolver (UDP to port 53). */
static AdbscopeConnection *
find_dns_flow (AdbscopeNetwork *net)
{
  GListModel *conns = adbscope_network_get_connections (net);

  for (guint i = 0; i < g_list_model_get_n_items (conns); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (conns, i);

      if (g_strcmp0 (adbscope_connection_get_protocol (c), "UDP") == 0
          && g_str_has_suffix (adbscope_connection_get_remote (c), ":53"))
        return g_steal_pointer (&c);
    }
  return NULL;
}

/* Packets of @c in the capture file, counted by the core's pcap reading
 * (the export's connection filter into a scratch file). */
static gint64
pcap_packets_of (const char         *pcap,
                 AdbscopeConnection *c,
                 GError            **error)
{
  AdbscopePcapSelection sel = { 0, G_MAXINT64, c };
  g_autofree char *scratch = g_strconcat (pcap, ".one", NULL);
  guint64 n = 0;

  if (!adbscope_pcap_export_sync (pcap, scratch, &sel, NULL, NULL, &n, NULL, error))
    return -1;
  g_unlink (scratch);
  return (gint64) n;
}

static void
capture_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static int
agent_selftest (const char *serial,
                const char *package,
                const char *host_port,
                const char *keep_pcap)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) status = NULL;
  g_autoptr(AdbscopeNetwork) net = adbscope_network_new ();
  g_autoptr(AdbscopeCapture) capture = NULL;
  g_autoptr(AdbscopeConnection) tcp = NULL;
  g_autoptr(AdbscopeConnection) dns_flow = NULL;
  g_autoptr(AdbscopeDnsLookup) lookup = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *pcap = NULL;
  g_autofree char *host = NULL;
  g_autofree char *agent_verdict = NULL;
  GAsyncResult *result = NULL;
  Steps st = { b, 0, NULL };
  gboolean own = package == NULL;
  gboolean started = FALSE;
  const char *colon;
  guint64 port = 0;
  gint64 deadline;
  gint64 ours = adbscope_agent_our_version_code ();

  colon = strrchr (host_port, ':');
  if (colon == NULL || colon == host_port || !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
    return adbscope_cli_usage_error (_("--host wants HOST:PORT, not “%s”"), host_port);
  host = g_strndup (host_port, colon - host_port);
  if (!own && !adbscope_package_name_is_valid (package))
    return adbscope_cli_usage_error (_("“%s” is not a valid package name"), package);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "serial");
  json_builder_add_string_value (b, serial);
  json_builder_set_member_name (b, "package");
  json_builder_add_string_value (b, own ? ADBSCOPE_AGENT_PACKAGE : package);
  json_builder_set_member_name (b, "host");
  json_builder_add_string_value (b, own ? host_port : NULL);
  json_builder_set_member_name (b, "pcap");
  json_builder_add_string_value (b, keep_pcap);
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);

  /* 1. the agent, installed (or installed now) and not older than us */
  status = query_status (serial, &error);
  if (status != NULL && (!status->installed || status->version_code < ours) && adbscope_agent_has_embedded_apk ())
    {
      g_autoptr(AdbscopeAgentStatus) installed = NULL;

      g_clear_pointer (&status, adbscope_agent_status_free);
      installed = adbscope_agent_install_sync (serial, NULL, FALSE, NULL, NULL, &error);
      if (installed != NULL)
        status = query_status (serial, &error);
    }
  if (status == NULL)
    step (&st, "agent_installed", FALSE, "%s", error->message);
  else if (!status->installed)
    step (&st, "agent_installed", FALSE, "%s",
          _("The agent is not installed and this build has none inside it; install one with "
            "“adbscope agent install --apk FILE”"));
  else if (status->version_code < ours)
    step (&st, "agent_installed", FALSE, _("The agent on the phone (versionCode %.0f) is older than this "
                                           "Adbscope (%.0f); run “adbscope agent install --replace”"),
          (double) status->version_code, (double) ours);
  else
    step (&st, "agent_installed", TRUE, _("versionCode %.0f"), (double) status->version_code);

  /* 2. a capture: of the agent's own test traffic, or of the app */
  if (st.failed == 0)
    {
      g_clear_error (&error);
      if (keep_pcap != NULL)
        pcap = g_strdup (keep_pcap);
      else
        {
          dir = g_dir_make_tmp ("adbscope-selftest-XXXXXX", &error);
          pcap = dir ? g_build_filename (dir, "selftest.pcap", NULL) : NULL;
        }
      capture = adbscope_capture_new (serial, own ? ADBSCOPE_AGENT_PACKAGE : package, net);
      if (pcap != NULL)
        adbscope_capture_set_pcap_file (capture, pcap, NULL);
      if (own)
        adbscope_capture_set_selftest (capture, host_port);
      adbscope_capture_start_async (capture, SELFTEST_START_MS, NULL, capture_cb, &result);
      wait_for (&result);
      started = adbscope_capture_start_finish (capture, result, &error);
      g_clear_object (&result);
      if (started)
        step (&st, "capture_started", TRUE, "%s", own ? _("the agent runs and routes its own test traffic")
                                                      : _("the agent runs and routes the app"));
      else
        step (&st, "capture_started", FALSE, "%s (%s)", error->message, adbscope_error_get_code_name (error));
    }

  /* 3. the lookup and the connection in the agent's snapshots */
  if (started)
    {
      deadline = g_get_monotonic_time () + (gint64) SELFTEST_WAIT_MS * 1000;
      while (g_get_monotonic_time () < deadline
             && (lookup == NULL || tcp == NULL || (own && agent_verdict == NULL)))
        {
          g_main_context_iteration (NULL, FALSE);
          if (lookup == NULL)
            lookup = find_lookup (net, own ? host : NULL);
          if (tcp == NULL)
            tcp = find_tcp (net, own ? (guint) port : 0);
          if (own && agent_verdict == NULL && lookup != NULL && tcp != NULL)
            {
              g_autoptr(AdbscopeAgentStatus) now = query_status (serial, NULL);

              if (now != NULL && now->service.selftest != NULL)
                agent_verdict = g_strdup (now->service.selftest);
            }
          if (adbscope_capture_get_state (capture) == ADBSCOPE_CAPTURE_FAILED)
            break;
          g_usleep (50 * 1000);
        }
      if (lookup != NULL)
        step (&st, "snapshot_dns", !adbscope_dns_lookup_is_failed (lookup), _("%s: %s"),
              adbscope_dns_lookup_get_name (lookup), adbscope_dns_lookup_get_result (lookup));
      else
        {
          if (own)
            step (&st, "snapshot_dns", FALSE, _("no DNS lookup of %s in the agent's snapshots within %u s"),
                  host, SELFTEST_WAIT_MS / 1000);
          else
            step (&st, "snapshot_dns", FALSE, _("no DNS lookup in the agent's snapshots within %u s"),
                  SELFTEST_WAIT_MS / 1000);
        }
      if (tcp != NULL)
        step (&st, "snapshot_tcp", TRUE, _("%s (%s), %.0f bytes down"),
              adbscope_connection_get_remote (tcp), adbscope_connection_get_state (tcp),
              (double) adbscope_connection_get_payload_down (tcp));
      else if (own)
        step (&st, "snapshot_tcp", FALSE, _("no TCP connection to port %u in the agent's snapshots within %u s"),
              (guint) port, SELFTEST_WAIT_MS / 1000);
      else
        step (&st, "snapshot_tcp", FALSE, _("no TCP connection of the app in the agent's snapshots within %u s"),
              SELFTEST_WAIT_MS / 1000);
      if (own)
        step (&st, "agent_selftest", g_strcmp0 (agent_verdict, "ok") == 0, _("the agent says: %s"),
              agent_verdict ? agent_verdict : _("nothing (no selftest= on its state line)"));
      dns_flow = find_dns_flow (net);
    }

  /* 4. stop, then the pcap read back */
  if (capture != NULL && started)
    {
      adbscope_capture_stop_async (capture, capture_cb, &result);
      wait_for (&result);
      g_clear_error (&error);
      if (adbscope_capture_stop_finish (capture, result, &error))
        step (&st, "stopped", TRUE, "%s", _("the agent was told to stop"));
      else
        step (&st, "stopped", FALSE, "%s", error->message);
      g_clear_object (&result);

      if (pcap != NULL)
        {
          gint64 n_dns = dns_flow ? pcap_packets_of (pcap, dns_flow, NULL) : -1;
          gint64 n_tcp = tcp ? pcap_packets_of (pcap, tcp, NULL) : -1;

          step (&st, "pcap_dns", n_dns >= 2, _("%.0f packets of the DNS flow in the pcap"),
                (double) MAX (n_dns, 0));
          /* a handshake, a request and an answer at least */
          step (&st, "pcap_tcp", n_tcp >= 4, _("%.0f packets of the TCP connection in the pcap"),
                (double) MAX (n_tcp, 0));
          if (keep_pcap == NULL)
            g_unlink (pcap);
        }
      if (dir != NULL)
        g_rmdir (dir);
    }

  json_builder_end_array (b);
  json_builder_set_member_name (b, "passed");
  json_builder_add_boolean_value (b, st.failed == 0);
  if (st.failed > 0)
    {
      json_builder_set_member_name (b, "error");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "code");
      json_builder_add_string_value (b, adbscope_error_code_to_string (ADBSCOPE_ERROR_SELFTEST_FAILED));
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, st.first_failure);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  adbscope_cli_print_json (root);
  g_free (st.first_failure);
  return st.failed == 0 ? ADBSCOPE_EXIT_OK : ADBSCOPE_EXIT_ERROR;
}

int
adbscope_cli_agent (int    argc,
                    char **argv)
{
  g_autofree char *serial = NULL;
  g_autofree char *apk = NULL;
  g_autofree char *output = NULL;
  g_autofree char *package = NULL;
  g_autofree char *host = NULL;
  g_autofree char *pcap = NULL;
  gboolean replace = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("apk: where to write the built-in agent APK"), N_("FILE") },
    { "pcap", 0, 0, G_OPTION_ARG_FILENAME, &pcap, N_("selftest: keep the capture's packets in FILE"), N_("FILE") },
    { "package", 'p', 0, G_OPTION_ARG_STRING, &package, N_("selftest: capture this app instead of the agent's own test traffic"), N_("PKG") },
    { "host", 0, 0, G_OPTION_ARG_STRING, &host, N_("selftest: where the agent's test traffic goes (default connectivitycheck.gstatic.com:80)"), N_("HOST:PORT") },
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial (default: the only device)"), N_("SERIAL") },
    { "apk", 0, 0, G_OPTION_ARG_FILENAME, &apk, N_("install: the agent APK to install (default: the one built in)"), N_("FILE") },
    { "replace", 0, 0, G_OPTION_ARG_NONE, &replace, N_("install: uninstall the agent first (needed when it was signed differently)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("install|status|uninstall|apk|selftest");
  g_autofree char *chosen = NULL;
  const char *action;
  int rc;

  g_option_context_set_summary (context, _("Install, check or remove the on-phone network agent."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc < 2)
    return adbscope_cli_usage_error (_("Say what to do: adbscope agent install|status|uninstall|apk|selftest"));
  if (argc > 2)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[2]);
  action = argv[1];
  if (!g_str_equal (action, "install") && !g_str_equal (action, "status") && !g_str_equal (action, "uninstall")
      && !g_str_equal (action, "apk") && !g_str_equal (action, "selftest"))
    return adbscope_cli_usage_error (_("Unknown agent command “%s” (install, status, uninstall, apk, selftest)"), action);
  if ((package != NULL || host != NULL || pcap != NULL) && !g_str_equal (action, "selftest"))
    return adbscope_cli_usage_error (_("-p, --host and --pcap go with “agent selftest”"));
  if (package != NULL && host != NULL)
    return adbscope_cli_usage_error (_("--host is where the agent's own test traffic goes; with -p the app makes the traffic"));
  if (g_str_equal (action, "apk"))
    {
      if (serial != NULL)
        return adbscope_cli_usage_error (_("“agent apk” needs no device"));
      if (output == NULL)
        return adbscope_cli_usage_error (_("Say where to write the APK: adbscope agent apk -o FILE"));
      return agent_apk (output);
    }
  if (output != NULL)
    return adbscope_cli_usage_error (_("-o goes with “agent apk”"));
  if ((apk != NULL || replace) && !g_str_equal (action, "install"))
    return adbscope_cli_usage_error (_("--apk and --replace go with “agent install”"));
  if (apk != NULL && !g_file_test (apk, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr(GError) error = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read %s"), apk);

      return adbscope_cli_print_error (error);
    }

  chosen = device_for (serial, &rc);
  if (chosen == NULL)
    return rc;
  if (g_str_equal (action, "status"))
    return agent_status (chosen);
  if (g_str_equal (action, "uninstall"))
    return agent_uninstall (chosen);
  if (g_str_equal (action, "selftest"))
    return agent_selftest (chosen, package, host ? host : SELFTEST_DEFAULT_HOST, pcap);
  return agent_install (chosen, apk, replace);
}
