/* adbscope-delta.c: values across two samples (the rules are in the header) */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-delta.h"

/**
 * adbscope_delta_interval:
 *
 * Returns: Δ device uptime in seconds, NaN when shorter than
 *   ADBSCOPE_DELTA_MIN_WINDOW_S (a late answer right after the one
 *   before, the same reading twice, a device that rebooted in between)
 */
double
adbscope_delta_interval (double uptime_before_s,
                         double uptime_after_s)
{
  double dt = uptime_after_s - uptime_before_s;

  /* uptime has centisecond digits: 100.10 − 100.00 is 0.0999… in binary */
  return isfinite (dt) && dt >= ADBSCOPE_DELTA_MIN_WINDOW_S - 1e-9 ? dt : NAN;
}

static void
split_idle_busy (const AdbscopeCpuTicks *t,
                 guint64                *idle,
                 guint64                *busy)
{
  *idle = t->ticks[ADBSCOPE_CPU_TICK_IDLE] + t->ticks[ADBSCOPE_CPU_TICK_IOWAIT];
  *busy = t->ticks[ADBSCOPE_CPU_TICK_USER] + t->ticks[ADBSCOPE_CPU_TICK_NICE]
          + t->ticks[ADBSCOPE_CPU_TICK_SYSTEM] + t->ticks[ADBSCOPE_CPU_TICK_IRQ]
          + t->ticks[ADBSCOPE_CPU_TICK_SOFTIRQ] + t->ticks[ADBSCOPE_CPU_TICK_STEAL];
}

/* Idle and iowait are summed before the Δ because iowait alone may go
 * backwards (proc(5)).  Anything else going backwards means the core was
 * unplugged and its counters restarted: no value for this interval. */
static gboolean
ticks_delta (const AdbscopeCpuTicks *a,
             const AdbscopeCpuTicks *b,
             guint64                *d_busy,
             guint64                *d_all)
{
  guint64 idle_a, busy_a, idle_b, busy_b;

  split_idle_busy (a, &idle_a, &busy_a);
  split_idle_busy (b, &idle_b, &busy_b);
  if (idle_b < idle_a || busy_b < busy_a)
    return FALSE;
  *d_busy = busy_b - busy_a;
  *d_all = (busy_b - busy_a) + (idle_b - idle_a);
  return *d_all > 0;
}

static double
busy_pct (guint64 d_busy,
          guint64 d_all)
{
  double pct = 100.0 * (double) d_busy / (double) d_all;

  return CLAMP (pct, 0.0, 100.0);
}

void
adbscope_cpu_usage_free (AdbscopeCpuUsage *usage)
{
  if (usage == NULL)
    return;
  g_free (usage->cpu_pct);
  g_free (usage);
}

AdbscopeCpuUsage *
adbscope_delta_cpu (const AdbscopeProcStat *before,
                    const AdbscopeProcStat *after)
{
  AdbscopeCpuUsage *usage;
  guint64 d_busy, d_all;
  guint64 sum_busy = 0, sum_all = 0;
  int max_cpu = -1;
  guint i;

  g_return_val_if_fail (before != NULL, NULL);
  g_return_val_if_fail (after != NULL, NULL);

  if (before->cpus->len > 0)
    max_cpu = g_array_index (before->cpus, AdbscopeCpuTicks, before->cpus->len - 1).cpu;
  if (after->cpus->len > 0)
    max_cpu = MAX (max_cpu, g_array_index (after->cpus, AdbscopeCpuTicks, after->cpus->len - 1).cpu);

  usage = g_new0 (AdbscopeCpuUsage, 1);
  usage->n_cpus = max_cpu + 1;
  usage->cpu_pct = g_new (double, MAX (usage->n_cpus, 1));
  for (i = 0; i < usage->n_cpus; i++)
    usage->cpu_pct[i] = NAN;

  for (i = 0; i < after->cpus->len; i++)
    {
      const AdbscopeCpuTicks *b = &g_array_index (after->cpus, AdbscopeCpuTicks, i);
      const AdbscopeCpuTicks *a = adbscope_proc_stat_lookup_cpu (before, b->cpu);

      if (a != NULL && ticks_delta (a, b, &d_busy, &d_all))
        {
          usage->cpu_pct[b->cpu] = busy_pct (d_busy, d_all);
          sum_busy += d_busy;
          sum_all += d_all;
        }
    }

  if (ticks_delta (&before->total, &after->total, &d_busy, &d_all))
    {
      usage->total_pct = busy_pct (d_busy, d_all);
      usage->total_delta = d_all;
    }
  else if (sum_all > 0)
    {
      /* Old kernels sum only online cores into "cpu", which then drops
       * when a core goes offline; the cores that stayed are still good. */
      usage->total_pct = busy_pct (sum_busy, sum_all);
      usage->total_delta = sum_all;
    }
  else
    {
      usage->total_pct = NAN;
      usage->total_delta = 0;
    }

  return usage;
}


/* One process across two readings: same pid and same start time. */
gboolean
adbscope_delta_same_process (const AdbscopePidStat *before,
                             const AdbscopePidStat *after)
{
  g_return_val_if_fail (before != NULL, FALSE);
  g_return_val_if_fail (after != NULL, FALSE);

  return before->pid == after->pid && before->starttime == after->starttime;
}

double
adbscope_delta_process_cpu_pct (const AdbscopePidStat *before,
                                const AdbscopePidStat *after,
                                guint64                total_delta_ticks)
{
  guint64 a, b;

  g_return_val_if_fail (before != NULL, NAN);
  g_return_val_if_fail (after != NULL, NAN);

  if (!adbscope_delta_same_process (before, after) || total_delta_ticks == 0)
    return NAN;
  a = before->utime + before->stime;
  b = after->utime + after->stime;
  if (b < a)
    return NAN;
  return CLAMP (100.0 * (double) (b - a) / (double) total_delta_ticks, 0.0, 100.0);
}

GArray *
adbscope_delta_threads (const GArray *before,
                        const GArray *after,
                        double        interval_s)
{
  g_autoptr(GHashTable) by_tid = NULL;
  double wall_ticks = interval_s * ADBSCOPE_USER_HZ;
  GArray *usage;
  guint i;

  g_return_val_if_fail (before != NULL, NULL);
  g_return_val_if_fail (after != NULL, NULL);

  usage = g_array_new (FALSE, TRUE, sizeof (AdbscopeThreadUsage));
  if (!(wall_ticks > 0) || !isfinite (wall_ticks))
    return usage;

  by_tid = g_hash_table_new (NULL, NULL);
  for (i = 0; i < before->len; i++)
    {
      const AdbscopePidStat *st = &g_array_index (before, AdbscopePidStat, i);

      g_hash_table_insert (by_tid, GINT_TO_POINTER (st->pid), (gpointer) st);
    }

  for (i = 0; i < after->len; i++)
    {
      const AdbscopePidStat *b = &g_array_index (after, AdbscopePidStat, i);
      const AdbscopePidStat *a = g_hash_table_lookup (by_tid, GINT_TO_POINTER (b->pid));
      AdbscopeThreadUsage u = { 0, };
      guint64 ta, tb;

      /* A tid can be reused by a new thread: the start time tells them apart. */
      if (a == NULL || a->starttime != b->starttime)
        continue;
      ta = a->utime + a->stime;
      tb = b->utime + b->stime;
      if (tb < ta)
        continue;
      u.tid = b->pid;
      memcpy (u.comm, b->comm, sizeof u.comm);
      u.delta_ticks = tb - ta;
      u.pct = 100.0 * (double) u.delta_ticks / wall_ticks;
      g_array_append_val (usage, u);
    }
  return usage;
}

/**
 * adbscope_delta_rate:
 *
 * Returns: (@after − @before) / @interval_s, NaN when the counter went
 *   back or the interval is not positive
 */
double
adbscope_delta_rate (guint64 before,
                     guint64 after,
                     double  interval_s)
{
  if (after < before || !(interval_s > 0) || !isfinite (interval_s))
    return NAN;
  return (double) (after - before) / interval_s;
}

/**
 * adbscope_delta_net_rates:
 * @before: (element-type AdbscopeNetDev): the previous /proc/net/dev
 * @after: (element-type AdbscopeNetDev): this one
 * @rx_total: (out): bytes/s received over every interface but lo
 * @tx_total: (out): bytes/s sent over every interface but lo
 *
 * An interface in only one reading, or whose counters went back, has no
 * rate this interval.
 *
 * Returns: (element-type AdbscopeNetRate): each interface's rates
 */
GArray *
adbscope_delta_net_rates (const GArray *before,
                          const GArray *after,
                          double        interval_s,
                          double       *rx_total,
                          double       *tx_total)
{
  GArray *rates = g_array_new (FALSE, TRUE, sizeof (AdbscopeNetRate));

  g_return_val_if_fail (before != NULL && after != NULL, rates);

  *rx_total = *tx_total = 0;
  for (guint i = 0; i < after->len; i++)
    {
      const AdbscopeNetDev *cur = &g_array_index (after, AdbscopeNetDev, i);

      for (guint j = 0; j < before->len; j++)
        {
          const AdbscopeNetDev *old = &g_array_index (before, AdbscopeNetDev, j);
          AdbscopeNetRate rate = { { 0 }, 0, 0 };

          if (strcmp (old->name, cur->name) != 0)
            continue;
          rate.rx_bytes_per_s = adbscope_delta_rate (old->rx_bytes, cur->rx_bytes, interval_s);
          rate.tx_bytes_per_s = adbscope_delta_rate (old->tx_bytes, cur->tx_bytes, interval_s);
          if (!isfinite (rate.rx_bytes_per_s) || !isfinite (rate.tx_bytes_per_s))
            break;
          g_strlcpy (rate.name, cur->name, sizeof rate.name);
          g_array_append_val (rates, rate);
          if (strcmp (cur->name, "lo") != 0)
            {
              *rx_total += rate.rx_bytes_per_s;
              *tx_total += rate.tx_bytes_per_s;
            }
          break;
        }
    }
  if (!(interval_s > 0))
    *rx_total = *tx_total = NAN;
  return rates;
}

/**
 * adbscope_delta_counter:
 *
 * Returns: the growth of a cumulative count, at least 0; -1 when either
 *   reading is unknown (negative)
 */
gint64
adbscope_delta_counter (gint64 before,
                        gint64 after)
{
  if (before < 0 || after < 0)
    return -1;
  return MAX (0, after - before);
}

/**
 * adbscope_delta_fps:
 * @interval_s: Δ of the dumps' own uptime
 * @last_vsync_before_ns: IntendedVsync of the newest frame in the previous
 *   dump, 0 or less when unknown
 * @last_vsync_after_ns: the same in this dump
 *
 * Returns: frames per second over the span the counted frames cover, NaN
 *   without a span or when the counter went back
 */
double
adbscope_delta_fps (gint64 frames_before,
                    gint64 frames_after,
                    double interval_s,
                    gint64 last_vsync_before_ns,
                    gint64 last_vsync_after_ns)
{
  double span = isfinite (interval_s) ? interval_s : 0;

  if (frames_after < frames_before || frames_before < 0)
    return NAN;
  if (last_vsync_before_ns > 0 && last_vsync_after_ns > last_vsync_before_ns)
    span = MAX (span, (last_vsync_after_ns - last_vsync_before_ns) / 1e9);
  if (!(span > 0))
    return NAN;
  return (frames_after - frames_before) / span;
}

/**
 * adbscope_delta_normalise:
 * @usage_pct: a CPU share (system or app)
 * @cur_freq_khz: (array length=n_cores): current frequency, NaN unreadable
 * @max_freq_khz: (array length=n_cores) (nullable): from the probe
 *
 * Returns: @usage_pct × Σ cur / Σ max over the cores with a maximum; NaN
 *   when one of them has no current frequency, or none has a maximum
 */
double
adbscope_delta_normalise (double        usage_pct,
                          const double *cur_freq_khz,
                          const double *max_freq_khz,
                          guint         n_cores)
{
  double cur = 0, max = 0;

  if (max_freq_khz == NULL || cur_freq_khz == NULL || !isfinite (usage_pct))
    return NAN;
  for (guint i = 0; i < n_cores; i++)
    {
      if (!(max_freq_khz[i] > 0))
        continue;
      if (!(cur_freq_khz[i] > 0))
        return NAN;
      cur += cur_freq_khz[i];
      max += max_freq_khz[i];
    }
  return max > 0 ? usage_pct * cur / max : NAN;
}
