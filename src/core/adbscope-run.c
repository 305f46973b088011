/* adbscope-run.c: a run's data, from a recording or a live session
 *
 * Reading a recording is a handful of scans in insertion order (rowid),
 * which is also time order per series: an 8-hour recording at 1 s loads in
 * about a second (tests/bench/bench-recording.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-frames-summary.h"
#include "adbscope-json.h"
#include "adbscope-recording.h"
#include "adbscope-recording-private.h"
#include "adbscope-assertion.h"
#include "adbscope-report.h"
#include "adbscope-report-network.h"
#include "adbscope-run.h"
#include "adbscope-slow-collector.h"
#include "adbscope-stats.h"
#include "adbscope-thread.h"

static void
run_thread_clear (AdbscopeRunThread *t)
{
  g_free (t->name);
}

static void
marker_clear (AdbscopeMarker *m)
{
  g_free (m->label);
}

static void
process_clear (AdbscopeAppProcess *p)
{
  g_free (p->name);
}

static AdbscopeRun *
run_new (void)
{
  AdbscopeRun *run = g_new0 (AdbscopeRun, 1);

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    run->series[i] = g_array_new (FALSE, FALSE, sizeof (AdbscopeSample));
  run->cores = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  run->markers = g_array_new (FALSE, FALSE, sizeof (AdbscopeMarker));
  g_array_set_clear_func (run->markers, (GDestroyNotify) marker_clear);
  run->gaps = g_array_new (FALSE, FALSE, sizeof (AdbscopeGap));
  run->dts = g_array_new (FALSE, FALSE, sizeof (double));
  run->pids = g_array_new (FALSE, FALSE, sizeof (gint64));
  run->restart_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  run->frame_times = g_array_new (FALSE, FALSE, sizeof (double));
  run->screenshots = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_screenshot_free);
  run->screenshot_interval_s = NAN;
  run->threads = g_array_new (FALSE, FALSE, sizeof (AdbscopeRunThread));
  g_array_set_clear_func (run->threads, (GDestroyNotify) run_thread_clear);
  run->refresh_hz = NAN;
  run->system = g_new0 (AdbscopeSystemState, 1);
  run->system->jobs = run->system->jobs_running = -1;
  adbscope_frames_summary_init (&run->fsum);
  run->system->alarms_pending = run->system->alarm_wakeups = -1;
  return run;
}

void
adbscope_run_free (AdbscopeRun *run)
{
  if (run == NULL)
    return;
  g_clear_object (&run->session);
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_array_unref (run->series[i]);
  g_ptr_array_unref (run->cores);
  g_array_unref (run->markers);
  g_array_unref (run->gaps);
  g_array_unref (run->dts);
  g_array_unref (run->pids);
  g_array_unref (run->restart_times);
  g_array_unref (run->frame_times);
  g_array_unref (run->threads);
  g_ptr_array_unref (run->screenshots);
  adbscope_system_state_free (run->system);
  adbscope_frames_summary_clear (&run->fsum);
  g_clear_pointer (&run->device, json_object_unref);
  g_clear_pointer (&run->sources, json_object_unref);
  g_clear_pointer (&run->network_agent, json_object_unref);
  g_clear_pointer (&run->device_loss, json_object_unref);
  g_clear_pointer (&run->session_extras, json_object_unref);
  g_free (run->recording);
  g_free (run->serial);
  g_free (run->package);
  g_free (run->start);
  g_free (run);
}

static void
note_pid (GArray *pids,
          gint64  pid)
{
  for (guint i = 0; i < pids->len; i++)
    if (g_array_index (pids, gint64, i) == pid)
      return;
  g_array_append_val (pids, pid);
}

static double
refresh_from_device (JsonObject *device)
{
  return adbscope_json_member_number (device, "refresh_hz");
}

/* ---- from a live session ---- */

static void
copy_series (GArray         *to,
             AdbscopeSeries *from,
             gint64          origin)
{
  guint n = adbscope_series_get_length (from);

  for (guint i = 0; i < n; i++)
    {
      AdbscopeSample s = *adbscope_series_get (from, i);

      s.time_us -= origin;
      g_array_append_val (to, s);
    }
}

/**
 * adbscope_run_new_from_session:
 *
 * What the session holds: its series cover the history it keeps (15
 * minutes by default); counters and frame times cover the whole run.
 */
AdbscopeRun *
adbscope_run_new_from_session (AdbscopeSession *session)
{
  AdbscopeRun *run = run_new ();
  gint64 origin = adbscope_session_get_start_us (session);
  GDateTime *start = adbscope_session_get_start_time (session);
  const AdbscopeProbeResult *probe = adbscope_session_get_probe (session);
  const GArray *a;
  GListModel *threads;

  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), NULL);

  run->session = g_object_ref (session);
  run->to_end = TRUE;
  run->serial = g_strdup (adbscope_session_get_serial (session));
  run->package = g_strdup (adbscope_session_get_package (session));
  run->start = start ? g_date_time_format_iso8601 (start) : NULL;
  run->interval_ms = adbscope_session_get_interval (session);
  run->end_us = start ? g_get_monotonic_time () - origin : 0;
  run->to_us = run->end_us;
  run->device = adbscope_report_device_object (probe, run->serial);
  run->sources = adbscope_report_sources_object (probe);
  run->network_agent = adbscope_report_network_agent (session);
  run->device_loss = adbscope_report_device_loss (session);
  run->refresh_hz = adbscope_session_get_refresh_rate (session);

  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    copy_series (run->series[i], adbscope_session_get_series (session, i), origin);
  for (guint c = 0; c < adbscope_session_get_n_cores (session); c++)
    {
      GArray *core = g_array_new (FALSE, FALSE, sizeof (AdbscopeSample));

      copy_series (core, adbscope_session_get_core_series (session, c), origin);
      g_ptr_array_add (run->cores, core);
    }

  a = adbscope_session_get_markers (session);
  for (guint i = 0; i < a->len; i++)
    {
      AdbscopeMarker m = g_array_index (a, AdbscopeMarker, i);

      m.time_us -= origin;
      m.label = g_strdup (m.label);
      g_array_append_val (run->markers, m);
    }
  a = adbscope_session_get_gaps (session);
  for (guint i = 0; i < a->len; i++)
    {
      AdbscopeGap g = g_array_index (a, AdbscopeGap, i);

      /* Still open (the session runs; stopping closes it): no sample
       * since its start, up to now. */
      if (g.end_us == 0)
        g.end_us = MAX (g_get_monotonic_time (), g.start_us);
      g.start_us -= origin;
      g.end_us -= origin;
      g_array_append_val (run->gaps, g);
    }
  a = adbscope_session_get_frame_times (session);
  g_array_append_vals (run->frame_times, a->data, a->len);
  a = adbscope_session_get_pids (session);
  g_array_append_vals (run->pids, a->data, a->len);
  run->n_samples = adbscope_session_get_n_samples (session);
  run->restarts = adbscope_session_get_restarts (session);
  /* A process after the first began at a restart. */
  a = adbscope_session_get_process_spans (session);
  for (guint i = 1; i < a->len; i++)
    {
      gint64 t = g_array_index (a, AdbscopeProcessSpan, i).first_us - origin;

      g_array_append_val (run->restart_times, t);
    }
  {
    double ms = adbscope_session_get_measured_interval_ms (session);

    /* the median is all the report reads from the intervals */
    if (isfinite (ms))
      {
        double s = ms / 1000.0;
        g_array_append_val (run->dts, s);
      }
  }
  run->totals = *adbscope_session_get_frame_totals (session);
  adbscope_frames_summary_copy (&run->fsum, adbscope_session_get_frames_summary (session));

  threads = adbscope_session_get_threads (session);
  for (guint i = 0; i < g_list_model_get_n_items (threads); i++)
    {
      g_autoptr(AdbscopeThread) t = g_list_model_get_item (threads, i);
      AdbscopeRunThread rt = {
        adbscope_thread_get_tid (t), g_strdup (adbscope_thread_get_name (t)),
        adbscope_thread_get_cpu_pct (t), adbscope_thread_get_max_cpu_pct (t),
      };

      g_array_append_val (run->threads, rt);
    }

  adbscope_system_state_free (run->system);
  run->system = adbscope_system_state_copy (adbscope_session_get_system_state (session));
  {
    GPtrArray *shots = adbscope_session_get_screenshots (session);
    guint interval_ms;

    if (adbscope_session_get_screenshots_enabled (session, &interval_ms) || shots->len > 0)
      run->screenshot_interval_s = interval_ms / 1000.0;
    run->screenshots_skipped = adbscope_session_get_screenshots_skipped (session);
    for (guint k = 0; k < ADBSCOPE_IMPLAUSIBLE_N; k++)
      run->implausible[k] = adbscope_session_get_implausible (session, k);
    for (guint i = 0; i < shots->len; i++)
      {
        AdbscopeScreenshot *shot = adbscope_screenshot_copy (g_ptr_array_index (shots, i));

        shot->time_us -= origin;
        g_ptr_array_add (run->screenshots, shot);
      }
  }
  return run;
}

/* ---- from a recording ---- */

static gboolean
db_error (sqlite3     *db,
          const char  *path,
          GError     **error)
{
  int code = sqlite3_errcode (db);

  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                 _("%s is not an Adbscope recording (%s)"), path, sqlite3_errmsg (db));
  else
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                 _("Cannot read the recording %s: %s"), path, sqlite3_errmsg (db));
  return FALSE;
}

static sqlite3_stmt *
prepare (sqlite3    *db,
         const char *sql,
         gint64      from_us,
         gint64      to_us)
{
  sqlite3_stmt *st = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) != SQLITE_OK)
    return NULL;
  /* Every query names the window ?1..?2 (unused ones are ignored). */
  if (sqlite3_bind_parameter_count (st) >= 2)
    {
      sqlite3_bind_int64 (st, 1, from_us);
      sqlite3_bind_int64 (st, 2, to_us);
    }
  return st;
}

static char *
column_text (sqlite3_stmt *st,
             int           col)
{
  const unsigned char *t = sqlite3_column_text (st, col);

  return t ? g_strdup ((const char *) t) : NULL;
}

static double
column_double (sqlite3_stmt *st,
               int           col)
{
  return sqlite3_column_type (st, col) == SQLITE_NULL ? NAN : sqlite3_column_double (st, col);
}

/* A meta value: untrusted (recordings are shared), read with limits.
 * Missing is NULL without an error; text that is not a JSON object (too
 * deep, too large, not JSON) is an error naming the key. */
static gboolean
parse_object (GHashTable  *meta,
              const char  *key,
              const char  *path,
              JsonObject **out,
              GError     **error)
{
  const char *text = g_hash_table_lookup (meta, key);
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonNode) root = NULL;

  *out = NULL;
  if (text == NULL)
    return TRUE;
  root = adbscope_json_parse_untrusted (text, -1, ADBSCOPE_JSON_MAX_FILE_SIZE, &local);
  if (root != NULL && !JSON_NODE_HOLDS_OBJECT (root))
    local = g_error_new_literal (ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("not a JSON object"));
  if (local != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The recording %s is damaged: its “%s” is unreadable: %s"), path, key, local->message);
      return FALSE;
    }
  *out = json_object_ref (json_node_get_object (root));
  return TRUE;
}

/* The file, opened for reading; nothing is written.  Read-write when the
 * file and its folder are writable, so a recording left by a crash (WAL
 * not folded in) can be recovered.  Otherwise (a shared folder, another
 * user's file, a read-only mount) read-only and immutable: SQLite then
 * needs no -shm/-wal beside it and takes no locks, which a folder we may
 * not write cannot hold ("unable to open database file").  A finished
 * recording has its WAL folded in and is in rollback-journal mode
 * (adbscope_recording_close ()), so immutable reads all of it. */
static sqlite3 *
open_db (const char  *path,
         GError     **error)
{
  sqlite3 *db = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *uri = NULL;
  /* a connection is used by one thread at a time (each worker opens its
   * own): no mutex around every call (a fifth of a chart read's time) */
  int flags = SQLITE_OPEN_NOMUTEX;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot read the recording %s: no such file"), path);
      return NULL;
    }
  if (access (path, W_OK) == 0 && access (dir, W_OK) == 0)
    flags |= SQLITE_OPEN_READWRITE;
  else
    {
      g_autofree char *absolute = g_canonicalize_filename (path, NULL);
      g_autofree char *escaped = g_uri_escape_string (absolute, "/", TRUE);

      uri = g_strconcat ("file://", escaped, "?mode=ro&immutable=1", NULL);
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    }
  if (sqlite3_open_v2 (uri ? uri : path, &db, flags, NULL) != SQLITE_OK)
    {
      db_error (db, path, error);
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_busy_timeout (db, 2000);
  return db;
}

static GHashTable *
read_meta (sqlite3     *db,
           const char  *path,
           GError     **error)
{
  g_autoptr(GHashTable) meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *st = NULL;
  int version = 0;
  const char *schema;

  if (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
    {
      db_error (db, path, error);
      return NULL;
    }
  if (sqlite3_step (st) == SQLITE_ROW)
    version = sqlite3_column_int (st, 0);
  sqlite3_finalize (st);

  if (sqlite3_prepare_v2 (db, "SELECT key, value FROM meta", -1, &st, NULL) != SQLITE_OK)
    {
      if (sqlite3_errcode (db) == SQLITE_ERROR)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("%s is not an Adbscope recording"), path);
      else
        db_error (db, path, error);
      return NULL;
    }
  while (sqlite3_step (st) == SQLITE_ROW)
    g_hash_table_insert (meta, column_text (st, 0), column_text (st, 1));
  sqlite3_finalize (st);

  schema = g_hash_table_lookup (meta, "schema");
  if (schema == NULL || !g_str_has_prefix (schema, "adbscope-recording/") ||
      g_ascii_strtoll (schema + strlen ("adbscope-recording/"), NULL, 10) < 1)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s is not an Adbscope recording"), path);
      return NULL;
    }
  /* every version up to ours opens (version 1: a coarser level of detail;
   * before 3: frames rows without their source) */
  if (version > ADBSCOPE_RECORDING_VERSION ||
      g_ascii_strtoll (schema + strlen ("adbscope-recording/"), NULL, 10) > ADBSCOPE_RECORDING_VERSION)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("%s was written by a newer Adbscope (%s); update Adbscope to read it"), path, schema);
      return NULL;
    }
  return g_steal_pointer (&meta);
}

static gint64
meta_int (GHashTable *meta,
          const char *key)
{
  const char *v = g_hash_table_lookup (meta, key);

  return v ? g_ascii_strtoll (v, NULL, 10) : 0;
}

/* Samples rows adbscope_run_load () read, in this process. */
static gsize samples_read;

/* The series the file has, each mapped (by its id in @by_id) to where its
 * samples go; a core's array is made for every core the file has. */
static gboolean
map_series (AdbscopeRun *run,
            sqlite3     *db,
            GHashTable  *by_id)
{
  sqlite3_stmt *st = prepare (db, "SELECT id, path FROM series", 0, 0);

  if (st == NULL)
    return FALSE;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      int id = sqlite3_column_int (st, 0);
      const char *path = (const char *) sqlite3_column_text (st, 1);
      GArray *target = NULL;
      guint core;

      for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
        if (g_strcmp0 (path, adbscope_series_id_get_path (i)) == 0)
          target = run->series[i];
      if (target == NULL && path != NULL && sscanf (path, "cpu.core%u_pct", &core) == 1 && core < 4096)
        {
          while (run->cores->len <= core)
            g_ptr_array_add (run->cores, g_array_new (FALSE, FALSE, sizeof (AdbscopeSample)));
          target = g_ptr_array_index (run->cores, core);
        }
      /* a series this version does not know is skipped, not an error */
      if (target != NULL)
        g_hash_table_insert (by_id, GINT_TO_POINTER (id), target);
    }
  sqlite3_finalize (st);
  return TRUE;
}

static gboolean
load_series (AdbscopeRun *run,
             sqlite3     *db)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (NULL, NULL);
  sqlite3_stmt *st;
  guint64 n = 0;
  int rc;

  if (!map_series (run, db, by_id))
    return FALSE;
  st = prepare (db, "SELECT series, t_us, value FROM sample WHERE t_us BETWEEN ?1 AND ?2 ORDER BY rowid",
                run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      GArray *target = g_hash_table_lookup (by_id, GINT_TO_POINTER (sqlite3_column_int (st, 0)));
      AdbscopeSample s = { sqlite3_column_int64 (st, 1), column_double (st, 2) };

      n++;
      if (target != NULL)
        g_array_append_val (target, s);
    }
  sqlite3_finalize (st);
  g_atomic_pointer_add (&samples_read, n);
  return rc == SQLITE_DONE;
}

static gboolean
load_ticks (AdbscopeRun *run,
            sqlite3     *db)
{
  sqlite3_stmt *st = prepare (db, "SELECT dt_s, app_running, pid FROM tick WHERE t_us BETWEEN ?1 AND ?2 ORDER BY rowid",
                              run->from_us, run->to_us);
  int rc;

  if (st == NULL)
    return FALSE;
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      double dt = column_double (st, 0);

      run->n_samples++;
      if (isfinite (dt) && dt > 0)
        g_array_append_val (run->dts, dt);
      if (sqlite3_column_int (st, 1))
        note_pid (run->pids, sqlite3_column_int64 (st, 2));
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return FALSE;

  st = prepare (db, "SELECT t_us FROM restart WHERE t_us BETWEEN ?1 AND ?2 ORDER BY t_us", run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      gint64 t = sqlite3_column_int64 (st, 0);

      g_array_append_val (run->restart_times, t);
    }
  run->restarts = run->restart_times->len;
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return FALSE;
  return TRUE;
}

static gboolean
load_events (AdbscopeRun *run,
             sqlite3     *db)
{
  sqlite3_stmt *st = prepare (db, "SELECT t_us, label FROM marker WHERE t_us BETWEEN ?1 AND ?2 ORDER BY rowid",
                              run->from_us, run->to_us);

  if (st == NULL)
    return FALSE;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      AdbscopeMarker m = { sqlite3_column_int64 (st, 0), column_text (st, 1) };

      g_array_append_val (run->markers, m);
    }
  sqlite3_finalize (st);

  /* Gaps that overlap the window; one still open when the run ended
   * (stopped or killed inside it) lasts to the end. */
  st = prepare (db, "SELECT start_us, coalesce (end_us, (SELECT value FROM meta WHERE key = 'end_us')) FROM gap"
                " WHERE start_us <= ?2 AND (end_us IS NULL OR end_us >= ?1) ORDER BY rowid",
                run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      AdbscopeGap g = { sqlite3_column_int64 (st, 0), sqlite3_column_int64 (st, 1) };

      g.end_us = MAX (g.end_us, g.start_us);
      g_array_append_val (run->gaps, g);
    }
  sqlite3_finalize (st);
  return TRUE;
}

static gboolean
load_screenshots (AdbscopeRun *run,
                  sqlite3     *db,
                  GHashTable  *meta)
{
  const char *interval = g_hash_table_lookup (meta, "screenshot_interval_s");
  sqlite3_stmt *st = prepare (db, "SELECT t_us, cost_ms, cpu_ms, width, height, at_marker FROM screenshot"
                              " WHERE t_us BETWEEN ?1 AND ?2 ORDER BY t_us", run->from_us, run->to_us);
  int rc;

  /* The first files of version 1 had t_us, png and cost_ms only. */
  if (st == NULL)
    st = prepare (db, "SELECT t_us, cost_ms, NULL, NULL, NULL, 0 FROM screenshot"
                  " WHERE t_us BETWEEN ?1 AND ?2 ORDER BY t_us", run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      AdbscopeScreenshot *shot = g_new0 (AdbscopeScreenshot, 1);

      shot->time_us = sqlite3_column_int64 (st, 0);
      shot->cost_ms = column_double (st, 1);
      shot->cpu_ms = column_double (st, 2);
      shot->width = (guint) MAX (sqlite3_column_int64 (st, 3), 0);
      shot->height = (guint) MAX (sqlite3_column_int64 (st, 4), 0);
      shot->at_marker = sqlite3_column_int (st, 5) != 0;
      shot->round_trip_ms = NAN;
      g_ptr_array_add (run->screenshots, shot);
    }
  sqlite3_finalize (st);
  run->screenshots_skipped = (guint) CLAMP (meta_int (meta, "screenshots_skipped"), 0, G_MAXUINT);
  for (guint k = 0; k < ADBSCOPE_IMPLAUSIBLE_N; k++)
    {
      g_autofree char *key = g_strconcat ("implausible_", adbscope_implausible_to_string (k), NULL);

      run->implausible[k] = (guint) CLAMP (meta_int (meta, key), 0, G_MAXUINT);
    }
  if (interval != NULL)
    run->screenshot_interval_s = g_ascii_strtod (interval, NULL);
  else if (run->screenshots->len > 0)
    run->screenshot_interval_s = 0;
  return rc == SQLITE_DONE;
}

GBytes *
adbscope_run_read_screenshot (const char  *path,
                              gint64       t_us,
                              GError     **error)
{
  sqlite3_stmt *st;
  sqlite3 *db;
  GBytes *png = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  db = open_db (path, error);
  if (db == NULL)
    return NULL;
  st = prepare (db, "SELECT png FROM screenshot WHERE t_us = ?1 LIMIT 1", 0, 0);
  if (st != NULL)
    {
      sqlite3_bind_int64 (st, 1, t_us);
      if (sqlite3_step (st) == SQLITE_ROW)
        png = g_bytes_new (sqlite3_column_blob (st, 0), (gsize) sqlite3_column_bytes (st, 0));
      else
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                     _("The recording %s has no screenshot at %.3f s"), path, t_us / 1e6);
      sqlite3_finalize (st);
    }
  else
    db_error (db, path, error);
  sqlite3_close (db);
  return png;
}

/* A little-endian float32 blob, appended to @to as doubles. */
static void
append_blob_ms (GArray       *to,
                sqlite3_stmt *st,
                int           col)
{
  int bytes = sqlite3_column_bytes (st, col);
  const void *blob = sqlite3_column_blob (st, col);
  guint old = to->len, n = bytes / 4;
  g_autofree float *ms = NULL;

  if (blob == NULL || bytes < 4)
    return;
  ms = g_memdup2 (blob, n * 4);
  _adbscope_recording_floats_to_le (ms, n);
  g_array_set_size (to, old + n);
  for (guint i = 0; i < n; i++)
    g_array_index (to, double, old + i) = ms[i];
}

static AdbscopeFramesSource
source_from_key (const char *key)
{
  for (AdbscopeFramesSource i = ADBSCOPE_FRAMES_SOURCE_GFXINFO; i <= ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER; i++)
    if (g_strcmp0 (key, adbscope_frames_source_to_key (i)) == 0)
      return i;
  return ADBSCOPE_FRAMES_SOURCE_NONE;
}

static const char *member_string (JsonObject *o, const char *key);
static double member_number (JsonObject *o, const char *key);

static JsonObject *
object_member (JsonObject *o,
               const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;

  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static gint64
int_member (JsonObject *o,
            const char *key)
{
  double v = member_number (o, key);

  return isfinite (v) ? (gint64) v : 0;
}

static JsonObject *
extras_frames (const AdbscopeRun *run)
{
  return object_member (run->session_extras, "frames");
}

/* What the meta's session_extras say of the frames' sources (the whole
 * run, as it ended): the refresh period for every version, and for the
 * whole run the layers (a window names those its rows saw) and, for a
 * window that reaches the end, the latest zero reason (the reason of the
 * run's latest sample is not that of an earlier window's); for a file
 * before version 3 also the counts its rows do not hold. */
static void
fsum_from_extras (AdbscopeRun *run)
{
  AdbscopeFramesSummary *f = &run->fsum;
  JsonObject *fr = extras_frames (run);
  JsonObject *sf = object_member (fr, "surfaceflinger");
  JsonObject *zr = object_member (fr, "zero_reason");
  JsonNode *layers = sf ? json_object_get_member (sf, "layers") : NULL;
  double period = member_number (sf, "refresh_period_ms");

  if (fr == NULL)
    return;
  if (run->windowed)
    layers = NULL;
  if (!run->to_end)
    zr = NULL;
  for (guint i = 0; layers && JSON_NODE_HOLDS_ARRAY (layers) && i < json_array_get_length (json_node_get_array (layers)); i++)
    {
      const char *name = adbscope_report_node_string (json_array_get_element (json_node_get_array (layers), i));

      if (name != NULL && !g_ptr_array_find_with_equal_func (f->layers, name, g_str_equal, NULL))
        g_ptr_array_add (f->layers, g_strdup (name));
    }
  if (isfinite (period) && period > 0)
    f->refresh_period_ns = (gint64) llround (period * 1e6);
  for (AdbscopeFramesZeroReason r = ADBSCOPE_FRAMES_ZERO_NOT_RUNNING; zr && r <= ADBSCOPE_FRAMES_ZERO_UNREADABLE; r++)
    if (g_strcmp0 (member_string (zr, "code"), adbscope_frames_zero_reason_to_key (r)) == 0)
      f->zero_reason = r;
  if (run->version >= ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION)
    return;

  {
    JsonObject *samples = object_member (fr, "source_samples");

    f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO] = int_member (samples, "gfxinfo");
    f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] = int_member (samples, "surfaceflinger");
    f->source = source_from_key (member_string (fr, "source"));
    if (f->source == ADBSCOPE_FRAMES_SOURCE_NONE && f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] > 0)
      f->source = ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER;
    f->layer = g_strdup (member_string (sf, "layer"));
    f->frames = int_member (sf, "frames");
    f->janky = int_member (sf, "janky");
    f->jank = int_member (sf, "jank");
    f->big_jank = int_member (sf, "big_jank");
    f->lost_intervals = (guint) int_member (sf, "lost_intervals");
    f->lost_estimate = int_member (sf, "lost_frames_estimate");
    run->fsum_whole_run = TRUE;
  }
}

/* gfxinfo's rate at each time it was sampled (t_us → value), for a file
 * before version 3: from the loaded series, else one scan of the file. */
static GHashTable *
gfxinfo_rates (AdbscopeRun *run,
               sqlite3     *db)
{
  GHashTable *rates = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  const GArray *loaded = run->series[ADBSCOPE_SERIES_FPS_GFXINFO];
  sqlite3_stmt *st;

  for (guint i = 0; i < loaded->len; i++)
    {
      const AdbscopeSample *x = &g_array_index (loaded, AdbscopeSample, i);

      g_hash_table_insert (rates, g_memdup2 (&x->time_us, sizeof (gint64)), g_memdup2 (&x->value, sizeof (double)));
    }
  if (loaded->len > 0)
    return rates;
  st = prepare (db, "SELECT t_us, value FROM sample WHERE series = (SELECT id FROM series WHERE path = ?3)"
                " AND t_us BETWEEN ?1 AND ?2", run->from_us, run->to_us);
  if (st == NULL)
    return rates;
  sqlite3_bind_text (st, 3, adbscope_series_id_get_path (ADBSCOPE_SERIES_FPS_GFXINFO), -1, SQLITE_STATIC);
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      gint64 t = sqlite3_column_int64 (st, 0);
      double v = column_double (st, 1);

      g_hash_table_insert (rates, g_memdup2 (&t, sizeof t), g_memdup2 (&v, sizeof v));
    }
  sqlite3_finalize (st);
  return rates;
}

/* A file before version 3 counted gfxinfo's frames only, and its rows do not
 * say where each interval's FPS came from.  gfxinfo's frames are the
 * totals when every interval's FPS was gfxinfo's rate of the same sample
 * (@all_gfxinfo); for a run measured with SurfaceFlinger alone, the whole
 * run's are its summary's in the meta.  Any other mix (or a window of
 * one) cannot be attributed: the totals stay unknown, never a guess. */
static void
attribute_unsourced (AdbscopeRun *run,
                     gboolean     all_gfxinfo,
                     gint64       n_rows)
{
  AdbscopeFrameTotals *t = &run->totals;
  AdbscopeFramesSummary *f = &run->fsum;
  gboolean extras = extras_frames (run) != NULL;

  t->unattributed = FALSE;
  if (all_gfxinfo)
    {
      t->frames = t->gfx_frames;
      t->janky = t->gfx_janky;
      /* a file without the summary: the rates say where they came from */
      if (!extras && n_rows > 0)
        {
          f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO] = n_rows;
          f->source = ADBSCOPE_FRAMES_SOURCE_GFXINFO;
        }
    }
  else if (extras && f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO] == 0 &&
           f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] > 0 && !run->windowed)
    {
      t->frames = f->frames;
      t->janky = f->janky;
    }
  else
    t->unattributed = TRUE;
}

/* Every frames row with a rate in the window: the totals, SurfaceFlinger's
 * summary, and with @times every frame time (gfxinfo's and SurfaceFlinger's,
 * sorted). */
static gboolean
load_frames (AdbscopeRun *run,
             sqlite3     *db,
             gboolean     times)
{
  g_autofree char *sql = g_strdup_printf (
      "SELECT new_frames, new_janky, over_deadline, missed_vsync, high_input_latency,"
      " slow_ui_thread, slow_bitmap_uploads, slow_issue_draw_commands, frame_deadline_missed, %s, %s, t_us, fps"
      " FROM frames WHERE t_us BETWEEN ?1 AND ?2 AND fps IS NOT NULL ORDER BY rowid",
      times ? "frame_ms" : "NULL",
      run->version < ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION ? "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
      : times ? "source, sf_layer, sf_fps, sf_frames, sf_lost_estimate, sf_janky, sf_jank, sf_big_jank, sf_lost, sf_frame_ms"
      : "source, sf_layer, sf_fps, sf_frames, sf_lost_estimate, sf_janky, sf_jank, sf_big_jank, sf_lost, NULL");
  sqlite3_stmt *st = prepare (db, sql, run->from_us, run->to_us);
  AdbscopeFrameTotals *t = &run->totals;
  AdbscopeFramesSummary *f = &run->fsum;
  g_autoptr(GHashTable) gfx_rates = run->version < ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION ? gfxinfo_rates (run, db) : NULL;
  gboolean all_gfxinfo = TRUE;
  gint64 n_rows = 0;
  int rc;

  if (st == NULL)
    return FALSE;
  memset (t, 0, sizeof *t);
  g_array_set_size (run->frame_times, 0);
  g_array_set_size (f->frame_times, 0);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      AdbscopeFramesSource source = source_from_key ((const char *) sqlite3_column_text (st, 10));
      gint64 sf_frames = sqlite3_column_int64 (st, 13) + sqlite3_column_int64 (st, 14);

      t->gfx_frames += sqlite3_column_int64 (st, 0);
      t->gfx_janky += sqlite3_column_int64 (st, 1);
      t->over_deadline += sqlite3_column_int64 (st, 2);
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        if (sqlite3_column_type (st, 3 + c) != SQLITE_NULL)
          {
            t->has_cause[c] = TRUE;
            t->causes[c] += sqlite3_column_int64 (st, 3 + c);
          }
      append_blob_ms (run->frame_times, st, 9);

      n_rows++;
      if (run->version < ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION)
        {
          gint64 t_us = sqlite3_column_int64 (st, 20);
          const double *gfx = g_hash_table_lookup (gfx_rates, &t_us);

          all_gfxinfo = all_gfxinfo && gfx != NULL && *gfx == sqlite3_column_double (st, 21);
          continue;
        }
      /* the interval's frames, from the source its FPS came from */
      f->samples[source]++;
      f->source = source;
      if (source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER)
        {
          t->frames += sf_frames;
          t->janky += sqlite3_column_int64 (st, 15);
        }
      else
        {
          t->frames += sqlite3_column_int64 (st, 0);
          t->janky += sqlite3_column_int64 (st, 1);
        }
      /* SurfaceFlinger's own summary: every interval its layer gave a rate */
      if (sqlite3_column_type (st, 11) == SQLITE_NULL || sqlite3_column_type (st, 12) == SQLITE_NULL)
        continue;
      if (sqlite3_column_int64 (st, 13) > 0)
        {
          g_free (f->layer);
          f->layer = column_text (st, 11);
        }
      if (!g_ptr_array_find_with_equal_func (f->layers, sqlite3_column_text (st, 11), g_str_equal, NULL))
        g_ptr_array_add (f->layers, column_text (st, 11));
      f->frames += sf_frames;
      f->janky += sqlite3_column_int64 (st, 15);
      f->jank += sqlite3_column_int64 (st, 16);
      f->big_jank += sqlite3_column_int64 (st, 17);
      f->lost_intervals += sqlite3_column_int64 (st, 18) != 0;
      f->lost_estimate += sqlite3_column_int64 (st, 14);
      append_blob_ms (f->frame_times, st, 19);
    }
  sqlite3_finalize (st);
  g_array_sort (run->frame_times, adbscope_compare_double);
  g_array_sort (f->frame_times, adbscope_compare_double);
  if (run->version < ADBSCOPE_RECORDING_FRAMES_SOURCE_VERSION)
    attribute_unsourced (run, all_gfxinfo, n_rows);
  return rc == SQLITE_DONE;
}

static gboolean
load_threads (AdbscopeRun *run,
              sqlite3     *db)
{
  g_autoptr(GHashTable) peaks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gint64 last_tick = G_MININT64;
  sqlite3_stmt *st = prepare (db, "SELECT max (t_us) FROM tick WHERE t_us BETWEEN ?1 AND ?2",
                              run->from_us, run->to_us);

  if (st == NULL)
    return FALSE;
  if (sqlite3_step (st) == SQLITE_ROW && sqlite3_column_type (st, 0) != SQLITE_NULL)
    last_tick = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);

  /* The peak of every thread over the window and its share at the last
   * sample (no row: 0 %), in one pass over the samples. */
  st = prepare (db, "SELECT tid, max (pct), max (CASE WHEN t_us = ?3 THEN pct END) FROM thread_sample"
                " WHERE t_us BETWEEN ?1 AND ?2 GROUP BY tid", run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  sqlite3_bind_int64 (st, 3, last_tick);
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      double *v = g_new (double, 2);

      v[0] = column_double (st, 1);
      v[1] = column_double (st, 2);
      g_hash_table_insert (peaks, GINT_TO_POINTER (sqlite3_column_int (st, 0)), v);
    }
  sqlite3_finalize (st);

  /* Alive at the window's end, in the order they appeared. */
  st = prepare (db, "SELECT tid, name FROM thread WHERE first_us <= ?2 AND (last_us IS NULL OR last_us > ?2)"
                " ORDER BY rowid", run->from_us, run->to_us);
  if (st == NULL)
    return FALSE;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      const double *v = g_hash_table_lookup (peaks, GINT_TO_POINTER (sqlite3_column_int (st, 0)));
      AdbscopeRunThread t = { sqlite3_column_int (st, 0), column_text (st, 1),
                              v && isfinite (v[1]) ? v[1] : 0, v && isfinite (v[0]) ? v[0] : 0 };

      g_array_append_val (run->threads, t);
    }
  sqlite3_finalize (st);
  return TRUE;
}

static void
load_processes (AdbscopeRun *run,
                const char  *text)
{
  g_autoptr(JsonNode) root = adbscope_json_parse_untrusted (text, -1, ADBSCOPE_JSON_MAX_FILE_SIZE, NULL);
  JsonArray *a;

  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return;
  a = json_node_get_array (root);
  run->system->processes = g_array_new (FALSE, FALSE, sizeof (AdbscopeAppProcess));
  g_array_set_clear_func (run->system->processes, (GDestroyNotify) process_clear);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *on = json_array_get_element (a, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (on) ? json_node_get_object (on) : NULL;
      AdbscopeAppProcess p = { 0 };

      if (o == NULL)
        continue;
      p.pid = (int) CLAMP (adbscope_json_member_int (o, "pid", 0), 0, G_MAXINT);
      p.name = g_strdup (adbscope_report_node_string (json_object_get_member (o, "name")));
      if (p.name == NULL)
        p.name = g_strdup ("");
      p.rss_kb = adbscope_json_member_int (o, "rss_kb", -1);
      g_array_append_val (run->system->processes, p);
    }
}

static gboolean
load_system (AdbscopeRun *run,
             sqlite3     *db)
{
  sqlite3_stmt *st = prepare (db, "SELECT processes, doze_deep, doze_light, standby_bucket, jobs, jobs_running,"
                              " alarms_pending, alarm_wakeups FROM system WHERE t_us BETWEEN ?1 AND ?2"
                              " ORDER BY rowid DESC LIMIT 1", G_MININT64, run->to_us);
  if (st == NULL)
    return FALSE;
  if (sqlite3_step (st) == SQLITE_ROW)
    {
      g_autofree char *procs = column_text (st, 0);
      gint64 *counts[] = { &run->system->jobs, &run->system->jobs_running,
                           &run->system->alarms_pending, &run->system->alarm_wakeups };

      load_processes (run, procs);
      run->system->doze_deep = column_text (st, 1);
      run->system->doze_light = column_text (st, 2);
      run->system->standby_bucket = column_text (st, 3);
      for (guint k = 0; k < G_N_ELEMENTS (counts); k++)
        *counts[k] = sqlite3_column_type (st, 4 + k) == SQLITE_NULL ? -1 : sqlite3_column_int64 (st, 4 + k);
    }
  sqlite3_finalize (st);
  return TRUE;
}

typedef enum
{
  LOAD_ALL,
  LOAD_SUMMARY,   /* no samples, frame times or threads */
  LOAD_DETAILS,   /* the frame times (and totals) and the threads only */
} LoadPart;

static AdbscopeRun *
load (const char  *path,
      gint64       from_us,
      gint64       to_us,
      LoadPart     part,
      GError     **error)
{
  g_autoptr(AdbscopeRun) run = NULL;
  g_autoptr(GHashTable) meta = NULL;
  sqlite3 *db;
  gboolean ok;

  db = open_db (path, error);
  if (db == NULL)
    return NULL;
  meta = read_meta (db, path, error);
  if (meta == NULL)
    {
      sqlite3_close (db);
      return NULL;
    }

  run = run_new ();
  run->recording = g_strdup (path);
  run->serial = g_strdup (g_hash_table_lookup (meta, "serial"));
  run->package = g_strdup (g_hash_table_lookup (meta, "package"));
  run->start = g_strdup (g_hash_table_lookup (meta, "start"));
  run->interval_ms = (guint) meta_int (meta, "interval_ms");
  run->end_us = meta_int (meta, "end_us");
  if (!parse_object (meta, "device", path, &run->device, error) ||
      !parse_object (meta, "sources", path, &run->sources, error) ||
      !parse_object (meta, "network_agent", path, &run->network_agent, error) ||
      !parse_object (meta, "device_loss", path, &run->device_loss, error) ||
      !parse_object (meta, "session_extras", path, &run->session_extras, error))
    {
      sqlite3_close (db);
      return NULL;
    }
  run->refresh_hz = refresh_from_device (run->device);
  run->version = (int) g_ascii_strtoll ((const char *) g_hash_table_lookup (meta, "schema") + strlen ("adbscope-recording/"),
                                        NULL, 10);
  run->windowed = from_us > G_MININT64 || to_us < G_MAXINT64;
  run->to_end = to_us >= run->end_us;
  run->from_us = MAX (from_us, 0);
  run->to_us = MIN (to_us, run->end_us);
  if (run->to_us < run->from_us)
    run->to_us = run->from_us;
  fsum_from_extras (run);

  run->partial = part != LOAD_ALL;
  switch (part)
    {
    case LOAD_SUMMARY:
      {
        g_autoptr(GHashTable) by_id = g_hash_table_new (NULL, NULL);

        ok = map_series (run, db, by_id) && load_ticks (run, db) && load_events (run, db) &&
             load_frames (run, db, FALSE) && load_system (run, db) && load_screenshots (run, db, meta);
      }
      break;
    case LOAD_DETAILS:
      ok = load_frames (run, db, TRUE) && load_threads (run, db);
      break;
    case LOAD_ALL:
    default:
      ok = load_series (run, db) && load_ticks (run, db) && load_events (run, db) &&
           load_frames (run, db, TRUE) && load_threads (run, db) && load_system (run, db) &&
           load_screenshots (run, db, meta);
      break;
    }
  if (!ok)
    {
      db_error (db, path, error);
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_close (db);
  return g_steal_pointer (&run);
}

/**
 * adbscope_run_load:
 * @from_us: start of the window (µs since the run's start)
 * @to_us: end of the window
 *
 * Reads a recording, finished or not (one a crash left behind opens too):
 * every sample of the window, for the report.
 */
AdbscopeRun *
adbscope_run_load (const char  *path,
                   gint64       from_us,
                   gint64       to_us,
                   GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return load (path, from_us, to_us, LOAD_ALL, error);
}

/**
 * adbscope_run_load_summary:
 *
 * What showing the whole recording needs at once, read without reading
 * its samples: the meta, the series it has (@cores holds an empty array
 * for each core), ticks, restarts, markers, gaps, the frame totals, the
 * system state and the screenshots.  The series, the frame times and the
 * threads stay empty (adbscope_run_load_details ()); the run is
 * partial, not for the report.
 */
AdbscopeRun *
adbscope_run_load_summary (const char  *path,
                           GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return load (path, G_MININT64, G_MAXINT64, LOAD_SUMMARY, error);
}

/**
 * adbscope_run_load_details:
 *
 * The rest of the whole recording a view shows, the slow part (any
 * thread): every frame time (sorted) with the frame totals, and the
 * threads alive at the end with their shares.  Nothing else is filled in.
 */
AdbscopeRun *
adbscope_run_load_details (const char  *path,
                           GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return load (path, G_MININT64, G_MAXINT64, LOAD_DETAILS, error);
}

/* For tests: sample rows adbscope_run_load () has read in this process. */
guint64
adbscope_run_get_n_samples_read (void)
{
  return (guint64) g_atomic_pointer_get (&samples_read);
}

gboolean
adbscope_run_find_marker (const char  *path,
                          const char  *label,
                          gint64      *from_us,
                          gint64      *to_us,
                          GError     **error)
{
  g_autoptr(GHashTable) meta = NULL;
  sqlite3_stmt *st;
  sqlite3 *db;
  gboolean found = FALSE;

  db = open_db (path, error);
  if (db == NULL)
    return FALSE;
  meta = read_meta (db, path, error);
  if (meta == NULL)
    {
      sqlite3_close (db);
      return FALSE;
    }
  st = prepare (db, "SELECT m.t_us, coalesce ((SELECT min (n.t_us) FROM marker n WHERE n.rowid > m.rowid),"
                " ?1) FROM marker m WHERE m.label = ?2 ORDER BY m.rowid LIMIT 1", 0, 0);
  if (st == NULL)
    {
      db_error (db, path, error);
      sqlite3_close (db);
      return FALSE;
    }
  sqlite3_bind_int64 (st, 1, meta_int (meta, "end_us"));
  sqlite3_bind_text (st, 2, label, -1, SQLITE_STATIC);
  if (sqlite3_step (st) == SQLITE_ROW)
    {
      *from_us = sqlite3_column_int64 (st, 0);
      *to_us = sqlite3_column_int64 (st, 1);
      found = TRUE;
    }
  else
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                 _("The recording has no marker “%s”"), label);
  sqlite3_finalize (st);
  sqlite3_close (db);
  return found;
}

/* Rows arrive in time order but for a device answer stamped at the middle
 * of a slow round trip (at most the shell's 15 s timeout): bisecting with
 * this much slack finds every row of a range. */
#define ROWID_SLACK_US ADBSCOPE_RECORDING_ROWID_SLACK_US

/* The first rowid of the sample table at or after @t_us, as if rows were
 * in time order (see ROWID_SLACK_US). */
static gint64
rowid_at (sqlite3 *db,
          gint64   t_us)
{
  sqlite3_stmt *st;
  gint64 lo = 1, hi = 0;

  st = prepare (db, "SELECT max (rowid) FROM sample", 0, 0);
  if (sqlite3_step (st) == SQLITE_ROW)
    hi = sqlite3_column_int64 (st, 0) + 1;
  sqlite3_finalize (st);
  st = prepare (db, "SELECT t_us FROM sample WHERE rowid >= ?1 ORDER BY rowid LIMIT 1", 0, 0);
  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2;
      gint64 t = G_MAXINT64;

      sqlite3_bind_int64 (st, 1, mid);
      if (sqlite3_step (st) == SQLITE_ROW)
        t = sqlite3_column_int64 (st, 0);
      sqlite3_reset (st);
      if (t < t_us)
        lo = mid + 1;
      else
        hi = mid;
    }
  sqlite3_finalize (st);
  return lo;
}

static void
bucket_add (GArray *out,
            gint64  start,
            gint64  width,
            double  v)
{
  AdbscopeRunBucket *last = out->len ? &g_array_index (out, AdbscopeRunBucket, out->len - 1) : NULL;

  if (last == NULL || last->t_us != start)
    {
      AdbscopeRunBucket b = { start, width, 0, v, v, 0 };

      g_array_append_val (out, b);
      last = &g_array_index (out, AdbscopeRunBucket, out->len - 1);
    }
  /* avg holds the sum until the end */
  last->n++;
  last->avg += v;
  last->min = MIN (last->min, v);
  last->max = MAX (last->max, v);
}

/**
 * adbscope_run_read_buckets:
 * @max_buckets: about how many columns the caller draws
 *
 * Min, max and average of one series in buckets over [@from_us, @to_us]:
 * from the finest level of detail the writer kept (1 s, 10 s, 100 s,
 * 1000 s; docs/recording.md) with no more than @max_buckets buckets over
 * the range (or the coarsest), or from the samples while there are no
 * more of them.  The extremes of every sample are in its bucket, so a spike
 * is never lost at any zoom.  The tail the level of detail does not cover
 * yet (a recording still being written, or left by a crash) comes from the
 * samples.
 *
 * Returns: (transfer full): AdbscopeRunBucket in time order
 */
GArray *
adbscope_run_read_buckets (const char  *path,
                           const char  *series_path,
                           gint64       from_us,
                           gint64       to_us,
                           guint        max_buckets,
                           GError     **error)
{
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (AdbscopeRunBucket));
  sqlite3 *db;
  sqlite3_stmt *st;
  gint64 interval_us, span = MAX (to_us - from_us, 1), width = 0, covered = from_us;
  AdbscopeRecordingLadder ladder;
  int level = -1, id = -1;

  g_return_val_if_fail (max_buckets > 0, NULL);

  db = open_db (path, error);
  if (db == NULL)
    return NULL;
  meta = read_meta (db, path, error);
  if (meta == NULL)
    {
      sqlite3_close (db);
      return NULL;
    }
  interval_us = MAX (meta_int (meta, "interval_ms"), 1) * 1000;
  _adbscope_recording_ladder_init (&ladder, meta);
  level = _adbscope_recording_ladder_pick (&ladder, interval_us, span, max_buckets);
  width = _adbscope_recording_ladder_width_us (&ladder, level);

  st = prepare (db, "SELECT id FROM series WHERE path = ?1", 0, 0);
  sqlite3_bind_text (st, 1, series_path, -1, SQLITE_STATIC);
  if (sqlite3_step (st) == SQLITE_ROW)
    id = sqlite3_column_int (st, 0);
  sqlite3_finalize (st);

  if (level >= 0)
    {
      st = prepare (db, "SELECT t_us, n, min, max, sum FROM lod WHERE series = ?3 AND level = ?4"
                    " AND t_us BETWEEN ?1 - ?5 + 1 AND ?2 ORDER BY t_us", from_us, to_us);
      sqlite3_bind_int (st, 3, id);
      sqlite3_bind_int (st, 4, level);
      sqlite3_bind_int64 (st, 5, width);
      while (sqlite3_step (st) == SQLITE_ROW)
        {
          AdbscopeRunBucket b = { sqlite3_column_int64 (st, 0), width, sqlite3_column_int (st, 1),
                                  sqlite3_column_double (st, 2), sqlite3_column_double (st, 3),
                                  sqlite3_column_double (st, 4) };

          g_array_append_val (out, b);
          covered = b.t_us + width;
        }
      sqlite3_finalize (st);
    }
  else
    width = MAX (span / max_buckets, interval_us);

  /* the samples: all of them, or the tail after the level of detail */
  st = prepare (db, "SELECT t_us, value FROM sample WHERE rowid BETWEEN ?4 AND ?5 AND series = ?3"
                " AND t_us BETWEEN ?1 AND ?2 AND value IS NOT NULL ORDER BY t_us", covered, to_us);
  sqlite3_bind_int (st, 3, id);
  sqlite3_bind_int64 (st, 4, rowid_at (db, covered - ROWID_SLACK_US));
  sqlite3_bind_int64 (st, 5, rowid_at (db, to_us + ROWID_SLACK_US));
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      gint64 t = sqlite3_column_int64 (st, 0);
      gint64 start = level >= 0 ? t / width * width : from_us + (t - from_us) / width * width;

      bucket_add (out, start, width, sqlite3_column_double (st, 1));
    }
  sqlite3_finalize (st);
  sqlite3_close (db);

  for (guint i = 0; i < out->len; i++)
    {
      AdbscopeRunBucket *b = &g_array_index (out, AdbscopeRunBucket, i);
      b->avg = b->n ? b->avg / b->n : NAN;
    }
  return g_steal_pointer (&out);
}

static const char *
member_string (JsonObject *o,
               const char *key)
{
  return adbscope_report_node_string (o ? json_object_get_member (o, key) : NULL);
}

static double
member_number (JsonObject *o,
               const char *key)
{
  return adbscope_json_member_number (o, key);
}

static void
cluster_free (AdbscopeCluster *c)
{
  g_array_unref (c->cpus);
  g_free (c);
}

/**
 * adbscope_run_dup_probe:
 *
 * The device and its sources as probed when the run started, from the
 * report objects the recording kept.
 */
AdbscopeProbeResult *
adbscope_run_dup_probe (const AdbscopeRun *run)
{
  AdbscopeProbeResult *p = g_new0 (AdbscopeProbeResult, 1);
  JsonObject *d = run->device;
  JsonNode *cn = d ? json_object_get_member (d, "clusters") : NULL;
  JsonArray *clusters = cn && JSON_NODE_HOLDS_ARRAY (cn) ? json_node_get_array (cn) : NULL;
  double v;

  p->sdk_int = isfinite (v = member_number (d, "sdk")) ? (int) v : -1;
  p->sdk = p->sdk_int >= 0 ? g_strdup_printf ("%d", p->sdk_int) : NULL;
  p->release = g_strdup (member_string (d, "release"));
  p->model = g_strdup (member_string (d, "model"));
  p->manufacturer = g_strdup (member_string (d, "manufacturer"));
  p->abi = g_strdup (member_string (d, "abi"));
  p->device = g_strdup (member_string (d, "device"));
  /* the meta is untrusted: no allocation of a hostile size */
  p->n_cores = isfinite (v = member_number (d, "cores")) && v >= 0 && v <= 4096 ? (guint) v : 0;
  p->max_freq_khz = g_new (double, MAX (p->n_cores, 1));
  for (guint i = 0; i < p->n_cores; i++)
    p->max_freq_khz[i] = NAN;
  p->page_size = adbscope_json_member_int (d, "page_size", -1);
  p->refresh_hz = member_number (d, "refresh_hz");
  p->clusters = g_ptr_array_new_with_free_func ((GDestroyNotify) cluster_free);
  for (guint i = 0; clusters != NULL && i < json_array_get_length (clusters); i++)
    {
      JsonNode *con = json_array_get_element (clusters, i);
      JsonObject *co = JSON_NODE_HOLDS_OBJECT (con) ? json_node_get_object (con) : NULL;
      JsonNode *cpn = co ? json_object_get_member (co, "cpus") : NULL;
      JsonArray *cpus = cpn && JSON_NODE_HOLDS_ARRAY (cpn) ? json_node_get_array (cpn) : NULL;
      AdbscopeCluster *c = g_new0 (AdbscopeCluster, 1);

      c->id = i;
      c->cpus = g_array_new (FALSE, FALSE, sizeof (int));
      c->max_freq_khz = member_number (co, "max_freq_khz");
      for (guint k = 0; cpus != NULL && k < json_array_get_length (cpus); k++)
        {
          double cv;
          int cpu = adbscope_json_node_number (json_array_get_element (cpus, k), &cv) && cv >= 0 && cv < 4096
            ? (int) cv : -1;

          g_array_append_val (c->cpus, cpu);
          if (cpu >= 0 && (guint) cpu < p->n_cores)
            p->max_freq_khz[cpu] = c->max_freq_khz;
        }
      g_ptr_array_add (p->clusters, c);
    }
  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    {
      JsonObject *so = object_member (run->sources, adbscope_source_to_key (i));
      JsonNode *sup = so ? json_object_get_member (so, "supported") : NULL;

      p->supported[i] = sup && JSON_NODE_HOLDS_VALUE (sup) && json_node_get_value_type (sup) == G_TYPE_BOOLEAN
        && json_node_get_boolean (sup);
      p->reason[i] = g_strdup (member_string (so, "reason"));
    }
  return p;
}

/* For AdbscopeRecordingReader, which reads the same file the same way. */
sqlite3 *
_adbscope_recording_open_db (const char  *path,
                             GError     **error)
{
  return open_db (path, error);
}

GHashTable *
_adbscope_recording_read_meta (sqlite3     *db,
                               const char  *path,
                               GError     **error)
{
  return read_meta (db, path, error);
}

gint64
_adbscope_recording_rowid_at (sqlite3 *db,
                              gint64   t_us)
{
  return rowid_at (db, t_us);
}
