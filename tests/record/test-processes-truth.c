/* An app with two processes (PKG and PKG:remote) against the truth: the
 * test's own reads of /proc for each process; the :remote one killed and
 * started again mid-run.  An app whose processes fork all the time: the
 * forks carry their parent's name until they exec, and are never taken
 * for a process of the app or for a restart.
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

/* A session of @package on @dev, its samples to @sample_cb until @loop quits. */
static AdbscopeSession *
run_session (AdbscopeTestDevice *dev,
             const char         *package,
             GCallback           sample_cb,
             gpointer            data,
             GMainLoop          *loop)
{
  AdbscopeSession *session = adbscope_session_new (adbscope_test_device_get_serial (dev), package);

  g_signal_connect (session, "sample", sample_cb, data);
  adbscope_session_start_async (session, NULL, started_cb, NULL);
  g_main_loop_run (loop);
  adbscope_session_stop (session);
  return session;
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
  session = run_session (w.dev, PKG, G_CALLBACK (on_sample), &w, w.loop);

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

#define FORKER        "com.example.forker"
#define FORKER_REMOTE FORKER ":remote"

/* A child alive nearly all the time: forked, never exec'd (its argv is
 * its parent's), gone after 2.5 s (longer than two sample intervals), then
 * the next one. */
#define FORKING_PYTHON \
  "=/usr/bin/python3 -c '" \
  "import os, time\n" \
  "while True:\n" \
  "    c = os.fork()\n" \
  "    if c == 0:\n" \
  "        time.sleep(2.5)\n" \
  "        os._exit(0)\n" \
  "    t = time.monotonic()\n" \
  "    while time.monotonic() - t < 0.005:\n" \
  "        pass\n" \
  "    os.waitpid(c, 0)\n'"

typedef struct
{
  AdbscopeTestDevice *dev;
  GMainLoop          *loop;
  guint               samples;
  guint               want;
  GArray             *truth[2];      /* GPid: the app's processes /proc showed, per name */
  guint               forks_seen[2]; /* samples with a fork of that name alive */
  guint               max_processes;
} ForkWatch;

static const char *const fork_names[2] = { FORKER, FORKER_REMOTE };

/* The kernel's view: a process named @name (argv[0]) whose parent is the
 * sim is one of the app's processes (the sim starts them); one whose
 * parent has the same name is a fork. */
static void
scan_proc (GPid        sim,
           const char *name,
           GArray     *apps,
           guint      *n_forks)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *entry;

  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *cmdline_path = g_strdup_printf ("/proc/%s/cmdline", entry);
      g_autofree char *stat_path = g_strdup_printf ("/proc/%s/stat", entry);
      g_autofree char *cmdline = NULL;
      g_autofree char *stat = NULL;
      GPid pid = (GPid) g_ascii_strtoll (entry, NULL, 10);
      GPid ppid;

      if (pid <= 0 || !g_file_get_contents (cmdline_path, &cmdline, NULL, NULL) ||
          !g_str_equal (cmdline, name) || !g_file_get_contents (stat_path, &stat, NULL, NULL))
        continue;
      ppid = (GPid) g_ascii_strtoll (strrchr (stat, ')') + 4, NULL, 10);
      if (ppid == sim)
        {
          gboolean known = FALSE;

          for (guint i = 0; i < apps->len && !known; i++)
            known = g_array_index (apps, GPid, i) == pid;
          if (!known)
            g_array_append_val (apps, pid);
        }
      else
        {
          g_autofree char *parent_path = g_strdup_printf ("/proc/%d/cmdline", ppid);
          g_autofree char *parent = NULL;

          if (g_file_get_contents (parent_path, &parent, NULL, NULL) && g_str_equal (parent, name))
            (*n_forks)++;
        }
    }
}

static void
on_fork_sample (AdbscopeSession          *session,
                const AdbscopeFastSample *s,
                ForkWatch                *w)
{
  w->samples++;
  if (s->processes != NULL)
    w->max_processes = MAX (w->max_processes, s->processes->len);
  for (guint n = 0; n < G_N_ELEMENTS (fork_names); n++)
    {
      guint forks = 0;

      scan_proc (adbscope_test_device_get_pid (w->dev), fork_names[n], w->truth[n], &forks);
      w->forks_seen[n] += forks > 0;
    }
  if (w->samples == 6)
    adbscope_test_device_control (w->dev, "kill-app " FORKER_REMOTE);
  else if (w->samples == 7)
    adbscope_test_device_control (w->dev, "start-app " FORKER_REMOTE);
  if (w->samples == w->want)
    g_main_loop_quit (w->loop);
}

static void
assert_pids_are_truth (const AdbscopeProcessSeries *p,
                       GArray                      *truth)
{
  for (guint i = 0; i < p->pids->len; i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < truth->len && !found; k++)
        found = g_array_index (truth, GPid, k) == g_array_index (p->pids, gint64, i);
      g_test_message ("%s: pid %" G_GINT64_FORMAT " %s", p->name, g_array_index (p->pids, gint64, i),
                      found ? "is one of its processes" : "is not one of its processes");
      g_assert_true (found);
    }
}

static void
test_fork_children (void)
{
  const char *args[] = { "--app", FORKER FORKING_PYTHON, "--app", FORKER_REMOTE FORKING_PYTHON, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSession) session = NULL;
  ForkWatch w = { .want = 12 };
  const AdbscopeProcessSeries *main_p, *remote_p;
  const GArray *pids;

  w.dev = adbscope_test_device_start ("pixel-14", args, &error);
  g_assert_no_error (error);
  for (guint n = 0; n < G_N_ELEMENTS (w.truth); n++)
    w.truth[n] = g_array_new (FALSE, FALSE, sizeof (GPid));
  w.loop = g_main_loop_new (NULL, FALSE);
  session = run_session (w.dev, FORKER, G_CALLBACK (on_fork_sample), &w, w.loop);

  g_test_message ("samples with a fork alive: %u and %u of %u; the kernel's processes: %u and %u",
                  w.forks_seen[0], w.forks_seen[1], w.samples, w.truth[0]->len, w.truth[1]->len);
  /* the workload did fork under the collector's eyes */
  g_assert_cmpuint (w.forks_seen[0], >=, w.samples / 2);
  g_assert_cmpuint (w.forks_seen[1], >=, w.samples / 2);
  g_assert_cmpuint (w.truth[0]->len, ==, 1);
  g_assert_cmpuint (w.truth[1]->len, ==, 2);

  main_p = find (session, FORKER);
  remote_p = find (session, FORKER_REMOTE);
  g_assert_nonnull (main_p);
  g_assert_nonnull (remote_p);
  g_assert_cmpuint (w.max_processes, ==, 2);
  /* the main process: one pid, the kernel's, no restart */
  assert_pids_are_truth (main_p, w.truth[0]);
  g_assert_cmpuint (main_p->pids->len, ==, 1);
  g_assert_cmpuint (main_p->restarts, ==, 0);
  pids = adbscope_session_get_pids (session);
  g_assert_cmpuint (pids->len, ==, 1);
  g_assert_cmpint (g_array_index (pids, gint64, 0), ==, g_array_index (w.truth[0], GPid, 0));
  g_assert_cmpuint (adbscope_session_get_restarts (session), ==, 0);
  /* :remote: the pid before and after its one real restart, nothing else */
  assert_pids_are_truth (remote_p, w.truth[1]);
  g_assert_cmpuint (remote_p->pids->len, ==, 2);
  g_assert_cmpuint (remote_p->restarts, ==, 1);

  for (guint n = 0; n < G_N_ELEMENTS (w.truth); n++)
    g_array_unref (w.truth[n]);
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
  g_test_add_func ("/processes/truth/fork-children", test_fork_children);
  return g_test_run ();
}
