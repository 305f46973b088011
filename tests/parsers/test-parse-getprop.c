/* test-parse-getprop.c: getprop dumps from Android 3.2 to 16 */
#include "config.h"

#include "adbscope-parse-getprop.h"
#include "parsers-test-util.h"

typedef struct
{
  const char *fixture;
  guint       n_props;
  int         sdk;
  const char *release;
  const char *model;
  const char *manufacturer;
  const char *abi;
} GetpropCase;

static const GetpropCase cases[] = {
  { "getprop/android3.2.1-asus-tf201.txt", 170, 13, "3.2.1", "TF201", "asus", "armeabi-v7a" },
  { "getprop/android4.0.3-asus-tf201.txt", 175, 15, "4.0.3", "TF201", "asus", "armeabi-v7a" },
  { "getprop/android6.0-emulator-sdk_google_phone_x86_64.txt", 155, 23, "6.0",
    "Android SDK built for x86_64", "unknown", "x86_64" },
  { "getprop/android13-infinix-x670-mediatek.txt", 1644, 33, "13", "Infinix X670", "INFINIX", "arm64-v8a" },
  { "getprop/android13-mtk-mt8168-tablet-bugreport-getprop.txt", 1186, 33, "13",
    "tb8168p1_64_bsp_k510", "AXXS", "arm64-v8a" },
  { "getprop/android14-xiaomi-pad6-pipa-hyperos.txt", 1178, 34, "14", "23043RP34G", "Xiaomi", "arm64-v8a" },
  { "getprop/android15-xiaomi-poco-f6-peridot-hyperos.txt", 1067, 35, "15", "24069PC21I", "Xiaomi", "arm64-v8a" },
  /* saved by PowerShell: UTF-16LE with BOM and CRLF */
  { "getprop/android16-samsung-galaxy-s25plus-sm-s936b-utf16le-crlf.txt", 1582, 36, "16",
    "SM-S936B", "samsung", "arm64-v8a" },
};

static void
test_getprop_fixture (gconstpointer data)
{
  const GetpropCase *c = data;
  gsize len = 0;
  g_autofree char *text = fixture_read (c->fixture, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) props = adbscope_getprop_parse (text, len, &error);
  GHashTableIter iter;
  gpointer key, value;

  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (props), ==, c->n_props);
  g_assert_cmpint (adbscope_getprop_get_sdk (props), ==, c->sdk);
  g_assert_cmpstr (adbscope_getprop_get_release (props), ==, c->release);
  g_assert_cmpstr (adbscope_getprop_get_model (props), ==, c->model);
  g_assert_cmpstr (adbscope_getprop_get_manufacturer (props), ==, c->manufacturer);
  g_assert_cmpstr (adbscope_getprop_get_abi (props), ==, c->abi);

  /* No CR and no bracket left over from the framing. */
  g_hash_table_iter_init (&iter, props);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_null (strchr (key, '\r'));
      g_assert_null (strchr (value, '\r'));
      g_assert_null (strchr (key, '['));
      g_assert_true (g_utf8_validate (value, -1, NULL));
    }
}

static void
test_getprop_multiline_values (void)
{
  g_autofree char *mtk = fixture_read ("getprop/android13-mtk-mt8168-tablet-bugreport-getprop.txt", NULL);
  gsize len = 0;
  g_autofree char *s25 = fixture_read ("getprop/android16-samsung-galaxy-s25plus-sm-s936b-utf16le-crlf.txt", &len);
  g_autofree char *emu = fixture_read ("getprop/android6.0-emulator-sdk_google_phone_x86_64.txt", NULL);
  g_autoptr(GHashTable) a = adbscope_getprop_parse (mtk, -1, NULL);
  g_autoptr(GHashTable) b = adbscope_getprop_parse (s25, len, NULL);
  g_autoptr(GHashTable) c = adbscope_getprop_parse (emu, -1, NULL);

  g_assert_cmpstr (g_hash_table_lookup (a, "persist.sys.boot.reason.history"), ==,
                   "reboot,factory_reset,1765260157\ncold,powerkey,1765260109");
  /* the value is "0" plus a newline */
  g_assert_cmpstr (g_hash_table_lookup (a, "persist.vendor.sys.pq.modeindex"), ==, "0\n");
  g_assert_cmpstr (g_hash_table_lookup (b, "persist.sys.boot.reason.history"), ==,
                   "reboot,1784638255\nreboot,userrequested,1784637108\nreboot,lpm,1784545284");
  g_assert_cmpstr (g_hash_table_lookup (b, "persist.sys.csc_status"), ==, "normal");
  g_assert_cmpstr (g_hash_table_lookup (c, "dalvik.vm.isa.x86.variant"), ==,
                   "dalvik.vm.isa.x86.features=default");
}

static void
test_getprop_edge_values (void)
{
  static const char text[] =
    "\xef\xbb\xbf[empty]: []\n"
    "[brackets]: [a]b]\n"
    "[utf8]: [Galaxy \xe2\x80\x93 S25]\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) p = adbscope_getprop_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (p), ==, 3);
  g_assert_cmpstr (g_hash_table_lookup (p, "empty"), ==, "");
  g_assert_cmpstr (g_hash_table_lookup (p, "brackets"), ==, "a]b");
  g_assert_cmpstr (g_hash_table_lookup (p, "utf8"), ==, "Galaxy – S25");
  g_assert_cmpint (adbscope_getprop_get_sdk (p), ==, -1);
  g_assert_null (adbscope_getprop_get_model (p));
}

static void
test_page_size (void)
{
  guint ps = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (adbscope_parse_page_size ("4096\n", -1, &ps, NULL));
  g_assert_cmpuint (ps, ==, 4096);
  g_assert_true (adbscope_parse_page_size ("16384\r\n", -1, &ps, NULL));
  g_assert_cmpuint (ps, ==, 16384);
  g_assert_false (adbscope_parse_page_size ("4000\n", -1, &ps, &error));
  assert_parse_error (error);
  g_clear_error (&error);
  g_assert_false (adbscope_parse_page_size ("getconf: unknown name\n", -1, &ps, &error));
  assert_parse_error (error);
}

static void
test_getprop_garbage (void)
{
  gsize len = 0;
  g_autofree char *s25 = fixture_read ("getprop/android16-samsung-galaxy-s25plus-sm-s936b-utf16le-crlf.txt", &len);
  static const struct { const char *text; gssize len; } inputs[] = {
    { NULL, -1 },
    { "", -1 },
    { "\n", -1 },
    { "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12 },
    { "lorem ipsum\n", -1 },
    { "[ro.build.version.sdk]: [33", -1 },        /* truncated */
    { "\xff\xfe[\0a\0]\0:\0 \0[\0", 13 },          /* odd UTF-16 length */
    { "[b] [2]\n[a]: [1]\n", -1 },            /* not "[key]: [value]" */
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("input %u", i);
      g_assert_null (adbscope_getprop_parse (inputs[i].text, inputs[i].len, &error));
      assert_parse_error (error);
    }

  /* The UTF-16 capture cut inside its first line (BOM + 10 characters). */
  {
    g_autoptr(GError) error = NULL;

    g_assert_cmpuint (len, >, 22);
    g_assert_null (adbscope_getprop_parse (s25, 22, &error));
    assert_parse_error (error);
  }
}

int
main (int   argc,
      char *argv[])
{
  guint i;

  g_test_init (&argc, &argv, NULL);

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *base = g_path_get_basename (cases[i].fixture);
      g_autofree char *path = g_strdup_printf ("/getprop/fixture/%s", base);

      g_test_add_data_func (path, &cases[i], test_getprop_fixture);
    }
  g_test_add_func ("/getprop/multiline-values", test_getprop_multiline_values);
  g_test_add_func ("/getprop/edge-values", test_getprop_edge_values);
  g_test_add_func ("/getprop/page-size", test_page_size);
  g_test_add_func ("/getprop/garbage", test_getprop_garbage);

  return g_test_run ();
}
