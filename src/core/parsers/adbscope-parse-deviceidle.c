/* adbscope-parse-deviceidle.c: `dumpsys deviceidle` → struct */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "adbscope-error.h"
#include "adbscope-parse-deviceidle.h"
#include "adbscope-parse-dumpsys-private.h"

static const char * const deep_names[] = {
  "ACTIVE", "INACTIVE", "IDLE_PENDING", "SENSING", "LOCATING", "IDLE",
  "IDLE_MAINTENANCE", "QUICK_DOZE_DELAY",
};

static const char * const light_names[] = {
  "ACTIVE", "INACTIVE", "PRE_IDLE", "IDLE", "WAITING_FOR_NETWORK",
  "IDLE_MAINTENANCE", "OVERRIDE",
};

#define FIELD(f) G_STRUCT_OFFSET (AdbscopeDeviceidle, f)
static const struct
{
  const char *key;
  gssize      offset;
} bool_keys[] = {
  { "mScreenOn", FIELD (screen_on) },
  { "mCharging", FIELD (charging) },
  { "mScreenLocked", FIELD (screen_locked) },
  { "mLightEnabled", FIELD (light_enabled) },
  { "mDeepEnabled", FIELD (deep_enabled) },
  { "mForceIdle", FIELD (force_idle) },
};
#undef FIELD

void
adbscope_deviceidle_free (AdbscopeDeviceidle *idle)
{
  if (idle == NULL)
    return;
  g_free (idle->deep_state_name);
  g_free (idle->light_state_name);
  g_ptr_array_unref (idle->whitelist_system_except_idle);
  g_ptr_array_unref (idle->whitelist_system);
  g_ptr_array_unref (idle->whitelist_user);
  g_free (idle);
}

static int
lookup (const char * const *names,
        guint               n,
        const char         *name)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], name) == 0)
      return (int) i;
  return -1;
}

/* "mState=ACTIVE mLightState=ACTIVE", "mLightEnabled=false  mDeepEnabled=false" */
static gboolean
parse_assignments (AdbscopeDeviceidle *idle,
                   const char         *t)
{
  g_auto(GStrv) words = g_strsplit_set (t, " \t", -1);
  gboolean any = FALSE;

  for (guint i = 0; words[i] != NULL; i++)
    {
      char *eq = strchr (words[i], '=');
      const char *value;

      if (eq == NULL)
        continue;
      *eq = '\0';
      value = eq + 1;

      if (strcmp (words[i], "mState") == 0)
        {
          g_free (idle->deep_state_name);
          idle->deep_state_name = _adbscope_dup_valid (value, -1);
          idle->deep_state = lookup (deep_names, G_N_ELEMENTS (deep_names), value);
          any = TRUE;
        }
      else if (strcmp (words[i], "mLightState") == 0)
        {
          g_free (idle->light_state_name);
          idle->light_state_name = _adbscope_dup_valid (value, -1);
          idle->light_state = lookup (light_names, G_N_ELEMENTS (light_names), value);
          any = TRUE;
        }
      else
        for (guint k = 0; k < G_N_ELEMENTS (bool_keys); k++)
          if (strcmp (words[i], bool_keys[k].key) == 0)
            {
              int *flag = &G_STRUCT_MEMBER (int, idle, bool_keys[k].offset);

              *flag = strcmp (value, "true") == 0 ? 1 : strcmp (value, "false") == 0 ? 0 : -1;
              any = TRUE;
            }
    }
  return any;
}

/* Older builds say "Whitelist", newer ones may say "Allowlist". */
static GPtrArray *
whitelist_for_header (AdbscopeDeviceidle *idle,
                      const char         *t)
{
  const char *rest;

  if ((rest = _adbscope_after_prefix (t, "Whitelist ")) == NULL &&
      (rest = _adbscope_after_prefix (t, "Allowlist ")) == NULL)
    return NULL;
  if (strcmp (rest, "(except idle) system apps:") == 0)
    return idle->whitelist_system_except_idle;
  if (strcmp (rest, "system apps:") == 0)
    return idle->whitelist_system;
  if (strcmp (rest, "user apps:") == 0)
    return idle->whitelist_user;
  return NULL;
}

AdbscopeDeviceidle *
adbscope_deviceidle_parse (const char  *text,
                           gssize       len,
                           GError     **error)
{
  g_autoptr(AdbscopeDeviceidle) idle = NULL;
  AdbscopeLines lines;
  GPtrArray *list = NULL;
  gboolean any_text = FALSE;
  char *line;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  idle = g_new0 (AdbscopeDeviceidle, 1);
  idle->deep_state = ADBSCOPE_DEEP_IDLE_UNKNOWN;
  idle->light_state = ADBSCOPE_LIGHT_IDLE_UNKNOWN;
  for (guint k = 0; k < G_N_ELEMENTS (bool_keys); k++)
    G_STRUCT_MEMBER (int, idle, bool_keys[k].offset) = -1;
  idle->whitelist_system_except_idle = g_ptr_array_new_with_free_func (g_free);
  idle->whitelist_system = g_ptr_array_new_with_free_func (g_free);
  idle->whitelist_user = g_ptr_array_new_with_free_func (g_free);

  _adbscope_lines_init (&lines, text, len);
  while ((line = _adbscope_lines_next (&lines)) != NULL)
    {
      const char *t = _adbscope_skip_space (line);
      GPtrArray *header_list;

      if (*t == '\0')
        continue;
      any_text = TRUE;
      if (!_adbscope_check_common_errors (t, error))
        {
          _adbscope_lines_clear (&lines);
          return NULL;
        }
      if (_adbscope_lines_is_cut (&lines, line))
        break;

      if ((header_list = whitelist_for_header (idle, t)) != NULL)
        {
          list = header_list;
          continue;
        }
      /* List items are bare package names; anything else ends the list. */
      if (list != NULL && strpbrk (t, ":= \t") == NULL)
        {
          g_ptr_array_add (list, _adbscope_dup_valid (t, -1));
          continue;
        }
      list = NULL;

      if (t[0] == 'm')
        parse_assignments (idle, t);
    }
  _adbscope_lines_clear (&lines);

  if (idle->deep_state_name == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   !any_text
                   ? _("The deviceidle output is empty")
                   : _("The deviceidle output has no “mState=” line"));
      return NULL;
    }

  return g_steal_pointer (&idle);
}

static gboolean
list_has (GPtrArray  *list,
          const char *package)
{
  for (guint i = 0; i < list->len; i++)
    if (strcmp (g_ptr_array_index (list, i), package) == 0)
      return TRUE;
  return FALSE;
}

AdbscopeDeviceidleWhitelist
adbscope_deviceidle_whitelist (const AdbscopeDeviceidle *idle,
                               const char               *package)
{
  AdbscopeDeviceidleWhitelist w = ADBSCOPE_DEVICEIDLE_WHITELIST_NONE;

  g_return_val_if_fail (idle != NULL, w);
  g_return_val_if_fail (package != NULL, w);

  if (list_has (idle->whitelist_system_except_idle, package))
    w |= ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM_EXCEPT_IDLE;
  if (list_has (idle->whitelist_system, package))
    w |= ADBSCOPE_DEVICEIDLE_WHITELIST_SYSTEM;
  if (list_has (idle->whitelist_user, package))
    w |= ADBSCOPE_DEVICEIDLE_WHITELIST_USER;
  return w;
}

/* Deep or light Doze restricts the app right now. */
gboolean
adbscope_deviceidle_is_dozing (const AdbscopeDeviceidle *idle)
{
  g_return_val_if_fail (idle != NULL, FALSE);

  return idle->deep_state == ADBSCOPE_DEEP_IDLE_IDLE ||
         idle->light_state == ADBSCOPE_LIGHT_IDLE_IDLE;
}
