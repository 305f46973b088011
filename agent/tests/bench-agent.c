/* bench-agent: throughput (download and upload) and latency through the
 * engine against direct loopback, the engine's CPU time and context
 * switches per GB.  Prints numbers; it is a measurement, not a pass/fail
 * test.  The engine runs without the tests' packet hook, as in production.
 *
 *   bench-agent [MiB] [MTU…]   (default: 256 MiB at MTU 1500, 10000 and 65535)
 *
 * Each MTU runs BENCH_ROUNDS rounds (default 7).  In a round each
 * direction moves MiB through direct loopback and through the engine over
 * two connections kept open, which of the two goes first swapping every
 * round; a round's ratio is direct time over engine time, and the report
 * gives the median with the range over the rounds, and the load average.
 * BENCH_SLICES=N cuts each transfer into N slices alternating between the
 * two (default 1: each slice costs direct loopback, the faster side, more
 * than the engine, so slices inflate the ratio: 8 slices of 32 MiB took
 * direct uploads from 40-50 to 17-26 Gbit/s and left the engine's at 12-13).  BENCH_ONLY=down or up measures one
 * direction (under perf).  BENCH_PIN=C,S,E pins the client thread to CPU
 * C, the server's threads to S and the engine's to E, the same way for
 * direct and engine runs (a CPU of -1 leaves that side free). */
#include "agent-test-util.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <sched.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int listen_fd;
static guint16 listen_port;
static int pin_client = -1, pin_server = -1, pin_engine = -1;

#define UPLOAD_FLAG (G_GUINT64_CONSTANT (1) << 63)

static void
pin_thread (pid_t tid,
            int   cpu)
{
  cpu_set_t set;

  if (cpu < 0)
    return;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (tid, sizeof set, &set) < 0)
    g_error ("BENCH_PIN: CPU %d: %s", cpu, g_strerror (errno));
}

/* One connection: requests of 8 bytes until EOF; each says how much to
 * send (0: echo mode until EOF; with UPLOAD_FLAG: how much to receive
 * before answering one byte). */
static gpointer
conn_main (gpointer data)
{
  int fd = GPOINTER_TO_INT (data);
  guint8 *buf = g_malloc0 (256 * 1024);
  guint64 n;

  pin_thread (0, pin_server);
  while (read (fd, &n, sizeof n) == sizeof n)
    {
      guint64 done = 0;

      if (n & UPLOAD_FLAG)
        {
          guint64 want = n & ~UPLOAD_FLAG;

          while (done < want)
            {
              ssize_t r = read (fd, buf, MIN (256 * 1024, want - done));

              if (r <= 0)
                break;
              done += (guint64) r;
            }
          if (write (fd, "k", 1) != 1)
            g_warning ("upload answer: %s", g_strerror (errno));
        }
      else if (n == 0)
        {
          guint8 c;
          int one = 1;

          setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          while (read (fd, &c, 1) == 1 && write (fd, &c, 1) == 1)
            ;
          break;
        }
      else
        while (done < n)
          {
            ssize_t w = write (fd, buf, MIN (256 * 1024, n - done));

            if (w <= 0)
              break;
            done += (guint64) w;
          }
    }
  close (fd);
  g_free (buf);
  return NULL;
}

static gpointer
server_main (gpointer data)
{
  for (;;)
    {
      int fd = accept (listen_fd, NULL, NULL);

      if (fd < 0)
        return NULL;
      g_thread_unref (g_thread_new ("server", conn_main, GINT_TO_POINTER (fd)));
    }
}

static int
connect_to (AtNet *net)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (listen_port) };
  int fd = net ? at_client_socket (net, AF_INET, SOCK_STREAM) : socket (AF_INET, SOCK_STREAM, 0);

  inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
  if (g_getenv ("BENCH_CC")
      && setsockopt (fd, IPPROTO_TCP, TCP_CONGESTION, g_getenv ("BENCH_CC"),
                     strlen (g_getenv ("BENCH_CC"))) < 0)
    g_error ("TCP_CONGESTION %s: %s", g_getenv ("BENCH_CC"), g_strerror (errno));
  if (connect (fd, (struct sockaddr *) &sin, sizeof sin) < 0)
    g_error ("connect: %s", g_strerror (errno));
  return fd;
}

/* Seconds to receive @n bytes on the open connection @fd. */
static double
download (int     fd,
          guint64 n)
{
  static guint8 buf[256 * 1024];
  guint64 got = 0;
  gint64 t0 = g_get_monotonic_time ();

  g_assert_cmpint (write (fd, &n, sizeof n), ==, sizeof n);
  while (got < n)
    {
      ssize_t r = read (fd, buf, sizeof buf);

      if (r <= 0)
        g_error ("download stopped at %" G_GUINT64_FORMAT, got);
      got += (guint64) r;
    }
  return (double) (g_get_monotonic_time () - t0) / 1e6;
}

/* Seconds to send @n bytes on @fd and hear that they all arrived. */
static double
upload (int     fd,
        guint64 n)
{
  static guint8 buf[256 * 1024];
  guint64 sent = 0, hdr = n | UPLOAD_FLAG;
  gint64 t0 = g_get_monotonic_time ();
  char c;

  g_assert_cmpint (write (fd, &hdr, sizeof hdr), ==, sizeof hdr);
  while (sent < n)
    {
      ssize_t w = write (fd, buf, MIN (sizeof buf, n - sent));

      if (w <= 0)
        g_error ("upload stopped at %" G_GUINT64_FORMAT, sent);
      sent += (guint64) w;
    }
  if (read (fd, &c, 1) != 1)
    g_error ("upload: no answer");
  return (double) (g_get_monotonic_time () - t0) / 1e6;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Median round trip of a one-byte ping-pong, in microseconds. */
static double
latency (AtNet *net,
         int    rounds)
{
  int fd = connect_to (net), one = 1, i;
  guint64 zero = 0;
  double *rtt = g_new (double, rounds), median;

  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  g_assert_cmpint (write (fd, &zero, sizeof zero), ==, sizeof zero);
  for (i = 0; i < rounds; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      guint8 c = 'x';

      g_assert_cmpint (write (fd, &c, 1), ==, 1);
      g_assert_cmpint (read (fd, &c, 1), ==, 1);
      rtt[i] = (double) (g_get_monotonic_time () - t0);
    }
  close (fd);
  qsort (rtt, (size_t) rounds, sizeof *rtt, cmp_double);
  median = rtt[rounds / 2];
  g_free (rtt);
  return median;
}

typedef struct {
  double  cpu;                    /* seconds */
  guint64 switches;               /* voluntary + involuntary */
} Usage;

/* CPU time and context switches of the engine's threads (all are named
 * "engine"). */
static Usage
engine_usage (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *de;
  Usage u = { 0, 0 };

  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/stat", de->d_name);
      g_autofree char *spath = g_strdup_printf ("/proc/self/task/%s/status", de->d_name);
      g_autofree char *stat = NULL;
      g_autofree char *status = NULL;
      char *p;
      unsigned long ut, st;

      if (de->d_name[0] == '.' || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      if (strstr (stat, "(engine)") == NULL)
        continue;
      p = strrchr (stat, ')');
      if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
        u.cpu += (double) (ut + st) / (double) sysconf (_SC_CLK_TCK);
      if (g_file_get_contents (spath, &status, NULL, NULL))
        for (p = status; (p = strstr (p, "ctxt_switches:")) != NULL; p++)
          u.switches += g_ascii_strtoull (p + strlen ("ctxt_switches:"), NULL, 10);
    }
  closedir (d);
  return u;
}

/* CPU seconds of the whole process: server, client and engine threads. */
static double
process_cpu (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
         + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
}

/* Median, minimum and maximum of @n values (sorted in place). */
typedef struct {
  double median, min, max;
} Spread;

static Spread
spread (double *v,
        int     n)
{
  Spread s;

  qsort (v, (size_t) n, sizeof *v, cmp_double);
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v[0];
  s.max = v[n - 1];
  return s;
}

#define MAX_ROUNDS 64

/* One direction of one round. */
typedef struct {
  double t_direct, t_engine;      /* seconds */
  double cpu_direct, cpu_engine;  /* all threads' CPU seconds */
  Usage  engine;                  /* the engine's threads over the leg */
} Leg;

/* Moves @n bytes each way (direct and through the engine) in @slices
 * slices that alternate, which side goes first switching each slice
 * (@engine_first: in the first). */
static void
leg_run (Leg     *leg,
         int      fd_direct,
         int      fd_engine,
         guint64  n,
         int      slices,
         gboolean up,
         gboolean engine_first)
{
  guint64 slice = n / (guint64) slices;
  Usage u0 = engine_usage (), u1;
  int k, side;

  memset (leg, 0, sizeof *leg);
  for (k = 0; k < slices; k++)
    for (side = 0; side < 2; side++)
      {
        gboolean engine = ((side ^ k) & 1) ^ (engine_first ? 1 : 0);
        int fd = engine ? fd_engine : fd_direct;
        double p0 = process_cpu ();
        double t = up ? upload (fd, slice) : download (fd, slice);
        double cpu = process_cpu () - p0;

        if (engine)
          {
            leg->t_engine += t;
            leg->cpu_engine += cpu;
          }
        else
          {
            leg->t_direct += t;
            leg->cpu_direct += cpu;
          }
      }
  u1 = engine_usage ();
  leg->engine.cpu = u1.cpu - u0.cpu;
  leg->engine.switches = u1.switches - u0.switches;
}

static void
pin_engine_threads (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *de;

  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/comm", de->d_name);
      g_autofree char *comm = NULL;

      if (de->d_name[0] != '.' && g_file_get_contents (path, &comm, NULL, NULL)
          && g_str_has_prefix (comm, "engine"))
        pin_thread ((pid_t) atoi (de->d_name), pin_engine);
    }
  closedir (d);
}

static double
load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return -1;
  return g_ascii_strtod (text, NULL);
}

int
main (int    argc,
      char **argv)
{
  guint64 mib = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 256;
  guint64 n = mib << 20;
  int mtus[8] = { 1500, 10000, 65535 }, n_mtus = 3, i, r;
  int rounds = g_getenv ("BENCH_ROUNDS") ? atoi (g_getenv ("BENCH_ROUNDS")) : 7;
  int slices = g_getenv ("BENCH_SLICES") ? atoi (g_getenv ("BENCH_SLICES")) : 1;
  /* BENCH_ONLY=down or up: one direction (for a profiler). */
  gboolean only_down = g_strcmp0 (g_getenv ("BENCH_ONLY"), "down") == 0;
  gboolean only_up = g_strcmp0 (g_getenv ("BENCH_ONLY"), "up") == 0;
  struct sockaddr_in sin = { .sin_family = AF_INET };
  socklen_t sl = sizeof sin;
  double gb = (double) n / 1e9;
  int fd_direct;

  if (argc > 2)
    for (n_mtus = 0; n_mtus + 2 < argc && n_mtus < 8; n_mtus++)
      mtus[n_mtus] = atoi (argv[n_mtus + 2]);
  rounds = CLAMP (rounds, 1, MAX_ROUNDS);
  slices = CLAMP (slices, 1, 1024);
  if (g_getenv ("BENCH_PIN")
      && sscanf (g_getenv ("BENCH_PIN"), "%d,%d,%d", &pin_client, &pin_server, &pin_engine) != 3)
    g_error ("BENCH_PIN wants CLIENT,SERVER,ENGINE CPUs (-1: not pinned): %s",
             g_getenv ("BENCH_PIN"));
  if (mib == 0 || n / (guint64) slices == 0)
    g_error ("nothing to move: %" G_GUINT64_FORMAT " MiB in %d slices", mib, slices);

  at_init ();
  pin_thread (0, pin_client);
  listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  /* BENCH_CC: the server's sockets too (they inherit it); the engine's
   * keep the system's default, as in production. */
  if (g_getenv ("BENCH_CC")
      && setsockopt (listen_fd, IPPROTO_TCP, TCP_CONGESTION, g_getenv ("BENCH_CC"),
                     strlen (g_getenv ("BENCH_CC"))) < 0)
    g_error ("TCP_CONGESTION %s: %s", g_getenv ("BENCH_CC"), g_strerror (errno));
  inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
  g_assert_cmpint (bind (listen_fd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  g_assert_cmpint (listen (listen_fd, 16), ==, 0);
  getsockname (listen_fd, (struct sockaddr *) &sin, &sl);
  listen_port = ntohs (sin.sin_port);
  g_thread_unref (g_thread_new ("server", server_main, NULL));

  printf ("%" G_GUINT64_FORMAT " MiB per direction and side per round, %d rounds per MTU, "
          "BENCH_SLICES %d; BENCH_PIN %s; BENCH_CC %s; load average %.2f\n",
          mib, rounds, slices, g_getenv ("BENCH_PIN") ? g_getenv ("BENCH_PIN") : "none",
          g_getenv ("BENCH_CC") ? g_getenv ("BENCH_CC") : "system's", load_average ());
  fd_direct = connect_to (NULL);
  download (fd_direct, 16 << 20);                   /* warm-up */
  for (i = 0; i < n_mtus; i++)
    {
      AtNet *net = at_net_new (mtus[i]);
      AtEngineOptions opt;
      AtEngine *engine;
      double r_down[MAX_ROUNDS], r_up[MAX_ROUNDS], g_down[MAX_ROUNDS], g_up[MAX_ROUNDS];
      double dg_down[MAX_ROUNDS], dg_up[MAX_ROUNDS], rtt_add[MAX_ROUNDS], rtt_direct[MAX_ROUNDS];
      double cpu_down[MAX_ROUNDS], cpu_up[MAX_ROUNDS], sw_down[MAX_ROUNDS], sw_up[MAX_ROUNDS];
      double all_down[MAX_ROUNDS], all_direct[MAX_ROUNDS], all_up[MAX_ROUNDS],
             all_direct_up[MAX_ROUNDS];
      Spread s_rd, s_ru, s_gd, s_gu, s_dgd, s_dgu, s_rtt, s_rttd, s_cd, s_cu, s_sd, s_su, s_ad,
             s_adir, s_au, s_adiru;
      double load0 = load_average ();
      int fd_engine;

      at_engine_options_init (&opt);
      opt.mtu = mtus[i];
      opt.no_hook = TRUE;
      engine = at_engine_start (net, &opt);
      fd_engine = connect_to (net);
      download (fd_engine, 16 << 20);
      pin_engine_threads ();          /* all of them run by now */
      for (r = 0; r < rounds; r++)
        {
          Leg down = { 0 }, up = { 0 };
          double lat, d_lat;

          if (!only_up)
            leg_run (&down, fd_direct, fd_engine, n, slices, FALSE, r & 1);
          if (!only_down)
            leg_run (&up, fd_direct, fd_engine, n, slices, TRUE, r & 1);
          d_lat = latency (NULL, 2000);
          lat = latency (net, 2000);

          r_down[r] = only_up ? 1 : down.t_direct / down.t_engine;
          r_up[r] = only_down ? 1 : up.t_direct / up.t_engine;
          g_down[r] = only_up ? 0 : (double) n * 8 / down.t_engine / 1e9;
          g_up[r] = only_down ? 0 : (double) n * 8 / up.t_engine / 1e9;
          dg_down[r] = only_up ? 0 : (double) n * 8 / down.t_direct / 1e9;
          dg_up[r] = only_down ? 0 : (double) n * 8 / up.t_direct / 1e9;
          rtt_add[r] = lat - d_lat;
          rtt_direct[r] = d_lat;
          cpu_down[r] = down.engine.cpu / gb;
          cpu_up[r] = up.engine.cpu / gb;
          sw_down[r] = (double) down.engine.switches / gb;
          sw_up[r] = (double) up.engine.switches / gb;
          all_down[r] = down.cpu_engine / gb;
          all_direct[r] = down.cpu_direct / gb;
          all_up[r] = up.cpu_engine / gb;
          all_direct_up[r] = up.cpu_direct / gb;
          printf ("  MTU %5d round %d: down %.2f of direct (%.2f / %.2f Gbit/s), "
                  "up %.2f (%.2f / %.2f), RTT +%.0f us (direct %.0f), "
                  "engine %.2f / %.2f s/GB, load %.2f\n",
                  mtus[i], r + 1, r_down[r], g_down[r], dg_down[r], r_up[r], g_up[r], dg_up[r],
                  rtt_add[r], d_lat, cpu_down[r], cpu_up[r], load_average ());
          fflush (stdout);
        }
      s_rd = spread (r_down, rounds);
      s_ru = spread (r_up, rounds);
      s_gd = spread (g_down, rounds);
      s_gu = spread (g_up, rounds);
      s_dgd = spread (dg_down, rounds);
      s_dgu = spread (dg_up, rounds);
      s_rtt = spread (rtt_add, rounds);
      s_rttd = spread (rtt_direct, rounds);
      s_cd = spread (cpu_down, rounds);
      s_cu = spread (cpu_up, rounds);
      s_sd = spread (sw_down, rounds);
      s_su = spread (sw_up, rounds);
      s_ad = spread (all_down, rounds);
      s_adir = spread (all_direct, rounds);
      s_au = spread (all_up, rounds);
      s_adiru = spread (all_direct_up, rounds);
      /* Medians, with the range over the rounds in brackets. */
      printf ("MTU %5d: down %.2f of direct [%.2f-%.2f] (%.2f Gbit/s, direct %.2f); "
              "up %.2f of direct [%.2f-%.2f] (%.2f Gbit/s, direct %.2f); "
              "RTT +%.0f us [%.0f-%.0f] (direct %.0f); "
              "engine CPU %.2f [%.2f-%.2f] s/GB down, %.2f [%.2f-%.2f] s/GB up; "
              "context switches %.0f/GB down, %.0f/GB up; "
              "all threads' CPU %.2f s/GB down (direct %.2f), %.2f s/GB up (direct %.2f); "
              "load average %.2f-%.2f\n",
              mtus[i], s_rd.median, s_rd.min, s_rd.max, s_gd.median, s_dgd.median,
              s_ru.median, s_ru.min, s_ru.max, s_gu.median, s_dgu.median,
              s_rtt.median, s_rtt.min, s_rtt.max, s_rttd.median,
              s_cd.median, s_cd.min, s_cd.max, s_cu.median, s_cu.min, s_cu.max,
              s_sd.median, s_su.median, s_ad.median, s_adir.median, s_au.median,
              s_adiru.median, load0, load_average ());
      fflush (stdout);
      close (fd_engine);
      at_engine_stop (engine);
      at_net_free (net);
    }
  close (fd_direct);
  return 0;
}
