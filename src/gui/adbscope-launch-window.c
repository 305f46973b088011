/* adbscope-launch-window.c: "Measure Start-up…"
 *
 * The same measurement as `adbscope launch` (AdbscopeLaunch in core): the
 * mode and the number of runs, then a small table of every run and
 * p50/p90/min/max.  Closing the window cancels a measurement under way.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-core.h"
#include "adbscope-launch-window.h"

struct _AdbscopeLaunchWindow
{
  AdwWindow      parent_instance;

  AdwComboRow   *mode_row;
  GtkSpinButton *runs_spin;
  GtkButton     *start_button;
  GtkSpinner    *spinner;
  GtkLabel      *status_label;
  GtkGrid       *results_grid;
  GtkWidget     *results_box;

  char          *serial;
  char          *package;
  GCancellable  *cancellable;
};

G_DEFINE_FINAL_TYPE (AdbscopeLaunchWindow, adbscope_launch_window, ADW_TYPE_WINDOW)

static void
set_busy (AdbscopeLaunchWindow *self,
          gboolean              busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->start_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mode_row), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->runs_spin), !busy);
}

static void
put (GtkGrid    *grid,
     int         column,
     int         row,
     const char *text,
     gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, heading ? "heading" : "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static char *
ms_text (double v)
{
  /* Translators: a start-up time in milliseconds */
  return isfinite (v) && v >= 0 ? g_strdup_printf (_("%.0f ms"), v) : g_strdup ("—");
}

static void
show_results (AdbscopeLaunchWindow       *self,
              const AdbscopeLaunchResult *result)
{
  static const char * const columns[] = { "total", "wait", "displayed" };
  static const char * const stat_names[] = { N_("p50"), N_("p90"), N_("min"), N_("max") };
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->results_grid))) != NULL)
    gtk_grid_remove (self->results_grid, child);

  put (self->results_grid, 0, row, _("Run"), TRUE);
  put (self->results_grid, 1, row, _("Total"), TRUE);
  put (self->results_grid, 2, row, _("Wait"), TRUE);
  put (self->results_grid, 3, row, _("Displayed"), TRUE);
  row++;
  for (guint i = 0; i < result->runs->len; i++, row++)
    {
      const AdbscopeLaunchRun *r = &g_array_index (result->runs, AdbscopeLaunchRun, i);
      g_autofree char *n = g_strdup_printf ("%u", i + 1);
      g_autofree char *t = ms_text ((double) r->total_ms);
      g_autofree char *w = ms_text ((double) r->wait_ms);
      g_autofree char *d = ms_text ((double) r->displayed_ms);

      put (self->results_grid, 0, row, n, FALSE);
      put (self->results_grid, 1, row, t, FALSE);
      put (self->results_grid, 2, row, w, FALSE);
      put (self->results_grid, 3, row, d, FALSE);
    }
  for (guint s = 0; s < G_N_ELEMENTS (stat_names); s++, row++)
    {
      put (self->results_grid, 0, row, _(stat_names[s]), TRUE);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          double v[4];
          g_autofree char *text = NULL;

          adbscope_launch_result_stats (result, columns[c], &v[0], &v[1], &v[2], &v[3]);
          text = ms_text (v[s]);
          put (self->results_grid, (int) c + 1, row, text, FALSE);
        }
    }
  gtk_widget_set_visible (self->results_box, TRUE);
}

static void
measured_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(AdbscopeLaunchWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeLaunchResult) result = adbscope_launch_measure_finish (res, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (result == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
      return;
    }
  {
    g_autofree char *text = g_strdup_printf (_("%s, %s start"), result->component,
                                             adbscope_launch_mode_to_string (result->mode));

    gtk_label_set_text (self->status_label, text);
  }
  show_results (self, result);
}

static void
on_start_clicked (AdbscopeLaunchWindow *self)
{
  AdbscopeLaunchMode mode = (AdbscopeLaunchMode) adw_combo_row_get_selected (self->mode_row);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  gtk_widget_set_visible (self->results_box, FALSE);
  gtk_label_set_text (self->status_label, _("Starting the app…"));
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  adbscope_launch_measure_async (self->serial, self->package, MIN (mode, ADBSCOPE_LAUNCH_HOT),
                                 (guint) gtk_spin_button_get_value_as_int (self->runs_spin),
                                 self->cancellable, measured_cb, g_object_ref (self));
}

static void
adbscope_launch_window_dispose (GObject *object)
{
  AdbscopeLaunchWindow *self = ADBSCOPE_LAUNCH_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (adbscope_launch_window_parent_class)->dispose (object);
}

static void
adbscope_launch_window_finalize (GObject *object)
{
  AdbscopeLaunchWindow *self = ADBSCOPE_LAUNCH_WINDOW (object);

  g_free (self->serial);
  g_free (self->package);
  G_OBJECT_CLASS (adbscope_launch_window_parent_class)->finalize (object);
}

static void
adbscope_launch_window_class_init (AdbscopeLaunchWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_launch_window_dispose;
  object_class->finalize = adbscope_launch_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/adbscope/Adbscope/adbscope-launch-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, mode_row);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, runs_spin);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, results_grid);
  gtk_widget_class_bind_template_child (widget_class, AdbscopeLaunchWindow, results_box);
  gtk_widget_class_bind_template_callback (widget_class, on_start_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
adbscope_launch_window_init (AdbscopeLaunchWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

AdbscopeLaunchWindow *
adbscope_launch_window_new (GtkWindow  *parent,
                            const char *serial,
                            const char *package)
{
  AdbscopeLaunchWindow *self = g_object_new (ADBSCOPE_TYPE_LAUNCH_WINDOW, "transient-for", parent,
                                             "application", parent ? gtk_window_get_application (parent) : NULL,
                                             NULL);
  g_autofree char *subtitle = g_strdup_printf (_("Measure Start-up of %s"), package);

  self->serial = g_strdup (serial);
  self->package = g_strdup (package);
  gtk_window_set_title (GTK_WINDOW (self), subtitle);
  return self;
}
