/* test-list-moves.c: adbscope_list_moves_count against a quadratic
 * longest-kept-run over random reorders, and cases worked by hand */
#include "config.h"

#include <glib.h>
#include <string.h>

#include "adbscope-list-moves.h"

static gconstpointer
item (guint i)
{
  return GUINT_TO_POINTER (i + 1);
}

/* n minus the longest subsequence of @after in @before's order, by the
 * textbook O(n²) dynamic programme. */
static guint
moves_slow (const guint *before_pos_of,
            const guint *after,
            guint        n)
{
  g_autofree guint *best = g_new0 (guint, MAX (n, 1));
  guint longest = 0;

  for (guint i = 0; i < n; i++)
    {
      best[i] = 1;
      for (guint j = 0; j < i; j++)
        if (before_pos_of[after[j]] < before_pos_of[after[i]])
          best[i] = MAX (best[i], best[j] + 1);
      longest = MAX (longest, best[i]);
    }
  return n - longest;
}

static guint
count (const guint *before,
       const guint *after,
       guint        n)
{
  g_autofree gconstpointer *b = g_new (gconstpointer, MAX (n, 1));
  g_autofree gconstpointer *a = g_new (gconstpointer, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      b[i] = item (before[i]);
      a[i] = item (after[i]);
    }
  return adbscope_list_moves_count (b, a, n);
}

static void
test_by_hand (void)
{
  guint id[] = { 0, 1, 2, 3, 4, 5 };
  guint last_first[] = { 5, 0, 1, 2, 3, 4 };
  guint reversed[] = { 5, 4, 3, 2, 1, 0 };
  guint two_swaps[] = { 1, 0, 2, 3, 5, 4 };

  g_assert_cmpuint (count (id, id, 0), ==, 0);
  g_assert_cmpuint (count (id, id, 6), ==, 0);
  g_assert_cmpuint (count (id, last_first, 6), ==, 1);
  g_assert_cmpuint (count (id, reversed, 6), ==, 5);
  g_assert_cmpuint (count (id, two_swaps, 6), ==, 2);
}

/* An item that was not there before counts as moved. */
static void
test_new_item (void)
{
  gconstpointer before[] = { item (0), item (1), item (2) };
  gconstpointer after[] = { item (0), item (9), item (2) };

  g_assert_cmpuint (adbscope_list_moves_count (before, after, 3), ==, 1);
}

static void
test_random_reorders (void)
{
  for (guint round = 0; round < 2000; round++)
    {
      guint n = g_test_rand_int_range (0, 80);
      g_autofree guint *before = g_new (guint, MAX (n, 1));
      g_autofree guint *after = g_new (guint, MAX (n, 1));
      g_autofree guint *pos_of = g_new (guint, MAX (n, 1));
      guint swaps = g_test_rand_int_range (0, MAX (n, 1) + 1);

      for (guint i = 0; i < n; i++)
        before[i] = after[i] = i;
      /* shuffle before fully, after only a little (as a re-sort does) */
      for (guint i = n; i > 1; i--)
        {
          guint j = g_test_rand_int_range (0, i), t = before[i - 1];

          before[i - 1] = before[j];
          before[j] = t;
        }
      memcpy (after, before, n * sizeof (guint));
      for (guint s = 0; s < swaps && n > 1; s++)
        {
          guint i = g_test_rand_int_range (0, n), j = g_test_rand_int_range (0, n), t = after[i];

          after[i] = after[j];
          after[j] = t;
        }
      for (guint i = 0; i < n; i++)
        pos_of[before[i]] = i;
      g_assert_cmpuint (count (before, after, n), ==, moves_slow (pos_of, after, n));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gui/list-moves/by-hand", test_by_hand);
  g_test_add_func ("/gui/list-moves/new-item", test_new_item);
  g_test_add_func ("/gui/list-moves/random-reorders", test_random_reorders);
  return g_test_run ();
}
