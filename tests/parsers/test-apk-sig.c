/* test-apk-sig.c: the signer from the APK Signing Block — synthetic
 * blocks (v2, v3 before v2, none), every truncation and byte flip of one
 * without a crash, and real APKs signed by apksigner, whose own
 * `apksigner verify --print-certs` is the oracle. */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "adbscope-apk-sig.h"
#include "adbscope-error.h"

static void
put32 (GByteArray *a,
       guint32     v)
{
  guint8 b[4] = { v, v >> 8, v >> 16, v >> 24 };

  g_byte_array_append (a, b, 4);
}

static void
put64 (GByteArray *a,
       guint64     v)
{
  put32 (a, (guint32) v);
  put32 (a, (guint32) (v >> 32));
}

/* length-prefixed */
static void
put_lp (GByteArray *a,
        GByteArray *inner)
{
  put32 (a, inner->len);
  g_byte_array_append (a, inner->data, inner->len);
}

/* signers → signer → signed data (digests, certificates [cert]) */
static GByteArray *
scheme_value (const char *cert)
{
  g_autoptr(GByteArray) certs = g_byte_array_new ();
  g_autoptr(GByteArray) one = g_byte_array_new ();
  g_autoptr(GByteArray) signed_data = g_byte_array_new ();
  g_autoptr(GByteArray) digests = g_byte_array_new ();
  g_autoptr(GByteArray) signer = g_byte_array_new ();
  g_autoptr(GByteArray) signers = g_byte_array_new ();
  GByteArray *value = g_byte_array_new ();

  g_byte_array_append (one, (const guint8 *) cert, strlen (cert));
  put_lp (certs, one);
  put_lp (signed_data, digests);
  put_lp (signed_data, certs);
  put_lp (signer, signed_data);
  put32 (signer, 0);              /* signatures */
  put32 (signer, 0);              /* public key */
  put_lp (signers, signer);
  put_lp (value, signers);
  return value;
}

/* Some zip data, then the block ending where the central directory starts. */
static GByteArray *
block (const char *v2_cert,
       const char *v3_cert)
{
  g_autoptr(GByteArray) pairs = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();
  const char *ids_certs[2] = { v2_cert, v3_cert };
  const guint32 ids[2] = { ADBSCOPE_APK_SIG_V2_ID, ADBSCOPE_APK_SIG_V3_ID };

  /* an unrelated pair first (a padding block, as apksigner writes) */
  put64 (pairs, 4 + 3);
  put32 (pairs, 0x42726577);
  g_byte_array_append (pairs, (const guint8 *) "pad", 3);
  for (guint i = 0; i < 2; i++)
    if (ids_certs[i] != NULL)
      {
        g_autoptr(GByteArray) v = scheme_value (ids_certs[i]);

        put64 (pairs, 4 + (guint64) v->len);
        put32 (pairs, ids[i]);
        g_byte_array_append (pairs, v->data, v->len);
      }
  g_byte_array_append (out, (const guint8 *) "PK\3\4 local entries", 19);
  put64 (out, pairs->len + 24);
  g_byte_array_append (out, pairs->data, pairs->len);
  put64 (out, pairs->len + 24);
  g_byte_array_append (out, (const guint8 *) "APK Sig Block 42", 16);
  return out;
}

static void
test_synthetic (void)
{
  g_autoptr(GByteArray) b2 = block ("cert-two", NULL);
  g_autoptr(GByteArray) b23 = block ("cert-two", "cert-three");
  g_autoptr(GByteArray) none = block (NULL, NULL);
  g_autoptr(GBytes) c = NULL;
  g_autoptr(GError) error = NULL;

  c = adbscope_apk_sig_parse_certificate (b2->data, b2->len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (c, NULL), g_bytes_get_size (c), "cert-two", 8);
  g_clear_pointer (&c, g_bytes_unref);

  /* v3 wins (v3.1 key rotation aside, it names the current signer) */
  c = adbscope_apk_sig_parse_certificate (b23->data, b23->len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (c, NULL), g_bytes_get_size (c), "cert-three", 10);
  g_clear_pointer (&c, g_bytes_unref);

  g_assert_null (adbscope_apk_sig_parse_certificate (none->data, none->len, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* no block at all: an unsigned (aapt) APK */
  g_assert_null (adbscope_apk_sig_parse_certificate ((const guint8 *) "PK\3\4 only data here, nothing else", 34, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);
}

/* A small fuzz: every suffix (the block cut at its start) and every byte
 * flipped; each either parses or fails cleanly (ASan/valgrind watch). */
static void
test_damaged (void)
{
  g_autoptr(GByteArray) b = block ("cert-two", "cert-three");
  guint ok = 0, failed = 0;

  for (gsize cut = 0; cut <= b->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (b->data + cut, b->len - cut);
      GError *error = NULL;
      GBytes *c = adbscope_apk_sig_parse_certificate (copy, b->len - cut, &error);

      if (c) ok++; else failed++;
      g_assert_true ((c == NULL) == (error != NULL));
      g_clear_pointer (&c, g_bytes_unref);
      g_clear_error (&error);
    }
  for (gsize i = 0; i < b->len; i++)
    for (guint bit = 0; bit < 8; bit += 3)
      {
        g_autofree guint8 *copy = g_memdup2 (b->data, b->len);
        GError *error = NULL;
        GBytes *c;

        copy[i] ^= (guint8) (1u << bit);
        c = adbscope_apk_sig_parse_certificate (copy, b->len, &error);
        if (c) ok++; else failed++;
        g_assert_true ((c == NULL) == (error != NULL));
        g_clear_pointer (&c, g_bytes_unref);
        g_clear_error (&error);
      }
  g_test_message ("%u parsed, %u refused", ok, failed);
  g_assert_cmpuint (failed, >, 0);
  g_assert_cmpuint (ok, >, 0);
}

static char *
build_signed (const char *dir,
              const char *name,
              const char *keystore)
{
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "apk", "build-signed-apk.sh", NULL);
  char *out = g_build_filename (dir, name, NULL);
  g_autofree char *ks = g_build_filename (dir, keystore, NULL);
  const char *argv[] = { script, out, "io.github.adbscope.agent", "100", "26", ks, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("build-signed-apk.sh: %s", err);
  return out;
}

/* apksigner's own word for the first signer's certificate digest. */
static char *
apksigner_sha256 (const char *apk)
{
  const char *argv[] = { "apksigner", "verify", "--print-certs", apk, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *key = "Signer #1 certificate SHA-256 digest: ";
  const char *p;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                &out, NULL, NULL, &error);
  g_assert_no_error (error);
  p = strstr (out, key);
  g_assert_nonnull (p);
  return g_strndup (p + strlen (key), 64);
}

static void
test_real (void)
{
  g_autofree char *dir = g_dir_make_tmp ("adbscope-apk-sig-XXXXXX", NULL);
  g_autofree char *a1 = NULL, *a2 = NULL, *b1 = NULL;
  g_autofree char *sa1 = NULL, *sa2 = NULL, *sb1 = NULL, *oracle = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *unsigned_apk = g_build_filename (g_getenv ("ADBSCOPE_TEST_APKS"), "literal.apk", NULL);
  g_autofree char *cmd = NULL;
  g_autofree char *apksigner = g_find_program_in_path ("apksigner");

  if (apksigner == NULL)
    {
      g_test_skip ("apksigner is missing (build-aux/debian-packages.txt)");
      return;
    }
  a1 = build_signed (dir, "a1.apk", "a.jks");
  a2 = build_signed (dir, "a2.apk", "a.jks");
  b1 = build_signed (dir, "b1.apk", "b.jks");
  sa1 = adbscope_apk_file_signer_sha256 (a1, &error);
  g_assert_no_error (error);
  sa2 = adbscope_apk_file_signer_sha256 (a2, &error);
  g_assert_no_error (error);
  sb1 = adbscope_apk_file_signer_sha256 (b1, &error);
  g_assert_no_error (error);
  oracle = apksigner_sha256 (a1);
  g_assert_cmpstr (sa1, ==, oracle);
  g_assert_cmpstr (sa1, ==, sa2);          /* same key */
  g_assert_cmpstr (sa1, !=, sb1);          /* another key */
  g_clear_pointer (&oracle, g_free);
  oracle = apksigner_sha256 (b1);
  g_assert_cmpstr (sb1, ==, oracle);

  /* aapt's unsigned output has no block */
  g_assert_null (adbscope_apk_file_signer_sha256 (unsigned_apk, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/apk-sig/synthetic", test_synthetic);
  g_test_add_func ("/apk-sig/damaged", test_damaged);
  g_test_add_func ("/apk-sig/real", test_real);
  return g_test_run ();
}
