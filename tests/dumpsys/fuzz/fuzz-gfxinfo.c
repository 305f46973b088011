/* fuzz-gfxinfo.c: libFuzzer target for adbscope_gfxinfo_parse() */
#include "config.h"

#include <stdint.h>

#include "adbscope-parse-gfxinfo.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeGfxinfo) info = NULL;

  info = adbscope_gfxinfo_parse ((const char *) data, (gssize) size, &error);
  g_assert ((info == NULL) != (error == NULL));

  if (info != NULL)
    {
      for (guint i = 0; i < info->processes->len; i++)
        {
          AdbscopeGfxinfoProcess *p = g_ptr_array_index (info->processes, i);
          g_autoptr(GArray) fresh = adbscope_gfxinfo_new_frames (p, p);
          g_autoptr(GArray) all = adbscope_gfxinfo_new_frames (NULL, p);

          /* A dump compared with itself never has new frames. */
          g_assert (fresh->len == 0);
          g_assert (all->len == adbscope_gfxinfo_process_count_frames (p));
          g_assert (p->package == NULL || g_utf8_validate (p->package, -1, NULL));
        }
    }

  return 0;
}
