/* fuzz-control.c: the record's control requests (method, path,
 * Authorization, body) as adbscope_control_request_parse() reads them.
 * Input: three lines (method, path, header), then the body. */
#include "config.h"

#include <string.h>

#include "adbscope-control-request.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *
take_line (const char **p,
           const char  *end)
{
  const char *nl = memchr (*p, '\n', (size_t) (end - *p));
  char *line;

  if (nl == NULL)
    nl = end;
  line = g_strndup (*p, (gsize) (nl - *p));
  *p = nl < end ? nl + 1 : end;
  return line;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const char *p = (const char *) data, *end = p + size;
  g_autofree char *method = take_line (&p, end);
  g_autofree char *path = take_line (&p, end);
  g_autofree char *auth = take_line (&p, end);
  g_autoptr(AdbscopeControlRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 0;

  request = adbscope_control_request_parse (method, path, auth, "0123456789abcdef",
                                            p, (gsize) (end - p), &status, &error);
  if (request != NULL)
    {
      g_assert (status == 200 && error == NULL);
      g_assert (request->command == ADBSCOPE_CONTROL_STOP || request->label != NULL);
      if (request->label != NULL)
        g_assert (strlen (request->label) <= ADBSCOPE_MARKER_MAX_LABEL &&
                  g_utf8_validate (request->label, -1, NULL));
    }
  else
    g_assert (error != NULL && status >= 400 && status < 500);
  return 0;
}
