/* fake-network.h: agent snapshots made up in the test, fed to a network
 * model as the agent link would (bench-network, test-network-table) */
#pragma once

#include "adbscope-network.h"
#include "agent.pb-c.h"

G_BEGIN_DECLS

typedef struct
{
  Adbscope__Agent__V1__Snapshot    snap;
  Adbscope__Agent__V1__Connection *conns;     /* n, open, ids 1…n */
  Adbscope__Agent__V1__Connection **ptrs;
  Adbscope__Agent__V1__Endpoint   *src, *dst;
  guint8                          *addr;      /* 4 bytes a connection */
  char                           **hosts;
  guint                            n;
} FakeNetwork;

FakeNetwork *fake_network_new   (guint            n);
void         fake_network_free  (FakeNetwork     *f);
void         fake_network_begin (AdbscopeNetwork *net);
void         fake_network_tick  (FakeNetwork     *f,
                                 guint64          seq,
                                 guint            active_pct);
void         fake_network_feed  (FakeNetwork     *f,
                                 AdbscopeNetwork *net,
                                 guint64          seq,
                                 guint            active_pct);

G_END_DECLS
