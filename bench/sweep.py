#!/usr/bin/env python3
"""Reads what sweep.sh wrote into DIR and prints issue 15's four figures against their goals (medians over rounds).

usage: bench/sweep.py DIR
"""
import csv
import glob
import json
import os
import statistics
import sys

MIB = 1 << 20


def iterations(doc):
    args = doc.get("args", {})
    return args.get("warmup_iters", 0) + args.get("iters", 0) + args.get("check_iters", 0)


def collective_seconds(keep):
    """Sum over the CSV's measured rows of time_us x (warm-up + timed + check iterations), in seconds."""
    csvs = glob.glob(os.path.join(keep, "*.csv"))
    jsons = glob.glob(os.path.join(keep, "*.json"))
    if not csvs or not jsons:
        return None
    with open(jsons[0]) as f:
        n = iterations(json.load(f))
    total = 0.0
    with open(csvs[0], newline="") as f:
        for row in csv.DictReader(f):
            if row["time_us"] and not row["skipped"]:
                total += float(row["time_us"]) * n
    return total / 1e6


def fill_check(keep):
    jsons = glob.glob(os.path.join(keep, "*.json"))
    if not jsons:
        return None
    with open(jsons[0]) as f:
        doc = json.load(f)
    fc = (doc.get("summary") or {}).get("fill_check") or {}
    return fc.get("gbps_per_rank")


def largest(name):
    return 64 * MIB if name.endswith("64") else 256 * MIB


def fmt(v, digits=2):
    return "n/a" if v is None else f"{v:.{digits}f}"


def main(out):
    runs = {}
    path = os.path.join(out, "runs.txt")  # absent when only start-up was measured (WHAT=startup)
    with open(path) if os.path.exists(path) else open(os.devnull) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6:
                continue
            _, what, name, wall, rss, keep = parts[:6]
            runs.setdefault((what, name), []).append((float(wall), int(rss), keep))
    print(f"# issue 15 benchmarks: {out}")
    print()
    print("| figure | run | median | each round | goal |")
    print("|---|---|---|---|---|")
    for (what, name), rs in sorted(runs.items()):
        if what == "efficiency":
            vals = []
            for wall, _, keep in rs:
                inside = collective_seconds(keep)
                vals.append(None if not inside else wall / inside)
            good = [v for v in vals if v is not None]
            walls = ", ".join(f"{w:.1f}" for w, _, _ in rs)
            print(f"| sweep efficiency | {name} | {fmt(statistics.median(good) if good else None)} | "
                  f"{', '.join(fmt(v) for v in vals)} (wall s: {walls}) | <= 1.25 |")
        elif what == "memory":
            mib = [r / 1024 for _, r, _ in rs]
            goal = (3 * largest(name) + 150 * MIB) / MIB
            print(f"| peak RSS per rank, MiB | {name} | {statistics.median(mib):.0f} | "
                  f"{', '.join(f'{m:.0f}' for m in mib)} | <= {goal:.0f} |")
        elif what == "fillcheck":
            vals = [fill_check(keep) for _, _, keep in rs]
            good = [v for v in vals if v is not None]
            print(f"| fill+check GB/s per rank | {name} | {fmt(statistics.median(good) if good else None)} | "
                  f"{', '.join(fmt(v) for v in vals)} | >= 2 |")
    starts = {}
    path = os.path.join(out, "starts.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 4:
                    starts.setdefault(parts[2], []).append(float(parts[3]))
    if "cctk" in starts:
        c = statistics.median(starts["cctk"])
        t = statistics.median(starts["torch"]) if "torch" in starts else None
        ratio = f", {c / t:.2f} of torch's {t:.2f} s" if t else ""
        print(f"| start-up s (demo allreduce --nproc 2) | cctk | {c:.2f}{ratio} | "
              f"{', '.join(f'{v:.2f}' for v in starts['cctk'])} | <= 0.55 and <= 0.2 x torch |")
        if t:
            print(f"| start-up s (bench/torch_hello.py 2) | torch | {t:.2f} | "
                  f"{', '.join(f'{v:.2f}' for v in starts['torch'])} | |")
    load = os.path.join(out, "load.txt")
    if os.path.exists(load):
        print()
        with open(load) as f:
            for line in f:
                print("    " + line.rstrip())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
