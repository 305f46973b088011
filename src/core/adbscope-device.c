/* adbscope-device.c */
#include "config.h"

#include "adbscope-device.h"

struct _AdbscopeDevice
{
  GObject              parent_instance;
  char                *serial;
  AdbscopeDeviceState  state;
  char                *state_text;
  char                *model;
  char                *product;
  char                *device_name;
  char                *transport;
  gint64               transport_id;
};

G_DEFINE_FINAL_TYPE (AdbscopeDevice, adbscope_device, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (AdbscopeDeviceState, adbscope_device_state,
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_UNKNOWN, "unknown"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_DEVICE, "device"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_UNAUTHORIZED, "unauthorized"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_AUTHORIZING, "authorizing"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_OFFLINE, "offline"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_NO_PERMISSIONS, "no-permissions"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_RECOVERY, "recovery"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_SIDELOAD, "sideload"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_BOOTLOADER, "bootloader"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_HOST, "host"),
  G_DEFINE_ENUM_VALUE (ADBSCOPE_DEVICE_STATE_CONNECTING, "connecting"))

enum {
  PROP_0,
  PROP_SERIAL,
  PROP_STATE,
  PROP_STATE_TEXT,
  PROP_MODEL,
  PROP_PRODUCT,
  PROP_DEVICE_NAME,
  PROP_TRANSPORT,
  PROP_TRANSPORT_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
set_string (AdbscopeDevice  *self,
            char           **field,
            const char      *value,
            guint            prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

/* Applies a fresh listing; returns TRUE when anything changed.  A short
 * listing (plain `adb devices`, or a device that is offline) has no model:
 * the last known one is kept rather than blanked.
 */
gboolean
adbscope_device_update (AdbscopeDevice           *self,
                        const AdbscopeDeviceInfo *info)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), FALSE);
  g_return_val_if_fail (g_strcmp0 (info->serial, self->serial) == 0, FALSE);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->state != info->state)
    {
      self->state = info->state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
      changed = TRUE;
    }
  changed |= set_string (self, &self->state_text, info->state_text, PROP_STATE_TEXT);
  if (info->model != NULL)
    changed |= set_string (self, &self->model, info->model, PROP_MODEL);
  if (info->product != NULL)
    changed |= set_string (self, &self->product, info->product, PROP_PRODUCT);
  if (info->device != NULL)
    changed |= set_string (self, &self->device_name, info->device, PROP_DEVICE_NAME);
  changed |= set_string (self, &self->transport,
                         adbscope_device_transport_kind (info->serial, info->usb), PROP_TRANSPORT);
  if (info->transport_id >= 0 && info->transport_id != self->transport_id)
    {
      self->transport_id = info->transport_id;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSPORT_ID]);
      changed = TRUE;
    }
  g_object_thaw_notify (G_OBJECT (self));
  return changed;
}

const char *
adbscope_device_get_serial (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->serial;
}

AdbscopeDeviceState
adbscope_device_get_state (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), ADBSCOPE_DEVICE_STATE_UNKNOWN);
  return self->state;
}

const char *
adbscope_device_get_state_text (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->state_text;
}

const char *
adbscope_device_get_model (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->model;
}

const char *
adbscope_device_get_product (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->product;
}

const char *
adbscope_device_get_device_name (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->device_name;
}

const char *
adbscope_device_get_transport (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  return self->transport;
}

gint64
adbscope_device_get_transport_id (AdbscopeDevice *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), -1);
  return self->transport_id;
}

/* adb prints the model with underscores for spaces ("Nexus_6"). */
char *
adbscope_device_dup_display_name (AdbscopeDevice *self)
{
  char *name;

  g_return_val_if_fail (ADBSCOPE_IS_DEVICE (self), NULL);
  if (self->model == NULL)
    return g_strdup (self->serial);
  name = g_strdup (self->model);
  g_strdelimit (name, "_", ' ');
  return name;
}

static void
adbscope_device_finalize (GObject *object)
{
  AdbscopeDevice *self = ADBSCOPE_DEVICE (object);

  g_free (self->serial);
  g_free (self->state_text);
  g_free (self->model);
  g_free (self->product);
  g_free (self->device_name);
  g_free (self->transport);
  G_OBJECT_CLASS (adbscope_device_parent_class)->finalize (object);
}

static void
adbscope_device_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AdbscopeDevice *self = ADBSCOPE_DEVICE (object);

  switch (prop_id)
    {
    case PROP_SERIAL: g_value_set_string (value, self->serial); break;
    case PROP_STATE: g_value_set_enum (value, self->state); break;
    case PROP_STATE_TEXT: g_value_set_string (value, self->state_text); break;
    case PROP_MODEL: g_value_set_string (value, self->model); break;
    case PROP_PRODUCT: g_value_set_string (value, self->product); break;
    case PROP_DEVICE_NAME: g_value_set_string (value, self->device_name); break;
    case PROP_TRANSPORT: g_value_set_string (value, self->transport); break;
    case PROP_TRANSPORT_ID: g_value_set_int64 (value, self->transport_id); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_device_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AdbscopeDevice *self = ADBSCOPE_DEVICE (object);

  switch (prop_id)
    {
    case PROP_SERIAL: self->serial = g_value_dup_string (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_device_class_init (AdbscopeDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = adbscope_device_finalize;
  object_class->get_property = adbscope_device_get_property;
  object_class->set_property = adbscope_device_set_property;

  properties[PROP_SERIAL] =
    g_param_spec_string ("serial", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, ADBSCOPE_TYPE_DEVICE_STATE,
                       ADBSCOPE_DEVICE_STATE_UNKNOWN, ro);
  properties[PROP_STATE_TEXT] = g_param_spec_string ("state-text", NULL, NULL, NULL, ro);
  properties[PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL, ro);
  properties[PROP_PRODUCT] = g_param_spec_string ("product", NULL, NULL, NULL, ro);
  properties[PROP_DEVICE_NAME] = g_param_spec_string ("device-name", NULL, NULL, NULL, ro);
  properties[PROP_TRANSPORT] = g_param_spec_string ("transport", NULL, NULL, NULL, ro);
  properties[PROP_TRANSPORT_ID] =
    g_param_spec_int64 ("transport-id", NULL, NULL, -1, G_MAXINT64, -1, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_device_init (AdbscopeDevice *self)
{
  self->transport_id = -1;
}

AdbscopeDevice *
adbscope_device_new (const char *serial)
{
  return g_object_new (ADBSCOPE_TYPE_DEVICE, "serial", serial, NULL);
}
