/* adbscope-sim-sync.c: the `sync:` service (adb push, pull, ls; v1 only)
 *
 * Requests are "ID" + u32le length + payload and may straddle WRTEs.
 * Paths are rooted in the sandbox (device->fs_root): "/data/local/tmp/x"
 * is fs_root/data/local/tmp/x, and ".." never climbs above it.
 * stat_v2/ls_v2 are not advertised, so adb sticks to STAT/LIST/SEND/RECV.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "adbscope-sim-private.h"
#include "adbscope-sim-wire.h"

#define SYNC_DATA_MAX (64 * 1024)

typedef struct
{
  AdbscopeSimDevice *device;
  AdbscopeSimStream *stream;
  GByteArray        *in;
  GByteArray        *out;
  gsize              out_pos;
  /* SEND in progress */
  int                send_fd;
  char              *send_path;
  gboolean           send_failed;
  /* RECV in progress */
  int                recv_fd;
  gboolean           quit;
} SyncSession;

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
out_id_u32 (SyncSession *s,
            const char  *id,
            guint32      v)
{
  guint8 b[8];

  memcpy (b, id, 4);
  put_u32 (b + 4, v);
  g_byte_array_append (s->out, b, 8);
}

static void
out_fail (SyncSession *s,
          const char  *message)
{
  out_id_u32 (s, "FAIL", (guint32) strlen (message));
  g_byte_array_append (s->out, (const guint8 *) message, (guint) strlen (message));
}

char *
adbscope_sim_sync_resolve (AdbscopeSimDevice *device,
                           const char        *path)
{
  return adbscope_sim_wire_resolve_path (device->fs_root, path);
}

static void
do_stat (SyncSession *s,
         const char  *path)
{
  g_autofree char *real = adbscope_sim_sync_resolve (s->device, path);
  struct stat st;
  guint8 b[16];

  memset (b, 0, sizeof b);
  memcpy (b, "STAT", 4);
  if (lstat (real, &st) == 0)
    {
      put_u32 (b + 4, st.st_mode);
      put_u32 (b + 8, (guint32) st.st_size);
      put_u32 (b + 12, (guint32) st.st_mtime);
    }
  g_byte_array_append (s->out, b, sizeof b);
}

static void
out_dent (SyncSession       *s,
          const char        *id,
          const struct stat *st,
          const char        *name)
{
  guint8 b[20];
  gsize len = name != NULL ? strlen (name) : 0;

  memset (b, 0, sizeof b);
  memcpy (b, id, 4);
  if (st != NULL)
    {
      put_u32 (b + 4, st->st_mode);
      put_u32 (b + 8, (guint32) st->st_size);
      put_u32 (b + 12, (guint32) st->st_mtime);
    }
  put_u32 (b + 16, (guint32) len);
  g_byte_array_append (s->out, b, sizeof b);
  if (len > 0)
    g_byte_array_append (s->out, (const guint8 *) name, (guint) len);
}

static void
do_list (SyncSession *s,
         const char  *path)
{
  g_autofree char *real = adbscope_sim_sync_resolve (s->device, path);
  GDir *dir = g_dir_open (real, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (real, name, NULL);
          struct stat st;

          if (lstat (child, &st) == 0)
            out_dent (s, "DENT", &st, name);
        }
      g_dir_close (dir);
    }
  out_dent (s, "DONE", NULL, NULL);
}

static gboolean
make_parents (const char *root,
              const char *file)
{
  g_autofree char *dir = g_path_get_dirname (file);

  /* fixed_push_mkdir: the device makes the directories, inside the root. */
  if (!g_str_has_prefix (dir, root))
    return FALSE;
  return g_mkdir_with_parents (dir, 0755) == 0;
}

static void
do_send_start (SyncSession *s,
               const char  *spec)
{
  const char *comma = strrchr (spec, ',');
  g_autofree char *path = comma != NULL ? g_strndup (spec, comma - spec) : g_strdup (spec);
  guint64 mode = 0644;

  if (comma != NULL)
    g_ascii_string_to_unsigned (comma + 1, 10, 0, G_MAXUINT32, &mode, NULL);
  g_free (s->send_path);
  s->send_path = adbscope_sim_sync_resolve (s->device, path);
  s->send_failed = FALSE;
  if (!make_parents (s->device->fs_root, s->send_path))
    s->send_failed = TRUE;
  else
    {
      /* Symlinks are written as plain files: nothing may point out of the sandbox. */
      s->send_fd = open (s->send_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                         (mode_t) (mode & 0777) | 0600);
      if (s->send_fd < 0)
        s->send_failed = TRUE;
    }
}

static void
do_send_data (SyncSession  *s,
              const guint8 *data,
              gsize         len)
{
  while (len > 0 && s->send_fd >= 0 && !s->send_failed)
    {
      ssize_t n = write (s->send_fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          s->send_failed = TRUE;
          break;
        }
      data += n;
      len -= (gsize) n;
    }
}

static void
do_send_done (SyncSession *s,
              guint32      mtime)
{
  if (s->send_path == NULL)
    {
      out_fail (s, "DONE without SEND");
      return;
    }
  if (s->send_fd >= 0)
    {
      if (close (s->send_fd) != 0)
        s->send_failed = TRUE;
      s->send_fd = -1;
    }
  if (s->send_failed)
    out_fail (s, "couldn't write file");
  else
    {
      struct timespec times[2] = { { mtime, 0 }, { mtime, 0 } };

      utimensat (AT_FDCWD, s->send_path, times, AT_SYMLINK_NOFOLLOW);
      out_id_u32 (s, "OKAY", 0);
    }
  g_clear_pointer (&s->send_path, g_free);
}

static void
do_recv_start (SyncSession *s,
               const char  *path)
{
  g_autofree char *real = adbscope_sim_sync_resolve (s->device, path);

  s->recv_fd = open (real, O_RDONLY | O_CLOEXEC);
  if (s->recv_fd < 0)
    out_fail (s, g_strerror (errno));
}

/* Fill the reply queue with the next chunk of a RECV. */
static void
recv_produce (SyncSession *s)
{
  guint8 *buf;
  ssize_t n;

  if (s->recv_fd < 0 || s->out->len - s->out_pos > 0)
    return;
  buf = g_malloc (SYNC_DATA_MAX);
  n = read (s->recv_fd, buf, SYNC_DATA_MAX);
  if (n > 0)
    {
      out_id_u32 (s, "DATA", (guint32) n);
      g_byte_array_append (s->out, buf, (guint) n);
    }
  else
    {
      close (s->recv_fd);
      s->recv_fd = -1;
      if (n < 0)
        out_fail (s, "read failed");
      else
        out_id_u32 (s, "DONE", 0);
    }
  g_free (buf);
}

static void
sync_pump (SyncSession *s)
{
  AdbscopeSimStream *stream = s->stream;
  gsize len;

  if (stream == NULL || !stream->can_send)
    return;
  if (s->out->len - s->out_pos == 0)
    {
      g_byte_array_set_size (s->out, 0);
      s->out_pos = 0;
      recv_produce (s);
    }
  len = s->out->len - s->out_pos;
  if (len == 0)
    {
      if (s->quit)
        adbscope_sim_stream_close (stream);
      return;
    }
  len = MIN (len, adbscope_sim_stream_get_max_payload (stream));
  adbscope_sim_stream_send (stream, s->out->data + s->out_pos, len);
  s->out_pos += len;
}

static void
sync_parse (SyncSession *s)
{
  gsize pos = 0;

  while (!s->quit)
    {
      const guint8 *payload;
      guint32 value;
      char id[5];
      gssize used = adbscope_sim_wire_parse_sync (s->in->data + pos, s->in->len - pos,
                                                  SYNC_DATA_MAX + 4096, id, &value, &payload);

      if (used == 0)
        break;
      if (used < 0)
        {
          s->quit = TRUE;
          break;
        }
      if (g_str_equal (id, "DONE"))
        do_send_done (s, value);   /* a SEND's DONE carries the mtime */
      else if (g_str_equal (id, "DATA"))
        do_send_data (s, payload, value);
      else
        {
          g_autofree char *arg = g_strndup ((const char *) payload, value);

          if (g_str_equal (id, "STAT"))
            do_stat (s, arg);
          else if (g_str_equal (id, "LIST"))
            do_list (s, arg);
          else if (g_str_equal (id, "SEND"))
            do_send_start (s, arg);
          else if (g_str_equal (id, "RECV"))
            do_recv_start (s, arg);
          else
            s->quit = TRUE;  /* QUIT, or something we do not speak */
        }
      pos += (gsize) used;
    }
  g_byte_array_remove_range (s->in, 0, (guint) pos);
}

static void
sync_data (AdbscopeSimStream *stream,
           const guint8      *data,
           gsize              len)
{
  SyncSession *s = stream->service;

  g_byte_array_append (s->in, data, (guint) len);
  sync_parse (s);
  adbscope_sim_stream_ack (stream);
  sync_pump (s);
}

static void
sync_ready (AdbscopeSimStream *stream)
{
  sync_pump (stream->service);
}

static void
sync_closed (AdbscopeSimStream *stream,
             gboolean           by_host)
{
  SyncSession *s = stream->service;

  if (s->send_fd >= 0)
    close (s->send_fd);
  if (s->recv_fd >= 0)
    close (s->recv_fd);
  g_free (s->send_path);
  g_byte_array_unref (s->in);
  g_byte_array_unref (s->out);
  g_free (s);
}

static const AdbscopeSimStreamClass sync_class = {
  .data = sync_data,
  .ready = sync_ready,
  .closed = sync_closed,
};

gboolean
adbscope_sim_sync_open (AdbscopeSimStream *stream)
{
  SyncSession *s = g_new0 (SyncSession, 1);

  s->device = adbscope_sim_connection_get_device (stream->connection);
  s->stream = stream;
  s->in = g_byte_array_new ();
  s->out = g_byte_array_new ();
  s->send_fd = -1;
  s->recv_fd = -1;
  stream->klass = &sync_class;
  stream->service = s;
  return TRUE;
}
