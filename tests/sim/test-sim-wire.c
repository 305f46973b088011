/* test-sim-wire.c: the simulated device's parsers of host bytes */
#include "config.h"

#include <string.h>

#include "adbscope-sim-wire.h"

static void
put_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

static gsize
make_packet (guint8     *out,
             guint32     command,
             guint32     arg0,
             guint32     arg1,
             const char *payload)
{
  gsize len = strlen (payload) + 1;  /* OPEN payloads carry their NUL */

  put_u32 (out, command);
  put_u32 (out + 4, arg0);
  put_u32 (out + 8, arg1);
  put_u32 (out + 12, (guint32) len);
  put_u32 (out + 16, 0);
  put_u32 (out + 20, command ^ 0xffffffff);
  memcpy (out + 24, payload, len);
  return 24 + len;
}

static void
test_packet (void)
{
  guint8 buf[256];
  gsize n = make_packet (buf, 0x4e45504f, 7, 0, "shell,v2,raw:ls");
  AdbscopeSimPacket packet;

  /* every split point short of the whole packet asks for more */
  for (gsize cut = 0; cut < n; cut++)
    g_assert_cmpint (adbscope_sim_wire_parse_packet (buf, cut, 1 << 20, &packet), ==, 0);
  g_assert_cmpint (adbscope_sim_wire_parse_packet (buf, n, 1 << 20, &packet), ==, (gssize) n);
  g_assert_cmpuint (packet.command, ==, 0x4e45504f);
  g_assert_cmpuint (packet.arg0, ==, 7);
  g_assert_cmpstr ((const char *) packet.data, ==, "shell,v2,raw:ls");

  /* too long for the negotiated size, and a bad magic */
  g_assert_cmpint (adbscope_sim_wire_parse_packet (buf, n, 4, &packet), ==, -1);
  buf[20] ^= 1;
  g_assert_cmpint (adbscope_sim_wire_parse_packet (buf, n, 1 << 20, &packet), ==, -1);
}

static void
test_shell_packets (void)
{
  const guint8 data[] = { 0, 3, 0, 0, 0, 'a', 'b', 'c', 4, 0, 0, 0, 0, 5, 7, 0 };
  const guint8 *payload;
  guint32 plen;
  guint8 id;

  g_assert_cmpint (adbscope_sim_wire_parse_shell (data, 7, &id, &payload, &plen), ==, 0);
  g_assert_cmpint (adbscope_sim_wire_parse_shell (data, sizeof data, &id, &payload, &plen), ==, 8);
  g_assert_cmpint (id, ==, 0);
  g_assert_cmpmem (payload, plen, "abc", 3);
  g_assert_cmpint (adbscope_sim_wire_parse_shell (data + 8, 5, &id, &payload, &plen), ==, 5);
  g_assert_cmpint (id, ==, 4);
  g_assert_cmpuint (plen, ==, 0);
  /* a window-size packet cut after its header */
  g_assert_cmpint (adbscope_sim_wire_parse_shell (data + 13, 3, &id, &payload, &plen), ==, 0);
}

static void
test_sync (void)
{
  const guint8 send[] = "SEND\x0a\0\0\0/x/y,33188DONE\x01\0\0\0";
  const guint8 *payload;
  guint32 value;
  char id[5];

  g_assert_cmpint (adbscope_sim_wire_parse_sync (send, 10, 65536, id, &value, &payload), ==, 0);
  g_assert_cmpint (adbscope_sim_wire_parse_sync (send, sizeof send - 1, 65536, id, &value, &payload), ==, 18);
  g_assert_cmpstr (id, ==, "SEND");
  g_assert_cmpmem (payload, value, "/x/y,33188", 10);
  g_assert_cmpint (adbscope_sim_wire_parse_sync (send + 18, 8, 65536, id, &value, &payload), ==, 8);
  g_assert_cmpstr (id, ==, "DONE");
  g_assert_cmpuint (value, ==, 1);
  g_assert_cmpint (adbscope_sim_wire_parse_sync ((const guint8 *) "DATA\xff\xff\xff\x7f", 8, 65536,
                                                 id, &value, &payload), ==, -1);
}

static void
test_resolve (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "/data/local/tmp/x", "/r/data/local/tmp/x" },
    { "/../../etc/passwd", "/r/etc/passwd" },
    { "a/./b//c/..", "/r/a/b" },
    { "/", "/r" },
    { "", "/r" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = adbscope_sim_wire_resolve_path ("/r", cases[i].in);

      g_assert_cmpstr (got, ==, cases[i].out);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/wire/packet", test_packet);
  g_test_add_func ("/sim/wire/shell-packets", test_shell_packets);
  g_test_add_func ("/sim/wire/sync", test_sync);
  g_test_add_func ("/sim/wire/resolve", test_resolve);
  return g_test_run ();
}
