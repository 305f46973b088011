/* adbscope-validate.c: package name and serial rules used before a value
 * reaches an adb or device shell command line */
#include "config.h"

#include <string.h>

#include "adbscope-validate.h"

/* Java-style package: segments of [A-Za-z][A-Za-z0-9_]* joined by '.',
 * 1..255 characters.  A single segment is allowed because pm lists a few
 * system packages ("android") that way. */
gboolean
adbscope_package_name_is_valid (const char *name)
{
  gboolean segment_start = TRUE;
  gsize len, i;

  if (name == NULL)
    return FALSE;
  len = strlen (name);
  if (len < 1 || len > 255)
    return FALSE;

  for (i = 0; i < len; i++)
    {
      char c = name[i];

      if (segment_start)
        {
          if (!g_ascii_isalpha (c))
            return FALSE;
          segment_start = FALSE;
        }
      else if (c == '.')
        segment_start = TRUE;
      else if (!g_ascii_isalnum (c) && c != '_')
        return FALSE;
    }
  return !segment_start; /* no trailing '.' */
}

/* Serials look like "R3CN5030RFM", "emulator-5554", "127.0.0.1:5555" or
 * "adb-XYZ._adb-tls-connect._tcp": printable ASCII without blanks or any
 * character a shell gives meaning to. */
gboolean
adbscope_serial_is_valid (const char *serial)
{
  gsize len, i;

  if (serial == NULL)
    return FALSE;
  len = strlen (serial);
  if (len < 1 || len > 128)
    return FALSE;

  for (i = 0; i < len; i++)
    {
      unsigned char c = serial[i];

      if (c <= 0x20 || c >= 0x7f)
        return FALSE;
      if (strchr ("'\";&|$`\\", c) != NULL)
        return FALSE;
    }
  return TRUE;
}

/* "host", "host:port", "[v6]:port" → host (without brackets) and port
 * (default_port when none is given). */
gboolean
adbscope_network_address_split (const char  *text,
                                guint        default_port,
                                char       **host_out,
                                guint       *port_out)
{
  g_autofree char *host = NULL;
  const char *colon;
  guint64 port = default_port;
  gsize n;

  if (text == NULL || *text == '\0' || strlen (text) > 260)
    return FALSE;
  if (text[0] == '[')
    {
      const char *close = strchr (text, ']');

      if (close == NULL || close == text + 1)
        return FALSE;
      host = g_strndup (text + 1, close - text - 1);
      for (const char *p = host; *p != '\0'; p++)
        if (!g_ascii_isxdigit (*p) && *p != ':' && *p != '.')
          return FALSE;
      colon = close[1] == ':' ? close + 1 : NULL;
      if (close[1] != '\0' && colon == NULL)
        return FALSE;
    }
  else
    {
      colon = strrchr (text, ':');
      host = colon != NULL ? g_strndup (text, colon - text) : g_strdup (text);
      n = strlen (host);
      if (n == 0 || n > 253 || host[0] == '-' || host[0] == '.')
        return FALSE;
      for (const char *p = host; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && *p != '-' && *p != '.')
          return FALSE;
    }
  if (colon != NULL && !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
    return FALSE;
  if (host_out != NULL)
    *host_out = g_steal_pointer (&host);
  if (port_out != NULL)
    *port_out = (guint) port;
  return TRUE;
}

/* The host and port back as text: "host:port", "[v6]:port". */
char *
adbscope_network_address_join (const char *host,
                               guint       port)
{
  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]:%u", host, port);
  return g_strdup_printf ("%s:%u", host, port);
}

char *
adbscope_network_address_normalize (const char *text)
{
  g_autofree char *host = NULL;
  guint port;

  if (!adbscope_network_address_split (text, 5555, &host, &port))
    return NULL;
  return adbscope_network_address_join (host, port);
}
