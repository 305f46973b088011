/* adbscope-error.c */
#include "config.h"

#include <gio/gio.h>

#include "adbscope-error.h"

G_DEFINE_QUARK (adbscope-error-quark, adbscope_error)

static const char * const code_names[ADBSCOPE_ERROR_N_CODES] = {
  [ADBSCOPE_ERROR_FAILED] = "failed",
  [ADBSCOPE_ERROR_USAGE] = "usage",
  [ADBSCOPE_ERROR_ADB_NOT_FOUND] = "adb_not_found",
  [ADBSCOPE_ERROR_ADB_FAILED] = "adb_failed",
  [ADBSCOPE_ERROR_NO_DEVICE] = "no_device",
  [ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED] = "device_unauthorized",
  [ADBSCOPE_ERROR_DEVICE_OFFLINE] = "device_offline",
  [ADBSCOPE_ERROR_DEVICE_LOST] = "device_lost",
  [ADBSCOPE_ERROR_MULTIPLE_DEVICES] = "multiple_devices",
  [ADBSCOPE_ERROR_TIMEOUT] = "timeout",
  [ADBSCOPE_ERROR_INVALID_SERIAL] = "invalid_serial",
  [ADBSCOPE_ERROR_INVALID_PACKAGE] = "invalid_package",
  [ADBSCOPE_ERROR_PACKAGE_NOT_FOUND] = "package_not_found",
  [ADBSCOPE_ERROR_APP_NOT_RUNNING] = "app_not_running",
  [ADBSCOPE_ERROR_PARSE] = "parse_error",
  [ADBSCOPE_ERROR_NOT_SUPPORTED] = "not_supported",
  [ADBSCOPE_ERROR_ADDRESS_IN_USE] = "address_in_use",
  [ADBSCOPE_ERROR_NO_RECORDING] = "no_recording",
  [ADBSCOPE_ERROR_FORBIDDEN] = "forbidden",
  [ADBSCOPE_ERROR_IO] = "io_error",
  [ADBSCOPE_ERROR_ASSERTION_FAILED] = "assertion_failed",
  [ADBSCOPE_ERROR_CANCELLED] = "cancelled",
  [ADBSCOPE_ERROR_AGENT_NOT_INSTALLED] = "agent_not_installed",
  [ADBSCOPE_ERROR_AGENT_OUTDATED] = "agent_outdated",
  [ADBSCOPE_ERROR_AGENT_PROTOCOL] = "agent_protocol",
  [ADBSCOPE_ERROR_AGENT_FAILED] = "agent_failed",
  [ADBSCOPE_ERROR_VPN_CONSENT_DENIED] = "vpn_consent_denied",
  [ADBSCOPE_ERROR_MULTIPLE_RECORDS] = "multiple_records",
  [ADBSCOPE_ERROR_AGENT_IMPOSTOR] = "agent_impostor",
  [ADBSCOPE_ERROR_DEVICE_TOO_OLD] = "device_too_old",
  [ADBSCOPE_ERROR_APK_INVALID] = "apk_invalid",
  [ADBSCOPE_ERROR_APK_WRONG_PACKAGE] = "apk_wrong_package",
  [ADBSCOPE_ERROR_AGENT_DOWNGRADE] = "agent_downgrade",
  [ADBSCOPE_ERROR_AGENT_SIGNATURE] = "agent_signature_mismatch",
  [ADBSCOPE_ERROR_DEVICE_STORAGE_FULL] = "device_storage_full",
  [ADBSCOPE_ERROR_INSTALL_REJECTED] = "install_rejected",
  [ADBSCOPE_ERROR_SELFTEST_FAILED] = "selftest_failed",
};

const char *
adbscope_error_code_to_string (int code)
{
  if (code < 0 || code >= ADBSCOPE_ERROR_N_CODES || code_names[code] == NULL)
    return "failed";
  return code_names[code];
}

/* Errors from other domains still get a stable code for the JSON output. */
const char *
adbscope_error_get_code_name (const GError *error)
{
  g_return_val_if_fail (error != NULL, "failed");

  if (error->domain == ADBSCOPE_ERROR)
    return adbscope_error_code_to_string (error->code);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return "timeout";
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    return "address_in_use";
  if (error->domain == G_IO_ERROR || error->domain == G_FILE_ERROR)
    return "io_error";
  return "failed";
}
