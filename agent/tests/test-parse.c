/* test-parse.c: the engine's parsers on known bytes (a real OpenSSL 3
 * ClientHello, hand-made DNS and packets from the fuzz seed corpus), their
 * failure modes, and a replay of the fuzz corpus including regressions.
 * No GLib: it also runs cross-built for ARM and s390x under qemu
 * (agent/cross/). */
#include <string.h>
#include <sys/stat.h>

#include "agent-check.h"
#include "engine-parse.h"
#include "fuzz-parsers-body.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static void
test_checksum_rfc1071 (void)
{
  /* RFC 1071 §3 example: the sum is 0xddf2, so the checksum is 0x220d. */
  static const uint8_t data[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
  uint16_t sum = engine_checksum (data, sizeof data, 0);
  uint8_t wire[2];

  memcpy (wire, &sum, 2);
  CHECK_CMPHEX (wire[0], ==, 0x22);
  CHECK_CMPHEX (wire[1], ==, 0x0d);
  /* Odd length: the last byte is the high half of a zero-padded word. */
  sum = engine_checksum (data, 7, 0);
  memcpy (wire, &sum, 2);
  CHECK_CMPHEX ((wire[0] << 8) | wire[1], ==, (uint16_t) ~(0xddf2 - 0x00f7));
}

/* The plain RFC 1071 loop: big-endian 16-bit words, end-around carry. */
static uint16_t
reference_checksum (const uint8_t *p,
                    size_t         len)
{
  uint32_t sum = 0;
  size_t i;

  for (i = 0; i + 1 < len; i += 2)
    sum += (uint32_t) (p[i] << 8 | p[i + 1]);
  if (len & 1)
    sum += (uint32_t) p[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t) ~sum;
}

/* The word-at-a-time checksum against the plain loop for every length and
 * alignment up to a few hundred bytes and some long ones; sums of blocks
 * split at odd and even offsets add up to the sum of the whole. */
static void
test_checksum_blocks (void)
{
  uint32_t rand = 1071;
  static const size_t long_lens[] = { 1500, 9999, 21845, 65495 };
  uint8_t *data = check_malloc (65536 + 8);
  size_t i, len, off;

  for (i = 0; i < 65536 + 8; i++)
    data[i] = (uint8_t) check_rand (&rand);
  /* Runs of 0xff make the carries matter. */
  memset (data + 3000, 0xff, 5000);
  for (off = 0; off < 8; off++)
    {
      for (len = 0; len < 300; len++)
        {
          uint16_t sum = engine_checksum (data + off, len, 0);
          uint8_t wire[2];

          memcpy (wire, &sum, 2);
          CHECK_CMPHEX ((unsigned) (wire[0] << 8 | wire[1]), ==,
                           reference_checksum (data + off, len));
        }
      for (i = 0; i < CHECK_N_ELEMENTS (long_lens); i++)
        {
          uint16_t sum = engine_checksum (data + off + 2990, MIN (long_lens[i], 65536 - 2990), 0);
          uint8_t wire[2];

          memcpy (wire, &sum, 2);
          CHECK_CMPHEX ((unsigned) (wire[0] << 8 | wire[1]), ==,
                           reference_checksum (data + off + 2990,
                                               MIN (long_lens[i], 65536 - 2990)));
        }
    }

  for (i = 0; i < 2000; i++)
    {
      size_t total = (size_t) check_rand_range (&rand, 0, 20000);
      size_t cut1 = total ? (size_t) check_rand_range (&rand, 0, (uint32_t) total + 1) : 0;
      size_t cut2 = cut1 + (total > cut1 ? (size_t) check_rand_range (&rand, 0, (uint32_t) (total - cut1) + 1) : 0);
      uint32_t whole = engine_checksum_partial (data, total, 0);
      uint32_t parts = 0;

      parts = engine_checksum_block_add (parts, engine_checksum_partial (data, cut1, 0), 0);
      parts = engine_checksum_block_add (parts, engine_checksum_partial (data + cut1, cut2 - cut1, 0), cut1);
      parts = engine_checksum_block_add (parts, engine_checksum_partial (data + cut2, total - cut2, 0), cut2);
      CHECK_CMPHEX (engine_checksum (NULL, 0, parts), ==, engine_checksum (NULL, 0, whole));
    }
  free (data);
}

/* Headers built for a payload that stays elsewhere (the engine's writev
 * path, the payload split across the ring's end) are byte for byte the
 * headers of the packet built in one piece. */
static void
test_packet_build_header (void)
{
  uint32_t rand = 793;
  uint8_t payload[3000], whole[3100], hdr[64];
  unsigned i;

  for (i = 0; i < sizeof payload; i++)
    payload[i] = (uint8_t) check_rand (&rand);
  for (i = 0; i < 400; i++)
    {
      EnginePacket p, q;
      size_t plen = (size_t) check_rand_range (&rand, 0, sizeof payload);
      size_t cut = (size_t) check_rand_range (&rand, 0, (uint32_t) plen + 1);
      uint32_t sum;
      size_t len, hlen;
      uint8_t rebuilt[3100];

      memset (&p, 0, sizeof p);
      p.ip_version = i % 2 ? 6 : 4;
      p.protocol = i % 4 < 2 ? 6 : 17;
      p.src[0] = 10;
      p.src[3] = (uint8_t) i;
      p.src[15] = 3;
      p.dst[0] = 10;
      p.dst[3] = 200;
      p.sport = (uint16_t) check_rand (&rand);
      p.dport = 443;
      p.seq = check_rand (&rand);
      p.ack = check_rand (&rand);
      p.flags = ENGINE_TCP_ACK | ENGINE_TCP_PSH;
      p.window = (uint16_t) check_rand (&rand);
      p.mss = i % 8 == 0 && p.protocol == 6 ? 1460 : 0;
      p.wscale = i % 3 == 0 && p.protocol == 6;
      p.wscale_shift = (uint8_t) (i % 15);
      p.payload = payload;
      p.payload_len = plen;
      len = engine_packet_build (whole, sizeof whole, &p);
      CHECK_CMPUINT (len, >, 0);

      sum = engine_checksum_block_add (engine_checksum_partial (payload, cut, 0),
                                       engine_checksum_partial (payload + cut, plen - cut, 0),
                                       cut);
      p.payload = NULL;
      hlen = engine_packet_build_header (hdr, sizeof hdr, &p, sum);
      CHECK_CMPUINT (hlen + plen, ==, len);
      CHECK_CMPMEM (hdr, hlen, whole, hlen);
      memcpy (rebuilt, hdr, hlen);
      memcpy (rebuilt + hlen, payload, plen);
      CHECK_CMPINT (engine_packet_parse (rebuilt, len, &q), ==, ENGINE_PKT_OK);
      CHECK_CMPMEM (q.payload, q.payload_len, payload, plen);
    }
}

static void
test_packet_roundtrip (void)
{
  EnginePacket p, q;
  uint8_t buf[2000];
  const char payload[] = "hello, engine";
  size_t len;
  unsigned v;

  for (v = 4; v <= 6; v += 2)
    {
      memset (&p, 0, sizeof p);
      p.ip_version = (uint8_t) v;
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
      p.wscale = true;
      p.wscale_shift = 7;
      p.payload = (const uint8_t *) payload;
      p.payload_len = sizeof payload;
      len = engine_packet_build (buf, sizeof buf, &p);
      /* MSS (4 bytes), NOP + window scale (4 bytes). */
      CHECK_CMPUINT (len, ==, (v == 4 ? 20 : 40) + 28 + sizeof payload);
      CHECK_CMPUINT (engine_packet_header_len (&p), ==, (v == 4 ? 20 : 40) + 28);
      CHECK_CMPINT (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      CHECK_CMPUINT (q.ip_version, ==, v);
      CHECK_CMPUINT (q.sport, ==, 1234);
      CHECK_CMPUINT (q.dport, ==, 443);
      CHECK_CMPUINT (q.seq, ==, 0xfffffff0u);
      CHECK_CMPUINT (q.ack, ==, 77);
      CHECK_CMPUINT (q.flags, ==, ENGINE_TCP_SYN | ENGINE_TCP_ACK);
      CHECK_CMPUINT (q.mss, ==, 1460);
      CHECK (q.wscale);
      CHECK_CMPUINT (q.wscale_shift, ==, 7);
      CHECK_CMPMEM (q.payload, q.payload_len, payload, sizeof payload);
      CHECK_CMPMEM (q.src, v == 4 ? 4 : 16, p.src, v == 4 ? 4 : 16);

      /* Any flipped bit is a checksum failure, never OK. */
      buf[len - 1] ^= 0x01;
      CHECK_CMPINT (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_MALFORMED);
      buf[len - 1] ^= 0x01;
      /* Every truncation is malformed. */
      for (size_t cut = 0; cut < len; cut++)
        CHECK_CMPINT (engine_packet_parse (buf, cut, &q), ==, ENGINE_PKT_MALFORMED);

      /* Without the window scale option. */
      p.wscale = false;
      len = engine_packet_build (buf, sizeof buf, &p);
      CHECK_CMPUINT (len, ==, (v == 4 ? 20 : 40) + 24 + sizeof payload);
      CHECK_CMPINT (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      CHECK (!(q.wscale));
      CHECK_CMPUINT (q.mss, ==, 1460);

      p.protocol = 17;
      p.mss = 0;
      len = engine_packet_build (buf, sizeof buf, &p);
      CHECK_CMPINT (engine_packet_parse (buf, len, &q), ==, ENGINE_PKT_OK);
      CHECK_CMPUINT (q.protocol, ==, 17);
      CHECK_CMPMEM (q.payload, q.payload_len, payload, sizeof payload);
    }
  /* Too small a buffer: nothing built. */
  CHECK_CMPUINT (engine_packet_build (buf, 40, &p), ==, 0);
}

static void
test_packet_seeds (void)
{
  size_t syn_len, get_len, v6_len, frag_len;
  uint8_t *syn = check_load ("fuzz-corpus", "tcp4-syn-mss", &syn_len);
  uint8_t *get = check_load ("fuzz-corpus", "tcp4-http-get", &get_len);
  uint8_t *v6 = check_load ("fuzz-corpus", "udp6-hbh-dns-query", &v6_len);
  uint8_t *frag = check_load ("fuzz-corpus", "ip4-fragment", &frag_len);
  EnginePacket p;
  size_t len;
  const uint8_t *d;
  char host[256];
  EngineDnsQuery q;

  d = syn;
  len = syn_len;
  CHECK_CMPINT (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  CHECK_CMPUINT (p.mss, ==, 1460);
  CHECK (p.wscale);
  CHECK_CMPUINT (p.wscale_shift, ==, 7);
  CHECK_CMPUINT (p.flags, ==, ENGINE_TCP_SYN);

  d = get;
  len = get_len;
  CHECK_CMPINT (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  CHECK_CMPINT (engine_http_host (p.payload, p.payload_len, host, sizeof host), ==,
                ENGINE_HOST_FOUND);
  CHECK_CMPSTR (host, ==, "www.adbscope.test");

  /* IPv6 with a hop-by-hop header in front of UDP. */
  d = v6;
  len = v6_len;
  CHECK_CMPINT (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_OK);
  CHECK_CMPUINT (p.protocol, ==, 17);
  CHECK_CMPUINT (p.dport, ==, 53);
  CHECK (engine_dns_parse_question (p.payload, p.payload_len, &q));
  CHECK_CMPSTR (q.name, ==, "host.adbscope.test");
  CHECK_CMPUINT (q.qtype, ==, 28);

  d = frag;
  len = frag_len;
  CHECK_CMPINT (engine_packet_parse (d, len, &p), ==, ENGINE_PKT_FRAGMENT);
  free (syn);
  free (get);
  free (v6);
  free (frag);
}

typedef struct {
  char   text[8][300];
  size_t n;
} Answers;

static void
collect (void          *data,
         uint16_t       type,
         const uint8_t *rdata,
         const char    *text)
{
  Answers *a = data;

  CHECK_CMPUINT (a->n, <, CHECK_N_ELEMENTS (a->text));
  snprintf (a->text[a->n++], sizeof a->text[0], "%u %s", type, text);
}

static void
test_dns (void)
{
  size_t resp_len, edns_len, loop_len;
  uint8_t *resp = check_load ("fuzz-corpus", "dns-response-cname", &resp_len);
  uint8_t *edns = check_load ("fuzz-corpus", "dns-query-edns", &edns_len);
  uint8_t *loop = check_load ("fuzz-corpus", "dns-pointer-loop", &loop_len);
  Answers answers_buf = { .n = 0 }, *answers = &answers_buf;
  EngineDnsQuery q;
  size_t len, n;
  const uint8_t *d;
  uint8_t out[512];

  d = resp;
  len = resp_len;
  CHECK (engine_dns_parse_question (d, len, &q));
  CHECK_CMPSTR (q.name, ==, "www.example.test");
  CHECK_CMPUINT (q.flags & 0x8000, ==, 0x8000);
  CHECK_CMPINT (engine_dns_parse_answers (d, len, collect, answers), ==, 2);
  CHECK_CMPSTR (answers->text[0], ==, "5 cdn.example.test");
  CHECK_CMPSTR (answers->text[1], ==, "1 10.99.0.1");
  /* Cut anywhere inside the answers: an error, never a wrong answer. */
  for (n = 34; n < len; n++)
    {
      answers->n = 0;
      CHECK_CMPINT (engine_dns_parse_answers (d, n, collect, answers), ==, -1);
    }

  /* SERVFAIL from a query with an EDNS record: question kept, rest gone. */
  d = edns;
  len = edns_len;
  n = engine_dns_build_servfail (d, len, out, sizeof out);
  CHECK_CMPUINT (n, ==, len - 11);
  CHECK_CMPMEM (out, 2, d, 2);
  CHECK_CMPHEX (out[2], ==, 0x81);                  /* QR, RD */
  CHECK_CMPHEX (out[3], ==, 0x82);                  /* RA, SERVFAIL */
  CHECK_CMPUINT (out[5], ==, 1);
  CHECK_CMPUINT (out[11], ==, 0);                   /* no additional record */
  CHECK_CMPMEM (out + 12, n - 12, d + 12, n - 12);
  CHECK_CMPUINT (engine_dns_build_servfail (d, 11, out, sizeof out), ==, 0);

  /* A name that points at itself. */
  d = loop;
  len = loop_len;
  CHECK (!(engine_dns_parse_question (d, len, &q)));
  CHECK_CMPINT (engine_dns_parse_answers (d, len, NULL, NULL), ==, -1);
  free (resp);
  free (edns);
  free (loop);
}

static void
test_sni (void)
{
  size_t len, cut;
  uint8_t *hello = check_load ("data", "clienthello-openssl3-sni.bin", &len);
  const uint8_t *d = hello;
  char host[256];
  uint8_t *split = check_malloc (len + 5);

  CHECK_CMPINT (engine_tls_sni (d, len, host, sizeof host), ==, ENGINE_HOST_FOUND);
  CHECK_CMPSTR (host, ==, "sni.adbscope.test");
  /* Every prefix asks for more; none guesses. */
  for (cut = 0; cut < len; cut++)
    CHECK_CMPINT (engine_tls_sni (d, cut, host, sizeof host), ==, ENGINE_HOST_NEED_MORE);
  /* The same handshake spread over two records. */
  CHECK_CMPUINT (len, >, 105);
  memcpy (split, d, 5);
  split[3] = 0;
  split[4] = 100;
  memcpy (split + 5, d + 5, 100);
  memcpy (split + 105, d, 5);
  split[108] = (uint8_t) ((len - 105) >> 8);
  split[109] = (uint8_t) ((len - 105) & 0xff);
  memcpy (split + 110, d + 105, len - 105);
  CHECK_CMPINT (engine_tls_sni (split, len + 5, host, sizeof host), ==,
                ENGINE_HOST_FOUND);
  CHECK_CMPSTR (host, ==, "sni.adbscope.test");
  /* Not TLS, or a small buffer for the name. */
  CHECK_CMPINT (engine_tls_sni ((const uint8_t *) "GET / ", 6, host, sizeof host), ==,
                ENGINE_HOST_NONE);
  CHECK_CMPINT (engine_tls_sni (d, len, host, 8), ==, ENGINE_HOST_NONE);
  free (split);
  free (hello);
}

static void
test_http (void)
{
  char host[256];
  const char *r;

  r = "GET / HTTP/1.1\r\nhOsT:  example.test:8080 \r\n\r\n";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_FOUND);
  CHECK_CMPSTR (host, ==, "example.test");
  r = "POST /x HTTP/1.0\r\nHost: [fd00::1]:80\r\n";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_FOUND);
  CHECK_CMPSTR (host, ==, "[fd00::1]");
  r = "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_NONE);
  r = "GET / HTTP/1.1\r\nHost: exam";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_NEED_MORE);
  r = "GE";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_NEED_MORE);
  r = "\x16\x03\x01";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_NONE);
  r = "GET / HTTP/1.1\r\nHost: bad host\r\n\r\n";
  CHECK_CMPINT (engine_http_host ((const uint8_t *) r, strlen (r), host, sizeof host), ==,
                ENGINE_HOST_NONE);
}

/* Every seed and regression input goes through the fuzz body (which
 * aborts on a broken invariant). */
static void
test_fuzz_corpus (void)
{
  const char *sub[] = { "", "regressions" };
  const char *base = getenv ("AGENT_TESTDATA");
  unsigned i, files = 0;

  CHECK (base != NULL);
  for (i = 0; i < CHECK_N_ELEMENTS (sub); i++)
    {
      char path[4096];
      DIR *dir;
      struct dirent *ent;

      snprintf (path, sizeof path, "%s/../fuzz-corpus/%s", base, sub[i]);
      dir = opendir (path);
      CHECK (dir != NULL);
      while ((ent = readdir (dir)) != NULL)
        {
          char file[4096 + 256];
          struct stat st;
          uint8_t *data;
          size_t len;

          if (ent->d_name[0] == '.')
            continue;
          snprintf (file, sizeof file, "%s/%s", path, ent->d_name);
          CHECK (stat (file, &st) == 0);
          if (S_ISDIR (st.st_mode))
            continue;
          data = check_read_file (file, &len);
          CHECK (data != NULL);
          agent_fuzz_one (data, len);
          free (data);
          files++;
        }
      closedir (dir);
    }
  CHECK_CMPUINT (files, >=, 9);
}

int
main (int    argc,
      char **argv)
{
  static const CheckTest tests[] = {
    { "/agent/parse/checksum", test_checksum_rfc1071 },
    { "/agent/parse/checksum-blocks", test_checksum_blocks },
    { "/agent/parse/packet-build-header", test_packet_build_header },
    { "/agent/parse/packet-roundtrip", test_packet_roundtrip },
    { "/agent/parse/packet-seeds", test_packet_seeds },
    { "/agent/parse/dns", test_dns },
    { "/agent/parse/tls-sni", test_sni },
    { "/agent/parse/http-host", test_http },
    { "/agent/parse/fuzz-corpus", test_fuzz_corpus },
  };

  return check_run (argc, argv, tests, CHECK_N_ELEMENTS (tests));
}
