/* adbscope-gui-module.c: entry point of the GUI module
 *
 * The window lives in a module (libadbscope-gui.so) that `adbscope` loads
 * only when it opens the window, so the headless commands — and the
 * simulated device's fake tools, which run this binary for every command —
 * never map GTK: less memory, faster start.  The core's symbols come from
 * the executable (linked whole, exported).
 */
#include "config.h"

#include <gmodule.h>

#include "adbscope-application.h"

G_MODULE_EXPORT int adbscope_gui_main (int argc, char **argv);

G_MODULE_EXPORT int
adbscope_gui_main (int    argc,
                   char **argv)
{
  return adbscope_application_run (argc, argv);
}
