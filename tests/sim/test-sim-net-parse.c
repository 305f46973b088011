/* test-sim-net-parse.c: the parsers of the simulated device's servers
 *
 * The ClientHello is real: OpenSSL 3's `s_client -servername sni.demo.test`
 * as a socket received it (tests/sim/data/openssl-client-hello-sni.bin).
 */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "adbscope-sim-net-parse.h"

static GBytes *
openssl_hello (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "sim", "data", "openssl-client-hello-sni.bin", NULL);
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
test_client_hello (void)
{
  g_autoptr(GBytes) hello = openssl_hello ();
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (hello, &len);
  char *sni = NULL;

  g_assert_cmpuint (len, ==, 319);
  g_assert_cmpint (adbscope_sim_parse_client_hello (data, len, &sni), ==, 1);
  g_assert_cmpstr (sni, ==, "sni.demo.test");
  g_free (sni);
  /* Every prefix wants more and names nothing. */
  for (gsize cut = 0; cut < len; cut++)
    {
      sni = NULL;
      g_assert_cmpint (adbscope_sim_parse_client_hello (data, cut, &sni), ==, 0);
      g_assert_null (sni);
    }
  /* Not TLS at all, or a lying length inside the record. */
  g_assert_cmpint (adbscope_sim_parse_client_hello ((const guint8 *) "GET / HTTP/1.1\r\n", 16, &sni), ==, -1);
  {
    g_autofree guint8 *bad = g_memdup2 (data, len);

    bad[5 + 1] = 0xff;   /* handshake length beyond the record */
    g_assert_cmpint (adbscope_sim_parse_client_hello (bad, len, &sni), ==, -1);
    g_assert_null (sni);
  }
}

static void
test_dns_question (void)
{
  static const guint8 query[] = {
    0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
    3, 'A', 'p', 'i', 4, 'd', 'e', 'm', 'o', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1,
  };
  g_autofree char *name = NULL;
  guint8 copy[sizeof query];
  guint qtype = 0;
  gsize end = 0;

  g_assert_true (adbscope_sim_parse_dns_question (query, sizeof query, &name, &qtype, &end));
  g_assert_cmpstr (name, ==, "api.demo.test");
  g_assert_cmpuint (qtype, ==, 1);
  g_assert_cmpuint (end, ==, sizeof query);
  for (gsize cut = 0; cut < sizeof query; cut++)
    {
      char *n = NULL;

      g_assert_false (adbscope_sim_parse_dns_question (query, cut, &n, &qtype, &end));
      g_assert_null (n);
    }
  /* A response, a compression pointer, two questions: not answered. */
  memcpy (copy, query, sizeof query);
  copy[2] |= 0x80;
  g_assert_false (adbscope_sim_parse_dns_question (copy, sizeof copy, &name, &qtype, &end));
  memcpy (copy, query, sizeof query);
  copy[12] = 0xc0;
  g_assert_false (adbscope_sim_parse_dns_question (copy, sizeof copy, &name, &qtype, &end));
  memcpy (copy, query, sizeof query);
  copy[5] = 2;
  g_assert_false (adbscope_sim_parse_dns_question (copy, sizeof copy, &name, &qtype, &end));
}

static void
test_http_header (void)
{
  const char *head = "POST /upload HTTP/1.1\r\nhost: api.demo.test:8080 \r\nContent-Length:  42\r\nX: y";
  g_autofree char *host = adbscope_sim_http_header (head, "Host");
  g_autofree char *length = adbscope_sim_http_header (head, "Content-Length");
  g_autofree char *x = adbscope_sim_http_header (head, "X");
  g_autofree char *missing = adbscope_sim_http_header (head, "Cookie");
  g_autofree char *request_line = adbscope_sim_http_header ("Host: x\r\n", "Host");

  g_assert_cmpstr (host, ==, "api.demo.test:8080");
  g_assert_cmpstr (length, ==, "42");
  g_assert_cmpstr (x, ==, "y");
  g_assert_null (missing);
  g_assert_null (request_line);   /* the first line is the request line */
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/net-parse/client-hello", test_client_hello);
  g_test_add_func ("/sim/net-parse/dns-question", test_dns_question);
  g_test_add_func ("/sim/net-parse/http-header", test_http_header);
  return g_test_run ();
}
