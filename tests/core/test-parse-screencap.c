/* test-parse-screencap.c: splitting `uptime, PNG, uptime, stat` honestly */
#include "config.h"

#include <math.h>
#include <string.h>
#include <zlib.h>

#include "adbscope-core.h"

/* A real 3×2 RGB PNG (every chunk with its CRC), built here. */
static void
chunk (GByteArray  *out,
       const char  *kind,
       const guint8 *body,
       guint32      len)
{
  guint8 be[4] = { len >> 24, len >> 16, len >> 8, len };
  guint32 crc = crc32 (0, (const guint8 *) kind, 4);

  crc = crc32 (crc, body, len);
  g_byte_array_append (out, be, 4);
  g_byte_array_append (out, (const guint8 *) kind, 4);
  g_byte_array_append (out, body, len);
  be[0] = crc >> 24, be[1] = crc >> 16, be[2] = crc >> 8, be[3] = crc;
  g_byte_array_append (out, be, 4);
}

static GByteArray *
tiny_png (void)
{
  static const guint8 sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  /* width 3, height 2, depth 8, colour 2 (RGB) */
  static const guint8 ihdr[13] = { 0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0 };
  guint8 raw[2 * (1 + 9)] = { 0 };
  guint8 z[128];
  uLongf zlen = sizeof z;
  GByteArray *png = g_byte_array_new ();

  /* a 0x0a (LF) and a 0x0d (CR) in the pixels: a tty would mangle them */
  raw[1] = '\n';
  raw[2] = '\r';
  g_assert_cmpint (compress (z, &zlen, raw, sizeof raw), ==, Z_OK);
  g_byte_array_append (png, sig, 8);
  chunk (png, "IHDR", ihdr, 13);
  chunk (png, "IDAT", z, (guint32) zlen);
  chunk (png, "IEND", NULL, 0);
  return png;
}

static GByteArray *
wrapped (GByteArray *png,
         const char *head,
         const char *tail)
{
  GByteArray *all = g_byte_array_new ();

  g_byte_array_append (all, (const guint8 *) head, strlen (head));
  g_byte_array_append (all, png->data, png->len);
  g_byte_array_append (all, (const guint8 *) tail, strlen (tail));
  return all;
}

static void
test_whole (void)
{
  g_autoptr(GByteArray) png = tiny_png ();
  g_autoptr(GByteArray) all = wrapped (png, "12126.68 9822.25\n",
                                       "12127.10 9822.25\n"
                                       "16495 (s h) S 16370 16495 16495 0 -1 4194560 117 3900 0 0 0 0 13 3 20 0 1 0\n");
  g_autoptr(GError) error = NULL;
  AdbscopeScreencap cap;

  g_assert_true (adbscope_parse_screencap (all->data, all->len, &cap, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cap.png_offset, ==, strlen ("12126.68 9822.25\n"));
  g_assert_cmpuint (cap.png_len, ==, png->len);
  g_assert_cmpint (memcmp (all->data + cap.png_offset, png->data, png->len), ==, 0);
  g_assert_cmpuint (cap.width, ==, 3);
  g_assert_cmpuint (cap.height, ==, 2);
  g_assert_cmpfloat (cap.wall_ms, ==, 420);
  /* cutime 13 + cstime 3 ticks; a ')' in the name does not shift fields */
  g_assert_cmpfloat (cap.cpu_ms, ==, 160);
}

/* No uptime or stat (a shell without /proc): the picture, cost unknown. */
static void
test_no_cost (void)
{
  g_autoptr(GByteArray) png = tiny_png ();
  g_autoptr(GError) error = NULL;
  AdbscopeScreencap cap;

  g_assert_true (adbscope_parse_screencap (png->data, png->len, &cap, &error));
  g_assert_true (isnan (cap.wall_ms));
  g_assert_true (isnan (cap.cpu_ms));
}

static void
test_refused (void)
{
  g_autoptr(GByteArray) png = tiny_png ();
  g_autoptr(GByteArray) mangled = g_byte_array_new ();
  const char *missing = "12126.68 9822.25\n/system/bin/sh: screencap: not found\n12126.70 9822.25\n";
  g_autoptr(GError) error = NULL;
  AdbscopeScreencap cap;

  /* What the device printed instead of a picture is in the error. */
  g_assert_false (adbscope_parse_screencap ((const guint8 *) missing, strlen (missing), &cap, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "screencap: not found"));
  g_clear_error (&error);

  /* Cut short (the link dropped): refused, never half a picture. */
  for (guint cut = 9; cut < png->len; cut += 7)
    {
      g_assert_false (adbscope_parse_screencap (png->data, cut, &cap, &error));
      g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
      g_clear_error (&error);
    }

  /* Through a tty (`adb shell`, not exec-out) LF becomes CR LF: refused. */
  for (guint i = 0; i < png->len; i++)
    {
      if (png->data[i] == '\n')
        g_byte_array_append (mangled, (const guint8 *) "\r", 1);
      g_byte_array_append (mangled, png->data + i, 1);
    }
  g_assert_false (adbscope_parse_screencap (mangled->data, mangled->len, &cap, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);

  g_assert_false (adbscope_parse_screencap (NULL, 0, &cap, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  g_clear_error (&error);

  /* Not a picture though every chunk is whole (found by fuzz-screencap):
   * an IHDR of 9 bytes instead of 13, and no IDAT; and a sound IHDR with
   * no IDAT after it. */
  {
    static const guint8 sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const guint8 ihdr[13] = { 0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0 };
    g_autoptr(GByteArray) short_ihdr = g_byte_array_new ();
    g_autoptr(GByteArray) no_idat = g_byte_array_new ();

    g_byte_array_append (short_ihdr, sig, 8);
    chunk (short_ihdr, "IHDR", ihdr, 9);
    chunk (short_ihdr, "IDAT", ihdr, 4);
    chunk (short_ihdr, "IEND", NULL, 0);
    g_assert_false (adbscope_parse_screencap (short_ihdr->data, short_ihdr->len, &cap, &error));
    g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
    g_clear_error (&error);

    g_byte_array_append (no_idat, sig, 8);
    chunk (no_idat, "IHDR", ihdr, 13);
    chunk (no_idat, "IEND", NULL, 0);
    g_assert_false (adbscope_parse_screencap (no_idat->data, no_idat->len, &cap, &error));
    g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/screencap/whole", test_whole);
  g_test_add_func ("/screencap/no-cost", test_no_cost);
  g_test_add_func ("/screencap/refused", test_refused);
  return g_test_run ();
}
