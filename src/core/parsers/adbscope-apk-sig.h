/* adbscope-apk-sig.h: the signer of an APK, from its APK Signing Block
 *
 * Android compares the signing certificate of an installed package with
 * the one of an update (INSTALL_FAILED_UPDATE_INCOMPATIBLE when they
 * differ).  Schemes v2 and v3 keep the certificates in the APK Signing
 * Block, just before the zip's central directory:
 *
 *   uint64 size, then (uint64 length, uint32 id, value)…, uint64 size,
 *   "APK Sig Block 42"
 *
 * and inside the v3 (0xf05368c0) or v2 (0x7109871a) value: signers →
 * the first signer's signed data → its certificates (X.509 DER), each
 * uint32-length-prefixed.  Pure functions over bytes; the first
 * certificate's SHA-256 identifies the signer.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_APK_SIG_V2_ID 0x7109871au
#define ADBSCOPE_APK_SIG_V3_ID 0xf05368c0u

/* @before_cd: the bytes just before the central directory (the block must
 * fit in them; its end is the end of the buffer).  Returns the first
 * certificate of the v3 signer (or else v2) as a new GBytes; NULL with an
 * ADBSCOPE_ERROR_PARSE error when the APK has no signing block or it is
 * malformed, ADBSCOPE_ERROR_NOT_SUPPORTED when the block has neither
 * scheme (a v1-only, JAR-signed APK). */
GBytes  *adbscope_apk_sig_parse_certificate (const guint8  *before_cd,
                                             gsize          len,
                                             GError       **error);
/* The same on a file: lower-case hex SHA-256 of that certificate. */
char    *adbscope_apk_file_signer_sha256    (const char    *path,
                                             GError       **error);

G_END_DECLS
