#!/usr/bin/python3
"""PyTorch's torch.distributed on Gloo, timed the way cctk's product times a row: the Gloo peer of the bench scripts
(gloo-module.sh, vs-peers.sh, vs-gloo.sh, cpu-cost.sh).

Starts W processes on this machine (torch.multiprocessing, a FileStore in a private temporary directory, Gloo on
127.0.0.1), and for every collective and size: one call checked against known values on every rank, WARMUP untimed
calls, then a timed loop of ITERS calls back to back after a barrier (as cctk and nccl-tests time them), REPEATS times:
interleaved as cctk's repeats are (every repeat warms up and times each cell of a size in turn, in reverse order every
other repeat; --order back-to-back: one cell's loops back to back after one warm-up). A loop's
time is the slowest rank's mean per call; the row reports the median of the loops and their spread
((slowest - fastest) / median). cctk also re-times a loop during which its JIT compiler or collector ran; Python has
neither, so nothing is re-timed here.

Sizes and bandwidths as nccl-tests and cctk define them: all_reduce and broadcast: size = bytes per rank; all_gather:
size = total output bytes; alltoall: size = bytes each rank sends; busbw = algbw x (all_reduce 2(W-1)/W, all_gather and
alltoall (W-1)/W, broadcast 1). float32, sum, out of place where the call has two buffers (all_gather, alltoall) and in
place where it has one (all_reduce, broadcast: torch.distributed's own form).

usage: bench/torch_gloo.py -w W --sizes 1MiB,16MiB --collectives all_reduce,all_gather,broadcast,alltoall --csv F
       [--warmup 5] [--iters 20] [--repeats 3] [--each] [--format cctk|peers] [--list-gather] [--placement page|torch]
       [--order interleaved|back-to-back] [--cpu-bind auto|none]

--cpu-bind auto (the default) places ranks that outnumber the CPUs this program may use as cctk run does: rank r bound
to the (r mod n)-th CPU, so both systems run with the same ranks sharing a core; none leaves them to the kernel.

--placement says where each buffer starts within its page of memory. page (the default): on a page boundary (4 KiB),
as every buffer of cctk's gloo backend does: a view of an over-allocated tensor. torch: where PyTorch's allocator
puts it (it asks glibc for 64-byte alignment, so a large tensor starts 64 bytes into a page). On a 2-vCPU VM the
kernel's copy out of a socket into a buffer 64 bytes into its page took twice as long as into a page-aligned one
(a 64 MiB W=2 broadcast: 25-29 ms a call against 13-14), in cctk and in Python alike: bench/RESULTS.md, issue 28.

all_gather runs in the tensor form (all_gather_single or all_gather_into_tensor: c10d's _allgather_base, the call cctk's gloo backend
makes) where the PyTorch has it (2.x), and in the list form into views of one tensor where it has not (1.13), or
with --list-gather.

--each times every call alone instead (barrier; t0; call; t1; the mean of the calls), the method of cctk's inner
TcpBench, for vs-gloo.sh and cpu-cost.sh. --format peers writes the columns of the bench scripts' peers (as
bench/mpi_peer.c does; read by peers.py, ratios.py): system, world, collective (as given), size_bytes, time_us,
algbw_GBps, busbw_GBps, status (ok, "wrong (N ranks)", "unsupported: ..."), repeats, spread_pct, method, torch; the
default, cctk, the columns gloo-module.py reads. Sizes take KiB/MiB/GiB or K/M/G (both powers of 1024); all_to_all
is another name for alltoall. reduce_scatter (size = total input bytes, busbw factor (W-1)/W) is tried too: PyTorch
1.13's Gloo lacks it, and its row then says "unsupported" (peers format) or is left empty (cctk format).
"""
import argparse
import csv
import os
import statistics
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

FACTOR = {"all_reduce": lambda w: 2 * (w - 1) / w, "all_gather": lambda w: (w - 1) / w,
          "alltoall": lambda w: (w - 1) / w, "broadcast": lambda w: 1.0, "reduce_scatter": lambda w: (w - 1) / w}
ALIAS = {"all_to_all": "alltoall"}
# PyTorch 2.x's Gloo gathers into one tensor (_allgather_base: all_gather_single, before 2.13 all_gather_into_tensor);
# 1.13's has only the list form. --list-gather forces the list form on 2.x too.
TENSOR_GATHER = getattr(dist, "all_gather_single", getattr(dist, "all_gather_into_tensor", None))
if "--list-gather" in sys.argv or int(torch.__version__.split(".")[0]) < 2:  # 1.13 names it, its Gloo lacks it
    TENSOR_GATHER = None


def parse_size(s):
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "B": 1}
    for u, m in units.items():
        if s.endswith(u):
            return int(s[:-len(u)]) * m
    return int(s)


PAGE = 4096


def buffer(n, fill, placement):
    """n float32 elements set to fill (None: uninitialised), starting where --placement says."""
    if placement == "torch":
        return torch.empty(n, dtype=torch.float32) if fill is None else torch.full((n,), fill, dtype=torch.float32)
    raw = torch.empty(n + PAGE // 4, dtype=torch.float32)
    skip = (PAGE - raw.data_ptr() % PAGE) % PAGE // 4
    view = raw[skip:skip + n]
    assert view.data_ptr() % PAGE == 0
    if fill is not None:
        view.fill_(fill)
    return view


def setup(coll, size, w, rank, placement="page"):
    """(call, check) for one cell: call() runs the collective once, check() verifies the first call's result."""
    n = size // 4
    coll = ALIAS.get(coll, coll)
    if coll == "all_reduce":
        buf = buffer(n, float(rank + 1), placement)
        return lambda: dist.all_reduce(buf), lambda: bool(torch.all(buf == w * (w + 1) / 2)), buf
    if coll == "broadcast":
        buf = buffer(n, 7.0 if rank == 0 else 0.0, placement)
        return lambda: dist.broadcast(buf, 0), lambda: bool(torch.all(buf == 7)), buf
    if coll == "all_gather":
        part = buffer(n // w, float(rank + 1), placement)
        out = buffer(n // w * w, None, placement)
        if TENSOR_GATHER:
            # the tensor form, c10d's _allgather_base: the call cctk's gloo backend makes
            def call():
                TENSOR_GATHER(out, part)
        else:
            # the list form into views of one tensor: PyTorch 1.13's Gloo has no _allgather_base (the tensor form)
            views = list(out.chunk(w))

            def call():
                dist.all_gather(views, part)
        expect = torch.arange(1, w + 1, dtype=torch.float32).repeat_interleave(n // w)
        return call, lambda: bool(torch.equal(out, expect)), out
    if coll == "alltoall":
        src = buffer(n // w * w, float(rank + 1), placement)
        out = buffer(n // w * w, None, placement)

        def call():
            dist.all_to_all_single(out, src)
        expect = torch.arange(1, w + 1, dtype=torch.float32).repeat_interleave(n // w)
        return call, lambda: bool(torch.equal(out, expect)), out
    if coll == "reduce_scatter":
        src = buffer(n // w * w, float(rank + 1), placement)
        out = buffer(n // w, None, placement)
        parts = list(src.chunk(w))

        def call():
            dist.reduce_scatter(out, parts)
        return call, lambda: bool(torch.all(out == w * (w + 1) / 2)), out
    raise SystemExit("unknown collective " + coll)


def timed_loop(call, args):
    """One timed loop's mean seconds per call (after a barrier; with --each every call alone after its own)."""
    if args.each:
        spent = 0.0
        for _ in range(args.iters):
            dist.barrier()
            t0 = time.perf_counter()
            call()
            spent += time.perf_counter() - t0
    else:
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(args.iters):
            call()
        spent = time.perf_counter() - t0
    return spent / args.iters


def worker(rank, w, store_file, args, queue):
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    cpus = sorted(os.sched_getaffinity(0))  # the launcher's, inherited
    if args.cpu_bind == "auto" and w > len(cpus):
        os.sched_setaffinity(0, {cpus[rank % len(cpus)]})  # as cctk run binds ranks that outnumber the CPUs
    dist.init_process_group("gloo", init_method="file://" + store_file, rank=rank, world_size=w)
    colls = args.collectives.split(",")
    for s in args.sizes.split(","):
        size = parse_size(s)
        cells = []  # (coll, call, ok, loops) of this size's cells that run
        for coll in colls:
            call, check, _ = setup(coll, size, w, rank, args.placement)
            try:
                call()
            except RuntimeError as e:  # a collective this Gloo lacks fails at once on every rank, before any traffic
                queue.put((rank, coll, size, "unsupported: " + str(e).splitlines()[0], []))
                continue
            cells.append((coll, call, check(), []))
        if args.order == "interleaved":
            # as cctk's repeats: every repeat warms up and times each cell of the size in turn, in reverse order
            # every other repeat
            for r in range(args.repeats):
                for coll, call, ok, loops in (cells if r % 2 == 0 else cells[::-1]):
                    for _ in range(args.warmup):
                        call()
                    loops.append(timed_loop(call, args))
        else:
            for coll, call, ok, loops in cells:
                for _ in range(args.warmup):
                    call()
                for _ in range(args.repeats):
                    loops.append(timed_loop(call, args))
        for coll, call, ok, loops in cells:
            queue.put((rank, coll, size, ok, loops))
    dist.barrier()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-w", type=int, required=True)
    p.add_argument("--sizes", default="1MiB,16MiB,64MiB")
    p.add_argument("--collectives", default="all_reduce,all_gather,broadcast,alltoall")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--each", action="store_true", help="time every call alone after a barrier")
    p.add_argument("--order", choices=("interleaved", "back-to-back"), default="interleaved",
                   help="a size's repeats interleaved across its cells, each warmed up (as cctk's), or one cell's "
                        "repeats back to back after one warm-up")
    p.add_argument("--format", choices=("cctk", "peers"), default="cctk")
    p.add_argument("--list-gather", action="store_true", help="all_gather in the list form on PyTorch 2.x too")
    p.add_argument("--placement", choices=("page", "torch"), default="page",
                   help="buffers on a page boundary (as cctk's) or where PyTorch's allocator puts them")
    p.add_argument("--cpu-bind", choices=("auto", "none"), default="auto",
                   help="ranks that outnumber the CPUs: each bound to one in turn (auto, as cctk run) or left to the"
                        " kernel (none)")
    p.add_argument("--csv", required=True)
    args = p.parse_args()
    w = args.w
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    with tempfile.TemporaryDirectory(prefix="torch-gloo-") as tmp:
        store = os.path.join(tmp, "store")
        procs = [ctx.Process(target=worker, args=(r, w, store, args, queue)) for r in range(w)]
        for pr in procs:
            pr.start()
        cells = len(args.collectives.split(",")) * len(args.sizes.split(","))
        got = {}
        n = 0
        while n < cells * w:
            try:
                rank, coll, size, ok, loops = queue.get(timeout=5)
            except Exception:  # queue.Empty: a rank that died sends nothing more
                dead = [pr.exitcode for pr in procs if pr.exitcode not in (None, 0)]
                if dead:
                    for pr in procs:
                        pr.kill()
                    raise SystemExit(f"a rank exited with {dead[0]}")
                continue
            got.setdefault((coll, size), []).append((rank, ok, loops))
            n += 1
        for pr in procs:
            pr.join(600)
            if pr.exitcode != 0:
                raise SystemExit(f"a rank exited with {pr.exitcode}")
    with open(args.csv, "w", newline="") as f:
        out = csv.writer(f)
        peers = args.format == "peers"
        if peers:
            out.writerow(["system", "world", "collective", "size_bytes", "time_us", "algbw_GBps", "busbw_GBps",
                          "status", "repeats", "spread_pct", "method", "torch", "placement"])
        else:
            out.writerow(["system", "world_size", "collective", "size_bytes", "time_us", "algbw_gbps", "busbw_gbps",
                          "wrong", "repeats", "spread_pct", "torch", "placement"])

        def row(coll, size, figures, status, wrong, repeats, spread):
            """A cell's row in either format; figures: time_us, algbw, busbw as text, all "" for a cell not run."""
            if peers:
                method = ("each" if args.each else "loops") if figures[0] else ""
                tail = [status, repeats, spread, method]
            else:
                tail = [wrong, repeats, spread]
            out.writerow(["torch-gloo", w, coll, size, *figures, *tail, torch.__version__, args.placement])

        for (coll, size), ranks in sorted(got.items()):
            unsupported = next((r[1] for r in ranks if isinstance(r[1], str)), None)
            if unsupported:
                row(coll, size, ["", "", ""], unsupported, "", 0, "")
                print(f"{coll} {size} B: {unsupported}")
                continue
            per_loop = [max(r[2][i] for r in ranks) for i in range(args.repeats)]
            t = statistics.median(per_loop)
            algbw = size / t / 1e9
            busbw = algbw * FACTOR[ALIAS.get(coll, coll)](w)
            wrong = sum(0 if r[1] else 1 for r in ranks)
            spread = f"{(max(per_loop) - min(per_loop)) / t * 100:.1f}"
            row(coll, size, [f"{t * 1e6:.2f}", f"{algbw:.4g}", f"{busbw:.4g}"],
                f"wrong ({wrong} ranks)" if wrong else "ok", wrong, args.repeats, spread)
    print(f"torch {torch.__version__}, buffers placed by {args.placement}: {len(got)} cells written to {args.csv}")


if __name__ == "__main__":
    sys.exit(main())
