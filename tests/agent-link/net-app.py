#!/usr/bin/python3
# A stand-in app for the capture tests, run by `adbscope sim --network --app
# PKG=…` in the app's network namespace (its only route is the agent's TUN).
# It waits until the agent answers DNS, then makes a known set of requests
# once, prints what it did as one JSON line on stderr, and stays alive.
#   argv[1]: bytes to GET, argv[2]: bytes to POST
import json, socket, ssl, struct, sys, time
from app_dns import dns, first_answer

API = "198.18.0.10"
ECHO = "198.18.0.12"
get_n = int(sys.argv[1]) if len(sys.argv) > 1 else 300000
post_n = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
done = {}

def http(host, request, expect_close=True):
    s = socket.create_connection((API, 80), timeout=10)
    s.sendall(request)
    got = 0
    while True:
        b = s.recv(65536)
        if not b:
            break
        got += len(b)
    s.close()
    return got

# The agent is up once the fake resolver answers; the desktop's link and
# pcap stream connect right after, so give them a moment.
done["dns_api_rcode"] = first_answer("api.demo.test", 1)
time.sleep(2.5)
done["dns_missing_rcode"] = dns("missing.demo.test", 2)
done["get_received"] = http("get.demo.test",
    b"GET /bytes/%d HTTP/1.1\r\nHost: get.demo.test\r\nConnection: close\r\n\r\n" % get_n)
body = b"x" * post_n
done["post_received"] = http("post.demo.test",
    b"POST /upload HTTP/1.1\r\nHost: post.demo.test\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % post_n + body)
try:
    socket.create_connection((API, 81), timeout=5).close()
    done["refused"] = False
except ConnectionRefusedError:
    done["refused"] = True
done["dns_echo_rcode"] = dns("echo.demo.test", 3)   # the agent learns the name
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.settimeout(3)
u.sendto(b"e" * 700, (ECHO, 7))
done["echo"] = len(u.recv(2048))
u.close()
try:
    ctx = ssl.create_default_context()
    with socket.create_connection((API, 443), timeout=5) as t:
        ctx.wrap_socket(t, server_hostname="tls.demo.test")
except (ssl.SSLError, OSError):
    pass
done["tls"] = True
print(json.dumps(done), file=sys.stderr, flush=True)
while True:
    time.sleep(3600)
