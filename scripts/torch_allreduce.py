#!/usr/bin/env python3
"""PyTorch's NCCL all-reduce on one GPU (world 1), timed like cctk's pipelined mode: warm-up, then N launches
between two CUDA events, one wait; prints CSV size_bytes,time_us (per iteration) for float32 sizes from --min to
--max by --factor. Used by scripts/device-gpu-test.sh for the side-by-side with cctk's nccl backend."""
import argparse
import os
import socket

import torch
import torch.distributed as dist


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=int, default=1024)
    ap.add_argument("--max", type=int, default=1 << 30)
    ap.add_argument("--factor", type=int, default=4)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    a = ap.parse_args()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(free_port()))
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", rank=0, world_size=1)
    print("# torch", torch.__version__, "cuda", torch.version.cuda, "nccl",
          ".".join(map(str, torch.cuda.nccl.version())), "gpu", torch.cuda.get_device_name(0))
    print("size_bytes,time_us")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    size = a.min
    while size <= a.max:
        t = torch.ones(size // 4, dtype=torch.float32, device="cuda")
        for _ in range(a.warmup):
            dist.all_reduce(t)
        torch.cuda.synchronize()
        start.record()
        for _ in range(a.iters):
            dist.all_reduce(t)
        end.record()
        end.synchronize()
        print(f"{size},{start.elapsed_time(end) * 1000.0 / a.iters:.3f}", flush=True)
        del t
        size *= a.factor
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
