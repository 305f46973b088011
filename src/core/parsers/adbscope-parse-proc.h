/* adbscope-parse-proc.h: pure parsers for /proc text
 *
 * All functions take (text, len) with len < 0 for NUL-terminated text; a
 * NULL text (the file did not appear in the grep -H output) is a parse
 * error.  Ticks are USER_HZ clock ticks (100 per second on Android).
 */
#pragma once

#include <glib.h>

#include "adbscope-parse-grep.h"

G_BEGIN_DECLS

#define ADBSCOPE_USER_HZ 100

/* /proc/uptime */
gboolean adbscope_proc_parse_uptime (const char  *text,
                                     gssize       len,
                                     double      *uptime_s,
                                     double      *idle_s,
                                     GError     **error);

/* /proc/stat */
typedef enum
{
  ADBSCOPE_CPU_TICK_USER,
  ADBSCOPE_CPU_TICK_NICE,
  ADBSCOPE_CPU_TICK_SYSTEM,
  ADBSCOPE_CPU_TICK_IDLE,
  ADBSCOPE_CPU_TICK_IOWAIT,
  ADBSCOPE_CPU_TICK_IRQ,
  ADBSCOPE_CPU_TICK_SOFTIRQ,
  ADBSCOPE_CPU_TICK_STEAL,
  ADBSCOPE_CPU_TICK_N,
} AdbscopeCpuTick;

typedef struct
{
  int     cpu;                          /* -1 for the aggregate "cpu" line */
  guint   n_fields;                     /* fields the kernel printed (4..10) */
  guint64 ticks[ADBSCOPE_CPU_TICK_N];   /* missing fields are 0; guest time is already in user/nice */
} AdbscopeCpuTicks;

typedef struct
{
  AdbscopeCpuTicks  total;
  GArray           *cpus;            /* AdbscopeCpuTicks sorted by cpu; offline cores are absent */
  gboolean          has_ctxt;
  guint64           ctxt;
  gboolean          has_procs_running;
  guint64           procs_running;
} AdbscopeProcStat;

AdbscopeProcStat *adbscope_proc_parse_stat (const char        *text,
                                            gssize             len,
                                            GError           **error);
void              adbscope_proc_stat_free  (AdbscopeProcStat  *stat);
const AdbscopeCpuTicks *adbscope_proc_stat_lookup_cpu (const AdbscopeProcStat *stat,
                                                       int                     cpu);
guint64           adbscope_cpu_ticks_sum   (const AdbscopeCpuTicks *ticks);


/* /proc/meminfo, all kB */
typedef struct
{
  guint64  mem_total_kb;
  guint64  mem_free_kb;
  gboolean has_mem_available;   /* FALSE before Linux 3.14: the field does not exist */
  guint64  mem_available_kb;
  guint64  buffers_kb;
  guint64  cached_kb;
  guint64  swap_total_kb;
  guint64  swap_free_kb;
} AdbscopeProcMeminfo;

gboolean adbscope_proc_parse_meminfo (const char           *text,
                                      gssize                len,
                                      AdbscopeProcMeminfo  *out,
                                      GError              **error);

/* /proc/net/dev */
typedef struct
{
  char    name[32];
  guint64 rx_bytes;
  guint64 rx_packets;
  guint64 tx_bytes;
  guint64 tx_packets;
} AdbscopeNetDev;

GArray  *adbscope_proc_parse_net_dev (const char  *text,
                                      gssize       len,
                                      GError     **error);

/* /proc/pressure/{cpu,memory,io} */
typedef struct
{
  gboolean present;
  double   avg10;
  double   avg60;
  double   avg300;
  guint64  total_us;
} AdbscopePressureLine;

typedef struct
{
  AdbscopePressureLine some;
  AdbscopePressureLine full;   /* absent in /proc/pressure/cpu before Linux 5.13 */
} AdbscopePressure;

gboolean adbscope_proc_parse_pressure (const char        *text,
                                       gssize             len,
                                       AdbscopePressure  *out,
                                       GError           **error);

/* /proc/PID/stat and /proc/PID/task/TID/stat */
#define ADBSCOPE_COMM_MAX 64

typedef struct
{
  int     pid;
  char    state;
  int     ppid;
  guint64 utime;       /* ticks */
  guint64 stime;       /* ticks */
  gint64  num_threads;
  guint64 starttime;   /* ticks after boot; identifies a process across samples */
  guint64 vsize;       /* bytes */
  gint64  rss_pages;
  char    comm[ADBSCOPE_COMM_MAX + 1];
} AdbscopePidStat;

gboolean adbscope_proc_parse_pid_stat   (const char       *text,
                                         gssize            len,
                                         AdbscopePidStat  *out,
                                         GError          **error);
GArray  *adbscope_proc_parse_task_stats (const char       *text,
                                         gssize            len,
                                         GError          **error);
GArray  *adbscope_proc_task_stats_from_grep (AdbscopeGrepOutput  *grep_output,
                                             int                  pid,
                                             GError             **error);


/* /proc/PID/status */
typedef struct
{
  char    name[ADBSCOPE_COMM_MAX + 1];
  char    state;
  int     tgid;
  int     pid;
  int     ppid;
  gint64  vm_rss_kb;   /* -1 when absent (kernel threads) */
  gint64  vm_swap_kb;  /* -1 when absent */
  gint64  threads;
  gint64  uid;         /* real uid; -1 when absent */
} AdbscopePidStatus;

gboolean adbscope_proc_parse_pid_status (const char         *text,
                                         gssize              len,
                                         AdbscopePidStatus  *out,
                                         GError            **error);

/* /proc/cpuinfo */
typedef struct
{
  guint      n_processors;
  char      *hardware;        /* "Hardware" line, NULL when absent */
  char      *model_name;      /* "Processor" (old ARM) or "model name" */
  GPtrArray *cpu_parts;       /* n_processors strings ("0xd03"), NULL entries when unknown */
} AdbscopeCpuinfo;

AdbscopeCpuinfo *adbscope_proc_parse_cpuinfo (const char       *text,
                                              gssize            len,
                                              GError          **error);
void             adbscope_cpuinfo_free       (AdbscopeCpuinfo  *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeProcStat, adbscope_proc_stat_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeCpuinfo, adbscope_cpuinfo_free)

G_END_DECLS
