/* adbscope-network-page.h: device traffic and its interfaces */
#pragma once

#include "adbscope-capture.h"
#include "adbscope-connection.h"
#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_NETWORK_PAGE (adbscope_network_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeNetworkPage, adbscope_network_page, ADBSCOPE, NETWORK_PAGE, AdbscopePage)

void                adbscope_network_page_set_capture             (AdbscopeNetworkPage *self,
                                                                   AdbscopeCapture     *capture);
AdbscopeConnection *adbscope_network_page_get_selected_connection (AdbscopeNetworkPage *self);
GListModel         *adbscope_network_page_get_connection_model    (AdbscopeNetworkPage *self);
void                adbscope_network_page_select_connection       (AdbscopeNetworkPage *self,
                                                                   guint                position);
void                adbscope_network_page_show_table              (AdbscopeNetworkPage *self,
                                                                   const char          *name);
gboolean            adbscope_network_page_get_banner_shown        (AdbscopeNetworkPage *self);
void                adbscope_network_page_set_search              (AdbscopeNetworkPage *self,
                                                                   const char          *text,
                                                                   gboolean             failed_only);

G_END_DECLS
