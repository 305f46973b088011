/* GPU busy and frequency on the three kinds of simulated device: kgsl
 * (redmi-13), a Mali devfreq node without a busy counter (pixel-14) and
 * nothing readable (legacy-8).  Frequencies are checked against the
 * node's own available_frequencies, read by the test from the sandbox.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

typedef struct
{
  GMainLoop *loop;
  guint      samples;
} Watch;

static void
on_sample (AdbscopeSession          *session,
           const AdbscopeFastSample *s,
           Watch                    *w)
{
  if (++w->samples == 6)
    g_main_loop_quit (w->loop);
}

static void
started_cb (GObject *o, GAsyncResult *r, gpointer data)
{
  g_autoptr(GError) error = NULL;

  adbscope_session_start_finish (ADBSCOPE_SESSION (o), r, &error);
  g_assert_no_error (error);
}

static AdbscopeSession *
record (AdbscopeTestDevice *dev)
{
  AdbscopeSession *session = adbscope_session_new (adbscope_test_device_get_serial (dev), ADBSCOPE_DEMO_PACKAGE);
  Watch w = { g_main_loop_new (NULL, FALSE), 0 };

  g_signal_connect (session, "sample", G_CALLBACK (on_sample), &w);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);
  g_signal_handlers_disconnect_by_data (session, &w);
  g_main_loop_unref (w.loop);
  return session;
}

/* Every frequency sampled is one the node lists. */
static void
check_freqs (AdbscopeSession *session,
             const char      *avail_path)
{
  AdbscopeSeries *freq = adbscope_session_get_series (session, ADBSCOPE_SERIES_GPU_FREQ);
  g_autofree char *text = NULL;
  g_auto(GStrv) hz = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (avail_path, &text, NULL, NULL));
  hz = g_strsplit (g_strstrip (text), " ", -1);
  for (guint i = 0; i < adbscope_series_get_length (freq); i++)
    {
      double v = adbscope_series_get (freq, i)->value;
      gboolean listed = FALSE;

      if (!isfinite (v))
        continue;
      n++;
      for (guint k = 0; hz[k] != NULL; k++)
        listed |= fabs (g_ascii_strtod (hz[k], NULL) / 1e6 - v) < 1e-6;
      g_assert_true (listed);
    }
  g_assert_cmpuint (n, >=, 4);
}

static void
test_kgsl (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("redmi-13", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autofree char *avail = NULL;
  const AdbscopeProbeResult *p;
  AdbscopeSeriesStats st = { 0 };

  g_assert_no_error (error);
  session = record (dev);
  p = adbscope_session_get_probe (session);
  g_assert_true (p->supported[ADBSCOPE_SOURCE_GPU_BUSY]);
  g_assert_true (p->supported[ADBSCOPE_SOURCE_GPU_FREQ]);
  g_assert_cmpstr (p->gpu_node, ==, "kgsl-3d0");
  g_assert_cmpfloat (p->gpu_max_freq_mhz, ==, 845.0);
  g_assert_true (adbscope_series_compute_stats (adbscope_session_get_series (session, ADBSCOPE_SERIES_GPU_BUSY), &st));
  g_assert_cmpuint (st.n, >=, 4);
  g_assert_cmpfloat (st.min, >=, 1.0);
  g_assert_cmpfloat (st.max, <=, 99.0);
  avail = g_build_filename (adbscope_test_device_get_sandbox (dev), "sys", "class-gpu", "kgsl", "kgsl-3d0",
                            "devfreq", "available_frequencies", NULL);
  check_freqs (session, avail);
}

static void
test_devfreq_without_busy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autofree char *avail = NULL;
  const AdbscopeProbeResult *p;

  g_assert_no_error (error);
  session = record (dev);
  p = adbscope_session_get_probe (session);
  g_assert_false (p->supported[ADBSCOPE_SOURCE_GPU_BUSY]);
  g_assert_nonnull (strstr (p->reason[ADBSCOPE_SOURCE_GPU_BUSY], "1f000000.mali"));
  g_assert_true (p->supported[ADBSCOPE_SOURCE_GPU_FREQ]);
  /* not supported is empty, never zero */
  g_assert_cmpuint (adbscope_series_get_n_pushed (adbscope_session_get_series (session, ADBSCOPE_SERIES_GPU_BUSY)), >, 0);
  g_assert_false (adbscope_series_compute_stats (adbscope_session_get_series (session, ADBSCOPE_SERIES_GPU_BUSY),
                                                 &(AdbscopeSeriesStats) { 0 }));
  avail = g_build_filename (adbscope_test_device_get_sandbox (dev), "sys", "class-gpu", "devfreq", "1f000000.mali",
                            "available_frequencies", NULL);
  check_freqs (session, avail);
}

static void
test_none (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = adbscope_test_device_start ("legacy-8", NULL, &error);
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(JsonNode) report = NULL;
  const AdbscopeProbeResult *p;

  g_assert_no_error (error);
  session = record (dev);
  p = adbscope_session_get_probe (session);
  g_assert_false (p->supported[ADBSCOPE_SOURCE_GPU_BUSY]);
  g_assert_false (p->supported[ADBSCOPE_SOURCE_GPU_FREQ]);
  g_assert_nonnull (strstr (p->reason[ADBSCOPE_SOURCE_GPU_FREQ], "/sys/class/kgsl"));
  report = adbscope_report_build (session, NULL);
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "gpu.busy_pct.avg")));
  g_assert_true (JSON_NODE_HOLDS_NULL (adbscope_report_lookup (report, "gpu.freq_mhz.avg")));
  g_assert_false (json_node_get_boolean (adbscope_report_lookup (report, "sources.gpu_busy.supported")));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/kgsl", test_kgsl);
  g_test_add_func ("/gpu/devfreq-without-busy", test_devfreq_without_busy);
  g_test_add_func ("/gpu/none", test_none);
  return g_test_run ();
}
