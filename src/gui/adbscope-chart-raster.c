/* adbscope-chart-raster.c: boxes of whole pixel columns, filled in place
 *
 * The image is premultiplied ARGB in native-endian 32-bit words: cairo's
 * ARGB32 and GDK_MEMORY_DEFAULT alike, so GTK takes it without converting.
 * A box spans whole columns (x in layer pixels, so `scale` device pixels
 * each) and any height; the rows it partly covers get the share of the
 * row it covers, as cairo's antialiasing gives an axis-aligned box.  The
 * blend is pixman's OVER with its rounding.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "adbscope-chart-raster.h"

struct _AdbscopeChartRaster
{
  guint32 *pixels;
  int      width;           /* device pixels */
  int      height;
  int      scale;
  double   top;             /* layer y of the first row */
  int      used[4];         /* x0, y0, x1, y1 of what was drawn, device pixels */
};

/**
 * adbscope_chart_raster_new:
 * @width: in layer pixels (one per column)
 * @top: the layer y of the image's top edge (a layer may draw a little
 *   above and below its plot: ADBSCOPE_CHART_BLEED)
 * @height: in layer pixels
 * @scale: device pixels per layer pixel
 *
 * Returns: (transfer full): a transparent image
 */
AdbscopeChartRaster *
adbscope_chart_raster_new (int    width,
                           double top,
                           double height,
                           int    scale)
{
  AdbscopeChartRaster *self = g_new0 (AdbscopeChartRaster, 1);

  self->scale = MAX (scale, 1);
  self->width = MAX (width, 1) * self->scale;
  self->height = MAX ((int) ceil (height * self->scale), 1);
  self->top = top;
  self->used[0] = self->width;
  self->used[1] = self->height;
  return self;
}

void
adbscope_chart_raster_free (AdbscopeChartRaster *self)
{
  if (self == NULL)
    return;
  g_free (self->pixels);
  g_free (self);
}

int
adbscope_chart_raster_get_width (const AdbscopeChartRaster *self)
{
  return self->width / self->scale;
}

/* x * a / 255 for each 8-bit channel of @x, rounded as pixman does. */
static inline guint32
mul_un8x4 (guint32 x,
           guint32 a)
{
  guint32 rb = (x & 0x00ff00ffu) * a + 0x00800080u;
  guint32 ag = ((x >> 8) & 0x00ff00ffu) * a + 0x00800080u;

  rb = ((rb + ((rb >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
  ag = (ag + ((ag >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
  return rb | ag;
}

static inline guint32
premultiply (const GdkRGBA *c)
{
  double a = CLAMP (c->alpha, 0, 1);
  guint32 a8 = (guint32) lround (a * 255);

  return a8 << 24 |
         (guint32) lround (CLAMP (c->red, 0, 1) * a * 255) << 16 |
         (guint32) lround (CLAMP (c->green, 0, 1) * a * 255) << 8 |
         (guint32) lround (CLAMP (c->blue, 0, 1) * a * 255);
}

/* One row of @n pixels: @src (premultiplied) OVER them. */
static inline void
blend_row (guint32 *p,
           int      n,
           guint32  src)
{
  guint32 ia = 255 - (src >> 24);

  for (int i = 0; i < n; i++)
    {
      guint32 d, rb, ag;

      /* nothing under it yet (most of an area), or an opaque source */
      if (p[i] == 0 || ia == 0)
        {
          p[i] = src;
          continue;
        }
      /* each channel saturates as pixman's ADD does (premultiplied
       * input never needs it, rounding might) */
      d = mul_un8x4 (p[i], ia);
      rb = (d & 0x00ff00ffu) + (src & 0x00ff00ffu);
      ag = ((d >> 8) & 0x00ff00ffu) + ((src >> 8) & 0x00ff00ffu);
      rb |= 0x01000100u - ((rb >> 8) & 0x00010001u);
      ag |= 0x01000100u - ((ag >> 8) & 0x00010001u);
      p[i] = (rb & 0x00ff00ffu) | (ag & 0x00ff00ffu) << 8;
    }
}

/* Row @r, covered @cover (0 to 1) of its height. */
static inline void
blend_partial_row (AdbscopeChartRaster *self,
                   int                  r,
                   int                  x0,
                   int                  x1,
                   double               cover,
                   guint32              src)
{
  guint32 a = (guint32) (cover * 255 + 0.5);

  if (a > 0)
    blend_row (self->pixels + (gsize) r * self->width + x0, x1 - x0, a >= 255 ? src : mul_un8x4 (src, a));
}

static void
fill_device_box (AdbscopeChartRaster *self,
                 int                  x0,
                 int                  x1,
                 double               y0,
                 double               y1,
                 guint32              src)
{
  int r0, r1, full0, full1;

  if (!isfinite (y0) || !isfinite (y1))
    return;                     /* as cairo draws nothing for such a path */
  x0 = MAX (x0, 0);
  x1 = MIN (x1, self->width);
  y0 = MAX (y0, 0);
  y1 = MIN (y1, self->height);
  if (x0 >= x1 || !(y0 < y1) || src == 0)
    return;
  if (self->pixels == NULL)
    self->pixels = g_malloc0_n ((gsize) self->width * self->height, sizeof (guint32));
  r0 = (int) floor (y0);
  r1 = (int) ceil (y1);
  full0 = (int) ceil (y0);      /* the rows covered whole: full0 to full1 - 1 */
  full1 = (int) floor (y1);
  if (full0 > full1)
    blend_partial_row (self, r0, x0, x1, y1 - y0, src);   /* inside one row */
  else
    {
      if (r0 < full0)
        blend_partial_row (self, r0, x0, x1, full0 - y0, src);
      for (int r = full0; r < full1; r++)
        blend_row (self->pixels + (gsize) r * self->width + x0, x1 - x0, src);
      if (full1 < r1)
        blend_partial_row (self, full1, x0, x1, y1 - full1, src);
    }
  self->used[0] = MIN (self->used[0], x0);
  self->used[1] = MIN (self->used[1], r0);
  self->used[2] = MAX (self->used[2], x1);
  self->used[3] = MAX (self->used[3], r1);
}

/**
 * adbscope_chart_raster_fill_box:
 * @x0: first column
 * @x1: the column after the last
 * @top: layer y
 * @bottom: layer y, below @top
 *
 * Fills columns @x0 to @x1 from @top to @bottom with @color.
 */
void
adbscope_chart_raster_fill_box (AdbscopeChartRaster *self,
                                int                  x0,
                                int                  x1,
                                double               top,
                                double               bottom,
                                const GdkRGBA       *color)
{
  fill_device_box (self, x0 * self->scale, x1 * self->scale, (top - self->top) * self->scale,
                   (bottom - self->top) * self->scale, premultiply (color));
}

/**
 * adbscope_chart_raster_fill_columns:
 * @columns: from adbscope_chart_line_columns()
 * @pad: how far the line reaches above each column's top and below its
 *   bottom (half the line's width)
 * @dash: columns on and off along the line (0: solid)
 *
 * The line through @columns: each column from top − @pad to bottom +
 * @pad; a column with top > bottom has no line.
 */
void
adbscope_chart_raster_fill_columns (AdbscopeChartRaster       *self,
                                    const AdbscopeChartColumn *columns,
                                    guint                      width,
                                    double                     pad,
                                    guint                      dash,
                                    const GdkRGBA             *color)
{
  guint32 src = premultiply (color);
  const int s = self->scale;

  for (guint c = 0; c < width; c++)
    {
      const AdbscopeChartColumn *col = &columns[c];
      guint end = c + 1;

      if (col->top > col->bottom || (dash > 0 && (c / dash) % 2 == 1))
        continue;
      /* neighbours of the same extent: one box */
      while (end < width && columns[end].top == col->top && columns[end].bottom == col->bottom &&
             (dash == 0 || (end / dash) % 2 == 0))
        end++;
      fill_device_box (self, (int) c * s, (int) end * s, (col->top - pad - self->top) * s,
                       (col->bottom + pad - self->top) * s, src);
      c = end - 1;
    }
}

/**
 * adbscope_chart_raster_fill_area:
 * @base: layer y the area reaches down to
 *
 * The area under the line through @columns: each column from its top
 * down to @base.
 */
void
adbscope_chart_raster_fill_area (AdbscopeChartRaster       *self,
                                 const AdbscopeChartColumn *columns,
                                 guint                      width,
                                 double                     base,
                                 const GdkRGBA             *color)
{
  guint32 src = premultiply (color);
  const int s = self->scale;

  for (guint c = 0; c < width; c++)
    if (columns[c].top <= columns[c].bottom && columns[c].top < base)
      fill_device_box (self, (int) c * s, (int) (c + 1) * s, (columns[c].top - self->top) * s,
                       (base - self->top) * s, src);
}

/**
 * adbscope_chart_raster_get_pixels:
 *
 * Returns: the whole image, premultiplied ARGB in native-endian words
 *   (NULL while nothing was drawn)
 */
const guint32 *
adbscope_chart_raster_get_pixels (const AdbscopeChartRaster *self,
                                  int                       *width,
                                  int                       *height,
                                  int                       *stride)
{
  *width = self->width;
  *height = self->height;
  *stride = self->width * 4;
  return self->pixels;
}

/**
 * adbscope_chart_raster_append:
 *
 * Appends what was drawn to @snapshot at the layer's origin (nothing when
 * nothing was drawn): only the rectangle of the image that was drawn in,
 * so GTK composites no transparent rows.  It goes as a cairo node that
 * paints the image, not as a texture: GTK 4.8's cairo renderer converts a
 * texture's every pixel into a new image on every frame (that was 40 % of
 * a scrolling frame's rendering), while an image painted from a cairo node
 * is copied by pixman's blit.  The raster is transparent again afterwards.
 */
void
adbscope_chart_raster_append (AdbscopeChartRaster *self,
                              GtkSnapshot         *snapshot)
{
  static const cairo_user_data_key_t pixels_key;
  cairo_surface_t *image;
  cairo_t *cr;
  int x0, y0, x1, y1;
  int stride = self->width * 4;

  /* whole layer pixels, so the image sits on the device pixel grid */
  x0 = self->used[0] / self->scale * self->scale;
  y0 = self->used[1] / self->scale * self->scale;
  x1 = MIN ((self->used[2] + self->scale - 1) / self->scale * self->scale, self->width);
  y1 = MIN ((self->used[3] + self->scale - 1) / self->scale * self->scale, self->height);
  if (self->pixels == NULL || x0 >= x1 || y0 >= y1)
    return;

  image = cairo_image_surface_create_for_data ((guchar *) (self->pixels + (gsize) y0 * self->width + x0),
                                               CAIRO_FORMAT_ARGB32, x1 - x0, y1 - y0, stride);
  cairo_surface_set_user_data (image, &pixels_key, g_steal_pointer (&self->pixels), g_free);
  cairo_surface_set_device_scale (image, self->scale, self->scale);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT ((double) x0 / self->scale,
                                                                 self->top + (double) y0 / self->scale,
                                                                 (double) (x1 - x0) / self->scale,
                                                                 (double) (y1 - y0) / self->scale));
  cairo_set_source_surface (cr, image, (double) x0 / self->scale, self->top + (double) y0 / self->scale);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (image);
  self->used[0] = self->width;
  self->used[1] = self->height;
  self->used[2] = self->used[3] = 0;
}
