/* engine-dns.c: the little DNS the engine needs: the question of a query,
 * the answers of a response (for host attribution and the lookup list) and a
 * SERVFAIL built from the app's own query. */
#include "engine-parse.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static inline uint16_t
rd16 (const uint8_t *p)
{
  return (uint16_t) ((p[0] << 8) | p[1]);
}

/* Reads a possibly compressed name at @off; *end is the offset after the
 * name where it starts (not where a pointer led). */
static bool
read_name (const uint8_t *msg,
           size_t         len,
           size_t         off,
           char          *out,
           size_t         out_len,
           size_t        *end)
{
  size_t pos = off;
  size_t o = 0;
  int jumps = 0;
  bool jumped = false;

  for (;;)
    {
      uint8_t l;
      size_t i;

      if (pos >= len)
        return false;
      l = msg[pos];
      if ((l & 0xc0) == 0xc0)
        {
          if (pos + 1 >= len)
            return false;
          if (!jumped)
            *end = pos + 2;
          jumped = true;
          pos = ((size_t) (l & 0x3f) << 8) | msg[pos + 1];
          /* Pointers may loop: a bound on jumps stops that. */
          if (++jumps > 32)
            return false;
          continue;
        }
      if (l & 0xc0)
        return false;
      if (l == 0)
        {
          if (!jumped)
            *end = pos + 1;
          break;
        }
      if (pos + 1 + l > len || o + l + 2 > out_len)
        return false;
      if (o > 0)
        out[o++] = '.';
      for (i = 0; i < l; i++)
        {
          uint8_t c = msg[pos + 1 + i];

          out[o++] = (c > 0x20 && c < 0x7f) ? (char) c : '?';
        }
      pos += 1 + (size_t) l;
    }
  if (out_len == 0)
    return false;
  out[o] = '\0';
  return true;
}

bool
engine_dns_parse_question (const uint8_t  *msg,
                           size_t          len,
                           EngineDnsQuery *q)
{
  size_t end = 0;

  memset (q, 0, sizeof *q);
  if (msg == NULL || len < 12 || rd16 (msg + 4) < 1)
    return false;
  q->id = rd16 (msg);
  q->flags = rd16 (msg + 2);
  if (!read_name (msg, len, 12, q->name, sizeof q->name, &end))
    return false;
  if (end + 4 > len)
    return false;
  q->qtype = rd16 (msg + end);
  q->question_end = end + 4;
  return true;
}

int
engine_dns_parse_answers (const uint8_t       *msg,
                          size_t               len,
                          EngineDnsAnswerFunc  func,
                          void                *user_data)
{
  char name[ENGINE_DNS_NAME_MAX];
  size_t pos = 12;
  unsigned qd, an, i;
  int n = 0;

  if (msg == NULL || len < 12)
    return -1;
  qd = rd16 (msg + 4);
  an = rd16 (msg + 6);
  for (i = 0; i < qd; i++)
    {
      size_t end = 0;

      if (!read_name (msg, len, pos, name, sizeof name, &end) || end + 4 > len)
        return -1;
      pos = end + 4;
    }
  for (i = 0; i < an; i++)
    {
      size_t end = 0;
      uint16_t type, rdlen;
      const uint8_t *rdata;
      char text[ENGINE_DNS_NAME_MAX];

      if (!read_name (msg, len, pos, name, sizeof name, &end) || end + 10 > len)
        return -1;
      type = rd16 (msg + end);
      rdlen = rd16 (msg + end + 8);
      rdata = msg + end + 10;
      if (end + 10 + rdlen > len)
        return -1;
      pos = end + 10 + rdlen;

      if (type == 1 && rdlen == 4)
        inet_ntop (AF_INET, rdata, text, sizeof text);
      else if (type == 28 && rdlen == 16)
        inet_ntop (AF_INET6, rdata, text, sizeof text);
      else if (type == 5)
        {
          size_t cend = 0;

          if (!read_name (msg, (size_t) (rdata - msg) + rdlen, (size_t) (rdata - msg),
                          text, sizeof text, &cend))
            return -1;
        }
      else
        continue;
      if (func)
        func (user_data, type, rdata, text);
      n++;
    }
  return n;
}

size_t
engine_dns_build_servfail (const uint8_t *query,
                           size_t         len,
                           uint8_t       *out,
                           size_t         cap)
{
  EngineDnsQuery q;
  uint16_t flags;

  if (!engine_dns_parse_question (query, len, &q) || q.question_end > cap)
    return 0;
  memcpy (out, query, q.question_end);
  /* QR, the query's opcode and RD, RA, RCODE 2. */
  flags = (uint16_t) (0x8000 | (q.flags & 0x7900) | 0x0080 | 2);
  out[2] = flags >> 8;
  out[3] = flags & 0xff;
  out[4] = 0;
  out[5] = 1;
  memset (out + 6, 0, 6);
  return q.question_end;
}
