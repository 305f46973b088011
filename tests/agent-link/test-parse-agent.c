/* test-parse-agent.c: what the device says about the agent app, as Android
 * (and the simulated device) print it */
#include "config.h"

#include "adbscope-error.h"
#include "adbscope-parse-agent.h"

static void
test_version_code (void)
{
  g_assert_cmpint (adbscope_agent_version_code ("1.0.0"), ==, 10000);
  g_assert_cmpint (adbscope_agent_version_code ("0.1.0"), ==, 100);
  g_assert_cmpint (adbscope_agent_version_code ("2.13.7"), ==, 21307);
  g_assert_cmpint (adbscope_agent_version_code ("1.2.3-dev"), ==, 10203);
  g_assert_cmpint (adbscope_agent_version_code ("1.2"), ==, -1);
  g_assert_cmpint (adbscope_agent_version_code ("1.100.0"), ==, -1);
  g_assert_cmpint (adbscope_agent_version_code ("1.2.3.4"), ==, -1);
  g_assert_cmpint (adbscope_agent_version_code ("a.b.c"), ==, -1);
  g_assert_cmpint (adbscope_agent_version_code (""), ==, -1);
  g_assert_cmpint (adbscope_agent_version_code (NULL), ==, -1);
}

static void
test_dumpsys_package (void)
{
  /* Shape of Android 14's dumpsys package for one package. */
  static const char installed[] =
    "Activity Resolver Table:\n"
    "  Non-Data Actions:\n"
    "      android.intent.action.MAIN:\n"
    "        1e2f3a4 io.github.adbscope.agent/.ControlActivity filter 5b6c7d8\n"
    "\n"
    "Key Set Manager:\n"
    "  [io.github.adbscope.agent]\n"
    "      Signing KeySets: 51\n"
    "\n"
    "Packages:\n"
    "  Package [io.github.adbscope.agent] (5b1e0c2):\n"
    "    userId=10245\n"
    "    pkg=Package{2c6f3b io.github.adbscope.agent}\n"
    "    codePath=/data/app/~~Xy==/io.github.adbscope.agent-Ab==\n"
    "    versionCode=10203 minSdk=29 targetSdk=34\n"
    "    versionName=1.2.3\n"
    "    splits=[base]\n"
    "\n"
    "Queries:\n"
    "  system apps queryable: false\n"
    "    versionCode=99 (not ours)\n";
  gint64 code;
  g_autofree char *name = NULL;

  g_assert_true (adbscope_agent_parse_dumpsys_package (installed, -1, &code, &name));
  g_assert_cmpint (code, ==, 10203);
  g_assert_cmpstr (name, ==, "1.2.3");
  /* Not installed: Android prints the tables without a Packages: section. */
  g_clear_pointer (&name, g_free);
  g_assert_false (adbscope_agent_parse_dumpsys_package ("Activity Resolver Table:\n\nDexopt state:\n", -1, &code, &name));
  g_assert_cmpint (code, ==, -1);
  g_assert_null (name);
  g_assert_false (adbscope_agent_parse_dumpsys_package ("", 0, &code, NULL));
  g_assert_false (adbscope_agent_parse_dumpsys_package (NULL, -1, &code, NULL));
  /* A versionCode that is not a number. */
  g_assert_false (adbscope_agent_parse_dumpsys_package ("Packages:\n  Package [x]:\n    versionCode=abc\n", -1, &code, NULL));
}

static void
test_service_state (void)
{
  AdbscopeAgentServiceState st;
  g_autoptr(GError) error = NULL;

  g_assert_true (adbscope_agent_parse_service_state (
    "ACTIVITY MANAGER SERVICES (dumpsys activity services)\n"
    "  SERVICE io.github.adbscope.agent/.AgentVpnService 1f2e3d pid=4242 user=0\n"
    "    Client:\n"
    "      adbscope-agent state=running package=io.github.adbscope.demo version=10000\n", -1, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_RUNNING);
  g_assert_cmpstr (st.package, ==, "io.github.adbscope.demo");
  g_assert_cmpint (st.version_code, ==, 10000);
  adbscope_agent_service_state_clear (&st);

  g_assert_true (adbscope_agent_parse_service_state ("  adbscope-agent state=consent_denied package=a.b version=100\r\n", -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_CONSENT_DENIED);
  adbscope_agent_service_state_clear (&st);

  g_assert_true (adbscope_agent_parse_service_state ("  adbscope-agent state=error:tun_failed package=a.b version=100\n", -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_ERROR);
  g_assert_cmpstr (st.error_code, ==, "tun_failed");
  adbscope_agent_service_state_clear (&st);

  g_assert_true (adbscope_agent_parse_service_state ("No services match: io.github.adbscope.agent/.AgentVpnService\n", -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_NONE);
  g_assert_true (adbscope_agent_parse_service_state ("", -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_NONE);

  g_assert_false (adbscope_agent_parse_service_state ("  adbscope-agent state=dancing package=a.b\n", -1, &st, &error));
  g_assert_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE);
  adbscope_agent_service_state_clear (&st);
  g_assert_cmpstr (adbscope_agent_state_to_string (ADBSCOPE_AGENT_STATE_WAITING_CONSENT), ==, "waiting_consent");
}

/* Brief A's agent adds reason=… (free text, may hold spaces) after the
 * state, and selftest=ok|fail:WHY; lines with and without both. */
static void
test_service_state_reason (void)
{
  AdbscopeAgentServiceState st;
  g_autofree char *words = NULL;

  g_assert_true (adbscope_agent_parse_service_state (
    "  adbscope-agent state=error:always_on_vpn reason=Always-on VPN of com.other.vpn is active package=a.b version=100\n",
    -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_ERROR);
  g_assert_cmpstr (st.error_code, ==, "always_on_vpn");
  g_assert_cmpstr (st.reason, ==, "Always-on VPN of com.other.vpn is active");
  g_assert_cmpstr (st.package, ==, "a.b");
  g_assert_cmpint (st.version_code, ==, 100);
  words = adbscope_agent_state_describe (st.state, st.error_code, st.reason);
  g_assert_nonnull (strstr (words, "Always-on"));
  g_assert_nonnull (strstr (words, "com.other.vpn"));
  adbscope_agent_service_state_clear (&st);
  g_clear_pointer (&words, g_free);

  /* reason last on the line */
  g_assert_true (adbscope_agent_parse_service_state (
    "  adbscope-agent state=error:vpn_setup_failed package=a.b version=100 reason=java.lang.IllegalStateException: x\n",
    -1, &st, NULL));
  g_assert_cmpstr (st.error_code, ==, "vpn_setup_failed");
  g_assert_cmpstr (st.reason, ==, "java.lang.IllegalStateException: x");
  g_assert_cmpstr (st.package, ==, "a.b");
  adbscope_agent_service_state_clear (&st);

  /* as the Android agent writes it (agent-jni.c): no spaces, %XX escapes,
   * selftest=fail:STAGE:WHY escaped the same way */
  g_assert_true (adbscope_agent_parse_service_state (
    "  adbscope-agent state=error:vpn_not_allowed reason=java.lang.SecurityException:%20Restricted%20by%20DISALLOW_CONFIG_VPN%25 "
    "package=com.example.app version=100 selftest=fail:connect:Connection%20refused\n",
    -1, &st, NULL));
  g_assert_cmpstr (st.error_code, ==, "vpn_not_allowed");
  g_assert_cmpstr (st.reason, ==, "java.lang.SecurityException: Restricted by DISALLOW_CONFIG_VPN%");
  g_assert_cmpstr (st.package, ==, "com.example.app");
  g_assert_cmpstr (st.selftest, ==, "fail:connect:Connection refused");
  adbscope_agent_service_state_clear (&st);

  /* a '%' not followed by two hex digits stays as it is */
  g_assert_true (adbscope_agent_parse_service_state (
    "  adbscope-agent state=error:engine_start reason=100%%zz%4 package=a.b version=100\n", -1, &st, NULL));
  g_assert_cmpstr (st.reason, ==, "100%%zz%4");
  adbscope_agent_service_state_clear (&st);

  /* without: no reason */
  g_assert_true (adbscope_agent_parse_service_state ("  adbscope-agent state=error:engine_start package=a.b version=100\n",
                                                     -1, &st, NULL));
  g_assert_null (st.reason);
  g_assert_null (st.selftest);
  words = adbscope_agent_state_describe (st.state, st.error_code, st.reason);
  g_assert_nonnull (strstr (words, "engine"));
  g_assert_null (strstr (words, "Android said"));
  adbscope_agent_service_state_clear (&st);
  g_clear_pointer (&words, g_free);

  g_assert_true (adbscope_agent_parse_service_state (
    "  adbscope-agent state=running package=io.github.adbscope.agent version=100 selftest=fail:connect_refused\n",
    -1, &st, NULL));
  g_assert_cmpint (st.state, ==, ADBSCOPE_AGENT_STATE_RUNNING);
  g_assert_cmpstr (st.selftest, ==, "fail:connect_refused");
  g_assert_null (st.reason);
  adbscope_agent_service_state_clear (&st);

  /* every state and code has words; waiting says only one VPN runs */
  words = adbscope_agent_state_describe (ADBSCOPE_AGENT_STATE_WAITING_CONSENT, NULL, NULL);
  g_assert_nonnull (strstr (words, "one VPN"));
  g_clear_pointer (&words, g_free);
  words = adbscope_agent_state_describe (ADBSCOPE_AGENT_STATE_ERROR, "agent_exit_3", NULL);
  g_assert_nonnull (strstr (words, "status 3"));
  g_clear_pointer (&words, g_free);
  words = adbscope_agent_state_describe (ADBSCOPE_AGENT_STATE_ERROR, "new_code", NULL);
  g_assert_nonnull (strstr (words, "new_code"));
}

static void
test_private_dns (void)
{
  AdbscopePrivateDns d;

  /* unset on Android 14: the default, Automatic */
  g_assert_true (adbscope_agent_parse_private_dns ("34\nnull\nnull\n", -1, &d));
  g_assert_cmpint (d.sdk, ==, 34);
  g_assert_cmpstr (d.mode, ==, "opportunistic");
  g_assert_true (d.is_default);
  g_assert_null (d.specifier);
  g_assert_false (adbscope_private_dns_hides_lookups (&d));
  adbscope_private_dns_clear (&d);

  g_assert_true (adbscope_agent_parse_private_dns ("33\r\nhostname\r\ndns.google\r\n", -1, &d));
  g_assert_cmpstr (d.mode, ==, "hostname");
  g_assert_cmpstr (d.specifier, ==, "dns.google");
  g_assert_false (d.is_default);
  g_assert_true (adbscope_private_dns_hides_lookups (&d));
  adbscope_private_dns_clear (&d);

  g_assert_true (adbscope_agent_parse_private_dns ("30\noff\ndns.google\n", -1, &d));
  g_assert_cmpstr (d.mode, ==, "off");
  g_assert_null (d.specifier);          /* kept by Android, unused when off */
  adbscope_private_dns_clear (&d);

  /* Android 8 has no Private DNS */
  g_assert_true (adbscope_agent_parse_private_dns ("26\nnull\nnull\n", -1, &d));
  g_assert_cmpstr (d.mode, ==, "off");
  adbscope_private_dns_clear (&d);

  g_assert_false (adbscope_agent_parse_private_dns ("", -1, &d));
  g_assert_false (adbscope_agent_parse_private_dns (NULL, -1, &d));
}

static void
test_forward_list (void)
{
  static const char list[] =
    "emulator-5554 tcp:6100 localabstract:adbscope-agent\n"
    "127.0.0.1:40001 tcp:7001 localabstract:adbscope-agent-pcap\n"
    "127.0.0.1:40001 tcp:7000 localabstract:adbscope-agent\n"
    "127.0.0.1:40001 tcp:7002 tcp:8080\n";

  g_assert_cmpint (adbscope_agent_parse_forward_list (list, "127.0.0.1:40001", "adbscope-agent"), ==, 7000);
  g_assert_cmpint (adbscope_agent_parse_forward_list (list, "127.0.0.1:40001", "adbscope-agent-pcap"), ==, 7001);
  g_assert_cmpint (adbscope_agent_parse_forward_list (list, "emulator-5554", "adbscope-agent"), ==, 6100);
  g_assert_cmpint (adbscope_agent_parse_forward_list (list, "emulator-5554", "adbscope-agent-pcap"), ==, -1);
  g_assert_cmpint (adbscope_agent_parse_forward_list ("", "x", "adbscope-agent"), ==, -1);
  g_assert_cmpint (adbscope_agent_parse_forward_list ("x tcp:99999 localabstract:adbscope-agent\n", "x", "adbscope-agent"), ==, -1);
  g_assert_cmpint (adbscope_agent_parse_forward_list (NULL, "x", "adbscope-agent"), ==, -1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parse-agent/version-code", test_version_code);
  g_test_add_func ("/parse-agent/dumpsys-package", test_dumpsys_package);
  g_test_add_func ("/parse-agent/service-state", test_service_state);
  g_test_add_func ("/parse-agent/forward-list", test_forward_list);
  g_test_add_func ("/parse-agent/service-state-reason", test_service_state_reason);
  g_test_add_func ("/parse-agent/private-dns", test_private_dns);
  return g_test_run ();
}
