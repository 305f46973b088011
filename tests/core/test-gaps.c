/* Gaps from sample times: the session's live logic (watchdog and samples)
 * on a synthetic time sequence, against the rule applied to the times
 * themselves.  A gap runs from one sample to the next, never contains a
 * sample and never overlaps another. */
#include "config.h"

#include "adbscope-core.h"
#include "adbscope-session-private.h"

#define MS 1000

typedef struct
{
  char   what;   /* 's': a sample stamped at t; 'w': the watchdog looks at t */
  gint64 t;
} Event;

static void
check_gaps (const GArray *gaps,
            const gint64 *times,
            guint         n)
{
  for (guint i = 0; i < gaps->len; i++)
    {
      const AdbscopeGap *g = &g_array_index (gaps, AdbscopeGap, i);
      gboolean start_is_sample = FALSE, end_is_sample = FALSE;

      g_assert_cmpint (g->end_us, >, g->start_us);
      for (guint k = 0; k < n; k++)
        {
          g_assert_false (times[k] > g->start_us && times[k] < g->end_us);
          start_is_sample |= times[k] == g->start_us;
          end_is_sample |= times[k] == g->end_us;
        }
      g_assert_true (start_is_sample);
      g_assert_true (end_is_sample);
      if (i > 0)
        g_assert_cmpint (g->start_us, >=, g_array_index (gaps, AdbscopeGap, i - 1).end_us);
    }
}

static void
test_gaps_live (void)
{
  /* 100 ms interval: a gap is 300 ms or more between two samples. */
  static const Event events[] = {
    { 's', 1000 * MS }, { 'w', 1100 * MS }, { 's', 1090 * MS }, { 's', 1200 * MS },
    /* a stall: the watchdog opens a gap at 1500, the next sample is at 2400 */
    { 'w', 1400 * MS }, { 'w', 1500 * MS }, { 'w', 1600 * MS }, { 's', 2400 * MS },
    /* a slow answer: the watchdog opened a gap at 2710 while the sample
     * stamped 2650 (the middle of its round trip) was under way: no gap */
    { 'w', 2710 * MS }, { 's', 2650 * MS },
    /* exactly three intervals, before the watchdog looked */
    { 's', 2950 * MS },
    /* 299 ms: not a gap, though the watchdog looked late */
    { 's', 3249 * MS }, { 'w', 3600 * MS }, { 's', 3548 * MS },
    /* a second stall */
    { 's', 3600 * MS }, { 'w', 4000 * MS }, { 's', 5000 * MS }, { 's', 5100 * MS },
  };
  g_autoptr(AdbscopeSession) session = adbscope_session_new ("emulator-5554", "io.github.adbscope.demo");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) truth = NULL;
  const GArray *gaps;

  adbscope_session_set_interval (session, 100);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      if (events[i].what == 'w')
        _adbscope_session_gap_check (session, events[i].t);
      else
        {
          _adbscope_session_gap_sample (session, events[i].t);
          g_array_append_val (times, events[i].t);
        }
    }
  gaps = adbscope_session_get_gaps (session);
  truth = adbscope_gaps_find ((const gint64 *) (gpointer) times->data, times->len, 100);
  for (guint i = 0; i < gaps->len; i++)
    g_test_message ("gap %.3f → %.3f s", g_array_index (gaps, AdbscopeGap, i).start_us / 1e6,
                    g_array_index (gaps, AdbscopeGap, i).end_us / 1e6);
  g_assert_cmpuint (truth->len, ==, 3);
  g_assert_cmpuint (gaps->len, ==, truth->len);
  for (guint i = 0; i < gaps->len; i++)
    {
      g_assert_cmpint (g_array_index (gaps, AdbscopeGap, i).start_us, ==, g_array_index (truth, AdbscopeGap, i).start_us);
      g_assert_cmpint (g_array_index (gaps, AdbscopeGap, i).end_us, ==, g_array_index (truth, AdbscopeGap, i).end_us);
    }
  check_gaps (gaps, (const gint64 *) (gpointer) times->data, times->len);
}

/* The rule itself: three intervals or more. */
static void
test_gap_rule (void)
{
  g_assert_false (adbscope_gap_between (0, 299999, 100));
  g_assert_true (adbscope_gap_between (0, 300000, 100));
  g_assert_false (adbscope_gap_between (0, 2999999, 1000));
  g_assert_true (adbscope_gap_between (0, 3000000, 1000));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gaps/rule", test_gap_rule);
  g_test_add_func ("/gaps/live", test_gaps_live);
  return g_test_run ();
}
