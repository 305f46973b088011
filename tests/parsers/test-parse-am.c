/* test-parse-am.c: `am start -W`, `cmd package resolve-activity --brief`
 * and logcat's Displayed line.  No capture of these is in the shared
 * fixtures; the texts follow AOSP's Am.java / ActivityManagerShellCommand
 * (10+ adds LaunchState, 9 and older print ThisTime) and
 * ActivityMetricsLogger ("Displayed PKG/.A: +1s234ms"). */
#include "config.h"

#include "adbscope-error.h"
#include "adbscope-parse-am.h"

static void
test_am_start_android14 (void)
{
  static const char text[] =
    "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example/.Main }\n"
    "Status: ok\nLaunchState: COLD\nActivity: com.example/.Main\nTotalTime: 812\nWaitTime: 815\nComplete\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAmStart) st = adbscope_am_start_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_true (st->ok);
  g_assert_cmpstr (st->launch_state, ==, "COLD");
  g_assert_cmpstr (st->activity, ==, "com.example/.Main");
  g_assert_cmpint (st->total_ms, ==, 812);
  g_assert_cmpint (st->wait_ms, ==, 815);
  g_assert_cmpint (st->this_ms, ==, -1);
}

static void
test_am_start_old_and_warning (void)
{
  static const char old[] =
    "Starting: Intent { cmp=com.example/.Main }\r\nStatus: ok\r\nActivity: com.example/.Main\r\n"
    "ThisTime: 301\r\nTotalTime: 301\r\nWaitTime: 330\r\nComplete\r\n";
  static const char front[] =
    "Starting: Intent { cmp=com.example/.Main }\n"
    "Warning: Activity not started, its current task has been brought to the front\n"
    "Status: ok\nLaunchState: UNKNOWN (0)\nActivity: com.example/.Main\nWaitTime: 12\nComplete\n";
  g_autoptr(AdbscopeAmStart) a = adbscope_am_start_parse (old, -1, NULL);
  g_autoptr(AdbscopeAmStart) b = adbscope_am_start_parse (front, -1, NULL);

  g_assert_nonnull (a);
  g_assert_null (a->launch_state);
  g_assert_cmpint (a->this_ms, ==, 301);
  g_assert_cmpint (a->total_ms, ==, 301);
  g_assert_nonnull (b);
  g_assert_nonnull (b->warning);
  g_assert_cmpint (b->total_ms, ==, -1);
}

/* A start slower than am waits ends in "Status: timeout" (synthetic, the
 * shape of ActivityManagerShellCommand's output): a slow start, not an
 * error, with no TotalTime. */
static void
test_am_start_timeout (void)
{
  static const char text[] =
    "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example/.Main }\r\n"
    "Status: timeout\r\nLaunchState: UNKNOWN (0)\r\nActivity: com.example/.Main\r\nWaitTime: 10021\r\nComplete\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAmStart) st = adbscope_am_start_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_false (st->ok);
  g_assert_true (st->timed_out);
  g_assert_cmpint (st->total_ms, ==, -1);
  g_assert_cmpint (st->wait_ms, ==, 10021);
}

static void
test_am_start_errors (void)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  g_assert_null (adbscope_am_start_parse ("Starting: Intent { cmp=x/.A }\n"
                                          "Error type 3\nError: Activity class {x/x.A} does not exist.\n", -1, &e1));
  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND);
  g_assert_null (adbscope_am_start_parse ("/system/bin/sh: am: not found\n", -1, &e2));
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_am_start_parse (NULL, -1, &e3));
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

static void
test_resolve_activity (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *c = adbscope_resolve_activity_parse (
    "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n"
    "com.android.settings/.Settings\n", -1, "com.android.settings", &error);
  g_autofree char *none = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (c, ==, "com.android.settings/.Settings");
  none = adbscope_resolve_activity_parse ("No activity found\n", -1, "com.example", &error);
  g_assert_null (none);
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND);
}

static void
test_displayed (void)
{
  static const char text[] =
    "I/ActivityManager(  600): Displayed com.example/.Main: +1s234ms\n"
    "11-30 10:00:01.000  600  650 I ActivityTaskManager: Displayed com.example/.Main for user 0: +456ms\n"
    "11-30 10:00:02.000  600  650 I ActivityTaskManager: Displayed com.examplex/.Main: +99ms\n";

  g_assert_cmpint (adbscope_logcat_displayed_ms ("I/ActivityManager(  600): Displayed com.example/.Main: +1s234ms\n",
                                                 -1, "com.example"), ==, 1234);
  /* the newest line of the package (not of a package with a longer name) */
  g_assert_cmpint (adbscope_logcat_displayed_ms (text, -1, "com.example"), ==, 456);
  g_assert_cmpint (adbscope_logcat_displayed_ms ("", -1, "com.example"), ==, -1);
  g_assert_cmpint (adbscope_logcat_displayed_ms ("Displayed com.example/.Main: +2m1s5ms\n", -1, "com.example"), ==, 121005);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/am/start/timeout", test_am_start_timeout);
  g_test_add_func ("/am/start/android14", test_am_start_android14);
  g_test_add_func ("/am/start/old-and-warning", test_am_start_old_and_warning);
  g_test_add_func ("/am/start/errors", test_am_start_errors);
  g_test_add_func ("/am/resolve-activity", test_resolve_activity);
  g_test_add_func ("/am/logcat-displayed", test_displayed);
  return g_test_run ();
}
