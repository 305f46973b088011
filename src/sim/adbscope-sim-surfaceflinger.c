/* adbscope-sim-surfaceflinger.c: the simulated device's `dumpsys SurfaceFlinger`
 *
 * --list names the running apps' layers the way the profile's Android
 * release does: a window layer per app ("PKG/ACTIVITY#0"), and for the game
 * its SurfaceView: "SurfaceView - PKG/ACTIVITY#0" (Android 8) or, since
 * BLAST (12), a parent "SurfaceView[PKG/ACTIVITY]#0" that holds no buffers
 * and the child "SurfaceView[PKG/ACTIVITY](BLAST)#0" that does.
 * --latency LAYER prints the refresh period, then FrameTracker's 127 rows
 * (oldest first, unused rows 0, a frame not yet on screen INT64_MAX) from
 * the app's real frame loop (SANDBOX/state/PKG.state).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "adbscope-sim-app-state.h"
#include "adbscope-sim-private.h"

typedef enum
{
  LAYER_WINDOW,         /* the app's window: HWUI's frames */
  LAYER_SURFACE_VIEW,   /* the game's SurfaceView (its BLAST child since 12) */
  LAYER_EMPTY,          /* a container that holds no buffers */
} LayerRole;

static gint64
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static char *
activity (const char                *package,
          const AdbscopeSimAppState *st)
{
  return g_strdup_printf ("%s/%s.%s", package, package,
                          st != NULL && st->game ? "GameActivity" : "MainActivity");
}

/* Every layer of one app, with the role it plays. */
static void
app_layers (const AdbscopeSimProfile  *profile,
            const char                *package,
            const AdbscopeSimAppState *st,
            GPtrArray                 *names,
            GArray                    *roles)
{
  g_autofree char *act = activity (package, st);
  LayerRole role;

#define ADD(r, ...) G_STMT_START { \
    g_ptr_array_add (names, g_strdup_printf (__VA_ARGS__)); role = (r); g_array_append_val (roles, role); \
  } G_STMT_END

  if (st != NULL && st->game)
    {
      if (profile->format >= ADBSCOPE_SIM_FORMAT_ANDROID_13)
        {
          ADD (LAYER_EMPTY, "SurfaceView[%s]#0", act);
          ADD (LAYER_SURFACE_VIEW, "SurfaceView[%s](BLAST)#0", act);
          ADD (LAYER_EMPTY, "Background for SurfaceView[%s]#0", act);
        }
      else
        ADD (LAYER_SURFACE_VIEW, "SurfaceView - %s#0", act);
      /* The game's own window draws nothing after its first frame. */
      ADD (LAYER_EMPTY, "%s#0", act);
    }
  else
    ADD (st != NULL ? LAYER_WINDOW : LAYER_EMPTY, "%s#0", act);
#undef ADD
}

static void
print_latency (const AdbscopeSimAppState *st,
               LayerRole                  role)
{
  gint64 now = monotonic_ns ();
  gint64 n = st != NULL && role != LAYER_EMPTY ? (gint64) st->sf_presented : 0;

  for (gint64 i = n - (ADBSCOPE_SIM_SF_RING - 1); i < n; i++)
    {
      const AdbscopeSimSfFrame *f;

      if (i < 0)
        {
          printf ("0\t0\t0\n");
          continue;
        }
      f = &st->sf_frames[i % ADBSCOPE_SIM_SF_RING];
      if (f->actual_present > now)
        printf ("%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n",
                f->desired_present, G_MAXINT64, f->frame_ready > now ? G_MAXINT64 : f->frame_ready);
      else
        printf ("%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n",
                f->desired_present, f->actual_present, f->frame_ready);
    }
  printf ("\n");
}

/* running: the packages with a live process. */
int
adbscope_sim_surfaceflinger_dump (const AdbscopeSimProfile *profile,
                                  const char               *sandbox,
                                  const char * const       *running,
                                  int                       argc,
                                  char                    **argv)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) roles = g_array_new (FALSE, FALSE, sizeof (LayerRole));
  g_autoptr(GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree AdbscopeSimAppState *states = NULL;
  guint n_running = running != NULL ? g_strv_length ((char **) running) : 0;
  g_autofree gboolean *have = g_new0 (gboolean, n_running + 1);

  states = g_new0 (AdbscopeSimAppState, n_running + 1);
  for (guint i = 0; i < n_running; i++)
    {
      guint before = names->len;

      have[i] = adbscope_sim_app_state_read (sandbox, running[i], &states[i]);
      app_layers (profile, running[i], have[i] ? &states[i] : NULL, names, roles);
      for (guint j = before; j < names->len; j++)
        g_array_append_val (owners, i);
    }

  if (argc >= 1 && g_str_equal (argv[0], "--list"))
    {
      for (guint i = 0; i < names->len; i++)
        printf ("%s\n", (char *) g_ptr_array_index (names, i));
      printf ("StatusBar#0\nNavigationBar0#0\n");
      return 0;
    }
  if (argc >= 1 && g_str_equal (argv[0], "--latency"))
    {
      /* The refresh period first, always; rows only for a known layer. */
      printf ("%" G_GINT64_FORMAT "\n", (gint64) (1000000000.0 / profile->refresh_hz + 0.5));
      for (guint i = 0; argc >= 2 && i < names->len; i++)
        if (g_str_equal (argv[1], g_ptr_array_index (names, i)))
          {
            guint owner = g_array_index (owners, guint, i);

            print_latency (have[owner] ? &states[owner] : NULL, g_array_index (roles, LayerRole, i));
            break;
          }
      return 0;
    }
  return 0;
}
