/* A parameter kjit cannot pass (a struct by value), refused by name.
# ARGS: run %s:k --target cpu --grid 1 --block 1 p=1 x=zeros:float32:4
 */
struct Pair { int a, b; };
__global__ void k(Pair p, float *x) { x[0] = p.a + p.b; }
