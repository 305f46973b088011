/* adbscope-samples-csv.c: every sample of a session as CSV
 *
 * One column per series (named by its report path, like the report's
 * keys), then one per core; one row per distinct sample time, in seconds
 * since the session started.  Series sampled on other schedules (frames,
 * meminfo) leave the other rows' cells empty; a gap (NaN) is an empty
 * cell, never 0.  GTK-free, so `record --samples` could use it too.
 */
#include "config.h"

#include <math.h>

#include "adbscope-samples-csv.h"

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
collect_times (AdbscopeSeries *series,
               GArray         *times)
{
  guint n = series != NULL ? adbscope_series_get_length (series) : 0;

  for (guint i = 0; i < n; i++)
    g_array_append_val (times, adbscope_series_get (series, i)->time_us);
}

/**
 * adbscope_samples_csv_build:
 *
 * Returns: (transfer full): the CSV text, with a header row
 */
char *
adbscope_samples_csv_build (AdbscopeSession *session)
{
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();  /* AdbscopeSeries*, borrowed */
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint *cursor = NULL;
  GString *csv = g_string_new ("time_s");
  gint64 start_us;
  guint n_cores;

  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), NULL);

  start_us = adbscope_session_get_start_us (session);
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    {
      g_string_append_printf (csv, ",%s", adbscope_series_id_get_path (i));
      g_ptr_array_add (columns, adbscope_session_get_series (session, i));
    }
  n_cores = adbscope_session_get_n_cores (session);
  for (guint i = 0; i < n_cores; i++)
    {
      g_string_append_printf (csv, ",cpu.core%u_pct", i);
      g_ptr_array_add (columns, adbscope_session_get_core_series (session, i));
    }
  g_string_append_c (csv, '\n');

  for (guint c = 0; c < columns->len; c++)
    collect_times (g_ptr_array_index (columns, c), times);
  g_array_sort (times, compare_times);

  /* Every series' times are sorted too: one cursor each walks along. */
  cursor = g_new0 (guint, columns->len);
  for (guint t = 0; t < times->len; t++)
    {
      gint64 time_us = g_array_index (times, gint64, t);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (t > 0 && time_us == g_array_index (times, gint64, t - 1))
        continue;

      g_string_append (csv, g_ascii_formatd (buf, sizeof buf, "%.3f", (time_us - start_us) / 1e6));
      for (guint c = 0; c < columns->len; c++)
        {
          AdbscopeSeries *series = g_ptr_array_index (columns, c);
          guint len = series != NULL ? adbscope_series_get_length (series) : 0;
          const AdbscopeSample *s;

          g_string_append_c (csv, ',');
          while (cursor[c] < len && adbscope_series_get (series, cursor[c])->time_us < time_us)
            cursor[c]++;
          if (cursor[c] >= len)
            continue;
          s = adbscope_series_get (series, cursor[c]);
          if (s->time_us == time_us && isfinite (s->value))
            g_string_append (csv, g_ascii_formatd (buf, sizeof buf, "%.6g", s->value));
        }
      g_string_append_c (csv, '\n');
    }

  return g_string_free (csv, FALSE);
}

gboolean
adbscope_samples_csv_write (AdbscopeSession  *session,
                            const char       *path,
                            GError          **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (ADBSCOPE_IS_SESSION (session), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  csv = adbscope_samples_csv_build (session);
  return g_file_set_contents (path, csv, -1, error);
}
