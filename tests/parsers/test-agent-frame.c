/* test-agent-frame.c: the incremental frame decoder on the golden stream
 * (proto/testdata/snapshots.bin, bytes as adbscope-agent-linux sent them),
 * cut at every byte, fed byte by byte, and on garbage. */
#include "config.h"

#include <string.h>

#include "adbscope-agent-frame.h"
#include "adbscope-error.h"

static GBytes *
load_golden (void)
{
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (ADBSCOPE_GOLDEN_SNAPSHOTS, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

/* The messages of a stream received in the pieces given by @cuts (offsets,
 * ascending), decoded the way the link does: append, decode while whole
 * frames are there, keep the rest.  Each message is re-packed so callers
 * can compare bytes. */
static GPtrArray *
decode_in_pieces (const guint8 *data,
                  gsize         len,
                  const gsize  *cuts,
                  guint         n_cuts)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  gsize from = 0;

  for (guint c = 0; c <= n_cuts; c++)
    {
      gsize to = c < n_cuts ? cuts[c] : len;

      g_byte_array_append (buf, data + from, (guint) (to - from));
      from = to;
      for (;;)
        {
          g_autoptr(AdbscopeAgentMessage) msg = NULL;
          g_autoptr(GError) error = NULL;
          gsize consumed = 0;
          AdbscopeAgentFrameResult r;
          gsize n;
          guint8 *packed;

          r = adbscope_agent_frame_decode (buf->data, buf->len, &consumed, &msg, &error);
          if (r == ADBSCOPE_AGENT_FRAME_NEED_MORE)
            {
              g_assert_no_error (error);
              g_assert_null (msg);
              break;
            }
          g_assert_no_error (error);
          g_assert_cmpint (r, ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
          g_assert_nonnull (msg);
          g_assert_cmpuint (consumed, >, 0);
          g_assert_cmpuint (consumed, <=, buf->len);
          n = adbscope__agent__v1__agent_message__get_packed_size (msg);
          packed = g_malloc (n + 1);
          adbscope__agent__v1__agent_message__pack (msg, packed);
          g_ptr_array_add (out, g_bytes_new_take (packed, n));
          g_byte_array_remove_range (buf, 0, (guint) consumed);
        }
    }
  g_assert_cmpuint (buf->len, ==, 0);
  return out;
}

static void
assert_same_messages (GPtrArray *a,
                      GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_true (g_bytes_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)));
}

static void
test_golden_whole (void)
{
  g_autoptr(GBytes) golden = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (golden, &len);
  g_autoptr(GPtrArray) msgs = decode_in_pieces (data, len, NULL, 0);
  guint64 prev_seq = 0;

  g_assert_cmpuint (msgs->len, ==, 6);
  for (guint i = 0; i < msgs->len; i++)
    {
      GBytes *b = g_ptr_array_index (msgs, i);
      AdbscopeAgentMessage *m = adbscope__agent__v1__agent_message__unpack (NULL, g_bytes_get_size (b),
                                                                           g_bytes_get_data (b, NULL));

      g_assert_nonnull (m);
      if (i == 0)
        {
          g_assert_cmpint (m->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_HELLO);
          g_assert_cmpuint (m->hello->protocol_version, ==, 1);
          g_assert_cmpstr (m->hello->platform, ==, "linux");
        }
      else
        {
          g_assert_cmpint (m->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD_SNAPSHOT);
          g_assert_cmpuint (m->snapshot->seq, >, prev_seq);
          prev_seq = m->snapshot->seq;
        }
      adbscope_agent_message_free (m);
    }
  /* Re-packing gives the agent's bytes back: the framing took nothing
   * that belonged to a message and left nothing out. */
  {
    gsize pos = 0;

    for (guint i = 0; i < msgs->len; i++)
      {
        gsize n;
        const guint8 *p = g_bytes_get_data (g_ptr_array_index (msgs, i), &n);
        guint hdr = n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : 4;

        g_assert_cmpuint (pos + hdr + n, <=, len);
        g_assert_cmpmem (data + pos + hdr, n, p, n);
        pos += hdr + n;
      }
    g_assert_cmpuint (pos, ==, len);
  }
}

static void
test_golden_every_cut (void)
{
  g_autoptr(GBytes) golden = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (golden, &len);
  g_autoptr(GPtrArray) whole = decode_in_pieces (data, len, NULL, 0);

  for (gsize k = 0; k <= len; k++)
    {
      g_autoptr(GPtrArray) cut = decode_in_pieces (data, len, &k, 1);

      assert_same_messages (whole, cut);
    }
}

static void
test_golden_byte_by_byte (void)
{
  g_autoptr(GBytes) golden = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (golden, &len);
  g_autoptr(GPtrArray) whole = decode_in_pieces (data, len, NULL, 0);
  g_autofree gsize *cuts = g_new (gsize, len);
  g_autoptr(GPtrArray) bytewise = NULL;

  for (gsize k = 0; k < len; k++)
    cuts[k] = k;
  bytewise = decode_in_pieces (data, len, cuts, (guint) len);
  assert_same_messages (whole, bytewise);
}

/* Every proper prefix of the first frame needs more; never a message,
 * never malformed. */
static void
test_golden_prefixes (void)
{
  g_autoptr(GBytes) golden = load_golden ();
  gsize len, first = 0;
  const guint8 *data = g_bytes_get_data (golden, &len);
  g_autoptr(AdbscopeAgentMessage) msg = NULL;

  g_assert_cmpint (adbscope_agent_frame_decode (data, len, &first, &msg, NULL), ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
  for (gsize k = 0; k < first; k++)
    {
      AdbscopeAgentMessage *m = NULL;
      gsize consumed = 12345;

      g_assert_cmpint (adbscope_agent_frame_decode (data, k, &consumed, &m, NULL), ==, ADBSCOPE_AGENT_FRAME_NEED_MORE);
      g_assert_null (m);
      g_assert_cmpuint (consumed, ==, 12345);
    }
}

static AdbscopeAgentFrameResult
decode_literal (const char *bytes,
                gsize       len,
                GError    **error)
{
  g_autoptr(AdbscopeAgentMessage) msg = NULL;
  gsize consumed = 0;
  AdbscopeAgentFrameResult r = adbscope_agent_frame_decode ((const guint8 *) bytes, len, &consumed, &msg, error);

  g_assert_true ((r == ADBSCOPE_AGENT_FRAME_MESSAGE) == (msg != NULL));
  return r;
}

static void
test_garbage (void)
{
  g_autoptr(GError) error = NULL;

  /* Six-byte length: no 32-bit size is written that way. */
  g_assert_cmpint (decode_literal ("\xff\xff\xff\xff\xff\x01", 6, &error), ==, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);
  /* …and not even the first five bytes of one can become valid. */
  g_assert_cmpint (decode_literal ("\x80\x80\x80\x80\x80", 5, &error), ==, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_clear_error (&error);
  g_assert_cmpint (decode_literal ("\x80\x80\x80\x80", 4, &error), ==, ADBSCOPE_AGENT_FRAME_NEED_MORE);
  g_assert_no_error (error);
  /* 2^31 bytes: over the limit, refused without waiting for them. */
  g_assert_cmpint (decode_literal ("\x80\x80\x80\x80\x08", 5, &error), ==, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_assert_nonnull (strstr (error->message, "limit"));
  g_clear_error (&error);
  /* The limit itself is allowed (and needs more). */
  g_assert_cmpint (decode_literal ("\x80\x80\x80\x08", 4, &error), ==, ADBSCOPE_AGENT_FRAME_NEED_MORE);
  /* Wire type 7 does not exist. */
  g_assert_cmpint (decode_literal ("\x02\x0f\x00", 3, &error), ==, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);
  /* A Hello whose length runs past the frame. */
  g_assert_cmpint (decode_literal ("\x03\x0a\x10\x08", 4, &error), ==, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_clear_error (&error);
  /* Text is not a stream of frames either ('H' = 72 bytes, then junk). */
  g_assert_cmpint (decode_literal ("HTTP/1.1 200 OK\r\n", 17, &error), ==, ADBSCOPE_AGENT_FRAME_NEED_MORE);
  /* An empty message is a message (a newer agent's payload we do not know
   * looks like this to us), not an error. */
  {
    g_autoptr(AdbscopeAgentMessage) msg = NULL;
    gsize consumed = 0;

    g_assert_cmpint (adbscope_agent_frame_decode ((const guint8 *) "\x00\x7f", 2, &consumed, &msg, NULL),
                     ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
    g_assert_cmpuint (consumed, ==, 1);
    g_assert_cmpint (msg->payload_case, ==, ADBSCOPE__AGENT__V1__AGENT_MESSAGE__PAYLOAD__NOT_SET);
  }
  /* Unknown fields are skipped (proto3 compatibility). */
  {
    g_autoptr(AdbscopeAgentMessage) msg = NULL;
    gsize consumed = 0;

    g_assert_cmpint (adbscope_agent_frame_decode ((const guint8 *) "\x02\x78\x01", 3, &consumed, &msg, NULL),
                     ==, ADBSCOPE_AGENT_FRAME_MESSAGE);
    g_assert_cmpuint (consumed, ==, 3);
  }
}

/* Random bytes and the golden file with bytes flipped: whatever the result,
 * it is one of the three, consistent, and nothing is read out of bounds (the
 * sanitizer build runs this too). */
static void
test_random (void)
{
  g_autoptr(GBytes) golden = load_golden ();
  gsize len;
  const guint8 *data = g_bytes_get_data (golden, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  GRand *rand = g_rand_new_with_seed (11);

  for (guint round = 0; round < 3000; round++)
    {
      guint8 junk[64];
      gsize pos = g_rand_int_range (rand, 0, (gint32) len);
      gsize n = g_rand_int_range (rand, 0, sizeof junk);
      AdbscopeAgentFrameResult r;
      AdbscopeAgentMessage *msg = NULL;
      gsize consumed = 0;

      for (gsize i = 0; i < n; i++)
        junk[i] = (guint8) g_rand_int (rand);
      r = adbscope_agent_frame_decode (junk, n, &consumed, &msg, NULL);
      g_assert_true (r <= ADBSCOPE_AGENT_FRAME_MALFORMED);
      g_assert_true (r != ADBSCOPE_AGENT_FRAME_MESSAGE || consumed <= n);
      g_clear_pointer (&msg, adbscope_agent_message_free);

      memcpy (copy, data, len);
      copy[pos] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
      for (gsize off = 0; off < len; off += consumed)
        {
          consumed = 0;
          r = adbscope_agent_frame_decode (copy + off, len - off, &consumed, &msg, NULL);
          g_clear_pointer (&msg, adbscope_agent_message_free);
          if (r != ADBSCOPE_AGENT_FRAME_MESSAGE)
            break;
          g_assert_cmpuint (consumed, <=, len - off);
        }
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/agent-frame/golden/whole", test_golden_whole);
  g_test_add_func ("/agent-frame/golden/every-cut", test_golden_every_cut);
  g_test_add_func ("/agent-frame/golden/byte-by-byte", test_golden_byte_by_byte);
  g_test_add_func ("/agent-frame/golden/prefixes", test_golden_prefixes);
  g_test_add_func ("/agent-frame/garbage", test_garbage);
  g_test_add_func ("/agent-frame/random", test_random);
  return g_test_run ();
}
