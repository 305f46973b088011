/* adbscope-parse-proc.c: /proc uptime, stat, meminfo, net/dev, pressure, PID stat and status, cpuinfo */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-proc.h"
#include "adbscope-parse-util-private.h"

#define MAX_TOKENS 64

typedef struct
{
  const char *p;
  gsize       len;
} Token;

/* Splits [p, end) on blanks into at most max tokens; returns the count. */
static guint
tokenize (const char *p,
          const char *end,
          Token      *tokens,
          guint       max)
{
  guint n = 0;

  for (;;)
    {
      const char *t;

      p = _adbscope_skip_spaces (p, end);
      if (p >= end || n == max)
        break;
      t = _adbscope_skip_token (p, end);
      tokens[n].p = p;
      tokens[n].len = t - p;
      n++;
      p = t;
    }
  return n;
}

static gboolean
token_u64 (const Token *t,
           guint64     *out)
{
  return _adbscope_parse_u64 (t->p, t->len, out);
}

static gboolean
token_i64 (const Token *t,
           gint64      *out)
{
  return _adbscope_parse_i64 (t->p, t->len, out);
}

static gboolean
token_is (const Token *t,
          const char  *word)
{
  gsize n = strlen (word);

  return t->len == n && memcmp (t->p, word, n) == 0;
}

/* ---------------------------------------------------------------- uptime */

gboolean
adbscope_proc_parse_uptime (const char  *text,
                            gssize       len,
                            double      *uptime_s,
                            double      *idle_s,
                            GError     **error)
{
  Token tok[3];
  guint n;
  double up = 0, idle = 0;

  if (!_adbscope_parse_check_input (text, &len, "/proc/uptime", error))
    return FALSE;

  n = tokenize (text, text + len, tok, G_N_ELEMENTS (tok));
  if (n < 1 || n > 2
      || !_adbscope_parse_double (tok[0].p, tok[0].len, &up) || up < 0
      || (n == 2 && !_adbscope_parse_double (tok[1].p, tok[1].len, &idle)))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/uptime: expected “SECONDS IDLE_SECONDS”"));
      return FALSE;
    }
  if (uptime_s)
    *uptime_s = up;
  if (idle_s)
    *idle_s = idle;
  return TRUE;
}

/* ------------------------------------------------------------------ stat */

void
adbscope_proc_stat_free (AdbscopeProcStat *stat)
{
  if (stat == NULL)
    return;
  g_clear_pointer (&stat->cpus, g_array_unref);
  g_free (stat);
}

static int
compare_cpu_ticks (gconstpointer a,
                   gconstpointer b)
{
  const AdbscopeCpuTicks *x = a, *y = b;

  return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

AdbscopeProcStat *
adbscope_proc_parse_stat (const char  *text,
                          gssize       len,
                          GError     **error)
{
  g_autoptr(AdbscopeProcStat) stat = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  gboolean have_total = FALSE;
  guint i;

  if (!_adbscope_parse_check_input (text, &len, "/proc/stat", error))
    return NULL;

  stat = g_new0 (AdbscopeProcStat, 1);
  stat->cpus = g_array_new (FALSE, TRUE, sizeof (AdbscopeCpuTicks));

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      Token tok[16];
      guint n = tokenize (line, line + line_len, tok, G_N_ELEMENTS (tok));

      if (n == 0)
        continue;

      if (tok[0].len >= 3 && memcmp (tok[0].p, "cpu", 3) == 0)
        {
          AdbscopeCpuTicks t = { 0, };
          guint64 cpu_no = 0;
          guint k;

          if (tok[0].len == 3)
            t.cpu = -1;
          else if (_adbscope_parse_u64 (tok[0].p + 3, tok[0].len - 3, &cpu_no) && cpu_no < 65536)
            t.cpu = (int) cpu_no;
          else
            goto bad_line;

          /* user nice system idle are in every kernel; iowait (2.5.41),
           * irq/softirq (2.6.0), steal (2.6.11), guest (2.6.24) and
           * guest_nice (2.6.33) came later. */
          if (n < 5 || n > 11)
            goto bad_line;
          t.n_fields = n - 1;
          for (k = 1; k < n; k++)
            {
              guint64 v;

              if (!token_u64 (&tok[k], &v))
                goto bad_line;
              if (k - 1 < ADBSCOPE_CPU_TICK_N)
                t.ticks[k - 1] = v;
            }

          if (t.cpu < 0)
            {
              if (have_total)
                goto bad_line;
              stat->total = t;
              have_total = TRUE;
            }
          else
            g_array_append_val (stat->cpus, t);
        }
      else if (token_is (&tok[0], "ctxt"))
        {
          if (n != 2 || !token_u64 (&tok[1], &stat->ctxt))
            goto bad_line;
          stat->has_ctxt = TRUE;
        }
      else if (token_is (&tok[0], "procs_running"))
        {
          if (n != 2 || !token_u64 (&tok[1], &stat->procs_running))
            goto bad_line;
          stat->has_procs_running = TRUE;
        }
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/stat: line %u is malformed"), iter.line_no);
      return NULL;
    }

  if (!have_total)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/stat: no aggregate “cpu” line"));
      return NULL;
    }

  g_array_sort (stat->cpus, compare_cpu_ticks);
  for (i = 1; i < stat->cpus->len; i++)
    if (g_array_index (stat->cpus, AdbscopeCpuTicks, i).cpu
        == g_array_index (stat->cpus, AdbscopeCpuTicks, i - 1).cpu)
      {
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("/proc/stat: cpu%d appears twice"),
                     g_array_index (stat->cpus, AdbscopeCpuTicks, i).cpu);
        return NULL;
      }

  return g_steal_pointer (&stat);
}

const AdbscopeCpuTicks *
adbscope_proc_stat_lookup_cpu (const AdbscopeProcStat *stat,
                               int                     cpu)
{
  guint lo = 0, hi;

  g_return_val_if_fail (stat != NULL, NULL);

  if (cpu < 0)
    return &stat->total;

  hi = stat->cpus->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const AdbscopeCpuTicks *t = &g_array_index (stat->cpus, AdbscopeCpuTicks, mid);

      if (t->cpu == cpu)
        return t;
      if (t->cpu < cpu)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

guint64
adbscope_cpu_ticks_sum (const AdbscopeCpuTicks *ticks)
{
  guint64 sum = 0;
  guint i;

  g_return_val_if_fail (ticks != NULL, 0);

  for (i = 0; i < ADBSCOPE_CPU_TICK_N; i++)
    sum += ticks->ticks[i];
  return sum;
}



/* --------------------------------------------------------------- meminfo */

gboolean
adbscope_proc_parse_meminfo (const char           *text,
                             gssize                len,
                             AdbscopeProcMeminfo  *out,
                             GError              **error)
{
  static const struct { const char *key; gsize offset; } fields[] = {
    { "MemTotal", G_STRUCT_OFFSET (AdbscopeProcMeminfo, mem_total_kb) },
    { "MemFree", G_STRUCT_OFFSET (AdbscopeProcMeminfo, mem_free_kb) },
    { "MemAvailable", G_STRUCT_OFFSET (AdbscopeProcMeminfo, mem_available_kb) },
    { "Buffers", G_STRUCT_OFFSET (AdbscopeProcMeminfo, buffers_kb) },
    { "Cached", G_STRUCT_OFFSET (AdbscopeProcMeminfo, cached_kb) },
    { "SwapTotal", G_STRUCT_OFFSET (AdbscopeProcMeminfo, swap_total_kb) },
    { "SwapFree", G_STRUCT_OFFSET (AdbscopeProcMeminfo, swap_free_kb) },
  };
  AdbscopeProcMeminfo m = { 0, };
  gboolean have_total = FALSE;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "/proc/meminfo", error))
    return FALSE;

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *colon = memchr (line, ':', line_len);
      gsize key_len;
      guint f;

      if (line_len == 0)
        continue;
      if (colon == NULL)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("/proc/meminfo: line %u has no “:”"), iter.line_no);
          return FALSE;
        }
      key_len = colon - line;
      for (f = 0; f < G_N_ELEMENTS (fields); f++)
        if (strlen (fields[f].key) == key_len && memcmp (line, fields[f].key, key_len) == 0)
          {
            Token tok[3];
            guint n = tokenize (colon + 1, line + line_len, tok, G_N_ELEMENTS (tok));
            guint64 v;

            if (n < 1 || n > 2 || !token_u64 (&tok[0], &v) || (n == 2 && !token_is (&tok[1], "kB")))
              {
                g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                             _("/proc/meminfo: bad value for %s"), fields[f].key);
                return FALSE;
              }
            G_STRUCT_MEMBER (guint64, &m, fields[f].offset) = v;
            if (f == 0)
              have_total = TRUE;
            else if (f == 2)
              m.has_mem_available = TRUE;
            break;
          }
    }

  if (!have_total)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/meminfo: no MemTotal line"));
      return FALSE;
    }

  *out = m;
  return TRUE;
}

/* --------------------------------------------------------------- net/dev */

GArray *
adbscope_proc_parse_net_dev (const char  *text,
                             gssize       len,
                             GError     **error)
{
  g_autoptr(GArray) devs = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (!_adbscope_parse_check_input (text, &len, "/proc/net/dev", error))
    return NULL;

  devs = g_array_new (FALSE, TRUE, sizeof (AdbscopeNetDev));
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *colon, *name, *end = line + line_len;
      AdbscopeNetDev dev = { { 0, }, };
      Token tok[20];
      guint n;

      if (line_len == 0 || memchr (line, '|', line_len) != NULL)
        continue; /* the two header lines */

      /* Old kernels print "eth0:123" with no blank after the colon once the
       * counter is wide, so split on the colon, not on blanks. */
      colon = memchr (line, ':', line_len);
      name = _adbscope_skip_spaces (line, end);
      if (colon == NULL || colon == name || (gsize) (colon - name) >= sizeof dev.name)
        goto bad_line;
      _adbscope_copy_utf8 (dev.name, sizeof dev.name, name, colon - name);

      n = tokenize (colon + 1, end, tok, G_N_ELEMENTS (tok));
      if (n < 10 || !token_u64 (&tok[0], &dev.rx_bytes) || !token_u64 (&tok[1], &dev.rx_packets)
          || !token_u64 (&tok[8], &dev.tx_bytes) || !token_u64 (&tok[9], &dev.tx_packets))
        goto bad_line;
      g_array_append_val (devs, dev);
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/net/dev: line %u is malformed"), iter.line_no);
      return NULL;
    }

  if (devs->len == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/net/dev: no interface listed"));
      return NULL;
    }
  return g_steal_pointer (&devs);
}

/* -------------------------------------------------------------- pressure */

gboolean
adbscope_proc_parse_pressure (const char        *text,
                              gssize             len,
                              AdbscopePressure  *out,
                              GError           **error)
{
  AdbscopePressure p = { { 0, }, };
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "/proc/pressure", error))
    return FALSE;

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      AdbscopePressureLine *pl;
      Token tok[6];
      guint n = tokenize (line, line + line_len, tok, G_N_ELEMENTS (tok));
      guint k, seen = 0;

      if (n == 0)
        continue;
      if (token_is (&tok[0], "some"))
        pl = &p.some;
      else if (token_is (&tok[0], "full"))
        pl = &p.full;
      else
        goto bad_line;
      if (n != 5 || pl->present)
        goto bad_line;

      for (k = 1; k < n; k++)
        {
          const char *eq = memchr (tok[k].p, '=', tok[k].len);
          gsize klen, vlen;

          if (eq == NULL)
            goto bad_line;
          klen = eq - tok[k].p;
          vlen = tok[k].len - klen - 1;
          if (klen == 5 && memcmp (tok[k].p, "avg10", 5) == 0
              && _adbscope_parse_double (eq + 1, vlen, &pl->avg10))
            seen |= 1;
          else if (klen == 5 && memcmp (tok[k].p, "avg60", 5) == 0
                   && _adbscope_parse_double (eq + 1, vlen, &pl->avg60))
            seen |= 2;
          else if (klen == 6 && memcmp (tok[k].p, "avg300", 6) == 0
                   && _adbscope_parse_double (eq + 1, vlen, &pl->avg300))
            seen |= 4;
          else if (klen == 5 && memcmp (tok[k].p, "total", 5) == 0
                   && _adbscope_parse_u64 (eq + 1, vlen, &pl->total_us))
            seen |= 8;
          else
            goto bad_line;
        }
      if (seen != 15)
        goto bad_line;
      pl->present = TRUE;
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/pressure: line %u is malformed"), iter.line_no);
      return FALSE;
    }

  if (!p.some.present)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/pressure: no “some” line"));
      return FALSE;
    }
  *out = p;
  return TRUE;
}

/* -------------------------------------------------------------- PID stat */

static gboolean
parse_stat_line (const char       *line,
                 gsize             line_len,
                 AdbscopePidStat  *out)
{
  const char *end = line + line_len;
  const char *open, *close;
  Token tok[MAX_TOKENS];
  guint64 pid;
  guint n;
  gint64 ppid;

  memset (out, 0, sizeof *out);

  open = memchr (line, '(', line_len);
  if (open == NULL || open == line || open[-1] != ' ')
    return FALSE;
  /* comm may itself hold ") " ("AWCN Worker(M)1"): the kernel adds the
   * last ')' of the line. */
  for (close = end - 1; close > open && *close != ')'; close--)
    ;
  if (close <= open)
    return FALSE;

  if (!_adbscope_parse_u64 (line, open - 1 - line, &pid) || pid == 0 || pid > G_MAXINT)
    return FALSE;

  n = tokenize (close + 1, end, tok, G_N_ELEMENTS (tok));
  /* tokens start at field 3 (state); we need up to field 24 (rss). */
  if (n < 22 || tok[0].len != 1)
    return FALSE;

  out->pid = (int) pid;
  out->state = tok[0].p[0];
  if (!token_i64 (&tok[1], &ppid) || ppid < 0 || ppid > G_MAXINT
      || !token_u64 (&tok[11], &out->utime)
      || !token_u64 (&tok[12], &out->stime)
      || !token_i64 (&tok[17], &out->num_threads)
      || !token_u64 (&tok[19], &out->starttime)
      || !token_u64 (&tok[20], &out->vsize)
      || !token_i64 (&tok[21], &out->rss_pages))
    return FALSE;
  out->ppid = (int) ppid;
  _adbscope_copy_utf8 (out->comm, sizeof out->comm, open + 1, close - open - 1);
  /* A name is whatever bytes a thread gave itself: a newline or another
   * control character is shown, replaced, like an invalid byte. */
  for (char *c = out->comm; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      *c = '?';
  return TRUE;
}

gboolean
adbscope_proc_parse_pid_stat (const char       *text,
                              gssize            len,
                              AdbscopePidStat  *out,
                              GError          **error)
{
  AdbscopeLineIter iter;
  const char *line, *extra;
  gsize line_len, extra_len;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "/proc/PID/stat", error))
    return FALSE;

  /* One record; comm (between the first '(' and the last ')') may hold
   * newlines of its own, the fields after it may not. */
  while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
    len--;
  {
    const char *close = len > 0 ? memrchr (text, ')', (size_t) len) : NULL;

    _adbscope_line_iter_init (&iter, close ? close : text, len - (close ? close - text : 0));
    if (_adbscope_line_iter_next (&iter, &line, &line_len) &&
        _adbscope_line_iter_next (&iter, &extra, &extra_len))
      {
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("/proc/PID/stat: more than one line"));
        return FALSE;
      }
  }
  if (len == 0 || !parse_stat_line (text, (gsize) len, out))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/PID/stat: not “PID (COMM) STATE …” with 24 or more fields"));
      return FALSE;
    }
  return TRUE;
}

GArray *
adbscope_proc_parse_task_stats (const char  *text,
                                gssize       len,
                                GError     **error)
{
  g_autoptr(GArray) stats = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (!_adbscope_parse_check_input (text, &len, "/proc/PID/task/*/stat", error))
    return NULL;

  stats = g_array_new (FALSE, TRUE, sizeof (AdbscopePidStat));
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      AdbscopePidStat st;

      if (_adbscope_skip_spaces (line, line + line_len) == line + line_len)
        continue;
      if (!parse_stat_line (line, line_len, &st))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("/proc/PID/task/*/stat: line %u is not a stat line"), iter.line_no);
          return NULL;
        }
      g_array_append_val (stats, st);
    }
  return g_steal_pointer (&stats);
}

/* A thread that exits between grep's directory walk and its read just does
 * not appear, so missing tasks are not an error; a present but unparsable
 * one is. */
GArray *
adbscope_proc_task_stats_from_grep (AdbscopeGrepOutput  *grep_output,
                                    int                  pid,
                                    GError             **error)
{
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autofree char *glob = NULL;
  guint i;

  g_return_val_if_fail (grep_output != NULL, NULL);
  g_return_val_if_fail (pid > 0, NULL);

  glob = g_strdup_printf ("/proc/%d/task/*/stat", pid);
  paths = adbscope_grep_output_find (grep_output, glob);
  stats = g_array_sized_new (FALSE, TRUE, sizeof (AdbscopePidStat), paths->len);
  for (i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      gsize prefix_len = strlen (glob) - strlen ("*/stat");
      gsize middle_len = strlen (path) - prefix_len - strlen ("/stat");
      AdbscopePidStat st;

      /* The glob's '*' also matches '/': skip anything deeper. */
      if (memchr (path + prefix_len, '/', middle_len) != NULL)
        continue;
      /* One thread that cannot be read (it ended mid-read) is skipped,
       * never the whole list. */
      if (!adbscope_proc_parse_pid_stat (adbscope_grep_output_lookup (grep_output, path), -1, &st, NULL))
        continue;
      g_array_append_val (stats, st);
    }
  return g_steal_pointer (&stats);
}


/* ------------------------------------------------------------ PID status */

gboolean
adbscope_proc_parse_pid_status (const char         *text,
                                gssize              len,
                                AdbscopePidStatus  *out,
                                GError            **error)
{
  AdbscopePidStatus st = { { 0, }, };
  gboolean have_name = FALSE, have_pid = FALSE;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_adbscope_parse_check_input (text, &len, "/proc/PID/status", error))
    return FALSE;

  st.vm_rss_kb = -1;
  st.vm_swap_kb = -1;
  st.uid = -1;

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *colon = memchr (line, ':', line_len);
      const char *end = line + line_len;
      const char *value;
      Token tok[5];
      guint n;
      gint64 v = 0;
      gsize key_len;

      if (colon == NULL)
        {
          if (line_len == 0)
            continue;
          goto bad_line;
        }
      key_len = colon - line;
      value = _adbscope_skip_spaces (colon + 1, end);

#define KEY_IS(k) (key_len == sizeof (k) - 1 && memcmp (line, k, key_len) == 0)
      if (KEY_IS ("Name"))
        {
          /* The name is the rest of the line: it may contain blanks. */
          _adbscope_copy_utf8 (st.name, sizeof st.name, value, end - value);
          have_name = TRUE;
          continue;
        }

      n = tokenize (value, end, tok, G_N_ELEMENTS (tok));
      if (KEY_IS ("State"))
        {
          if (n < 1 || tok[0].len != 1)
            goto bad_line;
          st.state = tok[0].p[0];
          continue;
        }
      if (!(KEY_IS ("Tgid") || KEY_IS ("Pid") || KEY_IS ("PPid") || KEY_IS ("VmRSS")
            || KEY_IS ("VmSwap") || KEY_IS ("Threads") || KEY_IS ("Uid")))
        continue;
      if (n < 1 || !token_i64 (&tok[0], &v) || v < 0 || v > G_MAXINT32)
        goto bad_line;
      if (KEY_IS ("Tgid"))
        st.tgid = (int) v;
      else if (KEY_IS ("Pid"))
        {
          st.pid = (int) v;
          have_pid = TRUE;
        }
      else if (KEY_IS ("PPid"))
        st.ppid = (int) v;
      else if (KEY_IS ("VmRSS"))
        st.vm_rss_kb = v;
      else if (KEY_IS ("VmSwap"))
        st.vm_swap_kb = v;
      else if (KEY_IS ("Threads"))
        st.threads = v;
      else if (KEY_IS ("Uid"))
        st.uid = v;
#undef KEY_IS
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/PID/status: line %u is malformed"), iter.line_no);
      return FALSE;
    }

  if (!have_name || !have_pid)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/PID/status: no Name or Pid line"));
      return FALSE;
    }
  *out = st;
  return TRUE;
}

/* --------------------------------------------------------------- cpuinfo */

void
adbscope_cpuinfo_free (AdbscopeCpuinfo *info)
{
  if (info == NULL)
    return;
  g_free (info->hardware);
  g_free (info->model_name);
  g_clear_pointer (&info->cpu_parts, g_ptr_array_unref);
  g_free (info);
}

AdbscopeCpuinfo *
adbscope_proc_parse_cpuinfo (const char  *text,
                             gssize       len,
                             GError     **error)
{
  g_autoptr(AdbscopeCpuinfo) info = NULL;
  g_autofree char *global_part = NULL;
  gboolean in_processor = FALSE;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  guint i;

  if (!_adbscope_parse_check_input (text, &len, "/proc/cpuinfo", error))
    return NULL;

  info = g_new0 (AdbscopeCpuinfo, 1);
  info->cpu_parts = g_ptr_array_new_with_free_func (g_free);

  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *colon = memchr (line, ':', line_len);
      const char *end = line + line_len;
      const char *key_end, *value;
      g_autofree char *key = NULL;
      g_autofree char *val = NULL;
      guint64 num;

      if (colon == NULL)
        {
          if (_adbscope_skip_spaces (line, end) != end)
            goto bad_line;
          in_processor = FALSE; /* a blank line ends a processor block */
          continue;
        }

      key_end = colon;
      while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t'))
        key_end--;
      value = _adbscope_skip_spaces (colon + 1, end);
      while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
      key = _adbscope_strndup_utf8 (line, key_end - line);
      val = _adbscope_strndup_utf8 (value, end - value);

      /* Old ARM kernels print "Processor : ARMv7 …" (the model) and then
       * "processor : N" lines; only the numbered ones are cores. */
      if (g_str_equal (key, "processor") && _adbscope_parse_u64 (val, strlen (val), &num))
        {
          info->n_processors++;
          g_ptr_array_add (info->cpu_parts, NULL);
          in_processor = TRUE;
        }
      else if ((g_str_equal (key, "Processor") || g_str_equal (key, "model name"))
               && info->model_name == NULL)
        info->model_name = g_steal_pointer (&val);
      else if (g_str_equal (key, "Hardware") && info->hardware == NULL)
        info->hardware = g_steal_pointer (&val);
      else if (g_str_equal (key, "CPU part"))
        {
          if (in_processor)
            {
              char **slot = (char **) &g_ptr_array_index (info->cpu_parts, info->cpu_parts->len - 1);

              g_free (*slot);
              *slot = g_steal_pointer (&val);
            }
          else if (global_part == NULL)
            global_part = g_steal_pointer (&val);
        }
      continue;

    bad_line:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/cpuinfo: line %u is not “KEY : VALUE”"), iter.line_no);
      return NULL;
    }

  if (info->n_processors == 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("/proc/cpuinfo: no “processor : N” line"));
      return NULL;
    }

  /* ARMv7 kernels print one CPU part for all cores after the list. */
  for (i = 0; i < info->cpu_parts->len; i++)
    if (g_ptr_array_index (info->cpu_parts, i) == NULL && global_part != NULL)
      g_ptr_array_index (info->cpu_parts, i) = g_strdup (global_part);

  return g_steal_pointer (&info);
}
