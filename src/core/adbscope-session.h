/* adbscope-session.h: everything known about one app on one device, over time */
#pragma once

#include <gio/gio.h>

#include "adbscope-probe.h"
#include "adbscope-series.h"
#include "adbscope-network.h"
#include "adbscope-plausible.h"
#include "adbscope-screenshot.h"
#include "adbscope-types.h"
#include "adbscope-frames-summary.h"

G_BEGIN_DECLS

/* Every time series the session keeps: (ID, report path, unit).  A
 * compile-time list, so the gap filler, the CSV and the report walk the
 * same table and a new series cannot be forgotten by any of them.
 */
#define ADBSCOPE_SERIES_TABLE(X) \
  X (CPU_SYSTEM,         "cpu.system_pct",             "%")    \
  X (CPU_SYSTEM_NORM,    "cpu.system_norm_pct",        "%")    \
  X (CPU_APP,            "cpu.app_pct",                "%")    \
  X (CPU_APP_NORM,       "cpu.app_norm_pct",           "%")    \
  X (APP_THREADS,        "app.threads",                "")     \
  X (MEM_APP_RSS,        "memory.app_rss_kb",          "kB")   \
  X (MEM_APP_SWAP,       "memory.app_swap_kb",         "kB")   \
  X (MEM_APP_PSS,        "memory.app_pss_kb",          "kB")   \
  X (MEM_JAVA_HEAP,      "memory.java_heap_kb",        "kB")   \
  X (MEM_NATIVE_HEAP,    "memory.native_heap_kb",      "kB")   \
  X (MEM_CODE,           "memory.code_kb",             "kB")   \
  X (MEM_STACK,          "memory.stack_kb",            "kB")   \
  X (MEM_GRAPHICS,       "memory.graphics_kb",         "kB")   \
  X (MEM_PRIVATE_OTHER,  "memory.private_other_kb",    "kB")   \
  X (MEM_SYSTEM,         "memory.system_kb",           "kB")   \
  X (MEM_APP_PSS_SWAP,   "memory.app_swap_pss_kb",     "kB")   \
  X (MEM_SYS_AVAILABLE,  "memory.system_available_kb", "kB")   \
  X (MEM_SYS_SWAP_USED,  "memory.system_swap_used_kb", "kB")   \
  X (PSI_SOME,           "memory.psi_some_avg10",      "%")    \
  X (PSI_FULL,           "memory.psi_full_avg10",      "%")    \
  X (FPS,                "frames.fps",                 "fps")  \
  X (FPS_GFXINFO,        "frames.gfxinfo_fps",         "fps")  \
  X (FPS_SURFACEFLINGER, "frames.surfaceflinger_fps",  "fps")  \
  X (JANKY_INTERVAL,     "frames.janky_interval_pct",  "%")    \
  X (GPU_BUSY,           "gpu.busy_pct",               "%")    \
  X (GPU_FREQ,           "gpu.freq_mhz",               "MHz")  \
  X (NET_RX,             "network.rx_bytes_per_s",     "B/s")  \
  X (NET_TX,             "network.tx_bytes_per_s",     "B/s")  \
  X (NET_APP_RX,         "network.app_rx_bytes_per_s", "B/s")  \
  X (NET_APP_TX,         "network.app_tx_bytes_per_s", "B/s")  \
  X (BATTERY_LEVEL,      "power.battery_level_pct",    "%")    \
  X (BATTERY_TEMP,       "power.battery_temp_c",       "°C")   \
  X (BATTERY_VOLTAGE,    "power.voltage_mv",           "mV")   \
  X (BATTERY_CURRENT,    "power.current_ma",           "mA")   \
  X (POWER,              "power.power_mw",             "mW")   \
  X (THERMAL_STATUS,     "thermal.status",             "")     \
  X (THERMAL_MAX_TEMP,   "thermal.max_temp_c",         "°C")

typedef enum
{
#define ADBSCOPE_SERIES_ENUM(id, path, unit) ADBSCOPE_SERIES_##id,
  ADBSCOPE_SERIES_TABLE (ADBSCOPE_SERIES_ENUM)
#undef ADBSCOPE_SERIES_ENUM
  ADBSCOPE_N_SERIES
} AdbscopeSeriesId;

const char *adbscope_series_id_get_path (AdbscopeSeriesId id);
const char *adbscope_series_id_get_unit (AdbscopeSeriesId id);

typedef struct
{
  gint64  time_us;
  char   *label;
} AdbscopeMarker;

typedef struct
{
  gint64 start_us;
  gint64 end_us;     /* 0 while the gap lasts */
} AdbscopeGap;

/* A gap: this many configured intervals or more between two fast samples. */
#define ADBSCOPE_GAP_INTERVALS 3

gboolean adbscope_gap_between (gint64        before_us,
                               gint64        after_us,
                               guint         interval_ms);
GArray  *adbscope_gaps_find   (const gint64 *times_us,
                               guint         n,
                               guint         interval_ms);

/* One process of the app, from its first to its last fast sample. */
typedef struct
{
  gint64 pid;
  guint64 starttime;
  gint64 first_us;
  gint64 last_us;
} AdbscopeProcessSpan;

/* adb lost the device: from the first failed command to the next fast
 * sample (end_us 0 while it lasts). */
typedef struct
{
  gint64  start_us;
  gint64  end_us;
  char   *reason;
} AdbscopeDeviceLoss;

/* Frame counters summed over the frames samples that had a rate.
 * `frames` and `janky` count each interval's frames from the source its
 * FPS came from (SurfaceFlinger's presented frames, or HWUI's "Total
 * frames rendered"); the rest are gfxinfo's own counters. */
typedef struct
{
  gint64   frames;
  gint64   janky;
  gboolean unattributed;      /* a recording that does not say which source an
                               * interval's frames came from: frames, janky unknown */
  gint64   gfx_frames;        /* gfxinfo: Δ "Total frames rendered" */
  gint64   gfx_janky;         /* gfxinfo: Δ "Janky frames" */
  gint64   over_deadline;     /* of the frames with a frame time */
  gint64   causes[ADBSCOPE_JANK_N_CAUSES];
  gboolean has_cause[ADBSCOPE_JANK_N_CAUSES];
} AdbscopeFrameTotals;

/* The slow loop's latest word on the app and the device; NULL and -1
 * where it has not said (yet). */
typedef struct
{
  GArray  *processes;         /* AdbscopeAppProcess; NULL before the first ps */
  char    *doze_deep;
  char    *doze_light;
  char    *standby_bucket;
  gint64   jobs;
  gint64   jobs_running;
  gint64   alarms_pending;
  gint64   alarm_wakeups;
} AdbscopeSystemState;

AdbscopeSystemState *adbscope_system_state_copy (const AdbscopeSystemState *state);
void                 adbscope_system_state_free (AdbscopeSystemState       *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeSystemState, adbscope_system_state_free)

#define ADBSCOPE_TYPE_SESSION (adbscope_session_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeSession, adbscope_session, ADBSCOPE, SESSION, GObject)

AdbscopeSession           *adbscope_session_new                 (const char       *serial,
                                                                 const char       *package);
const char                *adbscope_session_get_serial          (AdbscopeSession  *self);
const char                *adbscope_session_get_package         (AdbscopeSession  *self);
void                       adbscope_session_set_interval        (AdbscopeSession  *self,
                                                                 guint             interval_ms);
guint                      adbscope_session_get_interval        (AdbscopeSession  *self);
guint                      adbscope_session_get_meminfo_interval (AdbscopeSession *self);
void                       adbscope_session_set_meminfo_interval (AdbscopeSession *self,
                                                                 guint             interval_ms);
void                       adbscope_session_set_history         (AdbscopeSession  *self,
                                                                 guint             seconds);
void                       adbscope_session_start_async         (AdbscopeSession  *self,
                                                                 GCancellable     *cancellable,
                                                                 GAsyncReadyCallback callback,
                                                                 gpointer          user_data);
gboolean                   adbscope_session_start_finish        (AdbscopeSession  *self,
                                                                 GAsyncResult     *result,
                                                                 GError          **error);
void                       adbscope_session_stop                (AdbscopeSession  *self);
gboolean                   adbscope_session_is_running          (AdbscopeSession  *self);

const AdbscopeProbeResult *adbscope_session_get_probe           (AdbscopeSession  *self);
AdbscopeSeries            *adbscope_session_get_series          (AdbscopeSession  *self,
                                                                 AdbscopeSeriesId  id);
guint                      adbscope_session_get_n_cores         (AdbscopeSession  *self);
AdbscopeSeries            *adbscope_session_get_core_series     (AdbscopeSession  *self,
                                                                 guint             core);
GListModel                *adbscope_session_get_threads         (AdbscopeSession  *self);
AdbscopeNetwork           *adbscope_session_get_network         (AdbscopeSession  *self);
const AdbscopeMarker      *adbscope_session_add_marker          (AdbscopeSession  *self,
                                                                 const char       *label);
const GArray              *adbscope_session_get_markers         (AdbscopeSession  *self);
const GArray              *adbscope_session_get_gaps            (AdbscopeSession  *self);
const GArray              *adbscope_session_get_device_losses   (AdbscopeSession  *self);
const GArray              *adbscope_session_get_process_spans   (AdbscopeSession  *self);
gboolean                   adbscope_session_is_device_lost      (AdbscopeSession  *self);
const GArray              *adbscope_session_get_frame_times     (AdbscopeSession  *self);
const AdbscopeFrameTotals *adbscope_session_get_frame_totals    (AdbscopeSession  *self);
const AdbscopeSystemState *adbscope_session_get_system_state    (AdbscopeSession  *self);
const double              *adbscope_session_get_core_freqs      (AdbscopeSession  *self,
                                                                 guint            *n_cores);
const GArray              *adbscope_session_get_net_rates       (AdbscopeSession  *self);
GDateTime                 *adbscope_session_get_start_time      (AdbscopeSession  *self);
gint64                     adbscope_session_get_start_us        (AdbscopeSession  *self);
gint64                     adbscope_session_get_last_sample_us  (AdbscopeSession  *self);
guint64                    adbscope_session_get_n_samples       (AdbscopeSession  *self);
double                     adbscope_session_get_measured_interval_ms (AdbscopeSession *self);
guint                      adbscope_session_get_restarts        (AdbscopeSession  *self);
const GArray              *adbscope_session_get_pids            (AdbscopeSession  *self);
double                     adbscope_session_get_refresh_rate    (AdbscopeSession  *self);
const AdbscopeFramesSummary *adbscope_session_get_frames_summary (AdbscopeSession *self);
GPtrArray                 *adbscope_session_get_app_processes  (AdbscopeSession  *self);
typedef struct _AdbscopeRecording AdbscopeRecording;

void                       adbscope_session_set_recording       (AdbscopeSession  *self,
                                                                 AdbscopeRecording *recording);
AdbscopeRecording         *adbscope_session_get_recording       (AdbscopeSession  *self);

void                       adbscope_session_set_screenshots     (AdbscopeSession  *self,
                                                                 gboolean          enabled,
                                                                 guint             interval_ms);
gboolean                   adbscope_session_get_screenshots_enabled (AdbscopeSession *self,
                                                                 guint            *interval_ms);
GPtrArray                 *adbscope_session_get_screenshots     (AdbscopeSession  *self);
guint                      adbscope_session_get_screenshots_skipped (AdbscopeSession *self);
guint                      adbscope_session_get_implausible (AdbscopeSession     *self,
                                                             AdbscopeImplausible  kind);

typedef struct _AdbscopeRun AdbscopeRun;

AdbscopeSession           *adbscope_session_new_from_run        (const AdbscopeRun *run);
void                       adbscope_session_add_run_details     (AdbscopeSession   *self,
                                                                 const AdbscopeRun *run);

G_END_DECLS
