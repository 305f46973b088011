/* fuzz-ps.c: ps/top tables, their fork children and the ANSI stripper */
#include "config.h"

#include <string.h>

#include "adbscope-parse-ps.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(AdbscopePsTable) table = NULL;
  g_autofree char *copy = g_malloc (size + 1);
  gsize n;

  table = adbscope_ps_parse ((const char *) data, size, NULL);
  if (table != NULL)
    {
      guint i, c;

      for (i = 0; i < table->rows->len; i++)
        {
          AdbscopePsRow *row = g_ptr_array_index (table->rows, i);

          g_assert (row->name != NULL && row->pid >= 0);
          /* a fork child has a parent row of its own name */
          if (adbscope_ps_table_is_fork_child (table, row))
            g_assert (row->ppid > 0 && row->ppid != row->pid);
          for (c = 0; c < table->n_columns; c++)
            g_assert (row->fields[c] != NULL && g_utf8_validate (row->fields[c], -1, NULL));
        }
    }

  memcpy (copy, data, size);
  copy[size] = '\0';
  n = adbscope_strip_ansi (copy, size);
  g_assert (n <= size);
  g_assert (memchr (copy, '\033', n) == NULL);
  g_clear_pointer (&table, adbscope_ps_table_free);
  table = adbscope_ps_parse (copy, n, NULL);
  return 0;
}
