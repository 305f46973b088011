/* adbscope-bar-layer.c: a histogram drawn as bars over given bins
 *
 * For frame times: the caller passes bin edges (16.7 ms is an edge so jank
 * is its own bar) and counts.  Bins are drawn equally wide whatever their
 * edges, since the interesting ones are narrow and the last is open; the
 * chart labels the edges (set its x-axis to ADBSCOPE_CHART_X_AXIS_BINS).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-bar-layer.h"
#include "adbscope-chart.h"

struct _AdbscopeBarLayer
{
  AdbscopeChartLayer  parent_instance;

  double             *edges;   /* n_bins + 1 */
  double             *counts;  /* n_bins */
  guint               n_bins;
};

G_DEFINE_FINAL_TYPE (AdbscopeBarLayer, adbscope_bar_layer, ADBSCOPE_TYPE_CHART_LAYER)

static void
format_edge (double  edge,
             char   *buf,
             gsize   size)
{
  if (isinf (edge))
    g_strlcpy (buf, "∞", size);
  else
    g_snprintf (buf, size, "%g", edge);
}

static void
adbscope_bar_layer_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (widget);
  AdbscopeChart *chart = adbscope_chart_layer_get_chart (ADBSCOPE_CHART_LAYER (self));
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  double bin_w, min, max;
  GdkRGBA color;

  if (chart == NULL || self->n_bins == 0 || width <= 0)
    return;

  adbscope_chart_get_value_range (chart, &min, &max);
  adbscope_chart_layer_get_color (ADBSCOPE_CHART_LAYER (self), &color);
  bin_w = width / self->n_bins;

  /* Plain rectangles: no cairo needed, and crisp at any size. */
  for (guint i = 0; i < self->n_bins; i++)
    {
      double top = height * (max - self->counts[i]) / (max - min);
      double bottom = height * (max - MAX (min, 0)) / (max - min);
      double x0 = round (i * bin_w) + 1;
      double x1 = round ((i + 1) * bin_w) - 1;

      if (!(self->counts[i] > 0) || x1 <= x0)
        continue;
      top = floor (MIN (top, bottom - 1));  /* a count of 1 is still seen */
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (x0, top, x1 - x0, bottom - top));
    }
}

static gboolean
adbscope_bar_layer_get_value_extent (AdbscopeChartLayer *layer,
                                     gint64              t0_us,
                                     gint64              t1_us,
                                     double             *min,
                                     double             *max)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (layer);

  if (self->n_bins == 0)
    return FALSE;

  *min = 0;
  *max = 0;
  for (guint i = 0; i < self->n_bins; i++)
    if (isfinite (self->counts[i]))
      *max = MAX (*max, self->counts[i]);

  return TRUE;
}

static guint
adbscope_bar_layer_get_x_ticks (AdbscopeChartLayer *layer,
                                double              length,
                                AdbscopeChartTick  *ticks,
                                guint               max_ticks)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (layer);
  guint n = MIN (self->n_bins + (self->n_bins > 0), max_ticks);

  for (guint i = 0; i < n; i++)
    {
      ticks[i].value = self->edges[i];
      ticks[i].pos = length * i / self->n_bins;
      format_edge (self->edges[i], ticks[i].label, sizeof ticks[i].label);
    }

  return n;
}

static void
describe_bin (AdbscopeBarLayer *self,
              guint             i,
              GString          *text)
{
  char lo[32], hi[32];

  format_edge (self->edges[i], lo, sizeof lo);
  format_edge (self->edges[i + 1], hi, sizeof hi);
  g_string_append_printf (text, "%s–%s: %g", lo, hi, self->counts[i]);
}

static void
adbscope_bar_layer_describe_at (AdbscopeChartLayer *layer,
                                double              x,
                                gint64              time_us,
                                GString            *text)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (layer);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  const char *title = adbscope_chart_layer_get_title (layer);
  guint i;

  if (self->n_bins == 0 || width <= 0)
    return;

  i = MIN ((guint)MAX (0, x * self->n_bins / width), self->n_bins - 1);
  if (title != NULL)
    g_string_append_printf (text, "%s ", title);
  describe_bin (self, i, text);
}

static void
adbscope_bar_layer_describe_current (AdbscopeChartLayer *layer,
                                     GString            *text)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (layer);
  const char *title = adbscope_chart_layer_get_title (layer);

  if (self->n_bins == 0)
    return;

  if (title != NULL)
    g_string_append_printf (text, "%s: ", title);
  for (guint i = 0; i < self->n_bins; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      describe_bin (self, i, text);
    }
}

static void
adbscope_bar_layer_finalize (GObject *object)
{
  AdbscopeBarLayer *self = ADBSCOPE_BAR_LAYER (object);

  g_clear_pointer (&self->edges, g_free);
  g_clear_pointer (&self->counts, g_free);

  G_OBJECT_CLASS (adbscope_bar_layer_parent_class)->finalize (object);
}

static void
adbscope_bar_layer_class_init (AdbscopeBarLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopeChartLayerClass *layer_class = ADBSCOPE_CHART_LAYER_CLASS (klass);

  object_class->finalize = adbscope_bar_layer_finalize;

  widget_class->snapshot = adbscope_bar_layer_snapshot;

  layer_class->get_value_extent = adbscope_bar_layer_get_value_extent;
  layer_class->get_x_ticks = adbscope_bar_layer_get_x_ticks;
  layer_class->describe_at = adbscope_bar_layer_describe_at;
  layer_class->describe_current = adbscope_bar_layer_describe_current;
}

static void
adbscope_bar_layer_init (AdbscopeBarLayer *self)
{
}

AdbscopeChartLayer *
adbscope_bar_layer_new (const char *title)
{
  return g_object_new (ADBSCOPE_TYPE_BAR_LAYER, "title", title, NULL);
}

/**
 * adbscope_bar_layer_set_bins:
 * @edges: (array length=n_edges): ascending bin edges; the last may be INFINITY
 * @n_edges: number of bins + 1
 * @counts: (array): n_edges − 1 counts
 *
 * Copies the bins.  Call adbscope_chart_queue_update() afterwards so the
 * value range follows.
 */
void
adbscope_bar_layer_set_bins (AdbscopeBarLayer *self,
                             const double     *edges,
                             guint             n_edges,
                             const double     *counts)
{
  g_return_if_fail (ADBSCOPE_IS_BAR_LAYER (self));
  g_return_if_fail (n_edges == 0 || (edges != NULL && counts != NULL));
  g_return_if_fail (n_edges != 1);

  g_free (self->edges);
  g_free (self->counts);
  self->n_bins = n_edges > 0 ? n_edges - 1 : 0;
  self->edges = g_memdup2 (edges, n_edges * sizeof (double));
  self->counts = g_memdup2 (counts, self->n_bins * sizeof (double));

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

