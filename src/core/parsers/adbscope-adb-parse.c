/* adbscope-adb-parse.c: pure parsers for what the adb client prints
 *
 * Tested on real captures (../shared/fixtures/android/adb) in
 * tests/core/test-adb-parse.c.  Nothing here spawns.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-adb-parse.h"
#include "adbscope-error.h"

void
adbscope_device_info_free (AdbscopeDeviceInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->serial);
  g_free (info->state_text);
  g_free (info->product);
  g_free (info->model);
  g_free (info->device);
  g_free (info->usb);
  g_free (info->features);
  g_free (info);
}

static const struct {
  const char          *text;
  AdbscopeDeviceState  state;
} states[] = {
  { "device", ADBSCOPE_DEVICE_STATE_DEVICE },
  { "unauthorized", ADBSCOPE_DEVICE_STATE_UNAUTHORIZED },
  { "authorizing", ADBSCOPE_DEVICE_STATE_AUTHORIZING },
  { "offline", ADBSCOPE_DEVICE_STATE_OFFLINE },
  { "no permissions", ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS },
  { "recovery", ADBSCOPE_DEVICE_STATE_RECOVERY },
  { "rescue", ADBSCOPE_DEVICE_STATE_RECOVERY },
  { "sideload", ADBSCOPE_DEVICE_STATE_SIDELOAD },
  { "bootloader", ADBSCOPE_DEVICE_STATE_BOOTLOADER },
  { "host", ADBSCOPE_DEVICE_STATE_HOST },
  { "connecting", ADBSCOPE_DEVICE_STATE_CONNECTING },
  { "unknown", ADBSCOPE_DEVICE_STATE_UNKNOWN },
};

AdbscopeDeviceState
adbscope_device_state_from_string (const char *text)
{
  if (text == NULL)
    return ADBSCOPE_DEVICE_STATE_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_str_equal (states[i].text, text))
      return states[i].state;
  return ADBSCOPE_DEVICE_STATE_UNKNOWN;
}

const char *
adbscope_device_state_to_string (AdbscopeDeviceState state)
{
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (states[i].state == state)
      return states[i].text;
  return "unknown";
}

static gboolean
is_noise_line (const char *line)
{
  /* The server start-up chatter goes to stderr, but people paste it into
   * captures and some wrappers merge the streams. */
  return g_str_has_prefix (line, "* daemon") || line[0] == '\0';
}

static void
replace_str (char       **field,
             const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
set_field (AdbscopeDeviceInfo *info,
           const char         *token)
{
  const char *colon = strchr (token, ':');
  g_autofree char *key = NULL;
  const char *value;

  if (colon == NULL || colon == token)
    return;
  key = g_strndup (token, colon - token);
  value = colon + 1;

  if (g_str_equal (key, "product"))
    replace_str (&info->product, value);
  else if (g_str_equal (key, "model"))
    replace_str (&info->model, value);
  else if (g_str_equal (key, "device"))
    replace_str (&info->device, value);
  else if (g_str_equal (key, "usb"))
    replace_str (&info->usb, value);
  else if (g_str_equal (key, "features"))
    replace_str (&info->features, value);
  else if (g_str_equal (key, "transport_id"))
    info->transport_id = g_ascii_strtoll (value, NULL, 10);
}

static AdbscopeDeviceInfo *
parse_device_line (const char *line)
{
  g_autoptr(AdbscopeDeviceInfo) info = g_new0 (AdbscopeDeviceInfo, 1);
  g_auto(GStrv) tokens = NULL;
  const char *rest;
  guint i = 0;

  info->transport_id = -1;
  /* `adb devices` separates with a TAB, `-l` pads the serial with spaces;
   * pasted captures turn the TAB into spaces.  Serials have no blanks. */
  tokens = g_strsplit_set (line, " \t", -1);
  while (tokens[i] != NULL && tokens[i][0] == '\0')
    i++;
  if (tokens[i] == NULL)
    return NULL;
  info->serial = g_strdup (tokens[i++]);
  while (tokens[i] != NULL && tokens[i][0] == '\0')
    i++;
  if (tokens[i] == NULL)
    return NULL;

  rest = strstr (line, tokens[i]);
  if (g_str_has_prefix (rest, "no permissions"))
    {
      /* "no permissions (user in plugdev group; …); see [http://…]" */
      info->state = ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS;
      info->state_text = g_strdup ("no permissions");
    }
  else
    {
      info->state_text = g_strdup (tokens[i]);
      info->state = adbscope_device_state_from_string (tokens[i]);
      i++;
    }

  for (; tokens[i] != NULL; i++)
    if (tokens[i][0] != '\0')
      set_field (info, tokens[i]);

  return g_steal_pointer (&info);
}

/* Parses `adb devices` and `adb devices -l`.  Anything before the header
 * (a pasted prompt, daemon start-up lines) is ignored; output without the
 * header is not a device list and is an error naming its first line.
 */
GPtrArray *
adbscope_parse_devices (const char  *text,
                        GError     **error)
{
  g_autoptr(GPtrArray) devices = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_device_info_free);
  g_auto(GStrv) lines = NULL;
  const char *first = NULL;
  gboolean seen_header = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      AdbscopeDeviceInfo *info;

      if (is_noise_line (line))
        continue;
      if (g_str_has_prefix (line, "List of devices attached"))
        {
          seen_header = TRUE;
          continue;
        }
      if (!seen_header)
        {
          if (first == NULL)
            first = line;
          continue;
        }
      info = parse_device_line (line);
      if (info != NULL)
        g_ptr_array_add (devices, info);
    }

  if (!seen_header)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                   _("adb did not print a device list: %s"),
                   first != NULL ? first : _("(no output)"));
      return NULL;
    }

  return g_steal_pointer (&devices);
}

/* `adb track-devices` frames each update as 4 hex digits of length and
 * the payload.  Returns TRUE and the payload when one is complete,
 * consuming it from @buffer.
 */
gboolean
adbscope_parse_track_devices (GString  *buffer,
                              char    **payload,
                              GError  **error)
{
  char hex[5];
  guint64 len;
  char *end = NULL;

  g_return_val_if_fail (buffer != NULL, FALSE);
  g_return_val_if_fail (payload != NULL, FALSE);

  *payload = NULL;
  if (buffer->len < 4)
    return FALSE;
  memcpy (hex, buffer->str, 4);
  hex[4] = '\0';
  for (guint i = 0; i < 4; i++)
    if (!g_ascii_isxdigit (hex[i]))
      {
        g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                     _("Unexpected output from adb track-devices: “%.40s”"), buffer->str);
        return FALSE;
      }
  len = g_ascii_strtoull (hex, &end, 16);
  if (buffer->len < 4 + len)
    return FALSE;
  *payload = g_strndup (buffer->str + 4, len);
  g_string_erase (buffer, 0, 4 + len);
  return TRUE;
}

/* `adb connect` exits 0 even when it failed: the text is the only truth. */
gboolean
adbscope_parse_connect_output (const char  *text,
                               GError     **error)
{
  g_autofree char *line = adbscope_adb_stderr_last_line (text != NULL ? text : "");

  if (line != NULL &&
      (g_str_has_prefix (line, "connected to ") ||
       g_str_has_prefix (line, "already connected to ")))
    return TRUE;

  if (line != NULL && g_str_has_prefix (line, "failed to authenticate"))
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED,
                 _("The device refused this computer: %s"), line);
  else
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE,
                 _("Could not connect: %s"), line != NULL ? line : _("adb printed nothing"));
  return FALSE;
}

/* The last line worth showing a person: not the daemon start-up chatter,
 * without adb's "error: " / "adb: error: " prefixes.  NULL when none.
 */
char *
adbscope_adb_stderr_last_line (const char *text)
{
  g_auto(GStrv) lines = NULL;
  const char *last = NULL;

  if (text == NULL)
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (is_noise_line (line))
        continue;
      last = line;
    }
  if (last == NULL)
    return NULL;
  if (g_str_has_prefix (last, "adb: error: "))
    last += strlen ("adb: error: ");
  else if (g_str_has_prefix (last, "error: "))
    last += strlen ("error: ");
  return g_strdup (last);
}

/* Maps what adb wrote on stderr to one of our error codes.  When adb said
 * nothing (it exits 0 and silent when a device vanishes under a shell),
 * the device was lost.
 */
GError *
adbscope_adb_error_from_stderr (const char *text,
                                const char *serial)
{
  g_autofree char *line = adbscope_adb_stderr_last_line (text);
  g_autofree char *all = g_strdup (text != NULL ? text : "");
  AdbscopeErrorCode code = ADBSCOPE_ERROR_ADB_FAILED;

  if (line == NULL)
    return g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_LOST,
                        _("Device %s disconnected"), serial != NULL ? serial : "");

  if (strstr (all, "unauthorized") != NULL)
    {
      /* adb prints four lines; the first is the one that says what is wrong. */
      return g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED,
                          _("Device %s is unauthorized: allow USB debugging in the dialog on the phone"),
                          serial != NULL ? serial : "");
    }
  {
    /* adb 29: "… cannot connect to daemon at tcp:HOST:PORT: failed to
     * connect to 'HOST:PORT': Connection refused" for a server that does
     * not answer (adb starts none on a remote host). */
    const char *at = strstr (line, "cannot connect to daemon at ");

    if (at != NULL)
      {
        const char *spec = at + strlen ("cannot connect to daemon at ");
        const char *end;
        g_autofree char *address = NULL;

        if (g_str_has_prefix (spec, "tcp:"))
          spec += 4;
        /* The address ends at the ": " before the reason. */
        end = strstr (spec, ": ");
        address = end != NULL ? g_strndup (spec, end - spec) : g_strdup (spec);
        return g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                            _("No adb server answers at %s (%s)"), address,
                            end != NULL ? end + 2 : line);
      }
  }
  if (strstr (line, "offline") != NULL)
    code = ADBSCOPE_ERROR_DEVICE_OFFLINE;
  else if (strstr (line, "not found") != NULL || strstr (line, "no devices") != NULL)
    code = ADBSCOPE_ERROR_NO_DEVICE;
  else if (strstr (line, "more than one") != NULL)
    code = ADBSCOPE_ERROR_MULTIPLE_DEVICES;
  return g_error_new_literal (ADBSCOPE_ERROR, code, line);
}

const char *
adbscope_device_transport_kind (const char *serial,
                                const char *usb)
{
  if (serial != NULL && g_str_has_prefix (serial, "emulator-"))
    return "emulator";
  if (usb != NULL)
    return "usb";
  if (serial != NULL && strchr (serial, ':') != NULL)
    return "tcp";
  return "usb";
}

/* Which device a headless command should use: the one named, or the only
 * one that is ready.  The errors say what to do about it.
 */
char *
adbscope_choose_device (GPtrArray   *infos,
                        const char  *serial,
                        GError     **error)
{
  const AdbscopeDeviceInfo *ready = NULL;
  const AdbscopeDeviceInfo *unauthorized = NULL;
  const AdbscopeDeviceInfo *offline = NULL;
  guint n_ready = 0;

  for (guint i = 0; i < infos->len; i++)
    {
      const AdbscopeDeviceInfo *d = g_ptr_array_index (infos, i);

      if (serial != NULL && g_strcmp0 (d->serial, serial) != 0)
        continue;
      switch (d->state)
        {
        case ADBSCOPE_DEVICE_STATE_DEVICE:
          ready = d;
          n_ready++;
          break;
        case ADBSCOPE_DEVICE_STATE_UNAUTHORIZED:
        case ADBSCOPE_DEVICE_STATE_AUTHORIZING:
          unauthorized = d;
          break;
        default:
          offline = d;
          break;
        }
    }

  if (n_ready == 1)
    return g_strdup (ready->serial);
  if (n_ready > 1)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_MULTIPLE_DEVICES,
                           _("More than one device is connected; choose one with -s SERIAL (see “adbscope devices”)"));
      return NULL;
    }
  if (unauthorized != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED,
                   _("Device %s is unauthorized: unlock the phone and allow USB debugging in the dialog"),
                   unauthorized->serial);
      return NULL;
    }
  if (offline != NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_OFFLINE,
                   _("Device %s is %s; reconnect the cable or restart adb"),
                   offline->serial, offline->state_text ? offline->state_text : "offline");
      return NULL;
    }
  if (serial != NULL)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE,
                 _("Device %s is not connected"), serial);
  else
    g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_DEVICE,
                         _("No device is connected; plug in a phone with USB debugging on, or use --demo"));
  return NULL;
}
