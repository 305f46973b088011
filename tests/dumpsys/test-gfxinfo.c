/* test-gfxinfo.c: `dumpsys gfxinfo` parser against real captures
 *
 * Expected numbers were read off the fixture files by eye (and the frame
 * arithmetic done by hand from the rows quoted in the comments).
 */
#include "config.h"

#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-gfxinfo.h"
#include "dumpsys-test-util.h"

#define P50 ADBSCOPE_GFXINFO_P50
#define P90 ADBSCOPE_GFXINFO_P90
#define P95 ADBSCOPE_GFXINFO_P95
#define P99 ADBSCOPE_GFXINFO_P99

static AdbscopeGfxinfo *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("gfxinfo", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeGfxinfo *info;
  gsize len;

  text = load_fixture (path, &len);
  info = adbscope_gfxinfo_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

static AdbscopeGfxinfoProcess *
only_process (AdbscopeGfxinfo *info)
{
  g_assert_cmpuint (info->processes->len, ==, 1);
  return g_ptr_array_index (info->processes, 0);
}

static AdbscopeGfxinfoWindow *
window_at (AdbscopeGfxinfoProcess *process,
           guint                   i)
{
  g_assert_cmpuint (i, <, process->windows->len);
  return g_ptr_array_index (process->windows, i);
}

static const AdbscopeGfxinfoFrame *
frame_at (AdbscopeGfxinfoWindow *window,
          guint                  i)
{
  g_assert_cmpuint (i, <, window->frames->len);
  return &g_array_index (window->frames, AdbscopeGfxinfoFrame, i);
}

static gint64
histogram_sum (GArray *h)
{
  gint64 sum = 0;

  g_assert_nonnull (h);
  for (guint i = 0; i < h->len; i++)
    sum += g_array_index (h, AdbscopeGfxinfoBucket, i).count;
  return sum;
}

static guint
count_valid (AdbscopeGfxinfoWindow *window)
{
  guint n = 0;

  for (guint i = 0; i < window->frames->len; i++)
    n += adbscope_gfxinfo_frame_is_valid (frame_at (window, i));
  return n;
}

/* Every fixture in the folder parses with at least one process. */
static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("gfxinfo");

  g_assert_cmpuint (names->len, >=, 18);
  for (guint i = 0; i < names->len; i++)
    {
      const char *path = g_ptr_array_index (names, i);
      g_autoptr(AdbscopeGfxinfo) info = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gsize len;

      g_test_message ("%s", path);
      text = load_fixture (path, &len);
      info = adbscope_gfxinfo_parse (text, len, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (info->processes->len, >=, 1);
    }
}

/* 4.3 and 5 print no stats at all: the process is there, nothing else. */
static void
test_legacy (void)
{
  g_autoptr(AdbscopeGfxinfo) info43 = parse_fixture ("android4.3-api18-chrome-legacy.txt");
  g_autoptr(AdbscopeGfxinfo) info5 = parse_fixture ("android5-chrome-legacy.txt");
  AdbscopeGfxinfoProcess *p;

  g_assert_cmpint (info43->uptime_ms, ==, 14972669);
  g_assert_cmpint (info43->realtime_ms, ==, 14972664);
  p = only_process (info43);
  g_assert_cmpint (p->pid, ==, 29541);
  g_assert_cmpstr (p->package, ==, "com.android.chrome");
  g_assert_false (p->stats.present);
  g_assert_cmpint (p->stats.total_frames, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  g_assert_cmpuint (p->windows->len, ==, 1);
  g_assert_cmpstr (window_at (p, 0)->name, ==,
                   "com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity/android.view.ViewRootImpl@41fc59c8");
  g_assert_cmpuint (window_at (p, 0)->frames->len, ==, 0);
  g_assert_true (adbscope_gfxinfo_find_process (info43, "com.android.chrome") == p);
  g_assert_null (adbscope_gfxinfo_find_process (info43, "com.android"));

  p = only_process (info5);
  g_assert_cmpint (p->pid, ==, 26834);
  g_assert_false (p->stats.present);
  g_assert_cmpstr (window_at (p, 0)->name, ==,
                   "com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity/android.view.ViewRootImpl@27de7df5");
}

static void
test_android6 (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android6-chrome.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);
  AdbscopeGfxinfoWindow *w;

  g_assert_cmpint (p->pid, ==, 9702);
  g_assert_true (p->stats.present);
  g_assert_cmpint (p->stats.stats_since_ns, ==, 9656484850794);
  g_assert_cmpint (p->stats.total_frames, ==, 3);
  g_assert_cmpint (p->stats.janky_frames, ==, 2);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct, 66.67, 1e-9);
  g_assert_cmpint (p->stats.janky_frames_legacy, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  g_assert_cmpint (p->stats.percentile_ms[P50], ==, ADBSCOPE_GFXINFO_UNKNOWN);
  g_assert_cmpint (p->stats.percentile_ms[P90], ==, 101);
  g_assert_cmpint (p->stats.percentile_ms[P99], ==, 101);
  g_assert_cmpint (p->stats.missed_vsync, ==, 2);
  g_assert_cmpint (p->stats.high_input_latency, ==, 0);
  g_assert_cmpint (p->stats.slow_ui_thread, ==, 2);
  g_assert_cmpint (p->stats.slow_bitmap_uploads, ==, 0);
  g_assert_cmpint (p->stats.slow_issue_draw_commands, ==, 1);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  g_assert_null (p->stats.histogram);

  /* The per-window copy of the stats sits under the ViewRootImpl line. */
  g_assert_cmpuint (p->windows->len, ==, 1);
  w = window_at (p, 0);
  g_assert_cmpstr (w->name, ==,
                   "com.android.chrome/org.chromium.chrome.browser.firstrun.FirstRunActivityStaging/android.view.ViewRootImpl@6b40547");
  g_assert_null (w->title);
  g_assert_true (w->stats.present);
  g_assert_cmpint (w->stats.total_frames, ==, 3);
  g_assert_cmpint (w->stats.slow_issue_draw_commands, ==, 1);
}

/* Google's doc examples: no banner, no process line. */
static void
test_official_docs_excerpts (void)
{
  g_autoptr(AdbscopeGfxinfo) stats = parse_fixture ("android6-mpreview-aggregate-stats-official-docs.txt");
  g_autoptr(AdbscopeGfxinfo) frames = parse_fixture ("android6-framestats-profiledata-official-docs-excerpt.txt");
  AdbscopeGfxinfoProcess *p = only_process (stats);
  AdbscopeGfxinfoWindow *w;
  const AdbscopeGfxinfoFrame *f;

  g_assert_cmpint (p->pid, ==, -1);
  g_assert_null (p->package);
  g_assert_cmpint (p->stats.stats_since_ns, ==, 752958278148);
  g_assert_cmpint (p->stats.total_frames, ==, 82189);
  g_assert_cmpint (p->stats.janky_frames, ==, 35335);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct, 42.99, 1e-9);
  g_assert_cmpint (p->stats.percentile_ms[P95], ==, 42);
  g_assert_cmpint (p->stats.slow_bitmap_uploads, ==, 1542);
  /* "Number Slow draw" is the M-preview name of "Slow issue draw commands". */
  g_assert_cmpint (p->stats.slow_issue_draw_commands, ==, 23342);

  p = only_process (frames);
  g_assert_cmpuint (p->windows->len, ==, 1);
  w = window_at (p, 0);
  g_assert_cmpuint (w->frames->len, ==, 4);
  g_assert_cmpuint (w->n_bad_rows, ==, 0);
  /* 0,27965466202353,…,27965480589068, */
  f = frame_at (w, 0);
  g_assert_cmpuint (f->flags, ==, 0);
  g_assert_cmpint (f->intended_vsync_ns, ==, 27965466202353);
  g_assert_cmpint (f->duration_ns, ==, 27965480589068 - 27965466202353);
  g_assert_cmpint (f->vsync_id, ==, -1);
  g_assert_cmpint (f->deadline_ns, ==, -1);
  g_assert_cmpint (f->gpu_ns, ==, -1);
  g_assert_cmpint (f->frame_interval_ns, ==, -1);
  f = frame_at (w, 3);
  g_assert_cmpint (f->duration_ns, ==, 27965532114484 - 27965516575320);
}

static void
test_android7_histogram (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android7-settings-histogram.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);
  GArray *h = p->stats.histogram;

  g_assert_cmpint (p->pid, ==, 3015);
  g_assert_cmpstr (p->package, ==, "com.android.settings");
  g_assert_cmpint (p->stats.total_frames, ==, 24);
  g_assert_cmpint (p->stats.janky_frames, ==, 14);
  g_assert_cmpint (p->stats.percentile_ms[P50], ==, 19);
  g_assert_cmpint (p->stats.percentile_ms[P90], ==, 65);
  g_assert_cmpint (p->stats.percentile_ms[P95], ==, 150);
  g_assert_cmpint (p->stats.percentile_ms[P99], ==, 300);
  g_assert_cmpint (p->stats.slow_issue_draw_commands, ==, 12);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  /* 5ms=1 6ms=0 … 4950ms=0: 154 buckets that add up to the total. */
  g_assert_cmpuint (h->len, ==, 154);
  g_assert_cmpint (g_array_index (h, AdbscopeGfxinfoBucket, 0).ms, ==, 5);
  g_assert_cmpint (g_array_index (h, AdbscopeGfxinfoBucket, 0).count, ==, 1);
  g_assert_cmpint (g_array_index (h, AdbscopeGfxinfoBucket, h->len - 1).ms, ==, 4950);
  g_assert_cmpint (histogram_sum (h), ==, 24);
  g_assert_null (p->stats.gpu_histogram);
  /* The HISTOGRAM line runs straight into "Caches:"; no window stats. */
  g_assert_false (window_at (p, 0)->stats.present);
}

static void
test_android9_and_10 (void)
{
  g_autoptr(AdbscopeGfxinfo) info9 = parse_fixture ("android9-chrome-skia.txt");
  g_autoptr(AdbscopeGfxinfo) info10 = parse_fixture ("android9or10-reactnativefeed-profile-gpu-rendering-table.txt");
  AdbscopeGfxinfoProcess *p = only_process (info9);

  g_assert_cmpint (p->pid, ==, 2720);
  g_assert_cmpint (p->stats.total_frames, ==, 43);
  g_assert_cmpint (p->stats.janky_frames, ==, 7);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct, 16.28, 1e-9);
  g_assert_cmpint (p->stats.percentile_ms[P50], ==, 5);
  g_assert_cmpint (p->stats.percentile_ms[P99], ==, 200);
  g_assert_cmpint (p->stats.high_input_latency, ==, 14);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, 5);
  g_assert_cmpint (p->stats.frame_deadline_missed_legacy, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  g_assert_cmpint (g_array_index (p->stats.histogram, AdbscopeGfxinfoBucket, 0).count, ==, 33);
  g_assert_cmpint (histogram_sum (p->stats.histogram), ==, 43);

  p = only_process (info10);
  g_assert_cmpint (p->pid, ==, 14824);
  g_assert_cmpint (p->stats.total_frames, ==, 35360);
  g_assert_cmpint (p->stats.janky_frames, ==, 23595);
  g_assert_cmpint (p->stats.slow_issue_draw_commands, ==, 11523);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, 12149);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P50], ==, ADBSCOPE_GFXINFO_UNKNOWN);
  /* The Profile-GPU-rendering TAB table is not framestats. */
  g_assert_cmpuint (window_at (p, 0)->frames->len, ==, 0);
}

static void
test_android11_gpu (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android11-tv-nuvio-profile-table-gpu-percentiles.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);
  GArray *g = p->stats.gpu_histogram;

  g_assert_cmpint (p->pid, ==, 2062);
  g_assert_cmpint (p->stats.total_frames, ==, 2903);
  g_assert_cmpint (p->stats.janky_frames, ==, 772);
  g_assert_cmpint (p->stats.high_input_latency, ==, 1857);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, 422);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P50], ==, 7);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P90], ==, 11);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P95], ==, 12);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P99], ==, 14);
  g_assert_cmpint (histogram_sum (p->stats.histogram), ==, 2903);
  /* GPU HISTOGRAM: 1ms=46 2ms=1171 … 25ms=0 4950ms=0 */
  g_assert_cmpuint (g->len, ==, 26);
  g_assert_cmpint (g_array_index (g, AdbscopeGfxinfoBucket, 1).ms, ==, 2);
  g_assert_cmpint (g_array_index (g, AdbscopeGfxinfoBucket, 1).count, ==, 1171);
  g_assert_cmpint (histogram_sum (g), ==, 2900);
}

static void
test_android12_legacy_lines (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12plus-legacy-jank-gpu-histogram.txt");
  g_autoptr(AdbscopeGfxinfo) unreal = parse_fixture ("android12plus-unreal-game-summary-excerpt.txt");
  g_autoptr(AdbscopeGfxinfo) emu = parse_fixture ("android14plus-emulator-likely-gralloc-buffers.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);

  g_assert_cmpint (p->pid, ==, 2599);
  g_assert_cmpint (p->stats.total_frames, ==, 21);
  g_assert_cmpint (p->stats.janky_frames, ==, 4);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct, 19.05, 1e-9);
  g_assert_cmpint (p->stats.janky_frames_legacy, ==, 16);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct_legacy, 76.19, 1e-9);
  g_assert_cmpint (p->stats.frame_deadline_missed, ==, 4);
  g_assert_cmpint (p->stats.frame_deadline_missed_legacy, ==, 3);
  g_assert_cmpint (p->stats.high_input_latency, ==, 35);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P95], ==, 9);
  g_assert_cmpint (histogram_sum (p->stats.histogram), ==, 21);
  g_assert_cmpint (histogram_sum (p->stats.gpu_histogram), ==, 21);

  p = only_process (unreal);
  g_assert_cmpint (p->pid, ==, 14059);
  g_assert_cmpstr (p->package, ==, "com.tectree.eto");
  g_assert_cmpint (p->stats.stats_since_ns, ==, 268434510573);
  g_assert_cmpint (p->stats.total_frames, ==, 34);
  g_assert_cmpint (p->stats.percentile_ms[P95], ==, 129);
  g_assert_cmpint (p->stats.frame_deadline_missed_legacy, ==, 5);
  g_assert_null (p->stats.histogram);

  p = only_process (emu);
  g_assert_cmpint (p->pid, ==, 7871);
  g_assert_cmpint (p->stats.total_frames, ==, 139);
  g_assert_cmpint (p->stats.janky_frames_legacy, ==, 91);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct, 6.47, 1e-9);
  g_assert_cmpint (p->stats.high_input_latency, ==, 256);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P99], ==, 4950);
}

/* SoloX#249 excerpt: 12+ header, FrameInterval/FrameStartTime swapped. */
static void
test_framestats_12_columns_by_name (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12plus-framestats-profiledata-header-and-rows-excerpt.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);
  AdbscopeGfxinfoWindow *w = window_at (p, 0);
  const AdbscopeGfxinfoFrame *f;

  g_assert_cmpuint (w->frames->len, ==, 3);
  /* 0,53499,255187871931,…,FrameDeadline 255204538597,255188826099,16656453,
   * …,SwapBuffers 255190630734,FrameCompleted 255192411307,9844,202187,
   * GpuCompleted 255192411307,… */
  f = frame_at (w, 0);
  g_assert_cmpint (f->vsync_id, ==, 53499);
  g_assert_cmpint (f->intended_vsync_ns, ==, 255187871931);
  g_assert_cmpint (f->duration_ns, ==, 4539376);
  g_assert_cmpint (f->deadline_ns, ==, 16666666);
  g_assert_cmpint (f->frame_interval_ns, ==, 16656453);
  g_assert_cmpint (f->gpu_ns, ==, 1780573);
  g_assert_cmpint (frame_at (w, 2)->vsync_id, ==, 53529);
  g_assert_cmpint (frame_at (w, 2)->frame_interval_ns, ==, 16656482);
}

static void
test_framestats_edge_rows (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12plus-framestats-edge-rows-vsyncid-minus1-deadline-maxlong-present-minus2-excerpt.txt");
  AdbscopeGfxinfoWindow *w = window_at (only_process (info), 0);
  const AdbscopeGfxinfoFrame *f;
  g_autoptr(GArray) fresh = NULL;

  g_assert_cmpuint (w->frames->len, ==, 3);
  /* Flags=1: kept as a row, not a frame. */
  f = frame_at (w, 0);
  g_assert_cmpuint (f->flags, ==, 1);
  g_assert_false (adbscope_gfxinfo_frame_is_valid (f));
  g_assert_true (adbscope_gfxinfo_frame_is_valid (frame_at (w, 1)));
  /* 0,-1,268920843750,…,9223372036854775807,268920857760,16653763,…,
   * FrameCompleted 268923149063,…,-2,… */
  f = frame_at (w, 2);
  g_assert_true (adbscope_gfxinfo_frame_is_valid (f));
  g_assert_cmpint (f->vsync_id, ==, -1);
  g_assert_cmpint (f->deadline_ns, ==, -1);
  g_assert_cmpint (f->duration_ns, ==, 268923149063 - 268920843750);
  g_assert_cmpint (f->frame_interval_ns, ==, 16653763);
  g_assert_cmpint (count_valid (w), ==, 2);

  fresh = adbscope_gfxinfo_new_frames (NULL, only_process (info));
  g_assert_cmpuint (fresh->len, ==, 2);
}

static void
test_samsung_bom (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12to14-samsung-120hz-framestats-full-bom.txt");
  g_autoptr(AdbscopeGfxinfo) idle = parse_fixture ("android12to14-samsung-120hz-framestats-full-idle-bom.txt");
  AdbscopeGfxinfoProcess *p = only_process (info);
  AdbscopeGfxinfoWindow *w;
  const AdbscopeGfxinfoFrame *f;

  /* The BOM must not hide the banner. */
  g_assert_cmpint (info->uptime_ms, ==, 314859701);
  g_assert_cmpint (p->pid, ==, 31667);
  g_assert_cmpstr (p->package, ==, "com.soundvisualization.accessibility");
  g_assert_cmpint (p->stats.stats_since_ns, ==, 314846275543381);
  g_assert_cmpint (p->stats.total_frames, ==, 516);
  g_assert_cmpint (p->stats.janky_frames, ==, 113);
  g_assert_cmpint (p->stats.janky_frames_legacy, ==, 356);
  g_assert_cmpfloat_with_epsilon (p->stats.janky_pct_legacy, 68.99, 1e-9);
  g_assert_cmpint (p->stats.percentile_ms[P50], ==, 11);
  g_assert_cmpint (p->stats.percentile_ms[P99], ==, 101);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P50], ==, 3);
  g_assert_cmpint (p->stats.gpu_percentile_ms[P99], ==, 8);
  g_assert_cmpint (p->stats.frame_deadline_missed_legacy, ==, 43);

  g_assert_cmpuint (p->windows->len, ==, 1);
  w = window_at (p, 0);
  g_assert_cmpstr (w->name, ==,
                   "com.soundvisualization.accessibility/com.soundvisualization.accessibility.MainActivity/android.view.ViewRootImpl@73f2e63");
  g_assert_cmpstr (w->title, ==,
                   "com.soundvisualization.accessibility/com.soundvisualization.accessibility.MainActivity");
  g_assert_cmpint (w->stats.stats_since_ns, ==, 314846275541194);
  g_assert_cmpint (w->stats.total_frames, ==, 516);
  g_assert_cmpuint (w->frames->len, ==, 120);
  g_assert_cmpuint (w->n_bad_rows, ==, 0);
  g_assert_cmpuint (count_valid (w), ==, 120);
  g_assert_cmpuint (adbscope_gfxinfo_process_count_frames (p), ==, 120);
  /* First row: IntendedVsync 314856675367713, FrameCompleted
   * 314856686928950, 120 Hz: interval 8311780. */
  f = frame_at (w, 0);
  g_assert_cmpint (f->intended_vsync_ns, ==, 314856675367713);
  g_assert_cmpint (f->duration_ns, ==, 11561237);
  g_assert_cmpint (f->frame_interval_ns, ==, 8311780);
  g_assert_cmpint (f->vsync_id, ==, 27432918);

  p = only_process (idle);
  g_assert_cmpint (p->pid, ==, 16473);
  g_assert_cmpuint (window_at (p, 0)->frames->len, ==, 120);
  g_assert_cmpint (frame_at (window_at (p, 0), 0)->duration_ns, ==, 11002794);
}

static void
test_all_processes_topicon (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12plus-topicon-t865-all-processes-framestats-full.txt");
  AdbscopeGfxinfoProcess *p;
  AdbscopeGfxinfoWindow *w;

  g_assert_cmpuint (info->processes->len, ==, 47);

  /* The first process has no stats and no frames at all. */
  p = g_ptr_array_index (info->processes, 0);
  g_assert_cmpint (p->pid, ==, 28907);
  g_assert_cmpstr (p->package, ==, "de.codevoid.aNavMode");
  g_assert_false (p->stats.present);

  p = adbscope_gfxinfo_find_process (info, "de.codevoid.andronavibar");
  g_assert_nonnull (p);
  g_assert_cmpint (p->pid, ==, 17477);
  g_assert_cmpint (p->stats.total_frames, ==, 3370);
  g_assert_cmpint (p->stats.janky_frames, ==, 363);
  g_assert_cmpint (p->stats.janky_frames_legacy, ==, 1614);
  g_assert_cmpuint (p->windows->len, ==, 1);
  w = window_at (p, 0);
  g_assert_cmpint (w->stats.stats_since_ns, ==, 15949039742641);
  g_assert_cmpuint (w->frames->len, ==, 120);
  g_assert_cmpuint (count_valid (w), ==, 116);
  g_assert_cmpint (frame_at (w, 0)->intended_vsync_ns, ==, 25622425131009);
  g_assert_cmpint (frame_at (w, 0)->duration_ns, ==, 54812517);
  g_assert_cmpint (frame_at (w, 0)->frame_interval_ns, ==, 16666667);

  p = adbscope_gfxinfo_find_process (info, "com.android.settings");
  g_assert_cmpint (p->pid, ==, 1955);
  g_assert_cmpint (p->stats.total_frames, ==, 3463);
  g_assert_cmpuint (p->windows->len, ==, 3);
  g_assert_cmpint (window_at (p, 0)->stats.total_frames, ==, 65);
  g_assert_cmpuint (window_at (p, 0)->frames->len, ==, 67);
  g_assert_cmpuint (count_valid (window_at (p, 0)), ==, 34);
  g_assert_cmpstr (window_at (p, 1)->title, ==, "com.android.settings/com.android.settings.SubSettings");
  g_assert_cmpuint (window_at (p, 1)->frames->len, ==, 80);
  g_assert_cmpuint (window_at (p, 2)->frames->len, ==, 120);

  p = adbscope_gfxinfo_find_process (info, "com.android.launcher3");
  g_assert_cmpint (p->pid, ==, 2018);
  g_assert_cmpuint (p->windows->len, ==, 2);
  w = window_at (p, 0);
  g_assert_cmpstr (w->title, ==, "Taskbar");
  g_assert_cmpint (w->stats.total_frames, ==, 3177);
  g_assert_cmpint (w->stats.janky_frames, ==, 205);
  g_assert_cmpuint (count_valid (w), ==, 120 - 86);

  p = adbscope_gfxinfo_find_process (info, "com.android.systemui");
  g_assert_cmpuint (p->windows->len, ==, 5);
  g_assert_cmpstr (window_at (p, 4)->name, ==, "StatusBar/android.view.ViewRootImpl@3bb68ba");
  g_assert_cmpstr (window_at (p, 4)->title, ==, "StatusBar");
  g_assert_cmpuint (window_at (p, 0)->frames->len, ==, 0);
  g_assert_cmpuint (window_at (p, 1)->frames->len, ==, 21);
  g_assert_cmpuint (window_at (p, 4)->frames->len, ==, 120);
  /* The old TAB table under StatusBar is not taken for framestats. */
  g_assert_cmpuint (window_at (p, 4)->n_bad_rows, ==, 0);
}

static void
test_all_processes_bugreport (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-gfxinfo-all-processes.txt");
  AdbscopeGfxinfoProcess *p;

  g_assert_cmpuint (info->processes->len, ==, 15);
  g_assert_cmpint (info->uptime_ms, ==, 2727547);

  p = adbscope_gfxinfo_find_process (info, "com.mediatek.camera");
  g_assert_cmpint (p->pid, ==, 3784);
  g_assert_cmpint (p->stats.stats_since_ns, ==, 204938583011);
  g_assert_cmpint (p->stats.total_frames, ==, 65658);
  g_assert_cmpuint (adbscope_gfxinfo_process_count_frames (p), ==, 120);
  g_assert_cmpint (frame_at (window_at (p, 0), 0)->duration_ns, ==, 8371844);

  /* Two windows share the title SubSettings; their root names differ. */
  p = adbscope_gfxinfo_find_process (info, "com.android.settings");
  g_assert_cmpuint (p->windows->len, ==, 3);
  g_assert_cmpstr (window_at (p, 1)->title, ==, window_at (p, 2)->title);
  g_assert_cmpstr (window_at (p, 1)->name, !=, window_at (p, 2)->name);
  g_assert_cmpuint (window_at (p, 1)->frames->len, ==, 69);
  g_assert_cmpuint (count_valid (window_at (p, 1)), ==, 35);
  g_assert_cmpuint (adbscope_gfxinfo_process_count_frames (p), ==, (120 - 32) + (69 - 34) + (120 - 59));

  p = adbscope_gfxinfo_find_process (info, "com.android.systemui");
  g_assert_cmpuint (p->windows->len, ==, 8);
}

/* Remove the last @n framestats rows of the (single) table: what the same
 * process printed @n frames earlier, as far as new frames go. */
static char *
drop_last_rows (const char *text,
                guint       n)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  guint n_lines = g_strv_length (lines);
  int last_row = -1;

  for (guint i = 0; i < n_lines; i++)
    if (g_ascii_isdigit (lines[i][0]) && strchr (lines[i], ',') != NULL)
      last_row = (int) i;
  g_assert_cmpint (last_row, >=, (int) n);

  for (guint i = 0; i < n_lines; i++)
    if (!((int) i > last_row - (int) n && (int) i <= last_row))
      {
        g_string_append (out, lines[i]);
        if (i + 1 < n_lines)
          g_string_append_c (out, '\n');
      }
  return g_string_free (out, FALSE);
}

static void
test_new_frames (void)
{
  g_autofree char *text = NULL;
  g_autofree char *earlier = NULL;
  g_autoptr(AdbscopeGfxinfo) cur = NULL;
  g_autoptr(AdbscopeGfxinfo) prev = NULL;
  g_autoptr(AdbscopeGfxinfo) other = NULL;
  g_autoptr(GArray) fresh = NULL;
  g_autoptr(GArray) none = NULL;
  g_autoptr(GArray) all = NULL;
  AdbscopeGfxinfoWindow *w;
  gsize len;

  text = load_fixture ("gfxinfo/android12to14-samsung-120hz-framestats-full-bom.txt", &len);
  earlier = drop_last_rows (text, 10);
  cur = adbscope_gfxinfo_parse (text, len, NULL);
  prev = adbscope_gfxinfo_parse (earlier, -1, NULL);
  g_assert_nonnull (cur);
  g_assert_nonnull (prev);
  g_assert_cmpuint (window_at (only_process (prev), 0)->frames->len, ==, 110);

  w = window_at (only_process (cur), 0);
  fresh = adbscope_gfxinfo_new_frames (only_process (prev), only_process (cur));
  g_assert_cmpuint (fresh->len, ==, 10);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (g_array_index (fresh, AdbscopeGfxinfoFrame, i).intended_vsync_ns, ==,
                     frame_at (w, 110 + i)->intended_vsync_ns);

  /* The same dump twice: nothing new, nothing counted twice. */
  none = adbscope_gfxinfo_new_frames (only_process (cur), only_process (cur));
  g_assert_cmpuint (none->len, ==, 0);

  /* Another pid (app restarted): every frame is new. */
  other = parse_fixture ("android12to14-samsung-120hz-framestats-full-idle-bom.txt");
  all = adbscope_gfxinfo_new_frames (only_process (other), only_process (cur));
  g_assert_cmpuint (all->len, ==, 120);
}

/* Several windows: each window keeps its own high-water mark, and the
 * result is sorted by IntendedVsync. */
static void
test_new_frames_windows (void)
{
  g_autoptr(AdbscopeGfxinfo) info = parse_fixture ("android12plus-topicon-t865-all-processes-framestats-full.txt");
  AdbscopeGfxinfoProcess *p = adbscope_gfxinfo_find_process (info, "com.android.systemui");
  g_autoptr(GArray) all = adbscope_gfxinfo_new_frames (NULL, p);
  g_autoptr(GArray) none = adbscope_gfxinfo_new_frames (p, p);

  g_assert_cmpuint (all->len, ==, adbscope_gfxinfo_process_count_frames (p));
  /* Flags=0 rows minus three whose FrameCompleted is 0 (never completed,
   * e.g. "0,111307,894322970592,…,894325178360,0,39077,…"). */
  g_assert_cmpuint (all->len, ==, (21 - 2) + (120 - 15) + (120 - 1) - 3);
  for (guint i = 1; i < all->len; i++)
    g_assert_cmpint (g_array_index (all, AdbscopeGfxinfoFrame, i - 1).intended_vsync_ns, <=,
                     g_array_index (all, AdbscopeGfxinfoFrame, i).intended_vsync_ns);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
expect_error (const char *text,
              gssize      len,
              int         code)
{
  g_autoptr(GError) error = NULL;
  AdbscopeGfxinfo *info = adbscope_gfxinfo_parse (text, len, &error);

  g_assert_null (info);
  g_assert_error (error, ADBSCOPE_ERROR, code);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpuint (strlen (error->message), >, 10);
}

static void
test_garbage (void)
{
  g_autofree char *junk = random_bytes (42, 4096);

  expect_error ("", 0, ADBSCOPE_ERROR_PARSE);
  expect_error ("\n\n   \n", -1, ADBSCOPE_ERROR_PARSE);
  expect_error ("Applications Graphics Acceleration Info:\nUptime: 1 Realtime: 2\n", -1, ADBSCOPE_ERROR_PARSE);
  expect_error ("Can't find service: gfxinfo\n", -1, ADBSCOPE_ERROR_NOT_SUPPORTED);
  expect_error ("No process found for: com.example.gone\n", -1, ADBSCOPE_ERROR_APP_NOT_RUNNING);
  expect_error ("hello world\nthis is not dumpsys\n", -1, ADBSCOPE_ERROR_PARSE);
  expect_error (junk, 4096, ADBSCOPE_ERROR_PARSE);
}

/* Every prefix of a framestats dump: no crash, and a row cut in the
 * middle is dropped, never turned into a bogus frame. */
static void
test_truncated (void)
{
  g_autofree char *text = NULL;
  gsize len;
  gsize cut;

  text = load_fixture ("gfxinfo/android12plus-framestats-edge-rows-vsyncid-minus1-deadline-maxlong-present-minus2-excerpt.txt", &len);
  for (gsize n = 0; n <= len; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AdbscopeGfxinfo) info = adbscope_gfxinfo_parse (text, n, &error);

      g_assert_true ((info == NULL) != (error == NULL));
      if (info != NULL)
        {
          AdbscopeGfxinfoProcess *p = only_process (info);

          for (guint w = 0; w < p->windows->len; w++)
            {
              AdbscopeGfxinfoWindow *win = window_at (p, w);

              g_assert_cmpuint (win->frames->len, <=, 3);
              for (guint i = 0; i < win->frames->len; i++)
                g_assert_cmpint (frame_at (win, i)->intended_vsync_ns, >=, 268728651013);
            }
        }
    }

  /* A last line without its newline may be cut short ("35" of "3560"):
   * its number is not taken. */
  {
    g_autoptr(AdbscopeGfxinfo) info =
      adbscope_gfxinfo_parse ("** Graphics info for pid 1 [a.b] **\nJanky frames: 3 (5.00%)\nTotal frames rendered: 35", -1, NULL);
    AdbscopeGfxinfoProcess *p = only_process (info);

    g_assert_cmpint (p->stats.janky_frames, ==, 3);
    g_assert_cmpint (p->stats.total_frames, ==, ADBSCOPE_GFXINFO_UNKNOWN);
  }

  /* Cut inside the last row: two frames and one bad row. */
  cut = strlen (text) - 30;
  {
    g_autoptr(AdbscopeGfxinfo) info = adbscope_gfxinfo_parse (text, cut, NULL);
    AdbscopeGfxinfoWindow *w = window_at (only_process (info), 0);

    g_assert_cmpuint (w->frames->len, ==, 2);
    g_assert_cmpuint (w->n_bad_rows, ==, 1);
  }
}

/* CRLF line ends (a capture saved on Windows) parse like LF. */
static void
test_crlf (void)
{
  g_autofree char *text = NULL;
  g_autoptr(AdbscopeGfxinfo) info = NULL;
  g_autoptr(GString) s = g_string_new (NULL);
  gsize len;

  text = load_fixture ("gfxinfo/android12plus-framestats-profiledata-header-and-rows-excerpt.txt", &len);
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '\n')
        g_string_append_c (s, '\r');
      g_string_append_c (s, text[i]);
    }
  info = adbscope_gfxinfo_parse (s->str, s->len, NULL);
  g_assert_nonnull (info);
  g_assert_cmpuint (window_at (only_process (info), 0)->frames->len, ==, 3);
  g_assert_cmpint (frame_at (window_at (only_process (info), 0), 0)->duration_ns, ==, 4539376);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/gfxinfo/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/gfxinfo/legacy-4.3-5", test_legacy);
  g_test_add_func ("/dumpsys/gfxinfo/android6", test_android6);
  g_test_add_func ("/dumpsys/gfxinfo/official-docs", test_official_docs_excerpts);
  g_test_add_func ("/dumpsys/gfxinfo/android7-histogram", test_android7_histogram);
  g_test_add_func ("/dumpsys/gfxinfo/android9-10", test_android9_and_10);
  g_test_add_func ("/dumpsys/gfxinfo/android11-gpu", test_android11_gpu);
  g_test_add_func ("/dumpsys/gfxinfo/android12-legacy-lines", test_android12_legacy_lines);
  g_test_add_func ("/dumpsys/gfxinfo/framestats-columns-by-name", test_framestats_12_columns_by_name);
  g_test_add_func ("/dumpsys/gfxinfo/framestats-edge-rows", test_framestats_edge_rows);
  g_test_add_func ("/dumpsys/gfxinfo/samsung-bom", test_samsung_bom);
  g_test_add_func ("/dumpsys/gfxinfo/all-processes-topicon", test_all_processes_topicon);
  g_test_add_func ("/dumpsys/gfxinfo/all-processes-bugreport", test_all_processes_bugreport);
  g_test_add_func ("/dumpsys/gfxinfo/new-frames", test_new_frames);
  g_test_add_func ("/dumpsys/gfxinfo/new-frames-windows", test_new_frames_windows);
  g_test_add_func ("/dumpsys/gfxinfo/garbage", test_garbage);
  g_test_add_func ("/dumpsys/gfxinfo/truncated", test_truncated);
  g_test_add_func ("/dumpsys/gfxinfo/crlf", test_crlf);

  return g_test_run ();
}
