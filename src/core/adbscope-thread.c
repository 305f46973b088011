/* adbscope-thread.c */
#include "config.h"

#include <math.h>

#include "adbscope-thread.h"

struct _AdbscopeThread
{
  GObject  parent_instance;
  int      tid;
  char    *name;
  char    *process;
  double   cpu_pct;       /* % of one core; NaN until a delta exists */
  double   max_cpu_pct;
};

G_DEFINE_FINAL_TYPE (AdbscopeThread, adbscope_thread, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TID,
  PROP_NAME,
  PROP_CPU_PCT,
  PROP_MAX_CPU_PCT,
  PROP_PROCESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

int
adbscope_thread_get_tid (AdbscopeThread *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_THREAD (self), -1);
  return self->tid;
}

const char *
adbscope_thread_get_name (AdbscopeThread *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_THREAD (self), NULL);
  return self->name;
}

void
adbscope_thread_set_name (AdbscopeThread *self,
                          const char     *name)
{
  g_return_if_fail (ADBSCOPE_IS_THREAD (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

double
adbscope_thread_get_cpu_pct (AdbscopeThread *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_THREAD (self), NAN);
  return self->cpu_pct;
}

double
adbscope_thread_get_max_cpu_pct (AdbscopeThread *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_THREAD (self), NAN);
  return self->max_cpu_pct;
}

void
adbscope_thread_set_cpu_pct (AdbscopeThread *self,
                             double          pct)
{
  g_return_if_fail (ADBSCOPE_IS_THREAD (self));

  if (self->cpu_pct == pct || (isnan (self->cpu_pct) && isnan (pct)))
    return;
  self->cpu_pct = pct;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CPU_PCT]);
  if (isfinite (pct) && !(pct <= self->max_cpu_pct))
    {
      self->max_cpu_pct = pct;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CPU_PCT]);
    }
}

/* The process (by name) the thread belongs to, or NULL. */
const char *
adbscope_thread_get_process (AdbscopeThread *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_THREAD (self), NULL);
  return self->process;
}

void
adbscope_thread_set_process (AdbscopeThread *self,
                             const char     *process)
{
  g_return_if_fail (ADBSCOPE_IS_THREAD (self));

  if (g_strcmp0 (self->process, process) == 0)
    return;
  g_free (self->process);
  self->process = g_strdup (process);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROCESS]);
}

static void
adbscope_thread_finalize (GObject *object)
{
  g_free (ADBSCOPE_THREAD (object)->name);
  g_free (ADBSCOPE_THREAD (object)->process);
  G_OBJECT_CLASS (adbscope_thread_parent_class)->finalize (object);
}

static void
adbscope_thread_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AdbscopeThread *self = ADBSCOPE_THREAD (object);

  switch (prop_id)
    {
    case PROP_TID: g_value_set_int (value, self->tid); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_CPU_PCT: g_value_set_double (value, self->cpu_pct); break;
    case PROP_MAX_CPU_PCT: g_value_set_double (value, self->max_cpu_pct); break;
    case PROP_PROCESS: g_value_set_string (value, self->process); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_thread_class_init (AdbscopeThreadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = adbscope_thread_finalize;
  object_class->get_property = adbscope_thread_get_property;

  properties[PROP_TID] = g_param_spec_int ("tid", NULL, NULL, 0, G_MAXINT, 0, ro);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, ro);
  properties[PROP_CPU_PCT] = g_param_spec_double ("cpu-pct", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  properties[PROP_MAX_CPU_PCT] = g_param_spec_double ("max-cpu-pct", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, ro);
  /* the app's process it runs in: "PKG" or "PKG:remote" */
  properties[PROP_PROCESS] = g_param_spec_string ("process", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_thread_init (AdbscopeThread *self)
{
  self->cpu_pct = NAN;
  self->max_cpu_pct = NAN;
}

AdbscopeThread *
adbscope_thread_new (int         tid,
                     const char *name)
{
  AdbscopeThread *self = g_object_new (ADBSCOPE_TYPE_THREAD, NULL);

  self->tid = tid;
  self->name = g_strdup (name);
  return self;
}
