/* adbscope-apk-private.h: little-endian reads and helpers shared by the
 * APK reader's files */
#pragma once

#include <glib.h>
#include <string.h>

#include "adbscope-apk.h"

G_BEGIN_DECLS

static inline guint16
_adbscope_rd16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
_adbscope_rd32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline guint64
_adbscope_rd64 (const guint8 *p)
{
  return (guint64) _adbscope_rd32 (p) | ((guint64) _adbscope_rd32 (p + 4) << 32);
}

guint32 _adbscope_crc32            (const guint8     *data,
                                    gsize             len);
void    _adbscope_apk_value_clear  (AdbscopeApkValue *value);
char   *_adbscope_utf16le_to_utf8  (const guint8     *p,
                                    gsize             n_units);

typedef struct _AdbscopeArsc AdbscopeArsc;
void    _adbscope_arsc_set_user_data_free (AdbscopeArsc  *arsc,
                                           GDestroyNotify free_func);

G_END_DECLS
