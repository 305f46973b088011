/* adbscope-app-list.c: `pm list packages` and `ps` in one shell request
 *
 * One round trip answers the app picker: the third-party packages, all
 * packages when asked, and the process table, split by a separator line.
 * An app runs when a process is named like the package (its main process)
 * or "package:name" (a secondary process, used only when no main one).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-device-commands.h"
#include "adbscope-app-list.h"
#include "adbscope-error.h"
#include "adbscope-parse-pm.h"
#include "adbscope-parse-ps.h"
#include "adbscope-shell.h"
#include "adbscope-validate.h"

#define SEPARATOR "@@adbscope-app-list@@"

/**
 * adbscope_app_list_build_command:
 * @all: list every package, not only third-party ones
 *
 * Returns: the shell command whose output adbscope_app_list_parse() reads
 */
char *
adbscope_app_list_build_command (gboolean all)
{
  /* toybox ps needs -A for every process; toolbox ps (Android < 8) lists
   * them all and rejects -A. */
  /* -f: the APK paths, where the labels and icons are read. */
  return g_strdup_printf (ADBSCOPE_CMD_PM_LIST_3 " 2>/dev/null; echo " SEPARATOR "; "
                          "%s echo " SEPARATOR "; "
                          ADBSCOPE_CMD_PS " 2>/dev/null || ps",
                          all ? ADBSCOPE_CMD_PM_LIST_ALL " 2>/dev/null;" : "");
}

int
adbscope_app_compare (AdbscopeApp *a,
                      AdbscopeApp *b)
{
  gboolean ra = adbscope_app_get_running (a);
  gboolean rb = adbscope_app_get_running (b);
  g_autofree char *na = NULL;
  g_autofree char *nb = NULL;
  int c;

  if (ra != rb)
    return ra ? -1 : 1;
  na = adbscope_app_dup_display_name (a);
  nb = adbscope_app_dup_display_name (b);
  c = g_utf8_collate (na, nb);
  if (c != 0)
    return c;
  return strcmp (adbscope_app_get_package (a), adbscope_app_get_package (b));
}

static int
compare_apps (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  return adbscope_app_compare ((AdbscopeApp *) a, (AdbscopeApp *) b);
}

static void
add_packages (GHashTable *apps,
              const char *text,
              gboolean    third_party)
{
  g_autoptr(GPtrArray) pkgs = NULL;

  pkgs = adbscope_pm_parse_list_packages (text, -1, NULL);
  if (pkgs == NULL)
    return;
  for (guint i = 0; i < pkgs->len; i++)
    {
      AdbscopePmPackage *p = g_ptr_array_index (pkgs, i);
      AdbscopeApp *app;

      /* A name that could not be quoted safely never reaches a session. */
      if (!p->valid_name)
        continue;
      app = g_hash_table_lookup (apps, p->package);
      if (app == NULL)
        {
          app = adbscope_app_new (p->package);
          g_hash_table_insert (apps, (char *) adbscope_app_get_package (app), app);
        }
      if (third_party)
        adbscope_app_set_third_party (app, TRUE);
      if (p->apk_path != NULL && adbscope_app_get_apk_path (app) == NULL)
        adbscope_app_set_apk_path (app, p->apk_path);
    }
}

static void
apply_processes (GHashTable *apps,
                 const char *text)
{
  g_autoptr(AdbscopePsTable) table = NULL;

  table = adbscope_ps_parse (text, -1, NULL);
  if (table == NULL)
    return;
  for (guint i = 0; i < table->rows->len; i++)
    {
      const AdbscopePsRow *row = g_ptr_array_index (table->rows, i);
      g_autofree char *package = NULL;
      const char *colon;
      AdbscopeApp *app;

      if (row->name == NULL || row->pid <= 0 || adbscope_ps_table_is_fork_child (table, row))
        continue;
      colon = strchr (row->name, ':');
      package = colon != NULL ? g_strndup (row->name, colon - row->name) : g_strdup (row->name);
      app = g_hash_table_lookup (apps, package);
      if (app == NULL)
        continue;
      if (colon == NULL || adbscope_app_get_pid (app) == 0)
        adbscope_app_set_pid (app, row->pid);
    }
}

/**
 * adbscope_app_list_parse:
 * @output: what the command of adbscope_app_list_build_command() printed
 *
 * Returns: (transfer full): a GListModel of #AdbscopeApp, running apps
 *   first, then by name
 */
GListModel *
adbscope_app_list_parse (const char  *output,
                         GError     **error)
{
  g_autoptr(GHashTable) apps = NULL;
  g_auto(GStrv) parts = NULL;
  GHashTableIter iter;
  gpointer value;
  GListStore *store;

  g_return_val_if_fail (output != NULL, NULL);

  parts = g_strsplit (output, SEPARATOR "\n", 3);
  if (g_strv_length (parts) != 3)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The device’s list of apps ended early"));
      return NULL;
    }

  apps = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  add_packages (apps, parts[0], TRUE);
  add_packages (apps, parts[1], FALSE);
  apply_processes (apps, parts[2]);

  store = g_list_store_new (ADBSCOPE_TYPE_APP);
  g_hash_table_iter_init (&iter, apps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_list_store_insert_sorted (store, value, compare_apps, NULL);

  return G_LIST_MODEL (store);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  GListModel *apps;

  output = adbscope_shell_run_finish (ADBSCOPE_SHELL (object), result, NULL, &error);
  adbscope_shell_close (ADBSCOPE_SHELL (object));
  if (output == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  apps = adbscope_app_list_parse (output, &error);
  if (apps == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, apps, g_object_unref);
}

/**
 * adbscope_app_list_async:
 * @serial: the device
 * @all: every package, not only third-party ones
 *
 * Lists the apps of @serial in one shell request.
 */
void
adbscope_app_list_async (const char          *serial,
                         gboolean             all,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(AdbscopeShell) shell = NULL;
  g_autofree char *command = NULL;
  GTask *task;

  g_return_if_fail (serial != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_app_list_async);
  if (!adbscope_serial_is_valid (serial))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                               _("“%s” is not a valid device serial"), serial);
      g_object_unref (task);
      return;
    }

  shell = adbscope_shell_new (serial);
  command = adbscope_app_list_build_command (all);
  /* The request holds the shell until it answers. */
  adbscope_shell_run_async (shell, command, cancellable, run_cb, task);
}

/**
 * adbscope_app_list_finish:
 *
 * Returns: (transfer full): a GListModel of #AdbscopeApp, or %NULL
 */
GListModel *
adbscope_app_list_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
