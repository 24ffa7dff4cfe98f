template <typename T, int N = 4, class U>
extern "C" __global__ void __launch_bounds__(256, 2) k(T *x, U y, std::size_t n = 3, unsigned long long **z);
#define A \
 __global__ void m(int);
/* unterminated