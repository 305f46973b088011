/* test-parse.c: the engine's parsers on known bytes (a real OpenSSL 3
 * ClientHello, hand-made DNS and packets from the fuzz seed corpus), their
 * failure modes, and a replay of the fuzz corpus including regressions. */
#include <glib.h>
#include <string.h>

#include "engine-parse.h"
#include "fuzz-parsers-body.h"

static GBytes *
load (const char *dir,
      const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("AGENT_TESTDATA"), "..", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
test_checksum_rfc1071 (void)
{
  /* RFC 1071 §3 example: the sum is 0xddf2, so the checksum is 0x220d. */
  static const guint8 data[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
  guint16 sum = engine_checksum (data, sizeof data, 0);
  guint8 wire[2];

  memcpy (wire, &sum, 2);
  g_assert_cmphex (wire[0], ==, 0x22);
  g_assert_cmphex (wire[1], ==, 0x0d);
  /* Odd length: the last byte is the high half of a zero-padded word. */
  sum = engine_checksum (data, 7, 0);
  memcpy (wire, &sum, 2);
  g_assert_cmphex ((wire[0] << 8) | wire[1], ==, (guint16) ~(0xddf2 - 0x00f7));
}

/* The plain RFC 1071 loop: big-endian 16-bit words, end-around carry. */
static guint16
reference_checksum (const guint8 *p,
                    gsize         len)
{
  guint32 sum = 0;
  gsize i;

  for (i = 0; i + 1 < len; i += 2)
    sum += (guint32) (p[i] << 8 | p[i + 1]);
  if (len & 1)
    sum += (guint32) p[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

/* The word-at-a-time checksum against the plain loop for every length and
 * alignment up to a few hundred bytes and some long ones; sums of blocks
 * split at odd and even offsets add up to the sum of the whole. */
static void
test_checksum_blocks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1071);
  static const gsize long_lens[] = { 1500, 9999, 21845, 65495 };
  guint8 *data = g_malloc (65536 + 8);
  gsize i, len, off;

  for (i = 0; i < 65536 + 8; i++)
    data[i] = (guint8) g_rand_int (rand);
  /* Runs of 0xff make the carries matter. */
  memset (data + 3000, 0xff, 5000);
  for (off = 0; off < 8; off++)
    {
      for (len = 0; len < 300; len++)
        {
          guint16 sum = engine_checksum (data + off, len, 0);
          guint8 wire[2];

          memcpy (wire, &sum, 2);
          g_assert_cmphex ((guint) (wire[0] << 8 | wire[1]), ==,
                           reference_checksum (data + off, len));
        }
      for (i = 0; i < G_N_ELEMENTS (long_lens); i++)
        {
          guint16 sum = engine_checksum (data + off + 2990, MIN (long_lens[i], 65536 - 2990), 0);
          guint8 wire[2];

          memcpy (wire, &sum, 2);
          g_assert_cmphex ((guint) (wire[0] << 8 | wire[1]), ==,
                           reference_checksum (data + off + 2990,
                                               MIN (long_lens[i], 65536 - 2990)));
        }
    }

  for (i = 0; i < 2000; i++)
    {
      gsize total = (gsize) g_rand_int_range (rand, 0, 20000);
      gsize cut1 = total ? (gsize) g_rand_int_range (rand, 0, (gint32) total + 1) : 0;
      gsize cut2 = cut1 + (total > cut1 ? (gsize) g_rand_int_range (rand, 0, (gint32) (total - cut1) + 1) : 0);
      guint32 whole = engine_checksum_partial (data, total, 0);
      guint32 parts = 0;

      parts = engine_checksum_block_add (parts, engine_checksum_partial (data, cut1, 0), 0);
      parts = engine_checksum_block_add (parts, engine_checksum_partial (data + cut1, cut2 - cut1, 0), cut1);
      parts = engine_checksum_block_add (parts, engine_checksum_partial (data + cut2, total - cut2, 0), cut2);
      g_assert_cmphex (engine_checksum (NULL, 0, parts), ==, engine_checksum (NULL, 0, whole));
    }
  g_free (data);
}

/* Headers built for a payload that stays elsewhere (the engine's writev
 * path, the payload split across the ring's end) are byte for byte the
 * headers of the packet built in one piece. */
static void
test_packet_build_header (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (793);
  guint8 payload[3000], whole[3100], hdr[64];
  guint i;

  for (i = 0; i < sizeof payload; i++)
    payload[i] = (guint8) g_rand_int (rand);
  for (i = 0; i < 400; i++)
    {
      EnginePacket p, q;
      gsize plen = (gsize) g_rand_int_range (rand, 0, sizeof payload);
      gsize cut = (gsize) g_rand_int_range (rand, 0, (gint32) plen + 1);
      guint32 sum;
      gsize len, hlen;
      guint8 rebuilt[3100];

      memset (&p, 0, sizeof p);
      p.ip_version = i % 2 ? 6 : 4;
      p.protocol = i % 4 < 2 ? 6 : 17;
      p.src[0] = 10;
      p.src[3] = (guint8) i;
      p.src[15] = 3;
      p.dst[0] = 10;
      p.dst[3] = 200;
      p.sport = (guint16) g_rand_int (rand);
      p.dport = 443;
      p.seq = g_rand_int (rand);
      p.ack = g_rand_int (rand);
      p.flags = ENGINE_TCP_ACK | ENGINE_TCP_PSH;
      p.window = (guint16) g_rand_int (rand);
      p.mss = i % 8 == 0 && p.protocol == 6 ? 1460 : 0;
      p.wscale = i % 3 == 0 && p.protocol == 6;
      p.wscale_shift = (guint8) (i % 15);
      p.payload = payload;
      p.payload_len = plen;
      len = engine_packet_build (whole, sizeof whole, &p);
      g_assert_cmpuint (len, >, 0);

      sum = engine_checksum_block_add (engine_checksum_partial (payload, cut, 0),
                                       engine_checksum_partial (payload + cut, plen - cut, 0),
                                       cut);
      p.payload = NULL;
      hlen = engine_packet_build_header (hdr, sizeof hdr, &p, sum);
      g_assert_cmpuint (hlen + plen, ==, len);
      g_assert_cmpmem (hdr, hlen, whole, hlen);
      memcpy (rebuilt, hdr, hlen);
      memcpy (rebuilt + hlen, payload, plen);
      g_assert_cmpint (engine_packet_parse (rebuilt, len, &q), ==, ENGINE_PKT_OK);
      g_assert_cmpmem (q.payload, q.payload_len, payload, plen);
    }
}

static void
test_packet_roundtrip (void)
{
  EnginePacket p, q;
  guint8 buf[2000];
  const char payload[] = "hello, engine";
  gsize len;
  guint v;

  for (v = 4; v <= 6; v += 2)
    {
      memset (&p, 0, sizeof p);
      p.ip_version = (guint8) v;
      p.protocol = 6;
      p.src[0] = 10;
      p.src[15] = 1;
      p.dst[0] = 10;
      p.dst[15] = 2;
      if (v == 4)
        p.src[3] = 1, p.dst[3] = 2;
      p.sport = 1234;
      p.dport = 443;
      p.seq = 0xfffffff0u;
      p.ack = 77;
      p.flags = ENGINE_TCP_SYN | ENGINE_TCP_ACK;
      p.window = 65535;
      p.mss = 1460;
      p.wscale = TRUE;
      p.wscale_shift = 7;
      p.payload = (const guint8 *) payload;
      p.payload_len = sizeof payload;
      len = engine_packet_build (buf, sizeof buf, &p);
      /* MSS (4 bytes), NOP + window scale (4 bytes). */
      g_assert_cmpuint (len, ==, (v == 4 ? 20 : 40) + 28 + sizeof payload);
      g_assert_cmpuint (engine_packet_header_len (&p), ==, (v == 4 ? 20 : 40) + 28);
      g_assert_cmpint (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      g_assert_cmpuint (q.ip_version, ==, v);
      g_assert_cmpuint (q.sport, ==, 1234);
      g_assert_cmpuint (q.dport, ==, 443);
      g_assert_cmpuint (q.seq, ==, 0xfffffff0u);
      g_assert_cmpuint (q.ack, ==, 77);
      g_assert_cmpuint (q.flags, ==, ENGINE_TCP_SYN | ENGINE_TCP_ACK);
      g_assert_cmpuint (q.mss, ==, 1460);
      g_assert_true (q.wscale);
      g_assert_cmpuint (q.wscale_shift, ==, 7);
      g_assert_cmpmem (q.payload, q.payload_len, payload, sizeof payload);
      g_assert_cmpmem (q.src, v == 4 ? 4 : 16, p.src, v == 4 ? 4 : 16);

      /* Any flipped bit is a checksum failure, never OK. */
      buf[len - 1] ^= 0x01;
      g_assert_cmpint (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_MALFORMED);
      buf[len - 1] ^= 0x01;
      /* Every truncation is malformed. */
      for (gsize cut = 0; cut < len; cut++)
        g_assert_cmpint (engine_packet_parse (buf, cut, &q), ==, ENGINE_PKT_MALFORMED);

      /* Without the window scale option. */
      p.wscale = FALSE;
      len = engine_packet_build (buf, sizeof buf, &p);
      g_assert_cmpuint (len, ==, (v == 4 ? 20 : 40) + 24 + sizeof payload);
      g_assert_cmpint (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      g_assert_false (q.wscale);
      g_assert_cmpuint (q.mss, ==, 1460);

      p.protocol = 17;
      p.mss = 0;
      len = engine_packet_build (buf, sizeof buf, &p);
      g_assert_cmpint (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      g_assert_cmpuint (q.protocol, ==, 17);
      g_assert_cmpmem (q.payload, q.payload_len, payload, sizeof payload);
    }
  /* Too small a buffer: nothing built. */
  g_assert_cmpuint (engine_packet_build (buf, 40, &p), ==, 0);
}

static void
test_packet_seeds (void)
{
  g_autoptr(GBytes) syn = load ("fuzz-corpus", "tcp4-syn-mss");
  g_autoptr(GBytes) get = load ("fuzz-corpus", "tcp4-http-get");
  g_autoptr(GBytes) v6 = load ("fuzz-corpus", "udp6-hbh-dns-query");
  g_autoptr(GBytes) frag = load ("fuzz-corpus", "ip4-fragment");
  EnginePacket p;
  gsize len;
  const guint8 *d;
  char host[256];
  EngineDnsQuery q;

  d = g_bytes_get_data (syn, &len);
  g_assert_cmpint (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  g_assert_cmpuint (p.mss, ==, 1460);
  g_assert_true (p.wscale);
  g_assert_cmpuint (p.wscale_shift, ==, 7);
  g_assert_cmpuint (p.flags, ==, ENGINE_TCP_SYN);

  d = g_bytes_get_data (get, &len);
  g_assert_cmpint (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  g_assert_cmpint (engine_http_host (p.payload, p.payload_len, host, sizeof host), ==,
                   ENGINE_HOST_FOUND);
  g_assert_cmpstr (host, ==, "www.adbscope.test");

  /* IPv6 with a hop-by-hop header in front of UDP. */
  d = g_bytes_get_data (v6, &len);
  g_assert_cmpint (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  g_assert_cmpuint (p.protocol, ==, 17);
  g_assert_cmpuint (p.dport, ==, 53);
  g_assert_true (engine_dns_parse_question (p.payload, p.payload_len, &q));
  g_assert_cmpstr (q.name, ==, "host.adbscope.test");
  g_assert_cmpuint (q.qtype, ==, 28);

  d = g_bytes_get_data (frag, &len);
  g_assert_cmpint (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_FRAGMENT);
}

static void
collect (void          *data,
         uint16_t       type,
         const uint8_t *rdata,
         const char    *text)
{
  g_ptr_array_add (data, g_strdup_printf ("%u %s", type, text));
}

static void
test_dns (void)
{
  g_autoptr(GBytes) resp = load ("fuzz-corpus", "dns-response-cname");
  g_autoptr(GBytes) edns = load ("fuzz-corpus", "dns-query-edns");
  g_autoptr(GBytes) loop = load ("fuzz-corpus", "dns-pointer-loop");
  g_autoptr(GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  EngineDnsQuery q;
  gsize len, n;
  const guint8 *d;
  guint8 out[512];

  d = g_bytes_get_data (resp, &len);
  g_assert_true (engine_dns_parse_question (d, len, &q));
  g_assert_cmpstr (q.name, ==, "www.example.test");
  g_assert_cmpuint (q.flags & 0x8000, ==, 0x8000);
  g_assert_cmpint (engine_dns_parse_answers (d, len, collect, answers), ==, 2);
  g_assert_cmpstr (answers->pdata[0], ==, "5 cdn.example.test");
  g_assert_cmpstr (answers->pdata[1], ==, "1 10.99.0.1");
  /* Cut anywhere inside the answers: an error, never a wrong answer. */
  for (n = 34; n < len; n++)
    {
      g_ptr_array_set_size (answers, 0);
      g_assert_cmpint (engine_dns_parse_answers (d, n, collect, answers), ==, -1);
    }

  /* SERVFAIL from a query with an EDNS record: question kept, rest gone. */
  d = g_bytes_get_data (edns, &len);
  n = engine_dns_build_servfail (d, len, out, sizeof out);
  g_assert_cmpuint (n, ==, len - 11);
  g_assert_cmpmem (out, 2, d, 2);
  g_assert_cmphex (out[2], ==, 0x81);                  /* QR, RD */
  g_assert_cmphex (out[3], ==, 0x82);                  /* RA, SERVFAIL */
  g_assert_cmpuint (out[5], ==, 1);
  g_assert_cmpuint (out[11], ==, 0);                   /* no additional record */
  g_assert_cmpmem (out + 12, n - 12, d + 12, n - 12);
  g_assert_cmpuint (engine_dns_build_servfail (d, 11, out, sizeof out), ==, 0);

  /* A name that points at itself. */
  d = g_bytes_get_data (loop, &len);
  g_assert_false (engine_dns_parse_question (d, len, &q));
  g_assert_cmpint (engine_dns_parse_answers (d, len, NULL, NULL), ==, -1);
}

static void
test_sni (void)
{
  g_autoptr(GBytes) hello = load ("data", "clienthello-openssl3-sni.bin");
  gsize len, cut;
  const guint8 *d = g_bytes_get_data (hello, &len);
  char host[256];
  g_autoptr(GByteArray) split = g_byte_array_new ();
  guint8 hdr[5];

  g_assert_cmpint (engine_tls_sni (d, len, host, sizeof host), ==, ENGINE_HOST_FOUND);
  g_assert_cmpstr (host, ==, "sni.adbscope.test");
  /* Every prefix asks for more; none guesses. */
  for (cut = 0; cut < len; cut++)
    g_assert_cmpint (engine_tls_sni (d, cut, host, sizeof host), ==, ENGINE_HOST_NEED_MORE);
  /* The same handshake spread over two records. */
  memcpy (hdr, d, 5);
  hdr[3] = 0;
  hdr[4] = 100;
  g_byte_array_append (split, hdr, 5);
  g_byte_array_append (split, d + 5, 100);
  hdr[3] = (guint8) ((len - 105) >> 8);
  hdr[4] = (guint8) ((len - 105) & 0xff);
  g_byte_array_append (split, hdr, 5);
  g_byte_array_append (split, d + 105, (guint) (len - 105));
  g_assert_cmpint (engine_tls_sni (split->data, split->len, host, sizeof host), ==,
                   ENGINE_HOST_FOUND);
  g_assert_cmpstr (host, ==, "sni.adbscope.test");
  /* Not TLS, or a small buffer for the name. */
  g_assert_cmpint (engine_tls_sni ((const guint8 *) "GET / ", 6, host, sizeof host), ==,
                   ENGINE_HOST_NONE);
  g_assert_cmpint (engine_tls_sni (d, len, host, 8), ==, ENGINE_HOST_NONE);
}

static void
test_http (void)
{
  char host[256];
  const char *r;

  r = "GET / HTTP/1.1\r\nhOsT:  example.test:8080 \r\n\r\n";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_FOUND);
  g_assert_cmpstr (host, ==, "example.test");
  r = "POST /x HTTP/1.0\r\nHost: [fd00::1]:80\r\n";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_FOUND);
  g_assert_cmpstr (host, ==, "[fd00::1]");
  r = "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_NONE);
  r = "GET / HTTP/1.1\r\nHost: exam";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_NEED_MORE);
  r = "GE";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_NEED_MORE);
  r = "\x16\x03\x01";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_NONE);
  r = "GET / HTTP/1.1\r\nHost: bad host\r\n\r\n";
  g_assert_cmpint (engine_http_host ((const guint8 *) r, strlen (r), host, sizeof host), ==,
                   ENGINE_HOST_NONE);
}

/* Every seed and regression input goes through the fuzz body (which
 * aborts on a broken invariant). */
static void
test_fuzz_corpus (void)
{
  const char *sub[] = { "", "regressions" };
  guint i, files = 0;

  for (i = 0; i < G_N_ELEMENTS (sub); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("AGENT_TESTDATA"), "..",
                                                "fuzz-corpus", sub[i], NULL);
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *file = g_build_filename (path, name, NULL);
          g_autofree char *data = NULL;
          gsize len;

          if (g_file_test (file, G_FILE_TEST_IS_DIR) || name[0] == '.')
            continue;
          g_assert_true (g_file_get_contents (file, &data, &len, NULL));
          agent_fuzz_one ((const guint8 *) data, len);
          files++;
        }
    }
  g_assert_cmpuint (files, >=, 9);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/agent/parse/checksum", test_checksum_rfc1071);
  g_test_add_func ("/agent/parse/checksum-blocks", test_checksum_blocks);
  g_test_add_func ("/agent/parse/packet-build-header", test_packet_build_header);
  g_test_add_func ("/agent/parse/packet-roundtrip", test_packet_roundtrip);
  g_test_add_func ("/agent/parse/packet-seeds", test_packet_seeds);
  g_test_add_func ("/agent/parse/dns", test_dns);
  g_test_add_func ("/agent/parse/tls-sni", test_sni);
  g_test_add_func ("/agent/parse/http-host", test_http);
  g_test_add_func ("/agent/parse/fuzz-corpus", test_fuzz_corpus);
  return g_test_run ();
}
