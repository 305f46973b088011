/* adbscope-chart.c: a time chart holding AdbscopeChartLayers
 *
 * Layout: a legend row on top, value labels in a left gutter, time labels
 * under the plot.  Every layer is a child widget allocated the plot area
 * and drawn clipped to it; the chart draws the grid below the layers and
 * markers, crosshair and labels above them.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart.h"
#include "adbscope-chart-layer-private.h"
#include "adbscope-chart-private.h"

#define LEGEND_SWATCH 10
#define GUTTER_PAD 6

typedef struct
{
  gint64  time_us;
  char   *label;
} Marker;

struct _AdbscopeChart
{
  GtkWidget           parent_instance;

  GPtrArray          *layers;       /* borrowed: children own themselves */
  char               *title;
  char               *unit;
  double              visible_seconds;
  gint64              end_time_us;  /* 0: follow the newest sample */
  gint64              interval_us;
  double              fixed_min;
  double              fixed_max;
  double              range_min;    /* in effect */
  double              range_max;
  AdbscopeChartXAxis  x_axis;
  GArray             *markers;
  GArray             *events;       /* Marker: failures on the timeline */

  char               *font_key;     /* of the shared text cache (NULL: look it up again) */
  int                 label_height;
  int                 legend_height;
  graphene_rect_t     plot;
  AdbscopeChartTick   value_ticks[ADBSCOPE_CHART_MAX_TICKS];
  guint               n_value_ticks;

  double              hover_x;
  double              hover_y;

  guint               n_snapshots;   /* tests and benchmarks */
  guint               n_skipped;     /* of them, scrolled out of view: nothing drawn */
  gint64              last_snapshot_us;
  GtkAdjustment      *watched[2];    /* the scrolled window's, while one was skipped */

  guint               auto_range : 1;
  guint               hovering : 1;
  guint               run_clock : 1;
};

G_DEFINE_FINAL_TYPE (AdbscopeChart, adbscope_chart, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_UNIT,
  PROP_VISIBLE_SECONDS,
  PROP_END_TIME,
  PROP_INTERVAL,
  PROP_RUN_CLOCK,
  PROP_AUTO_RANGE,
  PROP_VALUE_MIN,
  PROP_VALUE_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
get_foreground (AdbscopeChart *self,
                GdkRGBA       *color)
{
  /* gtk_widget_get_color() is GTK 4.10; this is the 4.8 way. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static PangoLayout *
new_label_layout (PangoContext *context,
                  const char   *text)
{
  PangoLayout *layout = pango_layout_new (context);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_layout_set_text (layout, text, -1);
  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

/* Labels repeat from frame to frame ("-2 min", "100"), and laying text out
 * is most of a chart's drawing time, so each text drawn keeps its layout.
 * Every chart of a page labels the same times with the same font: the
 * layouts and widths are kept once per font, for all the charts.
 *
 * The time axis measures every label of several candidate steps each
 * frame (up to 64 each) to pick one, and draws a few: widths are kept
 * apart from the drawn layouts, so the candidates never push those out,
 * and a new candidate costs one layout of a reused PangoLayout.  Labels
 * are set with tabular figures (every digit as wide as any other), so a
 * width is kept for the text with its digits as 0: "1:23:45" and "2:07:10"
 * are one entry. */
typedef struct
{
  PangoContext *context;  /* its own: GTK changes a widget's in place */
  GHashTable  *layouts;   /* text → PangoLayout */
  GHashTable  *widths;    /* text, digits as 0 → its width + 1 in px */
  PangoLayout *measure;
} TextCache;

static GHashTable *text_caches;  /* font description → TextCache */

static void
text_cache_free (TextCache *cache)
{
  g_hash_table_unref (cache->layouts);
  g_hash_table_unref (cache->widths);
  g_clear_object (&cache->measure);
  g_object_unref (cache->context);
  g_free (cache);
}

static TextCache *
get_text_cache (AdbscopeChart *self)
{
  TextCache *cache;

  if (text_caches == NULL)
    text_caches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) text_cache_free);
  if (self->font_key == NULL)
    self->font_key = pango_font_description_to_string (
      pango_context_get_font_description (gtk_widget_get_pango_context (GTK_WIDGET (self))));
  cache = g_hash_table_lookup (text_caches, self->font_key);
  if (cache == NULL)
    {
      cache = g_new0 (TextCache, 1);
      cache->context = gtk_widget_create_pango_context (GTK_WIDGET (self));
      cache->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      cache->widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (text_caches, g_strdup (self->font_key), cache);
    }
  return cache;
}

static PangoLayout *
get_layout (AdbscopeChart *self,
            const char    *text)
{
  TextCache *cache = get_text_cache (self);
  PangoLayout *layout = g_hash_table_lookup (cache->layouts, text);

  if (layout != NULL)
    return layout;

  /* Value labels follow the data range; keep the cache bounded. */
  if (g_hash_table_size (cache->layouts) > 1024)
    g_hash_table_remove_all (cache->layouts);

  layout = new_label_layout (cache->context, text);
  g_hash_table_insert (cache->layouts, g_strdup (text), layout);

  return layout;
}

/* The font may have changed: look the cache up again.  @everything (the
 * fonts or the resolution changed): drop every chart's. */
static void
clear_text_caches (AdbscopeChart *self,
                   gboolean       everything)
{
  g_clear_pointer (&self->font_key, g_free);
  if (everything && text_caches != NULL)
    g_hash_table_remove_all (text_caches);
}

static int
layout_width (TextCache  *cache,
              const char *text)
{
  int width;

  if (cache->measure == NULL)
    cache->measure = new_label_layout (cache->context, text);
  else
    pango_layout_set_text (cache->measure, text, -1);
  pango_layout_get_pixel_size (cache->measure, &width, NULL);
  return MAX (width, 0);
}

static double
measure_text (const char *text,
              gpointer    user_data)
{
  AdbscopeChart *self = user_data;
  TextCache *cache = get_text_cache (self);
  char shape[64];
  gpointer found;
  int width;

  /* (a longer text is measured whole, uncached) */
  if (g_strlcpy (shape, text, sizeof shape) >= sizeof shape)
    return layout_width (cache, text);
  for (char *c = shape; *c != '\0'; c++)
    if (*c >= '1' && *c <= '9')
      *c = '0';
  found = g_hash_table_lookup (cache->widths, shape);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  if (g_hash_table_size (cache->widths) > 4096)
    g_hash_table_remove_all (cache->widths);
  width = layout_width (cache, shape);
  g_hash_table_insert (cache->widths, g_strdup (shape), GUINT_TO_POINTER ((guint) width + 1));
  return width;
}

static void
adbscope_chart_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  AdbscopeChart *self = ADBSCOPE_CHART (widget);

  /* The font may have changed; rare enough to simply start over. */
  clear_text_caches (self, FALSE);

  GTK_WIDGET_CLASS (adbscope_chart_parent_class)->css_changed (widget, change);
}

static void
adbscope_chart_system_setting_changed (GtkWidget        *widget,
                                       GtkSystemSetting  setting)
{
  AdbscopeChart *self = ADBSCOPE_CHART (widget);

  /* Fonts or DPI changed: the cached layouts are stale. */
  clear_text_caches (self, TRUE);
  gtk_widget_queue_resize (widget);

  GTK_WIDGET_CLASS (adbscope_chart_parent_class)->system_setting_changed (widget, setting);
}

static void
queue_draw_all (AdbscopeChart *self)
{
  for (guint i = 0; i < self->layers->len; i++)
    gtk_widget_queue_draw (g_ptr_array_index (self->layers, i));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Returns whether the range changed. */
static gboolean
update_range (AdbscopeChart *self)
{
  double lo = INFINITY;
  double hi = -INFINITY;
  double new_min, new_max;
  gint64 t0, t1;

  if (!self->auto_range)
    {
      new_min = self->fixed_min;
      new_max = self->fixed_max;
    }
  else
    {
      adbscope_chart_get_time_window (self, &t0, &t1);
      for (guint i = 0; i < self->layers->len; i++)
        {
          AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);
          double layer_min, layer_max;

          if (ADBSCOPE_CHART_LAYER_GET_CLASS (layer)->get_value_extent (layer, t0, t1,
                                                                        &layer_min, &layer_max))
            {
              lo = MIN (lo, layer_min);
              hi = MAX (hi, layer_max);
            }
        }
      adbscope_chart_unit_range (self->unit, lo, hi, &new_min, &new_max);
    }

  if (new_min == self->range_min && new_max == self->range_max)
    return FALSE;

  self->range_min = new_min;
  self->range_max = new_max;
  return TRUE;
}

static void
update_accessible (AdbscopeChart *self)
{
  g_autoptr(GString) description = g_string_new (NULL);

  for (guint i = 0; i < self->layers->len; i++)
    {
      AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);
      AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (layer);
      g_autoptr(GString) part = g_string_new (NULL);

      if (klass->describe_current == NULL)
        continue;
      klass->describe_current (layer, part);
      if (part->len == 0)
        continue;
      if (description->len > 0)
        g_string_append (description, "; ");
      g_string_append_len (description, part->str, part->len);
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->title != NULL ? self->title : _("Chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str,
                                  -1);
}

static GArray *
collect_legend (AdbscopeChart *self)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (AdbscopeChartLegendEntry));

  for (guint i = 0; i < self->layers->len; i++)
    {
      AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);

      ADBSCOPE_CHART_LAYER_GET_CLASS (layer)->add_legend_entries (layer, entries);
    }

  return entries;
}

static AdbscopeChartLayer *
find_x_tick_layer (AdbscopeChart *self)
{
  for (guint i = 0; i < self->layers->len; i++)
    {
      AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);

      if (ADBSCOPE_CHART_LAYER_GET_CLASS (layer)->get_x_ticks != NULL)
        return layer;
    }

  return NULL;
}

static void
on_dark_changed (AdbscopeChart *self)
{
  queue_draw_all (self);
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           AdbscopeChart            *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *motion,
          AdbscopeChart            *self)
{
  self->hovering = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gint64
x_to_time (AdbscopeChart *self,
           double         plot_x)
{
  gint64 t0, t1;

  adbscope_chart_get_time_window (self, &t0, &t1);
  return t0 + (gint64)((double)(t1 - t0) * plot_x / MAX (self->plot.size.width, 1));
}

/**
 * adbscope_chart_format_time:
 * @time_us: a time in the series' clock
 *
 * Appends @time_us relative to the chart's end: "now", "12 s ago",
 * "3:05 min ago"; on a run's clock, the time since its start ("1:23:45").
 */
void
adbscope_chart_format_time (AdbscopeChart *self,
                            gint64         time_us,
                            GString       *text)
{
  gint64 t0, t1, s;

  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (text != NULL);

  adbscope_chart_get_time_window (self, &t0, &t1);
  s = (t1 - time_us + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC;

  if (self->run_clock)
    {
      char buf[32];

      adbscope_chart_format_elapsed (time_us + G_USEC_PER_SEC / 2, t1 >= (gint64) 3600 * G_USEC_PER_SEC, buf, sizeof buf);
      g_string_append (text, buf);
    }
  else if (s <= 0)
    g_string_append (text, _("now"));
  else if (s < 60)
    /* Translators: hover time, seconds before now */
    g_string_append_printf (text, _("%d s ago"), (int)s);
  else
    /* Translators: hover time, minutes:seconds before now */
    g_string_append_printf (text, _("%d:%02d min ago"), (int)(s / 60), (int)(s % 60));
}

static void describe_events_at (AdbscopeChart *self, double plot_x, GString *text);

static guint
time_ticks (AdbscopeChart     *self,
            double             length,
            AdbscopeChartTick *ticks,
            guint              max_ticks)
{
  gint64 t0, t1;

  adbscope_chart_get_time_window (self, &t0, &t1);
  if (self->run_clock)
    return adbscope_chart_elapsed_ticks (t0, t1, length, measure_text, self, ticks, max_ticks);
  return adbscope_chart_time_ticks (t0, t1, length, measure_text, self, ticks, max_ticks);
}

static gboolean
on_query_tooltip (AdbscopeChart *self,
                  int            x,
                  int            y,
                  gboolean       keyboard_mode,
                  GtkTooltip    *tooltip)
{
  g_autoptr(GString) text = g_string_new (NULL);
  double plot_x = x - self->plot.origin.x;
  gint64 time_us = 0;

  if (keyboard_mode || !graphene_rect_contains_point (&self->plot, &GRAPHENE_POINT_INIT (x, y)))
    return FALSE;

  /* Each layer names the time of the sample it shows. */
  if (self->x_axis == ADBSCOPE_CHART_X_AXIS_TIME)
    time_us = x_to_time (self, plot_x);

  for (guint i = 0; i < self->layers->len; i++)
    {
      AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);
      AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (layer);

      if (klass->describe_at == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      klass->describe_at (layer, plot_x, time_us, text);
    }

  if (self->x_axis == ADBSCOPE_CHART_X_AXIS_TIME)
    describe_events_at (self, plot_x, text);
  if (text->len == 0)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
adbscope_chart_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 400;
    }
  else
    {
      *minimum = 90;
      *natural = 160;
    }
}

static void
adbscope_chart_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  AdbscopeChart *self = ADBSCOPE_CHART (widget);
  g_autoptr(GArray) legend = collect_legend (self);
  double top, plot_height, gutter = 0;

  pango_layout_get_pixel_size (get_layout (self, "0123456789"), NULL, &self->label_height);
  self->legend_height = legend->len > 0 ? self->label_height + GUTTER_PAD : 0;

  /* Half a label above the plot so the top value label is not squeezed. */
  top = self->legend_height + self->label_height / 2.0;
  plot_height = MAX (1, height - top - self->label_height - GUTTER_PAD);

  self->n_value_ticks = adbscope_chart_unit_ticks (self->unit, self->range_min, self->range_max, plot_height,
                                                   self->label_height, self->value_ticks,
                                                   G_N_ELEMENTS (self->value_ticks));
  /* Centre labels on their lines: half a label may stick out above the
   * plot (the margin left for it) and below it (beside the time labels). */
  for (guint i = 0; i < self->n_value_ticks; i++)
    self->value_ticks[i].pos += self->label_height / 2.0;
  adbscope_chart_layout_labels (self->value_ticks, self->n_value_ticks,
                                plot_height + self->label_height, 0);
  for (guint i = 0; i < self->n_value_ticks; i++)
    {
      self->value_ticks[i].pos -= self->label_height / 2.0;
      self->value_ticks[i].label_pos -= self->label_height / 2.0;
      if (self->value_ticks[i].show_label)
        gutter = MAX (gutter, measure_text (self->value_ticks[i].label, self));
    }
  gutter = ceil (gutter) + GUTTER_PAD;

  graphene_rect_init (&self->plot, gutter, top,
                      MAX (1, width - gutter - GUTTER_PAD), plot_height);

  for (guint i = 0; i < self->layers->len; i++)
    {
      GtkAllocation alloc = {
        (int)self->plot.origin.x, (int)self->plot.origin.y,
        (int)self->plot.size.width, (int)self->plot.size.height,
      };

      gtk_widget_size_allocate (g_ptr_array_index (self->layers, i), &alloc, -1);
    }
}

static void
append_text (AdbscopeChart  *self,
             GtkSnapshot    *snapshot,
             const char     *text,
             double          x,
             double          y,
             const GdkRGBA  *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, get_layout (self, text), color);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_legend (AdbscopeChart *self,
                 GtkSnapshot   *snapshot,
                 const GdkRGBA *text_color)
{
  g_autoptr(GArray) legend = collect_legend (self);
  double x = self->plot.origin.x;

  for (guint i = 0; i < legend->len; i++)
    {
      const AdbscopeChartLegendEntry *e = &g_array_index (legend, AdbscopeChartLegendEntry, i);
      double y = (self->label_height - LEGEND_SWATCH) / 2.0;
      double w = measure_text (e->title, self);

      if (x + LEGEND_SWATCH + 4 + w > gtk_widget_get_width (GTK_WIDGET (self)))
        break;
      if (e->dashed)
        {
          /* Like the overlaid line: dashes across the swatch. */
          for (double dx = 0; dx < LEGEND_SWATCH; dx += 4)
            gtk_snapshot_append_color (snapshot, &e->color,
                                       &GRAPHENE_RECT_INIT (x + dx, y + LEGEND_SWATCH / 2.0 - 1,
                                                            MIN (3, LEGEND_SWATCH - dx), 2));
        }
      else
        gtk_snapshot_append_color (snapshot, &e->color,
                                   &GRAPHENE_RECT_INIT (x, y, LEGEND_SWATCH, LEGEND_SWATCH));
      x += LEGEND_SWATCH + 4;
      append_text (self, snapshot, e->title, x, 0, text_color);
      x += w + 12;
    }
}

/* The image the plot's layers and marker lines are drawn into, made on
 * first use; in layer coordinates (the layers' allocation). */
static AdbscopeChartRaster *
plot_raster (AdbscopeChart        *self,
             AdbscopeChartRaster **raster)
{
  if (*raster == NULL)
    *raster = adbscope_chart_raster_new ((int) self->plot.size.width, -ADBSCOPE_CHART_BLEED,
                                         (int) self->plot.size.height + 2 * ADBSCOPE_CHART_BLEED,
                                         gtk_widget_get_scale_factor (GTK_WIDGET (self)));
  return *raster;
}

static void
append_raster (AdbscopeChart       *self,
               GtkSnapshot         *snapshot,
               AdbscopeChartRaster *raster)
{
  if (raster == NULL)
    return;
  gtk_snapshot_save (snapshot);
  /* where the layers are allocated (adbscope_chart_size_allocate()) */
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((int) self->plot.origin.x, (int) self->plot.origin.y));
  adbscope_chart_raster_append (raster, snapshot);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_markers (AdbscopeChart        *self,
                  GtkSnapshot          *snapshot,
                  AdbscopeChartRaster **raster,
                  const GdkRGBA        *color,
                  const GdkRGBA        *text_color)
{
  g_autofree AdbscopeChartTick *ticks = NULL;
  const graphene_rect_t *p = &self->plot;
  gint64 t0, t1;
  guint n = 0;

  if (self->markers->len == 0 || self->x_axis != ADBSCOPE_CHART_X_AXIS_TIME)
    return;

  adbscope_chart_get_time_window (self, &t0, &t1);
  ticks = g_new0 (AdbscopeChartTick, self->markers->len);

  /* Newest first, so the newest marker keeps its label when they crowd. */
  for (guint i = self->markers->len; i > 0; i--)
    {
      const Marker *m = &g_array_index (self->markers, Marker, i - 1);
      AdbscopeChartTick *t;

      if (m->time_us < t0 || m->time_us > t1)
        continue;

      t = &ticks[n++];
      t->pos = p->size.width * (double)(m->time_us - t0) / (double)(t1 - t0);
      g_strlcpy (t->label, m->label != NULL ? m->label : "", sizeof t->label);
      t->label_size = measure_text (t->label, self) + 4;
    }

  /* Dashed: 4 px on, 3 off, drawn into the plot's image over the layers
   * (a node a dash were thousands of nodes a frame for a whole run). */
  if (n > 0)
    {
      AdbscopeChartRaster *r = plot_raster (self, raster);
      double dy = p->origin.y - (int) p->origin.y;  /* the image is at the layers' origin */

      for (guint i = 0; i < n; i++)
        for (double y = 0; y < p->size.height; y += 7)
          adbscope_chart_raster_fill_box (r, (int) floor (ticks[i].pos), (int) floor (ticks[i].pos) + 1,
                                          dy + y, dy + MIN (y + 4, p->size.height), color);
    }
  append_raster (self, snapshot, *raster);

  /* Labels start at the line and run right, so lay them out as if centred
   * half a label to the right. */
  for (guint i = 0; i < n; i++)
    ticks[i].pos += ticks[i].label_size / 2;
  adbscope_chart_layout_labels (ticks, n, p->size.width, 4);
  for (guint i = 0; i < n; i++)
    if (ticks[i].show_label)
      append_text (self, snapshot, ticks[i].label, p->origin.x + ticks[i].label_pos + 3,
                   p->origin.y + 1, text_color);
}

#define EVENT_SIZE 7

/* Events (a failed connection, a failed lookup) are small downward
 * triangles along the top of the plot, in the error colour; hovering one
 * names it in the tooltip. */
static void
snapshot_events (AdbscopeChart *self,
                 GtkSnapshot   *snapshot,
                 const GdkRGBA *color)
{
  const graphene_rect_t *p = &self->plot;
  gint64 t0, t1;
  cairo_t *cr = NULL;

  if (self->events->len == 0 || self->x_axis != ADBSCOPE_CHART_X_AXIS_TIME)
    return;
  adbscope_chart_get_time_window (self, &t0, &t1);
  for (guint i = 0; i < self->events->len; i++)
    {
      const Marker *m = &g_array_index (self->events, Marker, i);
      double x;

      if (m->time_us < t0 || m->time_us > t1)
        continue;
      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (snapshot, p);
          gdk_cairo_set_source_rgba (cr, color);
        }
      x = p->origin.x + p->size.width * (double)(m->time_us - t0) / (double)(t1 - t0);
      cairo_move_to (cr, x - EVENT_SIZE / 2.0, p->origin.y);
      cairo_line_to (cr, x + EVENT_SIZE / 2.0, p->origin.y);
      cairo_line_to (cr, x, p->origin.y + EVENT_SIZE);
      cairo_close_path (cr);
    }
  if (cr != NULL)
    {
      cairo_fill (cr);
      cairo_destroy (cr);
    }
}

/* The events within a few pixels of @plot_x, one a line. */
static void
describe_events_at (AdbscopeChart *self,
                    double         plot_x,
                    GString       *text)
{
  gint64 t0, t1;

  adbscope_chart_get_time_window (self, &t0, &t1);
  for (guint i = 0; i < self->events->len; i++)
    {
      const Marker *m = &g_array_index (self->events, Marker, i);
      double x = self->plot.size.width * (double)(m->time_us - t0) / (double)(t1 - t0);

      if (m->time_us < t0 || m->time_us > t1 || fabs (x - plot_x) > EVENT_SIZE)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, m->label);
    }
}

static void
unwatch_scrolling (AdbscopeChart *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->watched); i++)
    if (self->watched[i] != NULL)
      {
        g_signal_handlers_disconnect_by_func (self->watched[i], gtk_widget_queue_draw, self);
        g_clear_object (&self->watched[i]);
      }
}

/* A page's scrolled window snapshots all of its charts, also the ones
 * scrolled out of view, which the renderer then clips away: with every
 * chart moving each frame (a scrolled recording, the live view), drawing
 * those is wasted.  A chart entirely outside its scrolled window draws
 * nothing and redraws once the window scrolls (GTK keeps a widget's last
 * snapshot while it is only moved). */
static gboolean
scrolled_out_of_view (AdbscopeChart *self)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t b;
  GtkAdjustment *adjustments[2];

  if (scrolled == NULL || !gtk_widget_compute_bounds (GTK_WIDGET (self), scrolled, &b))
    return FALSE;
  if (b.origin.x < gtk_widget_get_width (scrolled) && b.origin.x + b.size.width > 0 &&
      b.origin.y < gtk_widget_get_height (scrolled) && b.origin.y + b.size.height > 0)
    {
      unwatch_scrolling (self);
      return FALSE;
    }

  adjustments[0] = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scrolled));
  adjustments[1] = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  for (guint i = 0; i < G_N_ELEMENTS (self->watched); i++)
    if (self->watched[i] != adjustments[i])
      {
        if (self->watched[i] != NULL)
          g_signal_handlers_disconnect_by_func (self->watched[i], gtk_widget_queue_draw, self);
        g_set_object (&self->watched[i], adjustments[i]);
        g_signal_connect_swapped (adjustments[i], "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
      }
  return TRUE;
}

/* The layers in order.  Consecutive layers that rasterize are drawn into
 * one image, one texture for GTK: as cairo nodes, the software renderer
 * replayed each into a cleared image of its own every frame.  What is
 * drawn last stays in @raster, for the marker lines. */
static void
snapshot_layers (AdbscopeChart        *self,
                 GtkSnapshot          *snapshot,
                 AdbscopeChartRaster **raster)
{
  for (guint i = 0; i < self->layers->len; i++)
    {
      GtkWidget *layer = g_ptr_array_index (self->layers, i);
      AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (layer);

      if (klass->rasterize != NULL && gtk_widget_is_drawable (layer))
        {
          if (gtk_widget_get_width (layer) > 0)
            klass->rasterize (ADBSCOPE_CHART_LAYER (layer), plot_raster (self, raster));
          continue;
        }
      append_raster (self, snapshot, *raster);
      gtk_widget_snapshot_child (GTK_WIDGET (self), layer, snapshot);
    }
}

static void
adbscope_chart_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  AdbscopeChart *self = ADBSCOPE_CHART (widget);
  const graphene_rect_t *p = &self->plot;
  AdbscopeChartTick x_ticks[ADBSCOPE_CHART_MAX_TICKS];
  guint n_x_ticks = 0;
  GdkRGBA fg, grid, axis, text, marker;
  AdbscopeChartLayer *bins_layer = NULL;
  g_autoptr(AdbscopeChartRaster) raster = NULL;

  self->n_snapshots++;
  self->last_snapshot_us = g_get_monotonic_time ();
  if (scrolled_out_of_view (self))
    {
      self->n_skipped++;
      return;
    }
  get_foreground (self, &fg);
  grid = axis = text = marker = fg;
  grid.alpha *= 0.10f;
  axis.alpha *= 0.35f;
  text.alpha *= 0.70f;
  marker.alpha *= 0.60f;

  if (self->x_axis == ADBSCOPE_CHART_X_AXIS_BINS)
    bins_layer = find_x_tick_layer (self);

  if (bins_layer != NULL)
    {
      n_x_ticks = ADBSCOPE_CHART_LAYER_GET_CLASS (bins_layer)->get_x_ticks (bins_layer, p->size.width,
                                                                            x_ticks,
                                                                            G_N_ELEMENTS (x_ticks));
      for (guint i = 0; i < n_x_ticks; i++)
        x_ticks[i].label_size = measure_text (x_ticks[i].label, self);
      adbscope_chart_layout_labels (x_ticks, n_x_ticks, p->size.width, 6);
    }
  else if (self->x_axis == ADBSCOPE_CHART_X_AXIS_TIME)
    n_x_ticks = time_ticks (self, p->size.width, x_ticks, G_N_ELEMENTS (x_ticks));

  /* Grid under the data. */
  for (guint i = 0; i < self->n_value_ticks; i++)
    {
      const AdbscopeChartTick *t = &self->value_ticks[i];
      double y = floor (p->origin.y + t->pos);

      gtk_snapshot_append_color (snapshot, i == 0 ? &axis : &grid,
                                 &GRAPHENE_RECT_INIT (p->origin.x, MIN (y, p->origin.y + p->size.height - 1),
                                                      p->size.width, 1));
      if (t->show_label)
        {
          double w = measure_text (t->label, self);

          append_text (self, snapshot, t->label, p->origin.x - GUTTER_PAD + 2 - w,
                       p->origin.y + t->label_pos, &text);
        }
    }
  for (guint i = 0; i < n_x_ticks; i++)
    {
      const AdbscopeChartTick *t = &x_ticks[i];

      gtk_snapshot_append_color (snapshot, &grid,
                                 &GRAPHENE_RECT_INIT (p->origin.x + MIN (floor (t->pos), p->size.width - 1),
                                                      p->origin.y, 1, p->size.height));
      if (t->show_label)
        append_text (self, snapshot, t->label, p->origin.x + t->label_pos,
                     p->origin.y + p->size.height + GUTTER_PAD / 2, &text);
    }

  if (self->legend_height > 0)
    snapshot_legend (self, snapshot, &text);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (p->origin.x, p->origin.y - ADBSCOPE_CHART_BLEED,
                                                        p->size.width,
                                                        p->size.height + 2 * ADBSCOPE_CHART_BLEED));
  snapshot_layers (self, snapshot, &raster);
  snapshot_markers (self, snapshot, &raster, &marker, &text);
  append_raster (self, snapshot, raster);
  {
    GdkRGBA error_color = { 0.88f, 0.11f, 0.14f, 1.0f };   /* libadwaita's error red */

    if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
      error_color = (GdkRGBA) { 1.0f, 0.48f, 0.39f, 1.0f };
    snapshot_events (self, snapshot, &error_color);
  }

  if (self->hovering && graphene_rect_contains_point (p, &GRAPHENE_POINT_INIT (self->hover_x,
                                                                              self->hover_y)))
    {
      double plot_x = self->hover_x - p->origin.x;
      gint64 time_us = self->x_axis == ADBSCOPE_CHART_X_AXIS_TIME ? x_to_time (self, plot_x) : 0;

      gtk_snapshot_append_color (snapshot, &axis,
                                 &GRAPHENE_RECT_INIT (floor (self->hover_x), p->origin.y,
                                                      1, p->size.height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &p->origin);
      for (guint i = 0; i < self->layers->len; i++)
        {
          AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);
          AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (layer);

          if (klass->snapshot_hover != NULL)
            klass->snapshot_hover (layer, snapshot, plot_x, time_us);
        }
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_pop (snapshot);
}

static void
adbscope_chart_unmap (GtkWidget *widget)
{
  unwatch_scrolling (ADBSCOPE_CHART (widget));
  GTK_WIDGET_CLASS (adbscope_chart_parent_class)->unmap (widget);
}

static void
adbscope_chart_dispose (GObject *object)
{
  AdbscopeChart *self = ADBSCOPE_CHART (object);

  while (self->layers->len > 0)
    adbscope_chart_remove_layer (self, g_ptr_array_index (self->layers, self->layers->len - 1));
  clear_text_caches (self, FALSE);
  unwatch_scrolling (self);

  G_OBJECT_CLASS (adbscope_chart_parent_class)->dispose (object);
}

static void
adbscope_chart_finalize (GObject *object)
{
  AdbscopeChart *self = ADBSCOPE_CHART (object);

  g_clear_pointer (&self->layers, g_ptr_array_unref);
  g_clear_pointer (&self->markers, g_array_unref);
  g_clear_pointer (&self->events, g_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->unit, g_free);

  G_OBJECT_CLASS (adbscope_chart_parent_class)->finalize (object);
}

static void
adbscope_chart_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AdbscopeChart *self = ADBSCOPE_CHART (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_UNIT:
      g_value_set_string (value, self->unit);
      break;

    case PROP_VISIBLE_SECONDS:
      g_value_set_double (value, self->visible_seconds);
      break;

    case PROP_END_TIME:
      g_value_set_int64 (value, self->end_time_us);
      break;

    case PROP_INTERVAL:
      g_value_set_int64 (value, self->interval_us);
      break;

    case PROP_RUN_CLOCK:
      g_value_set_boolean (value, self->run_clock);
      break;

    case PROP_AUTO_RANGE:
      g_value_set_boolean (value, self->auto_range);
      break;

    case PROP_VALUE_MIN:
      g_value_set_double (value, self->fixed_min);
      break;

    case PROP_VALUE_MAX:
      g_value_set_double (value, self->fixed_max);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AdbscopeChart *self = ADBSCOPE_CHART (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      adbscope_chart_set_title (self, g_value_get_string (value));
      break;

    case PROP_UNIT:
      adbscope_chart_set_unit (self, g_value_get_string (value));
      break;

    case PROP_VISIBLE_SECONDS:
      adbscope_chart_set_visible_seconds (self, g_value_get_double (value));
      break;

    case PROP_END_TIME:
      adbscope_chart_set_end_time (self, g_value_get_int64 (value));
      break;

    case PROP_INTERVAL:
      adbscope_chart_set_interval (self, g_value_get_int64 (value));
      break;

    case PROP_RUN_CLOCK:
      adbscope_chart_set_run_clock (self, g_value_get_boolean (value));
      break;

    case PROP_AUTO_RANGE:
      adbscope_chart_set_auto_range (self, g_value_get_boolean (value));
      break;

    case PROP_VALUE_MIN:
      {
        double v = g_value_get_double (value);

        /* Keep max above min whatever order .ui files set them in. */
        adbscope_chart_set_value_range (self, v, MAX (self->fixed_max, v + 1));
      }
      break;

    case PROP_VALUE_MAX:
      {
        double v = g_value_get_double (value);

        adbscope_chart_set_value_range (self, MIN (self->fixed_min, v - 1), v);
      }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_class_init (AdbscopeChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_chart_dispose;
  object_class->finalize = adbscope_chart_finalize;
  object_class->get_property = adbscope_chart_get_property;
  object_class->set_property = adbscope_chart_set_property;

  widget_class->measure = adbscope_chart_measure;
  widget_class->size_allocate = adbscope_chart_size_allocate;
  widget_class->snapshot = adbscope_chart_snapshot;
  widget_class->unmap = adbscope_chart_unmap;
  widget_class->system_setting_changed = adbscope_chart_system_setting_changed;
  widget_class->css_changed = adbscope_chart_css_changed;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNIT] =
    g_param_spec_string ("unit", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_SECONDS] =
    g_param_spec_double ("visible-seconds", NULL, NULL, 1, 24 * 3600, 900,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_END_TIME] =
    g_param_spec_int64 ("end-time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INTERVAL] =
    g_param_spec_int64 ("interval", NULL, NULL, 0, G_MAXINT64, G_USEC_PER_SEC,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Time labels on the run's clock (time 0 is its start: a recording),
   * rather than counted back from the right edge ("now": a live run). */
  properties[PROP_RUN_CLOCK] =
    g_param_spec_boolean ("run-clock", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_AUTO_RANGE] =
    g_param_spec_boolean ("auto-range", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE_MIN] =
    g_param_spec_double ("value-min", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE_MAX] =
    g_param_spec_double ("value-max", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 100,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "adbscopechart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
clear_marker (gpointer data)
{
  Marker *m = data;

  g_free (m->label);
}

static void
adbscope_chart_init (AdbscopeChart *self)
{
  GtkEventController *motion;

  self->layers = g_ptr_array_new ();
  self->markers = g_array_new (FALSE, FALSE, sizeof (Marker));
  g_array_set_clear_func (self->markers, clear_marker);
  self->events = g_array_new (FALSE, FALSE, sizeof (Marker));
  g_array_set_clear_func (self->events, clear_marker);
  self->visible_seconds = 900;
  self->interval_us = G_USEC_PER_SEC;
  self->auto_range = TRUE;
  self->fixed_min = 0;
  self->fixed_max = 100;
  update_range (self);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  /* The palette has light and dark shades; CSS changes redraw by themselves. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);

  update_accessible (self);
}

GtkWidget *
adbscope_chart_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_CHART, NULL);
}

void
adbscope_chart_add_layer (AdbscopeChart      *self,
                          AdbscopeChartLayer *layer)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (ADBSCOPE_IS_CHART_LAYER (layer));
  g_return_if_fail (gtk_widget_get_parent (GTK_WIDGET (layer)) == NULL);

  _adbscope_chart_layer_set_palette_index (layer, self->layers->len);
  g_ptr_array_add (self->layers, layer);
  gtk_widget_set_parent (GTK_WIDGET (layer), GTK_WIDGET (self));
  adbscope_chart_queue_update (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

void
adbscope_chart_remove_layer (AdbscopeChart      *self,
                             AdbscopeChartLayer *layer)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (ADBSCOPE_IS_CHART_LAYER (layer));

  if (!g_ptr_array_remove (self->layers, layer))
    return;

  gtk_widget_unparent (GTK_WIDGET (layer));
  for (guint i = 0; i < self->layers->len; i++)
    _adbscope_chart_layer_set_palette_index (g_ptr_array_index (self->layers, i), i);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/**
 * adbscope_chart_queue_update:
 *
 * Call after pushing samples or changing the end time: recomputes the auto
 * range and the accessible description and redraws on the next frame.
 * This is the only way a chart learns about new data.
 */
void
adbscope_chart_queue_update (AdbscopeChart *self)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  /* A new range moves ticks and may widen the value gutter. */
  if (update_range (self))
    gtk_widget_queue_allocate (GTK_WIDGET (self));
  update_accessible (self);
  queue_draw_all (self);
}

const char *
adbscope_chart_get_title (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), NULL);

  return self->title;
}

void
adbscope_chart_set_title (AdbscopeChart *self,
                          const char    *title)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
adbscope_chart_get_unit (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), NULL);

  return self->unit;
}

/**
 * adbscope_chart_set_unit:
 * @unit: (nullable): shown after values in the tooltip and the accessible
 *   description ("%", "MB", "fps")
 */
void
adbscope_chart_set_unit (AdbscopeChart *self,
                         const char    *unit)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (g_strcmp0 (self->unit, unit) == 0)
    return;

  g_free (self->unit);
  self->unit = g_strdup (unit);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

double
adbscope_chart_get_visible_seconds (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);

  return self->visible_seconds;
}

void
adbscope_chart_set_visible_seconds (AdbscopeChart *self,
                                    double         seconds)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (seconds >= 1);

  if (self->visible_seconds == seconds)
    return;

  self->visible_seconds = seconds;
  adbscope_chart_queue_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_SECONDS]);
}

gint64
adbscope_chart_get_end_time (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);

  return self->end_time_us;
}

/**
 * adbscope_chart_set_end_time:
 * @end_time_us: "now" at the right edge, in the series' clock; 0 follows
 *   the newest sample of the layers
 *
 * Takes effect with the next adbscope_chart_queue_update().
 */
void
adbscope_chart_set_end_time (AdbscopeChart *self,
                             gint64         end_time_us)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (self->end_time_us == end_time_us)
    return;

  self->end_time_us = end_time_us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_TIME]);
}

gint64
adbscope_chart_get_interval (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);

  return self->interval_us;
}

/**
 * adbscope_chart_set_interval:
 * @interval_us: the measured sampling interval; samples farther apart than
 *   2.5 intervals leave a gap
 */
void
adbscope_chart_set_interval (AdbscopeChart *self,
                             gint64         interval_us)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (self->interval_us == interval_us)
    return;

  self->interval_us = interval_us;
  queue_draw_all (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL]);
}

gboolean
adbscope_chart_get_auto_range (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), FALSE);

  return self->auto_range;
}

void
adbscope_chart_set_auto_range (AdbscopeChart *self,
                               gboolean       auto_range)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  auto_range = !!auto_range;
  if (self->auto_range == auto_range)
    return;

  self->auto_range = auto_range;
  adbscope_chart_queue_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTO_RANGE]);
}

/**
 * adbscope_chart_set_value_range:
 *
 * A fixed value range (0..100 for a share of CPU); turns auto-range off.
 */
void
adbscope_chart_set_value_range (AdbscopeChart *self,
                                double         min,
                                double         max)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (max > min);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->fixed_min != min)
    {
      self->fixed_min = min;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE_MIN]);
    }
  if (self->fixed_max != max)
    {
      self->fixed_max = max;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE_MAX]);
    }
  if (self->auto_range)
    {
      self->auto_range = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTO_RANGE]);
    }
  adbscope_chart_queue_update (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * adbscope_chart_get_value_range:
 *
 * The range in effect: fixed, or computed from the data on the last update.
 */
void
adbscope_chart_get_value_range (AdbscopeChart *self,
                                double        *min,
                                double        *max)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (min != NULL)
    *min = self->range_min;
  if (max != NULL)
    *max = self->range_max;
}

AdbscopeChartXAxis
adbscope_chart_get_x_axis (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), ADBSCOPE_CHART_X_AXIS_TIME);

  return self->x_axis;
}

void
adbscope_chart_set_x_axis (AdbscopeChart      *self,
                           AdbscopeChartXAxis  x_axis)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  self->x_axis = x_axis;
  queue_draw_all (self);
}

/**
 * adbscope_chart_set_markers:
 * @markers: (array length=n_markers): the session's markers, oldest first
 *
 * Copies the markers; each is drawn as a labelled dashed line.
 */
void
adbscope_chart_set_markers (AdbscopeChart             *self,
                            const AdbscopeChartMarker *markers,
                            guint                      n_markers)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  g_return_if_fail (markers != NULL || n_markers == 0);

  g_array_set_size (self->markers, 0);
  if (n_markers == 0)
    g_array_set_size (self->events, 0);
  for (guint i = 0; i < n_markers; i++)
    {
      Marker m = { markers[i].time_us, g_strdup (markers[i].label) };

      g_array_append_val (self->markers, m);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * adbscope_chart_add_marker:
 *
 * Adds one marker (the label is copied): a session's markers are given
 * to a chart as they are added, never all again.
 */
static void
append_moment (AdbscopeChart *self,
               GArray        *moments,
               gint64         time_us,
               const char    *label)
{
  Marker m = { time_us, g_strdup (label != NULL ? label : "") };

  g_array_append_val (moments, m);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
adbscope_chart_add_marker (AdbscopeChart *self,
                           gint64         time_us,
                           const char    *label)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  append_moment (self, self->markers, time_us, label);
}

/**
 * adbscope_chart_add_event:
 *
 * Adds one event (a failure at @time_us, named by @label in the tooltip),
 * given as it happens like markers.
 */
void
adbscope_chart_add_event (AdbscopeChart *self,
                          gint64         time_us,
                          const char    *label)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));
  append_moment (self, self->events, time_us, label);
}

guint
adbscope_chart_get_n_events (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  return self->events->len;
}

/* Tests: the tooltip text for events near @x (widget coordinates). */
char *
adbscope_chart_describe_events_at (AdbscopeChart *self,
                                   double         x)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), g_string_free (text, FALSE));
  describe_events_at (self, x - self->plot.origin.x, text);
  return g_string_free (text, FALSE);
}

/* Tests: where @time_us is drawn (widget coordinates). */
double
adbscope_chart_time_to_x (AdbscopeChart *self,
                          gint64         time_us)
{
  gint64 t0, t1;

  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  adbscope_chart_get_time_window (self, &t0, &t1);
  return self->plot.origin.x + self->plot.size.width * (double)(time_us - t0) / (double)(t1 - t0);
}

guint
adbscope_chart_get_n_markers (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  return self->markers->len;
}

/**
 * adbscope_chart_get_time_window:
 * @t0_us: (out): time at the left edge
 * @t1_us: (out): time at the right edge ("now")
 */
void
adbscope_chart_get_time_window (AdbscopeChart *self,
                                gint64        *t0_us,
                                gint64        *t1_us)
{
  gint64 end = self->end_time_us;

  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  if (end == 0)
    {
      for (guint i = 0; i < self->layers->len; i++)
        {
          AdbscopeChartLayer *layer = g_ptr_array_index (self->layers, i);
          AdbscopeChartLayerClass *klass = ADBSCOPE_CHART_LAYER_GET_CLASS (layer);
          gint64 last;

          if (klass->get_last_time != NULL && klass->get_last_time (layer, &last))
            end = MAX (end, last);
        }
    }

  *t1_us = end;
  *t0_us = end - (gint64)(self->visible_seconds * G_USEC_PER_SEC);
}

gboolean
adbscope_chart_get_run_clock (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), FALSE);
  return self->run_clock;
}

void
adbscope_chart_set_run_clock (AdbscopeChart *self,
                              gboolean       run_clock)
{
  g_return_if_fail (ADBSCOPE_IS_CHART (self));

  run_clock = !!run_clock;
  if (self->run_clock == run_clock)
    return;
  self->run_clock = run_clock;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN_CLOCK]);
}

/* The time axis labels shown now, newest first (tests). */
GStrv
_adbscope_chart_dup_time_labels (AdbscopeChart *self)
{
  AdbscopeChartTick ticks[ADBSCOPE_CHART_MAX_TICKS];
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  guint n;

  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), NULL);

  n = time_ticks (self, self->plot.size.width, ticks, G_N_ELEMENTS (ticks));
  for (guint i = 0; i < n; i++)
    if (ticks[i].show_label)
      g_strv_builder_add (b, ticks[i].label);
  return g_strv_builder_end (b);
}

/**
 * adbscope_chart_get_plot_area:
 * @area: (out): where the layers draw, in chart coordinates
 *
 * Returns: whether the chart has been allocated
 */
gboolean
adbscope_chart_get_plot_area (AdbscopeChart   *self,
                              graphene_rect_t *area)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  *area = self->plot;
  return gtk_widget_get_width (GTK_WIDGET (self)) > 0;
}

guint
_adbscope_chart_get_n_snapshots (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  return self->n_snapshots;
}

/* Snapshots that drew nothing: the chart was scrolled out of view. */
guint
_adbscope_chart_get_n_skipped (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  return self->n_skipped;
}

/* Monotonic time of the last snapshot, 0 before the first. */
gint64
_adbscope_chart_get_last_snapshot_us (AdbscopeChart *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART (self), 0);
  return self->last_snapshot_us;
}
