/* adbscope-stats.h: the one sort comparator and the one percentile rule
 *
 * Series statistics, the report's frame times, the measured interval and
 * the GUI's frame-time percentiles all use these two, so a p90 on screen is
 * the p90 in the report.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int    adbscope_compare_double          (gconstpointer  a,
                                         gconstpointer  b);
double adbscope_percentile_nearest_rank (const double  *sorted,
                                         gsize          n,
                                         double         p);
void   adbscope_sorted_merge            (GArray        *sorted,
                                         const double  *values,
                                         guint          n_values);

G_END_DECLS
