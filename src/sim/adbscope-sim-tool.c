#include "config.h"
#include "adbscope-sim.h"
int
adbscope_sim_tool_main (int argc, char **argv)
{
  return 1;
}
