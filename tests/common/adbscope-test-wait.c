/* adbscope-test-wait.c: see adbscope-test-wait.h */
#include "adbscope-test-wait.h"

#include <glib/gstdio.h>

#define BACKOFF_FIRST_MS 1
#define BACKOFF_MAX_MS   50

static gboolean
backoff_done (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* One step of waiting: up to ms, returning early when the main context
 * dispatched something (which may have made the condition true). */
static void
wait_step (guint ms)
{
  GMainContext *context = g_main_context_get_thread_default ();
  gboolean fired = FALSE;
  GSource *timer;

  if (context == NULL)
    context = g_main_context_default ();
  if (!g_main_context_acquire (context))
    {
      /* Another thread runs this context: just poll. */
      g_usleep ((gulong) ms * 1000);
      return;
    }
  timer = g_timeout_source_new (ms);
  g_source_set_callback (timer, backoff_done, &fired, NULL);
  g_source_attach (timer, context);
  g_main_context_iteration (context, TRUE);
  g_source_destroy (timer);
  g_source_unref (timer);
  g_main_context_release (context);
}

gboolean
adbscope_test_poll_until (AdbscopeTestCondFunc cond,
                          gpointer             data,
                          guint                timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint backoff = BACKOFF_FIRST_MS;

  while (!cond (data))
    {
      gint64 left_ms = (deadline - g_get_monotonic_time ()) / 1000;

      if (left_ms <= 0)
        return cond (data);
      wait_step (MIN (backoff, (guint) left_ms + 1));
      backoff = MIN (backoff * 2, BACKOFF_MAX_MS);
    }
  return TRUE;
}

void
adbscope_test_wait_until (AdbscopeTestCondFunc  cond,
                          gpointer              data,
                          guint                 timeout_ms,
                          const char           *what)
{
  gint64 t0 = g_get_monotonic_time ();

  if (!adbscope_test_poll_until (cond, data, timeout_ms))
    g_error ("timed out after %u ms waiting until %s", timeout_ms, what);
  if (g_test_initialized () && g_get_monotonic_time () - t0 > 100 * 1000)
    g_test_message ("waited %.2f s until %s",
                    (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC, what);
}

gboolean
adbscope_test_file_not_empty (gpointer path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 && st.st_size > 0;
}

guint
adbscope_test_count_lines (const char *path)
{
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

typedef struct
{
  const char *path;
  guint       n;
} Lines;

static gboolean
has_lines (gpointer data)
{
  Lines *l = data;

  return adbscope_test_count_lines (l->path) >= l->n;
}

void
adbscope_test_wait_lines (const char *path,
                          guint       n,
                          guint       timeout_ms)
{
  Lines l = { path, n };

  if (!adbscope_test_poll_until (has_lines, &l, timeout_ms))
    g_error ("timed out after %u ms waiting until %s has %u lines (it has %u)",
             timeout_ms, path, n, adbscope_test_count_lines (path));
}
