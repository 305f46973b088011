/* fuzz-parsers-body.c: one input through every parser that reads device or
 * network bytes: the IP/TCP/UDP parser, DNS, TLS SNI and HTTP Host.  Shared
 * by the libFuzzer target and the unit test that replays the corpus (so a
 * committed crash input stays a regression test in every build). */
#include "fuzz-parsers-body.h"

#include "engine-parse.h"

#include <stdlib.h>
#include <string.h>

static void
count_answer (void          *user_data,
              uint16_t       type,
              const uint8_t *rdata,
              const char    *text)
{
  size_t *n = user_data;

  /* Touch what the parser hands out, so a bad pointer shows up. */
  *n += strlen (text) + (type == 1 ? rdata[3] : 0) + (type == 28 ? rdata[15] : 0);
}

static void
parse_stream (const uint8_t *data,
              size_t         len)
{
  char host[256];
  EngineDnsQuery q;
  size_t n = 0;
  uint8_t out[1024];

  engine_tls_sni (data, len, host, sizeof host);
  engine_http_host (data, len, host, sizeof host);
  if (engine_dns_parse_question (data, len, &q) && strlen (q.name) >= sizeof q.name)
    abort ();
  engine_dns_parse_answers (data, len, count_answer, &n);
  if (engine_dns_build_servfail (data, len, out, sizeof out) > sizeof out)
    abort ();
}

int
agent_fuzz_one (const uint8_t *data,
                size_t         len)
{
  EnginePacket pkt;
  uint8_t *copy = malloc (len ? len : 1);

  /* An exact-size copy, so reading past the end is an ASan report. */
  if (copy == NULL)
    return 0;
  memcpy (copy, data, len);
  parse_stream (copy, len);

  if (engine_packet_parse (copy, len, &pkt) == ENGINE_PKT_OK)
    {
      static uint8_t rebuilt[70000];
      EnginePacket again;
      size_t n;

      parse_stream (pkt.payload, pkt.payload_len);
      /* What parses must rebuild into a packet that parses the same. */
      pkt.mss = pkt.protocol == 6 ? pkt.mss : 0;
      n = engine_packet_build (rebuilt, sizeof rebuilt, &pkt);
      if (n > 0)
        {
          if (engine_packet_parse (rebuilt, n, &again) != ENGINE_PKT_OK
              || again.payload_len != pkt.payload_len || again.sport != pkt.sport
              || again.dport != pkt.dport || again.seq != pkt.seq
              || again.mss != pkt.mss || again.wscale != pkt.wscale
              || again.wscale_shift != pkt.wscale_shift
              || (pkt.payload_len && memcmp (again.payload, pkt.payload, pkt.payload_len) != 0))
            abort ();
        }
    }
  free (copy);
  return 0;
}
