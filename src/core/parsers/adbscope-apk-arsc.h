/* adbscope-apk-arsc.h: resources.arsc, read in place through a callback
 *
 * The table is never read whole: its header, the chunk headers of each
 * package, the type string pool and then, per lookup, the entry offsets,
 * the entries and the strings asked for.  The caller's read function can
 * be a file, a buffer or byte ranges read from a phone.
 */
#pragma once

#include <glib.h>

#include "adbscope-apk.h"

G_BEGIN_DECLS

/* The device configuration to choose resources for.  Empty strings and 0
 * mean "not specified" (as aapt does for its badging). */
typedef struct
{
  char    language[4];   /* "fr", "zh"; Android's legacy "in", "iw", "ji" are mapped */
  char    country[4];    /* "CA", "CN" */
  guint16 density;       /* dpi: 160 mdpi … 640 xxxhdpi; 0 = medium */
  guint16 sdk;           /* 0 = any */
} AdbscopeResConfig;

#define ADBSCOPE_RES_DENSITY_ANY  0xfffe
#define ADBSCOPE_RES_DENSITY_NONE 0xffff

void     adbscope_res_config_set_locale (AdbscopeResConfig *config,
                                         const char        *locale);

typedef struct _AdbscopeArsc AdbscopeArsc;

typedef struct
{
  guint8   data_type;   /* ADBSCOPE_RES_TYPE_* of the final value */
  guint32  data;
  char    *string;      /* for ADBSCOPE_RES_TYPE_STRING: the string (a label, or a file path "res/…") */
  guint32  res_id;      /* the last resource id resolved */
  guint16  density;     /* of the chosen entry's configuration */
} AdbscopeArscValue;

void          adbscope_arsc_value_clear (AdbscopeArscValue *value);

AdbscopeArsc *adbscope_arsc_open        (AdbscopeApkReadFunc  read,
                                         gpointer             user_data,
                                         guint64              size,
                                         GError             **error);
AdbscopeArsc *adbscope_arsc_new_for_bytes (GBytes            *bytes,
                                           GError           **error);
void          adbscope_arsc_free        (AdbscopeArsc        *arsc);
/* Follows references (at most 16) until a value that is not one.  A
 * reference into another package (the framework, 0x01…) that the table
 * does not hold is ADBSCOPE_ERROR_NOT_SUPPORTED. */
gboolean      adbscope_arsc_resolve     (AdbscopeArsc            *arsc,
                                         guint32                  res_id,
                                         const AdbscopeResConfig *config,
                                         AdbscopeArscValue       *out,
                                         GError                 **error);
/* Bytes read through the callback so far (for the numbers in the docs). */
guint64       adbscope_arsc_get_bytes_read (AdbscopeArsc     *arsc);

/* resources.arsc of an APK on disk: read in place when stored (as Android
 * 11 requires), inflated first when deflated (older APKs). */
AdbscopeArsc *adbscope_apk_file_open_resources (AdbscopeApkFile  *apk,
                                                GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeArsc, adbscope_arsc_free)

G_END_DECLS
