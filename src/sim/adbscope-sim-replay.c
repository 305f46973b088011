/* adbscope-sim-replay.c: `adbscope sim --replay DIR`, a device that
 * answers from a capture of `adbscope capture-device` (docs/sim.md)
 *
 * The shell is a real shell; the fake tools answer the captured command
 * lines, and the captured /proc and /sys files are a tree bound over /proc
 * and /sys in the children's mount namespace, so globs, `read < FILE` and
 * `[ -e ]` see the phone's files.  The repeats are played in turn, one
 * every captured interval (device clock).  When the last one wraps to the
 * first, every kernel counter (/proc/uptime, /proc/stat, a task's stat,
 * /proc/net/dev) is offset by the capture's span plus one mean step: the
 * counters only grow, and the step across the wrap is the capture's mean
 * rate.  Tool outputs (gfxinfo's frame count) replay as captured: their
 * counters go back at the wrap, which the collectors treat as a reset.
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-parse-getprop.h"
#include "adbscope-sim-private.h"

struct _AdbscopeSimReplay
{
  char       *dir;
  JsonNode   *manifest;
  guint       repeats;
  double      step_s;
  char       *product;
  char       *model;
  char       *device;
  char       *package;
  int         pid;
  char       *proc_dir;     /* SANDBOX/replay/proc, bound over /proc */
  char       *sys_dir;      /* SANDBOX/replay/sys, bound over /sys */
  char       *hostproc_dir; /* the real /proc is bound here first (for /proc/self) */
  gint64      start_us;
  gint64      step;
};

void
adbscope_sim_replay_free (AdbscopeSimReplay *replay)
{
  if (replay == NULL)
    return;
  g_free (replay->dir);
  json_node_unref (replay->manifest);
  g_free (replay->product);
  g_free (replay->model);
  g_free (replay->device);
  g_free (replay->package);
  g_free (replay->proc_dir);
  g_free (replay->sys_dir);
  g_free (replay->hostproc_dir);
  g_free (replay);
}

/* The banner cannot carry ':', ';' or '='. */
static char *
banner_word (JsonObject *device,
             const char *key,
             const char *fallback)
{
  const char *v = device != NULL && json_object_has_member (device, key) &&
                  !json_object_get_null_member (device, key) ? json_object_get_string_member (device, key) : NULL;
  char *w = g_strdup (v != NULL && *v != '\0' ? v : fallback);

  g_strdelimit (w, ":;=\n", '_');
  return w;
}

static JsonNode *
load_manifest (const char  *dir,
               GError     **error)
{
  g_autofree char *path = g_build_filename (dir, "manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  o = json_node_get_object (json_parser_get_root (parser));
  if (o == NULL || g_strcmp0 (json_object_get_string_member_with_default (o, "format", ""), "adbscope-device-capture") != 0 ||
      json_object_get_int_member_with_default (o, "version", 0) != 1 ||
      json_object_get_int_member_with_default (o, "repeats", 0) < 1 ||
      json_object_get_array_member (o, "commands") == NULL || json_object_get_array_member (o, "files") == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("%s is not a capture of adbscope capture-device (format 1)"), path);
      return NULL;
    }
  return json_node_ref (json_parser_get_root (parser));
}

AdbscopeSimReplay *
adbscope_sim_replay_load (const char  *dir,
                          GError     **error)
{
  AdbscopeSimReplay *r;
  JsonNode *manifest = load_manifest (dir, error);
  JsonObject *o, *dev;
  JsonArray *up;

  if (manifest == NULL)
    return NULL;
  o = json_node_get_object (manifest);
  r = g_new0 (AdbscopeSimReplay, 1);
  r->dir = g_canonicalize_filename (dir, NULL);
  r->manifest = manifest;
  r->repeats = (guint) json_object_get_int_member (o, "repeats");
  dev = json_object_get_object_member (o, "device");
  r->product = banner_word (dev, "product", "replay");
  r->model = banner_word (dev, "model", "Replay");
  r->device = banner_word (dev, "device", "replay");
  if (json_object_has_member (o, "package") && !json_object_get_null_member (o, "package"))
    r->package = g_strdup (json_object_get_string_member (o, "package"));
  r->pid = (int) json_object_get_int_member_with_default (o, "pid", 0);

  /* One repeat per captured interval, on the phone's clock where known. */
  r->step_s = 1.0;
  up = json_object_get_array_member (o, "uptime_s");
  if (up != NULL && json_array_get_length (up) >= 2 && r->repeats >= 2)
    {
      double a = json_array_get_double_element (up, 0);
      double b = json_array_get_double_element (up, json_array_get_length (up) - 1);

      if (a > 0 && b > a)
        r->step_s = (b - a) / (json_array_get_length (up) - 1);
    }
  r->step_s = CLAMP (r->step_s, 0.2, 60.0);
  r->step = -1;
  return r;
}

const char *
adbscope_sim_replay_get_dir (AdbscopeSimReplay *replay)
{
  return replay->dir;
}

const char *
adbscope_sim_replay_get_package (AdbscopeSimReplay *replay)
{
  return replay->package;
}

int
adbscope_sim_replay_get_pid (AdbscopeSimReplay *replay)
{
  return replay->pid;
}

char *
adbscope_sim_replay_banner (AdbscopeSimReplay *replay,
                            gboolean           shell_v2)
{
  return g_strdup_printf ("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;"
                          "features=%scmd,fixed_push_mkdir",
                          replay->product, replay->model, replay->device, shell_v2 ? "shell_v2," : "");
}

/* ---- kernel counters across the wrap ---- */

typedef enum { COUNTERS_NONE, COUNTERS_UPTIME, COUNTERS_STAT, COUNTERS_TASK, COUNTERS_NET } CounterKind;

static CounterKind
counter_kind (const char *path)
{
  const char *base = strrchr (path, '/');

  if (g_str_equal (path, "/proc/uptime"))
    return COUNTERS_UPTIME;
  if (g_str_equal (path, "/proc/stat"))
    return COUNTERS_STAT;
  if (g_str_equal (path, "/proc/net/dev"))
    return COUNTERS_NET;
  if (g_str_has_prefix (path, "/proc/") && base != NULL && g_str_equal (base, "/stat") &&
      g_ascii_isdigit (path[6]))
    return COUNTERS_TASK;
  return COUNTERS_NONE;
}

/* Which whitespace-separated tokens of a line (after its key) are counters. */
static gboolean
is_counter (CounterKind  kind,
            const char  *line,
            guint        token)
{
  switch (kind)
    {
    case COUNTERS_UPTIME:
      return TRUE;
    case COUNTERS_STAT:
      return token > 0 && (g_str_has_prefix (line, "cpu") || g_str_has_prefix (line, "ctxt ") ||
                           g_str_has_prefix (line, "processes ") || g_str_has_prefix (line, "intr ") ||
                           g_str_has_prefix (line, "softirq "));
    case COUNTERS_TASK:
      /* after the comm: minflt … cstime (fields 10–17) */
      return token >= 7 && token <= 14;
    case COUNTERS_NET:
      return strchr (line, ':') != NULL;
    case COUNTERS_NONE:
    default:
      return FALSE;
    }
}

/* Where the counted part of a line starts: after the comm's last ')' for
 * a task, after the interface's ':' for net/dev. */
static const char *
counted_part (CounterKind  kind,
              const char  *line)
{
  const char *p = NULL;

  if (kind == COUNTERS_TASK)
    p = strrchr (line, ')');
  else if (kind == COUNTERS_NET)
    p = strchr (line, ':');
  return p != NULL ? p + 1 : line;
}

static GPtrArray *
tokens (const char *text)
{
  GPtrArray *t = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (*p != '\0')
    {
      const char *s;

      while (*p == ' ' || *p == '\t')
        p++;
      s = p;
      while (*p != '\0' && *p != ' ' && *p != '\t')
        p++;
      if (p > s)
        g_ptr_array_add (t, g_strndup (s, p - s));
    }
  return t;
}

static gboolean
same_first_word (const char *a,
                 const char *b)
{
  gsize la = strcspn (a, " \t"), lb = strcspn (b, " \t");

  return la == lb && strncmp (a, b, la) == 0;
}

static gboolean
parse_number (const char *s,
              double     *v,
              int        *decimals)
{
  char *end = NULL;
  const char *dot = strchr (s, '.');

  if (!g_ascii_isdigit (*s))
    return FALSE;
  *v = g_ascii_strtod (s, &end);
  *decimals = dot != NULL ? (int) strlen (dot + 1) : 0;
  return end != NULL && *end == '\0';
}

/**
 * adbscope_sim_replay_offset:
 * @path: the file's path on the phone
 * @text: the repeat being shown
 * @first: the first repeat, @last: the last (the span)
 * @repeats: how many repeats the capture has
 * @cycle: how many times the capture has wrapped
 *
 * Returns: @text with each kernel counter raised by @cycle times
 * (last − first) · repeats / (repeats − 1): the span plus one mean step.
 */
char *
adbscope_sim_replay_offset (const char *path,
                            const char *text,
                            const char *first,
                            const char *last,
                            guint       repeats,
                            guint64     cycle)
{
  CounterKind kind = counter_kind (path);
  g_auto(GStrv) lines = NULL, flines = NULL, llines = NULL;
  GString *out;

  if (kind == COUNTERS_NONE || cycle == 0 || repeats < 2 || first == NULL || last == NULL)
    return g_strdup (text);
  lines = g_strsplit (text, "\n", -1);
  flines = g_strsplit (first, "\n", -1);
  llines = g_strsplit (last, "\n", -1);
  out = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *part = counted_part (kind, line);
      g_autoptr(GPtrArray) t = NULL, ft = NULL, lt = NULL;

      if (i > 0)
        g_string_append_c (out, '\n');
      if (i >= g_strv_length (flines) || i >= g_strv_length (llines) ||
          (kind == COUNTERS_NET && strchr (line, ':') == NULL))
        {
          g_string_append (out, line);
          continue;
        }
      t = tokens (part);
      ft = tokens (counted_part (kind, flines[i]));
      lt = tokens (counted_part (kind, llines[i]));
      /* The same line in all three (same key), else it is left alone. */
      if (t->len == 0 || ft->len != t->len || lt->len != t->len ||
          (kind != COUNTERS_UPTIME && kind != COUNTERS_TASK &&
           (!g_str_equal (t->pdata[0], ft->pdata[0]) || !g_str_equal (t->pdata[0], lt->pdata[0]))) ||
          (kind == COUNTERS_TASK && !same_first_word (line, flines[i])))
        {
          g_string_append (out, line);
          continue;
        }
      g_string_append_len (out, line, part - line);
      {
        const char *p = part;
        guint k = 0;

        while (*p != '\0')
          {
            const char *s = p;

            while (*p == ' ' || *p == '\t')
              p++;
            g_string_append_len (out, s, p - s);
            s = p;
            while (*p != '\0' && *p != ' ' && *p != '\t')
              p++;
            if (p == s)
              break;
            {
              double v, fv, lv;
              int dec, fdec, ldec;

              if (is_counter (kind, line, k) && parse_number (t->pdata[k], &v, &dec) &&
                  parse_number (ft->pdata[k], &fv, &fdec) && parse_number (lt->pdata[k], &lv, &ldec) && lv >= fv)
                {
                  double nv = v + (double) cycle * (lv - fv) * repeats / (repeats - 1);

                  if (dec > 0)
                    g_string_append_printf (out, "%.*f", dec, nv);
                  else
                    g_string_append_printf (out, "%.0f", floor (nv));
                }
              else
                g_string_append_len (out, s, p - s);
            }
            k++;
          }
      }
    }
  return g_string_free (out, FALSE);
}

/* ---- the tree ---- */

static char *
read_capture (AdbscopeSimReplay *replay,
              JsonArray         *files,
              guint              r)
{
  const char *rel;
  g_autofree char *path = NULL;
  char *text = NULL;

  if (r >= json_array_get_length (files) || json_node_is_null (json_array_get_element (files, r)))
    return NULL;
  rel = json_array_get_string_element (files, r);
  if (rel == NULL || rel[0] == '/' || strstr (rel, "..") != NULL)
    return NULL;
  path = g_build_filename (replay->dir, rel, NULL);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static char *
tree_path (AdbscopeSimReplay *replay,
           const char        *phone_path)
{
  if (g_str_has_prefix (phone_path, "/proc/"))
    return g_build_filename (replay->proc_dir, phone_path + 6, NULL);
  if (g_str_has_prefix (phone_path, "/sys/"))
    return g_build_filename (replay->sys_dir, phone_path + 5, NULL);
  return NULL;
}

/* Shows repeat @step % repeats, counters offset by its cycle. */
static void
write_step (AdbscopeSimReplay *replay,
            gint64             step)
{
  JsonArray *files = json_object_get_array_member (json_node_get_object (replay->manifest), "files");
  guint r = (guint) (step % replay->repeats);
  guint64 cycle = (guint64) (step / replay->repeats);

  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *f = json_array_get_object_element (files, i);
      const char *phone = json_object_get_string_member_with_default (f, "path", "");
      JsonArray *versions = json_object_get_array_member (f, "files");
      g_autofree char *dest = tree_path (replay, phone);
      g_autofree char *text = NULL;

      if (dest == NULL || versions == NULL || strstr (phone, "..") != NULL)
        continue;
      text = read_capture (replay, versions, r);
      if (text == NULL)
        {
          g_unlink (dest);   /* not there at this repeat (a thread that ended) */
          continue;
        }
      if (cycle > 0)
        {
          g_autofree char *a = read_capture (replay, versions, 0);
          g_autofree char *b = read_capture (replay, versions, replay->repeats - 1);
          char *shifted = adbscope_sim_replay_offset (phone, text, a, b, replay->repeats, cycle);

          g_free (text);
          text = shifted;
        }
      {
        g_autofree char *parent = g_path_get_dirname (dest);

        g_mkdir_with_parents (parent, 0755);
        adbscope_sim_write_atomic (dest, text);
      }
    }
}

/* SANDBOX/replay/{proc,sys}: the capture's files and directories, /proc/self
 * pointing into the real /proc (bound at hostproc). */
gboolean
adbscope_sim_replay_prepare (AdbscopeSimDevice  *device,
                             GError            **error)
{
  AdbscopeSimReplay *replay = device->replay;
  JsonArray *dirs = json_object_get_array_member (json_node_get_object (replay->manifest), "dirs");
  g_autofree char *base = g_build_filename (device->sandbox, "replay", NULL);

  replay->proc_dir = g_build_filename (base, "proc", NULL);
  replay->sys_dir = g_build_filename (base, "sys", NULL);
  replay->hostproc_dir = g_build_filename (base, "hostproc", NULL);
  if (g_mkdir_with_parents (replay->proc_dir, 0755) != 0 || g_mkdir_with_parents (replay->sys_dir, 0755) != 0 ||
      g_mkdir_with_parents (replay->hostproc_dir, 0755) != 0)
    {
      int e = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s: %s", base, g_strerror (e));
      return FALSE;
    }
  for (guint i = 0; i < 2; i++)
    {
      static const char * const links[] = { "self", "thread-self" };
      g_autofree char *link = g_build_filename (replay->proc_dir, links[i], NULL);
      g_autofree char *target = g_build_filename (replay->hostproc_dir, links[i], NULL);

      if (symlink (target, link) != 0 && errno != EEXIST)
        {
          int e = errno;

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s: %s", link, g_strerror (e));
          return FALSE;
        }
    }
  for (guint i = 0; dirs != NULL && i < json_array_get_length (dirs); i++)
    {
      g_autofree char *d = tree_path (replay, json_array_get_string_element (dirs, i));

      if (d != NULL && strstr (d, "..") == NULL)
        g_mkdir_with_parents (d, 0755);
    }
  replay->start_us = g_get_monotonic_time ();
  replay->step = 0;
  write_step (replay, 0);
  {
    g_autofree char *state = g_build_filename (device->sandbox, "state", "replay-step", NULL);

    adbscope_sim_write_atomic (state, "0\n");
  }
  return TRUE;
}

/* Called every 500 ms: the next repeat once its interval has passed. */
void
adbscope_sim_replay_tick (AdbscopeSimDevice *device)
{
  AdbscopeSimReplay *replay = device->replay;
  gint64 step = (gint64) ((g_get_monotonic_time () - replay->start_us) / 1e6 / replay->step_s);

  if (step == replay->step)
    return;
  replay->step = step;
  write_step (replay, step);
  {
    g_autofree char *state = g_build_filename (device->sandbox, "state", "replay-step", NULL);
    g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT "\n", step);

    adbscope_sim_write_atomic (state, text);
  }
}

void
adbscope_sim_replay_get_dirs (AdbscopeSimReplay *replay,
                              const char       **proc_dir,
                              const char       **sys_dir,
                              const char       **hostproc_dir)
{
  *proc_dir = replay->proc_dir;
  *sys_dir = replay->sys_dir;
  *hostproc_dir = replay->hostproc_dir;
}

/* ---- the tools (run by `adbscope sim-tool` in the device's shell) ---- */

static gboolean
argv_equal (JsonArray   *want,
            int          argc,
            char       **argv)
{
  if (want == NULL || (int) json_array_get_length (want) != argc)
    return FALSE;
  for (int i = 0; i < argc; i++)
    if (g_strcmp0 (json_array_get_string_element (want, i), argv[i]) != 0)
      return FALSE;
  return TRUE;
}

static JsonObject *
find_command (JsonObject  *manifest,
              int          argc,
              char       **argv)
{
  JsonArray *cmds = json_object_get_array_member (manifest, "commands");

  for (guint i = 0; cmds != NULL && i < json_array_get_length (cmds); i++)
    {
      JsonObject *c = json_array_get_object_element (cmds, i);

      if (argv_equal (json_object_get_array_member (c, "argv"), argc, argv))
        return c;
    }
  return NULL;
}

/* The text of @c at @step (the nearest repeat that has one). */
static char *
answer_at (AdbscopeSimReplay *replay,
           JsonObject        *c,
           gint64             step,
           int               *status)
{
  JsonArray *files = json_object_get_array_member (c, "files");
  JsonArray *st = json_object_get_array_member (c, "exit_status");

  for (guint k = 0; files != NULL && k < replay->repeats; k++)
    {
      guint r = (guint) ((step + k) % replay->repeats);
      char *text = read_capture (replay, files, r);

      if (text != NULL)
        {
          *status = st != NULL && r < json_array_get_length (st) ? (int) json_array_get_int_element (st, r) : 0;
          return text;
        }
    }
  return NULL;
}

/**
 * adbscope_sim_replay_tool:
 * @argc, @argv: the tool's name and its arguments
 *
 * Returns: the exit status; the captured answer is on stdout.
 */
int
adbscope_sim_replay_tool (const char  *sandbox,
                          const char  *dir,
                          int          argc,
                          char       **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *step_path = g_build_filename (sandbox, "state", "replay-step", NULL);
  g_autofree char *step_text = NULL;
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  AdbscopeSimReplay *replay = adbscope_sim_replay_load (dir, &error);
  JsonObject *c;
  gint64 step = 0;
  int status = 0;

  if (replay == NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
  if (g_file_get_contents (step_path, &step_text, NULL, NULL))
    step = g_ascii_strtoll (step_text, NULL, 10);

  c = find_command (json_node_get_object (replay->manifest), argc, argv);
  /* getprop KEY [DEFAULT] from the captured full list */
  if (c == NULL && g_str_equal (argv[0], "getprop") && argc >= 2)
    {
      char *gp[] = { (char *) "getprop", NULL };
      JsonObject *all = find_command (json_node_get_object (replay->manifest), 1, gp);
      g_autofree char *list = all != NULL ? answer_at (replay, all, step, &status) : NULL;
      g_autoptr(GHashTable) props = list != NULL ? adbscope_getprop_parse (list, strlen (list), NULL) : NULL;

      if (props != NULL)
        {
          const char *v = g_hash_table_lookup (props, argv[1]);

          printf ("%s\n", v != NULL ? v : argc > 2 ? argv[2] : "");
          adbscope_sim_replay_free (replay);
          return 0;
        }
    }
  if (c != NULL)
    text = answer_at (replay, c, step, &status);
  if (text == NULL)
    {
      line = g_strjoinv (" ", argv);
      fprintf (stderr, _("%s: the capture has no answer to “%s”\n"), argv[0], line);
      adbscope_sim_replay_free (replay);
      return 1;
    }
  fwrite (text, 1, strlen (text), stdout);
  adbscope_sim_replay_free (replay);
  return status;
}
