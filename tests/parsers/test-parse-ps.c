/* test-parse-ps.c: ps tables from three generations of Android ps */
#include "config.h"

#include "adbscope-parse-ps.h"
#include "parsers-test-util.h"

static gboolean
is_state (char c)
{
  return c != '\0' && strchr ("RSDTtZXxKWPI", c) != NULL;
}

static AdbscopePsRow *
find_row (AdbscopePsTable *t,
          int              pid,
          int              tid)
{
  guint i;

  for (i = 0; i < t->rows->len; i++)
    {
      AdbscopePsRow *r = g_ptr_array_index (t->rows, i);

      if (r->pid == pid && (tid < 0 || r->tid == tid))
        return r;
    }
  g_error ("no row for pid %d tid %d", pid, tid);
}

static void
test_ps_toybox_default (void)
{
  g_autofree char *text = fixture_read ("ps/android13-mtk-mt8168-tablet-ps-A.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, -1, &error);
  AdbscopePsRow *r;
  int c_addr, c_wchan;
  guint i;

  g_assert_no_error (error);
  g_assert_cmpuint (t->n_columns, ==, 9);
  g_assert_cmpstr (t->columns[8], ==, "NAME");
  g_assert_cmpuint (t->rows->len, ==, 343);
  g_assert_cmpuint (t->n_skipped, ==, 0);

  r = g_ptr_array_index (t->rows, 0);
  g_assert_cmpint (r->pid, ==, 1);
  g_assert_cmpint (r->ppid, ==, 0);
  g_assert_cmpint (r->tid, ==, -1);
  g_assert_cmpstr (r->user, ==, "root");
  g_assert_cmpint (r->vsz_kb, ==, 10937576);
  g_assert_cmpint (r->rss_kb, ==, 14648);
  g_assert_cmpint (r->state, ==, 'S');
  g_assert_cmpstr (r->name, ==, "init");
  g_assert_null (r->label);
  g_assert_cmpstr (((AdbscopePsRow *) g_ptr_array_index (t->rows, 1))->name, ==, "[kthreadd]");

  /* WCHAN longer than its column ("rcu_tasks_kthread") pushes ADDR right:
   * every row must still have ADDR 0 and a state letter. */
  c_addr = adbscope_ps_table_find_column (t, "ADDR");
  c_wchan = adbscope_ps_table_find_column (t, "wchan");
  g_assert_cmpint (c_addr, ==, 6);
  g_assert_cmpint (c_wchan, ==, 5);
  r = find_row (t, 10, -1);
  g_assert_cmpstr (r->fields[c_wchan], ==, "rcu_tasks_kthread");
  g_assert_cmpstr (r->name, ==, "[rcu_tasks_kthre]");
  for (i = 0; i < t->rows->len; i++)
    {
      r = g_ptr_array_index (t->rows, i);
      g_assert_cmpstr (r->fields[c_addr], ==, "0");
      g_assert_true (is_state (r->state));
      g_assert_cmpint (r->rss_kb, >=, 0);
      g_assert_cmpstr (r->name, !=, "");
    }
}

static void
test_ps_toybox_threads (void)
{
  g_autofree char *text = fixture_read ("ps/android13-mtk-mt8168-tablet-bugreport-ps-A-T-Z-O-threads.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, -1, &error);
  g_autoptr(GRegex) time_re = g_regex_new ("^[0-9]+:[0-9]{2}:[0-9]{2}$", 0, 0, NULL);
  int c_pcy, c_time, c_ni;
  guint i, blank_pcy = 0, render_threads_832 = 0;
  AdbscopePsRow *r;

  g_assert_no_error (error);
  g_assert_cmpuint (t->n_columns, ==, 17);
  g_assert_cmpstr (t->columns[16], ==, "CMD");
  g_assert_cmpuint (t->rows->len, ==, 1321);
  g_assert_cmpuint (t->n_skipped, ==, 0);
  c_pcy = adbscope_ps_table_find_column (t, "PCY");
  c_time = adbscope_ps_table_find_column (t, "TIME");
  c_ni = adbscope_ps_table_find_column (t, "NI");

  for (i = 0; i < t->rows->len; i++)
    {
      const char *pcy;

      r = g_ptr_array_index (t->rows, i);
      pcy = r->fields[c_pcy];
      g_assert_true (g_str_has_prefix (r->label, "u:r:"));
      g_assert_cmpint (r->tid, >=, r->pid);
      g_assert_true (is_state (r->state));
      g_assert_true (g_regex_match (time_re, r->fields[c_time], 0, NULL));
      g_assert_true (pcy[0] == '\0' || strlen (pcy) == 2);
      g_assert_cmpint (atoi (r->fields[c_ni]), >=, -20);
      if (pcy[0] == '\0')
        blank_pcy++;
      if (r->pid == 832 && g_str_equal (r->name, "RenderThread"))
        render_threads_832++;
    }
  /* 43 rows have no scheduling policy at all: the column is blank */
  g_assert_cmpuint (blank_pcy, ==, 43);
  g_assert_cmpuint (render_threads_832, ==, 2);

  r = find_row (t, 199, 199);
  g_assert_cmpstr (r->name, ==, "lmkd");
  g_assert_cmpstr (r->fields[c_pcy], ==, "");
  g_assert_cmpstr (r->fields[c_time], ==, "00:00:00");

  /* A label wider than its column pushes the row right. */
  r = find_row (t, 3064, 3072);
  g_assert_cmpstr (r->label, ==, "u:r:untrusted_app_30:s0:c77,c256,c512,c768");
  g_assert_cmpstr (r->user, ==, "u0_a77");
  g_assert_cmpint (r->ppid, ==, 428);
  g_assert_cmpint (r->rss_kb, ==, 133748);
  g_assert_cmpstr (r->fields[c_pcy], ==, "bg");
  g_assert_cmpstr (r->name, ==, "Signal Catcher");

  r = find_row (t, 7517, 7520);
  g_assert_cmpstr (r->fields[adbscope_ps_table_find_column (t, "WCHAN")], ==, "binder_wait_for_work");
  g_assert_cmpstr (r->fields[adbscope_ps_table_find_column (t, "PRI")], ==, "39");
  g_assert_cmpstr (r->name, ==, "dumpsys");

  /* thread names with blanks */
  r = find_row (t, 429, 2651);
  g_assert_cmpstr (r->name, ==, "Jit thread pool");
  r = find_row (t, 447, 2601);
  g_assert_cmpstr (r->name, ==, "POSIX timer 0");
}

static void
test_ps_legacy_toolbox (void)
{
  g_autofree char *text = fixture_read ("ps/ps-legacy-toolbox-samsung.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, -1, &error);
  AdbscopePsRow *r;
  int c_pc, c_wchan;
  guint i;

  g_assert_no_error (error);
  /* The state letter has no header: it gets an "S" column before NAME. */
  g_assert_cmpuint (t->n_columns, ==, 9);
  g_assert_cmpstr (t->columns[7], ==, "S");
  g_assert_cmpstr (t->columns[8], ==, "NAME");
  g_assert_cmpuint (t->rows->len, ==, 519);
  g_assert_cmpuint (t->n_skipped, ==, 0);
  c_pc = adbscope_ps_table_find_column (t, "PC");
  c_wchan = adbscope_ps_table_find_column (t, "WCHAN");

  r = g_ptr_array_index (t->rows, 0);
  g_assert_cmpint (r->pid, ==, 1);
  g_assert_cmpint (r->vsz_kb, ==, 30720);
  g_assert_cmpint (r->rss_kb, ==, 1432);
  g_assert_cmpstr (r->fields[c_wchan], ==, "SyS_epoll_");
  g_assert_cmpstr (r->fields[c_pc], ==, "0000000000");
  g_assert_cmpint (r->state, ==, 'S');
  g_assert_cmpstr (r->name, ==, "/init");

  r = find_row (t, 26035, -1);
  g_assert_cmpstr (r->user, ==, "shell");
  g_assert_cmpint (r->ppid, ==, 21946);
  g_assert_cmpstr (r->fields[c_wchan], ==, "0");
  g_assert_cmpint (r->state, ==, 'R');
  g_assert_cmpstr (r->name, ==, "ps");

  /* A user name wider than its column shifts the whole row. */
  r = find_row (t, 22398, -1);
  g_assert_cmpstr (r->user, ==, "wechatwifiservice");
  g_assert_cmpint (r->ppid, ==, 885);
  g_assert_cmpint (r->vsz_kb, ==, 1840932);
  g_assert_cmpint (r->rss_kb, ==, 75436);
  g_assert_cmpstr (r->name, ==, "com.samsung.android.wechatwifiservice");

  for (i = 0; i < t->rows->len; i++)
    {
      r = g_ptr_array_index (t->rows, i);
      g_assert_true (is_state (r->state));
      g_assert_cmpuint (strlen (r->fields[c_pc]), >=, 8);
      g_assert_cmpint (r->ppid, >=, 0);
      g_assert_cmpstr (r->name, !=, "");
    }
}

static void
test_ps_selected_columns (void)
{
  /* `ps -A -o PID,PPID,USER,NAME`: the collector's own format; a name with
   * blanks at the end of the line stays whole. */
  static const char text[] =
    "  PID  PPID USER           NAME\n"
    "    1     0 root           init\n"
    " 4024   600 u0_a241        com.example.app:remote\n"
    " 4031   600 u0_a241        Some App With Spaces\n";
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, -1, NULL);
  AdbscopePsRow *r;

  g_assert_nonnull (t);
  g_assert_cmpuint (t->rows->len, ==, 3);
  r = g_ptr_array_index (t->rows, 1);
  g_assert_cmpint (r->pid, ==, 4024);
  g_assert_cmpint (r->ppid, ==, 600);
  g_assert_cmpstr (r->user, ==, "u0_a241");
  g_assert_cmpstr (r->name, ==, "com.example.app:remote");
  g_assert_cmpint (r->rss_kb, ==, -1);
  g_assert_cmpint (r->state, ==, '\0');
  r = g_ptr_array_index (t->rows, 2);
  g_assert_cmpstr (r->name, ==, "Some App With Spaces");
}

/* @text's fork children are exactly @want (0-terminated), in order. */
static void
assert_fork_children (const char *text,
                      const int  *want)
{
  g_autoptr(AdbscopePsTable) t = adbscope_ps_parse (text, -1, NULL);
  guint n = 0;

  g_assert_nonnull (t);
  for (guint i = 0; i < t->rows->len; i++)
    {
      AdbscopePsRow *r = g_ptr_array_index (t->rows, i);

      if (!adbscope_ps_table_is_fork_child (t, r))
        continue;
      g_assert_cmpint (want[n], !=, 0);
      g_assert_cmpint (r->pid, ==, want[n]);
      n++;
    }
  g_assert_cmpint (want[n], ==, 0);
}

static void
test_ps_fork_children (void)
{
  /* The collector's own columns: an app that forked (a shell's child
   * before it execs keeps the parent's name), its :remote process, and a
   * child that already exec'd (another name). */
  static const char app[] =
    "  PID  PPID    RSS NAME\n"
    "  428     1 203652 zygote64\n"
    " 4000   428  91000 com.example.app\n"
    " 4050  4000   2100 com.example.app\n"
    " 4060   428  51000 com.example.app:remote\n"
    " 4070  4060   1800 com.example.app:remote\n"
    " 4071  4060    900 sleep\n"
    " 4080  4050    700 com.example.app\n";
  /* with -T the parent's threads are rows too: only its own counts */
  static const char threads[] =
    "USER           PID   TID  PPID     VSZ    RSS WCHAN            ADDR S CMD\n"
    "u0_a1         4000  4000   428 1000000  91000 0                   0 S com.example.app\n"
    "u0_a1         4000  4001   428 1000000  91000 0                   0 S RenderThread\n"
    "u0_a1         4002  4002  4000  900000   2000 0                   0 S RenderThread\n";
  static const char no_ppid[] =
    "  PID NAME\n"
    " 4000 com.example.app\n"
    " 4050 com.example.app\n";
  struct { const char *fixture; int pids[4]; } real[] = {
    /* checked by hand: init's second stage, netdiag's child */
    { "ps/android13-mtk-mt8168-tablet-ps-A.txt", { 167, 4127, 0 } },
    { "ps/ps-legacy-toolbox-samsung.txt", { 734, 0 } },
  };

  assert_fork_children (app, (const int[]) { 4050, 4070, 4080, 0 });
  assert_fork_children (threads, (const int[]) { 0 });
  assert_fork_children (no_ppid, (const int[]) { 0 });
  for (guint f = 0; f < G_N_ELEMENTS (real); f++)
    {
      g_autofree char *text = fixture_read (real[f].fixture, NULL);

      assert_fork_children (text, real[f].pids);
    }
}

static void
test_top_ansi (void)
{
  /* top without -b: escapes around the header and the first row. */
  gsize len = 0;
  g_autofree char *text = fixture_read ("other/top-n1-m10-toybox-with-ansi-escapes-emulator.txt", &len);
  g_autoptr(AdbscopePsTable) t = NULL;
  g_autoptr(GError) error = NULL;
  const char *header;
  gsize table_offset;
  AdbscopePsRow *r;

  len = adbscope_strip_ansi (text, len);
  g_assert_null (strchr (text, '\033'));
  g_assert_true (g_str_has_prefix (text, "Tasks: 449 total"));

  /* the process table starts at the "PID" header line */
  header = strstr (text, "  PID USER");
  g_assert_nonnull (header);
  table_offset = header - text;
  t = adbscope_ps_parse (text + table_offset, len - table_offset, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->columns[7], ==, "S");
  g_assert_cmpstr (t->columns[8], ==, "%CPU");
  g_assert_cmpuint (t->rows->len, ==, 10);
  g_assert_cmpuint (t->n_skipped, ==, 0);
  r = g_ptr_array_index (t->rows, 0);
  g_assert_cmpint (r->pid, ==, 4024);
  g_assert_cmpstr (r->user, ==, "shell");
  g_assert_cmpstr (r->name, ==, "top -n 1 -m 10");
  g_assert_cmpint (r->state, ==, 'R');
  g_assert_cmpstr (r->fields[8], ==, "3.8");
  g_assert_cmpint (r->rss_kb, ==, 5325); /* "5.2M" */
  g_assert_cmpint (r->vsz_kb, ==, 10 * 1024 * 1024); /* "10G" */
  r = g_ptr_array_index (t->rows, 4);
  g_assert_cmpint (r->pid, ==, 3794);
  g_assert_cmpstr (r->user, ==, "u0_a241");
  g_assert_cmpint (r->rss_kb, ==, 476 * 1024);
  g_assert_cmpstr (r->name, ==, "com.example.app+");
}

static void
test_top_legacy_toolbox (void)
{
  g_autofree char *text = fixture_read ("other/top-legacy-toolbox-header-and-rows-excerpt.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopePsTable) t = NULL;
  const char *header = strstr (text, "  PID PR");
  AdbscopePsRow *r;
  int c_cpu, c_pcy;

  g_assert_nonnull (header);
  t = adbscope_ps_parse (header, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->n_columns, ==, 10);
  g_assert_cmpuint (t->rows->len, >=, 3);
  g_assert_cmpuint (t->n_skipped, ==, 0);
  c_cpu = adbscope_ps_table_find_column (t, "CPU%");
  c_pcy = adbscope_ps_table_find_column (t, "PCY");

  r = g_ptr_array_index (t->rows, 0);
  g_assert_cmpint (r->pid, ==, 19269);
  g_assert_cmpstr (r->fields[c_cpu], ==, "25%");
  g_assert_cmpint (r->state, ==, 'S');
  g_assert_cmpint (r->vsz_kb, ==, 3323236);
  g_assert_cmpint (r->rss_kb, ==, 206268);
  g_assert_cmpstr (r->fields[c_pcy], ==, "fg");
  g_assert_cmpstr (r->user, ==, "u0_a98");
  g_assert_cmpstr (r->name, ==, "com.antutu.ABenchMark");
  r = g_ptr_array_index (t->rows, 2);
  g_assert_cmpint (r->pid, ==, 374);
  g_assert_cmpint (r->rss_kb, ==, 0);
  g_assert_cmpstr (r->name, ==, "msm_thermal:fre");
}

static void
test_ps_garbage (void)
{
  static const struct { const char *text; gssize len; } inputs[] = {
    { NULL, -1 },
    { "", -1 },
    { "\n  \n", -1 },
    { "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12 },
    { "lorem ipsum dolor\nsit amet\n", -1 },
    { "root 1 0 10937576 14648 do_epoll_wait 0 S init\n", -1 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("input %u", i);
      g_assert_null (adbscope_ps_parse (inputs[i].text, inputs[i].len, &error));
      assert_parse_error (error);
    }

  /* A truncated capture keeps its complete rows and counts the broken one. */
  {
    g_autoptr(AdbscopePsTable) t =
      adbscope_ps_parse ("USER PID PPID NAME\nroot 1 0 init\nroot xx", -1, NULL);

    g_assert_nonnull (t);
    g_assert_cmpuint (t->rows->len, ==, 1);
    g_assert_cmpuint (t->n_skipped, ==, 1);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ps/toybox-default", test_ps_toybox_default);
  g_test_add_func ("/ps/toybox-threads", test_ps_toybox_threads);
  g_test_add_func ("/ps/legacy-toolbox", test_ps_legacy_toolbox);
  g_test_add_func ("/ps/selected-columns", test_ps_selected_columns);
  g_test_add_func ("/ps/fork-children", test_ps_fork_children);
  g_test_add_func ("/ps/top-ansi", test_top_ansi);
  g_test_add_func ("/ps/top-legacy-toolbox", test_top_legacy_toolbox);
  g_test_add_func ("/ps/garbage", test_ps_garbage);

  return g_test_run ();
}
