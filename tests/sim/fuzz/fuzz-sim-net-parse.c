/* fuzz-sim-net-parse.c: libFuzzer target for what the simulated device's
 * servers read from the apps (the first byte picks the parser). */
#include "config.h"

#include <string.h>

#include "adbscope-sim-net-parse.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  if (size == 0)
    return 0;
  switch (data[0] % 3)
    {
    case 0:
      {
        char *sni = NULL;
        int r = adbscope_sim_parse_client_hello (data + 1, size - 1, &sni);

        g_assert (r >= -1 && r <= 1);
        g_assert (r == 1 || sni == NULL);
        g_free (sni);
      }
      break;
    case 1:
      {
        char *name = NULL;
        guint qtype = 0;
        gsize end = 0;

        if (adbscope_sim_parse_dns_question (data + 1, size - 1, &name, &qtype, &end))
          {
            g_assert (end <= size - 1);
            g_assert (strlen (name) <= 253);
          }
        g_free (name);
      }
      break;
    default:
      {
        char *head = g_strndup ((const char *) data + 1, size - 1);

        g_free (adbscope_sim_http_header (head, "Host"));
        g_free (adbscope_sim_http_header (head, "Content-Length"));
        g_free (head);
      }
      break;
    }
  return 0;
}
