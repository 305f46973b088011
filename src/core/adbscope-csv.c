/* adbscope-csv.c: samples as CSV
 *
 * Columns: time_s (since the start of the session), every series of
 * ADBSCOPE_SERIES_TABLE by its report path, the age of the slower sources'
 * values (memory.meminfo_age_s, power.age_s, thermal.age_s), then
 * cpu.core<N>_pct.  A row is one fast sample.  A value stays valid for two
 * periods of its own cadence (meminfo every --meminfo-interval, battery and
 * thermal every 2 s, everything else every sample interval), so every row
 * carries the latest known value of each series; the age columns say how
 * old the slower ones are.  An empty cell is "no value" — never written as 0.
 * A recording gives the same rows for its whole run, written a stretch at
 * a time from the file.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>

#include "adbscope-csv.h"
#include "adbscope-error.h"
#include "adbscope-recording-private.h"

/* Battery on even seconds, thermal on odd ones (adbscope-slow-collector.c). */
#define SLOW_SOURCE_CADENCE_MS 2000

/* Where a row's values come from: a session's series, or a stretch of a
 * recording read into series. */
typedef struct
{
  AdbscopeSeries *series[ADBSCOPE_N_SERIES];
  GPtrArray      *cores;         /* AdbscopeSeries* */
  guint           interval_ms;
  guint           meminfo_ms;
  gint64          origin_us;     /* time_s 0 */
} Columns;

static void
columns_from_session (Columns         *c,
                      AdbscopeSession *session,
                      GPtrArray       *cores)
{
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    c->series[i] = adbscope_session_get_series (session, i);
  for (guint k = 0; k < adbscope_session_get_n_cores (session); k++)
    g_ptr_array_add (cores, adbscope_session_get_core_series (session, k));
  c->cores = cores;
  c->interval_ms = adbscope_session_get_interval (session);
  c->meminfo_ms = adbscope_session_get_meminfo_interval (session);
  c->origin_us = adbscope_session_get_start_us (session);
}

/* How often a series gets a new value. */
static guint
cadence_ms (const Columns    *c,
            AdbscopeSeriesId  id)
{
  switch (id)
    {
    case ADBSCOPE_SERIES_MEM_APP_PSS:
    case ADBSCOPE_SERIES_MEM_JAVA_HEAP:
    case ADBSCOPE_SERIES_MEM_NATIVE_HEAP:
    case ADBSCOPE_SERIES_MEM_CODE:
    case ADBSCOPE_SERIES_MEM_STACK:
    case ADBSCOPE_SERIES_MEM_GRAPHICS:
    case ADBSCOPE_SERIES_MEM_PRIVATE_OTHER:
    case ADBSCOPE_SERIES_MEM_SYSTEM:
    case ADBSCOPE_SERIES_MEM_APP_PSS_SWAP:
      return MAX (c->meminfo_ms, c->interval_ms);
    case ADBSCOPE_SERIES_BATTERY_LEVEL:
    case ADBSCOPE_SERIES_BATTERY_TEMP:
    case ADBSCOPE_SERIES_BATTERY_VOLTAGE:
    case ADBSCOPE_SERIES_BATTERY_CURRENT:
    case ADBSCOPE_SERIES_POWER:
    case ADBSCOPE_SERIES_THERMAL_STATUS:
    case ADBSCOPE_SERIES_THERMAL_MAX_TEMP:
      return MAX (SLOW_SOURCE_CADENCE_MS, c->interval_ms);
    default:
      return c->interval_ms;
    }
}

/* The slower sources whose age is a column: one series stands for each. */
static const struct {
  const char       *column;
  AdbscopeSeriesId  id;
} age_columns[] = {
  { "memory.meminfo_age_s", ADBSCOPE_SERIES_MEM_APP_PSS },
  { "power.age_s", ADBSCOPE_SERIES_BATTERY_LEVEL },
  { "thermal.age_s", ADBSCOPE_SERIES_THERMAL_STATUS },
};

static void
append_header (GString *out,
               guint    n_cores)
{
  g_string_append (out, "time_s");
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_string_append_printf (out, ",%s", adbscope_series_id_get_path (i));
  for (guint i = 0; i < G_N_ELEMENTS (age_columns); i++)
    g_string_append_printf (out, ",%s", age_columns[i].column);
  for (guint c = 0; c < n_cores; c++)
    g_string_append_printf (out, ",cpu.core%u_pct", c);
  g_string_append_c (out, '\n');
}

void
adbscope_csv_append_header (GString         *out,
                            AdbscopeSession *session)
{
  append_header (out, adbscope_session_get_n_cores (session));
}

/* The latest sample at or before @time_us that is still valid, or NULL. */
static const AdbscopeSample *
valid_sample_at (AdbscopeSeries *series,
                 gint64          time_us,
                 gint64          max_age_us)
{
  guint i = adbscope_series_lower_bound (series, time_us + 1);
  const AdbscopeSample *s;

  if (i == 0)
    return NULL;
  s = adbscope_series_get (series, i - 1);
  if (!isfinite (s->value) || time_us - s->time_us > max_age_us)
    return NULL;
  return s;
}

static void
append_value_at (GString        *out,
                 AdbscopeSeries *series,
                 gint64          time_us,
                 gint64          max_age_us)
{
  const AdbscopeSample *s = valid_sample_at (series, time_us, max_age_us);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, ',');
  if (s != NULL)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6g", s->value));
}

static void
append_row (GString       *out,
            const Columns *c,
            gint64         time_us)
{
  gint64 max_age = 2 * (gint64) c->interval_ms * 1000;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", (time_us - c->origin_us) / 1e6));
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    append_value_at (out, c->series[i], time_us, 2 * (gint64) cadence_ms (c, i) * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (age_columns); i++)
    {
      AdbscopeSeriesId id = age_columns[i].id;
      const AdbscopeSample *s = valid_sample_at (c->series[id], time_us, 2 * (gint64) cadence_ms (c, id) * 1000);

      g_string_append_c (out, ',');
      if (s != NULL)
        g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", MAX (0, time_us - s->time_us) / 1e6));
    }
  for (guint k = 0; k < c->cores->len; k++)
    append_value_at (out, g_ptr_array_index (c->cores, k), time_us, max_age);
  g_string_append_c (out, '\n');
}

void
adbscope_csv_append_row (GString         *out,
                         AdbscopeSession *session,
                         gint64           time_us)
{
  g_autoptr(GPtrArray) cores = g_ptr_array_new ();
  Columns c;

  columns_from_session (&c, session, cores);
  append_row (out, &c, time_us);
}

/* The whole history in the ring buffers, one row per fast sample. */
gboolean
adbscope_csv_write_session (AdbscopeSession  *session,
                            const char       *path,
                            GError          **error)
{
  AdbscopeSeries *clock = adbscope_session_get_series (session, ADBSCOPE_SERIES_CPU_SYSTEM);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) cores = g_ptr_array_new ();
  g_autoptr(GError) local = NULL;
  guint n = adbscope_series_get_length (clock);
  Columns c;

  columns_from_session (&c, session, cores);
  append_header (out, cores->len);
  for (guint i = 0; i < n; i++)
    append_row (out, &c, adbscope_series_get (clock, i)->time_us);
  if (!g_file_set_contents (path, out->str, out->len, &local))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write the samples: %s"), local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- from a recording, a stretch at a time ---- */

/* Rows are written for this much of the run at a time. */
#define STRETCH_US (600 * G_USEC_PER_SEC)

typedef struct
{
  gint64 t_us;
  gint64 rowid;
  double value;
} Row;

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const Row *x = a, *y = b;

  if (x->t_us != y->t_us)
    return (x->t_us > y->t_us) - (x->t_us < y->t_us);
  return (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

static gboolean
write_out (GOutputStream  *stream,
           GString        *text,
           GCancellable   *cancellable,
           GError        **error)
{
  gboolean ok = g_output_stream_write_all (stream, text->str, text->len, NULL, cancellable, error);

  g_string_truncate (text, 0);
  return ok;
}

/* The series of the file: where each id's rows go (index into @arrays:
 * the ADBSCOPE_N_SERIES series, then the cores). */
static gboolean
map_series (sqlite3    *db,
            GHashTable *by_id,
            guint      *n_cores)
{
  sqlite3_stmt *st = NULL;

  *n_cores = 0;
  if (sqlite3_prepare_v2 (db, "SELECT id, path FROM series", -1, &st, NULL) != SQLITE_OK)
    return FALSE;
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      const char *path = (const char *) sqlite3_column_text (st, 1);
      guint core, slot = G_MAXUINT;

      for (guint i = 0; i < ADBSCOPE_N_SERIES && path != NULL; i++)
        if (g_str_equal (path, adbscope_series_id_get_path (i)))
          slot = i;
      if (slot == G_MAXUINT && path != NULL && sscanf (path, "cpu.core%u_pct", &core) == 1 && core < 4096)
        {
          slot = ADBSCOPE_N_SERIES + core;
          *n_cores = MAX (*n_cores, core + 1);
        }
      if (slot != G_MAXUINT)
        g_hash_table_insert (by_id, GINT_TO_POINTER (sqlite3_column_int (st, 0)), GUINT_TO_POINTER (slot + 1));
    }
  return sqlite3_finalize (st) == SQLITE_OK;
}

/**
 * adbscope_csv_write_recording:
 * @recording: a recording
 * @interval_ms: the sample interval, @meminfo_interval_ms the meminfo
 *   one: how long a value stays valid, as for a session
 * @progress: (nullable): called (in the calling thread) with the share
 *   of the run written so far
 *
 * What adbscope_csv_write_session () writes for a session holding the
 * whole run, read from the file a stretch of the run at a time (never
 * every sample in memory): one row per cpu.system_pct sample, times
 * since the run's start.  Any thread; @path is replaced only when the
 * whole file was written.
 */
gboolean
adbscope_csv_write_recording (const char           *recording,
                              guint                 interval_ms,
                              guint                 meminfo_interval_ms,
                              const char           *path,
                              GCancellable         *cancellable,
                              AdbscopeCsvProgress   progress,
                              gpointer              user_data,
                              GError              **error)
{
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GHashTable) by_id = g_hash_table_new (NULL, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) cores = g_ptr_array_new ();
  g_autoptr(GError) local = NULL;
  sqlite3_stmt *st = NULL;
  sqlite3 *db;
  gint64 end_us, lookback_us;
  guint n_cores = 0;
  gboolean ok = FALSE;
  Columns c = { .interval_ms = MAX (interval_ms, 1), .meminfo_ms = meminfo_interval_ms, .origin_us = 0 };

  g_return_val_if_fail (recording != NULL && path != NULL, FALSE);

  db = _adbscope_recording_open_db (recording, error);
  if (db == NULL)
    return FALSE;
  meta = _adbscope_recording_read_meta (db, recording, error);
  if (meta == NULL)
    goto out_db;
  end_us = g_ascii_strtoll (g_hash_table_lookup (meta, "end_us") ? g_hash_table_lookup (meta, "end_us") : "0",
                            NULL, 10);
  /* (a crash leaves end_us up to a second behind the last rows) */
  if (sqlite3_prepare_v2 (db, "SELECT max (t_us) FROM sample WHERE rowid >= (SELECT max (rowid) FROM sample) - 10000",
                          -1, &st, NULL) == SQLITE_OK && sqlite3_step (st) == SQLITE_ROW)
    end_us = MAX (end_us, sqlite3_column_int64 (st, 0));
  g_clear_pointer (&st, sqlite3_finalize);
  if (!map_series (db, by_id, &n_cores) ||
      sqlite3_prepare_v2 (db, "SELECT series, t_us, value, rowid FROM sample WHERE rowid BETWEEN ?1 AND ?2"
                          " AND t_us >= ?3 AND t_us < ?4", -1, &st, NULL) != SQLITE_OK)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read the recording %s: %s"),
                   recording, sqlite3_errmsg (db));
      goto out_db;
    }
  for (guint i = 0; i < ADBSCOPE_N_SERIES + n_cores; i++)
    g_ptr_array_add (arrays, g_array_new (FALSE, FALSE, sizeof (Row)));
  /* a value is looked for this far back from a row */
  lookback_us = 0;
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    lookback_us = MAX (lookback_us, 2 * (gint64) cadence_ms (&c, i) * 1000);

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, &local);
  if (stream == NULL)
    goto out_write;
  append_header (text, n_cores);
  if (!write_out (G_OUTPUT_STREAM (stream), text, cancellable, &local))
    goto out_write;

  for (gint64 from = 0; from <= end_us; from += STRETCH_US)
    {
      gint64 to = from + STRETCH_US;
      g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_series_unref);
      GArray *clock;
      int rc;

      /* this stretch's rows and the ones before it a value may come from */
      for (guint i = 0; i < arrays->len; i++)
        g_array_set_size (g_ptr_array_index (arrays, i), 0);
      sqlite3_bind_int64 (st, 1, _adbscope_recording_rowid_at (db, from - lookback_us - ADBSCOPE_RECORDING_ROWID_SLACK_US));
      sqlite3_bind_int64 (st, 2, _adbscope_recording_rowid_at (db, to + ADBSCOPE_RECORDING_ROWID_SLACK_US));
      sqlite3_bind_int64 (st, 3, from - lookback_us);
      sqlite3_bind_int64 (st, 4, to);
      while ((rc = sqlite3_step (st)) == SQLITE_ROW)
        {
          guint slot = GPOINTER_TO_UINT (g_hash_table_lookup (by_id, GINT_TO_POINTER (sqlite3_column_int (st, 0))));
          Row r = { sqlite3_column_int64 (st, 1), sqlite3_column_int64 (st, 3),
                    sqlite3_column_type (st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double (st, 2) };

          if (slot > 0)
            g_array_append_val (g_ptr_array_index (arrays, slot - 1), r);
        }
      sqlite3_reset (st);
      if (rc != SQLITE_DONE)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read the recording %s: %s"),
                       recording, sqlite3_errmsg (db));
          goto out_abort;
        }
      for (guint i = 0; i < arrays->len; i++)
        {
          GArray *a = g_ptr_array_index (arrays, i);
          AdbscopeSeries *s = adbscope_series_new (MAX (a->len, 2));

          g_array_sort (a, compare_rows);
          for (guint k = 0; k < a->len; k++)
            adbscope_series_push (s, g_array_index (a, Row, k).t_us, g_array_index (a, Row, k).value);
          g_ptr_array_add (series, s);
        }
      for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
        c.series[i] = g_ptr_array_index (series, i);
      g_ptr_array_set_size (cores, 0);
      for (guint k = 0; k < n_cores; k++)
        g_ptr_array_add (cores, g_ptr_array_index (series, ADBSCOPE_N_SERIES + k));
      c.cores = cores;

      clock = g_ptr_array_index (arrays, ADBSCOPE_SERIES_CPU_SYSTEM);
      for (guint k = 0; k < clock->len; k++)
        if (g_array_index (clock, Row, k).t_us >= from)
          append_row (text, &c, g_array_index (clock, Row, k).t_us);
      if (!write_out (G_OUTPUT_STREAM (stream), text, cancellable, &local))
        goto out_write;
      if (progress != NULL)
        progress (end_us > 0 ? MIN ((double) to / end_us, 1.0) : 1.0, user_data);
    }
  if (!g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &local))
    goto out_write;
  ok = TRUE;
  goto out_db;

out_write:
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local));
  else
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot write the samples: %s"), local->message);
out_abort:
  /* closing with a cancelled cancellable leaves @path as it was */
  if (stream != NULL && !g_output_stream_is_closed (G_OUTPUT_STREAM (stream)))
    {
      g_autoptr(GCancellable) abort = g_cancellable_new ();

      g_cancellable_cancel (abort);
      g_output_stream_close (G_OUTPUT_STREAM (stream), abort, NULL);
    }
out_db:
  sqlite3_finalize (st);
  sqlite3_close (db);
  return ok;
}
