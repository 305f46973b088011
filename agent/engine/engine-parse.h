/* engine-parse.h: pure functions over untrusted bytes (IP/TCP/UDP headers,
 * DNS, TLS ClientHello, HTTP request head) and the packet builder.  No
 * state, no allocation: the libFuzzer target and the unit tests call these
 * directly.  Internal to the engine. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENGINE_TCP_FIN 0x01
#define ENGINE_TCP_SYN 0x02
#define ENGINE_TCP_RST 0x04
#define ENGINE_TCP_PSH 0x08
#define ENGINE_TCP_ACK 0x10

typedef enum {
  ENGINE_PKT_OK,
  ENGINE_PKT_MALFORMED,
  ENGINE_PKT_FRAGMENT,
  ENGINE_PKT_ICMP,
  ENGINE_PKT_UNSUPPORTED,
} EnginePktResult;

typedef struct {
  uint8_t        ip_version;
  uint8_t        protocol;
  uint8_t        src[16];
  uint8_t        dst[16];
  uint16_t       sport;
  uint16_t       dport;
  size_t         ip_len;          /* total length from the IP header */
  const uint8_t *payload;
  size_t         payload_len;
  /* TCP only */
  uint32_t       seq;
  uint32_t       ack;
  uint16_t       window;
  uint8_t        flags;
  uint16_t       mss;             /* 0 when the option is absent */
  bool           wscale;          /* the window scale option (RFC 7323) is present */
  uint8_t        wscale_shift;    /* its shift count, as sent (RFC 7323 caps it at 14) */
} EnginePacket;

EnginePktResult engine_packet_parse   (const uint8_t *buf,
                                       size_t         len,
                                       EnginePacket  *pkt);

/* Builds an IPv4/IPv6 TCP or UDP packet with valid checksums into @out.
 * @pkt gives addresses, ports, TCP fields and the payload (mss != 0 adds the
 * MSS option, wscale the window scale option with wscale_shift).  Returns
 * the length, or 0 if it does not fit in @cap. */
size_t          engine_packet_build   (uint8_t            *out,
                                       size_t              cap,
                                       const EnginePacket *pkt);

/* The same, with the payload elsewhere (not copied, not read): writes the
 * IP and TCP/UDP headers for pkt->payload_len bytes of payload whose
 * engine_checksum_partial() is @payload_sum, and returns their length (0 if
 * they do not fit or the packet would be too long).  pkt->payload is not
 * used.  The engine sends the payload straight from its ring with writev(). */
size_t          engine_packet_build_header (uint8_t            *out,
                                            size_t              cap,
                                            const EnginePacket *pkt,
                                            uint32_t            payload_sum);

/* The length of the IP and TCP/UDP headers engine_packet_build() writes
 * for @pkt (options included). */
size_t          engine_packet_header_len (const EnginePacket *pkt);

uint16_t        engine_checksum       (const void *data,
                                       size_t      len,
                                       uint32_t    initial);

/* The unfolded one's complement sum of @len bytes, added to @initial. */
uint32_t        engine_checksum_partial (const void *data,
                                         size_t      len,
                                         uint32_t    initial);

/* Adds the partial sum @part of a block that starts @offset bytes into the
 * summed data (an odd offset swaps its bytes). */
uint32_t        engine_checksum_block_add (uint32_t sum,
                                           uint32_t part,
                                           size_t   offset);

/* DNS ---------------------------------------------------------------- */

#define ENGINE_DNS_NAME_MAX 256

typedef struct {
  uint16_t id;
  uint16_t flags;
  uint16_t qtype;
  char     name[ENGINE_DNS_NAME_MAX];   /* dotted, no trailing dot */
  size_t   question_end;                /* offset just after the first question */
} EngineDnsQuery;

/* Parses the header and the first question of a DNS message (query or
 * response).  Returns false when malformed. */
bool    engine_dns_parse_question  (const uint8_t  *msg,
                                    size_t          len,
                                    EngineDnsQuery *q);

typedef void (*EngineDnsAnswerFunc) (void          *user_data,
                                     uint16_t       type,      /* 1 A, 28 AAAA, 5 CNAME */
                                     const uint8_t *rdata,     /* address bytes for A/AAAA */
                                     const char    *text);     /* printable form */

/* Walks the answer section of a response; returns the number of answers
 * reported, or -1 when malformed (answers before the fault were reported). */
int     engine_dns_parse_answers   (const uint8_t       *msg,
                                    size_t               len,
                                    EngineDnsAnswerFunc  func,
                                    void                *user_data);

/* A SERVFAIL response to @query: its header and first question, QR/RA set,
 * RCODE 2, no records.  Returns the length, or 0 if @query is malformed. */
size_t  engine_dns_build_servfail  (const uint8_t *query,
                                    size_t         len,
                                    uint8_t       *out,
                                    size_t         cap);

/* Host names ---------------------------------------------------------- */

typedef enum {
  ENGINE_HOST_FOUND,
  ENGINE_HOST_NEED_MORE,
  ENGINE_HOST_NONE,
} EngineHostResult;

/* SNI from the start of a TLS stream (a ClientHello, possibly spread over
 * several records). */
EngineHostResult engine_tls_sni     (const uint8_t *data,
                                     size_t         len,
                                     char          *host,
                                     size_t         host_len);

/* The Host header from the start of an HTTP/1.x request. */
EngineHostResult engine_http_host   (const uint8_t *data,
                                     size_t         len,
                                     char          *host,
                                     size_t         host_len);
