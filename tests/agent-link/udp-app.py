#!/usr/bin/python3
# A stand-in app for the capture tests' UDP cases, run by `adbscope sim
# --network --app PKG=…` in the app's network namespace: it waits until the
# agent answers DNS, looks up echo.demo.test, exchanges two datagrams with
# the UDP echo server, and (argv[1] == "blackhole") sends one datagram into
# the black hole that nothing answers; then it falls silent, so the agent
# closes every flow as idle.  What it did goes to stderr as one JSON line.
import json, socket, struct, sys, time
from app_dns import dns, first_answer

ECHO = "198.18.0.12"
BLACKHOLE = "198.19.0.1"
done = {}

done["dns_api_rcode"] = first_answer("api.demo.test", 1)
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
