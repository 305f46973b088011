/* test-windows.c: several devices at once, and the adb server preference
 *
 * Two simulated devices (a phone and a tablet) on the private adb server.
 * The first window opens the tablet in a new window from its row's "Open
 * in New Window" button (app.open-device) and watches the phone itself;
 * each window then runs its own session, and each shows its own device's
 * data: the session's serial, the probe's model and the app's pid are the
 * sims' own.  Then the Preferences' adb server: an address where nothing
 * answers is refused and changes nothing; the private server's own
 * address is kept, and the device list comes back from it.
 * Runs under run-gui-test.sh (Xvfb, D-Bus).
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "adbscope-test-device.h"

#include "adbscope-adb.h"
#include "adbscope-app.h"
#include "adbscope-application.h"
#include "adbscope-demo.h"
#include "adbscope-preferences-window.h"
#include "adbscope-window-private.h"
#include "gui-test-util.h"

static AdbscopeTestDevice  *phone;
static AdbscopeTestDevice  *tablet;
static AdbscopeApplication *app;
static AdbscopeWindow      *first;

static GtkListBoxRow *
device_row (AdbscopeWindow *window,
            const char     *serial)
{
  GtkListBox *box = adbscope_device_picker_get_list_box (_adbscope_window_get_device_picker (window));

  for (int i = 0; gtk_list_box_get_row_at_index (box, i) != NULL; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (box, i);
      AdbscopeDevice *dev = g_object_get_data (G_OBJECT (row), "device");

      if (dev != NULL && g_strcmp0 (adbscope_device_get_serial (dev), serial) == 0 &&
          gtk_list_box_row_get_activatable (row))
        return row;
    }
  return NULL;
}

static gboolean
both_rows_ready (gpointer data)
{
  return device_row (data, adbscope_test_device_get_serial (phone)) != NULL &&
         device_row (data, adbscope_test_device_get_serial (tablet)) != NULL;
}

/* The row's button whose tooltip is @tooltip. */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *tooltip)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (c) && g_strcmp0 (gtk_widget_get_tooltip_text (c), tooltip) == 0)
        return c;
      if ((found = find_button (c, tooltip)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
apps_loaded (gpointer data)
{
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (data);

  return !adbscope_app_picker_get_loading (picker) &&
         g_list_model_get_n_items (adbscope_app_picker_get_model (picker)) > 0;
}

static gboolean
sampling (gpointer data)
{
  AdbscopeSession *s = _adbscope_window_get_session (data);

  return s != NULL && adbscope_session_get_n_samples (s) >= 3;
}

static void
watch_demo (AdbscopeWindow *window)
{
  AdbscopeAppPicker *picker = _adbscope_window_get_app_picker (window);

  g_assert_true (gui_test_wait (apps_loaded, window, 30000));
  adbscope_app_picker_set_search (picker, ADBSCOPE_DEMO_PACKAGE);
  g_signal_emit_by_name (adbscope_app_picker_get_list_box (picker), "row-activated",
                         gtk_list_box_get_row_at_index (adbscope_app_picker_get_list_box (picker), 0));
}

static void
assert_shows (AdbscopeWindow     *window,
              AdbscopeTestDevice *dev)
{
  AdbscopeSession *s = _adbscope_window_get_session (window);
  const GArray *pids = adbscope_session_get_pids (s);

  g_assert_cmpstr (adbscope_session_get_serial (s), ==, adbscope_test_device_get_serial (dev));
  g_assert_cmpuint (pids->len, >=, 1);
  g_assert_cmpint (g_array_index (pids, int, 0), ==, adbscope_test_device_get_app_pid (dev, ADBSCOPE_DEMO_PACKAGE));
}

static void
test_second_window (void)
{
  const char *tablet_serial = adbscope_test_device_get_serial (tablet);
  GtkWidget *button;
  AdbscopeWindow *second = NULL;
  GList *windows;

  g_assert_true (gui_test_wait (both_rows_ready, first, 30000));
  /* ADBSCOPE_SHOTS_DIR=DIR: a picture of the two rows, to look at. */
  if (g_getenv ("ADBSCOPE_SHOTS_DIR") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("ADBSCOPE_SHOTS_DIR"), "two-devices.png", NULL);

      gui_test_spin (300);
      g_assert_true (gui_test_save_window (GTK_WIDGET (first), path));
    }
  button = find_button (GTK_WIDGET (device_row (first, tablet_serial)), "Open in New Window");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_signal_emit_by_name (button, "clicked");
  gui_test_spin (100);

  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != first)
      second = l->data;
  g_assert_nonnull (second);
  /* The new window is on the tablet's apps; the first one stays put. */
  g_assert_cmpstr (_adbscope_window_get_mode (second), ==, "apps");
  g_assert_cmpstr (_adbscope_window_get_mode (first), ==, "devices");

  g_signal_emit_by_name (adbscope_device_picker_get_list_box (_adbscope_window_get_device_picker (first)),
                         "row-activated", device_row (first, adbscope_test_device_get_serial (phone)));
  watch_demo (first);
  watch_demo (second);
  g_assert_true (gui_test_wait (sampling, first, 40000));
  g_assert_true (gui_test_wait (sampling, second, 40000));

  g_assert_true (_adbscope_window_get_session (first) != _adbscope_window_get_session (second));
  assert_shows (first, phone);
  assert_shows (second, tablet);
  /* Each run has its own file, even when both started in one second. */
  g_assert_nonnull (first->recording);
  g_assert_nonnull (second->recording);
  g_assert_cmpstr (adbscope_recording_get_path (first->recording), !=, adbscope_recording_get_path (second->recording));
  {
    const AdbscopeProbeResult *a = adbscope_session_get_probe (_adbscope_window_get_session (first));
    const AdbscopeProbeResult *b = adbscope_session_get_probe (_adbscope_window_get_session (second));

    g_assert_cmpstr (a->model, !=, b->model);
  }
  /* Closing one window ends its session only. */
  gtk_window_close (GTK_WINDOW (second));
  gui_test_spin (200);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  {
    guint64 before = adbscope_session_get_n_samples (_adbscope_window_get_session (first));
    gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (adbscope_session_get_n_samples (_adbscope_window_get_session (first)) <= before &&
           g_get_monotonic_time () < end)
      gui_test_spin (100);
    g_assert_cmpuint (adbscope_session_get_n_samples (_adbscope_window_get_session (first)), >, before);
  }
}

static gboolean
row_settled (gpointer data)
{
  return gtk_widget_get_sensitive (data);
}

static void
apply_server (AdbscopePreferencesWindow *prefs,
              const char                *text)
{
  AdwEntryRow *row = _adbscope_preferences_window_get_adb_server_row (prefs);

  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (row, "apply");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (row)));
  g_assert_true (gui_test_wait (row_settled, row, 20000));
}

static gboolean
devices_listed (gpointer data)
{
  AdbscopeWindow *window = data;

  return g_list_model_get_n_items (G_LIST_MODEL (window->monitor)) == 2;
}

static void
test_adb_server_preference (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AdbscopePreferencesWindow *prefs;
  AdwEntryRow *row;
  g_autofree char *own = g_strdup_printf ("127.0.0.1:%s", g_getenv ("ANDROID_ADB_SERVER_PORT"));
  g_autofree char *kept = NULL;
  g_autofree char *in_use = NULL;

  g_assert_null (adbscope_adb_dup_server ());
  prefs = ADBSCOPE_PREFERENCES_WINDOW (adbscope_preferences_window_new (GTK_WINDOW (first)));
  gtk_window_set_application (GTK_WINDOW (prefs), GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (prefs));
  row = _adbscope_preferences_window_get_adb_server_row (prefs);

  /* Not an address: refused, nothing changes. */
  apply_server (prefs, "not a host:x");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "error"));
  g_assert_null (adbscope_adb_dup_server ());

  /* Nothing answers there (127.0.0.2 is "remote" to adb: it starts no
   * server): refused, the settings and the server in use stay. */
  apply_server (prefs, "127.0.0.2:1");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "error"));
  g_assert_null (adbscope_adb_dup_server ());
  kept = g_settings_get_string (settings, "adb-server");
  g_assert_cmpstr (kept, ==, "");
  g_clear_pointer (&kept, g_free);

  /* The private server by its address: kept, and every window lists the
   * devices it has. */
  apply_server (prefs, own);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (row), "error"));
  in_use = adbscope_adb_dup_server ();
  g_assert_cmpstr (in_use, ==, own);
  kept = g_settings_get_string (settings, "adb-server");
  g_assert_cmpstr (kept, ==, own);
  g_assert_true (gui_test_wait (devices_listed, first, 20000));

  /* Back to the local default. */
  apply_server (prefs, "");
  g_assert_null (adbscope_adb_dup_server ());
  g_clear_pointer (&kept, g_free);
  kept = g_settings_get_string (settings, "adb-server");
  g_assert_cmpstr (kept, ==, "");
  gtk_window_destroy (GTK_WINDOW (prefs));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  phone = adbscope_test_device_start ("pixel-14", NULL, &error);
  g_assert_no_error (error);
  tablet = adbscope_test_device_start ("tablet-13", NULL, &error);
  g_assert_no_error (error);

  app = adbscope_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  first = adbscope_window_new (app);
  gtk_window_present (GTK_WINDOW (first));

  g_test_add_func ("/gui/windows/second-window", test_second_window);
  g_test_add_func ("/gui/windows/adb-server-preference", test_adb_server_preference);
  ret = g_test_run ();

  for (GList *l; (l = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL;)
    gtk_window_destroy (l->data);
  g_clear_object (&app);
  adbscope_test_device_free (tablet);
  adbscope_test_device_free (phone);
  return ret;
}
