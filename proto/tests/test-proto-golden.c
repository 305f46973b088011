/* test-proto-golden.c: the desktop side of the agent protocol.  Reads
 * proto/testdata/snapshots.bin (a Hello and five Snapshots exactly as the
 * agent sent them; written by agent/tests/test-agent-server with
 * ADBSCOPE_UPDATE_GOLDEN=1) with the generated library, and checks that
 * `protoc --decode` reads a frame the same way. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "agent.pb-c.h"

typedef struct {
  const guint8 *data;
  gsize         len;
} Frame;

/* Splits a stream of varint-length-delimited messages. */
static GArray *
split_frames (const guint8 *data,
              gsize         len)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  gsize pos = 0;

  while (pos < len)
    {
      guint64 size = 0;
      guint shift = 0;
      Frame f;

      for (;;)
        {
          g_assert_cmpuint (pos, <, len);
          g_assert_cmpuint (shift, <, 64);
          size |= (guint64) (data[pos] & 0x7f) << shift;
          shift += 7;
          if (!(data[pos++] & 0x80))
            break;
        }
      g_assert_cmpuint (size, <=, len - pos);
      f.data = data + pos;
      f.len = size;
      g_array_append_val (frames, f);
      pos += size;
    }
  return frames;
}

static GBytes *
load_golden (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "testdata",
                                                 "snapshots.bin", NULL);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
test_golden_decode (void)
{
  g_autoptr(GBytes) bytes = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GArray) frames = split_frames (data, len);
  Adbscope__Agent__V1__AgentMessage *msg;
  guint64 prev_seq = 0;
  gboolean tcp_seen = FALSE, dns_seen = FALSE;
  guint i;

  g_assert_cmpuint (frames->len, ==, 6);
  msg = adbscope__agent__v1__agent_message__unpack (NULL, g_array_index (frames, Frame, 0).len,
                                                    g_array_index (frames, Frame, 0).data);
  g_assert_nonnull (msg);
  g_assert_cmpint (msg->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO);
  g_assert_cmpuint (msg->hello->protocol_version, ==,
                    ADBSCOPE__AGENT__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
  g_assert_cmpstr (msg->hello->platform, ==, "linux");
  g_assert_cmpuint (msg->hello->start_time_ms, >, 0);
  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);

  for (i = 1; i < frames->len; i++)
    {
      Frame *f = &g_array_index (frames, Frame, i);
      Adbscope__Agent__V1__Snapshot *s;
      size_t k;

      msg = adbscope__agent__v1__agent_message__unpack (NULL, f->len, f->data);
      g_assert_nonnull (msg);
      g_assert_cmpint (msg->payload_case, ==,
                       ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT);
      s = msg->snapshot;
      if (i > 1)
        g_assert_cmpuint (s->seq, ==, prev_seq + 1);
      prev_seq = s->seq;
      g_assert_nonnull (s->counters);
      g_assert_cmpuint (s->counters->packets_read, >, 0);
      for (k = 0; k < s->n_connections; k++)
        {
          Adbscope__Agent__V1__Connection *c = s->connections[k];

          g_assert_nonnull (c->source);
          g_assert_nonnull (c->destination);
          g_assert_cmpuint (c->source->address.len, ==, c->ip_version == 4 ? 4 : 16);
          if (c->protocol == ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP
              && g_strcmp0 (c->host, "golden.adbscope.test") == 0)
            {
              g_assert_cmpint (c->host_source, ==,
                               ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_HTTP_HOST);
              g_assert_cmpuint (c->payload_down, >=, 100000);
              tcp_seen = TRUE;
            }
        }
      for (k = 0; k < s->n_dns; k++)
        if (g_strcmp0 (s->dns[k]->name, "golden.adbscope.test") == 0)
          {
            g_assert_cmpint (s->dns[k]->result, ==,
                             ADBSCOPE__AGENT__V1__DNS_RESULT__DNS_RESULT_NOERROR);
            g_assert_cmpuint (s->dns[k]->n_answers, ==, 1);
            g_assert_cmpstr (s->dns[k]->answers[0], ==, "10.99.0.1");
            dns_seen = TRUE;
          }
      adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
    }
  g_assert_true (tcp_seen);
  g_assert_true (dns_seen);
}

/* protoc --decode (the reference decoder) agrees with protobuf-c on the
 * last frame. */
static void
test_golden_protoc (void)
{
  g_autoptr(GBytes) bytes = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GArray) frames = split_frames (data, len);
  Frame *f = &g_array_index (frames, Frame, frames->len - 1);
  Adbscope__Agent__V1__AgentMessage *msg = adbscope__agent__v1__agent_message__unpack (NULL, f->len,
                                                                                       f->data);
  g_autofree char *dir = g_dir_make_tmp ("proto-golden-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "frame.bin", NULL);
  g_autofree char *proto_dir = g_path_get_dirname (g_getenv ("AGENT_PROTO"));
  g_autofree char *proto_path = g_strdup_printf ("--proto_path=%s", proto_dir);
  g_autofree char *cmd = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *seq = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (msg);
  g_file_set_contents (file, (const char *) f->data, (gssize) f->len, &error);
  g_assert_no_error (error);
  cmd = g_strdup_printf ("sh -c 'exec \"$0\" --decode=adbscope.agent.v1.AgentMessage \"$1\" "
                         "\"$2\" < \"$3\"' '%s' '%s' '%s' '%s'",
                         g_getenv ("PROTOC"), proto_path, g_getenv ("AGENT_PROTO"), file);
  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("protoc: %s", err);

  seq = g_strdup_printf ("  seq: %" G_GUINT64_FORMAT "\n", msg->snapshot->seq);
  packets = g_strdup_printf ("    packets_read: %" G_GUINT64_FORMAT "\n",
                             msg->snapshot->counters->packets_read);
  g_assert_true (g_str_has_prefix (out, "snapshot {\n"));
  g_assert_nonnull (strstr (out, seq));
  g_assert_nonnull (strstr (out, packets));
  g_assert_nonnull (strstr (out, "protocol: PROTOCOL_TCP"));
  g_assert_nonnull (strstr (out, "host: \"golden.adbscope.test\""));
  g_assert_nonnull (strstr (out, "answers: \"10.99.0.1\""));

  adbscope__agent__v1__agent_message__free_unpacked (msg, NULL);
  g_remove (file);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proto/golden/decode", test_golden_decode);
  g_test_add_func ("/proto/golden/protoc-decode", test_golden_protoc);
  return g_test_run ();
}
