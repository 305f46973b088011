/* test-parse-sysfs.c: cpufreq files and the cluster builder */
#include "config.h"

#include <math.h>

#include "adbscope-parse-sysfs.h"
#include "parsers-test-util.h"

static void
test_time_in_state_mtk (void)
{
  g_autofree char *text = fixture_read ("sysfs/android13-mtk-mt8168-tablet-bugreport-cpu0-cpufreq-stats-time_in_state.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) t = adbscope_sysfs_parse_time_in_state (text, -1, &error);
  const AdbscopeFreqTime *last;

  g_assert_no_error (error);
  g_assert_cmpuint (g_array_index (t, AdbscopeFreqTime, 0).freq_khz, ==, 850000);
  g_assert_cmpuint (g_array_index (t, AdbscopeFreqTime, 0).time_10ms, ==, 87848);
  last = &g_array_index (t, AdbscopeFreqTime, t->len - 1);
  g_assert_cmpuint (last->freq_khz, ==, 2001000);
  g_assert_cmpuint (last->time_10ms, ==, 49217);
}

static void
test_four_clusters (void)
{
  g_autofree char *text = fixture_read ("sysfs/policy-time_in_state-4-clusters-sd8gen3-with-script-headers.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) policies = adbscope_sysfs_parse_labelled_time_in_state (text, -1, &error);
  g_autoptr(GPtrArray) clusters = NULL;
  static const guint first[] = { 0, 2, 5, 7 };
  static const guint n_cpus[] = { 2, 3, 2, 1 };
  static const guint64 max[] = { 2265600, 3148800, 2956800, 3302400 };
  guint i;

  g_assert_no_error (error);
  g_assert_cmpuint (policies->len, ==, 4);
  for (i = 0; i < 4; i++)
    g_assert_cmpuint (((AdbscopePolicyTimeInState *) g_ptr_array_index (policies, i))->cpu, ==, first[i]);
  g_assert_cmpuint (((AdbscopePolicyTimeInState *) g_ptr_array_index (policies, 0))->table->len, ==, 18);

  clusters = adbscope_cpu_clusters_from_policies (policies, 8);
  g_assert_cmpuint (clusters->len, ==, 4);
  for (i = 0; i < 4; i++)
    {
      AdbscopeCpuCluster *c = g_ptr_array_index (clusters, i);

      g_assert_cmpuint (g_array_index (c->cpus, guint, 0), ==, first[i]);
      g_assert_cmpuint (c->cpus->len, ==, n_cpus[i]);
      g_assert_cmpuint (c->max_freq_khz, ==, max[i]);
    }
}

static void
test_cpu_lists (void)
{
  g_autoptr(GArray) a = adbscope_sysfs_parse_cpu_list ("0-3\n", -1, NULL);
  g_autoptr(GArray) b = adbscope_sysfs_parse_cpu_list ("4 5 6 7 \n", -1, NULL);
  g_autoptr(GArray) c = adbscope_sysfs_parse_cpu_list ("0-1,6,3-4\n", -1, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (a->len, ==, 4);
  g_assert_cmpuint (g_array_index (a, guint, 3), ==, 3);
  g_assert_cmpuint (b->len, ==, 4);
  g_assert_cmpuint (g_array_index (b, guint, 0), ==, 4);
  g_assert_cmpuint (c->len, ==, 5);
  g_assert_cmpuint (g_array_index (c, guint, 2), ==, 3);
  g_assert_cmpuint (g_array_index (c, guint, 4), ==, 6);

  g_assert_null (adbscope_sysfs_parse_cpu_list ("3-1", -1, &error));
  assert_parse_error (error);
  g_clear_error (&error);
  g_assert_null (adbscope_sysfs_parse_cpu_list ("0-99999999", -1, &error));
  assert_parse_error (error);
}

static void
test_available_frequencies_and_numbers (void)
{
  g_autofree char *text = fixture_read ("sysfs/cpu0-scaling_available_frequencies-android4.0.3-tf201.txt", NULL);
  g_autofree char *gov = fixture_read ("sysfs/cpu0-scaling_governor-android4.0.3-tf201.txt", NULL);
  g_autoptr(GArray) f = adbscope_sysfs_parse_u64_list (text, -1, NULL);
  g_autoptr(GError) error = NULL;
  guint64 v = 0;

  g_assert_nonnull (f);
  g_assert_cmpuint (f->len, ==, 14);
  g_assert_cmpuint (g_array_index (f, guint64, 0), ==, 102000);
  g_assert_cmpuint (g_array_index (f, guint64, 13), ==, 1600000);

  g_assert_true (adbscope_sysfs_parse_u64 ("1804800\n", -1, &v, NULL));
  g_assert_cmpuint (v, ==, 1804800);
  /* scaling_governor is a word, not a number */
  g_assert_false (adbscope_sysfs_parse_u64 (gov, -1, &v, &error));
  assert_parse_error (error);
}

static void
test_cluster_builder (void)
{
  /* A 2+2 phone read through related_cpus, and one where related_cpus
   * could not be read (falls back to equal max freq). */
  g_autoptr(GArray) little = adbscope_sysfs_parse_cpu_list ("0-1", -1, NULL);
  g_autoptr(GArray) big = adbscope_sysfs_parse_cpu_list ("2 3", -1, NULL);
  AdbscopeCpuFreqInfo info[] = {
    { 3, big, 2400000 },
    { 0, little, 1800000 },
    { 2, big, 2400000 },
    { 1, little, 1800000 },
  };
  AdbscopeCpuFreqInfo bare[] = {
    { 0, NULL, 1500000 },
    { 1, NULL, 1500000 },
    { 2, NULL, 2000000 },
  };
  g_autoptr(GPtrArray) c = adbscope_cpu_clusters_build (info, G_N_ELEMENTS (info));
  g_autoptr(GPtrArray) d = adbscope_cpu_clusters_build (bare, G_N_ELEMENTS (bare));
  AdbscopeCpuCluster *k;

  g_assert_cmpuint (c->len, ==, 2);
  k = g_ptr_array_index (c, 0);
  g_assert_cmpuint (k->cpus->len, ==, 2);
  g_assert_cmpuint (g_array_index (k->cpus, guint, 0), ==, 0);
  g_assert_cmpuint (k->max_freq_khz, ==, 1800000);
  k = g_ptr_array_index (c, 1);
  g_assert_cmpuint (g_array_index (k->cpus, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (k->cpus, guint, 1), ==, 3);
  g_assert_cmpuint (k->max_freq_khz, ==, 2400000);

  g_assert_cmpuint (d->len, ==, 2);
  g_assert_cmpuint (((AdbscopeCpuCluster *) g_ptr_array_index (d, 1))->max_freq_khz, ==, 2000000);
}

static void
test_freq_normalise (void)
{
  guint64 cur[] = { 900000, 900000, 0, 1200000 };
  guint64 max[] = { 1800000, 1800000, 1800000, 2400000 };

  /* cpu2's cur freq was unreadable: left out of both sums */
  g_assert_cmpfloat_with_epsilon (adbscope_cpu_freq_normalise (80.0, cur, max, 4),
                                  80.0 * 3000000 / 6000000, 1e-9);
  g_assert_true (isnan (adbscope_cpu_freq_normalise (NAN, cur, max, 4)));
  g_assert_true (isnan (adbscope_cpu_freq_normalise (50.0, cur, max, 0)));
}

static void
test_sysfs_garbage (void)
{
  static const struct { const char *text; gssize len; } inputs[] = {
    { NULL, -1 },
    { "", -1 },
    { "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12 },
    { "lorem ipsum\n", -1 },
    { "850000\n", -1 },
    { "850000 87848 12\n", -1 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) e1 = NULL;
      g_autoptr(GError) e2 = NULL;
      g_autoptr(GError) e3 = NULL;

      g_test_message ("input %u", i);
      g_assert_null (adbscope_sysfs_parse_time_in_state (inputs[i].text, inputs[i].len, &e1));
      assert_parse_error (e1);
      g_assert_null (adbscope_sysfs_parse_labelled_time_in_state (inputs[i].text, inputs[i].len, &e2));
      assert_parse_error (e2);
      if (i < 4)
        {
          g_assert_null (adbscope_sysfs_parse_cpu_list (inputs[i].text, inputs[i].len, &e3));
          assert_parse_error (e3);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sysfs/time-in-state/mtk", test_time_in_state_mtk);
  g_test_add_func ("/sysfs/time-in-state/four-clusters", test_four_clusters);
  g_test_add_func ("/sysfs/cpu-lists", test_cpu_lists);
  g_test_add_func ("/sysfs/available-frequencies", test_available_frequencies_and_numbers);
  g_test_add_func ("/sysfs/cluster-builder", test_cluster_builder);
  g_test_add_func ("/sysfs/freq-normalise", test_freq_normalise);
  g_test_add_func ("/sysfs/garbage", test_sysfs_garbage);

  return g_test_run ();
}
