#!/usr/bin/env python3
"""A hostile agent for the simulated device (issue 24): anything on a phone
can bind the agent's abstract socket name, so the desktop must survive what
it sends.  Started by `adbscope sim --network` in place of
adbscope-agent-linux (ADBSCOPE_AGENT_LINUX); of its arguments only
--instance-token is used (echoed in the Hello, as the real agent does: the
desktop refuses a Hello without its token, and what is tested here is the
stream that follows, as a buggy agent of ours could send it).

It serves the agent protocol (docs/agent-protocol.md, encoded here by hand)
on the abstract socket "adbscope-agent": a Hello, then as fast as the client
reads, SNAPSHOTS snapshots of CONNS fresh failed connection ids each (every
one with a host of its own) and DNS fresh failed lookups, while the app's
byte counter runs at 1 MB a snapshot, goes back to 0 half way and jumps to
2^64 - 6 at three quarters.  Then it keeps sending the last snapshot once a
second (so the link stays up).  Writes what it sent to HOSTILE_AGENT_STATE.
"""
import json
import os
import socket
import sys
import time

SNAPSHOTS = int(os.environ.get("HOSTILE_SNAPSHOTS", "200"))
CONNS = int(os.environ.get("HOSTILE_CONNS", "1000"))
DNS = int(os.environ.get("HOSTILE_DNS", "200"))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def u(field, v):
    return varint(field << 3) + varint(v) if v else b""


def ld(field, data):
    return varint(field << 3 | 2) + varint(len(data)) + data


def s(field, text):
    return ld(field, text.encode())


def frame(payload_field, body):
    msg = ld(payload_field, body)
    return varint(len(msg)) + msg


def instance_token():
    args = sys.argv[1:]
    for i, a in enumerate(args[:-1]):
        if a == "--instance-token":
            return args[i + 1]
    return ""


def hello(start_ms):
    token = instance_token()
    return frame(1, u(1, 1) + s(2, "99.0.0") + s(3, "linux") + u(4, start_ms) + u(5, 1000)
                 + (s(6, token) if token else b""))


ENDPOINT_SRC = ld(1, bytes([10, 215, 173, 1])) + u(2, 40000)
ENDPOINT_DST = ld(1, bytes([10, 99, 0, 1])) + u(2, 443)


def snapshot(seq, now_ms, first_id, dns_first, bytes_down):
    body = u(1, seq) + u(2, now_ms) + u(3, seq * 1000)
    app = u(1, 0) + u(2, seq * 1000) + u(3, bytes_down)
    body += ld(4, app)
    for k in range(CONNS):
        cid = first_id + k
        c = (u(1, cid) + u(2, 1) + u(3, 4) + ld(4, ENDPOINT_SRC) + ld(5, ENDPOINT_DST)
             + s(7, "h%d.evil.test" % cid) + u(8, 1) + u(13, 5) + u(14, now_ms) + u(15, now_ms) + u(16, 1))
        body += ld(5, c)
    for k in range(DNS):
        d = u(1, dns_first + k) + s(3, "n%d.evil.test" % (dns_first + k)) + u(4, 1) + u(7, 2) + u(9, now_ms)
        body += ld(6, d)
    return frame(2, body)


def main():
    state = os.environ.get("HOSTILE_AGENT_STATE")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0adbscope-agent")
    srv.listen(4)
    print("hostile agent listening", flush=True)
    start_ms = int(time.time() * 1000)
    sent = {"snapshots": 0, "connection_ids": 0, "dns_ids": 0, "bytes": 0, "clients": 0}
    seq = 0
    next_id = 1
    while True:
        conn, _ = srv.accept()
        sent["clients"] += 1
        try:
            conn.sendall(hello(start_ms))
            last = None
            while True:
                seq += 1
                now_ms = int(time.time() * 1000)
                if sent["snapshots"] < SNAPSHOTS:
                    n = sent["snapshots"]
                    if n >= SNAPSHOTS * 3 // 4:
                        down = (1 << 64) - 6 if n == SNAPSHOTS * 3 // 4 else (n - SNAPSHOTS // 2) * 1000000
                    elif n >= SNAPSHOTS // 2:
                        down = (n - SNAPSHOTS // 2) * 1000000
                    else:
                        down = n * 1000000
                    last = snapshot(seq, now_ms, next_id, n * DNS + 1, down)
                    next_id += CONNS
                    sent["snapshots"] += 1
                    sent["connection_ids"] += CONNS
                    sent["dns_ids"] += DNS
                    conn.sendall(last)
                    sent["bytes"] += len(last)
                    if state:
                        with open(state, "w") as f:
                            json.dump(sent, f)
                    # at the agent's pace of several a second: the desktop
                    # must not grow with the ids whatever the pace
                    time.sleep(0.02)
                else:
                    conn.sendall(last)
                    time.sleep(1)
        except OSError:
            conn.close()


if __name__ == "__main__":
    sys.exit(main())
