"""Regenerates the .npy fixtures read by tests/unit/test_npy.c (NumPy's own
writer, so the reader is checked against real files).  Values are
arange(6) reshaped (2, 3) in every dtype; see the test for what each holds.
Run: python3 make_fixtures.py  (from this directory)."""
import numpy as np
from numpy.lib import format as fmt

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]

def save(name, arr, version=None):
    with open(name, "wb") as f:
        fmt.write_array(f, arr, version=version)

for d in DTYPES:
    a = np.arange(6).reshape(2, 3).astype(d)
    save(f"le_{d.replace('?', 'b1')}.npy", a.astype(np.dtype(d).newbyteorder("<")))
    save(f"be_{d.replace('?', 'b1')}.npy", a.astype(np.dtype(d).newbyteorder(">")))
save("fortran_f8.npy", np.asfortranarray(np.arange(24, dtype="<f8").reshape(2, 3, 4)))
save("v2_i4.npy", np.arange(5, dtype="<i4"), version=(2, 0))
save("v3_i4.npy", np.arange(5, dtype="<i4"), version=(3, 0))
save("scalar_f8.npy", np.array(2.5))
save("empty_f4.npy", np.zeros((0, 3), dtype="<f4"))
save("unicode_U3.npy", np.array(["abc", "de"]))
save("record_xy.npy", np.zeros(2, dtype=np.dtype([("x", "<f4"), ("y", "<i4")], align=True)))
