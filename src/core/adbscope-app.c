/* adbscope-app.c */
#include "config.h"

#include "adbscope-app.h"

struct _AdbscopeApp
{
  GObject   parent_instance;
  char     *package;
  char     *label;        /* NULL until known */
  char     *apk_path;     /* on the device (pm list packages -f), or NULL */
  char     *icon;         /* a PNG in the cache, NULL until known or when none */
  int       pid;          /* 0 when not running */
  gboolean  third_party;
};

G_DEFINE_FINAL_TYPE (AdbscopeApp, adbscope_app, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PACKAGE,
  PROP_LABEL,
  PROP_PID,
  PROP_RUNNING,
  PROP_THIRD_PARTY,
  PROP_DISPLAY_NAME,
  PROP_APK_PATH,
  PROP_ICON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
adbscope_app_get_package (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), NULL);
  return self->package;
}

const char *
adbscope_app_get_label (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), NULL);
  return self->label;
}

void
adbscope_app_set_label (AdbscopeApp *self,
                        const char  *label)
{
  g_return_if_fail (ADBSCOPE_IS_APP (self));

  if (g_strcmp0 (self->label, label) == 0)
    return;
  g_free (self->label);
  self->label = g_strdup (label);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_NAME]);
}

const char *
adbscope_app_get_apk_path (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), NULL);
  return self->apk_path;
}

void
adbscope_app_set_apk_path (AdbscopeApp *self,
                           const char  *apk_path)
{
  g_return_if_fail (ADBSCOPE_IS_APP (self));

  if (g_strcmp0 (self->apk_path, apk_path) == 0)
    return;
  g_free (self->apk_path);
  self->apk_path = g_strdup (apk_path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_APK_PATH]);
}

const char *
adbscope_app_get_icon (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), NULL);
  return self->icon;
}

void
adbscope_app_set_icon (AdbscopeApp *self,
                       const char  *icon)
{
  g_return_if_fail (ADBSCOPE_IS_APP (self));

  if (g_strcmp0 (self->icon, icon) == 0)
    return;
  g_free (self->icon);
  self->icon = g_strdup (icon);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON]);
}

int
adbscope_app_get_pid (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), 0);
  return self->pid;
}

void
adbscope_app_set_pid (AdbscopeApp *self,
                      int          pid)
{
  gboolean was_running;

  g_return_if_fail (ADBSCOPE_IS_APP (self));

  pid = MAX (pid, 0);
  if (self->pid == pid)
    return;
  was_running = self->pid > 0;
  self->pid = pid;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PID]);
  if (was_running != (pid > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

gboolean
adbscope_app_get_running (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), FALSE);
  return self->pid > 0;
}

gboolean
adbscope_app_get_third_party (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), FALSE);
  return self->third_party;
}

void
adbscope_app_set_third_party (AdbscopeApp *self,
                              gboolean     third_party)
{
  g_return_if_fail (ADBSCOPE_IS_APP (self));

  third_party = !!third_party;
  if (self->third_party == third_party)
    return;
  self->third_party = third_party;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THIRD_PARTY]);
}

/* The label when known, else the package name. */
char *
adbscope_app_dup_display_name (AdbscopeApp *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_APP (self), NULL);
  return g_strdup (self->label != NULL && *self->label != '\0' ? self->label : self->package);
}

static void
adbscope_app_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AdbscopeApp *self = ADBSCOPE_APP (object);

  switch (prop_id)
    {
    case PROP_PACKAGE:
      g_value_set_string (value, self->package);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->pid > 0);
      break;
    case PROP_THIRD_PARTY:
      g_value_set_boolean (value, self->third_party);
      break;
    case PROP_DISPLAY_NAME:
      g_value_take_string (value, adbscope_app_dup_display_name (self));
      break;
    case PROP_APK_PATH:
      g_value_set_string (value, self->apk_path);
      break;
    case PROP_ICON:
      g_value_set_string (value, self->icon);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_app_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  AdbscopeApp *self = ADBSCOPE_APP (object);

  switch (prop_id)
    {
    case PROP_PACKAGE:
      self->package = g_value_dup_string (value);
      break;
    case PROP_LABEL:
      adbscope_app_set_label (self, g_value_get_string (value));
      break;
    case PROP_PID:
      adbscope_app_set_pid (self, g_value_get_int (value));
      break;
    case PROP_THIRD_PARTY:
      adbscope_app_set_third_party (self, g_value_get_boolean (value));
      break;
    case PROP_APK_PATH:
      adbscope_app_set_apk_path (self, g_value_get_string (value));
      break;
    case PROP_ICON:
      adbscope_app_set_icon (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_app_finalize (GObject *object)
{
  AdbscopeApp *self = ADBSCOPE_APP (object);

  g_free (self->package);
  g_free (self->label);
  g_free (self->apk_path);
  g_free (self->icon);
  G_OBJECT_CLASS (adbscope_app_parent_class)->finalize (object);
}

static void
adbscope_app_class_init (AdbscopeAppClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = adbscope_app_get_property;
  object_class->set_property = adbscope_app_set_property;
  object_class->finalize = adbscope_app_finalize;

  properties[PROP_PACKAGE] =
    g_param_spec_string ("package", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PID] =
    g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_THIRD_PARTY] =
    g_param_spec_boolean ("third-party", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_APK_PATH] =
    g_param_spec_string ("apk-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON] =
    g_param_spec_string ("icon", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_app_init (AdbscopeApp *self)
{
}

AdbscopeApp *
adbscope_app_new (const char *package)
{
  g_return_val_if_fail (package != NULL, NULL);
  return g_object_new (ADBSCOPE_TYPE_APP, "package", package, NULL);
}
