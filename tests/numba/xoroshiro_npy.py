"""Writes Numba's normal_float32/64 values of one configuration from
tests/numba/xoroshiro_reference.txt as .npy files (no NumPy needed), the
inputs of tests/exec/random_normal.py:
    python3 tests/numba/xoroshiro_npy.py"""
import struct

SEED, SUB = 12345, 0
REF = 'tests/numba/xoroshiro_reference.txt'


def write_npy(path, descr, shape, raw):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % ((descr,) + shape)
    header += ' ' * (63 - (10 + len(header)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + raw)


for kind, descr, fmt in (('normal_float32', '<f4', '<I'), ('normal_float64', '<f8', '<Q')):
    prefix = '%s seed=%d sub=%d ' % (kind, SEED, SUB)
    vals = [int(x, 16) for l in open(REF) if l.startswith(prefix) for x in l.split()[4:]]
    raw = b''.join(struct.pack(fmt, v) for v in vals)
    write_npy('tests/data/npy/xoroshiro_%s.npy' % kind, descr, (len(vals) // 6, 6), raw)
