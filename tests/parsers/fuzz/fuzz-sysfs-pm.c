/* fuzz-sysfs-pm.c: cpufreq files, the cluster builder and pm list packages */
#include "config.h"

#include "adbscope-parse-pm.h"
#include "adbscope-parse-sysfs.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const char *text = (const char *) data;
  g_autoptr(GArray) list = adbscope_sysfs_parse_u64_list (text, size, NULL);
  g_autoptr(GArray) cpus = adbscope_sysfs_parse_cpu_list (text, size, NULL);
  g_autoptr(GArray) tis = adbscope_sysfs_parse_time_in_state (text, size, NULL);
  g_autoptr(GPtrArray) policies = adbscope_sysfs_parse_labelled_time_in_state (text, size, NULL);
  g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (text, size, NULL);
  guint64 v;

  adbscope_sysfs_parse_u64 (text, size, &v, NULL);
  g_assert (list == NULL || list->len > 0);
  g_assert (tis == NULL || tis->len > 0);
  if (pkgs != NULL)
    {
      guint i;

      for (i = 0; i < pkgs->len; i++)
        g_assert (((AdbscopePmPackage *) g_ptr_array_index (pkgs, i))->package[0] != '\0');
    }
  if (cpus != NULL)
    {
      guint i;

      for (i = 1; i < cpus->len; i++)
        g_assert (g_array_index (cpus, guint, i - 1) < g_array_index (cpus, guint, i));
    }
  if (policies != NULL)
    {
      g_autoptr(GPtrArray) clusters = adbscope_cpu_clusters_from_policies (policies, 16);
      guint i;

      for (i = 0; i < clusters->len; i++)
        g_assert (((AdbscopeCpuCluster *) g_ptr_array_index (clusters, i))->cpus->len > 0);
    }
  return 0;
}
