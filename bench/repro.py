#!/usr/bin/env python3
"""Reads what repro.sh wrote into DIR and prints issue 22's reproducibility table: per system and W, over the cells
(collective x size) the max/min of busbw across the rounds (back-to-back runs of the same sweep), its median and worst
cell, and the goal for cctk (median <= 1.10, worst <= 1.5) beside Open MPI's figures from the same rounds.

usage: bench/repro.py DIR

cctk's figure of a cell is the CSV's busbw (the median of its repeats, as the product reports it); mpi's is one run's
busbw; mpi3's is the median of three runs' busbw in the round; zc's (bench/zc_peer.c, cctk's shared-memory
algorithms in C) one run's busbw, as mpi's. Where repro.sh measured it, the machine's cross-core
round trip before and after every run follows (it changes with no cctk code running: see bench/crosscore.c).
"""
import csv
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import human, runs  # noqa: E402  (one reader of runs.tsv and one size printer for the bench scripts)

NAMES = {"all_to_all": "alltoall"}
MEDIAN_GOAL, WORST_GOAL = 1.10, 1.5


def cctk_modes(d, w):
    """Per cell, the machine's cross-core reading (us) the product took right after the cell's size was measured."""
    got = {}
    for path in glob.glob(os.path.join(d, "profile_*.csv")):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if int(r["world_size"]) == w and r["in_place"] == "false" and r.get("crosscore_us"):
                    got[(r["collective"], int(r["size_bytes"]))] = float(r["crosscore_us"])
    return got


def probe_modes(out):
    """Per (round, W, system), crosscore.c's reading before and after the run, where both were taken."""
    got = {}
    path = os.path.join(out, "xcore.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) == 5 and p[3] not in ("-", "") and p[4] not in ("-", ""):
                    got[(int(p[0]), int(p[1]), p[2])] = (float(p[3]), float(p[4]))
    return got


def one_mode(values):
    """Of (busbw, reading) pairs, the busbw of those in the mode most of them share (readings within 2x of the
    fastest of that mode): the machine read the same way; a None reading (unknown mode) is left out."""
    known = sorted((m, v) for v, m in values if m is not None)
    if not known:
        return []
    fast = [v for m, v in known if m <= 2 * known[0][0]]
    slow = [v for m, v in known if m > 2 * known[0][0]]
    return fast if len(fast) >= len(slow) else slow


def cctk_cells(d, w):
    got = {}
    for path in glob.glob(os.path.join(d, "profile_*.csv")):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if int(r["world_size"]) != w or r["in_place"] != "false" or r.get("skipped") or not r["busbw_gbps"]:
                    continue
                if r["wrong"] not in ("0", ""):
                    continue
                got[(r["collective"], int(r["size_bytes"]))] = float(r["busbw_gbps"])
    return got


def mpi_file(path, w):
    got = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if int(r["world"]) == w and r["status"] == "ok":
                got[(NAMES.get(r["collective"], r["collective"]), int(r["size_bytes"]))] = float(r["busbw_GBps"])
    return got


def mpi_cells(d, w, median_of_files):
    files = sorted(glob.glob(os.path.join(d, "mpi*.csv"))) or sorted(glob.glob(os.path.join(d, "zc.csv")))
    tables = [mpi_file(p, w) for p in files]
    if not tables:
        return {}
    if not median_of_files:
        return tables[0]
    keys = set().union(*tables)
    return {k: statistics.median([t[k] for t in tables if k in t]) for k in keys}


def main(out):
    by = {}
    moded = {}
    xcores = probe_modes(out)
    for rnd, w, sysname, _t0, _t1, rc, d in runs(out):
        if rc != 0:
            continue
        cctk = sysname.startswith("cctk")
        cells = cctk_cells(d, w) if cctk else mpi_cells(d, w, sysname == "mpi3")
        modes = cctk_modes(d, w) if cctk else {}
        # a peer's run has one mode where crosscore.c read the same mode (within 2x) before and after it
        before_after = xcores.get((rnd, w, sysname))
        run_mode = None
        if before_after and max(before_after) <= 2 * min(before_after):
            run_mode = max(before_after)
        for k, v in cells.items():
            by.setdefault((sysname, w), {}).setdefault(k, []).append(v)
            moded.setdefault((sysname, w), {}).setdefault(k, []).append((v, modes.get(k) if cctk else run_mode))
    print("# Reproducibility: per cell max/min of busbw over back-to-back runs (rounds)\n")
    print("| system | W | cells | rounds | median max/min | worst max/min (cell) | goal (cctk: median <= 1.10, "
          "worst <= 1.5) |")
    print("|---|---|---|---|---|---|---|")
    detail = []
    for (sysname, w), cells in sorted(by.items(), key=lambda e: (e[0][1], e[0][0])):
        ratios = {k: max(v) / min(v) for k, v in cells.items() if len(v) >= 2 and min(v) > 0}
        if not ratios:
            continue
        rounds = max(len(v) for v in cells.values())
        med = statistics.median(ratios.values())
        worst_k = max(ratios, key=ratios.get)
        goal = ""
        if sysname == "cctk":
            goal = "met" if med <= MEDIAN_GOAL and ratios[worst_k] <= WORST_GOAL else "MISSED"
        print(f"| {sysname} | {w} | {len(ratios)} | {rounds} | {med:.3f} | {ratios[worst_k]:.3f} "
              f"({worst_k[0]} {human(worst_k[1])}) | {goal} |")
        for k in sorted(ratios):
            detail.append(f"| {sysname} | {w} | {k[0]} | {human(k[1])} | "
                          + " ".join(f"{x:.3g}" for x in cells[k]) + f" | {ratios[k]:.3f} |")
    print("\n## Within one machine mode: the same, over the rounds whose readings put the cell in the mode most of them"
          " share\n")
    print("cctk's rows carry the product's own reading taken right after their size was measured (`crosscore_us`); a"
          " peer's run counts where bench/crosscore.c read the same mode before and after it. A cell needs two rounds"
          " in one mode.\n")
    print("| system | W | cells | median max/min | worst max/min (cell) | rounds left out (other mode or unknown) |")
    print("|---|---|---|---|---|---|")
    for (sysname, w), cells in sorted(moded.items(), key=lambda e: (e[0][1], e[0][0])):
        ratios, left = {}, 0
        for k, pairs in cells.items():
            kept = one_mode(pairs)
            left += len(pairs) - len(kept)
            if len(kept) >= 2 and min(kept) > 0:
                ratios[k] = max(kept) / min(kept)
        if not ratios:
            print(f"| {sysname} | {w} | 0 | - | - | {left} |")
            continue
        worst_k = max(ratios, key=ratios.get)
        print(f"| {sysname} | {w} | {len(ratios)} | {statistics.median(ratios.values()):.3f} | "
              f"{ratios[worst_k]:.3f} ({worst_k[0]} {human(worst_k[1])}) | {left} |")
    print("\n## Every cell: busbw (GB/s) per round, and max/min\n")
    print("| system | W | collective | size | busbw by round | max/min |")
    print("|---|---|---|---|---|---|")
    print("\n".join(detail))
    probes(out)


def probes(out):
    """The machine's cross-core round trip of 1 MiB (bench/crosscore.c) before and after every run, when measured."""
    path = os.path.join(out, "xcore.tsv")
    if not os.path.exists(path):
        return
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.count("\t") == 4]
    if not rows:
        return
    print("\n## The machine: cross-core round trip of 1 MiB (us, bench/crosscore.c) before and after each run\n")
    print("| round | W | system | before | after |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |")


if __name__ == "__main__":
    main(sys.argv[1])
