/* adbscope-apk.c: zip central directory, one entry, binary XML manifest
 *
 * Formats: PKWARE APPNOTE (end record, zip64, central and local headers);
 * AOSP frameworks/base/libs/androidfw ResourceTypes.h (ResChunk_header,
 * ResStringPool_header, ResXMLTree_*, Res_value).  Every offset and length
 * read from the input is checked against the buffer before use.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"
#include "adbscope-apk-private.h"
#include "adbscope-error.h"

#define ZIP_EOCD_SIG       0x06054b50u
#define ZIP64_LOCATOR_SIG  0x07064b50u
#define ZIP64_EOCD_SIG     0x06064b50u
#define ZIP_CENTRAL_SIG    0x02014b50u
#define ZIP_LOCAL_SIG      0x04034b50u
#define ZIP_EOCD_LEN       22
#define ZIP_CENTRAL_LEN    46
#define ZIP_LOCAL_LEN      30

#define RES_STRING_POOL_TYPE      0x0001
#define RES_XML_TYPE              0x0003
#define RES_XML_START_ELEMENT     0x0102
#define RES_XML_END_ELEMENT       0x0103
#define RES_XML_RESOURCE_MAP_TYPE 0x0180

#define STRING_POOL_UTF8_FLAG     (1u << 8)

#define ATTR_LABEL              0x01010001u
#define ATTR_ICON               0x01010002u
#define ATTR_MIN_SDK            0x0101020cu
#define ATTR_VERSION_CODE       0x0101021bu
#define ATTR_VERSION_NAME       0x0101021cu
#define ATTR_TARGET_SDK         0x01010270u
#define ATTR_ROUND_ICON         0x0101052cu
#define ATTR_VERSION_CODE_MAJOR 0x01010576u

#define ANDROID_NS "http://schemas.android.com/apk/res/android"

#define NO_INDEX 0xffffffffu

static gboolean
parse_error (GError    **error,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static gboolean
parse_error (GError    **error,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, format, args));
  va_end (args);
  return FALSE;
}

/* ---------------------------------------------------------------- zip */

void
adbscope_zip_entry_free (AdbscopeZipEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->name);
  g_free (entry);
}

static gboolean
parse_zip64_end (const guint8         *tail,
                 gsize                 tail_len,
                 guint64               tail_start,
                 gsize                 eocd,
                 AdbscopeZipDirectory *out,
                 GError              **error)
{
  const guint8 *loc, *rec;
  guint64 rec_offset;

  if (eocd < 20 + 56 || _adbscope_rd32 (tail + eocd - 20) != ZIP64_LOCATOR_SIG)
    return parse_error (error, _("APK: the zip end record needs a zip64 record, and there is none"));
  loc = tail + eocd - 20;
  rec_offset = _adbscope_rd64 (loc + 8);
  if (rec_offset < tail_start || rec_offset - tail_start > eocd - 20 - 56)
    return parse_error (error, _("APK: the zip64 end record is not where its locator says"));
  rec = tail + (rec_offset - tail_start);
  if (_adbscope_rd32 (rec) != ZIP64_EOCD_SIG)
    return parse_error (error, _("APK: the zip64 end record is not where its locator says"));
  out->n_entries = _adbscope_rd64 (rec + 32);
  out->cd_size = _adbscope_rd64 (rec + 40);
  out->cd_offset = _adbscope_rd64 (rec + 48);
  /* The directory ends where the zip64 record starts. */
  if (out->cd_offset > rec_offset || out->cd_size > rec_offset - out->cd_offset)
    return parse_error (error, _("APK: the zip central directory lies outside the file"));
  return TRUE;
}

gboolean
adbscope_zip_locate_central_directory (const guint8         *tail,
                                       gsize                 tail_len,
                                       guint64               file_size,
                                       AdbscopeZipDirectory *out,
                                       GError              **error)
{
  guint64 tail_start;
  gsize i, lowest;

  g_return_val_if_fail (tail != NULL || tail_len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (tail_len <= file_size, FALSE);

  if (tail_len < ZIP_EOCD_LEN)
    return parse_error (error, _("APK: %llu bytes are too short for a zip file"),
                        (unsigned long long) file_size);
  tail_start = file_size - tail_len;
  /* The record is followed by a comment of at most 65535 bytes: search
   * backwards from the last place it can start. */
  lowest = tail_len - ZIP_EOCD_LEN > 65535 ? tail_len - ZIP_EOCD_LEN - 65535 : 0;
  for (i = tail_len - ZIP_EOCD_LEN + 1; i-- > lowest;)
    {
      const guint8 *p = tail + i;
      guint16 disk, cd_disk, n_disk, n_total, comment_len;
      guint32 cd_size, cd_offset;

      if (_adbscope_rd32 (p) != ZIP_EOCD_SIG)
        continue;
      comment_len = _adbscope_rd16 (p + 20);
      if (comment_len > tail_len - i - ZIP_EOCD_LEN)
        continue;
      disk = _adbscope_rd16 (p + 4);
      cd_disk = _adbscope_rd16 (p + 6);
      n_disk = _adbscope_rd16 (p + 8);
      n_total = _adbscope_rd16 (p + 10);
      cd_size = _adbscope_rd32 (p + 12);
      cd_offset = _adbscope_rd32 (p + 16);

      if (n_total == 0xffff || cd_size == 0xffffffffu || cd_offset == 0xffffffffu)
        return parse_zip64_end (tail, tail_len, tail_start, i, out, error);
      if ((disk != 0 && disk != 0xffff) || (cd_disk != 0 && cd_disk != 0xffff) || n_disk != n_total)
        return parse_error (error, _("APK: split (multi-disk) zip files are not APKs"));
      if ((guint64) cd_offset + cd_size > tail_start + i)
        return parse_error (error, _("APK: the zip central directory lies outside the file"));
      out->n_entries = n_total;
      out->cd_size = cd_size;
      out->cd_offset = cd_offset;
      return TRUE;
    }
  return parse_error (error, _("APK: not a zip file (no end of central directory record)"));
}

static gboolean
apply_zip64_extra (AdbscopeZipEntry *e,
                   const guint8     *extra,
                   gsize             extra_len,
                   gboolean          want_size,
                   gboolean          want_csize,
                   gboolean          want_offset,
                   GError          **error)
{
  gsize pos = 0;

  while (pos + 4 <= extra_len)
    {
      guint16 id = _adbscope_rd16 (extra + pos);
      guint16 len = _adbscope_rd16 (extra + pos + 2);
      const guint8 *f = extra + pos + 4;
      gsize need;

      if (len > extra_len - pos - 4)
        break;
      if (id == 0x0001)
        {
          need = 8 * ((want_size ? 1 : 0) + (want_csize ? 1 : 0) + (want_offset ? 1 : 0));
          if (len < need)
            return parse_error (error, _("APK: zip entry “%s” has a short zip64 field"), e->name);
          if (want_size)
            e->size = _adbscope_rd64 (f), f += 8;
          if (want_csize)
            e->compressed_size = _adbscope_rd64 (f), f += 8;
          if (want_offset)
            e->local_offset = _adbscope_rd64 (f);
          return TRUE;
        }
      pos += 4 + len;
    }
  return parse_error (error, _("APK: zip entry “%s” needs a zip64 field, and has none"), e->name);
}

GPtrArray *
adbscope_zip_parse_central_directory (const guint8               *cd,
                                      gsize                       cd_len,
                                      const AdbscopeZipDirectory *dir,
                                      GError                    **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  gsize pos = 0;
  guint64 i;

  g_return_val_if_fail (cd != NULL || cd_len == 0, NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  if (cd_len != dir->cd_size)
    {
      parse_error (error, _("APK: read %llu bytes of a %llu-byte zip central directory"),
                   (unsigned long long) cd_len, (unsigned long long) dir->cd_size);
      return NULL;
    }
  if (dir->n_entries > cd_len / ZIP_CENTRAL_LEN)
    {
      parse_error (error, _("APK: the zip central directory is too short for its %llu entries"),
                   (unsigned long long) dir->n_entries);
      return NULL;
    }

  entries = g_ptr_array_new_full ((guint) dir->n_entries, (GDestroyNotify) adbscope_zip_entry_free);
  for (i = 0; i < dir->n_entries; i++)
    {
      g_autoptr(AdbscopeZipEntry) e = NULL;
      const guint8 *p = cd + pos;
      guint16 name_len, extra_len, comment_len;
      guint32 csize, size, offset;

      if (cd_len - pos < ZIP_CENTRAL_LEN || _adbscope_rd32 (p) != ZIP_CENTRAL_SIG)
        {
          parse_error (error, _("APK: zip central directory entry %llu is damaged"), (unsigned long long) i + 1);
          return NULL;
        }
      name_len = _adbscope_rd16 (p + 28);
      extra_len = _adbscope_rd16 (p + 30);
      comment_len = _adbscope_rd16 (p + 32);
      if ((gsize) name_len + extra_len + comment_len > cd_len - pos - ZIP_CENTRAL_LEN)
        {
          parse_error (error, _("APK: zip central directory entry %llu is damaged"), (unsigned long long) i + 1);
          return NULL;
        }
      if (memchr (p + ZIP_CENTRAL_LEN, '\0', name_len) != NULL)
        {
          parse_error (error, _("APK: zip entry %llu has a NUL in its name"), (unsigned long long) i + 1);
          return NULL;
        }
      e = g_new0 (AdbscopeZipEntry, 1);
      e->name = g_strndup ((const char *) p + ZIP_CENTRAL_LEN, name_len);
      e->flags = _adbscope_rd16 (p + 8);
      e->method = _adbscope_rd16 (p + 10);
      e->crc32 = _adbscope_rd32 (p + 16);
      csize = _adbscope_rd32 (p + 20);
      size = _adbscope_rd32 (p + 24);
      offset = _adbscope_rd32 (p + 42);
      e->compressed_size = csize;
      e->size = size;
      e->local_offset = offset;
      if ((size == 0xffffffffu || csize == 0xffffffffu || offset == 0xffffffffu)
          && !apply_zip64_extra (e, p + ZIP_CENTRAL_LEN + name_len, extra_len,
                                 size == 0xffffffffu, csize == 0xffffffffu,
                                 offset == 0xffffffffu, error))
        return NULL;
      /* Entries' data lies before the directory. */
      if (e->local_offset >= dir->cd_offset
          || e->compressed_size > dir->cd_offset - e->local_offset)
        {
          parse_error (error, _("APK: zip entry “%s” lies outside the file"), e->name);
          return NULL;
        }
      g_ptr_array_add (entries, g_steal_pointer (&e));
      pos += ZIP_CENTRAL_LEN + name_len + extra_len + comment_len;
    }
  return g_steal_pointer (&entries);
}

const AdbscopeZipEntry *
adbscope_zip_find_entry (GPtrArray  *entries,
                         const char *name)
{
  guint i;

  g_return_val_if_fail (entries != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (i = 0; i < entries->len; i++)
    {
      const AdbscopeZipEntry *e = g_ptr_array_index (entries, i);

      if (strcmp (e->name, name) == 0)
        return e;
    }
  return NULL;
}

guint64
adbscope_zip_entry_read_span (const AdbscopeZipEntry *entry,
                              guint                   extra_guess)
{
  g_return_val_if_fail (entry != NULL, 0);

  return ZIP_LOCAL_LEN + strlen (entry->name) + extra_guess + entry->compressed_size;
}

gboolean
adbscope_zip_local_header_parse (const guint8 *header,
                                 gsize         header_len,
                                 guint64      *data_offset,
                                 GError      **error)
{
  g_return_val_if_fail (header != NULL || header_len == 0, FALSE);
  g_return_val_if_fail (data_offset != NULL, FALSE);

  if (header_len < ZIP_LOCAL_LEN || _adbscope_rd32 (header) != ZIP_LOCAL_SIG)
    return parse_error (error, _("APK: a zip entry's local header is damaged"));
  *data_offset = ZIP_LOCAL_LEN + (guint64) _adbscope_rd16 (header + 26) + _adbscope_rd16 (header + 28);
  return TRUE;
}

GBytes *
adbscope_zip_entry_extract (const AdbscopeZipEntry *entry,
                            const guint8           *data,
                            gsize                   data_len,
                            gsize                   max_size,
                            GError                **error)
{
  g_autofree guint8 *out = NULL;
  gsize size;

  g_return_val_if_fail (entry != NULL, NULL);
  g_return_val_if_fail (data != NULL || data_len == 0, NULL);

  if (entry->flags & 0x0001)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("APK: zip entry “%s” is encrypted"), entry->name);
      return NULL;
    }
  if (entry->method != 0 && entry->method != 8)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("APK: zip entry “%s” uses compression method %u"), entry->name, entry->method);
      return NULL;
    }
  if (entry->size > max_size)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("APK: zip entry “%s” is too large (%llu bytes)"),
                   entry->name, (unsigned long long) entry->size);
      return NULL;
    }
  if (data_len < entry->compressed_size)
    {
      parse_error (error, _("APK: zip entry “%s” is cut short"), entry->name);
      return NULL;
    }
  size = (gsize) entry->size;

  if (entry->method == 0)
    {
      if (entry->compressed_size != entry->size)
        {
          parse_error (error, _("APK: stored zip entry “%s” has two different sizes"), entry->name);
          return NULL;
        }
      out = g_memdup2 (data, size);
    }
  else
    {
      z_stream zs = { 0 };
      int rc;

      /* One call: both sizes fit in uInt (max_size is far below 4 GiB). */
      if (entry->compressed_size > G_MAXUINT32 || size > G_MAXUINT32)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                       _("APK: zip entry “%s” is too large (%llu bytes)"),
                       entry->name, (unsigned long long) entry->size);
          return NULL;
        }
      out = g_malloc (MAX (size, 1));
      if (inflateInit2 (&zs, -MAX_WBITS) != Z_OK)
        {
          parse_error (error, _("APK: cannot inflate zip entry “%s”"), entry->name);
          return NULL;
        }
      zs.next_in = (Bytef *) data;
      zs.avail_in = (uInt) entry->compressed_size;
      zs.next_out = out;
      zs.avail_out = (uInt) size;
      rc = inflate (&zs, Z_FINISH);
      inflateEnd (&zs);
      /* Z_STREAM_END with all of out filled: exactly the stated size;
       * a longer stream stops with Z_BUF_ERROR. */
      if (rc != Z_STREAM_END || zs.total_out != size)
        {
          parse_error (error, _("APK: zip entry “%s” does not inflate to its stated size"), entry->name);
          return NULL;
        }
    }
  if (_adbscope_crc32 (out, size) != entry->crc32)
    {
      parse_error (error, _("APK: zip entry “%s” fails its CRC check"), entry->name);
      return NULL;
    }
  return g_bytes_new_take (g_steal_pointer (&out), size);
}

guint32
_adbscope_crc32 (const guint8 *data,
                 gsize         len)
{
  uLong crc = crc32 (0L, Z_NULL, 0);

  while (len > 0)
    {
      uInt n = (uInt) MIN (len, G_MAXUINT32);

      crc = crc32 (crc, data, n);
      data += n;
      len -= n;
    }
  return (guint32) crc;
}

/* -------------------------------------------------------- string pool */

gboolean
adbscope_apk_string_pool_init (AdbscopeApkStringPool *pool,
                               const guint8          *chunk,
                               gsize                  chunk_len,
                               GError               **error)
{
  guint16 header_size;
  guint32 size, count, style_count, flags, strings_start, styles_start;
  gsize strings_end;

  g_return_val_if_fail (pool != NULL, FALSE);
  g_return_val_if_fail (chunk != NULL || chunk_len == 0, FALSE);

  memset (pool, 0, sizeof *pool);
  if (chunk_len < 28 || _adbscope_rd16 (chunk) != RES_STRING_POOL_TYPE)
    return parse_error (error, _("APK: a string pool is damaged"));
  header_size = _adbscope_rd16 (chunk + 2);
  size = _adbscope_rd32 (chunk + 4);
  if (header_size < 28 || size < header_size || size > chunk_len)
    return parse_error (error, _("APK: a string pool is damaged"));
  count = _adbscope_rd32 (chunk + 8);
  style_count = _adbscope_rd32 (chunk + 12);
  flags = _adbscope_rd32 (chunk + 16);
  strings_start = _adbscope_rd32 (chunk + 20);
  styles_start = _adbscope_rd32 (chunk + 24);
  if (count > (size - header_size) / 4
      || style_count > (size - header_size) / 4 - count)
    return parse_error (error, _("APK: a string pool claims more strings than it holds"));
  if (count > 0 && (strings_start < header_size + 4 * ((gsize) count + style_count) || strings_start > size))
    return parse_error (error, _("APK: a string pool is damaged"));
  strings_end = size;
  if (style_count > 0 && styles_start > strings_start && styles_start <= size)
    strings_end = styles_start;

  pool->chunk = chunk;
  pool->chunk_len = size;
  pool->count = count;
  pool->utf8 = (flags & STRING_POOL_UTF8_FLAG) != 0;
  pool->offsets = chunk + header_size;
  pool->strings = count > 0 ? chunk + strings_start : NULL;
  pool->strings_len = count > 0 ? strings_end - strings_start : 0;
  return TRUE;
}

/* UTF-16LE to UTF-8; unpaired surrogates become U+FFFD (g_utf16_to_utf8
 * refuses them, and a label with one is still a label). */
char *
_adbscope_utf16le_to_utf8 (const guint8 *p,
                           gsize         n_units)
{
  GString *s = g_string_sized_new (n_units + 1);
  gsize i;

  for (i = 0; i < n_units; i++)
    {
      gunichar c = _adbscope_rd16 (p + 2 * i);

      if (c >= 0xd800 && c < 0xdc00 && i + 1 < n_units)
        {
          gunichar lo = _adbscope_rd16 (p + 2 * (i + 1));

          if (lo >= 0xdc00 && lo < 0xe000)
            {
              c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
              i++;
            }
          else
            c = 0xfffd;
        }
      else if (c >= 0xd800 && c < 0xe000)
        c = 0xfffd;
      g_string_append_unichar (s, c);
    }
  return g_string_free (s, FALSE);
}

char *
adbscope_apk_string_pool_get (const AdbscopeApkStringPool *pool,
                              guint32                      index,
                              GError                     **error)
{
  const guint8 *p, *end;
  guint32 off;

  g_return_val_if_fail (pool != NULL, NULL);

  if (index >= pool->count)
    {
      parse_error (error, _("APK: string %u is outside its pool of %u"), index, pool->count);
      return NULL;
    }
  off = _adbscope_rd32 (pool->offsets + 4 * (gsize) index);
  if (off >= pool->strings_len)
    {
      parse_error (error, _("APK: string %u lies outside its pool"), index);
      return NULL;
    }
  p = pool->strings + off;
  end = pool->strings + pool->strings_len;
  if (pool->utf8)
    {
      gsize len8;

      /* The UTF-16 length first, then the UTF-8 length; each is one byte,
       * or two with the top bit of the first set. */
      if (*p & 0x80)
        p += 2;
      else
        p += 1;
      if (p >= end)
        goto damaged;
      if (*p & 0x80)
        {
          if (end - p < 2)
            goto damaged;
          len8 = ((gsize) (p[0] & 0x7f) << 8) | p[1];
          p += 2;
        }
      else
        len8 = *p++;
      if (len8 > (gsize) (end - p))
        goto damaged;
      return g_utf8_make_valid ((const char *) p, len8);
    }
  else
    {
      gsize len16;

      if (end - p < 2)
        goto damaged;
      len16 = _adbscope_rd16 (p);
      p += 2;
      if (len16 & 0x8000)
        {
          if (end - p < 2)
            goto damaged;
          len16 = ((len16 & 0x7fff) << 16) | _adbscope_rd16 (p);
          p += 2;
        }
      if (len16 > (gsize) (end - p) / 2)
        goto damaged;
      return _adbscope_utf16le_to_utf8 (p, len16);
    }

damaged:
  parse_error (error, _("APK: string %u in a pool is damaged"), index);
  return NULL;
}

/* --------------------------------------------------------- binary XML */

void
adbscope_apk_manifest_free (AdbscopeApkManifest *manifest)
{
  if (manifest == NULL)
    return;
  g_free (manifest->package);
  g_free (manifest->version_name);
  _adbscope_apk_value_clear (&manifest->version_name_value);
  _adbscope_apk_value_clear (&manifest->label);
  _adbscope_apk_value_clear (&manifest->icon);
  _adbscope_apk_value_clear (&manifest->round_icon);
  g_free (manifest);
}

void
_adbscope_apk_value_clear (AdbscopeApkValue *value)
{
  g_clear_pointer (&value->string, g_free);
  memset (value, 0, sizeof *value);
}

typedef struct
{
  AdbscopeApkStringPool pool;
  const guint8         *res_map;
  guint32               res_map_count;
  guint32               android_ns;   /* string index, NO_INDEX if absent */
} XmlDoc;

/* The attribute's resource id (from the map), else 0. */
static guint32
attr_res_id (const XmlDoc *doc,
             guint32       name)
{
  if (name < doc->res_map_count)
    return _adbscope_rd32 (doc->res_map + 4 * (gsize) name);
  return 0;
}

static gboolean
string_equals (const XmlDoc *doc,
               guint32       index,
               const char   *want)
{
  g_autofree char *s = NULL;

  if (index == NO_INDEX)
    return FALSE;
  s = adbscope_apk_string_pool_get (&doc->pool, index, NULL);
  return s != NULL && strcmp (s, want) == 0;
}

static gboolean
read_value (const XmlDoc      *doc,
            const guint8      *attr,
            AdbscopeApkValue  *out,
            GError           **error)
{
  guint8 type = attr[15];
  guint32 data = _adbscope_rd32 (attr + 16);

  _adbscope_apk_value_clear (out);
  out->data_type = type;
  out->data = data;
  switch (type)
    {
    case ADBSCOPE_RES_TYPE_STRING:
      out->kind = ADBSCOPE_APK_VALUE_STRING;
      out->string = adbscope_apk_string_pool_get (&doc->pool, data, error);
      return out->string != NULL;
    case ADBSCOPE_RES_TYPE_REFERENCE:
    case ADBSCOPE_RES_TYPE_DYNAMIC_REFERENCE:
      out->kind = ADBSCOPE_APK_VALUE_REFERENCE;
      out->res_id = data;
      return TRUE;
    default:
      /* aapt keeps the literal text of a typed value in rawValue. */
      out->kind = ADBSCOPE_APK_VALUE_OTHER;
      if (_adbscope_rd32 (attr + 8) != NO_INDEX)
        out->string = adbscope_apk_string_pool_get (&doc->pool, _adbscope_rd32 (attr + 8), NULL);
      return TRUE;
    }
}

/* An integer attribute; string literals holding digits count as well. */
static gboolean
value_to_int (const AdbscopeApkValue *v,
              gint64                 *out)
{
  if (v->kind == ADBSCOPE_APK_VALUE_OTHER
      && v->data_type >= ADBSCOPE_RES_TYPE_INT_DEC && v->data_type <= ADBSCOPE_RES_TYPE_INT_HEX)
    {
      *out = v->data;
      return TRUE;
    }
  if (v->kind == ADBSCOPE_APK_VALUE_STRING && v->string != NULL)
    {
      guint64 n;

      if (g_ascii_string_to_unsigned (v->string, 10, 0, G_MAXUINT32, &n, NULL))
        {
          *out = (gint64) n;
          return TRUE;
        }
    }
  return FALSE;
}

typedef struct
{
  const char *element;
  guint       depth;
  guint32     res_id;
  const char *name;      /* when the manifest has no resource map entry */
  gboolean    android;   /* name is in the android namespace */
  gsize       field;     /* offset into AdbscopeApkManifest of an AdbscopeApkValue */
} ManifestAttr;

typedef struct
{
  AdbscopeApkValue package;
  AdbscopeApkValue version_code;
  AdbscopeApkValue version_code_major;
  AdbscopeApkValue version_name;
  AdbscopeApkValue min_sdk;
  AdbscopeApkValue target_sdk;
  AdbscopeApkValue label;
  AdbscopeApkValue icon;
  AdbscopeApkValue round_icon;
} ManifestValues;

static const ManifestAttr manifest_attrs[] = {
  { "manifest", 1, 0, "package", FALSE, G_STRUCT_OFFSET (ManifestValues, package) },
  { "manifest", 1, ATTR_VERSION_CODE, "versionCode", TRUE, G_STRUCT_OFFSET (ManifestValues, version_code) },
  { "manifest", 1, ATTR_VERSION_CODE_MAJOR, "versionCodeMajor", TRUE, G_STRUCT_OFFSET (ManifestValues, version_code_major) },
  { "manifest", 1, ATTR_VERSION_NAME, "versionName", TRUE, G_STRUCT_OFFSET (ManifestValues, version_name) },
  { "uses-sdk", 2, ATTR_MIN_SDK, "minSdkVersion", TRUE, G_STRUCT_OFFSET (ManifestValues, min_sdk) },
  { "uses-sdk", 2, ATTR_TARGET_SDK, "targetSdkVersion", TRUE, G_STRUCT_OFFSET (ManifestValues, target_sdk) },
  { "application", 2, ATTR_LABEL, "label", TRUE, G_STRUCT_OFFSET (ManifestValues, label) },
  { "application", 2, ATTR_ICON, "icon", TRUE, G_STRUCT_OFFSET (ManifestValues, icon) },
  { "application", 2, ATTR_ROUND_ICON, "roundIcon", TRUE, G_STRUCT_OFFSET (ManifestValues, round_icon) },
};

static gboolean
attr_matches (const XmlDoc       *doc,
              const ManifestAttr *want,
              guint32             ns,
              guint32             name)
{
  guint32 id = attr_res_id (doc, name);

  if (want->res_id != 0 && id != 0)
    return id == want->res_id;
  if (id != 0)
    return FALSE;
  if (want->android ? (ns == NO_INDEX || !string_equals (doc, ns, ANDROID_NS)) : ns != NO_INDEX)
    return FALSE;
  return string_equals (doc, name, want->name);
}

static gboolean
parse_start_element (const XmlDoc   *doc,
                     const guint8   *chunk,
                     gsize           chunk_len,
                     guint           depth,
                     ManifestValues *values,
                     gboolean       *saw_manifest,
                     GError        **error)
{
  guint16 header_size = _adbscope_rd16 (chunk + 2);
  const guint8 *ext;
  guint16 attr_start, attr_size, attr_count;
  g_autofree char *element = NULL;
  guint32 name;
  guint a, k;

  if (header_size < 16 || chunk_len < (gsize) header_size + 20)
    return parse_error (error, _("APK: an XML element is damaged"));
  ext = chunk + header_size;
  name = _adbscope_rd32 (ext + 4);
  if (depth > 2)
    return TRUE;
  element = adbscope_apk_string_pool_get (&doc->pool, name, error);
  if (element == NULL)
    return FALSE;
  if (depth == 1)
    {
      if (strcmp (element, "manifest") != 0)
        return parse_error (error, _("APK: the manifest's root element is <%s>"), element);
      *saw_manifest = TRUE;
    }
  attr_start = _adbscope_rd16 (ext + 8);
  attr_size = _adbscope_rd16 (ext + 10);
  attr_count = _adbscope_rd16 (ext + 12);
  if (attr_count > 0
      && (attr_size < 20
          || (gsize) attr_start + (gsize) attr_size * attr_count > chunk_len - header_size))
    return parse_error (error, _("APK: the attributes of <%s> are damaged"), element);

  for (a = 0; a < attr_count; a++)
    {
      const guint8 *attr = ext + attr_start + (gsize) a * attr_size;
      guint32 ans = _adbscope_rd32 (attr);
      guint32 aname = _adbscope_rd32 (attr + 4);

      for (k = 0; k < G_N_ELEMENTS (manifest_attrs); k++)
        {
          const ManifestAttr *want = &manifest_attrs[k];
          AdbscopeApkValue *slot = G_STRUCT_MEMBER_P (values, want->field);

          if (want->depth != depth || strcmp (want->element, element) != 0
              || !attr_matches (doc, want, ans, aname))
            continue;
          if (!read_value (doc, attr, slot, error))
            return FALSE;
          break;
        }
    }
  return TRUE;
}

static char *
dup_literal (AdbscopeApkValue *v)
{
  if (v->kind != ADBSCOPE_APK_VALUE_STRING)
    return NULL;
  return g_strdup (v->string);
}

AdbscopeApkManifest *
adbscope_apk_manifest_parse (const guint8 *data,
                             gsize         len,
                             GError      **error)
{
  g_autoptr(AdbscopeApkManifest) m = NULL;
  ManifestValues values = { { 0 } };
  XmlDoc doc = { { 0 } };
  gboolean have_pool = FALSE, saw_manifest = FALSE;
  guint16 header_size;
  guint32 size;
  gsize pos;
  guint depth = 0;
  gint64 n;
  gboolean ok = FALSE;
  guint k;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len < 8 || _adbscope_rd16 (data) != RES_XML_TYPE)
    {
      parse_error (error, _("APK: AndroidManifest.xml is not binary XML"));
      return NULL;
    }
  header_size = _adbscope_rd16 (data + 2);
  size = _adbscope_rd32 (data + 4);
  if (header_size < 8 || size < header_size || size > len)
    {
      parse_error (error, _("APK: AndroidManifest.xml is cut short"));
      return NULL;
    }
  doc.android_ns = NO_INDEX;

  for (pos = header_size; pos + 8 <= size;)
    {
      const guint8 *chunk = data + pos;
      guint16 type = _adbscope_rd16 (chunk);
      guint16 chunk_header = _adbscope_rd16 (chunk + 2);
      guint32 chunk_size = _adbscope_rd32 (chunk + 4);

      if (chunk_size < 8 || chunk_header < 8 || chunk_header > chunk_size || chunk_size > size - pos)
        {
          parse_error (error, _("APK: AndroidManifest.xml has a damaged chunk at byte %llu"), (unsigned long long) pos);
          goto out;
        }
      switch (type)
        {
        case RES_STRING_POOL_TYPE:
          if (!have_pool)
            {
              if (!adbscope_apk_string_pool_init (&doc.pool, chunk, chunk_size, error))
                goto out;
              have_pool = TRUE;
            }
          break;
        case RES_XML_RESOURCE_MAP_TYPE:
          doc.res_map = chunk + chunk_header;
          doc.res_map_count = (chunk_size - chunk_header) / 4;
          break;
        case RES_XML_START_ELEMENT:
          if (!have_pool)
            {
              parse_error (error, _("APK: AndroidManifest.xml has no string pool"));
              goto out;
            }
          depth++;
          if (!parse_start_element (&doc, chunk, chunk_size, depth, &values, &saw_manifest, error))
            goto out;
          break;
        case RES_XML_END_ELEMENT:
          if (depth > 0)
            depth--;
          break;
        default:
          break;
        }
      pos += chunk_size;
    }

  if (!saw_manifest)
    {
      parse_error (error, _("APK: AndroidManifest.xml has no <manifest> element"));
      goto out;
    }
  if (values.package.kind != ADBSCOPE_APK_VALUE_STRING || values.package.string[0] == '\0')
    {
      parse_error (error, _("APK: AndroidManifest.xml names no package"));
      goto out;
    }

  m = g_new0 (AdbscopeApkManifest, 1);
  m->package = dup_literal (&values.package);
  m->version_code = -1;
  if (value_to_int (&values.version_code, &n))
    {
      gint64 major = 0;

      value_to_int (&values.version_code_major, &major);
      m->version_code = (gint64) (((guint64) major << 32) | (guint64) n);
    }
  m->version_name = dup_literal (&values.version_name);
  m->min_sdk = value_to_int (&values.min_sdk, &n) ? (gint) n : -1;
  m->target_sdk = value_to_int (&values.target_sdk, &n) ? (gint) n : -1;
  m->version_name_value = values.version_name;
  m->label = values.label;
  m->icon = values.icon;
  m->round_icon = values.round_icon;
  memset (&values.version_name, 0, sizeof values.version_name);
  memset (&values.label, 0, sizeof values.label);
  memset (&values.icon, 0, sizeof values.icon);
  memset (&values.round_icon, 0, sizeof values.round_icon);
  ok = TRUE;

out:
  for (k = 0; k < sizeof values / sizeof (AdbscopeApkValue); k++)
    _adbscope_apk_value_clear ((AdbscopeApkValue *) &values + k);
  return ok ? g_steal_pointer (&m) : NULL;
}

/* ----------------------------------------------------------- on disk */

struct _AdbscopeApkFile
{
  char               *path;
  int                 fd;
  guint64             size;
  GPtrArray          *entries;
  AdbscopeApkReadFunc read;
  gpointer            user_data;
  GDestroyNotify      user_data_free;
};

static gboolean
read_fd (gpointer   user_data,
         guint64    offset,
         gsize      len,
         guint8    *buf,
         GError   **error)
{
  AdbscopeApkFile *apk = user_data;
  gsize done = 0;

  while (done < len)
    {
      gssize n = pread (apk->fd, buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot read %s: %s"), apk->path,
                       n == 0 ? _("the file ends early") : g_strerror (saved));
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

static gboolean
read_at (AdbscopeApkFile *apk,
         guint64          offset,
         gsize            len,
         guint8          *buf,
         GError         **error)
{
  if (offset > apk->size || len > apk->size - offset)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("Cannot read %s: %s"), apk->path, _("the file ends early"));
      return FALSE;
    }
  return apk->read (apk->user_data, offset, len, buf, error);
}

void
adbscope_apk_file_free (AdbscopeApkFile *apk)
{
  if (apk == NULL)
    return;
  if (apk->fd >= 0)
    close (apk->fd);
  if (apk->user_data_free != NULL)
    apk->user_data_free (apk->user_data);
  g_clear_pointer (&apk->entries, g_ptr_array_unref);
  g_free (apk->path);
  g_free (apk);
}

static gboolean
read_directory (AdbscopeApkFile  *apk,
                GError          **error)
{
  g_autofree guint8 *tail = NULL;
  g_autofree guint8 *cd = NULL;
  AdbscopeZipDirectory dir;
  gsize tail_len;

  /* Most APKs have no comment: the end record is in the last 22 bytes and
   * a small directory right before it.  Read 64 KiB first, the longest
   * possible tail only when the record is not in it. */
  tail_len = (gsize) MIN (apk->size, 65536);
  tail = g_malloc (MAX (tail_len, 1));
  if (!read_at (apk, apk->size - tail_len, tail_len, tail, error))
    return FALSE;
  if (!adbscope_zip_locate_central_directory (tail, tail_len, apk->size, &dir, NULL))
    {
      tail_len = (gsize) MIN (apk->size, ADBSCOPE_ZIP_TAIL_MAX);
      g_free (tail);
      tail = g_malloc (MAX (tail_len, 1));
      if (!read_at (apk, apk->size - tail_len, tail_len, tail, error))
        return FALSE;
      if (!adbscope_zip_locate_central_directory (tail, tail_len, apk->size, &dir, error))
        {
          g_prefix_error (error, "%s: ", apk->path);
          return FALSE;
        }
    }
  if (dir.cd_size > ADBSCOPE_ZIP_ENTRY_MAX)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("%s: the zip central directory is too large"), apk->path);
      return FALSE;
    }
  cd = g_malloc (MAX (dir.cd_size, 1));
  if (dir.cd_offset >= apk->size - tail_len)
    memcpy (cd, tail + (dir.cd_offset - (apk->size - tail_len)), dir.cd_size);
  else if (!read_at (apk, dir.cd_offset, dir.cd_size, cd, error))
    return FALSE;
  apk->entries = adbscope_zip_parse_central_directory (cd, dir.cd_size, &dir, error);
  if (apk->entries == NULL)
    {
      g_prefix_error (error, "%s: ", apk->path);
      return FALSE;
    }
  return TRUE;
}

AdbscopeApkFile *
adbscope_apk_file_open (const char  *path,
                        GError     **error)
{
  g_autoptr(AdbscopeApkFile) apk = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  apk = g_new0 (AdbscopeApkFile, 1);
  apk->path = g_strdup (path);
  apk->read = read_fd;
  apk->user_data = apk;
  apk->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (apk->fd < 0)
    {
      int saved = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot open %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  if (fstat (apk->fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("%s is not a regular file"), path);
      return NULL;
    }
  apk->size = st.st_size;
  if (!read_directory (apk, error))
    return NULL;
  return g_steal_pointer (&apk);
}

AdbscopeApkFile *
adbscope_apk_file_new_for_reader (AdbscopeApkReadFunc  read,
                                  gpointer             user_data,
                                  GDestroyNotify       user_data_free,
                                  guint64              size,
                                  const char          *name,
                                  GError             **error)
{
  g_autoptr(AdbscopeApkFile) apk = NULL;

  g_return_val_if_fail (read != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  apk = g_new0 (AdbscopeApkFile, 1);
  apk->path = g_strdup (name);
  apk->fd = -1;
  apk->read = read;
  apk->user_data = user_data;
  apk->user_data_free = user_data_free;
  apk->size = size;
  if (!read_directory (apk, error))
    return NULL;
  return g_steal_pointer (&apk);
}

GPtrArray *
adbscope_apk_file_get_entries (AdbscopeApkFile *apk)
{
  g_return_val_if_fail (apk != NULL, NULL);

  return apk->entries;
}

GBytes *
adbscope_apk_file_read_entry (AdbscopeApkFile  *apk,
                              const char       *name,
                              GError          **error)
{
  const AdbscopeZipEntry *e;
  guint8 header[ZIP_LOCAL_LEN];
  g_autofree guint8 *data = NULL;
  guint64 data_offset;
  GBytes *bytes;

  g_return_val_if_fail (apk != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  e = adbscope_zip_find_entry (apk->entries, name);
  if (e == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s has no entry “%s”"), apk->path, name);
      return NULL;
    }
  if (!read_at (apk, e->local_offset, sizeof header, header, error))
    return NULL;
  if (!adbscope_zip_local_header_parse (header, sizeof header, &data_offset, error))
    goto fail;
  if (e->size > ADBSCOPE_ZIP_ENTRY_MAX || e->compressed_size > ADBSCOPE_ZIP_ENTRY_MAX)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("APK: zip entry “%s” is too large (%llu bytes)"),
                   e->name, (unsigned long long) e->size);
      goto fail;
    }
  data = g_malloc (MAX (e->compressed_size, 1));
  if (!read_at (apk, e->local_offset + data_offset, e->compressed_size, data, error))
    return NULL;
  bytes = adbscope_zip_entry_extract (e, data, e->compressed_size, ADBSCOPE_ZIP_ENTRY_MAX, error);
  if (bytes == NULL)
    goto fail;
  return bytes;

fail:
  g_prefix_error (error, "%s: ", apk->path);
  return NULL;
}

AdbscopeApkManifest *
adbscope_apk_file_read_manifest (AdbscopeApkFile  *apk,
                                 GError          **error)
{
  g_autoptr(GBytes) xml = NULL;
  AdbscopeApkManifest *m;
  gsize len;
  const guint8 *p;

  g_return_val_if_fail (apk != NULL, NULL);

  xml = adbscope_apk_file_read_entry (apk, "AndroidManifest.xml", error);
  if (xml == NULL)
    return NULL;
  p = g_bytes_get_data (xml, &len);
  m = adbscope_apk_manifest_parse (p, len, error);
  if (m == NULL)
    g_prefix_error (error, "%s: ", apk->path);
  return m;
}

AdbscopeApkManifest *
adbscope_apk_read_manifest (const char  *path,
                            GError     **error)
{
  g_autoptr(AdbscopeApkFile) apk = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  apk = adbscope_apk_file_open (path, error);
  if (apk == NULL)
    return NULL;
  return adbscope_apk_file_read_manifest (apk, error);
}

typedef struct
{
  AdbscopeApkFile *apk;
  guint64          base;
} StoredEntry;

static gboolean
read_stored_entry (gpointer   user_data,
                   guint64    offset,
                   gsize      len,
                   guint8    *buf,
                   GError   **error)
{
  StoredEntry *se = user_data;

  return read_at (se->apk, se->base + offset, len, buf, error);
}

AdbscopeArsc *
adbscope_apk_file_open_resources (AdbscopeApkFile  *apk,
                                  GError          **error)
{
  const AdbscopeZipEntry *e;
  g_autoptr(GBytes) bytes = NULL;
  AdbscopeArsc *arsc;

  g_return_val_if_fail (apk != NULL, NULL);

  e = adbscope_zip_find_entry (apk->entries, "resources.arsc");
  if (e == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s has no entry “%s”"), apk->path, "resources.arsc");
      return NULL;
    }
  if (e->method == 0 && !(e->flags & 1))
    {
      guint8 header[ZIP_LOCAL_LEN];
      guint64 data_offset;

      if (!read_at (apk, e->local_offset, sizeof header, header, error)
          || !adbscope_zip_local_header_parse (header, sizeof header, &data_offset, error))
        return NULL;
      if (e->local_offset + data_offset + e->size <= apk->size)
        {
          /* The callback's data lives as long as the table: keep it in apk. */
          StoredEntry *se = g_new0 (StoredEntry, 1);

          se->apk = apk;
          se->base = e->local_offset + data_offset;
          arsc = adbscope_arsc_open (read_stored_entry, se, e->size, error);
          if (arsc == NULL)
            {
              g_free (se);
              g_prefix_error (error, "%s: ", apk->path);
              return NULL;
            }
          _adbscope_arsc_set_user_data_free (arsc, g_free);
          return arsc;
        }
    }
  bytes = adbscope_apk_file_read_entry (apk, "resources.arsc", error);
  if (bytes == NULL)
    return NULL;
  arsc = adbscope_arsc_new_for_bytes (bytes, error);
  if (arsc == NULL)
    g_prefix_error (error, "%s: ", apk->path);
  return arsc;
}

/* ------------------------------------------------- binary XML as a tree */

void
adbscope_axml_node_free (AdbscopeAxmlNode *node)
{
  guint i;

  if (node == NULL)
    return;
  for (i = 0; i < node->n_attrs; i++)
    {
      g_free (node->attrs[i].name);
      _adbscope_apk_value_clear (&node->attrs[i].value);
    }
  g_free (node->attrs);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node->name);
  g_free (node);
}

#define AXML_MAX_DEPTH 64
#define AXML_MAX_NODES 20000

AdbscopeAxmlNode *
adbscope_axml_parse (const guint8 *data,
                     gsize         len,
                     GError      **error)
{
  g_autoptr(AdbscopeAxmlNode) root = NULL;
  AdbscopeAxmlNode *stack[AXML_MAX_DEPTH];
  XmlDoc doc = { { 0 } };
  gboolean have_pool = FALSE;
  guint depth = 0, n_nodes = 0;
  guint16 header_size;
  guint32 size;
  gsize pos;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len < 8 || _adbscope_rd16 (data) != RES_XML_TYPE)
    {
      parse_error (error, _("APK: not binary XML"));
      return NULL;
    }
  header_size = _adbscope_rd16 (data + 2);
  size = _adbscope_rd32 (data + 4);
  if (header_size < 8 || size < header_size || size > len)
    {
      parse_error (error, _("APK: binary XML is cut short"));
      return NULL;
    }
  doc.android_ns = NO_INDEX;

  for (pos = header_size; pos + 8 <= size;)
    {
      const guint8 *chunk = data + pos;
      guint16 type = _adbscope_rd16 (chunk);
      guint16 chunk_header = _adbscope_rd16 (chunk + 2);
      guint32 chunk_size = _adbscope_rd32 (chunk + 4);

      if (chunk_size < 8 || chunk_header < 8 || chunk_header > chunk_size || chunk_size > size - pos)
        {
          parse_error (error, _("APK: binary XML has a damaged chunk"));
          return NULL;
        }
      if (type == RES_STRING_POOL_TYPE && !have_pool)
        {
          if (!adbscope_apk_string_pool_init (&doc.pool, chunk, chunk_size, error))
            return NULL;
          have_pool = TRUE;
        }
      else if (type == RES_XML_RESOURCE_MAP_TYPE)
        {
          doc.res_map = chunk + chunk_header;
          doc.res_map_count = (chunk_size - chunk_header) / 4;
        }
      else if (type == RES_XML_START_ELEMENT)
        {
          g_autoptr(AdbscopeAxmlNode) node = NULL;
          const guint8 *ext = chunk + chunk_header;
          guint16 attr_start, attr_size, attr_count;
          guint a;

          if (!have_pool || chunk_header < 16 || chunk_size < (gsize) chunk_header + 20)
            {
              parse_error (error, _("APK: binary XML has a damaged element"));
              return NULL;
            }
          if (depth == AXML_MAX_DEPTH || ++n_nodes > AXML_MAX_NODES || (depth == 0 && root != NULL))
            {
              parse_error (error, _("APK: binary XML is nested too deep or has too many elements"));
              return NULL;
            }
          node = g_new0 (AdbscopeAxmlNode, 1);
          node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_axml_node_free);
          node->name = adbscope_apk_string_pool_get (&doc.pool, _adbscope_rd32 (ext + 4), error);
          if (node->name == NULL)
            return NULL;
          attr_start = _adbscope_rd16 (ext + 8);
          attr_size = _adbscope_rd16 (ext + 10);
          attr_count = _adbscope_rd16 (ext + 12);
          if (attr_count > 0
              && (attr_size < 20
                  || (gsize) attr_start + (gsize) attr_size * attr_count > chunk_size - chunk_header))
            {
              parse_error (error, _("APK: the attributes of <%s> are damaged"), node->name);
              return NULL;
            }
          node->attrs = g_new0 (AdbscopeAxmlAttr, attr_count);
          for (a = 0; a < attr_count; a++)
            {
              const guint8 *attr = ext + attr_start + (gsize) a * attr_size;
              AdbscopeAxmlAttr *out = &node->attrs[node->n_attrs];
              guint32 ns = _adbscope_rd32 (attr);
              guint32 name = _adbscope_rd32 (attr + 4);

              out->res_id = attr_res_id (&doc, name);
              out->name = adbscope_apk_string_pool_get (&doc.pool, name, NULL);
              out->android = ns != NO_INDEX && string_equals (&doc, ns, ANDROID_NS);
              if (!read_value (&doc, attr, &out->value, error))
                {
                  g_free (out->name);
                  return NULL;
                }
              node->n_attrs++;
            }
          if (depth == 0)
            {
              root = g_steal_pointer (&node);
              stack[depth++] = root;
            }
          else
            {
              AdbscopeAxmlNode *parent = stack[depth - 1];

              g_ptr_array_add (parent->children, node);
              stack[depth++] = g_steal_pointer (&node);
            }
        }
      else if (type == RES_XML_END_ELEMENT && depth > 0)
        depth--;
      pos += chunk_size;
    }
  if (root == NULL)
    {
      parse_error (error, _("APK: binary XML has no element"));
      return NULL;
    }
  return g_steal_pointer (&root);
}

const AdbscopeApkValue *
adbscope_axml_node_get_attr (const AdbscopeAxmlNode *node,
                             guint32                 res_id,
                             const char             *android_name)
{
  guint i;

  g_return_val_if_fail (node != NULL, NULL);

  for (i = 0; i < node->n_attrs; i++)
    {
      const AdbscopeAxmlAttr *a = &node->attrs[i];

      if (res_id != 0 && a->res_id == res_id)
        return &a->value;
      if (android_name != NULL && a->android && g_strcmp0 (a->name, android_name) == 0
          && (res_id == 0 || a->res_id == 0))
        return &a->value;
    }
  return NULL;
}
