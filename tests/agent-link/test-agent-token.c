/* test-agent-token.c: the desktop refuses an agent whose Hello does not
 * echo the instance token it was started with (another app took the
 * abstract socket name first), and accepts its own.
 *
 * The "agent" is a fake server on two abstract unix sockets that answers
 * each connection with one Hello encoded by protobuf-c, as a squatter
 * would; the link connects to it directly (adbscope_agent_link_set_addresses)
 * instead of through adb forwards. */
#include "config.h"

#include <gio/gunixsocketaddress.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-core.h"
#include "adbscope-agent-link.h"
#include "agent.pb-c.h"

typedef struct
{
  GSocketService *service;
  char           *token;      /* what the fake Hello carries ("" or NULL: none) */
  char           *version;
  guint           accepted;
  GPtrArray      *conns;      /* kept open until the end */
} Fake;

static GBytes *
hello_frame (Fake *fake)
{
  Adbscope__Agent__V1__AgentMessage msg = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__INIT;
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;
  guint8 *buf;
  gsize len, n = 0;
  guint8 prefix[10];
  GByteArray *out = g_byte_array_new ();

  hello.protocol_version = 1;
  hello.agent_version = fake->version;
  hello.platform = (char *) "android";
  hello.start_time_ms = 1700000000000;
  hello.snapshot_interval_ms = 1000;
  hello.instance_token = fake->token ? fake->token : (char *) "";
  msg.payload_case = ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO;
  msg.hello = &hello;
  len = adbscope__agent__v1__agent_message__get_packed_size (&msg);
  buf = g_malloc (len);
  adbscope__agent__v1__agent_message__pack (&msg, buf);
  for (gsize v = len; ; v >>= 7)
    {
      prefix[n++] = (guint8) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      if (v <= 0x7f)
        break;
    }
  g_byte_array_append (out, prefix, n);
  g_byte_array_append (out, buf, len);
  g_free (buf);
  return g_byte_array_free_to_bytes (out);
}

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *conn,
             GObject           *source,
             gpointer           user_data)
{
  Fake *fake = user_data;
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));

  fake->accepted++;
  if (source == NULL)
    {
      /* the snapshot socket: a Hello, then the connection stays open */
      g_autoptr(GBytes) frame = hello_frame (fake);

      g_output_stream_write_all (out, g_bytes_get_data (frame, NULL), g_bytes_get_size (frame),
                                 NULL, NULL, NULL);
    }
  g_ptr_array_add (fake->conns, g_object_ref (conn));
  return TRUE;
}

typedef struct
{
  gboolean  connected;
  GError   *error;
} Outcome;

static void
on_connected (AdbscopeAgentLink *link,
              Outcome           *o)
{
  o->connected = TRUE;
}

static void
on_failed (AdbscopeAgentLink *link,
           const GError      *error,
           Outcome           *o)
{
  g_clear_error (&o->error);
  o->error = g_error_copy (error);
}

/* Runs a link with @want against a fake agent saying @says. */
static void
run_link (const char *want,
          const char *says,
          Outcome    *o)
{
  static guint counter;
  g_autofree char *name = g_strdup_printf ("adbscope-token-test-%d-%u", getpid (), ++counter);
  g_autofree char *pcap_name = g_strdup_printf ("%s-pcap", name);
  g_autoptr(GSocketAddress) snap = g_unix_socket_address_new_with_type (name, -1, G_UNIX_SOCKET_ADDRESS_ABSTRACT);
  g_autoptr(GSocketAddress) pcap = g_unix_socket_address_new_with_type (pcap_name, -1, G_UNIX_SOCKET_ADDRESS_ABSTRACT);
  g_autoptr(AdbscopeNetwork) network = adbscope_network_new ();
  g_autoptr(AdbscopeAgentLink) link = NULL;
  g_autoptr(GError) error = NULL;
  Fake fake = { 0 };
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  fake.token = g_strdup (says);
  fake.conns = g_ptr_array_new_with_free_func (g_object_unref);
  fake.version = g_strdup (PACKAGE_VERSION);
  fake.service = g_socket_service_new ();
  g_socket_listener_add_address (G_SOCKET_LISTENER (fake.service), snap, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, NULL, NULL, &error);
  g_assert_no_error (error);
  /* the pcap socket: source object non-NULL tells them apart */
  g_socket_listener_add_address (G_SOCKET_LISTENER (fake.service), pcap, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, G_OBJECT (fake.service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (fake.service, "incoming", G_CALLBACK (on_incoming), &fake);
  g_socket_service_start (fake.service);

  link = adbscope_agent_link_new ("fake-serial", network);
  adbscope_agent_link_set_addresses (link, snap, pcap);
  adbscope_agent_link_set_token (link, want);
  g_signal_connect (link, "connected", G_CALLBACK (on_connected), o);
  g_signal_connect (link, "failed", G_CALLBACK (on_failed), o);
  adbscope_agent_link_start (link);
  while (!o->connected && o->error == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fake.accepted, >=, 1);
  adbscope_agent_link_stop (link);
  g_socket_service_stop (fake.service);
  g_socket_listener_close (G_SOCKET_LISTENER (fake.service));
  g_object_unref (fake.service);
  g_ptr_array_unref (fake.conns);
  g_free (fake.token);
  g_free (fake.version);
}

static void
test_own_token (void)
{
  Outcome o = { 0 };

  run_link ("5f3a9c0d12345678", "5f3a9c0d12345678", &o);
  g_assert_no_error (o.error);
  g_assert_true (o.connected);
}

static void
test_wrong_token (void)
{
  const char *squatters[] = { "0000000000000000", "" };

  for (guint i = 0; i < G_N_ELEMENTS (squatters); i++)
    {
      Outcome o = { 0 };

      run_link ("5f3a9c0d12345678", squatters[i], &o);
      g_assert_false (o.connected);
      g_assert_error (o.error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_IMPOSTOR);
      g_assert_cmpstr (adbscope_error_get_code_name (o.error), ==, "agent_impostor");
      g_assert_nonnull (strstr (o.error->message, "adbscope-agent"));
      g_test_message ("%s", o.error->message);
      g_clear_error (&o.error);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/agent-link/token/own", test_own_token);
  g_test_add_func ("/agent-link/token/impostor", test_wrong_token);
  return g_test_run ();
}
