/* test_host_fault.c - a guest fault on the CPU target fails the launch, not
 * the host: an index far out of bounds (no debug=True) and a dynamic shared
 * array larger than the launch gave are reported as illegal addresses with
 * KJIT_ERROR_KERNEL_FAULT, as a fault on the GPU does, and so is a failing assert
 * with debug=True; the same context, program and arrays keep working
 * afterwards (host/host_fault.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "host/host_fault_internal.h"
#include "kjit.h"

/* The address decoder of general protection faults on instruction bytes
 * written out by hand (as LLVM emits them for array stores), with made-up
 * registers: base 0x1000 in the array's register, an index that takes the
 * address past the 47-bit user half. */
static void test_decoder(void) {
  uint64_t r[16] = {0}, a = 0;
  const uint64_t base = 0x7f0000001000ull, far = (uint64_t)1 << 45; /* elements of 4 bytes */
  r[0] = base;        /* rax */
  r[1] = far;         /* rcx */
  r[9] = far;         /* r9 */
  /* movss %xmm0, (%rax,%rcx,4): f3 0f 11 04 88 */
  const uint8_t movss[] = {0xF3, 0x0F, 0x11, 0x04, 0x88};
  CHECK(rt_fault_decode_x86(movss, r, &a) && a == base + far * 4);
  /* movl $1, 0x10(%rax,%r9,4): 42 c7 44 88 10 01 00 00 00 (REX.X) */
  const uint8_t movl[] = {0x42, 0xC7, 0x44, 0x88, 0x10, 0x01, 0x00, 0x00, 0x00};
  CHECK(rt_fault_decode_x86(movl, r, &a) && a == base + far * 4 + 0x10);
  /* vmovups %ymm0, -0x20(%rax,%rcx,4): c5 fc 11 44 88 e0 (VEX, disp8 -32) */
  const uint8_t vmov[] = {0xC5, 0xFC, 0x11, 0x44, 0x88, 0xE0};
  CHECK(rt_fault_decode_x86(vmov, r, &a) && a == base + far * 4 - 0x20);
  /* vmovss %xmm0, 0x100(%rax,%r9,4): c4 a1 7a 11 84 88 00 01 00 00 (VEX3, ~X clear) */
  const uint8_t vmov3[] = {0xC4, 0xA1, 0x7A, 0x11, 0x84, 0x88, 0x00, 0x01, 0x00, 0x00};
  CHECK(rt_fault_decode_x86(vmov3, r, &a) && a == base + far * 4 + 0x100);
  /* the same store at a canonical address: a misread, no answer */
  r[1] = 4;
  CHECK(!rt_fault_decode_x86(movss, r, &a));
  r[1] = far;
  /* EVEX with a scaled disp8, a gather's vector index, rip-relative, fs: unknown */
  const uint8_t evex[] = {0x62, 0xF1, 0x7C, 0x48, 0x11, 0x44, 0x88, 0x01};
  CHECK(!rt_fault_decode_x86(evex, r, &a));
  const uint8_t gather[] = {0xC4, 0xE2, 0x75, 0x92, 0x04, 0x88};
  CHECK(!rt_fault_decode_x86(gather, r, &a));
  const uint8_t rip[] = {0x89, 0x05, 0x00, 0x00, 0x00, 0x00};
  CHECK(!rt_fault_decode_x86(rip, r, &a));
  const uint8_t fs[] = {0x64, 0x89, 0x00};
  CHECK(!rt_fault_decode_x86(fs, r, &a));
  const uint8_t prefixes[16] = {0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
                                0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66};
  CHECK(!rt_fault_decode_x86(prefixes, r, &a));
}

static const char *src =
    "from numba import cuda, float32\n"
    "@cuda.jit\n"
    "def poke(x, off):\n"
    "    x[off] = 1.0\n"
    "@cuda.jit\n"
    "def dyn(x):\n"
    "    buf = cuda.shared.array(0, float32)\n"
    "    i = cuda.threadIdx.x\n"
    "    buf[i] = i\n"
    "    cuda.syncthreads()\n"
    "    x[i] = buf[i]\n"
    "@cuda.jit(debug=True)\n"
    "def check(x, i):\n"
    "    assert i < 4\n"
    "    x[i] = 2.0\n";

static kjit_status launch(kjit_kernel *k, kjit_arg *args, int n, uint32_t threads, size_t shared) {
  kjit_launch_config cfg;
  kjit_launch_config_init(&cfg);
  cfg.grid[0] = 1;
  cfg.block[0] = threads;
  cfg.shared_bytes = shared;
  return kjit_launch(k, &cfg, args, n);
}

int main(void) {
  test_decoder();
  kjit_context_options o;
  kjit_context_options_init(&o);
  o.target = KJIT_TARGET_CPU;
  kjit_context *ctx = NULL;
  kjit_program *prog = NULL;
  kjit_kernel *poke = NULL, *dyn = NULL, *check = NULL;
  kjit_array *x = NULL;
  int64_t n = 64;
  CHECK(kjit_context_create(&o, &ctx) == KJIT_OK);
  CHECK(kjit_program_load_source(ctx, "fault.py", src, &prog) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "poke", &poke) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "dyn", &dyn) == KJIT_OK);
  CHECK(kjit_program_kernel(prog, "check", &check) == KJIT_OK);
  CHECK(kjit_array_create(ctx, KJIT_FLOAT32, 1, &n, &x) == KJIT_OK);
  if (failures)
    return 1;
  float *data = kjit_array_data(x);
  for (int round = 0; round < 3; round++) {   /* fault, recover, fault again */
    kjit_arg bad[2] = {kjit_arg_array(x), kjit_arg_i64((int64_t)1 << 40)};
    CHECK(launch(poke, bad, 2, 1, 0) == KJIT_ERROR_KERNEL_FAULT);
    CHECK(strstr(kjit_last_error(ctx), "illegal address") != NULL);
    CHECK(strstr(kjit_last_error(ctx), "kernel 'poke'") != NULL);
    kjit_arg good[2] = {kjit_arg_array(x), kjit_arg_i64(5)};
    data[5] = 0;
    CHECK(launch(poke, good, 2, 1, 0) == KJIT_OK);
    CHECK(data[5] == 1.0f);
    kjit_arg one[1] = {kjit_arg_array(x)};
    CHECK(launch(dyn, one, 1, 64, 8) == KJIT_ERROR_KERNEL_FAULT);  /* 64 floats into 8 bytes */
    CHECK(strstr(kjit_last_error(ctx), "illegal address") != NULL);
    CHECK(launch(dyn, one, 1, 64, 256) == KJIT_OK);
    CHECK(data[63] == 63.0f);
    /* past the 47-bit half: x86-64 reports no address (si_addr 0); the
     * message has the decoded one, never 0x0, and names the array */
    kjit_arg wild[2] = {kjit_arg_array(x), kjit_arg_i64((int64_t)1 << 45)};
    CHECK(launch(poke, wild, 2, 1, 0) == KJIT_ERROR_KERNEL_FAULT);
    CHECK(strstr(kjit_last_error(ctx), "illegal address 0x0 ") == NULL);
#if defined(__x86_64__)
    CHECK(strstr(kjit_last_error(ctx), "outside the address space") != NULL);
    char want[160];
    snprintf(want, sizeof want, "illegal address 0x%llx, outside",
             (unsigned long long)((uintptr_t)data + ((uint64_t)4 << 45)));
    CHECK(strstr(kjit_last_error(ctx), want) != NULL);
#endif
    CHECK(strstr(kjit_last_error(ctx), "the nearest array is argument 'x' (256 bytes at ") != NULL);
    CHECK(strstr(kjit_last_error(ctx), "140737488355072 bytes past its end") != NULL);
    kjit_arg over[2] = {kjit_arg_array(x), kjit_arg_i64(9)};
    CHECK(launch(check, over, 2, 1, 0) == KJIT_ERROR_KERNEL_FAULT);
    CHECK(strstr(kjit_last_error(ctx), "AssertionError") != NULL);
  }
  kjit_context_destroy(ctx);
  printf("test_host_fault: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
