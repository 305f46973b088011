/* fuzz-apk.c: the APK reader — the input is read both as a whole zip file
 * (end record, central directory, local headers, inflate) and as binary XML */
#include "config.h"

#include <string.h>

#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(AdbscopeApkManifest) m = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  AdbscopeZipDirectory dir;
  guint i;

  m = adbscope_apk_manifest_parse (data, size, NULL);
  if (m != NULL)
    g_assert (m->package != NULL && g_utf8_validate (m->package, -1, NULL));

  {
    g_autoptr(GBytes) b = g_bytes_new_static (data, size);
    g_autoptr(AdbscopeArsc) arsc = adbscope_arsc_new_for_bytes (b, NULL);
    const guint32 ids[] = { 0x7f010000, 0x7f020000, 0x7f030000, 0x7f030001, 0x01040000 };
    AdbscopeResConfig config = { "fr", "", 480, 34 };

    for (i = 0; arsc != NULL && i < G_N_ELEMENTS (ids); i++)
      {
        AdbscopeArscValue v = { 0 };

        if (adbscope_arsc_resolve (arsc, ids[i], &config, &v, NULL) && v.string != NULL)
          g_assert (g_utf8_validate (v.string, -1, NULL));
        adbscope_arsc_value_clear (&v);
      }
  }

  if (!adbscope_zip_locate_central_directory (data, size, size, &dir, NULL))
    return 0;
  g_assert (dir.cd_offset + dir.cd_size <= size);
  entries = adbscope_zip_parse_central_directory (data + dir.cd_offset, dir.cd_size, &dir, NULL);
  if (entries == NULL)
    return 0;
  for (i = 0; i < entries->len && i < 8; i++)
    {
      const AdbscopeZipEntry *e = g_ptr_array_index (entries, i);
      g_autoptr(GBytes) bytes = NULL;
      guint64 data_offset;

      g_assert (e->local_offset + e->compressed_size <= dir.cd_offset);
      if (!adbscope_zip_local_header_parse (data + e->local_offset, size - e->local_offset,
                                            &data_offset, NULL))
        continue;
      if (data_offset + e->compressed_size > size - e->local_offset)
        continue;
      bytes = adbscope_zip_entry_extract (e, data + e->local_offset + data_offset,
                                          e->compressed_size, 1 << 20, NULL);
      if (bytes != NULL)
        {
          gsize len;
          const guint8 *p = g_bytes_get_data (bytes, &len);

          g_assert (len == e->size);
          g_clear_pointer (&m, adbscope_apk_manifest_free);
          m = adbscope_apk_manifest_parse (p, len, NULL);
        }
    }
  return 0;
}
