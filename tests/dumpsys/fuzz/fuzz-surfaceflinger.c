/* fuzz-surfaceflinger.c: libFuzzer target for the SurfaceFlinger parsers
 * (--list, --latency) and the frame tracker fed with what they return */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "adbscope-parse-surfaceflinger.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) list_error = NULL;
  g_autoptr(AdbscopeSfLatency) lat = NULL;
  g_autoptr(GPtrArray) names = NULL;

  names = adbscope_sf_list_parse ((const char *) data, (gssize) size, &list_error);
  g_assert ((names == NULL) != (list_error == NULL));
  if (names != NULL)
    {
      g_autoptr(GPtrArray) layers = adbscope_sf_find_app_layers (names, "com.example.game");

      for (guint i = 0; i < names->len; i++)
        g_assert (g_utf8_validate (g_ptr_array_index (names, i), -1, NULL));
      g_assert (layers->len <= names->len);
    }

  lat = adbscope_sf_latency_parse ((const char *) data, (gssize) size, &error);
  g_assert ((lat == NULL) != (error == NULL));
  if (lat != NULL)
    {
      AdbscopeSfTracker t;
      AdbscopeSfDelta d = { 0 };

      g_assert (lat->refresh_period_ns > 0);
      g_assert (lat->frames->len + lat->n_empty + lat->n_pending + lat->n_bad_rows + lat->n_repeats == lat->n_rows);
      adbscope_sf_tracker_reset (&t);
      adbscope_sf_tracker_advance (&t, lat, -1, &d);
      /* the same dump read twice: nothing new */
      adbscope_sf_tracker_advance (&t, lat, -1, &d);
      g_assert (d.new_frames == 0);
      adbscope_sf_delta_clear (&d);
    }
  return 0;
}
