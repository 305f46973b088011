/* adbscope-sim-connection.c: the device side of the adb transport
 *
 * One connection per TCP client (the adb server).  Packets are a 24-byte
 * header (six u32le: command, arg0, arg1, length, byte sum, magic) and a
 * payload.  Everything runs on the main loop with non-blocking I/O; the
 * bytes for the host go through one queue per connection so that a stall
 * (see the `stall` control command) can hold all of them at once.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib-unix.h>

#include "adbscope-sim-private.h"
#include "adbscope-sim-wire.h"

struct _AdbscopeSimConnection
{
  AdbscopeSimDevice *device;
  GSocketConnection *gconn;
  int                fd;
  guint              in_watch;
  guint              out_watch;
  guint              stall_timeout;
  GByteArray        *in;
  GByteArray        *out;
  gsize              out_pos;
  guint32            version;     /* negotiated */
  guint32            max_payload; /* negotiated */
  gboolean           online;
  GHashTable        *streams;     /* local id → AdbscopeSimStream */
  guint32            next_id;
  gboolean           dead;
};

static void connection_flush   (AdbscopeSimConnection *conn);
static void connection_destroy (AdbscopeSimConnection *conn);

static void
put_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

static void
send_packet (AdbscopeSimConnection *conn,
             guint32                command,
             guint32                arg0,
             guint32                arg1,
             const guint8          *data,
             gsize                  len)
{
  guint8 header[24];
  guint32 sum = 0;

  if (conn->dead)
    return;
  /* Only old peers look at the byte sum; adb 29 sends 0 from 0x01000001 on. */
  if (conn->version < ADB_VERSION_SKIP_SUM || command == ADB_CMD_CNXN)
    for (gsize i = 0; i < len; i++)
      sum += data[i];
  put_u32 (header, command);
  put_u32 (header + 4, arg0);
  put_u32 (header + 8, arg1);
  put_u32 (header + 12, (guint32) len);
  put_u32 (header + 16, sum);
  put_u32 (header + 20, command ^ 0xffffffff);
  g_byte_array_append (conn->out, header, sizeof header);
  if (len > 0)
    g_byte_array_append (conn->out, data, (guint) len);
  connection_flush (conn);
}

static gboolean
on_stall_over (gpointer user_data)
{
  AdbscopeSimConnection *conn = user_data;

  conn->stall_timeout = 0;
  connection_flush (conn);
  return G_SOURCE_REMOVE;
}

static gboolean
on_writable (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  AdbscopeSimConnection *conn = user_data;

  conn->out_watch = 0;
  connection_flush (conn);
  return G_SOURCE_REMOVE;
}

static void
connection_flush (AdbscopeSimConnection *conn)
{
  gint64 now;

  if (conn->dead || conn->out_watch != 0 || conn->stall_timeout != 0)
    return;

  now = g_get_monotonic_time ();
  if (conn->device->stall_until > now)
    {
      guint ms = (guint) ((conn->device->stall_until - now + 999) / 1000);

      conn->stall_timeout = g_timeout_add (ms, on_stall_over, conn);
      return;
    }

  while (conn->out_pos < conn->out->len)
    {
      ssize_t n = send (conn->fd, conn->out->data + conn->out_pos,
                        conn->out->len - conn->out_pos, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          conn->out_watch = g_unix_fd_add (conn->fd, G_IO_OUT, on_writable, conn);
          break;
        }
      if (n < 0)
        {
          g_debug ("sim: write to host failed: %s", g_strerror (errno));
          connection_destroy (conn);
          return;
        }
      conn->out_pos += (gsize) n;
    }

  if (conn->out_pos == conn->out->len)
    {
      g_byte_array_set_size (conn->out, 0);
      conn->out_pos = 0;
    }
  else if (conn->out_pos > 65536 && conn->out_pos > conn->out->len / 2)
    {
      g_byte_array_remove_range (conn->out, 0, (guint) conn->out_pos);
      conn->out_pos = 0;
    }
}

void
adbscope_sim_device_flush_all (AdbscopeSimDevice *device)
{
  for (GList *l = device->connections; l != NULL; l = l->next)
    {
      AdbscopeSimConnection *conn = l->data;

      if (conn->stall_timeout != 0)
        {
          g_source_remove (conn->stall_timeout);
          conn->stall_timeout = 0;
        }
      connection_flush (conn);
    }
}

static void
stream_free (AdbscopeSimStream *stream,
             gboolean           by_host)
{
  if (stream->klass != NULL && stream->klass->closed != NULL)
    stream->klass->closed (stream, by_host);
  g_free (stream);
}

static void
send_cnxn (AdbscopeSimConnection *conn)
{
  const char *banner = conn->device->banner;

  send_packet (conn, ADB_CMD_CNXN, conn->device->proto_version, conn->device->max_payload,
               (const guint8 *) banner, strlen (banner));
}

static void
send_auth_token (AdbscopeSimConnection *conn)
{
  guint8 token[20];

  for (guint i = 0; i < sizeof token; i++)
    token[i] = (guint8) g_random_int_range (0, 256);
  send_packet (conn, ADB_CMD_AUTH, 1 /* TOKEN */, 0, token, sizeof token);
}

static AdbscopeSimStream *
open_service (AdbscopeSimConnection *conn,
              guint32                remote_id,
              const char            *name)
{
  AdbscopeSimStream *stream = g_new0 (AdbscopeSimStream, 1);
  gboolean ok = FALSE;

  stream->connection = conn;
  stream->local_id = conn->next_id++;
  stream->remote_id = remote_id;
  /* An OPEN counts as READY: one WRTE may follow our OKAY at once. */
  stream->can_send = TRUE;

  if (g_str_has_prefix (name, "shell") || g_str_has_prefix (name, "exec:"))
    ok = adbscope_sim_shell_open (stream, name);
  else if (g_str_has_prefix (name, "localabstract:") || g_str_has_prefix (name, "tcp:"))
    ok = adbscope_sim_forward_open (stream, name);
  else if (g_str_equal (name, "sync:"))
    ok = adbscope_sim_sync_open (stream);

  if (!ok)
    {
      g_debug ("sim: refusing service '%s'", name);
      g_free (stream);
      return NULL;
    }
  g_hash_table_insert (conn->streams, GUINT_TO_POINTER (stream->local_id), stream);
  return stream;
}

static void
handle_packet (AdbscopeSimConnection *conn,
               guint32                command,
               guint32                arg0,
               guint32                arg1,
               const guint8          *data,
               gsize                  len)
{
  AdbscopeSimStream *stream;

  switch (command)
    {
    case ADB_CMD_CNXN:
      conn->version = MIN (arg0, conn->device->proto_version);
      conn->max_payload = MIN (arg1, conn->device->max_payload);
      /* A new CNXN means the host restarted the session: drop old streams. */
      {
        GHashTable *old = conn->streams;

        conn->streams = g_hash_table_new (NULL, NULL);
        {
          GHashTableIter iter;
          gpointer value;

          g_hash_table_iter_init (&iter, old);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            stream_free (value, TRUE);
        }
        g_hash_table_unref (old);
      }
      if (conn->device->unauthorized)
        send_auth_token (conn);
      else
        {
          conn->online = TRUE;
          send_cnxn (conn);
        }
      break;

    case ADB_CMD_AUTH:
      /* Refusing: answer each signature with a new token and ignore the
       * public key, as a phone whose user never taps "Allow". */
      if (arg0 == 2 /* SIGNATURE */)
        send_auth_token (conn);
      break;

    case ADB_CMD_OPEN:
      {
        g_autofree char *name = g_strndup ((const char *) data, len);

        if (!conn->online)
          break;
        stream = open_service (conn, arg0, name);
        if (stream == NULL)
          send_packet (conn, ADB_CMD_CLSE, 0, arg0, NULL, 0);
        else
          {
            send_packet (conn, ADB_CMD_OKAY, stream->local_id, arg0, NULL, 0);
            if (stream->klass->ready != NULL)
              stream->klass->ready (stream);
          }
      }
      break;

    case ADB_CMD_OKAY:
      stream = g_hash_table_lookup (conn->streams, GUINT_TO_POINTER (arg1));
      if (stream == NULL)
        break;
      stream->remote_id = arg0;
      stream->can_send = TRUE;
      if (stream->klass->ready != NULL)
        stream->klass->ready (stream);
      break;

    case ADB_CMD_WRTE:
      stream = g_hash_table_lookup (conn->streams, GUINT_TO_POINTER (arg1));
      if (stream == NULL)
        {
          send_packet (conn, ADB_CMD_CLSE, 0, arg0, NULL, 0);
          break;
        }
      if (stream->klass->data != NULL)
        stream->klass->data (stream, data, len);
      else
        adbscope_sim_stream_ack (stream);
      break;

    case ADB_CMD_CLSE:
      stream = g_hash_table_lookup (conn->streams, GUINT_TO_POINTER (arg1));
      if (stream == NULL)
        break;
      g_hash_table_remove (conn->streams, GUINT_TO_POINTER (arg1));
      stream_free (stream, TRUE);
      break;

    default:
      break;
    }
}

static void
parse_input (AdbscopeSimConnection *conn)
{
  gsize pos = 0;

  while (!conn->dead)
    {
      AdbscopeSimPacket packet;
      gssize used = adbscope_sim_wire_parse_packet (conn->in->data + pos, conn->in->len - pos,
                                                    ADB_MAX_PAYLOAD, &packet);

      if (used == 0)
        break;
      if (used < 0)
        {
          g_debug ("sim: bad packet header from host");
          connection_destroy (conn);
          return;
        }
      handle_packet (conn, packet.command, packet.arg0, packet.arg1, packet.data, packet.length);
      pos += (gsize) used;
    }
  if (!conn->dead && pos > 0)
    g_byte_array_remove_range (conn->in, 0, (guint) pos);
}

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  AdbscopeSimConnection *conn = user_data;
  guint8 buf[65536];
  ssize_t n;

  n = recv (fd, buf, sizeof buf, 0);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      conn->in_watch = 0;
      connection_destroy (conn);
      return G_SOURCE_REMOVE;
    }
  g_byte_array_append (conn->in, buf, (guint) n);
  parse_input (conn);
  return G_SOURCE_CONTINUE;
}

static gboolean
free_later (gpointer user_data)
{
  AdbscopeSimConnection *conn = user_data;

  g_hash_table_unref (conn->streams);
  g_byte_array_unref (conn->in);
  g_byte_array_unref (conn->out);
  g_free (conn);
  return G_SOURCE_REMOVE;
}

/* Tear down at once, free on idle: callers up the stack may still hold
 * the connection pointer. */
static void
connection_destroy (AdbscopeSimConnection *conn)
{
  GHashTableIter iter;
  gpointer value;

  if (conn->dead)
    return;
  conn->dead = TRUE;
  if (conn->in_watch != 0)
    g_source_remove (conn->in_watch);
  if (conn->out_watch != 0)
    g_source_remove (conn->out_watch);
  if (conn->stall_timeout != 0)
    g_source_remove (conn->stall_timeout);
  conn->in_watch = conn->out_watch = conn->stall_timeout = 0;

  g_hash_table_iter_init (&iter, conn->streams);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_hash_table_iter_remove (&iter);
      stream_free (value, TRUE);
    }

  g_io_stream_close (G_IO_STREAM (conn->gconn), NULL, NULL);
  g_clear_object (&conn->gconn);
  conn->device->connections = g_list_remove (conn->device->connections, conn);
  g_idle_add (free_later, conn);
}

void
adbscope_sim_connection_new (AdbscopeSimDevice *device,
                             GSocketConnection *gconn)
{
  AdbscopeSimConnection *conn = g_new0 (AdbscopeSimConnection, 1);
  GSocket *socket = g_socket_connection_get_socket (gconn);
  int one = 1;

  conn->device = device;
  conn->gconn = g_object_ref (gconn);
  conn->fd = g_socket_get_fd (socket);
  conn->in = g_byte_array_new ();
  conn->out = g_byte_array_new ();
  conn->version = device->proto_version;
  conn->max_payload = ADB_MAX_PAYLOAD_V1;
  conn->streams = g_hash_table_new (NULL, NULL);
  conn->next_id = 1;
  g_socket_set_blocking (socket, FALSE);
  /* Like adbd: answer each read at once, no Nagle on our side. */
  setsockopt (conn->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  conn->in_watch = g_unix_fd_add (conn->fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, conn);
  device->connections = g_list_prepend (device->connections, conn);
}

AdbscopeSimDevice *
adbscope_sim_connection_get_device (AdbscopeSimConnection *conn)
{
  return conn->device;
}

void
adbscope_sim_connection_close_all (AdbscopeSimDevice *device)
{
  while (device->connections != NULL)
    connection_destroy (device->connections->data);
}

gsize
adbscope_sim_stream_get_max_payload (AdbscopeSimStream *stream)
{
  return stream->connection->max_payload;
}

/* One WRTE; the caller waits for ready() before the next. */
void
adbscope_sim_stream_send (AdbscopeSimStream *stream,
                          const guint8      *data,
                          gsize              len)
{
  g_assert (stream->can_send);
  g_assert (len <= stream->connection->max_payload);
  stream->can_send = FALSE;
  send_packet (stream->connection, ADB_CMD_WRTE, stream->local_id, stream->remote_id, data, len);
}

void
adbscope_sim_stream_ack (AdbscopeSimStream *stream)
{
  send_packet (stream->connection, ADB_CMD_OKAY, stream->local_id, stream->remote_id, NULL, 0);
}

/* Close from our side: CLSE to the host, then the service frees itself. */
void
adbscope_sim_stream_close (AdbscopeSimStream *stream)
{
  AdbscopeSimConnection *conn = stream->connection;

  send_packet (conn, ADB_CMD_CLSE, stream->local_id, stream->remote_id, NULL, 0);
  g_hash_table_remove (conn->streams, GUINT_TO_POINTER (stream->local_id));
  stream_free (stream, FALSE);
}
