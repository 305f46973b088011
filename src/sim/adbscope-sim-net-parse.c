/* adbscope-sim-net-parse.c: what the device's servers read from the apps
 *
 * Pure functions (no sockets), unit-tested and fuzzed (tests/sim):
 * the HTTP request header, the TLS ClientHello's server_name and a DNS
 * query's question.
 */
#include "config.h"

#include <string.h>

#include "adbscope-sim-net-parse.h"

/* The value of header NAME (case-insensitive) in an HTTP head (request line
 * and header lines, CRLF-separated), trimmed; NULL when absent. */
char *
adbscope_sim_http_header (const char *head,
                          const char *name)
{
  gsize name_len = strlen (name);

  for (const char *line = strstr (head, "\r\n"); line != NULL; line = strstr (line + 2, "\r\n"))
    {
      const char *p = line + 2;

      if (g_ascii_strncasecmp (p, name, name_len) == 0 && p[name_len] == ':')
        {
          const char *end = strstr (p, "\r\n");
          g_autofree char *value = g_strndup (p + name_len + 1, end != NULL ? (gsize) (end - p - name_len - 1) : strlen (p));

          return g_strdup (g_strstrip (value));
        }
    }
  return NULL;
}

static guint
be16 (const guint8 *p)
{
  return (guint) p[0] << 8 | p[1];
}

int
adbscope_sim_parse_client_hello (const guint8 *data,
                                 gsize         len,
                                 char        **sni)
{
  gsize rec_len, hs_len, off;
  const guint8 *hs;

  *sni = NULL;
  if (len < 5)
    return 0;
  if (data[0] != 0x16 || data[1] != 0x03)
    return -1;
  rec_len = be16 (data + 3);
  if (len < 5 + rec_len)
    return 0;
  hs = data + 5;
  if (rec_len < 4 || hs[0] != 0x01)
    return -1;
  hs_len = (gsize) hs[1] << 16 | (gsize) hs[2] << 8 | hs[3];
  if (hs_len + 4 > rec_len)
    return -1;   /* a hello over several records: not made by the demo app */
  hs += 4;
  off = 2 + 32;                         /* version, random */
  if (off + 1 > hs_len)
    return -1;
  off += 1 + hs[off];                   /* session id */
  if (off + 2 > hs_len)
    return -1;
  off += 2 + be16 (hs + off);           /* cipher suites */
  if (off + 1 > hs_len)
    return -1;
  off += 1 + hs[off];                   /* compression */
  if (off + 2 > hs_len)
    return 1;                           /* no extensions */
  {
    gsize ext_end = off + 2 + be16 (hs + off);

    off += 2;
    if (ext_end > hs_len)
      return -1;
    while (off + 4 <= ext_end)
      {
        guint type = be16 (hs + off), elen = be16 (hs + off + 2);

        off += 4;
        if (off + elen > ext_end)
          return -1;
        if (type == 0 && elen >= 5 && hs[off + 2] == 0)
          {
            guint nlen = be16 (hs + off + 3);

            if (5 + nlen > elen)
              return -1;
            *sni = g_strndup ((const char *) hs + off + 5, nlen);
            return 1;
          }
        off += elen;
      }
  }
  return 1;
}

gboolean
adbscope_sim_parse_dns_question (const guint8 *msg,
                                 gsize         len,
                                 char        **name,
                                 guint        *qtype,
                                 gsize        *end)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gsize off = 12;

  if (len < 12 || be16 (msg + 4) != 1 || (msg[2] & 0x80) != 0)
    return FALSE;
  for (;;)
    {
      guint l;

      if (off >= len)
        return FALSE;
      l = msg[off++];
      if (l == 0)
        break;
      if (l > 63 || off + l > len || text->len + l + 1 > 253)
        return FALSE;
      if (text->len > 0)
        g_string_append_c (text, '.');
      for (guint i = 0; i < l; i++)
        g_string_append_c (text, g_ascii_tolower ((char) msg[off + i]));
      off += l;
    }
  if (off + 4 > len)
    return FALSE;
  *qtype = be16 (msg + off);
  *end = off + 4;
  *name = g_string_free (g_steal_pointer (&text), FALSE);
  return TRUE;
}

