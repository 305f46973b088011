/* adbscope-parse-gpu.h: GPU busy and frequency files a shell can read
 *
 * Qualcomm kgsl: /sys/class/kgsl/kgsl-3d0/gpu_busy_percentage ("NN %"),
 * …/gpubusy ("busy total", the driver's last window), …/gpuclk and
 * …/max_gpuclk (Hz).  devfreq (Mali and others): /sys/class/devfreq/NODE/
 * cur_freq and max_freq (Hz).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean adbscope_gpu_file_is_number (const char *text);
double   adbscope_gpu_parse_busy_pct  (const char *text);
double   adbscope_gpu_parse_freq_mhz  (const char *text);
gboolean adbscope_gpu_devfreq_is_gpu  (const char *node_name);

G_END_DECLS
