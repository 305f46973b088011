/* adbscope-parse-gpu.c: GPU busy and frequency files */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-parse-gpu.h"

/* "35 %" (gpu_busy_percentage) or "  3500  10000" (gpubusy: busy and total
 * time of the last window; "0 0" while the GPU is powered down, which is
 * idle: 0 %); NaN for anything else. */
double
adbscope_gpu_parse_busy_pct (const char *text)
{
  char *end;
  double a, b;

  if (text == NULL)
    return NAN;
  a = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (a) || a < 0)
    return NAN;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end == '%')
    return a <= 100 ? a : NAN;
  if (g_ascii_isdigit (*end))
    {
      const char *p = end;

      b = g_ascii_strtod (p, &end);
      if (end == p || !isfinite (b) || b < 0 || a > b)
        return NAN;
      return b > 0 ? 100.0 * a / b : 0.0;
    }
  /* a bare number: a percentage on some drivers */
  return (*end == '\0' || *end == '\n') && a <= 100 ? a : NAN;
}

/* Whether @text is a counter the shell can read: a number, whatever its
 * value (a GPU that idles or is powered down reads 0 % or 0 Hz at the
 * probe; that is not "not supported"). */
gboolean
adbscope_gpu_file_is_number (const char *text)
{
  char *end;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  return end != text && isfinite (v) && v >= 0;
}

/* Hz → MHz; NaN unless a positive number. */
double
adbscope_gpu_parse_freq_mhz (const char *text)
{
  char *end;
  double hz;

  if (text == NULL)
    return NAN;
  hz = g_ascii_strtod (text, &end);
  if (end == text || !(hz > 0) || !isfinite (hz))
    return NAN;
  return hz / 1e6;
}

/* A devfreq node of the GPU: "13000000.mali", "kgsl-3d0", "gpufreq", "1c500000.g3d"… */
gboolean
adbscope_gpu_devfreq_is_gpu (const char *node_name)
{
  static const char * const hints[] = { "gpu", "mali", "kgsl", "g3d", "pvr", "sgx", "adreno" };
  g_autofree char *lower = NULL;

  if (node_name == NULL)
    return FALSE;
  lower = g_ascii_strdown (node_name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (hints); i++)
    if (strstr (lower, hints[i]) != NULL)
      return TRUE;
  return FALSE;
}
