/* fuzz-replay.c: libFuzzer target for what capture-device and sim --replay
 * read from a phone: the framed answers of a capture run, the redaction
 * rules, and the counter offsets of the replay (the first byte picks). */
#include "config.h"

#include <string.h>

#include "adbscope-device-capture.h"
#include "adbscope-sim-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const char * const paths[] = { "/proc/stat", "/proc/uptime", "/proc/net/dev", "/proc/1/task/2/stat" };
  g_autofree char *text = NULL;

  if (size == 0)
    return 0;
  text = g_strndup ((const char *) data + 1, size - 1);
  switch (data[0] % 3)
    {
    case 0:
      {
        g_autoptr(GPtrArray) entries = adbscope_device_capture_split (text, "@@T", NULL);

        for (guint i = 0; entries != NULL && i < entries->len; i++)
          {
            AdbscopeCaptureEntry *e = g_ptr_array_index (entries, i);

            g_assert (strchr ("TFD", e->kind) != NULL);
            g_assert (e->kind == 'D' || e->text != NULL);
          }
      }
      break;
    case 1:
      {
        g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
        const char *secrets[] = { "R58N123ABC", NULL };
        g_autofree char *out = adbscope_device_capture_redact (text, TRUE, secrets, counts);

        g_assert (out != NULL && strstr (out, "R58N123ABC") == NULL);
      }
      break;
    default:
      {
        /* the input as repeat, first and last (split at NUL-free thirds) */
        gsize n = strlen (text), a = n / 3, b = 2 * n / 3;
        g_autofree char *first = g_strndup (text, a);
        g_autofree char *last = g_strndup (text + a, b - a);
        g_autofree char *out = adbscope_sim_replay_offset (paths[data[0] % G_N_ELEMENTS (paths)], text + b,
                                                           first, last, 2 + data[0] % 5, 1 + data[0] % 3);

        g_assert (out != NULL);
      }
      break;
    }
  return 0;
}
