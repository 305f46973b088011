/* An app with two processes (PKG and PKG:remote) against the truth: the
 * test's own reads of /proc for each process; the :remote one killed and
 * started again mid-run.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

#define PKG    ADBSCOPE_DEMO_PACKAGE
#define REMOTE ADBSCOPE_DEMO_PACKAGE ":remote"

typedef struct
{
  AdbscopeTestDevice *dev;
  GMainLoop          *loop;
  guint               samples;
  guint               want;
  GPid                remote_pid;
  guint64             remote0, remote1, total0, total1;
  GArray             *remote_pct;     /* double: the session's :remote CPU, finite */
  double              sum_mismatch;   /* max |app − Σ processes| */
  const char         *control[2];
  guint               control_at[2];
  guint               max_processes;
} Watch;

static guint64
total_ticks (void)
{
  g_autofree char *text = NULL;
  guint64 v[8] = { 0 }, sum = 0;

  g_assert_true (g_file_get_contents ("/proc/stat", &text, NULL, NULL));
  sscanf (text, "cpu %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
          " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
          &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  for (guint i = 0; i < 8; i++)
    sum += v[i];
  return sum;
}

static guint64
process_ticks (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) f = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  f = g_strsplit (strrchr (text, ')') + 2, " ", -1);
  return g_ascii_strtoull (f[11], NULL, 10) + g_ascii_strtoull (f[12], NULL, 10);
}

static void
on_sample (AdbscopeSession          *session,
           const AdbscopeFastSample *s,
           Watch                    *w)
{
  double sum = 0;
  gboolean all = s->processes != NULL;

  w->samples++;
  if (s->processes != NULL)
    w->max_processes = MAX (w->max_processes, s->processes->len);
  for (guint i = 0; s->processes != NULL && i < s->processes->len; i++)
    {
      const AdbscopeProcessUsage *p = &g_array_index (s->processes, AdbscopeProcessUsage, i);

      if (g_str_equal (p->name, REMOTE) && isfinite (p->cpu_pct) && w->remote0 != 0 && w->remote1 == 0)
        g_array_append_val (w->remote_pct, p->cpu_pct);
      if (isfinite (p->cpu_pct))
        sum += p->cpu_pct;
      else
        all = FALSE;
    }
  if (all && isfinite (s->app_pct))
    w->sum_mismatch = MAX (w->sum_mismatch, fabs (s->app_pct - sum));

  /* the truth window: from the first sample that knows :remote to want */
  if (w->remote0 == 0 && s->processes != NULL && s->processes->len == 2 && w->remote_pid > 0)
    {
      w->remote0 = process_ticks (w->remote_pid);
      w->total0 = total_ticks ();
    }
  else if (w->remote0 != 0 && w->remote1 == 0 && w->remote_pct->len == 6)
    {
      w->remote1 = process_ticks (w->remote_pid);
      w->total1 = total_ticks ();
    }
  for (guint i = 0; i < G_N_ELEMENTS (w->control); i++)
    if (w->control[i] != NULL && w->samples == w->control_at[i])
      adbscope_test_device_control (w->dev, w->control[i]);
  if (w->samples == w->want)
    g_main_loop_quit (w->loop);
}

static void
started_cb (GObject *o, GAsyncResult *r, gpointer data)
{
  g_autoptr(GError) error = NULL;

  adbscope_session_start_finish (ADBSCOPE_SESSION (o), r, &error);
  g_assert_no_error (error);
}

static const AdbscopeProcessSeries *
find (AdbscopeSession *session,
      const char      *name)
{
  GPtrArray *procs = adbscope_session_get_app_processes (session);

  for (guint i = 0; i < procs->len; i++)
    if (g_str_equal (((AdbscopeProcessSeries *) g_ptr_array_index (procs, i))->name, name))
      return g_ptr_array_index (procs, i);
  return NULL;
}

static void
test_two_processes (void)
{
  /* about a fifth of a core, in bursts, in one process: a shell's `sleep`
   * is a fork, and the child carries the app's name until it execs (a
   * loaded machine listed it as a third :remote pid) */
  const char *args[] = {
    "--app", REMOTE "=/usr/bin/python3 -c '"
    "import time\n"
    "while True:\n"
    "    t = time.monotonic()\n"
    "    while time.monotonic() - t < 0.012:\n"
    "        pass\n"
    "    time.sleep(0.05)\n'",
    NULL,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(JsonNode) report = NULL;
  Watch w = { .want = 16, .control = { "kill-app " REMOTE, "start-app " REMOTE }, .control_at = { 10, 12 } };
  const AdbscopeProcessSeries *main_p, *remote_p;
  AdbscopeSeriesStats st = { 0 };
  JsonArray *procs;
  double truth, measured = 0;

  w.dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_assert_no_error (error);
  w.remote_pid = adbscope_test_device_get_app_pid (w.dev, REMOTE);
  g_assert_cmpint (w.remote_pid, >, 0);
  w.remote_pct = g_array_new (FALSE, FALSE, sizeof (double));
  w.loop = g_main_loop_new (NULL, FALSE);
  session = adbscope_session_new (adbscope_test_device_get_serial (w.dev), PKG);
  g_signal_connect (session, "sample", G_CALLBACK (on_sample), &w);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  g_main_loop_run (w.loop);
  adbscope_session_stop (session);

  for (guint i = 0; i < w.remote_pct->len; i++)
    measured += g_array_index (w.remote_pct, double, i) / w.remote_pct->len;
  truth = 100.0 * (w.remote1 - w.remote0) / (double) (w.total1 - w.total0);
  g_test_message (":remote CPU: adbscope %.2f %%, /proc %.2f %% over %u samples; app minus the sum of processes <= %.3f",
                  measured, truth, w.remote_pct->len, w.sum_mismatch);
  g_assert_cmpuint (w.remote_pct->len, ==, 6);
  g_assert_cmpfloat (truth, >, 1.0);
  g_assert_cmpfloat (fabs (measured - truth), <=, 1.0);
  g_assert_cmpfloat (w.sum_mismatch, <, 1e-6);
  g_assert_cmpuint (w.max_processes, ==, 2);

  main_p = find (session, PKG);
  remote_p = find (session, REMOTE);
  g_assert_nonnull (main_p);
  g_assert_nonnull (remote_p);
  g_assert_true (main_p->main);
  g_assert_false (remote_p->main);
  /* killed and started again: a new pid under the same name, one restart,
   * and a gap in its series (never a delta across the two) */
  g_assert_cmpuint (remote_p->pids->len, ==, 2);
  g_assert_cmpuint (remote_p->restarts, ==, 1);
  g_assert_cmpuint (main_p->restarts, ==, 0);
  g_assert_true (adbscope_series_compute_stats (remote_p->cpu_pct, &st));
  g_assert_cmpfloat (st.max, <=, 100.0);
  g_assert_true (adbscope_series_compute_stats (remote_p->pss_kb, &st));
  g_assert_cmpfloat (st.min, >, 0);

  report = adbscope_report_build (session, NULL);
  procs = json_node_get_array (adbscope_report_lookup (report, "app.processes"));
  g_assert_cmpuint (json_array_get_length (procs), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (procs, 1), "name"), ==, REMOTE);

  g_array_unref (w.remote_pct);
  g_main_loop_unref (w.loop);
  g_clear_object (&session);
  adbscope_test_device_free (w.dev);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/processes/truth/two-processes", test_two_processes);
  return g_test_run ();
}
