/* adbscope-dns-lookup.h: one DNS lookup of the watched app; a live list item */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define ADBSCOPE_TYPE_DNS_LOOKUP (adbscope_dns_lookup_get_type ())

G_DECLARE_FINAL_TYPE (AdbscopeDnsLookup, adbscope_dns_lookup, ADBSCOPE, DNS_LOOKUP, GObject)

guint64             adbscope_dns_lookup_get_id         (AdbscopeDnsLookup *self);
const char         *adbscope_dns_lookup_get_name       (AdbscopeDnsLookup *self);
guint               adbscope_dns_lookup_get_qtype      (AdbscopeDnsLookup *self);
const char         *adbscope_dns_lookup_get_qtype_name (AdbscopeDnsLookup *self);
const char * const *adbscope_dns_lookup_get_answers    (AdbscopeDnsLookup *self);
double              adbscope_dns_lookup_get_latency_ms (AdbscopeDnsLookup *self);
const char         *adbscope_dns_lookup_get_result     (AdbscopeDnsLookup *self);
guint               adbscope_dns_lookup_get_rcode      (AdbscopeDnsLookup *self);
gint64              adbscope_dns_lookup_get_time_ms    (AdbscopeDnsLookup *self);
const char         *adbscope_dns_result_text           (const char        *code);
gboolean            adbscope_dns_lookup_is_failed      (AdbscopeDnsLookup *self);

G_END_DECLS
