/* adbscope-app-icon.c: rendering a launcher icon with cairo, libwebp and
 * librsvg (see the header for what is drawn) */
#include "config.h"

#include <cairo.h>
#include <glib/gi18n.h>
#include <librsvg/rsvg.h>
#include <math.h>
#include <string.h>
#include <webp/decode.h>

#include "adbscope-app-icon.h"
#include "adbscope-error.h"

#define ATTR_DRAWABLE        0x01010199u
#define ATTR_SRC             0x01010119u
#define ATTR_COLOR           0x010101a5u
#define ATTR_WIDTH           0x01010159u
#define ATTR_HEIGHT          0x01010155u
#define ATTR_VIEWPORT_WIDTH  0x01010402u
#define ATTR_VIEWPORT_HEIGHT 0x01010403u
#define ATTR_FILL_COLOR      0x01010404u
#define ATTR_PATH_DATA       0x01010405u
#define ATTR_STROKE_COLOR    0x01010406u
#define ATTR_STROKE_WIDTH    0x01010407u

#define MAX_DEPTH 8
#define MAX_ENTRY (8u * 1024 * 1024)

static gboolean
unsupported (GError    **error,
             const char *what)
{
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED,
               _("App icon: %s cannot be drawn"), what);
  return FALSE;
}

/* ------------------------------------------------------------ values */

static double
complex_to_float (guint32 data)
{
  static const double radix[] = { 1.0 / (1 << 8), 1.0 / (1 << 15), 1.0 / (1 << 23), 1.0 / (1u << 31) };
  gint32 mantissa = (gint32) (data & 0xffffff00u);

  return mantissa * radix[(data >> 4) & 3];
}

static gboolean
value_number (const AdbscopeApkValue *v,
              double                 *out)
{
  union { guint32 u; float f; } bits;

  if (v == NULL)
    return FALSE;
  if (v->kind == ADBSCOPE_APK_VALUE_STRING)
    {
      char *end = NULL;

      *out = g_ascii_strtod (v->string, &end);
      return end != v->string;
    }
  if (v->kind != ADBSCOPE_APK_VALUE_OTHER)
    return FALSE;
  switch (v->data_type)
    {
    case ADBSCOPE_RES_TYPE_FLOAT:
      bits.u = v->data;
      *out = bits.f;
      return isfinite (*out);
    case ADBSCOPE_RES_TYPE_DIMENSION:
      *out = complex_to_float (v->data);
      return TRUE;
    case ADBSCOPE_RES_TYPE_INT_DEC:
    case ADBSCOPE_RES_TYPE_INT_HEX:
      *out = (gint32) v->data;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
is_color_type (guint8 t)
{
  return t >= ADBSCOPE_RES_TYPE_INT_COLOR_ARGB8 && t <= ADBSCOPE_RES_TYPE_INT_COLOR_RGB4;
}

/* An ARGB colour, literal or through a resource reference. */
static gboolean
value_color (const AdbscopeApkValue  *v,
             AdbscopeArsc            *arsc,
             const AdbscopeResConfig *config,
             guint32                 *argb)
{
  if (v == NULL)
    return FALSE;
  if (v->kind == ADBSCOPE_APK_VALUE_OTHER && is_color_type (v->data_type))
    {
      *argb = v->data_type == ADBSCOPE_RES_TYPE_INT_COLOR_RGB8 || v->data_type == ADBSCOPE_RES_TYPE_INT_COLOR_RGB4
              ? (v->data | 0xff000000u) : v->data;
      return TRUE;
    }
  if (v->kind == ADBSCOPE_APK_VALUE_REFERENCE && arsc != NULL)
    {
      AdbscopeArscValue r = { 0 };
      gboolean ok = adbscope_arsc_resolve (arsc, v->res_id, config, &r, NULL) && is_color_type (r.data_type);

      if (ok)
        *argb = r.data_type == ADBSCOPE_RES_TYPE_INT_COLOR_RGB8 || r.data_type == ADBSCOPE_RES_TYPE_INT_COLOR_RGB4
                ? (r.data | 0xff000000u) : r.data;
      adbscope_arsc_value_clear (&r);
      return ok;
    }
  if (v->kind == ADBSCOPE_APK_VALUE_STRING && v->string[0] == '#')
    {
      gsize n = strlen (v->string + 1);
      guint64 x;

      if ((n == 6 || n == 8) && g_ascii_string_to_unsigned (v->string + 1, 16, 0, G_MAXUINT32, &x, NULL))
        {
          *argb = n == 6 ? (guint32) x | 0xff000000u : (guint32) x;
          return TRUE;
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------- vector */

static void
append_color (GString    *svg,
              const char *attr,
              guint32     argb,
              double      alpha)
{
  g_string_append_printf (svg, " %s=\"#%06x\"", attr, argb & 0xffffff);
  if ((argb >> 24) != 0xff || alpha < 1.0)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (svg, " %s-opacity=\"%s\"", attr,
                              g_ascii_dtostr (buf, sizeof buf, ((argb >> 24) / 255.0) * alpha));
    }
}

static void
append_number (GString    *svg,
               const char *attr,
               double      value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (svg, " %s=\"%s\"", attr, g_ascii_dtostr (buf, sizeof buf, value));
}

static const AdbscopeApkValue *
attr (const AdbscopeAxmlNode *node,
      guint32                 res_id,
      const char             *name)
{
  return adbscope_axml_node_get_attr (node, res_id, name);
}

static double
number_or (const AdbscopeAxmlNode *node,
           const char             *name,
           double                  fallback)
{
  double v;

  return value_number (attr (node, 0, name), &v) ? v : fallback;
}

/* Path data goes into an attribute: keep it to path characters. */
static gboolean
path_data_ok (const char *d)
{
  for (; *d != '\0'; d++)
    if (!g_ascii_isalnum (*d) && strchr (" ,.-+\t\n\r", *d) == NULL)
      return FALSE;
  return TRUE;
}

/* A gradient fill (aapt:attr with <gradient>): drawn as its average colour,
 * which keeps the shape visible at icon sizes. */
static gboolean
gradient_color (const AdbscopeAxmlNode  *path,
                const char              *target,
                AdbscopeArsc            *arsc,
                const AdbscopeResConfig *config,
                guint32                 *argb)
{
  guint i, j;

  for (i = 0; i < path->children->len; i++)
    {
      const AdbscopeAxmlNode *a = g_ptr_array_index (path->children, i);
      guint32 c0, c1;

      if (g_strcmp0 (a->name, "attr") != 0)
        continue;
      for (j = 0; j < a->n_attrs; j++)
        if (g_strcmp0 (a->attrs[j].name, "name") == 0 && a->attrs[j].value.string != NULL
            && g_str_has_suffix (a->attrs[j].value.string, target))
          break;
      if (j == a->n_attrs || a->children->len == 0)
        continue;
      {
        const AdbscopeAxmlNode *g = g_ptr_array_index (a->children, 0);

        if (g_strcmp0 (g->name, "gradient") != 0)
          continue;
        if (!value_color (attr (g, 0, "startColor"), arsc, config, &c0))
          {
            /* <item android:color> children */
            if (g->children->len == 0
                || !value_color (attr (g_ptr_array_index (g->children, 0), ATTR_COLOR, "color"), arsc, config, &c0))
              continue;
          }
        if (!value_color (attr (g, 0, "endColor"), arsc, config, &c1))
          c1 = c0;
        *argb = 0;
        for (j = 0; j < 32; j += 8)
          *argb |= ((((c0 >> j) & 0xff) + ((c1 >> j) & 0xff)) / 2) << j;
        return TRUE;
      }
    }
  return FALSE;
}

static gboolean
vector_children (GString                 *svg,
                 const AdbscopeAxmlNode  *parent,
                 AdbscopeArsc            *arsc,
                 const AdbscopeResConfig *config,
                 guint                    depth,
                 guint                   *n_clips,
                 GError                 **error)
{
  guint i, open_clips = 0;

  if (depth > 32)
    return unsupported (error, _("a vector nested this deep"));
  for (i = 0; i < parent->children->len; i++)
    {
      const AdbscopeAxmlNode *c = g_ptr_array_index (parent->children, i);
      const AdbscopeApkValue *d = attr (c, ATTR_PATH_DATA, "pathData");

      if (g_strcmp0 (c->name, "path") == 0 && d != NULL && d->kind == ADBSCOPE_APK_VALUE_STRING)
        {
          guint32 color;
          double width;

          if (!path_data_ok (d->string))
            return unsupported (error, _("this vector path"));
          g_string_append_printf (svg, "<path d=\"%s\"", d->string);
          if (value_color (attr (c, ATTR_FILL_COLOR, "fillColor"), arsc, config, &color)
              || gradient_color (c, "fillColor", arsc, config, &color))
            append_color (svg, "fill", color, number_or (c, "fillAlpha", 1.0));
          else
            g_string_append (svg, " fill=\"none\"");
          {
            const AdbscopeApkValue *ft = attr (c, 0, "fillType");

            if (ft != NULL && ft->kind == ADBSCOPE_APK_VALUE_OTHER && ft->data == 1)
              g_string_append (svg, " fill-rule=\"evenodd\"");
          }
          if (value_color (attr (c, ATTR_STROKE_COLOR, "strokeColor"), arsc, config, &color)
              || gradient_color (c, "strokeColor", arsc, config, &color))
            {
              static const char *const caps[] = { "butt", "round", "square" };
              static const char *const joins[] = { "miter", "round", "bevel" };
              double v;

              append_color (svg, "stroke", color, number_or (c, "strokeAlpha", 1.0));
              width = number_or (c, "strokeWidth", 0);
              append_number (svg, "stroke-width", width);
              if (value_number (attr (c, 0, "strokeLineCap"), &v) && v >= 0 && v < 3)
                g_string_append_printf (svg, " stroke-linecap=\"%s\"", caps[(int) v]);
              if (value_number (attr (c, 0, "strokeLineJoin"), &v) && v >= 0 && v < 3)
                g_string_append_printf (svg, " stroke-linejoin=\"%s\"", joins[(int) v]);
              if (value_number (attr (c, 0, "strokeMiterLimit"), &v))
                append_number (svg, "stroke-miterlimit", v);
            }
          g_string_append (svg, "/>\n");
        }
      else if (g_strcmp0 (c->name, "group") == 0)
        {
          double px = number_or (c, "pivotX", 0), py = number_or (c, "pivotY", 0);
          char b[7][G_ASCII_DTOSTR_BUF_SIZE];

          /* Android: translate, then rotate and scale about the pivot. */
          g_string_append_printf (svg, "<g transform=\"translate(%s %s) rotate(%s) scale(%s %s) translate(%s %s)\">\n",
                                  g_ascii_dtostr (b[0], sizeof b[0], number_or (c, "translateX", 0) + px),
                                  g_ascii_dtostr (b[1], sizeof b[1], number_or (c, "translateY", 0) + py),
                                  g_ascii_dtostr (b[2], sizeof b[2], number_or (c, "rotation", 0)),
                                  g_ascii_dtostr (b[3], sizeof b[3], number_or (c, "scaleX", 1)),
                                  g_ascii_dtostr (b[4], sizeof b[4], number_or (c, "scaleY", 1)),
                                  g_ascii_dtostr (b[5], sizeof b[5], -px),
                                  g_ascii_dtostr (b[6], sizeof b[6], -py));
          if (!vector_children (svg, c, arsc, config, depth + 1, n_clips, error))
            return FALSE;
          g_string_append (svg, "</g>\n");
        }
      else if (g_strcmp0 (c->name, "clip-path") == 0 && d != NULL && d->kind == ADBSCOPE_APK_VALUE_STRING)
        {
          /* Clips what follows it in the same group. */
          if (!path_data_ok (d->string))
            return unsupported (error, _("this vector path"));
          (*n_clips)++;
          g_string_append_printf (svg, "<clipPath id=\"c%u\"><path d=\"%s\"/></clipPath><g clip-path=\"url(#c%u)\">\n",
                                  *n_clips, d->string, *n_clips);
          open_clips++;
        }
    }
  while (open_clips-- > 0)
    g_string_append (svg, "</g>\n");
  return TRUE;
}

char *
adbscope_vector_drawable_to_svg (const AdbscopeAxmlNode  *vector,
                                 AdbscopeArsc            *arsc,
                                 const AdbscopeResConfig *config,
                                 GError                 **error)
{
  g_autoptr(GString) svg = g_string_new (NULL);
  double vw, vh, alpha;
  guint n_clips = 0;
  char b[2][G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (vector != NULL, NULL);
  g_return_val_if_fail (config != NULL, NULL);

  if (g_strcmp0 (vector->name, "vector") != 0)
    {
      unsupported (error, vector->name);
      return NULL;
    }
  if (!value_number (attr (vector, ATTR_VIEWPORT_WIDTH, "viewportWidth"), &vw)
      || !value_number (attr (vector, ATTR_VIEWPORT_HEIGHT, "viewportHeight"), &vh)
      || !(vw > 0) || !(vh > 0))
    {
      unsupported (error, _("a vector without a viewport"));
      return NULL;
    }
  alpha = number_or (vector, "alpha", 1.0);
  g_string_append_printf (svg,
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %s %s\" width=\"%s\" height=\"%s\">\n",
                          g_ascii_dtostr (b[0], sizeof b[0], vw), g_ascii_dtostr (b[1], sizeof b[1], vh),
                          b[0], b[1]);
  if (alpha < 1.0)
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (svg, "<g opacity=\"%s\">\n", g_ascii_dtostr (a, sizeof a, alpha));
    }
  if (!vector_children (svg, vector, arsc, config, 0, &n_clips, error))
    return NULL;
  if (alpha < 1.0)
    g_string_append (svg, "</g>\n");
  g_string_append (svg, "</svg>\n");
  return g_string_free (g_steal_pointer (&svg), FALSE);
}

/* ----------------------------------------------------------- drawing */

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
} PngReader;

static cairo_status_t
png_read (void          *closure,
          unsigned char *buf,
          unsigned int   len)
{
  PngReader *r = closure;

  if (r->len - r->pos < len)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (buf, r->data + r->pos, len);
  r->pos += len;
  return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *
decode_bitmap (GBytes     *bytes,
               const char *name,
               GError    **error)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);

  if (len >= 8 && memcmp (p, "\x89PNG\r\n\x1a\n", 8) == 0)
    {
      PngReader r = { p, len, 0 };
      cairo_surface_t *s = cairo_image_surface_create_from_png_stream (png_read, &r);

      if (cairo_surface_status (s) != CAIRO_STATUS_SUCCESS)
        {
          cairo_surface_destroy (s);
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("App icon: %s is not a valid PNG"), name);
          return NULL;
        }
      return s;
    }
  if (len >= 12 && memcmp (p, "RIFF", 4) == 0 && memcmp (p + 8, "WEBP", 4) == 0)
    {
      int w = 0, h = 0, stride, x, y;
      guint8 *rgba = WebPDecodeBGRA (p, len, &w, &h);
      cairo_surface_t *s;
      guint8 *dst;

      if (rgba == NULL || w <= 0 || h <= 0 || w > 4096 || h > 4096)
        {
          WebPFree (rgba);
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE, _("App icon: %s is not a valid WebP image"), name);
          return NULL;
        }
      s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      stride = cairo_image_surface_get_stride (s);
      dst = cairo_image_surface_get_data (s);
      cairo_surface_flush (s);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          {
            const guint8 *px = rgba + 4 * ((gsize) y * w + x);
            guint32 a = px[3];
            guint32 v = (a << 24) | ((px[2] * a / 255) << 16) | ((px[1] * a / 255) << 8) | (px[0] * a / 255);

            memcpy (dst + (gsize) y * stride + 4 * x, &v, 4);
          }
      cairo_surface_mark_dirty (s);
      WebPFree (rgba);
      return s;
    }
  unsupported (error, name);
  return NULL;
}

typedef struct
{
  AdbscopeApkFile         *apk;
  AdbscopeArsc            *arsc;
  const AdbscopeResConfig *config;
} Ctx;

static gboolean draw_value (Ctx *ctx, cairo_t *cr, const AdbscopeApkValue *v, double w, double h, guint depth, GError **error);

static void
draw_surface (cairo_t         *cr,
              cairo_surface_t *s,
              double           w,
              double           h)
{
  int sw = cairo_image_surface_get_width (s);
  int sh = cairo_image_surface_get_height (s);

  cairo_save (cr);
  cairo_scale (cr, w / sw, h / sh);
  cairo_set_source_surface (cr, s, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
}

static gboolean
draw_svg (cairo_t     *cr,
          const char  *svg,
          double       w,
          double       h,
          GError     **error)
{
  RsvgHandle *handle = rsvg_handle_new_from_data ((const guint8 *) svg, strlen (svg), error);
  RsvgRectangle viewport = { 0, 0, w, h };
  gboolean ok;

  if (handle == NULL)
    return FALSE;
  ok = rsvg_handle_render_document (handle, cr, &viewport, error);
  g_object_unref (handle);
  return ok;
}

static void
fill_color (cairo_t *cr,
            guint32  argb,
            double   w,
            double   h)
{
  cairo_set_source_rgba (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                         (argb & 0xff) / 255.0, (argb >> 24) / 255.0);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_fill (cr);
}

/* An adaptive icon: layers are 108 dp, the middle 72 dp show. */
static gboolean
draw_adaptive (Ctx                    *ctx,
               cairo_t                *cr,
               const AdbscopeAxmlNode *root,
               double                  w,
               double                  h,
               guint                   depth,
               GError                **error)
{
  const char *layers[] = { "background", "foreground" };
  gboolean drew = FALSE;
  guint i, j;

  cairo_save (cr);
  cairo_arc (cr, w / 2, h / 2, MIN (w, h) / 2, 0, 2 * G_PI);
  cairo_clip (cr);
  cairo_translate (cr, -w * 18 / 72, -h * 18 / 72);
  for (i = 0; i < G_N_ELEMENTS (layers); i++)
    for (j = 0; j < root->children->len; j++)
      {
        const AdbscopeAxmlNode *layer = g_ptr_array_index (root->children, j);
        const AdbscopeApkValue *d;

        if (g_strcmp0 (layer->name, layers[i]) != 0)
          continue;
        d = attr (layer, ATTR_DRAWABLE, "drawable");
        cairo_save (cr);
        if (d != NULL)
          {
            if (!draw_value (ctx, cr, d, w * 108 / 72, h * 108 / 72, depth + 1, error))
              {
                cairo_restore (cr);
                cairo_restore (cr);
                return FALSE;
              }
            drew = TRUE;
          }
        else if (layer->children->len > 0)
          {
            const AdbscopeAxmlNode *inner = g_ptr_array_index (layer->children, 0);
            g_autofree char *svg = NULL;

            if (g_strcmp0 (inner->name, "color") == 0)
              {
                guint32 argb;

                if (value_color (attr (inner, ATTR_COLOR, "color"), ctx->arsc, ctx->config, &argb))
                  fill_color (cr, argb, w * 108 / 72, h * 108 / 72);
              }
            else if ((svg = adbscope_vector_drawable_to_svg (inner, ctx->arsc, ctx->config, error)) == NULL
                     || !draw_svg (cr, svg, w * 108 / 72, h * 108 / 72, error))
              {
                cairo_restore (cr);
                cairo_restore (cr);
                return FALSE;
              }
            drew = TRUE;
          }
        cairo_restore (cr);
      }
  cairo_restore (cr);
  if (!drew)
    return unsupported (error, _("an adaptive icon without layers"));
  return TRUE;
}

static gboolean
draw_file (Ctx         *ctx,
           cairo_t     *cr,
           const char  *name,
           double       w,
           double       h,
           guint        depth,
           GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  const AdbscopeZipEntry *e = adbscope_zip_find_entry (adbscope_apk_file_get_entries (ctx->apk), name);

  if (e == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("App icon: %s is not in the APK (a split APK holds it)"), name);
      return FALSE;
    }
  if (e->size > MAX_ENTRY)
    return unsupported (error, name);
  bytes = adbscope_apk_file_read_entry (ctx->apk, name, error);
  if (bytes == NULL)
    return FALSE;
  if (g_str_has_suffix (name, ".xml"))
    {
      gsize len;
      const guint8 *p = g_bytes_get_data (bytes, &len);
      g_autoptr(AdbscopeAxmlNode) root = adbscope_axml_parse (p, len, error);
      g_autofree char *svg = NULL;

      if (root == NULL)
        return FALSE;
      if (g_strcmp0 (root->name, "adaptive-icon") == 0)
        return draw_adaptive (ctx, cr, root, w, h, depth, error);
      if (g_strcmp0 (root->name, "bitmap") == 0)
        {
          const AdbscopeApkValue *src = attr (root, ATTR_SRC, "src");

          if (src == NULL)
            return unsupported (error, name);
          return draw_value (ctx, cr, src, w, h, depth + 1, error);
        }
      svg = adbscope_vector_drawable_to_svg (root, ctx->arsc, ctx->config, error);
      if (svg == NULL)
        return FALSE;
      return draw_svg (cr, svg, w, h, error);
    }
  else
    {
      cairo_surface_t *s = decode_bitmap (bytes, name, error);

      if (s == NULL)
        return FALSE;
      draw_surface (cr, s, w, h);
      cairo_surface_destroy (s);
      return TRUE;
    }
}

static gboolean
draw_value (Ctx                    *ctx,
            cairo_t                *cr,
            const AdbscopeApkValue *v,
            double                  w,
            double                  h,
            guint                   depth,
            GError                **error)
{
  AdbscopeArscValue r = { 0 };
  gboolean ok;
  guint32 argb;

  if (depth > MAX_DEPTH)
    return unsupported (error, _("an icon nested this deep"));
  if (value_color (v, ctx->arsc, ctx->config, &argb))
    {
      fill_color (cr, argb, w, h);
      return TRUE;
    }
  if (v->kind == ADBSCOPE_APK_VALUE_STRING)
    return draw_file (ctx, cr, v->string, w, h, depth, error);
  if (v->kind != ADBSCOPE_APK_VALUE_REFERENCE)
    return unsupported (error, _("a theme attribute"));
  if (ctx->arsc == NULL)
    return unsupported (error, _("an icon without resources.arsc"));
  if (!adbscope_arsc_resolve (ctx->arsc, v->res_id, ctx->config, &r, error))
    return FALSE;
  if (r.data_type == ADBSCOPE_RES_TYPE_STRING)
    ok = draw_file (ctx, cr, r.string, w, h, depth, error);
  else if (is_color_type (r.data_type))
    {
      fill_color (cr, r.data_type == ADBSCOPE_RES_TYPE_INT_COLOR_RGB8 ? (r.data | 0xff000000u) : r.data, w, h);
      ok = TRUE;
    }
  else
    ok = unsupported (error, _("this kind of resource"));
  adbscope_arsc_value_clear (&r);
  return ok;
}

static cairo_status_t
png_write (void                *closure,
           const unsigned char *data,
           unsigned int         len)
{
  g_byte_array_append (closure, data, len);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
adbscope_app_icon_render (AdbscopeApkFile          *apk,
                          AdbscopeArsc             *arsc,
                          const AdbscopeApkValue   *icon,
                          const AdbscopeResConfig  *config,
                          guint                     size,
                          GError                  **error)
{
  Ctx ctx = { apk, arsc, config };
  cairo_surface_t *s;
  cairo_t *cr;
  gboolean ok;
  GByteArray *png;

  g_return_val_if_fail (apk != NULL, NULL);
  g_return_val_if_fail (icon != NULL, NULL);
  g_return_val_if_fail (size > 0 && size <= 1024, NULL);

  if (icon->kind == ADBSCOPE_APK_VALUE_NONE)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NOT_SUPPORTED, _("App icon: the app has none"));
      return NULL;
    }
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, size, size);
  cr = cairo_create (s);
  ok = draw_value (&ctx, cr, icon, size, size, 0, error);
  cairo_destroy (cr);
  if (!ok)
    {
      cairo_surface_destroy (s);
      return NULL;
    }
  png = g_byte_array_new ();
  if (cairo_surface_write_to_png_stream (s, png_write, png) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (s);
      g_byte_array_unref (png);
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_FAILED, _("App icon: cannot encode a PNG"));
      return NULL;
    }
  cairo_surface_destroy (s);
  return g_byte_array_free_to_bytes (png);
}
