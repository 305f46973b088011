/* main.c: one binary; a subcommand runs headless, none opens the window */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "adbscope-cli.h"
#if HAVE_GUI
# include "adbscope-application.h"
#endif

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("ADBSCOPE_LOCALEDIR");

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
  return adbscope_application_run (argc, argv);
#else
  fprintf (stderr, "%s\n", _("This build has no desktop app; run “adbscope --help” for the commands."));
  return 2;
#endif
}
