/* adbscope-stats.c: the one sort comparator and the one percentile rule */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adbscope-stats.h"

/**
 * adbscope_compare_double:
 *
 * Ascending order of two doubles for qsort()/g_array_sort().  NaN is not
 * ordered: callers sort finite values only.
 */
int
adbscope_compare_double (gconstpointer a,
                         gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/**
 * adbscope_percentile_nearest_rank:
 * @sorted: ascending finite values
 * @p: percentile, 0 to 100
 *
 * Nearest rank: the smallest value such that at least @p % of the values
 * are at or below it, i.e. sorted[ceil(p/100 × n) − 1].  It is always a
 * value that was measured (a frame time that happened), which is what a
 * report reader expects; p50 of 1..100 is 50, p90 is 90, p99 is 99.
 *
 * Returns: the percentile, or NaN when @n is 0
 */
double
adbscope_percentile_nearest_rank (const double *sorted,
                                  gsize         n,
                                  double        p)
{
  double rank;
  gsize index_;

  if (n == 0)
    return NAN;

  /* p × n first keeps integer products exact; the epsilon keeps a rank
   * like 29.000000001 from rounding up to 30. */
  rank = ceil (p * (double) n / 100.0 - 1e-9);
  index_ = rank < 1.0 ? 0 : (gsize) rank - 1;

  return sorted[MIN (index_, n - 1)];
}

/**
 * adbscope_sorted_merge:
 * @sorted: (element-type double): ascending
 * @values: (array length=n_values): new values in any order, finite
 *
 * Adds @values to @sorted keeping it ascending: the few new values are
 * sorted and merged from the end, O(length) per call instead of a sort of
 * the whole growing array.
 */
void
adbscope_sorted_merge (GArray       *sorted,
                       const double *values,
                       guint         n_values)
{
  g_autofree double *add = NULL;
  guint n_old, i, j, k;
  double *d;

  g_return_if_fail (sorted != NULL);
  g_return_if_fail (g_array_get_element_size (sorted) == sizeof (double));

  if (n_values == 0)
    return;
  add = g_memdup2 (values, sizeof (double) * n_values);
  qsort (add, n_values, sizeof (double), adbscope_compare_double);

  n_old = sorted->len;
  g_array_set_size (sorted, n_old + n_values);
  d = (double *) (gpointer) sorted->data;
  i = n_old;      /* old values left, from the end */
  j = n_values;   /* new values left */
  k = n_old + n_values;
  while (j > 0)
    {
      if (i > 0 && d[i - 1] > add[j - 1])
        d[--k] = d[--i];
      else
        d[--k] = add[--j];
    }
}
