/* test-connect.c: `adbscope connect HOST[:PORT]` against the real adb and
 * the simulated device; adb's own `devices` list is the truth. */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-error.h"
#include "adbscope-test-device.h"
#include "adbscope-validate.h"

static AdbscopeTestDevice *dev;

static char *
run_cli (const char *address,
         int        *status)
{
  const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "connect", address, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, status, &error))
    g_error ("%s", error->message);
  *status = WIFEXITED (*status) ? WEXITSTATUS (*status) : -1;
  return out;
}

static JsonObject *
parse (JsonParser *parser,
       const char *text)
{
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_connect (void)
{
  const char *serial = adbscope_test_device_get_serial (dev);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *devices = NULL;
  g_autofree char *out = NULL;
  g_autofree char *want = NULL;
  JsonObject *o;
  int status = -1;

  g_free (adbscope_test_device_adb (dev, NULL, "disconnect", serial, NULL));
  devices = adbscope_test_device_adb (dev, NULL, "devices", NULL);
  g_assert_null (strstr (devices, serial));

  out = run_cli (serial, &status);
  g_assert_cmpint (status, ==, 0);
  o = parse (parser, out);
  g_assert_cmpstr (json_object_get_string_member (o, "address"), ==, serial);
  g_assert_true (json_object_get_boolean_member (o, "connected"));
  want = g_strdup_printf ("connected to %s", serial);
  g_assert_cmpstr (json_object_get_string_member (o, "message"), ==, want);
  g_clear_pointer (&devices, g_free);
  devices = adbscope_test_device_adb (dev, NULL, "devices", NULL);
  g_assert_nonnull (strstr (devices, serial));

  /* Again: adb's real answer, "already connected to …". */
  g_free (out);
  out = run_cli (serial, &status);
  g_assert_cmpint (status, ==, 0);
  o = parse (parser, out);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "message"), "already connected to "));
}

static void
test_refused (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GSocket) s = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autofree char *address = NULL;
  g_autofree char *out = NULL;
  JsonObject *e;
  int status = -1;

  /* A port that was just free: nothing listens there. */
  g_assert_true (g_socket_bind (s, any, TRUE, NULL));
  bound = g_socket_get_local_address (s, NULL);
  address = g_strdup_printf ("127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (s, NULL);

  out = run_cli (address, &status);
  g_assert_cmpint (status, ==, 1);
  e = json_object_get_object_member (parse (parser, out), "error");
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "no_device");
  /* adb's own words are shown */
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), "failed to connect"));
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), address));
}

static void
test_bad_address (void)
{
  const char *bad[] = { "a;reboot", "", "host:0", "host:65536", "host:x", "-rf", "[zz]:1", "a b" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      int status = -1;
      g_autofree char *out = run_cli (bad[i], &status);

      g_assert_cmpint (status, ==, 2);
      g_assert_nonnull (strstr (out, "\"usage\""));
    }
}

static void
test_normalize (void)
{
  const struct { const char *in, *out; } cases[] = {
    { "192.168.1.20", "192.168.1.20:5555" },
    { "phone.local:37199", "phone.local:37199" },
    { "[fe80::1]:5555", "[fe80::1]:5555" },
    { "[::1]", "[::1]:5555" },
    { "farm-7.example.com:7401", "farm-7.example.com:7401" },
    { "bad'quote", NULL },
    { "x:1:2", NULL },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = adbscope_network_address_normalize (cases[i].in);

      g_assert_cmpstr (got, ==, cases[i].out);
    }
}

/* --adb-server's value: what reaches adb's command line, and what is refused. */
static void
test_server_address (void)
{
  const struct { const char *in, *spec; gboolean ok; } cases[] = {
    { "farm-3.example.com:7401", "tcp:farm-3.example.com:7401", TRUE },
    { "10.77.0.2", "tcp:10.77.0.2:5037", TRUE },
    { "[fe80::1]:5038", "tcp:[fe80::1]:5038", TRUE },
    { "local", NULL, TRUE },
    { "", NULL, TRUE },
    { "farm:0", NULL, FALSE },
    { "farm:70000", NULL, FALSE },
    { "far m:5037", NULL, FALSE },
    { "-L:5037", NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "devices", NULL };
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;
      gboolean ok;

      g_assert_true (adbscope_adb_set_server ("local", NULL));
      ok = adbscope_adb_set_server (cases[i].in, &error);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (!ok)
        {
          g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE);
          g_assert_null (adbscope_adb_dup_server ());
          continue;
        }
      argv = adbscope_adb_build_argv ("adb", "SERIAL", args);
      if (cases[i].spec == NULL)
        {
          g_assert_cmpuint (g_strv_length (argv), ==, 4);
          g_assert_null (adbscope_adb_dup_server ());
        }
      else
        {
          g_assert_cmpuint (g_strv_length (argv), ==, 6);
          g_assert_cmpstr (argv[1], ==, "-L");
          g_assert_cmpstr (argv[2], ==, cases[i].spec);
          g_assert_cmpstr (argv[3], ==, "-s");
        }
    }
  g_assert_true (adbscope_adb_set_server (NULL, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  g_test_add_func ("/connect/normalize", test_normalize);
  g_test_add_func ("/connect/server-address", test_server_address);
  g_test_add_func ("/connect/sim", test_connect);
  g_test_add_func ("/connect/refused", test_refused);
  g_test_add_func ("/connect/bad-address", test_bad_address);
  rc = g_test_run ();
  adbscope_test_device_free (dev);
  return rc;
}
