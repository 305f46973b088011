#!/usr/bin/env python3
"""Hostile local clients of a record's control port (issue 24): any local
user can connect, no token needed for these.

control-flood.py chunked PORT MIB
    POST /mark with a chunked body of MIB MiB, streamed 1 MiB a chunk as fast
    as the server takes it.  Prints {"sent": bytes handed to the kernel
    before the server stopped reading, "status": the HTTP status it answered
    or null}.
control-flood.py idle PORT N
    Opens N connections that send nothing, prints "ready", and keeps them
    until stdin closes; then prints {"open": N, "closed_by_server": K}.
"""
import json
import resource
import select
import socket
import sys


def status_of(sock):
    data = b""
    sock.settimeout(10)
    try:
        while len(data) < 65536:
            got = sock.recv(4096)
            if not got:
                break
            data += got
    except OSError:
        pass
    line = data.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) >= 2 and line[1].isdigit() else None


def chunked(port, mib):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(30)
    sent = 0
    chunk = b"[" * (1024 * 1024)
    try:
        sock.sendall(b"POST /mark HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                     b"Content-Type: application/json\r\n\r\n")
        for _ in range(mib):
            sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            sent += len(chunk)
        sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    print(json.dumps({"sent": sent, "status": status_of(sock)}), flush=True)


def idle(port, n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, n + 64)), hard))
    socks = []
    import time
    t0 = time.monotonic()
    slow = 0
    for _ in range(n):
        t = time.monotonic()
        socks.append(socket.create_connection(("127.0.0.1", port)))
        if time.monotonic() - t > 0.5:
            slow += 1
    sys.stderr.write("connect: %.2f s, %d slow\n" % (time.monotonic() - t0, slow))
    print("ready", flush=True)
    sys.stdin.read()
    closed = 0
    for s in socks:
        r, _, _ = select.select([s], [], [], 0)
        if r:
            try:
                if s.recv(1) == b"":
                    closed += 1
            except OSError:
                closed += 1
        s.close()
    print(json.dumps({"open": n, "closed_by_server": closed}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "chunked":
        chunked(int(sys.argv[2]), int(sys.argv[3]))
    else:
        idle(int(sys.argv[2]), int(sys.argv[3]))
