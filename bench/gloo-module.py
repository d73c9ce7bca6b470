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
    by = {}  # (W, coll, size) -> system -> [busbw per round]
    wrong = 0
    torch_version = "?"
    for line in open(os.path.join(out, "runs.tsv")):
        r, w, system, rc, d = line.rstrip("\n").split("\t")
        if rc != "0":
            continue
        for path in glob.glob(os.path.join(d, "*.csv")):
            for row in csv.DictReader(open(path, newline="")):
                if system == "torch":
                    torch_version = row["torch"]
                elif row.get("skipped") or row["in_place"] != IN_PLACE.get(row["collective"]):
                    continue
                if row["busbw_gbps"] == "":
                    continue
                wrong += int(row["wrong"] or 0)
                key = (int(w), row["collective"], int(row["size_bytes"]))
                by.setdefault(key, {}).setdefault(system, []).append(float(row["busbw_gbps"]))
    print(f"torch.distributed: PyTorch {torch_version} (the system's python3-torch); cctk gloo: the module's libtorch "
          f"(its rank header names it); wrong results in all rows: {wrong}")
    print()
    print("| W | collective | size | gloo busbw | torch busbw | tcp busbw | gloo/torch | tcp/gloo | rounds "
          "| max/min gloo, torch, tcp |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    big = []
    for (w, c, s), v in sorted(by.items()):
        g, t, p = v.get("gloo", []), v.get("torch", []), v.get("tcp", [])
        if not g:
            continue
        med = {k: statistics.median(x) for k, x in (("g", g), ("t", t), ("p", p)) if x}
        gt = med["g"] / med["t"] if "t" in med else float("nan")
        pg = med["p"] / med["g"] if "p" in med else float("nan")
        if s >= 16 << 20 and t:
            big.append(gt)
        spread = ", ".join(f"{max(x) / min(x):.2f}" if x else "-" for x in (g, t, p))
        print(f"| {w} | {c} | {human(s)} | {med['g']:.3g} | {med.get('t', float('nan')):.3g} | "
              f"{med.get('p', float('nan')):.3g} | {gt:.2f} | {pg:.2f} | {len(g)} | {spread} |")
    if big:
        inside = sum(1 for x in big if 0.85 <= x <= 1.15)
        print()
        print(f"gloo/torch at 16 and 64 MiB: {inside} of {len(big)} cells within +-15 % "
              f"(range {min(big):.2f}-{max(big):.2f})")


if __name__ == "__main__":
    main(sys.argv[1])
