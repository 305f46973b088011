#!/usr/bin/python3
# A stand-in app for the capture tests' UDP cases, run by `adbscope sim
# --network --app PKG=…` in the app's network namespace: it waits until the
# agent answers DNS, looks up echo.demo.test, exchanges two datagrams with
# the UDP echo server, and (argv[1] == "blackhole") sends one datagram into
# the black hole that nothing answers; then it falls silent, so the agent
# closes every flow as idle.  What it did goes to stderr as one JSON line.
import json, socket, struct, sys, time

FAKE_DNS = ("10.215.173.2", 53)
ECHO = "198.18.0.12"
BLACKHOLE = "198.19.0.1"
done = {}

def dns(name, qid):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    q += b"\0" + struct.pack(">HH", 1, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.5)
    try:
        s.sendto(q, FAKE_DNS)
        r = s.recv(512)
        return r[3] & 0x0F
    finally:
        s.close()

while True:
    try:
        done["dns_api_rcode"] = dns("api.demo.test", 1)
        break
    except OSError:
        time.sleep(0.3)
time.sleep(1.0)
done["dns_echo_rcode"] = dns("echo.demo.test", 2)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.settimeout(3)
for i in range(2):
    u.sendto(b"e" * 300, (ECHO, 7))
    done["echo%d" % i] = len(u.recv(2048))
u.close()
if len(sys.argv) > 1 and sys.argv[1] == "blackhole":
    b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    b.sendto(b"anyone?", (BLACKHOLE, 7))
    done["blackhole"] = True
print(json.dumps(done), file=sys.stderr, flush=True)
while True:
    time.sleep(3600)
