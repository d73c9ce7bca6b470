#!/usr/bin/env python3
"""Reads what gloo-module.sh wrote into DIR and prints issue 28's table (see gloo-module.sh).

usage: bench/gloo-module.py DIR
"""
import csv
import glob
import os
import statistics
import sys

IN_PLACE = {"all_reduce": "true", "broadcast": "true", "all_gather": "false", "alltoall": "false"}


def human(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def main(out):
    rounds = {}  # (W, coll, size) -> system -> {round: busbw}
    wrong = 0
    versions = {}  # torch, torch2 -> PyTorch version
    for line in open(os.path.join(out, "runs.tsv")):
        r, w, system, rc, d = line.rstrip("\n").split("\t")
        if rc != "0":
            continue
        for path in glob.glob(os.path.join(d, "*.csv")):
            for row in csv.DictReader(open(path, newline="")):
                if system.startswith("torch"):
                    versions[system] = row["torch"]
                elif row.get("skipped") or row["in_place"] != IN_PLACE.get(row["collective"]):
                    continue
                if row["busbw_gbps"] == "":
                    continue
                wrong += int(row["wrong"] or 0)
                key = (int(w), row["collective"], int(row["size_bytes"]))
                rounds.setdefault(key, {}).setdefault(system, {})[int(r)] = float(row["busbw_gbps"])
    peers = [t for t in ("torch", "torch2", "torch-own") if t in versions]
    names = ", ".join(f"{t}: PyTorch {versions[t]}" for t in peers)
    names += "; torch and torch2 on page-aligned buffers, as cctk's" + (
        ", torch-own where PyTorch's allocator puts them" if "torch-own" in peers else "")
    print(f"torch.distributed ({names}; torch is the system's python3-torch unless the header says otherwise); "
          f"cctk gloo: the module's libtorch (its rank header names it); wrong results in all rows: {wrong}")
    print()
    systems = ["gloo"] + peers + ["tcp"]
    print("| W | collective | size | " + " | ".join(f"{x} busbw" for x in systems) + " | "
          + " | ".join(f"gloo/{t}" for t in peers) + " | tcp/gloo | rounds | max/min " + ", ".join(systems) + " | "
          + " | ".join(f"gloo/{t} in each round" for t in peers) + " |")
    print("|" + "---|" * (3 + len(systems) + 2 * len(peers) + 3))
    big = {t: [] for t in peers}
    steady = {t: [] for t in peers}  # cells at 16/64 MiB whose ratio is outside +-15 % on the same side in every round
    nan = float("nan")
    for (w, c, s), byr in sorted(rounds.items()):
        v = {x: list(d.values()) for x, d in byr.items()}
        g = v.get("gloo", [])
        if not g:
            continue
        med = {x: statistics.median(v[x]) for x in systems if v.get(x)}
        ratios = []
        for t in peers:
            r = med["gloo"] / med[t] if t in med else nan
            ratios.append(f"{r:.2f}")
            if s >= 16 << 20 and t in med:
                big[t].append(r)
        pg = med["tcp"] / med["gloo"] if "tcp" in med else nan
        spread = ", ".join(f"{max(v[x]) / min(v[x]):.2f}" if v.get(x) else "-" for x in systems)
        # each round's own ratio: both systems ran within minutes of each other, on the machine as it was then
        paired = []
        for t in peers:
            per = [byr["gloo"][k] / byr[t][k] for k in sorted(byr["gloo"]) if k in byr.get(t, {})]
            paired.append(" ".join(f"{x:.2f}" for x in per) or "-")
            if s >= 16 << 20 and per and (all(x < 0.85 for x in per) or all(x > 1.15 for x in per)):
                steady[t].append(f"W={w} {c} {human(s)}")
        print(f"| {w} | {c} | {human(s)} | " + " | ".join(f"{med.get(x, nan):.3g}" for x in systems) + " | "
              + " | ".join(ratios) + f" | {pg:.2f} | {len(g)} | {spread} | " + " | ".join(paired) + " |")
    for t in peers:
        if big[t]:
            inside = sum(1 for x in big[t] if 0.85 <= x <= 1.15)
            print()
            print(f"gloo/{t} (PyTorch {versions[t]}) at 16 and 64 MiB: {inside} of {len(big[t])} cells within +-15 % "
                  f"(range {min(big[t]):.2f}-{max(big[t]):.2f}); outside it on the same side in every round: "
                  f"{len(steady[t])} ({', '.join(steady[t]) or 'none'})")


if __name__ == "__main__":
    main(sys.argv[1])
