/* adbscope-network-page.h: device traffic and its interfaces */
#pragma once

#include "adbscope-page.h"

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_NETWORK_PAGE (adbscope_network_page_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeNetworkPage, adbscope_network_page, ADBSCOPE, NETWORK_PAGE, AdbscopePage)

G_END_DECLS
