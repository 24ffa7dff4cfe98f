"""Device-side printf of the thread index."""
from numba import cuda


@cuda.jit("void()")
def hello():
    print("thread", cuda.threadIdx.x, "of block", cuda.blockIdx.x)


if __name__ == "__main__":
    hello[2, 4]()
    cuda.synchronize()
