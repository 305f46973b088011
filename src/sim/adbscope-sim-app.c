#include "config.h"
#include <unistd.h>
#include "adbscope-sim.h"
int
adbscope_sim_app_main (int argc, char **argv)
{
  for (;;) pause ();
  return 0;
}
