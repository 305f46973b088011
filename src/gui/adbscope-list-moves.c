/* adbscope-list-moves.c: how many items a reorder of a list moved */
#include "config.h"

#include "adbscope-list-moves.h"

/**
 * adbscope_list_moves_count:
 * @before: (array length=n): the items in their old order
 * @after: (array length=n): the same items in their new order
 * @n: how many
 *
 * The fewest items that must be taken out and put back elsewhere to turn
 * @before into @after: all but a longest run of items (not necessarily
 * adjacent) that kept their order, found by patience sorting in
 * O(n log n).  An item of @after missing from @before counts as moved.
 *
 * Returns: how many items moved
 */
guint
adbscope_list_moves_count (gconstpointer const *before,
                           gconstpointer const *after,
                           guint                n)
{
  g_autoptr(GHashTable) old_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree guint *tails = g_new (guint, MAX (n, 1));
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    g_hash_table_insert (old_index, (gpointer) before[i], GUINT_TO_POINTER (i + 1));
  /* tails[k]: the smallest old index ending a kept run of length k + 1 */
  for (guint i = 0; i < n; i++)
    {
      guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (old_index, after[i]));
      guint lo = 0, hi = kept;

      if (idx == 0)
        continue;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (tails[mid] < idx)
            lo = mid + 1;
          else
            hi = mid;
        }
      tails[lo] = idx;
      if (lo == kept)
        kept++;
    }
  return n - kept;
}
