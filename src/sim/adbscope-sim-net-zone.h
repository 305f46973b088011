/* adbscope-sim-net-zone.h: the simulated device's network, as the demo app
 * and the device's own servers both know it
 *
 * The "phone's" network namespace has 198.18.0.0/24 (RFC 2544 benchmark
 * addresses) on its loopback, so every address of it is local there and the
 * servers bind the ones below; 198.19.0.0/24 goes to a TUN nobody reads (a
 * black hole).  The app's namespace only has the agent's TUN.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_SIM_NET_LOCAL_PREFIX   "198.18.0.1"  /* /24 on the phone's lo */

#define ADBSCOPE_SIM_NET_API_ADDR       "198.18.0.10"
#define ADBSCOPE_SIM_NET_CDN_ADDR       "198.18.0.11"
#define ADBSCOPE_SIM_NET_ECHO_ADDR      "198.18.0.12"
#define ADBSCOPE_SIM_NET_BLACKHOLE_ADDR "198.19.0.1"
#define ADBSCOPE_SIM_NET_BLACKHOLE_ME   "198.19.0.254"

#define ADBSCOPE_SIM_NET_HTTP_PORT      80
#define ADBSCOPE_SIM_NET_TLS_PORT       443
#define ADBSCOPE_SIM_NET_CLOSED_PORT    81
#define ADBSCOPE_SIM_NET_ECHO_PORT      7

/* The agent's side of the app's TUN (agent/linux/agent-linux.h). */
#define ADBSCOPE_SIM_NET_TUN_NAME       "tun0"
#define ADBSCOPE_SIM_NET_FAKE_DNS       "10.215.173.2"

/* The names the sim's resolver knows; anything else under demo.test is
 * NXDOMAIN. */
typedef struct
{
  const char *name;
  const char *address;
} AdbscopeSimNetName;

static const AdbscopeSimNetName adbscope_sim_net_names[] = {
  { "api.demo.test", ADBSCOPE_SIM_NET_API_ADDR },
  { "cdn.demo.test", ADBSCOPE_SIM_NET_CDN_ADDR },
  { "echo.demo.test", ADBSCOPE_SIM_NET_ECHO_ADDR },
  { "slow.demo.test", ADBSCOPE_SIM_NET_BLACKHOLE_ADDR },
};

/* The name the demo app looks up and never gets. */
#define ADBSCOPE_SIM_NET_MISSING_NAME   "missing.demo.test"

G_END_DECLS
