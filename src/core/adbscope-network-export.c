/* adbscope-network-export.c: a capture's packets and connections written out for other tools
 *
 * The capture file (adbscope-pcap-writer.c) holds one pcap global header
 * and whole records, LINKTYPE_RAW.  An export copies the header and the
 * records the selection keeps: a time window on the pcap's own clock (the
 * agent's wall clock) and/or one connection, matched on its protocol and
 * both endpoints in either direction.  The copy is streamed (a capture can
 * be large) into a temporary file that replaces the destination only once
 * it is complete, so a failed or cancelled export leaves what was there.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-network-export.h"

#define GLOBAL_HEADER_LEN 24
#define RECORD_HEADER_LEN 16
#define MAX_RECORD        (256 * 1024)

typedef struct
{
  int     protocol;       /* 6 TCP, 17 UDP */
  guint   addr_len;       /* 4 or 16 */
  guint8  local[16], remote[16];
  guint16 local_port, remote_port;
} Flow;

/* "10.0.0.1:443" or "[fd00::1]:443" */
static gboolean
parse_endpoint (const char *text,
                guint8      addr[16],
                guint      *addr_len,
                guint16    *port)
{
  g_autofree char *host = NULL;
  const char *colon;
  guint64 p;

  if (text == NULL)
    return FALSE;
  colon = strrchr (text, ':');
  if (colon == NULL || !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &p, NULL))
    return FALSE;
  if (text[0] == '[' && colon > text && colon[-1] == ']')
    host = g_strndup (text + 1, colon - text - 2);
  else
    host = g_strndup (text, colon - text);
  *port = (guint16) p;
  if (inet_pton (AF_INET, host, addr) == 1)
    *addr_len = 4;
  else if (inet_pton (AF_INET6, host, addr) == 1)
    *addr_len = 16;
  else
    return FALSE;
  return TRUE;
}

static gboolean
flow_from_connection (AdbscopeConnection *c,
                      Flow               *flow,
                      GError            **error)
{
  const char *protocol = adbscope_connection_get_protocol (c);
  guint remote_len = 0;

  memset (flow, 0, sizeof *flow);
  flow->protocol = g_strcmp0 (protocol, "TCP") == 0 ? 6 : g_strcmp0 (protocol, "UDP") == 0 ? 17 : -1;
  if (flow->protocol < 0
      || !parse_endpoint (adbscope_connection_get_local (c), flow->local, &flow->addr_len, &flow->local_port)
      || !parse_endpoint (adbscope_connection_get_remote (c), flow->remote, &remote_len, &flow->remote_port)
      || remote_len != flow->addr_len)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("The connection %s has no address its packets can be found by"),
                   adbscope_connection_get_remote (c) ? adbscope_connection_get_remote (c) : "?");
      return FALSE;
    }
  return TRUE;
}

/* Does the raw IP packet belong to @flow (either direction)? */
static gboolean
packet_in_flow (const guint8 *p,
                gsize         len,
                const Flow   *flow)
{
  const guint8 *src, *dst, *l4;
  int proto;
  gsize l4_len;
  guint16 sport, dport;

  if (len < 1)
    return FALSE;
  if ((p[0] >> 4) == 4 && flow->addr_len == 4)
    {
      gsize ihl = (p[0] & 0x0f) * 4;

      if (len < 20 || ihl < 20 || len < ihl)
        return FALSE;
      /* a later fragment carries no ports */
      if ((((p[6] & 0x1f) << 8) | p[7]) != 0)
        return FALSE;
      proto = p[9];
      src = p + 12;
      dst = p + 16;
      l4 = p + ihl;
      l4_len = len - ihl;
    }
  else if ((p[0] >> 4) == 6 && flow->addr_len == 16)
    {
      gsize off = 40;

      if (len < 40)
        return FALSE;
      proto = p[6];
      /* hop-by-hop, routing and destination options headers */
      while ((proto == 0 || proto == 43 || proto == 60) && off + 8 <= len)
        {
          proto = p[off];
          off += (p[off + 1] + 1) * 8;
        }
      if (off > len)
        return FALSE;
      src = p + 8;
      dst = p + 24;
      l4 = p + off;
      l4_len = len - off;
    }
  else
    return FALSE;

  if (proto != flow->protocol || l4_len < 4)
    return FALSE;
  sport = (l4[0] << 8) | l4[1];
  dport = (l4[2] << 8) | l4[3];
  if (memcmp (src, flow->local, flow->addr_len) == 0 && memcmp (dst, flow->remote, flow->addr_len) == 0)
    return sport == flow->local_port && dport == flow->remote_port;
  if (memcmp (src, flow->remote, flow->addr_len) == 0 && memcmp (dst, flow->local, flow->addr_len) == 0)
    return sport == flow->remote_port && dport == flow->local_port;
  return FALSE;
}

static guint32
read_u32 (const guint8 *p,
          gboolean      swapped)
{
  guint32 v;

  memcpy (&v, p, 4);
  return swapped ? GUINT32_SWAP_LE_BE (v) : v;
}

gboolean
adbscope_pcap_export_sync (const char                  *source,
                           const char                  *destination,
                           const AdbscopePcapSelection *selection,
                           AdbscopeExportProgress       progress,
                           gpointer                     progress_data,
                           guint64                     *n_packets,
                           GCancellable                *cancellable,
                           GError                     **error)
{
  g_autoptr(GFile) dest = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autofree guint8 *record = NULL;
  guint8 header[GLOBAL_HEADER_LEN];
  gboolean swapped, nanos;
  gboolean ok = FALSE;
  Flow flow;
  gboolean by_flow = FALSE;
  guint64 kept = 0;
  gint64 size, done = 0, last_report = -1;
  GStatBuf st;
  FILE *in;

  g_return_val_if_fail (source != NULL && destination != NULL && selection != NULL, FALSE);

  if (selection->connection != NULL)
    {
      if (!flow_from_connection (selection->connection, &flow, error))
        return FALSE;
      by_flow = TRUE;
    }

  in = g_fopen (source, "rbe");
  if (in == NULL)
    {
      int errsv = errno;

      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read the capture %s: %s"),
                   source, g_strerror (errsv));
      return FALSE;
    }
  size = g_stat (source, &st) == 0 ? (gint64) st.st_size : 0;
  if (fread (header, 1, sizeof header, in) != sizeof header)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED,
                   _("The capture %s holds no packets yet"), source);
      goto out;
    }
  switch (read_u32 (header, FALSE))
    {
    case 0xa1b2c3d4: swapped = FALSE; nanos = FALSE; break;
    case 0xd4c3b2a1: swapped = TRUE; nanos = FALSE; break;
    case 0xa1b23c4d: swapped = FALSE; nanos = TRUE; break;
    case 0x4d3cb2a1: swapped = TRUE; nanos = TRUE; break;
    default:
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("%s is not a pcap file"), source);
      goto out;
    }

  dest = g_file_new_for_path (destination);
  out = g_file_replace (dest, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (out == NULL)
    goto out;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), header, sizeof header, NULL, cancellable, error))
    goto out;
  done = sizeof header;

  record = g_malloc (RECORD_HEADER_LEN + MAX_RECORD);
  for (;;)
    {
      guint32 incl;
      gint64 ts_us;
      gsize got = fread (record, 1, RECORD_HEADER_LEN, in);

      if (got == 0)
        break;
      /* The writer only ever writes whole records; a torn tail is a file
       * still being written: stop at the last whole one. */
      if (got < RECORD_HEADER_LEN)
        break;
      incl = read_u32 (record + 8, swapped);
      if (incl > MAX_RECORD)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("The capture %s is damaged (a record of %u bytes)"), source, incl);
          goto out;
        }
      if (fread (record + RECORD_HEADER_LEN, 1, incl, in) != incl)
        break;
      done += RECORD_HEADER_LEN + incl;
      ts_us = (gint64) read_u32 (record, swapped) * G_USEC_PER_SEC
              + (nanos ? read_u32 (record + 4, swapped) / 1000 : read_u32 (record + 4, swapped));
      if (ts_us >= selection->from_us && ts_us <= selection->to_us
          && (!by_flow || packet_in_flow (record + RECORD_HEADER_LEN, incl, &flow)))
        {
          if (!g_output_stream_write_all (G_OUTPUT_STREAM (out), record, RECORD_HEADER_LEN + incl,
                                          NULL, cancellable, error))
            goto out;
          kept++;
        }
      if (progress != NULL && size > 0 && done * 100 / size != last_report)
        {
          last_report = done * 100 / size;
          progress (MIN (1.0, (double) done / size), progress_data);
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }
  if (ferror (in))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("Cannot read the capture %s: %s"),
                   source, g_strerror (EIO));
      goto out;
    }
  if (!g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error))
    goto out;
  if (n_packets != NULL)
    *n_packets = kept;
  ok = TRUE;

out:
  /* Closing with a cancelled cancellable drops the temporary file and
   * keeps the old destination. */
  if (!ok && out != NULL && !g_output_stream_is_closed (G_OUTPUT_STREAM (out)))
    {
      g_autoptr(GCancellable) abort = g_cancellable_new ();

      g_cancellable_cancel (abort);
      g_output_stream_close (G_OUTPUT_STREAM (out), abort, NULL);
    }
  fclose (in);
  return ok;
}

typedef struct
{
  char                   *source;
  char                   *destination;
  AdbscopePcapSelection   selection;
  AdbscopeExportProgress  progress;
  gpointer                progress_data;
  guint64                 n_packets;
} ExportData;

static void
export_data_free (ExportData *d)
{
  g_free (d->source);
  g_free (d->destination);
  g_clear_object (&d->selection.connection);
  g_free (d);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *d = task_data;
  GError *error = NULL;

  if (adbscope_pcap_export_sync (d->source, d->destination, &d->selection, d->progress, d->progress_data,
                                 &d->n_packets, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
adbscope_pcap_export_async (const char                  *source,
                            const char                  *destination,
                            const AdbscopePcapSelection *selection,
                            AdbscopeExportProgress       progress,
                            gpointer                     progress_data,
                            GCancellable                *cancellable,
                            GAsyncReadyCallback          callback,
                            gpointer                     user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ExportData *d = g_new0 (ExportData, 1);

  d->source = g_strdup (source);
  d->destination = g_strdup (destination);
  d->selection = *selection;
  if (d->selection.connection != NULL)
    g_object_ref (d->selection.connection);
  d->progress = progress;
  d->progress_data = progress_data;
  g_task_set_source_tag (task, adbscope_pcap_export_async);
  g_task_set_task_data (task, d, (GDestroyNotify) export_data_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
adbscope_pcap_export_finish (GAsyncResult  *result,
                             guint64       *n_packets,
                             GError       **error)
{
  ExportData *d = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  if (n_packets != NULL)
    *n_packets = d->n_packets;
  return TRUE;
}

/* CSV ------------------------------------------------------------------ */

static void
append_field (GString    *out,
              const char *value)
{
  if (value == NULL)
    value = "";
  if (strpbrk (value, ",\"\r\n") != NULL)
    {
      g_string_append_c (out, '"');
      for (const char *p = value; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, value);
}

static void
append_time (GString *out,
             gint64   ms)
{
  g_autoptr(GDateTime) t = NULL;

  if (ms <= 0)
    return;
  t = g_date_time_new_from_unix_utc (ms / 1000);
  if (t == NULL)
    return;
  g_string_append_printf (out, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                          g_date_time_get_year (t), g_date_time_get_month (t), g_date_time_get_day_of_month (t),
                          g_date_time_get_hour (t), g_date_time_get_minute (t), g_date_time_get_second (t),
                          (int) (ms % 1000));
}

static const char * const csv_columns =
  "id,agent_run,protocol,local,remote,host,host_source,state,failure,failure_errno,uid,"
  "bytes_up,bytes_down,packets_up,packets_down,payload_up,payload_down,opened,closed,duration_ms\n";

char *
adbscope_connections_to_csv (GListModel *connections)
{
  GString *out = g_string_new (csv_columns);
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (connections), g_string_free (out, FALSE));

  n = g_list_model_get_n_items (connections);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (connections, i);
      gint64 open_ms = adbscope_connection_get_open_time_ms (c);
      gint64 close_ms = adbscope_connection_get_close_time_ms (c);

      g_string_append_printf (out, "%" G_GUINT64_FORMAT ",%u,", adbscope_connection_get_id (c),
                              adbscope_connection_get_agent_run (c));
      append_field (out, adbscope_connection_get_protocol (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_local (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_remote (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_host (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_host_source (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_state (c));
      g_string_append_c (out, ',');
      append_field (out, adbscope_connection_get_failure (c));
      g_string_append_c (out, ',');
      if (adbscope_connection_get_failure (c) != NULL)
        g_string_append_printf (out, "%d", adbscope_connection_get_failure_errno (c));
      g_string_append_printf (out, ",%d,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              adbscope_connection_get_uid (c),
                              adbscope_connection_get_bytes_up (c), adbscope_connection_get_bytes_down (c),
                              adbscope_connection_get_packets_up (c), adbscope_connection_get_packets_down (c),
                              adbscope_connection_get_payload_up (c), adbscope_connection_get_payload_down (c));
      append_time (out, open_ms);
      g_string_append_c (out, ',');
      append_time (out, close_ms);
      g_string_append_c (out, ',');
      if (open_ms > 0 && close_ms >= open_ms)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, close_ms - open_ms);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

gboolean
adbscope_connections_write_csv (GListModel  *connections,
                                const char  *path,
                                GError     **error)
{
  g_autofree char *text = adbscope_connections_to_csv (connections);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE,
                                  NULL, NULL, error);
}
