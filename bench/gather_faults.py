#!/usr/bin/env python3
"""Issue 28's call-by-call look at Gloo's all_gather: W ranks of Python torch.distributed on Gloo (the system's
python3-torch) gather SIZE bytes CALLS times, each call alone after a barrier, and rank 0 prints every call's time
and its own minor page faults during the call (getrusage), as "ms/faults". A call that maps c10d's flat gather
tensor afresh takes one fault per 4 KiB page of it; a slow call without faults on rank 0 waits on a peer's.
GLIBC_TUNABLES set by the caller reaches every rank (spawned processes inherit the environment).

usage: python3 bench/gather_faults.py [-w 2] [--size 16MiB] [--calls 15]
"""
import argparse
import os
import resource
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, w, store, size, calls):
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=w)
    n = size // 4
    part = torch.full((n // w,), float(rank + 1))
    out = torch.empty(n // w * w)
    views = list(out.chunk(w))
    seen = []
    for _ in range(calls):
        dist.barrier()
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t0 = time.perf_counter()
        dist.all_gather(views, part)
        ms = (time.perf_counter() - t0) * 1e3
        seen.append(f"{ms:.0f}/{resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults}")
    if rank == 0:
        print(f"W={w} {size} B, rank 0, ms/faults per call: " + " ".join(seen), flush=True)
    dist.barrier()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-w", type=int, default=2)
    p.add_argument("--size", default="16MiB")
    p.add_argument("--calls", type=int, default=15)
    a = p.parse_args()
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
    size = next((int(a.size[:-3]) * m for u, m in units.items() if a.size.endswith(u)), None) or int(a.size)
    with tempfile.TemporaryDirectory(prefix="gather-faults-") as tmp:
        mp.spawn(worker, args=(a.w, os.path.join(tmp, "store"), size, a.calls), nprocs=a.w)


if __name__ == "__main__":
    main()
