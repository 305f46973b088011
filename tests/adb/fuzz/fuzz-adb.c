/* libFuzzer target: what the adb client and the device shell print —
 * device lists, track-devices frames, shell replies with markers, the
 * probe's output, adb's stderr — plus the --assert grammar.  The first byte
 * picks the parser. */
#include "config.h"

#include <string.h>

#include "adbscope-adb-parse.h"
#include "adbscope-assertion.h"
#include "adbscope-probe.h"
#include "adbscope-shell-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = NULL;
  guint8 which;

  if (size < 1)
    return 0;
  which = data[0] % 6;
  text = g_strndup ((const char *) data + 1, size - 1);

  switch (which)
    {
    case 0:
      {
        g_autoptr(GPtrArray) d = adbscope_parse_devices (text, NULL);
        g_autoptr(GError) error = NULL;
        if (d != NULL)
          g_free (adbscope_choose_device (d, NULL, &error));
      }
      break;
    case 1:
      {
        g_autoptr(GString) buf = g_string_new_len ((const char *) data + 1, size - 1);
        char *payload = NULL;
        while (adbscope_parse_track_devices (buf, &payload, NULL))
          g_free (payload);
      }
      break;
    case 2:
      {
        g_autoptr(GString) buf = g_string_new_len ((const char *) data + 1, size - 1);
        g_autofree char *out = NULL;
        int rc;
        if (_adbscope_shell_take_reply (buf, "__ADBSCOPE_0_1__", &out, &rc))
          g_assert (rc >= -1 && rc <= 255);
      }
      break;
    case 3:
      adbscope_probe_result_free (adbscope_probe_parse (text, NULL));
      break;
    case 4:
      g_clear_error (&(GError *) { adbscope_adb_error_from_stderr (text, "S") });
      adbscope_parse_connect_output (text, NULL);
      break;
    case 5:
      adbscope_assertion_free (adbscope_assertion_parse (text, NULL));
      break;
    default:
      g_assert_not_reached ();
    }
  return 0;
}
