/* parsers-test-util.h: fixture access for the parser tests
 *
 * Fixtures are read in place from $ADBSCOPE_FIXTURES (tests/meson.build sets
 * it).  A missing fixture fails the test: it never turns into a skip.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "adbscope-error.h"

static inline char *
fixture_read (const char *relpath,
              gsize      *len)
{
  const char *dir = g_getenv ("ADBSCOPE_FIXTURES");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize n = 0;

  if (dir == NULL)
    g_error ("ADBSCOPE_FIXTURES is not set; run through meson test");
  path = g_build_filename (dir, relpath, NULL);
  if (!g_file_get_contents (path, &data, &n, &error))
    g_error ("cannot read fixture %s: %s", path, error->message);
  if (len)
    *len = n;
  return data;
}

static inline char *
host_read (const char *path,
           gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  if (!g_file_get_contents (path, &data, len, &error))
    g_error ("cannot read %s: %s", path, error->message);
  return data;
}

/* The capturing script of the flashlight task-stat samples put the epoch in
 * ms on the first line; it is not /proc content. */
static inline gsize
first_line_length (const char *text,
                   gint64     *first_value)
{
  gsize n = strcspn (text, "\n");

  g_assert_cmpint (text[n], ==, '\n');
  if (first_value)
    *first_value = g_ascii_strtoll (text, NULL, 10);
  return n + 1;
}

#define assert_parse_error(err) \
  G_STMT_START { \
    g_assert_error ((err), ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE); \
    g_assert_cmpuint (strlen ((err)->message), >, 8); \
  } G_STMT_END
