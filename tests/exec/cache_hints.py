"""Cache-hinted loads and stores (cuda.ldca/ldcg/ldcs/ldlu/ldcv,
cuda.stcg/stcs/stwb/stwt): the values of plain accesses; on the GPU each is
one ld.global.<op> / st.global.<op> (tests/kernels/cache_hints.py)."""
from numba import cuda

# RUN: hints --grid 1 --block 8 r=zeros:float32:8 x=arange:int8:8 y=full:float64:8x2:0.5 z=arange:uint16:8
# EXPECT: r: float32[8] [1, 9, 17, ..., 57] sum=232 crc=893b6587
#   (computed in Python from: [2 * (3 * i + 0.5 + i) for i in range(8)])
# EXPECT: x: int8[8] [3, 3, 3, ..., 3] sum=24 crc=b9a6d9a7
#   (computed in Python from: [3] * 8)
# EXPECT: y: float64[8x2] [0.5, 1.5, 0.5, ..., 1.5] sum=16 crc=facd6de2
#   (computed in Python from: [v for i in range(8) for v in (0.5, 1.5)])
# EXPECT: z: uint16[8] [7, 7, 7, ..., 7] sum=56 crc=279d7cc9
#   (computed in Python from: [7] * 8)


@cuda.jit
def hints(r, x, y, z):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = cuda.ldca(x, i) + cuda.ldcg(y, (i, 0)) + cuda.ldcs(z, i) + cuda.ldlu(x, i) + cuda.ldcv(x, i)
        cuda.stcg(r, i, r[i] * 2)
        cuda.stcs(z, i, 7)
        cuda.stwb(y, (i, 1), 1.5)
        cuda.stwt(x, i, 3)
