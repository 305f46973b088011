/* adbscope-apk-sig.c: the signing certificate from an APK Signing Block
 * (schemes v2 and v3); see adbscope-apk-sig.h. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-apk.h"
#include "adbscope-apk-sig.h"
#include "adbscope-error.h"

#define MAGIC "APK Sig Block 42"

static guint32
rd32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static guint64
rd64 (const guint8 *p)
{
  return (guint64) rd32 (p) | ((guint64) rd32 (p + 4) << 32);
}

/* A uint32-length-prefixed slice at *pos within [0, len): advances *pos. */
static gboolean
take (const guint8  *buf,
      gsize          len,
      gsize         *pos,
      const guint8 **out,
      gsize         *out_len)
{
  guint32 n;

  if (len - *pos < 4)
    return FALSE;
  n = rd32 (buf + *pos);
  if (n > len - *pos - 4)
    return FALSE;
  *out = buf + *pos + 4;
  *out_len = n;
  *pos += 4 + (gsize) n;
  return TRUE;
}

static gboolean
bad (GError    **error,
     const char *what)
{
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("Malformed APK Signing Block: %s"), what);
  return FALSE;
}

/* signers → first signer → signed data → certificates → first. */
static GBytes *
first_certificate (const guint8  *value,
                   gsize          len,
                   GError       **error)
{
  const guint8 *signers, *signer, *signed_data, *digests, *certs, *cert;
  gsize signers_len, signer_len, signed_len, digests_len, certs_len, cert_len;
  gsize pos = 0;

  if (!take (value, len, &pos, &signers, &signers_len))
    return bad (error, "signers"), NULL;
  pos = 0;
  if (!take (signers, signers_len, &pos, &signer, &signer_len))
    return bad (error, "no signer"), NULL;
  pos = 0;
  if (!take (signer, signer_len, &pos, &signed_data, &signed_len))
    return bad (error, "signed data"), NULL;
  pos = 0;
  if (!take (signed_data, signed_len, &pos, &digests, &digests_len)
      || !take (signed_data, signed_len, &pos, &certs, &certs_len))
    return bad (error, "certificates"), NULL;
  pos = 0;
  if (!take (certs, certs_len, &pos, &cert, &cert_len) || cert_len == 0)
    return bad (error, "no certificate"), NULL;
  return g_bytes_new (cert, cert_len);
}

GBytes *
adbscope_apk_sig_parse_certificate (const guint8  *buf,
                                    gsize          len,
                                    GError       **error)
{
  const guint8 *v2 = NULL, *v3 = NULL;
  gsize v2_len = 0, v3_len = 0;
  guint64 size;
  gsize start, pos;

  if (buf == NULL || len < 32 || memcmp (buf + len - 16, MAGIC, 16) != 0)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("The APK has no APK Signing Block (unsigned, or signed with v1 only)"));
      return NULL;
    }
  size = rd64 (buf + len - 24);
  /* size counts the pairs, the second size and the magic (not the first size) */
  if (size < 24 || size > len - 8)
    return bad (error, "size"), NULL;
  start = len - (gsize) size - 8;
  if (rd64 (buf + start) != size)
    return bad (error, "sizes differ"), NULL;
  pos = start + 8;
  while (pos < len - 24)
    {
      guint64 pair_len;
      guint32 id;

      if (len - 24 - pos < 12)
        return bad (error, "pair"), NULL;
      pair_len = rd64 (buf + pos);
      if (pair_len < 4 || pair_len > len - 24 - pos - 8)
        return bad (error, "pair length"), NULL;
      id = rd32 (buf + pos + 8);
      if (id == ADBSCOPE_APK_SIG_V2_ID && v2 == NULL)
        {
          v2 = buf + pos + 12;
          v2_len = (gsize) pair_len - 4;
        }
      else if (id == ADBSCOPE_APK_SIG_V3_ID && v3 == NULL)
        {
          v3 = buf + pos + 12;
          v3_len = (gsize) pair_len - 4;
        }
      pos += 8 + (gsize) pair_len;
    }
  if (v3 != NULL)
    return first_certificate (v3, v3_len, error);
  if (v2 != NULL)
    return first_certificate (v2, v2_len, error);
  g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                       _("The APK Signing Block has no v2 or v3 signature"));
  return NULL;
}

/* What is read before the central directory at most: signing blocks are a
 * few KiB (a certificate chain or two). */
#define SIG_READ_MAX (1024 * 1024)

char *
adbscope_apk_file_signer_sha256 (const char  *path,
                                 GError     **error)
{
  g_autoptr(GMappedFile) map = g_mapped_file_new (path, FALSE, error);
  g_autoptr(GBytes) cert = NULL;
  AdbscopeZipDirectory dir;
  const guint8 *data;
  gsize size, tail, want;

  if (map == NULL)
    return NULL;
  data = (const guint8 *) g_mapped_file_get_contents (map);
  size = g_mapped_file_get_length (map);
  tail = MIN (size, (gsize) ADBSCOPE_ZIP_TAIL_MAX);
  if (!adbscope_zip_locate_central_directory (data + size - tail, tail, size, &dir, error))
    return NULL;
  if (dir.cd_offset > size)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("The zip directory is past the end"));
      return NULL;
    }
  want = MIN ((gsize) dir.cd_offset, (gsize) SIG_READ_MAX);
  cert = adbscope_apk_sig_parse_certificate (data + dir.cd_offset - want, want, error);
  if (cert == NULL)
    return NULL;
  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, cert);
}
