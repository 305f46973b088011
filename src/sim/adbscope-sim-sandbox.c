/* adbscope-sim-sandbox.c: the simulated device's private directory
 *
 *   SANDBOX/bin/      fake Android tools (scripts that run `adbscope sim-tool`)
 *   SANDBOX/root/     the device's files: sync paths and the shell's cwd
 *   SANDBOX/state/    live state: apps, battery, thermal, the demo app's mmap
 *   SANDBOX/sys/cpu/  a /sys/devices/system/cpu tree with the profile's cpufreq
 *   SANDBOX/sys/power_supply/  battery, usb, ac
 *   SANDBOX/empty/    bound over /proc/pressure when the profile has no PSI
 *
 * Shell and app children get a private mount namespace where those trees
 * are bound over the real paths (adbscope_sim_enter_profile_namespace; a
 * user namespace where the sim is not root).  Whether that works here is
 * tried once at start: where it cannot (a container without mount
 * privileges), a profile that hides something the host has (no PSI, no
 * cpufreq) is refused with an error, and any other profile runs with a
 * warning that cpufreq and the battery are the host's.
 * Everything the device writes is under SANDBOX.
 */
#include "config.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "adbscope-error.h"
#include "adbscope-sim-app-state.h"
#include "adbscope-sim-private.h"

static const char * const tool_names[] = {
  "getprop", "setprop", "dumpsys", "pm", "am", "cmd", "service", "settings", "pidof",
  "ps", "getconf", "wm", "monkey", "input", "screencap",
};

#define MAX_POLICIES 16
#define MAX_FREQS    16

typedef struct
{
  int     first_cpu;
  int     n_cpus;
  int     n_freqs;
  guint   freqs[MAX_FREQS];       /* kHz */
  guint64 time_in_state[MAX_FREQS];
  int     cur;
  char   *dir;
} Policy;

static Policy policies[MAX_POLICIES];
static int    n_policies;
static gint64 start_time;
static gint64 last_tick;
static double battery_level = 87.0;
static double battery_temp = 28.0;
static double skin_temp = 29.0;
static double cpu_temp = 34.0;

void
adbscope_sim_write_atomic (const char *path,
                           const char *contents)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, contents, -1, &error))
    g_debug ("sim: %s", error->message);
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_mkdir_with_parents (parent, 0755);
  adbscope_sim_write_atomic (path, contents);
}

static char *
read_sys (const char *path)
{
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return contents;
}

static void
copy_real (const char *real_dir,
           const char *fake_dir,
           const char *name)
{
  g_autofree char *src = g_build_filename (real_dir, name, NULL);
  g_autofree char *contents = read_sys (src);

  if (contents != NULL)
    write_file (fake_dir, name, contents);
}

static char *
cpu_list (int first,
          int n)
{
  return n == 1 ? g_strdup_printf ("%d\n", first) : g_strdup_printf ("%d-%d\n", first, first + n - 1);
}

/* Clusters: little/mid/big where the host has 3 or more CPUs, one per CPU
 * otherwise (documented in docs/sim.md). */
static void
plan_policies (int n_cpus)
{
  static const guint tables[3][8] = {
    { 324000, 610000, 820000, 955000, 1098000, 1197000, 1328000, 1704000 },
    { 402000, 578000, 697000, 1000000, 1295000, 1581000, 1885000, 2367000 },
    { 500000, 851000, 1106000, 1401000, 1826000, 2253000, 2600000, 2914000 },
  };
  int sizes[MAX_POLICIES] = { 0 };
  int table_of[MAX_POLICIES] = { 0 };
  int first = 0;

  if (n_cpus >= 3)
    {
      sizes[0] = MAX (1, n_cpus / 2);
      sizes[2] = 1;
      sizes[1] = n_cpus - sizes[0] - sizes[2];
      n_policies = sizes[1] > 0 ? 3 : 2;
      if (sizes[1] == 0)
        sizes[1] = 1, sizes[2] = 0;
      table_of[0] = 0, table_of[1] = n_policies == 3 ? 1 : 2, table_of[2] = 2;
    }
  else
    {
      n_policies = MIN (n_cpus, MAX_POLICIES);
      for (int i = 0; i < n_policies; i++)
        sizes[i] = 1, table_of[i] = i == 0 ? 0 : 2;
    }
  for (int i = 0; i < n_policies; i++)
    {
      policies[i].first_cpu = first;
      policies[i].n_cpus = sizes[i];
      policies[i].n_freqs = 8;
      memcpy (policies[i].freqs, tables[table_of[i]], sizeof tables[0]);
      policies[i].cur = 0;
      first += sizes[i];
    }
}

static void
write_policy (Policy *p)
{
  g_autofree char *related = cpu_list (p->first_cpu, p->n_cpus);
  g_autoptr(GString) avail = g_string_new (NULL);
  g_autoptr(GString) tis = g_string_new (NULL);
  char buf[64];

  for (int i = 0; i < p->n_freqs; i++)
    g_string_append_printf (avail, "%u ", p->freqs[i]);
  g_string_append_c (avail, '\n');
  for (int i = 0; i < p->n_freqs; i++)
    g_string_append_printf (tis, "%u %" G_GUINT64_FORMAT "\n", p->freqs[i], p->time_in_state[i]);

  write_file (p->dir, "related_cpus", related);
  write_file (p->dir, "affected_cpus", related);
  write_file (p->dir, "scaling_available_frequencies", avail->str);
  write_file (p->dir, "scaling_governor", "schedutil\n");
  write_file (p->dir, "scaling_available_governors", "performance powersave schedutil\n");
  write_file (p->dir, "scaling_driver", "cpufreq-dt\n");
  g_snprintf (buf, sizeof buf, "%u\n", p->freqs[0]);
  write_file (p->dir, "cpuinfo_min_freq", buf);
  write_file (p->dir, "scaling_min_freq", buf);
  g_snprintf (buf, sizeof buf, "%u\n", p->freqs[p->n_freqs - 1]);
  write_file (p->dir, "cpuinfo_max_freq", buf);
  write_file (p->dir, "scaling_max_freq", buf);
  g_snprintf (buf, sizeof buf, "%u\n", p->freqs[p->cur]);
  write_file (p->dir, "scaling_cur_freq", buf);
  write_file (p->dir, "cpuinfo_cur_freq", buf);
  write_file (p->dir, "stats/time_in_state", tis->str);
}

static void
build_cpu_tree (AdbscopeSimDevice *device,
                const char        *cpu_dir)
{
  const char *real = "/sys/devices/system/cpu";
  static const char * const top[] = { "online", "possible", "present", "offline", "kernel_max" };
  static const char * const topo[] = {
    "core_id", "physical_package_id", "cluster_id", "core_cpus_list", "core_siblings_list",
    "thread_siblings_list", "package_cpus_list", "cluster_cpus_list",
  };

  for (guint i = 0; i < G_N_ELEMENTS (top); i++)
    copy_real (real, cpu_dir, top[i]);
  for (int c = 0; c < device->n_cpus; c++)
    {
      g_autofree char *real_cpu = g_strdup_printf ("%s/cpu%d", real, c);
      g_autofree char *real_topo = g_strdup_printf ("%s/cpu%d/topology", real, c);
      g_autofree char *fake_cpu = g_strdup_printf ("%s/cpu%d", cpu_dir, c);
      g_autofree char *fake_topo = g_strdup_printf ("%s/cpu%d/topology", cpu_dir, c);

      g_mkdir_with_parents (fake_cpu, 0755);
      copy_real (real_cpu, fake_cpu, "online");
      for (guint i = 0; i < G_N_ELEMENTS (topo); i++)
        copy_real (real_topo, fake_topo, topo[i]);
    }

  if (!device->profile->cpufreq)
    return;
  plan_policies (device->n_cpus);
  for (int i = 0; i < n_policies; i++)
    {
      Policy *p = &policies[i];

      p->dir = g_strdup_printf ("%s/cpufreq/policy%d", cpu_dir, p->first_cpu);
      g_mkdir_with_parents (p->dir, 0755);
      write_policy (p);
      for (int c = p->first_cpu; c < p->first_cpu + p->n_cpus; c++)
        {
          g_autofree char *link = g_strdup_printf ("%s/cpu%d/cpufreq", cpu_dir, c);
          g_autofree char *target = g_strdup_printf ("../cpufreq/policy%d", p->first_cpu);

          if (symlink (target, link) != 0)
            g_debug ("sim: symlink %s: %s", link, g_strerror (errno));
        }
    }
}

/* Tries the profile's namespace in a throw-away child and checks the
 * binds are really in place. */
static gboolean
profile_namespace_works (AdbscopeSimDevice *device)
{
  int status = 0;
  pid_t pid = fork ();

  if (pid < 0)
    return FALSE;
  if (pid == 0)
    {
      struct stat a, b;
      gboolean ok = adbscope_sim_enter_profile_namespace (device);

      if (ok && device->ns_cpu_dir != NULL)
        ok = stat (device->ns_cpu_dir, &a) == 0 && stat ("/sys/devices/system/cpu", &b) == 0 &&
             a.st_dev == b.st_dev && a.st_ino == b.st_ino;
      if (ok && device->ns_empty_dir != NULL)
        ok = stat (device->ns_empty_dir, &a) == 0 && stat ("/proc/pressure", &b) == 0 &&
             a.st_dev == b.st_dev && a.st_ino == b.st_ino;
      _exit (ok ? 0 : 1);
    }
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static gboolean
check_profile_namespace (AdbscopeSimDevice  *device,
                         GError            **error)
{
  gboolean hides = (!device->profile->psi && g_file_test ("/proc/pressure", G_FILE_TEST_IS_DIR)) ||
                   (!device->profile->cpufreq && g_file_test ("/sys/devices/system/cpu/cpu0/cpufreq", G_FILE_TEST_IS_DIR));

  if (profile_namespace_works (device))
    return TRUE;
  device->use_namespace = FALSE;
  if (hides)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("The profile %s hides /proc/pressure and cpufreq, but this system gives the "
                     "simulated device no private mount namespace (no mount privileges, no user "
                     "namespaces): it would show what the profile says it does not have. "
                     "Run it where namespaces are allowed, or use another profile"),
                   device->profile->name);
      return FALSE;
    }
  g_printerr ("adbscope sim: %s\n",
              _("no private mount namespace here: the shell sees the host's cpufreq and "
                "power supplies, not the profile's"));
  return TRUE;
}

static char *
tool_script (AdbscopeSimDevice *device,
             const char        *name)
{
  g_autofree char *exe = g_shell_quote (device->self_exe);

  return g_strdup_printf ("#!/bin/sh\nexec %s sim-tool %s \"$@\"\n", exe, name);
}

/* What a phone's toybox has, from the host; anything else is "not found". */
static const char * const replay_utilities[] = {
  "grep", "cat", "head", "tail", "sed", "awk", "cut", "tr", "wc", "sort", "uniq", "ls", "sleep", "date",
  "echo", "printf", "id", "uname", "mkdir", "rm", "rmdir", "cp", "mv", "touch", "dd", "chmod", "ln", "env",
  "kill", "true", "false", "test", "[", "xargs", "find", "md5sum", "sha1sum", "base64", "stat", "readlink",
  "basename", "dirname", "which", "timeout", "nproc", "tee", "od", "expr", "seq", "yes", "du", "df", "sh",
};

/* The replay's shell: bash (its handler says "not found" as a phone's
 * mksh does), the toybox-like utilities, the capture's trees. */
static gboolean
replay_create (AdbscopeSimDevice  *device,
               const char         *bin,
               GError            **error)
{
  g_autofree char *xbin = g_build_filename (device->sandbox, "xbin", NULL);
  g_autofree char *rc = g_build_filename (device->fs_root, ".bashrc", NULL);
  const char *proc_dir, *sys_dir, *hostproc_dir;

  g_mkdir_with_parents (xbin, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (replay_utilities); i++)
    {
      g_autofree char *host = g_find_program_in_path (replay_utilities[i]);
      g_autofree char *link = g_build_filename (xbin, replay_utilities[i], NULL);

      if (host != NULL && symlink (host, link) != 0 && errno != EEXIST)
        {
          int e = errno;

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s: %s", link, g_strerror (e));
          return FALSE;
        }
    }
  if (!g_file_set_contents (rc, "command_not_found_handle () { printf '/system/bin/sh: %s: not found\n' \"$1\" >&2; return 127; }\n"
                                "PS1='# '\n", -1, error))
    return FALSE;
  if (!adbscope_sim_replay_prepare (device, error))
    return FALSE;
  adbscope_sim_replay_get_dirs (device->replay, &proc_dir, &sys_dir, &hostproc_dir);
  device->replay_proc_dir = g_strdup (proc_dir);
  device->replay_sys_dir = g_strdup (sys_dir);
  device->replay_hostproc_dir = g_strdup (hostproc_dir);
  return TRUE;
}

gboolean
adbscope_sim_sandbox_create (AdbscopeSimDevice *device,
                             GError           **error)
{
  g_autofree char *bin = NULL;
  g_autofree char *state = NULL;
  char *exe;

  exe = g_file_read_link ("/proc/self/exe", error);
  if (exe == NULL)
    return FALSE;
  device->self_exe = exe;
  device->sandbox = g_dir_make_tmp ("adbscope-sim-XXXXXX", error);
  if (device->sandbox == NULL)
    return FALSE;
  device->fs_root = g_build_filename (device->sandbox, "root", NULL);
  bin = g_build_filename (device->sandbox, "bin", NULL);
  state = g_build_filename (device->sandbox, "state", NULL);

  g_mkdir_with_parents (bin, 0755);
  g_mkdir_with_parents (state, 0755);
  for (guint i = 0; i < 4; i++)
    {
      static const char * const dirs[] = { "data/local/tmp", "sdcard", "data/app", "tmp" };
      g_autofree char *d = g_build_filename (device->fs_root, dirs[i], NULL);

      g_mkdir_with_parents (d, 0755);
    }
  {
    g_autofree char *tmp = g_build_filename (device->sandbox, "tmp", NULL);

    g_mkdir_with_parents (tmp, 0700);
  }

  for (guint i = 0; i < G_N_ELEMENTS (tool_names); i++)
    {
      g_autofree char *path = g_build_filename (bin, tool_names[i], NULL);
      g_autofree char *script = tool_script (device, tool_names[i]);

      if (!g_file_set_contents (path, script, -1, error) || g_chmod (path, 0755) != 0)
        return FALSE;
    }

  device->n_cpus = (int) g_get_num_processors ();
  {
    g_autofree char *online = read_sys ("/sys/devices/system/cpu/possible");
    int lo, hi;

    if (online != NULL && sscanf (online, "%d-%d", &lo, &hi) == 2 && hi + 1 > device->n_cpus)
      device->n_cpus = hi + 1;
  }

  /* The profile's /sys and /proc, for a private mount namespace. */
  device->use_namespace = TRUE;
  if (device->replay != NULL)
    {
      if (!replay_create (device, bin, error))
        return FALSE;
    }
  else if (device->use_namespace)
    {
      device->ns_cpu_dir = g_build_filename (device->sandbox, "sys", "cpu", NULL);
      g_mkdir_with_parents (device->ns_cpu_dir, 0755);
      build_cpu_tree (device, device->ns_cpu_dir);
      if (!device->profile->psi && g_file_test ("/proc/pressure", G_FILE_TEST_IS_DIR))
        {
          device->ns_empty_dir = g_build_filename (device->sandbox, "empty", NULL);
          g_mkdir_with_parents (device->ns_empty_dir, 0755);
        }
      if (g_file_test ("/sys/class/power_supply", G_FILE_TEST_IS_DIR))
        {
          device->ns_power_dir = g_build_filename (device->sandbox, "sys", "power_supply", NULL);
          g_mkdir_with_parents (device->ns_power_dir, 0755);
        }
      adbscope_sim_gpu_create (device);
    }
  if (device->replay != NULL && !profile_namespace_works (device))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
                   _("A replay needs a private mount namespace for the capture's /proc and /sys, "
                     "and this system gives the simulated device none (no mount privileges, no user namespaces)"));
      return FALSE;
    }
  if (device->replay == NULL && !check_profile_namespace (device, error))
    return FALSE;

  {
    g_auto(GStrv) env = g_get_environ ();
    g_autofree char *path = device->replay != NULL ? g_strdup_printf ("%s:%s/xbin", bin, device->sandbox)
                            : g_strdup_printf ("%s:/usr/sbin:/usr/bin:/sbin:/bin", bin);
    g_autofree char *tmpdir = g_build_filename (device->sandbox, "tmp", NULL);
    g_autofree char *profile = g_strdup (device->profile->name);

    env = g_environ_setenv (env, "PATH", path, TRUE);
    env = g_environ_setenv (env, "HOME", device->fs_root, TRUE);
    env = g_environ_setenv (env, "TMPDIR", tmpdir, TRUE);
    env = g_environ_setenv (env, "PWD", device->fs_root, TRUE);
    env = g_environ_setenv (env, "SHELL", "/bin/sh", TRUE);
    env = g_environ_setenv (env, "ANDROID_DATA", "/data", TRUE);
    env = g_environ_setenv (env, "ANDROID_ROOT", "/system", TRUE);
    env = g_environ_setenv (env, "EXTERNAL_STORAGE", "/sdcard", TRUE);
    env = g_environ_setenv (env, ADBSCOPE_SIM_ENV_SANDBOX, device->sandbox, TRUE);
    env = g_environ_setenv (env, ADBSCOPE_SIM_ENV_PROFILE, profile, TRUE);
    env = g_environ_setenv (env, ADBSCOPE_SIM_ENV_EXE, device->self_exe, TRUE);
    if (device->replay != NULL)
      {
        g_autofree char *rc = g_build_filename (device->fs_root, ".bashrc", NULL);

        env = g_environ_setenv (env, ADBSCOPE_SIM_ENV_REPLAY, adbscope_sim_replay_get_dir (device->replay), TRUE);
        env = g_environ_setenv (env, "BASH_ENV", rc, TRUE);
        /* LeakSanitizer (sanitizer builds) walks /proc/PID/task at exit,
         * which the capture's /proc does not have. */
        {
          const char *asan = g_environ_getenv (env, "ASAN_OPTIONS");
          g_autofree char *opts = g_strconcat (asan != NULL ? asan : "", asan != NULL ? ":" : "", "detect_leaks=0", NULL);

          env = g_environ_setenv (env, "ASAN_OPTIONS", opts, TRUE);
        }
      }
    env = g_environ_unsetenv (env, "TERM");
    env = g_environ_unsetenv (env, "ADB");
    env = g_environ_unsetenv (env, "ANDROID_ADB_SERVER_PORT");
    env = g_environ_unsetenv (env, "ADB_SERVER_SOCKET");
    device->child_env = g_steal_pointer (&env);
  }

  start_time = g_get_monotonic_time ();
  last_tick = start_time;
  {
    g_autofree char *t = g_strdup_printf ("%" G_GINT64_FORMAT "\n", g_get_real_time () / G_USEC_PER_SEC);

    write_file (state, "boot_time", t);
  }
  {
    /* The fake pidof and ps show this device's processes only: several
     * simulated devices may share the host's /proc. */
    g_autofree char *pid = g_strdup_printf ("%d\n", getpid ());

    write_file (state, "device_pid", pid);
  }
  return TRUE;
}

static int
read_demo_phase (AdbscopeSimDevice *device)
{
  g_autofree char *path = g_build_filename (device->sandbox, "state",
                                            ADBSCOPE_SIM_DEMO_PACKAGE ".state", NULL);
  guint32 phase = ADBSCOPE_SIM_PHASE_IDLE;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return -1;
  if (pread (fd, &phase, sizeof phase, G_STRUCT_OFFSET (AdbscopeSimAppState, phase)) != sizeof phase)
    phase = ADBSCOPE_SIM_PHASE_IDLE;
  close (fd);
  if (adbscope_sim_apps_get_pid (device, ADBSCOPE_SIM_DEMO_PACKAGE) <= 0)
    return -1;
  return (int) phase;
}

static double
approach (double current,
          double target,
          double dt,
          double tau)
{
  return target + (current - target) * exp (-dt / tau);
}

/* Every 500 ms: cpufreq follows the demo app's CPU phase; the battery
 * drains and warms with it. */
void
adbscope_sim_sandbox_tick (AdbscopeSimDevice *device)
{
  gint64 now = g_get_monotonic_time ();
  double dt = (now - last_tick) / 1e6;
  int phase = read_demo_phase (device);
  double load = phase < 0 ? 0.02 : phase == ADBSCOPE_SIM_PHASE_IDLE ? 0.1
                : phase == ADBSCOPE_SIM_PHASE_SCROLLING ? 0.5 : 0.95;
  g_autofree char *state = g_build_filename (device->sandbox, "state", NULL);
  g_autoptr(GString) thermal = g_string_new (NULL);
  double current_ua, voltage_uv;
  char buf[64];

  last_tick = now;
  adbscope_sim_gpu_tick (device, load);

  for (int i = 0; i < n_policies; i++)
    {
      Policy *p = &policies[i];
      int want;

      p->time_in_state[p->cur] += (guint64) (dt * 100.0);
      /* Bigger clusters wake up later. */
      want = (int) ((p->n_freqs - 1) * CLAMP (load * (1.0 - 0.15 * i) + g_random_double_range (-0.08, 0.08), 0.0, 1.0) + 0.5);
      p->cur = CLAMP (want, 0, p->n_freqs - 1);
      g_snprintf (buf, sizeof buf, "%u\n", p->freqs[p->cur]);
      write_file (p->dir, "scaling_cur_freq", buf);
      write_file (p->dir, "cpuinfo_cur_freq", buf);
      {
        g_autoptr(GString) tis = g_string_new (NULL);

        for (int f = 0; f < p->n_freqs; f++)
          g_string_append_printf (tis, "%u %" G_GUINT64_FORMAT "\n", p->freqs[f], p->time_in_state[f]);
        write_file (p->dir, "stats/time_in_state", tis->str);
      }
    }

  current_ua = -(150000.0 + 650000.0 * load) * g_random_double_range (0.93, 1.07);
  battery_level = MAX (5.0, battery_level + current_ua / 1e6 * dt / 3600.0 / 4.5 * 100.0 * 20.0);
  voltage_uv = (3600.0 + 6.0 * battery_level) * 1000.0 + current_ua * 0.05;
  battery_temp = approach (battery_temp, 27.0 + 8.0 * load, dt, 60.0);
  skin_temp = approach (skin_temp, 28.0 + 9.0 * load, dt, 40.0);
  cpu_temp = approach (cpu_temp, 33.0 + 25.0 * load, dt, 8.0);

  if (!device->battery_frozen)
  {
      g_autofree char *bat = g_build_filename (device->sandbox, "sys", "power_supply", "battery", NULL);
      g_autofree char *usb = g_build_filename (device->sandbox, "sys", "power_supply", "usb", NULL);

      g_snprintf (buf, sizeof buf, "%d\n", (int) battery_level);
      write_file (bat, "capacity", buf);
      write_file (bat, "status", "Discharging\n");
      write_file (bat, "health", "Good\n");
      write_file (bat, "present", "1\n");
      write_file (bat, "technology", "Li-ion\n");
      write_file (bat, "type", "Battery\n");
      g_snprintf (buf, sizeof buf, "%d\n", (int) current_ua);
      write_file (bat, "current_now", buf);
      g_snprintf (buf, sizeof buf, "%d\n", (int) voltage_uv);
      write_file (bat, "voltage_now", buf);
      g_snprintf (buf, sizeof buf, "%d\n", (int) (battery_temp * 10.0));
      write_file (bat, "temp", buf);
      g_snprintf (buf, sizeof buf, "%d\n", (int) (battery_level * 45000.0));
      write_file (bat, "charge_counter", buf);
      write_file (bat, "charge_full", "4500000\n");
      write_file (usb, "online", "0\n");
      write_file (usb, "type", "USB\n");
    }

  g_string_append_printf (thermal, "CPU %.1f\nGPU %.1f\nSKIN %.1f\nBATTERY %.1f\n",
                          cpu_temp, cpu_temp - 3.0, skin_temp, battery_temp);
  write_file (state, "thermal", thermal->str);
  adbscope_sim_network_tick (device->network);
}

static int
remove_entry (const char        *path,
              const struct stat *st,
              int                flag,
              struct FTW        *ftw)
{
  if (remove (path) != 0)
    g_debug ("sim: remove %s: %s", path, g_strerror (errno));
  return 0;
}

void
adbscope_sim_sandbox_remove (AdbscopeSimDevice *device)
{
  if (device->sandbox == NULL)
    return;
  /* FTW_PHYS: never follow the apps' symlinks out of the sandbox. */
  nftw (device->sandbox, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
  for (int i = 0; i < n_policies; i++)
    g_clear_pointer (&policies[i].dir, g_free);
  g_clear_pointer (&device->sandbox, g_free);
  g_clear_pointer (&device->fs_root, g_free);
  g_clear_pointer (&device->self_exe, g_free);
  g_clear_pointer (&device->ns_cpu_dir, g_free);
  g_clear_pointer (&device->ns_empty_dir, g_free);
  g_clear_pointer (&device->ns_power_dir, g_free);
  g_clear_pointer (&device->ns_class_dir, g_free);
  g_clear_pointer (&device->ns_class_opts, g_free);
  g_clear_pointer (&device->child_env, g_strfreev);
}
