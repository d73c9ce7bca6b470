#!/usr/bin/env python3
"""A hostile second user's connection flood, for bench/flood.sh and FloodIT.

Run it as another, unprivileged user. Every 20 ms it reads /proc/net/tcp and /proc/net/tcp6 (world-readable) for
sockets in LISTEN state owned by the victim's uid with a port at or above --min-port, and keeps --per-port silent
connections open on each: connected, never sending a byte, reconnected at once when the other end closes one.
It prints one line a second (ports seen, connections held, reconnects) to stderr, and a summary on SIGTERM.
"""
import argparse
import errno
import selectors
import signal
import socket
import sys
import time


def listening(uid, min_port):
    found = set()
    for path, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        try:
            with open(path) as f:
                next(f)
                for line in f:
                    cols = line.split()
                    local, state, owner = cols[1], cols[3], int(cols[7])
                    if state != "0A" or owner != uid:
                        continue
                    addr_hex, port_hex = local.split(":")
                    port = int(port_hex, 16)
                    if port < min_port:
                        continue
                    fam = family
                    if family == socket.AF_INET:
                        raw = bytes.fromhex(addr_hex)[::-1]
                        host = socket.inet_ntop(socket.AF_INET, raw)
                    else:
                        raw = b"".join(bytes.fromhex(addr_hex[i:i + 8])[::-1] for i in range(0, 32, 8))
                        host = socket.inet_ntop(socket.AF_INET6, raw)
                        if host == "::":
                            host = "::1"
                        elif host.startswith("::ffff:"):
                            host, fam = host[7:], socket.AF_INET
                    if host == "0.0.0.0":
                        host = "127.0.0.1"
                    found.add((fam, host, port))
        except FileNotFoundError:
            pass
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--uid", type=int, required=True, help="the victim's uid")
    ap.add_argument("--per-port", type=int, default=300)
    ap.add_argument("--min-port", type=int, default=32768)
    ap.add_argument("--seconds", type=float, default=3600)
    args = ap.parse_args()
    sel = selectors.DefaultSelector()
    held = {}  # target -> set of sockets
    stats = {"connects": 0, "reconnects": 0, "refused": 0}
    stop = [False]
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__(0, True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__(0, True))

    def open_one(target):
        family, host, port = target
        s = socket.socket(family, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect((host, port))
        except BlockingIOError:
            pass
        except OSError as e:
            s.close()
            stats["refused"] += 1
            return e.errno not in (errno.EMFILE, errno.ENFILE)
        sel.register(s, selectors.EVENT_READ, target)
        held[target].add(s)
        stats["connects"] += 1
        return True

    end = time.monotonic() + args.seconds
    next_scan = 0.0
    next_print = time.monotonic() + 1
    while not stop[0] and time.monotonic() < end:
        now = time.monotonic()
        if now >= next_scan:
            live = listening(args.uid, args.min_port)
            for t in list(held):
                if t not in live:
                    for s in held.pop(t):
                        sel.unregister(s)
                        s.close()
            for t in live:
                held.setdefault(t, set())
            next_scan = now + 0.02
        for t, socks in held.items():
            while len(socks) < args.per_port:
                if not open_one(t):
                    break
        for key, _ in sel.select(timeout=0.005):
            s = key.fileobj
            try:
                data = s.recv(4096)
                closed = not data
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
            if closed:
                sel.unregister(s)
                s.close()
                socks = held.get(key.data)
                if socks is not None:
                    socks.discard(s)
                stats["reconnects"] += 1
        if now >= next_print:
            print("flood: %d port(s), %d connection(s) held, %d connects, %d reconnects, %d refused"
                  % (len(held), sum(len(v) for v in held.values()), stats["connects"], stats["reconnects"],
                     stats["refused"]), file=sys.stderr, flush=True)
            next_print = now + 1
    print("flood: done: %d connects, %d reconnects, %d refused" % (stats["connects"], stats["reconnects"],
                                                                 stats["refused"]), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
