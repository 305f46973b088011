/* test-apk-remote.c: byte-range reads of an APK through `adb exec-out dd`
 *
 * $ADB is a stand-in script that runs the dd command line adb would send
 * to the phone on a local file, so the bytes read can be compared with the
 * file itself; a marker file makes it stall (sleep) instead.
 *
 * /apk-remote/threads is the CI hang of test-app-info: app-info reads with
 * four threads and a GCancellable.  Handing that cancellable to the
 * synchronous g_subprocess_communicate() made GLib 2.74 lock the mutex of
 * an already freed GMainContext now and then (when its worker thread,
 * which reaps adb, dropped the last reference to the private context of
 * communicate() while the reading thread destroyed the GCancellableSource
 * attached to it): the thread then waited for ever in that lock, or the
 * heap was corrupted ("tcache_thread_shutdown(): unaligned tcache chunk
 * detected").  Under load that happened within a few thousand reads.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-apk-remote.h"
#include "adbscope-test-wait.h"

#define N_THREADS 4
#define N_READS   500   /* per thread */
#define FILE_SIZE (ADBSCOPE_APK_REMOTE_BLOCK * 64 + 1234)

static char *dir;
static char *apk;         /* the local "APK" */
static char *stall_file;  /* exists: the stand-in adb stalls */
static guint8 *content;

static void
write_adb (void)
{
  /* adb [-s SERIAL] exec-out CMD: the last argument is the command. */
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "while [ $# -gt 1 ]; do shift; done\n"
                                             "[ -e '%s' ] && exec sleep 600\n"
                                             "eval \"exec $1\"\n",
                                             stall_file);
  g_autofree char *path = g_build_filename (dir, "adb", NULL);

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  g_setenv ("ADB", path, TRUE);
}

typedef struct
{
  GCancellable *cancellable;
  guint         seed;
  guint         n_done;
  guint         n_failed;
  char         *first_error;
} Reader;

static gpointer
reader_thread (gpointer data)
{
  Reader *r = data;
  GRand *rand = g_rand_new_with_seed (r->seed);

  for (guint i = 0; i < N_READS; i++)
    {
      /* A new reader each time: every read is one adb. */
      g_autoptr(AdbscopeApkRemote) remote = adbscope_apk_remote_new ("fake-serial", apk, FILE_SIZE,
                                                                     r->cancellable);
      g_autoptr(GError) error = NULL;
      guint64 offset = g_rand_int_range (rand, 0, FILE_SIZE - 100);
      gsize len = g_rand_int_range (rand, 1, 100);
      guint8 buf[100];

      if (!adbscope_apk_remote_read (remote, offset, len, buf, &error) || memcmp (buf, content + offset, len) != 0)
        {
          if (r->n_failed++ == 0)
            r->first_error = g_strdup_printf ("read of %zu bytes at %" G_GUINT64_FORMAT ": %s", len, offset,
                                              error != NULL ? error->message : "wrong bytes");
        }
      g_atomic_int_inc (&r->n_done);
    }
  g_rand_free (rand);
  return NULL;
}

/* Many short reads from four threads, as app-info does, with a
 * cancellable: every one gives the file's bytes and none hangs. */
static void
test_threads (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Reader readers[N_THREADS] = { 0 };
  GThread *threads[N_THREADS];
  gint64 start = g_get_monotonic_time (), last_progress = start;
  guint done = 0;

  for (guint t = 0; t < N_THREADS; t++)
    {
      readers[t].cancellable = cancellable;
      readers[t].seed = 1000 + t;
      threads[t] = g_thread_new ("reader", reader_thread, &readers[t]);
    }
  /* The watchdog of each read lives on the main context: keep it running.
   * Each read takes milliseconds, so 30 s without one finishing is a hung
   * read (the stand-in adb never stalls here), well before meson's
   * timeout. */
  while (done < N_THREADS * N_READS)
    {
      guint now_done = 0;

      for (guint t = 0; t < N_THREADS; t++)
        now_done += g_atomic_int_get (&readers[t].n_done);
      if (now_done > done)
        last_progress = g_get_monotonic_time ();
      done = now_done;
      if (g_get_monotonic_time () - last_progress > 30 * G_USEC_PER_SEC)
        g_error ("%u of %u reads finished, none in the last 30 s: a read hangs", done, N_THREADS * N_READS);
      if (done < N_THREADS * N_READS && !g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_thread_join (threads[t]);
      if (readers[t].n_failed > 0)
        g_error ("thread %u: %u reads failed, the first: %s", t, readers[t].n_failed, readers[t].first_error);
    }
  g_test_message ("%u reads in %.1f s", N_THREADS * N_READS, (g_get_monotonic_time () - start) / 1e6);
}

static gboolean
cancel_later (gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
  return G_SOURCE_REMOVE;
}

typedef struct
{
  AdbscopeApkRemote *remote;
  GError            *error;
  gboolean           ok;
  gboolean           done;
} StalledRead;

static gboolean
read_done (gpointer data)
{
  StalledRead *s = data;

  return g_atomic_int_get (&s->done);
}

static gpointer
stalled_thread (gpointer data)
{
  StalledRead *s = data;
  guint8 buf[10];

  s->ok = adbscope_apk_remote_read (s->remote, 0, sizeof buf, buf, &s->error);
  g_atomic_int_set (&s->done, TRUE);
  return NULL;
}

/* Children of this process that run the stand-in's sleep (killed ones
 * are reaped by GLib). */
static guint
count_sleepers (void)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *close_paren;
      int ppid = 0;
      char state;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      close_paren = strrchr (stat, ')');
      if (close_paren != NULL && sscanf (close_paren + 1, " %c %d", &state, &ppid) == 2
          && ppid == getpid () && strstr (stat, "(sleep)") != NULL)
        n++;
    }
  return n;
}

static gboolean
no_sleepers (gpointer data)
{
  return count_sleepers () == 0;
}

/* A read that stalls ends when the caller cancels, with "cancelled", and
 * its adb is gone; a read after the cancel starts none. */
static void
test_cancel (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  StalledRead s = { 0 };
  GThread *thread;
  gint64 start;
  guint8 buf[10];

  g_assert_true (g_file_set_contents (stall_file, "", 0, NULL));
  s.remote = adbscope_apk_remote_new ("fake-serial", apk, FILE_SIZE, cancellable);
  start = g_get_monotonic_time ();
  thread = g_thread_new ("stalled", stalled_thread, &s);
  g_timeout_add (300, cancel_later, cancellable);
  /* the read's own watchdog would take 20 s */
  adbscope_test_wait_until (read_done, &s, 15000, "the stalled read ends after the cancel");
  g_thread_join (thread);
  g_assert_false (s.ok);
  g_assert_error (s.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&s.error);
  g_test_message ("cancelled after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  /* The stalled adb was killed: GLib's worker reaps it a moment later
   * (on a loaded host not before this line runs). */
  adbscope_test_wait_until (no_sleepers, NULL, 10000, "the cancelled read's adb is gone");

  /* Already cancelled: fails at once, whatever adb would do. */
  start = g_get_monotonic_time ();
  g_assert_false (adbscope_apk_remote_read (s.remote, 0, sizeof buf, buf, &s.error));
  g_assert_error (s.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&s.error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  g_assert_cmpuint (count_sleepers (), ==, 0);
  g_assert_cmpuint (adbscope_apk_remote_get_n_requests (s.remote), ==, 0);
  adbscope_apk_remote_free (s.remote);
  g_assert_cmpint (g_unlink (stall_file), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("adbscope-apk-remote-XXXXXX", NULL);
  g_assert_nonnull (dir);
  apk = g_build_filename (dir, "base.apk", NULL);
  stall_file = g_build_filename (dir, "stall", NULL);
  content = g_malloc (FILE_SIZE);
  for (gsize i = 0; i < FILE_SIZE; i++)
    content[i] = (guint8) g_random_int ();
  g_assert_true (g_file_set_contents (apk, (const char *) content, FILE_SIZE, NULL));
  write_adb ();

  g_test_add_func ("/apk-remote/threads", test_threads);
  g_test_add_func ("/apk-remote/cancel", test_cancel);
  rc = g_test_run ();

  g_unlink (stall_file);
  g_unlink (apk);
  {
    g_autofree char *adb = g_build_filename (dir, "adb", NULL);

    g_unlink (adb);
  }
  g_rmdir (dir);
  g_free (content);
  return rc;
}
