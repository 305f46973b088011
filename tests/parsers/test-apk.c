/* test-apk.c: the APK reader (zip directory, entries, binary XML manifest)
 *
 * The APKs are built by Debian's aapt (tests/apk/build-test-apks.sh) plus
 * android-framework-res's framework-res.apk; `aapt dump badging`, `aapt
 * dump xmltree` and Python's zipfile on the same files are the oracles.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "adbscope-apk.h"
#include "parsers-test-util.h"

#define FRAMEWORK_RES "/usr/share/android-framework-res/framework-res.apk"

static char *
test_apk (const char *name)
{
  const char *dir = g_getenv ("ADBSCOPE_TEST_APKS");

  if (dir == NULL)
    g_error ("ADBSCOPE_TEST_APKS is not set; run through meson test");
  return g_strdup_printf ("%s/%s.apk", dir, name);
}

static char *
run_tool (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s %s failed: %s\n%s", argv[0], argv[1], error->message, err);
  return out;
}

/* The value of NAME='…' on the badging "package:" line. */
static char *
badging_field (const char *badging,
               const char *name)
{
  g_autofree char *key = g_strdup_printf (" %s='", name);
  const char *line = strstr (badging, "package:");
  const char *p, *end;

  g_assert_nonnull (line);
  p = strstr (line, key);
  g_assert_nonnull (p);
  p += strlen (key);
  end = strchr (p, '\'');
  g_assert_nonnull (end);
  return g_strndup (p, end - p);
}

/* The text after '=' of attribute ATTR ("android:label") directly on
 * element ELEMENT in `aapt dump xmltree`, or NULL. */
static char *
xmltree_attr (const char *tree,
              const char *element,
              const char *attr)
{
  g_auto(GStrv) lines = g_strsplit (tree, "\n", -1);
  g_autofree char *elem_tag = g_strdup_printf ("E: %s ", element);
  g_autofree char *attr_tag = g_strdup_printf ("A: %s", attr);
  guint i;

  for (i = 0; lines[i] != NULL; i++)
    {
      const char *e = strstr (lines[i], elem_tag);
      gsize indent;
      guint j;

      if (e == NULL)
        continue;
      indent = e - lines[i];
      for (j = i + 1; lines[j] != NULL; j++)
        {
          const char *a = lines[j] + indent + 2;

          if (strlen (lines[j]) < indent + 2 || strncmp (a, "A: ", 3) != 0)
            break;
          if (g_str_has_prefix (a, attr_tag) && (a[strlen (attr_tag)] == '(' || a[strlen (attr_tag)] == '='))
            return g_strdup (strchr (a, '=') + 1);
        }
      return NULL;
    }
  return NULL;
}

/* Compare one AdbscopeApkValue with aapt's rendering of it. */
static void
assert_value_matches (const AdbscopeApkValue *v,
                      const char             *aapt)
{
  if (aapt == NULL)
    {
      g_assert_cmpint (v->kind, ==, ADBSCOPE_APK_VALUE_NONE);
      return;
    }
  if (aapt[0] == '@')
    {
      g_autofree char *ref = g_strdup_printf ("@0x%08x", v->res_id);

      g_assert_cmpint (v->kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
      g_assert_cmpstr (ref, ==, aapt);
    }
  else if (aapt[0] == '"')
    {
      const char *end = strstr (aapt, "\" (Raw");
      g_autofree char *s = g_strndup (aapt + 1, end - aapt - 1);

      g_assert_nonnull (end);
      g_assert_cmpint (v->kind, ==, ADBSCOPE_APK_VALUE_STRING);
      g_assert_cmpstr (v->string, ==, s);
    }
  else
    g_assert_cmpint (v->kind, ==, ADBSCOPE_APK_VALUE_OTHER);
}

static void
check_against_aapt (const char *path)
{
  const char *badging_argv[] = { "aapt", "dump", "badging", path, NULL };
  const char *tree_argv[] = { "aapt", "dump", "xmltree", path, "AndroidManifest.xml", NULL };
  g_autofree char *badging = run_tool (badging_argv);
  g_autofree char *tree = run_tool (tree_argv);
  g_autofree char *package = badging_field (badging, "name");
  g_autofree char *code = badging_field (badging, "versionCode");
  g_autofree char *vname = NULL;
  g_autofree char *label = xmltree_attr (tree, "application", "android:label");
  g_autofree char *icon = xmltree_attr (tree, "application", "android:icon");
  g_autofree char *round_icon = xmltree_attr (tree, "application", "android:roundIcon");
  g_autofree char *tree_vname = xmltree_attr (tree, "manifest", "android:versionName");
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeApkManifest) m = adbscope_apk_read_manifest (path, &error);

  g_test_message ("%s", path);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_cmpstr (m->package, ==, package);
  if (code[0] == '\0')
    g_assert_cmpint (m->version_code, ==, -1);
  else
    g_assert_cmpint (m->version_code, ==, g_ascii_strtoll (code, NULL, 10));
  /* badging resolves a versionName reference; the manifest holds the id. */
  assert_value_matches (&m->version_name_value, tree_vname);
  if (m->version_name_value.kind == ADBSCOPE_APK_VALUE_STRING)
    {
      vname = badging_field (badging, "versionName");
      g_assert_cmpstr (m->version_name, ==, vname);
    }
  else
    g_assert_null (m->version_name);
  assert_value_matches (&m->label, label);
  assert_value_matches (&m->icon, icon);
  assert_value_matches (&m->round_icon, round_icon);
}

static void
test_manifest_vs_aapt (void)
{
  const char *names[] = { "labels", "labels-utf16", "labels-utf8xml", "literal", "nolabel", "adaptive" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = test_apk (names[i]);

      check_against_aapt (path);
    }
  check_against_aapt (FRAMEWORK_RES);
}

static void
test_manifest_values (void)
{
  g_autofree char *path = test_apk ("labels");
  g_autofree char *lit = test_apk ("literal");
  g_autofree char *none = test_apk ("nolabel");
  g_autoptr(AdbscopeApkManifest) m = adbscope_apk_read_manifest (path, NULL);
  g_autoptr(AdbscopeApkManifest) l = adbscope_apk_read_manifest (lit, NULL);
  g_autoptr(AdbscopeApkManifest) n = adbscope_apk_read_manifest (none, NULL);
  g_autoptr(AdbscopeApkManifest) fw = adbscope_apk_read_manifest (FRAMEWORK_RES, NULL);

  /* Known from the sources in tests/apk (aapt agrees, see above). */
  g_assert_cmpstr (m->package, ==, "org.adbscope.test.labels");
  g_assert_cmpint (m->version_code, ==, 2147483647);
  g_assert_cmpstr (m->version_name, ==, "3.1.4-beta (UTF-8 ✓)");
  g_assert_cmpint (m->min_sdk, ==, 21);
  g_assert_cmpint (m->target_sdk, ==, 34);
  g_assert_cmpint (m->label.kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
  g_assert_cmpuint (m->label.res_id >> 24, ==, 0x7f);
  g_assert_cmpint (m->icon.kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
  g_assert_cmpint (m->round_icon.kind, ==, ADBSCOPE_APK_VALUE_NONE);

  g_assert_cmpint (l->label.kind, ==, ADBSCOPE_APK_VALUE_STRING);
  g_assert_cmpstr (l->label.string, ==, "Literal 😀 Label");
  g_assert_cmpint (l->version_name_value.kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
  g_assert_null (l->version_name);
  g_assert_cmpint (l->min_sdk, ==, -1);

  g_assert_cmpstr (n->package, ==, "org.adbscope.test.nolabel");
  g_assert_cmpint (n->version_code, ==, -1);
  g_assert_null (n->version_name);
  g_assert_cmpint (n->label.kind, ==, ADBSCOPE_APK_VALUE_NONE);
  g_assert_cmpint (n->icon.kind, ==, ADBSCOPE_APK_VALUE_NONE);

  g_assert_cmpstr (fw->package, ==, "android");
}

/* The manifest's first string pool, read by the test itself. */
static guint32
manifest_pool_flags (const char *path)
{
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, NULL);
  g_autoptr(GBytes) xml = adbscope_apk_file_read_entry (apk, "AndroidManifest.xml", NULL);
  const guint8 *p = g_bytes_get_data (xml, NULL);
  guint16 hsize = p[2] | (p[3] << 8);

  return p[hsize + 16] | (p[hsize + 17] << 8);
}

static void
test_manifest_utf8_pool (void)
{
  g_autofree char *p16 = test_apk ("labels");
  g_autofree char *p8 = test_apk ("labels-utf8xml");
  g_autoptr(AdbscopeApkManifest) a = adbscope_apk_read_manifest (p16, NULL);
  g_autoptr(AdbscopeApkManifest) b = adbscope_apk_read_manifest (p8, NULL);

  /* Each file really has the encoding it claims to test. */
  g_assert_cmpuint (manifest_pool_flags (p16) & 0x100, ==, 0);
  g_assert_cmpuint (manifest_pool_flags (p8) & 0x100, ==, 0x100);
  g_assert_cmpstr (a->package, ==, b->package);
  g_assert_cmpstr (a->version_name, ==, b->version_name);
  g_assert_cmpint (a->version_code, ==, b->version_code);
  g_assert_cmpuint (a->label.res_id, ==, b->label.res_id);
}

/* Python's zipfile lists name, size, compressed size and CRC of each entry. */
static void
assert_entries_match_python (const char *path)
{
  const char *argv[] = {
    "python3", "-c",
    "import sys, zipfile\n"
    "for i in zipfile.ZipFile(sys.argv[1]).infolist():\n"
    "    print('%s\\t%d\\t%d\\t%08x' % (i.filename, i.file_size, i.compress_size, i.CRC))\n",
    path, NULL
  };
  g_autofree char *listing = run_tool (argv);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, &error);
  g_autoptr(GString) mine = g_string_new (NULL);
  GPtrArray *entries;
  guint i;

  g_assert_no_error (error);
  entries = adbscope_apk_file_get_entries (apk);
  for (i = 0; i < entries->len; i++)
    {
      const AdbscopeZipEntry *e = g_ptr_array_index (entries, i);

      g_string_append_printf (mine, "%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\t%08x\n",
                              e->name, e->size, e->compressed_size, e->crc32);
    }
  g_assert_cmpuint (entries->len, >, 2);
  g_assert_cmpstr (mine->str, ==, listing);
}

static void
test_zip_directory (void)
{
  g_autofree char *labels = test_apk ("labels");
  g_autofree char *zip64 = test_apk ("labels-zip64");

  assert_entries_match_python (labels);
  assert_entries_match_python (zip64);
  assert_entries_match_python (FRAMEWORK_RES);
}

/* Every entry inflates and passes its CRC; zip64 and the long comment
 * change nothing of the content. */
static void
test_zip_entries (void)
{
  g_autofree char *labels = test_apk ("labels");
  g_autofree char *zip64 = test_apk ("labels-zip64");
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(AdbscopeApkFile) a = adbscope_apk_file_open (labels, NULL);
  g_autoptr(AdbscopeApkFile) b = adbscope_apk_file_open (zip64, NULL);
  g_autoptr(AdbscopeApkFile) fw = adbscope_apk_file_open (FRAMEWORK_RES, NULL);
  GPtrArray *entries;
  guint i, n_deflated = 0, n_stored = 0;

  /* The repacked file really has a zip64 end record. */
  g_assert_true (g_file_get_contents (zip64, &data, &len, NULL));
  g_assert_nonnull (memmem (data, len, "PK\x06\x06", 4));
  g_assert_nonnull (memmem (data, len, "PK\x06\x07", 4));

  entries = adbscope_apk_file_get_entries (a);
  for (i = 0; i < entries->len; i++)
    {
      const AdbscopeZipEntry *e = g_ptr_array_index (entries, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) x = adbscope_apk_file_read_entry (a, e->name, &error);
      g_autoptr(GBytes) y = NULL;

      g_assert_no_error (error);
      y = adbscope_apk_file_read_entry (b, e->name, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (x, y));
      g_assert_cmpuint (g_bytes_get_size (x), ==, e->size);
    }

  entries = adbscope_apk_file_get_entries (fw);
  g_assert_cmpuint (entries->len, >, 1000);
  for (i = 0; i < entries->len; i++)
    {
      const AdbscopeZipEntry *e = g_ptr_array_index (entries, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) x = adbscope_apk_file_read_entry (fw, e->name, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (g_bytes_get_size (x), ==, e->size);
      if (e->method == 8)
        n_deflated++;
      else
        n_stored++;
    }
  g_assert_cmpuint (n_deflated, >, 100);
  g_assert_cmpuint (n_stored, >, 100);
}

static void
test_bad_files (void)
{
  g_autofree char *labels = test_apk ("labels");
  g_autofree char *data = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("adbscope-apk-XXXXXX", NULL);
  g_autofree char *tmp = g_build_filename (tmpdir, "bad.apk", NULL);
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (labels, NULL);
  const AdbscopeZipEntry *manifest_entry;
  gsize len, cut;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeApkManifest) m = NULL;

  m = adbscope_apk_read_manifest ("/nonexistent/x.apk", &error);
  g_assert_null (m);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_clear_error (&error);

  m = adbscope_apk_read_manifest (tmpdir, &error);
  g_assert_null (m);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (tmp, "", 0, NULL));
  m = adbscope_apk_read_manifest (tmp, &error);
  g_assert_null (m);
  assert_parse_error (error);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (tmp, "hello, this is not a zip file at all", -1, NULL));
  m = adbscope_apk_read_manifest (tmp, &error);
  g_assert_null (m);
  assert_parse_error (error);
  g_assert_nonnull (strstr (error->message, tmp));
  g_clear_error (&error);

  /* A valid zip without a manifest. */
  {
    const char *argv[] = { "python3", "-c",
                           "import sys, zipfile\n"
                           "zipfile.ZipFile(sys.argv[1], 'w').writestr('a.txt', 'x' * 1000)\n",
                           tmp, NULL };
    g_free (run_tool (argv));
    m = adbscope_apk_read_manifest (tmp, &error);
    g_assert_null (m);
    assert_parse_error (error);
    g_assert_nonnull (strstr (error->message, "AndroidManifest.xml"));
    g_clear_error (&error);
  }

  /* Every truncation of a real APK fails cleanly. */
  g_assert_true (g_file_get_contents (labels, &data, &len, NULL));
  for (cut = 0; cut < len; cut += (cut < 64 || len - cut < 64) ? 1 : 97)
    {
      g_assert_true (g_file_set_contents (tmp, data, cut, NULL));
      m = adbscope_apk_read_manifest (tmp, &error);
      g_assert_null (m);
      g_assert_nonnull (error);
      g_clear_error (&error);
    }

  /* One flipped bit in the manifest's compressed data: CRC or inflate. */
  manifest_entry = adbscope_zip_find_entry (adbscope_apk_file_get_entries (apk), "AndroidManifest.xml");
  g_assert_nonnull (manifest_entry);
  g_assert_cmpint (manifest_entry->method, ==, 8);
  {
    guint64 off = manifest_entry->local_offset + 30 + strlen ("AndroidManifest.xml")
                  + manifest_entry->compressed_size / 2;
    data[off] ^= 0x10;
    g_assert_true (g_file_set_contents (tmp, data, len, NULL));
    m = adbscope_apk_read_manifest (tmp, &error);
    g_assert_null (m);
    assert_parse_error (error);
    g_clear_error (&error);
    data[off] ^= 0x10;
  }

  g_unlink (tmp);
  g_rmdir (tmpdir);
}

static GBytes *
read_manifest_bytes (const char *path)
{
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, NULL);

  return adbscope_apk_file_read_entry (apk, "AndroidManifest.xml", NULL);
}

/* Truncated and mutated binary XML: an error or a result, never a crash
 * (the sanitizer build and fuzz-apk check the memory side). */
static void
test_bad_manifest (void)
{
  g_autofree char *labels = test_apk ("labels");
  g_autofree char *labels8 = test_apk ("labels-utf8xml");
  const char *paths[] = { labels, labels8 };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (paths); k++)
    {
      g_autoptr(GBytes) xml = read_manifest_bytes (paths[k]);
      gsize len;
      const guint8 *orig = g_bytes_get_data (xml, &len);
      g_autofree guint8 *buf = g_memdup2 (orig, len);
      GRand *rand = g_rand_new_with_seed (14 + k);
      gsize cut;
      guint i;

      for (cut = 0; cut < len; cut++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(AdbscopeApkManifest) m = adbscope_apk_manifest_parse (orig, cut, &error);

          /* Chunks after the <application> start are not needed. */
          if (m == NULL)
            assert_parse_error (error);
        }
      for (i = 0; i < 5000; i++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(AdbscopeApkManifest) m = NULL;
          gsize at = g_rand_int_range (rand, 0, len);

          memcpy (buf, orig, len);
          buf[at] = g_rand_int_range (rand, 0, 256);
          if (i % 3 == 0)
            buf[g_rand_int_range (rand, 0, len)] = 0xff;
          m = adbscope_apk_manifest_parse (buf, len, &error);
          g_assert_true ((m == NULL) == (error != NULL));
        }
      g_rand_free (rand);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AdbscopeApkManifest) m = adbscope_apk_manifest_parse ((const guint8 *) "<manifest/>", 11, &error);

    g_assert_null (m);
    assert_parse_error (error);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/apk/manifest/vs-aapt", test_manifest_vs_aapt);
  g_test_add_func ("/apk/manifest/values", test_manifest_values);
  g_test_add_func ("/apk/manifest/utf8-pool", test_manifest_utf8_pool);
  g_test_add_func ("/apk/manifest/bad", test_bad_manifest);
  g_test_add_func ("/apk/zip/directory", test_zip_directory);
  g_test_add_func ("/apk/zip/entries", test_zip_entries);
  g_test_add_func ("/apk/zip/bad", test_bad_files);
  return g_test_run ();
}
