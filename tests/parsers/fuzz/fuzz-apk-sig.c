/* fuzz-apk-sig.c: the APK Signing Block reader on arbitrary bytes (the
 * end of the buffer is where the central directory would start), and the
 * install-failure and Private DNS parsers of the agent's device output. */
#include "config.h"

#include <string.h>

#include "adbscope-apk-sig.h"
#include "adbscope-parse-agent.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  GBytes *cert = adbscope_apk_sig_parse_certificate (data, size, NULL);
  g_autofree char *text = g_strndup ((const char *) data, size);
  char *code = NULL, *detail = NULL;
  AdbscopePrivateDns dns;

  if (cert != NULL)
    {
      g_assert (g_bytes_get_size (cert) > 0 && g_bytes_get_size (cert) <= size);
      g_bytes_unref (cert);
    }
  if (adbscope_agent_parse_install_failure (text, &code, &detail))
    g_assert (code != NULL && *code != '\0');
  g_free (code);
  g_free (detail);
  if (adbscope_agent_parse_private_dns (text, -1, &dns))
    g_assert (dns.mode != NULL);
  adbscope_private_dns_clear (&dns);
  adbscope_agent_parse_sdk (text);
  return 0;
}
