"""More host-computed constants: scipy.constants names (physics codes use c,
m_e, epsilon_0; CODATA 2022 as SciPy >= 1.15 has them), CuPy used as NumPy
for constants and dtypes (cp.nan, cp.float32(...), cp.float32 as a dtype),
and a dict of settings imported from another module, indexed by constant keys."""
import cupy as cp
import scipy.constants as sc
from scipy.constants import c, m_e, epsilon_0
from numba import cuda

from mods import r3config
from mods.r3config import PARAMS

NAN = cp.nan
X = cp.float32(2.5)
Q_OVER_M = sc.e / m_e


@cuda.jit
def k(o):
    o[0] = c
    o[1] = m_e * 1e31
    o[2] = epsilon_0 * 1e12
    o[3] = X
    o[4] = Q_OVER_M * 1e-11
    o[5] = NAN != NAN
    s = cuda.shared.array(2, cp.float32)
    s[0] = 0.25
    o[6] = s[0]
    o[7] = PARAMS['gain'] * PARAMS['steps'] + r3config.PARAMS['limits']['hi']


# RUN: k --grid 1 --block 1 o=zeros:f64:8
# EXPECT: o: float64[8] [2.99792e+08, 9.10938, 8.85419, ..., 7] sum=299792488.5 crc=5be77873
#   (computed in Python from: [299792458.0, 9.1093837139e-31 * 1e31, 8.8541878188e-12 * 1e12, 2.5, 1.602176634e-19 / 9.1093837139e-31 * 1e-11, 1, 0.25, 7.0])
