/* adbscope-csv.c: samples as CSV
 *
 * Columns: time_s (since the start of the session), every series of
 * ADBSCOPE_SERIES_TABLE by its report path, then cpu.core<N>_pct.  A row
 * is one fast sample; a series sampled on another schedule (frames,
 * meminfo, battery) gives its latest value no older than two intervals.
 * An empty cell is "no value" — never written as 0.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-csv.h"
#include "adbscope-error.h"

void
adbscope_csv_append_header (GString         *out,
                            AdbscopeSession *session)
{
  g_string_append (out, "time_s");
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_string_append_printf (out, ",%s", adbscope_series_id_get_path (i));
  for (guint c = 0; c < adbscope_session_get_n_cores (session); c++)
    g_string_append_printf (out, ",cpu.core%u_pct", c);
  g_string_append_c (out, '\n');
}

static void
append_value_at (GString        *out,
                 AdbscopeSeries *series,
                 gint64          time_us,
                 gint64          max_age_us)
{
  guint i = adbscope_series_lower_bound (series, time_us + 1);
  const AdbscopeSample *s;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, ',');
  if (i == 0)
    return;
  s = adbscope_series_get (series, i - 1);
  if (!isfinite (s->value) || time_us - s->time_us > max_age_us)
    return;
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6g", s->value));
}

void
adbscope_csv_append_row (GString         *out,
                         AdbscopeSession *session,
                         gint64           time_us)
{
  gint64 max_age = 2 * (gint64) adbscope_session_get_interval (session) * 1000;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f",
                                         (time_us - adbscope_session_get_start_us (session)) / 1e6));
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    append_value_at (out, adbscope_session_get_series (session, i), time_us, max_age);
  for (guint c = 0; c < adbscope_session_get_n_cores (session); c++)
    append_value_at (out, adbscope_session_get_core_series (session, c), time_us, max_age);
  g_string_append_c (out, '\n');
}

/* The whole history in the ring buffers, one row per fast sample. */
gboolean
adbscope_csv_write_session (AdbscopeSession  *session,
                            const char       *path,
                            GError          **error)
{
  AdbscopeSeries *clock = adbscope_session_get_series (session, ADBSCOPE_SERIES_CPU_SYSTEM);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  guint n = adbscope_series_get_length (clock);

  adbscope_csv_append_header (out, session);
  for (guint i = 0; i < n; i++)
    {
      const AdbscopeSample *s = adbscope_series_get (clock, i);

      adbscope_csv_append_row (out, session, s->time_us);
    }
  if (!g_file_set_contents (path, out->str, out->len, &local))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write the samples: %s"), local->message);
      return FALSE;
    }
  return TRUE;
}
