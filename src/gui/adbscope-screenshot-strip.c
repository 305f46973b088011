/* adbscope-screenshot-strip.c: screenshot thumbnails along the charts' time window
 *
 * One button per screenshot in the view's window, placed at its time on
 * the same left-to-right scale as the charts (the window's start at the
 * left edge, its end at the right).  Where thumbnails would overlap, the
 * later one is left out until zooming in makes room.  Thumbnails are
 * decoded (and, once only the recording has the PNG, read from the file)
 * in a worker thread and kept; a click opens the picture full size.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "adbscope-run.h"
#include "adbscope-screenshot-dialog.h"
#include "adbscope-screenshot-strip.h"

#define THUMB_HEIGHT 96
#define THUMB_GAP    4
#define PAD          6

struct _AdbscopeScreenshotStrip
{
  GtkWidget         parent_instance;

  AdbscopeDataView *view;
  gint64            t0, t1;       /* the window shown */
  GPtrArray        *buttons;      /* GtkButton*, in time order */
  GHashTable       *thumbs;       /* index → GdkTexture (or loading: NULL value) */
  GCancellable     *cancellable;
  guint             n_shots;      /* screenshots of the view seen */
};

G_DEFINE_FINAL_TYPE (AdbscopeScreenshotStrip, adbscope_screenshot_strip, GTK_TYPE_WIDGET)

typedef struct
{
  GBytes *png;                    /* or, from the file: */
  char   *recording;
  gint64  t_us;
  int     height;
} ThumbJob;

static void
thumb_job_free (ThumbJob *job)
{
  g_clear_pointer (&job->png, g_bytes_unref);
  g_free (job->recording);
  g_free (job);
}

static void
thumb_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  ThumbJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) png = job->png ? g_bytes_ref (job->png)
                                   : adbscope_run_read_screenshot (job->recording, job->t_us, &error);
  g_autoptr(GInputStream) stream = NULL;
  GdkPixbuf *pixbuf;

  if (png == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  stream = g_memory_input_stream_new_from_bytes (png);
  pixbuf = gdk_pixbuf_new_from_stream_at_scale (stream, -1, job->height, TRUE, cancellable, &error);
  if (pixbuf == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, pixbuf, g_object_unref);
}

static GtkWidget *
find_button (AdbscopeScreenshotStrip *self,
             guint                    index_)
{
  for (guint i = 0; i < self->buttons->len; i++)
    if (adbscope_screenshot_strip_thumbnail_index (g_ptr_array_index (self->buttons, i)) == index_)
      return g_ptr_array_index (self->buttons, i);
  return NULL;
}

static void
set_thumb (GtkWidget  *button,
           GdkTexture *texture)
{
  gtk_picture_set_paintable (GTK_PICTURE (gtk_button_get_child (GTK_BUTTON (button))), GDK_PAINTABLE (texture));
}

static void
thumb_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  AdbscopeScreenshotStrip *self = ADBSCOPE_SCREENSHOT_STRIP (object);
  guint index_ = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = g_task_propagate_pointer (G_TASK (result), &error);
  GdkTexture *texture;
  GtkWidget *button;

  if (pixbuf == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("screenshot %u: %s", index_, error->message);
      return;
    }
  texture = gdk_texture_new_for_pixbuf (pixbuf);
  g_hash_table_replace (self->thumbs, GUINT_TO_POINTER (index_), texture);
  if ((button = find_button (self, index_)) != NULL)
    set_thumb (button, texture);
}

static void
load_thumb (AdbscopeScreenshotStrip *self,
            guint                    index_)
{
  const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (self->view, index_);
  g_autoptr(GTask) task = NULL;
  ThumbJob *job;

  if (g_hash_table_contains (self->thumbs, GUINT_TO_POINTER (index_)))
    return;
  if (shot->png == NULL && adbscope_data_view_get_recording (self->view) == NULL)
    return;
  g_hash_table_insert (self->thumbs, GUINT_TO_POINTER (index_), NULL);
  job = g_new0 (ThumbJob, 1);
  job->png = shot->png ? g_bytes_ref (shot->png) : NULL;
  job->recording = g_strdup (adbscope_data_view_get_recording (self->view));
  job->t_us = (gint64) llround (adbscope_data_view_get_run_time_s (self->view, shot->time_us) * 1e6);
  job->height = THUMB_HEIGHT * gtk_widget_get_scale_factor (GTK_WIDGET (self));
  task = g_task_new (self, self->cancellable, thumb_done, GUINT_TO_POINTER (index_));
  g_task_set_task_data (task, job, (GDestroyNotify) thumb_job_free);
  g_task_run_in_thread (task, thumb_thread);
}

static void
on_thumbnail_clicked (GtkButton               *button,
                      AdbscopeScreenshotStrip *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;

  if (self->view == NULL)
    return;
  dialog = adbscope_screenshot_dialog_new (self->view, adbscope_screenshot_strip_thumbnail_index (GTK_WIDGET (button)));
  if (GTK_IS_WINDOW (root))
    {
      gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
      gtk_window_set_application (GTK_WINDOW (dialog), gtk_window_get_application (GTK_WINDOW (root)));
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static char *
describe (AdbscopeDataView         *view,
          const AdbscopeScreenshot *shot)
{
  double t = adbscope_data_view_get_run_time_s (view, shot->time_us);

  if (isfinite (shot->cost_ms))
    /* Translators: a screenshot's tooltip: its time in the run and what screencap cost */
    return g_strdup_printf (_("Screenshot at %.1f s (screencap %.0f ms on the device)"), t, shot->cost_ms);
  return g_strdup_printf (_("Screenshot at %.1f s"), t);
}

static GtkWidget *
new_button (AdbscopeScreenshotStrip  *self,
            guint                     index_,
            const AdbscopeScreenshot *shot)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *picture = gtk_picture_new ();
  g_autofree char *text = describe (self->view, shot);
  GdkTexture *texture = g_hash_table_lookup (self->thumbs, GUINT_TO_POINTER (index_));

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_button_set_child (GTK_BUTTON (button), picture);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "screenshot-thumbnail");
  gtk_widget_set_tooltip_text (button, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  g_object_set_data (G_OBJECT (button), "adbscope-screenshot-index", GUINT_TO_POINTER (index_ + 1));
  g_signal_connect (button, "clicked", G_CALLBACK (on_thumbnail_clicked), self);
  if (texture != NULL)
    set_thumb (button, texture);
  gtk_widget_set_parent (button, GTK_WIDGET (self));
  return button;
}

static void
clear_buttons (AdbscopeScreenshotStrip *self)
{
  for (guint i = 0; i < self->buttons->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->buttons, i));
  g_ptr_array_set_size (self->buttons, 0);
}

static int
thumb_width (const AdbscopeScreenshot *shot)
{
  /* 9:20 until the size is known */
  double aspect = shot->width > 0 && shot->height > 0 ? (double) shot->width / shot->height : 0.45;

  return MAX (8, (int) ceil ((THUMB_HEIGHT - 4) * aspect) + 4);
}

static double
x_of (AdbscopeScreenshotStrip *self,
      gint64                   t,
      int                      width)
{
  return self->t1 > self->t0 ? (double) (t - self->t0) / (double) (self->t1 - self->t0) * width : 0;
}

static void
adbscope_screenshot_strip_size_allocate (GtkWidget *widget,
                                         int        width,
                                         int        height,
                                         int        baseline)
{
  AdbscopeScreenshotStrip *self = ADBSCOPE_SCREENSHOT_STRIP (widget);
  double right = -G_MAXDOUBLE;

  for (guint i = 0; i < self->buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (self->buttons, i);
      const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (
        self->view, adbscope_screenshot_strip_thumbnail_index (button));
      int min_w, nat_w, w = thumb_width (shot);
      double x;

      gtk_widget_measure (button, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
      w = MAX (w, min_w);
      x = CLAMP (x_of (self, shot->time_us, width) - w / 2.0, 0, MAX (width - w, 0));
      /* One that would cover the previous one waits for a closer zoom. */
      gtk_widget_set_child_visible (button, x >= right);
      if (x < right)
        continue;
      right = x + w + THUMB_GAP;
      gtk_widget_size_allocate (button, &(GtkAllocation) { (int) x, PAD / 2, w, height - PAD }, -1);
    }
}

static void
adbscope_screenshot_strip_measure (GtkWidget      *widget,
                                   GtkOrientation  orientation,
                                   int             for_size,
                                   int            *minimum,
                                   int            *natural,
                                   int            *minimum_baseline,
                                   int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = THUMB_HEIGHT + 2 * PAD;
  else
    *minimum = *natural = 0;
}

static void
adbscope_screenshot_strip_dispose (GObject *object)
{
  AdbscopeScreenshotStrip *self = ADBSCOPE_SCREENSHOT_STRIP (object);

  g_cancellable_cancel (self->cancellable);
  clear_buttons (self);
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
  G_OBJECT_CLASS (adbscope_screenshot_strip_parent_class)->dispose (object);
}

static void
adbscope_screenshot_strip_finalize (GObject *object)
{
  AdbscopeScreenshotStrip *self = ADBSCOPE_SCREENSHOT_STRIP (object);

  g_ptr_array_unref (self->buttons);
  g_hash_table_unref (self->thumbs);
  g_object_unref (self->cancellable);
  G_OBJECT_CLASS (adbscope_screenshot_strip_parent_class)->finalize (object);
}

static void
adbscope_screenshot_strip_class_init (AdbscopeScreenshotStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = adbscope_screenshot_strip_dispose;
  object_class->finalize = adbscope_screenshot_strip_finalize;
  widget_class->measure = adbscope_screenshot_strip_measure;
  widget_class->size_allocate = adbscope_screenshot_strip_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "screenshot-strip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

/* A value is NULL while its thumbnail loads. */
static void
unref_texture (gpointer texture)
{
  if (texture != NULL)
    g_object_unref (texture);
}

static void
adbscope_screenshot_strip_init (AdbscopeScreenshotStrip *self)
{
  self->buttons = g_ptr_array_new ();
  self->thumbs = g_hash_table_new_full (NULL, NULL, NULL, unref_texture);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Screenshots"), -1);
}

GtkWidget *
adbscope_screenshot_strip_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_SCREENSHOT_STRIP, NULL);
}

/* The right edge of the charts: the view's end, or the newest sample. */
static gint64
window_end (AdbscopeDataView *view)
{
  AdbscopeSeries *series = adbscope_data_view_get_series (view, ADBSCOPE_SERIES_CPU_SYSTEM);
  guint n = series ? adbscope_series_get_length (series) : 0;

  if (adbscope_data_view_get_end_time (view) != 0)
    return adbscope_data_view_get_end_time (view);
  return n > 0 ? adbscope_series_get (series, n - 1)->time_us : g_get_monotonic_time ();
}

/* Zooming and scrolling move the window without new data. */
static void
on_window_changed (AdbscopeDataView        *view,
                   GParamSpec              *pspec,
                   AdbscopeScreenshotStrip *self)
{
  adbscope_screenshot_strip_update (self, view);
}

void
adbscope_screenshot_strip_update (AdbscopeScreenshotStrip *self,
                                  AdbscopeDataView        *view)
{
  guint n;
  gint64 t0, t1;

  g_return_if_fail (ADBSCOPE_IS_SCREENSHOT_STRIP (self));

  if (view != self->view)
    {
      /* Another session: its own screenshots. */
      g_cancellable_cancel (self->cancellable);
      g_object_unref (self->cancellable);
      self->cancellable = g_cancellable_new ();
      g_hash_table_remove_all (self->thumbs);
      clear_buttons (self);
      if (self->view != NULL)
        g_signal_handlers_disconnect_by_data (self->view, self);
      g_set_object (&self->view, view);
      if (view != NULL)
        {
          g_signal_connect (view, "notify::visible-seconds", G_CALLBACK (on_window_changed), self);
          g_signal_connect (view, "notify::end-time", G_CALLBACK (on_window_changed), self);
        }
      self->n_shots = 0;
      self->t0 = self->t1 = 0;
    }
  n = view ? adbscope_data_view_get_n_screenshots (view) : 0;
  gtk_widget_set_visible (GTK_WIDGET (self), view != NULL && (n > 0 || adbscope_data_view_get_screenshots_enabled (view)));
  if (view == NULL)
    return;

  t1 = window_end (view);
  t0 = t1 - (gint64) (adbscope_data_view_get_visible_seconds (view) * G_USEC_PER_SEC);
  if (t0 == self->t0 && t1 == self->t1 && n == self->n_shots)
    return;
  self->t0 = t0;
  self->t1 = t1;
  self->n_shots = n;

  /* The buttons still in the window stay (and keep the focus). */
  {
    g_autoptr(GPtrArray) kept = g_ptr_array_new ();

    for (guint i = 0; i < self->buttons->len; i++)
      {
        GtkWidget *button = g_ptr_array_index (self->buttons, i);
        const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (
          view, adbscope_screenshot_strip_thumbnail_index (button));

        if (shot->time_us < t0 || shot->time_us > t1)
          gtk_widget_unparent (button);
        else
          g_ptr_array_add (kept, button);
      }
    g_ptr_array_set_size (self->buttons, 0);
    for (guint i = 0, k = 0; i < n; i++)
      {
        const AdbscopeScreenshot *shot = adbscope_data_view_get_screenshot (view, i);
        GtkWidget *button = k < kept->len ? g_ptr_array_index (kept, k) : NULL;

        if (button != NULL && adbscope_screenshot_strip_thumbnail_index (button) == i)
          {
            g_ptr_array_add (self->buttons, button);
            k++;
            continue;
          }
        if (shot->time_us < t0 || shot->time_us > t1)
          continue;
        button = new_button (self, i, shot);
        /* in time order among the children too (tab order) */
        if (k < kept->len)
          gtk_widget_insert_before (button, GTK_WIDGET (self), g_ptr_array_index (kept, k));
        g_ptr_array_add (self->buttons, button);
        load_thumb (self, i);
      }
  }
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/**
 * adbscope_screenshot_strip_list_thumbnails:
 *
 * Returns: (transfer container) (element-type GtkButton): the thumbnails
 *   shown now, left to right
 */
GPtrArray *
adbscope_screenshot_strip_list_thumbnails (AdbscopeScreenshotStrip *self)
{
  GPtrArray *shown = g_ptr_array_new ();

  g_return_val_if_fail (ADBSCOPE_IS_SCREENSHOT_STRIP (self), shown);
  for (guint i = 0; i < self->buttons->len; i++)
    if (gtk_widget_get_child_visible (g_ptr_array_index (self->buttons, i)))
      g_ptr_array_add (shown, g_ptr_array_index (self->buttons, i));
  return shown;
}

guint
adbscope_screenshot_strip_thumbnail_index (GtkWidget *thumbnail)
{
  guint stored = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (thumbnail), "adbscope-screenshot-index"));

  g_return_val_if_fail (stored > 0, 0);
  return stored - 1;
}
