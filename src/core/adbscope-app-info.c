/* adbscope-app-info.c: see the header
 *
 * One shell request first: the SDK (for -v26 adaptive icons), versionCodes
 * (`pm list packages --show-versioncode`, Android 9+; older devices print
 * nothing and the key has -1) and `stat -c '%s %Y %n'` of every APK (size
 * for the reader, modification time = the last install or update).
 * Then, for the apps the cache does not know, four worker threads read
 * labels (manifest + resource table) and, once every label is out, icons.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-apk.h"
#include "adbscope-apk-arsc.h"
#include "adbscope-apk-remote.h"
#include "adbscope-app.h"
#include "adbscope-app-icon.h"
#include "adbscope-app-info.h"
#include "adbscope-error.h"
#include "adbscope-parse-pm.h"
#include "adbscope-validate.h"

#define SEP "@@adbscope-app-info@@"
#define N_WORKERS 4
#define STAT_CHUNK 3000   /* bytes of paths per shell command (old devices take 4 KiB) */
#define CACHE_VERSION "1"
#define SHELL_TIMEOUT_S 30   /* stat and pm answer in about a second on a phone */

typedef struct
{
  AdbscopeApp         *app;
  char                *package;
  char                *path;
  gint64               version_code;
  guint64              size;
  gint64               mtime;
  gboolean             present;   /* stat found it */
  char                *key;
  char                *label;
  char                *icon;      /* PNG path */
  gboolean             cached;
  gboolean             failed;
  AdbscopeApkRemote   *remote;
  AdbscopeApkFile     *apk;
  AdbscopeApkManifest *manifest;
  AdbscopeArsc        *arsc;
} Item;

typedef struct
{
  char                 *serial;
  GMainContext         *context;
  GCancellable         *cancellable;
  GPtrArray            *items;
  char                 *cache_dir;
  char                 *locale;
  AdbscopeResConfig     label_config;
  AdbscopeResConfig     icon_config;
  GMutex                lock;
  AdbscopeAppInfoStats  stats;
} Job;

static void
item_free (Item *item)
{
  g_clear_pointer (&item->arsc, adbscope_arsc_free);
  g_clear_pointer (&item->manifest, adbscope_apk_manifest_free);
  g_clear_pointer (&item->apk, adbscope_apk_file_free);
  g_clear_pointer (&item->remote, adbscope_apk_remote_free);
  g_clear_object (&item->app);
  g_free (item->package);
  g_free (item->path);
  g_free (item->key);
  g_free (item->label);
  g_free (item->icon);
  g_free (item);
}

static void
job_free (Job *job)
{
  g_ptr_array_unref (job->items);
  g_main_context_unref (job->context);
  g_clear_object (&job->cancellable);
  g_mutex_clear (&job->lock);
  g_free (job->cache_dir);
  g_free (job->locale);
  g_free (job->serial);
  g_free (job);
}

char *
adbscope_app_info_dup_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "adbscope", "apps", NULL);
}

/* ------------------------------------------------ results to the apps */

typedef struct
{
  AdbscopeApp *app;
  char        *label;
  char        *icon;
  gboolean     set_icon;
} Update;

static void
update_free (Update *u)
{
  g_object_unref (u->app);
  g_free (u->label);
  g_free (u->icon);
  g_free (u);
}

static gboolean
apply_update (gpointer user_data)
{
  Update *u = user_data;

  if (u->label != NULL)
    adbscope_app_set_label (u->app, u->label);
  if (u->set_icon)
    adbscope_app_set_icon (u->app, u->icon);
  return G_SOURCE_REMOVE;
}

static void
post (Job        *job,
      Item       *item,
      gboolean    label,
      gboolean    icon)
{
  Update *u = g_new0 (Update, 1);

  u->app = g_object_ref (item->app);
  u->label = label ? g_strdup (item->label) : NULL;
  u->icon = icon ? g_strdup (item->icon) : NULL;
  u->set_icon = icon;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, apply_update, u, (GDestroyNotify) update_free);
}

/* -------------------------------------------------------------- cache */

static char *
cache_path (Job        *job,
            const Item *item,
            const char *ext)
{
  g_autofree char *name = g_strconcat (item->key, ext, NULL);

  return g_build_filename (job->cache_dir, name, NULL);
}

static gboolean
cache_load (Job  *job,
            Item *item)
{
  g_autofree char *path = cache_path (job, item, ".json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  if (!json_parser_load_from_file (parser, path, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return FALSE;
  o = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (o, "package", NULL), item->package) != 0)
    return FALSE;
  item->label = g_strdup (json_object_get_string_member_with_default (o, "label", NULL));
  item->failed = json_object_get_boolean_member_with_default (o, "failed", FALSE);
  if (json_object_get_boolean_member_with_default (o, "icon", FALSE))
    {
      item->icon = cache_path (job, item, ".png");
      if (!g_file_test (item->icon, G_FILE_TEST_IS_REGULAR))
        {
          g_clear_pointer (&item->icon, g_free);
          g_clear_pointer (&item->label, g_free);
          return FALSE;
        }
    }
  item->cached = TRUE;
  return TRUE;
}

static void
cache_store (Job  *job,
             Item *item)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *path = cache_path (job, item, ".json");
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "package");
  json_builder_add_string_value (b, item->package);
  json_builder_set_member_name (b, "version_code");
  json_builder_add_int_value (b, item->manifest != NULL ? item->manifest->version_code : item->version_code);
  json_builder_set_member_name (b, "label");
  if (item->label != NULL)
    json_builder_add_string_value (b, item->label);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "icon");
  json_builder_add_boolean_value (b, item->icon != NULL);
  json_builder_set_member_name (b, "failed");
  json_builder_add_boolean_value (b, item->failed);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  if (g_mkdir_with_parents (job->cache_dir, 0700) != 0
      || !g_file_set_contents (path, text, -1, NULL))
    g_debug ("cannot write %s", path);
}

/* ------------------------------------------------------ worker steps */

static void
read_label (gpointer data,
            gpointer user_data)
{
  Item *item = data;
  Job *job = user_data;
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (job->cancellable))
    return;
  item->remote = adbscope_apk_remote_new (job->serial, item->path, item->size, job->cancellable);
  item->apk = adbscope_apk_file_new_for_reader (adbscope_apk_remote_read, item->remote, NULL,
                                                item->size, item->path, &error);
  if (item->apk != NULL)
    item->manifest = adbscope_apk_file_read_manifest (item->apk, &error);
  if (item->manifest == NULL)
    {
      g_debug ("%s: %s", item->package, error->message);
      item->failed = TRUE;
      return;
    }
  /* resources.arsc is needed for the icon even with a literal label. */
  item->arsc = adbscope_apk_file_open_resources (item->apk, NULL);
  if (item->manifest->label.kind == ADBSCOPE_APK_VALUE_STRING)
    item->label = g_strdup (item->manifest->label.string);
  else if (item->manifest->label.kind == ADBSCOPE_APK_VALUE_REFERENCE && item->arsc != NULL)
    {
      AdbscopeArscValue v = { 0 };

      if (adbscope_arsc_resolve (item->arsc, item->manifest->label.res_id, &job->label_config, &v, &error)
          && v.string != NULL)
        item->label = g_strdup (v.string);
      else if (error != NULL)
        g_debug ("%s: label: %s", item->package, error->message);
      adbscope_arsc_value_clear (&v);
    }
  if (item->label != NULL)
    post (job, item, TRUE, FALSE);
  /* Memory: with many apps waiting for the icon step, a large cache is
   * dropped (the icon step reads again what it needs). */
  if (adbscope_apk_remote_get_bytes_fetched (item->remote) > 1024 * 1024)
    adbscope_apk_remote_drop_cache (item->remote);
}

static void
read_icon (gpointer data,
           gpointer user_data)
{
  Item *item = data;
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) png = NULL;
  const AdbscopeApkValue *icon;

  if (g_cancellable_is_cancelled (job->cancellable))
    {
      g_debug ("%s: icon: cancelled", item->package);
      goto done;
    }
  if (item->manifest == NULL)
    goto done;
  icon = item->manifest->icon.kind != ADBSCOPE_APK_VALUE_NONE ? &item->manifest->icon : &item->manifest->round_icon;
  if (icon->kind == ADBSCOPE_APK_VALUE_NONE)
    goto done;
  png = adbscope_app_icon_render (item->apk, item->arsc, icon, &job->icon_config, ADBSCOPE_APP_ICON_SIZE, &error);
  if (png == NULL)
    {
      g_debug ("%s: icon: %s", item->package, error->message);
      goto done;
    }
  item->icon = cache_path (job, item, ".png");
  if (g_mkdir_with_parents (job->cache_dir, 0700) != 0
      || !g_file_set_contents (item->icon, g_bytes_get_data (png, NULL), g_bytes_get_size (png), &error))
    {
      g_debug ("%s: icon: %s", item->package, error != NULL ? error->message : "no cache directory");
      g_clear_pointer (&item->icon, g_free);
    }
  else
    post (job, item, FALSE, TRUE);

done:
  if (item->remote != NULL)
    {
      g_debug ("%s: %u requests, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes read",
               item->package, adbscope_apk_remote_get_n_requests (item->remote),
               adbscope_apk_remote_get_bytes_fetched (item->remote), item->size);
      g_mutex_lock (&job->lock);
      job->stats.bytes_read += adbscope_apk_remote_get_bytes_fetched (item->remote);
      job->stats.n_requests += adbscope_apk_remote_get_n_requests (item->remote);
      job->stats.apk_bytes += item->size;
      job->stats.n_read++;
      if (item->failed)
        job->stats.n_failed++;
      g_mutex_unlock (&job->lock);
    }
  if (!g_cancellable_is_cancelled (job->cancellable))
    cache_store (job, item);
  g_clear_pointer (&item->arsc, adbscope_arsc_free);
  g_clear_pointer (&item->apk, adbscope_apk_file_free);
  g_clear_pointer (&item->remote, adbscope_apk_remote_free);
}

static void
run_pool (Job    *job,
          GFunc   func,
          GPtrArray *todo)
{
  GThreadPool *pool = g_thread_pool_new (func, job, N_WORKERS, FALSE, NULL);
  guint i;

  for (i = 0; i < todo->len; i++)
    g_thread_pool_push (pool, todo->pdata[i], NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
}

static char *
shell (Job         *job,
       const char  *command,
       GError     **error)
{
  const char *args[] = { "shell", command, NULL };
  int status = 0;

  /* A stalled device ends the probe with an error (the list shows the
   * package names), not a job that never finishes. */
  return adbscope_adb_run_sync_timeout (job->serial, args, SHELL_TIMEOUT_S, job->cancellable, &status,
                                        NULL, error);
}

/* SDK, versionCodes, sizes and times, in as few requests as the command
 * length allows. */
static gboolean
probe_items (Job     *job,
             GError **error)
{
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) by_package = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) cmd = g_string_new ("getprop ro.build.version.sdk; echo " SEP "; "
                                         "pm list packages --show-versioncode 2>/dev/null; echo " SEP ";");
  guint i = 0;
  gboolean first = TRUE;

  for (i = 0; i < job->items->len; i++)
    {
      Item *item = job->items->pdata[i];

      g_hash_table_insert (by_path, item->path, item);
      g_hash_table_insert (by_package, item->package, item);
    }

  i = 0;
  while (i < job->items->len || first)
    {
      g_autofree char *out = NULL;
      g_auto(GStrv) lines = NULL;
      guint section = first ? 0 : 2, l;

      g_string_append (cmd, " stat -c '%s %Y %n'");
      for (; i < job->items->len && cmd->len < STAT_CHUNK; i++)
        {
          g_autofree char *q = g_shell_quote (((Item *) job->items->pdata[i])->path);

          g_string_append_c (cmd, ' ');
          g_string_append (cmd, q);
        }
      g_string_append (cmd, " 2>/dev/null; true");
      out = shell (job, cmd->str, error);
      if (out == NULL)
        return FALSE;
      lines = g_strsplit (out, "\n", -1);
      for (l = 0; lines[l] != NULL; l++)
        {
          char *line = g_strchomp (lines[l]);

          if (strcmp (line, SEP) == 0)
            {
              section++;
              continue;
            }
          if (section == 0)
            {
              guint64 sdk;

              if (g_ascii_string_to_unsigned (line, 10, 1, 1000, &sdk, NULL))
                job->label_config.sdk = job->icon_config.sdk = (guint16) sdk;
            }
          else if (section == 1)
            {
              g_autoptr(GPtrArray) pkgs = adbscope_pm_parse_list_packages (line, -1, NULL);
              AdbscopePmPackage *p = pkgs != NULL && pkgs->len == 1 ? pkgs->pdata[0] : NULL;
              Item *item = p != NULL ? g_hash_table_lookup (by_package, p->package) : NULL;

              if (item != NULL)
                item->version_code = p->version_code;
            }
          else
            {
              char *a = line, *b = strchr (a, ' '), *c = b != NULL ? strchr (b + 1, ' ') : NULL;
              Item *item;
              guint64 size;
              gint64 mtime;

              if (c == NULL)
                continue;
              *b = *c = '\0';
              item = g_hash_table_lookup (by_path, c + 1);
              if (item != NULL && g_ascii_string_to_unsigned (a, 10, 0, G_MAXINT64, &size, NULL)
                  && g_ascii_string_to_signed (b + 1, 10, 0, G_MAXINT64, &mtime, NULL))
                {
                  item->size = size;
                  item->mtime = mtime;
                  item->present = TRUE;
                }
            }
        }
      g_string_truncate (cmd, 0);
      first = FALSE;
    }
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  guint i;

  if (job->items->len > 0 && !probe_items (job, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  for (i = 0; i < job->items->len; i++)
    {
      Item *item = job->items->pdata[i];
      g_autofree char *key = NULL;

      if (!item->present)
        {
          /* No such file where pm says (or unreadable): nothing to show. */
          job->stats.n_failed++;
          continue;
        }
      key = g_strdup_printf (CACHE_VERSION "|%s|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%" G_GUINT64_FORMAT "|%s|%d",
                             item->package, item->version_code, item->mtime, item->size,
                             job->locale, ADBSCOPE_APP_ICON_SIZE);
      item->key = g_compute_checksum_for_string (G_CHECKSUM_SHA1, key, -1);
      if (cache_load (job, item))
        {
          job->stats.n_cached++;
          if (item->failed)
            job->stats.n_failed++;
          post (job, item, item->label != NULL, item->icon != NULL);
        }
      else
        g_ptr_array_add (todo, item);
    }
  /* Names first, for every app, then icons. */
  run_pool (job, read_label, todo);
  run_pool (job, read_icon, todo);
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_boolean (task, TRUE);
}

void
adbscope_app_info_load_async (const char          *serial,
                              GListModel          *apps,
                              const char          *locale,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;
  guint i, n;

  g_return_if_fail (serial != NULL);
  g_return_if_fail (G_IS_LIST_MODEL (apps));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_app_info_load_async);
  if (!adbscope_serial_is_valid (serial))
    {
      g_task_return_new_error (task, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                               _("“%s” is not a valid device serial"), serial);
      return;
    }

  job = g_new0 (Job, 1);
  job->serial = g_strdup (serial);
  job->context = g_main_context_ref_thread_default ();
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  job->items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  job->cache_dir = adbscope_app_info_dup_cache_dir ();
  job->locale = g_strdup (locale != NULL ? locale : g_get_language_names ()[0]);
  g_mutex_init (&job->lock);
  adbscope_res_config_set_locale (&job->label_config, job->locale);
  job->icon_config = job->label_config;
  job->icon_config.density = ADBSCOPE_APP_ICON_DENSITY;

  n = g_list_model_get_n_items (apps);
  for (i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);
      const char *path = adbscope_app_get_apk_path (app);
      Item *item;

      if (path == NULL || path[0] != '/')
        continue;
      item = g_new0 (Item, 1);
      item->app = g_object_ref (app);
      item->package = g_strdup (adbscope_app_get_package (app));
      item->path = g_strdup (path);
      item->version_code = -1;
      g_ptr_array_add (job->items, item);
    }
  job->stats.n_apps = job->items->len;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
adbscope_app_info_load_finish (GAsyncResult          *result,
                               AdbscopeAppInfoStats  *stats,
                               GError               **error)
{
  Job *job;
  guint i;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  job = g_task_get_task_data (G_TASK (result));
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  /* Everything posted is in; set it again in case a caller looks before
   * the posted updates ran. */
  for (i = 0; i < job->items->len; i++)
    {
      Item *item = job->items->pdata[i];

      if (item->label != NULL)
        adbscope_app_set_label (item->app, item->label);
      if (item->icon != NULL)
        adbscope_app_set_icon (item->app, item->icon);
    }
  if (stats != NULL)
    *stats = job->stats;
  return TRUE;
}
