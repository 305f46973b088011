/* adbscope-cpu-page.c: system and app CPU, per core, clusters and frequency */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-chart-card.h"
#include "adbscope-cpu-page.h"
#include "adbscope-line-layer.h"
#include "adbscope-overlay-layer.h"

struct _AdbscopeCpuPage
{
  AdbscopePage    parent_instance;

  AdbscopeChart  *core_chart;
  GtkListBox     *cluster_list;

  GPtrArray      *core_layers;     /* AdbscopeLineLayer*, borrowed */
  GPtrArray      *core_overlays;   /* AdbscopeOverlayLayer*, borrowed */
  AdbscopeComparison *comparison;
  GPtrArray      *cluster_rows;    /* AdwActionRow*, borrowed */
  GPtrArray      *cluster_bars;    /* GtkLevelBar*, borrowed */
  gboolean        clusters_built;
  GBinding       *bindings[3];
  AdbscopeSeries *drawn_series;    /* core 0 as last drawn */
  guint64         drawn_pushed;
  guint           drawn_markers;
  gint64          drawn_end_time;
};

G_DEFINE_FINAL_TYPE (AdbscopeCpuPage, adbscope_cpu_page, ADBSCOPE_TYPE_PAGE)

static char *
format_cpus (const GArray *cpus)
{
  int first;
  int last;

  if (cpus == NULL || cpus->len == 0)
    return g_strdup ("");
  first = g_array_index (cpus, int, 0);
  last = g_array_index (cpus, int, cpus->len - 1);
  if (cpus->len == 1)
    /* Translators: one CPU core of a cluster */
    return g_strdup_printf (_("CPU %d"), first);
  if ((guint) (last - first + 1) == cpus->len)
    /* Translators: a range of CPU cores, e.g. "CPUs 0–3" */
    return g_strdup_printf (_("CPUs %d–%d"), first, last);
  /* Translators: the number of CPU cores in a cluster */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u CPU", "%u CPUs", cpus->len), cpus->len);
}

static char *
format_ghz (double khz)
{
  /* Translators: a CPU frequency */
  return g_strdup_printf (_("%.2f GHz"), khz / 1e6);
}

static void
clear_clusters (AdbscopeCpuPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cluster_list))) != NULL)
    gtk_list_box_remove (self->cluster_list, child);
  g_ptr_array_set_size (self->cluster_rows, 0);
  g_ptr_array_set_size (self->cluster_bars, 0);
  self->clusters_built = FALSE;
}

static void
build_clusters (AdbscopeCpuPage  *self,
                AdbscopeDataView *view)
{
  const AdbscopeProbeResult *probe = adbscope_data_view_get_probe (view);
  const char *reason = NULL;

  if (probe == NULL)
    return;
  self->clusters_built = TRUE;

  if (!adbscope_data_view_is_supported (view, ADBSCOPE_SOURCE_CPUFREQ, &reason))
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("CPU frequency is not available"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), reason != NULL ? reason : "");
      gtk_widget_add_css_class (row, "metric-unsupported");
      gtk_list_box_append (self->cluster_list, row);
      return;
    }

  for (guint i = 0; probe->clusters != NULL && i < probe->clusters->len; i++)
    {
      const AdbscopeCluster *c = g_ptr_array_index (probe->clusters, i);
      g_autofree char *cpus = format_cpus (c->cpus);
      g_autofree char *title = NULL;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);

      /* Translators: %u is the cluster number, %s the CPUs in it ("CPUs 0–3") */
      title = g_strdup_printf (_("Cluster %u · %s"), i + 1, cpus);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      gtk_widget_set_size_request (bar, 160, -1);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
      gtk_list_box_append (self->cluster_list, row);
      g_ptr_array_add (self->cluster_rows, row);
      g_ptr_array_add (self->cluster_bars, bar);
    }
}

static void
update_clusters (AdbscopeCpuPage  *self,
                 AdbscopeDataView *view)
{
  const AdbscopeProbeResult *probe = adbscope_data_view_get_probe (view);
  const double *freqs;
  guint n_freqs;

  if (!self->clusters_built)
    build_clusters (self, view);
  if (probe == NULL || probe->clusters == NULL || self->cluster_rows->len != probe->clusters->len)
    return;

  freqs = adbscope_data_view_get_core_freqs (view, &n_freqs);
  for (guint i = 0; i < probe->clusters->len; i++)
    {
      const AdbscopeCluster *c = g_ptr_array_index (probe->clusters, i);
      g_autofree char *max = format_ghz (c->max_freq_khz);
      g_autofree char *subtitle = NULL;
      double sum = 0;
      guint n = 0;

      /* A cluster's cores share one clock: show their mean. */
      for (guint k = 0; c->cpus != NULL && k < c->cpus->len; k++)
        {
          int cpu = g_array_index (c->cpus, int, k);

          if (cpu >= 0 && (guint) cpu < n_freqs && isfinite (freqs[cpu]))
            {
              sum += freqs[cpu];
              n++;
            }
        }

      if (n > 0)
        {
          g_autofree char *cur = format_ghz (sum / n);

          /* Translators: current and maximum frequency, "1.80 GHz of 2.40 GHz" */
          subtitle = g_strdup_printf (_("%s of %s"), cur, max);
          gtk_level_bar_set_value (g_ptr_array_index (self->cluster_bars, i),
                                   c->max_freq_khz > 0 ? CLAMP (sum / n / c->max_freq_khz, 0, 1) : 0);
        }
      else
        /* Translators: %s is the maximum frequency */
        subtitle = g_strdup_printf (_("Maximum %s; current frequency not readable"), max);
      adw_action_row_set_subtitle (g_ptr_array_index (self->cluster_rows, i), subtitle);
    }
}

/* Each core of the other run over the same core of this one. */
static void
sync_core_overlays (AdbscopeCpuPage *self)
{
  for (guint i = 0; i < self->core_overlays->len; i++)
    adbscope_chart_remove_layer (self->core_chart, g_ptr_array_index (self->core_overlays, i));
  g_ptr_array_set_size (self->core_overlays, 0);
  if (self->comparison == NULL)
    return;
  for (guint i = 0; i < self->core_layers->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("cpu.core%u_pct", i);
      AdbscopeChartLayer *layer;

      if (adbscope_comparison_get_core_samples (self->comparison, i) == NULL)
        continue;  /* the other phone has fewer cores */
      layer = adbscope_overlay_layer_new (self->comparison, path, g_ptr_array_index (self->core_layers, i), 0);
      adbscope_overlay_layer_set_in_legend (ADBSCOPE_OVERLAY_LAYER (layer), self->core_overlays->len == 0);
      adbscope_chart_add_layer (self->core_chart, layer);
      g_ptr_array_add (self->core_overlays, layer);
    }
  adbscope_chart_queue_update (self->core_chart);
}

static void
adbscope_cpu_page_set_comparison (AdbscopePage       *page,
                                  AdbscopeComparison *comparison)
{
  AdbscopeCpuPage *self = ADBSCOPE_CPU_PAGE (page);

  if (g_set_object (&self->comparison, comparison))
    sync_core_overlays (self);
}

static void
update_cores (AdbscopeCpuPage  *self,
              AdbscopeDataView *view)
{
  guint n = adbscope_data_view_get_n_cores (view);
  AdbscopeSeries *first = n > 0 ? adbscope_data_view_get_core_series (view, 0) : NULL;
  guint64 pushed = first != NULL ? adbscope_series_get_n_pushed (first) : 0;

  /* Only fast samples move the cores: other collectors' updates leave the
   * chart as it is. */
  if (first == self->drawn_series && pushed == self->drawn_pushed &&
      adbscope_data_view_get_n_markers (view) == self->drawn_markers && self->core_layers->len == n &&
      adbscope_data_view_get_end_time (view) == self->drawn_end_time)
    return;
  self->drawn_series = first;
  self->drawn_pushed = pushed;
  self->drawn_markers = adbscope_data_view_get_n_markers (view);
  self->drawn_end_time = adbscope_data_view_get_end_time (view);

  if (self->core_layers->len < n)
    {
      while (self->core_layers->len < n)
        {
          g_autofree char *title = g_strdup_printf (_("CPU %u"), self->core_layers->len);
          AdbscopeChartLayer *layer = adbscope_line_layer_new (NULL, title);

          adbscope_chart_add_layer (self->core_chart, layer);
          g_ptr_array_add (self->core_layers, layer);
        }
      sync_core_overlays (self);
    }
  for (guint i = 0; i < self->core_layers->len; i++)
    adbscope_line_layer_set_source (g_ptr_array_index (self->core_layers, i),
                                    i < n ? adbscope_data_view_get_core_source (view, i) : NULL);

  adbscope_chart_sync_markers (self->core_chart, view);
  adbscope_chart_queue_update (self->core_chart);
}

static void
adbscope_cpu_page_update (AdbscopePage     *page,
                          AdbscopeDataView *view)
{
  AdbscopeCpuPage *self = ADBSCOPE_CPU_PAGE (page);

  ADBSCOPE_PAGE_CLASS (adbscope_cpu_page_parent_class)->update (page, view);
  update_cores (self, view);
  update_clusters (self, view);
}

static void
adbscope_cpu_page_set_view (AdbscopePage     *page,
                            AdbscopeDataView *view)
{
  AdbscopeCpuPage *self = ADBSCOPE_CPU_PAGE (page);

  clear_clusters (self);
  self->drawn_series = NULL;
  adbscope_chart_bind_view (self->core_chart, view, self->bindings);
}

static void
adbscope_cpu_page_dispose (GObject *object)
{
  AdbscopeCpuPage *self = ADBSCOPE_CPU_PAGE (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->bindings); i++)
    g_clear_pointer (&self->bindings[i], g_binding_unbind);
  g_clear_object (&self->comparison);
  G_OBJECT_CLASS (adbscope_cpu_page_parent_class)->dispose (object);
}

static void
adbscope_cpu_page_finalize (GObject *object)
{
  AdbscopeCpuPage *self = ADBSCOPE_CPU_PAGE (object);

  g_ptr_array_unref (self->core_layers);
  g_ptr_array_unref (self->core_overlays);
  g_ptr_array_unref (self->cluster_rows);
  g_ptr_array_unref (self->cluster_bars);
  G_OBJECT_CLASS (adbscope_cpu_page_parent_class)->finalize (object);
}

static void
adbscope_cpu_page_class_init (AdbscopeCpuPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  object_class->dispose = adbscope_cpu_page_dispose;
  object_class->finalize = adbscope_cpu_page_finalize;
  page_class->update = adbscope_cpu_page_update;
  page_class->set_view = adbscope_cpu_page_set_view;
  page_class->set_comparison = adbscope_cpu_page_set_comparison;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-cpu-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeCpuPage, core_chart);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeCpuPage, cluster_list);
}

static void
adbscope_cpu_page_init (AdbscopeCpuPage *self)
{
  self->core_layers = g_ptr_array_new ();
  self->core_overlays = g_ptr_array_new ();
  self->cluster_rows = g_ptr_array_new ();
  self->cluster_bars = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
