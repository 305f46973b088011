/* adbscope-apk-remote.c: see the header
 *
 * `dd bs=16384 skip=N count=M` is in toybox (Android 6+), in toolbox
 * before it and in every desktop coreutils; with whole blocks it needs no
 * iflag=skip_bytes (newer toybox only).  A miss reads at least 4 blocks
 * ahead, since the reader walks forward (chunk headers, entry data).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-apk-remote.h"
#include "adbscope-error.h"

#define READ_AHEAD 4

struct _AdbscopeApkRemote
{
  char         *serial;
  char         *path;
  guint64       size;
  GCancellable *cancellable;
  GHashTable   *blocks;   /* block index (guint64 *) → GBytes */
  guint64       bytes_fetched;
  guint         n_requests;
};

AdbscopeApkRemote *
adbscope_apk_remote_new (const char   *serial,
                         const char   *path,
                         guint64       size,
                         GCancellable *cancellable)
{
  AdbscopeApkRemote *remote;

  g_return_val_if_fail (serial != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  remote = g_new0 (AdbscopeApkRemote, 1);
  remote->serial = g_strdup (serial);
  remote->path = g_strdup (path);
  remote->size = size;
  remote->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  remote->blocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_bytes_unref);
  return remote;
}

void
adbscope_apk_remote_free (AdbscopeApkRemote *remote)
{
  if (remote == NULL)
    return;
  g_hash_table_unref (remote->blocks);
  g_clear_object (&remote->cancellable);
  g_free (remote->serial);
  g_free (remote->path);
  g_free (remote);
}

void
adbscope_apk_remote_drop_cache (AdbscopeApkRemote *remote)
{
  g_return_if_fail (remote != NULL);
  g_hash_table_remove_all (remote->blocks);
}

guint64
adbscope_apk_remote_get_bytes_fetched (AdbscopeApkRemote *remote)
{
  g_return_val_if_fail (remote != NULL, 0);
  return remote->bytes_fetched;
}

guint
adbscope_apk_remote_get_n_requests (AdbscopeApkRemote *remote)
{
  g_return_val_if_fail (remote != NULL, 0);
  return remote->n_requests;
}

char *
adbscope_apk_remote_build_command (const char *path,
                                   guint64     first,
                                   guint64     count)
{
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  quoted = g_shell_quote (path);
  return g_strdup_printf ("dd if=%s bs=%u skip=%" G_GUINT64_FORMAT " count=%" G_GUINT64_FORMAT " 2>/dev/null",
                          quoted, ADBSCOPE_APK_REMOTE_BLOCK, first, count);
}

#define FETCH_TIMEOUT_S 20
#define FETCH_ATTEMPTS  3

/* Ends adb: from the watchdog (on the main context) or when the caller's
 * cancellable fires (any thread); the reading thread's communicate() then
 * sees EOF and the exit. */
static void
kill_fetch (GCancellable *cancellable,
            GSubprocess  *proc)
{
  g_subprocess_force_exit (proc);
}

static gboolean
fetch_timed_out (gpointer data)
{
  kill_fetch (NULL, G_SUBPROCESS (data));
  return G_SOURCE_REMOVE;
}

static gboolean
fetch (AdbscopeApkRemote  *remote,
       guint64             first,
       guint64             count,
       GError            **error)
{
  g_autofree char *command = adbscope_apk_remote_build_command (remote->path, first, count);
  const char *args[] = { "exec-out", command, NULL };
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  guint64 start = first * ADBSCOPE_APK_REMOTE_BLOCK;
  guint64 want = MIN (count * ADBSCOPE_APK_REMOTE_BLOCK, remote->size - start);
  const guint8 *p;
  gsize len;
  guint64 i;

  /* One read that never ends (adb or the phone stalled) is killed after
   * FETCH_TIMEOUT_S and tried again, so a stall costs one read, not the
   * whole list of apps. */
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      GSource *watchdog;
      gulong chained = 0;
      gboolean ok;

      if (g_cancellable_set_error_if_cancelled (remote->cancellable, error))
        return FALSE;
      proc = adbscope_adb_spawn (remote->serial, args,
                                 G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, error);
      if (proc == NULL)
        return FALSE;
      /* Cancelling kills adb (at once if already cancelled) instead of
       * handing a cancellable to the synchronous communicate(): with one,
       * GLib 2.74 attaches a GCancellableSource to the private context of
       * communicate(), and when the GLib worker thread drops the last
       * reference to that context (it completes the wait for the child)
       * while this thread destroys the source, this thread locks the
       * context's freed mutex: it waits for ever (the CI hang) or
       * corrupts the heap ("tcache_thread_shutdown(): unaligned tcache
       * chunk detected"). */
      if (remote->cancellable != NULL)
        chained = g_cancellable_connect (remote->cancellable, G_CALLBACK (kill_fetch),
                                         g_object_ref (proc), g_object_unref);
      watchdog = g_timeout_source_new_seconds (FETCH_TIMEOUT_S);
      g_source_set_callback (watchdog, fetch_timed_out, g_object_ref (proc), g_object_unref);
      g_source_attach (watchdog, g_main_context_default ());
      ok = g_subprocess_communicate (proc, NULL, NULL, &out, &err, &local);
      g_source_destroy (watchdog);
      g_source_unref (watchdog);
      if (chained != 0)
        g_cancellable_disconnect (remote->cancellable, chained);
      if (g_cancellable_set_error_if_cancelled (remote->cancellable, error))
        return FALSE;
      /* Killed by the watchdog: read again. */
      if (ok && !g_subprocess_get_if_signaled (proc))
        break;
      if (ok)
        g_set_error (&local, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT,
                     _("Reading %s on the device took more than %d s"), remote->path, FETCH_TIMEOUT_S);
      g_clear_object (&proc);
      g_clear_pointer (&out, g_bytes_unref);
      g_clear_pointer (&err, g_bytes_unref);
      if (attempt + 1 >= FETCH_ATTEMPTS)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  remote->n_requests++;
  p = g_bytes_get_data (out, &len);
  remote->bytes_fetched += len;
  if (len != want)
    {
      g_autofree char *msg = g_strndup (g_bytes_get_data (err, NULL), MIN (g_bytes_get_size (err), 200));

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot read %s on the device (%llu of %llu bytes) %s"), remote->path,
                   (unsigned long long) len, (unsigned long long) want, g_strstrip (msg));
      return FALSE;
    }
  for (i = 0; i < count && i * ADBSCOPE_APK_REMOTE_BLOCK < len; i++)
    {
      guint64 *key = g_new (guint64, 1);
      gsize off = i * ADBSCOPE_APK_REMOTE_BLOCK;

      *key = first + i;
      g_hash_table_replace (remote->blocks, key,
                            g_bytes_new (p + off, MIN (ADBSCOPE_APK_REMOTE_BLOCK, len - off)));
    }
  return TRUE;
}

gboolean
adbscope_apk_remote_read (gpointer   user_data,
                          guint64    offset,
                          gsize      len,
                          guint8    *buf,
                          GError   **error)
{
  AdbscopeApkRemote *remote = user_data;
  guint64 first, last, b, n_blocks;
  gsize done = 0;

  g_return_val_if_fail (remote != NULL, FALSE);

  if (offset > remote->size || len > remote->size - offset)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("Cannot read %s on the device: past its end"), remote->path);
      return FALSE;
    }
  if (len == 0)
    return TRUE;
  n_blocks = (remote->size + ADBSCOPE_APK_REMOTE_BLOCK - 1) / ADBSCOPE_APK_REMOTE_BLOCK;
  first = offset / ADBSCOPE_APK_REMOTE_BLOCK;
  last = (offset + len - 1) / ADBSCOPE_APK_REMOTE_BLOCK;

  /* One request per run of missing blocks, extended to READ_AHEAD. */
  for (b = first; b <= last;)
    {
      guint64 run;

      if (g_hash_table_contains (remote->blocks, &b))
        {
          b++;
          continue;
        }
      for (run = 1; b + run < n_blocks && (b + run <= last || run < READ_AHEAD)
                    && !g_hash_table_contains (remote->blocks, &(guint64) { b + run }); run++)
        ;
      if (!fetch (remote, b, run, error))
        return FALSE;
      b += run;
    }

  for (b = first; b <= last; b++)
    {
      GBytes *block = g_hash_table_lookup (remote->blocks, &b);
      guint64 block_start = b * ADBSCOPE_APK_REMOTE_BLOCK;
      gsize from = offset + done - block_start;
      gsize block_len;
      const guint8 *p;
      gsize n;

      g_assert (block != NULL);
      p = g_bytes_get_data (block, &block_len);
      g_assert (from < block_len);
      n = MIN (block_len - from, len - done);
      memcpy (buf + done, p + from, n);
      done += n;
    }
  g_assert (done == len);
  return TRUE;
}
