/* fake-network.c: agent snapshots made up in the test */
#include "config.h"

#include "fake-network.h"

/* @n open connections to 198.18.x.y (ports 80 and 443, every fifth UDP),
 * under 97 host names, none with bytes yet. */
FakeNetwork *
fake_network_new (guint n)
{
  static guint8 local[4] = { 10, 215, 173, 1 };
  FakeNetwork *f = g_new0 (FakeNetwork, 1);

  f->n = n;
  f->conns = g_new0 (Adbscope__Agent__V1__Connection, n);
  f->ptrs = g_new0 (Adbscope__Agent__V1__Connection *, n);
  f->src = g_new0 (Adbscope__Agent__V1__Endpoint, n);
  f->dst = g_new0 (Adbscope__Agent__V1__Endpoint, n);
  f->addr = g_new0 (guint8, 4 * n);
  f->hosts = g_new0 (char *, n);
  adbscope__agent__v1__snapshot__init (&f->snap);
  for (guint i = 0; i < n; i++)
    {
      Adbscope__Agent__V1__Connection *c = &f->conns[i];

      adbscope__agent__v1__connection__init (c);
      adbscope__agent__v1__endpoint__init (&f->src[i]);
      adbscope__agent__v1__endpoint__init (&f->dst[i]);
      f->addr[4 * i] = 198; f->addr[4 * i + 1] = 18; f->addr[4 * i + 2] = i / 250; f->addr[4 * i + 3] = i % 250;
      f->src[i].address.data = local;
      f->src[i].address.len = 4;
      f->src[i].port = 30000 + i;
      f->dst[i].address.data = f->addr + 4 * i;
      f->dst[i].address.len = 4;
      f->dst[i].port = i % 3 == 0 ? 80 : 443;
      f->hosts[i] = g_strdup_printf ("host%u.bench.test", i % 97);
      c->id = i + 1;
      c->protocol = i % 5 == 0 ? ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_UDP : ADBSCOPE__AGENT__V1__PROTOCOL__PROTOCOL_TCP;
      c->ip_version = 4;
      c->source = &f->src[i];
      c->destination = &f->dst[i];
      c->uid = 10123;
      c->host = f->hosts[i];
      c->host_source = ADBSCOPE__AGENT__V1__HOST_SOURCE__HOST_SOURCE_TLS_SNI;
      c->state = ADBSCOPE__AGENT__V1__CONNECTION_STATE__CONNECTION_STATE_OPEN;
      c->open_time_ms = (guint64) (g_get_real_time () / 1000) - i;
      f->ptrs[i] = c;
    }
  f->snap.connections = f->ptrs;
  f->snap.n_connections = n;
  return f;
}

void
fake_network_free (FakeNetwork *f)
{
  for (guint i = 0; i < f->n; i++)
    g_free (f->hosts[i]);
  g_free (f->hosts);
  g_free (f->addr);
  g_free (f->dst);
  g_free (f->src);
  g_free (f->ptrs);
  g_free (f->conns);
  g_free (f);
}

/* The agent's hello: a run starts, one snapshot a second. */
void
fake_network_begin (AdbscopeNetwork *net)
{
  Adbscope__Agent__V1__Hello hello = ADBSCOPE__AGENT__V1__HELLO__INIT;

  hello.protocol_version = 1;
  hello.agent_version = (char *) "fake";
  hello.platform = (char *) "linux";
  hello.start_time_ms = g_get_real_time () / 1000;
  hello.snapshot_interval_ms = 1000;
  adbscope_network_begin_run (net, &hello);
}

/* Snapshot @seq: every connection moved some bytes since the last one
 * (the worst case: a table sorted by bytes reorders every row every
 * second), or, with @active_pct below 100, only that share of them, with
 * sizes like an app's: a few big flows, most small. */
void
fake_network_tick (FakeNetwork *f,
                   guint64      seq,
                   guint        active_pct)
{
  f->snap.seq = seq;
  f->snap.time_ms = g_get_real_time () / 1000;
  for (guint i = 0; i < f->n; i++)
    {
      Adbscope__Agent__V1__Connection *c = &f->conns[i];
      guint64 step = 100 + (i * 7919 + seq * 104729) % 5000;

      if (active_pct < 100)
        {
          if ((i * 2654435761u + seq * 40503u) % 100 >= active_pct)
            continue;
          /* flow i's share falls off as 1/(1 + i/10) */
          step = step * 100 / (1 + i / 10);
        }

      c->bytes_down += step * 3;
      c->bytes_up += step;
      c->payload_down += step * 3 - 40;
      c->payload_up += step - 40;
      c->packets_down += 3;
      c->packets_up += 1;
    }
}

/* fake_network_tick(), then the snapshot to @net. */
void
fake_network_feed (FakeNetwork     *f,
                   AdbscopeNetwork *net,
                   guint64          seq,
                   guint            active_pct)
{
  fake_network_tick (f, seq, active_pct);
  adbscope_network_apply_snapshot (net, &f->snap, g_get_monotonic_time ());
}
