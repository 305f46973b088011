/* adbscope-control-request.c: see adbscope-control-request.h */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "adbscope-control-request.h"
#include "adbscope-error.h"

void
adbscope_control_request_free (AdbscopeControlRequest *request)
{
  if (request == NULL)
    return;
  g_free (request->label);
  g_free (request);
}

static gboolean
token_matches (const char *expected,
               const char *given)
{
  gsize n = strlen (expected);
  guint8 diff = 0;

  if (given == NULL || strlen (given) != n)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    diff |= (guint8) (expected[i] ^ given[i]);
  return diff == 0;
}

/* The deepest nesting of arrays and objects, outside strings.  json-glib
 * also reads comments and single-quoted strings, which could hide brackets
 * from this count: outside a string either is refused (it is not JSON). */
static gboolean
depth_within (const char *data,
              gsize       len,
              guint       max)
{
  gboolean in_string = FALSE, escaped = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '/' || c == '\'' || c == '\0')
        return FALSE;
      else if (c == '{' || c == '[')
        {
          if (++depth > max)
            return FALSE;
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }
  return TRUE;
}

gboolean
adbscope_control_label_is_valid (const char  *label,
                                 GError     **error)
{
  gsize n = strlen (label);

  if (n > ADBSCOPE_MARKER_MAX_LABEL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("A marker label is at most %d bytes (this one has %lu)"),
                   ADBSCOPE_MARKER_MAX_LABEL, (unsigned long) n);
      return FALSE;
    }
  if (!g_utf8_validate (label, (gssize) n, NULL))
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                           _("A marker label must be valid UTF-8"));
      return FALSE;
    }
  return TRUE;
}

static char *
parse_mark_body (const char  *body,
                 gsize        len,
                 GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root, *member;
  JsonObject *object;

  if (len > ADBSCOPE_CONTROL_MAX_BODY)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("The request body is larger than %d bytes"), ADBSCOPE_CONTROL_MAX_BODY);
      return NULL;
    }
  if (!depth_within (body, len, ADBSCOPE_CONTROL_MAX_DEPTH))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("The request body is not plain JSON nested at most %d deep"), ADBSCOPE_CONTROL_MAX_DEPTH);
      return NULL;
    }
  parser = json_parser_new_immutable ();
  if (len == 0 || !json_parser_load_from_data (parser, body, (gssize) len, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      (member = json_object_get_member ((object = json_node_get_object (root)), "label")) == NULL ||
      !JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE, _("Expected {\"label\": \"…\"}"));
      return NULL;
    }
  if (!adbscope_control_label_is_valid (json_node_get_string (member), error))
    return NULL;
  return g_strdup (json_node_get_string (member));
}

AdbscopeControlRequest *
adbscope_control_request_parse (const char  *method,
                                const char  *path,
                                const char  *authorization,
                                const char  *token,
                                const char  *body,
                                gsize        body_len,
                                guint       *status,
                                GError     **error)
{
  g_autoptr(AdbscopeControlRequest) request = g_new0 (AdbscopeControlRequest, 1);

  g_return_val_if_fail (token != NULL && status != NULL, NULL);

  if (authorization == NULL || !g_str_has_prefix (authorization, "Bearer ") ||
      !token_matches (token, authorization + strlen ("Bearer ")))
    {
      *status = 403;
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FORBIDDEN, _("Wrong or missing token"));
      return NULL;
    }
  if (g_strcmp0 (method, "POST") != 0)
    {
      *status = 405;
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE, _("Use POST"));
      return NULL;
    }
  if (g_strcmp0 (path, "/mark") == 0)
    {
      request->command = ADBSCOPE_CONTROL_MARK;
      request->label = parse_mark_body (body != NULL ? body : "", body != NULL ? body_len : 0, error);
      if (request->label == NULL)
        {
          *status = body_len > ADBSCOPE_CONTROL_MAX_BODY ? 413 : 400;
          return NULL;
        }
    }
  else if (g_strcmp0 (path, "/stop") == 0)
    request->command = ADBSCOPE_CONTROL_STOP;
  else
    {
      *status = 404;
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE, _("Unknown request"));
      return NULL;
    }
  *status = 200;
  return g_steal_pointer (&request);
}
