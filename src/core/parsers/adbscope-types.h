/* adbscope-types.h: forward declarations, enums and small structs shared
 * across the core and its users (the GUI reads these, never a collector's
 * header).  It sits with the parsers, the lowest layer, because they use
 * them too. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _AdbscopeShell         AdbscopeShell;
typedef struct _AdbscopeDevice        AdbscopeDevice;
typedef struct _AdbscopeDeviceMonitor AdbscopeDeviceMonitor;

typedef enum
{
  ADBSCOPE_DEVICE_STATE_UNKNOWN,
  ADBSCOPE_DEVICE_STATE_DEVICE,
  ADBSCOPE_DEVICE_STATE_UNAUTHORIZED,
  ADBSCOPE_DEVICE_STATE_AUTHORIZING,
  ADBSCOPE_DEVICE_STATE_OFFLINE,
  ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS,
  ADBSCOPE_DEVICE_STATE_RECOVERY,
  ADBSCOPE_DEVICE_STATE_SIDELOAD,
  ADBSCOPE_DEVICE_STATE_BOOTLOADER,
  ADBSCOPE_DEVICE_STATE_HOST,
  ADBSCOPE_DEVICE_STATE_CONNECTING,
} AdbscopeDeviceState;

/* What the probe decides is supported, one by one. */
typedef enum
{
  ADBSCOPE_SOURCE_PSI,
  ADBSCOPE_SOURCE_CPUFREQ,
  ADBSCOPE_SOURCE_THERMAL,
  ADBSCOPE_SOURCE_FRAMES,
  ADBSCOPE_SOURCE_MEMINFO,
  ADBSCOPE_SOURCE_BATTERY,
  ADBSCOPE_SOURCE_DOZE,
  ADBSCOPE_SOURCE_JOBS,
  ADBSCOPE_SOURCE_ALARMS,
  ADBSCOPE_SOURCE_GPU_BUSY,
  ADBSCOPE_SOURCE_GPU_FREQ,
  ADBSCOPE_N_SOURCES,
} AdbscopeSource;

/* Where a sample's FPS came from. */
typedef enum
{
  ADBSCOPE_FRAMES_SOURCE_NONE,
  ADBSCOPE_FRAMES_SOURCE_GFXINFO,          /* HWUI: what the UI toolkit drew */
  ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER,   /* present times of the app's layer */
} AdbscopeFramesSource;

/* Why a sample's FPS is 0 (or there is none). */
typedef enum
{
  ADBSCOPE_FRAMES_ZERO_NONE,
  ADBSCOPE_FRAMES_ZERO_NOT_RUNNING,        /* no process of the app */
  ADBSCOPE_FRAMES_ZERO_NOT_FOREGROUND,     /* running, but no layer of it on screen */
  ADBSCOPE_FRAMES_ZERO_STATIC,             /* on screen, nothing drawn: a static screen */
  ADBSCOPE_FRAMES_ZERO_UNREADABLE,         /* its layers keep no frame history we can read */
} AdbscopeFramesZeroReason;

/* gfxinfo's jank counters (adbscope_jank_cause_to_key() names them). */
typedef enum
{
  ADBSCOPE_JANK_MISSED_VSYNC,
  ADBSCOPE_JANK_HIGH_INPUT_LATENCY,
  ADBSCOPE_JANK_SLOW_UI_THREAD,
  ADBSCOPE_JANK_SLOW_BITMAP_UPLOADS,
  ADBSCOPE_JANK_SLOW_ISSUE_DRAW_COMMANDS,
  ADBSCOPE_JANK_FRAME_DEADLINE_MISSED,
  ADBSCOPE_JANK_N_CAUSES,
} AdbscopeJankCause;

/* One process of the watched package (the package or PKG:suffix), from ps. */
typedef struct
{
  int     pid;
  char   *name;
  gint64  rss_kb;   /* -1 unknown */
} AdbscopeAppProcess;

/* One network interface's rates over the last interval. */
typedef struct
{
  char   name[32];
  double rx_bytes_per_s;
  double tx_bytes_per_s;
} AdbscopeNetRate;

G_END_DECLS
