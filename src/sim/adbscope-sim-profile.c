/* adbscope-sim-profile.c: the table of simulated devices
 *
 * Values are modelled on real devices of each release so that probes see
 * something plausible; nothing here claims to be a particular unit.
 */
#include "config.h"

#include <string.h>

#include "adbscope-sim-profile.h"

static const AdbscopeSimProfile profiles[] = {
  {
    .name = "pixel-14",
    .sdk = 34, .release = "14",
    .manufacturer = "Google", .brand = "google", .model = "Pixel 8",
    .product = "shiba", .device = "shiba", .hardware = "shiba",
    .abi = "arm64-v8a", .abilist = "arm64-v8a",
    .build_id = "UQ1A.240205.004", .incremental = "11269751",
    .security_patch = "2024-02-05", .characteristics = "nosdcard",
    .refresh_hz = 120, .page_size = 4096,
    .width = 1080, .height = 2400, .density = 420,
    .psi = TRUE, .thermalservice = TRUE, .cpufreq = TRUE,
    .format = ADBSCOPE_SIM_FORMAT_ANDROID_14,
    .gpu = ADBSCOPE_SIM_GPU_DEVFREQ,
  },
  {
    .name = "legacy-8",
    .sdk = 26, .release = "8.0.0",
    .manufacturer = "samsung", .brand = "samsung", .model = "SM-G950F",
    .product = "dreamltexx", .device = "dreamlte", .hardware = "samsungexynos8895",
    .abi = "arm64-v8a", .abilist = "arm64-v8a,armeabi-v7a,armeabi",
    .build_id = "R16NW", .incremental = "G950FXXU1CRAP",
    .security_patch = "2018-01-01", .characteristics = "phone",
    .refresh_hz = 60, .page_size = 4096,
    .width = 1080, .height = 2220, .density = 420,
    .psi = FALSE, .thermalservice = FALSE, .cpufreq = FALSE,
    .format = ADBSCOPE_SIM_FORMAT_ANDROID_8,
    .gpu = ADBSCOPE_SIM_GPU_NONE,
  },
  {
    .name = "tablet-13",
    .sdk = 33, .release = "13",
    .manufacturer = "LENOVO", .brand = "Lenovo", .model = "Lenovo TB370FU",
    .product = "TB370FU", .device = "TB370FU", .hardware = "mt6789",
    .abi = "arm64-v8a", .abilist = "arm64-v8a,armeabi-v7a,armeabi",
    .build_id = "TP1A.220624.014", .incremental = "TB370FU_S000121_230512_ROW",
    .security_patch = "2023-05-01", .characteristics = "tablet",
    .refresh_hz = 90, .page_size = 16384,
    .width = 1840, .height = 2944, .density = 360,
    .psi = TRUE, .thermalservice = TRUE, .cpufreq = TRUE,
    .format = ADBSCOPE_SIM_FORMAT_ANDROID_13,
    .gpu = ADBSCOPE_SIM_GPU_DEVFREQ,
  },
  {
    .name = "redmi-13",
    .sdk = 33, .release = "13",
    .manufacturer = "Xiaomi", .brand = "Redmi", .model = "23021RAAEG",
    .product = "tapas_global", .device = "tapas", .hardware = "qcom",
    .abi = "arm64-v8a", .abilist = "arm64-v8a,armeabi-v7a,armeabi",
    .build_id = "TKQ1.221114.001", .incremental = "V14.0.5.0.TMGMIXM",
    .security_patch = "2023-06-01", .characteristics = "nosdcard",
    .refresh_hz = 120, .page_size = 4096,
    .width = 1080, .height = 2400, .density = 440,
    .psi = TRUE, .thermalservice = TRUE, .cpufreq = TRUE,
    .format = ADBSCOPE_SIM_FORMAT_ANDROID_13,
    .gpu = ADBSCOPE_SIM_GPU_KGSL,
  },
};

const AdbscopeSimProfile *
adbscope_sim_profile_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    if (g_strcmp0 (profiles[i].name, name) == 0)
      return &profiles[i];
  return NULL;
}

const char *
adbscope_sim_profile_list_names (void)
{
  return "pixel-14, legacy-8, tablet-13, redmi-13";
}

char *
adbscope_sim_profile_dup_fingerprint (const AdbscopeSimProfile *profile)
{
  return g_strdup_printf ("%s/%s/%s:%s/%s/%s:user/release-keys",
                          profile->brand, profile->product, profile->device,
                          profile->release, profile->build_id, profile->incremental);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  const char * const *pa = a;
  const char * const *pb = b;

  return strcmp (pa[0], pb[0]);
}

GPtrArray *
adbscope_sim_profile_dup_props (const AdbscopeSimProfile *profile)
{
  g_autofree char *fingerprint = adbscope_sim_profile_dup_fingerprint (profile);
  GPtrArray *props = g_ptr_array_new_with_free_func (g_free);
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (char *) * 2);
  char *pair[2];

#define ADD(k, ...) G_STMT_START { \
    pair[0] = g_strdup (k); pair[1] = g_strdup_printf (__VA_ARGS__); \
    g_array_append_vals (pairs, pair, 1); } G_STMT_END

  ADD ("ro.build.version.sdk", "%d", profile->sdk);
  ADD ("ro.build.version.release", "%s", profile->release);
  ADD ("ro.build.version.security_patch", "%s", profile->security_patch);
  ADD ("ro.build.version.incremental", "%s", profile->incremental);
  ADD ("ro.build.id", "%s", profile->build_id);
  ADD ("ro.build.type", "user");
  ADD ("ro.build.tags", "release-keys");
  ADD ("ro.build.fingerprint", "%s", fingerprint);
  ADD ("ro.build.characteristics", "%s", profile->characteristics);
  ADD ("ro.product.manufacturer", "%s", profile->manufacturer);
  ADD ("ro.product.brand", "%s", profile->brand);
  ADD ("ro.product.model", "%s", profile->model);
  ADD ("ro.product.name", "%s", profile->product);
  ADD ("ro.product.device", "%s", profile->device);
  ADD ("ro.product.board", "%s", profile->hardware);
  ADD ("ro.product.cpu.abi", "%s", profile->abi);
  ADD ("ro.product.cpu.abilist", "%s", profile->abilist);
  ADD ("ro.product.cpu.abilist64", "arm64-v8a");
  ADD ("ro.product.locale", "en-US");
  ADD ("ro.hardware", "%s", profile->hardware);
  ADD ("ro.serialno", "SIM%08X", g_str_hash (profile->name));
  ADD ("ro.sf.lcd_density", "%d", profile->density);
  ADD ("ro.debuggable", "0");
  ADD ("ro.secure", "1");
  ADD ("ro.adb.secure", "1");
  ADD ("ro.kernel.qemu", "0");
  ADD ("ro.boot.hardware", "%s", profile->hardware);
  ADD ("sys.boot_completed", "1");
  ADD ("dev.bootcomplete", "1");
  ADD ("init.svc.adbd", "running");
  ADD ("persist.sys.timezone", "Europe/Berlin");
  ADD ("persist.sys.locale", "en-US");
  ADD ("ro.adbscope.simulated", "1");
  ADD ("ro.adbscope.profile", "%s", profile->name);
  if (profile->sdk >= 28)
    {
      ADD ("ro.product.vendor.model", "%s", profile->model);
      ADD ("ro.product.vendor.manufacturer", "%s", profile->manufacturer);
      ADD ("ro.product.vendor.brand", "%s", profile->brand);
      ADD ("ro.vendor.build.fingerprint", "%s", fingerprint);
    }
  if (profile->sdk >= 30)
    ADD ("ro.surface_flinger.max_frame_buffer_acquired_buffers", "3");
  /* The page size: the property Android 15 uses for 16 KB devices, also
   * set on the others so a probe can compare it with getconf. */
  ADD ("ro.product.cpu.pagesize.max", "%d", profile->page_size);
  if (profile->page_size != 4096)
    ADD ("ro.boot.hardware.cpu.pagesize", "%d", profile->page_size);
  ADD ("ro.surface_flinger.refresh_rate", "%d", profile->refresh_hz);
#undef ADD

  g_array_sort (pairs, compare_keys);
  for (guint i = 0; i < pairs->len; i++)
    {
      char **p = &g_array_index (pairs, char *, i * 2);

      g_ptr_array_add (props, p[0]);
      g_ptr_array_add (props, p[1]);
    }
  g_ptr_array_add (props, NULL);
  g_array_free (pairs, TRUE);
  return props;
}
