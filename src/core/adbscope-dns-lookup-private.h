/* adbscope-dns-lookup-private.h: how the network model fills a lookup */
#pragma once

#include "adbscope-dns-lookup.h"
#include "agent.pb-c.h"

G_BEGIN_DECLS

AdbscopeDnsLookup *_adbscope_dns_lookup_new    (const Adbscope__Agent__V1__DnsLookup *d);
gboolean           _adbscope_dns_lookup_update (AdbscopeDnsLookup                    *self,
                                                const Adbscope__Agent__V1__DnsLookup *d);
AdbscopeDnsLookup *_adbscope_dns_lookup_copy   (AdbscopeDnsLookup                    *self);

G_END_DECLS
