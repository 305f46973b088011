/* adbscope-sim-tool.c: the fake Android tools of the simulated device
 *
 * `adbscope sim-tool NAME ARGS…`, run by the scripts in SANDBOX/bin.  They
 * answer from the device profile ($ADBSCOPE_SIM_PROFILE), from the demo
 * app's live state (SANDBOX/state/PKG.state, see adbscope-sim-app-state.h),
 * from the battery files the device keeps in SANDBOX/sys/power_supply, and
 * from the real /proc.  Output layouts follow the real captures in
 * shared/fixtures/android, per profile release.  Tools that change the
 * device (am force-stop, am start, monkey) ask it over SANDBOX/control.sock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "adbscope-apk.h"
#include "adbscope-sim.h"
#include "adbscope-sim-app-state.h"
#include "adbscope-sim-private.h"

typedef struct
{
  const AdbscopeSimProfile *profile;
  const char               *sandbox;
} Tool;

typedef struct
{
  char *package;
  int   pid;
  int   uid;
} AppEntry;

static const char * const system_packages[] = {
  "android", "com.android.systemui", "com.android.settings", "com.android.phone",
  "com.android.providers.settings", "com.android.launcher3", "com.android.shell",
  "com.android.webview", "com.google.android.gms", "com.android.chrome",
};

/* ---- helpers ----------------------------------------------------------- */

static gint64
clock_ms (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return (gint64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static char *
sandbox_path (Tool       *tool,
              const char *first,
              ...) G_GNUC_NULL_TERMINATED;

static char *
sandbox_path (Tool       *tool,
              const char *first,
              ...)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (parts, (char *) tool->sandbox);
  va_start (ap, first);
  for (const char *p = first; p != NULL; p = va_arg (ap, const char *))
    g_ptr_array_add (parts, (char *) p);
  va_end (ap);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

static gint64
read_number (Tool       *tool,
             const char *battery_file,
             gint64      fallback)
{
  g_autofree char *path = sandbox_path (tool, "sys", "power_supply", "battery", battery_file, NULL);
  g_autofree char *text = read_text (path);

  return text != NULL ? g_ascii_strtoll (text, NULL, 10) : fallback;
}

/* The device's app list (SANDBOX/state/apps: "PKG PID" lines). */
static void
app_entry_free (gpointer data)
{
  AppEntry *e = data;

  g_free (e->package);
  g_free (e);
}

static GPtrArray *
read_apps (Tool *tool)
{
  g_autofree char *path = sandbox_path (tool, "state", "apps", NULL);
  g_autofree char *text = read_text (path);
  GPtrArray *apps = g_ptr_array_new_with_free_func (app_entry_free);
  g_auto(GStrv) lines = NULL;

  if (text == NULL)
    return apps;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) w = g_strsplit (lines[i], " ", 2);
      AppEntry *e;

      if (w[0] == NULL || w[1] == NULL)
        continue;
      e = g_new0 (AppEntry, 1);
      e->package = g_strdup (w[0]);
      e->pid = atoi (w[1]);
      g_ptr_array_add (apps, e);
    }
  /* Stable uids: sorted by name, from 10100. */
  for (guint i = 0; i < apps->len; i++)
    {
      AppEntry *e = apps->pdata[i];
      int rank = 0;

      for (guint j = 0; j < apps->len; j++)
        rank += strcmp (((AppEntry *) apps->pdata[j])->package, e->package) < 0;
      e->uid = 10100 + rank;
    }
  return apps;
}

static AppEntry *
find_app (GPtrArray  *apps,
          const char *package)
{
  for (guint i = 0; i < apps->len; i++)
    if (g_strcmp0 (((AppEntry *) apps->pdata[i])->package, package) == 0)
      return apps->pdata[i];
  return NULL;
}

static char *
control (Tool       *tool,
         const char *line)
{
  return adbscope_sim_tool_control (tool->sandbox, line);
}

char *
adbscope_sim_tool_control (const char *sandbox,
                           const char *line)
{
  g_autofree char *path = g_build_filename (sandbox, "control.sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  char reply[256];
  gsize got = 0;
  int fd;

  if (strlen (path) >= sizeof addr.sun_path)
    return g_strdup ("error socket path too long");
  strcpy (addr.sun_path, path);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    {
      if (fd >= 0)
        close (fd);
      return g_strdup ("error the device is not answering");
    }
  if (write (fd, line, strlen (line)) < 0 || write (fd, "\n", 1) < 0)
    {
      close (fd);
      return g_strdup ("error write");
    }
  while (got < sizeof reply - 1)
    {
      ssize_t n = read (fd, reply + got, sizeof reply - 1 - got);

      if (n <= 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  reply[got] = '\0';
  return g_strdup (g_strstrip (reply));
}

static gboolean
read_app_state (Tool                *tool,
                const char          *package,
                AdbscopeSimAppState *out)
{
  return adbscope_sim_app_state_read (tool->sandbox, package, out);
}

/* ---- getprop, getconf, wm, settings, service ---------------------------- */

static int
tool_getprop (Tool  *tool,
              int    argc,
              char **argv)
{
  g_autoptr(GPtrArray) props = adbscope_sim_profile_dup_props (tool->profile);

  if (argc < 2)
    {
      for (guint i = 0; i + 1 < props->len; i += 2)
        printf ("[%s]: [%s]\n", (char *) props->pdata[i], (char *) props->pdata[i + 1]);
      return 0;
    }
  for (guint i = 0; i + 1 < props->len; i += 2)
    if (g_str_equal (props->pdata[i], argv[1]))
      {
        printf ("%s\n", (char *) props->pdata[i + 1]);
        return 0;
      }
  printf ("%s\n", argc > 2 ? argv[2] : "");
  return 0;
}

static int
tool_getconf (Tool  *tool,
              int    argc,
              char **argv)
{
  if (argc >= 2 && (g_str_equal (argv[1], "PAGE_SIZE") || g_str_equal (argv[1], "PAGESIZE")))
    {
      printf ("%d\n", tool->profile->page_size);
      return 0;
    }
  execv ("/usr/bin/getconf", argv);
  return 1;
}

static int
tool_wm (Tool  *tool,
         int    argc,
         char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "size"))
    printf ("Physical size: %dx%d\n", tool->profile->width, tool->profile->height);
  else if (argc >= 2 && g_str_equal (argv[1], "density"))
    printf ("Physical density: %d\n", tool->profile->density);
  else
    {
      fprintf (stderr, "usage: wm [size|density]\n");
      return 1;
    }
  return 0;
}

static int
tool_settings (Tool  *tool,
               int    argc,
               char **argv)
{
  static const struct { const char *ns, *key, *value; } known[] = {
    { "global", "adb_enabled", "1" },
    { "global", "development_settings_enabled", "1" },
    { "global", "window_animation_scale", "1.0" },
    { "global", "transition_animation_scale", "1.0" },
    { "global", "animator_duration_scale", "1.0" },
    { "global", "stay_on_while_plugged_in", "0" },
    { "global", "airplane_mode_on", "0" },
    { "global", "low_power", "0" },
    { "system", "screen_brightness", "128" },
    { "system", "screen_off_timeout", "60000" },
    { "system", "screen_brightness_mode", "1" },
    { "secure", "android_id", "5a1d3c0ffee0ad05" },
    { "secure", "location_mode", "3" },
  };

  if (argc >= 4 && g_str_equal (argv[1], "get"))
    {
      /* What `adbscope sim` was told (--private-dns): SANDBOX/state/settings */
      g_autofree char *path = sandbox_path (tool, "state", "settings", NULL);
      g_autofree char *text = read_text (path);
      g_auto(GStrv) lines = text != NULL ? g_strsplit (text, "\n", -1) : NULL;

      for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
        {
          g_auto(GStrv) w = g_strsplit (lines[i], " ", 3);

          if (g_strv_length (w) == 3 && g_str_equal (w[0], argv[2]) && g_str_equal (w[1], argv[3]))
            {
              printf ("%s\n", w[2]);
              return 0;
            }
        }
      if (g_str_equal (argv[3], "peak_refresh_rate") || g_str_equal (argv[3], "min_refresh_rate"))
        {
          printf ("%d.0\n", tool->profile->refresh_hz);
          return 0;
        }
      for (guint i = 0; i < G_N_ELEMENTS (known); i++)
        if (g_str_equal (known[i].ns, argv[2]) && g_str_equal (known[i].key, argv[3]))
          {
            printf ("%s\n", known[i].value);
            return 0;
          }
      printf ("null\n");
      return 0;
    }
  if (argc >= 2 && (g_str_equal (argv[1], "put") || g_str_equal (argv[1], "delete")))
    return 0;
  fprintf (stderr, "usage:  settings [--user <USER_ID> | current] get namespace key\n");
  return 1;
}

static const char * const services[] = {
  "SurfaceFlinger", "activity", "alarm", "battery", "batterystats", "connectivity", "cpuinfo",
  "deviceidle", "gfxinfo", "jobscheduler", "meminfo", "netstats", "package", "power",
  "procstats", "settings", "thermalservice", "usagestats", "window",
};

static gboolean
service_exists (Tool       *tool,
                const char *name)
{
  if (g_str_equal (name, "thermalservice") && !tool->profile->thermalservice)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (services); i++)
    if (g_str_equal (services[i], name))
      return TRUE;
  return FALSE;
}

static int
tool_service (Tool  *tool,
              int    argc,
              char **argv)
{
  if (argc >= 3 && g_str_equal (argv[1], "check"))
    {
      printf ("Service %s: %s\n", argv[2], service_exists (tool, argv[2]) ? "found" : "not found");
      return 0;
    }
  if (argc >= 2 && g_str_equal (argv[1], "list"))
    {
      int n = 0;

      for (guint i = 0; i < G_N_ELEMENTS (services); i++)
        n += service_exists (tool, services[i]);
      printf ("Found %d services:\n", n);
      n = 0;
      for (guint i = 0; i < G_N_ELEMENTS (services); i++)
        if (service_exists (tool, services[i]))
          printf ("%d\t%s: []\n", n++, services[i]);
      return 0;
    }
  fprintf (stderr, "Usage: service [-h|-?]\n       service list\n       service check SERVICE\n");
  return 1;
}

/* ---- processes: pidof, ps ---------------------------------------------- */

typedef struct
{
  int     pid;
  int     tid;
  char    comm[64];
  char    state;
  int     ppid;
  gint64  utime, stime;
  int     priority, nice;
  guint64 starttime;
  guint64 vsize;
  gint64  rss_pages;
  guint   rtprio, policy;
  int     processor;
  int     threads;
  uid_t   uid;
  char   *argv0;   /* NULL for kernel threads */
  char   *cmdline; /* args joined with spaces */
} ProcInfo;

static gboolean
read_stat (const char *path,
           ProcInfo   *p)
{
  g_autofree char *text = read_text (path);
  const char *open_paren, *close_paren;
  gsize len;

  if (text == NULL)
    return FALSE;
  open_paren = strchr (text, '(');
  close_paren = strrchr (text, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren)
    return FALSE;
  len = MIN ((gsize) (close_paren - open_paren - 1), sizeof p->comm - 1);
  memcpy (p->comm, open_paren + 1, len);
  p->comm[len] = '\0';
  /* fields from 3 (state) on */
  if (sscanf (close_paren + 2,
              "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %" G_GINT64_MODIFIER "d %" G_GINT64_MODIFIER "d"
              " %*d %*d %d %d %d %*d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GINT64_MODIFIER "d"
              " %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*u %*d %d %u %u",
              &p->state, &p->ppid, &p->utime, &p->stime, &p->priority, &p->nice, &p->threads,
              &p->starttime, &p->vsize, &p->rss_pages, &p->processor, &p->rtprio, &p->policy) < 10)
    return FALSE;
  return TRUE;
}

static void
read_cmdline (ProcInfo *p)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", p->pid);
  g_autofree char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, NULL) || len == 0)
    return;
  /* trailing NULs (zygote-style padding) are not arguments */
  while (len > 0 && text[len - 1] == '\0')
    len--;
  p->argv0 = g_strdup (text);
  for (gsize i = 0; i < len; i++)
    if (text[i] == '\0')
      text[i] = ' ';
  p->cmdline = g_strndup (text, len);
}

static GArray *
list_pids (void)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (int));
  GDir *dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  if (dir == NULL)
    return pids;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_ascii_isdigit (name[0]))
      {
        int pid = atoi (name);

        g_array_append_val (pids, pid);
      }
  g_dir_close (dir);
  return pids;
}

/* Pids of this device: the simulated device's descendants (the host's
 * /proc also holds other devices' apps) and kernel threads. */
static GHashTable *
device_processes (Tool *tool)
{
  g_autofree char *path = sandbox_path (tool, "state", "device_pid", NULL);
  g_autofree char *text = read_text (path);
  g_autoptr(GArray) pids = list_pids ();
  g_autoptr(GHashTable) parent = g_hash_table_new (NULL, NULL);
  GHashTable *mine = g_hash_table_new (NULL, NULL);
  int root = text != NULL ? atoi (text) : 0;
  gboolean grew = TRUE;

  for (guint i = 0; i < pids->len; i++)
    {
      ProcInfo p = { .pid = g_array_index (pids, int, i) };
      g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", p.pid);

      if (!read_stat (stat_path, &p))
        continue;
      if (p.pid == 2 || p.ppid == 2)
        g_hash_table_add (mine, GINT_TO_POINTER (p.pid));
      else
        g_hash_table_insert (parent, GINT_TO_POINTER (p.pid), GINT_TO_POINTER (p.ppid));
    }
  if (root <= 0)
    {
      /* no device pid: show everything */
      GHashTableIter iter;
      gpointer k;

      g_hash_table_iter_init (&iter, parent);
      while (g_hash_table_iter_next (&iter, &k, NULL))
        g_hash_table_add (mine, k);
      return mine;
    }
  while (grew)
    {
      GHashTableIter iter;
      gpointer k, v;

      grew = FALSE;
      g_hash_table_iter_init (&iter, parent);
      while (g_hash_table_iter_next (&iter, &k, &v))
        if (GPOINTER_TO_INT (v) == root || g_hash_table_contains (mine, v))
          {
            if (!g_hash_table_contains (mine, k) && GPOINTER_TO_INT (v) != 2)
              {
                g_hash_table_add (mine, k);
                grew = TRUE;
              }
          }
    }
  return mine;
}

static int
compare_int (gconstpointer a,
             gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* toybox pidof: argv[0]'s basename or the comm, pids in /proc order. */
static int
tool_pidof (Tool  *tool,
            int    argc,
            char **argv)
{
  gboolean single = FALSE;
  g_autoptr(GArray) pids = list_pids ();
  g_autoptr(GHashTable) mine = device_processes (tool);
  GString *out = g_string_new (NULL);
  int first = 1;
  int self = getpid ();

  g_array_sort (pids, compare_int);
  if (argc > 1 && g_str_equal (argv[1], "-s"))
    single = TRUE, first = 2;
  for (int a = first; a < argc; a++)
    for (guint i = 0; i < pids->len; i++)
      {
        ProcInfo p = { .pid = g_array_index (pids, int, i) };
        g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", p.pid);
        gboolean match;

        if (p.pid == self || !g_hash_table_contains (mine, GINT_TO_POINTER (p.pid)) ||
            !read_stat (stat_path, &p))
          continue;
        read_cmdline (&p);
        match = (p.argv0 != NULL && g_str_equal (base_name (p.argv0), argv[a])) ||
                g_str_equal (p.comm, argv[a]);
        g_free (p.argv0);
        g_free (p.cmdline);
        if (!match)
          continue;
        g_string_append_printf (out, "%s%d", out->len > 0 ? " " : "", p.pid);
        if (single)
          break;
      }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return 1;
    }
  printf ("%s\n", out->str);
  g_string_free (out, TRUE);
  return 0;
}

typedef struct
{
  const char *name;
  int         width;  /* negative: left aligned */
} PsField;

static const PsField ps_fields[] = {
  { "USER", -12 }, { "PID", 5 }, { "TID", 5 }, { "PPID", 5 }, { "VSZ", 7 }, { "RSS", 6 },
  { "WCHAN", -10 }, { "ADDR", 10 }, { "S", -1 }, { "PRI", 3 }, { "NI", 3 }, { "RTPRIO", 6 },
  { "SCH", 3 }, { "PCY", 3 }, { "TIME", 8 }, { "NAME", -27 }, { "CMD", -15 }, { "CMDLINE", -27 },
  { "ARGS", -27 }, { "COMM", -27 }, { "UID", 5 }, { "PSR", 3 }, { "CPU", 3 }, { "TCNT", 4 },
  { "LABEL", -30 }, { "%CPU", 4 }, { "STIME", 5 }, { "ELAPSED", 11 }, { "C", 1 }, { "PGID", 5 },
};

static const PsField *
ps_field (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (ps_fields); i++)
    if (g_ascii_strcasecmp (ps_fields[i].name, name) == 0)
      return &ps_fields[i];
  return NULL;
}

static char *
ps_value (const PsField *f,
          ProcInfo      *p,
          GPtrArray     *apps)
{
  long hz = sysconf (_SC_CLK_TCK);
  const char *n = f->name;

  if (g_str_equal (n, "USER") || g_str_equal (n, "UID"))
    {
      for (guint i = 0; i < apps->len; i++)
        {
          AppEntry *e = apps->pdata[i];

          if (e->pid == p->pid)
            return g_str_equal (n, "USER") ? g_strdup_printf ("u0_a%d", e->uid - 10000)
                                           : g_strdup_printf ("%d", e->uid);
        }
      return g_str_equal (n, "USER") ? g_strdup (p->uid == 0 ? "root" : "shell")
                                     : g_strdup_printf ("%u", p->uid);
    }
  if (g_str_equal (n, "PID"))
    return g_strdup_printf ("%d", p->pid);
  if (g_str_equal (n, "TID"))
    return g_strdup_printf ("%d", p->tid);
  if (g_str_equal (n, "PPID"))
    return g_strdup_printf ("%d", p->ppid);
  if (g_str_equal (n, "PGID"))
    return g_strdup_printf ("%d", getpgid (p->pid));
  if (g_str_equal (n, "VSZ"))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, p->vsize / 1024);
  if (g_str_equal (n, "RSS"))
    return g_strdup_printf ("%" G_GINT64_FORMAT, p->rss_pages * (sysconf (_SC_PAGESIZE) / 1024));
  if (g_str_equal (n, "WCHAN"))
    return g_strdup ("0");
  if (g_str_equal (n, "ADDR"))
    return g_strdup ("0");
  if (g_str_equal (n, "S"))
    return g_strdup_printf ("%c", p->state);
  if (g_str_equal (n, "PRI"))
    return g_strdup_printf ("%d", 39 - p->priority);
  if (g_str_equal (n, "NI"))
    return g_strdup_printf ("%d", p->nice);
  if (g_str_equal (n, "RTPRIO"))
    return p->rtprio == 0 ? g_strdup ("-") : g_strdup_printf ("%u", p->rtprio);
  if (g_str_equal (n, "SCH"))
    return g_strdup_printf ("%u", p->policy);
  if (g_str_equal (n, "PCY"))
    {
      for (guint i = 0; i < apps->len; i++)
        if (((AppEntry *) apps->pdata[i])->pid == p->pid)
          return g_strdup ("ta");
      return g_strdup ("fg");
    }
  if (g_str_equal (n, "TIME"))
    {
      gint64 s = (p->utime + p->stime) / hz;

      return g_strdup_printf ("%02" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT,
                              s / 3600, (s / 60) % 60, s % 60);
    }
  if (g_str_equal (n, "NAME"))
    return p->argv0 != NULL ? g_strdup (base_name (p->argv0)) : g_strdup_printf ("[%s]", p->comm);
  if (g_str_equal (n, "CMD") || g_str_equal (n, "COMM"))
    return g_strdup (p->comm);
  if (g_str_equal (n, "CMDLINE") || g_str_equal (n, "ARGS"))
    return p->cmdline != NULL ? g_strdup (p->cmdline) : g_strdup_printf ("[%s]", p->comm);
  if (g_str_equal (n, "PSR") || g_str_equal (n, "CPU"))
    return g_strdup_printf ("%d", p->processor);
  if (g_str_equal (n, "TCNT"))
    return g_strdup_printf ("%d", p->threads);
  if (g_str_equal (n, "LABEL"))
    return g_strdup (p->uid == 0 ? "u:r:su:s0" : "u:r:untrusted_app:s0:c512,c768");
  if (g_str_equal (n, "C") || g_str_equal (n, "%CPU"))
    return g_strdup ("0");
  return g_strdup ("-");
}

/* toybox column layout: one space between fields, overflow borrowed from
 * the next field's padding, the last column unpadded (except in the header). */
static void
ps_print_row (GPtrArray  *fields,
              char      **values,
              gboolean    header)
{
  GString *line = g_string_new (NULL);
  int debt = 0;

  for (guint i = 0; i < fields->len; i++)
    {
      const PsField *f = fields->pdata[i];
      int width = ABS (f->width);
      int len = (int) strlen (values[i]);
      int pad = MAX (0, width - debt - len);
      gboolean last = i + 1 == fields->len;

      if (i > 0)
        g_string_append_c (line, ' ');
      if (f->width > 0)
        {
          for (int k = 0; k < pad; k++)
            g_string_append_c (line, ' ');
          g_string_append (line, values[i]);
        }
      else
        {
          g_string_append (line, values[i]);
          if (!last || header)
            for (int k = 0; k < pad; k++)
              g_string_append_c (line, ' ');
        }
      debt = MAX (0, debt + len - width);
      if (pad > 0)
        debt = 0;
    }
  printf ("%s\n", line->str);
  g_string_free (line, TRUE);
}

static void
ps_add_fields (GPtrArray  *fields,
               const char *spec)
{
  g_auto(GStrv) names = g_strsplit_set (spec, ", ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      char *eq = strchr (names[i], '=');
      const PsField *f;

      if (eq != NULL)
        *eq = '\0';
      if (names[i][0] == '\0')
        continue;
      f = ps_field (names[i]);
      if (f != NULL)
        g_ptr_array_add (fields, (gpointer) f);
    }
}

static int
tool_ps (Tool  *tool,
         int    argc,
         char **argv)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new ();
  g_autoptr(GPtrArray) apps = read_apps (tool);
  g_autoptr(GArray) pids = list_pids ();
  g_autoptr(GArray) only = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) mine = device_processes (tool);
  gboolean threads = FALSE, custom = FALSE, label = FALSE;
  g_autofree char *extra = NULL;

  g_array_sort (pids, compare_int);
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];

      if (a[0] == '-' && a[1] != '\0')
        {
          for (const char *c = a + 1; *c != '\0'; c++)
            {
              if (*c == 'T')
                threads = TRUE;
              else if (*c == 'Z')
                label = TRUE;
              else if ((*c == 'o' || *c == 'O' || *c == 'p') && i + 1 < argc && c[1] == '\0')
                {
                  const char *v = argv[++i];

                  if (*c == 'o')
                    {
                      custom = TRUE;
                      ps_add_fields (fields, v);
                    }
                  else if (*c == 'O')
                    extra = g_strdup (v);
                  else
                    {
                      g_auto(GStrv) list = g_strsplit (v, ",", -1);

                      for (guint k = 0; list[k] != NULL; k++)
                        {
                          int pid = atoi (list[k]);

                          g_array_append_val (only, pid);
                        }
                    }
                  break;
                }
            }
        }
      else
        g_ptr_array_add (names, (char *) a);
    }

  if (!custom)
    {
      if (label)
        ps_add_fields (fields, "LABEL");
      ps_add_fields (fields, threads ? "USER,PID,TID,PPID,VSZ,RSS,WCHAN,ADDR,S"
                                     : "USER,PID,PPID,VSZ,RSS,WCHAN,ADDR,S");
      if (extra != NULL)
        ps_add_fields (fields, extra);
      ps_add_fields (fields, threads ? "CMD" : "NAME");
    }
  if (fields->len == 0)
    return 1;

  {
    char **values = g_new0 (char *, fields->len + 1);

    for (guint i = 0; i < fields->len; i++)
      values[i] = (char *) ((const PsField *) fields->pdata[i])->name;
    ps_print_row (fields, values, TRUE);
    g_free (values);
  }

  for (guint i = 0; i < pids->len; i++)
    {
      int pid = g_array_index (pids, int, i);
      g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", pid);
      g_autofree char *dir_path = g_strdup_printf ("/proc/%d", pid);
      g_autoptr(GArray) tids = NULL;
      ProcInfo base = { .pid = pid, .tid = pid };
      struct stat st;
      gboolean wanted = only->len == 0 && names->len == 0;

      if (!g_hash_table_contains (mine, GINT_TO_POINTER (pid)) || !read_stat (stat_path, &base))
        continue;
      read_cmdline (&base);
      if (stat (dir_path, &st) == 0)
        base.uid = st.st_uid;
      for (guint k = 0; k < only->len; k++)
        wanted |= g_array_index (only, int, k) == pid;
      for (guint k = 0; k < names->len; k++)
        wanted |= (base.argv0 != NULL && g_str_equal (base_name (base.argv0), names->pdata[k])) ||
                  g_str_equal (base.comm, names->pdata[k]);
      if (!wanted)
        {
          g_free (base.argv0);
          g_free (base.cmdline);
          continue;
        }

      tids = g_array_new (FALSE, FALSE, sizeof (int));
      if (threads)
        {
          g_autofree char *task_dir = g_strdup_printf ("/proc/%d/task", pid);
          GDir *dir = g_dir_open (task_dir, 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              int tid = atoi (name);

              g_array_append_val (tids, tid);
            }
          if (dir != NULL)
            g_dir_close (dir);
          g_array_sort (tids, compare_int);
        }
      else
        g_array_append_val (tids, pid);

      for (guint t = 0; t < tids->len; t++)
        {
          ProcInfo p = base;
          char **values = g_new0 (char *, fields->len + 1);

          p.tid = g_array_index (tids, int, t);
          if (threads)
            {
              g_autofree char *tstat = g_strdup_printf ("/proc/%d/task/%d/stat", pid, p.tid);

              if (!read_stat (tstat, &p))
                {
                  g_free (values);
                  continue;
                }
            }
          for (guint f = 0; f < fields->len; f++)
            values[f] = ps_value (fields->pdata[f], &p, apps);
          ps_print_row (fields, values, FALSE);
          g_strfreev (values);
        }
      g_free (base.argv0);
      g_free (base.cmdline);
    }
  return 0;
}

/* ---- pm, cmd, am, monkey ----------------------------------------------- */

static GPtrArray *
installed_packages (Tool *tool)
{
  return adbscope_sim_tool_installed_packages (tool->sandbox);
}

/* An APK installed as a file (sim --apk, adb install): its real path, so
 * the shell can read its bytes; NULL for packages without a file. */
static char *
installed_apk_file (Tool       *tool,
                    const char *package)
{
  char *path = sandbox_path (tool, "root", "data", "app", package, "base.apk", NULL);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  g_free (path);
  return NULL;
}

static gint64
installed_version_code (Tool       *tool,
                        const char *package)
{
  g_autofree char *file = installed_apk_file (tool, package);
  g_autoptr(AdbscopeApkManifest) m = file != NULL ? adbscope_apk_read_manifest (file, NULL) : NULL;

  return m != NULL && m->version_code >= 0 ? m->version_code : 1;
}

static char *
apk_path (const char *package,
          gboolean    system)
{
  guint h = g_str_hash (package);

  if (system)
    return g_strdup_printf ("/system/priv-app/%s/%s.apk", package, package);
  return g_strdup_printf ("/data/app/~~%08X%04X==/%s-%06X==/base.apk", h, h & 0xffff, package, h >> 8);
}

static int
list_packages (Tool  *tool,
               int    argc,
               char **argv)
{
  g_autoptr(GPtrArray) apps = read_apps (tool);
  g_autoptr(GPtrArray) installed = installed_packages (tool);
  gboolean third = FALSE, files = FALSE, uids = FALSE, codes = FALSE;
  const char *filter = NULL;

  for (int i = 0; i < argc; i++)
    {
      if (g_str_equal (argv[i], "-3"))
        third = TRUE;
      else if (g_str_equal (argv[i], "-f"))
        files = TRUE;
      else if (g_str_equal (argv[i], "-U"))
        uids = TRUE;
      else if (g_str_equal (argv[i], "--show-versioncode"))
        codes = TRUE;
      else if (argv[i][0] != '-')
        filter = argv[i];
    }

#define PRINT(pkg, sys, uid) G_STMT_START { \
    if (filter == NULL || strstr (pkg, filter) != NULL) \
      { \
        g_autofree char *file = files ? installed_apk_file (tool, pkg) : NULL; \
        g_autofree char *path = files && file == NULL ? apk_path (pkg, sys) : NULL; \
        printf ("package:%s%s%s", files ? (file ? file : path) : "", files ? "=" : "", pkg); \
        if (codes) printf (" versionCode:%" G_GINT64_FORMAT, installed_version_code (tool, pkg)); \
        if (uids) printf (" uid:%d", uid); \
        printf ("\n"); \
      } } G_STMT_END

  if (!third)
    for (guint i = 0; i < G_N_ELEMENTS (system_packages); i++)
      PRINT (system_packages[i], TRUE, i == 0 ? 1000 : 10000 + (int) i);
  for (guint i = 0; i < apps->len; i++)
    if (strchr (((AppEntry *) apps->pdata[i])->package, ':') == NULL)  /* a process, not a package */
      PRINT (((AppEntry *) apps->pdata[i])->package, FALSE, ((AppEntry *) apps->pdata[i])->uid);
  for (guint i = 0; i < installed->len; i++)
    PRINT ((const char *) installed->pdata[i], FALSE, 10200 + (int) i);
#undef PRINT
  return 0;
}

static gboolean
package_known (Tool       *tool,
               const char *package)
{
  g_autoptr(GPtrArray) apps = read_apps (tool);

  for (guint i = 0; i < G_N_ELEMENTS (system_packages); i++)
    if (g_str_equal (system_packages[i], package))
      return TRUE;
  return find_app (apps, package) != NULL || adbscope_sim_tool_package_installed (tool->sandbox, package);
}

static int
package_install (Tool  *tool,
                 int    argc,
                 char **argv)
{
  return adbscope_sim_tool_package_install (tool->sandbox, tool->profile->sdk, argc, argv);
}

static int
tool_pm (Tool  *tool,
         int    argc,
         char **argv)
{
  if (argc >= 3 && g_str_equal (argv[1], "list") && g_str_equal (argv[2], "packages"))
    return list_packages (tool, argc - 3, argv + 3);
  if (argc >= 3 && g_str_equal (argv[1], "path"))
    {
      g_autofree char *path = NULL;
      gboolean system = FALSE;

      path = installed_apk_file (tool, argv[2]);
      if (path == NULL && !package_known (tool, argv[2]))
        return 1;
      for (guint i = 0; i < G_N_ELEMENTS (system_packages); i++)
        system |= g_str_equal (system_packages[i], argv[2]);
      if (path == NULL)
        path = apk_path (argv[2], system);
      printf ("package:%s\n", path);
      return 0;
    }
  if (argc >= 2 && g_str_equal (argv[1], "install"))
    return package_install (tool, argc - 1, argv + 1);
  if (argc >= 3 && g_str_equal (argv[1], "uninstall"))
    return adbscope_sim_tool_package_uninstall (tool->sandbox, argv[argc - 1]);
  if (argc >= 4 && g_str_equal (argv[1], "grant"))
    return adbscope_sim_tool_package_grant (tool->sandbox, tool->profile->sdk, argv[argc - 2], argv[argc - 1]);
  fprintf (stderr, "usage: pm list packages [-3] [-f] [-U] [FILTER] | pm path PACKAGE\n");
  return 1;
}

static int
tool_cmd (Tool  *tool,
          int    argc,
          char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "package"))
    {
      if (argc >= 4 && g_str_equal (argv[2], "resolve-activity"))
        {
          const char *package = argv[argc - 1];
          g_autoptr(GPtrArray) apps = read_apps (tool);

          if (find_app (apps, package) == NULL || strchr (package, ':') != NULL)
            {
              printf ("No activity found\n");
              return 0;
            }
          printf ("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n%s/.%s\n",
                  package, g_str_equal (package, ADBSCOPE_SIM_GAME_PACKAGE) ? "GameActivity" : "MainActivity");
          return 0;
        }
      if (argc >= 3 && g_str_equal (argv[2], "install"))
        return package_install (tool, argc - 2, argv + 2);
      return tool_pm (tool, argc - 1, argv + 1);
    }
  if (argc >= 2 && service_exists (tool, argv[1]))
    return 0;
  fprintf (stderr, "cmd: Can't find service: %s\n", argc >= 2 ? argv[1] : "");
  return 20;
}

static int
start_app_pid (Tool       *tool,
               const char *package,
               int        *pid)
{
  g_autofree char *line = g_strdup_printf ("start-app %s", package);
  g_autofree char *reply = control (tool, line);

  if (!g_str_has_prefix (reply, "ok"))
    {
      fprintf (stderr, "Error: Activity not started, unable to resolve Intent\n");
      return 1;
    }
  if (pid != NULL)
    *pid = atoi (reply + 2);
  return 0;
}

static int
start_app (Tool       *tool,
           const char *package)
{
  return start_app_pid (tool, package, NULL);
}

/* The newest frame a demo app has put on screen (CLOCK_MONOTONIC ns), or -1. */
static gint64
last_present (Tool       *tool,
              const char *package,
              int         pid)
{
  g_autofree AdbscopeSimAppState *st = g_new0 (AdbscopeSimAppState, 1);
  gint64 now = clock_ms (CLOCK_MONOTONIC) * 1000000;

  if (!read_app_state (tool, package, st) || st->pid != pid || st->sf_presented == 0)
    return -1;
  for (guint64 i = st->sf_presented; i > 0 && st->sf_presented - i < ADBSCOPE_SIM_SF_RING; i--)
    {
      gint64 t = st->sf_frames[(i - 1) % ADBSCOPE_SIM_SF_RING].actual_present;

      if (t <= now)
        return t;
    }
  return -1;
}

/* am start -W returns once the activity drew its first frame: wait for the
 * demo app to really present one after t0 (at most 10 s). */
static gint64
wait_first_frame_ms (Tool       *tool,
                     const char *package,
                     int         pid,
                     gint64      t0_ns)
{
  for (int i = 0; i < 2000; i++)
    {
      gint64 t = last_present (tool, package, pid);

      if (t > t0_ns)
        return (t - t0_ns) / 1000000;
      g_usleep (5000);
    }
  return -1;
}
static int
tool_am (Tool  *tool,
         int    argc,
         char **argv)
{
  if (argc >= 3 && (g_str_equal (argv[1], "force-stop") || g_str_equal (argv[1], "kill")))
    {
      g_autofree char *line = g_strdup_printf ("kill-app %s", argv[argc - 1]);
      g_autofree char *reply = control (tool, line);

      (void) reply;  /* like am: silent, even for an unknown package */
      return 0;
    }
  if (argc >= 2 && (g_str_equal (argv[1], "start") || g_str_equal (argv[1], "start-activity")))
    {
      gboolean wait = FALSE;
      const char *component = NULL;
      g_autofree char *package = NULL;
      gint64 t0 = g_get_monotonic_time ();
      int rc;

      for (int i = 2; i < argc; i++)
        {
          if (g_str_equal (argv[i], "-W"))
            wait = TRUE;
          else if (g_str_equal (argv[i], "-n") && i + 1 < argc)
            component = argv[++i];
        }
      if (component == NULL)
        {
          fprintf (stderr, "Error: no component given (use -n PKG/.Activity)\n");
          return 1;
        }
      rc = adbscope_sim_tool_am_start_agent (tool->sandbox, component, argc, argv);
      if (rc >= 0)
        return rc;
      package = g_strndup (component, strcspn (component, "/"));
      printf ("Starting: Intent { cmp=%s }\n", component);
      {
        g_autoptr(GPtrArray) apps = read_apps (tool);
        AppEntry *before = find_app (apps, package);
        gboolean running = before != NULL && before->pid > 0;
        gint64 t0_ns = clock_ms (CLOCK_MONOTONIC) * 1000000;
        int pid = 0;
        gint64 ms;

        rc = start_app_pid (tool, package, &pid);
        if (rc != 0 || !wait)
          return rc;
        /* The real time to the app's first frame after the request; an app
         * without frames (--app) is done when its process runs. */
        ms = wait_first_frame_ms (tool, package, pid, t0_ns);
        if (ms < 0)
          ms = (g_get_monotonic_time () - t0) / 1000;
        printf ("Status: ok\nLaunchState: %s\nActivity: %s\nTotalTime: %" G_GINT64_FORMAT
                "\nWaitTime: %" G_GINT64_FORMAT "\nComplete\n",
                running ? "HOT" : "COLD", component, ms, ms + 3);
      }
      return rc;
    }
  if (argc >= 3 && g_str_equal (argv[1], "get-standby-bucket"))
    {
      /* 10 = STANDBY_BUCKET_ACTIVE */
      printf ("%d\n", package_known (tool, argv[2]) ? 10 : 40);
      return 0;
    }
  fprintf (stderr, "usage: am [force-stop PKG | start [-W] -n PKG/.Activity | get-standby-bucket PKG]\n");
  return 1;
}

static int
tool_monkey (Tool  *tool,
             int    argc,
             char **argv)
{
  const char *package = NULL;

  for (int i = 1; i + 1 < argc; i++)
    if (g_str_equal (argv[i], "-p"))
      package = argv[i + 1];
  if (package == NULL)
    {
      fprintf (stderr, "usage: monkey -p PKG 1\n");
      return 1;
    }
  printf ("  bash arg: -p\n  bash arg: %s\n  bash arg: 1\nargs: [-p, %s, 1]\n arg: \"-p\"\n arg: \"%s\"\n arg: \"1\"\n"
          "data=\"%s\"\n", package, package, package, package);
  if (start_app (tool, package) != 0)
    {
      printf ("** No activities found to run, monkey aborted.\n");
      return 251;
    }
  printf ("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n");
  return 0;
}

/* ---- dumpsys ----------------------------------------------------------- */

static void
print_header_times (const char *title)
{
  printf ("%s\nUptime: %" G_GINT64_FORMAT " Realtime: %" G_GINT64_FORMAT "\n", title,
          clock_ms (CLOCK_MONOTONIC), clock_ms (CLOCK_BOOTTIME));
}

static int
hist_percentile (const guint32 *hist,
                 int            n,
                 int          (*bucket_ms) (int),
                 double         pct)
{
  guint64 total = 0, seen = 0;

  for (int i = 0; i < n; i++)
    total += hist[i];
  if (total == 0)
    return 0;
  for (int i = 0; i < n; i++)
    {
      seen += hist[i];
      if (seen * 100.0 >= total * pct)
        return bucket_ms (i);
    }
  return bucket_ms (n - 1);
}

static void
print_gfx_stats (const AdbscopeSimAppState *st,
                 AdbscopeSimFormat          format)
{
  guint64 total = st->total_frames;
  double div = total > 0 ? (double) total : 1.0;

  printf ("Stats since: %" G_GINT64_FORMAT "ns\n", st->stats_since_ns);
  printf ("Total frames rendered: %" G_GUINT64_FORMAT "\n", total);
  printf ("Janky frames: %" G_GUINT64_FORMAT " (%.2f%%)\n", st->janky_frames, st->janky_frames * 100.0 / div);
  if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    printf ("Janky frames (legacy): %" G_GUINT64_FORMAT " (%.2f%%)\n", st->janky_legacy,
            st->janky_legacy * 100.0 / div);
  printf ("50th percentile: %dms\n", hist_percentile (st->histogram, ADBSCOPE_SIM_APP_HIST, adbscope_sim_hist_bucket_ms, 50));
  printf ("90th percentile: %dms\n", hist_percentile (st->histogram, ADBSCOPE_SIM_APP_HIST, adbscope_sim_hist_bucket_ms, 90));
  printf ("95th percentile: %dms\n", hist_percentile (st->histogram, ADBSCOPE_SIM_APP_HIST, adbscope_sim_hist_bucket_ms, 95));
  printf ("99th percentile: %dms\n", hist_percentile (st->histogram, ADBSCOPE_SIM_APP_HIST, adbscope_sim_hist_bucket_ms, 99));
  printf ("Number Missed Vsync: %" G_GUINT64_FORMAT "\n", st->missed_vsync);
  printf ("Number High input latency: %" G_GUINT64_FORMAT "\n", st->high_input_latency);
  printf ("Number Slow UI thread: %" G_GUINT64_FORMAT "\n", st->slow_ui_thread);
  printf ("Number Slow bitmap uploads: %" G_GUINT64_FORMAT "\n", st->slow_bitmap_uploads);
  printf ("Number Slow issue draw commands: %" G_GUINT64_FORMAT "\n", st->slow_issue_draw);
  if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    {
      printf ("Number Frame deadline missed: %" G_GUINT64_FORMAT "\n", st->deadline_missed);
      printf ("Number Frame deadline missed (legacy): %" G_GUINT64_FORMAT "\n", st->deadline_missed_legacy);
    }
  printf ("HISTOGRAM:");
  for (int i = 0; i < ADBSCOPE_SIM_APP_HIST; i++)
    printf (" %dms=%u", adbscope_sim_hist_bucket_ms (i), st->histogram[i]);
  printf ("\n");
  if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    {
      printf ("50th gpu percentile: %dms\n", hist_percentile (st->gpu_histogram, ADBSCOPE_SIM_APP_GPU_HIST, adbscope_sim_gpu_bucket_ms, 50));
      printf ("90th gpu percentile: %dms\n", hist_percentile (st->gpu_histogram, ADBSCOPE_SIM_APP_GPU_HIST, adbscope_sim_gpu_bucket_ms, 90));
      printf ("95th gpu percentile: %dms\n", hist_percentile (st->gpu_histogram, ADBSCOPE_SIM_APP_GPU_HIST, adbscope_sim_gpu_bucket_ms, 95));
      printf ("99th gpu percentile: %dms\n", hist_percentile (st->gpu_histogram, ADBSCOPE_SIM_APP_GPU_HIST, adbscope_sim_gpu_bucket_ms, 99));
      printf ("GPU HISTOGRAM:");
      for (int i = 0; i < ADBSCOPE_SIM_APP_GPU_HIST; i++)
        printf (" %dms=%u", adbscope_sim_gpu_bucket_ms (i), st->gpu_histogram[i]);
      printf ("\n");
    }
}

static void
print_framestats (const AdbscopeSimAppState *st,
                  AdbscopeSimFormat          format)
{
  guint64 n = MIN (st->total_frames, (guint64) ADBSCOPE_SIM_APP_RING);

  printf ("---PROFILEDATA---\n");
  if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    printf ("Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,AnimationStart,"
            "PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,SyncStart,"
            "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,"
            "GpuCompleted,SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,\n");
  else
    printf ("Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,HandleInputStart,AnimationStart,"
            "PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,"
            "FrameCompleted,DequeueBufferDuration,QueueBufferDuration,\n");
  for (guint64 k = st->total_frames - n; k < st->total_frames; k++)
    {
      const AdbscopeSimFrame *f = &st->frames[k % ADBSCOPE_SIM_APP_RING];

      if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
        /* Android 12+ prints FrameStartTime before FrameInterval, whatever
         * the header says (seen in every real capture). */
        printf ("%u,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",0,%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",\n",
                f->flags, f->vsync_id, f->intended_vsync, f->vsync, f->handle_input_start,
                f->animation_start, f->perform_traversals_start, f->draw_start, f->frame_deadline,
                f->frame_start_time, f->frame_interval, f->sync_queued, f->sync_start,
                f->issue_draw_commands_start, f->swap_buffers, f->frame_completed,
                f->dequeue_buffer_duration, f->queue_buffer_duration, f->gpu_completed,
                f->swap_buffers_completed, f->display_present_time, f->command_submission_completed);
      else
        printf ("%u,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",\n",
                f->flags, f->intended_vsync, f->vsync, f->intended_vsync - 4000000,
                f->intended_vsync - 1000000, f->handle_input_start, f->animation_start,
                f->perform_traversals_start, f->draw_start, f->sync_queued, f->sync_start,
                f->issue_draw_commands_start, f->swap_buffers, f->frame_completed,
                f->dequeue_buffer_duration, f->queue_buffer_duration);
    }
  printf ("---PROFILEDATA---\n");
}

static int
dumpsys_gfxinfo (Tool  *tool,
                 int    argc,
                 char **argv)
{
  AdbscopeSimFormat format = tool->profile->format;
  g_autoptr(GPtrArray) apps = read_apps (tool);
  const char *package = argc >= 1 ? argv[0] : NULL;
  gboolean framestats = FALSE;
  AdbscopeSimAppState *st;
  AppEntry *app;
  char window[512];

  for (int i = 1; i < argc; i++)
    framestats |= g_str_equal (argv[i], "framestats");

  print_header_times ("Applications Graphics Acceleration Info:");
  app = package != NULL ? find_app (apps, package) : NULL;
  if (app == NULL || app->pid <= 0)
    {
      /* Android prints only the header for a package with no process. */
      return 0;
    }
  st = g_new0 (AdbscopeSimAppState, 1);
  if (!read_app_state (tool, package, st))
    {
      /* Not a demo app (--app): a process that never drew a frame. */
      printf ("\n** Graphics info for pid %d [%s] **\n\n", app->pid, package);
      printf ("Stats since: %" G_GINT64_FORMAT "ns\nTotal frames rendered: 0\n", clock_ms (CLOCK_MONOTONIC) * 1000000);
      g_free (st);
      return 0;
    }
  g_snprintf (window, sizeof window, "%s/%s.MainActivity", package, package);

  printf ("\n** Graphics info for pid %d [%s] **\n\n", app->pid, package);
  print_gfx_stats (st, format);
  if (format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    {
      printf ("\nPipeline=Skia (OpenGL)\n");
      printf ("CPU Caches:\n  Glyph Cache: 25.69 KB (1 entry)\n  Glyph Count: 20 \n");
      printf ("Total CPU memory usage:\n  26308 bytes, 25.69 KB (0.00 bytes is purgeable)\n");
      printf ("GPU Caches:\n  Other:\n    Other: 0.00 bytes (1 entry)\n  Image:\n    Texture: 291.63 KB (17 entries)\n"
              "  Scratch:\n    RenderTarget: 3.38 MB (3 entries)\n    Buffer Object: 78.00 KB (2 entries)\n");
      printf ("Total GPU memory usage:\n  3939252 bytes, 3.76 MB (1.66 MB is purgeable)\n\n");
      printf ("Profile data in ms:\n\n\t%s/android.view.ViewRootImpl@d945b3e (visibility=0)\n", window);
      printf ("Window: %s\n", window);
      print_gfx_stats (st, format);
      printf ("\n\n\n");
      if (framestats)
        print_framestats (st, format);
      printf ("\nView hierarchy:\n\n  %s/android.view.ViewRootImpl@d945b3e\n  %" G_GINT64_FORMAT
              " views, 63.21 kB of render nodes\n\n\n", window, st->views);
      printf ("Total ViewRootImpl   : 1\nTotal attached Views : %" G_GINT64_FORMAT "\n"
              "Total RenderNode     : 63.21 kB (used) / 96.00 kB (capacity)\n\n\n", st->views);
    }
  else
    {
      printf ("Caches:\nCurrent memory usage / total memory usage (bytes):\n"
              "  TextureCache           158760 / 49766400\n  Layers total          0 (numLayers = 0)\n"
              "  RenderBufferCache           0 /  4147200\n  GradientCache               0 /  1048576\n"
              "  PathCache                   0 /  8294400\n  TessellationCache         744 /  1048576\n"
              "  TextDropShadowCache         0 /  4147200\n  PatchCache                  0 /   131072\n"
              "  FontRenderer A8         44451 /  1183744\n    A8   texture 0        44451 /  1183744\n"
              "  FontRenderer RGBA           0 /        0\n  FontRenderer total      44451 /  1183744\n"
              "Other:\n  FboCache                    0 /        0\nTotal memory usage:\n"
              "  1343248 bytes, 1.28 MB\n\n\nPipeline=FrameBuilder\n");
      printf ("Profile data in ms:\n\n\t%s/android.view.ViewRootImpl@859603c (visibility=0)\n", window);
      if (framestats)
        print_framestats (st, format);
      printf ("View hierarchy:\n\n  %s/android.view.ViewRootImpl@859603c\n  %" G_GINT64_FORMAT
              " views, 95.10 kB of display lists\n\n\n", window, st->views);
      printf ("Total ViewRootImpl: 1\nTotal Views:        %" G_GINT64_FORMAT "\nTotal DisplayList:  95.10 kB\n\n\n",
              st->views);
    }
  g_free (st);
  return 0;
}

typedef struct
{
  gint64 pss, priv_dirty, priv_clean, swap_pss, rss;
} MemRow;

enum
{
  ROW_NATIVE, ROW_DALVIK, ROW_DALVIK_OTHER, ROW_STACK, ROW_ASHMEM, ROW_OTHER_DEV, ROW_SO,
  ROW_JAR, ROW_APK, ROW_TTF, ROW_DEX, ROW_OAT, ROW_ART, ROW_OTHER_MMAP, ROW_UNKNOWN, N_ROWS
};

static const char * const row_names[N_ROWS] = {
  "Native Heap", "Dalvik Heap", "Dalvik Other", "Stack", "Ashmem", "Other dev", ".so mmap",
  ".jar mmap", ".apk mmap", ".ttf mmap", ".dex mmap", ".oat mmap", ".art mmap", "Other mmap", "Unknown",
};

static int
classify_mapping (const char *name)
{
  if (name[0] == '\0' || g_str_has_prefix (name, "[anon:libc_malloc") || g_str_equal (name, "[heap]"))
    return ROW_NATIVE;
  if (strstr (name, "dalvik-main") != NULL || strstr (name, "dalvik-alloc") != NULL)
    return ROW_DALVIK;
  if (strstr (name, "dalvik-") != NULL)
    return ROW_DALVIK_OTHER;
  if (g_str_has_prefix (name, "[stack") || strstr (name, "thread stack") != NULL)
    return ROW_STACK;
  if (g_str_has_prefix (name, "/dev/"))
    return ROW_OTHER_DEV;
  if (g_str_has_suffix (name, ".so") || strstr (name, ".so.") != NULL)
    return ROW_SO;
  if (g_str_has_suffix (name, ".jar"))
    return ROW_JAR;
  if (g_str_has_suffix (name, ".apk"))
    return ROW_APK;
  if (g_str_has_suffix (name, ".ttf"))
    return ROW_TTF;
  if (name[0] == '[')
    return ROW_UNKNOWN;
  return ROW_OTHER_MMAP;
}

/* Per-category numbers from the process's real smaps. */
static gboolean
read_smaps (int     pid,
            MemRow *rows)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", pid);
  g_autofree char *text = read_text (path);
  g_auto(GStrv) lines = NULL;
  int current = ROW_UNKNOWN;

  if (text == NULL)
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      gint64 kb;

      if (g_ascii_isxdigit (l[0]) && strchr (l, '-') != NULL && strchr (l, ' ') != NULL)
        {
          /* "start-end perms offset dev inode   name" */
          const char *p = l;

          for (int field = 0; field < 5 && p != NULL; field++)
            {
              p = strchr (p, ' ');
              if (p != NULL)
                while (*p == ' ')
                  p++;
            }
          current = classify_mapping (p != NULL ? p : "");
          continue;
        }
      if (sscanf (l, "Pss: %" G_GINT64_MODIFIER "d", &kb) == 1)
        rows[current].pss += kb;
      else if (sscanf (l, "Rss: %" G_GINT64_MODIFIER "d", &kb) == 1)
        rows[current].rss += kb;
      else if (sscanf (l, "Private_Dirty: %" G_GINT64_MODIFIER "d", &kb) == 1)
        rows[current].priv_dirty += kb;
      else if (sscanf (l, "Private_Clean: %" G_GINT64_MODIFIER "d", &kb) == 1)
        rows[current].priv_clean += kb;
      else if (sscanf (l, "SwapPss: %" G_GINT64_MODIFIER "d", &kb) == 1)
        rows[current].swap_pss += kb;
    }
  return TRUE;
}

static int
dumpsys_meminfo (Tool  *tool,
                 int    argc,
                 char **argv)
{
  AdbscopeSimFormat format = tool->profile->format;
  gboolean rss = format >= ADBSCOPE_SIM_FORMAT_ANDROID_13;
  g_autoptr(GPtrArray) apps = read_apps (tool);
  AdbscopeSimAppState *st = g_new0 (AdbscopeSimAppState, 1);
  MemRow rows[N_ROWS] = { { 0 } };
  MemRow total = { 0 };
  const char *package = NULL;
  AppEntry *app;
  gint64 native_size, native_alloc, dalvik_size, dalvik_alloc;
  gint64 java, native, code, stack, graphics = 0, other, system, unknown_rss;

  for (int i = 0; i < argc; i++)
    if (argv[i][0] != '-')
      package = argv[i];
  if (package == NULL)
    {
      print_header_times ("Applications Memory Usage (in Kilobytes):");
      printf ("\nTotal RAM: see /proc/meminfo\n");
      g_free (st);
      return 0;
    }
  app = find_app (apps, package);
  if (app == NULL || app->pid <= 0 || !read_smaps (app->pid, rows))
    {
      printf ("No process found for: %s\n", package);
      g_free (st);
      return 0;
    }
  read_app_state (tool, package, st);

  for (int r = 0; r < N_ROWS; r++)
    {
      total.pss += rows[r].pss;
      total.priv_dirty += rows[r].priv_dirty;
      total.priv_clean += rows[r].priv_clean;
      total.swap_pss += rows[r].swap_pss;
      total.rss += rows[r].rss;
    }
  native_alloc = st->native_heap_alloc > 0 ? st->native_heap_alloc : rows[ROW_NATIVE].priv_dirty;
  native_size = st->native_heap_size > 0 ? st->native_heap_size : native_alloc + native_alloc / 8;
  dalvik_alloc = st->java_heap_alloc;
  dalvik_size = st->java_heap_size;

  print_header_times ("Applications Memory Usage (in Kilobytes):");
  printf ("\n** MEMINFO in pid %d [%s] **\n", app->pid, package);
  if (rss)
    printf ("                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap\n"
            "                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free\n"
            "                ------   ------   ------   ------   ------   ------   ------   ------\n");
  else
    printf ("                   Pss  Private  Private  SwapPss     Heap     Heap     Heap\n"
            "                 Total    Dirty    Clean    Dirty     Size    Alloc     Free\n"
            "                ------   ------   ------   ------   ------   ------   ------\n");
  for (int r = 0; r < N_ROWS; r++)
    {
      if (r != ROW_NATIVE && r != ROW_DALVIK && rows[r].pss == 0 && rows[r].rss == 0)
        continue;
      printf ("%13s %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT,
              row_names[r], rows[r].pss, rows[r].priv_dirty, rows[r].priv_clean, rows[r].swap_pss);
      if (rss)
        printf (" %8" G_GINT64_FORMAT, rows[r].rss);
      if (r == ROW_NATIVE)
        printf (" %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT,
                native_size, native_alloc, native_size - native_alloc);
      else if (r == ROW_DALVIK)
        printf (" %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT,
                dalvik_size, dalvik_alloc, dalvik_size - dalvik_alloc);
      printf ("\n");
    }
  printf ("%13s %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT,
          "TOTAL", total.pss, total.priv_dirty, total.priv_clean, total.swap_pss);
  if (rss)
    printf (" %8" G_GINT64_FORMAT, total.rss);
  printf (" %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT "\n",
          native_size + dalvik_size, native_alloc + dalvik_alloc,
          native_size - native_alloc + dalvik_size - dalvik_alloc);

  java = rows[ROW_DALVIK].priv_dirty + rows[ROW_ART].priv_dirty + rows[ROW_ART].priv_clean;
  native = rows[ROW_NATIVE].priv_dirty;
  code = rows[ROW_SO].priv_dirty + rows[ROW_SO].priv_clean + rows[ROW_JAR].priv_clean +
         rows[ROW_APK].priv_clean + rows[ROW_DEX].priv_clean + rows[ROW_OAT].priv_clean;
  stack = rows[ROW_STACK].priv_dirty;
  other = total.priv_dirty + total.priv_clean - java - native - code - stack - graphics;
  system = total.pss - (total.priv_dirty + total.priv_clean);
  unknown_rss = rows[ROW_UNKNOWN].rss + rows[ROW_OTHER_MMAP].rss;

  printf ("\n App Summary\n");
  if (rss)
    {
      printf ("                       Pss(KB)                        Rss(KB)\n"
              "                        ------                         ------\n");
      printf ("           Java Heap: %8" G_GINT64_FORMAT "                       %8" G_GINT64_FORMAT "\n",
              java, rows[ROW_DALVIK].rss + rows[ROW_ART].rss);
      printf ("         Native Heap: %8" G_GINT64_FORMAT "                       %8" G_GINT64_FORMAT "\n",
              native, rows[ROW_NATIVE].rss);
      printf ("                Code: %8" G_GINT64_FORMAT "                       %8" G_GINT64_FORMAT "\n",
              code, rows[ROW_SO].rss + rows[ROW_JAR].rss + rows[ROW_APK].rss + rows[ROW_DEX].rss + rows[ROW_OAT].rss);
      printf ("               Stack: %8" G_GINT64_FORMAT "                       %8" G_GINT64_FORMAT "\n",
              stack, rows[ROW_STACK].rss);
      printf ("            Graphics: %8" G_GINT64_FORMAT "                       %8" G_GINT64_FORMAT "\n",
              graphics, graphics);
      printf ("       Private Other: %8" G_GINT64_FORMAT "\n", other);
      printf ("              System: %8" G_GINT64_FORMAT "\n", system);
      printf ("             Unknown:                                %8" G_GINT64_FORMAT "\n", unknown_rss);
      printf ("\n           TOTAL PSS: %8" G_GINT64_FORMAT "            TOTAL RSS: %8" G_GINT64_FORMAT
              "       TOTAL SWAP PSS: %8" G_GINT64_FORMAT "\n", total.pss, total.rss, total.swap_pss);
    }
  else
    {
      printf ("                       Pss(KB)\n                        ------\n");
      printf ("           Java Heap: %8" G_GINT64_FORMAT "\n         Native Heap: %8" G_GINT64_FORMAT "\n"
              "                Code: %8" G_GINT64_FORMAT "\n               Stack: %8" G_GINT64_FORMAT "\n"
              "            Graphics: %8" G_GINT64_FORMAT "\n       Private Other: %8" G_GINT64_FORMAT "\n"
              "              System: %8" G_GINT64_FORMAT "\n", java, native, code, stack, graphics, other, system);
      printf ("\n               TOTAL: %8" G_GINT64_FORMAT "       TOTAL SWAP PSS: %8" G_GINT64_FORMAT "\n",
              total.pss, total.swap_pss);
    }
  printf ("\n Objects\n");
  printf ("               Views: %8" G_GINT64_FORMAT "         ViewRootImpl:        1\n", st->views);
  printf ("         AppContexts:        5           Activities:        1\n");
  printf ("              Assets:       12        AssetManagers:        0\n");
  printf ("       Local Binders:       16        Proxy Binders:       36\n");
  printf ("       Parcel memory:        7         Parcel count:       29\n");
  printf ("    Death Recipients:        0      OpenSSL Sockets:        0\n");
  printf ("            WebViews:        0\n");
  printf ("\n SQL\n         MEMORY_USED:        0\n  PAGECACHE_OVERFLOW:        0          MALLOC_SIZE:        0\n\n");
  g_free (st);
  return 0;
}

static int
dumpsys_battery (Tool *tool)
{
  gint64 level = read_number (tool, "capacity", 80);
  gint64 voltage = read_number (tool, "voltage_now", 3900000) / 1000;
  gint64 temp = read_number (tool, "temp", 280);
  gint64 counter = read_number (tool, "charge_counter", 3000000);

  printf ("Current Battery Service state:\n");
  printf ("  AC powered: false\n  USB powered: false\n  Wireless powered: false\n");
  if (tool->profile->format >= ADBSCOPE_SIM_FORMAT_ANDROID_14)
    printf ("  Dock powered: false\n");
  printf ("  Max charging current: 0\n  Max charging voltage: 0\n");
  printf ("  Charge counter: %" G_GINT64_FORMAT "\n", counter);
  /* 3 = BATTERY_STATUS_DISCHARGING, 2 = BATTERY_HEALTH_GOOD */
  printf ("  status: 3\n  health: 2\n  present: true\n");
  printf ("  level: %" G_GINT64_FORMAT "\n  scale: 100\n", level);
  printf ("  voltage: %" G_GINT64_FORMAT "\n  temperature: %" G_GINT64_FORMAT "\n", voltage, temp);
  printf ("  technology: Li-ion\n");
  return 0;
}

static int
dumpsys_thermal (Tool *tool)
{
  g_autofree char *path = sandbox_path (tool, "state", "thermal", NULL);
  g_autofree char *text = read_text (path);
  double cpu = 35, gpu = 32, skin = 29, battery = 28;
  gboolean aidl = tool->profile->format >= ADBSCOPE_SIM_FORMAT_ANDROID_14;
  int status;

  if (!tool->profile->thermalservice)
    {
      fprintf (stderr, "Can't find service: thermalservice\n");
      return 0;
    }
  if (text != NULL)
    sscanf (text, "CPU %lf\nGPU %lf\nSKIN %lf\nBATTERY %lf", &cpu, &gpu, &skin, &battery);
  /* THROTTLING_NONE … SEVERE, from the skin temperature */
  status = skin < 39 ? 0 : skin < 42 ? 1 : skin < 45 ? 2 : 3;

  printf ("IsStatusOverride: false\nThermalEventListeners:\n\tcallbacks: 1\n\tkilled: false\n"
          "\tbroadcasts count: -1\nThermalStatusListeners:\n\tcallbacks: 2\n\tkilled: false\n"
          "\tbroadcasts count: -1\n");
  printf ("Thermal Status: %d\n", status);
  printf ("Cached temperatures:\n");
  printf ("\tTemperature{mValue=%.1f, mType=0, mName=CPU, mStatus=%d}\n", cpu, status);
  printf ("\tTemperature{mValue=%.1f, mType=1, mName=GPU, mStatus=0}\n", gpu);
  printf ("\tTemperature{mValue=%.1f, mType=2, mName=BATTERY, mStatus=0}\n", battery);
  printf ("\tTemperature{mValue=%.1f, mType=3, mName=SKIN, mStatus=%d}\n", skin, status);
  printf ("HAL Ready: true\nHAL connection:\n");
  printf (aidl ? "\tThermalHAL AIDL 1  connected: yes\n" : "\tThermalHAL 2.0 connected: yes\n");
  printf ("Current temperatures from HAL:\n");
  printf ("\tTemperature{mValue=%.1f, mType=0, mName=CPU, mStatus=%d}\n", cpu, status);
  printf ("\tTemperature{mValue=%.1f, mType=1, mName=GPU, mStatus=0}\n", gpu);
  printf ("\tTemperature{mValue=%.1f, mType=2, mName=BATTERY, mStatus=0}\n", battery);
  printf ("\tTemperature{mValue=%.1f, mType=3, mName=SKIN, mStatus=%d}\n", skin, status);
  printf ("Current cooling devices from HAL:\n");
  printf ("\tCoolingDevice{mValue=0, mType=2, mName=cpu_adaptive_0}\n");
  printf ("\tCoolingDevice{mValue=0, mType=2, mName=cpu_adaptive_1}\n");
  printf ("Temperature static thresholds from HAL:\n");
  printf ("\tTemperatureThreshold{mType=3, mName=SKIN, mHotThrottlingThresholds=[NaN, 39.0, 42.0, 45.0, 48.0, 55.0, 60.0], "
          "mColdThrottlingThresholds=[NaN, NaN, NaN, NaN, NaN, NaN, NaN]}\n");
  return 0;
}

static int
dumpsys_deviceidle (Tool *tool)
{
  printf ("  Settings:\n    light_after_inactive_to=+3m0s0ms\n    light_idle_to=+5m0s0ms\n"
          "    inactive_to=+30m0s0ms\n    idle_after_inactive_to=+30m0s0ms\n    idle_to=+1h0m0s0ms\n");
  printf ("  Whitelist (except idle) system apps:\n    com.android.shell\n");
  printf ("  Whitelist system apps:\n    com.android.phone\n    com.google.android.gms\n");
  printf ("  mLightEnabled=true  mDeepEnabled=true\n  mForceIdle=false\n");
  printf ("  mUseMotionSensor=true mMotionSensor=null\n  mScreenOn=true\n  mScreenLocked=false\n");
  printf ("  mNetworkConnected=true\n  mCharging=false\n  mMotionActive=false\n  mNotMoving=false\n");
  if (tool->profile->format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
    printf ("  mState=ACTIVE mLightState=ACTIVE\n");
  else
    printf ("  mState=ACTIVE\n  mLightState=ACTIVE\n");
  printf ("  mInactiveTimeout=+30m0s0ms\n");
  return 0;
}

static int
dumpsys_cpuinfo (Tool *tool)
{
  g_autofree char *loadavg = read_text ("/proc/loadavg");
  double l1 = 0, l5 = 0, l15 = 0;

  if (loadavg != NULL)
    sscanf (loadavg, "%lf %lf %lf", &l1, &l5, &l15);
  printf ("Load: %.2f / %.2f / %.2f\n", l1, l5, l15);
  printf ("CPU usage from 60000ms to 0ms ago:\n");
  printf ("  (per-process figures are not simulated; read /proc/PID/stat)\n");
  return 0;
}

static int
dumpsys_alarm (Tool *tool)
{
  g_autoptr(GPtrArray) apps = read_apps (tool);

  printf ("Current Alarm Manager state:\n  Settings:\n    min_futurity=+5s0ms\n    min_interval=+1m0s0ms\n\n");
  printf ("  nowRTC=%" G_GINT64_FORMAT " nowELAPSED=%" G_GINT64_FORMAT "\n", g_get_real_time () / 1000,
          clock_ms (CLOCK_BOOTTIME));
  printf ("  Next alarm clock information: \n  \n  %u pending alarms: \n", apps->len);
  for (guint i = 0; i < apps->len; i++)
    {
      AppEntry *e = apps->pdata[i];
      gint64 when = clock_ms (CLOCK_BOOTTIME) + 900000;

      printf ("    ELAPSED_WAKEUP #%u: Alarm{%07x type 2 origWhen %" G_GINT64_FORMAT " whenElapsed %" G_GINT64_FORMAT " %s}\n",
              i + 1, g_str_hash (e->package) & 0xfffffff, when, when, e->package);
      printf ("      tag=*walarm*:%s/.SyncAlarm\n", e->package);
      printf ("      type=ELAPSED_WAKEUP origWhen=+15m0s0ms window=+10m0s0ms repeatInterval=900000 count=0 flags=0x0\n");
    }
  return 0;
}

static int
dumpsys_jobscheduler (Tool *tool)
{
  g_autoptr(GPtrArray) apps = read_apps (tool);

  printf ("Started users: [0]\nRegistered %u jobs:\n", apps->len);
  for (guint i = 0; i < apps->len; i++)
    {
      AppEntry *e = apps->pdata[i];

      printf ("  JOB #u0a%d/%u: %07x %s/.SyncJobService\n", e->uid - 10000, i + 1,
              g_str_hash (e->package) & 0xfffffff, e->package);
      printf ("    u0a%d tag=*job*/%s/.SyncJobService\n", e->uid - 10000, e->package);
      printf ("    Source: uid=u0a%d user=0 pkg=%s\n", e->uid - 10000, e->package);
      printf ("    Required constraints: CONNECTIVITY\n");
    }
  printf ("\nPending queue:\n\nActive jobs:\n  Slot #0: inactive since +1m0s0ms\n");
  return 0;
}

static int
tool_dumpsys (Tool  *tool,
              int    argc,
              char **argv)
{
  const char *service;

  if (argc < 2 || g_str_equal (argv[1], "-l"))
    {
      printf ("Currently running services:\n");
      for (guint i = 0; i < G_N_ELEMENTS (services); i++)
        if (service_exists (tool, services[i]))
          printf ("  %s\n", services[i]);
      return 0;
    }
  service = argv[1];
  if (!service_exists (tool, service))
    {
      fprintf (stderr, "Can't find service: %s\n", service);
      return 0;
    }
  if (g_str_equal (service, "gfxinfo"))
    return dumpsys_gfxinfo (tool, argc - 2, argv + 2);
  if (g_str_equal (service, "meminfo"))
    return dumpsys_meminfo (tool, argc - 2, argv + 2);
  if (g_str_equal (service, "battery"))
    return dumpsys_battery (tool);
  if (g_str_equal (service, "thermalservice"))
    return dumpsys_thermal (tool);
  if (g_str_equal (service, "deviceidle"))
    return dumpsys_deviceidle (tool);
  if (g_str_equal (service, "cpuinfo"))
    return dumpsys_cpuinfo (tool);
  if (g_str_equal (service, "alarm"))
    return dumpsys_alarm (tool);
  if (g_str_equal (service, "jobscheduler"))
    return dumpsys_jobscheduler (tool);
  if (g_str_equal (service, "package"))
    return adbscope_sim_tool_dumpsys_package (tool->sandbox, argc - 2, argv + 2);
  if (g_str_equal (service, "activity"))
    return adbscope_sim_tool_dumpsys_activity (tool->sandbox, argc - 2, argv + 2);
  if (g_str_equal (service, "SurfaceFlinger"))
    {
      g_autoptr(GPtrArray) apps = read_apps (tool);
      g_autoptr(GPtrArray) running = g_ptr_array_new ();

      for (guint i = 0; i < apps->len; i++)
        if (((AppEntry *) apps->pdata[i])->pid > 0)
          g_ptr_array_add (running, ((AppEntry *) apps->pdata[i])->package);
      g_ptr_array_add (running, NULL);
      return adbscope_sim_surfaceflinger_dump (tool->profile, tool->sandbox,
                                               (const char * const *) running->pdata, argc - 2, argv + 2);
    }
  return 0;
}

static int
tool_input (Tool  *tool,
            int    argc,
            char **argv)
{
  return 0;
}

int
adbscope_sim_tool_main (int    argc,
                        char **argv)
{
  Tool tool = { 0 };
  const char *name;

  if (argc < 2)
    {
      fprintf (stderr, "usage: adbscope sim-tool NAME [ARG…] (run by the simulated device's shell)\n");
      return 2;
    }
  tool.sandbox = g_getenv (ADBSCOPE_SIM_ENV_SANDBOX);
  tool.profile = adbscope_sim_profile_lookup (g_getenv (ADBSCOPE_SIM_ENV_PROFILE));
  if (tool.sandbox == NULL || tool.profile == NULL)
    {
      fprintf (stderr, "%s\n", _("adbscope sim-tool runs only inside the simulated device's shell"));
      return 2;
    }
  name = argv[1];
  argc -= 1;
  argv += 1;
  if (g_getenv (ADBSCOPE_SIM_ENV_REPLAY) != NULL)
    return adbscope_sim_replay_tool (tool.sandbox, g_getenv (ADBSCOPE_SIM_ENV_REPLAY), argc, argv);

  if (g_str_equal (name, "getprop"))
    return tool_getprop (&tool, argc, argv);
  if (g_str_equal (name, "setprop"))
    return 0;
  if (g_str_equal (name, "getconf"))
    return tool_getconf (&tool, argc, argv);
  if (g_str_equal (name, "wm"))
    return tool_wm (&tool, argc, argv);
  if (g_str_equal (name, "settings"))
    return tool_settings (&tool, argc, argv);
  if (g_str_equal (name, "selftest-client"))
    return adbscope_sim_tool_selftest_client (argc, argv);
  if (g_str_equal (name, "service"))
    return tool_service (&tool, argc, argv);
  if (g_str_equal (name, "pidof"))
    return tool_pidof (&tool, argc, argv);
  if (g_str_equal (name, "ps"))
    return tool_ps (&tool, argc, argv);
  if (g_str_equal (name, "pm"))
    return tool_pm (&tool, argc, argv);
  if (g_str_equal (name, "cmd"))
    return tool_cmd (&tool, argc, argv);
  if (g_str_equal (name, "am"))
    return tool_am (&tool, argc, argv);
  if (g_str_equal (name, "monkey"))
    return tool_monkey (&tool, argc, argv);
  if (g_str_equal (name, "dumpsys"))
    return tool_dumpsys (&tool, argc, argv);
  if (g_str_equal (name, "input"))
    return tool_input (&tool, argc, argv);
  if (g_str_equal (name, "screencap"))
    return adbscope_sim_screencap_main (tool.sandbox, tool.profile, argc, argv);
  fprintf (stderr, "%s: not found\n", name);
  return 127;
}
