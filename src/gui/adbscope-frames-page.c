/* adbscope-frames-page.c: frame rate, frame times, janky frames and their causes
 *
 * The session keeps every frame time (ms) it has seen, sorted.  The
 * histogram counts them with one binary search per bin edge; the
 * percentiles are the report's (adbscope_percentile_nearest_rank() on the
 * same array), so the page and an exported report always agree.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "adbscope-bar-layer.h"
#include "adbscope-chart.h"
#include "adbscope-frames-page.h"

static const double edges_ms[] = { 0, 4, 8, 12, 16.7, 20, 25, 33.3, 50, 66.7, 100, 150, 250, 500, INFINITY };
#define N_EDGES G_N_ELEMENTS (edges_ms)

struct _AdbscopeFramesPage
{
  AdbscopePage      parent_instance;

  GtkStack         *frames_stack;
  GtkLabel         *frames_reason;
  AdbscopeChart    *histogram;
  GtkLabel         *frames_label;
  GtkLabel         *janky_label;
  GtkLabel         *percentiles_label;
  GtkListBox       *causes_list;

  AdbscopeChartLayer *bars;
  GtkWidget        *cause_rows[ADBSCOPE_JANK_N_CAUSES];
  GtkLabel         *cause_labels[ADBSCOPE_JANK_N_CAUSES];
};

G_DEFINE_FINAL_TYPE (AdbscopeFramesPage, adbscope_frames_page, ADBSCOPE_TYPE_PAGE)

static const char *
cause_title (AdbscopeJankCause cause)
{
  switch (cause)
    {
    case ADBSCOPE_JANK_MISSED_VSYNC:
      return _("Missed vsync");
    case ADBSCOPE_JANK_HIGH_INPUT_LATENCY:
      return _("High input latency");
    case ADBSCOPE_JANK_SLOW_UI_THREAD:
      return _("Slow UI thread");
    case ADBSCOPE_JANK_SLOW_BITMAP_UPLOADS:
      return _("Slow bitmap uploads");
    case ADBSCOPE_JANK_SLOW_ISSUE_DRAW_COMMANDS:
      return _("Slow issue draw commands");
    case ADBSCOPE_JANK_FRAME_DEADLINE_MISSED:
      return _("Frame deadline missed");
    case ADBSCOPE_JANK_N_CAUSES:
    default:
      g_assert_not_reached ();
    }
}

/* How many of the ascending @times are below @limit. */
static guint
count_below (const double *times,
             guint         n,
             double        limit)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid] < limit)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
update_histogram (AdbscopeFramesPage *self,
                  AdbscopeDataView   *view)
{
  double counts[N_EDGES - 1] = { 0 };
  guint n = 0;
  const double *times = adbscope_data_view_get_frame_times (view, &n);

  for (guint b = 0; b + 1 < N_EDGES; b++)
    counts[b] = count_below (times, n, edges_ms[b + 1]) - (b > 0 ? count_below (times, n, edges_ms[b]) : 0);
  adbscope_bar_layer_set_bins (ADBSCOPE_BAR_LAYER (self->bars), edges_ms, N_EDGES, counts);
  adbscope_chart_queue_update (self->histogram);
}

static void
update_summary (AdbscopeFramesPage *self,
                AdbscopeDataView   *view)
{
  const AdbscopeFrameTotals *t = adbscope_data_view_get_frame_totals (view);
  gint64 frames = t->frames;
  gint64 janky = t->janky;
  g_autofree char *frames_text = NULL;
  g_autofree char *janky_text = NULL;
  guint n_times = 0;
  frames_text = g_strdup_printf ("%" G_GINT64_FORMAT, frames);
  gtk_label_set_text (self->frames_label, frames_text);
  if (frames > 0)
    janky_text = g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f %%)", janky, 100.0 * janky / frames);
  else
    janky_text = g_strdup ("—");
  gtk_label_set_text (self->janky_label, janky_text);

  adbscope_data_view_get_frame_times (view, &n_times);
  if (n_times > 0)
    {
      g_autofree char *text =
        g_strdup_printf (_("%.1f / %.1f / %.1f ms"),
                         adbscope_data_view_get_frame_time_percentile (view, 50),
                         adbscope_data_view_get_frame_time_percentile (view, 90),
                         adbscope_data_view_get_frame_time_percentile (view, 99));
      gtk_label_set_text (self->percentiles_label, text);
    }
  else
    gtk_label_set_text (self->percentiles_label, "—");

  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    {
      g_autofree char *text = NULL;

      gtk_widget_set_visible (self->cause_rows[c], t->has_cause[c]);
      if (!t->has_cause[c])
        continue;
      /* Causes overlap and are counted by Android over all frames, so
       * they are a share of the frames, not of the janky ones. */
      if (frames > 0)
        text = g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f %%)", t->causes[c], 100.0 * t->causes[c] / frames);
      else
        text = g_strdup_printf ("%" G_GINT64_FORMAT, t->causes[c]);
      gtk_label_set_text (self->cause_labels[c], text);
    }
}

static void
adbscope_frames_page_update (AdbscopePage     *page,
                             AdbscopeDataView *view)
{
  AdbscopeFramesPage *self = ADBSCOPE_FRAMES_PAGE (page);
  const char *reason = NULL;

  ADBSCOPE_PAGE_CLASS (adbscope_frames_page_parent_class)->update (page, view);

  if (!adbscope_data_view_is_supported (view, ADBSCOPE_SOURCE_FRAMES, &reason))
    {
      gtk_label_set_text (self->frames_reason, reason != NULL ? reason : _("Not supported on this device"));
      gtk_stack_set_visible_child_name (self->frames_stack, "unsupported");
      return;
    }
  gtk_stack_set_visible_child_name (self->frames_stack, "frames");
  update_histogram (self, view);
  update_summary (self, view);
}

static void
adbscope_frames_page_class_init (AdbscopeFramesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdbscopePageClass *page_class = ADBSCOPE_PAGE_CLASS (klass);

  page_class->update = adbscope_frames_page_update;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-frames-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, frames_stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, frames_reason);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, histogram);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, frames_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, janky_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, percentiles_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, causes_list);
}

static void
adbscope_frames_page_init (AdbscopeFramesPage *self)
{
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));

  adbscope_chart_set_x_axis (self->histogram, ADBSCOPE_CHART_X_AXIS_BINS);
  adbscope_chart_set_unit (self->histogram, _("frames"));
  self->bars = adbscope_bar_layer_new (_("Frames"));
  adbscope_chart_add_layer (self->histogram, self->bars);

  placeholder = gtk_label_new (_("This Android version does not report jank causes"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->causes_list, placeholder);

  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *label = gtk_label_new (NULL);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), cause_title (c));
      gtk_widget_add_css_class (label, "numeric");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
      gtk_widget_set_visible (row, FALSE);
      gtk_list_box_append (self->causes_list, row);
      self->cause_rows[c] = row;
      self->cause_labels[c] = GTK_LABEL (label);
    }
}
