/* adbscope-test-wait.h: wait for a condition, never for a fixed time
 *
 * A test that needs something to have happened (a sample written, a file
 * there, a process gone) waits for exactly that: the condition is checked
 * at once, then again after every main-context dispatch or a short backoff
 * (1 ms doubling up to 50 ms), until it holds or the timeout passes.  On a
 * loaded host this takes as long as the thing takes, and on a quiet one no
 * longer.  Needs only GLib (agent/tests use it too).  The shell tests'
 * equivalent is tests/common/wait.sh.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef gboolean (*AdbscopeTestCondFunc) (gpointer data);

/* Waits until cond (data) is TRUE, for timeout_ms at most, iterating the
 * thread-default main context meanwhile when this thread can own it.  On a
 * timeout the test fails (g_error) with "timed out after N ms waiting
 * until WHAT"; returns only when cond held. */
void     adbscope_test_wait_until (AdbscopeTestCondFunc  cond,
                                   gpointer              data,
                                   guint                 timeout_ms,
                                   const char           *what);

/* The same, but a timeout is an answer, not a failure: returns whether
 * cond held (for "this must not happen within …" checks). */
gboolean adbscope_test_poll_until (AdbscopeTestCondFunc  cond,
                                   gpointer              data,
                                   guint                 timeout_ms);

/* A condition on a file: it exists and is not empty. */
gboolean adbscope_test_file_not_empty (gpointer path);

/* How many lines (newlines) the file at path has now; 0 if unreadable. */
guint    adbscope_test_count_lines    (const char *path);

/* Waits until the file at path has at least n lines (a streamed CSV's
 * header and n - 1 rows). */
void     adbscope_test_wait_lines     (const char *path,
                                       guint       n,
                                       guint       timeout_ms);

G_END_DECLS
