#!/usr/bin/python3
# A stand-in app for bench-capture, run by `adbscope sim --network --app …`.
#   hold N        open N TCP connections to api.demo.test:80 and keep them
#                 open (each has sent half a request, so the server waits)
#   download N    fetch N bytes from cdn.demo.test, again and again
# It starts once the agent answers DNS, and says what it did on stderr.
import resource, socket, struct, sys, time

FAKE_DNS = ("10.215.173.2", 53)
API, CDN = "198.18.0.10", "198.18.0.11"

def agent_up():
    q = struct.pack(">HHHHHH", 7, 0x0100, 1, 0, 0, 0) + b"\x03api\x04demo\x04test\x00" + struct.pack(">HH", 1, 1)
    while True:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(0.5)
        try:
            s.sendto(q, FAKE_DNS)
            s.recv(512)
            return
        except OSError:
            time.sleep(0.3)
        finally:
            s.close()

agent_up()
time.sleep(2)
mode, n = sys.argv[1], int(sys.argv[2])
if mode == "hold":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 256), hard))
    socks = []
    for i in range(n):
        s = socket.create_connection((API, 80), timeout=10)
        s.sendall(b"GET / HTTP/1.1\r\nHost: hold.demo.test\r\n")
        socks.append(s)
    print("holding %d" % len(socks), file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)
else:
    while True:
        t0 = time.monotonic()
        s = socket.create_connection((CDN, 80), timeout=30)
        s.sendall(b"GET /bytes/%d HTTP/1.1\r\nHost: bulk.demo.test\r\nConnection: close\r\n\r\n" % n)
        got = 0
        while True:
            b = s.recv(1 << 20)
            if not b:
                break
            got += len(b)
        s.close()
        dt = time.monotonic() - t0
        print("download %d bytes in %.3f s: %.1f MB/s" % (got, dt, got / dt / 1e6), file=sys.stderr, flush=True)
