"""kjit run --timeout bounds a @vectorize function's run as well as a kernel's"""
from numba import vectorize

# ARGS: run %s:add --target cpu --timeout 0.3 a=zeros:float32:4 b=zeros:float32:4


@vectorize(['float32(float32, float32)'])
def add(a, b):
    while a == a:
        a = a + b
    return a
