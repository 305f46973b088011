/* main.c: one binary; a subcommand runs headless, none opens the window
 *
 * The window is in a module loaded only here (see
 * src/gui/adbscope-gui-module.c): headless runs never map GTK.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gmodule.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>

#include "adbscope-cli.h"

typedef int (*GuiMain) (int argc, char **argv);

/* $ADBSCOPE_GUI_MODULE, else beside the executable in a build tree
 * (src/gui/), else the installed module directory. */
static char *
find_gui_module (void)
{
  const char *env = g_getenv ("ADBSCOPE_GUI_MODULE");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  char *path;

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  if (dir != NULL)
    {
      path = g_build_filename (dir, "gui", "libadbscope-gui.so", NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return path;
      g_free (path);
    }
  return g_build_filename (ADBSCOPE_GUI_MODULE_DIR, "libadbscope-gui.so", NULL);
}

static int
run_gui (int    argc,
         char **argv)
{
  g_autofree char *path = find_gui_module ();
  GModule *module;
  GuiMain gui_main = NULL;

  module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL || !g_module_symbol (module, "adbscope_gui_main", (gpointer *) &gui_main))
    {
      fprintf (stderr, _("Cannot load the desktop app (%s): %s\n"), path, g_module_error ());
      fprintf (stderr, "%s\n", _("Run “adbscope --help” for the commands."));
      return 1;
    }
  /* Never unloaded: GTypes registered from it must stay. */
  g_module_make_resident (module);
  return gui_main (argc, argv);
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("ADBSCOPE_LOCALEDIR");

  /* A write to an adb whose device just vanished must be an error we
   * handle (EPIPE), not the end of this process. */
  signal (SIGPIPE, SIG_IGN);

  setlocale (LC_ALL, "");
  /* ADBSCOPE_LOCALEDIR lets an uninstalled build (tests, ./run.sh) use the
   * catalogs compiled into <build>/po. */
  if (localedir == NULL || *localedir == '\0')
    localedir = LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc > 1 && adbscope_cli_handles (argv[1]))
    return adbscope_cli_run (argc, argv);

#if HAVE_GUI
  return run_gui (argc, argv);
#else
  fprintf (stderr, "%s\n", _("This build has no desktop app; run “adbscope --help” for the commands."));
  return 2;
#endif
}
