/* adbscope-meminfo-collector.h: `dumpsys meminfo PKG` every meminfo interval (2 s) */
#pragma once

#include "adbscope-collector.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_MEMINFO_COLLECTOR (adbscope_meminfo_collector_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeMeminfoCollector, adbscope_meminfo_collector, ADBSCOPE, MEMINFO_COLLECTOR, AdbscopeCollector)

/* kB; NaN where this Android version does not print the number. */
typedef struct
{
  int    pid;
  char  *name;          /* "PKG:remote" */
  double pss_kb;
} AdbscopeProcessPss;

typedef struct
{
  gint64 time_us;
  gint64 pid;
  double total_pss_kb;
  double total_rss_kb;
  double swap_pss_kb;
  double java_heap_kb;
  double native_heap_kb;
  double code_kb;
  double stack_kb;
  double graphics_kb;
  double private_other_kb;
  double system_kb;
  GArray *processes;    /* AdbscopeProcessPss of the app's other (PKG:name) processes, or NULL */
} AdbscopeMeminfoSample;

AdbscopeMeminfoCollector *adbscope_meminfo_collector_new    (const char  *serial,
                                                             const char  *package);

void                      adbscope_meminfo_collector_set_other_processes (AdbscopeMeminfoCollector *self,
                                                                          const char * const       *names);

G_END_DECLS
