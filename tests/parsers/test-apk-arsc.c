/* test-apk-arsc.c: resources.arsc lookups against `aapt dump badging`
 *
 * badging prints the application label for every locale of the table
 * (application-label-fr:'…') and the icon for every density
 * (application-icon-240:'res/…'); the reader must choose the same.
 */
#include "config.h"

#include <string.h>

#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"
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
badging (const char *path)
{
  const char *argv[] = { "aapt", "dump", "badging", path, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    g_error ("aapt: %s", error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static char *
quoted (const char *p)
{
  const char *end = strrchr (p, '\'');

  g_assert_nonnull (end);
  g_assert_true (end > p);
  return g_strndup (p + 1, end - p - 1);
}

/* Returns the number of badging lines compared. */
static guint
check_apk (const char *path,
           gboolean    want_labels,
           gboolean    want_icons)
{
  g_autofree char *text = badging (path);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, &error);
  g_autoptr(AdbscopeApkManifest) m = NULL;
  g_autoptr(AdbscopeArsc) arsc = NULL;
  guint i, n = 0, n_labels = 0, n_icons = 0, n_pseudo = 0;
  g_autofree char *pseudo = NULL;
  g_autofree char *default_label = NULL;

  g_assert_no_error (error);
  m = adbscope_apk_file_read_manifest (apk, &error);
  g_assert_no_error (error);
  arsc = adbscope_apk_file_open_resources (apk, &error);
  g_assert_no_error (error);

  for (i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "application-label-en-XC:"))
        pseudo = quoted (lines[i] + strlen ("application-label-en-XC:"));
      else if (g_str_has_prefix (lines[i], "application-label:"))
        default_label = quoted (lines[i] + strlen ("application-label:"));
    }

  for (i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      AdbscopeResConfig config = { { 0 } };
      AdbscopeArscValue v = { 0 };
      g_autofree char *want = NULL;

      if (g_str_has_prefix (l, "application-label"))
        {
          const char *colon = strchr (l, ':');

          if (l[strlen ("application-label")] == '-')
            {
              g_autofree char *locale = g_strndup (l + strlen ("application-label-"),
                                                   colon - l - strlen ("application-label-"));
              adbscope_res_config_set_locale (&config, locale);
              /* sr-Latn: a script, which the desktop request never names. */
              if (strchr (locale, '-') != NULL && strlen (strchr (locale, '-')) > 3)
                continue;
              g_assert_cmpstr (config.language, !=, "");
            }
          want = quoted (colon + 1);
          g_assert_cmpint (m->label.kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
          if (!adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error))
            g_error ("%s: %s: %s", path, l, error->message);
          g_assert_cmpint (v.data_type, ==, ADBSCOPE_RES_TYPE_STRING);
          /* aapt answers a bare "en" with the en-XC pseudo-locale (it
           * computes scripts; pseudo-locales are only for a device set to
           * them): the default label is what a desktop in English wants. */
          if (pseudo != NULL && g_strcmp0 (want, pseudo) == 0 && g_strcmp0 (v.string, want) != 0)
            {
              g_assert_cmpstr (v.string, ==, default_label);
              n_pseudo++;
            }
          else if (g_strcmp0 (v.string, want) != 0)
            g_error ("%s: %s: got '%s'", path, l, v.string);
          n_labels++;
        }
      else if (g_str_has_prefix (l, "application-icon-"))
        {
          config.density = g_ascii_strtoull (l + strlen ("application-icon-"), NULL, 10);
          want = quoted (strchr (l, ':') + 1);
          g_assert_cmpint (m->icon.kind, ==, ADBSCOPE_APK_VALUE_REFERENCE);
          if (!adbscope_arsc_resolve (arsc, m->icon.res_id, &config, &v, &error))
            g_error ("%s: %s: %s", path, l, error->message);
          if (g_strcmp0 (v.string, want) != 0)
            g_error ("%s: %s: got '%s'", path, l, v.string);
          n_icons++;
        }
      else
        continue;
      adbscope_arsc_value_clear (&v);
      n++;
    }
  g_assert_true (!want_labels || n_labels > 0);
  g_assert_cmpuint (n_pseudo, <=, 1);
  g_assert_true (!want_icons || n_icons > 0);
  g_test_message ("%s: %u labels, %u icons; %" G_GUINT64_FORMAT " bytes of the table read",
                  path, n_labels, n_icons, adbscope_arsc_get_bytes_read (arsc));
  return n;
}

static void
test_test_apks (void)
{
  const char *names[] = { "labels", "labels-utf16", "labels-utf8xml", "adaptive" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = test_apk (names[i]);

      check_apk (path, TRUE, TRUE);
    }
}

static void
test_framework_res (void)
{
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (FRAMEWORK_RES, NULL);
  g_autoptr(AdbscopeArsc) arsc = adbscope_apk_file_open_resources (apk, NULL);
  guint n = check_apk (FRAMEWORK_RES, TRUE, TRUE);

  /* 141 locales + default, 8 densities */
  g_assert_cmpuint (n, >=, 140);
  /* Read in place: the 31 MB table is never loaded whole. */
  g_assert_nonnull (arsc);
  g_assert_cmpuint (adbscope_arsc_get_bytes_read (arsc), <, 1024 * 1024);
}

static void
test_locales (void)
{
  g_autofree char *path = test_apk ("labels");
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, NULL);
  g_autoptr(AdbscopeApkManifest) m = adbscope_apk_file_read_manifest (apk, NULL);
  g_autoptr(AdbscopeArsc) arsc = adbscope_apk_file_open_resources (apk, NULL);
  /* Desktop locales (LANG) → the table's strings/values-*.xml. */
  const struct { const char *locale; const char *label; } cases[] = {
    { "fr_FR.UTF-8", "Test des étiquettes" },   /* no fr-rFR: the language */
    { "fr_CA", "Test des étiquettes" },
    { "de_DE@euro", "Beschriftungstest" },
    { "zh_CN.UTF-8", "标签测试" },
    { "zh_TW.UTF-8", "Label Test" },            /* zh-rCN does not match TW */
    { "pt_BR", "Teste de rótulos" },
    { "pt_PT", "Label Test" },
    { "en_US.UTF-8", "Label Test" },
    { "C", "Label Test" },
    { NULL, "Label Test" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AdbscopeResConfig config = { { 0 } };
      AdbscopeArscValue v = { 0 };
      g_autoptr(GError) error = NULL;

      adbscope_res_config_set_locale (&config, cases[i].locale);
      g_assert_true (adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (v.string, ==, cases[i].label);
      adbscope_arsc_value_clear (&v);
    }
}

static void
test_bad_table (void)
{
  g_autofree char *path = test_apk ("labels");
  g_autoptr(AdbscopeApkFile) apk = adbscope_apk_file_open (path, NULL);
  g_autoptr(AdbscopeApkManifest) m = adbscope_apk_file_read_manifest (apk, NULL);
  g_autoptr(GBytes) table = adbscope_apk_file_read_entry (apk, "resources.arsc", NULL);
  gsize len;
  const guint8 *orig = g_bytes_get_data (table, &len);
  g_autofree guint8 *buf = g_memdup2 (orig, len);
  GRand *rand = g_rand_new_with_seed (1414);
  AdbscopeResConfig config = { { 0 } };
  gsize cut;
  guint i;

  for (cut = 0; cut < len; cut++)
    {
      g_autoptr(GBytes) b = g_bytes_new_static (orig, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(AdbscopeArsc) arsc = adbscope_arsc_new_for_bytes (b, &error);
      AdbscopeArscValue v = { 0 };

      if (arsc == NULL)
        {
          assert_parse_error (error);
          continue;
        }
      if (!adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error))
        g_assert_nonnull (error);
      adbscope_arsc_value_clear (&v);
    }
  for (i = 0; i < 5000; i++)
    {
      g_autoptr(GBytes) b = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(AdbscopeArsc) arsc = NULL;
      AdbscopeArscValue v = { 0 };

      memcpy (buf, orig, len);
      buf[g_rand_int_range (rand, 0, len)] = g_rand_int_range (rand, 0, 256);
      if (i % 2)
        buf[g_rand_int_range (rand, 0, len)] = 0xff;
      b = g_bytes_new_static (buf, len);
      arsc = adbscope_arsc_new_for_bytes (b, &error);
      if (arsc == NULL)
        {
          g_assert_nonnull (error);
          continue;
        }
      if (adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error))
        g_assert_true (v.string == NULL || g_utf8_validate (v.string, -1, NULL));
      else
        g_assert_nonnull (error);
      adbscope_arsc_value_clear (&v);
    }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/apk/arsc/test-apks", test_test_apks);
  g_test_add_func ("/apk/arsc/framework-res", test_framework_res);
  g_test_add_func ("/apk/arsc/locales", test_locales);
  g_test_add_func ("/apk/arsc/bad", test_bad_table);
  return g_test_run ();
}
