/* adbscope-thread-list.c: the app's live threads as a GListModel
 *
 * One AdbscopeThread per tid for as long as the thread lives: a row in a
 * GtkColumnView keeps its selection and scroll position while the numbers
 * change in place, and each tick says what changed with one items-changed.
 */
#include "config.h"

#include "adbscope-thread-list.h"
#include "adbscope-thread.h"

struct _AdbscopeThreadList
{
  GObject    parent_instance;
  GPtrArray *items;
};

static GType
thread_list_get_item_type (GListModel *model)
{
  return ADBSCOPE_TYPE_THREAD;
}

static guint
thread_list_get_n_items (GListModel *model)
{
  return ADBSCOPE_THREAD_LIST (model)->items->len;
}

static gpointer
thread_list_get_item (GListModel *model,
                      guint       position)
{
  AdbscopeThreadList *self = ADBSCOPE_THREAD_LIST (model);

  return position < self->items->len ? g_object_ref (g_ptr_array_index (self->items, position)) : NULL;
}

static void
thread_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = thread_list_get_item_type;
  iface->get_n_items = thread_list_get_n_items;
  iface->get_item = thread_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AdbscopeThreadList, adbscope_thread_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, thread_list_iface_init))

static void
adbscope_thread_list_finalize (GObject *object)
{
  g_ptr_array_unref (ADBSCOPE_THREAD_LIST (object)->items);
  G_OBJECT_CLASS (adbscope_thread_list_parent_class)->finalize (object);
}

static void
adbscope_thread_list_class_init (AdbscopeThreadListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = adbscope_thread_list_finalize;
}

static void
adbscope_thread_list_init (AdbscopeThreadList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * adbscope_thread_list_apply:
 * @usage: (element-type AdbscopeThreadUsage): this interval's threads
 *
 * Updates in place, drops the threads that ended, appends new ones, and
 * says so with one items-changed covering the first change to the end.
 */
void
adbscope_thread_list_apply (AdbscopeThreadList *self,
                            const GArray       *usage)
{
  g_autoptr(GHashTable) by_tid = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) kept = g_hash_table_new (NULL, NULL);
  guint old_len = self->items->len;
  guint first_change = G_MAXUINT;
  guint w = 0;

  for (guint i = 0; i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);
      g_hash_table_insert (by_tid, GINT_TO_POINTER (u->tid), (gpointer) u);
    }

  for (guint r = 0; r < self->items->len; r++)
    {
      AdbscopeThread *t = g_ptr_array_index (self->items, r);
      const AdbscopeThreadUsage *u = g_hash_table_lookup (by_tid, GINT_TO_POINTER (adbscope_thread_get_tid (t)));

      if (u == NULL)
        {
          if (first_change == G_MAXUINT)
            first_change = w;
          g_object_unref (t);
          continue;
        }
      adbscope_thread_set_name (t, u->comm);
      adbscope_thread_set_cpu_pct (t, u->pct);
      g_hash_table_add (kept, GINT_TO_POINTER (u->tid));
      self->items->pdata[w++] = t;
    }
  self->items->len = w;   /* the removed ones were unreffed above */

  for (guint i = 0; i < usage->len; i++)
    {
      const AdbscopeThreadUsage *u = &g_array_index (usage, AdbscopeThreadUsage, i);
      AdbscopeThread *t;

      if (g_hash_table_contains (kept, GINT_TO_POINTER (u->tid)))
        continue;
      if (first_change == G_MAXUINT)
        first_change = self->items->len;
      t = adbscope_thread_new (u->tid, u->comm);
      adbscope_thread_set_cpu_pct (t, u->pct);
      g_ptr_array_add (self->items, t);
    }

  if (first_change != G_MAXUINT)
    g_list_model_items_changed (G_LIST_MODEL (self), first_change,
                                old_len - first_change, self->items->len - first_change);
}

void
adbscope_thread_list_clear (AdbscopeThreadList *self)
{
  guint n = self->items->len;

  if (n == 0)
    return;
  g_ptr_array_set_size (self->items, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

AdbscopeThreadList *
adbscope_thread_list_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_THREAD_LIST, NULL);
}
