#!/usr/bin/env python3
"""Counts the sockets each rank process of a `cctk run` holds, by sampling /proc while it runs (sockets.sh).

usage: bench/sockets.py sample LAUNCHER_PID OUT.json [INTERVAL_S]   until the launcher exits
       bench/sockets.py report DIR                                     the table of every DIR/*.json against the formula

A rank is a descendant of the launcher whose command line has `rank` and whose environment has RANK (the variable
the local launcher gives each rank). Each sample reads /proc/net/tcp and tcp6 once (inode -> state and ports) and
every rank's /proc/PID/fd links; a `socket:[inode]` link is
  store   a TCP socket to or from MASTER_PORT (the rendezvous store rank 0 serves), or listening on it;
  mesh    any other TCP socket: listening (state LISTEN) or a link to a peer;
  unix    a Unix socket (/proc/net/unix; the JVM holds one);
  gone    a socket in neither table when it was looked up (closed meanwhile, as the ranks close their links).
Per rank the maximum over the samples of each kind is kept (the mesh's links stay open until the communicator
closes, so the maximum is what the sweep opened). Each sample also reads the ranks' resident memory (VmRSS) and
MemAvailable, to show whether the world fits.
"""
import json
import os
import statistics
import sys
import time

LISTEN = "0A"


def unix_inodes():
    out = set()
    try:
        with open("/proc/net/unix") as f:
            next(f)
            for line in f:
                p = line.split()
                if len(p) > 6:
                    out.add(p[6])
    except OSError:
        pass
    return out


def kib(path, key):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


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


def count(inodes, master_port, table, unix):
    c = {"store": 0, "mesh_listen": 0, "mesh_links": 0, "unix": 0, "gone": 0}
    for inode in inodes:
        entry = table.get(inode)
        if entry is None:
            c["unix" if inode in unix else "gone"] += 1
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
    rss_max = 0
    avail_min = None
    while os.path.exists(f"/proc/{launcher}"):
        if samples % 10 == 0 or not known:
            known.update(ranks_of(launcher))
        held = {pid: socket_links(pid) for pid in known}
        table = tcp_table()  # read after the links, so a socket opened meanwhile is in it
        unix = unix_inodes()
        rss = 0
        for pid, (rank, port) in list(known.items()):
            if held[pid] is None:
                continue
            c = count(held[pid], port, table, unix)
            c["tcp"] = c["store"] + c["mesh_listen"] + c["mesh_links"]
            c["rss_kib"] = kib(f"/proc/{pid}/status", "VmRSS")
            rss += c["rss_kib"]
            b = best.setdefault(rank, dict.fromkeys(c, 0))
            for k, v in c.items():
                b[k] = max(b[k], v)
        rss_max = max(rss_max, rss)
        avail = kib("/proc/meminfo", "MemAvailable")
        avail_min = avail if avail_min is None else min(avail_min, avail)
        samples += 1
        time.sleep(interval)
    with open(out, "w") as f:
        json.dump({"samples": samples, "interval_s": interval, "rss_total_max_kib": rss_max,
                   "mem_available_min_kib": avail_min, "ranks": {str(r): b for r, b in best.items()}}, f)


def stats(vals):
    if not vals:
        return "-"
    return f"{min(vals)} / {statistics.median(vals):g} / {max(vals)}"


def report(d):
    print("| case | ranks seen | samples | mesh sockets per rank (listening + links), min / median / max | formula "
          "| matches | of them listening | store sockets per rank (rank 0) | unix | gone | rank RSS MiB, max "
          "| all ranks' RSS, max | MemAvailable, min |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    with open(os.path.join(d, "cases.json")) as f:
        cases = json.load(f)
    for case, want in cases.items():
        path = os.path.join(d, case + ".json")
        if not os.path.exists(path):
            print(f"| {case}: {want.get('what', '')} | not sampled | | | | | | | | | | | |")
            continue
        with open(path) as f:
            doc = json.load(f)
        ranks = doc["ranks"]
        mesh = [b["mesh_listen"] + b["mesh_links"] for b in ranks.values()]
        expected = want.get("formula")
        ok = "-" if expected is None or not mesh else (
            "yes" if min(mesh) == max(mesh) == expected else "**no**")
        store = [b["store"] for r, b in ranks.items() if r != "0"]
        store0 = ranks.get("0", {}).get("store")
        rss = max((b.get("rss_kib", 0) for b in ranks.values()), default=0) >> 10
        avail = doc.get("mem_available_min_kib")
        print(f"| {case}: {want.get('what', '')} (exit {want.get('exit')}) | {len(ranks)} of {want.get('world', '?')} "
              f"| {doc['samples']} | {stats(mesh)} | {expected if expected is not None else '-'} "
              f"{want.get('formula_text', '')} | {ok} | {stats([b['mesh_listen'] for b in ranks.values()])} "
              f"| {stats(store)} ({store0}) | {stats([b['unix'] for b in ranks.values()])} "
              f"| {stats([b['gone'] for b in ranks.values()])} | {rss} | {doc.get('rss_total_max_kib', 0) >> 10} MiB "
              f"| {'-' if avail is None else str(avail >> 10) + ' MiB'} |")


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 0.2)
    else:
        report(sys.argv[2])
