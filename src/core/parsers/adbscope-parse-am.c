/* adbscope-parse-am.c: am start -W, resolve-activity, logcat Displayed */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-am.h"
#include "adbscope-parse-util-private.h"

void
adbscope_am_start_free (AdbscopeAmStart *start)
{
  if (start == NULL)
    return;
  g_free (start->launch_state);
  g_free (start->activity);
  g_free (start->warning);
  g_free (start);
}

static gboolean
take_ms (const char *line,
         gsize       len,
         const char *key,
         gint64     *out)
{
  gsize n = strlen (key);
  const char *p;

  if (!_adbscope_has_prefix_len (line, len, key))
    return FALSE;
  p = _adbscope_skip_spaces (line + n, line + len);
  return _adbscope_parse_i64 (p, line + len - p, out);
}

static char *
value_after (const char *line,
             gsize       len,
             const char *key)
{
  const char *p = _adbscope_skip_spaces (line + strlen (key), line + len);
  const char *end = line + len;

  while (end > p && g_ascii_isspace (end[-1]))
    end--;
  return _adbscope_strndup_utf8 (p, end - p);
}

/* An "Error:" line (the intent did not resolve, a bad component) is a
 * PACKAGE_NOT_FOUND; output without any "Status:" or times is PARSE. */
AdbscopeAmStart *
adbscope_am_start_parse (const char  *text,
                         gssize       len,
                         GError     **error)
{
  g_autoptr(AdbscopeAmStart) st = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize n;
  gboolean seen = FALSE;

  if (!_adbscope_parse_check_input (text, &len, "am start", error))
    return NULL;
  st = g_new0 (AdbscopeAmStart, 1);
  st->total_ms = st->wait_ms = st->this_ms = -1;
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &n))
    {
      const char *p = _adbscope_skip_spaces (line, line + n);

      n -= p - line;
      line = p;
      if (_adbscope_has_prefix_len (line, n, "Error:") || _adbscope_has_prefix_len (line, n, "Error type"))
        {
          g_autofree char *msg = _adbscope_strndup_utf8 (line, n);

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND, "%s", msg);
          return NULL;
        }
      if (_adbscope_has_prefix_len (line, n, "Warning:") && st->warning == NULL)
        st->warning = _adbscope_strndup_utf8 (line, n);
      else if (_adbscope_has_prefix_len (line, n, "Status:"))
        {
          g_autofree char *v = value_after (line, n, "Status:");

          st->ok = g_strcmp0 (v, "ok") == 0;
          st->timed_out = g_strcmp0 (v, "timeout") == 0;
          seen = TRUE;
        }
      else if (_adbscope_has_prefix_len (line, n, "LaunchState:"))
        st->launch_state = value_after (line, n, "LaunchState:");
      else if (_adbscope_has_prefix_len (line, n, "Activity:"))
        st->activity = value_after (line, n, "Activity:");
      else
        seen |= take_ms (line, n, "TotalTime:", &st->total_ms) |
                take_ms (line, n, "WaitTime:", &st->wait_ms) |
                take_ms (line, n, "ThisTime:", &st->this_ms);
    }
  if (!seen)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("am start printed no launch status"));
      return NULL;
    }
  return g_steal_pointer (&st);
}

/* `cmd package resolve-activity --brief PKG`: the last line is PKG/ACTIVITY;
 * "No activity found" when the package has no launcher activity. */
char *
adbscope_resolve_activity_parse (const char  *text,
                                 gssize       len,
                                 const char  *package,
                                 GError     **error)
{
  AdbscopeLineIter iter;
  const char *line;
  gsize n;
  char *component = NULL;

  if (!_adbscope_parse_check_input (text, &len, "resolve-activity", error))
    return NULL;
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &n))
    {
      g_autofree char *l = g_strstrip (_adbscope_strndup_utf8 (line, n));
      gsize plen = strlen (package);

      if (strncmp (l, package, plen) == 0 && l[plen] == '/' && l[plen + 1] != '\0' && strchr (l, ' ') == NULL)
        {
          g_free (component);
          component = g_steal_pointer (&l);
        }
    }
  if (component == NULL)
    g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,
                 _("%s has no activity to start"), package);
  return component;
}

/* "+1s234ms", "+456ms", "+1m2s3ms" → ms, or -1 */
static gint64
parse_plus_duration (const char *p)
{
  gint64 total = 0;
  gboolean any = FALSE;

  if (*p != '+')
    return -1;
  p++;
  while (g_ascii_isdigit (*p))
    {
      gint64 v = 0;

      while (g_ascii_isdigit (*p))
        v = v * 10 + (*p++ - '0');
      if (g_str_has_prefix (p, "ms"))
        total += v, p += 2;
      else if (*p == 's')
        total += v * 1000, p++;
      else if (*p == 'm')
        total += v * 60000, p++;
      else
        return -1;
      any = TRUE;
    }
  return any ? total : -1;
}

/* The newest "Displayed PKG/ACTIVITY: +1s234ms" (ActivityManager, or
 * ActivityTaskManager since 10) in a logcat dump, in ms; -1 when none. */
gint64
adbscope_logcat_displayed_ms (const char *text,
                              gssize      len,
                              const char *package)
{
  g_autofree char *needle = g_strconcat ("Displayed ", package, "/", NULL);
  AdbscopeLineIter iter;
  const char *line;
  gsize n;
  gint64 ms = -1;

  if (text == NULL || package == NULL)
    return -1;
  if (len < 0)
    len = strlen (text);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &n))
    {
      g_autofree char *l = _adbscope_strndup_utf8 (line, n);
      const char *d = strstr (l, needle);
      const char *plus;

      if (d == NULL || (plus = strstr (d, ": +")) == NULL)
        continue;
      ms = parse_plus_duration (plus + 2);
    }
  return ms;
}
