/* agent-check.h: assertions and a test runner for the agent tests that
 * build without GLib (the parsers' and the engine's in-memory tests), so
 * the same sources cross-build for the phones' CPUs (agent/cross/) where
 * only libc and protobuf-c are installed.  Header only.
 *
 * A failed check prints FILE:LINE, the expression and both values, and
 * aborts (the test binary fails, as with g_assert).  check_run() runs the
 * named tests in order, or only those whose path starts with the argument
 * of -p, and prints one TAP line per test. */
#pragma once

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

typedef struct {
  const char *path;
  void      (*func) (void);
} CheckTest;

__attribute__ ((noreturn, format (printf, 3, 4)))
static inline void
check_fail (const char *file,
            int         line,
            const char *format,
            ...)
{
  va_list ap;

  fflush (stdout);
  fprintf (stderr, "%s:%d: check failed: ", file, line);
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
  fputc ('\n', stderr);
  abort ();
}

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond))                                                           \
      check_fail (__FILE__, __LINE__, "%s", #cond);                        \
  } while (0)

#define CHECK_CMPINT(a, op, b)                                             \
  do {                                                                     \
    long long check_a_ = (long long) (a), check_b_ = (long long) (b);      \
    if (!(check_a_ op check_b_))                                           \
      check_fail (__FILE__, __LINE__, "%s %s %s (%lld %s %lld)",           \
                  #a, #op, #b, check_a_, #op, check_b_);                   \
  } while (0)

#define CHECK_CMPUINT(a, op, b)                                            \
  do {                                                                     \
    unsigned long long check_a_ = (unsigned long long) (a);                \
    unsigned long long check_b_ = (unsigned long long) (b);                \
    if (!(check_a_ op check_b_))                                           \
      check_fail (__FILE__, __LINE__, "%s %s %s (%llu %s %llu)",           \
                  #a, #op, #b, check_a_, #op, check_b_);                   \
  } while (0)

#define CHECK_CMPHEX(a, op, b)                                             \
  do {                                                                     \
    unsigned long long check_a_ = (unsigned long long) (a);                \
    unsigned long long check_b_ = (unsigned long long) (b);                \
    if (!(check_a_ op check_b_))                                           \
      check_fail (__FILE__, __LINE__, "%s %s %s (%#llx %s %#llx)",         \
                  #a, #op, #b, check_a_, #op, check_b_);                   \
  } while (0)

#define CHECK_CMPSTR(a, op, b)                                             \
  do {                                                                     \
    const char *check_a_ = (a), *check_b_ = (b);                           \
    if (check_a_ == NULL || check_b_ == NULL                               \
        || !(strcmp (check_a_, check_b_) op 0))                            \
      check_fail (__FILE__, __LINE__, "%s %s %s (\"%s\" %s \"%s\")",       \
                  #a, #op, #b, check_a_ ? check_a_ : "(null)", #op,        \
                  check_b_ ? check_b_ : "(null)");                         \
  } while (0)

#define CHECK_CMPMEM(a, alen, b, blen)                                     \
  do {                                                                     \
    size_t check_al_ = (size_t) (alen), check_bl_ = (size_t) (blen);       \
    if (check_al_ != check_bl_)                                            \
      check_fail (__FILE__, __LINE__, "len (%s) == len (%s) (%zu == %zu)", \
                  #a, #b, check_al_, check_bl_);                           \
    if (check_al_ > 0 && memcmp ((a), (b), check_al_) != 0)                \
      check_fail (__FILE__, __LINE__, "%s == %s (%zu bytes differ)",       \
                  #a, #b, check_al_);                                      \
  } while (0)

/* xorshift32: the same sequence on every CPU, so a failure on one target
 * reproduces on another. */
static inline uint32_t
check_rand (uint32_t *state)
{
  uint32_t x = *state ? *state : 0x9e3779b9u;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* A number in [lo, hi). */
static inline uint32_t
check_rand_range (uint32_t *state,
                  uint32_t  lo,
                  uint32_t  hi)
{
  return lo + check_rand (state) % (hi - lo);
}

static inline void *
check_malloc (size_t len)
{
  void *p = malloc (len ? len : 1);

  if (p == NULL)
    check_fail (__FILE__, __LINE__, "out of memory (%zu bytes)", len);
  return p;
}

/* The whole file, or NULL when it cannot be read. */
static inline uint8_t *
check_read_file (const char *path,
                 size_t     *len)
{
  FILE *f = fopen (path, "rb");
  uint8_t *data = NULL;
  size_t cap = 0, n = 0;

  if (f == NULL)
    return NULL;
  for (;;)
    {
      size_t got;

      if (n == cap)
        {
          uint8_t *bigger;

          cap = cap ? cap * 2 : 4096;
          bigger = realloc (data, cap);
          if (bigger == NULL)
            {
              free (data);
              fclose (f);
              return NULL;
            }
          data = bigger;
        }
      got = fread (data + n, 1, cap - n, f);
      n += got;
      if (got == 0)
        break;
    }
  if (ferror (f))
    {
      free (data);
      data = NULL;
    }
  fclose (f);
  *len = n;
  return data;
}

/* $AGENT_TESTDATA/../DIR/NAME, read whole; a missing file fails the test. */
static inline uint8_t *
check_load (const char *dir,
            const char *name,
            size_t     *len)
{
  const char *base = getenv ("AGENT_TESTDATA");
  char path[4096];
  uint8_t *data;

  if (base == NULL)
    check_fail (__FILE__, __LINE__, "AGENT_TESTDATA is not set");
  snprintf (path, sizeof path, "%s/../%s/%s", base, dir, name);
  data = check_read_file (path, len);
  if (data == NULL)
    check_fail (__FILE__, __LINE__, "cannot read %s", path);
  return data;
}

static inline int
check_run (int              argc,
           char           **argv,
           const CheckTest *tests,
           size_t           n_tests)
{
  const char *only = NULL;
  size_t i, ran = 0;

  for (i = 1; i < (size_t) argc; i++)
    {
      if (strcmp (argv[i], "-p") == 0 && i + 1 < (size_t) argc)
        only = argv[++i];
      else
        {
          fprintf (stderr, "usage: %s [-p TESTPATH]\n", argv[0]);
          return 2;
        }
    }
  printf ("1..%zu\n", n_tests);
  for (i = 0; i < n_tests; i++)
    {
      if (only != NULL && strncmp (tests[i].path, only, strlen (only)) != 0)
        {
          printf ("ok %zu %s # SKIP not selected\n", i + 1, tests[i].path);
          continue;
        }
      printf ("# Start of %s\n", tests[i].path);
      fflush (stdout);
      tests[i].func ();
      printf ("ok %zu %s\n", i + 1, tests[i].path);
      fflush (stdout);
      ran++;
    }
  if (ran == 0)
    {
      fprintf (stderr, "no test matches %s\n", only ? only : "");
      return 1;
    }
  return 0;
}
