#!/usr/bin/env python3
"""Counts the sockets each rank process of a `cctk run` holds, by sampling /proc while it runs (sockets.sh).

usage: bench/sockets.py sample LAUNCHER_PID OUT.json [INTERVAL_S]   until the launcher exits
       bench/sockets.py report DIR                                     the table of every DIR/*.json against the formula

A rank is a descendant of the launcher whose command line has `rank` and whose environment has RANK (the variable
the local launcher gives each rank). Each sample reads /proc/net/tcp and tcp6 once (inode -> state and ports) and
every rank's /proc/PID/fd links; a `socket:[inode]` link is
  store   a TCP socket to or from MASTER_PORT (the rendezvous store rank 0 serves), or listening on it;
  mesh    any other TCP socket: listening (state LISTEN) or a link to a peer;
  other   a socket that is not TCP (a Unix socket, e.g.; the JVM holds one), or one closed while sampled.
Per rank the maximum over the samples of each kind is kept (the mesh's links stay open until the communicator
closes, so the maximum is what the sweep opened).
"""
import json
import os
import statistics
import sys
import time

LISTEN = "0A"


def tcp_table():
    """inode -> (state, local port, remote port) of every TCP socket in this network namespace."""
    t = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    p = line.split()
                    if len(p) > 9:
                        t[p[9]] = (p[3], int(p[1].rsplit(":", 1)[1], 16), int(p[2].rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return t


def children():
    kids = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as f:
                    s = f.read()
                kids.setdefault(int(s[s.rindex(")") + 2:].split()[1]), []).append(int(p))
            except (OSError, ValueError, IndexError):
                pass
    return kids


def ranks_of(launcher):
    """{pid: (rank, master_port)} of the rank processes under the launcher."""
    kids, out, stack, seen = children(), {}, [launcher], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        stack += kids.get(pid, [])
        if pid == launcher:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
            if b"rank" not in cmd:
                continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(x.split(b"=", 1) for x in f.read().split(b"\0") if b"=" in x)
            if b"RANK" in env:
                out[pid] = (int(env[b"RANK"]), int(env.get(b"MASTER_PORT", b"0")))
        except (OSError, ValueError):
            pass
    return out


def socket_links(pid):
    """The inodes of the sockets PID holds, or None when it is gone."""
    out = []
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            out.append(link[8:-1])
    return out


def count(inodes, master_port, table):
    c = {"store": 0, "mesh_listen": 0, "mesh_links": 0, "other": 0}
    for inode in inodes:
        entry = table.get(inode)
        if entry is None:
            c["other"] += 1
        elif master_port in (entry[1], entry[2]):
            c["store"] += 1
        elif entry[0] == LISTEN:
            c["mesh_listen"] += 1
        else:
            c["mesh_links"] += 1
    return c


def sample(launcher, out, interval):
    best = {}    # rank -> max per kind
    samples = 0
    known = {}
    while os.path.exists(f"/proc/{launcher}"):
        if samples % 10 == 0 or not known:
            known.update(ranks_of(launcher))
        held = {pid: socket_links(pid) for pid in known}
        table = tcp_table()  # read after the links, so a socket opened meanwhile is in it
        for pid, (rank, port) in list(known.items()):
            if held[pid] is None:
                continue
            c = count(held[pid], port, table)
            c["tcp"] = c["store"] + c["mesh_listen"] + c["mesh_links"]
            b = best.setdefault(rank, dict.fromkeys(c, 0))
            for k, v in c.items():
                b[k] = max(b[k], v)
        samples += 1
        time.sleep(interval)
    with open(out, "w") as f:
        json.dump({"samples": samples, "interval_s": interval, "ranks": {str(r): b for r, b in best.items()}}, f)


def stats(vals):
    if not vals:
        return "-"
    return f"{min(vals)} / {statistics.median(vals):g} / {max(vals)}"


def report(d):
    print("| case | ranks seen | samples | mesh sockets per rank (listening + links), min / median / max | formula "
          "| matches | of them listening | store sockets per rank | other sockets |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for path in sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".json") and n != "cases.json"):
        with open(path) as f:
            doc = json.load(f)
        case = os.path.basename(path)[:-5]
        with open(os.path.join(d, "cases.json")) as f:
            want = json.load(f).get(case, {})
        ranks = doc["ranks"]
        mesh = [b["mesh_listen"] + b["mesh_links"] for b in ranks.values()]
        expected = want.get("formula")
        ok = "-" if expected is None or not mesh else (
            "yes" if min(mesh) == max(mesh) == expected else "**no**")
        store = [b["store"] for r, b in ranks.items() if r != "0"]
        store0 = ranks.get("0", {}).get("store")
        print(f"| {case}: {want.get('what', '')} | {len(ranks)} of {want.get('world', '?')} | {doc['samples']} "
              f"| {stats(mesh)} | {expected if expected is not None else '-'} {want.get('formula_text', '')} "
              f"| {ok} | {stats([b['mesh_listen'] for b in ranks.values()])} "
              f"| {stats(store)} (rank 0: {store0}) | {stats([b['other'] for b in ranks.values()])} |")


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 0.2)
    else:
        report(sys.argv[2])
