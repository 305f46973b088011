/* adbscope-assertion.c: `--assert 'PATH OP NUMBER'`
 *
 * PATH is a dotted path of the report's own keys (frames.janky_pct).  An
 * unknown path, or one that names an object or a string, is a usage error
 * (exit 2), found before recording starts by checking against a report
 * skeleton: an assertion that can never be evaluated must not pass.  A
 * path whose value is null (a metric with no data or not supported) fails,
 * with a message saying so: `frames.janky <= 0` never passes for an app
 * that drew nothing.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-assertion.h"
#include "adbscope-error.h"

static const struct {
  const char       *text;
  AdbscopeAssertOp  op;
} ops[] = {
  /* two-character operators first so "<=" is not read as "<" */
  { "<=", ADBSCOPE_ASSERT_LE },
  { ">=", ADBSCOPE_ASSERT_GE },
  { "==", ADBSCOPE_ASSERT_EQ },
  { "!=", ADBSCOPE_ASSERT_NE },
  { "<", ADBSCOPE_ASSERT_LT },
  { ">", ADBSCOPE_ASSERT_GT },
};

const char *
adbscope_assert_op_to_string (AdbscopeAssertOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (ops[i].op == op)
      return ops[i].text;
  return "?";
}

void
adbscope_assertion_free (AdbscopeAssertion *self)
{
  if (self == NULL)
    return;
  g_free (self->expression);
  g_free (self->path);
  g_free (self);
}

static gboolean
is_path_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.';
}

AdbscopeAssertion *
adbscope_assertion_parse (const char  *expression,
                          GError     **error)
{
  g_autoptr(AdbscopeAssertion) self = NULL;
  const char *p = expression;
  const char *path_start;
  g_autofree char *number = NULL;
  char *end = NULL;
  gboolean found_op = FALSE;

  g_return_val_if_fail (expression != NULL, NULL);

  self = g_new0 (AdbscopeAssertion, 1);
  self->expression = g_strdup (expression);

  while (g_ascii_isspace (*p))
    p++;
  path_start = p;
  while (is_path_char (*p))
    p++;
  if (p == path_start)
    goto bad;
  self->path = g_strndup (path_start, p - path_start);
  if (self->path[0] == '.' || g_str_has_suffix (self->path, ".") || strstr (self->path, "..") != NULL)
    goto bad;

  while (g_ascii_isspace (*p))
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_has_prefix (p, ops[i].text))
      {
        self->op = ops[i].op;
        p += strlen (ops[i].text);
        found_op = TRUE;
        break;
      }
  if (!found_op)
    goto bad;

  number = g_strstrip (g_strdup (p));
  if (g_str_equal (number, "true"))
    self->threshold = 1;
  else if (g_str_equal (number, "false"))
    self->threshold = 0;
  else
    {
      self->threshold = g_ascii_strtod (number, &end);
      if (number[0] == '\0' || end == NULL || *end != '\0' || !isfinite (self->threshold))
        goto bad;
    }
  return g_steal_pointer (&self);

bad:
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
               _("Cannot read the assertion “%s”: write PATH OP NUMBER, e.g. “frames.janky_pct < 5” (OP is one of < <= > >= == !=)"),
               expression);
  return NULL;
}

/* The node at a dotted path, or NULL. */
JsonNode *
adbscope_report_lookup (JsonNode   *report,
                        const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);
  JsonNode *node = report;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      JsonObject *object;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      object = json_node_get_object (node);
      if (!json_object_has_member (object, parts[i]))
        return NULL;
      node = json_object_get_member (object, parts[i]);
    }
  return node;
}

/* A node's string, or NULL when it holds anything else (or is NULL). */
const char *
adbscope_report_node_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
    ? json_node_get_string (node) : NULL;
}

static gboolean
node_is_assertable (JsonNode *node)
{
  GType type;

  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_BOOLEAN;
}

/* Checks that the path names a number (or a boolean) in a report of this
 * shape; run on a skeleton report before recording.
 */
gboolean
adbscope_assertion_check_path (AdbscopeAssertion  *self,
                               JsonNode           *report,
                               GError            **error)
{
  JsonNode *node = adbscope_report_lookup (report, self->path);

  if (node == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("The report has no “%s”; see docs/report.md for the paths"), self->path);
      return FALSE;
    }
  if (!node_is_assertable (node))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("“%s” is not a number in the report; name a number, e.g. %s.avg"),
                   self->path, self->path);
      return FALSE;
    }
  return TRUE;
}

gboolean
adbscope_assertion_evaluate (AdbscopeAssertion  *self,
                             JsonNode           *report,
                             GError            **error)
{
  JsonNode *node;
  double v;

  if (!adbscope_assertion_check_path (self, report, error))
    return FALSE;

  node = adbscope_report_lookup (report, self->path);
  self->evaluated = TRUE;
  if (JSON_NODE_HOLDS_NULL (node))
    {
      self->has_value = FALSE;
      self->pass = FALSE;
      return TRUE;
    }
  if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    v = json_node_get_boolean (node) ? 1 : 0;
  else
    v = json_node_get_double (node);

  self->has_value = TRUE;
  self->value = v;
  switch (self->op)
    {
    case ADBSCOPE_ASSERT_LT: self->pass = v < self->threshold; break;
    case ADBSCOPE_ASSERT_LE: self->pass = v <= self->threshold; break;
    case ADBSCOPE_ASSERT_GT: self->pass = v > self->threshold; break;
    case ADBSCOPE_ASSERT_GE: self->pass = v >= self->threshold; break;
    case ADBSCOPE_ASSERT_EQ: self->pass = v == self->threshold; break;
    case ADBSCOPE_ASSERT_NE: self->pass = v != self->threshold; break;
    default: g_assert_not_reached ();
    }
  return TRUE;
}

void
adbscope_assertion_to_json (AdbscopeAssertion *self,
                            JsonBuilder       *builder)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "expression");
  json_builder_add_string_value (builder, self->expression);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, self->path);
  json_builder_set_member_name (builder, "op");
  json_builder_add_string_value (builder, adbscope_assert_op_to_string (self->op));
  json_builder_set_member_name (builder, "threshold");
  json_builder_add_double_value (builder, self->threshold);
  json_builder_set_member_name (builder, "value");
  if (self->evaluated && self->has_value)
    json_builder_add_double_value (builder, self->value);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "pass");
  json_builder_add_boolean_value (builder, self->evaluated && self->pass);
  /* Why an assertion on nothing failed, in words. */
  json_builder_set_member_name (builder, "message");
  if (self->evaluated && !self->has_value)
    {
      g_autofree char *m = g_strdup_printf (_("“%s” has no value (null): nothing was measured, "
                                              "or the device does not support it, so the assertion fails"),
                                            self->path);
      json_builder_add_string_value (builder, m);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}
