"""Python type annotations are ignored, as Numba ignores them: `np.ndarray`,
`int`, `float`, `bool`, `Union[...]`, `Optional[...]`, strings, `-> None` and
`-> float` leave the parameter typed by its argument (a float32 passed to
`s: float` stays float32; an int32 passed to `m: bool` stays int32).  An
annotation naming a Numba type (`x: float32[:]`) still constrains."""
from typing import Optional, Union

import numpy as np
import numba
from numba import cuda, float32


@cuda.jit(device=True)
def add(x: float, y: "float") -> float:
    return x + y


@cuda.jit
def k(a: np.ndarray, n: int, s: float, u: Union[int, float], m: bool,
      c: complex, o: Optional[np.ndarray], d: cuda.devicearray.DeviceNDArray,
      w: float32[:]) -> None:
    i = cuda.grid(1)
    if i < n:
        a[i] = add(i * s, u) + m
    if i == 0:
        o[0] = c.real + numba.float32(0.5)
        d[0] = w[0] + s


# RUN: k --grid 1 --block 4 a=zeros:f32:4 n=3 s=f32:2.5 u=1 m=int32:2 c=c64:3 o=zeros:f64:1 d=zeros:f32:1 w=full:f32:1:0.25
# EXPECT: a: float32[4] [3, 5.5, 8, 0] sum=16.5 crc=2578d4c8
#   (computed in Python from: [3, 5.5, 8, 0])
# EXPECT: o: float64[1] [3.5] sum=3.5 crc=bf4bd1f5
#   (computed in Python from: [3.5])
# EXPECT: d: float32[1] [2.75] sum=2.75 crc=88dea87f
#   (computed in Python from: [2.75])
