/* adbscope-control-request.c: see adbscope-control-request.h */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "adbscope-control-request.h"
#include "adbscope-error.h"
#include "adbscope-json.h"

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
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  JsonNode *member;

  if (len > ADBSCOPE_CONTROL_MAX_BODY)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                   _("The request body is larger than %d bytes"), ADBSCOPE_CONTROL_MAX_BODY);
      return NULL;
    }
  /* the shared reader of untrusted JSON: its depth limit is checked
   * before json-glib's recursive parser sees the body */
  root = len == 0 ? NULL : adbscope_json_parse_untrusted (body, (gssize) len, ADBSCOPE_CONTROL_MAX_BODY, &local);
  if (local != NULL && !adbscope_json_depth_within (body, len, ADBSCOPE_JSON_MAX_DEPTH))
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE, local->message);
      return NULL;
    }
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      (member = json_object_get_member (json_node_get_object (root), "label")) == NULL ||
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
