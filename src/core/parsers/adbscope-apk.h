/* adbscope-apk.h: the APK reader — a zip's central directory, one entry
 * inflated, and Android's binary XML (AndroidManifest.xml)
 *
 * Pure functions over byte buffers, so the same code reads an APK on disk
 * and one on a phone through byte ranges fetched by the shell layer:
 *
 *   1. the tail of the file (ADBSCOPE_ZIP_TAIL_MAX bytes or the whole file if
 *      smaller) → adbscope_zip_locate_central_directory ()
 *   2. the central directory → adbscope_zip_parse_central_directory ()
 *   3. for one entry, the bytes from its local header on
 *      (adbscope_zip_entry_read_span () says how many) →
 *      adbscope_zip_entry_extract ()
 *   4. AndroidManifest.xml → adbscope_apk_manifest_parse ()
 *
 * adbscope_apk_file_* do the same on a file on disk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* End record (22) + the longest comment (65535) + the zip64 locator (20)
 * and zip64 end record (56) that precede it. */
#define ADBSCOPE_ZIP_TAIL_MAX (22 + 65535 + 20 + 56)

/* Android's own limit for an entry it inflates is far above what a
 * manifest or resource table needs; this bounds memory on hostile input. */
#define ADBSCOPE_ZIP_ENTRY_MAX (256u * 1024 * 1024)

typedef struct
{
  guint64 cd_offset;
  guint64 cd_size;
  guint64 n_entries;
} AdbscopeZipDirectory;

typedef struct
{
  char    *name;           /* as stored (UTF-8 or CP437 bytes, NUL-free) */
  guint16  method;         /* 0 stored, 8 deflated */
  guint16  flags;
  guint32  crc32;
  guint64  compressed_size;
  guint64  size;
  guint64  local_offset;   /* of the local header */
} AdbscopeZipEntry;

void              adbscope_zip_entry_free                 (AdbscopeZipEntry *entry);

gboolean          adbscope_zip_locate_central_directory   (const guint8         *tail,
                                                           gsize                 tail_len,
                                                           guint64               file_size,
                                                           AdbscopeZipDirectory *out,
                                                           GError              **error);
/* An array of AdbscopeZipEntry, in directory order. */
GPtrArray        *adbscope_zip_parse_central_directory    (const guint8         *cd,
                                                           gsize                 cd_len,
                                                           const AdbscopeZipDirectory *dir,
                                                           GError              **error);
const AdbscopeZipEntry *adbscope_zip_find_entry           (GPtrArray            *entries,
                                                           const char           *name);
/* How many bytes to read from entry->local_offset to hold the local header
 * and the data, assuming a local extra field of at most extra_guess bytes
 * (zipalign pads it to a few bytes; when it is longer, the data offset that
 * adbscope_zip_local_header_parse gives says how much more to read). */
guint64           adbscope_zip_entry_read_span            (const AdbscopeZipEntry *entry,
                                                           guint                 extra_guess);
/* header: at least the 30 fixed bytes of the local header.  *data_offset:
 * where the entry's data starts, counted from the local header. */
gboolean          adbscope_zip_local_header_parse         (const guint8         *header,
                                                           gsize                 header_len,
                                                           guint64              *data_offset,
                                                           GError              **error);
/* data: the entry's compressed bytes (at least entry->compressed_size).
 * Returns its content, inflated and checked against its CRC-32; entries
 * larger than max_size are refused. */
GBytes           *adbscope_zip_entry_extract              (const AdbscopeZipEntry *entry,
                                                           const guint8         *data,
                                                           gsize                 data_len,
                                                           gsize                 max_size,
                                                           GError              **error);

/* Res_value::dataType (ResourceTypes.h) */
enum
{
  ADBSCOPE_RES_TYPE_NULL              = 0x00,
  ADBSCOPE_RES_TYPE_REFERENCE         = 0x01,
  ADBSCOPE_RES_TYPE_ATTRIBUTE         = 0x02,
  ADBSCOPE_RES_TYPE_STRING            = 0x03,
  ADBSCOPE_RES_TYPE_FLOAT             = 0x04,
  ADBSCOPE_RES_TYPE_DIMENSION         = 0x05,
  ADBSCOPE_RES_TYPE_FRACTION          = 0x06,
  ADBSCOPE_RES_TYPE_DYNAMIC_REFERENCE = 0x07,
  ADBSCOPE_RES_TYPE_DYNAMIC_ATTRIBUTE = 0x08,
  ADBSCOPE_RES_TYPE_INT_DEC           = 0x10,
  ADBSCOPE_RES_TYPE_INT_HEX           = 0x11,
  ADBSCOPE_RES_TYPE_INT_BOOLEAN       = 0x12,
  ADBSCOPE_RES_TYPE_INT_COLOR_ARGB8   = 0x1c,
  ADBSCOPE_RES_TYPE_INT_COLOR_RGB8    = 0x1d,
  ADBSCOPE_RES_TYPE_INT_COLOR_ARGB4   = 0x1e,
  ADBSCOPE_RES_TYPE_INT_COLOR_RGB4    = 0x1f,
};

/* A manifest attribute's value as the binary XML holds it. */
typedef enum
{
  ADBSCOPE_APK_VALUE_NONE,       /* attribute absent */
  ADBSCOPE_APK_VALUE_STRING,     /* a literal: string */
  ADBSCOPE_APK_VALUE_REFERENCE,  /* @0xPPTTEEEE: res_id */
  ADBSCOPE_APK_VALUE_OTHER,      /* an int, a boolean, a theme attribute…: data */
} AdbscopeApkValueKind;

typedef struct
{
  AdbscopeApkValueKind kind;
  char                *string;
  guint32              res_id;
  guint8               data_type;   /* Res_value::dataType */
  guint32              data;
} AdbscopeApkValue;

typedef struct
{
  char             *package;
  gint64            version_code;   /* versionCodeMajor << 32 | versionCode; -1 if absent */
  char             *version_name;   /* literal only; NULL if absent or a reference */
  AdbscopeApkValue  version_name_value;
  gint              min_sdk;        /* -1 if absent */
  gint              target_sdk;     /* -1 if absent */
  AdbscopeApkValue  label;          /* <application android:label> */
  AdbscopeApkValue  icon;           /* <application android:icon> */
  AdbscopeApkValue  round_icon;     /* <application android:roundIcon> */
} AdbscopeApkManifest;

void                 adbscope_apk_manifest_free  (AdbscopeApkManifest *manifest);
AdbscopeApkManifest *adbscope_apk_manifest_parse (const guint8 *data,
                                                  gsize         len,
                                                  GError      **error);

/* Any binary XML file under res/ as a tree of elements. */
typedef struct
{
  guint32          res_id;    /* from the resource map, else 0 */
  char            *name;
  gboolean         android;   /* in the android namespace */
  AdbscopeApkValue value;
} AdbscopeAxmlAttr;

typedef struct _AdbscopeAxmlNode AdbscopeAxmlNode;
struct _AdbscopeAxmlNode
{
  char             *name;
  AdbscopeAxmlAttr *attrs;
  guint             n_attrs;
  GPtrArray        *children;   /* AdbscopeAxmlNode */
};

AdbscopeAxmlNode       *adbscope_axml_parse         (const guint8           *data,
                                                     gsize                   len,
                                                     GError                **error);
void                    adbscope_axml_node_free     (AdbscopeAxmlNode       *node);
/* By resource id; by android:name when res_id is 0 or the file has no
 * resource map entry for the attribute. */
const AdbscopeApkValue *adbscope_axml_node_get_attr (const AdbscopeAxmlNode *node,
                                                     guint32                 res_id,
                                                     const char             *android_name);

/* Binary XML string pools (also used by resources.arsc).  Offsets are
 * checked against the chunk; strings come back as UTF-8. */
typedef struct
{
  const guint8 *chunk;
  gsize         chunk_len;
  guint32       count;
  gboolean      utf8;
  const guint8 *offsets;
  const guint8 *strings;
  gsize         strings_len;
} AdbscopeApkStringPool;

gboolean  adbscope_apk_string_pool_init (AdbscopeApkStringPool *pool,
                                         const guint8          *chunk,
                                         gsize                  chunk_len,
                                         GError               **error);
/* NULL (and error) when index is out of range or the string is malformed. */
char     *adbscope_apk_string_pool_get  (const AdbscopeApkStringPool *pool,
                                         guint32                      index,
                                         GError                     **error);

/* Fills buf with len bytes at offset, or fails. */
typedef gboolean (*AdbscopeApkReadFunc) (gpointer   user_data,
                                         guint64    offset,
                                         gsize      len,
                                         guint8    *buf,
                                         GError   **error);

/* An APK on disk, or anywhere a read function reaches (byte ranges from a
 * phone): reads only the tail, the directory and the entries asked for. */
typedef struct _AdbscopeApkFile AdbscopeApkFile;

AdbscopeApkFile     *adbscope_apk_file_open          (const char       *path,
                                                      GError          **error);
/* name is for messages. */
AdbscopeApkFile     *adbscope_apk_file_new_for_reader (AdbscopeApkReadFunc read,
                                                      gpointer          user_data,
                                                      GDestroyNotify    user_data_free,
                                                      guint64           size,
                                                      const char       *name,
                                                      GError          **error);
void                 adbscope_apk_file_free          (AdbscopeApkFile  *apk);
GPtrArray           *adbscope_apk_file_get_entries   (AdbscopeApkFile  *apk);
GBytes              *adbscope_apk_file_read_entry    (AdbscopeApkFile  *apk,
                                                      const char       *name,
                                                      GError          **error);
AdbscopeApkManifest *adbscope_apk_file_read_manifest (AdbscopeApkFile  *apk,
                                                      GError          **error);
/* Open, read the manifest, close. */
AdbscopeApkManifest *adbscope_apk_read_manifest      (const char       *path,
                                                      GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeZipEntry, adbscope_zip_entry_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeApkManifest, adbscope_apk_manifest_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeApkFile, adbscope_apk_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAxmlNode, adbscope_axml_node_free)

G_END_DECLS
