/* test-surfaceflinger.c: `dumpsys SurfaceFlinger --list / --latency` parsers
 * and frame counting, against the real captures and rows built like them
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-surfaceflinger.h"
#include "dumpsys-test-util.h"

#define MS (G_GINT64_CONSTANT (1000000))

/* The capture starts with the Windows prompt the reporter pasted: not device output. */
static char *
load_without_prompt (const char *relpath,
                     gsize      *len)
{
  g_autofree char *text = load_fixture (relpath, len);
  const char *nl;

  g_assert_true (g_str_has_prefix (text, "C:\\"));
  nl = strchr (text, '\n');
  g_assert_nonnull (nl);
  *len -= (nl + 1 - text);
  return g_strdup (nl + 1);
}

static void
test_latency_all_zero (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSfLatency) lat = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = load_without_prompt ("surfaceflinger/android12plus-latency-surfaceview-all-zero-excerpt.txt", &len);
  lat = adbscope_sf_latency_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (lat->refresh_period_ns, ==, 16666666);
  g_assert_cmpuint (lat->n_rows, ==, 10);
  g_assert_cmpuint (lat->n_empty, ==, 10);
  g_assert_cmpuint (lat->frames->len, ==, 0);
  g_assert_false (adbscope_sf_latency_is_full (lat));
}

static void
test_latency_rows (void)
{
  /* TABs as the device prints them, a pending row last, CRLF of a legacy shell */
  static const char text[] =
    "8333333\r\n"
    "0\t0\t0\r\n"
    "1000000000\t1008000000\t999000000\r\n"
    "1008333333\t1016300000\t1007000000\r\n"
    "1016666666\t1033000000\t1015000000\r\n"
    "1025000000\t9223372036854775807\t9223372036854775807\r\n"
    "garbage\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSfLatency) lat = adbscope_sf_latency_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpint (lat->refresh_period_ns, ==, 8333333);
  g_assert_cmpuint (lat->n_rows, ==, 6);
  g_assert_cmpuint (lat->n_empty, ==, 1);
  g_assert_cmpuint (lat->n_pending, ==, 1);
  g_assert_cmpuint (lat->n_bad_rows, ==, 1);
  g_assert_cmpuint (lat->frames->len, ==, 3);
  g_assert_cmpint (g_array_index (lat->frames, AdbscopeSfFrame, 2).actual_present_ns, ==, 1033000000);
}

/* A buffer SurfaceFlinger presented three times (the app queued nothing
 * new: same desired-present and frame-ready times, later present times)
 * is one frame, at its first presentation (synthetic, the shape of a real
 * capture). */
static void
test_latency_repeated_buffer (void)
{
  static const char text[] =
    "16666666\n"
    "1000000000\t1008000000\t999000000\n"
    "1016666666\t1024700000\t1015000000\n"
    "1016666666\t1041300000\t1015000000\n"
    "1016666666\t1058000000\t1015000000\n"
    "1066666666\t1074600000\t1065000000\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSfLatency) lat = adbscope_sf_latency_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lat->n_rows, ==, 5);
  g_assert_cmpuint (lat->n_repeats, ==, 2);
  g_assert_cmpuint (lat->frames->len, ==, 3);
  g_assert_cmpint (g_array_index (lat->frames, AdbscopeSfFrame, 1).actual_present_ns, ==, 1024700000);
  g_assert_cmpint (g_array_index (lat->frames, AdbscopeSfFrame, 2).actual_present_ns, ==, 1074600000);
}

static void
test_latency_errors (void)
{
  static const char * const bad[] = { "", "\n\n", "Can't find service: SurfaceFlinger\n", "0\n", "-5\n" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      AdbscopeSfLatency *lat = adbscope_sf_latency_parse (bad[i], -1, &error);

      g_assert_null (lat);
      g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    }
  {
    g_autoptr(GError) error = NULL;
    g_assert_null (adbscope_sf_latency_parse (NULL, -1, &error));
    g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  }
}

static void
test_list_android15 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) layers = NULL;
  g_autofree char *text = NULL;
  const char *pkg = "ctrip.android.view";
  gsize len;

  text = load_fixture ("surfaceflinger/android15-list-requestedlayerstate-grep-excerpt.txt", &len);
  names = adbscope_sf_list_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (names->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==,
                   "ff5d6b3 ActivityRecordInputSink ctrip.android.view/ctrip.android.publicproduct.home.business.activity.CtripHomeActivity#28994");
  g_assert_cmpstr (g_ptr_array_index (names, 1), ==,
                   "ActivityRecord{5e6ac22 u0 ctrip.android.view/ctrip.android.publicproduct.home.business.activity.CtripHomeActivity t329 mVisible=false mOccludesParent=true mode=fullscreen boundsRect(0, 0 - 1200, 2664)}#28983");
  g_assert_cmpstr (g_ptr_array_index (names, 3), ==,
                   "ctrip.android.view/ctrip.android.publicproduct.home.business.activity.CtripHomeActivity#29149");

  /* The input sink and the ActivityRecord hold no frames. */
  layers = adbscope_sf_find_app_layers (names, pkg);
  g_assert_cmpuint (layers->len, ==, 2);
  for (guint i = 0; i < layers->len; i++)
    {
      AdbscopeSfLayer *l = g_ptr_array_index (layers, i);

      g_assert_cmpint (l->kind, ==, ADBSCOPE_SF_LAYER_WINDOW);
      g_assert_true (g_str_has_suffix (l->name, "CtripHomeActivity#28989") ||
                     g_str_has_suffix (l->name, "CtripHomeActivity#29149"));
    }
}

/* The names of the issue, one per era, beside other apps' layers. */
static void
test_list_versions (void)
{
  static const char text[] =
    "Display 0 HWC layers:\n"
    "SurfaceView - com.example.game/com.unity3d.player.UnityPlayerActivity#0\n"
    "com.example.game/com.unity3d.player.UnityPlayerActivity#0\n"
    "SurfaceView[com.example.game/com.epicgames.unreal.GameActivity](BLAST)#0\n"
    "SurfaceView[com.example.game/com.epicgames.unreal.GameActivity]#0\n"
    "Background for SurfaceView[com.example.game/com.epicgames.unreal.GameActivity]#0\n"
    "Bounds for - com.example.game/com.example.game.MainActivity#0\n"
    "com.example.gamepad/com.example.gamepad.Main#0\n"
    "SurfaceView - com.example.gamex/x.Main#0\n"
    "StatusBar#0\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = adbscope_sf_list_parse (text, -1, &error);
  g_autoptr(GPtrArray) layers = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (names->len, ==, 9);
  layers = adbscope_sf_find_app_layers (names, "com.example.game");
  g_assert_cmpuint (layers->len, ==, 4);
  /* SurfaceViews first */
  g_assert_cmpint (((AdbscopeSfLayer *) layers->pdata[0])->kind, ==, ADBSCOPE_SF_LAYER_SURFACE_VIEW);
  g_assert_cmpint (((AdbscopeSfLayer *) layers->pdata[1])->kind, ==, ADBSCOPE_SF_LAYER_SURFACE_VIEW);
  g_assert_cmpint (((AdbscopeSfLayer *) layers->pdata[2])->kind, ==, ADBSCOPE_SF_LAYER_SURFACE_VIEW);
  g_assert_cmpint (((AdbscopeSfLayer *) layers->pdata[3])->kind, ==, ADBSCOPE_SF_LAYER_WINDOW);
  g_assert_cmpstr (((AdbscopeSfLayer *) layers->pdata[3])->name, ==,
                   "com.example.game/com.unity3d.player.UnityPlayerActivity#0");
}

/* A history of n frames presented every period_ns from t0, in the layout
 * --latency prints (127 rows, oldest first, unused rows 0). */
static AdbscopeSfLatency *
history (gint64 t0,
         guint  n,
         gint64 period_ns,
         guint  late_every)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint rows = 127, first = n > rows ? n - rows : 0;

  g_string_append_printf (s, "%" G_GINT64_FORMAT "\n", period_ns);
  for (guint i = n - first; i < rows; i++)
    g_string_append (s, "0\t0\t0\n");
  for (guint i = first; i < n; i++)
    {
      gint64 desired = t0 + (gint64) i * period_ns;
      gint64 actual = desired + (late_every && i % late_every == late_every - 1 ? period_ns : 0);

      g_string_append_printf (s, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n",
                              desired, actual, desired - 2 * MS);
    }
  return adbscope_sf_latency_parse (s->str, -1, NULL);
}

static void
test_tracker_dedup (void)
{
  AdbscopeSfTracker t;
  AdbscopeSfDelta d = { 0 };
  gint64 p = 16666667, t0 = 1000 * MS;

  adbscope_sf_tracker_reset (&t);
  {
    /* 30 frames so far; the first read only sets the cursor */
    g_autoptr(AdbscopeSfLatency) a = history (t0, 30, p, 0);
    adbscope_sf_tracker_advance (&t, a, t0 + 29 * p + p / 2, &d);
    g_assert_cmpuint (d.new_frames, ==, 0);
    g_assert_true (isnan (d.fps));
  }
  {
    /* one second later: 60 more; the 30 old ones are still printed and not counted again */
    g_autoptr(AdbscopeSfLatency) b = history (t0, 90, p, 0);
    adbscope_sf_tracker_advance (&t, b, t0 + 89 * p + p / 2, &d);
    g_assert_cmpuint (d.new_frames, ==, 60);
    g_assert_false (d.lost);
    g_assert_cmpfloat (fabs (d.fps - 60.0), <, 0.01);
    g_assert_cmpuint (d.frame_times_ms->len, ==, 60);
    g_assert_cmpuint (d.janky, ==, 0);
    g_assert_cmpuint (d.jank, ==, 0);
  }
  {
    /* the same dump again half a second later: nothing new, FPS 0 */
    g_autoptr(AdbscopeSfLatency) c = history (t0, 90, p, 0);
    adbscope_sf_tracker_advance (&t, c, t0 + 119 * p + p / 2, &d);
    g_assert_cmpuint (d.new_frames, ==, 0);
    g_assert_cmpfloat (d.fps, ==, 0.0);
  }
  adbscope_sf_delta_clear (&d);
}

static void
test_tracker_lost (void)
{
  AdbscopeSfTracker t;
  AdbscopeSfDelta d = { 0 };
  gint64 p = 8333333, t0 = 5000 * MS;
  g_autoptr(AdbscopeSfLatency) a = history (t0, 10, p, 0);
  g_autoptr(AdbscopeSfLatency) b = history (t0, 10 + 240, p, 0);

  adbscope_sf_tracker_reset (&t);
  adbscope_sf_tracker_advance (&t, a, t0 + 9 * p + p / 2, &d);
  /* two seconds at 120 Hz: 240 frames, only 127 still in the history */
  adbscope_sf_tracker_advance (&t, b, t0 + 249 * p + p / 2, &d);
  g_assert_true (d.lost);
  g_assert_cmpuint (d.new_frames, ==, 127);
  g_assert_cmpuint (d.new_frames + d.lost_estimate, >=, 238);
  g_assert_cmpuint (d.new_frames + d.lost_estimate, <=, 242);
  g_assert_cmpfloat (fabs (d.fps - 120.0), <, 1.5);
  adbscope_sf_delta_clear (&d);
}

static void
test_tracker_janks (void)
{
  AdbscopeSfTracker t;
  AdbscopeSfDelta d = { 0 };
  gint64 p = 16666667, t0 = 1000 * MS;
  g_autoptr(GString) s = g_string_new ("16666667\n");
  g_autoptr(AdbscopeSfLatency) a = NULL;
  g_autoptr(AdbscopeSfLatency) first = history (t0, 1, p, 0);
  gint64 at = t0;

  /* 10 smooth frames, one 100 ms hitch (Jank), 5 smooth, one 150 ms (BigJank), 5 smooth */
  static const int gaps_ms[] = { 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 100,
                                 17, 17, 17, 17, 17, 150, 17, 17, 17, 17, 17 };
  for (guint i = 0; i < G_N_ELEMENTS (gaps_ms); i++)
    {
      at += gaps_ms[i] * MS;
      g_string_append_printf (s, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n",
                              gaps_ms[i] > 20 ? at - gaps_ms[i] * MS + p : at, at, at - MS);
    }
  a = adbscope_sf_latency_parse (s->str, -1, NULL);
  adbscope_sf_tracker_reset (&t);
  adbscope_sf_tracker_advance (&t, first, t0, &d);
  adbscope_sf_tracker_advance (&t, a, at, &d);
  g_assert_cmpuint (d.new_frames, ==, G_N_ELEMENTS (gaps_ms));
  g_assert_cmpuint (d.jank, ==, 2);
  g_assert_cmpuint (d.big_jank, ==, 1);
  g_assert_cmpuint (d.janky, ==, 2);
  adbscope_sf_delta_clear (&d);
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("surfaceflinger");

  g_assert_cmpuint (names->len, >=, 2);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) list = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (names, i), &len);
      list = adbscope_sf_list_parse (text, len, &error);
      g_assert_no_error (error);
      for (guint j = 0; j < list->len; j++)
        g_assert_true (g_utf8_validate (g_ptr_array_index (list, j), -1, NULL));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/surfaceflinger/latency/all-zero", test_latency_all_zero);
  g_test_add_func ("/surfaceflinger/latency/rows", test_latency_rows);
  g_test_add_func ("/surfaceflinger/latency/errors", test_latency_errors);
  g_test_add_func ("/surfaceflinger/latency/repeated-buffer", test_latency_repeated_buffer);
  g_test_add_func ("/surfaceflinger/list/android15", test_list_android15);
  g_test_add_func ("/surfaceflinger/list/versions", test_list_versions);
  g_test_add_func ("/surfaceflinger/list/every-fixture", test_every_fixture);
  g_test_add_func ("/surfaceflinger/tracker/dedup", test_tracker_dedup);
  g_test_add_func ("/surfaceflinger/tracker/lost", test_tracker_lost);
  g_test_add_func ("/surfaceflinger/tracker/janks", test_tracker_janks);
  return g_test_run ();
}
