/* adbscope-sim-apps.c: app processes of the simulated device
 *
 * An app is a real process renamed to its package, the way zygote names
 * app processes: argv[0] is the package (so pidof finds it) and the
 * executable is run through a symlink named like Android's comm (the last
 * 15 characters of a dotted package name), so /proc/PID/stat shows it.
 * The demo app is `adbscope sim-app`; `--app PKG=COMMAND` runs any command.
 * Apps get the same child setup as shells (own session, the profile's
 * mount namespace, killed with the device).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "adbscope-error.h"
#include "adbscope-sim-private.h"

struct _AdbscopeSimApp
{
  AdbscopeSimDevice *device;
  char              *package;
  char             **argv;      /* NULL for the demo app */
  GPid               pid;
  guint              watch;
};

/* PKG, or PKG:name for another process of the same package (`:remote`). */
static gboolean
package_is_valid (const char *package)
{
  const char *colon;

  if (package == NULL || *package == '\0' || *package == ':' || strlen (package) > 200)
    return FALSE;
  colon = strchr (package, ':');
  for (const char *p = package; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_' && p != colon)
      return FALSE;
  return colon == NULL || colon[1] != '\0';
}

/* Android's rule (art::SetThreadName): a dotted name of 15 or more
 * characters keeps its last 15. */
static const char *
comm_name (const char *package)
{
  gsize len = strlen (package);

  if (len >= 15 && strchr (package, '.') != NULL)
    return package + len - 15;
  return package;
}

static void
write_apps_file (AdbscopeSimDevice *device)
{
  g_autofree char *path = g_build_filename (device->sandbox, "state", "apps", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, device->apps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AdbscopeSimApp *app = value;

      g_string_append_printf (text, "%s %d\n", app->package, app->pid);
    }
  adbscope_sim_write_atomic (path, text->str);
}

static void
on_app_exit (GPid     pid,
             int      status,
             gpointer user_data)
{
  AdbscopeSimApp *app = user_data;

  g_spawn_close_pid (pid);
  if (app->pid == pid)
    {
      app->pid = 0;
      app->watch = 0;
      write_apps_file (app->device);
    }
}

gboolean
adbscope_sim_apps_add (AdbscopeSimDevice *device,
                       const char        *package,
                       const char        *command,
                       GError           **error)
{
  AdbscopeSimApp *app;
  g_auto(GStrv) argv = NULL;

  if (!package_is_valid (package))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                   _("“%s” is not a package name"), package);
      return FALSE;
    }
  if (g_hash_table_contains (device->apps, package))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("The app %s is given twice"), package);
      return FALSE;
    }
  if (command != NULL && !g_shell_parse_argv (command, NULL, &argv, error))
    return FALSE;

  app = g_new0 (AdbscopeSimApp, 1);
  app->device = device;
  app->package = g_strdup (package);
  app->argv = g_steal_pointer (&argv);
  g_hash_table_insert (device->apps, app->package, app);
  return adbscope_sim_apps_start (device, package, error);
}

/* Apps are children like the shells, in the apps' network namespace when
 * the device has a network. */
static void
app_child_setup (gpointer user_data)
{
  AdbscopeSimDevice *device = user_data;

  adbscope_sim_child_setup (device);
  adbscope_sim_network_child_setup (device->network);
}

gboolean
adbscope_sim_apps_start (AdbscopeSimDevice *device,
                         const char        *package,
                         GError           **error)
{
  AdbscopeSimApp *app = g_hash_table_lookup (device->apps, package);
  g_autofree char *dir = NULL;
  g_autofree char *link = NULL;
  g_autofree char *target = NULL;
  g_autofree char *state = NULL;
  g_autofree char *startup = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  if (app == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,
                   _("No app %s on this device"), package);
      return FALSE;
    }
  if (app->pid > 0)
    return TRUE;

  if (app->argv == NULL)
    target = g_strdup (device->self_exe);
  else
    target = g_find_program_in_path (app->argv[0]);
  if (target == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("Cannot find the program “%s”"), app->argv[0]);
      return FALSE;
    }

  dir = g_build_filename (device->sandbox, "apps", package, NULL);
  g_mkdir_with_parents (dir, 0755);
  link = g_build_filename (dir, comm_name (package), NULL);
  g_unlink (link);
  if (symlink (target, link) != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s: %s", link, g_strerror (errno));
      return FALSE;
    }

  /* exec -a PKG: argv[0] is the package, the file is the symlink. */
  g_ptr_array_add (argv, link);
  g_ptr_array_add (argv, app->package);
  if (app->argv == NULL)
    {
      state = g_build_filename (device->sandbox, "state", NULL);
      g_ptr_array_add (argv, (char *) "sim-app");
      g_ptr_array_add (argv, (char *) "--profile");
      g_ptr_array_add (argv, (char *) device->profile->name);
      g_ptr_array_add (argv, (char *) "--state-dir");
      g_ptr_array_add (argv, state);
      if (g_str_equal (app->package, ADBSCOPE_SIM_GAME_PACKAGE))
        g_ptr_array_add (argv, (char *) "--game");
      startup = g_strdup_printf ("%d", device->startup_ms);
      g_ptr_array_add (argv, (char *) "--startup-ms");
      g_ptr_array_add (argv, startup);
      if (device->network != NULL && device->demo_traffic != ADBSCOPE_SIM_TRAFFIC_OFF)
        g_ptr_array_add (argv, (char *) "--network");
      if (device->network != NULL && device->demo_traffic == ADBSCOPE_SIM_TRAFFIC_MANUAL)
        {
          g_ptr_array_add (argv, (char *) "--traffic");
          g_ptr_array_add (argv, (char *) "manual");
        }
      g_ptr_array_add (argv, app->package);
    }
  else
    for (guint i = 1; app->argv[i] != NULL; i++)
      g_ptr_array_add (argv, app->argv[i]);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_async (device->fs_root, (char **) argv->pdata, device->child_env,
                      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_FILE_AND_ARGV_ZERO |
                      G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDIN_FROM_DEV_NULL,
                      app_child_setup, device, &app->pid, error))
    return FALSE;
  app->watch = g_child_watch_add (app->pid, on_app_exit, app);
  write_apps_file (device);
  return TRUE;
}

gboolean
adbscope_sim_apps_kill (AdbscopeSimDevice *device,
                        const char        *package,
                        GError           **error)
{
  AdbscopeSimApp *app = g_hash_table_lookup (device->apps, package);

  if (app == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,
                   _("No app %s on this device"), package);
      return FALSE;
    }
  if (app->pid <= 0)
    return TRUE;
  /* The app leads its own process group (setsid): take all of it.  Reap
   * at once so a pidof right after force-stop does not see a zombie. */
  kill (-app->pid, SIGKILL);
  if (app->watch != 0)
    g_source_remove (app->watch);
  waitpid (app->pid, NULL, 0);
  app->watch = 0;
  app->pid = 0;
  write_apps_file (device);
  return TRUE;
}

/* The demo apps stop drawing on SIGRTMIN+1 and resume on SIGRTMIN+2. */
gboolean
adbscope_sim_apps_set_drawing (AdbscopeSimDevice *device,
                               const char        *package,
                               gboolean           drawing,
                               GError           **error)
{
  AdbscopeSimApp *app = g_hash_table_lookup (device->apps, package);

  if (app == NULL || app->argv != NULL || app->pid <= 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_APP_NOT_RUNNING,
                   _("No demo app %s is running"), package);
      return FALSE;
    }
  kill (app->pid, drawing ? SIGRTMIN + 2 : SIGRTMIN + 1);
  return TRUE;
}

GPid
adbscope_sim_apps_get_pid (AdbscopeSimDevice *device,
                           const char        *package)
{
  AdbscopeSimApp *app = g_hash_table_lookup (device->apps, package);

  return app != NULL ? app->pid : 0;
}

void
adbscope_sim_apps_stop_all (AdbscopeSimDevice *device)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, device->apps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AdbscopeSimApp *app = value;

      adbscope_sim_apps_kill (device, app->package, NULL);
      g_hash_table_iter_remove (&iter);
      g_strfreev (app->argv);
      g_free (app->package);
      g_free (app);
    }
}
