/* adbscope-agent-frame.h: the agent's length-delimited frames (docs/agent-protocol.md)
 *
 * A pure, incremental decoder: give it the bytes received so far, it says
 * whether a whole frame is there (and unpacks it), more bytes are needed,
 * or the stream is malformed (and can never become valid again).
 */
#pragma once

#include <glib.h>

#include "agent.pb-c.h"

G_BEGIN_DECLS

typedef Adbscope__Agent__V1__AgentMessage AdbscopeAgentMessage;

/* Larger than any snapshot the agent sends (at most 1024 connections and 512
 * lookups); a bigger length prefix means the stream is not ours. */
#define ADBSCOPE_AGENT_FRAME_MAX (16u * 1024 * 1024)

typedef enum
{
  ADBSCOPE_AGENT_FRAME_NEED_MORE,
  ADBSCOPE_AGENT_FRAME_MESSAGE,
  ADBSCOPE_AGENT_FRAME_MALFORMED,
} AdbscopeAgentFrameResult;

AdbscopeAgentFrameResult adbscope_agent_frame_decode (const guint8          *data,
                                                      gsize                  len,
                                                      gsize                 *consumed,
                                                      AdbscopeAgentMessage **message,
                                                      GError               **error);
void                     adbscope_agent_message_free (AdbscopeAgentMessage  *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeAgentMessage, adbscope_agent_message_free)

G_END_DECLS
