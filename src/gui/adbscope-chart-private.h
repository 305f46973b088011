/* adbscope-chart-private.h: what tests and benchmarks read off a chart */
#pragma once

#include "adbscope-chart.h"

G_BEGIN_DECLS

guint  _adbscope_chart_get_n_snapshots     (AdbscopeChart *self);
guint  _adbscope_chart_get_n_skipped       (AdbscopeChart *self);
gint64 _adbscope_chart_get_last_snapshot_us (AdbscopeChart *self);
GStrv  _adbscope_chart_dup_time_labels     (AdbscopeChart *self);

G_END_DECLS
