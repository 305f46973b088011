/* adbscope-parse-meminfo.h: `dumpsys meminfo [PKG]` → structs
 *
 * Pure: text in, plain structs out.  Reads every layout from Android 4.3
 * (Pss/Shared Dirty/Private Dirty) to 13+ (Rss columns, App Summary with
 * Pss and Rss), one or many "** MEMINFO in pid" blocks, and the system-wide
 * totals at the end of a plain `dumpsys meminfo`.  All sizes are KiB;
 * a number the layout does not print is ADBSCOPE_MEMINFO_UNKNOWN (-1).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_MEMINFO_UNKNOWN (-1)

/* The App Summary rows (Android 6+). */
typedef enum
{
  ADBSCOPE_MEMINFO_JAVA_HEAP,
  ADBSCOPE_MEMINFO_NATIVE_HEAP,
  ADBSCOPE_MEMINFO_CODE,
  ADBSCOPE_MEMINFO_STACK,
  ADBSCOPE_MEMINFO_GRAPHICS,
  ADBSCOPE_MEMINFO_PRIVATE_OTHER,
  ADBSCOPE_MEMINFO_SYSTEM,
  ADBSCOPE_MEMINFO_UNKNOWN_CATEGORY, /* Rss only, 11+ */
  ADBSCOPE_MEMINFO_N_CATEGORIES,
} AdbscopeMeminfoCategory;

/* One row of the main table; values[i] belongs to columns[i]. */
typedef struct
{
  char   *label;  /* "Native Heap", ".so mmap", "TOTAL", … */
  gint64 *values; /* n_columns entries, -1 where the row is short */
} AdbscopeMeminfoRow;

typedef struct
{
  gint64     pid;
  char      *package;

  /* The table as printed, columns named from its two header lines:
   * "Pss Total", "Private Dirty", "SwapPss Dirty", "Rss Total",
   * "Heap Size", … (4.3: "Pss", "Shared Dirty", …). */
  GStrv      columns;
  guint      n_columns;
  GPtrArray *rows;               /* AdbscopeMeminfoRow */

  gint64     total_pss_kb;       /* always known for a returned process */
  gint64     total_rss_kb;       /* 11+ */
  gint64     total_swap_kb;      /* 4.4+: swapped dirty, swap, or SwapPss */
  gboolean   swap_is_pss;        /* total_swap_kb is SwapPss (9+) */

  gint64     summary_pss_kb[ADBSCOPE_MEMINFO_N_CATEGORIES]; /* App Summary, 6+ */
  gint64     summary_rss_kb[ADBSCOPE_MEMINFO_N_CATEGORIES]; /* App Summary, 11+ */

  gint64     native_heap_size_kb;
  gint64     native_heap_alloc_kb;
  gint64     native_heap_free_kb;
  gint64     dalvik_heap_size_kb;
  gint64     dalvik_heap_alloc_kb;
  gint64     dalvik_heap_free_kb;

  /* Objects */
  gint64     views;
  gint64     view_root_impl;
  gint64     app_contexts;
  gint64     activities;
  gint64     assets;
  gint64     asset_managers;
  gint64     local_binders;
  gint64     proxy_binders;
  gint64     parcel_memory_kb;
  gint64     parcel_count;
  gint64     death_recipients;
  gint64     openssl_sockets;
  gint64     webviews;
} AdbscopeMeminfoProcess;

/* System-wide totals printed after all processes by a plain
 * `dumpsys meminfo`. */
typedef struct
{
  gboolean present;
  gint64   total_ram_kb;
  char    *status;               /* "normal", "moderate", …, or NULL */
  gint64   free_ram_kb;
  gint64   used_ram_kb;
  gint64   lost_ram_kb;
  gint64   zram_physical_kb;     /* ZRAM line, -1 when absent */
  gint64   zram_swap_used_kb;
  gint64   zram_swap_total_kb;
} AdbscopeMeminfoSystem;

typedef struct
{
  gint64                 uptime_ms;
  gint64                 realtime_ms;
  GPtrArray             *processes;    /* AdbscopeMeminfoProcess */
  guint                  n_incomplete; /* blocks cut before their TOTAL, dropped */
  AdbscopeMeminfoSystem  system;
} AdbscopeMeminfo;

AdbscopeMeminfo        *adbscope_meminfo_parse        (const char                   *text,
                                                       gssize                        len,
                                                       GError                      **error);
void                    adbscope_meminfo_free         (AdbscopeMeminfo              *info);
AdbscopeMeminfoProcess *adbscope_meminfo_find_process (const AdbscopeMeminfo        *info,
                                                       const char                   *package);
int                     adbscope_meminfo_process_find_column (const AdbscopeMeminfoProcess *process,
                                                              const char                   *name);
const AdbscopeMeminfoRow *adbscope_meminfo_process_find_row  (const AdbscopeMeminfoProcess *process,
                                                              const char                   *label);
gint64                  adbscope_meminfo_process_get_cell    (const AdbscopeMeminfoProcess *process,
                                                              const char                   *row,
                                                              const char                   *column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeMeminfo, adbscope_meminfo_free)

G_END_DECLS
