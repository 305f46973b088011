/* Recordings through the real command line: `record` writes one, `kill -9`
 * leaves one that opens, `report` rebuilds what `record` printed, `compare`
 * gates regressions.  Truth from outside: the sqlite3 shell reading the file
 * and the CSV rows `record --samples` streamed beside it. */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "adbscope-core.h"
#include "adbscope-sim-app-state.h"
#include "adbscope-test-device.h"
#include "adbscope-test-wait.h"

static AdbscopeTestDevice *device;
static char *dir;

typedef struct
{
  int       status;
  char     *out;
  JsonNode *json;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_clear_pointer (&r->json, json_node_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static GSubprocessLauncher *
launcher_new (GSubprocessFlags flags,
              const char      *runtime)
{
  GSubprocessLauncher *l = g_subprocess_launcher_new (flags);
  g_autofree char *data = g_build_filename (dir, "data", NULL);

  g_subprocess_launcher_setenv (l, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_setenv (l, "XDG_DATA_HOME", data, TRUE);
  g_subprocess_launcher_setenv (l, "LANGUAGE", "C", TRUE);
  return l;
}

static GSubprocess *
spawnv (GSubprocessFlags    flags,
        const char         *runtime,
        const char * const *args)
{
  g_autoptr(GSubprocessLauncher) l = launcher_new (flags, runtime);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;

  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (l, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return proc;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("not JSON (%s): %s", error->message, text);
  return json_node_copy (json_parser_get_root (parser));
}

/* adbscope ARGS… to the end: status and stdout (as JSON). */
static Result
run (const char *first,
     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *runtime = g_build_filename (dir, "rt", NULL);
  Result r = { 0 };
  const char *a;
  va_list ap;

  va_start (ap, first);
  for (a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  proc = spawnv (G_SUBPROCESS_FLAGS_STDOUT_PIPE, runtime, (const char * const *) args->pdata);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &r.out, NULL, &error);
  g_assert_no_error (error);
  r.status = g_subprocess_get_exit_status (proc);
  r.json = parse (r.out);
  return r;
}

static char *
shell (const char *db,
       const char *sql)
{
  const char *argv[] = { "sqlite3", db, sql, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strstrip (out);
}

static double
shell_number (const char *db,
              const char *sql)
{
  g_autofree char *out = shell (db, sql);
  return g_ascii_strtod (out, NULL);
}

/* The sqlite3 shell prints 15 significant digits. */
static void
assert_close (double a,
              double b)
{
  if (!(fabs (a - b) <= 1e-12 * MAX (fabs (a), 1)))
    g_error ("%.17g is not %.17g", a, b);
}

static double
num (JsonNode   *node,
     const char *path)
{
  JsonNode *n = adbscope_report_lookup (node, path);

  if (n == NULL)
    g_error ("no %s in the JSON", path);
  return JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
}

static const char *
str (JsonNode   *node,
     const char *path)
{
  JsonNode *n = adbscope_report_lookup (node, path);

  return n && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_string (n) : NULL;
}

static char *
to_text (JsonNode *node)
{
  return json_to_string (node, TRUE);
}

static char *
path_in (const char *name)
{
  return g_build_filename (dir, name, NULL);
}

#define STAT_SQL(path, what) \
  "SELECT " what " FROM sample JOIN series ON series.id = sample.series WHERE path = '" path "'"

/* kill -9 in the middle of a run: the file opens, is intact, and its
 * report counts and summarises exactly the samples that reached it — the
 * CSV rows streamed beside it, less at most the last second. */
static void
test_crash (void)
{
  g_autofree char *rec = path_in ("crash.adbscope");
  g_autofree char *csv = path_in ("crash.csv");
  g_autofree char *runtime = path_in ("rt-crash");
  g_autofree char *text = NULL;
  g_autofree char *check = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  g_auto(Result) rep = { 0 };
  const char *args[] = { "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                         "--samples", csv, "--recording", rec, NULL };
  double sum = 0, max = -1, samples;
  guint col = 0, n = 0, rows;

  g_mkdir_with_parents (runtime, 0700);
  proc = spawnv (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, runtime, args);
  adbscope_test_wait_lines (csv, 9, 40000);
  g_subprocess_force_exit (proc);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (proc));
  g_assert_cmpint (g_subprocess_get_term_sig (proc), ==, SIGKILL);

  check = shell (rec, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok");

  rep = run ("report", rec, NULL);
  g_assert_cmpint (rep.status, ==, 0);
  samples = num (rep.json, "run.samples");
  g_assert_cmpfloat (samples, ==, shell_number (rec, "SELECT count(*) FROM tick"));

  /* the CSV: header, then one row per fast sample */
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  rows = g_strv_length (lines) - 2;   /* header, trailing empty */
  g_assert_cmpfloat (samples, <=, rows);
  g_assert_cmpfloat (samples, >=, rows - 2);
  g_assert_cmpfloat (samples, >=, 6);
  header = g_strsplit (lines[0], ",", -1);
  while (header[col] && !g_str_equal (header[col], "cpu.app_pct"))
    col++;
  g_assert_nonnull (header[col]);
  for (guint i = 1; i <= samples; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);

      if (cells[col][0] == '\0')
        continue;
      n++;
      sum += g_ascii_strtod (cells[col], NULL);
      max = MAX (max, g_ascii_strtod (cells[col], NULL));
    }
  g_assert_cmpfloat (num (rep.json, "cpu.app_pct.n"), ==, n);
  g_assert_cmpfloat (fabs (num (rep.json, "cpu.app_pct.max") - max), <=, 1e-5 * MAX (max, 1));
  g_assert_cmpfloat (fabs (num (rep.json, "cpu.app_pct.avg") - sum / n), <=, 1e-4 * MAX (sum / n, 1));
  g_assert_cmpfloat (num (rep.json, "run.duration_s"), >=, samples - 2);
  g_assert_cmpstr (str (rep.json, "run.recording"), ==, rec);
}

/* `report` on the recording gives byte for byte what `record` wrote, and
 * its numbers are what the sqlite3 shell computes from the file. */
static void
test_report_equals_record (void)
{
  g_autofree char *out = path_in ("run.json");
  g_autofree char *rec = path_in ("run.adbscope");
  g_autofree char *runtime = path_in ("rt");
  g_autofree char *printed = NULL;
  g_autofree char *from_file = NULL;
  g_autofree char *p50_sql = NULL;
  g_autoptr(JsonNode) written = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Result) mark = { 0 };
  g_auto(Result) again = { 0 };
  g_auto(Result) window = { 0 };
  g_auto(Result) nope = { 0 };
  g_auto(Result) failing = { 0 };
  g_auto(Result) second = { 0 };
  g_autofree char *csv = path_in ("marked.csv");
  const char *args[] = { "record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                         "--duration", "9s", "-o", out, "--assert", "run.samples > 3", "--samples", csv, NULL };
  double n, marker_s;

  g_mkdir_with_parents (runtime, 0700);
  proc = spawnv (G_SUBPROCESS_FLAGS_STDOUT_PIPE, runtime, args);
  /* some samples before the marker (and, in 9 s, more after it): the
   * header and four rows */
  adbscope_test_wait_lines (csv, 5, 30000);
  mark = run ("mark", "half way", NULL);
  g_assert_cmpint (mark.status, ==, 0);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &printed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);

  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
    written = parse (text);
  }
  g_assert_cmpstr (str (written, "run.recording"), ==, rec);
  again = run ("report", rec, "--assert", "run.samples > 3", NULL);
  g_assert_cmpint (again.status, ==, 0);
  {
    g_autofree char *a = to_text (written);
    g_autofree char *b = to_text (again.json);

    g_assert_cmpstr (a, ==, b);
  }

  /* the numbers, as the sqlite3 shell sees the file */
  n = num (written, "cpu.app_pct.n");
  g_assert_cmpfloat (n, >=, 6);
  g_assert_cmpfloat (n, ==, shell_number (rec, STAT_SQL ("cpu.app_pct", "count(value)")));
  assert_close (num (written, "cpu.app_pct.max"), shell_number (rec, STAT_SQL ("cpu.app_pct", "max(value)")));
  assert_close (num (written, "cpu.app_pct.min"), shell_number (rec, STAT_SQL ("cpu.app_pct", "min(value)")));
  assert_close (num (written, "cpu.app_pct.avg"), shell_number (rec, STAT_SQL ("cpu.app_pct", "avg(value)")));
  assert_close (num (written, "memory.app_pss_kb.avg"), shell_number (rec, STAT_SQL ("memory.app_pss_kb", "avg(value)")));
  p50_sql = g_strdup_printf (STAT_SQL ("cpu.app_pct", "value") " AND value IS NOT NULL ORDER BY value LIMIT 1 OFFSET %d",
                             (int) ceil (n * 0.5) - 1);
  assert_close (num (written, "cpu.app_pct.p50"), shell_number (rec, p50_sql));
  g_assert_cmpfloat (num (written, "run.samples"), ==, shell_number (rec, "SELECT count(*) FROM tick"));
  g_assert_cmpfloat (num (written, "frames.total"), ==,
                     shell_number (rec, "SELECT sum(new_frames) FROM frames WHERE fps IS NOT NULL"));
  g_assert_cmpfloat (num (written, "frames.total"), >, 0);

  /* the window from the marker to the end */
  marker_s = json_object_get_double_member (json_array_get_object_element (
      json_node_get_array (adbscope_report_lookup (written, "markers")), 0), "time_s");
  window = run ("report", rec, "--marker", "half way", NULL);
  g_assert_cmpint (window.status, ==, 0);
  g_assert_cmpfloat (fabs (num (window.json, "run.window.from_s") - marker_s), <, 1e-6);
  g_assert_cmpfloat (num (window.json, "run.window.to_s"), ==, num (written, "run.duration_s"));
  {
    g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM tick WHERE t_us >= %" G_GINT64_FORMAT,
                                            (gint64) llround (marker_s * 1e6));

    g_assert_cmpfloat (num (window.json, "run.samples"), ==, shell_number (rec, sql));
    g_assert_cmpfloat (num (window.json, "run.samples"), <, num (written, "run.samples"));
  }

  nope = run ("report", rec, "--marker", "no such marker", NULL);
  g_assert_cmpint (nope.status, ==, 2);
  g_assert_cmpstr (str (nope.json, "error.code"), ==, "usage");
  failing = run ("report", rec, "--assert", "run.samples > 100000", NULL);
  g_assert_cmpint (failing.status, ==, 3);

  /* the same -o again: the first recording is kept, the second beside it */
  {
    g_autofree char *first = path_in ("first.json");
    g_autofree char *text = to_text (written);

    g_assert_true (g_file_set_contents (first, text, -1, NULL));
  }
  second = run ("record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_PACKAGE,
                "--duration", "2s", "-o", out, NULL);
  g_assert_cmpint (second.status, ==, 0);
  from_file = path_in ("run-2.adbscope");
  g_assert_true (g_file_test (from_file, G_FILE_TEST_EXISTS));
  g_assert_cmpfloat (shell_number (rec, "SELECT count(*) FROM marker"), ==, 1);
}

static void
write_modified (const char *from,
                const char *to,
                const char *path,
                double      factor,
                gboolean    make_null)
{
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  JsonObject *o;
  guint i;

  g_assert_true (g_file_get_contents (from, &text, NULL, NULL));
  root = parse (text);
  o = json_node_get_object (root);
  for (i = 0; parts[i + 1] != NULL; i++)
    o = json_object_get_object_member (o, parts[i]);
  if (make_null)
    json_object_set_null_member (o, parts[i]);
  else
    json_object_set_double_member (o, parts[i], json_object_get_double_member (o, parts[i]) * factor);
  out = to_text (root);
  g_assert_true (g_file_set_contents (to, out, -1, NULL));
}

static JsonObject *
threshold (Result *r,
           guint   i)
{
  return json_array_get_object_element (json_node_get_array (adbscope_report_lookup (r->json, "thresholds")), i);
}

static void
test_compare (void)
{
  g_autofree char *base = path_in ("first.json");
  g_autofree char *rec = path_in ("run.adbscope");
  g_autofree char *slower = path_in ("slower.json");
  g_autofree char *choppier = path_in ("choppier.json");
  g_autofree char *unknown = path_in ("unknown.json");
  g_autofree char *garbage = path_in ("garbage.json");
  g_auto(Result) same = { 0 };
  g_auto(Result) gated = { 0 };
  g_auto(Result) loose = { 0 };
  g_auto(Result) fps = { 0 };
  g_auto(Result) fps_up = { 0 };
  g_auto(Result) null_value = { 0 };
  g_auto(Result) bad_path = { 0 };
  g_auto(Result) bad_pct = { 0 };
  g_auto(Result) missing = { 0 };
  g_auto(Result) not_report = { 0 };
  JsonArray *metrics;
  gboolean saw_app_avg = FALSE;

  if (!g_file_test (base, G_FILE_TEST_EXISTS))
    test_report_equals_record ();

  /* a report against its own recording: nothing changed */
  same = run ("compare", base, rec, "--max-regress", "cpu.app_pct.avg=0", NULL);
  g_assert_cmpint (same.status, ==, 0);
  metrics = json_node_get_array (adbscope_report_lookup (same.json, "metrics"));
  g_assert_cmpuint (json_array_get_length (metrics), >, 100);
  for (guint i = 0; i < json_array_get_length (metrics); i++)
    {
      JsonObject *m = json_array_get_object_element (metrics, i);
      JsonNode *change = json_object_get_member (m, "change");

      g_assert_true (JSON_NODE_HOLDS_NULL (change) || json_node_get_double (change) == 0);
      saw_app_avg |= g_str_equal (json_object_get_string_member (m, "path"), "cpu.app_pct.avg");
    }
  g_assert_true (saw_app_avg);

  /* CPU 50 % higher: fails a 10 % gate, passes a 60 % one */
  write_modified (base, slower, "cpu.app_pct.avg", 1.5, FALSE);
  gated = run ("compare", base, slower, "--max-regress", "cpu.app_pct.avg=10", NULL);
  g_assert_cmpint (gated.status, ==, 3);
  g_assert_cmpint (num (gated.json, "regressions"), ==, 1);
  g_assert_false (json_object_get_boolean_member (threshold (&gated, 0), "pass"));
  g_assert_cmpfloat (fabs (json_object_get_double_member (threshold (&gated, 0), "regress_pct") - 50), <, 1e-6);
  loose = run ("compare", base, slower, "--max-regress", "cpu.app_pct.avg=60", NULL);
  g_assert_cmpint (loose.status, ==, 0);

  /* frame rate: lower is worse, unless told otherwise */
  write_modified (base, choppier, "frames.fps.avg", 0.5, FALSE);
  fps = run ("compare", base, choppier, "--max-regress", "frames.fps.avg=10", NULL);
  g_assert_cmpint (fps.status, ==, 3);
  fps_up = run ("compare", base, choppier, "--max-regress", "frames.fps.avg=+10", NULL);
  g_assert_cmpint (fps_up.status, ==, 0);

  /* a value the run does not have fails its gate */
  write_modified (base, unknown, "cpu.app_pct.avg", 1, TRUE);
  null_value = run ("compare", base, unknown, "--max-regress", "cpu.app_pct.avg=10", NULL);
  g_assert_cmpint (null_value.status, ==, 3);

  bad_path = run ("compare", base, rec, "--max-regress", "cpu.nothing.avg=10", NULL);
  g_assert_cmpint (bad_path.status, ==, 2);
  g_assert_cmpstr (str (bad_path.json, "error.code"), ==, "usage");
  bad_pct = run ("compare", base, rec, "--max-regress", "cpu.app_pct.avg=lots", NULL);
  g_assert_cmpint (bad_pct.status, ==, 2);
  {
    g_autofree char *nowhere = path_in ("nowhere.json");
    missing = run ("compare", base, nowhere, NULL);
  }
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_cmpstr (str (missing.json, "error.code"), ==, "io_error");
  g_assert_true (g_file_set_contents (garbage, "{\"schema\": \"something/9\"}", -1, NULL));
  not_report = run ("compare", base, garbage, NULL);
  g_assert_cmpint (not_report.status, ==, 1);
  g_assert_cmpstr (str (not_report.json, "error.code"), ==, "parse_error");
}

/* The game's own record of what it presented, read while `record` runs:
 * snapshots of its shared state (CLOCK_MONOTONIC, the sim's clock and
 * ours). */
typedef struct
{
  GPtrArray *snaps;           /* AdbscopeSimAppState*, at_ns in stats_since_ns's place */
  GArray    *at_ns;
  gint       stop;
  gint       taken;           /* snapshots so far (atomic) */
} Truth;

static gint64
monotonic_ns (void)
{
  return g_get_monotonic_time () * 1000;
}

static gpointer
truth_thread (gpointer data)
{
  Truth *t = data;

  while (!g_atomic_int_get (&t->stop))
    {
      AdbscopeSimAppState *st = g_new0 (AdbscopeSimAppState, 1);
      gint64 now;

      if (adbscope_sim_app_state_read (adbscope_test_device_get_sandbox (device), ADBSCOPE_DEMO_GAME_PACKAGE, st))
        {
          now = monotonic_ns ();
          g_ptr_array_add (t->snaps, st);
          g_array_append_val (t->at_ns, now);
          g_atomic_int_inc (&t->taken);
        }
      else
        g_free (st);
      /* paces the truth's snapshots (the ring holds 128 frames, over a
       * second at 120 Hz): not a wait for anything */
      g_usleep (150 * 1000);
    }
  return NULL;
}

typedef struct
{
  Truth *t;
  gint   until;
} TruthWait;

static gboolean
truth_has_taken (gpointer data)
{
  TruthWait *w = data;

  return g_atomic_int_get (&w->t->taken) >= w->until;
}

/* Frames the game had presented by @at_ns: from the first snapshot taken
 * after it whose ring of the last 128 frames still reaches back to it. */
static guint64
presented_at (Truth  *t,
              gint64  at_ns)
{
  for (guint i = 0; i < t->snaps->len; i++)
    {
      const AdbscopeSimAppState *st = g_ptr_array_index (t->snaps, i);
      guint64 n = st->sf_presented, back = 0;

      if (g_array_index (t->at_ns, gint64, i) < at_ns)
        continue;
      while (back < MIN (st->sf_presented, (guint64) ADBSCOPE_SIM_SF_RING) &&
             st->sf_frames[(st->sf_presented - 1 - back) % ADBSCOPE_SIM_SF_RING].actual_present > at_ns)
        back++;
      if (back < ADBSCOPE_SIM_SF_RING)
        return n - back;
    }
  g_error ("no snapshot of the game covers %" G_GINT64_FORMAT " ns", at_ns);
}

/* A run's time (µs since its start) on our monotonic clock, through the
 * wall clock the recording's start is in. */
static gint64
run_time_to_ns (JsonNode *report,
                gint64    t_us)
{
  g_autoptr(GDateTime) start = g_date_time_new_from_iso8601 (str (report, "run.start"), NULL);
  gint64 start_wall_us = g_date_time_to_unix (start) * G_USEC_PER_SEC + g_date_time_get_microsecond (start);
  gint64 wall_minus_mono = g_get_real_time () - g_get_monotonic_time ();

  return (start_wall_us - wall_minus_mono + t_us) * 1000;
}

/* A game (frames in a SurfaceView, none drawn by HWUI): `record`'s
 * frames.total is what the game presented between the first and the last
 * frames dump, by its own record; `report` on the file says the same; a
 * game run compares and gates against a game run. */
static void
test_game (void)
{
  g_autofree char *out = path_in ("game.json");
  g_autofree char *rec = path_in ("game.adbscope");
  g_autofree char *gated_json = path_in ("game-jankier.json");
  g_auto(Result) record = { 0 };
  g_auto(Result) again = { 0 };
  g_auto(Result) same = { 0 };
  g_auto(Result) gated = { 0 };
  g_autoptr(JsonNode) written = NULL;
  Truth truth = { g_ptr_array_new_with_free_func (g_free), g_array_new (FALSE, FALSE, sizeof (gint64)), 0, 0 };
  TruthWait truth_wait;
  GThread *thread = g_thread_new ("truth", truth_thread, &truth);
  double total, expected, t0_us, t1_us;
  JsonArray *metrics;
  gboolean saw_total = FALSE, saw_pct = FALSE;

  record = run ("record", "-s", adbscope_test_device_get_serial (device), "-p", ADBSCOPE_DEMO_GAME_PACKAGE,
                "--duration", "6s", "--interval", "500ms", "-o", out, "--assert", "frames.janky_pct < 100", NULL);
  /* a snapshot of the truth wholly after the run's last frame read */
  truth_wait.t = &truth;
  truth_wait.until = g_atomic_int_get (&truth.taken) + 2;
  adbscope_test_wait_until (truth_has_taken, &truth_wait, 10000, "the truth has a snapshot after the run");
  g_atomic_int_set (&truth.stop, 1);
  g_thread_join (thread);
  g_assert_cmpint (record.status, ==, 0);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
    written = parse (text);
  }

  /* the interval the counted frames span: from the dump before the first
   * one with a rate to the last one */
  t0_us = shell_number (rec, "SELECT t_us FROM frames WHERE rowid < (SELECT min (rowid) FROM frames"
                             " WHERE fps IS NOT NULL) ORDER BY rowid DESC LIMIT 1");
  t1_us = shell_number (rec, "SELECT max (t_us) FROM frames WHERE fps IS NOT NULL");
  expected = presented_at (&truth, run_time_to_ns (written, (gint64) t1_us)) -
             presented_at (&truth, run_time_to_ns (written, (gint64) t0_us));
  total = num (written, "frames.total");
  g_test_message ("game: frames.total %.0f, the game presented %.0f over %.2f s; janky %.0f (%.2f %%), fps.avg %.1f",
                  total, expected, (t1_us - t0_us) / 1e6, num (written, "frames.janky"),
                  num (written, "frames.janky_pct"), num (written, "frames.fps.avg"));
  /* each end is a dump's host time, half a round trip from its device
   * time: a few frames at 120 Hz */
  g_assert_cmpfloat (fabs (total - expected), <=, 6 + 0.02 * expected);
  g_assert_cmpfloat (expected, >, 100);
  g_assert_cmpstr (str (written, "frames.total_source"), ==, "surfaceflinger");
  g_assert_cmpfloat (total, ==, num (written, "frames.surfaceflinger.frames"));
  g_assert_cmpfloat (num (written, "frames.janky"), ==, num (written, "frames.surfaceflinger.janky"));
  g_assert_true (isfinite (num (written, "frames.janky_pct")));
  g_assert_cmpfloat (total, ==, shell_number (rec, "SELECT sum (sf_frames + sf_lost_estimate) FROM frames"
                                                   " WHERE source = 'surfaceflinger' AND fps IS NOT NULL"));
  g_assert_cmpfloat (num (written, "frames.gfxinfo.total"), ==, 0);
  g_assert_true (isnan (num (written, "frames.causes.slow_ui_thread")));
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (
      json_node_get_array (adbscope_report_lookup (written, "assertions")), 0), "pass"));

  /* the file gives the same report */
  again = run ("report", rec, "--assert", "frames.janky_pct < 100", NULL);
  g_assert_cmpint (again.status, ==, 0);
  {
    g_autofree char *a = to_text (written);
    g_autofree char *b = to_text (again.json);

    g_assert_cmpstr (a, ==, b);
  }

  /* a game against a game: the totals and the janky share compare */
  same = run ("compare", out, rec, "--max-regress", "frames.janky_pct=0", NULL);
  g_assert_cmpint (same.status, ==, 0);
  metrics = json_node_get_array (adbscope_report_lookup (same.json, "metrics"));
  for (guint i = 0; i < json_array_get_length (metrics); i++)
    {
      JsonObject *m = json_array_get_object_element (metrics, i);
      const char *path = json_object_get_string_member (m, "path");

      if (g_str_equal (path, "frames.total") || g_str_equal (path, "frames.janky_pct"))
        {
          g_assert_cmpfloat (json_object_get_double_member (m, "base"), ==, num (written, path));
          g_assert_cmpfloat (json_object_get_double_member (m, "run"), ==, num (written, path));
          saw_total |= g_str_equal (path, "frames.total");
          saw_pct |= g_str_equal (path, "frames.janky_pct");
        }
    }
  g_assert_true (saw_total && saw_pct);
  write_modified (out, gated_json, "frames.janky_pct", 2, FALSE);
  gated = run ("compare", out, gated_json, "--max-regress", "frames.janky_pct=50", NULL);
  g_assert_cmpint (gated.status, ==, num (written, "frames.janky_pct") > 0 ? 3 : 0);

  /* against a report counted from HWUI's frames: no change, and a gate fails */
  {
    g_autofree char *hwui = path_in ("game-as-hwui.json");
    g_autofree char *text = NULL;
    g_auto(Result) across = { 0 };
    JsonArray *m;

    text = to_text (written);
    {
      g_autoptr(JsonNode) copy = parse (text);

      json_object_set_string_member (json_node_get_object (adbscope_report_lookup (copy, "frames")),
                                     "total_source", "gfxinfo");
      g_free (text);
      text = to_text (copy);
    }
    g_assert_true (g_file_set_contents (hwui, text, -1, NULL));
    across = run ("compare", hwui, out, "--max-regress", "frames.janky_pct=1000", NULL);
    g_assert_cmpint (across.status, ==, 3);
    g_assert_false (json_object_get_boolean_member (threshold (&across, 0), "pass"));
    g_assert_nonnull (strstr (json_object_get_string_member (threshold (&across, 0), "reason"), "gfxinfo"));
    m = json_node_get_array (adbscope_report_lookup (across.json, "metrics"));
    for (guint i = 0; i < json_array_get_length (m); i++)
      {
        JsonObject *o = json_array_get_object_element (m, i);

        if (g_str_equal (json_object_get_string_member (o, "path"), "frames.total"))
          {
            g_assert_true (json_object_get_null_member (o, "change"));
            g_assert_cmpfloat (json_object_get_double_member (o, "run"), ==, total);
          }
        if (g_str_equal (json_object_get_string_member (o, "path"), "frames.fps.avg"))
          g_assert_cmpfloat (json_object_get_double_member (o, "change"), ==, 0);
      }
  }

  g_ptr_array_unref (truth.snaps);
  g_array_unref (truth.at_ns);
}

static void
test_recording_paths (void)
{
  g_autofree char *taken = path_in ("taken.adbscope");
  g_autofree char *text = NULL;
  g_autofree char *data_dir = g_build_filename (dir, "data", "adbscope", "recordings", NULL);
  g_autofree char *nowhere = path_in ("no/such/dir/x.adbscope");
  g_auto(Result) refused = { 0 };
  g_auto(Result) no_dir = { 0 };
  g_auto(Result) dflt = { 0 };
  gint64 t0 = g_get_monotonic_time ();
  const char *serial = adbscope_test_device_get_serial (device);

  /* an existing file is never overwritten, and nothing starts */
  g_assert_true (g_file_set_contents (taken, "mine", -1, NULL));
  refused = run ("record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "30s", "--recording", taken, NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_cmpstr (str (refused.json, "error.code"), ==, "io_error");
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_assert_true (g_file_get_contents (taken, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "mine");

  no_dir = run ("record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--recording", nowhere, NULL);
  g_assert_cmpint (no_dir.status, ==, 1);
  g_assert_cmpstr (str (no_dir.json, "error.code"), ==, "io_error");

  /* without -o: a dated file in the data folder, named in the report */
  dflt = run ("record", "-s", serial, "-p", ADBSCOPE_DEMO_PACKAGE, "--duration", "2s", NULL);
  g_assert_cmpint (dflt.status, ==, 0);
  g_assert_true (g_str_has_prefix (str (dflt.json, "run.recording"), data_dir));
  g_assert_true (g_str_has_suffix (str (dflt.json, "run.recording"), ".adbscope"));
  g_assert_true (strstr (str (dflt.json, "run.recording"), ADBSCOPE_DEMO_PACKAGE "-") != NULL);
  g_assert_true (g_file_test (str (dflt.json, "run.recording"), G_FILE_TEST_IS_REGULAR));
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("adbscope-rec-XXXXXX", NULL);
  device = adbscope_test_device_start ("pixel-14", (const char *[]) { "--game", NULL }, &error);
  g_assert_no_error (error);

  g_test_add_func ("/recording/cli/report-equals-record", test_report_equals_record);
  g_test_add_func ("/recording/cli/compare", test_compare);
  g_test_add_func ("/recording/cli/game", test_game);
  g_test_add_func ("/recording/cli/crash", test_crash);
  g_test_add_func ("/recording/cli/paths", test_recording_paths);
  rc = g_test_run ();

  adbscope_test_device_free (device);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
    (void) system (cmd);
  }
  g_free (dir);
  return rc;
}
