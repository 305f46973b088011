/* adbscope-screenshot-dialog.c: one screenshot full size, with its time and cost
 *
 * Opened from a thumbnail of the strip.  The title says when it was taken
 * (seconds since the run started, as in the report) and what screencap
 * cost on the device; Left and Right go to the previous and next
 * screenshot of the run, Escape closes.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-screenshot-dialog.h"

struct _AdbscopeScreenshotDialog
{
  AdwWindow         parent_instance;

  AdbscopeDataView *view;
  guint             index;
  AdwWindowTitle   *title;
  GtkPicture       *picture;
  GtkButton        *prev_button;
  GtkButton        *next_button;
  AdwToastOverlay  *toasts;
};

G_DEFINE_FINAL_TYPE (AdbscopeScreenshotDialog, adbscope_screenshot_dialog, ADW_TYPE_WINDOW)

static void
show (AdbscopeScreenshotDialog *self)
{
  const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (self->view, self->index);
  guint n = adbscope_data_view_get_n_screenshots (self->view);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) png = adbscope_data_view_load_screenshot (self->view, self->index, &error);
  g_autoptr(GdkTexture) texture = png ? gdk_texture_new_from_bytes (png, &error) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  double t = adbscope_data_view_get_run_time_s (self->view, shot->time_us);

  /* Translators: title of a screenshot: its number, how many, and its time in the run */
  title = g_strdup_printf (_("Screenshot %u of %u at %.1f s"), self->index + 1, n, t);
  if (isfinite (shot->cost_ms) && isfinite (shot->cpu_ms))
    /* Translators: what taking the screenshot cost on the phone */
    subtitle = g_strdup_printf (_("screencap took %.0f ms on the device, %.0f ms of CPU"), shot->cost_ms, shot->cpu_ms);
  else if (isfinite (shot->cost_ms))
    subtitle = g_strdup_printf (_("screencap took %.0f ms on the device"), shot->cost_ms);
  else
    subtitle = g_strdup ("");
  if (shot->at_marker)
    {
      char *with = g_strdup_printf ("%s · %s", subtitle, _("at a marker"));

      g_free (subtitle);
      subtitle = with;
    }
  adw_window_title_set_title (self->title, title);
  adw_window_title_set_subtitle (self->title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_picture_set_paintable (self->picture, texture ? GDK_PAINTABLE (texture) : NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->picture), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->prev_button), self->index > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next_button), self->index + 1 < n);
  if (texture == NULL)
    adw_toast_overlay_add_toast (self->toasts, adw_toast_new (error->message));
}

gboolean
adbscope_screenshot_dialog_step (AdbscopeScreenshotDialog *self,
                                 int                       delta)
{
  gint64 to;

  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_DIALOG (self), FALSE);

  to = (gint64) self->index + delta;
  if (to < 0 || to >= adbscope_data_view_get_n_screenshots (self->view))
    return FALSE;
  self->index = (guint) to;
  show (self);
  return TRUE;
}

static gboolean
on_prev (GtkWidget *widget,
         GVariant  *args,
         gpointer   data)
{
  adbscope_screenshot_dialog_step (ADBSCOPE_SCREENSHOT_DIALOG (widget), -1);
  return TRUE;
}

static gboolean
on_next (GtkWidget *widget,
         GVariant  *args,
         gpointer   data)
{
  adbscope_screenshot_dialog_step (ADBSCOPE_SCREENSHOT_DIALOG (widget), +1);
  return TRUE;
}

static void
on_prev_clicked (AdbscopeScreenshotDialog *self)
{
  adbscope_screenshot_dialog_step (self, -1);
}

static void
on_next_clicked (AdbscopeScreenshotDialog *self)
{
  adbscope_screenshot_dialog_step (self, +1);
}

static void
adbscope_screenshot_dialog_dispose (GObject *object)
{
  AdbscopeScreenshotDialog *self = ADBSCOPE_SCREENSHOT_DIALOG (object);

  g_clear_object (&self->view);
  G_OBJECT_CLASS (adbscope_screenshot_dialog_parent_class)->dispose (object);
}

static void
adbscope_screenshot_dialog_class_init (AdbscopeScreenshotDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_screenshot_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
adbscope_screenshot_dialog_init (AdbscopeScreenshotDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();

  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  self->prev_button = GTK_BUTTON (gtk_button_new_from_icon_name ("go-previous-symbolic"));
  self->next_button = GTK_BUTTON (gtk_button_new_from_icon_name ("go-next-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->prev_button), _("Previous screenshot"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->next_button), _("Next screenshot"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->prev_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Previous screenshot"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->next_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Next screenshot"), -1);
  g_signal_connect_swapped (self->prev_button, "clicked", G_CALLBACK (on_prev_clicked), self);
  g_signal_connect_swapped (self->next_button, "clicked", G_CALLBACK (on_next_clicked), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->prev_button));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->next_button));
  gtk_box_append (GTK_BOX (box), header);

  self->picture = GTK_PICTURE (gtk_picture_new ());
  gtk_picture_set_can_shrink (self->picture, TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->picture), TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->picture), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->picture), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->picture), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->picture), 12);
  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, GTK_WIDGET (self->picture));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));
  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_window_set_default_size (GTK_WINDOW (self), 480, 860);
  /* Left and Right step through the run.  GtkWindow binds the arrows to
   * moving the focus, so these go first, in the capture phase. */
  {
    GtkEventController *keys = gtk_shortcut_controller_new ();

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Left, 0),
                                                            gtk_callback_action_new (on_prev, NULL, NULL)));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Right, 0),
                                                            gtk_callback_action_new (on_next, NULL, NULL)));
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
}

GtkWidget *
adbscope_screenshot_dialog_new (AdbscopeDataView *view,
                                guint             index_)
{
  AdbscopeScreenshotDialog *self;

  g_return_val_if_fail (ADBSCOPE_IS_DATA_VIEW (view), NULL);
  g_return_val_if_fail (index_ < adbscope_data_view_get_n_screenshots (view), NULL);

  self = g_object_new (ADBSCOPE_TYPE_SCREENSHOT_DIALOG, NULL);
  self->view = g_object_ref (view);
  self->index = index_;
  show (self);
  return GTK_WIDGET (self);
}

guint
adbscope_screenshot_dialog_get_index (AdbscopeScreenshotDialog *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_DIALOG (self), 0);
  return self->index;
}

GdkPaintable *
adbscope_screenshot_dialog_get_paintable (AdbscopeScreenshotDialog *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_DIALOG (self), NULL);
  return gtk_picture_get_paintable (self->picture);
}
