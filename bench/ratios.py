#!/usr/bin/env python3
"""Reads the CSVs vs-gloo.sh wrote into DIR and prints median busbw per system and cctk/baseline ratios.

usage: bench/ratios.py DIR
Baseline: Gloo (torch_gloo.py's peers CSV); for a collective Gloo lacks (reduce_scatter: its rows say
"unsupported"), Open MPI over TCP (mpi_peer.c's CSV) when measured. cctk: TcpBench's CSV.
"""
import csv
import glob
import os
import statistics
import sys


def load(pattern):
    rows = {}
    for path in glob.glob(pattern):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("status", "ok") not in ("ok", ""):
                    continue
                try:
                    bw = float(row["busbw_GBps"])
                except (KeyError, ValueError):
                    continue
                key = (int(row["world"]), row["collective"], int(row["size_bytes"]))
                rows.setdefault(key, []).append(bw)
    return rows


def human(n):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def main():
    d = sys.argv[1]
    cctk = load(os.path.join(d, "cctk_*.csv"))
    gloo = load(os.path.join(d, "gloo_*.csv"))
    mpi = load(os.path.join(d, "mpi_*.csv"))
    print("| collective | W | size | cctk busbw GB/s | baseline | baseline busbw GB/s | ratio | runs (cctk/base) |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    for key in sorted(cctk, key=lambda k: (k[1], k[0], k[2])):
        w, coll, size = key
        mine = statistics.median(cctk[key])
        base, name = gloo.get(key), "gloo"
        if not base:
            base, name = mpi.get(key), "mpi-tcp"
        if base:
            b = statistics.median(base)
            print(f"| {coll} | {w} | {human(size)} | {mine:.3f} | {name} | {b:.3f} | {mine / b:.2f}x "
                  f"| {len(cctk[key])}/{len(base)} |")
        else:
            print(f"| {coll} | {w} | {human(size)} | {mine:.3f} | none | - | - | {len(cctk[key])}/0 |")


if __name__ == "__main__":
    main()
