#!/usr/bin/python3
# A stand-in app for /capture/ipv4-only, run in the sim's app namespace:
# every 300 ms it tries an IPv6 connection (to a global address) and one
# over IPv4 to the sim's API server, and appends what happened to argv[1]
# ("v6 ERRNO" / "v4 ok|ERRNO" lines).
import errno, socket, sys, time

out = sys.argv[1]
while True:
    results = []
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(("2001:db8::1", 80))
        results.append("v6 connected")
    except OSError as e:
        results.append("v6 %d" % (e.errno or 0))
    finally:
        s.close()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(("198.18.0.10", 80))
        results.append("v4 ok")
    except OSError as e:
        results.append("v4 %d" % (e.errno or 0))
    finally:
        s.close()
    with open(out, "a") as f:
        f.write("\n".join(results) + "\n")
    time.sleep(0.3)
