/* fuzz-meminfo.c: libFuzzer target for adbscope_meminfo_parse() */
#include "config.h"

#include <stdint.h>

#include "adbscope-parse-meminfo.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeMeminfo) info = NULL;

  info = adbscope_meminfo_parse ((const char *) data, (gssize) size, &error);
  g_assert ((info == NULL) != (error == NULL));

  if (info != NULL)
    {
      g_assert (info->processes->len > 0 || info->system.present);
      for (guint i = 0; i < info->processes->len; i++)
        {
          AdbscopeMeminfoProcess *p = g_ptr_array_index (info->processes, i);

          g_assert (p->total_pss_kb >= 0);
          g_assert (p->n_columns == (p->columns != NULL ? g_strv_length (p->columns) : 0));
          for (guint r = 0; r < p->rows->len; r++)
            {
              const AdbscopeMeminfoRow *row = g_ptr_array_index (p->rows, r);

              g_assert (g_utf8_validate (row->label, -1, NULL));
              if (p->n_columns > 0)
                (void) adbscope_meminfo_process_get_cell (p, row->label, p->columns[p->n_columns - 1]);
            }
        }
    }

  return 0;
}
