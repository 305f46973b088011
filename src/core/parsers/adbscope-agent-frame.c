/* adbscope-agent-frame.c: the agent's length-delimited frames
 *
 * Frame = base-128 varint with the size of the message, then the message
 * (protobuf's writeDelimitedTo).  The length is a 32-bit value in at most
 * five bytes; anything longer, or larger than ADBSCOPE_AGENT_FRAME_MAX, or a
 * message protobuf-c refuses, is malformed: the caller closes the stream.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "adbscope-agent-frame.h"
#include "adbscope-error.h"

#define MAX_VARINT_BYTES 5

void
adbscope_agent_message_free (AdbscopeAgentMessage *message)
{
  if (message != NULL)
    adbscope__agent__v1__agent_message__free_unpacked (message, NULL);
}

/* @consumed is set for MESSAGE only: the bytes of that frame.  @message
 * receives the unpacked message (free with adbscope_agent_message_free). */
AdbscopeAgentFrameResult
adbscope_agent_frame_decode (const guint8          *data,
                             gsize                  len,
                             gsize                 *consumed,
                             AdbscopeAgentMessage **message,
                             GError               **error)
{
  guint64 size = 0;
  gsize i;

  g_return_val_if_fail (data != NULL || len == 0, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_return_val_if_fail (consumed != NULL, ADBSCOPE_AGENT_FRAME_MALFORMED);
  g_return_val_if_fail (message != NULL && *message == NULL, ADBSCOPE_AGENT_FRAME_MALFORMED);

  for (i = 0; ; i++)
    {
      if (i == MAX_VARINT_BYTES)
        {
          g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                               _("Agent stream: the length of a frame is longer than 5 bytes"));
          return ADBSCOPE_AGENT_FRAME_MALFORMED;
        }
      if (i == len)
        return ADBSCOPE_AGENT_FRAME_NEED_MORE;
      size |= (guint64) (data[i] & 0x7f) << (7 * i);
      if ((data[i] & 0x80) == 0)
        break;
    }
  i++;

  if (size > ADBSCOPE_AGENT_FRAME_MAX)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("Agent stream: a frame of %.0f bytes is larger than the limit of %u"),
                   (double) size, ADBSCOPE_AGENT_FRAME_MAX);
      return ADBSCOPE_AGENT_FRAME_MALFORMED;
    }
  if (len - i < size)
    return ADBSCOPE_AGENT_FRAME_NEED_MORE;

  *message = adbscope__agent__v1__agent_message__unpack (NULL, (size_t) size, data + i);
  if (*message == NULL)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_PARSE,
                   _("Agent stream: a frame of %u bytes is not an agent message"), (guint) size);
      return ADBSCOPE_AGENT_FRAME_MALFORMED;
    }
  *consumed = i + (gsize) size;
  return ADBSCOPE_AGENT_FRAME_MESSAGE;
}
