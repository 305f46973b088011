/* adbscope-parse-sysfs.h: cpufreq files and the CPU cluster builder */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One number (cpuinfo_max_freq, scaling_cur_freq: kHz). */
gboolean   adbscope_sysfs_parse_u64           (const char  *text,
                                               gssize       len,
                                               guint64     *out,
                                               GError     **error);
/* scaling_available_frequencies: guint64 kHz in file order. */
GArray    *adbscope_sysfs_parse_u64_list      (const char  *text,
                                               gssize       len,
                                               GError     **error);
/* related_cpus / affected_cpus / online: "0-3", "0 1 2 3", "0-3,6"
 * → sorted, unique guint array. */
GArray    *adbscope_sysfs_parse_cpu_list      (const char  *text,
                                               gssize       len,
                                               GError     **error);

/* time_in_state: "<kHz> <10 ms ticks>" lines */
typedef struct
{
  guint64 freq_khz;
  guint64 time_10ms;
} AdbscopeFreqTime;

GArray    *adbscope_sysfs_parse_time_in_state (const char  *text,
                                               gssize       len,
                                               GError     **error);

/* Several time_in_state tables, each after a "cpuN" label line (as written
 * by a capturing script that loops over the policies). */
typedef struct
{
  guint   cpu;       /* first cpu of the policy */
  GArray *table;     /* AdbscopeFreqTime */
} AdbscopePolicyTimeInState;

GPtrArray *adbscope_sysfs_parse_labelled_time_in_state (const char  *text,
                                                        gssize       len,
                                                        GError     **error);

/* Cluster builder.  Input: what the probe read per cpu (related_cpus may be
 * NULL when unreadable).  Cores sharing related_cpus form one cluster;
 * without related_cpus, cores of equal max freq do. */
typedef struct
{
  guint   cpu;
  GArray *related_cpus;     /* guint, may be NULL */
  guint64 max_freq_khz;     /* 0 when unknown */
} AdbscopeCpuFreqInfo;

typedef struct
{
  GArray *cpus;             /* guint, sorted */
  guint64 max_freq_khz;
} AdbscopeCpuCluster;

GPtrArray *adbscope_cpu_clusters_build        (const AdbscopeCpuFreqInfo *info,
                                               guint                      n_info);
GPtrArray *adbscope_cpu_clusters_from_policies (GPtrArray                 *policies,
                                                guint                      n_cpus);
void       adbscope_cpu_cluster_free          (AdbscopeCpuCluster        *cluster);

/* usage × Σ cur freq / Σ max freq over the cores with both known; NaN when
 * none is.  Cores whose cur freq could not be read are left out of both
 * sums. */
double     adbscope_cpu_freq_normalise        (double                     usage_pct,
                                               const guint64             *cur_khz,
                                               const guint64             *max_khz,
                                               guint                      n_cpus);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeCpuCluster, adbscope_cpu_cluster_free)

G_END_DECLS
