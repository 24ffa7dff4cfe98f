/* random.h - host-side state creation for numba.cuda.random's xoroshiro128+
 * generators (data/random.c), shared by the C API and `kjit run`'s
 * xoroshiro:N:SEED[:SUBSEQ] values. */
#ifndef KJIT_RUNTIME_RANDOM_H
#define KJIT_RUNTIME_RANDOM_H

#include <stdint.h>

/* Fills states[0 .. 2n) (row i = s0, s1 of generator i) as Numba's
 * create_xoroshiro128p_states(n, seed, subsequence_start) does. */
void rt_xoroshiro128p_init(uint64_t *states, int64_t n, uint64_t seed, uint64_t subsequence_start);

/* One xoroshiro128+ step of s[0], s[1]; returns the output (s0 + s1). */
uint64_t rt_xoroshiro128p_next(uint64_t s[2]);

/* Advances s by 2^64 steps (the jump polynomial). */
void rt_xoroshiro128p_jump(uint64_t s[2]);

#endif
