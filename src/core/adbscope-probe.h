/* adbscope-probe.h: what the device can tell us, asked once before collecting */
#pragma once

#include <glib.h>

#include "adbscope-types.h"

G_BEGIN_DECLS

/* More than any phone has; cpu numbers beyond it are not believed. */
#define ADBSCOPE_MAX_CORES 1024


typedef struct
{
  int     id;
  GArray *cpus;          /* int */
  double  max_freq_khz;
} AdbscopeCluster;

typedef struct
{
  char      *sdk;
  int        sdk_int;
  char      *release;
  char      *model;
  char      *manufacturer;
  char      *abi;
  char      *device;
  guint      n_cores;
  double    *max_freq_khz;  /* n_cores, NaN where unknown */
  GPtrArray *clusters;      /* AdbscopeCluster* */
  gint64     page_size;     /* bytes; -1 unknown */
  double     refresh_hz;    /* NaN unknown */
  gboolean   package_checked;
  gboolean   package_installed; /* `pm path PKG` printed a path */
  char      *gpu_node;      /* "kgsl-3d0", "13000000.mali", or NULL */
  char      *gpu_busy_path; /* the file the fast loop reads, or NULL */
  char      *gpu_freq_path;
  double     gpu_max_freq_mhz; /* NaN unknown */
  gboolean   supported[ADBSCOPE_N_SOURCES];
  char      *reason[ADBSCOPE_N_SOURCES];   /* why not, translated; NULL when supported */
} AdbscopeProbeResult;

const char          *adbscope_source_to_key        (AdbscopeSource  source);
char                *adbscope_probe_build_command  (const char     *package);
AdbscopeProbeResult *adbscope_probe_parse          (const char     *output,
                                                    GError        **error);
void                 adbscope_probe_result_free    (AdbscopeProbeResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeProbeResult, adbscope_probe_result_free)

G_END_DECLS
