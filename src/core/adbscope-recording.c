/* adbscope-recording.c: a run streamed into an SQLite file
 *
 * Two halves.  The main-loop half turns each call into an Op appended to
 * the pending batch (no I/O, no locks but the queue's).  The writer thread
 * owns the sqlite3 handle: it takes one batch at a time and commits it in
 * one transaction, keeping the level-of-detail rows (min/max per bucket)
 * up to date as samples go by.  The schema is docs/recording.md.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-json.h"
#include "adbscope-recording.h"
#include "adbscope-recording-private.h"
#include "adbscope-slow-collector.h"

typedef enum
{
  OP_META,
  OP_SERIES,
  OP_SAMPLE,
  OP_TICK,
  OP_RESTART,
  OP_MARKER,
  OP_GAP_START,
  OP_GAP_END,
  OP_GAP_CANCEL,
  OP_FRAMES,
  OP_THREAD_NEW,
  OP_THREAD_END,
  OP_THREAD_SAMPLE,
  OP_SYSTEM,
  OP_SCREENSHOT,
  OP_CONNECTION,
  OP_DNS,
  N_OPS
} OpKind;

typedef struct
{
  OpKind  kind;
  gint64  t;
  gint64  i[ADBSCOPE_JANK_N_CAUSES + 9];
  gboolean has[ADBSCOPE_JANK_N_CAUSES];
  double  v;
  double  v2;
  char   *text;
  char   *text2;
  char   *text3;
  char   *text4;
  GBytes *blob;
  GBytes *blob2;
} Op;

typedef struct
{
  GArray  *ops;
  gboolean last;
} Batch;

typedef struct
{
  gint64 start;
  gint64 n;
  double min;
  double max;
  double sum;
} LodBucket;

struct _AdbscopeRecording
{
  GObject       parent_instance;

  char         *path;
  gint64        origin_us;
  gboolean      begun;
  gboolean      closed;
  GArray       *pending;        /* Op */
  GHashTable   *series_ids;     /* path → id (main side) */
  GHashTable   *alive_threads;  /* tid → name (main side) */
  guint         n_series;
  guint         flush_id;
  gint64        last_end;

  /* writer side */
  sqlite3      *db;
  sqlite3_stmt *stmt[N_OPS];
  sqlite3_stmt *lod_stmt;
  GHashTable   *lod;            /* series id → LodBucket[LEVELS] */
  int           lod_first;      /* the finest level written (atomic: set by begin) */
  GThread      *thread;
  GAsyncQueue  *queue;          /* Batch */
  GMutex        lock;
  GError       *error;          /* first write error */
  dev_t         dev;            /* the file the writer writes, to notice */
  ino_t         ino;            /* it removed or replaced under it */
};

G_DEFINE_FINAL_TYPE (AdbscopeRecording, adbscope_recording, G_TYPE_OBJECT)

static const char schema_sql[] =
  "PRAGMA user_version = " G_STRINGIFY (ADBSCOPE_RECORDING_VERSION) ";"
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
  "CREATE TABLE series (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, unit TEXT NOT NULL);"
  "CREATE TABLE sample (series INTEGER NOT NULL, t_us INTEGER NOT NULL, value REAL);"
  "CREATE TABLE lod (series INTEGER NOT NULL, level INTEGER NOT NULL, t_us INTEGER NOT NULL,"
  "  n INTEGER NOT NULL, min REAL NOT NULL, max REAL NOT NULL, sum REAL NOT NULL,"
  "  PRIMARY KEY (series, level, t_us)) WITHOUT ROWID;"
  "CREATE TABLE tick (t_us INTEGER NOT NULL, dt_s REAL, app_running INTEGER NOT NULL, pid INTEGER);"
  "CREATE TABLE restart (t_us INTEGER NOT NULL, pid INTEGER NOT NULL);"
  "CREATE TABLE marker (t_us INTEGER NOT NULL, label TEXT NOT NULL);"
  "CREATE TABLE gap (start_us INTEGER NOT NULL, end_us INTEGER);"
  "CREATE TABLE frames (t_us INTEGER NOT NULL, fps REAL, new_frames INTEGER, new_janky INTEGER,"
  "  over_deadline INTEGER, missed_vsync INTEGER, high_input_latency INTEGER,"
  "  slow_ui_thread INTEGER, slow_bitmap_uploads INTEGER, slow_issue_draw_commands INTEGER,"
  "  frame_deadline_missed INTEGER, frame_ms BLOB,"
  /* version 2: where the interval's FPS came from, and SurfaceFlinger's
   * count of it (the app's layer that drew most) */
  "  source TEXT, sf_layer TEXT, sf_fps REAL, sf_frames INTEGER, sf_lost_estimate INTEGER,"
  "  sf_janky INTEGER, sf_jank INTEGER, sf_big_jank INTEGER, sf_lost INTEGER, sf_frame_ms BLOB);"
  "CREATE TABLE thread (tid INTEGER NOT NULL, name TEXT NOT NULL, first_us INTEGER NOT NULL, last_us INTEGER);"
  "CREATE TABLE thread_sample (t_us INTEGER NOT NULL, tid INTEGER NOT NULL, pct REAL NOT NULL);"
  "CREATE TABLE system (t_us INTEGER NOT NULL, processes TEXT, doze_deep TEXT, doze_light TEXT,"
  "  standby_bucket TEXT, jobs INTEGER, jobs_running INTEGER, alarms_pending INTEGER, alarm_wakeups INTEGER);"
  "CREATE TABLE screenshot (t_us INTEGER NOT NULL, png BLOB NOT NULL, cost_ms REAL, cpu_ms REAL,"
  "  width INTEGER, height INTEGER, at_marker INTEGER NOT NULL DEFAULT 0);"
  /* Written by the network capture (the agent link): one row per
   * connection when it closes or the run ends, one per DNS answer. */
  "CREATE TABLE connection (start_us INTEGER NOT NULL, end_us INTEGER, protocol TEXT NOT NULL,"
  "  local TEXT, remote TEXT NOT NULL, host TEXT, uid INTEGER, rx_bytes INTEGER, tx_bytes INTEGER);"
  "CREATE TABLE dns (t_us INTEGER NOT NULL, name TEXT NOT NULL, type TEXT, answers TEXT);";

static const char * const op_sql[N_OPS] = {
  [OP_META] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
  [OP_SERIES] = "INSERT INTO series (id, path, unit) VALUES (?1, ?2, ?3)",
  [OP_SAMPLE] = "INSERT INTO sample (series, t_us, value) VALUES (?1, ?2, ?3)",
  [OP_TICK] = "INSERT INTO tick (t_us, dt_s, app_running, pid) VALUES (?1, ?2, ?3, ?4)",
  [OP_RESTART] = "INSERT INTO restart (t_us, pid) VALUES (?1, ?2)",
  [OP_MARKER] = "INSERT INTO marker (t_us, label) VALUES (?1, ?2)",
  [OP_GAP_START] = "INSERT INTO gap (start_us, end_us) VALUES (?1, NULL)",
  [OP_GAP_END] = "UPDATE gap SET end_us = ?2 WHERE start_us = ?1 AND end_us IS NULL",
  [OP_GAP_CANCEL] = "DELETE FROM gap WHERE start_us = ?1 AND end_us IS NULL",
  [OP_FRAMES] = "INSERT INTO frames VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
                " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
  [OP_THREAD_NEW] = "INSERT INTO thread (tid, name, first_us, last_us) VALUES (?2, ?3, ?1, NULL)",
  [OP_THREAD_END] = "UPDATE thread SET last_us = ?1 WHERE tid = ?2 AND last_us IS NULL",
  [OP_THREAD_SAMPLE] = "INSERT INTO thread_sample (t_us, tid, pct) VALUES (?1, ?2, ?3)",
  [OP_SYSTEM] = "INSERT INTO system VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [OP_SCREENSHOT] = "INSERT INTO screenshot (t_us, png, cost_ms, cpu_ms, width, height, at_marker)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  [OP_CONNECTION] = "INSERT INTO connection VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [OP_DNS] = "INSERT INTO dns (t_us, name, type, answers) VALUES (?1, ?2, ?3, ?4)",
};

static void
op_clear (Op *op)
{
  g_free (op->text);
  g_free (op->text2);
  g_free (op->text3);
  g_free (op->text4);
  g_clear_pointer (&op->blob, g_bytes_unref);
  g_clear_pointer (&op->blob2, g_bytes_unref);
}

static GArray *
ops_new (void)
{
  GArray *ops = g_array_new (FALSE, TRUE, sizeof (Op));

  g_array_set_clear_func (ops, (GDestroyNotify) op_clear);
  return ops;
}

static Op *
append (AdbscopeRecording *self,
        OpKind             kind,
        gint64             time_us)
{
  Op op = { 0 };

  op.kind = kind;
  op.t = time_us - self->origin_us;
  g_array_append_val (self->pending, op);
  return &g_array_index (self->pending, Op, self->pending->len - 1);
}

/* ---- writer thread ---- */

static void
set_error (AdbscopeRecording *self,
           const char        *what)
{
  g_mutex_lock (&self->lock);
  if (self->error == NULL)
    self->error = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                               _("Cannot write the recording %s: %s (%s)"),
                               self->path, sqlite3_errmsg (self->db), what);
  g_mutex_unlock (&self->lock);
}

static void
set_error_text (AdbscopeRecording *self,
                const char        *why)
{
  g_mutex_lock (&self->lock);
  if (self->error == NULL)
    self->error = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                               _("Cannot write the recording %s: %s"), self->path, why);
  g_mutex_unlock (&self->lock);
}

/* The rows of a file that was removed (or replaced) while it was written
 * go nowhere a reader will look: as much a failed write as a full disk. */
static void
check_file_still_there (AdbscopeRecording *self)
{
  GStatBuf st;

  if (g_stat (self->path, &st) != 0)
    set_error_text (self, _("the file was removed while the run was written"));
  else if (st.st_dev != self->dev || st.st_ino != self->ino)
    set_error_text (self, _("the file was replaced while the run was written"));
}

static void
bind_double_or_null (sqlite3_stmt *stmt,
                     int           index_,
                     double        v)
{
  if (isfinite (v))
    sqlite3_bind_double (stmt, index_, v);
  else
    sqlite3_bind_null (stmt, index_);
}

static void
bind_text_or_null (sqlite3_stmt *stmt,
                   int           index_,
                   const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index_, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, index_);
}

static void
bind_count_or_null (sqlite3_stmt *stmt,
                    int           index_,
                    gint64        v)
{
  if (v >= 0)
    sqlite3_bind_int64 (stmt, index_, v);
  else
    sqlite3_bind_null (stmt, index_);
}

static void
bind_blob_or_null (sqlite3_stmt *stmt,
                   int           index_,
                   GBytes       *blob)
{
  if (blob != NULL)
    sqlite3_bind_blob (stmt, index_, g_bytes_get_data (blob, NULL), (int) g_bytes_get_size (blob), SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, index_);
}

/* Level L buckets are 10^L s wide. */
static gint64
lod_width_us (guint level)
{
  gint64 w = G_USEC_PER_SEC;

  for (guint i = 0; i < level; i++)
    w *= 10;
  return w;
}

static gboolean
lod_emit (AdbscopeRecording *self,
          gint64             series,
          guint              level,
          const LodBucket   *b)
{
  sqlite3_stmt *st = self->lod_stmt;
  gboolean ok;

  sqlite3_bind_int64 (st, 1, series);
  sqlite3_bind_int (st, 2, level);
  sqlite3_bind_int64 (st, 3, b->start);
  sqlite3_bind_int64 (st, 4, b->n);
  sqlite3_bind_double (st, 5, b->min);
  sqlite3_bind_double (st, 6, b->max);
  sqlite3_bind_double (st, 7, b->sum);
  ok = sqlite3_step (st) == SQLITE_DONE;
  sqlite3_reset (st);
  return ok;
}

static gboolean
lod_add (AdbscopeRecording *self,
         gint64             series,
         gint64             t,
         double             v)
{
  LodBucket *buckets;

  if (!isfinite (v))
    return TRUE;
  buckets = g_hash_table_lookup (self->lod, GINT_TO_POINTER (series));
  if (buckets == NULL)
    {
      buckets = g_new0 (LodBucket, ADBSCOPE_RECORDING_LOD_LEVELS);
      g_hash_table_insert (self->lod, GINT_TO_POINTER (series), buckets);
    }
  for (guint l = g_atomic_int_get (&self->lod_first); l < ADBSCOPE_RECORDING_LOD_LEVELS; l++)
    {
      LodBucket *b = &buckets[l];
      gint64 w = lod_width_us (l);
      gint64 start = (t >= 0 ? t / w : (t - w + 1) / w) * w;

      if (b->n > 0 && b->start != start)
        {
          if (!lod_emit (self, series, l, b))
            return FALSE;
          b->n = 0;
        }
      if (b->n == 0)
        {
          b->start = start;
          b->min = b->max = v;
          b->sum = 0;
        }
      b->n++;
      b->sum += v;
      b->min = MIN (b->min, v);
      b->max = MAX (b->max, v);
    }
  return TRUE;
}

static gboolean
lod_flush_all (AdbscopeRecording *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->lod);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      LodBucket *buckets = value;

      for (guint l = 0; l < ADBSCOPE_RECORDING_LOD_LEVELS; l++)
        if (buckets[l].n > 0)
          {
            if (!lod_emit (self, GPOINTER_TO_INT (key), l, &buckets[l]))
              return FALSE;
            buckets[l].n = 0;
          }
    }
  return TRUE;
}

static gboolean
write_op (AdbscopeRecording *self,
          const Op          *op)
{
  sqlite3_stmt *st = self->stmt[op->kind];
  gboolean ok;

  switch (op->kind)
    {
    case OP_META:
      bind_text_or_null (st, 1, op->text);
      bind_text_or_null (st, 2, op->text2);
      break;
    case OP_SERIES:
      sqlite3_bind_int64 (st, 1, op->i[0]);
      bind_text_or_null (st, 2, op->text);
      bind_text_or_null (st, 3, op->text2);
      break;
    case OP_SAMPLE:
      sqlite3_bind_int64 (st, 1, op->i[0]);
      sqlite3_bind_int64 (st, 2, op->t);
      bind_double_or_null (st, 3, op->v);
      if (!lod_add (self, op->i[0], op->t, op->v))
        return FALSE;
      break;
    case OP_TICK:
      sqlite3_bind_int64 (st, 1, op->t);
      bind_double_or_null (st, 2, op->v);
      sqlite3_bind_int (st, 3, op->i[0] != 0);
      bind_count_or_null (st, 4, op->i[0] ? op->i[1] : -1);
      break;
    case OP_RESTART:
    case OP_THREAD_END:
      sqlite3_bind_int64 (st, 1, op->t);
      sqlite3_bind_int64 (st, 2, op->i[0]);
      break;
    case OP_MARKER:
      sqlite3_bind_int64 (st, 1, op->t);
      bind_text_or_null (st, 2, op->text);
      break;
    case OP_GAP_START:
    case OP_GAP_CANCEL:
      sqlite3_bind_int64 (st, 1, op->t);
      break;
    case OP_GAP_END:
      sqlite3_bind_int64 (st, 1, op->i[0]);
      sqlite3_bind_int64 (st, 2, op->t);
      break;
    case OP_FRAMES:
      sqlite3_bind_int64 (st, 1, op->t);
      bind_double_or_null (st, 2, op->v);
      for (guint k = 0; k < 3; k++)
        sqlite3_bind_int64 (st, 3 + k, op->i[k]);
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        bind_count_or_null (st, 6 + c, op->has[c] ? op->i[3 + c] : -1);
      bind_blob_or_null (st, 12, op->blob);
      bind_text_or_null (st, 13, op->text);
      bind_text_or_null (st, 14, op->text2);
      bind_double_or_null (st, 15, op->v2);
      /* SurfaceFlinger's counts only where its layer gave a rate */
      for (guint k = 0; k < 6; k++)
        bind_count_or_null (st, 16 + k, op->text2 != NULL ? op->i[9 + k] : -1);
      bind_blob_or_null (st, 22, op->blob2);
      break;
    case OP_THREAD_NEW:
      sqlite3_bind_int64 (st, 1, op->t);
      sqlite3_bind_int64 (st, 2, op->i[0]);
      bind_text_or_null (st, 3, op->text);
      break;
    case OP_THREAD_SAMPLE:
      sqlite3_bind_int64 (st, 1, op->t);
      sqlite3_bind_int64 (st, 2, op->i[0]);
      sqlite3_bind_double (st, 3, op->v);
      break;
    case OP_SYSTEM:
      sqlite3_bind_int64 (st, 1, op->t);
      bind_text_or_null (st, 2, op->text);
      {
        g_auto(GStrv) doze = op->text2 ? g_strsplit (op->text2, "\n", 3) : NULL;

        for (guint k = 0; k < 3; k++)
          bind_text_or_null (st, 3 + k, doze && g_strv_length (doze) > k && doze[k][0] ? doze[k] : NULL);
        for (guint k = 0; k < 4; k++)
          bind_count_or_null (st, 6 + k, op->i[k]);
        ok = sqlite3_step (st) == SQLITE_DONE;
        sqlite3_reset (st);
        sqlite3_clear_bindings (st);
        return ok;
      }
    case OP_SCREENSHOT:
      sqlite3_bind_int64 (st, 1, op->t);
      sqlite3_bind_blob (st, 2, g_bytes_get_data (op->blob, NULL),
                         (int) g_bytes_get_size (op->blob), SQLITE_STATIC);
      bind_double_or_null (st, 3, op->v);
      bind_double_or_null (st, 4, op->v2);
      bind_count_or_null (st, 5, op->i[0]);
      bind_count_or_null (st, 6, op->i[1]);
      sqlite3_bind_int (st, 7, op->i[2] != 0);
      break;
    case OP_CONNECTION:
      sqlite3_bind_int64 (st, 1, op->t);
      if (op->i[0] >= 0)
        sqlite3_bind_int64 (st, 2, op->i[0]);
      else
        sqlite3_bind_null (st, 2);
      bind_text_or_null (st, 3, op->text);
      bind_text_or_null (st, 4, op->text2);
      bind_text_or_null (st, 5, op->text3);
      bind_text_or_null (st, 6, op->text4);
      bind_count_or_null (st, 7, op->i[1]);
      bind_count_or_null (st, 8, op->i[2]);
      bind_count_or_null (st, 9, op->i[3]);
      break;
    case OP_DNS:
      sqlite3_bind_int64 (st, 1, op->t);
      bind_text_or_null (st, 2, op->text);
      bind_text_or_null (st, 3, op->text2);
      bind_text_or_null (st, 4, op->text3);
      break;
    case N_OPS:
    default:
      g_assert_not_reached ();
    }
  ok = sqlite3_step (st) == SQLITE_DONE;
  sqlite3_reset (st);
  sqlite3_clear_bindings (st);
  return ok;
}

static void
write_batch (AdbscopeRecording *self,
             Batch             *batch)
{
  gboolean ok = sqlite3_exec (self->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;

  for (guint i = 0; ok && i < batch->ops->len; i++)
    ok = write_op (self, &g_array_index (batch->ops, Op, i));
  if (ok && batch->last)
    ok = lod_flush_all (self);
  if (ok)
    ok = sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok)
    {
      set_error (self, "commit");
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
    }
  check_file_still_there (self);
}

static gpointer
writer_thread (gpointer data)
{
  AdbscopeRecording *self = data;

  for (;;)
    {
      Batch *batch = g_async_queue_pop (self->queue);
      gboolean last = batch->last;

      write_batch (self, batch);
      g_array_unref (batch->ops);
      g_free (batch);
      if (last)
        break;
    }
  /* Fold the WAL back in, so a finished recording is one file, and leave
   * WAL mode: a reader that may not write beside the file (another user,
   * a read-only folder) then needs no -wal/-shm at all.  What cannot be
   * folded in (a file made read-only, a full disk) is a failed write too;
   * a reader that still has the file open (the window) only makes both
   * wait for later (SQLITE_BUSY), which is no loss. */
  {
    int rc = sqlite3_wal_checkpoint_v2 (self->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);

    if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
      set_error (self, "checkpoint");
  }
  sqlite3_exec (self->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
  return NULL;
}

/* ---- main-loop side ---- */

static void
push_batch (AdbscopeRecording *self,
            gboolean           last)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->ops = g_steal_pointer (&self->pending);
  batch->last = last;
  self->pending = ops_new ();
  g_async_queue_push (self->queue, batch);
}

static void
note_end (AdbscopeRecording *self,
          gint64             end_us)
{
  Op *op;

  if (!self->begun)
    return;
  self->last_end = MAX (self->last_end, end_us - self->origin_us);
  op = append (self, OP_META, self->origin_us);
  op->text = g_strdup ("end_us");
  op->text2 = g_strdup_printf ("%" G_GINT64_FORMAT, self->last_end);
}

void
adbscope_recording_flush (AdbscopeRecording *self)
{
  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));

  if (self->closed || self->pending->len == 0)
    return;
  note_end (self, g_get_monotonic_time ());
  push_batch (self, FALSE);
}

static gboolean
flush_cb (gpointer data)
{
  adbscope_recording_flush (data);
  return G_SOURCE_CONTINUE;
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      const char  *path,
      GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
               _("Cannot create the recording %s: %s"), path, message ? message : sqlite3_errmsg (db));
  sqlite3_free (message);
  return FALSE;
}

/**
 * adbscope_recording_create:
 * @path: a file that does not exist yet (a recording is never overwritten)
 *
 * Creates the file with the schema and starts the writer thread.
 */
AdbscopeRecording *
adbscope_recording_create (const char  *path,
                           GError     **error)
{
  return adbscope_recording_create_full (path, ADBSCOPE_RECORDING_DEFAULT, error);
}

/**
 * adbscope_recording_create_full:
 * @path: a file that does not exist yet
 * @flags: %ADBSCOPE_RECORDING_PRIVATE where no other connection reads the
 *   file while it is written
 */
AdbscopeRecording *
adbscope_recording_create_full (const char              *path,
                                AdbscopeRecordingFlags   flags,
                                GError                 **error)
{
  g_autoptr(AdbscopeRecording) self = NULL;
  g_autofree char *dir = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  dir = g_path_get_dirname (path);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot create the recording %s: the folder %s does not exist"), path, dir);
      return NULL;
    }

  /* The name is claimed with O_EXCL before SQLite opens it (SQLite creates
   * the file lazily, at its first write): two runs creating the same name
   * in the same instant (records of one app on two devices) would both
   * open it, and the one that lost the lock removed the other's file. */
  {
    int fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

    if (fd < 0)
      {
        int err = errno;

        if (err == EEXIST)
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("The recording %s already exists; choose another file (a recording is never overwritten)"), path);
        else
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot create the recording %s: %s"), path, g_strerror (err));
        return NULL;
      }
    close (fd);
  }

  self = g_object_new (ADBSCOPE_TYPE_RECORDING, NULL);
  self->path = g_strdup (path);
  /* (an empty file is an empty database) */
  if (sqlite3_open_v2 (path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot create the recording %s: %s"), path,
                   self->db ? sqlite3_errmsg (self->db) : g_strerror (ENOMEM));
      g_unlink (path);
      return NULL;
    }
  if (g_stat (path, &st) != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot create the recording %s: %s"), path, g_strerror (errno));
      return NULL;
    }
  self->dev = st.st_dev;
  self->ino = st.st_ino;
  /* No memory-mapped I/O on the file: a page that cannot be written back
   * is SIGBUS, where a write() is an error we report.  Private: the WAL
   * index in the heap too (no -shm file; set before WAL mode). */
  if (!exec (self->db, "PRAGMA mmap_size = 0;", path, error) ||
      ((flags & ADBSCOPE_RECORDING_PRIVATE) &&
       !exec (self->db, "PRAGMA locking_mode = EXCLUSIVE;", path, error)))
    {
      g_unlink (path);
      return NULL;
    }
  /* WAL + NORMAL: a commit survives the process dying (kill -9); only a
   * power loss can take the last transactions. */
  if (!exec (self->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", path, error) ||
      !exec (self->db, "BEGIN", path, error) ||
      !exec (self->db, schema_sql, path, error) ||
      !exec (self->db, "INSERT INTO meta VALUES ('schema', '" ADBSCOPE_RECORDING_SCHEMA "'),"
             " ('tool_version', '" PACKAGE_VERSION "')", path, error) ||
      !exec (self->db, "COMMIT", path, error))
    {
      g_unlink (path);
      return NULL;
    }
  for (guint k = 0; k < N_OPS; k++)
    if (sqlite3_prepare_v2 (self->db, op_sql[k], -1, &self->stmt[k], NULL) != SQLITE_OK)
      g_error ("recording statement %u: %s", k, sqlite3_errmsg (self->db));
  if (sqlite3_prepare_v2 (self->db, "INSERT OR REPLACE INTO lod VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                          -1, &self->lod_stmt, NULL) != SQLITE_OK)
    g_error ("recording lod statement: %s", sqlite3_errmsg (self->db));

  self->thread = g_thread_new ("adbscope-recording", writer_thread, self);
  self->flush_id = g_timeout_add_seconds (1, flush_cb, self);
  return g_steal_pointer (&self);
}

const char *
adbscope_recording_get_path (AdbscopeRecording *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING (self), NULL);
  return self->path;
}

void
adbscope_recording_set_meta (AdbscopeRecording *self,
                             const char        *key,
                             const char        *value)
{
  Op *op;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  op = append (self, OP_META, self->origin_us);
  op->text = g_strdup (key);
  op->text2 = g_strdup (value);
}

static char *
object_to_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return adbscope_json_to_string (node, FALSE);
}

/**
 * adbscope_recording_begin:
 * @origin_us: the monotonic time that is 0 in the file
 * @device: (nullable): the report's `device` object
 * @sources: (nullable): the report's `sources` object
 */
void
adbscope_recording_begin (AdbscopeRecording *self,
                          gint64             origin_us,
                          GDateTime         *start,
                          const char        *serial,
                          const char        *package,
                          guint              interval_ms,
                          JsonObject        *device,
                          JsonObject        *sources)
{
  g_autofree char *start_text = NULL;
  g_autofree char *interval = g_strdup_printf ("%u", interval_ms);
  gboolean subsecond = interval_ms > 0 && interval_ms < 1000;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  g_return_if_fail (!self->begun);

  self->origin_us = origin_us;
  self->begun = TRUE;
  /* A 1 s level of a run sampled once a second (or slower) would be its
   * samples again: its finest level is then 10 s. */
  g_atomic_int_set (&self->lod_first, subsecond ? 0 : 1);
  adbscope_recording_set_meta (self, "lod_levels", subsecond ? "0 1 2 3" : "1 2 3");
  start_text = start ? g_date_time_format_iso8601 (start) : NULL;
  adbscope_recording_set_meta (self, "start", start_text);
  adbscope_recording_set_meta (self, "serial", serial);
  adbscope_recording_set_meta (self, "package", package);
  adbscope_recording_set_meta (self, "interval_ms", interval);
  if (device != NULL)
    {
      g_autofree char *text = object_to_text (device);
      adbscope_recording_set_meta (self, "device", text);
    }
  if (sources != NULL)
    {
      g_autofree char *text = object_to_text (sources);
      adbscope_recording_set_meta (self, "sources", text);
    }
  note_end (self, origin_us);
  adbscope_recording_flush (self);
}

gboolean
adbscope_recording_has_begun (AdbscopeRecording *self)
{
  return self->begun;
}

static gint64
series_id (AdbscopeRecording *self,
           const char        *path,
           const char        *unit)
{
  gpointer id;
  Op *op;

  if (g_hash_table_lookup_extended (self->series_ids, path, NULL, &id))
    return GPOINTER_TO_INT (id);
  self->n_series++;
  g_hash_table_insert (self->series_ids, g_strdup (path), GINT_TO_POINTER (self->n_series));
  op = append (self, OP_SERIES, self->origin_us);
  op->i[0] = self->n_series;
  op->text = g_strdup (path);
  op->text2 = g_strdup (unit ? unit : "");
  return self->n_series;
}

void
adbscope_recording_add_sample (AdbscopeRecording *self,
                               const char        *path,
                               const char        *unit,
                               gint64             time_us,
                               double             value)
{
  gint64 id;
  Op *op;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  id = series_id (self, path, unit);
  op = append (self, OP_SAMPLE, time_us);
  op->i[0] = id;
  op->v = value;
}

void
adbscope_recording_add_tick (AdbscopeRecording *self,
                             gint64             time_us,
                             double             dt_s,
                             gboolean           app_running,
                             gint64             pid)
{
  Op *op = append (self, OP_TICK, time_us);

  op->v = dt_s;
  op->i[0] = app_running;
  op->i[1] = pid;
}

void
adbscope_recording_add_restart (AdbscopeRecording *self,
                                gint64             time_us,
                                gint64             pid)
{
  append (self, OP_RESTART, time_us)->i[0] = pid;
}

void
adbscope_recording_add_marker (AdbscopeRecording *self,
                               gint64             time_us,
                               const char        *label)
{
  append (self, OP_MARKER, time_us)->text = g_strdup (label ? label : "");
}

void
adbscope_recording_gap_started (AdbscopeRecording *self,
                                gint64             start_us)
{
  append (self, OP_GAP_START, start_us);
}

void
adbscope_recording_gap_ended (AdbscopeRecording *self,
                              gint64             start_us,
                              gint64             end_us)
{
  append (self, OP_GAP_END, end_us)->i[0] = start_us - self->origin_us;
}

/* A gap opened while no sample came, withdrawn: the sample that was on
 * its way when it opened is close enough to the one before. */
void
adbscope_recording_gap_cancelled (AdbscopeRecording *self,
                                  gint64             start_us)
{
  append (self, OP_GAP_CANCEL, start_us);
}

void
adbscope_recording_add_frames (AdbscopeRecording          *self,
                               const AdbscopeFramesSample *s)
{
  Op *op = append (self, OP_FRAMES, s->time_us);

  op->v = s->fps;
  op->i[0] = s->new_frames;
  op->i[1] = s->new_janky;
  op->i[2] = s->frames_over_deadline;
  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    {
      op->i[3 + c] = s->new_causes[c];
      op->has[c] = s->has_cause[c];
    }
  if (isfinite (s->fps) && s->frames != NULL && s->frames->len > 0)
    {
      float *ms = g_new (float, s->frames->len);

      for (guint i = 0; i < s->frames->len; i++)
        ms[i] = g_array_index (s->frames, AdbscopeGfxinfoFrame, i).duration_ns / 1e6f;
      _adbscope_recording_floats_to_le (ms, s->frames->len);
      op->blob = g_bytes_new_take (ms, s->frames->len * sizeof (float));
    }
  op->text = isfinite (s->fps) ? g_strdup (adbscope_frames_source_to_key (s->source)) : NULL;
  /* What the session's SurfaceFlinger summary counts (take_surfaceflinger) */
  if (s->sf_layer == NULL || !isfinite (s->sf_fps))
    return;
  op->text2 = g_strdup (s->sf_layer);
  op->v2 = s->sf_fps;
  op->i[9] = s->sf.new_frames;
  op->i[10] = s->sf.lost_estimate;
  op->i[11] = s->sf.janky;
  op->i[12] = s->sf.jank;
  op->i[13] = s->sf.big_jank;
  op->i[14] = s->sf.lost ? 1 : 0;
  /* Its frame times where they are the interval's (an HWUI interval has
   * its own in frame_ms: the window layer's again would cost as much). */
  if (s->source == ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER && isfinite (s->fps) &&
      s->sf.frame_times_ms != NULL && s->sf.frame_times_ms->len > 0)
    {
      guint n = s->sf.frame_times_ms->len;
      float *ms = g_memdup2 (s->sf.frame_times_ms->data, n * sizeof (float));

      _adbscope_recording_floats_to_le (ms, n);
      op->blob2 = g_bytes_new_take (ms, n * sizeof (float));
    }
}

void
adbscope_recording_add_threads (AdbscopeRecording *self,
                                gint64             time_us,
                                const GArray      *usage)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; usage != NULL && i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);

      g_hash_table_add (seen, GINT_TO_POINTER (u->tid));
      if (!g_hash_table_contains (self->alive_threads, GINT_TO_POINTER (u->tid)))
        {
          Op *op = append (self, OP_THREAD_NEW, time_us);

          op->i[0] = u->tid;
          op->text = g_strdup (u->comm);
          g_hash_table_add (self->alive_threads, GINT_TO_POINTER (u->tid));
        }
      /* Idle threads cost no row: a live thread without one was at 0 %. */
      if (isfinite (u->pct) && u->pct > 0)
        {
          Op *op = append (self, OP_THREAD_SAMPLE, time_us);

          op->i[0] = u->tid;
          op->v = u->pct;
        }
    }
  g_hash_table_iter_init (&iter, self->alive_threads);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (seen, key))
      {
        append (self, OP_THREAD_END, time_us)->i[0] = GPOINTER_TO_INT (key);
        g_hash_table_iter_remove (&iter);
      }
}

void
adbscope_recording_add_system (AdbscopeRecording         *self,
                               gint64                     time_us,
                               const AdbscopeSystemState *state)
{
  const GArray *processes = state->processes;
  Op *op = append (self, OP_SYSTEM, time_us);

  if (processes != NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < processes->len; i++)
        {
          const AdbscopeAppProcess *p = &g_array_index (processes, AdbscopeAppProcess, i);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "pid");
          json_builder_add_int_value (b, p->pid);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, p->name);
          json_builder_set_member_name (b, "rss_kb");
          if (p->rss_kb >= 0)
            json_builder_add_int_value (b, p->rss_kb);
          else
            json_builder_add_null_value (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = json_builder_get_root (b);
      op->text = adbscope_json_to_string (root, FALSE);
    }
  op->text2 = g_strdup_printf ("%s\n%s\n%s", state->doze_deep ? state->doze_deep : "",
                               state->doze_light ? state->doze_light : "",
                               state->standby_bucket ? state->standby_bucket : "");
  op->i[0] = state->jobs;
  op->i[1] = state->jobs_running;
  op->i[2] = state->alarms_pending;
  op->i[3] = state->alarm_wakeups;
}

/**
 * adbscope_recording_add_screenshot:
 * @cost_ms: device-side wall time of screencap, NaN if unknown
 * @cpu_ms: the CPU it took on the device, NaN if unknown
 * @width: (nullable): 0 where unknown, like @height
 */
void
adbscope_recording_add_screenshot (AdbscopeRecording *self,
                                   gint64             time_us,
                                   GBytes            *png,
                                   double             cost_ms,
                                   double             cpu_ms,
                                   guint              width,
                                   guint              height,
                                   gboolean           at_marker)
{
  Op *op;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  g_return_if_fail (png != NULL);
  op = append (self, OP_SCREENSHOT, time_us);
  op->blob = g_bytes_ref (png);
  op->v = cost_ms;
  op->v2 = cpu_ms;
  op->i[0] = width > 0 ? (gint64) width : -1;
  op->i[1] = height > 0 ? (gint64) height : -1;
  op->i[2] = at_marker;
}

/**
 * adbscope_recording_add_connection:
 * @end_us: when it closed (monotonic), or 0 while open at the end of the run
 * @uid: the app's uid on the device, or -1
 * @rx_bytes: (nullable): -1 where unknown, like @tx_bytes
 *
 * For the network capture: one row per connection, written when it
 * closes (or when the run ends with it open).
 */
void
adbscope_recording_add_connection (AdbscopeRecording *self,
                                   gint64             start_us,
                                   gint64             end_us,
                                   const char        *protocol,
                                   const char        *local,
                                   const char        *remote,
                                   const char        *host,
                                   gint64             uid,
                                   gint64             rx_bytes,
                                   gint64             tx_bytes)
{
  Op *op;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  g_return_if_fail (protocol != NULL && remote != NULL);
  op = append (self, OP_CONNECTION, start_us);
  op->i[0] = end_us > 0 ? end_us - self->origin_us : -1;
  op->text = g_strdup (protocol);
  op->text2 = g_strdup (local);
  op->text3 = g_strdup (remote);
  op->text4 = g_strdup (host);
  op->i[1] = uid;
  op->i[2] = rx_bytes;
  op->i[3] = tx_bytes;
}

/**
 * adbscope_recording_add_dns:
 * @answers: (nullable): the addresses, comma-separated
 *
 * For the network capture: one row per DNS answer.
 */
void
adbscope_recording_add_dns (AdbscopeRecording *self,
                            gint64             time_us,
                            const char        *name,
                            const char        *type,
                            const char        *answers)
{
  Op *op;

  g_return_if_fail (ADBSCOPE_IS_RECORDING (self));
  g_return_if_fail (name != NULL);
  op = append (self, OP_DNS, time_us);
  op->text = g_strdup (name);
  op->text2 = g_strdup (type);
  op->text3 = g_strdup (answers);
}

gboolean
adbscope_recording_close (AdbscopeRecording  *self,
                          gint64              end_us,
                          GError            **error)
{
  g_return_val_if_fail (ADBSCOPE_IS_RECORDING (self), FALSE);

  if (!self->closed)
    {
      self->closed = TRUE;
      g_clear_handle_id (&self->flush_id, g_source_remove);
      if (self->thread != NULL)
        {
          note_end (self, end_us);
          push_batch (self, TRUE);
          g_thread_join (g_steal_pointer (&self->thread));
        }
      for (guint k = 0; k < N_OPS; k++)
        sqlite3_finalize (self->stmt[k]);
      sqlite3_finalize (self->lod_stmt);
      memset (self->stmt, 0, sizeof self->stmt);
      self->lod_stmt = NULL;
      if (self->db != NULL && sqlite3_close (self->db) != SQLITE_OK)
        g_warning ("recording %s: %s", self->path, sqlite3_errmsg (self->db));
      self->db = NULL;
    }
  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }
  return TRUE;
}

/* The app's recordings: $XDG_DATA_HOME/adbscope/recordings. */
char *
adbscope_recording_default_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "adbscope", "recordings", NULL);
}

/* PACKAGE-YYYYMMDD-HHMMSS.adbscope, local time: sorts by date. */
char *
adbscope_recording_default_name (const char *package,
                                 GDateTime  *start)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (start);
  g_autofree char *stamp = g_date_time_format (local, "%Y%m%d-%H%M%S");

  return g_strdup_printf ("%s-%s" ADBSCOPE_RECORDING_SUFFIX, package, stamp);
}

/* report.json → report.adbscope, beside it. */
char *
adbscope_recording_path_beside (const char *report_path)
{
  g_autofree char *base = g_str_has_suffix (report_path, ".json")
    ? g_strndup (report_path, strlen (report_path) - 5) : g_strdup (report_path);

  return g_strconcat (base, ADBSCOPE_RECORDING_SUFFIX, NULL);
}

/* A new recording at BASE, or BASE-2, BASE-3, … when that name is taken
 * (also by another run creating it at the same instant: records of one
 * app on two devices, two windows).  The path used in *path_out. */
AdbscopeRecording *
adbscope_recording_create_unique (const char  *base,
                                  char       **path_out,
                                  GError     **error)
{
  return adbscope_recording_create_unique_full (base, ADBSCOPE_RECORDING_DEFAULT, path_out, error);
}

AdbscopeRecording *
adbscope_recording_create_unique_full (const char              *base,
                                       AdbscopeRecordingFlags   flags,
                                       char                   **path_out,
                                       GError                 **error)
{
  g_autofree char *stem = g_str_has_suffix (base, ADBSCOPE_RECORDING_SUFFIX)
    ? g_strndup (base, strlen (base) - strlen (ADBSCOPE_RECORDING_SUFFIX)) : g_strdup (base);

  for (guint i = 1; i < 10000; i++)
    {
      g_autofree char *path = i == 1 ? g_strconcat (stem, ADBSCOPE_RECORDING_SUFFIX, NULL)
                                     : g_strdup_printf ("%s-%u" ADBSCOPE_RECORDING_SUFFIX, stem, i);
      g_autoptr(GError) local = NULL;
      AdbscopeRecording *recording;

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      recording = adbscope_recording_create_full (path, flags, &local);
      if (recording != NULL)
        {
          if (path_out != NULL)
            *path_out = g_steal_pointer (&path);
          return recording;
        }
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
    }
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
               _("Cannot create the recording %s: every name beside it is taken"), base);
  return NULL;
}

/* The file and the WAL and index beside it. */
void
adbscope_recording_remove_files (const char *path)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);
      g_unlink (p);
    }
}

void
_adbscope_recording_floats_to_le (float *values,
                                  gsize  n)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  for (gsize i = 0; i < n; i++)
    {
      guint32 u;

      memcpy (&u, &values[i], 4);
      u = GUINT32_SWAP_LE_BE (u);
      memcpy (&values[i], &u, 4);
    }
#endif
}

static void
adbscope_recording_dispose (GObject *object)
{
  AdbscopeRecording *self = ADBSCOPE_RECORDING (object);

  if (self->db != NULL)
    adbscope_recording_close (self, self->origin_us + self->last_end, NULL);
  G_OBJECT_CLASS (adbscope_recording_parent_class)->dispose (object);
}

static void
adbscope_recording_finalize (GObject *object)
{
  AdbscopeRecording *self = ADBSCOPE_RECORDING (object);

  g_array_unref (self->pending);
  g_hash_table_unref (self->series_ids);
  g_hash_table_unref (self->alive_threads);
  g_hash_table_unref (self->lod);
  g_async_queue_unref (self->queue);
  g_mutex_clear (&self->lock);
  g_clear_error (&self->error);
  g_free (self->path);
  G_OBJECT_CLASS (adbscope_recording_parent_class)->finalize (object);
}

static void
adbscope_recording_class_init (AdbscopeRecordingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_recording_dispose;
  object_class->finalize = adbscope_recording_finalize;
}

static void
adbscope_recording_init (AdbscopeRecording *self)
{
  self->pending = ops_new ();
  self->series_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->alive_threads = g_hash_table_new (NULL, NULL);
  self->lod = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->lod_first = 1;
  self->queue = g_async_queue_new ();
  g_mutex_init (&self->lock);
}
