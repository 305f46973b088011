/* adbscope-pcap-writer.c: the agent's pcap stream into a file as it arrives
 *
 * Nothing is held in memory but the one record not complete yet.  The file
 * gets the first stream's global header, then only whole records, each
 * batch in one write(): a run that is killed leaves a file every pcap
 * reader accepts.  After a reconnect the agent sends a new global header;
 * it must match the first (byte order, version, link type) and is not
 * written again, so one file holds the whole run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-pcap-writer.h"

#define GLOBAL_HEADER_LEN 24
#define RECORD_HEADER_LEN 16
/* The agent's snaplen is 65535; refuse a record claiming much more. */
#define MAX_RECORD        (256 * 1024)

struct _AdbscopePcapWriter
{
  char       *path;
  int         fd;
  guint8      file_header[GLOBAL_HEADER_LEN];
  gboolean    have_file_header;
  gboolean    swapped;
  gboolean    want_header;    /* the current stream's header is not read yet */
  GByteArray *pending;        /* an incomplete header or record */
  GByteArray *out;            /* whole records of this feed */
  guint64     packets;
  guint64     stream_packets;
  guint64     bytes;
};

AdbscopePcapWriter *
adbscope_pcap_writer_new (const char  *path,
                          GError     **error)
{
  AdbscopePcapWriter *self;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s"), path, g_strerror (errsv));
      return NULL;
    }
  self = g_new0 (AdbscopePcapWriter, 1);
  self->path = g_strdup (path);
  self->fd = fd;
  self->want_header = TRUE;
  self->pending = g_byte_array_new ();
  self->out = g_byte_array_new ();
  return self;
}

void
adbscope_pcap_writer_begin_stream (AdbscopePcapWriter *self)
{
  g_byte_array_set_size (self->pending, 0);
  self->want_header = TRUE;
  self->stream_packets = 0;
}

static gboolean
write_all (AdbscopePcapWriter  *self,
           const guint8        *data,
           gsize                len,
           GError             **error)
{
  while (len > 0)
    {
      gssize n = write (self->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot write %s: %s"), self->path, g_strerror (errsv));
          return FALSE;
        }
      data += n;
      len -= n;
      self->bytes += n;
    }
  return TRUE;
}

static guint32
read_u32 (const guint8 *p,
          gboolean      swapped)
{
  guint32 v;

  memcpy (&v, p, 4);
  return swapped ? GUINT32_SWAP_LE_BE (v) : v;
}

static gboolean
take_header (AdbscopePcapWriter  *self,
             const guint8        *h,
             GError             **error)
{
  guint32 magic;
  gboolean swapped;

  memcpy (&magic, h, 4);
  if (magic == 0xa1b2c3d4)
    swapped = FALSE;
  else if (magic == 0xd4c3b2a1)
    swapped = TRUE;
  else
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("The agent's pcap stream does not start with a pcap header (magic %08x)"), magic);
      return FALSE;
    }
  if (!self->have_file_header)
    {
      memcpy (self->file_header, h, GLOBAL_HEADER_LEN);
      self->have_file_header = TRUE;
      self->swapped = swapped;
      g_byte_array_append (self->out, h, GLOBAL_HEADER_LEN);
    }
  /* Byte order, version and link type must be the same in one file
   * (thiszone/sigfigs/snaplen may differ harmlessly). */
  else if (memcmp (self->file_header, h, 8) != 0 || memcmp (self->file_header + 20, h + 20, 4) != 0)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("The agent's new pcap stream has another format than the file it continues"));
      return FALSE;
    }
  self->want_header = FALSE;
  return TRUE;
}

/* Consumes from @data what forms whole units (the header, records); returns
 * how many bytes it used, or -1 on a malformed stream. */
static gssize
split (AdbscopePcapWriter  *self,
       const guint8        *data,
       gsize                len,
       GError             **error)
{
  gsize pos = 0;

  for (;;)
    {
      guint32 incl;

      if (self->want_header)
        {
          if (len - pos < GLOBAL_HEADER_LEN)
            return pos;
          if (!take_header (self, data + pos, error))
            return -1;
          pos += GLOBAL_HEADER_LEN;
          continue;
        }
      if (len - pos < RECORD_HEADER_LEN)
        return pos;
      incl = read_u32 (data + pos + 8, self->swapped);
      if (incl > MAX_RECORD)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("The agent's pcap stream has a record of %u bytes"), incl);
          return -1;
        }
      if (len - pos < RECORD_HEADER_LEN + (gsize) incl)
        return pos;
      g_byte_array_append (self->out, data + pos, RECORD_HEADER_LEN + incl);
      pos += RECORD_HEADER_LEN + incl;
      self->packets++;
      self->stream_packets++;
    }
}

gboolean
adbscope_pcap_writer_feed (AdbscopePcapWriter  *self,
                           const guint8        *data,
                           gsize                len,
                           GError             **error)
{
  gssize used;

  g_return_val_if_fail (self != NULL, FALSE);

  g_byte_array_set_size (self->out, 0);
  if (self->pending->len > 0)
    {
      /* Complete the unit that was cut, from the bytes that just arrived. */
      g_byte_array_append (self->pending, data, (guint) len);
      used = split (self, self->pending->data, self->pending->len, error);
      if (used < 0)
        return FALSE;
      g_byte_array_remove_range (self->pending, 0, (guint) used);
    }
  else
    {
      used = split (self, data, len, error);
      if (used < 0)
        return FALSE;
      g_byte_array_append (self->pending, data + used, (guint) (len - used));
    }
  if (self->out->len > 0 && !write_all (self, self->out->data, self->out->len, error))
    return FALSE;
  /* Keep the buffer from growing to the largest feed forever. */
  if (self->out->len > 1024 * 1024)
    {
      g_byte_array_unref (self->out);
      self->out = g_byte_array_new ();
    }
  return TRUE;
}

guint64
adbscope_pcap_writer_get_packets (AdbscopePcapWriter *self)
{
  return self->packets;
}

/* Packets of the current stream (the agent counts per run). */
guint64
adbscope_pcap_writer_get_stream_packets (AdbscopePcapWriter *self)
{
  return self->stream_packets;
}

guint64
adbscope_pcap_writer_get_bytes (AdbscopePcapWriter *self)
{
  return self->bytes;
}

const char *
adbscope_pcap_writer_get_path (AdbscopePcapWriter *self)
{
  return self->path;
}

void
adbscope_pcap_writer_free (AdbscopePcapWriter *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_byte_array_unref (self->pending);
  g_byte_array_unref (self->out);
  g_free (self->path);
  g_free (self);
}
