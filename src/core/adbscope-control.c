/* adbscope-control.c: the record's control endpoint and its client
 *
 * POST /mark {"label": "…"} and POST /stop, with "Authorization: Bearer
 * TOKEN".  The server emits "mark" (label) and "stop"; the record decides
 * what they do and answers through the JSON it returns from the handler.
 *
 * Several records run at once, one per device.  In
 * $XDG_RUNTIME_DIR/adbscope/:
 * - runs/ID.lock: flock(LOCK_EX) held by the record with that id for its
 *   whole run (ids are unique among the running records);
 * - runs/ID.json: its port, token, pid, id and serial, written and removed
 *   only by the holder of ID.lock; one without a held lock is stale;
 * - devices/KEY.lock: flock(LOCK_EX) per device (serial, and the adb
 *   server when one was chosen), so two records never watch one device;
 *   the holder writes its id into it for the message of the next one.
 * The client lists the live runs and picks one by id or serial, or the
 * only one.
 *
 * The server is a small HTTP/1.1 reader on a GSocketService, not
 * SoupServer: any local user can connect, so every resource is bounded
 * before the token is even looked at, which SoupServer 3.2 cannot do (it
 * reads a chunked body whole before the handler sees its size, and keeps
 * idle connections open without limit).  At most CONTROL_MAX_CONNECTIONS
 * connections are open (a new one closes the oldest), each must deliver
 * its whole request within CONTROL_REQUEST_TIMEOUT_S, the head may be at
 * most CONTROL_MAX_HEAD bytes and the body (Content-Length or chunked) at
 * most ADBSCOPE_CONTROL_MAX_BODY: a body is refused (413) as soon as it
 * passes the limit, never read whole.  Every read is asynchronous on the
 * main loop, a few KiB at a time: sampling never waits on the port.  The
 * client (adbscope mark/stop) still uses libsoup.
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
#include <sys/stat.h>
#include <unistd.h>

#include "adbscope-control.h"
#include "adbscope-adb.h"
#include "adbscope-control-request.h"
#include "adbscope-error.h"
#include "adbscope-validate.h"
#include "adbscope-json.h"

#define CONTROL_MAX_CONNECTIONS    16
#define CONTROL_REQUEST_TIMEOUT_S  5
#define CONTROL_MAX_HEAD           8192
/* after an error answer, what is still read (and dropped, never kept) so
 * the client sees the answer rather than a reset: 1 MiB of a chunked body,
 * an announced Content-Length up to 64 MiB (clients like libsoup read the
 * answer only once they sent the body), all within the time limit */
#define CONTROL_DRAIN_BYTES        (1024 * 1024)
#define CONTROL_DRAIN_ANNOUNCED    (64 * 1024 * 1024)

typedef struct _Conn Conn;

struct _AdbscopeControlServer
{
  GObject     parent_instance;
  GSocketService *service;
  GQueue      conns;       /* Conn, oldest first */
  char       *token;
  char       *id;
  char       *serial;
  char       *state_path;
  int         lock_fd;     /* flock(LOCK_EX) on runs/ID.lock while running */
  int         device_fd;   /* flock(LOCK_EX) on devices/KEY.lock */
  guint       port;
};

G_DEFINE_FINAL_TYPE (AdbscopeControlServer, adbscope_control_server, G_TYPE_OBJECT)

enum {
  SIGNAL_MARK,
  SIGNAL_STOP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
control_dir (const char *sub)
{
  return g_build_filename (g_get_user_runtime_dir (), "adbscope", sub, NULL);
}

/* runs/ID.json, runs/ID.lock */
static char *
run_file (const char *id,
          const char *suffix)
{
  g_autofree char *dir = control_dir ("runs");
  g_autofree char *name = g_strconcat (id, suffix, NULL);

  return g_build_filename (dir, name, NULL);
}

char *
adbscope_control_dup_state_path (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  return run_file (id, ".json");
}

/* Record ids are file names and command-line words: 1–64 of [A-Za-z0-9._-],
 * not starting with '.' or '-'. */
gboolean
adbscope_control_id_is_valid (const char *id)
{
  gsize n;

  if (id == NULL || (n = strlen (id)) == 0 || n > 64 || id[0] == '.' || id[0] == '-')
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isalnum (id[i]) && id[i] != '.' && id[i] != '_' && id[i] != '-')
      return FALSE;
  return TRUE;
}

/* n_bytes random bytes as hex. */
static char *
new_token (gsize n_bytes)
{
  guint8 bytes[16];
  GString *hex = g_string_new (NULL);

  g_assert (n_bytes <= sizeof bytes);
  /* A real random source: the token is what keeps other local users out. */
  if (getrandom (bytes, n_bytes, 0) != (gssize) n_bytes)
    g_error ("getrandom failed: %s", g_strerror (errno));
  for (guint i = 0; i < n_bytes; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  return g_string_free (hex, FALSE);
}

struct _Conn
{
  AdbscopeControlServer *server;
  GSocketConnection     *connection;
  GCancellable          *cancellable;
  GByteArray            *buf;        /* what came, not yet consumed */
  GByteArray            *body;       /* the decoded body */
  guint                  timeout_id;
  gboolean               answered;   /* the answer is written or being written */
  gsize                  drained;
  gsize                  drain_limit;
  guint8                 chunk[4096];
};

static void conn_read (Conn *conn);

/* Closes and frees @conn (it is in server->conns). */
static void
conn_close (Conn *conn)
{
  g_queue_remove (&conn->server->conns, conn);
  g_cancellable_cancel (conn->cancellable);
  g_clear_handle_id (&conn->timeout_id, g_source_remove);
  g_io_stream_close (G_IO_STREAM (conn->connection), NULL, NULL);
  g_object_unref (conn->connection);
  g_object_unref (conn->cancellable);
  g_byte_array_unref (conn->buf);
  g_byte_array_unref (conn->body);
  g_free (conn);
}

/* The async callbacks hold no reference to their Conn: conn_close ()
 * cancels, and a GTask whose cancellable was cancelled always finishes
 * with G_IO_ERROR_CANCELLED, so a callback that sees it touches nothing. */

static gboolean
on_conn_timeout (gpointer data)
{
  Conn *conn = data;

  conn->timeout_id = 0;
  g_debug ("control: a connection sent no complete request in %d s: dropped", CONTROL_REQUEST_TIMEOUT_S);
  conn_close (conn);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  AdbscopeControlServer *server;
  Conn                  *conn;
  GBytes                *bytes;
} Write;

static void
on_drained (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Write *w = data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* closed and freed meanwhile (the time limit) */
      g_object_unref (w->server);
      g_free (w);
      return;
    }
  if (n > 0 && (w->conn->drained += (gsize) n) < w->conn->drain_limit)
    {
      g_input_stream_read_async (G_INPUT_STREAM (source), w->conn->chunk, sizeof w->conn->chunk,
                                 G_PRIORITY_LOW, w->conn->cancellable, on_drained, w);
      return;
    }
  conn_close (w->conn);
  g_object_unref (w->server);
  g_free (w);
}

static void
on_written (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Write *w = data;
  g_autoptr(GError) error = NULL;
  gboolean ok = g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error);

  g_bytes_unref (w->bytes);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* closed and freed meanwhile */
      g_object_unref (w->server);
      g_free (w);
      return;
    }
  if (ok)
    {
      GSocket *socket = g_socket_connection_get_socket (w->conn->connection);

      /* no more from us; what the client still sends is read and dropped
       * (bounded) so that it reads the answer instead of a reset */
      g_socket_shutdown (socket, FALSE, TRUE, NULL);
      g_input_stream_read_async (g_io_stream_get_input_stream (G_IO_STREAM (w->conn->connection)),
                                 w->conn->chunk, sizeof w->conn->chunk, G_PRIORITY_LOW,
                                 w->conn->cancellable, on_drained, w);
      return;
    }
  conn_close (w->conn);
  g_object_unref (w->server);
  g_free (w);
}

static const char *
status_phrase (guint status)
{
  switch (status)
    {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
    }
}

/* Writes the answer; the connection closes after it (within the request's
 * time limit, which still runs). */
static void
reply_json (Conn     *conn,
            guint     status,
            JsonNode *node)
{
  g_autofree char *body = adbscope_json_to_string (node, FALSE);
  Write *w = g_new0 (Write, 1);
  GString *out = g_string_new (NULL);
  gsize len;

  conn->answered = TRUE;
  g_string_append_printf (out, "HTTP/1.1 %u %s\r\nServer: adbscope\r\nContent-Type: application/json\r\n"
                          "Content-Length: %u\r\nConnection: close\r\n\r\n%s",
                          status, status_phrase (status), (guint) strlen (body), body);
  len = out->len;
  w->server = g_object_ref (conn->server);
  w->conn = conn;
  w->bytes = g_string_free_to_bytes (out);
  g_output_stream_write_all_async (g_io_stream_get_output_stream (G_IO_STREAM (conn->connection)),
                                   g_bytes_get_data (w->bytes, NULL), len, G_PRIORITY_DEFAULT,
                                   conn->cancellable, on_written, w);
}

static void
reply_error (Conn       *conn,
             guint       status,
             const char *code,
             const char *message)
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
  reply_json (conn, status, node);
}

static void
handle_request (Conn       *conn,
                const char *method,
                const char *path,
                const char *authorization)
{
  AdbscopeControlServer *self = conn->server;
  g_autoptr(AdbscopeControlRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  request = adbscope_control_request_parse (method, path, authorization, self->token,
                                            (const char *) conn->body->data, conn->body->len,
                                            &status, &error);
  if (request == NULL)
    {
      reply_error (conn, status,
                   g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FORBIDDEN) ? "forbidden" : "usage",
                   error->message);
      return;
    }

  g_object_ref (self);
  if (request->command == ADBSCOPE_CONTROL_MARK)
    g_signal_emit (self, signals[SIGNAL_MARK], 0, request->label, &answer);
  else
    g_signal_emit (self, signals[SIGNAL_STOP], 0, &answer);
  /* a handler that stopped the server closed this connection too */
  if (g_queue_find (&self->conns, conn) == NULL)
    {
      g_object_unref (self);
      return;
    }
  g_object_unref (self);

  if (answer == NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ok");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      answer = json_builder_get_root (b);
    }
  reply_json (conn, 200, answer);
}

static const guint8 *
find (const guint8 *data,
      gsize         len,
      const char   *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, needle, n) == 0)
      return data + i;
  return NULL;
}

/* Decodes the chunked body from @p..@end into conn->body.  Returns 1 when
 * the last chunk (and the trailer) came, 0 when more must be read, -1 on a
 * syntax error, -2 when the body passed the limit. */
static int
dechunk (Conn          *conn,
         const guint8  *p,
         const guint8  *end)
{
  g_byte_array_set_size (conn->body, 0);
  for (;;)
    {
      const guint8 *eol = find (p, (gsize) (end - p), "\r\n");
      guint64 size = 0;
      guint digits = 0;

      if (eol == NULL)
        return end - p > 32 ? -1 : 0;
      for (const guint8 *q = p; q < eol && *q != ';'; q++)
        {
          int v = g_ascii_xdigit_value (*q);

          if (v < 0 || ++digits > 8)
            return -1;
          size = size * 16 + (guint64) v;
        }
      if (digits == 0)
        return -1;
      if (conn->body->len + size > ADBSCOPE_CONTROL_MAX_BODY)
        return -2;
      p = eol + 2;
      if (size == 0)
        /* trailer fields, then an empty line */
        return find (p - 2, (gsize) (end - p + 2), "\r\n\r\n") != NULL ? 1 : 0;
      if ((guint64) (end - p) < size + 2)
        return 0;
      if (p[size] != '\r' || p[size + 1] != '\n')
        return -1;
      g_byte_array_append (conn->body, p, (guint) size);
      p += size + 2;
    }
}

/* The request in conn->buf, when it is complete; answers and returns
 * TRUE then (or on an error), FALSE to read more. */
static gboolean
try_request (Conn *conn)
{
  const guint8 *data = conn->buf->data;
  const guint8 *head_end = find (data, conn->buf->len, "\r\n\r\n");
  g_autofree char *head = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) words = NULL;
  const char *authorization = NULL, *length = NULL, *encoding = NULL;
  const guint8 *body, *end = data + conn->buf->len;
  g_autofree char *path = NULL;

  if (head_end == NULL)
    {
      if (conn->buf->len > CONTROL_MAX_HEAD)
        {
          reply_error (conn, 431, "usage", _("The request head is too large"));
          return TRUE;
        }
      return FALSE;
    }
  if (head_end - data > CONTROL_MAX_HEAD)
    {
      reply_error (conn, 431, "usage", _("The request head is too large"));
      return TRUE;
    }
  head = g_strndup ((const char *) data, (gsize) (head_end - data));
  lines = g_strsplit (head, "\r\n", -1);
  words = g_strsplit (lines[0], " ", -1);
  if (g_strv_length (words) != 3 || !g_str_has_prefix (words[2], "HTTP/1.") || words[1][0] != '/')
    {
      reply_error (conn, 400, "usage", _("Not an HTTP request"));
      return TRUE;
    }
  for (guint i = 1; lines[i] != NULL; i++)
    {
      char *colon = strchr (lines[i], ':');

      if (colon == NULL)
        continue;
      *colon = '\0';
      g_strstrip (colon + 1);
      if (g_ascii_strcasecmp (lines[i], "Authorization") == 0)
        authorization = colon + 1;
      else if (g_ascii_strcasecmp (lines[i], "Content-Length") == 0)
        length = colon + 1;
      else if (g_ascii_strcasecmp (lines[i], "Transfer-Encoding") == 0)
        encoding = colon + 1;
    }
  body = head_end + 4;
  if (encoding != NULL)
    {
      int r;

      if (g_ascii_strcasecmp (encoding, "chunked") != 0)
        {
          reply_error (conn, 400, "usage", _("Not an HTTP request"));
          return TRUE;
        }
      r = dechunk (conn, body, end);
      if (r == 0)
        return FALSE;
      if (r == -2)
        {
          reply_error (conn, 413, "usage", _("The request body is too large"));
          return TRUE;
        }
      if (r < 0)
        {
          reply_error (conn, 400, "usage", _("Not an HTTP request"));
          return TRUE;
        }
    }
  else if (length != NULL)
    {
      guint64 n = 0;

      if (!g_ascii_string_to_unsigned (length, 10, 0, G_MAXUINT64, &n, NULL))
        {
          reply_error (conn, 400, "usage", _("Not an HTTP request"));
          return TRUE;
        }
      /* refused before the body is read */
      if (n > ADBSCOPE_CONTROL_MAX_BODY)
        {
          conn->drain_limit = (gsize) MIN (n, CONTROL_DRAIN_ANNOUNCED);
          reply_error (conn, 413, "usage", _("The request body is too large"));
          return TRUE;
        }
      if ((guint64) (end - body) < n)
        return FALSE;
      g_byte_array_set_size (conn->body, 0);
      g_byte_array_append (conn->body, body, (guint) n);
    }
  path = g_strndup (words[1], strcspn (words[1], "?#"));
  handle_request (conn, words[0], path, authorization);
  return TRUE;
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Conn *conn = data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* closed and freed */
  if (n <= 0)
    {
      conn_close (conn);
      return;
    }
  g_byte_array_append (conn->buf, conn->chunk, (guint) n);
  /* a chunked body's framing is bounded too: a little over the limit */
  if (conn->buf->len > CONTROL_MAX_HEAD + 2 * ADBSCOPE_CONTROL_MAX_BODY)
    {
      reply_error (conn, 413, "usage", _("The request body is too large"));
      return;
    }
  if (!try_request (conn))
    conn_read (conn);
}

static void
conn_read (Conn *conn)
{
  g_input_stream_read_async (g_io_stream_get_input_stream (G_IO_STREAM (conn->connection)),
                             conn->chunk, sizeof conn->chunk, G_PRIORITY_DEFAULT,
                             conn->cancellable, on_read, conn);
}

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             gpointer           user_data)
{
  AdbscopeControlServer *self = user_data;
  Conn *conn;

  /* the newest connection is the likeliest to be a real client */
  while (self->conns.length >= CONTROL_MAX_CONNECTIONS)
    {
      g_debug ("control: %d connections open: the oldest dropped", CONTROL_MAX_CONNECTIONS);
      conn_close (g_queue_peek_head (&self->conns));
    }
  conn = g_new0 (Conn, 1);
  conn->server = self;
  conn->connection = g_object_ref (connection);
  conn->cancellable = g_cancellable_new ();
  conn->buf = g_byte_array_new ();
  conn->body = g_byte_array_new ();
  conn->drain_limit = CONTROL_DRAIN_BYTES;
  conn->timeout_id = g_timeout_add_seconds (CONTROL_REQUEST_TIMEOUT_S, on_conn_timeout, conn);
  g_queue_push_tail (&self->conns, conn);
  conn_read (conn);
  return TRUE;
}

/* The adb server as one spelling: the one chosen (--adb-server,
 * $ADBSCOPE_ADB_SERVER), else adb's own ($ADB_SERVER_SOCKET tcp:HOST:PORT,
 * else $ANDROID_ADB_SERVER_PORT or 5037 on this machine), its host
 * resolved to an address, every loopback address (localhost, 127.0.0.1,
 * ::1) as "local": no --adb-server, 127.0.0.1:PORT and localhost:PORT are
 * one server. */
static char *
server_key (void)
{
  g_autofree char *chosen = adbscope_adb_dup_server ();
  g_autofree char *host = NULL;
  guint port = ADBSCOPE_ADB_DEFAULT_SERVER_PORT;
  GList *addresses = NULL;
  const char *socket_spec = g_getenv ("ADB_SERVER_SOCKET");
  char *key;

  if (chosen != NULL)
    adbscope_network_address_split (chosen, ADBSCOPE_ADB_DEFAULT_SERVER_PORT, &host, &port);
  else if (socket_spec != NULL && g_str_has_prefix (socket_spec, "tcp:"))
    adbscope_network_address_split (socket_spec + 4, ADBSCOPE_ADB_DEFAULT_SERVER_PORT, &host, &port);
  else
    {
      const char *env = g_getenv ("ANDROID_ADB_SERVER_PORT");
      guint64 v;

      if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 65535, &v, NULL))
        port = (guint) v;
    }
  if (host == NULL)
    return g_strdup_printf ("local:%u", port);
  {
    GInetAddress *literal = g_inet_address_new_from_string (host);

    if (literal != NULL)
      addresses = g_list_prepend (NULL, literal);
    else
      {
        g_autoptr(GResolver) resolver = g_resolver_get_default ();

        addresses = g_resolver_lookup_by_name (resolver, host, NULL, NULL);
      }
  }
  if (addresses == NULL)
    return g_strdup_printf ("%s:%u", host, port);
  if (g_inet_address_get_is_loopback (addresses->data))
    key = g_strdup_printf ("local:%u", port);
  else
    {
      g_autofree char *text = g_inet_address_to_string (addresses->data);

      key = g_strdup_printf ("%s:%u", text, port);
    }
  g_resolver_free_addresses (addresses);
  return key;
}

/* devices/KEY.lock: the serial with its adb server (the same serial on
 * two servers is two devices; one server however it is spelled is one);
 * every byte that is not [A-Za-z0-9._-] as %XX, so any serial is one file
 * name. */
static char *
device_lock_path (const char *serial)
{
  g_autofree char *server = server_key ();
  g_autofree char *key = g_strconcat (serial, "@", server, NULL);
  g_autofree char *dir = control_dir ("devices");
  GString *name = g_string_new (NULL);

  for (const char *p = key; *p != '\0'; p++)
    if (g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-')
      g_string_append_c (name, *p);
    else
      g_string_append_printf (name, "%%%02X", (guchar) *p);
  g_string_append (name, ".lock");
  {
    g_autofree char *file = g_string_free (name, FALSE);

    return g_build_filename (dir, file, NULL);
  }
}

/* The pid a run's state file names, for the message; 0 if unknown. */
static gint64
state_file_pid (const char *id)
{
  g_autofree char *path = adbscope_control_dup_state_path (id);
  g_autoptr(JsonNode) root = adbscope_json_load_untrusted (path, ADBSCOPE_CONTROL_MAX_BODY, NULL);

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  return adbscope_json_member_int (json_node_get_object (root), "pid", 0);
}

/* An exclusive flock() on PATH, atomically, held until the fd is closed
 * (by the kernel however the run ends).  Returns the fd; -1 with
 * *busy TRUE when someone else holds it, -1 with @error otherwise. */
static int
take_lock_once (const char  *path,
                gboolean    *busy,
                GError     **error)
{
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

  *busy = FALSE;
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s"), path, g_strerror (errsv));
      return -1;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int errsv = errno;

      close (fd);
      if (errsv == EWOULDBLOCK)
        *busy = TRUE;
      else
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                     _("Cannot lock %s: %s"), path, g_strerror (errsv));
      return -1;
    }
  return fd;
}

/* Lock files are removed by their holder when its record ends: a lock
 * taken on a file that was removed (or replaced) meanwhile locks nothing,
 * so it is taken again on the file the name now has. */
static int
take_lock (const char  *path,
           gboolean    *busy,
           GError     **error)
{
  for (guint attempt = 0; attempt < 100; attempt++)
    {
      int fd = take_lock_once (path, busy, error);
      struct stat held, named;

      if (fd < 0)
        return fd;
      if (fstat (fd, &held) == 0 && stat (path, &named) == 0 &&
          held.st_dev == named.st_dev && held.st_ino == named.st_ino)
        return fd;
      close (fd);
    }
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
               _("Cannot lock %s: %s"), path, g_strerror (EAGAIN));
  return -1;
}

/* TRUE when someone holds PATH's lock (for the client: a state file
 * without one is stale). */
static gboolean
lock_is_held (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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
  if (self->device_fd >= 0)
    {
      close (self->device_fd);
      self->device_fd = -1;
    }
}

/* Removes the files of runs that ended without removing them (killed):
 * a state file whose lock nobody holds, taken first so that no record can
 * be starting under that id meanwhile. */
static void
remove_stale_runs (const char *own_id)
{
  g_autofree char *dir_path = control_dir ("runs");
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *json = NULL;
      g_autofree char *lock = NULL;
      gboolean busy;
      int fd;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      id = g_strndup (name, strlen (name) - strlen (".json"));
      if (!adbscope_control_id_is_valid (id) || g_str_equal (id, own_id))
        continue;
      json = run_file (id, ".json");
      lock = run_file (id, ".lock");
      fd = take_lock (lock, &busy, NULL);
      if (fd < 0)
        continue;
      g_unlink (json);
      g_unlink (lock);
      close (fd);
    }
}

/* One record per device, one record per id. */
static gboolean
take_run_locks (AdbscopeControlServer  *self,
                GError                **error)
{
  g_autofree char *run_lock = run_file (self->id, ".lock");
  gboolean busy;

  if (self->serial != NULL)
    {
      g_autofree char *device_lock = device_lock_path (self->serial);

      self->device_fd = take_lock (device_lock, &busy, error);
      if (self->device_fd < 0 && busy)
        {
          g_autofree char *other = NULL;
          gint64 pid = 0;

          if (g_file_get_contents (device_lock, &other, NULL, NULL) && adbscope_control_id_is_valid (g_strstrip (other)))
            pid = state_file_pid (other);
          /* Not G_GINT64_FORMAT: xgettext cannot see through it. */
          if (pid > 0)
            g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE,
                         _("Another record is running on %s (id %s, pid %lld); stop it with “adbscope stop --id %s”"),
                         self->serial, other, (long long) pid, other);
          else
            g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE,
                         _("Another record is starting on %s; stop it with “adbscope stop --serial %s”"),
                         self->serial, self->serial);
        }
      if (self->device_fd < 0)
        return FALSE;
    }

  self->lock_fd = take_lock (run_lock, &busy, error);
  if (self->lock_fd < 0)
    {
      if (busy)
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADDRESS_IN_USE,
                     _("A record with the id “%s” is already running; choose another with --id"), self->id);
      adbscope_control_server_stop (self);
      return FALSE;
    }
  remove_stale_runs (self->id);
  /* Ours now: the next record on this device can name us. */
  if (self->device_fd >= 0 &&
      (ftruncate (self->device_fd, 0) != 0 || write (self->device_fd, self->id, strlen (self->id)) < 0))
    g_debug ("control: cannot write the device lock: %s", g_strerror (errno));
  return TRUE;
}

gboolean
adbscope_control_server_start (AdbscopeControlServer  *self,
                               GError                **error)
{
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(GSocketAddress) effective = NULL;
  int fd;

  g_return_val_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self), FALSE);
  g_return_val_if_fail (self->service == NULL, FALSE);

  self->state_path = adbscope_control_dup_state_path (self->id);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *dir = control_dir (i == 0 ? "runs" : "devices");

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int errsv = errno;
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot create %s: %s"), dir, g_strerror (errsv));
          return FALSE;
        }
    }
  if (!take_run_locks (self, error))
    return FALSE;

  self->service = g_socket_service_new ();
  g_signal_connect (self->service, "incoming", G_CALLBACK (on_incoming), self);
  /* a burst of connections waits in the kernel's queue rather than in SYN
   * retries; they are accepted (and the oldest dropped) one by one */
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (self->service), 128);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, 0);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (self->service), address, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL, &effective, error))
    {
      g_clear_object (&self->service);
      adbscope_control_server_stop (self);
      return FALSE;
    }
  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_socket_service_start (self->service);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "port");
  json_builder_add_int_value (b, self->port);
  json_builder_set_member_name (b, "token");
  json_builder_add_string_value (b, self->token);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, getpid ());
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, self->id);
  json_builder_set_member_name (b, "serial");
  if (self->serial != NULL)
    json_builder_add_string_value (b, self->serial);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  text = adbscope_json_to_string (node, FALSE);

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

  if (self->service != NULL)
    {
      g_socket_service_stop (self->service);
      g_socket_listener_close (G_SOCKET_LISTENER (self->service));
      g_signal_handlers_disconnect_by_data (self->service, self);
      g_clear_object (&self->service);
      while (self->conns.length > 0)
        conn_close (g_queue_peek_head (&self->conns));
      /* Ours to remove: we hold the lock.  Removed before the lock goes
       * (the lock file too: ids are mostly random, they would pile up). */
      if (self->state_path != NULL && self->lock_fd >= 0)
        {
          g_autofree char *lock = run_file (self->id, ".lock");

          g_unlink (self->state_path);
          g_unlink (lock);
        }
    }
  /* The device's lock file too, ours while we hold it (a record that
   * opened it meanwhile sees it gone once it has the lock, and locks the
   * file the name has then: take_lock). */
  if (self->device_fd >= 0 && self->serial != NULL)
    {
      g_autofree char *device_lock = device_lock_path (self->serial);

      g_unlink (device_lock);
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

const char *
adbscope_control_server_get_id (AdbscopeControlServer *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CONTROL_SERVER (self), NULL);
  return self->id;
}

static void
adbscope_control_server_finalize (GObject *object)
{
  AdbscopeControlServer *self = ADBSCOPE_CONTROL_SERVER (object);

  adbscope_control_server_stop (self);
  g_free (self->token);
  g_free (self->id);
  g_free (self->serial);
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
  self->token = new_token (16);
  self->lock_fd = -1;
  self->device_fd = -1;
}

/* A control server for the record with @id (NULL: a new random one) on
 * the device @serial (NULL: no device lock). */
AdbscopeControlServer *
adbscope_control_server_new (const char *id,
                             const char *serial)
{
  AdbscopeControlServer *self;

  g_return_val_if_fail (id == NULL || adbscope_control_id_is_valid (id), NULL);

  self = g_object_new (ADBSCOPE_TYPE_CONTROL_SERVER, NULL);
  self->id = id != NULL ? g_strdup (id) : new_token (4);
  self->serial = g_strdup (serial);
  return self;
}

/* The live runs: each runs/ID.json whose ID.lock is held (the others are
 * stale, whatever pid they name), as the state objects, sorted by id. */
static GPtrArray *
list_runs (void)
{
  g_autofree char *dir_path = control_dir ("runs");
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *lock = NULL;
      g_autofree char *path = NULL;
      g_autoptr(JsonNode) root = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      id = g_strndup (name, strlen (name) - strlen (".json"));
      if (!adbscope_control_id_is_valid (id))
        continue;
      lock = run_file (id, ".lock");
      if (!lock_is_held (lock))
        continue;
      path = run_file (id, ".json");
      root = adbscope_json_load_untrusted (path, ADBSCOPE_CONTROL_MAX_BODY, NULL);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        continue;
      /* The file name is the id, whatever the file says. */
      json_object_set_string_member (json_node_get_object (root), "id", id);
      g_ptr_array_add (runs, json_node_copy (root));
    }
  return runs;
}

static int
compare_run_ids (gconstpointer a,
                 gconstpointer b)
{
  JsonObject *x = json_node_get_object (*(JsonNode **) a);
  JsonObject *y = json_node_get_object (*(JsonNode **) b);

  return g_strcmp0 (json_object_get_string_member (x, "id"), json_object_get_string_member (y, "id"));
}

/* "ID (device SERIAL, pid N), …" for the messages. */
static char *
describe_runs (GPtrArray *runs)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < runs->len; i++)
    {
      JsonObject *o = json_node_get_object (g_ptr_array_index (runs, i));

      if (i > 0)
        g_string_append (text, ", ");
      /* Not G_GINT64_FORMAT: xgettext cannot see through it. */
      g_string_append_printf (text, _("%s (device %s, pid %lld)"),
                              json_object_get_string_member (o, "id"),
                              json_object_get_string_member_with_default (o, "serial", "?"),
                              (long long) adbscope_json_member_int (o, "pid", 0));
    }
  return g_string_free (text, FALSE);
}

/* The run that @id and/or @serial name, or the only one. */
static JsonNode *
choose_run (const char  *id,
            const char  *serial,
            GError     **error)
{
  g_autoptr(GPtrArray) runs = list_runs ();
  g_autoptr(GPtrArray) matches = g_ptr_array_new ();
  g_autofree char *all = NULL;

  g_ptr_array_sort (runs, compare_run_ids);
  for (guint i = 0; i < runs->len; i++)
    {
      JsonObject *o = json_node_get_object (g_ptr_array_index (runs, i));

      if (id != NULL && g_strcmp0 (json_object_get_string_member (o, "id"), id) != 0)
        continue;
      if (serial != NULL && g_strcmp0 (json_object_get_string_member_with_default (o, "serial", NULL), serial) != 0)
        continue;
      g_ptr_array_add (matches, g_ptr_array_index (runs, i));
    }
  if (matches->len == 1)
    return json_node_copy (g_ptr_array_index (matches, 0));

  all = describe_runs (runs);
  if (runs->len == 0)
    {
      g_autofree char *dir = control_dir ("runs");

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                   _("No record is running (none in %s)"), dir);
    }
  else if (matches->len == 0 && id != NULL)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                 _("No record with the id “%s” is running; running: %s"), id, all);
  else if (matches->len == 0)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                 _("No record is running on %s; running: %s"), serial, all);
  else
    {
      g_autofree char *which = describe_runs (matches);

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_MULTIPLE_RECORDS,
                   _("Several records are running; name one with --serial or --id: %s"), which);
    }
  return NULL;
}

/* Client side: sends COMMAND ("mark" or "stop") to the running record that
 * @id or @serial name (NULL, NULL: the only one) and returns its JSON
 * answer, with "record" (the id) added.
 */
JsonNode *
adbscope_control_request (const char  *id,
                          const char  *serial,
                          const char  *command,
                          const char  *label,
                          GError     **error)
{
  g_autoptr(JsonNode) run = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *url = NULL;
  g_autofree char *auth = NULL;
  g_autofree char *path = NULL;
  JsonObject *obj;
  JsonNode *root;
  gint64 port;
  const char *token;

  if (label != NULL && !adbscope_control_label_is_valid (label, error))
    return NULL;
  run = choose_run (id, serial, error);
  if (run == NULL)
    return NULL;
  obj = json_node_get_object (run);
  path = adbscope_control_dup_state_path (json_object_get_string_member (obj, "id"));
  port = adbscope_json_member_int (obj, "port", 0);
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
      text = adbscope_json_to_string (node, FALSE);
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
  /* whoever listens on the port answers: untrusted */
  reply = adbscope_json_parse_untrusted (g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                                         ADBSCOPE_JSON_MAX_FILE_SIZE, NULL);
  if (reply == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("The record answered something that is not JSON (HTTP %u)"),
                   soup_message_get_status (msg));
      return NULL;
    }
  root = reply;
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
  root = json_node_copy (root);
  if (JSON_NODE_HOLDS_OBJECT (root))
    json_object_set_string_member (json_node_get_object (root), "record", json_object_get_string_member (obj, "id"));
  return root;
}
