/* adbscope-parse-sysfs.c: /sys/devices/system/cpu/… cpufreq files */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-sysfs.h"
#include "adbscope-parse-util-private.h"

#define MAX_CPUS 4096

gboolean
adbscope_sysfs_parse_u64 (const char  *text,
                          gssize       len,
                          guint64     *out,
                          GError     **error)
{
  const char *p, *t, *end;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "sysfs", error))
    return FALSE;
  end = text + len;
  p = _adbscope_skip_spaces (text, end);
  t = _adbscope_skip_token (p, end);
  if (!_adbscope_parse_u64 (p, t - p, out) || _adbscope_skip_spaces (t, end) != end)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("sysfs: expected one number"));
      return FALSE;
    }
  return TRUE;
}

GArray *
adbscope_sysfs_parse_u64_list (const char  *text,
                               gssize       len,
                               GError     **error)
{
  g_autoptr(GArray) list = NULL;
  const char *p, *end;

  if (!_adbscope_parse_check_input (text, &len, "sysfs", error))
    return NULL;

  list = g_array_new (FALSE, FALSE, sizeof (guint64));
  end = text + len;
  for (p = _adbscope_skip_spaces (text, end); p < end; p = _adbscope_skip_spaces (p, end))
    {
      const char *t = _adbscope_skip_token (p, end);
      guint64 v;

      if (!_adbscope_parse_u64 (p, t - p, &v))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("sysfs: expected a list of numbers"));
          return NULL;
        }
      g_array_append_val (list, v);
      p = t;
    }
  if (list->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("sysfs: empty list"));
      return NULL;
    }
  return g_steal_pointer (&list);
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

GArray *
adbscope_sysfs_parse_cpu_list (const char  *text,
                               gssize       len,
                               GError     **error)
{
  g_autoptr(GArray) cpus = NULL;
  const char *p, *end;
  guint i, out;

  if (!_adbscope_parse_check_input (text, &len, "sysfs cpu list", error))
    return NULL;

  cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  end = text + len;
  p = _adbscope_skip_spaces (text, end);
  while (p < end)
    {
      const char *q = p;
      guint64 lo, hi;

      while (q < end && g_ascii_isdigit (*q))
        q++;
      if (!_adbscope_parse_u64 (p, q - p, &lo))
        goto bad;
      hi = lo;
      if (q < end && *q == '-')
        {
          p = ++q;
          while (q < end && g_ascii_isdigit (*q))
            q++;
          if (!_adbscope_parse_u64 (p, q - p, &hi))
            goto bad;
        }
      if (hi < lo || hi >= MAX_CPUS || cpus->len + (hi - lo) >= MAX_CPUS)
        goto bad;
      for (; lo <= hi; lo++)
        {
          guint c = (guint) lo;

          g_array_append_val (cpus, c);
        }
      p = q;
      if (p < end && *p == ',')
        p++;
      p = _adbscope_skip_spaces (p, end);
    }
  if (cpus->len == 0)
    goto bad;

  g_array_sort (cpus, compare_uint);
  for (i = 1, out = 1; i < cpus->len; i++)
    if (g_array_index (cpus, guint, i) != g_array_index (cpus, guint, out - 1))
      g_array_index (cpus, guint, out++) = g_array_index (cpus, guint, i);
  g_array_set_size (cpus, out);
  return g_steal_pointer (&cpus);

bad:
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
               _("sysfs: not a cpu list such as “0-3” or “0 1 2 3”"));
  return NULL;
}

static gboolean
parse_freq_time_line (const char       *line,
                      gsize             line_len,
                      AdbscopeFreqTime *ft)
{
  const char *end = line + line_len;
  const char *p = _adbscope_skip_spaces (line, end);
  const char *t = _adbscope_skip_token (p, end);
  const char *p2, *t2;

  if (!_adbscope_parse_u64 (p, t - p, &ft->freq_khz))
    return FALSE;
  p2 = _adbscope_skip_spaces (t, end);
  t2 = _adbscope_skip_token (p2, end);
  return _adbscope_parse_u64 (p2, t2 - p2, &ft->time_10ms) && _adbscope_skip_spaces (t2, end) == end;
}

GArray *
adbscope_sysfs_parse_time_in_state (const char  *text,
                                    gssize       len,
                                    GError     **error)
{
  g_autoptr(GArray) table = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (!_adbscope_parse_check_input (text, &len, "time_in_state", error))
    return NULL;

  table = g_array_new (FALSE, FALSE, sizeof (AdbscopeFreqTime));
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      AdbscopeFreqTime ft;

      if (_adbscope_skip_spaces (line, line + line_len) == line + line_len)
        continue;
      if (!parse_freq_time_line (line, line_len, &ft))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("time_in_state: line %u is not “FREQ TIME”"), iter.line_no);
          return NULL;
        }
      g_array_append_val (table, ft);
    }
  if (table->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("time_in_state: no entry"));
      return NULL;
    }
  return g_steal_pointer (&table);
}

static void
policy_free (gpointer data)
{
  AdbscopePolicyTimeInState *p = data;

  g_clear_pointer (&p->table, g_array_unref);
  g_free (p);
}

GPtrArray *
adbscope_sysfs_parse_labelled_time_in_state (const char  *text,
                                             gssize       len,
                                             GError     **error)
{
  g_autoptr(GPtrArray) policies = NULL;
  AdbscopePolicyTimeInState *current = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  guint i;

  if (!_adbscope_parse_check_input (text, &len, "time_in_state", error))
    return NULL;

  policies = g_ptr_array_new_with_free_func (policy_free);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *end = line + line_len;
      const char *p = _adbscope_skip_spaces (line, end);
      AdbscopeFreqTime ft;
      guint64 cpu;

      if (p == end)
        continue;
      if (_adbscope_has_prefix_len (p, end - p, "cpu") || _adbscope_has_prefix_len (p, end - p, "policy"))
        {
          const char *num = p + (p[0] == 'c' ? 3 : 6);
          const char *t = _adbscope_skip_token (p, end);

          while (t > num && t[-1] == ':')
            t--;
          if (!_adbscope_parse_u64 (num, t - num, &cpu) || cpu >= MAX_CPUS)
            goto bad_line;
          current = g_new0 (AdbscopePolicyTimeInState, 1);
          current->cpu = (guint) cpu;
          current->table = g_array_new (FALSE, FALSE, sizeof (AdbscopeFreqTime));
          g_ptr_array_add (policies, current);
          continue;
        }
      if (current == NULL || !parse_freq_time_line (line, line_len, &ft))
        goto bad_line;
      g_array_append_val (current->table, ft);
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("time_in_state: line %u is neither “cpuN” nor “FREQ TIME”"), iter.line_no);
      return NULL;
    }

  if (policies->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("time_in_state: no “cpuN” section"));
      return NULL;
    }
  for (i = 0; i < policies->len; i++)
    {
      AdbscopePolicyTimeInState *p = g_ptr_array_index (policies, i);

      if (p->table->len == 0)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("time_in_state: section cpu%u is empty"), p->cpu);
          return NULL;
        }
    }
  return g_steal_pointer (&policies);
}

void
adbscope_cpu_cluster_free (AdbscopeCpuCluster *cluster)
{
  if (cluster == NULL)
    return;
  g_clear_pointer (&cluster->cpus, g_array_unref);
  g_free (cluster);
}

static int
compare_clusters (gconstpointer a,
                  gconstpointer b)
{
  const AdbscopeCpuCluster *x = *(AdbscopeCpuCluster * const *) a;
  const AdbscopeCpuCluster *y = *(AdbscopeCpuCluster * const *) b;

  return compare_uint (&g_array_index (x->cpus, guint, 0), &g_array_index (y->cpus, guint, 0));
}

static char *
cluster_key (const AdbscopeCpuFreqInfo *ci)
{
  GString *key = g_string_new (NULL);
  guint i;

  if (ci->related_cpus != NULL && ci->related_cpus->len > 0)
    for (i = 0; i < ci->related_cpus->len; i++)
      g_string_append_printf (key, "%u,", g_array_index (ci->related_cpus, guint, i));
  else
    g_string_append_printf (key, "max=%" G_GUINT64_FORMAT, ci->max_freq_khz);
  return g_string_free (key, FALSE);
}

GPtrArray *
adbscope_cpu_clusters_build (const AdbscopeCpuFreqInfo *info,
                             guint                      n_info)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *clusters = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_cpu_cluster_free);
  guint i;

  g_return_val_if_fail (info != NULL || n_info == 0, clusters);

  for (i = 0; i < n_info; i++)
    {
      g_autofree char *key = cluster_key (&info[i]);
      AdbscopeCpuCluster *c = g_hash_table_lookup (by_key, key);
      guint k;
      gboolean have = FALSE;

      if (c == NULL)
        {
          c = g_new0 (AdbscopeCpuCluster, 1);
          c->cpus = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (clusters, c);
          g_hash_table_insert (by_key, g_steal_pointer (&key), c);
        }
      for (k = 0; k < c->cpus->len; k++)
        have |= g_array_index (c->cpus, guint, k) == info[i].cpu;
      if (!have)
        g_array_append_val (c->cpus, info[i].cpu);
      c->max_freq_khz = MAX (c->max_freq_khz, info[i].max_freq_khz);
    }

  for (i = 0; i < clusters->len; i++)
    {
      AdbscopeCpuCluster *c = g_ptr_array_index (clusters, i);

      g_array_sort (c->cpus, compare_uint);
    }
  g_ptr_array_sort (clusters, compare_clusters);
  return clusters;
}

/* Policies are named after their first cpu and cover the cpus up to the
 * next policy (cpufreq numbers cores cluster by cluster). */
GPtrArray *
adbscope_cpu_clusters_from_policies (GPtrArray *policies,
                                     guint      n_cpus)
{
  g_autofree AdbscopeCpuFreqInfo *info = NULL;
  g_autoptr(GPtrArray) related = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint i, n = 0;

  g_return_val_if_fail (policies != NULL, NULL);

  info = g_new0 (AdbscopeCpuFreqInfo, MAX (n_cpus, 1));
  for (i = 0; i < policies->len; i++)
    {
      AdbscopePolicyTimeInState *p = g_ptr_array_index (policies, i);
      guint last = i + 1 < policies->len
                   ? ((AdbscopePolicyTimeInState *) g_ptr_array_index (policies, i + 1))->cpu
                   : n_cpus;
      GArray *rel = g_array_new (FALSE, FALSE, sizeof (guint));
      guint64 max = 0;
      guint c, k;

      for (k = 0; k < p->table->len; k++)
        max = MAX (max, g_array_index (p->table, AdbscopeFreqTime, k).freq_khz);
      for (c = p->cpu; c < last && c < n_cpus; c++)
        g_array_append_val (rel, c);
      g_ptr_array_add (related, rel);
      for (c = p->cpu; c < last && c < n_cpus && n < n_cpus; c++)
        {
          info[n].cpu = c;
          info[n].related_cpus = rel;
          info[n].max_freq_khz = max;
          n++;
        }
    }
  return adbscope_cpu_clusters_build (info, n);
}

double
adbscope_cpu_freq_normalise (double         usage_pct,
                             const guint64 *cur_khz,
                             const guint64 *max_khz,
                             guint          n_cpus)
{
  double sum_cur = 0, sum_max = 0;
  guint i;

  if (isnan (usage_pct) || cur_khz == NULL || max_khz == NULL)
    return NAN;
  for (i = 0; i < n_cpus; i++)
    if (cur_khz[i] > 0 && max_khz[i] > 0)
      {
        sum_cur += (double) MIN (cur_khz[i], max_khz[i]);
        sum_max += (double) max_khz[i];
      }
  if (sum_max <= 0)
    return NAN;
  return usage_pct * sum_cur / sum_max;
}
