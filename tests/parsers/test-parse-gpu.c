/* test-parse-gpu.c: kgsl and devfreq GPU files.  No capture of these is in
 * the shared fixtures; the layouts are those of the msm kgsl driver
 * (gpu_busy_percentage "%d %%\n", gpubusy "%7d %7d\n", gpuclk in Hz) and
 * of devfreq's sysfs ABI (cur_freq in Hz). */
#include "config.h"

#include <math.h>

#include "adbscope-parse-gpu.h"

static void
test_busy (void)
{
  g_assert_cmpfloat (adbscope_gpu_parse_busy_pct ("35 %\n"), ==, 35.0);
  g_assert_cmpfloat (adbscope_gpu_parse_busy_pct ("0 %"), ==, 0.0);
  g_assert_cmpfloat (adbscope_gpu_parse_busy_pct ("   3500   10000\n"), ==, 35.0);
  /* powered down: no busy time in no window — idle, not unknown */
  g_assert_cmpfloat (adbscope_gpu_parse_busy_pct ("      0       0\n"), ==, 0.0);
  g_assert_true (isnan (adbscope_gpu_parse_busy_pct ("      5       0\n")));
  g_assert_true (adbscope_gpu_file_is_number ("0\n"));
  g_assert_false (adbscope_gpu_file_is_number ("Permission denied"));
  g_assert_false (adbscope_gpu_file_is_number (NULL));
  g_assert_true (isnan (adbscope_gpu_parse_busy_pct ("120 %")));
  g_assert_true (isnan (adbscope_gpu_parse_busy_pct ("Permission denied")));
  g_assert_true (isnan (adbscope_gpu_parse_busy_pct (NULL)));
  g_assert_true (isnan (adbscope_gpu_parse_busy_pct ("20 10\n")));
}

static void
test_freq (void)
{
  g_assert_cmpfloat (adbscope_gpu_parse_freq_mhz ("585000000\n"), ==, 585.0);
  g_assert_true (isnan (adbscope_gpu_parse_freq_mhz ("0\n")));
  g_assert_true (isnan (adbscope_gpu_parse_freq_mhz ("")));
  g_assert_true (isnan (adbscope_gpu_parse_freq_mhz (NULL)));
}

static void
test_devfreq_names (void)
{
  g_assert_true (adbscope_gpu_devfreq_is_gpu ("13000000.mali"));
  g_assert_true (adbscope_gpu_devfreq_is_gpu ("1c500000.mali"));
  g_assert_true (adbscope_gpu_devfreq_is_gpu ("3d00000.qcom,kgsl-3d0"));
  g_assert_true (adbscope_gpu_devfreq_is_gpu ("gpufreq"));
  g_assert_false (adbscope_gpu_devfreq_is_gpu ("soc:qcom,cpu-cpu-llcc-bw"));
  g_assert_false (adbscope_gpu_devfreq_is_gpu ("1d84000.ufshc"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/busy", test_busy);
  g_test_add_func ("/gpu/freq", test_freq);
  g_test_add_func ("/gpu/devfreq-names", test_devfreq_names);
  return g_test_run ();
}
