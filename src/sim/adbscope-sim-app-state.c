/* adbscope-sim-app-state.c: a consistent copy of a demo app's shared state */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adbscope-sim-app-state.h"

/* SANDBOX/state/PKG.state through its sequence counter, or FALSE. */
gboolean
adbscope_sim_app_state_read (const char          *sandbox,
                             const char          *package,
                             AdbscopeSimAppState *out)
{
  g_autofree char *name = g_strconcat (package, ".state", NULL);
  g_autofree char *path = g_build_filename (sandbox, "state", name, NULL);
  AdbscopeSimAppState *map;
  gboolean ok = FALSE;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;

  if (fd < 0)
    return FALSE;
  /* An older app's smaller file is not this layout. */
  if (fstat (fd, &st) != 0 || (gsize) st.st_size < sizeof *map)
    {
      close (fd);
      return FALSE;
    }
  map = mmap (NULL, sizeof *map, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return FALSE;
  for (int attempt = 0; attempt < 1000 && !ok; attempt++)
    {
      guint32 s1 = __atomic_load_n (&map->seq, __ATOMIC_ACQUIRE);

      if (s1 & 1)
        {
          g_usleep (50);
          continue;
        }
      memcpy (out, map, sizeof *out);
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      ok = __atomic_load_n (&map->seq, __ATOMIC_ACQUIRE) == s1;
    }
  munmap (map, sizeof *map);
  return ok && out->magic == ADBSCOPE_SIM_APP_STATE_MAGIC && out->version == ADBSCOPE_SIM_APP_STATE_VERSION;
}
