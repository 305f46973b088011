/* adbscope-chart-layer.c: base class of everything drawn in a chart */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart.h"
#include "adbscope-chart-layer-private.h"

typedef struct
{
  char    *title;
  GdkRGBA  color;
  gboolean has_color;
  guint    palette_index;
} AdbscopeChartLayerPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (AdbscopeChartLayer, adbscope_chart_layer, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_COLOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* GNOME palette shades: darker ones read on a light background, lighter
 * ones on a dark background.  Index 0 is replaced by the accent colour. */
static const char * const palette_light[] = {
  "#1c71d8", "#26a269", "#c64600", "#813d9c", "#c01c28", "#865e3c", "#0f7c7c", "#a51d2d",
};
static const char * const palette_dark[] = {
  "#62a0ea", "#57e389", "#ffa348", "#dc8add", "#f66151", "#cdab8f", "#5bc8c8", "#ff7b63",
};

/**
 * adbscope_chart_palette_color:
 * @dark: whether the colour scheme is dark
 *
 * The fallback colour of the @index_-th series.
 */
void
adbscope_chart_palette_color (guint     index_,
                              gboolean  dark,
                              GdkRGBA  *color)
{
  const char * const *palette = dark ? palette_dark : palette_light;

  gdk_rgba_parse (color, palette[index_ % G_N_ELEMENTS (palette_light)]);
}

static gboolean
adbscope_chart_layer_real_get_value_extent (AdbscopeChartLayer *self,
                                            gint64              t0_us,
                                            gint64              t1_us,
                                            double             *min,
                                            double             *max)
{
  return FALSE;
}

static void
adbscope_chart_layer_real_add_legend_entries (AdbscopeChartLayer *self,
                                              GArray             *entries)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);
  AdbscopeChartLegendEntry entry = { 0 };

  if (priv->title == NULL || priv->title[0] == '\0')
    return;

  entry.title = priv->title;
  adbscope_chart_layer_get_color (self, &entry.color);
  g_array_append_val (entries, entry);
}

static void
adbscope_chart_layer_finalize (GObject *object)
{
  AdbscopeChartLayer *self = ADBSCOPE_CHART_LAYER (object);
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  g_clear_pointer (&priv->title, g_free);

  G_OBJECT_CLASS (adbscope_chart_layer_parent_class)->finalize (object);
}

static void
adbscope_chart_layer_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AdbscopeChartLayer *self = ADBSCOPE_CHART_LAYER (object);
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, priv->title);
      break;

    case PROP_COLOR:
      g_value_set_boxed (value, priv->has_color ? &priv->color : NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_layer_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AdbscopeChartLayer *self = ADBSCOPE_CHART_LAYER (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      adbscope_chart_layer_set_title (self, g_value_get_string (value));
      break;

    case PROP_COLOR:
      adbscope_chart_layer_set_color (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A layer that rasterizes, drawn on its own (the chart draws all of its
 * layers into one image: adbscope_chart_snapshot_layers()). */
static void
adbscope_chart_layer_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (widget);
  g_autoptr(AdbscopeChartRaster) raster = NULL;

  if (klass->rasterize == NULL || gtk_widget_get_width (widget) <= 0)
    return;
  raster = adbscope_chart_raster_new (gtk_widget_get_width (widget), -ADBSCOPE_CHART_BLEED,
                                      gtk_widget_get_height (widget) + 2 * ADBSCOPE_CHART_BLEED,
                                      gtk_widget_get_scale_factor (widget));
  klass->rasterize (ADBSCOPE_CHART_LAYER (widget), raster);
  adbscope_chart_raster_append (raster, snapshot);
}

static void
adbscope_chart_layer_class_init (AdbscopeChartLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = adbscope_chart_layer_finalize;
  object_class->get_property = adbscope_chart_layer_get_property;
  object_class->set_property = adbscope_chart_layer_set_property;
  widget_class->snapshot = adbscope_chart_layer_snapshot;

  klass->get_value_extent = adbscope_chart_layer_real_get_value_extent;
  klass->add_legend_entries = adbscope_chart_layer_real_add_legend_entries;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_COLOR] =
    g_param_spec_boxed ("color", NULL, NULL,
                        GDK_TYPE_RGBA,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "chartlayer");
}

static void
adbscope_chart_layer_init (AdbscopeChartLayer *self)
{
  /* Hover and tooltips belong to the chart, which sits under every layer. */
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}

const char *
adbscope_chart_layer_get_title (AdbscopeChartLayer *self)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_CHART_LAYER (self), NULL);

  return priv->title;
}

void
adbscope_chart_layer_set_title (AdbscopeChartLayer *self,
                                const char         *title)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_CHART_LAYER (self));

  if (g_strcmp0 (priv->title, title) == 0)
    return;

  g_free (priv->title);
  priv->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/**
 * adbscope_chart_layer_get_color:
 * @color: (out): the colour to draw with
 *
 * Returns: %TRUE when the colour was set explicitly, %FALSE when it comes
 *   from the palette (the accent colour for the first layer)
 */
gboolean
adbscope_chart_layer_get_color (AdbscopeChartLayer *self,
                                GdkRGBA            *color)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  g_return_val_if_fail (ADBSCOPE_IS_CHART_LAYER (self), FALSE);
  g_return_val_if_fail (color != NULL, FALSE);

  if (priv->has_color)
    {
      *color = priv->color;
      return TRUE;
    }

  adbscope_chart_layer_get_palette_color (self, 0, color);
  return FALSE;
}

/**
 * adbscope_chart_layer_set_color:
 * @color: (nullable): a fixed colour, or %NULL for the palette
 */
void
adbscope_chart_layer_set_color (AdbscopeChartLayer *self,
                                const GdkRGBA      *color)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  g_return_if_fail (ADBSCOPE_IS_CHART_LAYER (self));

  if (color == NULL && !priv->has_color)
    return;
  if (color != NULL && priv->has_color && gdk_rgba_equal (color, &priv->color))
    return;

  priv->has_color = color != NULL;
  if (color != NULL)
    priv->color = *color;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR]);
}

/**
 * adbscope_chart_layer_get_palette_color:
 * @offset: which of the layer's series (stacked layers have several)
 *
 * Palette colour number (layer's index in the chart + @offset), in the
 * shade for the current light or dark style.  Colour 0 is the accent.
 */
void
adbscope_chart_layer_get_palette_color (AdbscopeChartLayer *self,
                                        guint               offset,
                                        GdkRGBA            *color)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);
  guint index_ = priv->palette_index + offset;

  g_return_if_fail (ADBSCOPE_IS_CHART_LAYER (self));

  if (index_ == 0)
    {
      gboolean found;

      /* The accent follows the user's style; deprecated in 4.10 only. */
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      found = gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (self)),
                                              "accent_color", color);
      G_GNUC_END_IGNORE_DEPRECATIONS
      if (found)
        return;
    }

  adbscope_chart_palette_color (index_, adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                color);
}

void
_adbscope_chart_layer_set_palette_index (AdbscopeChartLayer *self,
                                         guint               index_)
{
  AdbscopeChartLayerPrivate *priv = adbscope_chart_layer_get_instance_private (self);

  priv->palette_index = index_;
}

/**
 * adbscope_chart_layer_get_chart:
 *
 * Returns: (transfer none) (nullable): the chart holding this layer
 */
AdbscopeChart *
adbscope_chart_layer_get_chart (AdbscopeChartLayer *self)
{
  GtkWidget *parent;

  g_return_val_if_fail (ADBSCOPE_IS_CHART_LAYER (self), NULL);

  parent = gtk_widget_get_parent (GTK_WIDGET (self));
  return ADBSCOPE_IS_CHART (parent) ? ADBSCOPE_CHART (parent) : NULL;
}

/**
 * adbscope_chart_layer_get_hover_distance:
 *
 * Returns: how far from the pointer's time a sample still counts as
 *   hovered: a few pixels or one interval, whichever is wider (µs)
 */
gint64
adbscope_chart_layer_get_hover_distance (AdbscopeChartLayer *self)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (self);
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
  gint64 t0, t1;

  adbscope_chart_get_time_window (chart, &t0, &t1);
  return MAX (adbscope_chart_get_interval (chart), (t1 - t0) * 4 / width);
}

/**
 * adbscope_chart_layer_value_to_y:
 *
 * Returns: the layer-local y of @value in the chart's value range
 */
double
adbscope_chart_layer_value_to_y (AdbscopeChartLayer *self,
                                 double              value)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (self);
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double min, max;

  if (chart == NULL)
    return height;

  adbscope_chart_get_value_range (chart, &min, &max);
  return height * (max - value) / (max - min);
}

/**
 * adbscope_chart_layer_time_to_x:
 *
 * Returns: the layer-local x of @time_us in the chart's time window
 */
double
adbscope_chart_layer_time_to_x (AdbscopeChartLayer *self,
                                gint64              time_us)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (self);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  gint64 t0, t1;

  if (chart == NULL)
    return 0;

  adbscope_chart_get_time_window (chart, &t0, &t1);
  return width * (double)(time_us - t0) / (double)MAX (t1 - t0, 1);
}

/**
 * adbscope_chart_layer_format_value:
 *
 * Appends @value with the chart's unit, or "no data" for NaN.
 */
void
adbscope_chart_layer_format_value (AdbscopeChartLayer *self,
                                   double              value,
                                   GString            *text)
{
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (self);
  const char *unit = chart != NULL ? adbscope_chart_get_unit (chart) : NULL;

  if (!isfinite (value))
    {
      g_string_append (text, _("no data"));
      return;
    }

  adbscope_chart_format_with_unit (value, unit, text);
}
