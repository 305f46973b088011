/* adbscope-cli-record.c: `adbscope record`, `adbscope mark`, `adbscope stop`
 *
 * record runs until --duration, Ctrl+C, SIGTERM or `adbscope stop`, and in
 * every case writes the report.  Assertions are checked against a report
 * skeleton before anything starts: a path the report does not have is a
 * usage error (exit 2), not a silent pass.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib-unix.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "adbscope-core.h"
#include "adbscope-report-network.h"
#include "adbscope-validate.h"
#include "adbscope-cli.h"
#include "adbscope-cli-commands.h"
#include "adbscope-cli-output.h"
#ifdef ADBSCOPE_HAVE_SIM
#include "adbscope-sim-profile.h"
#endif

typedef struct
{
  GMainLoop             *loop;
  AdbscopeSession       *session;
  AdbscopeControlServer *control;
  AdbscopeDemo          *demo;
  GPtrArray             *assertions;
  AdbscopeCliOutput     *samples;
  gboolean               samples_open;   /* opened at the first row */
  GError                *samples_error;  /* the first failed row write */
  GError                *error;
  gboolean               stopping;
  gboolean               running;        /* in the run's main loop */
  guint                  n_signals;
  guint                  signal_ids[3];
  GCancellable          *cancel_start;   /* a signal while the agent starts */
  AdbscopeCliOutput     *pcap;           /* --pcap */
  char                  *pcap_temp;      /* the file the capture writes until the run starts */
  GError                *pcap_error;
  gboolean               started;
  guint64                duration_ms;    /* --duration, 0: until stopped */
  guint                  duration_id;
  /* --capture */
  AdbscopeCapture       *capture;
  gboolean               capture_failed;
} Record;

#define AGENT_START_TIMEOUT_MS   60000

/* "60s", "2m", "500ms", "1h", or plain seconds. */
static gboolean
parse_duration_ms (const char *text,
                   guint64    *ms)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || !(v > 0) || !isfinite (v))
    return FALSE;
  if (*end == '\0' || g_str_equal (end, "s"))
    v *= 1000;
  else if (g_str_equal (end, "ms"))
    ;
  else if (g_str_equal (end, "m") || g_str_equal (end, "min"))
    v *= 60000;
  else if (g_str_equal (end, "h"))
    v *= 3600000;
  else
    return FALSE;
  /* 0.5ms would round to 0, which means "forever": not what was asked. */
  if (v < 1 || v > (double) G_MAXUINT32 * 100)
    return FALSE;
  *ms = (guint64) v;
  return TRUE;
}

static void
finish (Record *r)
{
  if (r->stopping)
    return;
  r->stopping = TRUE;
  if (r->running)
    g_main_loop_quit (r->loop);
}

/* SIGINT, SIGTERM, SIGHUP stay handled from before the device is touched
 * until the report is written and the device cleaned up (the agent
 * stopped, its forwards removed): the first ends the run; a second, a
 * third… never cut that short (a run must not end with no report and an
 * agent left running); the end is bounded anyway (the agent's last
 * snapshot is waited for 3 s at most).  SIGKILL is the way to force. */
static gboolean
on_signal (gpointer data)
{
  Record *r = data;

  if (++r->n_signals == 2)
    g_printerr (_("adbscope: stopping: the report is written and the device cleaned up first\n"));
  if (r->cancel_start != NULL)
    g_cancellable_cancel (r->cancel_start);
  finish (r);
  return G_SOURCE_CONTINUE;
}

static void
add_signal_handlers (Record *r)
{
  r->signal_ids[0] = g_unix_signal_add (SIGINT, on_signal, r);
  r->signal_ids[1] = g_unix_signal_add (SIGTERM, on_signal, r);
  /* A closed terminal ends the run like SIGTERM: with its report. */
  r->signal_ids[2] = g_unix_signal_add (SIGHUP, on_signal, r);
}

static void
remove_signal_handlers (Record *r)
{
  for (guint i = 0; i < G_N_ELEMENTS (r->signal_ids); i++)
    g_clear_handle_id (&r->signal_ids[i], g_source_remove);
}

/* A signal before the run started: the run ends there, cleaned up. */
static gboolean
stopped_before_start (Record *r)
{
  if (!r->stopping || r->error != NULL)
    return FALSE;
  g_set_error_literal (&r->error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_CANCELLED,
                       _("Stopped before the run started; nothing was recorded"));
  return TRUE;
}

static gboolean
on_stop_idle (gpointer data)
{
  finish (data);
  return G_SOURCE_REMOVE;
}

static gboolean
on_duration (gpointer data)
{
  Record *r = data;

  r->duration_id = 0;
  finish (r);
  return G_SOURCE_REMOVE;
}

static JsonNode *
on_mark (AdbscopeControlServer *control,
         const char            *label,
         Record                *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const AdbscopeMarker *m = adbscope_session_add_marker (r->session, label);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "marker");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, m->label);
  json_builder_set_member_name (b, "time_s");
  json_builder_add_double_value (b, (m->time_us - adbscope_session_get_start_us (r->session)) / 1e6);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static JsonNode *
on_stop (AdbscopeControlServer *control,
         Record                *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  /* Answer first, then stop from an idle so the reply is sent. */
  g_idle_add (on_stop_idle, r);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "stopping");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
on_sample (AdbscopeSession          *session,
           const AdbscopeFastSample *sample,
           Record                   *r)
{
  g_autoptr(GString) row = g_string_new (NULL);

  if (r->samples == NULL || r->samples_error != NULL)
    return;
  /* The file is made (an old one replaced) only now that the run has a
   * first row: a run that never started leaves it as it was. */
  if (!r->samples_open)
    {
      if (!adbscope_cli_output_open_stream (r->samples, &r->samples_error))
        return;
      r->samples_open = TRUE;
    }
  if (adbscope_session_get_n_samples (session) == 1)
    adbscope_csv_append_header (row, session);
  adbscope_csv_append_row (row, session, sample->time_us);
  /* A failed write (disk full) stops the CSV, not the run; the report
   * says so and the exit status is 1. */
  adbscope_cli_output_append (r->samples, row->str, row->len, &r->samples_error);
}

/* Writes the report where it was meant to go; if that fails, prints it
 * with the error on stdout, and if even that fails saves it in the state
 * folder and says where on stderr.  FALSE when it did not reach @out. */
static gboolean
deliver_report (JsonNode          *report,
                AdbscopeCliOutput *out,
                gboolean           out_is_stdout)
{
  g_autofree char *text = adbscope_json_to_string (report, TRUE);
  g_autofree char *line = g_strconcat (text, "\n", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) fallback_error = NULL;
  g_autofree char *saved = NULL;

  if (adbscope_cli_output_write_all (out, line, strlen (line), &error))
    return TRUE;

  if (!out_is_stdout)
    {
      g_autoptr(JsonNode) wrapped = adbscope_cli_error_to_json (error);

      json_object_set_member (json_node_get_object (wrapped), "report", json_node_copy (report));
      if (adbscope_cli_print_json (wrapped))
        return FALSE;
    }
  saved = adbscope_cli_output_save_fallback (line, strlen (line), &fallback_error);
  /* As JSON on stderr, like every command's error where stdout failed. */
  {
    g_autoptr(GError) told = NULL;

    if (saved != NULL)
      told = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("%s; the report was saved in %s"), error->message, saved);
    else
      told = g_error_new (ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, _("%s; the report is lost (%s)"),
                          error->message, fallback_error->message);
    adbscope_cli_print_error_stderr (told);
  }
  return FALSE;
}

/* Beside -o (report.json → report.adbscope; report-2.adbscope when that
 * exists) when -o names a regular file, or a new one, itself (prepare
 * checked that its folder is writable); else (no -o, or -o a symlink, a
 * device, pipe or terminal such as /dev/null or /dev/stdout: never a
 * system folder, never beside a name that is not the file) a file in the
 * data folder named by the app and the time. */
static char *
default_recording_base (const char        *output,
                        AdbscopeCliOutput *report_out,
                        const char        *package)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;

  if (output != NULL && report_out != NULL && adbscope_cli_output_is_plain_file (report_out))
    return adbscope_recording_path_beside (output);
  dir = adbscope_recording_default_dir ();
  name = adbscope_recording_default_name (package, now);
  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

/* The whole run, read back from the file the run was streamed into.  If
 * the file could not be written (a full disk, removed, made read-only),
 * what the session holds in memory, with *write_error set: that report
 * says in run.output_errors what it covers. */
static JsonNode *
report_from_recording (AdbscopeSession   *session,
                       AdbscopeRecording *recording,
                       GPtrArray         *assertions,
                       gboolean          *kept,
                       GError           **write_error)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeRun) run = NULL;
  JsonNode *report;

  *kept = FALSE;
  /* Stopped before the device answered the probe, nothing was recorded:
   * what the run holds (a marker, the losses) is in memory only. */
  if (adbscope_report_finish_recording (recording, session, &error))
    run = adbscope_run_load (adbscope_recording_get_path (recording), G_MININT64, G_MAXINT64, &error);
  if (run != NULL)
    {
      *kept = TRUE;
      return adbscope_report_build_run (run, assertions);
    }
  report = adbscope_report_build (session, assertions);
  if (error != NULL)
    {
      JsonNode *from = adbscope_report_lookup (report, "run.window.from_s");
      JsonNode *to = adbscope_report_lookup (report, "run.window.to_s");
      double from_s = from != NULL && JSON_NODE_HOLDS_VALUE (from) ? json_node_get_double (from) : 0;
      double to_s = to != NULL && JSON_NODE_HOLDS_VALUE (to) ? json_node_get_double (to) : 0;

      /* TRANSLATORS: run.output_errors of a report whose recording could
       * not be written: "<the write error>; this report covers only what
       * was kept in memory: 0 s to 900 s of the run" */
      g_set_error (write_error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("%s; the run was not saved: this report covers only what was kept in memory, %.0f s to %.0f s of the run"),
                   error->message, from_s, to_s);
      json_object_set_null_member (json_node_get_object (adbscope_report_lookup (report, "run")), "recording");
    }
  return report;
}

/* --capture ------------------------------------------------------------- */

static void
capture_started_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Record *r = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_capture_start_finish (ADBSCOPE_CAPTURE (object), result, &error))
    {
      r->capture_failed = TRUE;
      if (r->error == NULL)
        r->error = g_steal_pointer (&error);
    }
  g_main_loop_quit (r->loop);
}

/* The capture gave up (an agent we must not talk to, the pcap file, a
 * refused consent when starting it again): the run ends with that error. */
static void
on_capture_state (AdbscopeCapture *capture,
                  GParamSpec      *pspec,
                  Record          *r)
{
  if (adbscope_capture_get_state (capture) != ADBSCOPE_CAPTURE_FAILED || r->capture_failed)
    return;
  if (r->error == NULL)
    r->error = g_error_copy (adbscope_capture_get_error (capture));
  r->capture_failed = TRUE;
  finish (r);
}

static void
capture_stopped_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GMainLoop *loop = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_capture_stop_finish (ADBSCOPE_CAPTURE (object), result, &error))
    g_debug ("record: stopping the agent: %s", error->message);
  g_main_loop_quit (loop);
}

static void
stop_capture (Record *r)
{
  g_autoptr(GMainLoop) loop = NULL;

  if (r->capture == NULL)
    return;
  g_signal_handlers_disconnect_by_data (r->capture, r);
  loop = g_main_loop_new (NULL, FALSE);
  adbscope_capture_stop_async (r->capture, capture_stopped_cb, loop);
  g_main_loop_run (loop);
  g_clear_object (&r->capture);
}

static void
session_started_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Record *r = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_session_start_finish (ADBSCOPE_SESSION (object), result, &error))
    {
      if (r->error == NULL)
        r->error = g_steal_pointer (&error);
      finish (r);
      return;
    }
  r->started = TRUE;
  /* The run has started: the pcap written so far replaces an old one now
   * (a run that failed before this left it as it was). */
  if (r->pcap_temp != NULL)
    {
      if (!adbscope_cli_output_commit_temp (r->pcap, r->pcap_temp, &r->pcap_error))
        adbscope_cli_output_abandon_temp (r->pcap, r->pcap_temp);
      g_clear_pointer (&r->pcap_temp, g_free);
    }
  /* --duration counts from here: the time asked for is measured time, not
   * eaten by a slow probe of the device. */
  if (r->duration_ms > 0 && !r->stopping)
    r->duration_id = g_timeout_add ((guint) MIN (r->duration_ms, G_MAXUINT), on_duration, r);
}

static void
demo_started_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Record *r = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_demo_start_finish (ADBSCOPE_DEMO (object), result, &error) && r->error == NULL)
    r->error = g_steal_pointer (&error);
  g_main_loop_quit (r->loop);
}

/* The serial a headless command should use: the one named (and connected),
 * or the only ready device. */
char *
adbscope_cli_find_serial (const char  *serial,
                          GError     **error)
{
  const char *args[] = { "devices", "-l", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) infos = NULL;

  out = adbscope_adb_run_sync (NULL, args, NULL, NULL, &err, error);
  if (out == NULL)
    return NULL;
  infos = adbscope_parse_devices (out, NULL);
  if (infos == NULL)
    {
      g_autofree char *line = adbscope_adb_stderr_last_line (err);
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                   _("adb devices failed: %s"), line ? line : _("no output"));
      return NULL;
    }
  return adbscope_choose_device (infos, serial, error);
}

int
adbscope_cli_record (int    argc,
                     char **argv)
{
  g_autofree char *package = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *output = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *interval = NULL;
  g_autofree char *meminfo_interval = NULL;
  g_autofree char *screenshots = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *pcap = NULL;
  g_autofree char *recording_path = NULL;
  g_autofree char *record_id = NULL;
  g_auto(GStrv) asserts = NULL;
  gboolean demo = FALSE;
  gboolean capture = FALSE;
  const GOptionEntry entries[] = {
    { "package", 'p', 0, G_OPTION_ARG_STRING, &package, N_("Package of the app to watch"), N_("PKG") },
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("Device serial (default: the only device)"), N_("SERIAL") },
    { "id", 0, 0, G_OPTION_ARG_STRING, &record_id, N_("Name this record for mark and stop --id (default: a random one)"), N_("ID") },
    { "demo", 0, 0, G_OPTION_ARG_NONE, &demo, N_("Record the simulated demo device, started for this run"), NULL },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile, N_("Profile of the demo device (pixel-14, legacy-8, tablet-13, redmi-13)"), N_("NAME") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the report here instead of stdout"), N_("FILE") },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &duration, N_("Stop after this long (e.g. 60s, 5m); default: until stopped"), N_("D") },
    { "interval", 0, 0, G_OPTION_ARG_STRING, &interval, N_("Sample interval (default 1s)"), N_("I") },
    { "meminfo-interval", 0, 0, G_OPTION_ARG_STRING, &meminfo_interval, N_("App memory interval (default 2s)"), N_("I") },
    { "screenshots", 0, 0, G_OPTION_ARG_STRING, &screenshots, N_("Take a screenshot every I (e.g. 10s) and at every marker; “marker”: at markers only"), N_("I") },
    { "samples", 0, 0, G_OPTION_ARG_FILENAME, &samples, N_("Stream one CSV row per sample to this file"), N_("FILE") },
    { "recording", 0, 0, G_OPTION_ARG_FILENAME, &recording_path, N_("Write the recording here (default: beside -o, or in the data folder)"), N_("FILE") },
    { "assert", 0, 0, G_OPTION_ARG_STRING_ARRAY, &asserts, N_("Fail (exit 3) unless PATH OP NUMBER holds, e.g. 'frames.janky_pct < 5'"), N_("EXPR") },
    { "capture", 0, 0, G_OPTION_ARG_NONE, &capture, N_("Capture network traffic through the agent"), NULL },
    { "pcap", 0, 0, G_OPTION_ARG_FILENAME, &pcap, N_("Write captured packets to this pcap file"), N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GPtrArray) assertions = g_ptr_array_new_with_free_func ((GDestroyNotify) adbscope_assertion_free);
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(AdbscopeSession) session = NULL;
  g_autoptr(AdbscopeControlServer) control = NULL;
  g_autoptr(AdbscopeDemo) demo_dev = NULL;
  g_autoptr(AdbscopeRecording) recording = NULL;
  g_autoptr(AdbscopeCliOutput) stdout_out = NULL;
  g_autoptr(AdbscopeCliOutput) report_out = NULL;
  g_autoptr(AdbscopeCliOutput) samples_out = NULL;
  g_autoptr(AdbscopeCliOutput) recording_out = NULL;
  g_autoptr(AdbscopeCliOutput) pcap_out = NULL;
  guint64 duration_ms = 0, interval_ms = 1000, meminfo_ms = 2000, screenshot_ms = 0;
  Record r = { 0 };
  gboolean delivered;
  gboolean recording_kept = FALSE;
  g_autoptr(GError) recording_error = NULL;
  int rc;

  g_option_context_set_summary (context, _("Record what an app costs and write a JSON report."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);

  if (package == NULL && demo)
    package = g_strdup (ADBSCOPE_DEMO_PACKAGE);
  if (package == NULL)
    return adbscope_cli_usage_error (_("Name the app to watch with -p PACKAGE"));
  if (!adbscope_package_name_is_valid (package))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_PACKAGE,
                   _("“%s” is not a valid package name"), package);
      return adbscope_cli_print_error (error);
    }
  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      return adbscope_cli_print_error (error);
    }
  if (demo && serial != NULL)
    return adbscope_cli_usage_error (_("--demo and -s cannot be used together"));
  if (record_id != NULL && !adbscope_control_id_is_valid (record_id))
    return adbscope_cli_usage_error (_("“%s” is not a record id: use 1 to 64 letters, digits, “.”, “_” or “-”"), record_id);
  if (duration != NULL && !parse_duration_ms (duration, &duration_ms))
    return adbscope_cli_usage_error (_("Cannot use the duration “%s”: write a positive time of at least 1ms, e.g. 30s or 5m"), duration);
  if (interval != NULL && (!parse_duration_ms (interval, &interval_ms) || interval_ms < 100 || interval_ms > 60000))
    return adbscope_cli_usage_error (_("The interval must be between 100ms and 60s"));
  if (meminfo_interval != NULL && (!parse_duration_ms (meminfo_interval, &meminfo_ms) || meminfo_ms < 500))
    return adbscope_cli_usage_error (_("The meminfo interval must be at least 500ms"));
  if (screenshots != NULL && !g_str_equal (screenshots, "marker")
      && (!parse_duration_ms (screenshots, &screenshot_ms) || screenshot_ms < 1000 || screenshot_ms > 3600000))
    return adbscope_cli_usage_error (_("The screenshot interval must be between 1s and 1h, or “marker”"));
  if (profile != NULL && !demo)
    return adbscope_cli_usage_error (_("--profile needs --demo"));
#ifdef ADBSCOPE_HAVE_SIM
  if (profile != NULL && adbscope_sim_profile_lookup (profile) == NULL)
    return adbscope_cli_usage_error (_("Unknown profile “%s”; the profiles are: %s"),
                                     profile, adbscope_sim_profile_list_names ());
#endif
  if (pcap != NULL)
    capture = TRUE;

  if (!adbscope_cli_parse_assertions (asserts, assertions, &error))
    return adbscope_cli_print_error (error);

  /* Every output is checked before anything starts: a run must never end
   * with a report that has nowhere to go. */
  stdout_out = adbscope_cli_output_new_stdout (output == NULL ? &error : NULL);
  if (output == NULL && stdout_out == NULL)
    return adbscope_cli_print_error (error);
  if (output != NULL && (report_out = adbscope_cli_output_prepare (output, &error)) == NULL)
    return adbscope_cli_print_error (error);
  if (samples != NULL && (samples_out = adbscope_cli_output_prepare (samples, &error)) == NULL)
    return adbscope_cli_print_error (error);
  if (recording_path != NULL && (recording_out = adbscope_cli_output_prepare (recording_path, &error)) == NULL)
    return adbscope_cli_print_error (error);
  if (pcap != NULL && (pcap_out = adbscope_cli_output_prepare (pcap, &error)) == NULL)
    return adbscope_cli_print_error (error);
  /* No two outputs are one file (by inode, or by the path a new file
   * would get), checked before anything is opened: each would destroy
   * the other. */
  {
    struct { const char *option; AdbscopeCliOutput *out; } outs[] = {
      { output != NULL ? "-o" : _("standard output"), report_out != NULL ? report_out : stdout_out },
      { "--samples", samples_out },
      { "--recording", recording_out },
      { "--pcap", pcap_out },
    };

    g_autoptr(AdbscopeCliOutput) beside = NULL;

    /* The recording's default name beside -o is an output too. */
    if (recording_out == NULL && output != NULL && report_out != NULL &&
        adbscope_cli_output_is_plain_file (report_out))
      {
        g_autofree char *path = adbscope_recording_path_beside (output);

        /* (taken already: the recording gets NAME-2.adbscope) */
        if (!g_file_test (path, G_FILE_TEST_EXISTS))
          beside = adbscope_cli_output_prepare (path, NULL);
        outs[2].option = _("the recording beside -o");
        outs[2].out = beside;
      }
    for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
      for (guint j = i + 1; j < G_N_ELEMENTS (outs); j++)
        if (outs[i].out != NULL && outs[j].out != NULL && adbscope_cli_output_same_file (outs[i].out, outs[j].out))
          /* TRANSLATORS: "-o and --recording name the same file (x): …" */
          return adbscope_cli_usage_error (_("%s and %s name the same file (%s): give each output its own file"),
                                           outs[i].option, outs[j].option,
                                           adbscope_cli_output_get_path (outs[j].out));
  }
  r.samples = samples_out;
  /* (found now, not after the device was probed and the agent started) */
  if (recording_path != NULL && g_file_test (recording_path, G_FILE_TEST_EXISTS))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("The recording %s already exists; choose another file (a recording is never overwritten)"),
                   recording_path);
      return adbscope_cli_print_error (error);
    }

  loop = g_main_loop_new (NULL, FALSE);
  r.loop = loop;
  r.assertions = assertions;
  add_signal_handlers (&r);

  if (demo)
    {
      demo_dev = adbscope_demo_new (profile);
      adbscope_demo_set_game (demo_dev, g_str_equal (package, ADBSCOPE_DEMO_GAME_PACKAGE));
      r.demo = demo_dev;
      adbscope_demo_start_async (demo_dev, NULL, demo_started_cb, &r);
      g_main_loop_run (loop);
      if (r.error != NULL || stopped_before_start (&r))
        goto fail;
      serial = g_strdup (adbscope_demo_get_serial (demo_dev));
    }
  else
    {
      char *chosen = adbscope_cli_find_serial (serial, &r.error);

      if (chosen == NULL)
        goto fail;
      g_free (serial);
      serial = chosen;
    }
  g_main_context_iteration (NULL, FALSE);   /* a signal meanwhile */
  if (stopped_before_start (&r))
    goto fail;

  session = adbscope_session_new (serial, package);
  r.session = session;
  if (capture)
    {
      /* The agent first: no consent, not installed or too old is the
       * error of this run, before anything is recorded (or a pcap file
       * truncated: the capture opens it only once the agent runs). */
      r.capture = adbscope_capture_new (serial, package, adbscope_session_get_network (session));
      if (pcap != NULL)
        {
          r.pcap = pcap_out;
          r.pcap_temp = adbscope_cli_output_make_temp (pcap_out, &r.error);
          if (r.pcap_temp == NULL)
            goto fail;
          adbscope_capture_set_pcap_file (r.capture, r.pcap_temp, NULL);
        }
      r.cancel_start = g_cancellable_new ();
      adbscope_capture_start_async (r.capture, AGENT_START_TIMEOUT_MS, r.cancel_start, capture_started_cb, &r);
      g_main_loop_run (loop);
      g_clear_object (&r.cancel_start);
      if (r.error != NULL || stopped_before_start (&r))
        goto fail;
      g_signal_connect (r.capture, "notify::state", G_CALLBACK (on_capture_state), &r);
      /* The report names the file as given, not the temporary one. */
      if (pcap != NULL)
        adbscope_network_set_pcap (adbscope_session_get_network (session), pcap);
    }

  control = adbscope_control_server_new (record_id, serial);
  if (!adbscope_control_server_start (control, &r.error))
    goto fail;
  r.control = control;

  /* The recording only once this is the one record running: a second
   * record started in the same instant ended above, before it touched a
   * recording file. */
  /* Private: nothing else reads the file while record writes it. */
  if (recording_path != NULL)
    recording = adbscope_recording_create_full (recording_path, ADBSCOPE_RECORDING_PRIVATE, &r.error);
  else
    {
      g_autofree char *base = default_recording_base (output, report_out, package);

      recording = adbscope_recording_create_unique_full (base, ADBSCOPE_RECORDING_PRIVATE, &recording_path, &r.error);
    }
  if (recording == NULL)
    goto fail;

  adbscope_session_set_interval (session, (guint) interval_ms);
  adbscope_session_set_meminfo_interval (session, (guint) meminfo_ms);
  if (screenshots != NULL)
    adbscope_session_set_screenshots (session, TRUE, (guint) screenshot_ms);
  adbscope_session_set_recording (session, recording);
  g_signal_connect (control, "mark", G_CALLBACK (on_mark), &r);
  g_signal_connect (control, "stop", G_CALLBACK (on_stop), &r);
  g_signal_connect (session, "sample", G_CALLBACK (on_sample), &r);

  adbscope_session_start_async (session, NULL, session_started_cb, &r);
  r.duration_ms = duration_ms;
  r.running = TRUE;
  /* (a signal that came while the recording was made ends it at once) */
  if (!r.stopping)
    g_main_loop_run (loop);
  r.running = FALSE;

  if (r.duration_id != 0)
    g_source_remove (r.duration_id);
  stop_capture (&r);
  adbscope_session_stop (session);
  adbscope_control_server_stop (control);
  /* A run that started but never had a row: its CSV is empty. */
  if (r.samples != NULL && r.samples_error == NULL && !r.samples_open && r.started)
    r.samples_open = adbscope_cli_output_open_stream (r.samples, &r.samples_error);
  if (r.samples != NULL && r.samples_open && r.samples_error == NULL)
    adbscope_cli_output_close (r.samples, &r.samples_error);

  if (r.error != NULL && (!r.started || r.capture_failed))
    goto fail;
  /* Stopped before the run started: nothing new for an old pcap either. */
  if (r.pcap_temp != NULL)
    {
      adbscope_cli_output_abandon_temp (r.pcap, r.pcap_temp);
      g_clear_pointer (&r.pcap_temp, g_free);
    }

  report = report_from_recording (session, recording, assertions, &recording_kept, &recording_error);
  if (recording_error != NULL)
    {
      g_printerr ("adbscope: %s\n", recording_error->message);
      adbscope_report_add_output_error (report, recording_error->message);
    }
  if (r.samples_error != NULL)
    adbscope_report_add_output_error (report, r.samples_error->message);
  if (r.pcap_error != NULL)
    adbscope_report_add_output_error (report, r.pcap_error->message);
  if (demo_dev != NULL)
    adbscope_demo_stop_and_wait (demo_dev);

  if (output == NULL)
    delivered = deliver_report (report, stdout_out, TRUE);
  else if ((delivered = deliver_report (report, report_out, FALSE)) &&
           (stdout_out == NULL || !adbscope_cli_output_same_file (stdout_out, report_out)))
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) summary = NULL;
      guint passed = 0;

      for (guint i = 0; i < assertions->len; i++)
        passed += ((AdbscopeAssertion *) g_ptr_array_index (assertions, i))->pass;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "report");
      json_builder_add_string_value (b, output);
      json_builder_set_member_name (b, "recording");
      if (recording_kept)
        json_builder_add_string_value (b, recording_path);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, adbscope_session_get_n_samples (session));
      json_builder_set_member_name (b, "assertions_passed");
      json_builder_add_int_value (b, passed);
      json_builder_set_member_name (b, "assertions_failed");
      json_builder_add_int_value (b, assertions->len - passed);
      if (r.samples_error != NULL)
        {
          json_builder_set_member_name (b, "samples_error");
          json_builder_add_string_value (b, r.samples_error->message);
        }
      json_builder_end_object (b);
      summary = json_builder_get_root (b);
      if (!adbscope_cli_print_json (summary))
        delivered = FALSE;
    }

  rc = ADBSCOPE_EXIT_OK;
  for (guint i = 0; i < assertions->len; i++)
    if (!((AdbscopeAssertion *) g_ptr_array_index (assertions, i))->pass)
      rc = ADBSCOPE_EXIT_ASSERTION;
  /* What the exit code says (docs/architecture.md): an output that failed
   * beats a device lost for good, which beats a failed assertion. */
  if (adbscope_session_is_device_lost (session))
    rc = ADBSCOPE_EXIT_DEVICE_LOST;
  if (!delivered || r.samples_error != NULL || recording_error != NULL || r.pcap_error != NULL)
    rc = ADBSCOPE_EXIT_ERROR;
  g_clear_error (&r.pcap_error);
  g_clear_error (&r.samples_error);
  g_clear_error (&r.error);
  remove_signal_handlers (&r);
  return rc;

fail:
  stop_capture (&r);
  g_clear_error (&r.samples_error);
  g_clear_error (&r.pcap_error);
  /* The run never started: an old pcap stays as it was. */
  if (r.pcap_temp != NULL)
    {
      adbscope_cli_output_abandon_temp (r.pcap, r.pcap_temp);
      g_clear_pointer (&r.pcap_temp, g_free);
    }
  /* Nothing was recorded: leave no empty file behind. */
  if (recording != NULL && !adbscope_recording_has_begun (recording))
    {
      adbscope_recording_close (recording, 0, NULL);
      adbscope_recording_remove_files (recording_path);
    }
  if (control != NULL)
    adbscope_control_server_stop (control);
  if (demo_dev != NULL)
    adbscope_demo_stop_and_wait (demo_dev);
  rc = adbscope_cli_print_error (r.error);
  g_clear_error (&r.error);
  remove_signal_handlers (&r);
  g_clear_object (&r.cancel_start);
  return rc;
}

static int
control_command (int         argc,
                 char      **argv,
                 const char *command)
{
  g_autoptr(GOptionContext) context = g_option_context_new (g_str_equal (command, "mark") ? "LABEL" : NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *id = NULL;
  const char *label = NULL;
  const GOptionEntry entries[] = {
    { "serial", 's', 0, G_OPTION_ARG_STRING, &serial, N_("The record of this device"), N_("SERIAL") },
    { "id", 0, 0, G_OPTION_ARG_STRING, &id, N_("The record with this id (record --id)"), N_("ID") },
    { NULL }
  };
  int rc;

  g_option_context_set_summary (context, g_str_equal (command, "mark") ?
                                _("Add a labelled marker to the running record (the only one, or the one "
                                  "--serial or --id names).") :
                                _("Stop the running record (the only one, or the one --serial or --id names); "
                                  "it still writes its report."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!adbscope_cli_parse (context, &argc, &argv, &rc))
    return rc;
  if (g_str_equal (command, "mark"))
    {
      if (argc != 2)
        return adbscope_cli_usage_error (_("Give the marker a label: adbscope mark \"LABEL\""));
      label = argv[1];
    }
  else if (argc > 1)
    return adbscope_cli_usage_error (_("Unexpected argument “%s”"), argv[1]);
  if (id != NULL && !adbscope_control_id_is_valid (id))
    return adbscope_cli_usage_error (_("“%s” is not a record id: use 1 to 64 letters, digits, “.”, “_” or “-”"), id);
  if (serial != NULL && !adbscope_serial_is_valid (serial))
    {
      g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INVALID_SERIAL,
                   _("“%s” is not a valid device serial"), serial);
      return adbscope_cli_print_error (error);
    }

  reply = adbscope_control_request (id, serial, command, label, &error);
  if (reply == NULL)
    return adbscope_cli_print_error (error);
  return adbscope_cli_print_result (reply, ADBSCOPE_EXIT_OK);
}

int
adbscope_cli_mark (int    argc,
                   char **argv)
{
  return control_command (argc, argv, "mark");
}

int
adbscope_cli_stop (int    argc,
                   char **argv)
{
  return control_command (argc, argv, "stop");
}
