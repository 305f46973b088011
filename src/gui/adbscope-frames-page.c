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
#include "adbscope-frames-summary.h"
#include "adbscope-frames-page.h"

static const double edges_ms[] = { 0, 4, 8, 12, 16.7, 20, 25, 33.3, 50, 66.7, 100, 150, 250, 500, INFINITY };
#define N_EDGES G_N_ELEMENTS (edges_ms)

struct _AdbscopeFramesPage
{
  AdbscopePage      parent_instance;

  GtkStack         *frames_stack;
  GtkLabel         *frames_reason;
  AdbscopeChart    *histogram;
  GtkStack         *histogram_stack;
  GtkSpinner       *histogram_spinner;
  GtkSpinner       *percentiles_spinner;
  GtkWidget        *frames_row;
  GtkLabel         *frames_label;
  GtkWidget        *janky_row;
  GtkLabel         *janky_label;
  GtkLabel         *percentiles_label;
  GtkListBox       *causes_list;
  GtkLabel         *causes_placeholder;
  GtkWidget        *source_row;
  GtkLabel         *source_label;
  GtkWidget        *zero_row;
  GtkLabel         *zero_label;
  GtkWidget        *perfdog_row;
  GtkLabel         *perfdog_label;
  GtkWidget        *lost_row;
  GtkLabel         *lost_label;

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

/* A SurfaceView app's frames are SurfaceFlinger's (present to present);
 * HWUI's otherwise. */
static gboolean
use_surfaceflinger (AdbscopeDataView *view)
{
  const AdbscopeFramesSummary *f = adbscope_data_view_get_frames_summary (view);

  return f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] > f->samples[ADBSCOPE_FRAMES_SOURCE_GFXINFO];
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* SurfaceFlinger's frame times (present to present), sorted; NULL when the
 * app's frames come from HWUI. */
static GArray *
sf_sorted_times (AdbscopeDataView *view)
{
  GArray *times;

  if (!use_surfaceflinger (view))
    return NULL;
  times = g_array_copy (adbscope_data_view_get_frames_summary (view)->frame_times);
  g_array_sort (times, compare_double);
  return times;
}

static void
update_histogram (AdbscopeFramesPage *self,
                  AdbscopeDataView   *view)
{
  double counts[N_EDGES - 1] = { 0 };
  g_autoptr(GArray) sf = sf_sorted_times (view);
  guint n = 0;
  const double *times = sf != NULL ? (const double *) (gpointer) sf->data : adbscope_data_view_get_frame_times (view, &n);

  if (sf != NULL)
    n = sf->len;

  for (guint b = 0; b + 1 < N_EDGES; b++)
    counts[b] = count_below (times, n, edges_ms[b + 1]) - (b > 0 ? count_below (times, n, edges_ms[b]) : 0);
  adbscope_bar_layer_set_bins (ADBSCOPE_BAR_LAYER (self->bars), edges_ms, N_EDGES, counts);
  adbscope_chart_queue_update (self->histogram);
}

/* The Frames and Janky rows count each interval's frames from the source
 * its frame rate came from, as the report's frames.total and janky do;
 * their subtitles name it. */
static void
update_totals (AdbscopeFramesPage *self,
               AdbscopeDataView   *view)
{
  const AdbscopeFrameTotals *t = adbscope_data_view_get_frame_totals (view);
  const AdbscopeFramesSummary *f = adbscope_data_view_get_frames_summary (view);
  const char *key = adbscope_frames_summary_source_key (f);
  g_autofree char *frames_text = NULL;
  g_autofree char *janky_text = NULL;
  const char *frames_sub = "";
  const char *janky_sub = "";

  if (t->unattributed)
    {
      frames_sub = _("This recording does not say which source each interval’s frames came from");
      gtk_label_set_text (self->frames_label, "—");
      gtk_label_set_text (self->janky_label, "—");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->frames_row), frames_sub);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->janky_row), "");
      return;
    }
  if (g_strcmp0 (key, "surfaceflinger") == 0)
    {
      /* (the layer is under "Source of the frame rate") */
      frames_sub = _("Presented on screen (SurfaceFlinger)");
      janky_sub = _("Presented half a refresh period or more late");
    }
  else if (g_strcmp0 (key, "gfxinfo") == 0)
    {
      frames_sub = _("Rendered by HWUI (gfxinfo)");
      janky_sub = _("Android’s own count of janky frames");
    }
  else if (key != NULL)
    {
      frames_sub = _("Each interval from the source of its frame rate: SurfaceFlinger or gfxinfo");
      janky_sub = _("Each interval by its source’s rule");
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->frames_row), frames_sub);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->janky_row), janky_sub);

  frames_text = g_strdup_printf ("%" G_GINT64_FORMAT, t->frames);
  gtk_label_set_text (self->frames_label, frames_text);
  if (t->frames > 0)
    janky_text = g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f %%)", t->janky, 100.0 * t->janky / t->frames);
  else
    janky_text = g_strdup ("—");
  gtk_label_set_text (self->janky_label, janky_text);
}

static void
update_summary (AdbscopeFramesPage *self,
                AdbscopeDataView   *view)
{
  const AdbscopeFrameTotals *t = adbscope_data_view_get_frame_totals (view);
  guint n_times = 0;
  g_autoptr(GArray) sf = sf_sorted_times (view);

  update_totals (self, view);

  adbscope_data_view_get_frame_times (view, &n_times);
  if (sf != NULL && sf->len > 0)
    {
      const double *ms = (const double *) (gpointer) sf->data;
      g_autofree char *text =
        g_strdup_printf (_("%.1f / %.1f / %.1f ms"),
                         adbscope_percentile_nearest_rank (ms, sf->len, 50),
                         adbscope_percentile_nearest_rank (ms, sf->len, 90),
                         adbscope_percentile_nearest_rank (ms, sf->len, 99));
      gtk_label_set_text (self->percentiles_label, text);
    }
  else if (sf == NULL && n_times > 0)
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

  /* Jank causes are HWUI's, counted over the frames HWUI drew. */
  gtk_label_set_text (self->causes_placeholder,
                      t->gfx_frames == 0 && adbscope_frames_summary_source_key (adbscope_data_view_get_frames_summary (view))
                      ? _("HWUI drew no frames: Android counts jank causes for HWUI frames only")
                      : _("This Android version does not report jank causes"));
  for (guint c = 0; c < ADBSCOPE_JANK_N_CAUSES; c++)
    {
      g_autofree char *text = NULL;
      gboolean shown = t->has_cause[c] && t->gfx_frames > 0;

      gtk_widget_set_visible (self->cause_rows[c], shown);
      if (!shown)
        continue;
      /* Causes overlap and are counted by Android over all frames, so
       * they are a share of the frames, not of the janky ones. */
      text = g_strdup_printf ("%" G_GINT64_FORMAT " (%.1f %%)", t->causes[c], 100.0 * t->causes[c] / t->gfx_frames);
      gtk_label_set_text (self->cause_labels[c], text);
    }
}

/* Which source the frame rate comes from, and why it is 0, in words. */
static void
update_sources (AdbscopeFramesPage *self,
                AdbscopeDataView   *view)
{
  const AdbscopeFramesSummary *f = adbscope_data_view_get_frames_summary (view);
  g_autofree char *zero = adbscope_frames_zero_reason_describe (f->zero_reason, f->zero_detail);
  gboolean sf = f->samples[ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER] > 0;

  switch (f->source)
    {
    case ADBSCOPE_FRAMES_SOURCE_SURFACEFLINGER:
      gtk_label_set_text (self->source_label, _("SurfaceFlinger"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->source_row), f->layer != NULL ? f->layer : "");
      break;
    case ADBSCOPE_FRAMES_SOURCE_GFXINFO:
      gtk_label_set_text (self->source_label, _("gfxinfo (HWUI)"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->source_row),
                                   sf ? _("SurfaceFlinger gave some of the samples too") : "");
      break;
    case ADBSCOPE_FRAMES_SOURCE_NONE:
    default:
      gtk_label_set_text (self->source_label, "—");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->source_row), "");
      break;
    }

  gtk_widget_set_visible (self->zero_row, zero != NULL);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->zero_row), zero != NULL ? zero : "");
  gtk_label_set_text (self->zero_label, "");

  gtk_widget_set_visible (self->perfdog_row, sf);
  gtk_widget_set_visible (self->lost_row, sf);
  if (sf)
    {
      g_autofree char *perfdog = g_strdup_printf ("%" G_GINT64_FORMAT " / %" G_GINT64_FORMAT, f->jank, f->big_jank);
      g_autofree char *estimate = g_strdup_printf ("%" G_GINT64_FORMAT, f->lost_estimate);
      /* Translators: the estimated number of lost frames, then the number of reads */
      g_autofree char *lost = f->lost_intervals == 0 ? g_strdup (_("none"))
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "≈ %s frames in %u read", "≈ %s frames in %u reads",
                                        f->lost_intervals),
                           estimate, f->lost_intervals);

      gtk_label_set_text (self->perfdog_label, perfdog);
      gtk_label_set_text (self->lost_label, lost);
    }
}

/* An opened recording's frame times are still being read: the histogram
 * and the percentiles wait (the counts are in already). */
static void
update_pending (AdbscopeFramesPage *self,
                AdbscopeDataView   *view)
{
  gboolean pending = adbscope_data_view_get_details_pending (view);

  gtk_stack_set_visible_child_name (self->histogram_stack, pending ? "loading" : "chart");
  gtk_spinner_set_spinning (self->histogram_spinner, pending);
  gtk_spinner_set_spinning (self->percentiles_spinner, pending);
  gtk_widget_set_visible (GTK_WIDGET (self->percentiles_spinner), pending);
  gtk_widget_set_visible (GTK_WIDGET (self->percentiles_label), !pending);
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
  update_pending (self, view);
  update_histogram (self, view);
  update_summary (self, view);
  update_sources (self, view);
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
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, histogram_stack);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, histogram_spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, percentiles_spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, frames_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, frames_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, janky_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, janky_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, percentiles_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, causes_list);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, source_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, source_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, zero_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, zero_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, perfdog_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, perfdog_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, lost_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeFramesPage, lost_label);
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
  gtk_label_set_wrap (GTK_LABEL (placeholder), TRUE);
  gtk_label_set_justify (GTK_LABEL (placeholder), GTK_JUSTIFY_CENTER);
  self->causes_placeholder = GTK_LABEL (placeholder);
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
