/* adbscope-error.h: the one error domain of Adbscope
 *
 * Each code maps 1:1 to the "code" string of the CLI's JSON errors
 * ({"error":{"code":"no_device","message":"…"}}); see docs/cli.md.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ADBSCOPE_ERROR (adbscope_error_quark ())

typedef enum
{
  ADBSCOPE_ERROR_FAILED,              /* "failed" */
  ADBSCOPE_ERROR_USAGE,               /* "usage" */
  ADBSCOPE_ERROR_ADB_NOT_FOUND,       /* "adb_not_found" */
  ADBSCOPE_ERROR_ADB_FAILED,          /* "adb_failed" */
  ADBSCOPE_ERROR_NO_DEVICE,           /* "no_device" */
  ADBSCOPE_ERROR_DEVICE_UNAUTHORIZED, /* "device_unauthorized" */
  ADBSCOPE_ERROR_DEVICE_OFFLINE,      /* "device_offline" */
  ADBSCOPE_ERROR_DEVICE_LOST,         /* "device_lost" */
  ADBSCOPE_ERROR_MULTIPLE_DEVICES,    /* "multiple_devices" */
  ADBSCOPE_ERROR_TIMEOUT,             /* "timeout" */
  ADBSCOPE_ERROR_INVALID_SERIAL,      /* "invalid_serial" */
  ADBSCOPE_ERROR_INVALID_PACKAGE,     /* "invalid_package" */
  ADBSCOPE_ERROR_PACKAGE_NOT_FOUND,   /* "package_not_found" */
  ADBSCOPE_ERROR_APP_NOT_RUNNING,     /* "app_not_running" */
  ADBSCOPE_ERROR_PARSE,               /* "parse_error" */
  ADBSCOPE_ERROR_NOT_SUPPORTED,       /* "not_supported" */
  ADBSCOPE_ERROR_ADDRESS_IN_USE,      /* "address_in_use" */
  ADBSCOPE_ERROR_NO_RECORDING,        /* "no_recording" */
  ADBSCOPE_ERROR_FORBIDDEN,           /* "forbidden" */
  ADBSCOPE_ERROR_IO,                  /* "io_error" */
  ADBSCOPE_ERROR_ASSERTION_FAILED,    /* "assertion_failed" */
  ADBSCOPE_ERROR_CANCELLED,           /* "cancelled" */
  ADBSCOPE_ERROR_AGENT_NOT_INSTALLED, /* "agent_not_installed" */
  ADBSCOPE_ERROR_AGENT_OUTDATED,      /* "agent_outdated" */
  ADBSCOPE_ERROR_AGENT_PROTOCOL,      /* "agent_protocol" */
  ADBSCOPE_ERROR_AGENT_FAILED,        /* "agent_failed" */
  ADBSCOPE_ERROR_VPN_CONSENT_DENIED,  /* "vpn_consent_denied" */
  ADBSCOPE_ERROR_MULTIPLE_RECORDS,    /* "multiple_records" */
  ADBSCOPE_ERROR_AGENT_IMPOSTOR,      /* "agent_impostor" */
  ADBSCOPE_ERROR_DEVICE_TOO_OLD,      /* "device_too_old" */
  ADBSCOPE_ERROR_APK_INVALID,         /* "apk_invalid" */
  ADBSCOPE_ERROR_APK_WRONG_PACKAGE,   /* "apk_wrong_package" */
  ADBSCOPE_ERROR_AGENT_DOWNGRADE,     /* "agent_downgrade" */
  ADBSCOPE_ERROR_AGENT_SIGNATURE,     /* "agent_signature_mismatch" */
  ADBSCOPE_ERROR_DEVICE_STORAGE_FULL, /* "device_storage_full" */
  ADBSCOPE_ERROR_INSTALL_REJECTED,    /* "install_rejected" */
  ADBSCOPE_ERROR_SELFTEST_FAILED,     /* "selftest_failed" */
} AdbscopeErrorCode;

#define ADBSCOPE_ERROR_N_CODES (ADBSCOPE_ERROR_SELFTEST_FAILED + 1)

GQuark       adbscope_error_quark          (void);
const char  *adbscope_error_code_to_string (int          code);
const char  *adbscope_error_get_code_name  (const GError *error);

G_END_DECLS
