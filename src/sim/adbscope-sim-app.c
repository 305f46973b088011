/* adbscope-sim-app.c: the demo app of the simulated device
 *
 * `adbscope sim-app --profile NAME --state-dir DIR PKG`, started by the
 * device with argv[0] = PKG through a symlink named like Android's comm.
 * It behaves like a small app so every collector has something real to
 * measure:
 *  - threads RenderThread, HeapTaskDaemon and "OkHttp Dispatch" (comm is
 *    15 characters at most) beside the main thread, which keeps the comm
 *    Android gives an app's main thread (the package's last 15 characters);
 *  - CPU phases cycling idle → scrolling → busy;
 *  - native and Java-heap memory that grows slowly (really allocated and
 *    touched) with a periodic "GC";
 *  - a frame loop on RenderThread at the profile's refresh rate with an
 *    occasional jank frame that really takes 2–3 frame intervals and
 *    records its cause.
 * Its live state is a shared mmap (adbscope-sim-app-state.h) that the fake
 * dumpsys reads, so "Total frames rendered" is the real count.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "adbscope-sim.h"
#include "adbscope-sim-app-state.h"
#include "adbscope-sim-app-traffic.h"
#include "adbscope-sim-profile.h"

#define PHASE_IDLE_S      5
#define PHASE_SCROLLING_S 5
#define PHASE_BUSY_S      4
#define JAVA_SPACE        (64 * 1024 * 1024)
#define JAVA_CAP          (40 * 1024 * 1024)
#define NATIVE_CAP        (96 * 1024 * 1024)
#define NATIVE_CHUNK      (256 * 1024)

typedef struct
{
  AdbscopeSimAppState *state;
  pthread_mutex_t      lock;
  int                  refresh_hz;
  volatile int         phase;
  guint8              *java_space;
  gsize                java_used;
  GPtrArray           *native_chunks;
  gboolean             game;
  int                  startup_ms;
} App;

static App app;
/* SIGRTMIN+1 stops drawing (a static screen), SIGRTMIN+2 resumes
 * (SIGUSR1 asks for a traffic round). */
static volatile sig_atomic_t drawing = 1;

static void
on_drawing_signal (int sig)
{
  drawing = sig == SIGRTMIN + 2;
}

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static void
sleep_until (gint64 ns)
{
  struct timespec ts = { ns / 1000000000, ns % 1000000000 };

  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

/* Real CPU work for `ns` nanoseconds of wall time. */
static void
burn (gint64 ns)
{
  gint64 end = now_ns () + ns;
  volatile guint32 x = 1;

  while (now_ns () < end)
    for (int i = 0; i < 2000; i++)
      x = x * 1664525u + 1013904223u;
}

static void
state_begin (void)
{
  pthread_mutex_lock (&app.lock);
  __atomic_add_fetch (&app.state->seq, 1, __ATOMIC_RELEASE);
  __atomic_thread_fence (__ATOMIC_RELEASE);
}

static void
state_end (void)
{
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_add_fetch (&app.state->seq, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&app.lock);
}

static int
hist_index (gint64 ms)
{
  for (int i = ADBSCOPE_SIM_APP_HIST - 1; i >= 0; i--)
    if (ms >= adbscope_sim_hist_bucket_ms (i))
      return i;
  return 0;
}

static int
gpu_index (gint64 ms)
{
  if (ms < 1)
    return 0;
  return ms <= 25 ? (int) ms - 1 : ADBSCOPE_SIM_APP_GPU_HIST - 1;
}

static gpointer
render_thread (gpointer data)
{
  gint64 interval = G_GINT64_CONSTANT (1000000000) / app.refresh_hz;
  gint64 next = now_ns () + interval;
  gint64 next_jank = now_ns () + g_random_int_range (1500, 3500) * G_GINT64_CONSTANT (1000000);
  gint64 vsync_id = 27432918;
  gint64 next_hitch = now_ns () + g_random_int_range (3000, 6000) * G_GINT64_CONSTANT (1000000);
  gboolean first = TRUE;

  /* A game engine's render thread instead of HWUI's */
  prctl (PR_SET_NAME, app.game ? "UnityGfxDeviceW" : "RenderThread");
  /* Application.onCreate and the first layout before the first frame:
   * busy half the time. */
  burn ((gint64) app.startup_ms * 500000);
  g_usleep ((gulong) app.startup_ms * 500);
  next = now_ns () + interval;
  next_jank = now_ns () + g_random_int_range (1500, 3500) * G_GINT64_CONSTANT (1000000);
  for (;;)
    {
      AdbscopeSimFrame f = { 0 };
      AdbscopeSimJankCause cause = ADBSCOPE_SIM_JANK_NONE;
      int phase = app.phase;
      gint64 work = phase == ADBSCOPE_SIM_PHASE_IDLE ? 200000
                    : phase == ADBSCOPE_SIM_PHASE_SCROLLING ? 1200000 : 2000000;
      gint64 t0, ui_done, duration, gpu_ms;

      sleep_until (next);
      t0 = now_ns ();
      if (!drawing)
        {
          /* Nothing changes on screen: no frame at all, as on a phone. */
          state_begin ();
          app.state->drawing = 0;
          state_end ();
          next += interval * (1 + MAX (0, now_ns () - next) / interval);
          continue;
        }
      if (app.game && t0 >= next_hitch)
        {
          /* A game's hitch (shader compile, asset load): 100–160 ms. */
          work = g_random_int_range (100, 161) * G_GINT64_CONSTANT (1000000);
          next_hitch = t0 + g_random_int_range (4000, 7000) * G_GINT64_CONSTANT (1000000);
          next_jank = MAX (next_jank, t0 + 500 * G_GINT64_CONSTANT (1000000));
        }
      else if (t0 >= next_jank)
        {
          /* A frame that really takes 2–3 intervals, with a cause. */
          work = interval * 2 + g_random_int_range (2, 8) * interval / 10;
          cause = (AdbscopeSimJankCause) g_random_int_range (ADBSCOPE_SIM_JANK_SLOW_UI,
                                                             ADBSCOPE_SIM_JANK_SLOW_BITMAP + 1);
          next_jank = t0 + g_random_int_range (2000, 4500) * G_GINT64_CONSTANT (1000000);
        }

      f.flags = first ? 1 : 0;
      f.vsync_id = vsync_id;
      f.intended_vsync = next;
      f.vsync = next;
      f.frame_interval = interval;
      f.frame_deadline = next + 2 * interval;
      f.frame_start_time = t0;
      f.handle_input_start = t0 + 3000;
      f.animation_start = t0 + 4500;
      /* UI-thread half of the work (input, animation, traversal) */
      burn (cause == ADBSCOPE_SIM_JANK_SLOW_UI ? work - work / 8 : work / 2);
      /* waiting on the RenderThread hand-off: time, not CPU */
      g_usleep (g_random_int_range (300, 1200 + phase * 900));
      ui_done = now_ns ();
      f.perform_traversals_start = f.animation_start + (ui_done - f.animation_start) / 3;
      f.draw_start = ui_done;
      f.sync_queued = ui_done + 40000;
      f.sync_start = ui_done + 90000;
      f.issue_draw_commands_start = ui_done + 160000;
      /* RenderThread half: draw commands, bitmap uploads */
      burn (cause == ADBSCOPE_SIM_JANK_SLOW_UI ? work / 8 : work - work / 2);
      f.swap_buffers = now_ns ();
      f.dequeue_buffer_duration = g_random_int_range (12000, 32000);
      f.queue_buffer_duration = g_random_int_range (150000, 360000);
      f.frame_completed = f.swap_buffers + f.queue_buffer_duration + 20000;
      f.command_submission_completed = f.swap_buffers;
      gpu_ms = g_random_int_range (2, 5);
      f.gpu_completed = f.frame_completed + gpu_ms * 100000;
      f.swap_buffers_completed = f.frame_completed + 700000;
      f.display_present_time = next + 2 * interval;
      f.cause = cause;
      duration = f.frame_completed - f.intended_vsync;

      state_begin ();
      {
        AdbscopeSimAppState *s = app.state;
        gint64 ms = duration / 1000000;
        /* On screen at the first vsync after the buffer is ready, one
         * latch later: on time that is its desired present. */
        gint64 k = MAX (1, (f.frame_completed - next + interval - 1) / interval);
        AdbscopeSimSfFrame sf = {
          .desired_present = next + interval,
          .actual_present = next + k * interval,
          .frame_ready = f.frame_completed,
        };

        s->drawing = 1;
        s->sf_frames[s->sf_presented % ADBSCOPE_SIM_SF_RING] = sf;
        s->sf_presented++;
        if (app.game)
          goto done;   /* a SurfaceView: HWUI never sees these frames */
        s->frames[s->total_frames % ADBSCOPE_SIM_APP_RING] = f;
        s->total_frames++;
        s->histogram[hist_index (ms)]++;
        s->gpu_histogram[gpu_index (gpu_ms)]++;
        if (f.frame_completed > f.frame_deadline)
          {
            s->janky_frames++;
            s->deadline_missed++;
          }
        if (duration > 16666666)
          {
            s->janky_legacy++;
            s->deadline_missed_legacy++;
          }
        if (cause == ADBSCOPE_SIM_JANK_SLOW_UI)
          s->slow_ui_thread++;
        else if (cause == ADBSCOPE_SIM_JANK_SLOW_DRAW)
          s->slow_issue_draw++;
        else if (cause == ADBSCOPE_SIM_JANK_SLOW_BITMAP)
          s->slow_bitmap_uploads++;
      done:
        s->phase = (guint32) phase;
      }
      first = FALSE;
      vsync_id += 8;

      /* The next vsync after now: missed ones are dropped, as on a phone. */
      next += interval;
      {
        gint64 now = now_ns ();

        if (now > next)
          {
            gint64 missed = (now - next) / interval + 1;

            next += missed * interval;
            vsync_id += 8 * missed;
            if (!app.game)
              app.state->missed_vsync += (guint64) missed;
          }
      }
      state_end ();
    }
  return NULL;
}

static void
publish_memory (void)
{
  gint64 native = (gint64) app.native_chunks->len * (NATIVE_CHUNK / 1024);
  gint64 java = (gint64) app.java_used / 1024;

  state_begin ();
  app.state->native_heap_alloc = native;
  app.state->native_heap_size = native + native / 6 + 2048;
  app.state->java_heap_alloc = java;
  app.state->java_heap_size = MIN ((gint64) JAVA_SPACE / 1024, java + java / 2 + 8192);
  state_end ();
}

static void
grow_native (void)
{
  guint8 *chunk = malloc (NATIVE_CHUNK);

  if (chunk == NULL)
    return;
  memset (chunk, 0x5a, NATIVE_CHUNK);
  g_ptr_array_add (app.native_chunks, chunk);
}

static void
grow_java (gsize bytes)
{
  gsize end = MIN (app.java_used + bytes, (gsize) JAVA_SPACE);

  memset (app.java_space + app.java_used, 0x3c, end - app.java_used);
  app.java_used = end;
}

static gpointer
heap_thread (gpointer data)
{
  prctl (PR_SET_NAME, "HeapTaskDaemon");
  for (;;)
    {
      g_usleep (G_USEC_PER_SEC);
      /* about 256 KiB native and 192 KiB Java per second */
      if (app.native_chunks->len * NATIVE_CHUNK < NATIVE_CAP)
        grow_native ();
      else
        g_ptr_array_remove_range (app.native_chunks, 0, app.native_chunks->len / 2);
      grow_java (192 * 1024);
      if (app.java_used >= JAVA_CAP)
        {
          /* "GC": the upper part of the heap is released */
          gsize keep = app.java_used * 2 / 5;

          madvise (app.java_space + keep, app.java_used - keep, MADV_DONTNEED);
          app.java_used = keep;
          burn (30 * 1000000);
        }
      publish_memory ();
    }
  return NULL;
}

static gpointer
network_thread (gpointer data)
{
  prctl (PR_SET_NAME, "OkHttp Dispatcher");
  for (;;)
    {
      if (app.phase == ADBSCOPE_SIM_PHASE_BUSY)
        {
          burn (15 * 1000000);
          g_usleep (85 * 1000);
        }
      else
        g_usleep (200 * 1000);
    }
  return NULL;
}

static void
free_native_chunk (gpointer p)
{
  free (p);
}

/* The process shows as just PKG in /proc/PID/cmdline, as zygote makes it. */
static void
rename_process (int         argc,
                char      **argv,
                const char *package)
{
  char *start = argv[0];
  char *end = argv[argc - 1] + strlen (argv[argc - 1]);
  gsize len = strlen (package);

  if ((gsize) (end - start) < len)
    return;
  memset (start, 0, end - start);
  memcpy (start, package, len);
}

int
adbscope_sim_app_main (int    argc,
                       char **argv)
{
  const AdbscopeSimProfile *profile = NULL;
  g_autofree char *state_dir = NULL;
  g_autofree char *package = NULL;
  g_autofree char *state_path = NULL;
  g_autofree char *tmp_path = NULL;
  g_autofree char *java_path = NULL;
  gint64 phase_start;
  int startup_ms = 0;
  gboolean network = FALSE, manual = FALSE;
  int fd;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--profile") && i + 1 < argc)
        profile = adbscope_sim_profile_lookup (argv[++i]);
      else if (g_str_equal (argv[i], "--state-dir") && i + 1 < argc)
        state_dir = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--game"))
        app.game = TRUE;
      else if (g_str_equal (argv[i], "--startup-ms") && i + 1 < argc)
        startup_ms = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--network"))
        network = TRUE;
      else if (g_str_equal (argv[i], "--traffic") && i + 1 < argc)
        manual = g_str_equal (argv[++i], "manual");
      else if (argv[i][0] != '-')
        package = g_strdup (argv[i]);
    }
  if (profile == NULL || state_dir == NULL || package == NULL)
    {
      fprintf (stderr, "usage: adbscope sim-app --profile NAME --state-dir DIR [--network [--traffic manual]] [--game] [--startup-ms MS] PKG (started by adbscope sim)\n");
      return 2;
    }

  /* argv[-1] is "adbscope" … the whole block from main's argv[0] on. */
  rename_process (argc + 1, argv - 1, package);

  app.refresh_hz = profile->refresh_hz;
  app.native_chunks = g_ptr_array_new_with_free_func (free_native_chunk);
  pthread_mutex_init (&app.lock, NULL);

  /* Created aside and renamed in, so readers never see half a file. */
  state_path = g_strdup_printf ("%s/%s.state", state_dir, package);
  tmp_path = g_strdup_printf ("%s/.%s.state.%d", state_dir, package, getpid ());
  fd = open (tmp_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ftruncate (fd, sizeof (AdbscopeSimAppState)) != 0)
    {
      perror ("sim-app: state file");
      return 1;
    }
  app.state = mmap (NULL, sizeof (AdbscopeSimAppState), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  if (app.state == MAP_FAILED)
    {
      perror ("sim-app: mmap");
      return 1;
    }
  app.state->magic = ADBSCOPE_SIM_APP_STATE_MAGIC;
  app.state->version = ADBSCOPE_SIM_APP_STATE_VERSION;
  app.state->pid = getpid ();
  app.state->refresh_hz = app.refresh_hz;
  app.state->stats_since_ns = now_ns ();
  app.state->views = 42;
  app.state->game = app.game;
  app.state->drawing = 1;
  rename (tmp_path, state_path);
  signal (SIGRTMIN + 1, on_drawing_signal);
  signal (SIGRTMIN + 2, on_drawing_signal);

  /* The Java heap is a file mapping named like ART's, so the fake meminfo
   * can tell it apart in /proc/PID/smaps. */
  java_path = g_strdup_printf ("%s/dalvik-main space (region space).%d", state_dir, getpid ());
  fd = open (java_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0 && ftruncate (fd, JAVA_SPACE) == 0)
    app.java_space = mmap (NULL, JAVA_SPACE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (fd >= 0)
    close (fd);
  g_unlink (java_path);
  if (app.java_space == NULL || app.java_space == MAP_FAILED)
    {
      perror ("sim-app: java heap");
      return 1;
    }
  for (int i = 0; i < 32; i++)
    grow_native ();
  grow_java (6 * 1024 * 1024);
  publish_memory ();

  app.startup_ms = startup_ms;
  g_thread_unref (g_thread_new ("RenderThread", render_thread, NULL));
  g_thread_unref (g_thread_new ("HeapTaskDaemon", heap_thread, NULL));
  g_thread_unref (g_thread_new ("OkHttp", network_thread, NULL));
  if (network)
    adbscope_sim_app_traffic_start (state_dir, manual);

  /* Main thread: the phase clock and the UI thread's own share of CPU. */
  phase_start = now_ns ();
  for (;;)
    {
      gint64 t = (now_ns () - phase_start) / 1000000000 % (PHASE_IDLE_S + PHASE_SCROLLING_S + PHASE_BUSY_S);
      int phase = t < PHASE_IDLE_S ? ADBSCOPE_SIM_PHASE_IDLE
                  : t < PHASE_IDLE_S + PHASE_SCROLLING_S ? ADBSCOPE_SIM_PHASE_SCROLLING
                  : ADBSCOPE_SIM_PHASE_BUSY;

      app.phase = phase;
      if (phase == ADBSCOPE_SIM_PHASE_IDLE)
        g_usleep (20 * 1000);
      else
        {
          burn (phase == ADBSCOPE_SIM_PHASE_BUSY ? 3 * 1000000 : 1500 * 1000);
          g_usleep (17 * 1000);
        }
    }
  return 0;
}
