"""Cache-hinted loads and stores (cuda.ldca/ldcg/ldcs/ldlu/ldcv,
cuda.stcg/stcs/stwb/stwt): the values of plain accesses; on the GPU each is
one ld.global.<op> / st.global.<op> (tests/kernels/cache_hints.py)."""
from numba import cuda



@cuda.jit("void(float32[:], int8[:], float64[:, :], uint16[:])")
def hints(r, x, y, z):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = cuda.ldca(x, i) + cuda.ldcg(y, (i, 0)) + cuda.ldcs(z, i) + cuda.ldlu(x, i) + cuda.ldcv(x, i)
        cuda.stcg(r, i, r[i] * 2)
        cuda.stcs(z, i, 7)
        cuda.stwb(y, (i, 1), 1.5)
        cuda.stwt(x, i, 3)
