/* test-meminfo.c: `dumpsys meminfo` parser against real captures
 *
 * Expected numbers were read off the fixture files by eye.
 */
#include "config.h"

#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-meminfo.h"
#include "dumpsys-test-util.h"

#define UNKNOWN ADBSCOPE_MEMINFO_UNKNOWN

static AdbscopeMeminfo *
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename ("meminfo", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeMeminfo *info;
  gsize len;

  text = load_fixture (path, &len);
  info = adbscope_meminfo_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

static AdbscopeMeminfoProcess *
only_process (AdbscopeMeminfo *info)
{
  g_assert_cmpuint (info->processes->len, ==, 1);
  g_assert_cmpuint (info->n_incomplete, ==, 0);
  g_assert_false (info->system.present);
  return g_ptr_array_index (info->processes, 0);
}

static void
assert_summary_pss (AdbscopeMeminfoProcess *p,
                    gint64 java, gint64 native, gint64 code, gint64 stack,
                    gint64 graphics, gint64 other, gint64 system)
{
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_JAVA_HEAP], ==, java);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_NATIVE_HEAP], ==, native);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_CODE], ==, code);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_STACK], ==, stack);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_GRAPHICS], ==, graphics);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_PRIVATE_OTHER], ==, other);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_SYSTEM], ==, system);
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) names = list_fixtures ("meminfo");

  g_assert_cmpuint (names->len, >=, 7);
  for (guint i = 0; i < names->len; i++)
    {
      const char *path = g_ptr_array_index (names, i);
      g_autoptr(AdbscopeMeminfo) info = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gsize len;

      g_test_message ("%s", path);
      text = load_fixture (path, &len);
      info = adbscope_meminfo_parse (text, len, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (info->processes->len, >=, 1);
      for (guint j = 0; j < info->processes->len; j++)
        {
          AdbscopeMeminfoProcess *p = g_ptr_array_index (info->processes, j);

          g_assert_cmpint (p->pid, >, 0);
          g_assert_cmpint (p->total_pss_kb, >, 0);
          g_assert_cmpint (p->views, >=, 0);
        }
    }
}

static void
test_android43 (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android4.3-pkg-shared-dirty-layout.txt");
  AdbscopeMeminfoProcess *p = only_process (info);
  const char * const columns[] = { "Pss", "Shared Dirty", "Private Dirty", "Heap Size", "Heap Alloc", "Heap Free", NULL };

  g_assert_cmpint (info->uptime_ms, ==, 69627589);
  g_assert_cmpint (info->realtime_ms, ==, 376894346);
  g_assert_cmpint (p->pid, ==, 29607);
  g_assert_cmpstr (p->package, ==, "com.sample.package");
  g_assert_cmpstrv (p->columns, columns);
  g_assert_cmpint (p->total_pss_kb, ==, 28929);
  g_assert_cmpint (p->total_rss_kb, ==, UNKNOWN);
  g_assert_cmpint (p->total_swap_kb, ==, UNKNOWN);
  assert_summary_pss (p, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);
  /* The old rows are called "Native" and "Dalvik". */
  g_assert_cmpint (p->native_heap_size_kb, ==, 11296);
  g_assert_cmpint (p->native_heap_alloc_kb, ==, 7927);
  g_assert_cmpint (p->native_heap_free_kb, ==, 408);
  g_assert_cmpint (p->dalvik_heap_size_kb, ==, 13388);
  g_assert_cmpint (p->dalvik_heap_alloc_kb, ==, 7454);
  g_assert_cmpint (p->dalvik_heap_free_kb, ==, 5934);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, ".so mmap", "Shared Dirty"), ==, 2028);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Cursor", "Heap Size"), ==, UNKNOWN);
  g_assert_cmpuint (p->rows->len, ==, 13);
  g_assert_cmpint (p->views, ==, 115);
  g_assert_cmpint (p->view_root_impl, ==, 1);
  g_assert_cmpint (p->app_contexts, ==, 6);
  g_assert_cmpint (p->activities, ==, 1);
  g_assert_cmpint (p->asset_managers, ==, 6);
  g_assert_cmpint (p->proxy_binders, ==, 23);
  g_assert_cmpint (p->death_recipients, ==, 0);
  g_assert_cmpint (p->openssl_sockets, ==, 3);
  g_assert_cmpint (p->parcel_count, ==, UNKNOWN);
  g_assert_cmpint (p->webviews, ==, UNKNOWN);
}

static void
test_android44 (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android4.4-pkg-no-app-summary.txt");
  AdbscopeMeminfoProcess *p = only_process (info);

  g_assert_cmpint (p->pid, ==, 30125);
  g_assert_cmpuint (p->n_columns, ==, 7);
  g_assert_cmpstr (p->columns[0], ==, "Pss Total");
  g_assert_cmpstr (p->columns[3], ==, "Swapped Dirty");
  g_assert_cmpint (p->total_pss_kb, ==, 44563);
  g_assert_cmpint (p->total_swap_kb, ==, 0);
  g_assert_false (p->swap_is_pss);
  g_assert_cmpint (p->total_rss_kb, ==, UNKNOWN);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_JAVA_HEAP], ==, UNKNOWN);
  g_assert_cmpint (p->native_heap_size_kb, ==, 8948);
  g_assert_cmpint (p->native_heap_alloc_kb, ==, 8520);
  g_assert_cmpint (p->dalvik_heap_free_kb, ==, 1774);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Dalvik Heap", "Pss Total"), ==, 23195);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, ".dex mmap", "Private Clean"), ==, 4648);
  g_assert_cmpuint (p->rows->len, ==, 13);
  g_assert_cmpint (p->views, ==, 690);
  g_assert_cmpint (p->openssl_sockets, ==, 7);
}

static void
test_android6 (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android6-pkg-app-summary-no-rss.txt");
  AdbscopeMeminfoProcess *p = only_process (info);

  g_assert_cmpint (p->pid, ==, 22861);
  g_assert_cmpint (p->total_pss_kb, ==, 145991);
  g_assert_cmpint (p->total_swap_kb, ==, 22236);
  g_assert_false (p->swap_is_pss);
  g_assert_cmpint (p->total_rss_kb, ==, UNKNOWN);
  assert_summary_pss (p, 17976, 24240, 33748, 1316, 40829, 17932, 9950);
  for (guint i = 0; i < ADBSCOPE_MEMINFO_N_CATEGORIES; i++)
    g_assert_cmpint (p->summary_rss_kb[i], ==, UNKNOWN);
  g_assert_cmpint (p->native_heap_size_kb, ==, 60416);
  g_assert_cmpint (p->native_heap_alloc_kb, ==, 56957);
  g_assert_cmpint (p->native_heap_free_kb, ==, 3458);
  g_assert_cmpint (p->dalvik_heap_size_kb, ==, 34525);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "GL mtrack", "Pss Total"), ==, 32867);
  g_assert_cmpint (p->views, ==, 553);
  g_assert_cmpint (p->parcel_memory_kb, ==, 11);
  g_assert_cmpint (p->parcel_count, ==, 46);
  g_assert_cmpint (p->death_recipients, ==, 2);
  g_assert_cmpint (p->openssl_sockets, ==, 10);
}

static void
test_android9_swappss (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android9or10-flutter-gallery-swappss-no-rss.txt");
  AdbscopeMeminfoProcess *p = only_process (info);

  g_assert_cmpint (info->uptime_ms, ==, 441088659);
  g_assert_cmpint (p->pid, ==, 16141);
  g_assert_cmpstr (p->package, ==, "io.flutter.demo.gallery");
  g_assert_cmpstr (p->columns[3], ==, "SwapPss Dirty");
  g_assert_cmpint (p->total_pss_kb, ==, 95085);
  g_assert_cmpint (p->total_swap_kb, ==, 62);
  g_assert_true (p->swap_is_pss);
  g_assert_cmpint (p->total_rss_kb, ==, UNKNOWN);
  assert_summary_pss (p, 4296, 8620, 11288, 496, 2584, 65228, 2573);
  g_assert_cmpint (p->native_heap_size_kb, ==, 20480);
  g_assert_cmpint (p->dalvik_heap_alloc_kb, ==, 1092);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Gfx dev", "Pss Total"), ==, 212);
  g_assert_cmpint (p->views, ==, 9);
  g_assert_cmpint (p->webviews, ==, 0);
}

static void
test_android11_rss (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android11-pixel2-pkg-app-summary-rss.txt");
  AdbscopeMeminfoProcess *p = only_process (info);

  g_assert_cmpint (p->pid, ==, 14978);
  g_assert_cmpstr (p->package, ==, "com.DefaultCompany.MemoryTests");
  g_assert_cmpuint (p->n_columns, ==, 8);
  g_assert_cmpstr (p->columns[4], ==, "Rss Total");
  g_assert_cmpint (p->total_pss_kb, ==, 688561);
  g_assert_cmpint (p->total_rss_kb, ==, 746132);
  g_assert_cmpint (p->total_swap_kb, ==, 15);
  g_assert_true (p->swap_is_pss);
  assert_summary_pss (p, 10152, 396792, 46672, 1536, 85032, 143112, 5265);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_JAVA_HEAP], ==, 24732);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_NATIVE_HEAP], ==, 399380);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_CODE], ==, 90480);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_GRAPHICS], ==, 85032);
  /* "Private Other" has a Pss only, "Unknown" an Rss only. */
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_PRIVATE_OTHER], ==, UNKNOWN);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY], ==, UNKNOWN);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY], ==, 144960);
  g_assert_cmpint (p->native_heap_size_kb, ==, 550768);
  g_assert_cmpint (p->native_heap_alloc_kb, ==, 504803);
  g_assert_cmpint (p->native_heap_free_kb, ==, 40775);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "EGL mtrack", "Rss Total"), ==, 49956);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Dalvik Other", "Rss Total"), ==, 2092);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Dalvik Other", "Heap Size"), ==, UNKNOWN);
  g_assert_cmpint (p->local_binders, ==, 16);
  g_assert_cmpint (p->proxy_binders, ==, 36);
}

static void
test_emulator_native_allocations (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("emulator-x86_64-recent-pkg-swap-dirty-native-allocations.txt");
  AdbscopeMeminfoProcess *p = only_process (info);

  g_assert_cmpint (p->pid, ==, 3794);
  g_assert_cmpstr (p->columns[3], ==, "Swap Dirty");
  g_assert_cmpint (p->total_pss_kb, ==, 353574);
  g_assert_cmpint (p->total_rss_kb, ==, 508256);
  g_assert_cmpint (p->total_swap_kb, ==, 0);
  g_assert_false (p->swap_is_pss);
  assert_summary_pss (p, 34292, 57464, 37436, 1632, 0, 203408, 19342);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_CODE], ==, 165372);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY], ==, 215024);
  g_assert_cmpint (p->native_heap_size_kb, ==, 95852);
  g_assert_cmpint (p->dalvik_heap_size_kb, ==, 23667);
  /* Rows padded with trailing blanks; a line of one space ends the table. */
  g_assert_cmpuint (p->rows->len, ==, 16);
  g_assert_cmpint (adbscope_meminfo_process_get_cell (p, "Other mmap", "Rss Total"), ==, 70408);
  g_assert_cmpint (p->views, ==, 31);
  g_assert_cmpint (p->app_contexts, ==, 22);
  g_assert_cmpint (p->death_recipients, ==, 4);
  g_assert_cmpint (p->webviews, ==, 0);
  /* "Native Allocations" counts do not leak into the objects. */
  g_assert_null (adbscope_meminfo_process_find_row (p, "Bitmap (malloced):"));
}

static void
test_system_summary (void)
{
  g_autoptr(AdbscopeMeminfo) info = parse_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-meminfo-system-summary.txt");
  AdbscopeMeminfoProcess *p;
  const char * const columns[] = {
    "Pss Total", "Pss Clean", "Shared Dirty", "Private Dirty", "Shared Clean", "Private Clean",
    "Swap Dirty", "Rss Total", "Heap Size", "Heap Alloc", "Heap Free", NULL
  };

  g_assert_cmpuint (info->processes->len, ==, 15);
  g_assert_cmpuint (info->n_incomplete, ==, 0);

  p = adbscope_meminfo_find_process (info, "com.mediatek.camera");
  g_assert_nonnull (p);
  g_assert_cmpint (p->pid, ==, 3784);
  g_assert_cmpstrv (p->columns, columns);
  g_assert_cmpint (p->total_pss_kb, ==, 35508);
  g_assert_cmpint (p->total_rss_kb, ==, 184184);
  g_assert_cmpint (p->total_swap_kb, ==, 0);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_JAVA_HEAP], ==, 2760);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_JAVA_HEAP], ==, 32580);
  g_assert_cmpint (p->summary_rss_kb[ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY], ==, 8316);
  g_assert_cmpint (p->native_heap_size_kb, ==, 24256);
  g_assert_cmpint (p->native_heap_alloc_kb, ==, 12431);
  g_assert_cmpint (p->views, ==, 113);
  /* The "Dalvik Details" rows are not part of the main table. */
  g_assert_cmpuint (p->rows->len, ==, 16);
  g_assert_null (adbscope_meminfo_process_find_row (p, ".Heap"));

  p = adbscope_meminfo_find_process (info, "system");
  g_assert_cmpint (p->pid, ==, 832);
  g_assert_cmpint (p->total_pss_kb, ==, 223926);
  g_assert_cmpint (p->total_rss_kb, ==, 417500);
  g_assert_cmpint (p->summary_pss_kb[ADBSCOPE_MEMINFO_CODE], ==, 121712);
  g_assert_cmpint (p->local_binders, ==, 400);
  g_assert_cmpint (p->proxy_binders, ==, 719);
  g_assert_cmpint (p->death_recipients, ==, 331);

  /* Total RAM: 3,889,512K (status normal)
   *  Free RAM: 2,205,396K (…)   Used RAM: 1,519,307K (…)   Lost RAM: 164,805K
   *      ZRAM: 4K physical used for 0K in swap (2,139,224K total swap) */
  g_assert_true (info->system.present);
  g_assert_cmpint (info->system.total_ram_kb, ==, 3889512);
  g_assert_cmpstr (info->system.status, ==, "normal");
  g_assert_cmpint (info->system.free_ram_kb, ==, 2205396);
  g_assert_cmpint (info->system.used_ram_kb, ==, 1519307);
  g_assert_cmpint (info->system.lost_ram_kb, ==, 164805);
  g_assert_cmpint (info->system.zram_physical_kb, ==, 4);
  g_assert_cmpint (info->system.zram_swap_used_kb, ==, 0);
  g_assert_cmpint (info->system.zram_swap_total_kb, ==, 2139224);
}

/* Only the system totals, as `dumpsys meminfo | tail` would give. */
static void
test_system_summary_alone (void)
{
  g_autoptr(AdbscopeMeminfo) info = NULL;
  g_autoptr(GError) error = NULL;
  const char *text =
    "Total RAM: 3,889,512K (status normal)\n"
    " Free RAM: 2,205,396K (   10,096K cached pss + 1,633,128K cached kernel +   562,172K free)\n"
    " Used RAM: 1,519,307K (1,241,631K used pss +   277,676K kernel)\n"
    " Lost RAM:   164,805K\n";

  info = adbscope_meminfo_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info->processes->len, ==, 0);
  g_assert_cmpint (info->system.total_ram_kb, ==, 3889512);
  g_assert_cmpint (info->system.lost_ram_kb, ==, 164805);
  g_assert_cmpint (info->system.zram_physical_kb, ==, UNKNOWN);
}

static void
expect_error (const char *text,
              gssize      len,
              int         code)
{
  g_autoptr(GError) error = NULL;
  AdbscopeMeminfo *info = adbscope_meminfo_parse (text, len, &error);

  g_assert_null (info);
  g_assert_error (error, ADBSCOPE_ERROR, code);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpuint (strlen (error->message), >, 10);
}

static void
test_errors (void)
{
  g_autofree char *junk = random_bytes (7, 4096);

  expect_error ("", 0, ADBSCOPE_ERROR_PARSE);
  expect_error (" \n \n", -1, ADBSCOPE_ERROR_PARSE);
  expect_error ("No process found for: com.example.gone\n", -1, ADBSCOPE_ERROR_APP_NOT_RUNNING);
  expect_error ("Can't find service: meminfo\n", -1, ADBSCOPE_ERROR_NOT_SUPPORTED);
  expect_error ("Applications Memory Usage (in Kilobytes):\nUptime: 1 Realtime: 1\n", -1, ADBSCOPE_ERROR_PARSE);
  expect_error ("Can't find service: gfxinfo\n", -1, ADBSCOPE_ERROR_NOT_SUPPORTED);
  expect_error (junk, 4096, ADBSCOPE_ERROR_PARSE);
}

static gsize
offset_of (const char *haystack,
           const char *needle)
{
  const char *hit = strstr (haystack, needle);

  g_assert_nonnull (hit);
  return (gsize) (hit - haystack);
}

/* Every prefix: no crash; a block cut before its totals is dropped, never
 * returned with half its numbers. */
static void
test_truncated (void)
{
  g_autofree char *text = NULL;
  gsize len;
  gsize total_end;

  text = load_fixture ("meminfo/android11-pixel2-pkg-app-summary-rss.txt", &len);
  /* The table's TOTAL row counts once its newline is there: before, its
   * last number might be cut short. */
  total_end = offset_of (text, "        TOTAL   688561");
  total_end += offset_of (text + total_end, "\n");

  for (gsize n = 0; n <= len; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AdbscopeMeminfo) info = adbscope_meminfo_parse (text, n, &error);

      g_assert_true ((info == NULL) != (error == NULL));
      if (n <= total_end)
        {
          g_assert_null (info);
          g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
        }
      else
        {
          AdbscopeMeminfoProcess *p = only_process (info);

          g_assert_cmpint (p->total_pss_kb, ==, 688561);
        }
    }
}
int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/meminfo/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/meminfo/android4.3", test_android43);
  g_test_add_func ("/dumpsys/meminfo/android4.4", test_android44);
  g_test_add_func ("/dumpsys/meminfo/android6", test_android6);
  g_test_add_func ("/dumpsys/meminfo/android9-swappss", test_android9_swappss);
  g_test_add_func ("/dumpsys/meminfo/android11-rss", test_android11_rss);
  g_test_add_func ("/dumpsys/meminfo/emulator-native-allocations", test_emulator_native_allocations);
  g_test_add_func ("/dumpsys/meminfo/system-summary", test_system_summary);
  g_test_add_func ("/dumpsys/meminfo/system-summary-alone", test_system_summary_alone);
  g_test_add_func ("/dumpsys/meminfo/errors", test_errors);
  g_test_add_func ("/dumpsys/meminfo/truncated", test_truncated);

  return g_test_run ();
}
