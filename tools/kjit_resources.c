/* kjit_resources.c - how the CLI prints a kernel's resource usage
 * (kjit_program_resources): one line per kernel, so scripts can read a
 * field with grep or awk and tests can compare it with `ptxas -v`. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

/* ", LABEL N B" for a known value; nothing for -1 (the driver's view of
 * a launched kernel has no spill split and no code sizes). */
static void field(FILE *f, const char *label, int64_t v, const char *unit) {
  if (v >= 0)
    fprintf(f, ", %s %" PRId64 "%s", label, v, unit);
}

void kjit_cli_print_resources(FILE *f, const kjit_resources *r) {
  fprintf(f, "%s %s: registers %d", r->name, r->arch, r->registers);
  field(f, "stack", r->stack_bytes, " B");
  field(f, "spill stores", r->spill_store_bytes, " B");
  field(f, "spill loads", r->spill_load_bytes, " B");
  field(f, "static shared", r->static_shared_bytes, " B");
  field(f, "const", r->const_bytes, " B");
  field(f, "barriers", r->barriers, "");
  field(f, "max threads/block", r->max_threads_per_block, "");
  field(f, "PTX", r->ptx_bytes, " B");
  field(f, "SASS", r->sass_bytes, " B");
  field(f, "cubin", r->cubin_bytes, " B");
  fputc('\n', f);
}

/* "  occupancy: block B: N blocks/SM, W/M warps (P%), limited by WHY". */
static void print_occupancy(FILE *f, const char *what, int block, const kjit_occupancy *o) {
  fprintf(f, "  occupancy %s %d: %d blocks/SM, %d/%d warps (%.0f%%), limited by %s\n", what, block,
          o->active_blocks_per_sm, o->active_warps_per_sm, o->max_warps_per_sm,
          100.0 * o->occupancy, o->limited_by);
}

void kjit_cli_print_occupancy(FILE *f, const kjit_resources *r) {
  kjit_occupancy o;
  int block = 0;
  if (kjit_occupancy_best_block(r, NULL, 0, &block, &o) != KJIT_OK) {
    fprintf(f, "  occupancy: no table for %s (sm_70 .. sm_90)\n", r->arch);
    return;
  }
  print_occupancy(f, "best block", block, &o);
  if (block != 256 && kjit_occupancy_compute(r, NULL, 256, 0, &o) == KJIT_OK)
    print_occupancy(f, "block", 256, &o);
}

/* ---------------------------------------------------- --grid cover: --- */

int kjit_cli_cover_grid(const char *name, const kjit_arg *val, const uint32_t block[3],
                        uint32_t grid[3]) {
  static const int64_t max_grid[3] = {INT32_MAX, 65535, 65535}; /* CUDA's gridDim limits */
  if (!val) {
    fprintf(stderr, "kjit: error: --grid cover:%s names no parameter of the kernel\n"
                    "Try 'kjit run --help'.\n", name);
    return EXIT_USAGE;
  }
  const kjit_array *a = val->kind == KJIT_ARG_ARRAY ? val->value.array : NULL;
  int nd = a ? kjit_array_ndim(a) : 0;
  if (!a || nd < 1 || nd > 3) {
    fprintf(stderr, "kjit: error: --grid cover:%s needs an array of 1 to 3 dimensions; '%s' is %s\n"
                    "hint: give the grid as X[,Y[,Z]]\n", name, name, a ? "of more dimensions" : "a scalar");
    return EXIT_USAGE;
  }
  const int64_t *shape = kjit_array_shape(a);
  for (int d = 0; d < 3; d++) {
    int64_t n = d < nd ? shape[d] : 1;
    if (n == 0) {
      fprintf(stderr, "kjit: error: --grid cover:%s: the array is empty (dimension %d is 0), "
                      "so no block would run\n", name, d);
      return EXIT_USAGE;
    }
    int64_t blocks = (n + block[d] - 1) / block[d];
    if (blocks > max_grid[d]) {
      fprintf(stderr, "kjit: error: --grid cover:%s: %" PRId64 " blocks of %u threads in dimension "
                      "%d, over CUDA's limit of %" PRId64 "\nhint: use larger blocks, or a "
                      "grid-stride loop with a fixed --grid\n", name, blocks, block[d], d,
              max_grid[d]);
      return EXIT_USAGE;
    }
    grid[d] = (uint32_t)blocks;
  }
  return EXIT_OK;
}

/* ------------------------------------------------------ --block auto --- */

/* "void(float32[:, ::1], int64)" of the arguments, as a launch types them
 * (C-contiguous arrays "::1" last, others any layout); 0 when one has no
 * such spelling (tuples, records). */
static int signature_of(const kjit_arg *vals, int n, char *out, size_t len) {
  size_t at = (size_t)snprintf(out, len, "void(");
  for (int i = 0; i < n && at < len; i++) {
    const kjit_arg *v = &vals[i];
    const char *sep = i ? ", " : "";
    if (v->kind == KJIT_ARG_INT64 || v->kind == KJIT_ARG_FLOAT64) {
      at += (size_t)snprintf(out + at, len - at, "%s%s", sep, v->kind == KJIT_ARG_INT64 ? "int64" : "float64");
    } else if (v->kind == KJIT_ARG_SCALAR && v->dtype != KJIT_RECORD) {
      at += (size_t)snprintf(out + at, len - at, "%s%s", sep, kjit_dtype_name(v->dtype));
    } else if (v->kind == KJIT_ARG_ARRAY && kjit_array_dtype(v->value.array) != KJIT_RECORD) {
      const kjit_array *a = v->value.array;
      int nd = kjit_array_ndim(a);
      const int64_t *shape = kjit_array_shape(a), *strides = kjit_array_strides(a);
      int64_t want = (int64_t)kjit_dtype_size(kjit_array_dtype(a));
      int c = 1;
      for (int d = nd - 1; d >= 0; d--) {   /* C order, extents of 1 free */
        c &= shape[d] <= 1 || strides[d] == want;
        want *= shape[d];
      }
      at += (size_t)snprintf(out + at, len - at, "%s%s[", sep, kjit_dtype_name(kjit_array_dtype(a)));
      for (int d = 0; d < nd && at < len; d++)
        at += (size_t)snprintf(out + at, len - at, "%s%s", d ? ", " : "", c && d == nd - 1 ? "::1" : ":");
      at += (size_t)snprintf(out + at, len - at, "]");
    } else {
      return 0;
    }
  }
  return at + 2 < len && snprintf(out + at, len - at, ")") == 1;
}

int kjit_cli_auto_block(kjit_context *ctx, kjit_program *prog, const char *kernel,
                        const kjit_arg *vals, int n, size_t dyn_shared, uint32_t block[3]) {
  char sig[1024];
  if (!signature_of(vals, n, sig, sizeof sig)) {
    fprintf(stderr, "kjit: error: --block auto: an argument of kernel '%s' (a tuple or a record) "
                    "has no signature spelling to compile it for\nhint: give --block X\n", kernel);
    return EXIT_USAGE;
  }
  kjit_compile_options o;
  kjit_compile_options_init(&o);
  o.fits32 = o.grid32 = 1;                /* the variant a launch of this size picks */
  kjit_resources r;
  int count = 0;
  kjit_occupancy occ;
  int best = 0;
  kjit_status st = kjit_program_resources(prog, kernel, sig, &o, &r, 1, &count);
  if (st == KJIT_OK)
    st = kjit_occupancy_best_block(&r, NULL, dyn_shared, &best, &occ);
  if (st != KJIT_OK || best == 0) {
    fprintf(stderr, "%s", st != KJIT_OK ? kjit_last_error(ctx) : "");
    fprintf(stderr, "kjit: error: --block auto: no block size for kernel '%s'%s\nhint: give --block X\n",
            kernel, st != KJIT_OK ? " (its resource usage is unknown: see above)"
                                  : " fits the architecture's limits");
    return EXIT_ERRORS;
  }
  block[0] = (uint32_t)best, block[1] = block[2] = 1;
  fprintf(stderr, "kjit: note: --block auto: %d threads for %s (%d registers; %d blocks/SM, %.0f%% "
                  "occupancy, limited by %s)\n", best, r.arch, r.registers, occ.active_blocks_per_sm,
          100.0 * occ.occupancy, occ.limited_by);
  return EXIT_OK;
}

/* ---------------------------------------------------------- --profile --- */

/* " of P GB/s peak (F%, from SOURCE)" on the cuda target, when the
 * device's peak is known (kjit_device_info.peak_bandwidth_mbs). */
static void print_peak(kjit_context *ctx, double gbs) {
  kjit_target t = KJIT_TARGET_CPU;
  int ordinal = 0;
  kjit_device_info d;
  if (kjit_context_target(ctx, &t) != KJIT_OK || t != KJIT_TARGET_CUDA ||
      kjit_context_device(ctx, &ordinal) != KJIT_OK || kjit_device_get_info(ordinal, &d) != KJIT_OK ||
      d.peak_bandwidth_mbs <= 0)
    return;
  double peak = d.peak_bandwidth_mbs / 1e3;
  printf(" of %.1f GB/s peak (%.1f%%; peak from %s)", peak, 100.0 * gbs / peak,
         d.peak_bandwidth_source == 1 ? "memory clock x bus width" : "kjit's table of data sheets");
}

void kjit_cli_print_profile(kjit_context *ctx, const kjit_arg *vals, int n, const uint32_t block[3],
                            size_t dyn_shared, double run_ms) {
  int64_t bytes = 0;
  for (int i = 0; i < n; i++)
    if (vals[i].kind == KJIT_ARG_ARRAY)
      bytes += kjit_array_size(vals[i].value.array) * kjit_array_itemsize(vals[i].value.array);
  printf("profile: kernel %.3f ms, arrays %" PRId64 " B", run_ms, bytes);
  double gbs = run_ms > 0 ? (double)bytes / (run_ms * 1e-3) / 1e9 : 0;
  if (run_ms > 0)
    printf(", effective bandwidth %.1f GB/s", gbs);
  print_peak(ctx, gbs);
  kjit_resources r;
  kjit_occupancy o;
  int threads = (int)(block[0] * block[1] * block[2]);
  if (kjit_last_resources(ctx, &r) == KJIT_OK &&
      kjit_occupancy_compute(&r, NULL, threads, dyn_shared, &o) == KJIT_OK)
    printf(", occupancy %.0f%% (%d blocks/SM of %d threads, limited by %s; %d registers)",
           100.0 * o.occupancy, o.active_blocks_per_sm, threads, o.limited_by, r.registers);
  putchar('\n');
}
