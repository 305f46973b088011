# What the capture tests' stand-in apps (net-app.py, udp-app.py) share: a
# DNS query to the agent's fake resolver over UDP, and the wait until the
# agent answers one (imported from the scripts' own folder).
import socket, struct, time

FAKE_DNS = ("10.215.173.2", 53)


def dns(name, qid):
    """The rcode of an A query for NAME, or OSError when nothing answers in 0.5 s."""
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


def first_answer(name, qid):
    """Asks until the agent answers (it starts after the app); the rcode."""
    while True:
        try:
            return dns(name, qid)
        except OSError:
            time.sleep(0.3)
