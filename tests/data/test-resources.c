/* test-resources.c: the gresource linked into the GUI is complete and valid
 *
 * Links adbscope_gui_dep the way the adbscope binary does, so the resource
 * registers itself from its constructor; then checks that the CSS parses
 * without a single error and that the icons in it load.  Needs no display:
 * GtkCssProvider and GdkTexture work before gtk_init().
 */
#include "config.h"

#include <gtk/gtk.h>

#define BASE "/io/github/adbscope/Adbscope"

static void
count_parsing_error (GtkCssProvider *provider,
                     GtkCssSection  *section,
                     const GError   *error,
                     gpointer        user_data)
{
  guint *n_errors = user_data;
  g_autofree char *where = gtk_css_section_to_string (section);

  g_test_message ("style.css: %s: %s", where, error->message);
  (*n_errors)++;
}

static void
test_style_css_parses (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n_errors = 0;

  bytes = g_resources_lookup_data (BASE "/style.css", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, 0);

  g_signal_connect (provider, "parsing-error", G_CALLBACK (count_parsing_error), &n_errors);
  gtk_css_provider_load_from_resource (provider, BASE "/style.css");
  g_assert_cmpuint (n_errors, ==, 0);

  /* The provider kept the rules: serialising gives them back. */
  text = gtk_css_provider_to_string (provider);
  g_assert_nonnull (strstr (text, ".simulated-badge"));
}

/* The check above must be able to fail: a broken rule is reported. */
static void
test_css_errors_are_seen (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  guint n_errors = 0;

  g_signal_connect (provider, "parsing-error", G_CALLBACK (count_parsing_error), &n_errors);
  gtk_css_provider_load_from_data (provider, ".x { colr: red; }", -1);
  g_assert_cmpuint (n_errors, ==, 1);
}

static void
test_icons_load (void)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  guint n_icons = 0;

  names = g_resources_enumerate_children (BASE "/icons/scalable/apps/", G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (BASE "/icons/scalable/apps/", names[i], NULL);
      g_autoptr(GdkTexture) texture = NULL;

      g_test_message ("loading %s", path);
      texture = gdk_texture_new_from_resource (path);
      g_assert_nonnull (texture);
      if (g_str_has_suffix (names[i], "-symbolic.svg"))
        {
          g_assert_cmpint (gdk_texture_get_width (texture), ==, 16);
          g_assert_cmpint (gdk_texture_get_height (texture), ==, 16);
        }
      n_icons++;
    }
  g_assert_cmpuint (n_icons, >=, 1);
  g_assert_true (g_resources_get_info (BASE "/icons/scalable/apps/" APP_ID "-symbolic.svg",
                                       G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/data/resources/style-css-parses", test_style_css_parses);
  g_test_add_func ("/data/resources/css-errors-are-seen", test_css_errors_are_seen);
  g_test_add_func ("/data/resources/icons-load", test_icons_load);

  return g_test_run ();
}
