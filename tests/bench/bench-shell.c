/* Benchmark (not a test): round trip of a small command on the simulated
 * device, three ways, in one run:
 *   1. AdbscopeShell (persistent shell, output and marker in one write)
 *   2. a naive persistent shell: "CMD; echo MARKER" (two writes: ~40 ms
 *      Nagle/delayed-ACK stall in the adb server, see notes/adb-transport.md)
 *   3. a fresh `adb -s SERIAL shell CMD` per command
 * Prints median and p95 of each and the ratios.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

#define COMMAND "cat /proc/uptime"

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
summarize (GArray *ms, double *median, double *p95)
{
  g_array_sort (ms, compare_double);
  *median = g_array_index (ms, double, ms->len / 2);
  *p95 = g_array_index (ms, double, MIN (ms->len - 1, (guint) (ms->len * 0.95)));
}

static void
done_cb (GObject *o, GAsyncResult *r, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (r);
}

static GArray *
bench_adbscope_shell (const char *serial, guint n)
{
  g_autoptr(AdbscopeShell) shell = adbscope_shell_new (serial);
  GArray *ms = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < n + 5; i++)
    {
      GAsyncResult *res = NULL;
      g_autofree char *out = NULL;
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double v;

      adbscope_shell_run_async (shell, COMMAND, NULL, done_cb, &res);
      while (res == NULL)
        g_main_context_iteration (NULL, TRUE);
      out = adbscope_shell_run_finish (shell, res, NULL, &error);
      g_object_unref (res);
      g_assert_no_error (error);
      v = (g_get_monotonic_time () - t0) / 1000.0;
      if (i >= 5)   /* the first ones include starting adb */
        g_array_append_val (ms, v);
    }
  return ms;
}

static GArray *
bench_naive_shell (const char *serial, guint n)
{
  const char *argv[] = { adbscope_test_adb_path (), "-s", serial, "shell", NULL };
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  GOutputStream *out;
  GArray *ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;

  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  out = g_subprocess_get_stdin_pipe (proc);
  for (guint i = 0; i < n + 5; i++)
    {
      const char *cmd = COMMAND "; echo ___NAIVE_MARKER___\n";
      gint64 t0 = g_get_monotonic_time ();
      double v;

      g_output_stream_write_all (out, cmd, strlen (cmd), NULL, NULL, &error);
      g_assert_no_error (error);
      for (;;)
        {
          g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (line);
          if (g_str_has_suffix (line, "___NAIVE_MARKER___"))
            break;
        }
      v = (g_get_monotonic_time () - t0) / 1000.0;
      if (i >= 5)
        g_array_append_val (ms, v);
    }
  g_output_stream_close (out, NULL, NULL);
  g_subprocess_wait (proc, NULL, NULL);
  return ms;
}

static GArray *
bench_fresh_adb (const char *serial, guint n)
{
  const char *argv[] = { adbscope_test_adb_path (), "-s", serial, "shell", COMMAND, NULL };
  GArray *ms = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;
      gint64 t0 = g_get_monotonic_time ();
      int status;
      double v;

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
      g_assert_no_error (error);
      v = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (ms, v);
    }
  return ms;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeTestDevice) dev = NULL;
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 200;
  struct { const char *name; GArray *ms; double median, p95; } rows[3];

  dev = adbscope_test_device_start ("pixel-14", NULL, &error);
  if (dev == NULL)
    {
      g_printerr ("cannot start the simulated device: %s\n", error->message);
      return 1;
    }
  rows[0].name = "AdbscopeShell (one write)";
  rows[0].ms = bench_adbscope_shell (adbscope_test_device_get_serial (dev), n);
  rows[1].name = "naive persistent shell (CMD; echo MARKER)";
  rows[1].ms = bench_naive_shell (adbscope_test_device_get_serial (dev), n);
  rows[2].name = "fresh `adb shell CMD` per command";
  rows[2].ms = bench_fresh_adb (adbscope_test_device_get_serial (dev), MIN (n, 100));

  printf ("round trip of `%s` on the simulated device (%u runs, ms)\n", COMMAND, n);
  printf ("%-44s %8s %8s\n", "", "median", "p95");
  for (guint i = 0; i < 3; i++)
    {
      summarize (rows[i].ms, &rows[i].median, &rows[i].p95);
      printf ("%-44s %8.2f %8.2f\n", rows[i].name, rows[i].median, rows[i].p95);
    }
  printf ("naive / AdbscopeShell median: %.1fx\n", rows[1].median / rows[0].median);
  printf ("fresh adb shell / AdbscopeShell median: %.1fx\n", rows[2].median / rows[0].median);
  for (guint i = 0; i < 3; i++)
    g_array_unref (rows[i].ms);
  return 0;
}
