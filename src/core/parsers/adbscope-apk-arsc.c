/* adbscope-apk-arsc.c: resources.arsc lookups (ResourceTypes.h layouts)
 *
 * Configuration choice follows ResTable_config::match and ::isBetterThan
 * (AOSP frameworks/base/libs/androidfw) for what a desktop cares about:
 * locale (language, then country; countries must match as when the
 * request's script is unknown), density (DENSITY_ANY first, then the
 * bucket that scales down best), sdk version (highest not above the
 * request).  Configurations for other qualifiers (mcc, orientation, night,
 * screen sizes, RTL, …) do not match a request that does not name them.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-apk-arsc.h"
#include "adbscope-apk-private.h"
#include "adbscope-error.h"

#define RES_STRING_POOL_TYPE     0x0001
#define RES_TABLE_TYPE           0x0002
#define RES_TABLE_PACKAGE_TYPE   0x0200
#define RES_TABLE_TYPE_TYPE      0x0201
#define RES_TABLE_TYPE_SPEC_TYPE 0x0202

#define TYPE_FLAG_SPARSE   0x01
#define TYPE_FLAG_OFFSET16 0x02

#define ENTRY_FLAG_COMPLEX 0x0001
#define ENTRY_FLAG_COMPACT 0x0008

#define NO_ENTRY 0xffffffffu
#define CONFIG_MAX 64
#define MAX_DEPTH 16
#define DENSITY_MEDIUM 160

typedef struct
{
  guint8  id;
  guint8  flags;
  guint64 offset;
  guint32 header_size;
  guint32 size;
  guint32 entry_count;
  guint32 entries_start;
  guint8  config[CONFIG_MAX];   /* zero-padded: older tables have shorter ones */
} TypeChunk;

typedef struct
{
  guint32  id;
  GArray  *types;          /* TypeChunk, as far as walked */
  guint64  walk_pos;       /* next chunk to index */
  guint64  end;
  guint    max_type_seen;
  gboolean sorted;
} Package;

struct _AdbscopeArsc
{
  AdbscopeApkReadFunc read;
  gpointer            user_data;
  guint64             size;
  guint64             bytes_read;
  GBytes             *bytes;       /* adbscope_arsc_new_for_bytes */
  GDestroyNotify      user_data_free;

  guint64             pool_offset;
  guint32             pool_header_size;
  guint32             pool_size;
  guint32             pool_count;
  guint32             pool_strings_start;
  gboolean            pool_utf8;

  GArray             *packages;    /* Package */
};

static gboolean
fail (GError    **error,
      const char *message)
{
  g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, message);
  return FALSE;
}

static gboolean
rd (AdbscopeArsc *arsc,
    guint64       offset,
    gsize         len,
    guint8       *buf,
    GError      **error)
{
  if (offset > arsc->size || len > arsc->size - offset)
    return fail (error, _("APK: resources.arsc points outside itself"));
  arsc->bytes_read += len;
  return arsc->read (arsc->user_data, offset, len, buf, error);
}

void
adbscope_arsc_value_clear (AdbscopeArscValue *value)
{
  g_clear_pointer (&value->string, g_free);
  memset (value, 0, sizeof *value);
}

void
adbscope_arsc_free (AdbscopeArsc *arsc)
{
  guint i;

  if (arsc == NULL)
    return;
  if (arsc->packages != NULL)
    {
      for (i = 0; i < arsc->packages->len; i++)
        g_array_unref (g_array_index (arsc->packages, Package, i).types);
      g_array_unref (arsc->packages);
    }
  g_clear_pointer (&arsc->bytes, g_bytes_unref);
  if (arsc->user_data_free != NULL)
    arsc->user_data_free (arsc->user_data);
  g_free (arsc);
}

void
_adbscope_arsc_set_user_data_free (AdbscopeArsc  *arsc,
                                   GDestroyNotify free_func)
{
  arsc->user_data_free = free_func;
}

guint64
adbscope_arsc_get_bytes_read (AdbscopeArsc *arsc)
{
  g_return_val_if_fail (arsc != NULL, 0);
  return arsc->bytes_read;
}

void
adbscope_res_config_set_locale (AdbscopeResConfig *config,
                                const char        *locale)
{
  static const char *const legacy[][2] = { { "id", "in" }, { "he", "iw" }, { "yi", "ji" } };
  gsize n = 0;
  guint i;

  g_return_if_fail (config != NULL);

  memset (config->language, 0, sizeof config->language);
  memset (config->country, 0, sizeof config->country);
  if (locale == NULL || strcmp (locale, "C") == 0 || strcmp (locale, "POSIX") == 0)
    return;
  /* ll[_CC][.codeset][@modifier], or a BCP 47 ll-CC */
  while (g_ascii_isalpha (locale[n]) && n < 3)
    n++;
  if (n < 2 || g_ascii_isalpha (locale[n]))
    return;
  for (i = 0; i < n; i++)
    config->language[i] = g_ascii_tolower (locale[i]);
  for (i = 0; i < G_N_ELEMENTS (legacy); i++)
    if (strcmp (config->language, legacy[i][0]) == 0)
      strcpy (config->language, legacy[i][1]);
  if ((locale[n] == '_' || locale[n] == '-')
      && g_ascii_isalpha (locale[n + 1]) && g_ascii_isalpha (locale[n + 2])
      && !g_ascii_isalnum (locale[n + 3]))
    {
      config->country[0] = g_ascii_toupper (locale[n + 1]);
      config->country[1] = g_ascii_toupper (locale[n + 2]);
    }
}

static gboolean
read_pool_header (AdbscopeArsc *arsc,
                  guint64       offset,
                  guint32       size,
                  GError      **error)
{
  guint8 h[28];

  if (size < 28 || !rd (arsc, offset, sizeof h, h, error))
    return size < 28 ? fail (error, _("APK: resources.arsc has a damaged string pool")) : FALSE;
  arsc->pool_offset = offset;
  arsc->pool_header_size = _adbscope_rd16 (h + 2);
  arsc->pool_size = size;
  arsc->pool_count = _adbscope_rd32 (h + 8);
  arsc->pool_utf8 = (_adbscope_rd32 (h + 16) & (1u << 8)) != 0;
  arsc->pool_strings_start = _adbscope_rd32 (h + 20);
  if (arsc->pool_header_size < 28 || arsc->pool_header_size > size
      || arsc->pool_count > (size - arsc->pool_header_size) / 4
      || arsc->pool_strings_start > size)
    return fail (error, _("APK: resources.arsc has a damaged string pool"));
  return TRUE;
}

/* String index of the table's global pool, read piecewise. */
static char *
global_string (AdbscopeArsc *arsc,
               guint32       index,
               GError      **error)
{
  guint8 b[4];
  guint32 off;
  guint64 start, end, p;
  gsize len, head;
  g_autofree guint8 *buf = NULL;

  if (index >= arsc->pool_count)
    {
      fail (error, _("APK: resources.arsc refers to a string it does not have"));
      return NULL;
    }
  if (!rd (arsc, arsc->pool_offset + arsc->pool_header_size + 4 * (guint64) index, 4, b, error))
    return NULL;
  off = _adbscope_rd32 (b);
  start = arsc->pool_offset + arsc->pool_strings_start;
  end = arsc->pool_offset + arsc->pool_size;
  if (off >= end - start)
    {
      fail (error, _("APK: resources.arsc has a damaged string"));
      return NULL;
    }
  p = start + off;
  head = (gsize) MIN (4, end - p);
  memset (b, 0, sizeof b);
  if (!rd (arsc, p, head, b, error))
    return NULL;
  if (arsc->pool_utf8)
    {
      gsize skip = (b[0] & 0x80) ? 2 : 1;

      if (b[skip] & 0x80)
        {
          len = ((gsize) (b[skip] & 0x7f) << 8) | b[skip + 1];
          skip += 2;
        }
      else
        {
          len = b[skip];
          skip += 1;
        }
      if (skip > head || len > end - p - skip)
        {
          fail (error, _("APK: resources.arsc has a damaged string"));
          return NULL;
        }
      buf = g_malloc (len + 1);
      if (!rd (arsc, p + skip, len, buf, error))
        return NULL;
      return g_utf8_make_valid ((const char *) buf, len);
    }
  else
    {
      gsize skip = 2;

      len = _adbscope_rd16 (b);
      if (len & 0x8000)
        {
          len = ((len & 0x7fff) << 16) | _adbscope_rd16 (b + 2);
          skip = 4;
        }
      if (skip > head || len > (end - p - skip) / 2)
        {
          fail (error, _("APK: resources.arsc has a damaged string"));
          return NULL;
        }
      buf = g_malloc (2 * len + 1);
      if (!rd (arsc, p + skip, 2 * len, buf, error))
        return NULL;
      return _adbscope_utf16le_to_utf8 (buf, len);
    }
}

/* Type chunks are indexed lazily: aapt and aapt2 write them by ascending
 * type id, so a lookup walks only up to the first chunk of a higher id.
 * When ids go down (an unusual table) or a lookup finds nothing, the rest
 * of the package is walked. */
static gboolean
walk_package (AdbscopeArsc *arsc,
              Package      *pkg,
              guint         until_type,
              GError      **error)
{
  while (pkg->walk_pos + 8 <= pkg->end)
    {
      guint8 ch[8];
      guint16 type, chunk_header;
      guint32 chunk_size;
      guint64 pos = pkg->walk_pos;

      if (!rd (arsc, pos, sizeof ch, ch, error))
        return FALSE;
      type = _adbscope_rd16 (ch);
      chunk_header = _adbscope_rd16 (ch + 2);
      chunk_size = _adbscope_rd32 (ch + 4);
      if (chunk_size < 8 || chunk_header < 8 || chunk_header > chunk_size || chunk_size > pkg->end - pos)
        return fail (error, _("APK: resources.arsc has a damaged chunk"));
      if (type == RES_TABLE_TYPE_TYPE || type == RES_TABLE_TYPE_SPEC_TYPE)
        {
          guint8 th[20 + CONFIG_MAX] = { 0 };
          TypeChunk t = { 0 };
          guint32 config_size;

          if (chunk_header < (type == RES_TABLE_TYPE_TYPE ? 20 + 4 : 16))
            return fail (error, _("APK: resources.arsc has a damaged type chunk"));
          if (!rd (arsc, pos, MIN (chunk_header, sizeof th), th, error))
            return FALSE;
          t.id = th[8];
          if (t.id < pkg->max_type_seen)
            pkg->sorted = FALSE;
          pkg->max_type_seen = MAX (pkg->max_type_seen, t.id);
          if (pkg->sorted && until_type != G_MAXUINT && t.id > until_type)
            return TRUE;   /* the next lookup starts here again */
          if (type == RES_TABLE_TYPE_TYPE)
            {
              t.flags = th[9];
              t.offset = pos;
              t.header_size = chunk_header;
              t.size = chunk_size;
              t.entry_count = _adbscope_rd32 (th + 12);
              t.entries_start = _adbscope_rd32 (th + 16);
              config_size = MIN (_adbscope_rd32 (th + 20), MIN (chunk_header - 20u, (guint32) CONFIG_MAX));
              memcpy (t.config, th + 20, config_size);
              if (t.entries_start > chunk_size || t.entry_count > chunk_size / 2)
                return fail (error, _("APK: resources.arsc has a damaged type chunk"));
              g_array_append_val (pkg->types, t);
            }
        }
      pkg->walk_pos = pos + chunk_size;
    }
  return TRUE;
}

static gboolean
read_package (AdbscopeArsc *arsc,
              guint64       offset,
              guint32       size,
              GError      **error)
{
  guint8 h[12];
  Package pkg = { 0 };
  guint16 header_size;

  if (size < 12 + 256 + 16 || !rd (arsc, offset, sizeof h, h, error))
    return size < 12 + 256 + 16 ? fail (error, _("APK: resources.arsc has a damaged package")) : FALSE;
  header_size = _adbscope_rd16 (h + 2);
  if (header_size < 12 || header_size > size)
    return fail (error, _("APK: resources.arsc has a damaged package"));
  pkg.id = _adbscope_rd32 (h + 8);
  pkg.types = g_array_new (FALSE, TRUE, sizeof (TypeChunk));
  pkg.walk_pos = offset + header_size;
  pkg.end = offset + size;
  pkg.sorted = TRUE;
  g_array_append_val (arsc->packages, pkg);
  return TRUE;
}

AdbscopeArsc *
adbscope_arsc_open (AdbscopeApkReadFunc   read,
                    gpointer              user_data,
                    guint64               size,
                    GError              **error)
{
  g_autoptr(AdbscopeArsc) arsc = NULL;
  guint8 h[12];
  guint32 table_size;
  guint16 header_size;
  guint64 pos;
  gboolean have_pool = FALSE;

  g_return_val_if_fail (read != NULL, NULL);

  arsc = g_new0 (AdbscopeArsc, 1);
  arsc->read = read;
  arsc->user_data = user_data;
  arsc->size = size;
  arsc->packages = g_array_new (FALSE, TRUE, sizeof (Package));

  if (size < 12)
    {
      fail (error, _("APK: resources.arsc is not a resource table"));
      return NULL;
    }
  if (!rd (arsc, 0, sizeof h, h, error))
    return NULL;
  header_size = _adbscope_rd16 (h + 2);
  table_size = _adbscope_rd32 (h + 4);
  if (_adbscope_rd16 (h) != RES_TABLE_TYPE || header_size < 12 || table_size > size || header_size > table_size)
    {
      fail (error, _("APK: resources.arsc is not a resource table"));
      return NULL;
    }
  for (pos = header_size; pos + 8 <= table_size;)
    {
      guint8 ch[8];
      guint16 type;
      guint32 chunk_size;

      if (!rd (arsc, pos, sizeof ch, ch, error))
        return NULL;
      type = _adbscope_rd16 (ch);
      chunk_size = _adbscope_rd32 (ch + 4);
      if (chunk_size < 8 || chunk_size > table_size - pos)
        {
          fail (error, _("APK: resources.arsc has a damaged chunk"));
          return NULL;
        }
      if (type == RES_STRING_POOL_TYPE && !have_pool)
        {
          if (!read_pool_header (arsc, pos, chunk_size, error))
            return NULL;
          have_pool = TRUE;
        }
      else if (type == RES_TABLE_PACKAGE_TYPE)
        {
          if (!read_package (arsc, pos, chunk_size, error))
            return NULL;
        }
      pos += chunk_size;
    }
  if (!have_pool)
    {
      fail (error, _("APK: resources.arsc has no string pool"));
      return NULL;
    }
  return g_steal_pointer (&arsc);
}

static gboolean
read_from_bytes (gpointer   user_data,
                 guint64    offset,
                 gsize      len,
                 guint8    *buf,
                 GError   **error)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (user_data, &size);

  g_assert (offset + len <= size);
  memcpy (buf, p + offset, len);
  return TRUE;
}

AdbscopeArsc *
adbscope_arsc_new_for_bytes (GBytes  *bytes,
                             GError **error)
{
  AdbscopeArsc *arsc;

  g_return_val_if_fail (bytes != NULL, NULL);

  arsc = adbscope_arsc_open (read_from_bytes, bytes, g_bytes_get_size (bytes), error);
  if (arsc != NULL)
    arsc->bytes = g_bytes_ref (bytes);
  return arsc;
}

/* -------------------------------------------------- configuration choice */

typedef struct
{
  char    language[4];
  char    country[4];
  char    script[4];
  guint16 density;
  guint16 sdk;
  gboolean other;   /* a qualifier the request cannot match */
} Config;

/* Two letters, or three packed into two bytes (ResTable_config::unpackLanguageOrRegion). */
static void
unpack_locale_part (const guint8 *in,
                    char          base,
                    char         *out)
{
  memset (out, 0, 4);
  if (in[0] & 0x80)
    {
      out[0] = base + (in[1] & 0x1f);
      out[1] = base + ((in[1] & 0xe0) >> 5) + ((in[0] & 0x03) << 3);
      out[2] = base + ((in[0] & 0x7c) >> 2);
    }
  else if (in[0] != 0)
    {
      out[0] = in[0];
      out[1] = in[1];
    }
}

static void
parse_config (const guint8 *c,
              Config       *out)
{
  guint32 size = _adbscope_rd32 (c);
  guint8 screen_layout = c[28], ui_mode = c[29];

  memset (out, 0, sizeof *out);
  unpack_locale_part (c + 8, 'a', out->language);
  unpack_locale_part (c + 10, '0', out->country);
  if (size >= 40)
    memcpy (out->script, c + 36, 4);
  out->density = _adbscope_rd16 (c + 14);
  out->sdk = _adbscope_rd16 (c + 24);
  out->other =
    _adbscope_rd32 (c + 4) != 0                   /* mcc, mnc */
    || c[12] != 0 || c[13] != 0                   /* orientation, touchscreen */
    || _adbscope_rd32 (c + 16) != 0               /* keyboard, navigation, input flags */
    || _adbscope_rd32 (c + 20) != 0               /* screen width, height */
    || (screen_layout & ~0x40) != 0               /* size, long, RTL (LTR is fine) */
    || (ui_mode & 0x0f) > 1                       /* car, desk, television, watch, vr */
    || (ui_mode & 0x30) == 0x20                   /* night */
    || _adbscope_rd16 (c + 30) != 0               /* smallest width */
    || _adbscope_rd32 (c + 32) != 0               /* width, height dp */
    || (size >= 52 && (c[48] != 0 || c[49] != 0)); /* round, wide colour gamut, HDR */
}

static gboolean
config_matches (const Config            *c,
                const AdbscopeResConfig *want)
{
  if (c->other)
    return FALSE;
  if (c->language[0] != '\0')
    {
      if (strcmp (c->language, want->language) != 0)
        return FALSE;
      if (c->country[0] != '\0' && strcmp (c->country, want->country) != 0)
        return FALSE;
    }
  if (want->sdk != 0 && c->sdk > want->sdk)
    return FALSE;
  return TRUE;
}

static int
locale_rank (const Config *c)
{
  return (c->language[0] != '\0' ? 2 : 0) + (c->country[0] != '\0' ? 1 : 0);
}

/* ResTable_config::isBetterThan, for the qualifiers that pass config_matches. */
static gboolean
config_better (const Config            *a,
               const Config            *b,
               const AdbscopeResConfig *want)
{
  int la = locale_rank (a), lb = locale_rank (b);

  if (la != lb)
    return la > lb;
  if (a->density != b->density)
    {
      int da = a->density ? a->density : DENSITY_MEDIUM;
      int db = b->density ? b->density : DENSITY_MEDIUM;
      int req = want->density;
      int h = da, l = db;
      gboolean a_bigger = TRUE;

      if (da == ADBSCOPE_RES_DENSITY_ANY)
        return TRUE;
      if (db == ADBSCOPE_RES_DENSITY_ANY)
        return FALSE;
      if (req == 0 || req == ADBSCOPE_RES_DENSITY_ANY)
        req = DENSITY_MEDIUM;
      if (l > h)
        {
          h = db;
          l = da;
          a_bigger = FALSE;
        }
      if (req >= h)
        return a_bigger;
      if (l >= req)
        return !a_bigger;
      /* Scaling down is twice as good as scaling up. */
      if ((gint64) ((2 * l) - req) * h > (gint64) req * req)
        return !a_bigger;
      return a_bigger;
    }
  if (a->sdk != b->sdk && want->sdk != 0)
    return a->sdk > b->sdk;
  return FALSE;
}

/* The entry's offset in type chunk t, or NO_ENTRY. */
static gboolean
entry_offset (AdbscopeArsc    *arsc,
              const TypeChunk *t,
              guint32          entry,
              guint32         *out,
              GError         **error)
{
  guint8 b[4];

  *out = NO_ENTRY;
  if (t->flags & TYPE_FLAG_SPARSE)
    {
      /* Sorted {u16 index, u16 offset / 4}: binary search, 4 bytes a probe. */
      guint32 lo = 0, hi = t->entry_count;

      if ((guint64) t->entry_count * 4 > t->size - t->header_size)
        return fail (error, _("APK: resources.arsc has a damaged type chunk"));
      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;
          guint16 idx;

          if (!rd (arsc, t->offset + t->header_size + 4 * (guint64) mid, 4, b, error))
            return FALSE;
          idx = _adbscope_rd16 (b);
          if (idx == entry)
            {
              *out = 4u * _adbscope_rd16 (b + 2);
              return TRUE;
            }
          if (idx < entry)
            lo = mid + 1;
          else
            hi = mid;
        }
      return TRUE;
    }
  if (entry >= t->entry_count)
    return TRUE;
  if (t->flags & TYPE_FLAG_OFFSET16)
    {
      if (t->header_size + 2 * (guint64) entry + 2 > t->size)
        return fail (error, _("APK: resources.arsc has a damaged type chunk"));
      if (!rd (arsc, t->offset + t->header_size + 2 * (guint64) entry, 2, b, error))
        return FALSE;
      if (_adbscope_rd16 (b) != 0xffff)
        *out = 4u * _adbscope_rd16 (b);
      return TRUE;
    }
  if (t->header_size + 4 * (guint64) entry + 4 > t->size)
    return fail (error, _("APK: resources.arsc has a damaged type chunk"));
  if (!rd (arsc, t->offset + t->header_size + 4 * (guint64) entry, 4, b, error))
    return FALSE;
  *out = _adbscope_rd32 (b);
  return TRUE;
}

/* The simple value of the entry at offset in t: FALSE with no error for a
 * complex (bag) entry, which has no single value. */
static gboolean
entry_value (AdbscopeArsc    *arsc,
             const TypeChunk *t,
             guint32          offset,
             guint8          *type,
             guint32         *data,
             GError         **error)
{
  guint8 e[16];
  guint16 size, flags;

  if ((guint64) t->entries_start + offset + 8 > t->size)
    return fail (error, _("APK: resources.arsc has a damaged entry"));
  if (!rd (arsc, t->offset + t->entries_start + offset, 8, e, error))
    return FALSE;
  size = _adbscope_rd16 (e);
  flags = _adbscope_rd16 (e + 2);
  if (flags & ENTRY_FLAG_COMPACT)
    {
      /* {u16 key, u16 flags with the data type in the high byte, u32 data} */
      *type = flags >> 8;
      *data = _adbscope_rd32 (e + 4);
      return TRUE;
    }
  if (flags & ENTRY_FLAG_COMPLEX)
    return FALSE;
  if (size < 8 || (guint64) t->entries_start + offset + size + 8 > t->size)
    return fail (error, _("APK: resources.arsc has a damaged entry"));
  if (!rd (arsc, t->offset + t->entries_start + offset + size, 8, e + 8, error))
    return FALSE;
  *type = e[8 + 3];
  *data = _adbscope_rd32 (e + 8 + 4);
  return TRUE;
}

static Package *
find_package (AdbscopeArsc *arsc,
              guint32       id)
{
  guint i;

  for (i = 0; i < arsc->packages->len; i++)
    if (g_array_index (arsc->packages, Package, i).id == id)
      return &g_array_index (arsc->packages, Package, i);
  return NULL;
}

gboolean
adbscope_arsc_resolve (AdbscopeArsc            *arsc,
                       guint32                  res_id,
                       const AdbscopeResConfig *config,
                       AdbscopeArscValue       *out,
                       GError                 **error)
{
  guint depth;

  g_return_val_if_fail (arsc != NULL, FALSE);
  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  for (depth = 0; depth < MAX_DEPTH; depth++)
    {
      Package *pkg = find_package (arsc, res_id >> 24);
      guint8 type_id = (res_id >> 16) & 0xff;
      guint32 entry = res_id & 0xffff;
      const TypeChunk *best = NULL;
      Config best_config = { { 0 } };
      guint8 best_type = 0;
      guint32 best_data = 0;
      guint i;

      if (pkg == NULL)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                       _("APK: resource 0x%08x is in a package the table does not hold"), res_id);
          return FALSE;
        }
      if (!walk_package (arsc, pkg, type_id, error))
        return FALSE;
    again:
      for (i = 0; i < pkg->types->len; i++)
        {
          const TypeChunk *t = &g_array_index (pkg->types, TypeChunk, i);
          Config c;
          guint32 offset;
          guint8 vtype;
          guint32 vdata;

          if (t->id != type_id)
            continue;
          parse_config (t->config, &c);
          if (!config_matches (&c, config))
            continue;
          if (best != NULL && !config_better (&c, &best_config, config))
            continue;
          if (!entry_offset (arsc, t, entry, &offset, error))
            return FALSE;
          if (offset == NO_ENTRY)
            continue;
          if (!entry_value (arsc, t, offset, &vtype, &vdata, error))
            {
              if (error != NULL && *error != NULL)
                return FALSE;
              continue;
            }
          best = t;
          best_config = c;
          best_type = vtype;
          best_data = vdata;
        }
      if (best == NULL && pkg->walk_pos + 8 <= pkg->end)
        {
          if (!walk_package (arsc, pkg, G_MAXUINT, error))
            return FALSE;
          goto again;
        }
      if (best == NULL)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("APK: resource 0x%08x has no value for this device"), res_id);
          return FALSE;
        }
      out->res_id = res_id;
      out->density = best_config.density;
      out->data_type = best_type;
      out->data = best_data;
      if (best_type == ADBSCOPE_RES_TYPE_REFERENCE || best_type == ADBSCOPE_RES_TYPE_DYNAMIC_REFERENCE)
        {
          if (best_data == 0)
            {
              g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("APK: resource 0x%08x is @null"), res_id);
              return FALSE;
            }
          res_id = best_data;
          continue;
        }
      if (best_type == ADBSCOPE_RES_TYPE_STRING)
        {
          out->string = global_string (arsc, best_data, error);
          if (out->string == NULL)
            return FALSE;
        }
      return TRUE;
    }
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
               _("APK: resource 0x%08x refers to itself"), res_id);
  return FALSE;
}
