/* test_cuda.c - the CUDA target's driver layer (cuda/cuda_driver.c,
 * cuda_module.c, cuda_launch.c).
 *
 *   test_cuda         host-side checks, no GPU needed (label unit): the PTX
 *                     .version table and clamp, the .entry layout reader,
 *                     the specialization table, argument packing, the launch
 *                     checks, dlopen failure paths, nvJitLink PTX -> cubin
 *                     where libnvJitLink is installed.
 *   test_cuda --gpu   on a device (label gpu; exit 77 when libcuda.so.1
 *                     cannot be loaded or no device exists): info, device
 *                     memory and copies, a PTX vector add loaded through
 *                     nvJitLink and through the driver's JIT, launch checks
 *                     against the real limits, a fault and the recovery.
 * Built twice: against kjit_static (unit) and, for the GPU machine, from
 * the LLVM-free sources alone (tests/CMakeLists.txt), so it runs there from
 * a carried build directory without LLVM. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/strbuf.h"
#include "cuda/cuda.h"
#include "check.h"

/* An array-struct vector add, as kjit's ABI passes arrays: {ptr, shape[1],
 * strides[1]} by value; n = out.shape[0]. */
static const char vadd_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n\n"
    ".visible .entry vadd(\n"
    "\t.param .align 8 .b8 vadd_param_0[24],\n"
    "\t.param .align 8 .b8 vadd_param_1[24],\n"
    "\t.param .align 8 .b8 vadd_param_2[24]\n)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<12>;\n"
    "\tld.param.u64 %rd1, [vadd_param_0];\n"
    "\tld.param.u64 %rd2, [vadd_param_1];\n"
    "\tld.param.u64 %rd3, [vadd_param_2];\n"
    "\tld.param.u64 %rd4, [vadd_param_2+8];\n"
    "\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
    "\tcvta.to.global.u64 %rd3, %rd3;\n"
    "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
    "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tcvt.s64.s32 %rd5, %r4;\n"
    "\tsetp.ge.s64 %p1, %rd5, %rd4;\n\t@%p1 bra DONE;\n"
    "\tshl.b64 %rd6, %rd5, 2;\n"
    "\tadd.s64 %rd7, %rd1, %rd6;\n\tadd.s64 %rd8, %rd2, %rd6;\n\tadd.s64 %rd9, %rd3, %rd6;\n"
    "\tld.global.f32 %f1, [%rd7];\n\tld.global.f32 %f2, [%rd8];\n"
    "\tadd.f32 %f3, %f1, %f2;\n\tst.global.f32 [%rd9], %f3;\n"
    "DONE:\n\tret;\n}\n";

/* Stores a float through a raw pointer: given 0, it faults. */
static const char poke_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n\n"
    ".visible .entry poke(\n\t.param .u64 .ptr .global .align 4 poke_param_0,\n"
    "\t.param .f32 poke_param_1\n)\n{\n"
    "\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<2>;\n"
    "\tld.param.u64 %rd1, [poke_param_0];\n\tld.param.f32 %f1, [poke_param_1];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n\tst.global.f32 [%rd2], %f1;\n\tret;\n}\n";

static Arena arena;

static Diags *fresh_diags(Diags *d) {
  diags_init(d, &arena);
  return d;
}

static const char *first_msg(const Diags *d) {
  return d->list.len ? d->list.data[0].msg : "";
}

static void print_diags(const Diags *d) {
  StrBuf sb;
  sb_init(&sb);
  diags_render(d, &sb);
  if (sb.data)
    fputs(sb.data, stderr);
  sb_free(&sb);
}

/* ------------------------------------------------------- host checks --- */

static void test_version_table(void) {
  CHECK(rt_cuda_ptx_isa_for_driver(10020) == 0);
  CHECK(rt_cuda_ptx_isa_for_driver(11080) == 78);
  CHECK(rt_cuda_ptx_isa_for_driver(12000) == 80);
  CHECK(rt_cuda_ptx_isa_for_driver(12010) == 81);
  CHECK(rt_cuda_ptx_isa_for_driver(12040) == 84);
  CHECK(rt_cuda_ptx_isa_for_driver(12050) == 85);
  CHECK(rt_cuda_ptx_isa_for_driver(12060) == 85);
  CHECK(rt_cuda_ptx_isa_for_driver(12080) == 87);
  CHECK(rt_cuda_ptx_isa_for_driver(13000) == 90);
  CHECK(rt_cuda_ptx_isa_for_driver(13020) == 90);
  char a[16];
  rt_cuda_codegen_arch(9, 0, a, sizeof a);
  CHECK(strcmp(a, "sm_90") == 0);
  rt_cuda_codegen_arch(8, 9, a, sizeof a);
  CHECK(strcmp(a, "sm_89") == 0);
  rt_cuda_codegen_arch(12, 0, a, sizeof a);  /* Blackwell: sm_90 PTX, JIT'd forward */
  CHECK(strcmp(a, "sm_90") == 0);
  rt_cuda_codegen_arch(8, 8, a, sizeof a);
  CHECK(strcmp(a, "sm_87") == 0);
}

/* Peak memory bandwidth: clock x bus width first, the table by name
 * where the driver gives no clock (CUDA 13 deprecates it), else unknown. */
static void test_peak_bandwidth(void) {
  RtCudaDeviceInfo d = {.mem_clock_khz = 2619000, .bus_width = 5120};
  snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
  int src = -1;
  CHECK(rt_cuda_peak_bandwidth(&d, &src) == 3352320 && src == 1); /* 2 x 2.619 GHz x 640 B */
  d.mem_clock_khz = 0;
  CHECK(rt_cuda_peak_bandwidth(&d, &src) == 3350000 && src == 2);
  snprintf(d.name, sizeof d.name, "NVIDIA H200");
  CHECK(rt_cuda_peak_bandwidth(&d, &src) == 4800000 && src == 2);
  snprintf(d.name, sizeof d.name, "NVIDIA H100 NVL");
  CHECK(rt_cuda_peak_bandwidth(&d, &src) == 3900000 && src == 2);
  snprintf(d.name, sizeof d.name, "Some Future GPU");
  CHECK(rt_cuda_peak_bandwidth(&d, &src) == 0 && src == 0);
}

static void test_clamp(void) {
  char p1[] = "//\n.version 8.5\n.target sm_90\n";
  CHECK(rt_ptx_clamp_version(p1, 80));
  CHECK(strstr(p1, ".version 8.0\n") != NULL);
  char p2[] = ".version 7.0\n.target sm_80\n";
  CHECK(rt_ptx_clamp_version(p2, 84));
  CHECK(strstr(p2, ".version 7.0\n") != NULL);
  char p3[] = ".version 8.4\n";
  CHECK(rt_ptx_clamp_version(p3, 0));         /* 0: no clamp */
  CHECK(strstr(p3, ".version 8.4") != NULL);
  char p4[] = ".target sm_80\n";
  CHECK(!rt_ptx_clamp_version(p4, 80));
  char p5[] = ".version 10.1\n";
  CHECK(rt_ptx_clamp_version(p5, 90));
  CHECK(strncmp(p5, ".version 9.0", 12) == 0);
}

/* A 90-character kernel with 41 array parameters: its mangled entry name
 * (~380 characters) and parameter names are read whole, so the name the
 * launcher passes to cuModuleGetFunction is the PTX's own. */
static void test_long_entry(void) {
  StrBuf name, ptx;
  sb_init(&name);
  sb_init(&ptx);
  for (int i = 0; i < 90; i++)
    sb_putc(&name, (char)('a' + i % 26));
  sb_puts(&name, "__");
  for (int i = 0; i < 41; i++)
    sb_puts(&name, i ? "_a1Cf32" : "a1Cf32");
  sb_printf(&ptx, ".visible .entry %s(\n", name.data);
  for (int i = 0; i < 41; i++)
    sb_printf(&ptx, "\t.param .align 8 .b8 %s_param_%d[24]%s\n", name.data, i, i < 40 ? "," : "");
  sb_puts(&ptx, ")\n{ ret; }\n");
  RtCudaModule m;
  memset(&m, 0, sizeof m);
  CHECK(rt_ptx_entry_layout(ptx.data, &m));
  CHECK(m.entry && strcmp(m.entry, name.data) == 0 && strlen(m.entry) > 300);
  CHECK(m.nparams == 41 && m.params[40].offset == 40 * 24 && m.params_size == 41 * 24);
  rt_cuda_module_unload(NULL, &m);
  sb_free(&name);
  sb_free(&ptx);
}

static void test_layout(void) {
  RtCudaModule m;
  memset(&m, 0, sizeof m);
  CHECK(rt_ptx_entry_layout(vadd_ptx, &m));
  CHECK(strcmp(m.entry, "vadd") == 0);
  CHECK(m.nparams == 3);
  CHECK(m.params[0].size == 24 && m.params[0].align == 8 && m.params[0].kind == RT_PARAM_ARRAY);
  CHECK(m.params[2].offset == 48 && m.params_size == 72);
  rt_cuda_module_unload(NULL, &m);
  memset(&m, 0, sizeof m);
  CHECK(rt_ptx_entry_layout(poke_ptx, &m));
  CHECK(strcmp(m.entry, "poke") == 0 && m.nparams == 2);
  CHECK(m.params[0].size == 8 && m.params[0].kind == RT_PARAM_SCALAR);
  CHECK(m.params[1].size == 4 && m.params[1].offset == 8 && m.params_size == 16);
  static const char mixed[] =
      ".visible .entry k__x(\n\t.param .u8 k_param_0,\n\t.param .align 8 .b8 k_param_1[40],\n"
      "\t.param .f64 k_param_2,\n\t.param .b16 k_param_3\n)\n{ ret; }\n";
  rt_cuda_module_unload(NULL, &m);
  memset(&m, 0, sizeof m);
  CHECK(rt_ptx_entry_layout(mixed, &m));
  CHECK(strcmp(m.entry, "k__x") == 0 && m.nparams == 4);
  CHECK(m.params[0].size == 1 && m.params[1].offset == 8 && m.params[1].size == 40);
  CHECK(m.params[2].offset == 48 && m.params[3].offset == 56 && m.params_size == 64);
  static const char none[] = ".visible .entry e()\n{ ret; }\n";
  CHECK(rt_ptx_entry_layout(none, &m) && m.nparams == 0 && m.params_size == 0);
  CHECK(!rt_ptx_entry_layout(".version 7.0\n", &m));
  CHECK(!rt_ptx_entry_layout(".entry bad(\n\t.param .q99 x\n)\n", &m));
  rt_cuda_module_unload(NULL, &m);
  test_long_entry();
}

static RtValue array_value(RtDtype dt, int64_t n) {
  RtValue v;
  memset(&v, 0, sizeof v);
  v.is_array = true;
  int64_t shape[1] = {n};
  rt_array_alloc(&v.array, dt, 1, shape);
  return v;
}

static RtValue scalar_value(RtDtype dt, double x) {
  RtValue v;
  memset(&v, 0, sizeof v);
  v.scalar.dtype = dt;
  if (dt == RT_F32) v.scalar.v.f32 = (float)x;
  else if (dt == RT_BOOL) v.scalar.v.b = x != 0;
  else v.scalar.v.i64 = (int64_t)x;
  return v;
}

static RtCudaSpec *new_spec(const RtSpecKey *k, const char *ptx) {
  RtCudaSpec *s = calloc(1, sizeof *s);
  s->key = *k;
  snprintf(s->kernel, sizeof s->kernel, "k");
  rt_ptx_entry_layout(ptx, &s->m);
  rt_spec_prepare_slots(s);
  return s;
}

/* The fits32 bit of the key (docs/internals.md): extents and byte span
 * below 2^31, decided without touching data (no allocation needed). */
static void test_fits32_key(void) {
  RtValue v;
  memset(&v, 0, sizeof v);
  v.is_array = true;
  v.array.dtype = RT_F32;
  v.array.ndim = 2;
  int64_t big = (int64_t)1 << 31;
  v.array.shape[0] = big - 1; /* (2^31-1, 0): empty, every extent fits */
  v.array.shape[1] = 0;
  CHECK(rt_value_fits32(&v));
  v.array.shape[0] = big;     /* (2^31, 0): an extent of 2^31 takes the 64-bit variant */
  CHECK(!rt_value_fits32(&v));
  v.array.shape[0] = 1 << 14; /* 2^14 x 2^15 float32: 2^31 bytes, one too many */
  v.array.shape[1] = 1 << 15;
  rt_array_set_c_strides(&v.array);
  CHECK(!rt_value_fits32(&v));
  v.array.shape[1] = (1 << 15) - 1; /* a span of 2^31 - 2^16 bytes: fits */
  rt_array_set_c_strides(&v.array);
  CHECK(rt_value_fits32(&v));
  v.array.shape[0] = 2;       /* a view with a huge stride: 2 rows 2^31 bytes apart */
  v.array.shape[1] = 4;
  v.array.strides[0] = big;
  v.array.strides[1] = -4;    /* negative strides count by magnitude */
  CHECK(!rt_value_fits32(&v));
  v.array.strides[0] = big - 64; /* a span of 2^31 - 48 bytes */
  CHECK(rt_value_fits32(&v));
  v.array.shape[0] = 1;       /* one row: its stride never multiplies an index */
  v.array.strides[0] = big * 4;
  CHECK(rt_value_fits32(&v));
  RtSpecKey k;
  int prog, fn;
  rt_spec_key(&k, &prog, &fn, &v, NULL, 1);
  CHECK(k.args[0].flags & RT_ARGKEY_FITS32);
  v.array.shape[0] = big;
  v.array.shape[1] = 0;
  rt_spec_key(&k, &prog, &fn, &v, NULL, 1);
  CHECK(!(k.args[0].flags & RT_ARGKEY_FITS32));
  RtValue s = scalar_value(RT_F32, 3e9); /* scalars carry no fact */
  CHECK(rt_value_fits32(&s));
}

/* The grid32 fact (docs/internals.md): gridDim * blockDim below 2^31 in
 * every dimension.  A launch past it keys, and so compiles and finds, the
 * other variant (the 64-bit one). */
static void test_grid32_key(void) {
  uint32_t grid[3] = {2097151, 1, 1}, block[3] = {1024, 1, 1}; /* 2^31 - 1024 threads in x */
  CHECK(rt_launch_grid32(grid, block));
  grid[0] = 2097152;                            /* exactly 2^31: the 64-bit variant */
  CHECK(!rt_launch_grid32(grid, block));
  uint32_t gx[3] = {2147483647u, 1, 1}, bx[3] = {1, 1, 1}; /* 2^31 - 1 blocks of one */
  CHECK(rt_launch_grid32(gx, bx));
  bx[0] = 2;
  CHECK(!rt_launch_grid32(gx, bx));
  uint32_t gy[3] = {1, 65535, 65535}, by[3] = {1, 1024, 1}; /* CUDA's largest y and z */
  CHECK(rt_launch_grid32(gy, by));
  gy[1] = 2097152;                              /* y past it (the CPU target allows it) */
  CHECK(!rt_launch_grid32(gy, by));
  uint32_t gz[3] = {1, 1, 4294967295u}, bz[3] = {1, 1, 1};
  CHECK(!rt_launch_grid32(gz, bz));
  RtValue args[3] = {array_value(RT_F32, 10), array_value(RT_F32, 10), array_value(RT_F32, 10)};
  RtSpecTable t = {0};
  RtSpecKey k32, k64;
  int prog, fn;
  rt_spec_key(&k32, &prog, &fn, args, NULL, 3);
  CHECK(k32.grid32 == 0);                       /* the launch sets it (cuda_run.c) */
  k32.grid32 = 1;
  rt_spec_key(&k64, &prog, &fn, args, NULL, 3);
  RtCudaSpec *s = new_spec(&k32, vadd_ptx);
  CHECK(rt_spec_insert(&t, s));
  CHECK(rt_spec_find(&t, &k32) == s);
  CHECK(rt_spec_find(&t, &k64) == NULL);        /* a grid of 2^31: another variant */
  rt_spec_clear(&t, NULL);
  rt_spec_table_free(&t);
  for (int i = 0; i < 3; i++)
    rt_value_free(&args[i]);
}

static void test_spec_table(void) {
  RtValue args[3] = {array_value(RT_F32, 10), array_value(RT_F32, 10), array_value(RT_F32, 10)};
  RtSpecTable t = {0};
  RtSpecKey k1, k2, k3;
  int progs[2], fns[40];
  rt_spec_key(&k1, &progs[0], &fns[0], args, NULL, 3);
  CHECK(k1.args[0].flags == (RT_ARGKEY_C | RT_ARGKEY_ALIGN16 | RT_ARGKEY_FITS32));
  CHECK(rt_spec_find(&t, &k1) == NULL);
  RtCudaSpec *s1 = new_spec(&k1, vadd_ptx);
  CHECK(rt_spec_insert(&t, s1));
  rt_spec_key(&k2, &progs[0], &fns[0], args, NULL, 3);
  CHECK(rt_spec_find(&t, &k2) == s1);
  args[1].array.dtype = RT_F64;                 /* another dtype: a miss */
  rt_spec_key(&k3, &progs[0], &fns[0], args, NULL, 3);
  CHECK(rt_spec_find(&t, &k3) == NULL);
  args[1].array.dtype = RT_F32;
  RtCuDeviceptr d[3] = {256, 260, 512};         /* unaligned data: another key */
  rt_spec_key(&k3, &progs[0], &fns[0], args, d, 3);
  CHECK(!(k3.args[1].flags & RT_ARGKEY_ALIGN16) && rt_spec_find(&t, &k3) == NULL);
  for (int i = 1; i < 40; i++) {                /* growth keeps every entry */
    RtSpecKey k;
    rt_spec_key(&k, &progs[i % 2], &fns[i], args, NULL, 3);
    CHECK(rt_spec_insert(&t, new_spec(&k, vadd_ptx)));
  }
  CHECK(t.count == 40 && t.cap >= 80);
  CHECK(rt_spec_find(&t, &k2) == s1);
  rt_spec_forget_program(&t, NULL, &progs[1]);  /* odd i: 20 dropped */
  CHECK(t.count == 20);
  CHECK(rt_spec_find(&t, &k2) == s1);
  for (int i = 1; i < 40; i++) {
    RtSpecKey k;
    rt_spec_key(&k, &progs[i % 2], &fns[i], args, NULL, 3);
    CHECK((rt_spec_find(&t, &k) != NULL) == (i % 2 == 0));
  }
  rt_spec_clear(&t, NULL);
  CHECK(t.count == 0 && rt_spec_find(&t, &k2) == NULL);
  rt_spec_table_free(&t);
  for (int i = 0; i < 3; i++)
    rt_value_free(&args[i]);
}

static void test_packing(void) {
  RtValue args[3] = {array_value(RT_F32, 7), array_value(RT_F32, 7), array_value(RT_F32, 7)};
  RtSpecKey k;
  int prog, fn;
  rt_spec_key(&k, &prog, &fn, args, NULL, 3);
  RtCudaSpec *s = new_spec(&k, vadd_ptx);
  RtCuDeviceptr d[3] = {0x1000, 0x2000, 0x3000};
  Diags diags;
  CHECK(rt_cuda_pack_args(s, args, d, 3, fresh_diags(&diags)));
  uint64_t w[9];
  memcpy(w, s->slots, sizeof w);
  CHECK(w[0] == 0x1000 && w[1] == 7 && w[2] == 4);
  CHECK(w[6] == 0x3000 && w[7] == 7 && w[8] == 4);
  CHECK(s->argv[1] == s->slots + 24);
  CHECK(!rt_cuda_pack_args(s, args, d, 2, fresh_diags(&diags)));
  CHECK(strstr(first_msg(&diags), "launched with 2 arguments") != NULL);
  rt_cuda_module_unload(NULL, &s->m);
  free(s->slots);
  free(s);
  RtValue sc[2] = {array_value(RT_F32, 1), scalar_value(RT_F32, 2.5)};
  rt_spec_key(&k, &prog, &fn, sc, NULL, 2);
  s = new_spec(&k, poke_ptx);                   /* .u64 then .f32 */
  CHECK(!rt_cuda_pack_args(s, sc, d, 2, fresh_diags(&diags)));  /* 24 bytes vs 8 */
  CHECK(strstr(first_msg(&diags), "packs to 24 bytes") != NULL);
  RtValue ok[2] = {scalar_value(RT_I64, 77), scalar_value(RT_F32, 2.5)};
  CHECK(rt_cuda_pack_args(s, ok, NULL, 2, fresh_diags(&diags)));
  float f;
  memcpy(&f, s->slots + 8, 4);
  CHECK(*(int64_t *)s->slots == 77 && f == 2.5f);
  rt_cuda_module_unload(NULL, &s->m);
  free(s->slots);
  free(s);
  for (int i = 0; i < 3; i++)
    rt_value_free(&args[i]);
  rt_value_free(&sc[0]);
}

static void fake_device(RtCuda *cu) {
  memset(cu, 0, sizeof *cu);
  cu->info.max_threads_per_block = 1024;
  cu->info.max_block[0] = cu->info.max_block[1] = 1024;
  cu->info.max_block[2] = 64;
  cu->info.max_grid[0] = 2147483647;
  cu->info.max_grid[1] = cu->info.max_grid[2] = 65535;
  cu->info.max_shared_per_block = 48 * 1024;
  cu->info.max_shared_optin = 227 * 1024;
  cu->info.cc_major = 8;
  cu->info.cc_minor = 0;
}

static void test_launch_checks(void) {
  RtCuda cu;
  fake_device(&cu);
  RtCudaModule m = {.static_shared = 1024, .max_threads = 512};
  Diags d;
  uint32_t g[3] = {4, 1, 1}, b[3] = {256, 1, 1};
  CHECK(rt_cuda_check_launch(&cu, &m, "add", g, b, 0, fresh_diags(&d)));
  uint32_t g0[3] = {0, 1, 1};
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", g0, b, 0, fresh_diags(&d)));
  CHECK(strstr(first_msg(&d), "kernel 'add' has zero blocks") != NULL);
  uint32_t gy[3] = {1, 70000, 1};
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", gy, b, 0, fresh_diags(&d)));
  CHECK(strstr(first_msg(&d), "grid.y = 70000") != NULL);
  uint32_t b2[3] = {2048, 1, 1};
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", g, b2, 0, fresh_diags(&d)));
  uint32_t b3[3] = {64, 32, 1};
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", g, b3, 0, fresh_diags(&d)));
  CHECK(strstr(first_msg(&d), "exceeds the device's limit of 1024") != NULL);
  uint32_t b4[3] = {1024, 1, 1};
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", g, b4, 0, fresh_diags(&d)));
  CHECK(strstr(first_msg(&d), "its limit of 512") != NULL);
  CHECK(rt_cuda_check_launch(&cu, &m, "add", g, b, 100 * 1024, fresh_diags(&d)));
  CHECK(!rt_cuda_check_launch(&cu, &m, "add", g, b, 227 * 1024, fresh_diags(&d)));
  CHECK(strstr(first_msg(&d), "shared memory") != NULL);
}

static void test_dlopen_failures(void) {
  RtCuApi api;
  char err[256] = "";
  CHECK(!rt_cu_api_load(&api, "libkjit-no-such-driver.so.1", err, sizeof err));
  CHECK(strstr(err, "libkjit-no-such-driver.so.1") != NULL);
  CHECK(api.lib == NULL && api.Init == NULL);
  CHECK(!rt_cu_api_load(&api, "libc.so.6", err, sizeof err));  /* loads; no cuInit */
  CHECK(strstr(err, "has no cuInit") != NULL);
  char name[64];
  CHECK(strcmp(rt_cu_error_name(&api, 700, name, sizeof name), "CUresult 700") == 0);
  RtCuApi real;
  if (!rt_cu_api_load(&real, NULL, err, sizeof err)) {  /* no driver here: a clean error */
    Diags d;
    CHECK(rt_cuda_open(&(RtCudaOpen){.ordinal = 0, .reset_on_fault = true}, fresh_diags(&d)) == NULL);
    CHECK(d.nerrors == 1 && d.list.data[0].code == RT_E_CUDA_NO_DEVICE);
    CHECK(strstr(first_msg(&d), "the CUDA driver is not usable") != NULL);
    StrBuf sb;
    sb_init(&sb);
    rt_cuda_info(&sb);
    CHECK(sb.data && strstr(sb.data, "CUDA driver: not available") != NULL);
    sb_free(&sb);
  }
}

/* nvJitLink needs no device: link the test PTX for sm_80 where installed. */
static void test_nvjitlink(void) {
  RtCuda cu;
  fake_device(&cu);
  void *cubin = NULL;
  size_t n = 0;
  bool unavailable = false;
  Diags d;
  bool ok = rt_cuda_link_ptx(&cu, vadd_ptx, strlen(vadd_ptx), true, &cubin, &n, &unavailable,
                             fresh_diags(&d));
  if (unavailable) {
    fprintf(stderr, "test_cuda: libnvJitLink not found; nvJitLink checks skipped\n");
    return;
  }
  if (!ok)
    print_diags(&d);
  CHECK(ok && n > 16 && memcmp(cubin, "\177ELF", 4) == 0);
  free(cubin);
  static const char bad[] = ".version 7.0\n.target sm_50\n.address_size 64\n"
                            ".visible .entry b()\n{ frobnicate; }\n";
  CHECK(!rt_cuda_link_ptx(&cu, bad, strlen(bad), false, &cubin, &n, &unavailable, fresh_diags(&d)));
  CHECK(d.nerrors == 1 && d.list.data[0].code == RT_E_CUDA_LINK);
  CHECK(strstr(first_msg(&d), "nvJitLink") != NULL);
  if (d.nerrors)
    print_diags(&d);
  if (cu.jl.lib)
    dlclose(cu.jl.lib);
}

/* --------------------------------------------------------- GPU checks --- */

static bool gpu_vadd(RtCuda *cu, bool driver_jit) {
  Diags d;
  RtCudaSpec *s = calloc(1, sizeof *s);
  snprintf(s->kernel, sizeof s->kernel, "vadd");
  if (!rt_cuda_module_load(cu, vadd_ptx, "vadd", false, driver_jit, &s->m, fresh_diags(&d))) {
    print_diags(&d);
    free(s);
    return false;
  }
  CHECK(s->m.via_nvjitlink == !driver_jit || driver_jit == false);
  rt_spec_prepare_slots(s);
  enum { N = 1000 };
  RtValue a[3] = {array_value(RT_F32, N), array_value(RT_F32, N), array_value(RT_F32, N)};
  RtCuDeviceptr p[3];
  for (int i = 0; i < N; i++) {
    ((float *)a[0].array.data)[i] = (float)i;
    ((float *)a[1].array.data)[i] = 2.0f * (float)i;
  }
  bool ok = true;
  for (int i = 0; i < 3; i++)
    ok &= rt_cuda_alloc(cu, N * 4, &p[i], "vadd", fresh_diags(&d)) &&
          cu->api.MemcpyHtoDAsync(p[i], a[i].array.data, N * 4, cu->stream) == RT_CU_SUCCESS;
  uint32_t g[3] = {(N + 127) / 128, 1, 1}, b[3] = {128, 1, 1};
  double ms = 0;
  ok = ok && rt_cuda_pack_args(s, a, p, 3, fresh_diags(&d)) &&
       rt_cuda_check_launch(cu, &s->m, "vadd", g, b, 0, &d) &&
       rt_cuda_launch(cu, s, NULL, g, b, 0, 3, false, false, &ms, &d) &&
       cu->api.MemcpyDtoHAsync(a[2].array.data, p[2], N * 4, cu->stream) == RT_CU_SUCCESS &&
       cu->api.StreamSynchronize(cu->stream) == RT_CU_SUCCESS;
  if (!ok)
    print_diags(&d);
  for (int i = 0; ok && i < N; i++)
    ok = ((float *)a[2].array.data)[i] == 3.0f * (float)i;
  CHECK(ok && ms > 0);
  if (cu->api.StreamBeginCapture) {             /* the same through a CUDA graph */
    ok = rt_cuda_launch(cu, s, NULL, g, b, 0, 4, true, false, &ms, fresh_diags(&d));
    if (!ok)
      print_diags(&d);
    CHECK(ok && ms > 0);
  }
  for (int i = 0; i < 3; i++) {
    rt_cuda_free(cu, p[i]);
    rt_value_free(&a[i]);
  }
  rt_cuda_module_unload(cu, &s->m);
  free(s->slots);
  free(s);
  return ok;
}

static void check_current(RtCuda *cu);

/* After a fault the driver either lets the primary context be reset (then
 * the next launch works) or keeps the error sticky for the whole process
 * (CUDA_ERROR_ILLEGAL_ADDRESS on the H200 with driver 580): then every later
 * call must fail with kjit's clear message, never crash or hang. */
static void check_after_fault(RtCuda *cu, Diags *d, bool async) {
  bool recovered = cu->ctx != NULL && cu->stream != NULL;
  fprintf(stderr, "test_cuda: context after the fault: %s\n",
          recovered ? "reset and usable" : "not recoverable in this process (sticky error)");
  if (recovered) {
    check_current(cu);
    CHECK(gpu_vadd(cu, async));
    return;
  }
  CHECK(d->nerrors >= 2 && strstr(d->list.data[1].msg, "could not be recreated after the fault") != NULL);
  CHECK(!gpu_vadd(cu, async));                  /* reported, not crashed */
}

/* A store through address 0: reported with the kernel's name, the context
 * reset, and the next launch works. */
static void gpu_fault(RtCuda *cu) {
  Diags d;
  RtCudaSpec *s = calloc(1, sizeof *s);
  snprintf(s->kernel, sizeof s->kernel, "poke");
  CHECK(rt_cuda_module_load(cu, poke_ptx, "poke", false, false, &s->m, fresh_diags(&d)));
  rt_spec_prepare_slots(s);
  s->key.nargs = 0;
  CHECK(rt_spec_insert(&cu->specs, s));         /* the reset must drop it */
  RtValue args[2] = {scalar_value(RT_U64, 0), scalar_value(RT_F32, 1.0)};
  uint32_t one[3] = {1, 1, 1};
  double ms;
  unsigned resets = cu->resets;
  CHECK(rt_cuda_pack_args(s, args, NULL, 2, fresh_diags(&d)));
  CHECK(!rt_cuda_launch(cu, s, NULL, one, one, 0, 1, false, false, &ms, &d));
  CHECK(d.nerrors >= 1 && d.list.data[0].code == RT_E_CUDA_FAULT);
  CHECK(strstr(first_msg(&d), "kernel 'poke' faulted") != NULL);
  CHECK(cu->resets == resets + 1 && cu->specs.count == 0);
  fprintf(stderr, "test_cuda: fault reported as: %s\n", first_msg(&d));
  check_after_fault(cu, &d, false);
}

/* The primary context is current on the calling thread (after a reset:
 * the new one). */
static void check_current(RtCuda *cu) {
  RtCuContext cur = NULL;
  CHECK(cu->ctx != NULL && cu->stream != NULL);
  CHECK(cu->api.CtxGetCurrent(&cur) == RT_CU_SUCCESS && cur == cu->ctx);
}

/* An asynchronous launch that faults: the launch itself succeeds, the
 * fault is reported by rt_cuda_sync naming the kernel, the context is
 * reset, and a second reset in a row works too. */
static void gpu_async_fault(RtCuda *cu) {
  Diags d;
  RtCudaSpec *s = calloc(1, sizeof *s);
  snprintf(s->kernel, sizeof s->kernel, "poke");
  CHECK(rt_cuda_module_load(cu, poke_ptx, "poke", false, false, &s->m, fresh_diags(&d)));
  rt_spec_prepare_slots(s);
  RtValue args[2] = {scalar_value(RT_U64, 0), scalar_value(RT_F32, 1.0)};
  uint32_t one[3] = {1, 1, 1};
  double ms = -1;
  unsigned resets = cu->resets;
  CHECK(rt_cuda_pack_args(s, args, NULL, 2, fresh_diags(&d)));
  bool queued = rt_cuda_launch(cu, s, NULL, one, one, 0, 1, false, true, &ms, &d);
  CHECK(queued ? ms == 0 && cu->pending : cu->resets == resets + 1);
  if (queued) {
    CHECK(!rt_cuda_sync(cu, fresh_diags(&d)));
    CHECK(d.nerrors >= 1 && strstr(first_msg(&d), "kernel 'poke' faulted") != NULL);
  }
  CHECK(cu->resets == resets + 1 && !cu->pending);
  rt_cuda_module_unload(NULL, &s->m);           /* the reset unloaded its module: */
  free(s->slots);                               /* only the entry name is left */
  free(s);
  check_after_fault(cu, &d, true);
}

/* A host thread that never touched CUDA: the entry points make the
 * primary context current themselves. */
static void *other_thread(void *arg) {
  RtCuda *cu = arg;
  RtCuContext cur = NULL;
  cu->api.CtxGetCurrent(&cur);
  CHECK(cur == NULL);
  CHECK(gpu_vadd(cu, false));
  return NULL;
}

static void gpu_thread(RtCuda *cu) {
  pthread_t t;
  CHECK(pthread_create(&t, NULL, other_thread, cu) == 0);
  pthread_join(t, NULL);
}

static int gpu_tests(int fault_mode) {
  RtCuApi api;
  char err[256];
  if (!rt_cu_api_load(&api, NULL, err, sizeof err)) {
    printf("SKIP: %s\n", err);
    return 77;
  }
  int count = 0;
  if (api.Init(0) != RT_CU_SUCCESS || api.DeviceGetCount(&count) != RT_CU_SUCCESS || count == 0) {
    printf("SKIP: no CUDA device\n");
    return 77;
  }
  StrBuf sb;
  sb_init(&sb);
  rt_cuda_info(&sb);
  printf("%s", sb.data ? sb.data : "");
  CHECK(sb.data && strstr(sb.data, "device 0:") != NULL);
  sb_free(&sb);
  Diags d;
  CHECK(rt_cuda_open(&(RtCudaOpen){.ordinal = count, .reset_on_fault = true}, fresh_diags(&d)) == NULL);   /* ordinal out of range */
  CHECK(d.nerrors == 1 && d.list.data[0].code == RT_E_CUDA_BAD_DEVICE);
  /* KJIT_DEVICE picks the device under test (run_gpu_suite.sh --device N) */
  const char *env = getenv("KJIT_DEVICE");
  int ordinal = env && *env ? atoi(env) : 0;
  printf("device under test: %d\n", ordinal);
  /* rt_cuda_open returns while a thread of its own retains the primary
   * context: closing at once must wait for that thread, not race it */
  RtCuda *early = rt_cuda_open(&(RtCudaOpen){.ordinal = ordinal, .reset_on_fault = true}, fresh_diags(&d));
  CHECK(early != NULL && d.nerrors == 0);
  rt_cuda_close(early);
  RtCuda *cu = rt_cuda_open(&(RtCudaOpen){.ordinal = ordinal, .reset_on_fault = true}, fresh_diags(&d));
  if (!cu) {
    print_diags(&d);
    return 1;
  }
  CHECK(cu->ptx_isa_max >= 70 && cu->info.max_threads_per_block >= 1024);
  /* the device is known before the context is: what a compile needs */
  CHECK(cu->info.cc_major >= 5);
  CHECK(rt_cuda_make_current(cu, fresh_diags(&d)) && cu->ctx && cu->stream && d.nerrors == 0);
  RtCuDeviceptr huge;
  CHECK(!rt_cuda_alloc(cu, (size_t)1 << 52, &huge, "a 4 PiB test buffer", fresh_diags(&d)));
  CHECK(d.nerrors == 1 && d.list.data[0].code == RT_E_CUDA_NOMEM);
  CHECK(gpu_vadd(cu, false));                   /* nvJitLink (or the JIT when absent) */
  CHECK(gpu_vadd(cu, true));                    /* the driver's JIT */
  /* A fault can leave the process unable to use the device again (sticky
   * errors), so each fault test runs in its own process (--gpu-fault N). */
  if (fault_mode == 1)
    gpu_fault(cu);
  else if (fault_mode == 2)
    gpu_async_fault(cu);
  else
    gpu_thread(cu);
  rt_cuda_close(cu);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  arena_init(&arena);
  int rc;
  if (argc > 1 && strcmp(argv[1], "--gpu") == 0) {
    rc = gpu_tests(0);
  } else if (argc > 2 && strcmp(argv[1], "--gpu-fault") == 0) {
    rc = gpu_tests(atoi(argv[2]));
  } else {
    test_version_table();
    test_peak_bandwidth();
    test_clamp();
    test_layout();
    test_spec_table();
    test_fits32_key();
    test_grid32_key();
    test_packing();
    test_launch_checks();
    test_dlopen_failures();
    test_nvjitlink();
    rc = failures ? 1 : 0;
  }
  arena_destroy(&arena);
  if (rc == 1)
    fprintf(stderr, "test_cuda: %d check(s) failed\n", failures);
  return rc;
}
