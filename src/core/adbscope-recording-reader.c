/* adbscope-recording-reader.c: time ranges of a recording, for charts
 *
 * The sample table has no index (docs/recording.md): a time range is the
 * rowid range found by bisecting, scanned once for every series at the
 * same time — all the charts of a page read the same window, so one scan
 * serves them all.  The level of detail has a primary key on (series,
 * level, t_us): a range of it is an indexed read.  Where the level of
 * detail does not reach yet (a run still being written, or one a crash
 * ended), the samples fill in, so the newest stretch is never missing.
 * With prefetch on (charts), the levels of detail small enough to hold
 * whole are read once on a worker and answered from memory: a zoom across
 * the run changes level every few steps, and reading a level over the
 * whole run for every series of a page took 3-6 ms of a frame.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-recording.h"
#include "adbscope-recording-private.h"
#include "adbscope-recording-reader.h"

/* A file still being written is complete up to its newest sample minus
 * this: batches are committed once a second, and a slow answer is stamped
 * at the middle of its round trip. */
#define COMPLETE_SLACK_US (5 * G_USEC_PER_SEC)

/* A window reads at most this many rows a pixel column: the finest of the
 * samples and the levels of detail that stays under it.  The ladder steps
 * by 10 (samples at 100 ms → 1 s → 10 s → …; at 1 s, samples → 10 s), so
 * whatever the zoom a window gets between 1/√10 and √10 rows a column:
 * never fewer than a point every 3.2 columns (the old rule, no more rows
 * than columns, left as few as one every 10), and never more than 3.2 rows
 * a column to read (each column keeps the min and max of its rows). */
#define ROWS_PER_COLUMN 3.1623

/* A level of detail is held whole in memory when it has at most this many
 * rows a series (8 h at 1 s: 2880 at 10 s; 24 h: 8640), so with its
 * coarser levels at most ~1.1 × this many rows a series (48 bytes each). */
#define LEVEL_CACHE_MAX_ROWS 8192

/* A tail of a cached level read from the file (a live run grew since the
 * level was read) longer than this reads the level again on the worker. */
#define LEVEL_CACHE_MAX_TAIL 256

struct _AdbscopeRecordingReader
{
  GObject     parent_instance;

  char       *path;
  sqlite3    *db;
  gint64      interval_us;
  gboolean    has_interval;
  AdbscopeRecordingLadder ladder;
  GHashTable *ids;          /* path → series id */
  /* the last range of samples read, for every series */
  GHashTable *raw;          /* series id → GArray of AdbscopeRunBucket */
  gint64      raw_from;
  gint64      raw_to;
  gint64      raw_complete_to;
  gint64      raw_newest;
  /* reading ahead on a worker (charts: prefetch on) */
  gboolean    prefetch;
  gint64      want_from;    /* the last range of samples asked for */
  gint64      want_to;
  int         direction;    /* where it last moved: 1 later, -1 earlier */
  AdbscopeRecordingReaderStats stats;
  /* whole levels of detail in memory (prefetch on) */
  GHashTable *levels;       /* level → GHashTable (series id → GArray of AdbscopeRunBucket) */
  gboolean    levels_stale; /* a tail grew long: read them again */
  gint64      levels_newest; /* the newest sample when they were read */
};

G_DEFINE_FINAL_TYPE (AdbscopeRecordingReader, adbscope_recording_reader, G_TYPE_OBJECT)

static void
adbscope_recording_reader_finalize (GObject *object)
{
  AdbscopeRecordingReader *self = ADBSCOPE_RECORDING_READER (object);

  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_pointer (&self->ids, g_hash_table_unref);
  g_clear_pointer (&self->raw, g_hash_table_unref);
  g_clear_pointer (&self->levels, g_hash_table_unref);
  g_free (self->path);
  G_OBJECT_CLASS (adbscope_recording_reader_parent_class)->finalize (object);
}

static void
adbscope_recording_reader_class_init (AdbscopeRecordingReaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = adbscope_recording_reader_finalize;
}

static void
adbscope_recording_reader_init (AdbscopeRecordingReader *self)
{
  self->ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->raw = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  self->levels = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  self->raw_from = 1;
  self->raw_to = 0;
}

static sqlite3_stmt *
prepare (AdbscopeRecordingReader *self,
         const char              *sql)
{
  sqlite3_stmt *st = NULL;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &st, NULL) != SQLITE_OK)
    g_warning ("%s: %s", self->path, sqlite3_errmsg (self->db));
  return st;
}

static void
load_ids (AdbscopeRecordingReader *self)
{
  sqlite3_stmt *st = prepare (self, "SELECT id, path FROM series");

  while (st != NULL && sqlite3_step (st) == SQLITE_ROW)
    g_hash_table_insert (self->ids, g_strdup ((const char *) sqlite3_column_text (st, 1)),
                         GINT_TO_POINTER (sqlite3_column_int (st, 0)));
  sqlite3_finalize (st);
}

/* -1 when the file has no such series (yet: a live run adds them). */
static int
series_id (AdbscopeRecordingReader *self,
           const char              *series_path)
{
  gpointer id;

  if (!g_hash_table_lookup_extended (self->ids, series_path, NULL, &id))
    {
      load_ids (self);
      if (!g_hash_table_lookup_extended (self->ids, series_path, NULL, &id))
        return -1;
    }
  return GPOINTER_TO_INT (id);
}

/* The interval and the level of detail.  A file opened while its writer
 * is beginning may not have them yet (the run's meta is committed with
 * its first batch): they are read again until it has. */
static void
use_meta (AdbscopeRecordingReader *self,
          GHashTable              *meta)
{
  const char *interval = g_hash_table_lookup (meta, "interval_ms");

  self->has_interval = interval != NULL;
  self->interval_us = MAX (interval ? g_ascii_strtoll (interval, NULL, 10) : 1000, 1) * 1000;
  _adbscope_recording_ladder_init (&self->ladder, meta);
}

static void
ensure_meta (AdbscopeRecordingReader *self)
{
  g_autoptr(GHashTable) meta = NULL;

  if (self->has_interval)
    return;
  meta = _adbscope_recording_read_meta (self->db, self->path, NULL);
  if (meta != NULL)
    use_meta (self, meta);
}

/**
 * adbscope_recording_reader_new:
 *
 * Opens @path read-only (the writer may still be appending to it).
 */
AdbscopeRecordingReader *
adbscope_recording_reader_new (const char  *path,
                               GError     **error)
{
  g_autoptr(AdbscopeRecordingReader) self = NULL;
  g_autoptr(GHashTable) meta = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ADBSCOPE_TYPE_RECORDING_READER, NULL);
  self->path = g_strdup (path);
  self->db = _adbscope_recording_open_db (path, error);
  if (self->db == NULL)
    return NULL;
  meta = _adbscope_recording_read_meta (self->db, path, error);
  if (meta == NULL)
    return NULL;
  use_meta (self, meta);
  load_ids (self);
  return g_steal_pointer (&self);
}

const char *
adbscope_recording_reader_get_path (AdbscopeRecordingReader *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), NULL);
  return self->path;
}

gint64
adbscope_recording_reader_get_interval_us (AdbscopeRecordingReader *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), 0);
  ensure_meta (self);
  return self->interval_us;
}

/* The file's version, from meta.schema ("adbscope-recording/N"). */
static int
meta_version (GHashTable *meta)
{
  const char *schema = g_hash_table_lookup (meta, "schema");
  const char *slash = schema ? strrchr (schema, '/') : NULL;

  return slash ? (int) g_ascii_strtoll (slash + 1, NULL, 10) : 1;
}

void
_adbscope_recording_ladder_init (AdbscopeRecordingLadder *ladder,
                                 GHashTable              *meta)
{
  const char *levels = g_hash_table_lookup (meta, "lod_levels");
  g_auto(GStrv) words = NULL;

  memset (ladder, 0, sizeof *ladder);
  if (meta_version (meta) < 2)
    {
      /* version 1: 10 s, 100 s, 1000 s */
      for (gint64 w = 10 * G_USEC_PER_SEC; ladder->n < 3; w *= 10)
        {
          ladder->level[ladder->n] = ladder->n;
          ladder->width_us[ladder->n++] = w;
        }
      return;
    }
  words = g_strsplit (levels != NULL ? levels : "1 2 3", " ", -1);
  for (guint i = 0; words[i] != NULL && ladder->n < ADBSCOPE_RECORDING_LOD_LEVELS; i++)
    {
      gint64 level = g_ascii_strtoll (words[i], NULL, 10), w = G_USEC_PER_SEC;

      if (words[i][0] == '\0' || level < 0 || level >= ADBSCOPE_RECORDING_LOD_LEVELS ||
          (ladder->n > 0 && level <= ladder->level[ladder->n - 1]))
        continue;
      for (gint64 k = 0; k < level; k++)
        w *= 10;
      ladder->level[ladder->n] = (int) level;
      ladder->width_us[ladder->n] = w;
      ladder->n++;
    }
}

gint64
_adbscope_recording_ladder_width_us (const AdbscopeRecordingLadder *ladder,
                                     int                            level)
{
  for (guint i = 0; i < ladder->n; i++)
    if (ladder->level[i] == level)
      return ladder->width_us[i];
  return 0;
}

/* The finest of the samples and the levels with no more than @max_rows
 * rows over @span_us, or the coarsest level. */
int
_adbscope_recording_ladder_pick (const AdbscopeRecordingLadder *ladder,
                                 gint64                         interval_us,
                                 gint64                         span_us,
                                 double                         max_rows)
{
  if (ladder->n == 0 || (double) span_us / MAX (interval_us, 1) <= max_rows)
    return ADBSCOPE_RECORDING_LEVEL_SAMPLES;
  for (guint i = 0; i + 1 < ladder->n; i++)
    if ((double) span_us / ladder->width_us[i] <= max_rows)
      return ladder->level[i];
  return ladder->level[ladder->n - 1];
}

/**
 * adbscope_recording_reader_get_level_width_us:
 * @level: a level of detail of this file, or
 *   %ADBSCOPE_RECORDING_LEVEL_SAMPLES
 *
 * Returns: the width of its buckets (0 for the samples, or a level the
 *   file does not have)
 */
gint64
adbscope_recording_reader_get_level_width_us (AdbscopeRecordingReader *self,
                                              int                      level)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), 0);
  ensure_meta (self);
  return _adbscope_recording_ladder_width_us (&self->ladder, level);
}

/**
 * adbscope_recording_reader_pick_level:
 * @span_us: the time window
 * @width: its columns
 *
 * The finest of the samples and the file's levels of detail with no more
 * than √10 rows a column in the window (or the coarsest level): so a
 * window of any length reads between a row every 3.2 columns and 3.2 rows
 * a column, and every row's extremes are those of the samples it stands
 * for.
 *
 * Returns: a level, or %ADBSCOPE_RECORDING_LEVEL_SAMPLES
 */
int
adbscope_recording_reader_pick_level (AdbscopeRecordingReader *self,
                                      gint64                   span_us,
                                      guint                    width)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), ADBSCOPE_RECORDING_LEVEL_SAMPLES);

  ensure_meta (self);
  return _adbscope_recording_ladder_pick (&self->ladder, self->interval_us, span_us,
                                          ROWS_PER_COLUMN * MAX (width, 1));
}

static gint64
db_newest_time (sqlite3 *db)
{
  sqlite3_stmt *st = NULL;
  gint64 t = G_MININT64;

  if (sqlite3_prepare_v2 (db, "SELECT t_us FROM sample ORDER BY rowid DESC LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step (st) == SQLITE_ROW)
    t = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  return t;
}

static gint64
newest_time (AdbscopeRecordingReader *self)
{
  return db_newest_time (self->db);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  gint64 ta = ((const AdbscopeRunBucket *) a)->t_us, tb = ((const AdbscopeRunBucket *) b)->t_us;

  return (ta > tb) - (ta < tb);
}

/* One scan of [from, to] for every series: series id → GArray of
 * AdbscopeRunBucket in time order.  Runs on the main thread (a read the
 * cache missed) and on a worker with its own connection (a prefetch). */
static GHashTable *
scan_range (sqlite3 *db,
            gint64   from_us,
            gint64   to_us)
{
  GHashTable *raw = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  sqlite3_stmt *st = NULL;
  GHashTableIter iter;
  gpointer value;

  if (sqlite3_prepare_v2 (db, "SELECT series, t_us, value FROM sample WHERE rowid BETWEEN ?3 AND ?4"
                          " AND t_us BETWEEN ?1 AND ?2", -1, &st, NULL) != SQLITE_OK)
    {
      g_warning ("%s: %s", sqlite3_db_filename (db, "main"), sqlite3_errmsg (db));
      return raw;
    }
  sqlite3_bind_int64 (st, 1, from_us);
  sqlite3_bind_int64 (st, 2, to_us);
  sqlite3_bind_int64 (st, 3, _adbscope_recording_rowid_at (db, from_us - ADBSCOPE_RECORDING_ROWID_SLACK_US));
  sqlite3_bind_int64 (st, 4, _adbscope_recording_rowid_at (db, to_us + ADBSCOPE_RECORDING_ROWID_SLACK_US));
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      gpointer id = GINT_TO_POINTER (sqlite3_column_int (st, 0));
      GArray *rows = g_hash_table_lookup (raw, id);
      gboolean null = sqlite3_column_type (st, 2) == SQLITE_NULL;
      double v = null ? NAN : sqlite3_column_double (st, 2);
      AdbscopeRunBucket row = { sqlite3_column_int64 (st, 1), 0, null ? 0 : 1, v, v, v };

      if (rows == NULL)
        {
          rows = g_array_new (FALSE, FALSE, sizeof (AdbscopeRunBucket));
          g_hash_table_insert (raw, id, rows);
        }
      g_array_append_val (rows, row);
    }
  sqlite3_finalize (st);

  /* rowid order is time order only to within a few seconds */
  g_hash_table_iter_init (&iter, raw);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_sort (value, compare_time);
  return raw;
}

static void
scan_samples (AdbscopeRecordingReader *self,
              gint64                   from_us,
              gint64                   to_us)
{
  g_hash_table_unref (self->raw);
  self->raw_newest = newest_time (self);
  self->raw_complete_to = self->raw_newest - COMPLETE_SLACK_US;
  self->raw = scan_range (self->db, from_us, to_us);
  self->raw_from = from_us;
  self->raw_to = to_us;
  self->stats.n_scans++;
}

static guint
lower_bound (GArray *rows,
             gint64  t_us)
{
  guint lo = 0, hi = rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (rows, AdbscopeRunBucket, mid).t_us < t_us)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Reading ahead.  A window scrolled along a long run leaves the scanned
 * range every few frames, and a scan of every series over a chunk takes
 * 10-15 ms on the main thread: a dropped frame every few frames.  With
 * prefetch on, a read that comes within half its own length of the edge
 * of the scanned range starts a scan of the next stretch (to two lengths
 * past the read; the way the window moves first, then the other) on a
 * worker with its own connection; when it lands the stretch is joined to the rows in
 * memory, and rows more than two lengths behind are dropped, so memory
 * stays at about five reads' worth.  A read that still misses (a jump, or
 * a scroll faster than the worker) scans at once as before. */
typedef struct
{
  char       *path;
  gint64      from_us;
  gint64      to_us;
  gboolean    later;       /* joins after raw_to (else before raw_from) */
  GHashTable *raw;
  gint64      newest;
} Prefetch;

static void
prefetch_free (Prefetch *p)
{
  g_free (p->path);
  g_clear_pointer (&p->raw, g_hash_table_unref);
  g_free (p);
}

static void
prefetch_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Prefetch *p = task_data;
  GError *error = NULL;
  sqlite3 *db = _adbscope_recording_open_db (p->path, &error);

  if (db == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  p->newest = db_newest_time (db);
  p->raw = scan_range (db, p->from_us, p->to_us);
  sqlite3_close (db);
  g_task_return_boolean (task, TRUE);
}

static void maybe_prefetch (AdbscopeRecordingReader *self);

/* Drops the rows outside [from, to] (they are no longer wanted). */
static void
trim_raw (AdbscopeRecordingReader *self,
          gint64                   from_us,
          gint64                   to_us)
{
  GHashTableIter iter;
  gpointer value;

  if (from_us <= self->raw_from && to_us >= self->raw_to)
    return;
  g_hash_table_iter_init (&iter, self->raw);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *rows = value;
      guint end = lower_bound (rows, to_us + 1);

      if (end < rows->len)
        g_array_remove_range (rows, end, rows->len - end);
      g_array_remove_range (rows, 0, lower_bound (rows, from_us));
    }
  self->raw_from = MAX (self->raw_from, from_us);
  self->raw_to = MIN (self->raw_to, to_us);
}

static void
prefetch_done (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  AdbscopeRecordingReader *self = ADBSCOPE_RECORDING_READER (source_object);
  Prefetch *p = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;
  gint64 len;

  self->stats.prefetching = FALSE;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_debug ("%s: reading ahead: %s", self->path, error->message);
      return;
    }
  /* a scan on a miss replaced the rows meanwhile: this stretch no longer joins them */
  if (p->later ? p->from_us != self->raw_to + 1 : p->to_us != self->raw_from - 1)
    return;
  g_hash_table_iter_init (&iter, p->raw);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *more = value, *rows = g_hash_table_lookup (self->raw, key);

      if (rows == NULL)
        {
          g_hash_table_iter_steal (&iter);
          g_hash_table_insert (self->raw, key, more);
        }
      else if (p->later)
        g_array_append_vals (rows, more->data, more->len);
      else
        g_array_prepend_vals (rows, more->data, more->len);
    }
  if (p->later)
    self->raw_to = p->to_us;
  else
    self->raw_from = p->from_us;
  self->raw_newest = MAX (self->raw_newest, p->newest);
  self->raw_complete_to = self->raw_newest - COMPLETE_SLACK_US;
  self->stats.n_prefetches++;
  len = MAX (self->want_to - self->want_from, 1);
  trim_raw (self, self->want_from - 2 * len, self->want_to + 2 * len);
  maybe_prefetch (self);
}

static void
maybe_prefetch (AdbscopeRecordingReader *self)
{
  g_autoptr(GTask) task = NULL;
  gint64 len = MAX (self->want_to - self->want_from, 1);
  gboolean later, earlier;
  Prefetch *p;

  if (!self->prefetch || self->stats.prefetching || self->raw_from > self->raw_to)
    return;
  /* Room both ways, the way the window moves first.  A stretch is read
   * ahead only after a part of the file everything is in (a file still
   * being written: a read past its newest rows scans again as it grows). */
  later = self->raw_to - self->want_to < len / 2 && self->raw_to <= self->raw_complete_to;
  earlier = self->want_from - self->raw_from < len / 2 && self->raw_from > 0;
  if (!later && !earlier)
    return;
  p = g_new0 (Prefetch, 1);
  p->later = later && (self->direction >= 0 || !earlier);
  if (p->later)
    {
      p->from_us = self->raw_to + 1;
      p->to_us = self->want_to + 2 * len;
    }
  else
    {
      p->from_us = MAX (self->want_from - 2 * len, 0);
      p->to_us = self->raw_from - 1;
    }
  if (p->from_us >= p->to_us)
    {
      prefetch_free (p);
      return;
    }
  p->path = g_strdup (self->path);
  self->stats.prefetching = TRUE;
  task = g_task_new (self, NULL, prefetch_done, NULL);
  g_task_set_source_tag (task, maybe_prefetch);
  g_task_set_task_data (task, p, (GDestroyNotify) prefetch_free);
  g_task_run_in_thread (task, prefetch_thread);
}

/* A row of "SELECT t_us, n, min, max, sum FROM lod" as a bucket. */
static AdbscopeRunBucket
lod_row (sqlite3_stmt *st,
         gint64        width_us)
{
  guint n = sqlite3_column_int (st, 1);
  AdbscopeRunBucket b = { sqlite3_column_int64 (st, 0), width_us, n,
                          n ? sqlite3_column_double (st, 2) : NAN,
                          n ? sqlite3_column_double (st, 3) : NAN,
                          n ? sqlite3_column_double (st, 4) / n : NAN };

  return b;
}

/* Whole levels of detail, read on a worker with its own connection. */
typedef struct
{
  char                   *path;
  AdbscopeRecordingLadder ladder;
  GArray                 *ids;     /* int: every series */
  GHashTable             *levels;  /* as self->levels */
  gint64                  newest;
} LevelLoad;

static void
level_load_free (LevelLoad *l)
{
  g_free (l->path);
  g_clear_pointer (&l->ids, g_array_unref);
  g_clear_pointer (&l->levels, g_hash_table_unref);
  g_free (l);
}

static void
level_load_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  LevelLoad *l = task_data;
  GError *error = NULL;
  sqlite3 *db = _adbscope_recording_open_db (l->path, &error);
  sqlite3_stmt *st = NULL;
  gint64 newest;

  if (db == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* one read transaction: the levels are those of the file when its
   * newest sample was l->newest, nothing older */
  sqlite3_exec (db, "BEGIN", NULL, NULL, NULL);
  l->newest = db_newest_time (db);
  newest = MAX (l->newest, 0);
  if (sqlite3_prepare_v2 (db, "SELECT t_us, n, min, max, sum FROM lod WHERE series = ?1 AND level = ?2"
                          " ORDER BY t_us", -1, &st, NULL) != SQLITE_OK)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", sqlite3_errmsg (db));
      sqlite3_close (db);
      return;
    }
  for (guint k = 0; k < l->ladder.n; k++)
    {
      gint64 width = l->ladder.width_us[k];
      GHashTable *level;

      /* a level too long to hold whole (and every finer one) is read by window */
      if (newest / width > LEVEL_CACHE_MAX_ROWS)
        continue;
      level = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
      for (guint i = 0; i < l->ids->len; i++)
        {
          int id = g_array_index (l->ids, int, i);
          GArray *rows = g_array_new (FALSE, FALSE, sizeof (AdbscopeRunBucket));

          sqlite3_reset (st);
          sqlite3_bind_int (st, 1, id);
          sqlite3_bind_int (st, 2, l->ladder.level[k]);
          while (sqlite3_step (st) == SQLITE_ROW)
            {
              AdbscopeRunBucket b = lod_row (st, width);

              g_array_append_val (rows, b);
            }
          g_hash_table_insert (level, GINT_TO_POINTER (id), rows);
        }
      g_hash_table_insert (l->levels, GINT_TO_POINTER (l->ladder.level[k]), level);
    }
  sqlite3_finalize (st);
  sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
  sqlite3_close (db);
  g_task_return_boolean (task, TRUE);
}

static void maybe_load_levels (AdbscopeRecordingReader *self);

static void
level_load_done (GObject      *source_object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  AdbscopeRecordingReader *self = ADBSCOPE_RECORDING_READER (source_object);
  LevelLoad *l = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  self->stats.loading_levels = FALSE;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_debug ("%s: reading the levels of detail: %s", self->path, error->message);
      return;
    }
  /* what the worker read replaces what was held (a live run grew) */
  g_hash_table_unref (self->levels);
  self->levels = g_steal_pointer (&l->levels);
  self->levels_newest = l->newest;
  self->stats.n_level_loads++;
  maybe_load_levels (self);
}

/* Reads the small levels whole on a worker: once, and again when a live
 * run's tail past them grew long.  Series a live run adds later are read
 * by window until then. */
static void
maybe_load_levels (AdbscopeRecordingReader *self)
{
  g_autoptr(GTask) task = NULL;
  GHashTableIter iter;
  gpointer id;
  LevelLoad *l;

  if (!self->prefetch || self->stats.loading_levels || (self->stats.n_level_loads > 0 && !self->levels_stale))
    return;
  ensure_meta (self);
  if (self->ladder.n == 0)
    return;
  self->levels_stale = FALSE;
  l = g_new0 (LevelLoad, 1);
  l->path = g_strdup (self->path);
  l->ladder = self->ladder;
  l->ids = g_array_new (FALSE, FALSE, sizeof (int));
  load_ids (self);
  g_hash_table_iter_init (&iter, self->ids);
  while (g_hash_table_iter_next (&iter, NULL, &id))
    {
      int i = GPOINTER_TO_INT (id);

      g_array_append_val (l->ids, i);
    }
  l->levels = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  self->stats.loading_levels = TRUE;
  task = g_task_new (self, NULL, level_load_done, NULL);
  g_task_set_source_tag (task, maybe_load_levels);
  g_task_set_task_data (task, l, (GDestroyNotify) level_load_free);
  g_task_run_in_thread (task, level_load_thread);
}

/**
 * adbscope_recording_reader_set_prefetch:
 *
 * Reads of samples near the edge of what is in memory read ahead on a
 * worker thread (off by default: the results arrive in the thread-default
 * main context of the read, which must then run).
 */
void
adbscope_recording_reader_set_prefetch (AdbscopeRecordingReader *self,
                                        gboolean                 prefetch)
{
  g_return_if_fail (ADBSCOPE_IS_RECORDING_READER (self));
  self->prefetch = !!prefetch;
  maybe_load_levels (self);
}

static void
append_samples (AdbscopeRecordingReader *self,
                int                      id,
                gint64                   from_us,
                gint64                   to_us,
                GArray                  *out)
{
  GArray *rows;
  guint i;

  if (from_us > to_us)
    return;
  /* read again when the range moved, or when it ran into the newest
   * rows and the file has grown since */
  if (from_us < self->raw_from || to_us > self->raw_to ||
      (to_us > self->raw_complete_to && newest_time (self) != self->raw_newest))
    scan_samples (self, from_us, to_us);
  if (from_us != self->want_from || to_us != self->want_to)
    {
      if (from_us != self->want_from)
        self->direction = from_us > self->want_from ? 1 : -1;
      self->want_from = from_us;
      self->want_to = to_us;
      maybe_prefetch (self);
    }
  rows = g_hash_table_lookup (self->raw, GINT_TO_POINTER (id));
  if (rows == NULL)
    return;
  for (i = lower_bound (rows, from_us);
       i < rows->len && g_array_index (rows, AdbscopeRunBucket, i).t_us <= to_us; i++)
    g_array_append_val (out, g_array_index (rows, AdbscopeRunBucket, i));
}

/**
 * adbscope_recording_reader_read:
 * @level: a level of detail, or %ADBSCOPE_RECORDING_LEVEL_SAMPLES
 * @complete_to_us: (out) (optional): the file held everything up to this
 *   time when read (G_MAXINT64 is not promised: a live run keeps growing)
 *
 * The rows of one series over [@from_us, @to_us], in time order, as
 * AdbscopeRunBucket: a sample is a row of width 0 (n 0 and NaN for a
 * missing value); a level-of-detail bucket has its width, count, extremes
 * and mean.  After the last bucket the level of detail holds, the samples
 * follow.
 *
 * Returns: (transfer full): the rows
 */
GArray *
adbscope_recording_reader_read (AdbscopeRecordingReader *self,
                                const char              *series_path,
                                int                      level,
                                gint64                   from_us,
                                gint64                   to_us,
                                gint64                  *complete_to_us)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (AdbscopeRunBucket));
  gint64 covered = from_us;
  int id;

  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), out);
  g_return_val_if_fail (series_path != NULL, out);

  id = series_id (self, series_path);
  if (complete_to_us != NULL)
    *complete_to_us = G_MININT64;
  if (id < 0 || from_us > to_us)
    return out;

  ensure_meta (self);
  if (level >= 0)
    {
      gint64 width = _adbscope_recording_ladder_width_us (&self->ladder, level);
      GHashTable *held = g_hash_table_lookup (self->levels, GINT_TO_POINTER (level));
      GArray *rows = held ? g_hash_table_lookup (held, GINT_TO_POINTER (id)) : NULL;
      gint64 lod_from = from_us - width + 1;
      sqlite3_stmt *st = NULL;
      guint tail = 0;

      if (rows != NULL)
        {
          /* the level in memory, then whatever the file added after it */
          for (guint i = lower_bound (rows, lod_from);
               i < rows->len && g_array_index (rows, AdbscopeRunBucket, i).t_us <= to_us; i++)
            {
              g_array_append_val (out, g_array_index (rows, AdbscopeRunBucket, i));
              covered = g_array_index (rows, AdbscopeRunBucket, i).t_us + width;
            }
          if (rows->len > 0)
            lod_from = MAX (lod_from, g_array_index (rows, AdbscopeRunBucket, rows->len - 1).t_us + 1);
        }
      /* (a file that has not grown since has nothing after it) */
      if (lod_from <= to_us && (rows == NULL || (covered <= to_us && newest_time (self) != self->levels_newest)))
        st = prepare (self, "SELECT t_us, n, min, max, sum FROM lod WHERE series = ?3"
                      " AND level = ?4 AND t_us BETWEEN ?1 AND ?2 ORDER BY t_us");
      if (st != NULL)
        {
          self->stats.n_lod_queries++;
          sqlite3_bind_int64 (st, 1, lod_from);
          sqlite3_bind_int64 (st, 2, to_us);
          sqlite3_bind_int (st, 3, id);
          sqlite3_bind_int (st, 4, level);
          while (sqlite3_step (st) == SQLITE_ROW)
            {
              AdbscopeRunBucket b = lod_row (st, width);

              g_array_append_val (out, b);
              covered = b.t_us + width;
              tail++;
            }
          sqlite3_finalize (st);
        }
      if (rows != NULL && tail > LEVEL_CACHE_MAX_TAIL)
        {
          self->levels_stale = TRUE;
          maybe_load_levels (self);
        }
    }

  /* the samples: all of them, or what the level of detail has not closed yet */
  if (level < 0 || covered <= to_us)
    append_samples (self, id, covered, to_us, out);
  if (complete_to_us != NULL)
    *complete_to_us = newest_time (self) - COMPLETE_SLACK_US;
  return out;
}

static gboolean
sample_from_row (sqlite3_stmt   *st,
                 AdbscopeSample *sample)
{
  if (sqlite3_step (st) != SQLITE_ROW)
    return FALSE;
  sample->time_us = sqlite3_column_int64 (st, 0);
  sample->value = sqlite3_column_type (st, 1) == SQLITE_NULL ? NAN : sqlite3_column_double (st, 1);
  return TRUE;
}

/**
 * adbscope_recording_reader_get_last:
 * @finite: the newest sample with a value, rather than the newest
 *
 * Never a scan of the whole file, even for a series with no value at all:
 * the newest rows are searched back to the end of the level of detail,
 * and before that the level of detail says where the last value is.
 */
gboolean
adbscope_recording_reader_get_last (AdbscopeRecordingReader *self,
                                    const char              *series_path,
                                    gboolean                 finite,
                                    AdbscopeSample          *sample)
{
  sqlite3_stmt *st;
  gboolean found = FALSE;
  gint64 lod_end = G_MININT64, from_rowid;
  int id;

  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), FALSE);
  g_return_val_if_fail (sample != NULL, FALSE);

  if ((id = series_id (self, series_path)) < 0)
    return FALSE;

  ensure_meta (self);
  /* where the finest level of detail ends, and its last finite bucket */
  st = prepare (self, "SELECT max (t_us), max (CASE WHEN n > 0 THEN t_us END) FROM lod"
                " WHERE series = ?1 AND level = ?2");
  if (st == NULL)
    return FALSE;
  sqlite3_bind_int (st, 1, id);
  sqlite3_bind_int (st, 2, self->ladder.n > 0 ? self->ladder.level[0] : 0);
  if (sqlite3_step (st) == SQLITE_ROW && sqlite3_column_type (st, 0) != SQLITE_NULL)
    lod_end = sqlite3_column_int64 (st, 0);
  for (int pass = 0; pass < 2; pass++)
    {
      /* pass 0: the rows after the level of detail (all of them without
       * one); pass 1: the last finite bucket's rows */
      gint64 from = pass == 0 ? lod_end : sqlite3_column_int64 (st, 1);

      if (pass == 1 && (!finite || sqlite3_column_type (st, 1) == SQLITE_NULL))
        break;
      /* no level of detail yet: the series never had a value, or the
       * run is younger than a bucket; look back one coarsest bucket */
      if (from == G_MININT64)
        from = newest_time (self) - (self->ladder.n > 0 ? self->ladder.width_us[self->ladder.n - 1]
                                                         : 1000 * G_USEC_PER_SEC);
      from_rowid = _adbscope_recording_rowid_at (self->db, from - ADBSCOPE_RECORDING_ROWID_SLACK_US);
      {
        sqlite3_stmt *q = prepare (self, finite ? "SELECT t_us, value FROM sample WHERE rowid >= ?2 AND series = ?1"
                                                  " AND value IS NOT NULL ORDER BY rowid DESC LIMIT 1"
                                                : "SELECT t_us, value FROM sample WHERE rowid >= ?2 AND series = ?1"
                                                  " ORDER BY rowid DESC LIMIT 1");

        if (q == NULL)
          break;
        sqlite3_bind_int (q, 1, id);
        sqlite3_bind_int64 (q, 2, from_rowid);
        found = sample_from_row (q, sample);
        sqlite3_finalize (q);
      }
      if (found)
        {
          sqlite3_finalize (st);
          return TRUE;
        }
    }
  sqlite3_finalize (st);
  return FALSE;
}

/* The sample of @series_path nearest @time_us, within @max_distance_us. */
gboolean
adbscope_recording_reader_find_nearest (AdbscopeRecordingReader *self,
                                        const char              *series_path,
                                        gint64                   time_us,
                                        gint64                   max_distance_us,
                                        AdbscopeSample          *sample)
{
  sqlite3_stmt *st;
  gboolean found = FALSE;
  gint64 best = G_MAXINT64;
  int id;

  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), FALSE);
  g_return_val_if_fail (sample != NULL, FALSE);

  if ((id = series_id (self, series_path)) < 0)
    return FALSE;
  st = prepare (self, "SELECT t_us, value FROM sample WHERE rowid BETWEEN ?3 AND ?4 AND series = ?5"
                " AND t_us BETWEEN ?1 AND ?2");
  if (st == NULL)
    return FALSE;
  sqlite3_bind_int64 (st, 1, time_us - max_distance_us);
  sqlite3_bind_int64 (st, 2, time_us + max_distance_us);
  sqlite3_bind_int64 (st, 3, _adbscope_recording_rowid_at (self->db, time_us - max_distance_us
                                                           - ADBSCOPE_RECORDING_ROWID_SLACK_US));
  sqlite3_bind_int64 (st, 4, _adbscope_recording_rowid_at (self->db, time_us + max_distance_us
                                                           + ADBSCOPE_RECORDING_ROWID_SLACK_US));
  sqlite3_bind_int (st, 5, id);
  for (AdbscopeSample s; sample_from_row (st, &s);)
    if (ABS (s.time_us - time_us) < best)
      {
        best = ABS (s.time_us - time_us);
        *sample = s;
        found = TRUE;
      }
  sqlite3_finalize (st);
  return found;
}

/**
 * adbscope_recording_reader_get_version:
 *
 * Changes whenever another connection (the writer) has committed to the
 * file since the last call (SQLite's data_version): what was read before
 * an unchanged version is still what the file says.
 *
 * Returns: the version
 */
gint64
adbscope_recording_reader_get_version (AdbscopeRecordingReader *self)
{
  sqlite3_stmt *st;
  gint64 version = -1;

  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), -1);
  st = prepare (self, "PRAGMA data_version");
  if (st != NULL && sqlite3_step (st) == SQLITE_ROW)
    version = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  return version;
}

/* What the reader did (tests). */
const AdbscopeRecordingReaderStats *
_adbscope_recording_reader_get_stats (AdbscopeRecordingReader *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING_READER (self), NULL);
  return &self->stats;
}
