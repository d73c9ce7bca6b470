#!/usr/bin/python3
"""Foreign CPU during a benchmark: every INTERVAL seconds, the CPU time that processes outside the process tree of
PID used since the last sample, in % of one core, until PID exits. vs-peers.sh starts it; peers.py averages it over
each run's window.

usage: bench/monitor.py PID OUT.tsv [INTERVAL=0.5]
OUT.tsv: a header, then "epoch<TAB>foreign_pct<TAB>busiest" per sample (busiest: the foreign process that used most,
as name:pid). From /proc/PID/stat (utime + stime of all the threads of a process, proc(5)); a process that started and
ended between two samples is not seen, and one first seen counts only from then on.
"""
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def table():
    """{pid: (ppid, cpu ticks, name)} of every process now."""
    procs = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:  # gone meanwhile
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        rest = s[s.rindex(")") + 2:].split()  # fields 3.. of proc(5): state ppid ... utime(14) stime(15)
        procs[int(d)] = (int(rest[1]), int(rest[11]) + int(rest[12]), name)
    return procs


def tree(procs, root):
    kids = {}
    for pid, (ppid, _, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    mine, todo = set(), [root]
    while todo:
        p = todo.pop()
        mine.add(p)
        todo += kids.get(p, [])
    return mine


def main():
    root, out = int(sys.argv[1]), sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    before, t_before = table(), time.time()
    with open(out, "w") as f:
        f.write("epoch\tforeign_pct\tbusiest\n")
        while os.path.exists(f"/proc/{root}"):
            time.sleep(interval)
            now, t_now = table(), time.time()
            mine = tree(now, root)
            used = {p: v[1] - before[p][1] for p, v in now.items() if p not in mine and p in before}
            top = max(used, key=used.get, default=None)
            pct = sum(used.values()) / TICK / (t_now - t_before) * 100
            busiest = f"{now[top][2]}:{top}" if top is not None and used[top] > 0 else "-"
            f.write(f"{t_now:.3f}\t{pct:.1f}\t{busiest}\n")
            f.flush()
            before, t_before = now, t_now


if __name__ == "__main__":
    main()
