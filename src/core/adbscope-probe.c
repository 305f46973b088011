/* adbscope-probe.c: one command before collecting, and its pure parser
 *
 * Every source ends up "supported" or "not supported" with a reason a
 * person can act on; an unsupported metric is never drawn as zero.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-error.h"
#include "adbscope-parse-gpu.h"
#include "adbscope-parse-grep.h"
#include "adbscope-probe.h"

static const char * const source_keys[ADBSCOPE_N_SOURCES] = {
  [ADBSCOPE_SOURCE_PSI] = "psi",
  [ADBSCOPE_SOURCE_CPUFREQ] = "cpufreq",
  [ADBSCOPE_SOURCE_THERMAL] = "thermal",
  [ADBSCOPE_SOURCE_FRAMES] = "frames",
  [ADBSCOPE_SOURCE_MEMINFO] = "meminfo",
  [ADBSCOPE_SOURCE_BATTERY] = "battery",
  [ADBSCOPE_SOURCE_DOZE] = "doze",
  [ADBSCOPE_SOURCE_JOBS] = "jobs",
  [ADBSCOPE_SOURCE_ALARMS] = "alarms",
  [ADBSCOPE_SOURCE_GPU_BUSY] = "gpu_busy",
  [ADBSCOPE_SOURCE_GPU_FREQ] = "gpu_freq",
};

/* The dumpsys service behind each source, checked with `service check`. */
static const char * const source_services[ADBSCOPE_N_SOURCES] = {
  [ADBSCOPE_SOURCE_THERMAL] = "thermalservice",
  [ADBSCOPE_SOURCE_FRAMES] = "gfxinfo",
  [ADBSCOPE_SOURCE_MEMINFO] = "meminfo",
  [ADBSCOPE_SOURCE_BATTERY] = "battery",
  [ADBSCOPE_SOURCE_DOZE] = "deviceidle",
  [ADBSCOPE_SOURCE_JOBS] = "jobscheduler",
  [ADBSCOPE_SOURCE_ALARMS] = "alarm",
};

#define KGSL_DIR ADBSCOPE_KGSL_DIR


const char *
adbscope_source_to_key (AdbscopeSource source)
{
  g_return_val_if_fail (source < ADBSCOPE_N_SOURCES, NULL);
  return source_keys[source];
}

/* @package (validated by the caller, may be NULL) is looked up with
 * `pm path` in the same round trip. */
char *
adbscope_probe_build_command (const char *package)
{
  const char * const *props = adbscope_device_commands_props ();
  const char * const *services = adbscope_device_commands_services ();
  GString *cmd = g_string_new (NULL);

  if (package != NULL)
    g_string_append_printf (cmd, "echo \"pkgpath:$(" ADBSCOPE_CMD_PM_PATH " 2>/dev/null | head -n 1)\"; ", package);

  for (guint i = 0; props[i] != NULL; i++)
    g_string_append_printf (cmd, "echo \"prop:%s=$(" ADBSCOPE_CMD_GETPROP " %s)\"; ", props[i], props[i]);
  g_string_append (cmd, "for s in");
  for (guint i = 0; services[i] != NULL; i++)
    g_string_append_printf (cmd, " %s", services[i]);
  g_string_append (cmd, "; do echo \"service:$s:$(" ADBSCOPE_CMD_SERVICE_CHECK " $s 2>&1)\"; done; ");
  g_string_append (cmd, "echo \"pagesize:$(" ADBSCOPE_CMD_PAGE_SIZE " 2>/dev/null)\"; ");
  g_string_append (cmd, "echo \"refresh:$(" ADBSCOPE_CMD_SF_LATENCY " 2>/dev/null | head -n 1)\"; ");
  /* Builtins only: which GPU nodes exist (readable or not). */
  g_string_append (cmd, "for d in " ADBSCOPE_GPU_DIRS "; do [ -e \"$d\" ] && echo \"gpudir:$d\"; done; ");
  /* The files last: grep -H lines, read by the same splitter as the fast loop. */
  g_string_append (cmd, "grep -H '' " ADBSCOPE_FILES_PROBE " 2>/dev/null");
  return g_string_free (cmd, FALSE);
}

void
adbscope_probe_result_free (AdbscopeProbeResult *r)
{
  if (r == NULL)
    return;
  g_free (r->sdk);
  g_free (r->release);
  g_free (r->model);
  g_free (r->manufacturer);
  g_free (r->abi);
  g_free (r->device);
  g_free (r->max_freq_khz);
  g_free (r->gpu_node);
  g_free (r->gpu_busy_path);
  g_free (r->gpu_freq_path);
  g_clear_pointer (&r->clusters, g_ptr_array_unref);
  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    g_free (r->reason[i]);
  g_free (r);
}

static void
cluster_free (AdbscopeCluster *c)
{
  g_array_unref (c->cpus);
  g_free (c);
}

/* "0-3", "0 1 2 3", "4-6,7" → cpu numbers. */
static GArray *
parse_cpu_list (const char *text)
{
  GArray *cpus = g_array_new (FALSE, FALSE, sizeof (int));
  g_auto(GStrv) parts = g_strsplit_set (text, " ,\n", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *dash;
      gint64 a, b;

      if (parts[i][0] == '\0')
        continue;
      dash = strchr (parts[i], '-');
      a = g_ascii_strtoll (parts[i], NULL, 10);
      b = dash ? g_ascii_strtoll (dash + 1, NULL, 10) : a;
      for (gint64 c = a; c <= b && c >= 0 && c < 4096; c++)
        {
          int v = (int) c;
          g_array_append_val (cpus, v);
        }
    }
  return cpus;
}

static void
set_unsupported (AdbscopeProbeResult *r,
                 AdbscopeSource       source,
                 char                *reason)
{
  r->supported[source] = FALSE;
  g_free (r->reason[source]);
  r->reason[source] = reason;
}

static const char *
readable (AdbscopeGrepOutput *grep,
          const char         *path)
{
  return grep != NULL ? adbscope_grep_output_lookup (grep, path) : NULL;
}

/* kgsl first (busy and clock); else a GPU devfreq node (frequency only). */
static void
probe_gpu (AdbscopeProbeResult *r,
           AdbscopeGrepOutput  *grep,
           gboolean             kgsl_dir,
           const char          *devfreq_gpu)
{
  static const char * const busy_files[] = { KGSL_DIR "/gpu_busy_percentage", KGSL_DIR "/gpubusy" };
  g_autofree char *df_cur = devfreq_gpu ? g_strconcat (devfreq_gpu, "/cur_freq", NULL) : NULL;
  g_autofree char *df_max = devfreq_gpu ? g_strconcat (devfreq_gpu, "/max_freq", NULL) : NULL;

  r->gpu_max_freq_mhz = NAN;
  if (kgsl_dir)
    r->gpu_node = g_strdup ("kgsl-3d0");
  else if (devfreq_gpu != NULL)
    r->gpu_node = g_path_get_basename (devfreq_gpu);

  for (guint i = 0; i < G_N_ELEMENTS (busy_files) && r->gpu_busy_path == NULL; i++)
    if (isfinite (adbscope_gpu_parse_busy_pct (readable (grep, busy_files[i]))))
      r->gpu_busy_path = g_strdup (busy_files[i]);
  /* A GPU that idles at the probe reads 0 Hz: readable is what counts;
   * each sample then says what it read. */
  if (adbscope_gpu_file_is_number (readable (grep, KGSL_DIR "/gpuclk")))
    {
      r->gpu_freq_path = g_strdup (KGSL_DIR "/gpuclk");
      r->gpu_max_freq_mhz = adbscope_gpu_parse_freq_mhz (readable (grep, KGSL_DIR "/max_gpuclk"));
    }
  else if (df_cur != NULL && adbscope_gpu_file_is_number (readable (grep, df_cur)))
    {
      r->gpu_freq_path = g_strdup (df_cur);
      r->gpu_max_freq_mhz = adbscope_gpu_parse_freq_mhz (readable (grep, df_max));
    }

  if (r->gpu_busy_path == NULL)
    set_unsupported (r, ADBSCOPE_SOURCE_GPU_BUSY,
                     kgsl_dir ? g_strdup (_("The GPU (kgsl-3d0) is there, but its busy counter is not readable from the shell"))
                     : devfreq_gpu != NULL ? g_strdup_printf (_("The GPU's devfreq node %s gives its frequency but no busy counter"), r->gpu_node)
                     : g_strdup (_("The device shows no GPU counters to the shell (no /sys/class/kgsl, no GPU node under /sys/class/devfreq)")));
  if (r->gpu_freq_path == NULL)
    set_unsupported (r, ADBSCOPE_SOURCE_GPU_FREQ,
                     r->gpu_node != NULL ? g_strdup_printf (_("The GPU (%s) is there, but its frequency is not readable from the shell"), r->gpu_node)
                     : g_strdup (_("The device shows no GPU counters to the shell (no /sys/class/kgsl, no GPU node under /sys/class/devfreq)")));
}

AdbscopeProbeResult *
adbscope_probe_parse (const char  *output,
                      GError     **error)
{
  g_autoptr(AdbscopeProbeResult) r = g_new0 (AdbscopeProbeResult, 1);
  g_autoptr(AdbscopeGrepOutput) grep = NULL;
  g_autoptr(GString) files = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) services = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *psi;
  gboolean any_cur = FALSE;
  gboolean kgsl_dir = FALSE;
  g_autofree char *devfreq_gpu = NULL;

  r->page_size = -1;
  r->refresh_hz = NAN;
  r->clusters = g_ptr_array_new_with_free_func ((GDestroyNotify) cluster_free);
  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    r->supported[i] = TRUE;

  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "prop:"))
        {
          const char *eq = strchr (line, '=');
          g_autofree char *key = eq ? g_strndup (line + 5, eq - line - 5) : NULL;
          char *value = eq && eq[1] ? g_strdup (eq + 1) : NULL;

          if (key == NULL)
            continue;
          if (g_str_equal (key, "ro.build.version.sdk")) { g_free (r->sdk); r->sdk = value; }
          else if (g_str_equal (key, "ro.build.version.release")) { g_free (r->release); r->release = value; }
          else if (g_str_equal (key, "ro.product.model")) { g_free (r->model); r->model = value; }
          else if (g_str_equal (key, "ro.product.manufacturer")) { g_free (r->manufacturer); r->manufacturer = value; }
          else if (g_str_equal (key, "ro.product.cpu.abi")) { g_free (r->abi); r->abi = value; }
          else if (g_str_equal (key, "ro.product.device")) { g_free (r->device); r->device = value; }
          else g_free (value);
        }
      else if (g_str_has_prefix (line, "service:"))
        {
          const char *colon = strchr (line + 8, ':');

          if (colon != NULL)
            g_hash_table_insert (services, g_strndup (line + 8, colon - line - 8), g_strdup (colon + 1));
        }
      else if (g_str_has_prefix (line, "pkgpath:"))
        {
          r->package_checked = TRUE;
          r->package_installed = g_str_has_prefix (line + 8, "package:");
        }
      else if (g_str_has_prefix (line, "pagesize:"))
        {
          gint64 v = g_ascii_strtoll (line + 9, NULL, 10);
          r->page_size = v > 0 ? v : -1;
        }
      else if (g_str_has_prefix (line, "refresh:"))
        {
          /* SurfaceFlinger --latency prints the refresh period in ns first. */
          gint64 period = g_ascii_strtoll (line + 8, NULL, 10);
          if (period > 1000000 && period < 1000000000)
            r->refresh_hz = 1e9 / period;
        }
      else if (g_str_has_prefix (line, "gpudir:"))
        {
          const char *dir = line + strlen ("gpudir:");
          const char *base = strrchr (dir, '/');

          if (g_str_has_prefix (dir, KGSL_DIR))
            kgsl_dir = TRUE;
          else if (base != NULL && adbscope_gpu_devfreq_is_gpu (base + 1) && devfreq_gpu == NULL)
            devfreq_gpu = g_strdup (dir);
        }
      else if (line[0] == '/')
        {
          g_string_append (files, line);
          g_string_append_c (files, '\n');
        }
    }

  if (r->sdk == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The device did not answer the probe (no ro.build.version.sdk)"));
      return NULL;
    }
  r->sdk_int = (int) g_ascii_strtoll (r->sdk, NULL, 10);

  grep = adbscope_grep_output_parse (files->str, files->len, NULL);

  /* Cores: every cpuN line of /proc/stat. */
  if (grep != NULL)
    {
      const char *stat = adbscope_grep_output_lookup (grep, "/proc/stat");
      g_auto(GStrv) stat_lines = g_strsplit (stat ? stat : "", "\n", -1);

      for (guint i = 0; stat_lines[i] != NULL; i++)
        if (g_str_has_prefix (stat_lines[i], "cpu") && g_ascii_isdigit (stat_lines[i][3]))
          {
            guint64 cpu = g_ascii_strtoull (stat_lines[i] + 3, NULL, 10);

            /* Garbage must not make us allocate for a billion cores. */
            if (cpu < ADBSCOPE_MAX_CORES)
              r->n_cores = MAX (r->n_cores, (guint) cpu + 1);
          }
    }
  r->max_freq_khz = g_new (double, MAX (r->n_cores, 1));
  for (guint c = 0; c < r->n_cores; c++)
    {
      g_autofree char *max_path = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/cpufreq/cpuinfo_max_freq", c);
      g_autofree char *cur_path = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", c);
      g_autofree char *rel_path = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/cpufreq/related_cpus", c);
      const char *max = grep ? adbscope_grep_output_lookup (grep, max_path) : NULL;
      const char *rel = grep ? adbscope_grep_output_lookup (grep, rel_path) : NULL;

      r->max_freq_khz[c] = max ? g_ascii_strtod (max, NULL) : NAN;
      if (grep && adbscope_grep_output_lookup (grep, cur_path))
        any_cur = TRUE;

      /* A cluster is the set of related cpus; name it by its first cpu. */
      if (rel != NULL)
        {
          g_autoptr(GArray) cpus = parse_cpu_list (rel);

          if (cpus->len > 0 && g_array_index (cpus, int, 0) == (int) c)
            {
              AdbscopeCluster *cl = g_new0 (AdbscopeCluster, 1);
              cl->id = r->clusters->len;
              cl->cpus = g_steal_pointer (&cpus);
              cl->max_freq_khz = r->max_freq_khz[c];
              g_ptr_array_add (r->clusters, cl);
            }
        }
    }

  if (!any_cur)
    set_unsupported (r, ADBSCOPE_SOURCE_CPUFREQ,
                     g_strdup (_("The kernel exposes no readable scaling_cur_freq under /sys/devices/system/cpu/cpu*/cpufreq")));

  psi = grep ? adbscope_grep_output_lookup (grep, "/proc/pressure/memory") : NULL;
  if (psi == NULL || strstr (psi, "some") == NULL)
    set_unsupported (r, ADBSCOPE_SOURCE_PSI, g_strdup (_("The kernel has no /proc/pressure (PSI)")));

  probe_gpu (r, grep, kgsl_dir, devfreq_gpu);

  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    {
      const char *answer;

      if (source_services[i] == NULL)
        continue;
      answer = g_hash_table_lookup (services, source_services[i]);
      if (answer == NULL || strstr (answer, ": found") == NULL)
        set_unsupported (r, i, g_strdup_printf (_("The device has no “%s” service"), source_services[i]));
    }

  return g_steal_pointer (&r);
}
