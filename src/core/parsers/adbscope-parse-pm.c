/* adbscope-parse-pm.c: `pm list packages` lines
 *
 *   package:com.x
 *   package:/data/app/~~a==/com.x-b==/base.apk=com.x
 *   package:com.x uid:10123
 *   package:/path/base.apk=com.x uid:10123,1010123   (multi-user)
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-pm.h"
#include "adbscope-parse-util-private.h"
#include "adbscope-validate.h"

void
adbscope_pm_package_free (AdbscopePmPackage *pkg)
{
  if (pkg == NULL)
    return;
  g_free (pkg->package);
  g_free (pkg->apk_path);
  g_free (pkg);
}

GPtrArray *
adbscope_pm_parse_list_packages (const char  *text,
                                 gssize       len,
                                 GError     **error)
{
  g_autoptr(GPtrArray) pkgs = NULL;
  AdbscopeLineIter iter;
  const char *line;
  gsize line_len;

  if (text != NULL && len == 0)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_pm_package_free);
  if (text != NULL && len < 0 && text[0] == '\0')
    return g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_pm_package_free);
  /* No packages (for example -3 on a bare device) prints nothing. */
  if (!_adbscope_parse_check_input (text, &len, "pm list packages", error))
    return NULL;

  pkgs = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_pm_package_free);
  _adbscope_line_iter_init (&iter, text, len);
  while (_adbscope_line_iter_next (&iter, &line, &line_len))
    {
      g_autoptr(AdbscopePmPackage) pkg = NULL;
      const char *end = line + line_len;
      const char *p, *field_end, *eq, *name;

      while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
      if (end == line)
        continue;
      if (!_adbscope_has_prefix_len (line, end - line, "package:"))
        {
          /* "Error: …", "Exception …", "java.lang.SecurityException: …" */
          g_autofree char *msg = _adbscope_strndup_utf8 (line, MIN ((gsize) (end - line), 200));

          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("pm list packages: unexpected line %u: %s"), iter.line_no, msg);
          return NULL;
        }

      p = line + strlen ("package:");
      field_end = _adbscope_skip_token (p, end);
      /* With -f an apk path comes first; paths may contain '=' ("~~a==/"),
       * the package name never does, so split on the LAST '='. */
      eq = NULL;
      for (name = field_end; name > p; name--)
        if (name[-1] == '=')
          {
            eq = name - 1;
            break;
          }
      pkg = g_new0 (AdbscopePmPackage, 1);
      pkg->uid = -1;
      pkg->version_code = -1;
      if (eq != NULL)
        {
          pkg->apk_path = _adbscope_strndup_utf8 (p, eq - p);
          name = eq + 1;
        }
      else
        name = p;
      if (name == field_end)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                       _("pm list packages: line %u has no package name"), iter.line_no);
          return NULL;
        }
      pkg->package = _adbscope_strndup_utf8 (name, field_end - name);
      pkg->valid_name = adbscope_package_name_is_valid (pkg->package);

      /* Optional "uid:N[,N…]", "installer=X", "versionCode:N" follow. */
      for (p = _adbscope_skip_spaces (field_end, end); p < end; p = _adbscope_skip_spaces (field_end, end))
        {
          field_end = _adbscope_skip_token (p, end);
          if (_adbscope_has_prefix_len (p, field_end - p, "uid:"))
            {
              const char *num = p + 4;
              const char *comma = memchr (num, ',', field_end - num);
              guint64 uid;

              if (!_adbscope_parse_u64 (num, (comma ? comma : field_end) - num, &uid) || uid > G_MAXINT32)
                {
                  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                               _("pm list packages: bad uid on line %u"), iter.line_no);
                  return NULL;
                }
              pkg->uid = (gint64) uid;
            }
          else if (_adbscope_has_prefix_len (p, field_end - p, "versionCode:"))
            {
              guint64 code;

              if (!_adbscope_parse_u64 (p + 12, field_end - p - 12, &code) || code > G_MAXINT64)
                {
                  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                               _("pm list packages: bad versionCode on line %u"), iter.line_no);
                  return NULL;
                }
              pkg->version_code = (gint64) code;
            }
        }
      g_ptr_array_add (pkgs, g_steal_pointer (&pkg));
    }
  return g_steal_pointer (&pkgs);
}
