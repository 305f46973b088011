/* adbscope-sim-wire.c: see adbscope-sim-wire.h */
#include "config.h"

#include <string.h>

#include "adbscope-sim-wire.h"

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

gssize
adbscope_sim_wire_parse_packet (const guint8      *data,
                                gsize              len,
                                guint32            max_payload,
                                AdbscopeSimPacket *packet)
{
  guint32 command, length;

  if (len < 24)
    return 0;
  command = get_u32 (data);
  length = get_u32 (data + 12);
  if (get_u32 (data + 20) != (command ^ 0xffffffff) || length > max_payload)
    return -1;
  if (len - 24 < length)
    return 0;
  packet->command = command;
  packet->arg0 = get_u32 (data + 4);
  packet->arg1 = get_u32 (data + 8);
  packet->length = length;
  packet->data = data + 24;
  return 24 + (gssize) length;
}

gssize
adbscope_sim_wire_parse_shell (const guint8  *data,
                               gsize          len,
                               guint8        *id,
                               const guint8 **payload,
                               guint32       *payload_len)
{
  guint32 plen;

  if (len < 5)
    return 0;
  plen = get_u32 (data + 1);
  if (len - 5 < plen)
    return 0;
  *id = data[0];
  *payload = data + 5;
  *payload_len = plen;
  return 5 + (gssize) plen;
}

gssize
adbscope_sim_wire_parse_sync (const guint8  *data,
                              gsize          len,
                              guint32        max_len,
                              char           id[5],
                              guint32       *value,
                              const guint8 **payload)
{
  if (len < 8)
    return 0;
  memcpy (id, data, 4);
  id[4] = '\0';
  *value = get_u32 (data + 4);
  *payload = data + 8;
  if (strcmp (id, "DONE") == 0)
    return 8;
  if (*value > max_len)
    return -1;
  if (len - 8 < *value)
    return 0;
  return 8 + (gssize) *value;
}

char *
adbscope_sim_wire_resolve_path (const char *root,
                                const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  GPtrArray *kept = g_ptr_array_new ();
  GString *result = g_string_new (root);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      if (strcmp (parts[i], "..") == 0)
        {
          if (kept->len > 0)
            g_ptr_array_remove_index (kept, kept->len - 1);
          continue;
        }
      g_ptr_array_add (kept, parts[i]);
    }
  for (guint i = 0; i < kept->len; i++)
    {
      g_string_append_c (result, '/');
      g_string_append (result, g_ptr_array_index (kept, i));
    }
  g_ptr_array_unref (kept);
  return g_string_free (result, FALSE);
}
