/* adbscope-chart-card.c: a titled time chart of session series, with its current value
 *
 * Cards are declared in the pages' templates by report path
 * (series="cpu.app_pct,cpu.system_pct"), so a page is mostly .ui; the
 * unit comes from the series table (ADBSCOPE_SERIES_TABLE), never from the
 * template.  The card shows one of three things: the chart; the reason its
 * source is not supported (never a flat zero); or "waiting" while no
 * sample exists yet.  The chart's visible window and interval are bound
 * to the view once; markers are handed over as they are added.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-card-frame.h"
#include "adbscope-chart-bucket.h"
#include "adbscope-chart-card.h"
#include "adbscope-line-layer.h"
#include "adbscope-overlay-layer.h"
#include "adbscope-stacked-layer.h"

struct _AdbscopeChartCard
{
  GtkWidget       parent_instance;

  GtkWidget      *frame;
  GtkWidget      *content;
  GtkLabel       *title_label;
  GtkLabel       *value_label;
  GtkStack       *stack;
  AdbscopeChart  *chart;
  GtkLabel       *reason_label;

  char           *title;
  char           *unit;
  char           *series_paths;
  char           *labels;
  char           *source_key;
  GArray         *ids;          /* AdbscopeSeriesId, in layer order */
  GPtrArray      *layers;       /* AdbscopeChartLayer*, borrowed from the chart */
  GPtrArray      *overlays;     /* AdbscopeOverlayLayer*, borrowed from the chart */
  AdbscopeComparison *comparison;
  AdbscopeDataView *view;
  GBinding       *bindings[3];
  /* What the chart drew last: the same series with no new sample and no
   * new marker is nothing to redraw (other collectors' samples). */
  AdbscopeSeries *drawn_series;
  guint64         drawn_pushed;
  guint           drawn_markers;
  gint64          drawn_end_time;
  double          value_max;    /* fixed top of the value range; 0: automatic */
  gboolean        stacked;
  gboolean        fill;
  gboolean        built;
};

G_DEFINE_FINAL_TYPE (AdbscopeChartCard, adbscope_chart_card, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_SERIES,
  PROP_LABELS,
  PROP_SOURCE,
  PROP_STACKED,
  PROP_FILL,
  PROP_VALUE_MAX,
  PROP_TOOLTIP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
series_id_from_path (const char       *path,
                     AdbscopeSeriesId *id)
{
  for (guint i = 0; i < ADBSCOPE_N_SERIES; i++)
    if (strcmp (adbscope_series_id_get_path (i), path) == 0)
      {
        *id = i;
        return TRUE;
      }
  return FALSE;
}

static gboolean
source_from_key (const char     *key,
                 AdbscopeSource *source)
{
  for (guint i = 0; i < ADBSCOPE_N_SOURCES; i++)
    if (g_strcmp0 (adbscope_source_to_key (i), key) == 0)
      {
        *source = i;
        return TRUE;
      }
  return FALSE;
}

static void
set_string (char       **field,
            const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* The other run's series over the shown ones: a line for each line, the
 * top of each band for a stack (what the stack's outline shows). */
static void
build_overlays (AdbscopeChartCard *self)
{
  for (guint i = 0; i < self->overlays->len; i++)
    adbscope_chart_remove_layer (self->chart, g_ptr_array_index (self->overlays, i));
  g_ptr_array_set_size (self->overlays, 0);
  if (self->comparison == NULL || !self->built)
    return;

  for (guint i = 0; i < self->ids->len; i++)
    {
      AdbscopeSeriesId id = g_array_index (self->ids, AdbscopeSeriesId, i);
      AdbscopeChartLayer *layer;

      if (self->stacked)
        {
          g_autoptr(GArray) top = adbscope_comparison_sum_samples (self->comparison,
                                                                   (AdbscopeSeriesId *) self->ids->data, i + 1);

          layer = adbscope_overlay_layer_new_for_samples (self->comparison, top, g_ptr_array_index (self->layers, 0), i);
        }
      else
        layer = adbscope_overlay_layer_new (self->comparison, adbscope_series_id_get_path (id),
                                            g_ptr_array_index (self->layers, i), 0);
      adbscope_overlay_layer_set_in_legend (ADBSCOPE_OVERLAY_LAYER (layer), i == 0);
      adbscope_chart_add_layer (self->chart, layer);
      g_ptr_array_add (self->overlays, layer);
    }
  adbscope_chart_queue_update (self->chart);
}

/**
 * adbscope_chart_card_set_comparison:
 * @comparison: (nullable): another run to overlay, or %NULL to remove it
 */
void
adbscope_chart_card_set_comparison (AdbscopeChartCard  *self,
                                    AdbscopeComparison *comparison)
{
  g_return_if_fail (ADBSCOPE_IS_CHART_CARD (self));
  g_return_if_fail (comparison == NULL || ADBSCOPE_IS_COMPARISON (comparison));

  if (self->comparison == comparison)
    return;
  g_set_object (&self->comparison, comparison);
  build_overlays (self);
}

/* Layers are made on the first update: GtkBuilder sets the properties in
 * any order. */
static void
build_layers (AdbscopeChartCard *self,
              AdbscopeDataView  *view)
{
  g_auto(GStrv) paths = g_strsplit (self->series_paths ? self->series_paths : "", ",", -1);
  g_auto(GStrv) labels = g_strsplit (self->labels ? self->labels : "", ",", -1);
  guint n_labels = g_strv_length (labels);
  AdbscopeChartLayer *stack = NULL;

  self->built = TRUE;
  if (self->stacked)
    {
      stack = adbscope_stacked_layer_new ();
      adbscope_chart_add_layer (self->chart, stack);
      g_ptr_array_add (self->layers, stack);
    }

  for (guint i = 0; paths[i] != NULL; i++)
    {
      const char *path = g_strstrip (paths[i]);
      const char *label = i < n_labels ? g_strstrip (labels[i]) : self->title;
      AdbscopeSeriesId id;

      if (*path == '\0')
        continue;
      if (!series_id_from_path (path, &id))
        {
          g_critical ("Chart card “%s”: no series “%s”", self->title, path);
          continue;
        }
      g_array_append_val (self->ids, id);
      if (self->ids->len == 1)
        {
          set_string (&self->unit, adbscope_series_id_get_unit (id));
          adbscope_chart_set_unit (self->chart, self->unit);
        }
      if (stack != NULL)
        {
          AdbscopeSeries *series = adbscope_data_view_get_series (view, id);

          g_assert (series != NULL);
          adbscope_stacked_layer_add_series (ADBSCOPE_STACKED_LAYER (stack), series, label, NULL);
        }
      else
        {
          AdbscopeChartLayer *layer = adbscope_line_layer_new (NULL, label);

          adbscope_line_layer_set_fill (ADBSCOPE_LINE_LAYER (layer), self->fill && i == 0);
          adbscope_chart_add_layer (self->chart, layer);
          g_ptr_array_add (self->layers, layer);
        }
    }
  build_overlays (self);
}

/**
 * adbscope_chart_sync_markers:
 *
 * Gives @chart the view's markers and network failures it does not have
 * yet (any time chart, not only a card's): one copy each, when added.
 */
void
adbscope_chart_sync_markers (AdbscopeChart    *chart,
                             AdbscopeDataView *view)
{
  guint n = adbscope_data_view_get_n_markers (view);

  const GArray *events = adbscope_network_get_events (adbscope_data_view_get_network (view));

  for (guint i = adbscope_chart_get_n_markers (chart); i < n; i++)
    {
      const AdbscopeMarker *m = adbscope_data_view_get_marker (view, i);

      adbscope_chart_add_marker (chart, m->time_us, m->label);
    }
  /* The network's failures are on the same timeline (the session's clock). */
  for (guint i = adbscope_chart_get_n_events (chart); i < events->len; i++)
    {
      const AdbscopeNetEvent *ev = &g_array_index (events, AdbscopeNetEvent, i);
      g_autofree char *label = adbscope_net_event_describe (ev);

      adbscope_chart_add_event (chart, ev->time_us, label);
    }
}

/**
 * adbscope_chart_bind_view:
 * @bindings: (out caller-allocates) (array fixed-size=3): to unbind with
 *
 * Binds @chart's visible window and interval to @view, once.
 */
void
adbscope_chart_bind_view (AdbscopeChart    *chart,
                          AdbscopeDataView *view,
                          GBinding         *bindings[3])
{
  for (guint i = 0; i < 3; i++)
    g_clear_pointer (&bindings[i], g_binding_unbind);
  adbscope_chart_set_markers (chart, NULL, 0);
  if (view == NULL)
    return;
  bindings[0] = g_object_bind_property (view, "visible-seconds", chart, "visible-seconds", G_BINDING_SYNC_CREATE);
  bindings[1] = g_object_bind_property (view, "interval-us", chart, "interval", G_BINDING_SYNC_CREATE);
  bindings[2] = g_object_bind_property (view, "end-time", chart, "end-time", G_BINDING_SYNC_CREATE);
  /* a recording is on its own clock, never "now" */
  adbscope_chart_set_run_clock (chart, adbscope_data_view_get_opened_path (view) != NULL);
}

/**
 * adbscope_chart_card_set_view:
 *
 * Binds the chart to @view (or unbinds it, for %NULL).
 */
void
adbscope_chart_card_set_view (AdbscopeChartCard *self,
                              AdbscopeDataView  *view)
{
  g_return_if_fail (ADBSCOPE_IS_CHART_CARD (self));
  g_return_if_fail (view == NULL || ADBSCOPE_IS_DATA_VIEW (view));

  if (self->view == view)
    return;
  g_set_object (&self->view, view);
  self->drawn_series = NULL;
  adbscope_chart_bind_view (self->chart, view, self->bindings);
}

/**
 * adbscope_chart_card_update:
 *
 * Points the layers at @view's series (live or frozen), picks what to show
 * and redraws.
 */
void
adbscope_chart_card_update (AdbscopeChartCard *self,
                            AdbscopeDataView  *view)
{
  g_autoptr(GString) value_text = g_string_new (NULL);
  AdbscopeSource source;
  const char *reason = NULL;
  gboolean any_data = FALSE;
  double total = 0;

  g_return_if_fail (ADBSCOPE_IS_CHART_CARD (self));
  g_return_if_fail (ADBSCOPE_IS_DATA_VIEW (view));

  adbscope_chart_card_set_view (self, view);
  if (!self->built)
    build_layers (self, view);

  if (self->source_key != NULL && source_from_key (self->source_key, &source) &&
      !adbscope_data_view_is_supported (view, source, &reason))
    {
      gtk_label_set_text (self->reason_label, reason != NULL ? reason : _("Not supported on this device"));
      gtk_stack_set_visible_child_name (self->stack, "unsupported");
      gtk_label_set_text (self->value_label, "");
      self->drawn_series = NULL;
      return;
    }

  if (self->ids->len > 0)
    {
      AdbscopeSeries *first = adbscope_data_view_get_series (view, g_array_index (self->ids, AdbscopeSeriesId, 0));
      guint64 pushed = 0;
      guint n_markers = adbscope_data_view_get_n_markers (view)
                        + adbscope_network_get_events (adbscope_data_view_get_network (view))->len;

      for (guint i = 0; i < self->ids->len; i++)
        pushed += adbscope_series_get_n_pushed (adbscope_data_view_get_series (view, g_array_index (self->ids, AdbscopeSeriesId, i)));
      /* (a recording scrolled is new to draw too) */
      if (first == self->drawn_series && pushed == self->drawn_pushed && n_markers == self->drawn_markers &&
          adbscope_data_view_get_end_time (view) == self->drawn_end_time)
        return;
      self->drawn_series = first;
      self->drawn_pushed = pushed;
      self->drawn_markers = n_markers;
      self->drawn_end_time = adbscope_data_view_get_end_time (view);
    }

  for (guint i = 0; i < self->ids->len; i++)
    {
      AdbscopeChartSource *from = adbscope_data_view_get_source (view, g_array_index (self->ids, AdbscopeSeriesId, i));
      double value;

      if (self->stacked)
        adbscope_stacked_layer_set_source (g_ptr_array_index (self->layers, 0), i, from);
      else
        adbscope_line_layer_set_source (g_ptr_array_index (self->layers, i), from);

      if (from != NULL && adbscope_chart_source_get_last_finite (from, NULL, &value))
        {
          /* A stack is read as its total; lines by the first one. */
          if (self->stacked)
            total += value;
          else if (!any_data)
            adbscope_chart_format_with_unit (value, self->unit, value_text);
          any_data = TRUE;
        }
    }
  if (self->stacked && any_data)
    adbscope_chart_format_with_unit (total, self->unit, value_text);

  gtk_label_set_text (self->value_label, value_text->str);
  gtk_stack_set_visible_child_name (self->stack, any_data ? "chart" : "waiting");

  adbscope_chart_sync_markers (self->chart, view);
  adbscope_chart_queue_update (self->chart);
}

const char *
adbscope_chart_card_get_title (AdbscopeChartCard *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_CARD (self), NULL);
  return self->title;
}

AdbscopeChart *
adbscope_chart_card_get_chart (AdbscopeChartCard *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_CARD (self), NULL);
  return self->chart;
}

/**
 * adbscope_chart_card_get_state:
 *
 * Returns: "chart", "unsupported" or "waiting"
 */
const char *
adbscope_chart_card_get_state (AdbscopeChartCard *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_CARD (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

const char *
adbscope_chart_card_get_value_text (AdbscopeChartCard *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_CARD (self), NULL);
  return gtk_label_get_text (self->value_label);
}


static void
adbscope_chart_card_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AdbscopeChartCard *self = ADBSCOPE_CHART_CARD (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SERIES:
      g_value_set_string (value, self->series_paths);
      break;
    case PROP_LABELS:
      g_value_set_string (value, self->labels);
      break;
    case PROP_SOURCE:
      g_value_set_string (value, self->source_key);
      break;
    case PROP_STACKED:
      g_value_set_boolean (value, self->stacked);
      break;
    case PROP_FILL:
      g_value_set_boolean (value, self->fill);
      break;
    case PROP_VALUE_MAX:
      g_value_set_double (value, self->value_max);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, gtk_widget_get_tooltip_text (GTK_WIDGET (self->title_label)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_card_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AdbscopeChartCard *self = ADBSCOPE_CHART_CARD (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      set_string (&self->title, g_value_get_string (value));
      gtk_label_set_text (self->title_label, self->title);
      adbscope_chart_set_title (self->chart, self->title);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      self->title != NULL ? self->title : "", -1);
      break;
    case PROP_SERIES:
      g_return_if_fail (!self->built);
      set_string (&self->series_paths, g_value_get_string (value));
      break;
    case PROP_LABELS:
      g_return_if_fail (!self->built);
      set_string (&self->labels, g_value_get_string (value));
      break;
    case PROP_SOURCE:
      set_string (&self->source_key, g_value_get_string (value));
      break;
    case PROP_STACKED:
      g_return_if_fail (!self->built);
      self->stacked = g_value_get_boolean (value);
      break;
    case PROP_FILL:
      self->fill = g_value_get_boolean (value);
      break;
    case PROP_VALUE_MAX:
      self->value_max = g_value_get_double (value);
      if (self->value_max > 0)
        adbscope_chart_set_value_range (self->chart, 0, self->value_max);
      else
        adbscope_chart_set_auto_range (self->chart, TRUE);
      break;
    case PROP_TOOLTIP:
      /* A tooltip for the pointer, a description for screen readers */
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), g_value_get_string (value));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      g_value_get_string (value) ? g_value_get_string (value) : "", -1);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_chart_card_dispose (GObject *object)
{
  AdbscopeChartCard *self = ADBSCOPE_CHART_CARD (object);
  GtkWidget *child;

  for (guint i = 0; i < G_N_ELEMENTS (self->bindings); i++)
    g_clear_pointer (&self->bindings[i], g_binding_unbind);
  g_clear_object (&self->view);
  g_clear_object (&self->comparison);
  gtk_widget_dispose_template (GTK_WIDGET (self), ADBSCOPE_TYPE_CHART_CARD);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (adbscope_chart_card_parent_class)->dispose (object);
}

static void
adbscope_chart_card_finalize (GObject *object)
{
  AdbscopeChartCard *self = ADBSCOPE_CHART_CARD (object);

  g_free (self->title);
  g_free (self->unit);
  g_free (self->series_paths);
  g_free (self->labels);
  g_free (self->source_key);
  g_array_unref (self->ids);
  g_ptr_array_unref (self->layers);
  g_ptr_array_unref (self->overlays);
  G_OBJECT_CLASS (adbscope_chart_card_parent_class)->finalize (object);
}

static void
adbscope_chart_card_class_init (AdbscopeChartCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_chart_card_dispose;
  object_class->finalize = adbscope_chart_card_finalize;
  object_class->get_property = adbscope_chart_card_get_property;
  object_class->set_property = adbscope_chart_card_set_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /* Report paths of ADBSCOPE_SERIES_TABLE, comma separated */
  properties[PROP_SERIES] =
    g_param_spec_string ("series", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /* Legend titles, comma separated, one per series */
  properties[PROP_LABELS] =
    g_param_spec_string ("labels", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /* adbscope_source_to_key() of the source the series need */
  properties[PROP_SOURCE] =
    g_param_spec_string ("source", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STACKED] =
    g_param_spec_boolean ("stacked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILL] =
    g_param_spec_boolean ("fill", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE_MAX] =
    g_param_spec_double ("value-max", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOLTIP] =
    g_param_spec_string ("explanation", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (ADBSCOPE_TYPE_CARD_FRAME);
  g_type_ensure (ADBSCOPE_TYPE_CHART);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-chart-card.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, title_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, value_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, chart);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, reason_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, frame);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeChartCard, content);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chartcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
adbscope_chart_card_init (AdbscopeChartCard *self)
{
  self->ids = g_array_new (FALSE, FALSE, sizeof (AdbscopeSeriesId));
  self->layers = g_ptr_array_new ();
  self->overlays = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
adbscope_chart_card_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_CHART_CARD, NULL);
}

/**
 * adbscope_chart_card_list_overlays:
 *
 * Returns: (transfer container) (element-type AdbscopeOverlayLayer): the
 *   layers of the overlaid run, one per series, in series order
 */
GPtrArray *
adbscope_chart_card_list_overlays (AdbscopeChartCard *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_CHART_CARD (self), NULL);
  return g_ptr_array_copy (self->overlays, NULL, NULL);
}
