/* adbscope-parse-grep.h: split the fast loop's `grep -H '' FILES…` output
 *
 * Every output line is "PATH:LINE".  Paths never contain ':', so the first
 * ':' separates them; LINE may hold more ':' (meminfo, status).  A file that
 * does not exist simply does not appear.  Each file's content is its lines
 * in order, each ending with '\n', ready for the adbscope_proc_parse_*
 * functions.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AdbscopeGrepOutput AdbscopeGrepOutput;

AdbscopeGrepOutput *adbscope_grep_output_parse       (const char          *text,
                                                      gssize               len,
                                                      GError             **error);
void                adbscope_grep_output_free        (AdbscopeGrepOutput  *self);

guint               adbscope_grep_output_get_n_files (AdbscopeGrepOutput  *self);
const char         *adbscope_grep_output_get_path    (AdbscopeGrepOutput  *self,
                                                      guint                i);
const char         *adbscope_grep_output_get_content (AdbscopeGrepOutput  *self,
                                                      guint                i);
const char         *adbscope_grep_output_lookup      (AdbscopeGrepOutput  *self,
                                                      const char          *path);
GPtrArray          *adbscope_grep_output_find        (AdbscopeGrepOutput  *self,
                                                      const char          *glob);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeGrepOutput, adbscope_grep_output_free)

G_END_DECLS
