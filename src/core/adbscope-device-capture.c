/* adbscope-device-capture.c: `adbscope capture-device`
 *
 * Each repeat is ONE `adb shell` that runs every command of
 * adbscope-device-commands.h and cats every file, each answer framed by a
 * random token so no output can end another early.  The answers are
 * redacted (serials, accounts, e-mail addresses, phone numbers, Wi-Fi
 * names and addresses, IMEI-like ids) and written with a manifest.
 */
#include "config.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-device-capture.h"
#include "adbscope-device-commands.h"
#include "adbscope-error.h"
#include "adbscope-parse-getprop.h"
#include "adbscope-parse-surfaceflinger.h"
#include "adbscope-validate.h"

static void
entry_free (AdbscopeCaptureEntry *e)
{
  g_free (e->key);
  g_free (e->text);
  g_free (e);
}

/**
 * adbscope_device_capture_build_script:
 * @tools: command lines (shell words)
 * @globs: file globs
 * @dirs: (nullable): directory globs whose existence counts
 * @token: a random word that no output contains
 *
 * Returns: the script of one repeat.  Each answer is
 * `TOKEN T|F|D KEY\n` + output + `\nTOKEN E STATUS\n`.
 */
char *
adbscope_device_capture_build_script (GPtrArray  *tools,
                                      GPtrArray  *globs,
                                      const char *dirs,
                                      const char *token)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < tools->len; i++)
    g_string_append_printf (s, "echo '%s T %u'; %s 2>&1; printf '\\n%s E %%d\\n' $?; ",
                            token, i, (const char *) g_ptr_array_index (tools, i), token);
  g_string_append (s, "for f in");
  for (guint i = 0; i < globs->len; i++)
    g_string_append_printf (s, " %s", (const char *) g_ptr_array_index (globs, i));
  g_string_append_printf (s, "; do if [ -f \"$f\" ]; then echo \"%s F $f\"; cat \"$f\" 2>/dev/null; "
                             "printf '\\n%s E %%d\\n' $?; fi; done; ", token, token);
  if (dirs != NULL)
    g_string_append_printf (s, "for d in %s; do [ -d \"$d\" ] && echo \"%s D $d\"; done; ", dirs, token);
  g_string_append (s, "true");
  return g_string_free (s, FALSE);
}

/**
 * adbscope_device_capture_split:
 *
 * Returns: (transfer full): the AdbscopeCaptureEntry answers in order; a
 * tool's key is its index as text.
 */
GPtrArray *
adbscope_device_capture_split (const char  *output,
                               const char  *token,
                               GError     **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  g_autofree char *head = g_strconcat (token, " ", NULL);
  g_autofree char *tail = g_strconcat ("\n", token, " E ", NULL);
  const char *p = output;
  gsize hlen = strlen (head);

  while (p != NULL && *p != '\0')
    {
      const char *nl = strchr (p, '\n');
      AdbscopeCaptureEntry *e;

      if (nl == NULL)
        break;
      if (strncmp (p, head, hlen) != 0 || nl - p < (gssize) hlen + 2 ||
          strchr ("TFD", p[hlen]) == NULL || p[hlen + 1] != ' ')
        {
          p = nl + 1;   /* a line the device added (a shell warning) */
          continue;
        }
      e = g_new0 (AdbscopeCaptureEntry, 1);
      e->kind = p[hlen];
      e->key = g_strndup (p + hlen + 2, nl - (p + hlen + 2));
      g_ptr_array_add (entries, e);
      p = nl + 1;
      if (e->kind == 'D')
        continue;
      {
        const char *end = strstr (p - 1, tail);

        if (end == NULL)
          {
            g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                         _("The answer to “%s” was cut off (the device went away?)"), e->key);
            return NULL;
          }
        /* The framing newline before the trailer is ours: an output that
         * ends without one is kept exactly. */
        e->text = end >= p ? g_strndup (p, end - p) : g_strdup ("");
        e->status = (int) g_ascii_strtoll (end + strlen (tail), NULL, 10);
        p = strchr (end + strlen (tail), '\n');
        if (p != NULL)
          p++;
      }
    }
  return g_steal_pointer (&entries);
}

typedef struct
{
  const char *kind;
  const char *pattern;
  const char *replacement;
  gboolean    tools_only;
} Rule;

/* Applied in this order. */
static const Rule rules[] = {
  /* getprop lines of ids, numbers and Wi-Fi/Bluetooth addresses */
  { "property", "^(\\[[^]]*(serial|imei|meid|iccid|imsi|msisdn|phone|ssid|wifimac|btmac|bt\\.addr|macaddr|mac_address)[^]]*\\]: )\\[[^]]+\\]",
    "\\1[REDACTED]", TRUE },
  { "account", "(Account \\{name=)[^,}]+", "\\1REDACTED", TRUE },
  { "email", "[A-Za-z0-9._%+-]+@[A-Za-z][A-Za-z0-9-]*(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}\\b", "redacted@example.invalid", TRUE },
  { "ssid", "((?i:b?ssid)\\s*[=:]\\s*)(\"[^\"\\n]*\"|[^,\\s\\n]+)", "\\1\"REDACTED\"", TRUE },
  { "mac_address", "\\b([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}\\b", "02:00:00:00:00:00", TRUE },
  { "phone_number", "(?<![\\w.])\\+[1-9][0-9]{7,14}\\b", "+10000000000", TRUE },
  { "device_id", "(?im)^(.*(imei|meid|iccid|imsi|msisdn|serial|device ?id|line1).*?)\\b[0-9A-Fa-f]{8,}\\b", "\\1REDACTED", TRUE },
};

/**
 * adbscope_device_capture_redact:
 * @secrets: (nullable): literal strings (the serial) replaced everywhere
 * @counts: kind → number of replacements (added to)
 *
 * Returns: @text without the device's serial and account-like strings.
 */
char *
adbscope_device_capture_redact (const char          *text,
                                gboolean             is_tool,
                                const char * const  *secrets,
                                GHashTable          *counts)
{
  g_autofree char *out = g_strdup (text);

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (strlen (secrets[i]) < 4)
        continue;
      parts = g_strsplit (out, secrets[i], -1);
      if (g_strv_length (parts) > 1)
        {
          guint n = g_strv_length (parts) - 1;

          g_hash_table_insert (counts, (gpointer) "serial",
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "serial")) + n));
          g_free (out);
          out = g_strjoinv ("REDACTED-SERIAL", parts);
        }
    }
  for (guint i = 0; is_tool && i < G_N_ELEMENTS (rules); i++)
    {
      g_autoptr(GRegex) re = g_regex_new (rules[i].pattern, G_REGEX_MULTILINE | G_REGEX_RAW, 0, NULL);
      g_autoptr(GMatchInfo) info = NULL;
      guint n = 0;
      char *replaced;

      g_assert (re != NULL);
      if (!g_regex_match (re, out, 0, &info))
        continue;
      while (g_match_info_matches (info))
        {
          n++;
          g_match_info_next (info, NULL);
        }
      replaced = g_regex_replace (re, out, -1, 0, rules[i].replacement, 0, NULL);
      if (replaced == NULL)
        continue;
      g_free (out);
      out = replaced;
      g_hash_table_insert (counts, (gpointer) rules[i].kind,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, rules[i].kind)) + n));
    }
  return g_steal_pointer (&out);
}

/* ---- the run ---- */

/* One script of dumpsys calls: seconds on a phone; a stalled one is an
 * error, not a capture that never ends. */
#define SCRIPT_TIMEOUT_S 120

static char *
run_shell (const char  *serial,
           const char  *script,
           GError     **error)
{
  const char *args[] = { "shell", script, NULL };
  g_autofree char *err = NULL;
  int status = 0;
  char *out;

  out = adbscope_adb_run_sync_timeout (serial, args, SCRIPT_TIMEOUT_S, NULL, &status, &err, error);
  if (out != NULL && status != 0 && *out == '\0')
    {
      g_autofree char *line = adbscope_adb_stderr_last_line (err);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED, _("adb shell failed: %s"),
                   line != NULL ? line : _("no output"));
      g_clear_pointer (&out, g_free);
    }
  return out;
}

static gboolean
check_dir (const char  *dir,
           gboolean     force,
           GError     **error)
{
  g_autoptr(GDir) d = NULL;
  g_autofree char *probe = NULL;
  int fd;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int e = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot create “%s”: %s"), dir, g_strerror (e));
      return FALSE;
    }
  d = g_dir_open (dir, 0, error);
  if (d == NULL)
    return FALSE;
  if (g_dir_read_name (d) != NULL && !force)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("“%s” exists and is not empty (use --force to replace a capture there)"), dir);
      return FALSE;
    }
  probe = g_build_filename (dir, ".adbscope-write-test", NULL);
  fd = g_open (probe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot write in “%s”: %s"), dir, g_strerror (e));
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

/* Removes @name in the folder @parent and, for a folder, everything in
 * it; never through a symlink: a link is removed, not followed (every
 * step is openat/unlinkat relative to a folder opened O_NOFOLLOW, so a
 * link put anywhere in the tree, even meanwhile, leaves its target). */
static gboolean
remove_at (int          parent,
           const char  *name,
           const char  *shown,
           GError     **error)
{
  struct stat st;
  int errsv;

  if (fstatat (parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    {
      if (errno == ENOENT)
        return TRUE;
      errsv = errno;
      goto fail;
    }
  if (S_ISDIR (st.st_mode))
    {
      int fd = openat (parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      DIR *d;
      struct dirent *e;
      gboolean ok = TRUE;

      if (fd < 0)
        {
          errsv = errno;
          goto fail;
        }
      d = fdopendir (fd);
      if (d == NULL)
        {
          errsv = errno;
          close (fd);
          goto fail;
        }
      while (ok && (e = readdir (d)) != NULL)
        {
          g_autofree char *child = NULL;

          if (g_str_equal (e->d_name, ".") || g_str_equal (e->d_name, ".."))
            continue;
          child = g_build_filename (shown, e->d_name, NULL);
          ok = remove_at (dirfd (d), e->d_name, child, error);
        }
      closedir (d);
      if (!ok)
        return FALSE;
      if (unlinkat (parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        {
          errsv = errno;
          goto fail;
        }
      return TRUE;
    }
  if (unlinkat (parent, name, 0) != 0 && errno != ENOENT)
    {
      errsv = errno;
      goto fail;
    }
  return TRUE;

fail:
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot remove “%s”: %s"), shown, g_strerror (errsv));
  return FALSE;
}

/* --force: the previous capture in @dir (manifest.json, commands/,
 * files/) goes; a symlink among them is removed, its target left. */
static gboolean
remove_previous_capture (const char  *dir,
                         GError     **error)
{
  static const char * const names[] = { "manifest.json", "commands", "files" };
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  gboolean ok = TRUE;

  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot remove “%s”: %s"), dir, g_strerror (e));
      return FALSE;
    }
  for (guint i = 0; ok && i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *shown = g_build_filename (dir, names[i], NULL);

      ok = remove_at (fd, names[i], shown, error);
    }
  close (fd);
  return ok;
}

static gboolean
write_text (const char  *dir,
            const char  *relative,
            const char  *text,
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  if (g_mkdir_with_parents (parent, 0755) != 0)
    {
      int e = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot create “%s”: %s"), parent, g_strerror (e));
      return FALSE;
    }
  return g_file_set_contents (path, text, -1, error);
}

static double
uptime_of (GPtrArray *entries)
{
  for (guint i = 0; i < entries->len; i++)
    {
      AdbscopeCaptureEntry *e = g_ptr_array_index (entries, i);

      if (e->kind == 'F' && g_str_equal (e->key, "/proc/uptime"))
        return g_ascii_strtod (e->text, NULL);
    }
  return -1;
}

typedef struct
{
  char      *key;
  GPtrArray *files;    /* per repeat: relative path or NULL (missing) */
  GArray    *status;
} Series;

static void
series_free (Series *s)
{
  g_free (s->key);
  g_ptr_array_unref (s->files);
  g_array_unref (s->status);
  g_free (s);
}

static Series *
series_get (GHashTable *table,
            GPtrArray  *order,
            const char *key,
            guint       repeats)
{
  Series *s = g_hash_table_lookup (table, key);

  if (s == NULL)
    {
      s = g_new0 (Series, 1);
      s->key = g_strdup (key);
      s->files = g_ptr_array_new_with_free_func (g_free);
      s->status = g_array_new (FALSE, TRUE, sizeof (int));
      g_ptr_array_set_size (s->files, repeats);
      g_array_set_size (s->status, repeats);
      g_hash_table_insert (table, s->key, s);
      g_ptr_array_add (order, s);
    }
  return s;
}

static void
add_str (JsonBuilder *b,
         const char  *name,
         const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_series (JsonBuilder *b,
            Series      *s,
            const char  *key_name,
            gboolean     with_argv)
{
  json_builder_begin_object (b);
  add_str (b, key_name, s->key);
  if (with_argv)
    {
      g_auto(GStrv) argv = NULL;

      json_builder_set_member_name (b, "argv");
      json_builder_begin_array (b);
      if (g_shell_parse_argv (s->key, NULL, &argv, NULL))
        for (guint i = 0; argv[i] != NULL; i++)
          json_builder_add_string_value (b, argv[i]);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint r = 0; r < s->files->len; r++)
    if (g_ptr_array_index (s->files, r) != NULL)
      json_builder_add_string_value (b, g_ptr_array_index (s->files, r));
    else
      json_builder_add_null_value (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "exit_status");
  json_builder_begin_array (b);
  for (guint r = 0; r < s->status->len; r++)
    json_builder_add_int_value (b, g_array_index (s->status, int, r));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/**
 * adbscope_device_capture_run:
 * @serial: the chosen device
 * @package: (nullable): the app whose commands are captured too
 * @dir: where the capture goes (created; must be empty unless @force)
 *
 * Captures @repeats rounds over about @duration_s seconds; progress goes
 * to stderr.
 */
gboolean
adbscope_device_capture_run (const char  *serial,
                             const char  *package,
                             const char  *dir,
                             double       duration_s,
                             guint        repeats,
                             gboolean     force,
                             GError     **error)
{
  g_autofree char *token = g_strdup_printf ("@@ADBSCOPE_CAP_%08x%08x", g_random_int (), g_random_int ());
  g_autoptr(GPtrArray) tools = adbscope_device_commands_tools (package);
  g_autoptr(GPtrArray) globs = NULL;
  g_autoptr(GPtrArray) raw = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GHashTable) tool_table = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) series_free);
  g_autoptr(GHashTable) file_table = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) series_free);
  g_autoptr(GPtrArray) tool_order = g_ptr_array_new ();
  g_autoptr(GPtrArray) file_order = g_ptr_array_new ();
  g_autoptr(GPtrArray) dir_list = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) uptimes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GHashTable) props = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *manifest = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *created = g_date_time_format_iso8601 (now);
  GPtrArray *secrets = g_ptr_array_new ();
  int pid = 0;
  gint64 start;

  g_return_val_if_fail (serial != NULL && dir != NULL, FALSE);
  g_return_val_if_fail (package == NULL || adbscope_package_name_is_valid (package), FALSE);
  g_return_val_if_fail (repeats >= 1, FALSE);

  if (!check_dir (dir, force, error))
    goto fail;
  if (force && !remove_previous_capture (dir, error))
    goto fail;

  /* What depends on the phone's answers: the app's pid and its layers. */
  {
    g_autofree char *script = NULL;
    g_autofree char *out = NULL;
    g_autoptr(GPtrArray) first = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GPtrArray) none = g_ptr_array_new ();
    g_autoptr(GPtrArray) entries = NULL;

    g_printerr (_("capture-device: asking %s what it runs…\n"), serial);
    if (package != NULL)
      g_ptr_array_add (first, g_strdup_printf (ADBSCOPE_CMD_PIDOF, package));
    g_ptr_array_add (first, g_strdup (ADBSCOPE_CMD_SF_LIST));
    script = adbscope_device_capture_build_script (first, none, NULL, token);
    out = run_shell (serial, script, error);
    if (out == NULL || (entries = adbscope_device_capture_split (out, token, error)) == NULL)
      goto fail;
    for (guint i = 0; i < entries->len; i++)
      {
        AdbscopeCaptureEntry *e = g_ptr_array_index (entries, i);
        const char *cmd = g_ptr_array_index (first, (guint) g_ascii_strtoull (e->key, NULL, 10) % first->len);

        if (e->kind != 'T')
          continue;
        if (package != NULL && g_str_has_prefix (cmd, "pidof"))
          pid = (int) g_ascii_strtoll (e->text, NULL, 10);
        else if (package != NULL && g_str_equal (cmd, ADBSCOPE_CMD_SF_LIST))
          {
            g_autoptr(GPtrArray) names = adbscope_sf_list_parse (e->text, strlen (e->text), NULL);
            g_autoptr(GPtrArray) layers = names != NULL ? adbscope_sf_find_app_layers (names, package) : NULL;

            for (guint l = 0; layers != NULL && l < layers->len; l++)
              {
                g_autofree char *q = g_shell_quote (((AdbscopeSfLayer *) g_ptr_array_index (layers, l))->name);

                g_ptr_array_add (tools, g_strdup_printf (ADBSCOPE_CMD_SF_LATENCY " %s", q));
              }
          }
      }
    if (package != NULL && pid <= 0)
      g_printerr (_("capture-device: %s is not running: its /proc files are not captured\n"), package);
  }
  globs = adbscope_device_commands_files (pid);

  start = g_get_monotonic_time ();
  for (guint r = 0; r < repeats; r++)
    {
      g_autofree char *script = adbscope_device_capture_build_script (tools, globs, ADBSCOPE_GPU_DIRS, token);
      g_autofree char *out = NULL;
      GPtrArray *entries;
      gint64 due = start + (gint64) (duration_s * G_USEC_PER_SEC * r / MAX (repeats - 1, 1));
      double t;

      if (r > 0 && due > g_get_monotonic_time ())
        g_usleep ((gulong) (due - g_get_monotonic_time ()));
      t = (g_get_monotonic_time () - start) / 1e6;
      out = run_shell (serial, script, error);
      if (out == NULL || (entries = adbscope_device_capture_split (out, token, error)) == NULL)
        goto fail;
      g_ptr_array_add (raw, entries);
      g_array_append_val (times, t);
      t = uptime_of (entries);
      g_array_append_val (uptimes, t);
      g_printerr (_("capture-device: repeat %u/%u: %u answers\n"), r + 1, repeats, entries->len);
    }

  /* The serial and the phone's own serial numbers are secrets everywhere. */
  g_ptr_array_add (secrets, (gpointer) serial);
  {
    GPtrArray *first = g_ptr_array_index (raw, 0);

    for (guint i = 0; i < first->len; i++)
      {
        AdbscopeCaptureEntry *e = g_ptr_array_index (first, i);

        if (e->kind == 'T' && g_str_equal (g_ptr_array_index (tools, (guint) g_ascii_strtoull (e->key, NULL, 10)),
                                           ADBSCOPE_CMD_GETPROP))
          props = adbscope_getprop_parse (e->text, strlen (e->text), NULL);
      }
    if (props != NULL)
      {
        static const char * const keys[] = { "ro.serialno", "ro.boot.serialno", "ril.serialnumber", "ro.boot.em.did" };

        for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
          if (g_hash_table_lookup (props, keys[i]) != NULL)
            g_ptr_array_add (secrets, g_hash_table_lookup (props, keys[i]));
      }
    g_ptr_array_add (secrets, NULL);
  }

  for (guint r = 0; r < raw->len; r++)
    {
      GPtrArray *entries = g_ptr_array_index (raw, r);

      for (guint i = 0; i < entries->len; i++)
        {
          AdbscopeCaptureEntry *e = g_ptr_array_index (entries, i);
          g_autofree char *text = NULL;
          g_autofree char *rel = NULL;
          Series *s;

          if (e->kind == 'D')
            {
              gboolean seen = FALSE;

              for (guint j = 0; j < dir_list->len && !seen; j++)
                seen = g_str_equal (g_ptr_array_index (dir_list, j), e->key);
              if (!seen)
                g_ptr_array_add (dir_list, g_strdup (e->key));
              continue;
            }
          if (e->kind == 'T')
            {
              guint idx = (guint) g_ascii_strtoull (e->key, NULL, 10);

              if (idx >= tools->len)
                continue;
              s = series_get (tool_table, tool_order, g_ptr_array_index (tools, idx), raw->len);
              rel = g_strdup_printf ("commands/%03u/%u.txt", idx, r);
            }
          else
            {
              if (e->status != 0 || e->key[0] != '/' || strstr (e->key, "..") != NULL)
                continue;   /* unreadable for the shell: the replay cannot read it either */
              s = series_get (file_table, file_order, e->key, raw->len);
              rel = g_strdup_printf ("files/%u%s", r, e->key);
            }
          text = adbscope_device_capture_redact (e->text, e->kind == 'T',
                                                 (const char * const *) secrets->pdata, counts);
          if (!write_text (dir, rel, text, error))
            goto fail;
          g_free (g_ptr_array_index (s->files, r));
          g_ptr_array_index (s->files, r) = g_steal_pointer (&rel);
          g_array_index (s->status, int, r) = e->status;
        }
    }

  json_builder_begin_object (b);
  add_str (b, "format", ADBSCOPE_DEVICE_CAPTURE_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  add_str (b, "adbscope_version", PACKAGE_VERSION);
  add_str (b, "created", created);
  add_str (b, "package", package);
  json_builder_set_member_name (b, "pid");
  if (pid > 0)
    json_builder_add_int_value (b, pid);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  {
    static const char * const keys[][2] = {
      { "model", "ro.product.model" }, { "manufacturer", "ro.product.manufacturer" },
      { "product", "ro.product.name" }, { "device", "ro.product.device" },
      { "sdk", "ro.build.version.sdk" }, { "release", "ro.build.version.release" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      add_str (b, keys[i][0], props != NULL ? g_hash_table_lookup (props, keys[i][1]) : NULL);
  }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "repeats");
  json_builder_add_int_value (b, repeats);
  json_builder_set_member_name (b, "times_s");
  json_builder_begin_array (b);
  for (guint r = 0; r < times->len; r++)
    json_builder_add_double_value (b, g_array_index (times, double, r));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "uptime_s");
  json_builder_begin_array (b);
  for (guint r = 0; r < uptimes->len; r++)
    json_builder_add_double_value (b, g_array_index (uptimes, double, r));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "commands");
  json_builder_begin_array (b);
  for (guint i = 0; i < tool_order->len; i++)
    add_series (b, g_ptr_array_index (tool_order, i), "command", TRUE);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < file_order->len; i++)
    add_series (b, g_ptr_array_index (file_order, i), "path", FALSE);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "dirs");
  json_builder_begin_array (b);
  for (guint i = 0; i < dir_list->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (dir_list, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "redacted");
  json_builder_begin_object (b);
  {
    static const char * const kinds[] = { "serial", "property", "account", "email", "ssid", "mac_address",
                                          "phone_number", "device_id" };

    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
      {
        json_builder_set_member_name (b, kinds[i]);
        json_builder_add_int_value (b, GPOINTER_TO_UINT (g_hash_table_lookup (counts, kinds[i])));
      }
  }
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  manifest = json_generator_to_data (gen, NULL);
  if (!write_text (dir, "manifest.json", manifest, error))
    goto fail;
  g_printerr (_("capture-device: %u commands and %u files × %u repeats in %s\n"),
              tool_order->len, file_order->len, repeats, dir);
  g_ptr_array_free (secrets, TRUE);
  return TRUE;

fail:
  g_ptr_array_free (secrets, TRUE);
  return FALSE;
}
