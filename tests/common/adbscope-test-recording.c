/* adbscope-test-recording.c: a synthetic recording with known values */
#include "config.h"

#include <math.h>

#include "adbscope-core.h"
#include "adbscope-test-recording.h"

guint
adbscope_synth_n_ticks (const AdbscopeSynthRun *run)
{
  return (guint) ((guint64) run->duration_s * 1000 / run->interval_ms);
}

double
adbscope_synth_app_pct (const AdbscopeSynthRun *run,
                        guint                   tick)
{
  return tick == run->spike_tick ? run->spike_value : tick % 100;
}

/* Every other series: a small saw-tooth (i % 7) on a base within what a
 * phone can show for its unit, so a picture of a synthetic run looks like
 * one (no janky share over 100 %, no 400 °C). */
static double
synth_other (const AdbscopeSynthRun *run,
             guint                   id,
             const char             *unit,
             guint                   tick)
{
  double saw = tick % 7;

  if (id == ADBSCOPE_SERIES_THERMAL_STATUS)
    return (tick / 60) % 3;                   /* none, light, moderate */
  if (id == ADBSCOPE_SERIES_FPS_GFXINFO || id == ADBSCOPE_SERIES_FPS_SURFACEFLINGER)
    return run->fps - saw;
  if (g_str_equal (unit, "%"))
    return (id * 7) % 60 + saw;               /* 0–66 % */
  if (g_str_equal (unit, "°C"))
    return 30 + id % 10 + saw;
  if (g_str_equal (unit, "mV"))
    return 3800 + saw;
  if (g_str_equal (unit, "mA"))
    return 200 + 10 * saw;
  if (g_str_equal (unit, "mW"))
    return 800 + 20 * saw;
  if (g_str_equal (unit, "MHz"))
    return 400 + 50 * saw;
  if (g_str_equal (unit, "kB"))
    return 10000 * (id % 8 + 1) + saw;
  if (g_str_equal (unit, "B/s"))
    return 1000 * id + 100 * saw;
  return 20 + saw;                            /* a count: threads */
}

static gboolean
synth_sf_tick (const AdbscopeSynthRun *run,
               guint                   tick)
{
  return run->frames_from == ADBSCOPE_SYNTH_FRAMES_SURFACEFLINGER ||
         (run->frames_from == ADBSCOPE_SYNTH_FRAMES_MIXED && tick % 2 == 1);
}

static void
write_frames (AdbscopeRecording *rec,
              const AdbscopeSynthRun *run,
              guint              tick,
              gint64             t)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, TRUE, sizeof (AdbscopeGfxinfoFrame));
  g_autoptr(GArray) presented = g_array_new (FALSE, TRUE, sizeof (float));
  AdbscopeFramesSample s = { 0 };
  guint n = run->fps * run->interval_ms / 1000;
  gboolean sf = synth_sf_tick (run, tick);

  s.time_us = t;
  s.fps = run->fps;
  s.frames_over_deadline = 0;
  s.has_cause[ADBSCOPE_JANK_MISSED_VSYNC] = TRUE;
  s.sf_fps = NAN;
  if (sf)
    {
      /* HWUI drew nothing; the SurfaceView presented the frames */
      s.source = ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER;
      s.hwui_fps = 0;
      s.sf_fps = run->fps;
      s.sf_layer = (char *) ADBSCOPE_SYNTH_SF_LAYER;
      s.sf_layer_kind = ADBSCOPE_SF_LAYER_SURFACE_VIEW;
      s.sf.new_frames = n;
      s.sf.janky = n > 1 ? 2 : n;
      s.sf.jank = n > 0;
      g_array_set_size (presented, n);
      for (guint k = 0; k < n; k++)
        g_array_index (presented, float, k) = 10 + k % 10;
      s.sf.frame_times_ms = presented;
      adbscope_recording_add_frames (rec, &s);
      return;
    }
  g_array_set_size (frames, n);
  for (guint k = 0; k < n; k++)
    g_array_index (frames, AdbscopeGfxinfoFrame, k).duration_ns = (4 + k % 10) * 1000000;
  s.source = ADBSCOPE_FRAMES_SOURCE_GFXINFO;
  s.hwui_fps = run->fps;
  s.new_frames = n;
  s.new_janky = n > 0;
  s.frames = frames;
  s.new_causes[ADBSCOPE_JANK_MISSED_VSYNC] = n > 0;
  adbscope_recording_add_frames (rec, &s);
}

gboolean
adbscope_synth_write (const char             *path,
                      const AdbscopeSynthRun *run,
                      GError                **error)
{
  g_autoptr(AdbscopeRecording) rec = adbscope_recording_create (path, error);
  g_autoptr(GDateTime) start = g_date_time_new_utc (2026, 1, 2, 3, 4, 5);
  g_autoptr(GArray) usage = g_array_new (FALSE, TRUE, sizeof (AdbscopeThreadUsage));
  g_autoptr(GArray) procs = g_array_new (FALSE, TRUE, sizeof (AdbscopeAppProcess));
  AdbscopeAppProcess proc = { 4242, (char *) "io.github.adbscope.demo", 50000 };
  guint n = adbscope_synth_n_ticks (run);
  gint64 step = (gint64) run->interval_ms * 1000;
  AdbscopeSystemState state = { NULL, (char *) "ACTIVE", (char *) "ACTIVE", (char *) "ACTIVE", 3, 1, 2, 0 };
  /* the live flush stamps "now - origin" as the end so far: start now */
  gint64 origin = g_get_monotonic_time ();

  if (rec == NULL)
    return FALSE;
  {
    /* a device where every source works */
    g_autoptr(AdbscopeProbeResult) probe = g_new0 (AdbscopeProbeResult, 1);
    g_autoptr(JsonObject) device = NULL;
    g_autoptr(JsonObject) sources = NULL;

    probe->model = g_strdup ("Synthetic");
    probe->n_cores = run->n_cores;
    probe->refresh_hz = run->fps;
    probe->page_size = 4096;
    probe->clusters = g_ptr_array_new ();
    for (guint k = 0; k < ADBSCOPE_N_SOURCES; k++)
      probe->supported[k] = TRUE;
    device = adbscope_report_device_object (probe, "synthetic:1");
    sources = adbscope_report_sources_object (probe);
    adbscope_recording_begin (rec, origin, start, "synthetic:1", "io.github.adbscope.demo", run->interval_ms,
                              device, sources);
  }
  g_array_set_size (usage, run->n_threads);
  for (guint j = 0; j < run->n_threads; j++)
    {
      AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, j);

      u->tid = 1000 + j;
      g_snprintf (u->comm, sizeof u->comm, "worker-%u", j);
      u->pct = j % 5;
    }
  g_array_append_val (procs, proc);
  state.processes = procs;

  for (guint i = 0; i < n; i++)
    {
      gint64 rel = (gint64) i * step;
      gint64 t = origin + rel;
      double ts = rel / 1e6;

      adbscope_recording_add_tick (rec, t, i ? run->interval_ms / 1000.0 : NAN, TRUE, 4242);
      for (guint id = 0; id < ADBSCOPE_N_SERIES; id++)
        {
          const char *p = adbscope_series_id_get_path (id);
          const char *u = adbscope_series_id_get_unit (id);
          double v;
          gboolean every_other = g_str_has_prefix (p, "power.") || g_str_has_prefix (p, "thermal.") ||
            (g_str_has_prefix (p, "memory.") && !g_str_has_prefix (p, "memory.app_rss") &&
             !g_str_has_prefix (p, "memory.app_swap_kb") && !g_str_has_prefix (p, "memory.system_") &&
             !g_str_has_prefix (p, "memory.psi"));

          if (every_other && i % 2 != 0)
            continue;
          if (id == ADBSCOPE_SERIES_CPU_APP)
            v = adbscope_synth_app_pct (run, i);
          else if (id == ADBSCOPE_SERIES_CPU_SYSTEM)
            v = 10 + i % 50;
          else if (id == ADBSCOPE_SERIES_MEM_APP_PSS)
            v = 100000 + ts;
          else if (id == ADBSCOPE_SERIES_FPS)
            v = run->fps;
          else if (id == ADBSCOPE_SERIES_FPS_GFXINFO)
            v = synth_sf_tick (run, i) ? 0 : run->fps;
          else if (id == ADBSCOPE_SERIES_FPS_SURFACEFLINGER)
            v = synth_sf_tick (run, i) ? run->fps : NAN;
          else
            v = synth_other (run, id, u, i);
          adbscope_recording_add_sample (rec, p, u, t, v);
        }
      for (guint c = 0; c < run->n_cores; c++)
        {
          g_autofree char *p = g_strdup_printf ("cpu.core%u_pct", c);
          adbscope_recording_add_sample (rec, p, "%", t, (i + c) % 100);
        }
      write_frames (rec, run, i, t);
      adbscope_recording_add_threads (rec, t, usage);
      if (i % 5 == 0)
        adbscope_recording_add_system (rec, t, &state);
      if (i > 0 && (rel / G_USEC_PER_SEC) % ADBSCOPE_SYNTH_MARKER_EVERY_S == 0 && rel % G_USEC_PER_SEC == 0)
        {
          g_autofree char *label = g_strdup_printf ("m%" G_GINT64_FORMAT, rel / G_USEC_PER_SEC);
          adbscope_recording_add_marker (rec, t, label);
        }
      /* one transaction a second, as the live flush does */
      if ((rel + step) / G_USEC_PER_SEC != rel / G_USEC_PER_SEC)
        adbscope_recording_flush (rec);
    }
  return adbscope_recording_close (rec, origin + (gint64) n * step, error);
}

char *
adbscope_test_sqlite3 (const char *path,
                       const char *sql)
{
  const char *argv[] = { "sqlite3", path, sql, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("sqlite3 %s \"%s\" failed: %s", path, sql, err);
  return g_strdup (g_strstrip (out));
}

char *
adbscope_test_version_1_recording (const char *dir)
{
  g_autofree char *gz = g_test_build_filename (G_TEST_DIST, "core", "recording-v1-250ms.adbscope.gz", NULL);
  char *path = g_build_filename (dir, "v1-250ms.adbscope", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) in_file = g_file_new_for_path (gz);
  g_autoptr(GFile) out_file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (in_file, NULL, &error);
  g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) plain = NULL;
  g_autoptr(GFileOutputStream) out = NULL;

  g_assert_no_error (error);
  plain = g_converter_input_stream_new (G_INPUT_STREAM (in), G_CONVERTER (gunzip));
  out = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_splice (G_OUTPUT_STREAM (out), plain,
                          G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return path;
}
