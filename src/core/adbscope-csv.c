/* adbscope-csv.c: samples as CSV
 *
 * Columns: time_s (since the start of the session), every series of
 * ADBSCOPE_SERIES_TABLE by its report path, the age of the slower sources'
 * values (memory.meminfo_age_s, power.age_s, thermal.age_s), then
 * cpu.core<N>_pct.  A row is one fast sample.  A value stays valid for two
 * periods of its own cadence (meminfo every --meminfo-interval, battery and
 * thermal every 2 s, everything else every sample interval), so every row
 * carries the latest known value of each series; the age columns say how
 * old the slower ones are.  An empty cell is "no value" — never written as 0.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-csv.h"
#include "adbscope-error.h"

/* Battery on even seconds, thermal on odd ones (adbscope-slow-collector.c). */
#define SLOW_SOURCE_CADENCE_MS 2000

/* How often a series gets a new value. */
static guint
cadence_ms (AdbscopeSession  *session,
            AdbscopeSeriesId  id)
{
  switch (id)
    {
    case ADBSCOPE_SERIES_MEM_APP_PSS:
    case ADBSCOPE_SERIES_MEM_JAVA_HEAP:
    case ADBSCOPE_SERIES_MEM_NATIVE_HEAP:
    case ADBSCOPE_SERIES_MEM_CODE:
    case ADBSCOPE_SERIES_MEM_STACK:
    case ADBSCOPE_SERIES_MEM_GRAPHICS:
    case ADBSCOPE_SERIES_MEM_PRIVATE_OTHER:
    case ADBSCOPE_SERIES_MEM_SYSTEM:
    case ADBSCOPE_SERIES_MEM_APP_PSS_SWAP:
      return MAX (adbscope_session_get_meminfo_interval (session), adbscope_session_get_interval (session));
    case ADBSCOPE_SERIES_BATTERY_LEVEL:
    case ADBSCOPE_SERIES_BATTERY_TEMP:
    case ADBSCOPE_SERIES_BATTERY_VOLTAGE:
    case ADBSCOPE_SERIES_BATTERY_CURRENT:
    case ADBSCOPE_SERIES_POWER:
    case ADBSCOPE_SERIES_THERMAL_STATUS:
    case ADBSCOPE_SERIES_THERMAL_MAX_TEMP:
      return MAX (SLOW_SOURCE_CADENCE_MS, adbscope_session_get_interval (session));
    default:
      return adbscope_session_get_interval (session);
    }
}

/* The slower sources whose age is a column: one series stands for each. */
static const struct {
  const char       *column;
  AdbscopeSeriesId  id;
} age_columns[] = {
  { "memory.meminfo_age_s", ADBSCOPE_SERIES_MEM_APP_PSS },
  { "power.age_s", ADBSCOPE_SERIES_BATTERY_LEVEL },
  { "thermal.age_s", ADBSCOPE_SERIES_THERMAL_STATUS },
};

void
adbscope_csv_append_header (GString         *out,
                            AdbscopeSession *session)
{
  g_string_append (out, "time_s");
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    g_string_append_printf (out, ",%s", adbscope_series_id_get_path (i));
  for (guint i = 0; i < G_N_ELEMENTS (age_columns); i++)
    g_string_append_printf (out, ",%s", age_columns[i].column);
  for (guint c = 0; c < adbscope_session_get_n_cores (session); c++)
    g_string_append_printf (out, ",cpu.core%u_pct", c);
  g_string_append_c (out, '\n');
}

/* The latest sample at or before @time_us that is still valid, or NULL. */
static const AdbscopeSample *
valid_sample_at (AdbscopeSeries *series,
                 gint64          time_us,
                 gint64          max_age_us)
{
  guint i = adbscope_series_lower_bound (series, time_us + 1);
  const AdbscopeSample *s;

  if (i == 0)
    return NULL;
  s = adbscope_series_get (series, i - 1);
  if (!isfinite (s->value) || time_us - s->time_us > max_age_us)
    return NULL;
  return s;
}

static void
append_value_at (GString        *out,
                 AdbscopeSeries *series,
                 gint64          time_us,
                 gint64          max_age_us)
{
  const AdbscopeSample *s = valid_sample_at (series, time_us, max_age_us);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, ',');
  if (s != NULL)
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
    append_value_at (out, adbscope_session_get_series (session, i), time_us,
                     2 * (gint64) cadence_ms (session, i) * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (age_columns); i++)
    {
      AdbscopeSeriesId id = age_columns[i].id;
      const AdbscopeSample *s = valid_sample_at (adbscope_session_get_series (session, id), time_us,
                                                 2 * (gint64) cadence_ms (session, id) * 1000);

      g_string_append_c (out, ',');
      if (s != NULL)
        g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", MAX (0, time_us - s->time_us) / 1e6));
    }
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
