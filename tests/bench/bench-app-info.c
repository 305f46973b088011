/* bench-app-info.c: labels and icons of 150 apps on the simulated device,
 * cold (read from the APKs by byte range) and cached
 *
 * The apps are aapt-built (tests/apk/build-bench-apks.sh) plus game.apk
 * (100 MiB) and framework-res.apk (a 31 MB resource table).
 */
#include "config.h"

#include <glib/gstdio.h>

#include "adbscope-app-info.h"
#include "adbscope-app-list.h"
#include "adbscope-test-device.h"

#define N_APPS 148

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GListModel *
list_apps (AdbscopeTestDevice *dev,
           gboolean            all)
{
  GAsyncResult *result = NULL;
  GListModel *apps;

  adbscope_app_list_async (adbscope_test_device_get_serial (dev), all, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  apps = adbscope_app_list_finish (result, NULL);
  g_object_unref (result);
  g_assert_nonnull (apps);
  return apps;
}

static double
load (AdbscopeTestDevice   *dev,
      gboolean              all,
      AdbscopeAppInfoStats *stats)
{
  g_autoptr(GListModel) apps = list_apps (dev, all);
  GAsyncResult *result = NULL;
  gint64 t0 = g_get_monotonic_time ();

  adbscope_app_info_load_async (adbscope_test_device_get_serial (dev), apps, "fr_FR.UTF-8", NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (adbscope_app_info_load_finish (result, stats, NULL));
  g_object_unref (result);
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *cache = g_dir_make_tmp ("adbscope-bench-cache-XXXXXX", NULL);
  g_autofree char *dir = g_dir_make_tmp ("adbscope-bench-apks-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "apk", "build-bench-apks.sh", NULL);
  g_autofree char *count = g_strdup_printf ("%d", N_APPS);
  const char *build[] = { script, dir, count, NULL };
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  AdbscopeAppInfoStats cold = { 0 }, cached = { 0 }, framework = { 0 };
  double t_cold, t_cached;
  int status;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  if (!g_spawn_sync (NULL, (char **) build, NULL, 0, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("build-bench-apks.sh: %s", error->message);
  for (int i = 0; i < N_APPS; i++)
    g_ptr_array_add (args, g_strdup_printf ("--apk=%s/app%03d.apk", dir, i));
  g_ptr_array_add (args, g_strdup_printf ("--apk=%s/game.apk", g_getenv ("ADBSCOPE_TEST_APKS")));
  g_ptr_array_add (args, NULL);
  dev = adbscope_test_device_start ("pixel-14", (const char * const *) args->pdata, &error);
  g_assert_no_error (error);

  t_cold = load (dev, FALSE, &cold);
  t_cached = load (dev, FALSE, &cached);
  g_print ("%u apps: cold %.2f s (%u read, %u requests, %.1f KB read of %.1f MB of APKs, %.1f KB per app), "
           "cached %.2f s (%u from the cache, %u requests)\n",
           cold.n_apps, t_cold, cold.n_read, cold.n_requests, cold.bytes_read / 1e3, cold.apk_bytes / 1e6,
           cold.bytes_read / 1e3 / MAX (cold.n_read, 1), t_cached, cached.n_cached, cached.n_requests);

  /* The worst case: framework-res.apk's table, as one more app. */
  {
    g_autofree char *dest_dir = g_build_filename (adbscope_test_device_get_sandbox (dev), "root", "data", "app",
                                                  "android", NULL);
    g_autofree char *dest = g_build_filename (dest_dir, "base.apk", NULL);
    g_autofree char *data = NULL;
    gsize len;
    double t;

    g_mkdir_with_parents (dest_dir, 0755);
    g_assert_true (g_file_get_contents ("/usr/share/android-framework-res/framework-res.apk", &data, &len, NULL));
    g_assert_true (g_file_set_contents (dest, data, len, NULL));
    /* "android" is a system package: listed with --all, at its real path. */
    t = load (dev, TRUE, &framework);
    g_print ("framework-res.apk as an app (the rest cached): %.2f s, %u requests, %.1f MB read of %.1f MB\n",
             t, framework.n_requests, framework.bytes_read / 1e6, framework.apk_bytes / 1e6);
  }
  return 0;
}
