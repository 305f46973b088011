/* gui-tour.c: the app on the demo device, one PNG per page, light and dark
 *
 * Usage: gui-tour OUTDIR — run by build-aux/screenshots.sh, which provides
 * Xvfb, D-Bus and a private adb server.  The tour does what a user does:
 * "Try the demo device", picks the demo app, lets it record for a while,
 * then visits every page in both colour schemes.
 */
#include "config.h"

#include <adwaita.h>

#include <string.h>

#include "adbscope-application.h"
#include "adbscope-launch-window.h"
#include "adbscope-app.h"
#include "adbscope-application.h"
#include "adbscope-connect-dialog.h"
#include "adbscope-connection.h"
#include "adbscope-network-page.h"
#include "adbscope-test-recording.h"
#include "adbscope-window-private.h"
#include "adbscope-overview-page.h"
#include "adbscope-screenshot-dialog.h"
#include "adbscope-screenshot-strip.h"
#include "gui-test-util.h"

static AdbscopeWindow *window;

static const char * const page_names[] = {
  "overview", "cpu", "memory", "frames", "threads", "power", "system", "network",
};

static gboolean
mode_is (gpointer data)
{
  return g_strcmp0 (_adbscope_window_get_mode (window), data) == 0;
}

static gboolean
consent_dialog_shown (gpointer data)
{
  return _adbscope_window_get_capture_dialog (window) != NULL;
}

static gboolean
connections_listed (gpointer data)
{
  AdbscopeNetworkPage *page = ADBSCOPE_NETWORK_PAGE (_adbscope_window_get_page (window, "network"));
  GListModel *rows = adbscope_network_page_get_connection_model (page);

  return _adbscope_window_get_capture_dialog (window) == NULL && g_list_model_get_n_items (rows) >= 6;
}

static void
select_refused (void)
{
  AdbscopeNetworkPage *page = ADBSCOPE_NETWORK_PAGE (_adbscope_window_get_page (window, "network"));
  GListModel *rows = adbscope_network_page_get_connection_model (page);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(AdbscopeConnection) c = g_list_model_get_item (rows, i);

      if (adbscope_connection_get_failure (c) != NULL)
        {
          adbscope_network_page_select_connection (page, i);
          return;
        }
    }
}

static gboolean
apps_loaded (gpointer data)
{
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);

  return !adbscope_app_picker_get_loading (picker) &&
         g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) > 0;
}

/* Labels and icons arrive after the list (read from the APKs). */
static gboolean
icons_loaded (gpointer data)
{
  GListModel *apps = adbscope_app_picker_get_model (_adbscope_window_get_app_picker (window));
  guint i, n = 0;

  for (i = 0; i < g_list_model_get_n_items (apps); i++)
    {
      g_autoptr(AdbscopeApp) app = g_list_model_get_item (apps, i);

      n += adbscope_app_get_icon (app) != NULL;
    }
  return n >= GPOINTER_TO_UINT (data);
}

static void
save_widget (const char *dir,
             const char *name,
             const char *scheme,
             GtkWidget  *widget)
{
  g_autofree char *file = g_strdup_printf ("%s-%s.png", name, scheme);
  g_autofree char *path = g_build_filename (dir, file, NULL);

  gui_test_spin (400);
  /* A widget whose layout was just invalidated (a table re-sorted by a
   * snapshot) draws nothing until the next frame: try again then. */
  for (guint attempt = 0; attempt < 20; attempt++)
    {
      g_autoptr(GdkTexture) texture = gui_test_render (widget);
      gsize stride;
      g_autofree guchar *pixels = gui_test_pixels (texture, &stride);
      gsize n = stride * gdk_texture_get_height (texture);
      gboolean blank = TRUE;

      for (gsize i = 0; i < n && blank; i++)
        blank = pixels[i] == 0xff;
      if (!blank || attempt == 19)
        {
          if (!gdk_texture_save_to_png (texture, path))
            g_error ("could not write %s", path);
          break;
        }
      gui_test_spin (100);
    }
  g_print ("%s\n", path);
}

static void
save (const char *dir,
      const char *name,
      const char *scheme)
{
  save_widget (dir, name, scheme, GTK_WIDGET (window));
}

static GtkWindow *
find_window (AdbscopeApplication *app,
             GType                type)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;
  g_error ("no %s window", g_type_name (type));
  return NULL;
}

/* A visible toplevel of @type, application window or not. */
static GtkWidget *
toplevel_of_type (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}

/* The first widget of exactly @type (with @css_class) below @root, depth first. */
static GtkWidget *
find_child (GtkWidget  *root,
            GType       type,
            const char *css_class)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_OBJECT_TYPE (c) == type && (css_class == NULL || gtk_widget_has_css_class (c, css_class)))
        return c;
      if ((found = find_child (c, type, css_class)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
startup_done (gpointer button)
{
  return gtk_widget_get_sensitive (button);
}

static void
set_scheme (const char *scheme)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      g_str_equal (scheme, "dark") ? ADW_COLOR_SCHEME_FORCE_DARK
                                                                   : ADW_COLOR_SCHEME_FORCE_LIGHT);
}

int
main (int    argc,
      char **argv)
{
  static const char * const schemes[] = { "light", "dark" };
  g_autoptr(AdbscopeApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  const char *dir;
  guint record_s = 20;

  gtk_init ();
  adw_init ();
  if (argc < 2)
    g_error ("usage: gui-tour OUTDIR [SECONDS]");
  dir = argv[1];
  if (argc > 2)
    record_s = (guint) g_ascii_strtoull (argv[2], NULL, 10);
  g_mkdir_with_parents (dir, 0755);

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("%s", error->message);
  window = adbscope_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 820);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_spin (1500);

  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      set_scheme (schemes[s]);
      save (dir, "00-devices", schemes[s]);
    }

  /* Connect…: two recent addresses, then a real attempt at a closed port
   * and adb's answer. */
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.adbscope.Adbscope");
    GtkWindow *dialog, *answer = NULL;
    GtkEditable *entry;

    adbscope_connect_remember (settings, "farm-7.example.com:7401");
    adbscope_connect_remember (settings, "192.168.1.20:5555");
    gtk_widget_activate_action (GTK_WIDGET (window), "win.connect", NULL);
    gui_test_spin (300);
    dialog = find_window (app, ADW_TYPE_MESSAGE_DIALOG);
    entry = g_object_get_data (G_OBJECT (dialog), "entry");
    gtk_editable_set_text (entry, "127.0.0.1:9");
    for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
      {
        set_scheme (schemes[s]);
        save_widget (dir, "00-connect", schemes[s], GTK_WIDGET (dialog));
      }
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "connect");
    for (guint t = 0; t < 100 && answer == NULL; t++)
      {
        gui_test_spin (100);
        for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
          if (g_object_get_data (l->data, "adbscope-connect-answer") != NULL)
            answer = l->data;
      }
    if (answer == NULL)
      g_error ("no answer from adb connect");
    g_assert_cmpint (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (answer), "adbscope-connect-answer")), ==, 2);
    for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
      {
        set_scheme (schemes[s]);
        save_widget (dir, "00-connect-answer", schemes[s], GTK_WIDGET (answer));
      }
    gtk_window_destroy (answer);
  }

  set_scheme ("light");
  {
    /* Screenshots on the timeline, every 5 s and at the marker. */
    g_autoptr(GSettings) settings = g_settings_new ("io.github.adbscope.Adbscope");

    g_settings_set_uint (settings, "screenshot-interval", 5);
    g_settings_set_boolean (settings, "screenshots", TRUE);
  }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.try-demo", NULL);
  if (!gui_test_wait (apps_loaded, NULL, 60000))
    g_error ("the demo device's apps did not show up (%s)", _adbscope_window_get_last_toast (window));
  /* "Try the demo device" searches for the demo app; with real APKs on
   * the device, show the whole list with their names and icons. */
  if (g_getenv ("ADBSCOPE_DEMO_APKS") != NULL)
    {
      adbscope_app_picker_set_search (_adbscope_window_get_app_picker (window), "");
      if (!gui_test_wait (icons_loaded, GUINT_TO_POINTER (3), 60000))
        g_error ("the app icons did not show up");
    }
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      set_scheme (schemes[s]);
      save (dir, "01-apps", schemes[s]);
    }

  {
    /* ADBSCOPE_DEMO_GAME: tour the game-like demo (a SurfaceView) instead */
    GtkListBox *apps = adbscope_app_picker_get_list_box (_adbscope_window_get_app_picker (window));
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (apps, 0);

    for (int i = 0; g_getenv ("ADBSCOPE_DEMO_GAME") != NULL && gtk_list_box_get_row_at_index (apps, i) != NULL; i++)
      {
        GtkListBoxRow *r = gtk_list_box_get_row_at_index (apps, i);
        const char *title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (r));
        const char *sub = ADW_IS_ACTION_ROW (r) ? adw_action_row_get_subtitle (ADW_ACTION_ROW (r)) : NULL;

        /* the running demo game, not an installed APK with "game" in its name */
        if ((title && g_str_equal (title, ADBSCOPE_DEMO_GAME_PACKAGE)) ||
            (sub && g_str_equal (sub, ADBSCOPE_DEMO_GAME_PACKAGE)))
          row = r;
      }
    g_signal_emit_by_name (apps, "row-activated", row);
  }
  if (!gui_test_wait (mode_is, (gpointer) "session", 60000))
    g_error ("no session (%s)", _adbscope_window_get_last_toast (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.time-window", "u", 60);
  gui_test_spin (record_s * 1000 / 2);
  _adbscope_window_add_marker (window, "tap");
  gui_test_spin (record_s * 1000 / 2);

  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      set_scheme (schemes[s]);
      for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
        {
          g_autofree char *name = g_strdup_printf ("%02u-%s", i + 2, page_names[i]);

          gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", page_names[i]);
          save (dir, name, schemes[s]);
        }
    }

  /* The Overview scrolled down to its screenshots, and one full size. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "overview");
  gui_test_spin (500);
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      GtkWidget *scrolled = adw_bin_get_child (ADW_BIN (_adbscope_window_get_page (window, "overview")));
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      set_scheme (schemes[s]);
      gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
      gui_test_spin (300);
      save (dir, "02-overview-screenshots", schemes[s]);
      gtk_adjustment_set_value (adj, 0);
    }
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      AdbscopeScreenshotStrip *strip = adbscope_overview_page_get_screenshot_strip (
        ADBSCOPE_OVERVIEW_PAGE (_adbscope_window_get_page (window, "overview")));
      g_autoptr(GPtrArray) thumbs = adbscope_screenshot_strip_list_thumbnails (strip);
      GtkWindow *dialog;

      if (thumbs->len == 0)
        g_error ("no screenshot on the Overview");
      set_scheme (schemes[s]);
      g_signal_emit_by_name (g_ptr_array_index (thumbs, thumbs->len / 2), "clicked");
      gui_test_spin (400);
      dialog = find_window (app, ADBSCOPE_TYPE_SCREENSHOT_DIALOG);
      save_widget (dir, "18-screenshot", schemes[s], GTK_WIDGET (dialog));
      gtk_window_destroy (dialog);
    }
  /* Another run overlaid: a synthetic recording as long as this one */
  {
    AdbscopeSynthRun other = {
      .duration_s = record_s + 5, .interval_ms = 1000, .n_cores = 8, .n_threads = 4, .fps = 60,
      .spike_tick = record_s / 2, .spike_value = 90,
    };
    g_autofree char *path = g_build_filename (g_get_user_data_dir (), "tour-compare.adbscope", NULL);

    if (!adbscope_synth_write (path, &other, &error) ||
        !_adbscope_window_compare_with (window, path, &error))
      g_error ("compare: %s", error->message);
    for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
      {
        set_scheme (schemes[s]);
        gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "overview");
        save (dir, "22-compare-overview", schemes[s]);
        gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "cpu");
        save (dir, "23-compare-cpu", schemes[s]);
        g_clear_pointer (&window->compare_diff, json_node_unref);
        {
          g_autoptr(JsonNode) diff = _adbscope_window_show_compare_summary (window, &error);

          if (diff == NULL)
            g_error ("summary: %s", error->message);
          save_widget (dir, "24-compare-summary", schemes[s], GTK_WIDGET (window->compare_dialog));
        }
      }
    _adbscope_window_remove_comparison (window);
  }

  /* The network: the capture dialogs, then the tables with traffic. */
  if (!gtk_widget_activate_action (GTK_WIDGET (window), "win.start-capture", NULL))
    g_error ("no start-capture action");
  /* The dialog is up until the (simulated) user accepts: a few seconds
   * here (screenshots.sh sets ADBSCOPE_SIM_CONSENT_MS), time for both
   * schemes. */
  if (gui_test_wait (consent_dialog_shown, NULL, 10000))
    for (guint s = 0; s < G_N_ELEMENTS (schemes) && consent_dialog_shown (NULL); s++)
      {
        set_scheme (schemes[s]);
        gui_test_spin (50);
        if (consent_dialog_shown (NULL))
          save_widget (dir, "13-capture-consent", schemes[s],
                       GTK_WIDGET (_adbscope_window_get_capture_dialog (window)));
      }
  if (!gui_test_wait (connections_listed, NULL, 40000))
    g_error ("the capture showed no connections (%s)", _adbscope_window_get_last_toast (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "network");
  select_refused ();
  gui_test_spin (1500);
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      AdbscopeNetworkPage *page = ADBSCOPE_NETWORK_PAGE (_adbscope_window_get_page (window, "network"));

      set_scheme (schemes[s]);
      adbscope_network_page_show_table (page, "connections");
      save (dir, "14-network-connections", schemes[s]);
      adbscope_network_page_show_table (page, "hosts");
      save (dir, "15-network-hosts", schemes[s]);
      adbscope_network_page_show_table (page, "dns");
      save (dir, "16-network-dns", schemes[s]);
      adbscope_network_page_show_table (page, "connections");
    }
  /* The export dialogs: GtkFileChooserNative, which without a portal is
   * GTK's own file chooser (a toplevel of no application). */
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      const char *actions[] = { "win.export-pcap", "win.export-connections" };
      const char *names[] = { "18-export-pcap", "19-export-connections" };

      set_scheme (schemes[s]);
      for (guint a = 0; a < G_N_ELEMENTS (actions); a++)
        {
          GtkWidget *chooser;

          gtk_widget_activate_action (GTK_WIDGET (window), actions[a], NULL);
          gui_test_spin (600);
          chooser = toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG);
          if (chooser == NULL)
            g_error ("%s opened no file chooser", actions[a]);
          save_widget (dir, names[a], schemes[s], chooser);
          gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
          gui_test_spin (300);
        }
    }
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      AdwMessageDialog *dialog;

      set_scheme (schemes[s]);
      _adbscope_window_offer_install (window, FALSE);
      dialog = _adbscope_window_get_capture_dialog (window);
      save_widget (dir, "17-agent-install", schemes[s], GTK_WIDGET (dialog));
      adw_message_dialog_response (dialog, "cancel");
      gui_test_spin (400);
    }

  /* The dialogs of the main menu */
  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    {
      GtkWindow *dialog;

      set_scheme (schemes[s]);
      g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
      gui_test_spin (400);
      dialog = find_window (app, ADW_TYPE_PREFERENCES_WINDOW);
      save_widget (dir, "10-preferences", schemes[s], GTK_WIDGET (dialog));
      adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (dialog), "devices");
      gui_test_spin (200);
      save_widget (dir, "10-preferences-devices", schemes[s], GTK_WIDGET (dialog));
      gtk_window_destroy (dialog);

      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
      gui_test_spin (400);
      dialog = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
      save_widget (dir, "11-shortcuts", schemes[s], GTK_WIDGET (dialog));
      gtk_widget_set_visible (GTK_WIDGET (dialog), FALSE);

      g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
      gui_test_spin (400);
      dialog = find_window (app, ADW_TYPE_ABOUT_WINDOW);
      save_widget (dir, "12-about", schemes[s], GTK_WIDGET (dialog));
      gtk_window_destroy (dialog);
    }

  /* Measure Start-up…, after two cold starts */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.measure-startup", NULL);
  gui_test_spin (400);
  {
    GtkWindow *launch = find_window (app, ADBSCOPE_TYPE_LAUNCH_WINDOW);
    GtkWidget *spin = find_child (GTK_WIDGET (launch), GTK_TYPE_SPIN_BUTTON, NULL);
    GtkWidget *button = find_child (GTK_WIDGET (launch), GTK_TYPE_BUTTON, "suggested-action");

    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 3);
    for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
      {
        set_scheme (schemes[s]);
        save_widget (dir, "20-startup", schemes[s], GTK_WIDGET (launch));
      }
    set_scheme ("light");
    g_signal_emit_by_name (button, "clicked");
    if (!gui_test_wait (startup_done, button, 60000))
      g_error ("the start-up measurement did not finish");
    for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
      {
        set_scheme (schemes[s]);
        save_widget (dir, "21-startup-results", schemes[s], GTK_WIDGET (launch));
      }
    gtk_window_destroy (launch);
  }

  /* The run just recorded, opened from its file: its Frames page */
  if (window->recording != NULL)
    {
      g_autofree char *rec = g_strdup (adbscope_recording_get_path (window->recording));

      _adbscope_window_set_recording (window, FALSE);
      gui_test_spin (1500);
      if (!_adbscope_window_open_recording (window, rec, &error))
        g_error ("open %s: %s", rec, error->message);
      gui_test_spin (1500);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "frames");
      for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
        {
          set_scheme (schemes[s]);
          save (dir, "25-opened-frames", schemes[s]);
        }
    }

  gtk_window_close (GTK_WINDOW (window));
  gui_test_spin (500);
  return 0;
}
