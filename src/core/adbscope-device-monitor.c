/* adbscope-device-monitor.c: a live GListModel of AdbscopeDevice
 *
 * Two sources keep it current: `adb track-devices` pushes connects and
 * disconnects at once, and a periodic `adb devices -l` is the backstop,
 * because adb 29's track-devices does not push a TCP device going offline
 * (notes/adb-transport.md §3).  Each track-devices message triggers a
 * `devices -l` so items get their model and transport details.
 *
 * Items keep their identity (key → item, update in place, append new,
 * drop missing), so a selected row stays selected across updates.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "adbscope-adb.h"
#include "adbscope-adb-parse.h"
#include "adbscope-device-monitor.h"
#include "adbscope-error.h"
#include "adbscope-device-monitor-private.h"

#define DEFAULT_POLL_MS     3000
#define TRACK_RESTART_MS    1000

struct _AdbscopeDeviceMonitor
{
  GObject       parent_instance;

  GPtrArray    *items;
  GError       *error;
  GCancellable *cancellable;
  GSubprocess  *track;
  GString      *track_buf;
  guint         poll_id;
  guint         track_restart_id;
  guint         poll_interval_ms;
  gboolean      refreshing;
  gboolean      refresh_again;
  GPtrArray    *waiting;        /* GTask* waiting for the refresh under way */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AdbscopeDeviceMonitor, adbscope_device_monitor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_ERROR_MESSAGE,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void start_refresh (AdbscopeDeviceMonitor *self);
static void start_track (AdbscopeDeviceMonitor *self);

static GType
get_item_type (GListModel *model)
{
  return ADBSCOPE_TYPE_DEVICE;
}

static guint
get_n_items (GListModel *model)
{
  return ADBSCOPE_DEVICE_MONITOR (model)->items->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  AdbscopeDeviceMonitor *self = ADBSCOPE_DEVICE_MONITOR (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
set_error (AdbscopeDeviceMonitor *self,
           const GError          *error)
{
  if (error == NULL && self->error == NULL)
    return;
  if (error != NULL && self->error != NULL &&
      g_error_matches (self->error, error->domain, error->code) &&
      g_strcmp0 (self->error->message, error->message) == 0)
    return;
  g_clear_error (&self->error);
  if (error != NULL)
    self->error = g_error_copy (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

/* Applies one listing: update in place, drop missing, append new. */
void
_adbscope_device_monitor_apply (AdbscopeDeviceMonitor *self,
                                GPtrArray             *infos)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint old_len;
  guint added = 0;
  guint removed = 0;

  for (guint i = 0; i < infos->len; i++)
    {
      const AdbscopeDeviceInfo *info = g_ptr_array_index (infos, i);
      g_hash_table_add (seen, info->serial);
    }

  for (guint i = self->items->len; i > 0; i--)
    {
      AdbscopeDevice *dev = g_ptr_array_index (self->items, i - 1);

      if (!g_hash_table_contains (seen, adbscope_device_get_serial (dev)))
        {
          g_ptr_array_remove_index (self->items, i - 1);
          g_list_model_items_changed (G_LIST_MODEL (self), i - 1, 1, 0);
          removed++;
        }
    }
  old_len = self->items->len;

  for (guint i = 0; i < infos->len; i++)
    {
      const AdbscopeDeviceInfo *info = g_ptr_array_index (infos, i);
      AdbscopeDevice *dev = adbscope_device_monitor_lookup (self, info->serial);

      if (dev == NULL)
        {
          dev = adbscope_device_new (info->serial);
          g_ptr_array_add (self->items, dev);
          added++;
        }
      adbscope_device_update (dev, info);
    }

  if (added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), old_len, 0, added);
  if (added > 0 || removed > 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

AdbscopeDevice *
adbscope_device_monitor_lookup (AdbscopeDeviceMonitor *self,
                                const char            *serial)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self), NULL);

  for (guint i = 0; i < self->items->len; i++)
    {
      AdbscopeDevice *dev = g_ptr_array_index (self->items, i);

      if (g_strcmp0 (adbscope_device_get_serial (dev), serial) == 0)
        return dev;
    }
  return NULL;
}

static void
finish_waiting (AdbscopeDeviceMonitor *self,
                const GError          *error)
{
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&self->waiting);

  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiting->len; i++)
    {
      GTask *task = g_ptr_array_index (waiting, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(AdbscopeDeviceMonitor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  self->refreshing = FALSE;
  out = adbscope_adb_run_finish (result, &status, &err, &error);
  if (out != NULL)
    {
      infos = adbscope_parse_devices (out, NULL);
      if (infos == NULL)
        {
          /* No list on stdout: adb's own words on stderr say why. */
          g_autofree char *line = adbscope_adb_stderr_last_line (err);

          if (line != NULL && strstr (line, "cannot connect to daemon at ") != NULL)
            error = adbscope_adb_error_from_stderr (err, NULL);
          else
            g_set_error (&error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_ADB_FAILED,
                         _("adb devices failed: %s"), line ? line : _("no output"));
        }
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      finish_waiting (self, error);
      return;
    }

  if (infos != NULL)
    _adbscope_device_monitor_apply (self, infos);
  set_error (self, error);
  finish_waiting (self, error);

  if (self->refresh_again)
    {
      self->refresh_again = FALSE;
      start_refresh (self);
    }
}

static void
start_refresh (AdbscopeDeviceMonitor *self)
{
  const char *args[] = { "devices", "-l", NULL };

  if (self->refreshing)
    {
      self->refresh_again = TRUE;
      return;
    }
  self->refreshing = TRUE;
  adbscope_adb_run_async (NULL, args, self->cancellable, refresh_cb, g_object_ref (self));
}

void
adbscope_device_monitor_refresh_async (AdbscopeDeviceMonitor *self,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback    callback,
                                       gpointer               user_data)
{
  GTask *task;

  g_return_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, adbscope_device_monitor_refresh_async);
  g_ptr_array_add (self->waiting, task);
  if (self->refreshing)
    self->refresh_again = TRUE;
  else
    start_refresh (self);
}

gboolean
adbscope_device_monitor_refresh_finish (AdbscopeDeviceMonitor  *self,
                                        GAsyncResult           *result,
                                        GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
poll_cb (gpointer data)
{
  start_refresh (data);
  return G_SOURCE_CONTINUE;
}

static gboolean
track_restart_cb (gpointer data)
{
  AdbscopeDeviceMonitor *self = data;

  self->track_restart_id = 0;
  start_track (self);
  return G_SOURCE_REMOVE;
}

static void
track_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AdbscopeDeviceMonitor) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  char *payload = NULL;
  gboolean changed = FALSE;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      /* The server went away (or never started); try again shortly. */
      g_clear_object (&self->track);
      g_string_truncate (self->track_buf, 0);
      if (self->poll_id != 0 && self->track_restart_id == 0)
        self->track_restart_id = g_timeout_add (TRACK_RESTART_MS, track_restart_cb, self);
      start_refresh (self);
      return;
    }

  g_string_append_len (self->track_buf, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  while (adbscope_parse_track_devices (self->track_buf, &payload, &error))
    {
      g_free (payload);
      changed = TRUE;
    }
  if (error != NULL)
    {
      g_warning ("adb track-devices: %s", error->message);
      g_string_truncate (self->track_buf, 0);
    }
  if (changed)
    start_refresh (self);

  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 4096, G_PRIORITY_DEFAULT, self->cancellable,
                                   track_read_cb, g_object_ref (self));
}

static void
start_track (AdbscopeDeviceMonitor *self)
{
  const char *args[] = { "track-devices", NULL };
  g_autoptr(GError) error = NULL;

  self->track = adbscope_adb_spawn (NULL, args,
                                    G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                    &error);
  if (self->track == NULL)
    {
      set_error (self, error);
      return;
    }
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (self->track), 4096,
                                   G_PRIORITY_DEFAULT, self->cancellable,
                                   track_read_cb, g_object_ref (self));
}

/* Starts tracking; the list fills in as adb answers. */
void
adbscope_device_monitor_start (AdbscopeDeviceMonitor *self)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self));

  if (self->poll_id != 0)
    return;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->poll_id = g_timeout_add (self->poll_interval_ms, poll_cb, self);
  start_track (self);
  start_refresh (self);
}

void
adbscope_device_monitor_stop (AdbscopeDeviceMonitor *self)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self));

  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_handle_id (&self->track_restart_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  if (self->track != NULL)
    g_subprocess_force_exit (self->track);
  g_clear_object (&self->track);
  g_string_truncate (self->track_buf, 0);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->refreshing = FALSE;
}

void
adbscope_device_monitor_set_poll_interval (AdbscopeDeviceMonitor *self,
                                           guint                  interval_ms)
{
  g_return_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self));
  g_return_if_fail (interval_ms > 0);

  self->poll_interval_ms = interval_ms;
  if (self->poll_id != 0)
    {
      g_source_remove (self->poll_id);
      self->poll_id = g_timeout_add (interval_ms, poll_cb, self);
    }
}

/* The last error talking to adb (adb missing, server down), or NULL. */
const GError *
adbscope_device_monitor_get_error (AdbscopeDeviceMonitor *self)
{
  g_return_val_if_fail (ADBSCOPE_IS_DEVICE_MONITOR (self), NULL);
  return self->error;
}

static void
adbscope_device_monitor_dispose (GObject *object)
{
  AdbscopeDeviceMonitor *self = ADBSCOPE_DEVICE_MONITOR (object);

  adbscope_device_monitor_stop (self);
  G_OBJECT_CLASS (adbscope_device_monitor_parent_class)->dispose (object);
}

static void
adbscope_device_monitor_finalize (GObject *object)
{
  AdbscopeDeviceMonitor *self = ADBSCOPE_DEVICE_MONITOR (object);

  g_ptr_array_unref (self->items);
  g_ptr_array_unref (self->waiting);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_string_free (self->track_buf, TRUE);
  G_OBJECT_CLASS (adbscope_device_monitor_parent_class)->finalize (object);
}

static void
adbscope_device_monitor_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  AdbscopeDeviceMonitor *self = ADBSCOPE_DEVICE_MONITOR (object);

  switch (prop_id)
    {
    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error ? self->error->message : NULL);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
adbscope_device_monitor_class_init (AdbscopeDeviceMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = adbscope_device_monitor_dispose;
  object_class->finalize = adbscope_device_monitor_finalize;
  object_class->get_property = adbscope_device_monitor_get_property;

  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
adbscope_device_monitor_init (AdbscopeDeviceMonitor *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  self->track_buf = g_string_new (NULL);
  self->cancellable = g_cancellable_new ();
  self->poll_interval_ms = DEFAULT_POLL_MS;
}

AdbscopeDeviceMonitor *
adbscope_device_monitor_new (void)
{
  return g_object_new (ADBSCOPE_TYPE_DEVICE_MONITOR, NULL);
}
