#!/usr/bin/python3
# A stand-in app for /capture/ipv4-only, run in the sim's app namespace:
# every 300 ms it tries an IPv6 connection (to a global address) and one
# over IPv4 to the sim's API server, and appends what happened to argv[1]
# ("v6 ERRNO" / "v4 ok|ERRNO" lines), and Private DNS's probe of 853 on
# the agent's resolver ("dot ERRNO").
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
    # Android's Private DNS probe: DoT on 853 of the VPN's DNS address
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(("10.215.173.2", 853))
        results.append("dot connected")
    except OSError as e:
        results.append("dot %d" % (e.errno or 0))
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
