#!/usr/bin/env python3
"""numba_bench_reduce.py - the @cuda.reduce benchmark under Numba:
sum_reduce(d_x) of bench/gpu/kernels/cuda_reduce.py over 2^26 float32
(bench_common.h's inputs, seed 5) held on the device.  One reduction = one
call (Numba's launches and the copy of the value to the host), wall clock;
the first call (which compiles) is not timed, then W warm-up calls, then the
median of N.  Prints: REDUCE impl=numba call_ms=M n=N bytes=B value=V

Usage: numba_bench_reduce.py [-n N] [-w W]
"""
import argparse
import importlib.util
import os
import time

import numpy
numpy.row_stack = numpy.vstack  # required by the Numba build on the GPU machine
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=50)
    ap.add_argument("-w", type=int, default=5)
    args = ap.parse_args()
    path = os.path.join(HERE, "kernels", "cuda_reduce.py")
    spec = importlib.util.spec_from_file_location("kjit_bench_cuda_reduce", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    n = 1 << 26
    i = np.arange(n, dtype=np.uint32)
    h = i * np.uint32(2654435761) + np.uint32(5 * 97531)
    x = cuda.to_device((h.astype(np.float64) / 4294967296.0).astype(np.float32))
    v = mod.sum_reduce(x)
    for _ in range(args.w):
        v = mod.sum_reduce(x)
    ms = []
    for _ in range(max(args.n, 1)):
        t0 = time.perf_counter()
        v = mod.sum_reduce(x)
        ms.append((time.perf_counter() - t0) * 1e3)
    ms.sort()
    k = len(ms)
    med = ms[k // 2] if k % 2 else 0.5 * (ms[k // 2 - 1] + ms[k // 2])
    print("REDUCE impl=numba call_ms=%.6f n=%d bytes=%d value=%.9g" % (med, n, n * 4, float(v)),
          flush=True)


if __name__ == "__main__":
    main()
