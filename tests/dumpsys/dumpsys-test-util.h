/* dumpsys-test-util.h: fixture loading for the dumpsys parser tests */
#pragma once

#include <string.h>

#include <glib.h>

/* Fixtures are read in place from ADBSCOPE_FIXTURES (tests/meson.build). */
static inline char *
load_fixture (const char *relpath,
              gsize      *len)
{
  const char *root = g_getenv ("ADBSCOPE_FIXTURES");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GMappedFile) file = NULL;
  char *text;

  /* Not g_file_get_contents(): GCC 12 takes the string it returns for a
   * pointer to a local and warns (-Wdangling-pointer) in every caller. */
  g_assert_nonnull (root);
  path = g_build_filename (root, relpath, NULL);
  file = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  bytes = g_mapped_file_get_bytes (file);
  *len = g_bytes_get_size (bytes);
  text = g_malloc (*len + 1);
  if (*len > 0)
    memcpy (text, g_bytes_get_data (bytes, NULL), *len);
  text[*len] = '\0';
  return text;
}

static inline int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/* Every *.txt in a fixture folder, sorted, so a new fixture cannot be
 * forgotten by the "every fixture parses" tests. */
static inline GPtrArray *
list_fixtures (const char *folder)
{
  const char *root = g_getenv ("ADBSCOPE_FIXTURES");
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (root);
  dir_path = g_build_filename (root, folder, NULL);
  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".txt"))
      g_ptr_array_add (names, g_build_filename (folder, name, NULL));
  g_ptr_array_sort (names, compare_paths);
  return names;
}

/* Deterministic junk for the garbage-input tests. */
static inline char *
random_bytes (guint32 seed,
              gsize   len)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  char *buf = g_malloc (len);

  for (gsize i = 0; i < len; i++)
    buf[i] = (char) g_rand_int_range (rand, 0, 256);
  return buf;
}
