#!/usr/bin/env python3
"""Reads what vs-peers.sh wrote into DIR and prints issue 16's table: per collective, W and size the median busbw
over rounds of cctk (backend tcp), cctk-flat (backend tcp-flat), Gloo and Open MPI (default transports), the ratios
cctk/Gloo and cctk/MPI against the goals (>= 2.0 and >= 1.0), and the rounds' spread.

usage: bench/peers.py DIR

Every system's busbw uses nccl-tests' sizes and factors (all_reduce 2(W-1)/W; all_gather, reduce_scatter, all-to-all
(W-1)/W; broadcast 1), as torch_gloo.py, mpi_peer.c and the product's CSV state, so no conversion is made.
cctk's figures are the CSV's out-of-place rows (in_place false) unless only in-place rows were measured.
"""
import csv
import glob
import json
import os
import statistics
import sys

GLOO_GOAL, MPI_GOAL = 2.0, 1.0
NAMES = {"all_to_all": "alltoall"}  # the peers' name -> cctk's


def human(n):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def runs(out):
    """(round, W, system, t0, t1, rc, dir) per line of runs.tsv."""
    rows = []
    with open(os.path.join(out, "runs.tsv")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) == 7:
                rows.append((int(p[0]), int(p[1]), p[2], float(p[3]), float(p[4]), int(p[5]), p[6]))
    return rows


def cctk_rows(d, w):
    """{(coll, size): busbw} of one cctk run (out-of-place rows), or a note when wrong or missing."""
    got, wrong, layout = {}, [], "false"
    paths = glob.glob(os.path.join(d, "profile_*.csv"))
    table = []
    for path in paths:
        with open(path, newline="") as f:
            table += [r for r in csv.DictReader(f) if int(r["world_size"]) == w]
    if table and not any(r["in_place"] == "false" for r in table):
        layout = "true"
    for r in table:
        if r["in_place"] != layout or r.get("skipped") or not r.get("busbw_gbps"):
            continue
        key = (r["collective"], int(r["size_bytes"]))
        if r["wrong"] not in ("0", ""):
            wrong.append(f"{key[0]} {human(key[1])}: {r['wrong']} wrong")
            continue
        got[key] = float(r["busbw_gbps"])
    return got, wrong, layout


def peer_rows(d, w):
    got, notes = {}, []
    for path in glob.glob(os.path.join(d, "*.csv")):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if int(r["world"]) != w:
                    continue
                key = (NAMES.get(r["collective"], r["collective"]), int(r["size_bytes"]))
                if r["status"] != "ok":
                    notes.append((key, r["status"]))
                    continue
                got[key] = float(r["busbw_GBps"])
    return got, notes


def transports(d):
    """What carried a cctk run's links, from the result JSON's ranks (nics column: 'none' = shared memory)."""
    seen = set()
    for path in glob.glob(os.path.join(d, "profile_*.json")):
        with open(path) as f:
            doc = json.load(f)
        for rk in doc.get("ranks", []):
            seen.add(str(rk.get("nics", "?")).split(" (")[0])
    return ",".join(sorted(seen)) or "?"


def settings(d):
    """What a cctk run measured with (the result JSON's args, less the JIT warm-up it took), to compare runs."""
    for path in glob.glob(os.path.join(d, "profile_*.json")):
        with open(path) as f:
            args = dict(json.load(f).get("args", {}))
        args.pop("jit_warmup", None)
        return args
    return None


def foreign_cpu(out):
    """[(epoch, foreign %)] from the monitor's log, when there is one."""
    path = os.path.join(out, "interference.tsv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        next(f, None)
        return [(float(p[0]), float(p[1])) for p in (line.split("\t") for line in f) if len(p) >= 2]


def spread(vals):
    m = statistics.median(vals)
    return (max(vals) - min(vals)) / m if m > 0 and len(vals) > 1 else 0.0


def cell(vals):
    if not vals:
        return "-"
    return f"{statistics.median(vals):.3f} [{spread(vals):.0%}]"


def ratio(mine, base, per_round, goal):
    """Median-over-rounds ratio, the rounds' own ratios (same round, same W) and whether the goal holds."""
    if not mine or not base:
        return "-", "n/a"
    r = statistics.median(mine) / statistics.median(base)
    pr = sorted(per_round)
    met = sum(1 for x in pr if x >= goal)
    rng = f" ({pr[0]:.2f}-{pr[-1]:.2f})" if len(pr) > 1 else ""
    return f"{r:.2f}x{rng}", ("yes" if r >= goal else "**no**") + f" {met}/{len(pr)}"


def main(out):
    rs = runs(out)
    mon = foreign_cpu(out)
    data = {}      # (system, W) -> {round: {(coll, size): busbw}}
    notes = []
    unsupported = {}
    carriers = {}
    load = {}      # system -> [mean foreign CPU % of each run]
    specs = {}
    for rnd, w, sysname, t0, t1, rc, d in rs:
        if sysname.startswith("cctk"):
            got, wrong, layout = cctk_rows(d, w)
            notes += [f"{sysname} W={w} round {rnd}: {x}" for x in wrong]
            carriers.setdefault((sysname, w), set()).add(transports(d))
            specs[(sysname, w, rnd)] = settings(d)
            if layout != "false":
                notes.append(f"{sysname} W={w} round {rnd}: only in-place rows, used those")
        else:
            got, bad = peer_rows(d, w)
            for key, status in bad:
                if status.startswith("unsupported"):
                    unsupported[(sysname, key[0])] = status
                else:
                    notes.append(f"{sysname} W={w} round {rnd} {key[0]} {human(key[1])}: {status}")
        if rc != 0:
            notes.append(f"{sysname} W={w} round {rnd} exited {rc}: {d}/run.log")
        data.setdefault((sysname, w), {})[rnd] = got
        window = [p for e, p in mon if t0 <= e <= t1]
        if window:
            load.setdefault(sysname, []).append(sum(window) / len(window))

    keys = sorted({(w, k) for (s, w), byr in data.items() if s == "cctk" for g in byr.values() for k in g},
                  key=lambda x: (x[1][0], x[0], x[1][1]))

    def vals(system, w, key):
        return [g[key] for g in data.get((system, w), {}).values() if key in g]

    def per_round(system, w, key):
        mine, base = data.get(("cctk", w), {}), data.get((system, w), {})
        return [mine[r][key] / base[r][key] for r in mine if r in base and key in mine[r] and key in base[r]
                and base[r][key] > 0]

    print("| collective | W | size | cctk | cctk-flat | cctk / flat | Gloo | cctk / Gloo | ≥ 2.0 | Open MPI shm "
          "| cctk / MPI | ≥ 1.0 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|")
    missed = []
    tally = {"gloo": [0, 0], "mpi": [0, 0]}
    for w, key in keys:
        coll, size = key
        mine = vals("cctk", w, key)
        flat = vals("cctk-flat", w, key)
        gloo = vals("gloo", w, key)
        mpi = vals("mpi", w, key)
        shm_gain = f"{statistics.median(mine) / statistics.median(flat):.2f}x" if mine and flat else "-"
        rg, gg = ratio(mine, gloo, per_round("gloo", w, key), GLOO_GOAL)
        rm, gm = ratio(mine, mpi, per_round("mpi", w, key), MPI_GOAL)
        if not gloo and ("gloo", coll) in unsupported:
            gg = "n/a (Gloo lacks it)"
        for name, g in (("gloo", gg), ("mpi", gm)):
            if g.startswith(("yes", "**no")):
                tally[name][1] += 1
                tally[name][0] += g.startswith("yes")
                if not g.startswith("yes"):
                    missed.append(f"{coll} W={w} {human(size)} vs {name}")
        print(f"| {coll} | {w} | {human(size)} | {cell(mine)} | {cell(flat)} | {shm_gain} | {cell(gloo)} | {rg} "
              f"| {gg} | {cell(mpi)} | {rm} | {gm} |")
    print()
    print("busbw in GB/s (10^9 B/s), nccl-tests' definitions; each busbw cell is the median over rounds and "
          "[(max - min) / median over rounds]; a ratio is median over median, with the range of the same-round "
          "ratios in brackets; goal columns: met by the medians, and in how many rounds.")
    print()
    print(f"Goals: cctk / Gloo ≥ {GLOO_GOAL} met in {tally['gloo'][0]} of {tally['gloo'][1]} cells; "
          f"cctk / Open MPI ≥ {MPI_GOAL} met in {tally['mpi'][0]} of {tally['mpi'][1]} cells.")
    if missed:
        print("Missed: " + "; ".join(missed) + ".")
    for (sysname, coll), status in sorted(unsupported.items()):
        print(f"{sysname} {coll}: {status}")
    for (sysname, w), c in sorted(carriers.items()):
        print(f"{sysname} W={w}: links carried by {' / '.join(sorted(c))} (result JSON, ranks' nics; none = shared "
              f"memory)")
    pairs = [(w, r) for (s, w, r) in specs if s == "cctk" and ("cctk-flat", w, r) in specs]
    if pairs:
        same = all(specs[("cctk", w, r)] == specs[("cctk-flat", w, r)] for w, r in pairs)
        print("cctk and cctk-flat settings (result JSON args: sizes, types, iterations, layout, JVM options): "
              + ("the same" if same else "DIFFER, see the runs' profile_*.json") + f" in {len(pairs)} pairs")
    skipped = os.path.join(out, "not-measured.txt")
    if os.path.exists(skipped):
        with open(skipped) as f:
            print(f.read().strip())
    rounds = sorted({r[0] for r in rs})
    print(f"Rounds: {len(rounds)}; runs: {len(rs)}; failed runs: {sum(1 for r in rs if r[5] != 0)}.")
    if load:
        print("Foreign CPU during the runs (processes outside the benchmark, % of one core, mean per run): "
              + "; ".join(f"{s} {min(v):.0f}-{max(v):.0f}%" for s, v in sorted(load.items())) + ".")
    for n in notes:
        print("note: " + n)


if __name__ == "__main__":
    main(sys.argv[1])
