/* bench-agent: throughput and latency through the engine against direct
 * loopback in the same run, and the engine's CPU time per GB.  Prints
 * numbers; it is a measurement, not a pass/fail test.
 *
 *   bench-agent [MiB] [MTU…]      (default: 256 MiB at MTU 1500 and 10000) */
#include "agent-test-util.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int listen_fd;
static guint16 listen_port;

/* One connection at a time: 8 bytes say how much to send (0: echo mode). */
static gpointer
server_main (gpointer data)
{
  static guint8 zero[256 * 1024];

  for (;;)
    {
      int fd = accept (listen_fd, NULL, NULL);
      guint64 n = 0, sent = 0;

      if (fd < 0)
        return NULL;
      if (read (fd, &n, sizeof n) != sizeof n)
        {
          close (fd);
          continue;
        }
      if (n == 0)
        {
          guint8 c;
          int one = 1;

          setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          while (read (fd, &c, 1) == 1 && write (fd, &c, 1) == 1)
            ;
        }
      while (sent < n)
        {
          ssize_t w = write (fd, zero, MIN (sizeof zero, n - sent));

          if (w <= 0)
            break;
          sent += (guint64) w;
        }
      close (fd);
    }
}

static int
connect_to (AtNet *net)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (listen_port) };
  int fd = net ? at_client_socket (net, AF_INET, SOCK_STREAM) : socket (AF_INET, SOCK_STREAM, 0);

  inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
  if (connect (fd, (struct sockaddr *) &sin, sizeof sin) < 0)
    g_error ("connect: %s", g_strerror (errno));
  return fd;
}

static double
download (AtNet  *net,
          guint64 n)
{
  static guint8 buf[256 * 1024];
  int fd = connect_to (net);
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
  close (fd);
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

/* CPU seconds of the engine's threads (both are named "engine"). */
static double
engine_cpu (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *de;
  double total = 0;

  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/stat", de->d_name);
      g_autofree char *stat = NULL;
      char *p;
      unsigned long ut, st;

      if (de->d_name[0] == '.' || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      if (strstr (stat, "(engine)") == NULL)
        continue;
      p = strrchr (stat, ')');
      if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
        total += (double) (ut + st) / (double) sysconf (_SC_CLK_TCK);
    }
  closedir (d);
  return total;
}

int
main (int    argc,
      char **argv)
{
  guint64 mib = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 256;
  guint64 n = mib << 20;
  int mtus[8] = { 1500, 10000 }, n_mtus = 2, i;
  struct sockaddr_in sin = { .sin_family = AF_INET };
  socklen_t sl = sizeof sin;
  double direct_t, direct_lat;

  if (argc > 2)
    for (n_mtus = 0; n_mtus + 2 < argc && n_mtus < 8; n_mtus++)
      mtus[n_mtus] = atoi (argv[n_mtus + 2]);

  at_init ();
  listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  inet_pton (AF_INET, AT_SERVER4, &sin.sin_addr);
  g_assert_cmpint (bind (listen_fd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  g_assert_cmpint (listen (listen_fd, 16), ==, 0);
  getsockname (listen_fd, (struct sockaddr *) &sin, &sl);
  listen_port = ntohs (sin.sin_port);
  g_thread_unref (g_thread_new ("server", server_main, NULL));

  download (NULL, 16 << 20);                        /* warm-up */
  direct_t = download (NULL, n);
  direct_lat = latency (NULL, 5000);
  printf ("direct loopback: %.0f MiB in %.3f s = %.2f Gbit/s; median RTT %.1f us\n",
          (double) mib, direct_t, (double) n * 8 / direct_t / 1e9, direct_lat);

  for (i = 0; i < n_mtus; i++)
    {
      AtNet *net = at_net_new (mtus[i]);
      AtEngineOptions opt;
      AtEngine *engine;
      double t, cpu0, cpu, lat;

      at_engine_options_init (&opt);
      opt.mtu = mtus[i];
      engine = at_engine_start (net, &opt);
      download (net, 16 << 20);
      cpu0 = engine_cpu ();
      t = download (net, n);
      cpu = engine_cpu () - cpu0;
      lat = latency (net, 5000);
      printf ("engine, MTU %5d: %.0f MiB in %.3f s = %.2f Gbit/s (%.0f %% of direct); "
              "median RTT %.1f us (+%.1f us); engine CPU %.2f s per GB\n",
              mtus[i], (double) mib, t, (double) n * 8 / t / 1e9, 100.0 * direct_t / t,
              lat, lat - direct_lat, cpu / ((double) n / 1e9));
      fflush (stdout);
      at_engine_stop (engine);
      at_net_free (net);
    }
  return 0;
}
