/* fuzz-getprop.c: getprop dumps (UTF-8 or UTF-16) and getconf PAGE_SIZE */
#include "config.h"

#include "adbscope-parse-getprop.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GHashTable) props = NULL;
  g_autoptr(GError) error = NULL;
  guint page = 0;

  props = adbscope_getprop_parse ((const char *) data, size, &error);
  g_assert ((props == NULL) == (error != NULL));
  if (props != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, props);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_assert (g_utf8_validate (key, -1, NULL) && g_utf8_validate (value, -1, NULL));
      adbscope_getprop_get_sdk (props);
      adbscope_getprop_get_model (props);
    }
  if (adbscope_parse_page_size ((const char *) data, size, &page, NULL))
    g_assert (page >= 4096 && page <= 65536);
  return 0;
}
