/* test-jobs.c: jobscheduler, alarm and standby bucket parsers
 *
 * Expected values were read off the fixture files by eye.
 */
#include "config.h"

#include <string.h>

#include "adbscope-error.h"
#include "adbscope-parse-jobs.h"
#include "dumpsys-test-util.h"

static AdbscopeJobs *
parse_jobs_fixture (const char *name,
                    const char *package)
{
  g_autofree char *path = g_build_filename ("jobscheduler", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeJobs *jobs;
  gsize len;

  text = load_fixture (path, &len);
  jobs = adbscope_jobs_parse (text, len, package, &error);
  g_assert_no_error (error);
  g_assert_nonnull (jobs);
  return jobs;
}

static AdbscopeAlarms *
parse_alarm_fixture (const char *name,
                     const char *package)
{
  g_autofree char *path = g_build_filename ("alarm", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AdbscopeAlarms *alarms;
  gsize len;

  text = load_fixture (path, &len);
  alarms = adbscope_alarms_parse (text, len, package, &error);
  g_assert_no_error (error);
  g_assert_nonnull (alarms);
  return alarms;
}

static AdbscopeJob *
job_at (AdbscopeJobs *jobs,
        guint         i)
{
  g_assert_cmpuint (i, <, jobs->jobs->len);
  return g_ptr_array_index (jobs->jobs, i);
}

static AdbscopeAlarm *
alarm_at (AdbscopeAlarms *alarms,
          guint           i)
{
  g_assert_cmpuint (i, <, alarms->pending->len);
  return g_ptr_array_index (alarms->pending, i);
}

static void
test_every_fixture (void)
{
  g_autoptr(GPtrArray) jobs = list_fixtures ("jobscheduler");
  g_autoptr(GPtrArray) alarms = list_fixtures ("alarm");

  g_assert_cmpuint (jobs->len, >=, 2);
  g_assert_cmpuint (alarms->len, >=, 2);
  for (guint i = 0; i < jobs->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(AdbscopeJobs) j = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (jobs, i), &len);
      j = adbscope_jobs_parse (text, len, "android", &error);
      g_assert_no_error (error);
      g_assert_cmpint (j->n_registered, >, 0);
      g_assert_cmpuint (j->jobs->len, >, 0);
    }
  for (guint i = 0; i < alarms->len; i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(AdbscopeAlarms) a = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      text = load_fixture (g_ptr_array_index (alarms, i), &len);
      a = adbscope_alarms_parse (text, len, "android", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (a->pending->len, >, 0);
      g_assert_true (a->has_stats);
    }
}

static void
test_jobs_android13 (void)
{
  g_autoptr(AdbscopeJobs) jobs = parse_jobs_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-jobscheduler.txt",
                                                     "com.android.providers.settings");
  g_autoptr(AdbscopeJobs) system = parse_jobs_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-jobscheduler.txt",
                                                       "android");
  g_autoptr(AdbscopeJobs) media = parse_jobs_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-jobscheduler.txt",
                                                      "com.android.providers.media.module");
  g_autoptr(AdbscopeJobs) none = parse_jobs_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-jobscheduler.txt",
                                                     "com.example.absent");
  const char * const required[] = { "CHARGING", "TIMING_DELAY", "DEADLINE", NULL };
  const char * const unsatisfied[] = { "CHARGING", "DEADLINE", NULL };
  AdbscopeJob *job;

  g_assert_cmpint (jobs->n_registered, ==, 29);
  g_assert_cmpuint (jobs->jobs->len, ==, 1);
  /* JOB #1000/1: e18373a com.android.providers.settings/.WriteFallbackSettingsFilesJobService */
  job = job_at (jobs, 0);
  g_assert_null (job->job_namespace);
  g_assert_cmpstr (job->uid, ==, "1000");
  g_assert_cmpint (job->job_id, ==, 1);
  g_assert_cmpstr (job->service, ==, "com.android.providers.settings/.WriteFallbackSettingsFilesJobService");
  g_assert_cmpstr (job->source_package, ==, "com.android.providers.settings");
  g_assert_true (job->periodic);
  g_assert_true (job->persisted);
  g_assert_cmpstr (job->standby_bucket, ==, "EXEMPTED");
  g_assert_false (job->ready);
  g_assert_false (job->running);
  g_assert_false (job->pending);
  g_assert_cmpstrv (job->required_constraints, required);
  g_assert_cmpstrv (job->unsatisfied_constraints, unsatisfied);
  g_assert_cmpuint (g_strv_length (job->satisfied_constraints), ==, 6);
  g_assert_cmpstr (job->satisfied_constraints[0], ==, "BATTERY_NOT_LOW");

  g_assert_cmpuint (system->jobs->len, ==, 16);
  g_assert_cmpint (job_at (system, 0)->job_id, ==, 800);
  g_assert_cmpstr (job_at (system, 0)->standby_bucket, ==, "ACTIVE");
  g_assert_false (job_at (system, 0)->persisted);

  /* JOB #u0a100/-200: a negative id and an app uid */
  g_assert_cmpuint (media->jobs->len, ==, 1);
  g_assert_cmpstr (job_at (media, 0)->uid, ==, "u0a100");
  g_assert_cmpint (job_at (media, 0)->job_id, ==, -200);

  g_assert_cmpuint (none->jobs->len, ==, 0);
}

static void
test_jobs_android14_namespaces (void)
{
  g_autoptr(AdbscopeJobs) wa = parse_jobs_fixture ("android14-xiaomi-pad6-dumpsys-jobscheduler-full.txt", "com.whatsapp");
  g_autoptr(AdbscopeJobs) files = parse_jobs_fixture ("android14-xiaomi-pad6-dumpsys-jobscheduler-full.txt",
                                                      "com.google.android.apps.nbu.files");
  g_autoptr(AdbscopeJobs) system = parse_jobs_fixture ("android14-xiaomi-pad6-dumpsys-jobscheduler-full.txt", "android");
  AdbscopeJob *job;

  g_assert_cmpint (wa->n_registered, ==, 284);
  g_assert_cmpuint (wa->jobs->len, ==, 3);
  /* JOB androidx.work.systemjobscheduler:u0a321/1515: e2cb6cd @androidx.work.systemjobscheduler@com.whatsapp/… */
  job = job_at (wa, 0);
  g_assert_cmpstr (job->job_namespace, ==, "androidx.work.systemjobscheduler");
  g_assert_cmpstr (job->uid, ==, "u0a321");
  g_assert_cmpint (job->job_id, ==, 1515);
  g_assert_cmpstr (job->service, ==, "com.whatsapp/androidx.work.impl.background.systemjob.SystemJobService");
  g_assert_cmpstr (job->standby_bucket, ==, "EXEMPTED");
  g_assert_cmpstr (job->unsatisfied_constraints[0], ==, "TIMING_DELAY");
  g_assert_cmpint (job_at (wa, 1)->job_id, ==, 1675);
  g_assert_cmpint (job_at (wa, 2)->job_id, ==, 1676);

  /* The one job of the dump that is ready: every constraint met. */
  g_assert_cmpuint (files->jobs->len, >=, 1);
  job = NULL;
  for (guint i = 0; i < files->jobs->len; i++)
    if (job_at (files, i)->job_id == 399)
      job = job_at (files, i);
  g_assert_nonnull (job);
  g_assert_true (job->ready);
  g_assert_cmpstr (job->standby_bucket, ==, "RARE");
  g_assert_cmpuint (g_strv_length (job->unsatisfied_constraints), ==, 0);
  g_assert_cmpstr (job->required_constraints[0], ==, "CONTENT_TRIGGER");

  /* "android" jobs include namespaced ones (usagestats_mapping:1000/0). */
  g_assert_cmpuint (system->jobs->len, ==, 23);
  g_assert_cmpstr (job_at (system, 0)->job_namespace, ==, "usagestats_mapping");
  g_assert_cmpint (job_at (system, 0)->job_id, ==, 0);
}

/* Neither capture has a running or queued job, so the queue lines here
 * follow AOSP's toShortString() ("hash [{ns} ]#uid/id component") around a
 * real JOB block. */
static void
test_jobs_running_pending (void)
{
  const char *text =
    "Registered 2 jobs:\n"
    "  JOB androidx.work.systemjobscheduler:u0a321/1515: e2cb6cd @androidx.work.systemjobscheduler@com.whatsapp/androidx.work.impl.background.systemjob.SystemJobService\n"
    "    Source: uid=u0a321 user=0 pkg=com.whatsapp\n"
    "    Ready: true (job=true user=true)\n"
    "  JOB #u0a321/7: 1234567 com.whatsapp/.Other\n"
    "    Source: uid=u0a321 user=0 pkg=com.whatsapp\n"
    "    Ready: true (job=true user=true)\n"
    "\n"
    "Pending queue:\n"
    "  Pending #0: 1234567 #u0a321/7 com.whatsapp/.Other\n"
    "    Reason: ready\n"
    "\n"
    "Active jobs:\n"
    "  Slot #0(ID=42): e2cb6cd {androidx.work.systemjobscheduler} #u0a321/1515 @androidx.work.systemjobscheduler@com.whatsapp/androidx.work.impl.background.systemjob.SystemJobService\n"
    "    Running for: +1s234ms\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeJobs) jobs = adbscope_jobs_parse (text, -1, "com.whatsapp", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (jobs->jobs->len, ==, 2);
  g_assert_true (job_at (jobs, 0)->running);
  g_assert_false (job_at (jobs, 0)->pending);
  g_assert_false (job_at (jobs, 1)->running);
  g_assert_true (job_at (jobs, 1)->pending);
  g_assert_cmpuint (g_strv_length (job_at (jobs, 1)->required_constraints), ==, 0);
}

static void
test_alarms_android13 (void)
{
  g_autoptr(AdbscopeAlarms) cal = parse_alarm_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-alarm.txt",
                                                       "com.android.providers.calendar");
  g_autoptr(AdbscopeAlarms) sys = parse_alarm_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-alarm.txt", "android");
  g_autoptr(AdbscopeAlarms) none = parse_alarm_fixture ("android13-mtk-mt8168-tablet-bugreport-dumpsys-alarm.txt",
                                                        "com.example.absent");
  AdbscopeAlarm *a;
  guint n_past_due = 0;

  /* ELAPSED_WAKEUP #6: Alarm{6b0b777 type 2 origWhen 21600000 whenElapsed 21600000 com.android.providers.calendar} */
  g_assert_cmpuint (cal->pending->len, ==, 1);
  a = alarm_at (cal, 0);
  g_assert_cmpstr (a->type, ==, "ELAPSED_WAKEUP");
  g_assert_true (a->wakeup);
  g_assert_false (a->past_due);
  g_assert_cmpstr (a->tag, ==, "*walarm*:com.android.providers.calendar.intent.CalendarProvider2");
  g_assert_cmpint (a->when_elapsed_ms, ==, 21600000);
  g_assert_cmpint (a->when_in_ms, ==, ((4 * 60 + 48) * 60 + 26) * 1000 + 995);
  g_assert_cmpint (a->repeat_interval_ms, ==, 21600000);
  g_assert_cmpint (a->count, ==, 0);
  /* u0a33:com.android.providers.calendar +1s41ms running, 4 wakeups: … 4 alarms */
  g_assert_true (cal->has_stats);
  g_assert_cmpint (cal->stats_running_ms, ==, 1041);
  g_assert_cmpint (cal->stats_wakeups, ==, 4);
  g_assert_cmpint (cal->stats_alarms, ==, 4);

  /* 13 of the 14 pending alarms, plus the past-due TIME_TICK. */
  g_assert_cmpuint (sys->pending->len, ==, 14);
  for (guint i = 0; i < sys->pending->len; i++)
    if (alarm_at (sys, i)->past_due)
      {
        n_past_due++;
        g_assert_cmpstr (alarm_at (sys, i)->tag, ==, "*alarm*:TIME_TICK");
        g_assert_cmpint (alarm_at (sys, i)->when_in_ms, ==, -20565);
      }
  g_assert_cmpuint (n_past_due, ==, 1);
  a = alarm_at (sys, 0);
  g_assert_cmpstr (a->type, ==, "ELAPSED");
  g_assert_false (a->wakeup);
  g_assert_cmpint (a->repeat_interval_ms, ==, 1800000);
  /* 1000:android +991ms running, 4 wakeups: 63 + 3 + 1 + 2 + 1 alarms */
  g_assert_cmpint (sys->stats_running_ms, ==, 991);
  g_assert_cmpint (sys->stats_wakeups, ==, 4);
  g_assert_cmpint (sys->stats_alarms, ==, 70);

  g_assert_cmpuint (none->pending->len, ==, 0);
  g_assert_false (none->has_stats);
  g_assert_cmpint (none->stats_alarms, ==, -1);
}

static void
test_alarms_android14 (void)
{
  g_autoptr(AdbscopeAlarms) wa = parse_alarm_fixture ("android14-xiaomi-pad6-dumpsys-alarm-full.txt", "com.whatsapp");
  AdbscopeAlarm *a;

  g_assert_cmpuint (wa->pending->len, ==, 7);
  a = alarm_at (wa, 0);
  g_assert_cmpstr (a->type, ==, "ELAPSED_WAKEUP");
  g_assert_cmpstr (a->tag, ==, "*walarm*:com.whatsapp.action.HEARTBEAT_WAKEUP");
  g_assert_cmpint (a->when_elapsed_ms, ==, 9825384);
  g_assert_cmpint (a->when_in_ms, ==, (11 * 60 + 22) * 1000 + 835);
  g_assert_cmpstr (alarm_at (wa, 2)->type, ==, "RTC_WAKEUP");
  g_assert_cmpint (alarm_at (wa, 2)->when_elapsed_ms, ==, 28982823);
  /* u0a321:com.whatsapp +399ms running, 2 wakeups: 6 + 2 + 2 alarms */
  g_assert_true (wa->has_stats);
  g_assert_cmpint (wa->stats_running_ms, ==, 399);
  g_assert_cmpint (wa->stats_wakeups, ==, 2);
  g_assert_cmpint (wa->stats_alarms, ==, 10);
}

static void
test_duration (void)
{
  const struct { const char *text; gint64 ms; } ok[] = {
    { "+1h10m37s223ms", ((1 * 60 + 10) * 60 + 37) * 1000 + 223 },
    { "-20s565ms", -20565 },
    { "+1d0h0m0s0ms", 86400000 },
    { "0", 0 },
    { "+30s0ms", 30000 },
    { "+2m", 120000 },
  };
  const char *bad[] = { "", "--", "none", "+", "12x", "ms" };
  gint64 ms;

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_assert_true (adbscope_parse_duration_ms (ok[i].text, NULL, &ms));
      g_assert_cmpint (ms, ==, ok[i].ms);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (adbscope_parse_duration_ms (bad[i], NULL, &ms));
}

static void
test_standby_bucket (void)
{
  const struct { const char *text; AdbscopeStandbyBucket bucket; } ok[] = {
    { "10\n", ADBSCOPE_STANDBY_BUCKET_ACTIVE },
    { "5", ADBSCOPE_STANDBY_BUCKET_EXEMPTED },
    { "20\n", ADBSCOPE_STANDBY_BUCKET_WORKING_SET },
    { "30\n", ADBSCOPE_STANDBY_BUCKET_FREQUENT },
    { "40\r\n", ADBSCOPE_STANDBY_BUCKET_RARE },
    { "45\n", ADBSCOPE_STANDBY_BUCKET_RESTRICTED },
    { "50\n", ADBSCOPE_STANDBY_BUCKET_NEVER },
    { "RARE\n", ADBSCOPE_STANDBY_BUCKET_RARE },
    { "working_set\n", ADBSCOPE_STANDBY_BUCKET_WORKING_SET },
  };
  AdbscopeStandbyBucket b;

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (adbscope_standby_bucket_parse (ok[i].text, -1, &b, &error));
      g_assert_no_error (error);
      g_assert_cmpint (b, ==, ok[i].bucket);
    }
  g_assert_cmpstr (adbscope_standby_bucket_to_string (ADBSCOPE_STANDBY_BUCKET_WORKING_SET), ==, "WORKING_SET");
  g_assert_cmpstr (adbscope_standby_bucket_to_string (ADBSCOPE_STANDBY_BUCKET_RESTRICTED), ==, "RESTRICTED");
  g_assert_true (adbscope_standby_bucket_from_string ("EXEMPTED", &b));
  g_assert_cmpint (b, ==, ADBSCOPE_STANDBY_BUCKET_EXEMPTED);

  {
    g_autoptr(GError) e1 = NULL;
    g_autoptr(GError) e2 = NULL;
    g_autoptr(GError) e3 = NULL;
    g_autoptr(GError) e4 = NULL;

    g_assert_false (adbscope_standby_bucket_parse ("", 0, &b, &e1));
    g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    g_assert_false (adbscope_standby_bucket_parse ("17\n", -1, &b, &e2));
    g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    g_assert_false (adbscope_standby_bucket_parse (
      "Exception occurred while executing 'get-standby-bucket':\n"
      "java.lang.IllegalArgumentException: Cannot get standby bucket for non existent package (com.nope)\n",
      -1, &b, &e3));
    g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PACKAGE_NOT_FOUND);
    g_assert_false (adbscope_standby_bucket_parse ("Unknown command: get-standby-bucket\n", -1, &b, &e4));
    g_assert_error (e4, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  }
}

static void
test_errors (void)
{
  g_autofree char *junk = random_bytes (9, 4096);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;
  g_autoptr(GError) e5 = NULL;
  g_autoptr(GError) e6 = NULL;

  g_assert_null (adbscope_jobs_parse ("", 0, "a.b", &e1));
  g_assert_error (e1, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_jobs_parse ("Can't find service: jobscheduler\n", -1, "a.b", &e2));
  g_assert_error (e2, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  g_assert_null (adbscope_jobs_parse (junk, 4096, "a.b", &e3));
  g_assert_error (e3, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_alarms_parse ("", 0, "a.b", &e4));
  g_assert_error (e4, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_null (adbscope_alarms_parse ("Can't find service: alarm\n", -1, "a.b", &e5));
  g_assert_error (e5, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED);
  g_assert_null (adbscope_alarms_parse (junk, 4096, "a.b", &e6));
  g_assert_error (e6, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dumpsys/jobs/every-fixture", test_every_fixture);
  g_test_add_func ("/dumpsys/jobs/jobscheduler-android13", test_jobs_android13);
  g_test_add_func ("/dumpsys/jobs/jobscheduler-android14-namespaces", test_jobs_android14_namespaces);
  g_test_add_func ("/dumpsys/jobs/jobscheduler-running-pending", test_jobs_running_pending);
  g_test_add_func ("/dumpsys/jobs/alarm-android13", test_alarms_android13);
  g_test_add_func ("/dumpsys/jobs/alarm-android14", test_alarms_android14);
  g_test_add_func ("/dumpsys/jobs/duration", test_duration);
  g_test_add_func ("/dumpsys/jobs/standby-bucket", test_standby_bucket);
  g_test_add_func ("/dumpsys/jobs/errors", test_errors);

  return g_test_run ();
}
