/* test-line-ends.c: every fixture parses the same whatever its line ends
 *
 * A capture comes with `\n` (adb shell v2), `\r\n` (an old adb with a pty)
 * or `\r\r\n` (a `\r\n` capture saved again through Windows).  Each
 * fixture of the shared captures is rewritten with each of them and fed to
 * its parser; what the parser made of it (its numbers and names, written
 * out by the test) must equal what it made of the `\n` text — or the text
 * is refused the same way.  Never half-parsed into -1 and null.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-battery.h"
#include "adbscope-parse-deviceidle.h"
#include "adbscope-parse-getprop.h"
#include "adbscope-parse-gfxinfo.h"
#include "adbscope-parse-jobs.h"
#include "adbscope-parse-meminfo.h"
#include "adbscope-parse-pm.h"
#include "adbscope-parse-proc.h"
#include "adbscope-parse-ps.h"
#include "adbscope-parse-surfaceflinger.h"
#include "adbscope-parse-sysfs.h"
#include "adbscope-parse-thermal.h"
#include "dumpsys-test-util.h"

typedef char *(*Describe) (const char *text, gsize len);

static char *
error_text (GError *error)
{
  return g_strdup_printf ("refused: %s %d", g_quark_to_string (error->domain), error->code);
}

static void
add_temps (GString *s, GArray *a)
{
  for (guint i = 0; i < a->len; i++)
    {
      const AdbscopeThermalTemperature *t = &g_array_index (a, AdbscopeThermalTemperature, i);

      g_string_append_printf (s, "temp %d %.3f %s %d\n", t->type, t->value, t->name, t->status);
    }
}

static char *
describe_thermal (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeThermal) th = adbscope_thermal_parse (text, len, &error);
  GString *s;

  if (th == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "status %d hal %s %d %d\n", th->status, th->hal_version, th->hal_ready, th->hal_connected);
  add_temps (s, th->current);
  add_temps (s, th->cached);
  for (guint i = 0; i < th->cooling_devices->len; i++)
    {
      const AdbscopeThermalCoolingDevice *c = &g_array_index (th->cooling_devices, AdbscopeThermalCoolingDevice, i);

      g_string_append_printf (s, "cool %d %" G_GINT64_FORMAT " %s\n", c->type, c->value, c->name);
    }
  return g_string_free (s, FALSE);
}

static char *
describe_gfxinfo (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeGfxinfo) info = adbscope_gfxinfo_parse (text, len, &error);
  GString *s;

  if (info == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "uptime %" G_GINT64_FORMAT "\n", info->uptime_ms);
  for (guint i = 0; i < info->processes->len; i++)
    {
      const AdbscopeGfxinfoProcess *p = g_ptr_array_index (info->processes, i);

      g_string_append_printf (s, "process %" G_GINT64_FORMAT " %s present %d total %" G_GINT64_FORMAT
                              " janky %" G_GINT64_FORMAT " windows %u\n", p->pid, p->package,
                              p->stats.present, p->stats.total_frames, p->stats.janky_frames, p->windows->len);
      for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
        g_string_append_printf (s, " cause %" G_GINT64_FORMAT, adbscope_gfxinfo_stats_get_cause (&p->stats, c));
      for (guint w = 0; w < p->windows->len; w++)
        {
          const AdbscopeGfxinfoWindow *win = g_ptr_array_index (p->windows, w);

          g_string_append_printf (s, "\nwindow %s frames %u bad %u", win->name,
                                  win->frames ? win->frames->len : 0, win->n_bad_rows);
          for (guint f = 0; win->frames != NULL && f < win->frames->len; f++)
            {
              const AdbscopeGfxinfoFrame *fr = &g_array_index (win->frames, AdbscopeGfxinfoFrame, f);

              g_string_append_printf (s, " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, fr->intended_vsync_ns, fr->duration_ns);
            }
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static char *
describe_meminfo (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeMeminfo) m = adbscope_meminfo_parse (text, len, &error);
  GString *s;

  if (m == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "uptime %" G_GINT64_FORMAT " incomplete %u system %d %" G_GINT64_FORMAT " %s %"
                          G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", m->uptime_ms, m->n_incomplete,
                          m->system.present, m->system.total_ram_kb, m->system.status, m->system.free_ram_kb,
                          m->system.zram_swap_used_kb);
  for (guint i = 0; i < m->processes->len; i++)
    {
      const AdbscopeMeminfoProcess *p = g_ptr_array_index (m->processes, i);

      g_string_append_printf (s, "process %" G_GINT64_FORMAT " %s pss %" G_GINT64_FORMAT " rss %" G_GINT64_FORMAT
                              " swap %" G_GINT64_FORMAT " views %" G_GINT64_FORMAT " rows %u\n", p->pid, p->package,
                              p->total_pss_kb, p->total_rss_kb, p->total_swap_kb, p->views, p->rows->len);
      for (guint c = 0; c < ADBSCOPE_MEMINFO_N_CATEGORIES; c++)
        g_string_append_printf (s, " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, p->summary_pss_kb[c], p->summary_rss_kb[c]);
      for (guint r = 0; r < p->rows->len; r++)
        {
          const AdbscopeMeminfoRow *row = g_ptr_array_index (p->rows, r);

          g_string_append_printf (s, "\n%s", row->label);
          for (guint c = 0; c < p->n_columns; c++)
            g_string_append_printf (s, " %" G_GINT64_FORMAT, row->values[c]);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static char *
describe_battery (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeBattery) b = adbscope_battery_parse (text, len, &error);

  if (b == NULL)
    return error_text (error);
  return g_strdup_printf ("ac %d usb %d status %d health %d level %" G_GINT64_FORMAT " scale %" G_GINT64_FORMAT
                          " mv %" G_GINT64_FORMAT " temp %" G_GINT64_FORMAT " tech %s counter %" G_GINT64_FORMAT
                          " current %" G_GINT64_FORMAT " stopped %d",
                          b->ac_powered, b->usb_powered, b->status, b->health, b->level, b->scale, b->voltage_mv,
                          b->temperature_decidegc, b->technology, b->charge_counter_uah, b->current_now,
                          b->updates_stopped);
}

static void
add_names (GString *s, const char *what, GPtrArray *a)
{
  g_string_append_printf (s, "%s", what);
  for (guint i = 0; a != NULL && i < a->len; i++)
    g_string_append_printf (s, " %s", (const char *) g_ptr_array_index (a, i));
  g_string_append_c (s, '\n');
}

static char *
describe_deviceidle (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeDeviceidle) d = adbscope_deviceidle_parse (text, len, &error);
  GString *s;

  if (d == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "deep %d %s light %d %s screen %d charging %d locked %d %d %d %d\n",
                          d->deep_state, d->deep_state_name, d->light_state, d->light_state_name, d->screen_on,
                          d->charging, d->screen_locked, d->light_enabled, d->deep_enabled, d->force_idle);
  add_names (s, "except-idle", d->whitelist_system_except_idle);
  add_names (s, "system", d->whitelist_system);
  add_names (s, "user", d->whitelist_user);
  return g_string_free (s, FALSE);
}

static char *
describe_jobs (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeJobs) j = adbscope_jobs_parse (text, len, "android", &error);
  GString *s;

  if (j == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "registered %" G_GINT64_FORMAT "\n", j->n_registered);
  for (guint i = 0; i < j->jobs->len; i++)
    {
      const AdbscopeJob *job = g_ptr_array_index (j->jobs, i);
      g_autofree char *req = g_strjoinv (",", job->required_constraints ? job->required_constraints : (GStrv) (const char *[]) { NULL });
      g_autofree char *uns = g_strjoinv (",", job->unsatisfied_constraints ? job->unsatisfied_constraints : (GStrv) (const char *[]) { NULL });

      g_string_append_printf (s, "job %s %" G_GINT64_FORMAT " %s %s %s %d%d%d%d%d [%s] [%s]\n", job->uid, job->job_id,
                              job->service, job->source_package, job->standby_bucket, job->periodic, job->persisted,
                              job->ready, job->running, job->pending, req, uns);
    }
  return g_string_free (s, FALSE);
}

static char *
describe_alarms (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAlarms) a = adbscope_alarms_parse (text, len, "android", &error);
  GString *s;

  if (a == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "stats %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", a->has_stats,
                          a->stats_running_ms, a->stats_wakeups, a->stats_alarms);
  for (guint i = 0; i < a->pending->len; i++)
    {
      const AdbscopeAlarm *al = g_ptr_array_index (a->pending, i);

      g_string_append_printf (s, "alarm %s %d %d %s %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                              " %" G_GINT64_FORMAT "\n", al->type, al->wakeup, al->past_due, al->package, al->tag,
                              al->when_elapsed_ms, al->when_in_ms, al->repeat_interval_ms, al->count);
    }
  return g_string_free (s, FALSE);
}

static char *
describe_getprop (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) props = adbscope_getprop_parse (text, len, &error);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer key;
  GString *s;

  if (props == NULL)
    return error_text (error);
  g_hash_table_iter_init (&it, props);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_paths);
  s = g_string_new (NULL);
  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (s, "[%s]=[%s]\n", (const char *) keys->pdata[i],
                            (const char *) g_hash_table_lookup (props, keys->pdata[i]));
  return g_string_free (s, FALSE);
}

static char *
describe_ps (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, len, &error);
  GString *s;

  if (t == NULL)
    return error_text (error);
  s = g_string_new (NULL);
  g_string_append_printf (s, "columns %u skipped %u\n", t->n_columns, t->n_skipped);
  for (guint i = 0; i < t->rows->len; i++)
    {
      const AdbscopePsRow *r = g_ptr_array_index (t->rows, i);

      g_string_append_printf (s, "%d %d %d %c %" G_GINT64_FORMAT " %s|%s|%s\n", r->pid, r->tid, r->ppid,
                              r->state ? r->state : '-', r->rss_kb, r->user, r->label, r->name);
    }
  return g_string_free (s, FALSE);
}

static char *
describe_sf (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeSfLatency) lat = adbscope_sf_latency_parse (text, len, NULL);
  g_autoptr(GPtrArray) names = NULL;
  GString *s = g_string_new (NULL);

  if (lat != NULL)
    {
      g_string_append_printf (s, "latency %" G_GINT64_FORMAT " rows %u empty %u pending %u bad %u frames %u\n",
                              lat->refresh_period_ns, lat->n_rows, lat->n_empty, lat->n_pending, lat->n_bad_rows,
                              lat->frames->len);
      for (guint i = 0; i < lat->frames->len; i++)
        g_string_append_printf (s, "%" G_GINT64_FORMAT "\n", g_array_index (lat->frames, AdbscopeSfFrame, i).actual_present_ns);
    }
  names = adbscope_sf_list_parse (text, len, &error);
  if (names == NULL)
    {
      g_autofree char *e = error_text (error);

      g_string_append (s, e);
    }
  else
    add_names (s, "list", names);
  return g_string_free (s, FALSE);
}

static char *
describe_proc (const char *text, gsize len)
{
  GString *s = g_string_new (NULL);
  AdbscopeProcMeminfo mem = { 0 };
  AdbscopePressure psi = { 0 };
  g_autoptr(GArray) net = adbscope_proc_parse_net_dev (text, len, NULL);
  g_autoptr(AdbscopeCpuinfo) cpu = adbscope_proc_parse_cpuinfo (text, len, NULL);
  g_autoptr(GArray) tasks = adbscope_proc_parse_task_stats (text, len, NULL);

  if (adbscope_proc_parse_meminfo (text, len, &mem, NULL))
    g_string_append_printf (s, "meminfo %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %d %" G_GUINT64_FORMAT " %"
                            G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                            mem.mem_total_kb, mem.mem_free_kb, mem.has_mem_available, mem.mem_available_kb,
                            mem.buffers_kb, mem.cached_kb, mem.swap_total_kb, mem.swap_free_kb);
  if (adbscope_proc_parse_pressure (text, len, &psi, NULL))
    g_string_append_printf (s, "psi %d %.2f %.2f %" G_GUINT64_FORMAT " %d %.2f %" G_GUINT64_FORMAT "\n",
                            psi.some.present, psi.some.avg10, psi.some.avg300, psi.some.total_us,
                            psi.full.present, psi.full.avg10, psi.full.total_us);
  for (guint i = 0; net != NULL && i < net->len; i++)
    {
      const AdbscopeNetDev *d = &g_array_index (net, AdbscopeNetDev, i);

      g_string_append_printf (s, "net %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", d->name, d->rx_bytes, d->tx_bytes);
    }
  if (cpu != NULL)
    g_string_append_printf (s, "cpuinfo %u %s %s\n", cpu->n_processors, cpu->hardware, cpu->model_name);
  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    {
      const AdbscopePidStat *t = &g_array_index (tasks, AdbscopePidStat, i);

      g_string_append_printf (s, "task %d [%s] %c %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                              t->pid, t->comm, t->state, t->utime, t->stime, t->starttime);
    }
  return g_string_free (s, FALSE);
}

static char *
describe_sysfs (const char *text, gsize len)
{
  GString *s = g_string_new (NULL);
  g_autoptr(GArray) tis = adbscope_sysfs_parse_time_in_state (text, len, NULL);
  g_autoptr(GPtrArray) labelled = adbscope_sysfs_parse_labelled_time_in_state (text, len, NULL);
  g_autoptr(GArray) list = adbscope_sysfs_parse_u64_list (text, len, NULL);

  for (guint i = 0; tis != NULL && i < tis->len; i++)
    g_string_append_printf (s, "tis %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                            g_array_index (tis, AdbscopeFreqTime, i).freq_khz, g_array_index (tis, AdbscopeFreqTime, i).time_10ms);
  for (guint i = 0; labelled != NULL && i < labelled->len; i++)
    {
      const AdbscopePolicyTimeInState *p = g_ptr_array_index (labelled, i);

      g_string_append_printf (s, "policy %u %u\n", p->cpu, p->table->len);
    }
  for (guint i = 0; list != NULL && i < list->len; i++)
    g_string_append_printf (s, "u64 %" G_GUINT64_FORMAT "\n", g_array_index (list, guint64, i));
  return g_string_free (s, FALSE);
}

static char *
describe_pm (const char *text, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (text, len, &error);

  if (pkgs == NULL)
    return error_text (error);
  return g_strdup_printf ("packages %u", pkgs->len);
}

/* The text with every line end (LF, CRLF, CR CR LF) made @eol. */
static char *
with_line_ends (const char *text,
                gsize       len,
                const char *eol,
                gsize      *out_len)
{
  GString *s = g_string_sized_new (len * 2);

  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '\r')
        {
          gsize k = i;

          while (k < len && text[k] == '\r')
            k++;
          if (k < len && text[k] == '\n')
            {
              g_string_append (s, eol);
              i = k;
              continue;
            }
        }
      if (text[i] == '\n')
        g_string_append (s, eol);
      else
        g_string_append_c (s, text[i]);
    }
  *out_len = s->len;
  return g_string_free (s, FALSE);
}

static void
check_folder (const char *folder,
              Describe    describe,
              const char *only)
{
  g_autoptr(GPtrArray) names = list_fixtures (folder);
  static const char * const ends[] = { "\r\n", "\r\r\n" };
  guint checked = 0;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *text = NULL;
      g_autofree char *lf = NULL;
      g_autofree char *want = NULL;
      gsize len, lf_len;

      if (only != NULL && strstr (name, only) == NULL)
        continue;
      text = load_fixture (name, &len);
      /* UTF-16 captures: their line ends are two bytes each */
      if (len >= 2 && ((guint8) text[0] == 0xff || (guint8) text[0] == 0xfe))
        continue;
      lf = with_line_ends (text, len, "\n", &lf_len);
      want = describe (lf, lf_len);
      if (want[0] == '\0')
        {
          /* none of the folder's parsers takes this file: nothing to compare */
          g_test_message ("%s: not read by these parsers", name);
          continue;
        }
      for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
        {
          gsize n;
          g_autofree char *variant = with_line_ends (text, len, ends[e], &n);
          g_autofree char *got = describe (variant, n);

          if (g_strcmp0 (got, want) != 0)
            g_error ("%s with %s line ends:\n--- \\n gave:\n%s\n--- this gave:\n%s", name,
                     e == 0 ? "CRLF" : "CR CR LF", want, got);
        }
      checked++;
    }
  g_test_message ("%s: %u fixtures, each with CRLF and CR CR LF", folder, checked);
  g_assert_cmpuint (checked, >, 0);
}

static void test_thermal (void) { check_folder ("thermal", describe_thermal, NULL); }
static void test_gfxinfo (void) { check_folder ("gfxinfo", describe_gfxinfo, NULL); }
static void test_meminfo (void) { check_folder ("meminfo", describe_meminfo, NULL); }
static void test_battery (void) { check_folder ("battery", describe_battery, NULL); }
static void test_deviceidle (void) { check_folder ("deviceidle", describe_deviceidle, NULL); }
static void test_jobs (void) { check_folder ("jobscheduler", describe_jobs, NULL); }
static void test_alarms (void) { check_folder ("alarm", describe_alarms, NULL); }
static void test_getprop (void) { check_folder ("getprop", describe_getprop, NULL); }
static void test_ps (void) { check_folder ("ps", describe_ps, NULL); }
static void test_surfaceflinger (void) { check_folder ("surfaceflinger", describe_sf, NULL); }
static void test_proc (void) { check_folder ("proc", describe_proc, NULL); }
static void test_sysfs (void) { check_folder ("sysfs", describe_sysfs, NULL); }
static void test_pm (void) { check_folder ("other", describe_pm, "pm-list-packages"); }

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/line-ends/thermal", test_thermal);
  g_test_add_func ("/line-ends/gfxinfo", test_gfxinfo);
  g_test_add_func ("/line-ends/meminfo", test_meminfo);
  g_test_add_func ("/line-ends/battery", test_battery);
  g_test_add_func ("/line-ends/deviceidle", test_deviceidle);
  g_test_add_func ("/line-ends/jobscheduler", test_jobs);
  g_test_add_func ("/line-ends/alarm", test_alarms);
  g_test_add_func ("/line-ends/getprop", test_getprop);
  g_test_add_func ("/line-ends/ps", test_ps);
  g_test_add_func ("/line-ends/surfaceflinger", test_surfaceflinger);
  g_test_add_func ("/line-ends/proc", test_proc);
  g_test_add_func ("/line-ends/sysfs", test_sysfs);
  g_test_add_func ("/line-ends/pm", test_pm);
  return g_test_run ();
}
