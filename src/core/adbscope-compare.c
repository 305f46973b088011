/* adbscope-compare.c: two reports side by side, and the regression gate
 *
 * Every number both reports have is listed with its change.  A threshold
 * PATH=PCT fails when the run is worse than the base by more than PCT % of
 * the base.  Worse is up (CPU, memory, jank, power), except for the
 * metrics where more is better (frame rate, available memory, battery
 * left); PATH=+PCT or PATH=-PCT names the direction explicitly.  A
 * threshold on a value that either report lacks (null) fails, like an
 * assertion on null does.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-assertion.h"
#include "adbscope-compare.h"
#include "adbscope-error.h"

static const char * const higher_is_better[] = {
  "frames.fps.", "memory.system_available_kb.", "power.battery_level_pct.", NULL
};

AdbscopeThreshold *
adbscope_threshold_parse (const char  *text,
                          GError     **error)
{
  g_autoptr(AdbscopeThreshold) self = g_new0 (AdbscopeThreshold, 1);
  const char *eq = text ? strrchr (text, '=') : NULL;
  const char *num;
  char *end = NULL;

  if (eq == NULL || eq == text)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("Cannot read the threshold “%s” (write PATH=PERCENT, e.g. cpu.app_pct.avg=10)"),
                   text ? text : "");
      return NULL;
    }
  self->path = g_strstrip (g_strndup (text, eq - text));
  num = eq + 1;
  while (*num == ' ')
    num++;
  self->direction = 0;
  if (*num == '+' || *num == '-')
    self->direction = *num++ == '+' ? 1 : -1;
  self->max_pct = g_ascii_strtod (num, &end);
  if (end == num || !isfinite (self->max_pct) || self->max_pct < 0 ||
      (*end != '\0' && !g_str_equal (end, "%")))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("Cannot read the threshold “%s” (write PATH=PERCENT, e.g. cpu.app_pct.avg=10)"), text);
      return NULL;
    }
  if (self->direction == 0)
    {
      self->direction = 1;
      for (guint i = 0; higher_is_better[i] != NULL; i++)
        if (g_str_has_prefix (self->path, higher_is_better[i]))
          self->direction = -1;
    }
  return g_steal_pointer (&self);
}

void
adbscope_threshold_free (AdbscopeThreshold *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self);
}

static gboolean
node_number (JsonNode *node,
             double   *value)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      *value = json_node_get_double (node);
      return TRUE;
    }
  return FALSE;
}

/* The path must name a number (or a null number) of the report. */
gboolean
adbscope_threshold_check_path (AdbscopeThreshold  *self,
                               JsonNode           *report,
                               GError            **error)
{
  JsonNode *node = adbscope_report_lookup (report, self->path);
  double v;

  if (node != NULL && (JSON_NODE_HOLDS_NULL (node) || node_number (node, &v)))
    return TRUE;
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
               _("The report has no number at “%s”"), self->path);
  return FALSE;
}

static void
set_number (JsonObject *o,
            const char *key,
            gboolean    have,
            double      v)
{
  if (have && isfinite (v))
    json_object_set_double_member (o, key, v);
  else
    json_object_set_null_member (o, key);
}

/* frames.total, janky and janky_pct count the frames of the source the
 * FPS came from (docs/report.md): HWUI's frames against SurfaceFlinger's
 * are not a change of the app. */
static const char * const by_frame_source[] = {
  "frames.total", "frames.janky", "frames.janky_pct", NULL
};

static const char *
string_at (JsonNode   *report,
           const char *path)
{
  return adbscope_report_node_string (report ? adbscope_report_lookup (report, path) : NULL);
}

/* TRUE when @path is counted from different frame sources in the two
 * reports (both name theirs). */
static gboolean
sources_differ (JsonNode   *base,
                JsonNode   *run,
                const char *path)
{
  const char *a = string_at (base, "frames.total_source");
  const char *b = string_at (run, "frames.total_source");

  return g_strv_contains (by_frame_source, path) && a != NULL && b != NULL && !g_str_equal (a, b);
}

/* Walks the base's objects (arrays are lists of things, not metrics:
 * threads, markers and gaps are not compared). */
static void
walk (JsonNode   *base,
      JsonNode   *run,
      const char *prefix,
      gboolean    frame_sources_differ,
      JsonArray  *out)
{
  JsonObject *object = json_node_get_object (base);
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      g_autofree char *path = prefix ? g_strconcat (prefix, ".", key, NULL) : g_strdup (key);
      JsonNode *b = json_object_get_member (object, key);
      JsonNode *r = run && JSON_NODE_HOLDS_OBJECT (run) && json_object_has_member (json_node_get_object (run), key)
        ? json_object_get_member (json_node_get_object (run), key) : NULL;
      double bv = NAN, rv = NAN;
      gboolean hb, hr, comparable;
      JsonObject *m;

      if (g_str_equal (path, "assertions"))
        continue;
      if (JSON_NODE_HOLDS_OBJECT (b))
        {
          walk (b, r, path, frame_sources_differ, out);
          continue;
        }
      hb = node_number (b, &bv);
      hr = node_number (r, &rv);
      if (!hb && !hr && !(JSON_NODE_HOLDS_NULL (b) && (r == NULL || JSON_NODE_HOLDS_NULL (r))))
        continue;
      m = json_object_new ();
      json_object_set_string_member (m, "path", path);
      set_number (m, "base", hb, bv);
      set_number (m, "run", hr, rv);
      /* listed, but no change between two sources' counts */
      comparable = hb && hr && !(frame_sources_differ && g_strv_contains (by_frame_source, path));
      set_number (m, "change", comparable, rv - bv);
      set_number (m, "change_pct", comparable && bv != 0, 100.0 * (rv - bv) / fabs (bv));
      json_array_add_object_element (out, m);
    }
}

/**
 * adbscope_compare_reports:
 * @n_regressions: (out): how many thresholds failed
 *
 * Returns: `{"metrics": [...], "thresholds": [...], "regressions": N}`
 */
JsonNode *
adbscope_compare_reports (JsonNode  *base,
                          JsonNode  *run,
                          GPtrArray *thresholds,
                          guint     *n_regressions)
{
  JsonObject *root = json_object_new ();
  JsonArray *metrics = json_array_new ();
  JsonArray *checks = json_array_new ();
  JsonNode *node;
  guint failed = 0;

  g_return_val_if_fail (JSON_NODE_HOLDS_OBJECT (base), NULL);

  walk (base, run, NULL, sources_differ (base, run, "frames.total"), metrics);
  for (guint i = 0; thresholds != NULL && i < thresholds->len; i++)
    {
      AdbscopeThreshold *t = g_ptr_array_index (thresholds, i);
      JsonObject *c = json_object_new ();
      double bv = NAN, rv = NAN, worse_pct = NAN;
      gboolean hb = node_number (adbscope_report_lookup (base, t->path), &bv);
      gboolean hr = node_number (adbscope_report_lookup (run, t->path), &rv);
      gboolean pass, across;

      if (hb && hr)
        {
          double worse = t->direction * (rv - bv);

          if (bv != 0)
            worse_pct = 100.0 * worse / fabs (bv);
          else
            worse_pct = worse > 0 ? INFINITY : 0;
        }
      /* a threshold across frame sources fails, like one on null */
      across = sources_differ (base, run, t->path);
      pass = hb && hr && !across && !(worse_pct > t->max_pct);

      json_object_set_string_member (c, "path", t->path);
      json_object_set_string_member (c, "worse_when", t->direction > 0 ? "higher" : "lower");
      json_object_set_double_member (c, "max_regress_pct", t->max_pct);
      set_number (c, "base", hb, bv);
      set_number (c, "run", hr, rv);
      /* +inf (worse from a base of 0) is not JSON: null, and it fails */
      set_number (c, "regress_pct", hb && hr, worse_pct);
      json_object_set_boolean_member (c, "pass", pass);
      if (across)
        {
          g_autofree char *why = g_strdup_printf (_("The base counts its frames from %s, the run from %s"),
                                                  string_at (base, "frames.total_source"),
                                                  string_at (run, "frames.total_source"));

          json_object_set_string_member (c, "reason", why);
        }
      else
        json_object_set_null_member (c, "reason");
      failed += !pass;
      json_array_add_object_element (checks, c);
    }
  json_object_set_array_member (root, "metrics", metrics);
  json_object_set_array_member (root, "thresholds", checks);
  json_object_set_int_member (root, "regressions", failed);
  node = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
  *n_regressions = failed;
  return node;
}
