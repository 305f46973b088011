/* fuzz-sim-wire.c: libFuzzer target for the bytes a host sends the
 * simulated device (transport packets, shell v2 packets, sync requests,
 * sync paths). */
#include "config.h"

#include <string.h>

#include "adbscope-sim-wire.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  gsize pos;

  if (size == 0)
    return 0;

  pos = 1;
  switch (data[0] % 4)
    {
    case 0:
      for (;;)
        {
          AdbscopeSimPacket packet;
          gssize used = adbscope_sim_wire_parse_packet (data + pos, size - pos, 1 << 20, &packet);

          if (used <= 0)
            break;
          g_assert (packet.data + packet.length <= data + size);
          pos += (gsize) used;
        }
      break;
    case 1:
      for (;;)
        {
          const guint8 *payload;
          guint32 plen;
          guint8 id;
          gssize used = adbscope_sim_wire_parse_shell (data + pos, size - pos, &id, &payload, &plen);

          if (used <= 0)
            break;
          g_assert (payload + plen <= data + size);
          pos += (gsize) used;
        }
      break;
    case 2:
      for (;;)
        {
          const guint8 *payload;
          guint32 value;
          char id[5];
          gssize used = adbscope_sim_wire_parse_sync (data + pos, size - pos, 65536 + 4096,
                                                      id, &value, &payload);

          if (used <= 0)
            break;
          if (strcmp (id, "DONE") != 0)
            g_assert (payload + value <= data + size);
          pos += (gsize) used;
        }
      break;
    default:
      {
        g_autofree char *path = g_strndup ((const char *) data + 1, size - 1);
        g_autofree char *got = adbscope_sim_wire_resolve_path ("/root", path);

        /* never above the root */
        g_assert (g_str_has_prefix (got, "/root"));
        g_assert (got[5] == '\0' || got[5] == '/');
        g_assert (strstr (got, "/../") == NULL && !g_str_has_suffix (got, "/.."));
      }
      break;
    }
  return 0;
}
