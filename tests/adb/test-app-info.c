/* test-app-info.c: labels and icons read from APKs on the simulated device
 *
 * The sim serves the aapt-built test APKs and framework-res.apk as installed
 * apps (`sim --apk`).  Truth comes from outside the code under test: the
 * local files read directly, `aapt dump badging` for labels, the colours
 * the test APK builder painted for each density.
 */
#include "config.h"

#include <cairo.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>

#include "adbscope-adb.h"
#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"
#include "adbscope-apk-remote.h"
#include "adbscope-app.h"
#include "adbscope-app-icon.h"
#include "adbscope-app-info.h"
#include "adbscope-app-list.h"
#include "adbscope-test-device.h"

#define FRAMEWORK_RES "/usr/share/android-framework-res/framework-res.apk"

static AdbscopeTestDevice *dev;
static char *cache_dir;
static char *zip64_path;   /* on the device, not an installed app */
static char *framework_path;

static char *
test_apk (const char *name)
{
  return g_strdup_printf ("%s/%s.apk", g_getenv ("ADBSCOPE_TEST_APKS"), name);
}

static char *
run (const char * const *argv,
     const char * const *envp)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, (char **) envp, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    g_error ("%s: %s", argv[0], error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* The label aapt would show for a locale ("fr"), else the default one. */
static char *
aapt_label (const char *path,
            const char *locale)
{
  const char *argv[] = { "aapt", "dump", "badging", path, NULL };
  g_autofree char *text = run (argv, NULL);
  g_autofree char *key = g_strdup_printf ("\napplication-label-%s:'", locale);
  const char *p = strstr (text, key);

  if (p == NULL)
    {
      p = strstr (text, "\napplication-label:'");
      if (p == NULL)
        return NULL;
      p += strlen ("\napplication-label:'");
    }
  else
    p += strlen (key);
  return g_strndup (p, strchr (p, '\n') - p - 1);
}

static char *
device_path (const char *package)
{
  g_autofree char *out = adbscope_test_device_adb (dev, NULL, "shell", "pm", "path", package, NULL);

  g_assert_true (g_str_has_prefix (out, "package:"));
  return g_strdup (g_strstrip (out + strlen ("package:")));
}

/* Reading in place through adb gives the same entries and bytes as the
 * local file. */
static void
test_remote_reader (void)
{
  const char *names[] = { "labels", "literal", "adaptive", "labels-zip64" };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *local = test_apk (names[i]);
      g_autoptr(AdbscopeApkFile) file = adbscope_apk_file_open (local, NULL);
      g_autoptr(AdbscopeApkManifest) m = adbscope_apk_file_read_manifest (file, NULL);
      g_autofree char *path = i < 3 ? device_path (m->package) : g_strdup (zip64_path);
      GStatBuf st;
      AdbscopeApkRemote *remote;
      g_autoptr(AdbscopeApkFile) apk = NULL;
      g_autoptr(GError) error = NULL;
      GPtrArray *entries;

      g_assert_cmpint (g_stat (local, &st), ==, 0);
      remote = adbscope_apk_remote_new (adbscope_test_device_get_serial (dev), path, st.st_size, NULL);
      apk = adbscope_apk_file_new_for_reader (adbscope_apk_remote_read, remote,
                                              (GDestroyNotify) adbscope_apk_remote_free,
                                              st.st_size, path, &error);
      g_assert_no_error (error);
      entries = adbscope_apk_file_get_entries (file);
      g_assert_cmpuint (adbscope_apk_file_get_entries (apk)->len, ==, entries->len);
      for (j = 0; j < entries->len; j++)
        {
          const AdbscopeZipEntry *e = g_ptr_array_index (entries, j);
          g_autoptr(GBytes) a = adbscope_apk_file_read_entry (file, e->name, NULL);
          g_autoptr(GBytes) b = adbscope_apk_file_read_entry (apk, e->name, &error);

          g_assert_no_error (error);
          g_assert_true (g_bytes_equal (a, b));
        }
    }
}

/* framework-res.apk (31 MB table): the label in French, the icon at 640 dpi,
 * reading a small part of the file. */
static void
test_remote_large_table (void)
{
  const char *path = framework_path;
  g_autofree char *want = aapt_label (FRAMEWORK_RES, "fr");
  AdbscopeApkRemote *remote;
  g_autoptr(AdbscopeApkFile) apk = NULL;
  g_autoptr(AdbscopeApkManifest) m = NULL;
  g_autoptr(AdbscopeArsc) arsc = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeResConfig config = { "fr", "", 0, 0 };
  AdbscopeArscValue v = { 0 };
  GStatBuf st;

  g_assert_cmpint (g_stat (FRAMEWORK_RES, &st), ==, 0);
  remote = adbscope_apk_remote_new (adbscope_test_device_get_serial (dev), path, st.st_size, NULL);
  apk = adbscope_apk_file_new_for_reader (adbscope_apk_remote_read, remote, NULL, st.st_size, path, &error);
  g_assert_no_error (error);
  m = adbscope_apk_file_read_manifest (apk, &error);
  g_assert_no_error (error);
  arsc = adbscope_apk_file_open_resources (apk, &error);
  g_assert_no_error (error);
  g_assert_true (adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error));
  g_assert_cmpstr (v.string, ==, want);
  adbscope_arsc_value_clear (&v);
  config.density = 640;
  g_assert_true (adbscope_arsc_resolve (arsc, m->icon.res_id, &config, &v, &error));
  g_assert_cmpstr (v.string, ==, "res/drawable-xxhdpi-v4/ic_launcher_android.png");
  adbscope_arsc_value_clear (&v);
  g_test_message ("framework-res.apk: %" G_GUINT64_FORMAT " of %" G_GINT64_FORMAT " bytes read in %u requests",
                  adbscope_apk_remote_get_bytes_fetched (remote), (gint64) st.st_size,
                  adbscope_apk_remote_get_n_requests (remote));
  /* Its table has 2208 string configurations: walking their headers reads
   * much of it, still not the whole file. */
  g_assert_cmpuint (adbscope_apk_remote_get_bytes_fetched (remote), <, st.st_size * 2 / 3);
  adbscope_apk_remote_free (remote);
}

/* A 100 MiB APK (a game's assets): label and icon from a few hundred KB. */
static void
test_remote_game (void)
{
  g_autofree char *path = device_path ("org.adbscope.test.game");
  g_autofree char *local = test_apk ("game");
  AdbscopeApkRemote *remote;
  g_autoptr(AdbscopeApkFile) apk = NULL;
  g_autoptr(AdbscopeApkManifest) m = NULL;
  g_autoptr(AdbscopeArsc) arsc = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeResConfig config = { "de", "", 0, 34 };
  AdbscopeArscValue v = { 0 };
  GStatBuf st;

  g_assert_cmpint (g_stat (local, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 100 * 1024 * 1024);
  remote = adbscope_apk_remote_new (adbscope_test_device_get_serial (dev), path, st.st_size, NULL);
  apk = adbscope_apk_file_new_for_reader (adbscope_apk_remote_read, remote, NULL, st.st_size, path, &error);
  g_assert_no_error (error);
  m = adbscope_apk_file_read_manifest (apk, &error);
  g_assert_no_error (error);
  arsc = adbscope_apk_file_open_resources (apk, &error);
  g_assert_no_error (error);
  g_assert_true (adbscope_arsc_resolve (arsc, m->label.res_id, &config, &v, &error));
  g_assert_cmpstr (v.string, ==, "Beschriftungstest");
  adbscope_arsc_value_clear (&v);
  config.density = 640;
  png = adbscope_app_icon_render (apk, arsc, &m->icon, &config, 96, &error);
  g_assert_no_error (error);
  g_test_message ("game.apk: %" G_GUINT64_FORMAT " of %" G_GINT64_FORMAT " bytes read in %u requests",
                  adbscope_apk_remote_get_bytes_fetched (remote), (gint64) st.st_size,
                  adbscope_apk_remote_get_n_requests (remote));
  g_assert_cmpuint (adbscope_apk_remote_get_bytes_fetched (remote), <, 512 * 1024);
  adbscope_apk_remote_free (remote);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
wait_timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until *@result is set; a load that does not finish in
 * a minute (a cached one takes a second) fails here, naming itself, before
 * meson's timeout kills the test without a word (a rare CI hang). */
static void
wait_for (GAsyncResult **result,
          const char    *what)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (60, wait_timed_out, &timed_out);

  while (*result == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (*result == NULL)
    g_error ("%s did not finish within 60 s", what);
  g_source_remove (id);
}

static GListModel *
list_apps (void)
{
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *apps;

  adbscope_app_list_async (adbscope_test_device_get_serial (dev), TRUE, NULL, done_cb, &result);
  wait_for (&result, "the app list");
  apps = adbscope_app_list_finish (result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  return apps;
}

typedef struct
{
  guint n_label;
  guint n_icon;
  guint n_icon_before_all_labels;
  guint n_labels_expected;
} Order;

static void
notify_cb (AdbscopeApp *app,
           GParamSpec  *pspec,
           Order       *order)
{
  if (strcmp (pspec->name, "label") == 0)
    order->n_label++;
  else if (strcmp (pspec->name, "icon") == 0)
    {
      order->n_icon++;
      if (order->n_label < order->n_labels_expected)
        order->n_icon_before_all_labels++;
    }
}

static void
load (GListModel           *apps,
      const char           *locale,
      AdbscopeAppInfoStats *stats,
      Order                *order)
{
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;
  guint i;

  for (i = 0; order != NULL && i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);

      g_signal_connect (app, "notify", G_CALLBACK (notify_cb), order);
    }
  adbscope_app_info_load_async (adbscope_test_device_get_serial (dev), apps, locale, NULL, done_cb, &result);
  wait_for (&result, "the labels and icons");
  g_assert_true (adbscope_app_info_load_finish (result, stats, &error));
  g_assert_no_error (error);
  g_object_unref (result);
  for (i = 0; order != NULL && i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);

      g_signal_handlers_disconnect_by_func (app, notify_cb, order);
    }
}

static AdbscopeApp *
find (GListModel *apps,
      const char *package)
{
  guint i;

  for (i = 0; i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);

      if (strcmp (adbscope_app_get_package (app), package) == 0)
        return app;   /* the model keeps it */
    }
  g_error ("no app %s", package);
}

static guint32
pixel (cairo_surface_t *s,
       int              x,
       int              y)
{
  guint32 v;

  memcpy (&v, cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x, 4);
  return v;
}

/* Colour channels within a tolerance (scaling blurs edges). */
static void
assert_rgb (cairo_surface_t *s,
            int              x,
            int              y,
            guint32          argb)
{
  guint32 v = pixel (s, x, y);
  int c;

  for (c = 0; c < 32; c += 8)
    if (ABS ((int) ((v >> c) & 0xff) - (int) ((argb >> c) & 0xff)) > 12)
      g_error ("pixel %d,%d is %08x, not %08x", x, y, v, argb);
}

static cairo_surface_t *
load_png (AdbscopeApp *app)
{
  cairo_surface_t *s;

  g_assert_nonnull (adbscope_app_get_icon (app));
  s = cairo_image_surface_create_from_png (adbscope_app_get_icon (app));
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, ADBSCOPE_APP_ICON_SIZE);
  return s;
}

static void
test_labels_and_icons (void)
{
  g_autoptr(GListModel) apps = list_apps ();
  g_autoptr(GListModel) again = list_apps ();
  AdbscopeAppInfoStats stats = { 0 };
  Order order = { 0 };
  const char *names[] = { "labels", "literal", "adaptive", "nolabel" };
  cairo_surface_t *s;
  guint i;

  /* labels, literal, adaptive, game */
  order.n_labels_expected = 4;
  load (apps, "fr_FR.UTF-8", &stats, &order);

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *local = test_apk (names[i]);
      g_autoptr(AdbscopeApkManifest) m = adbscope_apk_read_manifest (local, NULL);
      g_autofree char *want = aapt_label (local, "fr");
      AdbscopeApp *app = find (apps, m->package);

      g_assert_cmpstr (adbscope_app_get_label (app), ==, want);
    }
  /* No label: the package name stays, no icon, nothing scary. */
  g_assert_null (adbscope_app_get_label (find (apps, "org.adbscope.test.nolabel")));
  g_assert_null (adbscope_app_get_icon (find (apps, "org.adbscope.test.nolabel")));
  /* pm lists these, but their APKs are not there to read. */
  g_assert_null (adbscope_app_get_label (find (apps, "com.android.settings")));
  g_assert_null (adbscope_app_get_icon (find (apps, "com.android.settings")));
  g_assert_null (adbscope_app_get_icon (find (apps, "io.github.adbscope.demo")));

  /* The best density: xxhdpi, painted purple with a white circle. */
  s = load_png (find (apps, "org.adbscope.test.labels"));
  assert_rgb (s, 2, 2, 0xff800080);
  assert_rgb (s, 48, 48, 0xffffffff);
  cairo_surface_destroy (s);
  /* nodpi orange */
  s = load_png (find (apps, "org.adbscope.test.literal"));
  assert_rgb (s, 2, 2, 0xffffa500);
  cairo_surface_destroy (s);
  /* Adaptive: circular mask, the vector's black stroke across the middle,
   * its green triangle below it, the bitmap background above. */
  s = load_png (find (apps, "org.adbscope.test.adaptive"));
  g_assert_cmpuint (pixel (s, 2, 2) >> 24, ==, 0);
  assert_rgb (s, 48, 48, 0xff000000);
  assert_rgb (s, 48, 62, 0xff3ddc84);
  g_assert_cmpuint (pixel (s, 48, 8) >> 24, ==, 0xff);
  g_assert_cmpuint ((pixel (s, 48, 8) >> 16) & 0xff, >, 200);   /* yellow-orange: red high */
  g_assert_cmpuint (pixel (s, 48, 8) & 0xff, <, 60);            /* no blue */
  cairo_surface_destroy (s);

  /* Names first: every label was out before the first icon. */
  g_assert_cmpuint (order.n_label, >=, 4);
  g_assert_cmpuint (order.n_icon, >=, 4);
  g_assert_cmpuint (order.n_icon_before_all_labels, ==, 0);

  g_test_message ("cold: %u apps, %u read, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes, %u requests",
                  stats.n_apps, stats.n_read, stats.bytes_read, stats.apk_bytes, stats.n_requests);
  g_assert_cmpuint (stats.n_read, ==, 5);
  g_assert_cmpuint (stats.n_cached, ==, 0);
  g_assert_cmpuint (stats.bytes_read, <, stats.apk_bytes / 2);

  /* Second time: all from the cache, nothing read from the device. */
  memset (&stats, 0, sizeof stats);
  load (again, "fr_FR.UTF-8", &stats, NULL);
  g_assert_cmpuint (stats.n_cached, ==, 5);
  g_assert_cmpuint (stats.n_read, ==, 0);
  g_assert_cmpuint (stats.n_requests, ==, 0);
  g_assert_cmpstr (adbscope_app_get_label (find (again, "org.adbscope.test.labels")), ==, "Test des étiquettes");
  g_assert_cmpstr (adbscope_app_get_icon (find (again, "org.adbscope.test.labels")), ==,
                   adbscope_app_get_icon (find (apps, "org.adbscope.test.labels")));

  /* Another locale is another key. */
  memset (&stats, 0, sizeof stats);
  {
    g_autoptr(GListModel) zh = list_apps ();

    load (zh, "zh_CN.UTF-8", &stats, NULL);
    g_assert_cmpuint (stats.n_read, ==, 5);
    g_assert_cmpstr (adbscope_app_get_label (find (zh, "org.adbscope.test.labels")), ==, "标签测试");
  }

  /* An update (new modification time) is read again; the others not. */
  {
    g_autofree char *file = g_build_filename (adbscope_test_device_get_sandbox (dev), "root", "data", "app",
                                              "org.adbscope.test.literal", "base.apk", NULL);
    g_autoptr(GListModel) after = list_apps ();

    g_assert_cmpint (g_utime (file, &(struct utimbuf) { 1000000000, 1000000000 }), ==, 0);
    memset (&stats, 0, sizeof stats);
    load (after, "fr_FR.UTF-8", &stats, NULL);
    g_assert_cmpuint (stats.n_read, ==, 1);
    g_assert_cmpuint (stats.n_cached, ==, 4);
    g_assert_cmpstr (adbscope_app_get_label (find (after, "org.adbscope.test.literal")), ==, "Literal 😀 Label");
  }
}

/* `adbscope apps` prints label and icon for each app. */
static void
test_cli (void)
{
  g_autofree char *cache = g_strdup_printf ("XDG_CACHE_HOME=%s", cache_dir);
  g_autofree char *port = g_strdup_printf ("ANDROID_ADB_SERVER_PORT=%s", g_getenv ("ANDROID_ADB_SERVER_PORT"));
  g_autofree char *home = g_strdup_printf ("HOME=%s", g_get_home_dir ());
  g_autofree char *path = g_strdup_printf ("PATH=%s", g_getenv ("PATH"));
  const char *envp[] = { cache, port, home, path, "LANGUAGE=de", "LC_ALL=C.UTF-8", "ADB_MDNS=0", "ADB_EMU=0", NULL };
  const char *argv[] = { g_getenv ("ADBSCOPE_BIN"), "apps", "-s", adbscope_test_device_get_serial (dev), NULL };
  g_autofree char *out = run (argv, envp);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *list;
  guint i, n_icons = 0;
  gboolean saw_nolabel = FALSE, saw_labels = FALSE, saw_literal = FALSE;

  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  list = json_node_get_array (json_parser_get_root (parser));
  for (i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *o = json_array_get_object_element (list, i);
      const char *package = json_object_get_string_member (o, "package");
      JsonNode *label = json_object_get_member (o, "label");
      JsonNode *icon = json_object_get_member (o, "icon");

      g_assert_nonnull (label);
      g_assert_nonnull (icon);
      if (!JSON_NODE_HOLDS_NULL (icon))
        {
          g_assert_true (g_file_test (json_node_get_string (icon), G_FILE_TEST_IS_REGULAR));
          n_icons++;
        }
      if (strcmp (package, "org.adbscope.test.labels") == 0)
        {
          g_assert_cmpstr (json_node_get_string (label), ==, "Beschriftungstest");
          saw_labels = TRUE;
        }
      else if (strcmp (package, "org.adbscope.test.literal") == 0)
        {
          g_assert_cmpstr (json_node_get_string (label), ==, "Literal 😀 Label");
          saw_literal = TRUE;
        }
      else if (strcmp (package, "org.adbscope.test.nolabel") == 0)
        {
          g_assert_true (JSON_NODE_HOLDS_NULL (label));
          g_assert_true (JSON_NODE_HOLDS_NULL (icon));
          saw_nolabel = TRUE;
        }
    }
  g_assert_true (saw_labels && saw_literal && saw_nolabel);
  g_assert_cmpuint (n_icons, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *labels = NULL, *literal = NULL, *adaptive = NULL, *nolabel = NULL, *game = NULL;
  int rc;

  /* Before GLib reads the user directories. */
  cache_dir = g_dir_make_tmp ("adbscope-app-info-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_test_init (&argc, &argv, NULL);

  labels = g_strconcat ("--apk=", g_getenv ("ADBSCOPE_TEST_APKS"), "/labels.apk", NULL);
  literal = g_strconcat ("--apk=", g_getenv ("ADBSCOPE_TEST_APKS"), "/literal.apk", NULL);
  adaptive = g_strconcat ("--apk=", g_getenv ("ADBSCOPE_TEST_APKS"), "/adaptive.apk", NULL);
  nolabel = g_strconcat ("--apk=", g_getenv ("ADBSCOPE_TEST_APKS"), "/nolabel.apk", NULL);
  game = g_strconcat ("--apk=", g_getenv ("ADBSCOPE_TEST_APKS"), "/game.apk", NULL);
  {
    const char *args[] = { labels, literal, adaptive, nolabel, game, NULL };

    dev = adbscope_test_device_start ("pixel-14", args, &error);
    g_assert_no_error (error);
  }
  {
    /* labels-zip64 has the package of labels: a plain file on the device. */
    g_autofree char *src = test_apk ("labels-zip64");
    g_autofree char *data = NULL;
    gsize len;

    zip64_path = g_build_filename (adbscope_test_device_get_sandbox (dev), "root", "data", "local", "tmp",
                                   "zip64.apk", NULL);
    g_assert_true (g_file_get_contents (src, &data, &len, NULL));
    g_assert_true (g_file_set_contents (zip64_path, data, len, NULL));
    /* The large table is read once, as a plain file: as an installed app
     * every cold load would read it again (tens of seconds here). */
    g_clear_pointer (&data, g_free);
    framework_path = g_build_filename (adbscope_test_device_get_sandbox (dev), "root", "data", "local", "tmp",
                                       "framework-res.apk", NULL);
    g_assert_true (g_file_get_contents (FRAMEWORK_RES, &data, &len, NULL));
    g_assert_true (g_file_set_contents (framework_path, data, len, NULL));
  }

  g_test_add_func ("/app-info/remote-reader", test_remote_reader);
  g_test_add_func ("/app-info/remote-large-table", test_remote_large_table);
  g_test_add_func ("/app-info/remote-game", test_remote_game);
  g_test_add_func ("/app-info/labels-and-icons", test_labels_and_icons);
  g_test_add_func ("/app-info/cli", test_cli);
  rc = g_test_run ();
  adbscope_test_device_free (dev);
  return rc;
}
