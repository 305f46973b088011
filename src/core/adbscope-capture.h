/* adbscope-capture.h: one capture of the watched app's traffic — the agent started, linked, kept alive, stopped */
#pragma once

#include <gio/gio.h>

#include "adbscope-agent-link.h"
#include "adbscope-network.h"

G_BEGIN_DECLS

typedef enum
{
  ADBSCOPE_CAPTURE_IDLE,
  ADBSCOPE_CAPTURE_STARTING,   /* the agent is asked to start; the VPN consent may be on screen */
  ADBSCOPE_CAPTURE_RUNNING,
  ADBSCOPE_CAPTURE_STOPPING,
  ADBSCOPE_CAPTURE_FAILED,
} AdbscopeCaptureState;

#define ADBSCOPE_TYPE_CAPTURE (adbscope_capture_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeCapture, adbscope_capture, ADBSCOPE, CAPTURE, GObject)

AdbscopeCapture      *adbscope_capture_new            (const char          *serial,
                                                       const char          *package,
                                                       AdbscopeNetwork     *network);
/* Before start: stream the packets into @path as they arrive. */
gboolean              adbscope_capture_set_pcap_file  (AdbscopeCapture     *self,
                                                       const char          *path,
                                                       GError             **error);
const char           *adbscope_capture_get_pcap_file  (AdbscopeCapture     *self);
/* Before start: the agent makes its own test traffic to HOST:PORT
 * (`adbscope agent selftest`). */
void                  adbscope_capture_set_selftest   (AdbscopeCapture     *self,
                                                       const char          *host_port);
/* The random instance token given to the agent and required in its Hello. */
const char           *adbscope_capture_get_token      (AdbscopeCapture     *self);
/* Starts the agent for the package (it must be installed and current),
 * waits up to @timeout_ms for it to run (the user answers the VPN consent
 * on the phone meanwhile), then links to it.  While running, an agent that
 * dies is started again and the link reconnects; the gap is the network
 * model's. */
void                  adbscope_capture_start_async    (AdbscopeCapture     *self,
                                                       guint                timeout_ms,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean              adbscope_capture_start_finish   (AdbscopeCapture     *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Unlinks and stops the agent on the device. */
void                  adbscope_capture_stop_async     (AdbscopeCapture     *self,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean              adbscope_capture_stop_finish    (AdbscopeCapture     *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
AdbscopeCaptureState  adbscope_capture_get_state      (AdbscopeCapture     *self);
/* Why the capture failed (state FAILED), or NULL. */
const GError         *adbscope_capture_get_error      (AdbscopeCapture     *self);
AdbscopeAgentLink    *adbscope_capture_get_link       (AdbscopeCapture     *self);
AdbscopeNetwork      *adbscope_capture_get_network    (AdbscopeCapture     *self);

G_END_DECLS
