/* adbscope-parse-getprop.h: `getprop` dumps ("[key]: [value]" lines) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* key → value (both UTF-8).  Accepts UTF-8 (with or without BOM) and
 * UTF-16LE/BE with a BOM (a dump saved by Windows PowerShell), LF or CRLF,
 * and values that span lines. */
GHashTable *adbscope_getprop_parse          (const char  *data,
                                             gssize       len,
                                             GError     **error);

/* Helpers over the table; NULL / -1 when the property is missing. */
int         adbscope_getprop_get_sdk        (GHashTable  *props);
const char *adbscope_getprop_get_release    (GHashTable  *props);
const char *adbscope_getprop_get_model      (GHashTable  *props);
const char *adbscope_getprop_get_manufacturer (GHashTable *props);
const char *adbscope_getprop_get_abi        (GHashTable  *props);

/* `getconf PAGE_SIZE` output: a power of two between 4 KiB and 64 KiB. */
gboolean    adbscope_parse_page_size        (const char  *text,
                                             gssize       len,
                                             guint       *page_size,
                                             GError     **error);

G_END_DECLS
