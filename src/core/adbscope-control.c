/* adbscope-control.c: the record's control endpoint and its client
 *
 * POST /mark {"label": "…"} and POST /stop, with "Authorization: Bearer
 * TOKEN".  The server emits "mark" (label) and "stop"; the record decides
 * what they do and answers through the JSON it returns from the handler.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <unistd.h>

#include "adbscope-control.h"
#include "adbscope-control-request.h"
#include "adbscope-error.h"

struct _AdbscopeControlServer
{
  GObject     parent_instance;
  SoupServer *server;
  char       *token;
  char       *state_path;
  int         lock_fd;     /* flock(LOCK_EX) on record.lock while running */
  guint       port;
};

G_DEFINE_FINAL_TYPE (AdbscopeControlServer, adbscope_control_server, G_TYPE_OBJECT)

enum {
  SIGNAL_MARK,
  SIGNAL_STOP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
adbscope_control_dup_state_path (void)
{
  return g_build_filename (g_get_user_runtime_dir (), "adbscope", "record.json", NULL);
}

static char *
new_token (void)
{
  guint8 bytes[16];
  GString *hex = g_string_new (NULL);

  /* A real random source: the token is what keeps other local users out. */
  if (getrandom (bytes, sizeof bytes, 0) != sizeof bytes)
    g_error ("getrandom failed: %s", g_strerror (errno));
  for (guint i = 0; i < sizeof bytes; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  return g_string_free (hex, FALSE);
}

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            JsonNode          *node)
{
  g_autofree char *body = json_to_string (node, FALSE);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
reply_error (SoupServerMessage *msg,
             guint              status,
             const char        *code,
             const char        *message)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "code");
  json_builder_add_string_value (b, code);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  reply_json (msg, status, node);
}

static void
handle_request (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  AdbscopeControlServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(AdbscopeControlRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  /* Refused before the body is flattened: a huge body costs nothing more. */
  if (body->length > ADBSCOPE_CONTROL_MAX_BODY)
    {
      reply_error (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "usage", _("The request body is too large"));
      return;
    }
  bytes = soup_message_body_flatten (body);
  request = adbscope_control_request_parse (soup_server_message_get_method (msg), path,
                                            soup_message_headers_get_one (headers, "Authorization"),
                                            self->token,
                                            g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                            &status, &error);
  if (request == NULL)
    {
      reply_error (msg, status,
                   g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FORBIDDEN) ? "forbidden" : "usage",
                   error->message);
      return;
    }

  if (request->command == ADBSCOPE_CONTROL_MARK)
    g_signal_emit (self, signals[SIGNAL_MARK], 0, request->label, &answer);
  else
    g_signal_emit (self, signals[SIGNAL_STOP], 0, &answer);

  if (answer == NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ok");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      answer = json_builder_get_root (b);
    }
  reply_json (msg, SOUP_STATUS_OK, answer);
}

/* A body announced larger than the limit is refused before it is read. */
static void
on_got_headers (SoupServerMessage *msg,
                gpointer           user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (soup_message_headers_get_content_length (headers) > ADBSCOPE_CONTROL_MAX_BODY)
    reply_error (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "usage", _("The request body is too large"));
}

static void
on_request_started (SoupServer        *server,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), NULL);
}

char *
adbscope_control_dup_lock_path (void)
{
  return g_build_filename (g_get_user_runtime_dir (), "adbscope", "record.lock", NULL);
}

/* The pid the state file names, for the message; 0 if unknown. */
static gint64
state_file_pid (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_file (parser, path, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  return json_object_get_int_member_with_default (json_node_get_object (root), "pid", 0);
}

/* One record at a time, atomically: an exclusive flock() on record.lock,
 * held for the whole run and released by the kernel however the run ends.
 * Whoever holds it owns record.json; a file left without the lock is
 * stale, whatever its pid.  Returns the lock fd, or -1. */
static int
take_run_lock (const char  *lock_path,
               const char  *state_path,
               GError     **error)
{
  int fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s"), lock_path, g_strerror (errsv));
      return -1;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int errsv = errno;
      gint64 pid = state_file_pid (state_path);

      close (fd);
      if (errsv != EWOULDBLOCK)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot lock %s: %s"), lock_path, g_strerror (errsv));
          return -1;
        }
      /* Not G_GINT64_FORMAT: xgettext cannot see through it. */
      if (pid > 0)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE,
                     _("Another record is running (pid %lld); stop it with “adbscope stop”"), (long long) pid);
      else
        g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE,
                             _("Another record is starting; stop it with “adbscope stop”"));
      return -1;
    }
  return fd;
}

/* TRUE when a record holds the lock (for the client: a state file without
 * one is stale). */
static gboolean
run_lock_is_held (void)
{
  g_autofree char *lock_path = adbscope_control_dup_lock_path ();
  int fd = open (lock_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  gboolean held;

  if (fd < 0)
    return FALSE;
  held = flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close (fd);
  return held;
}

static void
release_run_lock (AdbscopeControlServer *self)
{
  if (self->lock_fd >= 0)
    {
      close (self->lock_fd);
      self->lock_fd = -1;
    }
}

gboolean
adbscope_control_server_start (AdbscopeControlServer  *self,
                               GError                **error)
{
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *lock_path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tmp = NULL;
  GSList *uris;
  int fd;

  g_return_val_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self), FALSE);
  g_return_val_if_fail (self->server == NULL, FALSE);

  self->state_path = adbscope_control_dup_state_path ();
  lock_path = adbscope_control_dup_lock_path ();
  dir = g_path_get_dirname (self->state_path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot create %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  self->lock_fd = take_run_lock (lock_path, self->state_path, error);
  if (self->lock_fd < 0)
    return FALSE;

  self->server = soup_server_new ("server-header", "adbscope", NULL);
  soup_server_add_handler (self->server, NULL, handle_request, self, NULL);
  g_signal_connect (self->server, "request-started", G_CALLBACK (on_request_started), NULL);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, 0);
  if (!soup_server_listen (self->server, address, 0, error))
    {
      g_clear_object (&self->server);
      release_run_lock (self);
      return FALSE;
    }
  uris = soup_server_get_uris (self->server);
  self->port = uris ? g_uri_get_port (uris->data) : 0;
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "port");
  json_builder_add_int_value (b, self->port);
  json_builder_set_member_name (b, "token");
  json_builder_add_string_value (b, self->token);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, getpid ());
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  text = json_to_string (node, FALSE);

  /* Written 0600 from the start, then renamed into place. */
  tmp = g_strconcat (self->state_path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (tmp, O_WRONLY, 0600);
  if (fd < 0 || write (fd, text, strlen (text)) != (gssize) strlen (text) ||
      close (fd) != 0 || g_rename (tmp, self->state_path) != 0)
    {
      int errsv = errno;
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s"), self->state_path, g_strerror (errsv));
      g_unlink (tmp);
      adbscope_control_server_stop (self);
      return FALSE;
    }
  return TRUE;
}

void
adbscope_control_server_stop (AdbscopeControlServer *self)
{
  g_return_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self));

  if (self->server != NULL)
    {
      soup_server_disconnect (self->server);
      g_clear_object (&self->server);
      /* Ours to remove: we hold the lock.  Removed before the lock goes. */
      if (self->state_path != NULL && self->lock_fd >= 0)
        g_unlink (self->state_path);
    }
  release_run_lock (self);
}

guint
adbscope_control_server_get_port (AdbscopeControlServer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self), 0);
  return self->port;
}

const char *
adbscope_control_server_get_token (AdbscopeControlServer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self), NULL);
  return self->token;
}

static void
adbscope_control_server_finalize (GObject *object)
{
  AdbscopeControlServer *self = ADBSCOPE_CONTROL_SERVER (object);

  adbscope_control_server_stop (self);
  g_free (self->token);
  g_free (self->state_path);
  G_OBJECT_CLASS (adbscope_control_server_parent_class)->finalize (object);
}

static void
adbscope_control_server_class_init (AdbscopeControlServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = adbscope_control_server_finalize;

  /* Handlers return a JsonNode (transfer full) to send back, or NULL. */
  signals[SIGNAL_MARK] =
    g_signal_new ("mark", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_first_wins, NULL, NULL,
                  JSON_TYPE_NODE, 1, G_TYPE_STRING);
  signals[SIGNAL_STOP] =
    g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_first_wins, NULL, NULL,
                  JSON_TYPE_NODE, 0);
}

static void
adbscope_control_server_init (AdbscopeControlServer *self)
{
  self->token = new_token ();
  self->lock_fd = -1;
}

AdbscopeControlServer *
adbscope_control_server_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_CONTROL_SERVER, NULL);
}

/* Client side: sends COMMAND ("mark" or "stop") to the running record and
 * returns its JSON answer.
 */
JsonNode *
adbscope_control_request (const char  *command,
                          const char  *label,
                          GError     **error)
{
  g_autofree char *path = adbscope_control_dup_state_path ();
  g_autoptr(JsonParser) state = json_parser_new ();
  g_autoptr(JsonParser) reply = json_parser_new ();
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *url = NULL;
  g_autofree char *auth = NULL;
  JsonObject *obj;
  JsonNode *root;
  gint64 port;
  const char *token;

  if (!run_lock_is_held () || !json_parser_load_from_file (state, path, NULL) ||
      (root = json_parser_get_root (state)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                   _("No record is running (no %s)"), path);
      return NULL;
    }
  obj = json_node_get_object (root);
  port = json_object_get_int_member_with_default (obj, "port", 0);
  token = json_object_get_string_member_with_default (obj, "token", NULL);
  if (port <= 0 || port > 65535 || token == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                   _("The record state file %s is damaged"), path);
      return NULL;
    }

  session = soup_session_new_with_options ("timeout", 10, NULL);
  /* 127.0.0.1 only: never ask the proxy settings (an http_proxy in the
   * environment must not route this request elsewhere). */
  soup_session_set_proxy_resolver (session, NULL);
  url = g_strdup_printf ("http://127.0.0.1:%" G_GINT64_FORMAT "/%s", port, command);
  msg = soup_message_new ("POST", url);
  auth = g_strdup_printf ("Bearer %s", token);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  if (label != NULL && !adbscope_control_label_is_valid (label, error))
    return NULL;
  if (label != NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GBytes) request = NULL;
      char *text;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, label);
      json_builder_end_object (b);
      node = json_builder_get_root (b);
      text = json_to_string (node, FALSE);
      request = g_bytes_new_take (text, strlen (text));
      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }

  body = soup_session_send_and_read (session, msg, NULL, error);
  if (body == NULL)
    {
      /* Refused: the record died without removing its file. */
      g_autoptr(GError) local = NULL;
      g_propagate_error (&local, g_steal_pointer (error));
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                   _("No record answers on port %lld: %s"), (long long) port, local->message);
      return NULL;
    }
  if (!json_parser_load_from_data (reply, g_bytes_get_data (body, NULL), g_bytes_get_size (body), NULL) ||
      json_parser_get_root (reply) == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("The record answered something that is not JSON (HTTP %u)"),
                   soup_message_get_status (msg));
      return NULL;
    }
  root = json_parser_get_root (reply);
  if (soup_message_get_status (msg) != SOUP_STATUS_OK)
    {
      JsonObject *err = JSON_NODE_HOLDS_OBJECT (root) ?
        json_object_get_object_member (json_node_get_object (root), "error") : NULL;
      const char *code = err ? json_object_get_string_member_with_default (err, "code", "") : "";
      const char *message = err ? json_object_get_string_member_with_default (err, "message", "") : "";

      g_set_error (error, ADBSCOPE_ERROR,
                   g_str_equal (code, "forbidden") ? ADBSCOPE_ERROR_FORBIDDEN : ADBSCOPE_ERROR_FAILED,
                   "%s", message);
      return NULL;
    }
  return json_node_copy (root);
}
