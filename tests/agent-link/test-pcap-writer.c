/* test-pcap-writer.c: the pcap stream into a file, cut anywhere, across
 * reconnects, and refused when it is not pcap; tshark reads the result. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-pcap-writer.h"

/* A stream as the agent writes it: header, then @n records of raw IPv4
 * packets (sizes vary, one empty-payload). */
static GByteArray *
make_stream (guint n,
             guint seed)
{
  GByteArray *s = g_byte_array_new ();
  guint32 hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 101 };

  g_byte_array_append (s, (guint8 *) hdr, sizeof hdr);
  for (guint i = 0; i < n; i++)
    {
      guint len = 20 + (i * 37 + seed) % 1400;
      guint32 rec[4] = { 1700000000 + i, i * 1000, len, len };
      guint8 pkt[1500] = { 0 };

      pkt[0] = 0x45;
      pkt[2] = len >> 8;
      pkt[3] = len & 0xff;
      pkt[8] = 64;
      pkt[9] = 17;
      pkt[12] = 10; pkt[15] = 1;
      pkt[16] = 10; pkt[19] = 2;
      for (guint b = 20; b < len; b++)
        pkt[b] = (guint8) (b + i);
      g_byte_array_append (s, (guint8 *) rec, sizeof rec);
      g_byte_array_append (s, pkt, len);
    }
  return s;
}

static char *
temp_file (void)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("adbscope-pcap-XXXXXX.pcap", &path, &error);

  g_assert_no_error (error);
  close (fd);
  return path;
}

static guint
tshark_count (const char *path)
{
  const char *argv[] = { "tshark", "-r", path, "-T", "fields", "-e", "frame.number", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;
  guint lines = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("tshark -r %s failed: %s", path, err);
  for (const char *p = out; *p; p++)
    lines += *p == '\n';
  return lines;
}

static void
test_every_cut (void)
{
  g_autoptr(GByteArray) stream = make_stream (8, 3);
  g_autofree char *path = temp_file ();

  for (guint k = 0; k <= stream->len; k += 1 + (k > 64) * 13)
    {
      g_autoptr(AdbscopePcapWriter) w = adbscope_pcap_writer_new (path, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *data = NULL;
      gsize len;

      g_assert_nonnull (w);
      adbscope_pcap_writer_begin_stream (w);
      g_assert_true (adbscope_pcap_writer_feed (w, stream->data, k, &error));
      g_assert_no_error (error);
      /* Before the rest arrives the file holds whole records only. */
      g_file_get_contents (path, &data, &len, NULL);
      g_assert_cmpuint (len, <=, k);
      if (len > 0)
        g_assert_cmpmem (data, len, stream->data, len);
      g_clear_pointer (&data, g_free);
      g_assert_true (adbscope_pcap_writer_feed (w, stream->data + k, stream->len - k, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (adbscope_pcap_writer_get_packets (w), ==, 8);
      g_file_get_contents (path, &data, &len, NULL);
      g_assert_cmpmem (data, len, stream->data, stream->len);
    }
  g_assert_cmpuint (tshark_count (path), ==, 8);
  g_unlink (path);
}

/* A reconnect: the second stream's header is checked and not written; a
 * record cut by the disconnect is dropped, never written half. */
static void
test_reconnect (void)
{
  g_autoptr(GByteArray) a = make_stream (5, 1);
  g_autoptr(GByteArray) b = make_stream (7, 2);
  g_autofree char *path = temp_file ();
  g_autoptr(AdbscopePcapWriter) w = adbscope_pcap_writer_new (path, NULL);
  g_autoptr(GError) error = NULL;

  adbscope_pcap_writer_begin_stream (w);
  g_assert_true (adbscope_pcap_writer_feed (w, a->data, a->len - 10, &error));
  g_assert_cmpuint (adbscope_pcap_writer_get_packets (w), ==, 4);
  adbscope_pcap_writer_begin_stream (w);
  g_assert_true (adbscope_pcap_writer_feed (w, b->data, b->len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (adbscope_pcap_writer_get_packets (w), ==, 11);
  g_assert_cmpuint (adbscope_pcap_writer_get_stream_packets (w), ==, 7);
  g_assert_cmpuint (tshark_count (path), ==, 11);
  g_unlink (path);
}

static void
test_garbage (void)
{
  g_autofree char *path = temp_file ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) s = make_stream (2, 0);
  AdbscopePcapWriter *w;
  guint32 big;

  w = adbscope_pcap_writer_new (path, NULL);
  adbscope_pcap_writer_begin_stream (w);
  g_assert_false (adbscope_pcap_writer_feed (w, (const guint8 *) "HTTP/1.1 400 Bad Request\r\n\r\n", 28, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);
  adbscope_pcap_writer_free (w);

  /* A record claiming 4 GB. */
  big = 0xffffffff;
  memcpy (s->data + 24 + 8, &big, 4);
  w = adbscope_pcap_writer_new (path, NULL);
  adbscope_pcap_writer_begin_stream (w);
  g_assert_false (adbscope_pcap_writer_feed (w, s->data, s->len, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);
  adbscope_pcap_writer_free (w);

  /* Another link type after a reconnect does not belong in this file. */
  {
    g_autoptr(GByteArray) a = make_stream (1, 0);
    g_autoptr(GByteArray) b = make_stream (1, 0);
    guint32 eth = 1;

    memcpy (b->data + 20, &eth, 4);
    w = adbscope_pcap_writer_new (path, NULL);
    adbscope_pcap_writer_begin_stream (w);
    g_assert_true (adbscope_pcap_writer_feed (w, a->data, a->len, NULL));
    adbscope_pcap_writer_begin_stream (w);
    g_assert_false (adbscope_pcap_writer_feed (w, b->data, b->len, &error));
    g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    g_clear_error (&error);
    adbscope_pcap_writer_free (w);
  }

  g_assert_null (adbscope_pcap_writer_new ("/nonexistent/dir/x.pcap", &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_unlink (path);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pcap-writer/every-cut", test_every_cut);
  g_test_add_func ("/pcap-writer/reconnect", test_reconnect);
  g_test_add_func ("/pcap-writer/garbage", test_garbage);
  return g_test_run ();
}
