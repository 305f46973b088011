/* engine-host.c: host names from the first bytes of a TCP stream: the SNI
 * of a TLS ClientHello, or the Host header of an HTTP/1.x request. */
#include "engine-parse.h"

#include <string.h>
#include <strings.h>

#define HANDSHAKE_MAX 16384

static inline size_t
rd16 (const uint8_t *p)
{
  return ((size_t) p[0] << 8) | p[1];
}

static bool
valid_host (const uint8_t *s,
            size_t         len)
{
  size_t i;

  if (len == 0 || len > 253)
    return false;
  for (i = 0; i < len; i++)
    {
      uint8_t c = s[i];

      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '.' || c == '-' || c == '_' || c == ':' || c == '[' || c == ']'))
        return false;
    }
  return true;
}

static EngineHostResult
copy_host (const uint8_t *s,
           size_t         len,
           char          *host,
           size_t         host_len)
{
  if (!valid_host (s, len) || len + 1 > host_len)
    return ENGINE_HOST_NONE;
  memcpy (host, s, len);
  host[len] = '\0';
  return ENGINE_HOST_FOUND;
}

/* SNI from a complete ClientHello body (after the 4-byte handshake header). */
static EngineHostResult
client_hello_sni (const uint8_t *p,
                  size_t         len,
                  char          *host,
                  size_t         host_len)
{
  size_t pos = 34;                /* version, random */
  size_t ext_end;

  if (pos + 1 > len)
    return ENGINE_HOST_NONE;
  pos += 1 + p[pos];              /* session id */
  if (pos + 2 > len)
    return ENGINE_HOST_NONE;
  pos += 2 + rd16 (p + pos);      /* cipher suites */
  if (pos + 1 > len)
    return ENGINE_HOST_NONE;
  pos += 1 + p[pos];              /* compression methods */
  if (pos + 2 > len)
    return ENGINE_HOST_NONE;
  ext_end = pos + 2 + rd16 (p + pos);
  pos += 2;
  if (ext_end > len)
    return ENGINE_HOST_NONE;

  while (pos + 4 <= ext_end)
    {
      size_t type = rd16 (p + pos);
      size_t elen = rd16 (p + pos + 2);
      size_t e = pos + 4;

      if (e + elen > ext_end)
        return ENGINE_HOST_NONE;
      if (type == 0)
        {
          size_t list_end, q;

          if (elen < 2)
            return ENGINE_HOST_NONE;
          list_end = e + 2 + rd16 (p + e);
          if (list_end > e + elen)
            return ENGINE_HOST_NONE;
          for (q = e + 2; q + 3 <= list_end;)
            {
              size_t nlen = rd16 (p + q + 1);

              if (q + 3 + nlen > list_end)
                return ENGINE_HOST_NONE;
              if (p[q] == 0)
                return copy_host (p + q + 3, nlen, host, host_len);
              q += 3 + nlen;
            }
          return ENGINE_HOST_NONE;
        }
      pos = e + elen;
    }
  return ENGINE_HOST_NONE;
}

EngineHostResult
engine_tls_sni (const uint8_t *data,
                size_t         len,
                char          *host,
                size_t         host_len)
{
  uint8_t hs[HANDSHAKE_MAX];
  size_t hs_len = 0;
  size_t pos = 0;

  if (len < 1)
    return ENGINE_HOST_NEED_MORE;
  if (data[0] != 0x16)
    return ENGINE_HOST_NONE;
  if (len >= 2 && data[1] != 0x03)
    return ENGINE_HOST_NONE;

  /* Gather the handshake bytes of consecutive handshake records. */
  while (pos + 5 <= len)
    {
      size_t rlen = rd16 (data + pos + 3);
      size_t take;

      if (data[pos] != 0x16 || data[pos + 1] != 0x03 || rlen == 0)
        return ENGINE_HOST_NONE;
      take = rlen;
      if (pos + 5 + take > len)
        take = len - pos - 5;
      if (hs_len + take > sizeof hs)
        take = sizeof hs - hs_len;
      memcpy (hs + hs_len, data + pos + 5, take);
      hs_len += take;
      if (take < rlen)
        break;
      pos += 5 + rlen;
    }

  if (hs_len < 4)
    return ENGINE_HOST_NEED_MORE;
  if (hs[0] != 1)                               /* client_hello */
    return ENGINE_HOST_NONE;
  {
    size_t body = ((size_t) hs[1] << 16) | ((size_t) hs[2] << 8) | hs[3];

    if (body + 4 > sizeof hs)
      return ENGINE_HOST_NONE;
    if (hs_len < body + 4)
      return ENGINE_HOST_NEED_MORE;
    return client_hello_sni (hs + 4, body, host, host_len);
  }
}

EngineHostResult
engine_http_host (const uint8_t *data,
                  size_t         len,
                  char          *host,
                  size_t         host_len)
{
  size_t i, line;

  /* A request starts with an upper-case method and a space. */
  for (i = 0; i < len && i < 16; i++)
    {
      if (data[i] == ' ')
        break;
      if (data[i] < 'A' || data[i] > 'Z')
        return ENGINE_HOST_NONE;
    }
  if (i == len)
    return ENGINE_HOST_NEED_MORE;
  if (i == 0 || i == 16)
    return ENGINE_HOST_NONE;

  /* Skip the request line, then look at complete header lines. */
  line = 0;
  while (line < len)
    {
      const uint8_t *nl = memchr (data + line, '\n', len - line);
      size_t end, l;

      if (nl == NULL)
        return ENGINE_HOST_NEED_MORE;
      end = (size_t) (nl - data);
      l = end - line;
      if (l > 0 && data[end - 1] == '\r')
        l--;
      if (line > 0)
        {
          if (l == 0)
            return ENGINE_HOST_NONE;            /* end of headers, no Host */
          if (l > 5 && strncasecmp ((const char *) data + line, "host:", 5) == 0)
            {
              size_t s = line + 5, e = line + l, k;

              while (s < e && (data[s] == ' ' || data[s] == '\t'))
                s++;
              while (e > s && (data[e - 1] == ' ' || data[e - 1] == '\t'))
                e--;
              /* Drop a port, but not the colons of a bracketed IPv6 literal. */
              for (k = e; k > s; k--)
                {
                  if (data[k - 1] == ':')
                    {
                      e = k - 1;
                      break;
                    }
                  if (data[k - 1] < '0' || data[k - 1] > '9')
                    break;
                }
              return copy_host (data + s, e - s, host, host_len);
            }
        }
      line = end + 1;
    }
  return ENGINE_HOST_NEED_MORE;
}
