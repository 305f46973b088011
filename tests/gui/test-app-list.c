/* test-app-list.c: the app picker's query, parsed from captured phone output
 *
 * The command's output is three sections (third-party packages, all
 * packages, the process table); the sections here are real captures from
 * different phones (../shared/fixtures/android, see SOURCES.md), glued the
 * way the device shell would print them.
 */
#include "config.h"

#include <string.h>

#include "adbscope-app-list.h"
#include "adbscope-error.h"

#define SEP "@@adbscope-app-list@@\n"

static char *
fixture (const char *rel)
{
  g_autofree char *path = g_build_filename (g_getenv ("ADBSCOPE_FIXTURES"), rel, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static AdbscopeApp *
find (GListModel *apps,
      const char *package,
      guint      *position)
{
  for (guint i = 0; i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);

      if (g_strcmp0 (adbscope_app_get_package (app), package) == 0)
        {
          if (position != NULL)
            *position = i;
          return app;  /* the model keeps it alive */
        }
    }
  return NULL;
}

static void
test_command (void)
{
  g_autofree char *third = adbscope_app_list_build_command (FALSE);
  g_autofree char *all = adbscope_app_list_build_command (TRUE);

  /* -f: the APK paths the labels and icons are read from */
  g_assert_nonnull (strstr (third, "pm list packages -f -3"));
  g_assert_null (strstr (third, "pm list packages -f 2>"));
  g_assert_nonnull (strstr (all, "pm list packages -f 2>"));
  /* toybox and toolbox ps both answer */
  g_assert_nonnull (strstr (all, "ps -A -o PID,PPID,RSS,NAME 2>/dev/null || ps"));
}

static void
test_third_party (void)
{
  g_autofree char *pm = fixture ("other/android14-xiaomi-pad6-pm-list-packages-3.txt");
  g_autofree char *ps = fixture ("ps/android13-mtk-mt8168-tablet-ps-A.txt");
  g_autofree char *out = g_strconcat (pm, SEP, SEP, ps, NULL);
  g_autoptr(GListModel) apps = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeApp *seal;

  apps = adbscope_app_list_parse (out, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (apps), ==, 55);
  seal = find (apps, "com.junkfood.seal", NULL);
  g_assert_nonnull (seal);
  g_assert_true (adbscope_app_get_third_party (seal));
  g_assert_false (adbscope_app_get_running (seal));
  /* Not running anywhere in that process table: sorted by name. */
  for (guint i = 1; i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) a = g_list_model_get_item (apps, i - 1);
      g_autoptr(AdbscopeApp) b = g_list_model_get_item (apps, i);

      g_assert_cmpint (adbscope_app_compare (a, b), <, 0);
    }
}

static void
check_all (const char *ps_fixture,
           int         systemui_pid,
           int         phone_pid)
{
  g_autofree char *pm = fixture ("other/android14-xiaomi-pad6-pm-list-packages-3.txt");
  g_autofree char *ps = fixture (ps_fixture);
  g_autofree char *out = g_strconcat (pm, SEP,
                                      "package:com.android.systemui\n"
                                      "package:com.android.phone\n"
                                      "package:com.junkfood.seal\n"
                                      "package:bad;name\n", SEP, ps, NULL);
  g_autoptr(GListModel) apps = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeApp *ui, *phone;
  guint ui_pos = G_MAXUINT, phone_pos = G_MAXUINT;

  apps = adbscope_app_list_parse (out, &error);
  g_assert_no_error (error);
  /* 55 third-party + 2 system; the unquotable name is dropped */
  g_assert_cmpuint (g_list_model_get_n_items (apps), ==, 57);
  g_assert_null (find (apps, "bad;name", NULL));

  ui = find (apps, "com.android.systemui", &ui_pos);
  phone = find (apps, "com.android.phone", &phone_pos);
  g_assert_nonnull (ui);
  g_assert_nonnull (phone);
  g_assert_false (adbscope_app_get_third_party (ui));
  g_assert_cmpint (adbscope_app_get_pid (ui), ==, systemui_pid);
  g_assert_cmpint (adbscope_app_get_pid (phone), ==, phone_pid);
  /* Running apps first (phone < systemui by name), then the rest. */
  g_assert_cmpuint (phone_pos, ==, 0);
  g_assert_cmpuint (ui_pos, ==, 1);
  g_assert_true (adbscope_app_get_third_party (find (apps, "com.junkfood.seal", NULL)));
}

static void
test_all_toybox (void)
{
  check_all ("ps/android13-mtk-mt8168-tablet-ps-A.txt", 2420, 2703);
}

static void
test_all_toolbox (void)
{
  check_all ("ps/ps-legacy-toolbox-samsung.txt", 3157, 3088);
}

static void
test_secondary_process (void)
{
  const char *out =
    "package:com.example.app\n"
    "package:com.example.other\n" SEP SEP
    "  PID NAME\n"
    "  900 com.example.app:remote\n"
    "  901 com.example.app\n"
    "  950 com.example.other:sync\n";
  g_autoptr(GListModel) apps = adbscope_app_list_parse (out, NULL);

  g_assert_nonnull (apps);
  /* The main process wins over a ":remote" one listed before it... */
  g_assert_cmpint (adbscope_app_get_pid (find (apps, "com.example.app", NULL)), ==, 901);
  /* ...and a secondary one still means "running". */
  g_assert_cmpint (adbscope_app_get_pid (find (apps, "com.example.other", NULL)), ==, 950);
}

static void
test_truncated (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) apps = adbscope_app_list_parse ("package:com.example.app\n" SEP, &error);

  g_assert_null (apps);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app-list/command", test_command);
  g_test_add_func ("/app-list/third-party", test_third_party);
  g_test_add_func ("/app-list/all-toybox-ps", test_all_toybox);
  g_test_add_func ("/app-list/all-toolbox-ps", test_all_toolbox);
  g_test_add_func ("/app-list/secondary-process", test_secondary_process);
  g_test_add_func ("/app-list/truncated", test_truncated);
  return g_test_run ();
}
