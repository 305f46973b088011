/* adbscope-window-capture.c: getting the agent onto the phone, the capture, and its exports
 *
 * "Start capture" asks the phone what it has: a missing or older agent is
 * explained and installed (with the APK inside this build, or one the user
 * chooses when the build has none), then the user is told to accept the VPN
 * request on the phone while a spinner waits with a Cancel button.  Every
 * way it can end has a message with the next step.  The packets stream into
 * a file in the cache folder, which "Export pcap…" copies from, whole or cut
 * to the visible time window or to the selected connection.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "adbscope-agent-install.h"
#include "adbscope-error.h"
#include "adbscope-network-export.h"
#include "adbscope-network-page.h"
#include "adbscope-window-private.h"

#define CONSENT_TIMEOUT_MS (120 * 1000)
#define CAPTURE_MAX_AGE_S  (7 * 24 * 3600)

static void start_agent (AdbscopeWindow *self);

static void
close_capture_dialog (AdbscopeWindow *self)
{
  if (self->capture_dialog != NULL)
    {
      GtkWindow *dialog = GTK_WINDOW (self->capture_dialog);

      g_clear_weak_pointer (&self->capture_dialog);
      gtk_window_destroy (dialog);
    }
}

static AdwMessageDialog *
capture_dialog (AdbscopeWindow *self,
                const char     *heading,
                const char     *body)
{
  AdwMessageDialog *dialog;

  close_capture_dialog (self);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, body));
  g_set_weak_pointer (&self->capture_dialog, dialog);
  return dialog;
}

/* The end of a flow that did not work: what happened and what to do. */
static void
capture_failed (AdbscopeWindow *self,
                const GError   *error)
{
  AdwMessageDialog *dialog;
  const char *next = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      close_capture_dialog (self);
      return;
    }
  if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_VPN_CONSENT_DENIED))
    next = _("The VPN request was refused on the phone. Start the capture again and tap OK when the phone asks.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_TIMEOUT))
    next = _("The phone did not answer in time. Unlock it, then start the capture again.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_OUTDATED))
    next = _("Install the agent again: from the command line, “adbscope agent install --replace”.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_IMPOSTOR))
    next = _("Another app on the phone answers in the agent’s place. Look for an app you do not know, remove it, "
             "and start the capture again.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_SIGNATURE)
           || g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_AGENT_DOWNGRADE))
    next = _("From the command line, “adbscope agent install --replace” removes the agent first; the phone then "
             "asks for the VPN consent again.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_DEVICE_TOO_OLD))
    next = _("The agent needs Android 8.0 or newer.");
  else if (g_error_matches (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_INSTALL_REJECTED))
    next = _("Watch the phone’s screen and allow the install when it asks.");
  dialog = capture_dialog (self, _("The Capture Did Not Start"), error->message);
  if (next != NULL)
    adw_message_dialog_format_body (dialog, "%s\n\n%s", error->message, next);
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
capture_started_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(AdbscopeWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_capture_start_finish (ADBSCOPE_CAPTURE (object), result, &error))
    {
      capture_failed (self, error);
      _adbscope_window_update_actions (self);
      return;
    }
  close_capture_dialog (self);
  _adbscope_window_toast (self, _("Capture started"));
  _adbscope_window_update_actions (self);
}

static void
on_waiting_response (AdwMessageDialog *dialog,
                     const char       *response,
                     AdbscopeWindow   *self)
{
  g_cancellable_cancel (self->capture_cancellable);
}

/* The folder the live capture files go to; files older than a week are
 * removed when a new capture starts. */
static char *
capture_file_for (AdbscopeWindow *self)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "adbscope", "captures", NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("%s-%s.pcap", self->package, stamp);
  GDir *d;

  g_mkdir_with_parents (dir, 0700);
  d = g_dir_open (dir, 0, NULL);
  if (d != NULL)
    {
      const char *entry;
      gint64 now_s = g_get_real_time () / G_USEC_PER_SEC;

      while ((entry = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, entry, NULL);
          GStatBuf st;

          if (g_str_has_suffix (entry, ".pcap") && g_stat (path, &st) == 0
              && now_s - st.st_mtime > CAPTURE_MAX_AGE_S)
            g_unlink (path);
        }
      g_dir_close (d);
    }
  return g_build_filename (dir, name, NULL);
}

static void
start_agent (AdbscopeWindow *self)
{
  AdwMessageDialog *dialog;
  GtkWidget *spinner;
  g_autoptr(GError) error = NULL;
  g_autofree char *pcap = NULL;

  if (self->session == NULL)
    return;
  if (self->capture != NULL)
    {
      adbscope_network_page_set_capture (ADBSCOPE_NETWORK_PAGE (self->network_page), NULL);
      g_clear_object (&self->capture);
    }
  self->capture = adbscope_capture_new (self->serial, self->package, adbscope_session_get_network (self->session));
  g_signal_connect_swapped (self->capture, "notify::state", G_CALLBACK (_adbscope_window_update_actions), self);
  pcap = capture_file_for (self);
  if (!adbscope_capture_set_pcap_file (self->capture, pcap, &error))
    {
      capture_failed (self, error);
      return;
    }
  adbscope_network_page_set_capture (ADBSCOPE_NETWORK_PAGE (self->network_page), self->capture);

  dialog = capture_dialog (self, _("Accept the VPN Request on the Phone"),
                           _("The phone asks whether the Adbscope agent may set up a VPN. Tap OK there. "
                             "The VPN has no server: it only sees the app you watch, and nothing leaves the phone. "
                             "Only one VPN can run at a time: if the phone uses another VPN, it goes down while "
                             "Adbscope captures."));
  spinner = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_size_request (spinner, 32, 32);
  adw_message_dialog_set_extra_child (dialog, spinner);
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
  g_signal_connect (dialog, "response", G_CALLBACK (on_waiting_response), self);
  gtk_window_present (GTK_WINDOW (dialog));

  g_clear_object (&self->capture_cancellable);
  self->capture_cancellable = g_cancellable_new ();
  adbscope_capture_start_async (self->capture, CONSENT_TIMEOUT_MS, self->capture_cancellable,
                                capture_started_cb, g_object_ref (self));
  _adbscope_window_update_actions (self);
}

/* Installing ------------------------------------------------------------------ */

typedef struct
{
  AdbscopeWindow *self;
  guint           pulse_id;
} Installing;

static gboolean
pulse_cb (gpointer data)
{
  GtkProgressBar *bar = data;

  gtk_progress_bar_pulse (bar);
  return G_SOURCE_CONTINUE;
}

static void
installed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Installing *inst = user_data;
  g_autoptr(AdbscopeWindow) self = inst->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = adbscope_agent_install_finish (result, &error);

  g_source_remove (inst->pulse_id);
  g_free (inst);
  if (st == NULL)
    {
      capture_failed (self, error);
      return;
    }
  start_agent (self);
}

static void
install (AdbscopeWindow *self,
         const char     *apk,
         gboolean        replace)
{
  AdwMessageDialog *dialog;
  GtkWidget *bar = gtk_progress_bar_new ();
  Installing *inst = g_new0 (Installing, 1);

  dialog = capture_dialog (self, _("Installing the Agent"),
                           _("Copying the agent to the phone and installing it…"));
  gtk_progress_bar_set_pulse_step (GTK_PROGRESS_BAR (bar), 0.1);
  adw_message_dialog_set_extra_child (dialog, bar);
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
  g_signal_connect (dialog, "response", G_CALLBACK (on_waiting_response), self);
  gtk_window_present (GTK_WINDOW (dialog));

  inst->self = g_object_ref (self);
  inst->pulse_id = g_timeout_add_full (G_PRIORITY_DEFAULT, 100, pulse_cb, g_object_ref (bar), g_object_unref);
  g_clear_object (&self->capture_cancellable);
  self->capture_cancellable = g_cancellable_new ();
  adbscope_agent_install_async (self->serial, apk, replace, self->capture_cancellable, installed_cb, inst);
}

static void
apk_chosen (GtkNativeDialog *chooser,
            int              response,
            AdbscopeWindow  *self)
{
  gboolean replace = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "replace"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        install (self, path, replace);
      else
        _adbscope_window_toast (self, _("Choose a local file"));
    }
  g_object_unref (chooser);
}

static void
on_install_response (AdwMessageDialog *dialog,
                     const char       *response,
                     AdbscopeWindow   *self)
{
  gboolean replace = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "replace"));

  if (g_str_equal (response, "install"))
    install (self, NULL, replace);
  else if (g_str_equal (response, "choose"))
    {
      GtkFileChooserNative *chooser =
        gtk_file_chooser_native_new (_("Choose the Agent APK"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                     _("_Install"), _("_Cancel"));
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_add_suffix (filter, "apk");
      gtk_file_filter_set_name (filter, _("Android packages (APK)"));
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
      g_object_set_data (G_OBJECT (chooser), "replace", GINT_TO_POINTER (replace));
      g_signal_connect (chooser, "response", G_CALLBACK (apk_chosen), self);
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
    }
}

/* @older: an agent is there but older than ours (also the screenshot tour's way in). */
void
_adbscope_window_offer_install (AdbscopeWindow *self,
                                gboolean        older)
{
  gboolean embedded = adbscope_agent_has_embedded_apk ();
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  body = g_strdup_printf ("%s\n\n%s",
                          older ? _("The Adbscope agent on this phone is older than this Adbscope and must be "
                                    "replaced.")
                                : _("To see the app’s connections, Adbscope puts a small agent on the phone."),
                          _("The agent is a VPN with no server: nothing leaves the phone, it only sees the app "
                            "you watch, and it stops by itself 30 seconds after Adbscope disconnects. "
                            "Only one VPN can run at a time: while it captures, any other VPN on the phone is "
                            "off. You can remove it like any app."));
  if (!embedded)
    {
      g_autofree char *more = g_strdup_printf ("%s\n\n%s", body,
                                               _("This build of Adbscope has no agent inside it: choose the "
                                                 "agent’s APK file (adbscope-agent.apk)."));

      g_free (body);
      body = g_steal_pointer (&more);
    }
  dialog = capture_dialog (self, older ? _("Update the Agent?") : _("Install the Agent?"), body);
  g_object_set_data (G_OBJECT (dialog), "replace", GINT_TO_POINTER (older));
  adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
  if (embedded)
    {
      adw_message_dialog_add_response (dialog, "install", older ? _("_Update") : _("_Install"));
      adw_message_dialog_set_response_appearance (dialog, "install", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "install");
    }
  else
    {
      adw_message_dialog_add_response (dialog, "choose", _("_Choose APK…"));
      adw_message_dialog_set_response_appearance (dialog, "choose", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "choose");
    }
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_install_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
status_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AdbscopeWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeAgentStatus) st = adbscope_agent_status_finish (result, &error);

  self->capture_checking = FALSE;
  _adbscope_window_update_actions (self);
  if (st == NULL)
    {
      capture_failed (self, error);
      return;
    }
  if (!st->installed || st->version_code < adbscope_agent_our_version_code ())
    _adbscope_window_offer_install (self, st->installed);
  else
    start_agent (self);
}

void
_adbscope_window_start_capture (AdbscopeWindow *self)
{
  if (self->session == NULL || self->capture_checking
      || (self->capture != NULL && (adbscope_capture_get_state (self->capture) == ADBSCOPE_CAPTURE_RUNNING
                                    || adbscope_capture_get_state (self->capture) == ADBSCOPE_CAPTURE_STARTING)))
    return;
  self->capture_checking = TRUE;
  _adbscope_window_update_actions (self);
  adbscope_agent_status_async (self->serial, NULL, status_cb, g_object_ref (self));
}

static void
capture_stopped_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(AdbscopeWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!adbscope_capture_stop_finish (ADBSCOPE_CAPTURE (object), result, &error))
    g_debug ("window: stopping the agent: %s", error->message);
  _adbscope_window_update_actions (self);
}

void
_adbscope_window_stop_capture (AdbscopeWindow *self)
{
  g_cancellable_cancel (self->capture_cancellable);
  if (self->capture == NULL)
    return;
  adbscope_capture_stop_async (self->capture, capture_stopped_cb, g_object_ref (self));
}

gboolean
_adbscope_window_is_capturing (AdbscopeWindow *self)
{
  AdbscopeCaptureState state = self->capture ? adbscope_capture_get_state (self->capture) : ADBSCOPE_CAPTURE_IDLE;

  return state == ADBSCOPE_CAPTURE_RUNNING || state == ADBSCOPE_CAPTURE_STARTING;
}

AdbscopeCapture *
_adbscope_window_get_capture (AdbscopeWindow *self)
{
  return self->capture;
}

AdwMessageDialog *
_adbscope_window_get_capture_dialog (AdbscopeWindow *self)
{
  return self->capture_dialog;
}

/* Exports ------------------------------------------------------------------- */

/* The selection for @scope ("all", "window", "connection") on the pcap's
 * own clock; FALSE with @error when it cannot be made. */
static gboolean
pcap_selection (AdbscopeWindow        *self,
                const char            *scope,
                AdbscopePcapSelection *sel,
                GError               **error)
{
  AdbscopeNetwork *network = adbscope_data_view_get_network (self->view);

  sel->from_us = 0;
  sel->to_us = G_MAXINT64;
  sel->connection = NULL;
  if (g_strcmp0 (scope, "window") == 0)
    {
      /* The charts' window, ending at the agent's last snapshot (the
       * pcap's timestamps are the agent's wall clock). */
      gint64 span_us = (gint64) (adbscope_data_view_get_visible_seconds (self->view) * G_USEC_PER_SEC);

      sel->to_us = adbscope_network_get_time_ms (network) * 1000;
      sel->from_us = sel->to_us - span_us;
    }
  else if (g_strcmp0 (scope, "connection") == 0)
    {
      sel->connection = adbscope_network_page_get_selected_connection (ADBSCOPE_NETWORK_PAGE (self->network_page));
      if (sel->connection == NULL)
        {
          g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                               _("Select a connection on the Network page first"));
          return FALSE;
        }
    }
  return TRUE;
}

static const char *
capture_file (AdbscopeWindow  *self,
              GError         **error)
{
  const char *file = self->view ? adbscope_network_get_pcap_file (adbscope_data_view_get_network (self->view)) : NULL;

  if (file == NULL || !g_file_test (file, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING,
                           _("Nothing was captured yet: start a capture on the Network page"));
      return NULL;
    }
  return file;
}

/* Tests: the export the dialog runs, synchronously. */
gboolean
_adbscope_window_export_pcap (AdbscopeWindow  *self,
                              const char      *path,
                              const char      *scope,
                              guint64         *n_packets,
                              GError         **error)
{
  AdbscopePcapSelection sel;
  const char *source = capture_file (self, error);

  if (source == NULL || !pcap_selection (self, scope, &sel, error))
    return FALSE;
  return adbscope_pcap_export_sync (source, path, &sel, NULL, NULL, n_packets, NULL, error);
}

gboolean
_adbscope_window_export_connections (AdbscopeWindow  *self,
                                     const char      *path,
                                     GError         **error)
{
  if (self->view == NULL)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_NO_RECORDING, _("Nothing was recorded yet"));
      return FALSE;
    }
  return adbscope_connections_write_csv (adbscope_network_get_connections (adbscope_data_view_get_network (self->view)),
                                         path, error);
}

typedef struct
{
  AdbscopeWindow *self;
  GtkProgressBar *bar;
  gint            permille;   /* written by the export thread */
  guint           timer_id;
  char           *path;
} Exporting;

static void
export_progress (double   fraction,
                 gpointer data)
{
  Exporting *e = data;

  g_atomic_int_set (&e->permille, (gint) (fraction * 1000));
}

static gboolean
export_timer_cb (gpointer data)
{
  Exporting *e = data;

  gtk_progress_bar_set_fraction (e->bar, g_atomic_int_get (&e->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Exporting *e = user_data;
  g_autoptr(AdbscopeWindow) self = e->self;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;

  g_source_remove (e->timer_id);
  g_object_unref (e->bar);
  close_capture_dialog (self);
  if (!adbscope_pcap_export_finish (result, &n, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _adbscope_window_toast (self, error->message);
    }
  else
    {
      g_autofree char *base = g_path_get_basename (e->path);
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Saved “%s” (%s packet)",
                                                            "Saved “%s” (%s packets)", n),
                                               base, count);

      _adbscope_window_toast (self, text);
    }
  g_free (e->path);
  g_free (e);
}

static void
pcap_chosen (GtkNativeDialog *chooser,
             int              response,
             AdbscopeWindow  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);
      const char *scope = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "packets");
      g_autoptr(GError) error = NULL;
      AdbscopePcapSelection sel;
      const char *source = capture_file (self, &error);

      if (path == NULL)
        _adbscope_window_toast (self, _("Choose a local file"));
      else if (source == NULL || !pcap_selection (self, scope, &sel, &error))
        _adbscope_window_toast (self, error->message);
      else
        {
          AdwMessageDialog *dialog = capture_dialog (self, _("Exporting Packets"), NULL);
          GtkWidget *bar = gtk_progress_bar_new ();
          Exporting *e = g_new0 (Exporting, 1);

          adw_message_dialog_set_extra_child (dialog, bar);
          adw_message_dialog_add_response (dialog, "cancel", _("_Cancel"));
          g_clear_object (&self->capture_cancellable);
          self->capture_cancellable = g_cancellable_new ();
          g_signal_connect (dialog, "response", G_CALLBACK (on_waiting_response), self);
          gtk_window_present (GTK_WINDOW (dialog));
          e->self = g_object_ref (self);
          e->bar = g_object_ref (GTK_PROGRESS_BAR (bar));
          e->path = g_strdup (path);
          e->timer_id = g_timeout_add (100, export_timer_cb, e);
          adbscope_pcap_export_async (source, path, &sel, export_progress, e, self->capture_cancellable,
                                      exported_cb, e);
        }
    }
  g_object_unref (chooser);
}

static GtkFileChooserNative *
save_chooser (AdbscopeWindow *self,
              const char     *title,
              const char     *extension,
              const char     *filter_name)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("adbscope-%s-%s.%s", self->package ? self->package : "capture",
                                           stamp, extension);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_file_filter_add_suffix (filter, extension);
  gtk_file_filter_set_name (filter, filter_name);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  return chooser;
}

void
_adbscope_window_export_pcap_dialog (AdbscopeWindow *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GError) error = NULL;
  const char *ids[] = { "all", "window", "connection", NULL };
  const char *labels[] = { _("The whole capture"), _("The visible time window"), _("The selected connection"), NULL };

  if (capture_file (self, &error) == NULL)
    {
      _adbscope_window_toast (self, error->message);
      return;
    }
  chooser = save_chooser (self, _("Export Packets"), "pcap", _("Packet captures (pcap)"));
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "packets", _("Packets"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "packets",
                               adbscope_network_page_get_selected_connection (ADBSCOPE_NETWORK_PAGE (self->network_page))
                                 ? "connection" : "all");
  g_signal_connect (chooser, "response", G_CALLBACK (pcap_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
csv_chosen (GtkNativeDialog *chooser,
            int              response,
            AdbscopeWindow  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        _adbscope_window_toast (self, _("Choose a local file"));
      else if (!_adbscope_window_export_connections (self, path, &error))
        _adbscope_window_toast (self, error->message);
      else
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *text = g_strdup_printf (_("Saved “%s”"), base);

          _adbscope_window_toast (self, text);
        }
    }
  g_object_unref (chooser);
}

void
_adbscope_window_export_connections_dialog (AdbscopeWindow *self)
{
  GtkFileChooserNative *chooser = save_chooser (self, _("Export Connections"), "csv", _("CSV"));

  g_signal_connect (chooser, "response", G_CALLBACK (csv_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_adbscope_window_dispose_capture (AdbscopeWindow *self)
{
  g_cancellable_cancel (self->capture_cancellable);
  g_clear_object (&self->capture_cancellable);
  close_capture_dialog (self);
  if (self->capture != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->capture, self);
      if (_adbscope_window_is_capturing (self))
        adbscope_capture_stop_async (self->capture, NULL, NULL);
      adbscope_network_page_set_capture (ADBSCOPE_NETWORK_PAGE (self->network_page), NULL);
    }
  g_clear_object (&self->capture);
}
