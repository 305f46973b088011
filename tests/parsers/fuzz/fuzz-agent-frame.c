/* fuzz-agent-frame.c: the agent's frame decoder, whole buffer and in two
 * a prefix (its length is the first byte), as the link is fed */
#include "config.h"

#include <string.h>

#include "adbscope-agent-frame.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static guint
decode_all (const guint8 *data,
            gsize         len,
            gsize        *left)
{
  guint n = 0;
  gsize off = 0;

  for (;;)
    {
      AdbscopeAgentMessage *msg = NULL;
      gsize consumed = 0;
      AdbscopeAgentFrameResult r = adbscope_agent_frame_decode (data + off, len - off, &consumed, &msg, NULL);

      if (r != ADBSCOPE_AGENT_FRAME_MESSAGE)
        {
          g_assert (msg == NULL);
          break;
        }
      g_assert (msg != NULL && consumed > 0 && consumed <= len - off);
      adbscope_agent_message_free (msg);
      off += consumed;
      n++;
    }
  *left = len - off;
  return n;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  gsize left_whole, left_piece, cut;
  guint whole, piece;

  if (size == 0)
    return 0;
  whole = decode_all (data + 1, size - 1, &left_whole);
  /* The first piece alone yields at most the messages of the whole. */
  cut = MIN ((gsize) data[0], size - 1);
  piece = decode_all (data + 1, cut, &left_piece);
  g_assert (piece <= whole);
  return 0;
}
