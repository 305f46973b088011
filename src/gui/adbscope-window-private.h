/* adbscope-window-private.h: the window's state, shared by its .c files and tests */
#pragma once

#include "adbscope-app-picker.h"
#include "adbscope-capture.h"
#include "adbscope-comparison.h"
#include "adbscope-data-view.h"
#include "adbscope-demo.h"
#include "adbscope-device-monitor.h"
#include "adbscope-device-picker.h"
#include "adbscope-page.h"
#include "adbscope-recording.h"
#include "adbscope-run.h"
#include "adbscope-session.h"
#include "adbscope-window.h"

G_BEGIN_DECLS

struct _AdbscopeWindow
{
  AdwApplicationWindow   parent_instance;

  /* Template */
  AdwToastOverlay       *toast_overlay;
  AdwHeaderBar          *header_bar;
  GtkButton             *back_button;
  GtkToggleButton       *record_button;
  GtkToggleButton       *pause_button;
  GtkMenuButton         *marker_button;
  GtkPopover            *marker_popover;
  GtkEntry              *marker_entry;
  GtkButton             *marker_add_button;
  GtkStack              *title_stack;
  AdwWindowTitle        *window_title;
  AdwViewSwitcherTitle  *switcher_title;
  GtkMenuButton         *primary_menu_button;
  GtkMenuButton         *time_button;
  GtkLabel              *simulated_badge;
  GtkStack              *main_stack;
  AdbscopeDevicePicker  *device_picker;
  AdbscopeAppPicker     *app_picker;
  AdwStatusPage         *starting_page;
  GtkSpinner            *starting_spinner;
  AdwViewStack          *view_stack;
  AdwViewSwitcherBar    *switcher_bar;
  AdbscopePage          *overview_page;
  AdbscopePage          *cpu_page;
  AdbscopePage          *memory_page;
  AdbscopePage          *frames_page;
  AdbscopePage          *threads_page;
  AdbscopePage          *power_page;
  AdbscopePage          *system_page;
  AdbscopePage          *network_page;
  GtkScrollbar          *time_scrollbar;

  /* State */
  GSettings             *settings;
  AdbscopeDeviceMonitor *monitor;
  AdbscopeDemo    *demo;
  AdbscopeSession       *session;
  AdbscopeDataView      *view;
  GCancellable          *start_cancellable;
  char                  *serial;
  char                  *package;
  guint                  visible_seconds;
  gboolean               device_lost;
  char                  *last_toast;
  guint                  n_toasts;

  /* Network capture (adbscope-window-capture.c) */
  AdbscopeCapture       *capture;
  GCancellable          *capture_cancellable;
  AdwMessageDialog      *capture_dialog;     /* weak */
  gboolean               capture_checking;
  AdbscopeRecording     *recording;       /* the live run's file */
  char                  *opened_path;     /* the recording shown, read-only */
  GCancellable          *open_cancellable; /* its frame times and threads, being read */
  guint                  n_exports;       /* running in threads */
  guint                  n_compare_reads; /* recordings to compare with, being read */
  GtkWidget             *busy_box;        /* in the header bar: work in a thread */
  GtkSpinner            *busy_spinner;
  GtkLabel              *busy_label;
  guint                  n_busy;
  gint64                 opened_end_us;
  gboolean               scrolling;

  /* Another recording overlaid (adbscope-window-compare.c) */
  AdbscopeComparison    *comparison;
  GtkWidget             *compare_bar;
  GtkLabel              *compare_base_label;
  GtkLabel              *compare_run_label;
  GtkDropDown           *align_dropdown;
  GtkStringList         *align_labels;     /* "Start", then the shared marker labels */
  JsonNode              *compare_diff;     /* the last summary, as `adbscope compare` */
  GtkWindow             *compare_dialog;   /* weak */
  gboolean               aligning;
};

void         _adbscope_window_class_actions_init (AdbscopeWindowClass *klass);
void         _adbscope_window_update_actions     (AdbscopeWindow      *self);
void         _adbscope_window_update_title       (AdbscopeWindow      *self);
void         _adbscope_window_toast              (AdbscopeWindow      *self,
                                                  const char          *title);
void         _adbscope_window_choose_device      (AdbscopeWindow      *self,
                                                  const char          *serial);
void         _adbscope_window_choose_app         (AdbscopeWindow      *self,
                                                  const char          *package);
void         _adbscope_window_stop_session       (AdbscopeWindow      *self);
void         _adbscope_window_show_pickers       (AdbscopeWindow      *self);
void         _adbscope_window_restart_monitor    (AdbscopeWindow      *self);
gboolean     _adbscope_window_export_report      (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);
gboolean     _adbscope_window_export_samples     (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);
gboolean     _adbscope_window_export_async       (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  gboolean             report);
void         _adbscope_window_add_marker         (AdbscopeWindow      *self,
                                                  const char          *label);
void         _adbscope_window_set_recording      (AdbscopeWindow      *self,
                                                  gboolean             recording);
void         _adbscope_window_set_paused         (AdbscopeWindow      *self,
                                                  gboolean             paused);
void         _adbscope_window_set_visible_seconds (AdbscopeWindow     *self,
                                                   guint               seconds);
gboolean     _adbscope_window_open_recording     (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);
const char  *_adbscope_window_get_opened_path    (AdbscopeWindow      *self);
void         _adbscope_window_zoom               (AdbscopeWindow      *self,
                                                  double               factor);
void         _adbscope_window_scroll_to          (AdbscopeWindow      *self,
                                                  double               end_s);

void         _adbscope_window_init_busy          (AdbscopeWindow      *self);
void         _adbscope_window_busy_begin         (AdbscopeWindow      *self,
                                                  const char          *text);
void         _adbscope_window_busy_end           (AdbscopeWindow      *self);
void         _adbscope_window_init_compare       (AdbscopeWindow      *self);
gboolean     _adbscope_window_compare_with       (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);
gboolean     _adbscope_window_align_comparison   (AdbscopeWindow      *self,
                                                  const char          *label);
void         _adbscope_window_remove_comparison  (AdbscopeWindow      *self);
void         _adbscope_window_update_compare_markers (AdbscopeWindow  *self);
JsonNode    *_adbscope_window_build_report       (AdbscopeWindow      *self,
                                                  GError             **error);
gboolean     _adbscope_window_compare_with_async (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);
void         _adbscope_window_show_compare_summary_async (AdbscopeWindow *self);
const char  *_adbscope_window_get_whole_run_file (AdbscopeWindow      *self);
JsonNode    *_adbscope_window_show_compare_summary (AdbscopeWindow    *self,
                                                  GError             **error);

void         _adbscope_window_start_capture      (AdbscopeWindow      *self);
void         _adbscope_window_stop_capture       (AdbscopeWindow      *self);
gboolean     _adbscope_window_is_capturing       (AdbscopeWindow      *self);
void         _adbscope_window_export_pcap_dialog (AdbscopeWindow      *self);
void         _adbscope_window_export_connections_dialog (AdbscopeWindow *self);
void         _adbscope_window_offer_install      (AdbscopeWindow      *self,
                                                  gboolean             older);
void         _adbscope_window_dispose_capture    (AdbscopeWindow      *self);
gboolean     _adbscope_window_export_pcap        (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  const char          *scope,
                                                  guint64             *n_packets,
                                                  GError             **error);
gboolean     _adbscope_window_export_connections (AdbscopeWindow      *self,
                                                  const char          *path,
                                                  GError             **error);

/* For tests */
AdbscopeCapture      *_adbscope_window_get_capture        (AdbscopeWindow *self);
AdwMessageDialog     *_adbscope_window_get_capture_dialog (AdbscopeWindow *self);
AdbscopeSession      *_adbscope_window_get_session       (AdbscopeWindow *self);
AdbscopeDataView     *_adbscope_window_get_view          (AdbscopeWindow *self);
AdbscopeDevicePicker *_adbscope_window_get_device_picker (AdbscopeWindow *self);
AdbscopeAppPicker    *_adbscope_window_get_app_picker    (AdbscopeWindow *self);
AdwViewStack         *_adbscope_window_get_view_stack    (AdbscopeWindow *self);
AdbscopeDemo   *_adbscope_window_get_demo          (AdbscopeWindow *self);
const char           *_adbscope_window_get_mode          (AdbscopeWindow *self);
const char           *_adbscope_window_get_last_toast    (AdbscopeWindow *self);
guint                 _adbscope_window_get_n_toasts      (AdbscopeWindow *self);
AdbscopePage         *_adbscope_window_get_page          (AdbscopeWindow *self,
                                                          const char     *name);

G_END_DECLS
