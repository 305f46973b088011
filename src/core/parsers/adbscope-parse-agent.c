/* adbscope-parse-agent.c: the agent app as `dumpsys` shows it
 *
 *   Packages:
 *     Package [io.github.adbscope.agent] (5b1e0c2):
 *       versionCode=10000 minSdk=24 targetSdk=34
 *       versionName=1.0.0
 *
 *   SERVICE io.github.adbscope.agent/.AgentVpnService 1f2e3d pid=4242
 *     adbscope-agent state=running package=io.github.adbscope.demo version=10000
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-agent.h"
#include "adbscope-parse-util-private.h"
#include "adbscope-validate.h"

gint64
adbscope_agent_version_code (const char *version)
{
  guint64 part[3];
  const char *p = version;

  if (version == NULL)
    return -1;
  for (guint i = 0; i < 3; i++)
    {
      const char *start = p;

      while (g_ascii_isdigit (*p))
        p++;
      if (p == start || p - start > 4 || !_adbscope_parse_u64 (start, p - start, &part[i]))
        return -1;
      if (i < 2 && *p++ != '.')
        return -1;
    }
  /* "1.2.3-dev" or "1.2.3+git": the numbers are what counts. */
  if (*p != '\0' && *p != '-' && *p != '+')
    return -1;
  if (part[1] > 99 || part[2] > 99 || part[0] > 200000)
    return -1;
  return (gint64) (part[0] * 10000 + part[1] * 100 + part[2]);
}

static gboolean
find_key (const char  *line,
          gsize        len,
          const char  *key,
          const char **value,
          gsize       *value_len)
{
  const char *end = line + len;
  gsize klen = strlen (key);

  for (const char *p = _adbscope_skip_spaces (line, end); p < end; p = _adbscope_skip_spaces (p, end))
    {
      const char *tok_end = _adbscope_skip_token (p, end);

      if ((gsize) (tok_end - p) > klen && memcmp (p, key, klen) == 0 && p[klen] == '=')
        {
          *value = p + klen + 1;
          *value_len = tok_end - *value;
          return TRUE;
        }
      p = tok_end;
    }
  return FALSE;
}

gboolean
adbscope_agent_parse_dumpsys_package (const char  *text,
                                      gssize       len,
                                      gint64      *version_code,
                                      char       **version_name)
{
  AdbscopeLineIter iter;
  const char *line, *v;
  gsize line_len, vlen;
  gboolean in_packages = FALSE, found = FALSE;

  *version_code = -1;
  if (version_name)
    *version_name = NULL;
  if (text == NULL)
    return FALSE;
  if (len < 0)
    len = strlen (text);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *s = _adbscope_skip_spaces (line, line + line_len);

      /* Section headers start in column 0 ("Packages:", "Queries:", …). */
      if (line_len > 0 && s == line)
        {
          if (found)
            break;
          in_packages = _adbscope_has_prefix_len (line, line_len, "Packages:");
          continue;
        }
      if (!in_packages)
        continue;
      if (*version_code < 0 && find_key (line, line_len, "versionCode", &v, &vlen))
        {
          gint64 code;

          if (_adbscope_parse_i64 (v, vlen, &code) && code >= 0)
            {
              *version_code = code;
              found = TRUE;
            }
        }
      else if (version_name && *version_name == NULL && find_key (line, line_len, "versionName", &v, &vlen))
        *version_name = _adbscope_strndup_utf8 (v, vlen);
    }
  if (!found && version_name)
    g_clear_pointer (version_name, g_free);
  return found;
}

static const char * const state_names[] = {
  [ADBSCOPE_AGENT_STATE_NONE] = "none",
  [ADBSCOPE_AGENT_STATE_WAITING_CONSENT] = "waiting_consent",
  [ADBSCOPE_AGENT_STATE_RUNNING] = "running",
  [ADBSCOPE_AGENT_STATE_CONSENT_DENIED] = "consent_denied",
  [ADBSCOPE_AGENT_STATE_STOPPED] = "stopped",
  [ADBSCOPE_AGENT_STATE_ERROR] = "error",
};

const char *
adbscope_agent_state_to_string (AdbscopeAgentState state)
{
  g_return_val_if_fail (state < G_N_ELEMENTS (state_names), "none");
  return state_names[state];
}

gboolean
adbscope_agent_parse_install_failure (const char  *text,
                                      char       **code,
                                      char       **detail)
{
  const char *p, *end, *colon;

  *code = NULL;
  if (detail)
    *detail = NULL;
  if (text == NULL || (p = strstr (text, "Failure [")) == NULL)
    return FALSE;
  p += 9;
  end = strchr (p, ']');
  if (end == NULL)
    end = p + strcspn (p, "\r\n");
  /* the detail may itself hold ']' (Android's messages do): to the last ']' of the line */
  {
    const char *eol = p + strcspn (p, "\r\n");
    const char *last = NULL;

    for (const char *q = p; q < eol; q++)
      if (*q == ']')
        last = q;
    if (last != NULL)
      end = last;
  }
  colon = memchr (p, ':', end - p);
  *code = _adbscope_strndup_utf8 (p, (colon ? colon : end) - p);
  g_strstrip (*code);
  if (detail && colon != NULL)
    {
      *detail = _adbscope_strndup_utf8 (colon + 1, end - colon - 1);
      g_strstrip (*detail);
    }
  if (**code == '\0')
    {
      g_clear_pointer (code, g_free);
      if (detail)
        g_clear_pointer (detail, g_free);
      return FALSE;
    }
  return TRUE;
}

int
adbscope_agent_parse_sdk (const char *text)
{
  guint64 v;
  const char *s, *e;

  if (text == NULL)
    return -1;
  s = text;
  while (g_ascii_isspace (*s))
    s++;
  e = s;
  while (g_ascii_isdigit (*e))
    e++;
  if (e == s || !_adbscope_parse_u64 (s, e - s, &v) || v > 1000)
    return -1;
  return (int) v;
}

void
adbscope_private_dns_clear (AdbscopePrivateDns *dns)
{
  g_clear_pointer (&dns->mode, g_free);
  g_clear_pointer (&dns->specifier, g_free);
}

gboolean
adbscope_private_dns_hides_lookups (const AdbscopePrivateDns *dns)
{
  return g_strcmp0 (dns->mode, "hostname") == 0;
}

/* A settings value: "null" (unset) is NULL. */
static char *
settings_value (const char *line,
                gsize       len)
{
  const char *end = line + len;
  const char *s = _adbscope_skip_spaces (line, end);

  while (end > s && g_ascii_isspace (end[-1]))
    end--;
  if (end == s || (end - s == 4 && memcmp (s, "null", 4) == 0))
    return NULL;
  return _adbscope_strndup_utf8 (s, end - s);
}

gboolean
adbscope_agent_parse_private_dns (const char         *text,
                                  gssize              len,
                                  AdbscopePrivateDns *out)
{
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;
  g_autofree char *sdk = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *spec = NULL;
  guint n = 0;
  guint64 v;

  memset (out, 0, sizeof *out);
  out->sdk = -1;
  if (text == NULL)
    return FALSE;
  if (len < 0)
    len = strlen (text);
  _adbscope_line_iter_init (&iter, text, len);
  while (n < 3 && _adbscope_line_iter_next (&iter, &line, &line_len))
    {
      char *value = settings_value (line, line_len);

      if (n == 0)
        sdk = value;
      else if (n == 1)
        mode = value;
      else
        spec = value;
      n++;
    }
  if (n < 2)
    return FALSE;
  if (sdk != NULL && _adbscope_parse_u64 (sdk, strlen (sdk), &v) && v < 1000)
    out->sdk = (int) v;
  out->is_default = mode == NULL;
  if (out->sdk >= 0 && out->sdk < 28)
    out->mode = g_strdup ("off");             /* Android 8 has no Private DNS */
  else if (mode == NULL || g_str_equal (mode, "opportunistic"))
    out->mode = g_strdup ("opportunistic");   /* "Automatic", the default since Android 9 */
  else if (g_str_equal (mode, "off") || g_str_equal (mode, "hostname"))
    out->mode = g_strdup (mode);
  else
    out->mode = g_strdup ("opportunistic");   /* a value this version does not know */
  if (g_str_equal (out->mode, "hostname") && spec != NULL)
    out->specifier = g_steal_pointer (&spec);
  return TRUE;
}

void
adbscope_agent_service_state_clear (AdbscopeAgentServiceState *state)
{
  g_clear_pointer (&state->package, g_free);
  g_clear_pointer (&state->error_code, g_free);
  g_clear_pointer (&state->reason, g_free);
  g_clear_pointer (&state->selftest, g_free);
}

static char *
describe_error (const char *code)
{
  guint64 n;

  if (code == NULL || *code == '\0')
    return g_strdup (_("The agent reported an error."));
  if (g_str_equal (code, "package_not_found"))
    return g_strdup (_("The app to capture is not installed on the phone."));
  if (g_str_equal (code, "vpn_not_allowed"))
    return g_strdup (_("Android does not allow the agent's VPN on this phone (a device policy or a managed "
                       "profile may forbid VPNs)."));
  if (g_str_equal (code, "always_on_vpn"))
    return g_strdup (_("Another app's VPN is set to “Always-on” on the phone, so the agent's VPN cannot start. "
                       "Turn “Always-on VPN” off for that app in the phone's VPN settings, then try again."));
  if (g_str_equal (code, "vpn_setup_failed"))
    return g_strdup (_("Android refused to set up the agent's VPN."));
  if (g_str_equal (code, "engine_start"))
    return g_strdup (_("The agent's capture engine could not start on the phone."));
  if (g_str_equal (code, "network_not_supported"))
    return g_strdup (_("The simulated device has no network on this machine (docs/sim.md says what it needs)."));
  if (g_str_equal (code, "agent_binary_missing"))
    return g_strdup (_("The simulated device cannot find its agent program (adbscope-agent-linux)."));
  if (g_str_equal (code, "agent_spawn_failed"))
    return g_strdup (_("The simulated device could not start its agent program."));
  if (g_str_has_prefix (code, "agent_exit_") && _adbscope_parse_u64 (code + 11, strlen (code + 11), &n))
    return g_strdup_printf (_("The agent's engine exited (status %u) before it was ready."), (guint) n);
  return g_strdup_printf (_("The agent reported the error “%s”."), code);
}

char *
adbscope_agent_state_describe (AdbscopeAgentState  state,
                               const char         *error_code,
                               const char         *reason)
{
  g_autofree char *text = NULL;

  switch (state)
    {
    case ADBSCOPE_AGENT_STATE_NONE:
      text = g_strdup (_("The agent has not run since the phone started."));
      break;
    case ADBSCOPE_AGENT_STATE_WAITING_CONSENT:
      text = g_strdup (_("The agent is waiting for its VPN request to be accepted on the phone. Only one VPN "
                         "can run at a time: accepting it turns off any other VPN the phone uses."));
      break;
    case ADBSCOPE_AGENT_STATE_RUNNING:
      text = g_strdup (_("The agent is capturing."));
      break;
    case ADBSCOPE_AGENT_STATE_CONSENT_DENIED:
      text = g_strdup (_("The agent's VPN request was refused on the phone."));
      break;
    case ADBSCOPE_AGENT_STATE_STOPPED:
      text = g_strdup (_("The agent is stopped."));
      break;
    case ADBSCOPE_AGENT_STATE_ERROR:
    default:
      text = describe_error (error_code);
      break;
    }
  if (reason != NULL && *reason != '\0')
    return g_strdup_printf (_("%s (Android said: %s)"), text, reason);
  return g_steal_pointer (&text);
}

/* The agent writes reason= and selftest= values with every byte outside
 * 0x21-0x7E and every '%' as %XX (docs/agent-protocol.md); older lines and
 * the simulated device may write them plain.  Decodes %XX where both
 * digits are hex, keeps anything else as it is, and returns valid UTF-8. */
static char *
decode_value (const char *p,
              gsize       len)
{
  g_autofree char *raw = g_malloc (len + 1);
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    if (p[i] == '%' && i + 2 < len
        && g_ascii_isxdigit (p[i + 1]) && g_ascii_isxdigit (p[i + 2]))
      {
        raw[n++] = (char) (g_ascii_xdigit_value (p[i + 1]) << 4 | g_ascii_xdigit_value (p[i + 2]));
        i += 2;
      }
    else
      raw[n++] = p[i];
  return _adbscope_strndup_utf8 (raw, n);
}

/* "reason=TEXT": TEXT may hold spaces; it ends at the next known key
 * (package=, version=, selftest=) or the end of the line.  NULL if absent
 * or empty. */
static char *
find_reason (const char *line,
             const char *end)
{
  static const char *const keys[] = { " package=", " version=", " selftest=", " state=" };
  const char *start = NULL, *stop = end;

  for (const char *p = line; p + 7 <= end; p++)
    if ((p == line || p[-1] == ' ') && memcmp (p, "reason=", 7) == 0)
      {
        start = p + 7;
        break;
      }
  if (start == NULL)
    return NULL;
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      gsize klen = strlen (keys[k]);

      for (const char *p = start; p + klen <= stop; p++)
        if (memcmp (p, keys[k], klen) == 0)
          {
            stop = p;
            break;
          }
    }
  while (stop > start && g_ascii_isspace (stop[-1]))
    stop--;
  if (stop == start)
    return NULL;
  return decode_value (start, stop - start);
}

/* No state line (the service never ran: "No services match", or nothing)
 * is ADBSCOPE_AGENT_STATE_NONE; a state line we cannot read is an error. */
gboolean
adbscope_agent_parse_service_state (const char                *text,
                                    gssize                     len,
                                    AdbscopeAgentServiceState *out,
                                    GError                   **error)
{
  static const char marker[] = "adbscope-agent state=";
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  memset (out, 0, sizeof *out);
  out->version_code = -1;
  if (text == NULL)
    return TRUE;
  if (len < 0)
    len = strlen (text);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      const char *end = line + line_len;
      const char *s = _adbscope_skip_spaces (line, end);
      const char *v;
      gsize vlen;
      guint i;

      if (!_adbscope_has_prefix_len (s, end - s, marker))
        continue;
      find_key (s, end - s, "state", &v, &vlen);
      if (vlen > 6 && memcmp (v, "error:", 6) == 0)
        {
          out->state = ADBSCOPE_AGENT_STATE_ERROR;
          out->error_code = _adbscope_strndup_utf8 (v + 6, vlen - 6);
        }
      else
        {
          for (i = 1; i < G_N_ELEMENTS (state_names); i++)
            if (i != ADBSCOPE_AGENT_STATE_ERROR && strlen (state_names[i]) == vlen
                && memcmp (state_names[i], v, vlen) == 0)
              break;
          if (i == G_N_ELEMENTS (state_names))
            {
              g_autofree char *bad = _adbscope_strndup_utf8 (v, MIN (vlen, 64));

              g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                           _("The agent reports an unknown state “%s”"), bad);
              return FALSE;
            }
          out->state = i;
        }
      if (find_key (s, end - s, "package", &v, &vlen) && vlen > 0)
        out->package = _adbscope_strndup_utf8 (v, vlen);
      if (find_key (s, end - s, "selftest", &v, &vlen) && vlen > 0)
        out->selftest = decode_value (v, vlen);
      out->reason = find_reason (s, end);
      if (find_key (s, end - s, "version", &v, &vlen))
        {
          gint64 code;

          if (_adbscope_parse_i64 (v, vlen, &code) && code >= 0)
            out->version_code = code;
        }
      return TRUE;
    }
  return TRUE;
}

/* Lines: "SERIAL tcp:PORT localabstract:NAME". */
int
adbscope_agent_parse_forward_list (const char *text,
                                   const char *serial,
                                   const char *socket_name)
{
  g_auto(GStrv) lines = NULL;
  g_autofree char *remote = NULL;

  if (text == NULL)
    return -1;
  remote = g_strconcat ("localabstract:", socket_name, NULL);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " \t", -1);
      guint64 port;

      if (g_strv_length (f) != 3 || !g_str_equal (f[0], serial) || !g_str_equal (f[2], remote)
          || !g_str_has_prefix (f[1], "tcp:"))
        continue;
      if (_adbscope_parse_u64 (f[1] + 4, strlen (f[1] + 4), &port) && port > 0 && port < 65536)
        return (int) port;
    }
  return -1;
}
