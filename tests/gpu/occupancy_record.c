/* occupancy_record.c CUBIN ENTRY BLOCK:DYN... - the driver's occupancy
 * calculator for one kernel, the reference kjit_occupancy_compute is
 * checked against (scripts/gpu_occupancy_record.sh runs it per kernel and
 * writes tests/data/occupancy_<arch>.txt; unit/test_occupancy reads it).
 *
 * Loads CUBIN into a context of device 0 (the script narrows
 * CUDA_VISIBLE_DEVICES to the device asked for), reads the
 * entry's registers, static shared bytes and largest block as the driver
 * sees them (cuFuncGetAttribute), and for each BLOCK:DYN asks
 * cuOccupancyMaxActiveBlocksPerMultiprocessor, with the function's
 * dynamic shared memory limit raised to DYN first (as a kjit launch does,
 * so sizes past 48 KiB are the opt-in's).  One line per BLOCK:DYN:
 *   REGS STATIC_SHARED MAX_THREADS BLOCK DYN BLOCKS_PER_SM
 * The driver is loaded with dlopen, so this builds without CUDA and exits
 * 77 where there is no driver or device.  Written against the driver's C
 * ABI only (the few entry points below). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction;

enum { /* CUfunction_attribute */
  ATTR_MAX_THREADS = 0, ATTR_SHARED_SIZE = 1, ATTR_NUM_REGS = 4, ATTR_MAX_DYNAMIC_SHARED = 8,
};

static struct {
  CUresult (*init)(unsigned);
  CUresult (*device_get)(CUdevice *, int);
  CUresult (*ctx_create)(CUcontext *, unsigned, CUdevice);
  CUresult (*module_load)(CUmodule *, const void *);
  CUresult (*get_function)(CUfunction *, CUmodule, const char *);
  CUresult (*func_attr)(int *, int, CUfunction);
  CUresult (*func_set_attr)(CUfunction, int, int);
  CUresult (*occupancy)(int *, CUfunction, int, size_t);
} cu;

static int load_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h)
    return 0;
  *(void **)&cu.init = dlsym(h, "cuInit");
  *(void **)&cu.device_get = dlsym(h, "cuDeviceGet");
  *(void **)&cu.ctx_create = dlsym(h, "cuCtxCreate_v2");
  *(void **)&cu.module_load = dlsym(h, "cuModuleLoadData");
  *(void **)&cu.get_function = dlsym(h, "cuModuleGetFunction");
  *(void **)&cu.func_attr = dlsym(h, "cuFuncGetAttribute");
  *(void **)&cu.func_set_attr = dlsym(h, "cuFuncSetAttribute");
  *(void **)&cu.occupancy = dlsym(h, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return cu.init && cu.device_get && cu.ctx_create && cu.module_load && cu.get_function &&
         cu.func_attr && cu.func_set_attr && cu.occupancy;
}

static void *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n > 0 ? malloc((size_t)n) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: occupancy_record CUBIN ENTRY BLOCK:DYN...\n");
    return 2;
  }
  CUdevice dev;
  CUcontext ctx;
  if (!load_driver() || cu.init(0) != 0 || cu.device_get(&dev, 0) != 0 ||
      cu.ctx_create(&ctx, 0, dev) != 0) {
    fprintf(stderr, "occupancy_record: no CUDA driver or device: skipped\n");
    return 77;
  }
  void *image = read_file(argv[1]);
  CUmodule mod;
  CUfunction fn;
  CUresult r;
  if (!image || (r = cu.module_load(&mod, image)) != 0 || (r = cu.get_function(&fn, mod, argv[2])) != 0) {
    fprintf(stderr, "occupancy_record: cannot load %s from %s\n", argv[2], argv[1]);
    return 1;
  }
  int regs = 0, shared = 0, maxt = 0;
  cu.func_attr(&regs, ATTR_NUM_REGS, fn);
  cu.func_attr(&shared, ATTR_SHARED_SIZE, fn);
  cu.func_attr(&maxt, ATTR_MAX_THREADS, fn);
  int status = 0;
  for (int i = 3; i < argc; i++) {
    int block = 0, blocks = -1;
    long dyn = 0;
    if (sscanf(argv[i], "%d:%ld", &block, &dyn) != 2 || block <= 0 || dyn < 0) {
      fprintf(stderr, "occupancy_record: '%s' is not BLOCK:DYN\n", argv[i]);
      return 2;
    }
    cu.func_set_attr(fn, ATTR_MAX_DYNAMIC_SHARED, (int)dyn); /* refused past the device's limit */
    if ((r = cu.occupancy(&blocks, fn, block, (size_t)dyn)) != 0) {
      fprintf(stderr, "occupancy_record: %s block %d dyn %ld: CUresult %d\n", argv[2], block, dyn, r);
      status = 1;
      continue;
    }
    printf("%d %d %d %d %ld %d\n", regs, shared, maxt, block, dyn, blocks);
  }
  return status;
}
