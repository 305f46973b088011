/* adbscope-recent-recordings.c: the recordings opened last
 *
 * Kept in the "recent-recordings" key, newest first, absolute paths;
 * files that are gone are not listed (and fall out on the next add).
 */
#include "config.h"

#include "adbscope-recent-recordings.h"

static char *
absolute (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return g_file_get_path (file);
}

void
adbscope_recent_recordings_add (GSettings  *settings,
                                const char *path)
{
  g_auto(GStrv) old = g_settings_get_strv (settings, "recent-recordings");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autofree char *abs = absolute (path);
  g_auto(GStrv) list = NULL;
  guint n = 1;

  g_strv_builder_add (b, abs);
  for (guint i = 0; old[i] != NULL && n < ADBSCOPE_RECENT_RECORDINGS_MAX; i++)
    if (!g_str_equal (old[i], abs) && g_file_test (old[i], G_FILE_TEST_IS_REGULAR))
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  list = g_strv_builder_end (b);
  g_settings_set_strv (settings, "recent-recordings", (const char * const *) list);
}

GStrv
adbscope_recent_recordings_list (GSettings *settings)
{
  g_auto(GStrv) all = g_settings_get_strv (settings, "recent-recordings");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; all[i] != NULL; i++)
    if (g_file_test (all[i], G_FILE_TEST_IS_REGULAR))
      g_strv_builder_add (b, all[i]);
  return g_strv_builder_end (b);
}
