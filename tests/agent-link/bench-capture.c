/* bench-capture.c: what `record --capture` costs the desktop (suite
 * benchmark; CI does not run it).
 *
 *   1. pcap writer throughput on a synthetic stream (no device);
 *   2. record with 1000 open connections in every snapshot: CPU and peak
 *      RSS of the record process (wait4), against the same record without
 *      --capture;
 *   3. a bulk download through the agent with --pcap: the rate the agent
 *      delivers, the rate the pcap was written at, and whether the agent
 *      had to drop pcap packets for us.
 * Needs root (the sim's network). */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adbscope-core.h"
#include "adbscope-test-device.h"

static char *work_dir;

static void
bench_writer (void)
{
  g_autofree char *path = g_build_filename (work_dir, "bench.pcap", NULL);
  g_autoptr(AdbscopePcapWriter) w = adbscope_pcap_writer_new (path, NULL);
  const gsize total = 512u * 1024 * 1024, chunk = 64 * 1024;
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  guint32 hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 101 };
  gint64 t0;
  double s;
  gsize fed = 0;

  /* 16 MiB of records (1500-byte and 65535-byte ones, as on the TUN),
   * fed again and again in 64 KiB reads, cut anywhere. */
  for (guint i = 0; stream->len < 16 * 1024 * 1024; i++)
    {
      guint len = i % 4 == 0 ? 65535 : 1500;
      guint32 rec[4] = { i, 0, len, len };
      g_autofree guint8 *pkt = g_malloc0 (len);

      pkt[0] = 0x45;
      g_byte_array_append (stream, (guint8 *) rec, sizeof rec);
      g_byte_array_append (stream, pkt, len);
    }
  adbscope_pcap_writer_begin_stream (w);
  g_assert_true (adbscope_pcap_writer_feed (w, (guint8 *) hdr, sizeof hdr, NULL));
  t0 = g_get_monotonic_time ();
  while (fed < total)
    for (gsize off = 0; off < stream->len; off += chunk, fed += chunk)
      g_assert_true (adbscope_pcap_writer_feed (w, stream->data + off, MIN (chunk, stream->len - off), NULL));
  s = (g_get_monotonic_time () - t0) / 1e6;
  g_print ("pcap writer: %.0f MiB in %.2f s = %.0f MB/s, %.0f packets/s (to %s)\n",
           fed / 1048576.0, s, fed / s / 1e6, adbscope_pcap_writer_get_packets (w) / s, work_dir);
  g_unlink (path);
}

typedef struct
{
  double   user_s, sys_s;
  long     maxrss_kb;
  int      status;
} Usage;

/* Runs adbscope ARGS… to the end and measures it. */
static Usage
run_measured (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  struct rusage ru;
  Usage u = { 0 };
  int status;
  pid_t pid;

  g_ptr_array_add (argv, (char *) g_getenv ("ADBSCOPE_BIN"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      freopen ("/dev/null", "w", stdout);
      execv (argv->pdata[0], (char **) argv->pdata);
      _exit (127);
    }
  g_assert_cmpint (wait4 (pid, &status, 0, &ru), ==, pid);
  u.user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
  u.sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  u.maxrss_kb = ru.ru_maxrss;
  u.status = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
  return u;
}

static JsonObject *
report_agent (const char *path)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  json_parser_load_from_file (p, path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (p));
  return json_object_ref (json_object_get_object_member (json_object_get_object_member (root, "network"), "agent"));
}

static AdbscopeTestDevice *
device_with_app (const char *mode,
                 const char *n)
{
  g_autofree char *app = g_strdup_printf ("com.example.bench=/usr/bin/python3 %s/agent-link/bench-app.py %s %s",
                                          g_getenv ("G_TEST_SRCDIR"), mode, n);
  const char *args[] = { "--network", "--agent-installed", "--demo-traffic", "off", "--app", app, NULL };
  g_autoptr(GError) error = NULL;
  AdbscopeTestDevice *dev = adbscope_test_device_start (NULL, args, &error);

  g_assert_no_error (error);
  return dev;
}

static void
bench_connections (void)
{
  g_autoptr(AdbscopeTestDevice) dev = device_with_app ("hold", "1000");
  g_autofree char *report = g_build_filename (work_dir, "hold.json", NULL);
  const char *plain[] = { "record", "-s", adbscope_test_device_get_serial (dev), "-p", "com.example.bench",
                          "--duration", "30s", "-o", report, NULL };
  const char *capture[] = { "record", "-s", adbscope_test_device_get_serial (dev), "-p", "com.example.bench",
                            "--capture", "--duration", "30s", "-o", report, NULL };
  g_autoptr(JsonObject) agent = NULL;
  Usage a, b;

  a = run_measured (capture);
  g_assert_cmpint (a.status, ==, 0);
  agent = report_agent (report);
  b = run_measured (plain);
  g_assert_cmpint (b.status, ==, 0);
  g_print ("record 30 s, %" G_GINT64_FORMAT " connections (%" G_GINT64_FORMAT " snapshots):\n"
           "  --capture:  CPU %.2f s user + %.2f s sys = %.1f %% of one core, peak RSS %ld kB\n"
           "  no capture: CPU %.2f s user + %.2f s sys = %.1f %% of one core, peak RSS %ld kB\n",
           json_object_get_int_member (agent, "connections_total"),
           json_object_get_int_member (json_object_get_object_member (agent, "link"), "snapshots"),
           a.user_s, a.sys_s, 100 * (a.user_s + a.sys_s) / 30, a.maxrss_kb,
           b.user_s, b.sys_s, 100 * (b.user_s + b.sys_s) / 30, b.maxrss_kb);
}

static void
bench_pcap (void)
{
  g_autoptr(AdbscopeTestDevice) dev = device_with_app ("download", "200000000");
  g_autofree char *report = g_build_filename (work_dir, "bulk.json", NULL);
  g_autofree char *pcap = g_build_filename (work_dir, "bulk.pcap", NULL);
  const char *capture[] = { "record", "-s", adbscope_test_device_get_serial (dev), "-p", "com.example.bench",
                            "--capture", "--pcap", pcap, "--duration", "20s", "-o", report, NULL };
  g_autoptr(JsonObject) agent = NULL;
  JsonObject *pc;
  GStatBuf st;
  Usage a;

  a = run_measured (capture);
  g_assert_cmpint (a.status, ==, 0);
  agent = report_agent (report);
  pc = json_object_get_object_member (agent, "pcap");
  g_assert_cmpint (g_stat (pcap, &st), ==, 0);
  g_print ("bulk download with --pcap, 20 s: agent delivered %.1f MB/s of payload to the app; "
           "pcap %.1f MB written = %.1f MB/s, %" G_GINT64_FORMAT " packets, agent counted %" G_GINT64_FORMAT
           ", dropped for us %" G_GINT64_FORMAT "; record CPU %.1f %% of one core, peak RSS %ld kB\n",
           json_object_get_int_member (agent, "payload_bytes_down") / 20.0 / 1e6,
           st.st_size / 1e6, st.st_size / 20.0 / 1e6,
           json_object_get_int_member (pc, "packets"), json_object_get_int_member (pc, "agent_packets"),
           json_object_get_int_member (pc, "dropped"), 100 * (a.user_s + a.sys_s) / 20, a.maxrss_kb);
  g_unlink (pcap);
}

int
main (int    argc,
      char **argv)
{
  work_dir = g_dir_make_tmp ("adbscope-bench-capture-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", work_dir, TRUE);
  bench_writer ();
  if (getuid () != 0)
    {
      g_print ("not root: the record benchmarks need the sim's network\n");
      return 0;
    }
  bench_connections ();
  bench_pcap ();
  return 0;
}
