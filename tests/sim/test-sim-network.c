/* test-sim-network.c: `adbscope sim --network` and the agent's install flow
 *
 * Real adb, a private adb server, the real adbscope-agent-linux on the TUN
 * the device hands it, real clients (curl, openssl, python3) run inside the
 * app's network namespace with nsenter.  Truth comes from outside the code
 * under test: `ip` run in the namespaces, the clients' own byte counts,
 * `aapt dump badging` of the stand-in APK.  Needs root (CI runs as root).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"

#define DEMO          "io.github.adbscope.demo"
#define AGENT         "io.github.adbscope.agent"
#define AGENT_SERVICE AGENT "/.AgentVpnService"
#define AGENT_START   "am start -n " AGENT "/.ControlActivity -e package " DEMO
#define AGENT_STOP    "am start -n " AGENT "/.ControlActivity -e stop 1"
#define API           "198.18.0.10"

static char *
sh (AdbscopeTestDevice *dev,
    const char         *command)
{
  int rc = 0;

  return adbscope_test_device_adb (dev, &rc, "shell", command, NULL);
}

/* ARGV run in the network namespace of PID (nsenter, as root). */
static char *
in_netns (GPid                pid,
          int                *status,
          const char * const *argv)
{
  g_autoptr(GPtrArray) full = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int wait_status = 0;

  g_ptr_array_add (full, g_strdup ("nsenter"));
  g_ptr_array_add (full, g_strdup_printf ("--net=/proc/%d/ns/net", pid));
  g_ptr_array_add (full, g_strdup ("--"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, g_strdup (argv[i]));
  g_ptr_array_add (full, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) full->pdata, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &wait_status, &error));
  g_assert_no_error (error);
  if (status != NULL)
    *status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  return out;
}

static char *
control (AdbscopeTestDevice *dev,
         const char         *line)
{
  return adbscope_test_device_query (dev, line);
}

static JsonNode *
net_counts (AdbscopeTestDevice *dev)
{
  g_autofree char *text = control (dev, "net-counts");
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

/* hosts.HOST.FIELD of the servers' counts (0 when the host is absent). */
static gint64
host_count (JsonNode   *counts,
            const char *host,
            const char *field)
{
  JsonObject *hosts = json_object_get_object_member (json_node_get_object (counts), "hosts");
  JsonObject *h = json_object_has_member (hosts, host) ? json_object_get_object_member (hosts, host) : NULL;

  return h != NULL ? json_object_get_int_member (h, field) : 0;
}

static JsonObject *
endpoint (JsonNode   *counts,
          const char *service,
          const char *address)
{
  JsonArray *eps = json_object_get_array_member (json_node_get_object (counts), "endpoints");

  for (guint i = 0; i < json_array_get_length (eps); i++)
    {
      JsonObject *ep = json_array_get_object_element (eps, i);

      if (g_str_equal (json_object_get_string_member (ep, "service"), service) &&
          g_str_equal (json_object_get_string_member (ep, "address"), address))
        return ep;
    }
  g_assert_not_reached ();
}

static char *
agent_state (AdbscopeTestDevice *dev)
{
  g_autofree char *out = sh (dev, "dumpsys activity service " AGENT_SERVICE);
  const char *line = strstr (out, "  adbscope-agent state=");

  if (line == NULL)
    return NULL;
  return g_strndup (line + strlen ("  adbscope-agent state="), strcspn (line + strlen ("  adbscope-agent state="), " \n"));
}

typedef struct
{
  AdbscopeTestDevice *dev;
  const char         *want;
} StateWait;

static gboolean
state_is (gpointer data)
{
  StateWait *w = data;
  g_autofree char *state = agent_state (w->dev);

  return g_strcmp0 (state, w->want) == 0;
}

/* Polls the state until it is @want, for @seconds of wall time (each poll
 * is an `adb shell dumpsys`, itself slow on a loaded host; the old bound
 * counted only the pauses between them, so this allows twice as long). */
static gboolean
wait_state (AdbscopeTestDevice *dev,
            const char         *want,
            int                 seconds)
{
  StateWait w = { dev, want };

  return adbscope_test_poll_until (state_is, &w, (guint) seconds * 2000);
}

static void
assert_only_tun_routes (GPid app)
{
  static const char * const v4[] = { "ip", "-4", "route", "show", "table", "main", NULL };
  static const char * const v6[] = { "ip", "-6", "route", "show", "table", "main", NULL };
  static const char * const links[] = { "ip", "-o", "link", NULL };
  g_autofree char *routes4 = in_netns (app, NULL, v4);
  g_autofree char *routes6 = in_netns (app, NULL, v6);
  g_autofree char *devs = in_netns (app, NULL, links);
  g_auto(GStrv) lines = NULL;
  g_autofree char *all = g_strconcat (routes4, routes6, NULL);

  g_assert_nonnull (strstr (routes4, "default dev tun0"));
  /* The phone's network has no global IPv6: as the phone's agent, the
   * device routes only the agent's own IPv6 subnet into the VPN, no
   * IPv6 default route (an app's IPv6 attempt fails in the app, at once,
   * rather than as a failed connection of the agent). */
  g_assert_null (strstr (routes6, "default"));
  g_assert_nonnull (strstr (routes6, "fd00:adb5::/64 dev tun0"));
  lines = g_strsplit (g_strstrip (all), "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_test_message ("app route: %s", lines[i]);
      g_assert_nonnull (strstr (lines[i], " dev tun0"));
    }
  /* lo and tun0, nothing else (no veth, no host interface). */
  g_strfreev (lines);
  lines = g_strsplit (g_strstrip (devs), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_nonnull (strstr (devs, ": lo:"));
  g_assert_nonnull (strstr (devs, ": tun0:"));
}

static char *
ns_link (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/ns/net", pid);

  return g_file_read_link (path, NULL);
}

/* The namespaces, and that nothing reaches the servers without the agent. */
static void
test_namespaces (void)
{
  const char *args[] = { "--network", "--demo-traffic", "off", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(JsonNode) counts = NULL;
  g_autofree char *host_ns = NULL, *phone_ns = NULL, *app_ns = NULL, *phone_ip = NULL, *out = NULL;
  GPid app;
  int rc = -1;
  const char *curl[] = { "curl", "-s", "-m", "3", "-H", "Host: early.demo.test", "http://" API "/", NULL };

  g_assert_no_error (error);
  app = adbscope_test_device_get_app_pid (dev, DEMO);
  g_assert_cmpint (app, >, 0);
  host_ns = g_file_read_link ("/proc/self/ns/net", NULL);
  phone_ns = ns_link (adbscope_test_device_get_pid (dev));
  app_ns = ns_link (app);
  g_assert_cmpstr (host_ns, !=, phone_ns);
  g_assert_cmpstr (host_ns, !=, app_ns);
  g_assert_cmpstr (phone_ns, !=, app_ns);
  assert_only_tun_routes (app);

  /* The shell is in the phone's namespace: the servers' addresses on lo. */
  phone_ip = sh (dev, "ip -4 addr show dev lo");
  g_assert_nonnull (strstr (phone_ip, "198.18.0.1/24"));

  /* No agent: the TUN is not read and the connect goes nowhere. */
  g_free (in_netns (app, &rc, curl));
  g_assert_cmpint (rc, !=, 0);
  counts = net_counts (dev);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "http", API), "connections"), ==, 0);
  out = control (dev, "traffic-round");
  g_assert_true (g_str_has_prefix (out, "error"));
}

/* Real clients in the app's namespace, through the agent: the servers
 * count exactly what the clients say they sent and received. */
static void
test_counts_through_agent (void)
{
  const char *args[] = { "--network", "--agent-installed", "--demo-traffic", "off", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(JsonNode) counts = NULL;
  g_autofree char *out = NULL, *unix_sockets = NULL, *body_path = NULL, *body_arg = NULL;
  g_autofree char *tls_out = NULL, *dns_out = NULL, *udp_out = NULL;
  g_auto(GStrv) words = NULL;
  GPid app;
  gint64 t0, elapsed;
  int rc = -1;

  g_assert_no_error (error);
  app = adbscope_test_device_get_app_pid (dev, DEMO);

  out = sh (dev, AGENT_START);
  g_assert_nonnull (strstr (out, "Starting: Intent { cmp=" AGENT "/.ControlActivity (has extras) }"));
  g_assert_true (wait_state (dev, "running", 20));
  g_free (out);
  out = sh (dev, "dumpsys activity service " AGENT_SERVICE);
  g_assert_nonnull (strstr (out, "  adbscope-agent state=running package=" DEMO " version="));
  /* The agent's sockets are where adb's localabstract: forward looks. */
  unix_sockets = sh (dev, "cat /proc/net/unix");
  g_assert_nonnull (strstr (unix_sockets, "@adbscope-agent\n"));
  g_assert_nonnull (strstr (unix_sockets, "@adbscope-agent-pcap\n"));

  {
    /* HTTP GET with a Host header: curl's own counts of the request it
     * wrote and the headers and body it read. */
    const char *curl[] = { "curl", "-s", "-o", "/dev/null", "-m", "20", "-H", "Host: get.demo.test",
                           "-w", "%{size_request} %{size_header} %{size_download} %{http_code}",
                           "http://" API "/bytes/1000000", NULL };

    g_free (out);
    out = in_netns (app, &rc, curl);
    g_assert_cmpint (rc, ==, 0);
    words = g_strsplit (out, " ", -1);
    g_assert_cmpstr (words[3], ==, "200");
    g_assert_cmpstr (words[2], ==, "1000000");
  }
  {
    /* A 100 000-byte upload. */
    g_autofree char *body = g_malloc (100000);
    g_auto(GStrv) up = NULL;
    const char *curl[] = { "curl", "-s", "-o", "/dev/null", "-m", "20", "-H", "Host: post.demo.test",
                           "-H", "Expect:", "--data-binary", NULL,
                           "-w", "%{size_request} %{size_upload} %{size_header} %{size_download} %{http_code}",
                           "http://" API "/upload", NULL };

    memset (body, 'x', 100000);
    body_path = g_build_filename (g_get_tmp_dir (), "test-sim-network-body", NULL);
    g_assert_true (g_file_set_contents (body_path, body, 100000, NULL));
    body_arg = g_strconcat ("@", body_path, NULL);
    curl[11] = body_arg;
    g_free (out);
    out = in_netns (app, &rc, curl);
    g_unlink (body_path);
    g_assert_cmpint (rc, ==, 0);
    up = g_strsplit (out, " ", -1);
    g_assert_cmpstr (up[4], ==, "200");
    g_assert_cmpstr (up[1], ==, "100000");

    /* A TLS ClientHello with SNI from OpenSSL; the server answers an alert. */
    {
      const char *tls[] = { "sh", "-c", "openssl s_client -connect " API ":443 -servername tls.demo.test "
                            "</dev/null 2>&1; true", NULL };

      tls_out = in_netns (app, NULL, tls);
      g_test_message ("openssl: %s", tls_out);
    }
    /* DNS through the agent's fake resolver, a UDP echo (python3). */
    {
      const char *dns[] = { "python3", "-c",
        "import socket,struct,sys\n"
        "def q(name):\n"
        "  s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.settimeout(5)\n"
        "  m=struct.pack('>HHHHHH',0x1234,0x100,1,0,0,0)+b''.join(bytes([len(l)])+l.encode() for l in name.split('.'))+b'\\0'+struct.pack('>HH',1,1)\n"
        "  s.sendto(m,('10.215.173.2',53)); r=s.recv(1500)\n"
        "  rc=r[3]&15; an=struct.unpack('>H',r[6:8])[0]\n"
        "  return rc, socket.inet_ntoa(r[-4:]) if an else '-'\n"
        "for n in ['api.demo.test','missing.demo.test']:\n"
        "  print(*q(n))\n", NULL };
      const char *udp[] = { "python3", "-c",
        "import socket\n"
        "s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.settimeout(5)\n"
        "s.sendto(b'e'*700,('198.18.0.12',7)); print(len(s.recv(2000)))\n", NULL };

      dns_out = in_netns (app, &rc, dns);
      g_assert_cmpint (rc, ==, 0);
      g_assert_cmpstr (dns_out, ==, "0 " API "\n3 -\n");
      udp_out = in_netns (app, &rc, udp);
      g_assert_cmpint (rc, ==, 0);
      g_assert_cmpstr (udp_out, ==, "700\n");
    }

    counts = net_counts (dev);
    /* bytes_in: what the server read (the client's request), bytes_out:
     * what it wrote (status line, headers and body). */
    g_assert_cmpint (host_count (counts, "get.demo.test", "connections"), ==, 1);
    g_assert_cmpint (host_count (counts, "get.demo.test", "bytes_in"), ==, g_ascii_strtoll (words[0], NULL, 10));
    g_assert_cmpint (host_count (counts, "get.demo.test", "bytes_out"), ==,
                     g_ascii_strtoll (words[1], NULL, 10) + g_ascii_strtoll (words[2], NULL, 10));
    g_assert_cmpint (host_count (counts, "post.demo.test", "bytes_in"), ==,
                     g_ascii_strtoll (up[0], NULL, 10) + g_ascii_strtoll (up[1], NULL, 10));
    g_assert_cmpint (host_count (counts, "post.demo.test", "bytes_out"), ==,
                     g_ascii_strtoll (up[2], NULL, 10) + g_ascii_strtoll (up[3], NULL, 10));
  }
  /* The SNI was read from OpenSSL's hello; the alert is all it got. */
  g_assert_cmpint (host_count (counts, "tls.demo.test", "connections"), ==, 1);
  {
    const char *written = strstr (tls_out, " bytes and written ");
    const char *read_n = strstr (tls_out, "SSL handshake has read ");

    g_assert_nonnull (written);
    g_assert_nonnull (read_n);
    g_assert_cmpint (host_count (counts, "tls.demo.test", "bytes_in"), ==,
                     g_ascii_strtoll (written + strlen (" bytes and written "), NULL, 10));
    g_assert_cmpint (host_count (counts, "tls.demo.test", "bytes_out"), ==,
                     g_ascii_strtoll (read_n + strlen ("SSL handshake has read "), NULL, 10));
    g_assert_cmpint (host_count (counts, "tls.demo.test", "bytes_out"), ==, 7);
  }
  g_assert_cmpint (host_count (counts, "", "connections"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "udp-echo", "198.18.0.12"), "bytes_in"), ==, 700);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "udp-echo", "198.18.0.12"), "bytes_out"), ==, 700);
  {
    JsonObject *names = json_object_get_object_member (json_object_get_object_member (json_node_get_object (counts), "dns"), "names");

    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (names, "api.demo.test"), "rcode"), ==, "NOERROR");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (names, "missing.demo.test"), "rcode"), ==, "NXDOMAIN");
  }

  /* Refused at once; the black hole gives up after the phone's SYN
   * retries (1 + 2 + 4 s), through the agent's RST. */
  {
    const char *refused[] = { "curl", "-s", "-m", "10", "http://" API ":81/", NULL };
    const char *hole[] = { "curl", "-s", "-m", "20", "https://198.19.0.1/", NULL };

    t0 = g_get_monotonic_time ();
    g_free (in_netns (app, &rc, refused));
    elapsed = g_get_monotonic_time () - t0;
    g_assert_cmpint (rc, ==, 7);     /* couldn't connect */
    g_assert_cmpint (elapsed, <, 5 * G_USEC_PER_SEC);
    t0 = g_get_monotonic_time ();
    g_free (in_netns (app, &rc, hole));
    elapsed = g_get_monotonic_time () - t0;
    g_test_message ("black hole: rc %d after %.1f s", rc, elapsed / 1e6);
    g_assert_cmpint (rc, !=, 0);
    g_assert_cmpint (elapsed, >, 5 * G_USEC_PER_SEC);
    g_assert_cmpint (elapsed, <, 19 * G_USEC_PER_SEC);
  }

  g_free (out);
  out = sh (dev, AGENT_STOP);
  g_assert_nonnull (strstr (out, "Starting: Intent"));
  g_assert_true (wait_state (dev, "stopped", 10));
  g_free (unix_sockets);
  unix_sockets = sh (dev, "cat /proc/net/unix");
  g_assert_null (strstr (unix_sockets, "@adbscope-agent\n"));
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
one_round_done (gpointer path)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) && g_str_equal (text, "rounds=1\n");
}

typedef struct
{
  char   *path;
  gint64  cdn_bytes_out;
} FileCounts;

static gboolean
file_has_cdn_bytes (gpointer data)
{
  FileCounts *fc = data;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) file_counts = NULL;

  /* the device may be half-way through rewriting it */
  if (!g_file_get_contents (fc->path, &text, NULL, NULL) ||
      (file_counts = json_from_string (text, NULL)) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (file_counts) ||
      !json_object_has_member (json_node_get_object (file_counts), "hosts"))
    return FALSE;
  return host_count (file_counts, "cdn.demo.test", "bytes_out") == fc->cdn_bytes_out;
}

/* One round of the demo app's traffic, on demand. */
static void
test_demo_traffic (void)
{
  const char *args[] = { "--network", "--agent-installed", "--demo-traffic", "manual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autoptr(JsonNode) counts = NULL;
  g_autofree char *rounds_path = NULL;
  g_autofree char *out = NULL;
  JsonObject *names;

  g_assert_no_error (error);
  g_free (sh (dev, AGENT_START));
  g_assert_true (wait_state (dev, "running", 20));
  rounds_path = g_build_filename (adbscope_test_device_get_sandbox (dev), "state", "traffic", NULL);
  adbscope_test_wait_until (file_exists, rounds_path, 20000, "the demo app's traffic state file is there");
  out = control (dev, "traffic-round");
  g_assert_cmpstr (out, ==, "ok");
  adbscope_test_wait_until (one_round_done, rounds_path, 60000, "the demo app finished one traffic round");

  counts = net_counts (dev);
  /* The first round has the bulk download (3 MiB) and everything else. */
  g_assert_cmpint (host_count (counts, "cdn.demo.test", "bytes_out"), >, 3 * 1024 * 1024);
  g_assert_cmpint (host_count (counts, "api.demo.test", "connections"), ==, 3);  /* GET, TLS, POST */
  g_assert_cmpint (host_count (counts, "api.demo.test", "bytes_in"), >, 16384);
  g_assert_cmpint (host_count (counts, "", "connections"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "tls", API), "bytes_out"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "udp-echo", "198.18.0.12"), "bytes_in"), ==, 1024);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "udp-echo", "198.18.0.12"), "bytes_out"), ==, 1024);
  g_assert_cmpint (json_object_get_int_member (endpoint (counts, "udp-echo", "198.18.0.12"), "datagrams"), ==, 2);
  /* One socket, one flow through the agent; UDP counts under the name. */
  g_assert_cmpint (host_count (counts, "echo.demo.test", "connections"), ==, 1);
  g_assert_cmpint (host_count (counts, "echo.demo.test", "bytes_out"), ==, 1024);
  names = json_object_get_object_member (json_object_get_object_member (json_node_get_object (counts), "dns"), "names");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (names, "api.demo.test"), "queries"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (names, "missing.demo.test"), "rcode"), ==, "NXDOMAIN");
  /* The same numbers are in the file the device rewrites every 500 ms
   * (once it has rewritten it since the round). */
  {
    FileCounts fc = { g_build_filename (adbscope_test_device_get_sandbox (dev), "state", "net.json", NULL),
                      host_count (counts, "cdn.demo.test", "bytes_out") };

    adbscope_test_wait_until (file_has_cdn_bytes, &fc, 10000,
                              "state/net.json has the round's cdn.demo.test bytes_out");
    g_free (fc.path);
  }
}

static void
test_consent_denied (void)
{
  const char *args[] = { "--network", "--agent-installed", "--vpn-consent", "deny", "--demo-traffic", "off", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autofree char *out = NULL, *first = NULL, *unix_sockets = NULL;

  g_assert_no_error (error);
  /* Never ran: no state line. */
  out = sh (dev, "dumpsys activity service " AGENT_SERVICE);
  g_assert_nonnull (strstr (out, "No services match"));
  g_free (sh (dev, AGENT_START));
  first = agent_state (dev);
  g_assert_cmpstr (first, ==, "waiting_consent");
  g_assert_true (wait_state (dev, "consent_denied", 10));
  unix_sockets = sh (dev, "cat /proc/net/unix");
  g_assert_null (strstr (unix_sockets, "@adbscope-agent"));
}

/* A stand-in agent APK built by aapt; `aapt dump badging` is the oracle. */
static char *
build_apk (const char *dir,
           const char *package,
           int         version_code,
           const char *version_name)
{
  g_autofree char *manifest_dir = g_build_filename (dir, version_name, NULL);
  g_autofree char *manifest = g_build_filename (manifest_dir, "AndroidManifest.xml", NULL);
  g_autofree char *xml = g_strdup_printf (
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"%s\"\n"
    "    android:versionCode=\"%d\" android:versionName=\"%s\">\n"
    "  <uses-sdk android:minSdkVersion=\"24\" android:targetSdkVersion=\"34\"/>\n"
    "  <application android:label=\"Adbscope agent\"/>\n"
    "</manifest>\n", package, version_code, version_name);
  char *apk = g_strdup_printf ("%s/%s-%s.apk", dir, package, version_name);
  const char *aapt[] = { "aapt", "package", "-f", "-M", manifest, "-I",
                         "/usr/share/android-framework-res/framework-res.apk", "-F", apk, NULL };
  const char *badging[] = { "aapt", "dump", "badging", apk, NULL };
  g_autofree char *out = NULL;
  g_autofree char *want = g_strdup_printf ("package: name='%s' versionCode='%d' versionName='%s'",
                                           package, version_code, version_name);
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_mkdir_with_parents (manifest_dir, 0755);
  g_assert_true (g_file_set_contents (manifest, xml, -1, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) aapt, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_spawn_sync (NULL, (char **) badging, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (out, want));
  return apk;
}

static char *
dumpsys_version_code (AdbscopeTestDevice *dev)
{
  g_autofree char *out = sh (dev, "dumpsys package " AGENT);
  const char *packages = strstr (out, "\nPackages:\n");
  const char *vc = packages != NULL ? strstr (packages, "\n    versionCode=") : NULL;

  if (vc == NULL)
    return NULL;
  vc += strlen ("\n    versionCode=");
  return g_strndup (vc, strcspn (vc, " \n"));
}

static void
test_install (void)
{
  const char *args[] = { "--network", "--demo-traffic", "off", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_autofree char *dir = g_dir_make_tmp ("test-sim-apk-XXXXXX", NULL);
  g_autofree char *v1 = NULL, *v2 = NULL, *other = NULL, *junk = NULL;
  g_autofree char *out = NULL, *vc = NULL, *err = NULL;
  int rc = -1;

  g_assert_no_error (error);
  v1 = build_apk (dir, AGENT, 10000, "1.0.0");
  v2 = build_apk (dir, AGENT, 10203, "1.2.3");
  other = build_apk (dir, "org.example.other", 7, "0.0.7");

  /* Not installed: nothing listed, no Packages: section, am fails. */
  out = sh (dev, "pm list packages " AGENT);
  g_assert_cmpstr (out, ==, "");
  vc = dumpsys_version_code (dev);
  g_assert_null (vc);
  g_free (out);
  out = sh (dev, AGENT_START);
  g_assert_nonnull (strstr (out, "does not exist"));

  /* adb install (a streamed install) reads the manifest of the APK. */
  g_free (out);
  out = adbscope_test_device_adb (dev, &rc, "install", v1, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (out, "Success"));
  g_free (out);
  out = sh (dev, "pm list packages " AGENT);
  g_assert_cmpstr (out, ==, "package:" AGENT "\n");
  vc = dumpsys_version_code (dev);
  g_assert_cmpstr (vc, ==, "10000");
  g_free (out);
  out = sh (dev, "dumpsys package " AGENT);
  g_assert_nonnull (strstr (out, "    versionCode=10000 minSdk=24 targetSdk=34\n"));
  g_assert_nonnull (strstr (out, "    versionName=1.0.0\n"));

  /* Again without -r: refused, as Android does; with -r: replaced. */
  {
    const char *argv[] = { "install", v2, NULL };
    g_free (out);
    out = adbscope_test_device_adbv (dev, argv, &rc, &err);
    g_assert_cmpint (rc, !=, 0);
    g_assert_nonnull (strstr (err, "INSTALL_FAILED_ALREADY_EXISTS"));
  }
  g_free (out);
  out = adbscope_test_device_adb (dev, &rc, "install", "-r", v2, NULL);
  g_assert_cmpint (rc, ==, 0);
  g_free (vc);
  vc = dumpsys_version_code (dev);
  g_assert_cmpstr (vc, ==, "10203");

  /* Push + pm install works too; the package comes from the APK, not the
   * file name. */
  g_free (out);
  out = adbscope_test_device_adb (dev, &rc, "push", other, "/data/local/tmp/agent.apk", NULL);
  g_assert_cmpint (rc, ==, 0);
  g_free (out);
  out = sh (dev, "pm install /data/local/tmp/agent.apk");
  g_assert_cmpstr (out, ==, "Success\n");
  g_free (out);
  out = sh (dev, "pm list packages org.example");
  g_assert_cmpstr (out, ==, "package:org.example.other\n");

  /* Not an APK: a clear failure, nothing installed. */
  junk = g_build_filename (dir, "junk.apk", NULL);
  g_assert_true (g_file_set_contents (junk, "this is not a zip file at all", -1, NULL));
  g_free (out);
  out = adbscope_test_device_adb (dev, &rc, "push", junk, "/data/local/tmp/junk.apk", NULL);
  g_free (out);
  out = sh (dev, "pm install /data/local/tmp/junk.apk");
  g_assert_true (g_str_has_prefix (out, "Failure [INSTALL_PARSE_FAILED_NOT_APK"));

  /* The installed agent starts; uninstall stops it and forgets it. */
  g_free (out);
  out = sh (dev, AGENT_START);
  g_assert_true (wait_state (dev, "running", 20));
  g_free (out);
  out = sh (dev, "dumpsys activity service " AGENT_SERVICE);
  g_assert_nonnull (strstr (out, " version=10203\n"));
  g_free (out);
  out = sh (dev, "pm uninstall " AGENT);
  g_assert_cmpstr (out, ==, "Success\n");
  g_free (out);
  out = sh (dev, "pm list packages " AGENT);
  g_assert_cmpstr (out, ==, "");
  g_free (out);
  out = sh (dev, "dumpsys activity service " AGENT_SERVICE);
  g_assert_nonnull (strstr (out, "No services match"));
  g_free (out);
  out = sh (dev, "pm uninstall " AGENT);
  g_assert_cmpstr (out, ==, "Failure [DELETE_FAILED_INTERNAL_ERROR]\n");

  {
    const char *rm[] = { "rm", "-rf", dir, NULL };

    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
}

/* ---- without root (or without a TUN) ----------------------------------- */

typedef struct
{
  gboolean    no_user_namespaces;  /* max_user_namespaces 0 for the user */
  gboolean    usable_tun;          /* a 0666 /dev/net/tun in a private mount namespace */
  gboolean    no_tun;              /* an empty /dev/net there instead */
  gboolean    as_root;             /* stay root (only the mounts change) */
} Unprivileged;

/* /proc files take one write(), not g_file_set_contents()'s rename. */
static gboolean
write_proc (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && write (fd, text, strlen (text)) == (gssize) strlen (text);

  if (fd >= 0)
    close (fd);
  return ok;
}

/* `adbscope sim --no-connect …` as uid/gid 65534; returns its first line
 * and leaves it running (*pid). */
static char *
start_unprivileged (const Unprivileged *how,
                    const char         *network_option,
                    GPid               *pid_out,
                    int                *stdout_fd)
{
  const char *bin = g_getenv ("ADBSCOPE_BIN");
  int ready[2], go[2], out[2];
  pid_t pid;
  char c;
  GString *line = g_string_new (NULL);

  g_assert_nonnull (bin);
  g_assert_cmpint (pipe (ready), ==, 0);
  g_assert_cmpint (pipe (go), ==, 0);
  g_assert_cmpint (pipe (out), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      const char *argv[] = { bin, "sim", "--no-connect", "--agent-installed", "--demo-traffic", "off",
                             network_option, NULL };

      setsid ();
      dup2 (out[1], 1);
      if (how->usable_tun)
        {
          g_autofree char *node = g_strdup_printf ("/tmp/test-sim-network-tun-%d", getpid ());

          if (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
              mknod (node, S_IFCHR | 0666, makedev (10, 200)) != 0 || chmod (node, 0666) != 0 ||
              mount (node, "/dev/net/tun", NULL, MS_BIND, NULL) != 0)
            _exit (90);
          unlink (node);   /* the bind mount keeps it */
        }
      if (how->no_tun &&
          (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
           mount ("none", "/dev/net", "tmpfs", 0, NULL) != 0))
        _exit (89);
      if (how->no_user_namespaces)
        {
          /* Our own user namespace, mapped by the parent, where this user
           * may create none. */
          if (unshare (CLONE_NEWUSER) != 0)
            _exit (91);
          if (write (ready[1], "r", 1) != 1 || read (go[0], &c, 1) != 1)
            _exit (92);
          if (!write_proc ("/proc/sys/user/max_user_namespaces", "0"))
            _exit (93);
        }
      if (!how->as_root &&
          (setgroups (0, NULL) != 0 || setresgid (65534, 65534, 65534) != 0 || setresuid (65534, 65534, 65534) != 0))
        _exit (94);
      g_setenv ("HOME", "/tmp", TRUE);
      execv (bin, (char **) argv);
      _exit (95);
    }
  close (out[1]);
  if (how->no_user_namespaces)
    {
      g_autofree char *uid_map = g_strdup_printf ("/proc/%d/uid_map", pid);
      g_autofree char *gid_map = g_strdup_printf ("/proc/%d/gid_map", pid);

      g_assert_cmpint (read (ready[0], &c, 1), ==, 1);
      g_assert_true (write_proc (uid_map, "0 0 1\n65534 65534 1\n"));
      g_assert_true (write_proc (gid_map, "0 0 1\n65534 65534 1\n"));
      g_assert_cmpint (write (go[1], "g", 1), ==, 1);
    }
  close (ready[0]), close (ready[1]), close (go[0]), close (go[1]);
  while (read (out[0], &c, 1) == 1 && c != '\n')
    g_string_append_c (line, c);
  *pid_out = pid;
  *stdout_fd = out[0];
  return g_string_free (line, FALSE);
}

/* The same, with its first line parsed. */
static JsonNode *
start_unprivileged_json (const Unprivileged *how,
                         const char         *network_option,
                         GPid               *pid_out,
                         int                *stdout_fd)
{
  g_autofree char *line = start_unprivileged (how, network_option, pid_out, stdout_fd);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  g_test_message ("%s", line);
  node = json_from_string (line, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
stop_unprivileged (GPid pid,
                   int  fd)
{
  int status;

  kill (-pid, SIGTERM);
  waitpid (pid, &status, 0);
  close (fd);
}

/* A fixture device, for the private adb server it starts. */
static AdbscopeTestDevice *
start_adb_server (void)
{
  const char *args[] = { "--demo-traffic", "off", NULL };
  g_autoptr(GError) error = NULL;
  AdbscopeTestDevice *dev = adbscope_test_device_start ("pixel-14", args, &error);

  g_assert_no_error (error);
  return dev;
}

/* `adb connect` to the device whose ready line is READY; its serial once
 * `adb devices` lists it. */
static char *
connect_by_hand (AdbscopeTestDevice *host,
                 JsonNode           *ready)
{
  char *serial = g_strdup_printf ("127.0.0.1:%" G_GINT64_FORMAT,
                                  json_object_get_int_member (json_node_get_object (ready), "port"));
  const char *connect[] = { "connect", serial, NULL };
  const char *devices[] = { "devices", NULL };
  int rc;

  g_free (adbscope_test_device_adbv (host, connect, &rc, NULL));
  for (int i = 0; i < 50; i++)
    {
      g_autofree char *out = adbscope_test_device_adbv (host, devices, &rc, NULL);
      g_autofree char *want = g_strdup_printf ("%s\tdevice\n", serial);

      if (strstr (out, want) != NULL)
        return serial;
      g_usleep (100 * 1000);
    }
  g_assert_not_reached ();
}

/* `adb -s SERIAL shell COMMAND` (adbv would add the fixture's own -s). */
static char *
shell_on (const char *serial,
          const char *command)
{
  const char *argv[] = { adbscope_test_adb_path (), "-s", serial, "shell", command, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, NULL, &error));
  g_assert_no_error (error);
  return out;
}

static gboolean
agent_not_supported (gpointer serial)
{
  g_autofree char *out = shell_on (serial, "dumpsys activity service " AGENT_SERVICE);

  return strstr (out, "  adbscope-agent state=error:network_not_supported ") != NULL;
}

/* Without root and without user namespaces: --network refuses with the
 * reason, --try-network runs without a network and the agent says so. */
static void
test_not_supported (void)
{
  const Unprivileged how = { TRUE, TRUE, FALSE, FALSE };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(AdbscopeTestDevice) host = NULL;
  JsonObject *obj;
  GPid pid;
  int fd;

  node = start_unprivileged_json (&how, "--network", &pid, &fd);
  obj = json_object_get_object_member (json_node_get_object (node), "error");
  g_assert_nonnull (obj);
  g_assert_cmpstr (json_object_get_string_member (obj, "code"), ==, "not_supported");
  g_assert_nonnull (strstr (json_object_get_string_member (obj, "message"), "unshare(CLONE_NEWUSER)"));
  stop_unprivileged (pid, fd);

  /* --try-network: the device runs, says why it has no network, and the
   * agent's state tells the desktop. */
  json_node_unref (node);
  node = start_unprivileged_json (&how, "--try-network", &pid, &fd);
  obj = json_object_get_object_member (json_node_get_object (node), "network");
  g_assert_nonnull (obj);
  g_assert_false (json_object_get_boolean_member (obj, "supported"));
  g_assert_nonnull (strstr (json_object_get_string_member (obj, "reason"), "unshare(CLONE_NEWUSER)"));
  {
    /* Through the real adb: the fixture's private server, connected by hand. */
    g_autofree char *serial = NULL;
    g_autofree char *out = NULL;

    host = start_adb_server ();
    serial = connect_by_hand (host, node);
    g_free (shell_on (serial, AGENT_START));
    adbscope_test_wait_until (agent_not_supported, serial, 20000, "the agent says the network is not supported");
    out = shell_on (serial, "dumpsys activity service " AGENT_SERVICE);
    g_test_message ("%s", out);
    g_assert_nonnull (strstr (out, "  adbscope-agent state=error:network_not_supported package=" DEMO));
  }
  stop_unprivileged (pid, fd);
}

/* Without root but with user namespaces (and a usable TUN): the same
 * network, in a user namespace. */
static void
test_user_namespace (void)
{
  const Unprivileged how = { FALSE, TRUE, FALSE, FALSE };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(AdbscopeTestDevice) host = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *out = NULL;
  gboolean running = FALSE;
  JsonObject *net;
  GPid pid, app_ns;
  int fd;

  node = start_unprivileged_json (&how, "--network", &pid, &fd);
  net = json_object_get_object_member (json_node_get_object (node), "network");
  g_assert_nonnull (net);
  g_assert_true (json_object_get_boolean_member (net, "supported"));
  g_assert_cmpstr (json_object_get_string_member (net, "mode"), ==, "userns");
  app_ns = (GPid) json_object_get_int_member (net, "app_netns_pid");
  assert_only_tun_routes (app_ns);

  /* The agent runs there too, as the same unprivileged user (the shell's
   * uid is on its allow-list), and the traffic goes through it. */
  host = start_adb_server ();
  serial = connect_by_hand (host, node);
  out = shell_on (serial, "id -u; " AGENT_START);
  g_assert_true (g_str_has_prefix (out, "65534\n"));
  for (int i = 0; i < 80 && !running; i++)
    {
      g_free (out);
      out = shell_on (serial, "dumpsys activity service " AGENT_SERVICE);
      running = strstr (out, "  adbscope-agent state=running ") != NULL;
      if (!running)
        g_usleep (250 * 1000);
    }
  g_assert_true (running);
  {
    const char *curl[] = { "curl", "-s", "-o", "/dev/null", "-m", "20", "-H", "Host: userns.demo.test",
                           "-w", "%{size_request} %{size_header} %{size_download}",
                           "http://" API "/bytes/50000", NULL };
    g_autofree char *counts_path = g_build_filename (json_object_get_string_member (json_node_get_object (node), "sandbox"),
                                                     "state", "net.json", NULL);
    g_auto(GStrv) words = NULL;
    gint64 want_in, want_out;
    gboolean seen = FALSE;
    int rc = -1;

    g_free (out);
    out = in_netns (app_ns, &rc, curl);
    g_assert_cmpint (rc, ==, 0);
    words = g_strsplit (out, " ", -1);
    g_assert_cmpstr (words[2], ==, "50000");
    want_in = g_ascii_strtoll (words[0], NULL, 10);
    want_out = g_ascii_strtoll (words[1], NULL, 10) + 50000;
    /* This device's counts: the file it rewrites every 500 ms. */
    for (int i = 0; i < 40 && !seen; i++)
      {
        g_autofree char *text = NULL;
        g_autoptr(JsonNode) counts = NULL;

        if (g_file_get_contents (counts_path, &text, NULL, NULL) &&
            (counts = json_from_string (text, NULL)) != NULL)
          seen = host_count (counts, "userns.demo.test", "bytes_in") == want_in &&
                 host_count (counts, "userns.demo.test", "bytes_out") == want_out;
        if (!seen)
          g_usleep (100 * 1000);
      }
    g_assert_true (seen);
  }
  stop_unprivileged (pid, fd);
}

/* Root on a machine without a TUN: not supported, and the device is back
 * in the namespace it started in (its shells and forwards as before). */
static void
test_root_without_tun (void)
{
  const Unprivileged how = { FALSE, FALSE, TRUE, TRUE };
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *ours = g_file_read_link ("/proc/self/ns/net", NULL);
  g_autofree char *theirs = NULL;
  JsonObject *net;
  GPid pid;
  int fd;

  node = start_unprivileged_json (&how, "--try-network", &pid, &fd);
  net = json_object_get_object_member (json_node_get_object (node), "network");
  g_assert_nonnull (net);
  g_assert_false (json_object_get_boolean_member (net, "supported"));
  g_assert_nonnull (strstr (json_object_get_string_member (net, "reason"), "/dev/net/tun: No such file or directory"));
  theirs = ns_link (pid);
  g_assert_cmpstr (theirs, ==, ours);
  stop_unprivileged (pid, fd);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (geteuid () != 0)
    {
      /* The namespaces, nsenter and the unprivileged runs need root. */
      g_test_skip ("needs root (CI runs as root)");
      return g_test_run ();
    }
  g_test_add_func ("/sim/network/namespaces", test_namespaces);
  g_test_add_func ("/sim/network/counts-through-agent", test_counts_through_agent);
  g_test_add_func ("/sim/network/demo-traffic", test_demo_traffic);
  g_test_add_func ("/sim/network/consent-denied", test_consent_denied);
  g_test_add_func ("/sim/network/install", test_install);
  g_test_add_func ("/sim/network/not-supported", test_not_supported);
  g_test_add_func ("/sim/network/user-namespace", test_user_namespace);
  g_test_add_func ("/sim/network/root-without-tun", test_root_without_tun);
  return g_test_run ();
}
