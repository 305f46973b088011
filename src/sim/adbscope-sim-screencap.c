/* adbscope-sim-screencap.c: the simulated device's `screencap`
 *
 * Draws what the demo app shows right now (its phase, frame counter and
 * the device's clock, a list scrolled by the frame count) at the
 * profile's full screen size and encodes it as PNG, like the real tool:
 * a real frame of work proportional to the screen's size, on one core, so
 * what Adbscope measures of it is a measurement.  Consecutive shots
 * differ.  `screencap -p` writes the PNG to stdout, `screencap -p FILE`
 * to FILE (inside the shell's real filesystem), and without -p the raw
 * format (width, height, format 1 = RGBA_8888, dataspace, then pixels).
 */
#include "config.h"

#include <cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adbscope-sim-app-state.h"
#include "adbscope-sim-private.h"

static cairo_status_t
write_fd (void                *closure,
          const unsigned char *data,
          unsigned int         length)
{
  int fd = GPOINTER_TO_INT (closure);

  while (length > 0)
    {
      ssize_t n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return CAIRO_STATUS_WRITE_ERROR;
      data += n;
      length -= (unsigned int) n;
    }
  return CAIRO_STATUS_SUCCESS;
}

static void
draw (cairo_t                   *cr,
      int                        width,
      int                        height,
      const AdbscopeSimAppState *st,
      gboolean                   have_state)
{
  static const double phase_rgb[][3] = {
    { 0.93, 0.95, 0.98 },   /* idle */
    { 0.90, 0.97, 0.91 },   /* scrolling */
    { 0.99, 0.93, 0.88 },   /* busy */
  };
  struct timespec ts;
  guint64 frames = have_state ? st->total_frames : 0;
  guint phase = have_state && st->phase <= ADBSCOPE_SIM_PHASE_BUSY ? st->phase : 0;
  double unit = width / 1080.0;
  double row_h = 180 * unit;
  double scroll = fmod ((double) frames * 12 * unit, row_h);
  char text[128];

  clock_gettime (CLOCK_MONOTONIC, &ts);

  cairo_set_source_rgb (cr, phase_rgb[phase][0], phase_rgb[phase][1], phase_rgb[phase][2]);
  cairo_paint (cr);

  /* The list: rows with an avatar, two lines of "text" and a gradient, as
   * a feed app draws them; they move with the frame counter. */
  for (int i = -1; i * row_h < height; i++)
    {
      double y = 260 * unit + i * row_h - scroll;
      guint64 item = frames * 12 * unit / row_h + i;
      cairo_pattern_t *grad = cairo_pattern_create_linear (0, y, width, y + row_h);

      cairo_pattern_add_color_stop_rgb (grad, 0, 1, 1, 1);
      cairo_pattern_add_color_stop_rgb (grad, 1, 0.85 + 0.1 * ((item * 37) % 7) / 7.0, 0.88, 0.95);
      cairo_rectangle (cr, 24 * unit, y + 12 * unit, width - 48 * unit, row_h - 24 * unit);
      cairo_set_source (cr, grad);
      cairo_fill (cr);
      cairo_pattern_destroy (grad);

      cairo_arc (cr, 110 * unit, y + row_h / 2, 50 * unit, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, ((item * 53) % 255) / 255.0, ((item * 97) % 255) / 255.0, 0.6);
      cairo_fill (cr);

      cairo_set_source_rgb (cr, 0.15, 0.15, 0.2);
      cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      cairo_set_font_size (cr, 44 * unit);
      g_snprintf (text, sizeof text, "Item %" G_GUINT64_FORMAT, item);
      cairo_move_to (cr, 190 * unit, y + 80 * unit);
      cairo_show_text (cr, text);
      cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size (cr, 34 * unit);
      cairo_move_to (cr, 190 * unit, y + 130 * unit);
      cairo_show_text (cr, "Lorem ipsum dolor sit amet, consectetur");
    }

  /* Status bar and app bar, on top: the frame counter and the clock. */
  cairo_rectangle (cr, 0, 0, width, 250 * unit);
  cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_select_font_face (cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 40 * unit);
  g_snprintf (text, sizeof text, "%02ld:%02ld:%02ld.%03ld", (long) (ts.tv_sec / 3600 % 24),
              (long) (ts.tv_sec / 60 % 60), (long) (ts.tv_sec % 60), ts.tv_nsec / 1000000);
  cairo_move_to (cr, 40 * unit, 60 * unit);
  cairo_show_text (cr, text);
  cairo_set_font_size (cr, 64 * unit);
  g_snprintf (text, sizeof text, "Demo · frame %" G_GUINT64_FORMAT, frames);
  cairo_move_to (cr, 40 * unit, 190 * unit);
  cairo_show_text (cr, text);

  /* Navigation bar. */
  cairo_rectangle (cr, 0, height - 120 * unit, width, 120 * unit);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_fill (cr);
}

static gboolean
write_raw (cairo_surface_t *surface,
           int              fd)
{
  int width = cairo_image_surface_get_width (surface);
  int height = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 header[4] = { GUINT32_TO_LE (width), GUINT32_TO_LE (height), GUINT32_TO_LE (1), 0 };
  g_autofree guint8 *row = g_malloc ((gsize) width * 4);

  if (write_fd (GINT_TO_POINTER (fd), (const guint8 *) header, sizeof header) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  for (int y = 0; y < height; y++)
    {
      const guint32 *px = (const guint32 *) (data + (gsize) y * stride);

      /* cairo's RGB24 is 0x00RRGGBB native; RGBA_8888 is bytes R, G, B, A. */
      for (int x = 0; x < width; x++)
        {
          row[4 * x] = (px[x] >> 16) & 0xff;
          row[4 * x + 1] = (px[x] >> 8) & 0xff;
          row[4 * x + 2] = px[x] & 0xff;
          row[4 * x + 3] = 0xff;
        }
      if (write_fd (GINT_TO_POINTER (fd), row, (unsigned int) width * 4) != CAIRO_STATUS_SUCCESS)
        return FALSE;
    }
  return TRUE;
}

int
adbscope_sim_screencap_main (const char               *sandbox,
                             const AdbscopeSimProfile *profile,
                             int                       argc,
                             char                    **argv)
{
  AdbscopeSimAppState st;
  gboolean have_state, png = FALSE;
  const char *file = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  int fd = STDOUT_FILENO;
  gboolean ok;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "-p"))
        png = TRUE;
      else if (g_str_equal (argv[i], "-h"))
        {
          fprintf (stderr, "usage: screencap [-hp] [FILENAME]\n");
          return 0;
        }
      else if (argv[i][0] == '-' || file != NULL)
        {
          fprintf (stderr, "usage: screencap [-hp] [FILENAME]\n");
          return 1;
        }
      else
        file = argv[i];
    }
  /* Like the real tool: a name ending in .png is a PNG. */
  if (file != NULL && g_str_has_suffix (file, ".png"))
    png = TRUE;

  have_state = adbscope_sim_app_state_read (sandbox, ADBSCOPE_SIM_DEMO_PACKAGE, &st);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, profile->width, profile->height);
  cr = cairo_create (surface);
  draw (cr, profile->width, profile->height, &st, have_state);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  if (file != NULL)
    {
      fd = open (file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0)
        {
          fprintf (stderr, "Error opening file: %s (%s)\n", file, g_strerror (errno));
          cairo_surface_destroy (surface);
          return 1;
        }
    }
  if (png)
    ok = cairo_surface_write_to_png_stream (surface, write_fd, GINT_TO_POINTER (fd)) == CAIRO_STATUS_SUCCESS;
  else
    ok = write_raw (surface, fd);
  if (file != NULL)
    close (fd);
  cairo_surface_destroy (surface);
  if (!ok)
    {
      fprintf (stderr, "screencap: write failed: %s\n", g_strerror (errno));
      return 1;
    }
  return 0;
}
