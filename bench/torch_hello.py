#!/usr/bin/python3
"""The start-up peer of sweep.sh: what `cctk demo allreduce --nproc W` does, in PyTorch. A launcher (this script,
which does not import torch itself) starts W rank processes of the same script; each imports torch, joins a Gloo
process group (a FileStore in a private temporary directory, loopback), all-reduces a small float32 tensor, checks
the sum and leaves. sweep.sh times the whole command.

usage: bench/torch_hello.py [W=2]
"""
import os
import subprocess
import sys
import tempfile


def rank(r, w, store):
    import torch
    import torch.distributed as dist
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", init_method="file://" + store, rank=r, world_size=w)
    t = torch.full((1024,), float(r + 1))
    dist.all_reduce(t)
    dist.destroy_process_group()
    if not bool(torch.all(t == w * (w + 1) / 2)):
        raise SystemExit(f"rank {r}: wrong sum {t[0].item()}")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--rank":
        rank(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
        return
    w = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    with tempfile.TemporaryDirectory(prefix="torch-hello-") as tmp:
        store = os.path.join(tmp, "store")
        ranks = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--rank", str(r), str(w), store])
                 for r in range(w)]
        codes = [p.wait() for p in ranks]
    if any(codes):
        raise SystemExit(f"a rank exited with {max(codes)}")
    print(f"all_reduce over {w} ranks: right")


if __name__ == "__main__":
    main()
