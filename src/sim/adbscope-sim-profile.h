/* adbscope-sim-profile.h: the device profiles of the simulated device */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which layout the fake dumpsys speaks; named after the Android release
 * whose captures it follows. */
typedef enum
{
  ADBSCOPE_SIM_FORMAT_ANDROID_8 = 8,
  ADBSCOPE_SIM_FORMAT_ANDROID_13 = 13,
  ADBSCOPE_SIM_FORMAT_ANDROID_14 = 14,
} AdbscopeSimFormat;

/* How the GPU shows itself to the shell. */
typedef enum
{
  ADBSCOPE_SIM_GPU_NONE,     /* nothing readable (old Samsung: SELinux) */
  ADBSCOPE_SIM_GPU_KGSL,     /* Qualcomm Adreno: /sys/class/kgsl/kgsl-3d0 (busy % and clock) */
  ADBSCOPE_SIM_GPU_DEVFREQ,  /* Mali: /sys/class/devfreq/N.mali (frequency only) */
} AdbscopeSimGpu;

typedef struct
{
  const char        *name;
  int                sdk;
  const char        *release;
  const char        *manufacturer;
  const char        *brand;
  const char        *model;
  const char        *product;   /* ro.product.name */
  const char        *device;    /* ro.product.device */
  const char        *hardware;
  const char        *abi;
  const char        *abilist;
  const char        *build_id;
  const char        *incremental;
  const char        *security_patch;
  const char        *characteristics;
  int                refresh_hz;
  int                page_size;
  int                width;
  int                height;
  int                density;
  gboolean           psi;
  gboolean           thermalservice;
  gboolean           cpufreq;
  AdbscopeSimFormat  format;
  AdbscopeSimGpu     gpu;
} AdbscopeSimProfile;

const AdbscopeSimProfile *adbscope_sim_profile_lookup      (const char *name);
const char               *adbscope_sim_profile_list_names  (void);
char                     *adbscope_sim_profile_dup_fingerprint (const AdbscopeSimProfile *profile);
/* All properties, sorted by key, as a NULL-terminated key/value array. */
GPtrArray                *adbscope_sim_profile_dup_props   (const AdbscopeSimProfile *profile);

G_END_DECLS
