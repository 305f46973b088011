/* adbscope-parse-ps.h: `ps` tables (toybox `ps -A [-T] [-o …]`, legacy toolbox `ps`)
 *
 * Columns are found from the header, not by position: which columns exist
 * depends on the Android version and on -o, and a long value (SELinux
 * label, WCHAN) pushes the rest of its row to the right.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int     pid;
  int     tid;        /* -1 without a TID column */
  int     ppid;       /* -1 without a PPID column */
  char    state;      /* S/STAT column's first letter, '\0' without one */
  gint64  rss_kb;     /* -1 without an RSS column */
  gint64  vsz_kb;     /* -1 without a VSZ/VSIZE column */
  char   *user;       /* NULL without a USER column */
  char   *label;      /* NULL without a LABEL column */
  char   *name;       /* NAME/CMD/ARGS/COMM…, or the last column; may hold blanks */
  char  **fields;     /* one per column, "" when blank */
} AdbscopePsRow;

typedef struct
{
  char     **columns;      /* header names, upper case as printed */
  guint      n_columns;
  GPtrArray *rows;         /* AdbscopePsRow* in output order */
  guint      n_skipped;    /* rows without a numeric PID */
} AdbscopePsTable;

AdbscopePsTable *adbscope_ps_parse              (const char       *text,
                                                 gssize            len,
                                                 GError          **error);
int              adbscope_ps_table_find_column  (AdbscopePsTable  *table,
                                                 const char       *name);
void             adbscope_ps_table_free         (AdbscopePsTable  *table);

/* A process whose parent in @table has the same name: a fork that has not
 * exec'd yet (a shell's child before its command runs, Runtime.exec()
 * between fork and exec), not a process of its own.  FALSE without a PPID
 * column. */
gboolean         adbscope_ps_table_is_fork_child (AdbscopePsTable     *table,
                                                  const AdbscopePsRow *row);

/* Removes ANSI/VT100 escape sequences (top without -b) in place; returns
 * the new length. */
gsize            adbscope_strip_ansi            (char             *text,
                                                 gsize             len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopePsTable, adbscope_ps_table_free)

G_END_DECLS
