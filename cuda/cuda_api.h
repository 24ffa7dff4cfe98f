/* cuda_api.h - the few CUDA driver and nvJitLink declarations kjit uses,
 * written out here so libkjit builds without the toolkit headers and never
 * links libcuda or libnvJitLink: both are opened with dlopen and every entry
 * point is looked up into a table (RtCuApi, RtJlApi) that lives on an
 * object, never in a global.
 *
 * Every value below is copied from CUDA 13's cuda.h / nvJitLink.h; they are
 * ABI-stable since CUDA 11.  tests/unit/test_cuda.c checks them against the
 * real headers where those are installed.  Names carry an RT_CU_ / RtCu
 * prefix so this header and cuda.h can be included together. */
#ifndef KJIT_RUNTIME_CUDA_API_H
#define KJIT_RUNTIME_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

typedef int RtCuResult;                        /* CUresult */
typedef int RtCuDevice;                        /* CUdevice */
typedef unsigned long long RtCuDeviceptr;      /* CUdeviceptr (64-bit) */
typedef struct RtCuCtxSt *RtCuContext;
typedef struct RtCuModSt *RtCuModule;
typedef struct RtCuFuncSt *RtCuFunction;
typedef struct RtCuStreamSt *RtCuStream;
typedef struct RtCuEventSt *RtCuEvent;
typedef struct RtCuGraphSt *RtCuGraph;
typedef struct RtCuGraphExecSt *RtCuGraphExec;

enum {                                         /* CUresult values kjit names */
  RT_CU_SUCCESS = 0,
  RT_CU_ERROR_INVALID_VALUE = 1,
  RT_CU_ERROR_OUT_OF_MEMORY = 2,
  RT_CU_ERROR_NOT_INITIALIZED = 3,
  RT_CU_ERROR_NO_DEVICE = 100,
  RT_CU_ERROR_INVALID_DEVICE = 101,
  RT_CU_ERROR_INVALID_CONTEXT = 201,
  RT_CU_ERROR_INVALID_HANDLE = 400,
  RT_CU_ERROR_NOT_READY = 600,
  RT_CU_ERROR_CONTEXT_IS_DESTROYED = 709,
  RT_CU_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
  RT_CU_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
  RT_CU_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  RT_CU_ERROR_ILLEGAL_ADDRESS = 700,
  RT_CU_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  RT_CU_ERROR_LAUNCH_TIMEOUT = 702,
  RT_CU_ERROR_ASSERT = 710,
  RT_CU_ERROR_HARDWARE_STACK_ERROR = 714,
  RT_CU_ERROR_ILLEGAL_INSTRUCTION = 715,
  RT_CU_ERROR_MISALIGNED_ADDRESS = 716,
  RT_CU_ERROR_INVALID_ADDRESS_SPACE = 717,
  RT_CU_ERROR_INVALID_PC = 718,
  RT_CU_ERROR_LAUNCH_FAILED = 719,
};

enum {                                         /* CUdevice_attribute */
  RT_CU_DEV_MAX_THREADS_PER_BLOCK = 1,
  RT_CU_DEV_MAX_BLOCK_DIM_X = 2,
  RT_CU_DEV_MAX_BLOCK_DIM_Y = 3,
  RT_CU_DEV_MAX_BLOCK_DIM_Z = 4,
  RT_CU_DEV_MAX_GRID_DIM_X = 5,
  RT_CU_DEV_MAX_GRID_DIM_Y = 6,
  RT_CU_DEV_MAX_GRID_DIM_Z = 7,
  RT_CU_DEV_MAX_SHARED_PER_BLOCK = 8,
  RT_CU_DEV_WARP_SIZE = 10,
  RT_CU_DEV_MULTIPROCESSOR_COUNT = 16,
  RT_CU_DEV_MEMORY_CLOCK_RATE = 36,          /* kHz */
  RT_CU_DEV_GLOBAL_MEMORY_BUS_WIDTH = 37,    /* bits */
  RT_CU_DEV_CC_MAJOR = 75,
  RT_CU_DEV_CC_MINOR = 76,
  RT_CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN = 97,
};

enum {                                         /* CUfunction_attribute */
  RT_CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
  RT_CU_FUNC_SHARED_SIZE_BYTES = 1,
  RT_CU_FUNC_CONST_SIZE_BYTES = 2,
  RT_CU_FUNC_LOCAL_SIZE_BYTES = 3,
  RT_CU_FUNC_NUM_REGS = 4,
  RT_CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum {                                         /* CUjit_option */
  RT_CU_JIT_INFO_LOG_BUFFER = 3,
  RT_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  RT_CU_JIT_ERROR_LOG_BUFFER = 5,
  RT_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  RT_CU_JIT_OPTIMIZATION_LEVEL = 7,
  RT_CU_JIT_GENERATE_LINE_INFO = 13,
};

enum {
  RT_CU_STREAM_NON_BLOCKING = 1,               /* CUstream_flags */
  RT_CU_EVENT_DEFAULT = 0,                     /* CUevent_flags */
  RT_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,  /* CUstreamCaptureMode */
  RT_CU_STREAM_CAPTURE_STATUS_NONE = 0,        /* CUstreamCaptureStatus */
  RT_CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
  RT_CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2,
};

/* CU_STREAM_LEGACY and CU_STREAM_PER_THREAD: the default streams, valid in
 * every context. */
#define RT_CU_STREAM_LEGACY ((RtCuStream)0x1)
#define RT_CU_STREAM_PER_THREAD ((RtCuStream)0x2)

enum {                                         /* CUpointer_attribute */
  RT_CU_POINTER_CONTEXT = 1,
  RT_CU_POINTER_MEMORY_TYPE = 2,
  RT_CU_POINTER_IS_MANAGED = 8,
  RT_CU_POINTER_DEVICE_ORDINAL = 9,
  RT_CU_POINTER_RANGE_START_ADDR = 11,
  RT_CU_POINTER_RANGE_SIZE = 12,
  RT_CU_POINTER_MAPPED = 13,
};

enum {                                         /* CUmemorytype */
  RT_CU_MEMORYTYPE_HOST = 1,
  RT_CU_MEMORYTYPE_DEVICE = 2,
  RT_CU_MEMORYTYPE_UNIFIED = 4,
};

/* The driver entry points, looked up by their ABI names (the _v2 names
 * where cuda.h maps the plain name to one).  Optional entries may be NULL
 * (the graph functions on very old drivers). */
typedef struct RtCuApi {
  void *lib;                                   /* dlopen handle of libcuda.so.1 */
  RtCuResult (*Init)(unsigned flags);
  RtCuResult (*DriverGetVersion)(int *version);
  RtCuResult (*GetErrorName)(RtCuResult e, const char **name);
  RtCuResult (*GetErrorString)(RtCuResult e, const char **text);
  RtCuResult (*DeviceGetCount)(int *count);
  RtCuResult (*DeviceGet)(RtCuDevice *dev, int ordinal);
  RtCuResult (*DeviceGetName)(char *name, int len, RtCuDevice dev);
  RtCuResult (*DeviceGetAttribute)(int *v, int attr, RtCuDevice dev);
  RtCuResult (*DeviceTotalMem)(size_t *bytes, RtCuDevice dev);             /* _v2 */
  RtCuResult (*DevicePrimaryCtxRetain)(RtCuContext *ctx, RtCuDevice dev);
  RtCuResult (*DevicePrimaryCtxRelease)(RtCuDevice dev);                   /* _v2 */
  RtCuResult (*DevicePrimaryCtxReset)(RtCuDevice dev);                     /* _v2 */
  RtCuResult (*CtxSetCurrent)(RtCuContext ctx);
  RtCuResult (*CtxSynchronize)(void);
  RtCuResult (*CtxGetCurrent)(RtCuContext *ctx);
  RtCuResult (*ModuleLoadData)(RtCuModule *m, const void *image);
  RtCuResult (*ModuleLoadDataEx)(RtCuModule *m, const void *image, unsigned n, int *opts,
                                 void **vals);
  RtCuResult (*ModuleUnload)(RtCuModule m);
  RtCuResult (*ModuleGetFunction)(RtCuFunction *f, RtCuModule m, const char *name);
  RtCuResult (*FuncGetAttribute)(int *v, int attr, RtCuFunction f);
  RtCuResult (*FuncSetAttribute)(RtCuFunction f, int attr, int v);
  RtCuResult (*LaunchKernel)(RtCuFunction f, unsigned gx, unsigned gy, unsigned gz,
                             unsigned bx, unsigned by, unsigned bz, unsigned shared,
                             RtCuStream s, void **params, void **extra);
  RtCuResult (*MemAlloc)(RtCuDeviceptr *p, size_t bytes);                   /* _v2 */
  RtCuResult (*MemFree)(RtCuDeviceptr p);                                   /* _v2 */
  RtCuResult (*MemcpyHtoDAsync)(RtCuDeviceptr d, const void *h, size_t n, RtCuStream s);
  RtCuResult (*MemcpyDtoHAsync)(void *h, RtCuDeviceptr d, size_t n, RtCuStream s);
  RtCuResult (*MemcpyDtoDAsync)(RtCuDeviceptr d, RtCuDeviceptr s, size_t n, RtCuStream st); /* _v2 */
  RtCuResult (*StreamCreate)(RtCuStream *s, unsigned flags);
  RtCuResult (*StreamDestroy)(RtCuStream s);                                /* _v2 */
  RtCuResult (*StreamSynchronize)(RtCuStream s);
  RtCuResult (*EventCreate)(RtCuEvent *e, unsigned flags);
  RtCuResult (*EventDestroy)(RtCuEvent e);                                  /* _v2 */
  RtCuResult (*EventRecord)(RtCuEvent e, RtCuStream s);
  RtCuResult (*EventSynchronize)(RtCuEvent e);
  RtCuResult (*EventElapsedTime)(float *ms, RtCuEvent a, RtCuEvent b);      /* _v2 from 12.8 */
  /* optional: CUDA graphs */
  RtCuResult (*StreamBeginCapture)(RtCuStream s, int mode);                 /* _v2 */
  RtCuResult (*StreamEndCapture)(RtCuStream s, RtCuGraph *g);
  RtCuResult (*GraphInstantiate)(RtCuGraphExec *e, RtCuGraph g, unsigned long long flags);
  RtCuResult (*GraphLaunch)(RtCuGraphExec e, RtCuStream s);
  RtCuResult (*GraphExecDestroy)(RtCuGraphExec e);
  RtCuResult (*GraphDestroy)(RtCuGraph g);
  /* cooperative launches (cuda.cg.this_grid(); optional: NULL when absent) */
  RtCuResult (*LaunchCooperativeKernel)(RtCuFunction f, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                        RtCuStream s, void **params);
  RtCuResult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, RtCuFunction f, int threads,
                                                          size_t dyn_shared);
  /* embedding: the host's memory, streams and contexts */
  RtCuResult (*PointerGetAttribute)(void *data, int attr, RtCuDeviceptr p);
  RtCuResult (*StreamGetCtx)(RtCuStream s, RtCuContext *ctx);
  RtCuResult (*StreamQuery)(RtCuStream s);
  RtCuResult (*StreamIsCapturing)(RtCuStream s, int *status);              /* optional */
  RtCuResult (*CtxCreate)(RtCuContext *ctx, unsigned flags, RtCuDevice dev); /* _v2 */
  RtCuResult (*CtxDestroy)(RtCuContext ctx);                                /* _v2 */
  RtCuResult (*CtxGetDevice)(RtCuDevice *dev);
  RtCuResult (*CtxPushCurrent)(RtCuContext ctx);                            /* _v2 */
  RtCuResult (*CtxPopCurrent)(RtCuContext *ctx);                            /* _v2 */
} RtCuApi;

/* ---- nvJitLink (PTX -> cubin in process) ------------------------------ */

typedef struct RtJlHandleSt *RtJlHandle;      /* nvJitLinkHandle */
typedef int RtJlResult;                        /* nvJitLinkResult; 0 = success */
enum { RT_JL_INPUT_PTX = 2 };                  /* nvJitLinkInputType */

typedef struct RtJlApi {
  void *lib;                                   /* dlopen handle of libnvJitLink */
  RtJlResult (*Create)(RtJlHandle *h, uint32_t nopts, const char **opts);
  RtJlResult (*Destroy)(RtJlHandle *h);
  RtJlResult (*AddData)(RtJlHandle h, int type, const void *data, size_t size,
                        const char *name);
  RtJlResult (*Complete)(RtJlHandle h);
  RtJlResult (*GetLinkedCubinSize)(RtJlHandle h, size_t *size);
  RtJlResult (*GetLinkedCubin)(RtJlHandle h, void *cubin);
  RtJlResult (*GetErrorLogSize)(RtJlHandle h, size_t *size);
  RtJlResult (*GetErrorLog)(RtJlHandle h, char *log);
  RtJlResult (*Version)(unsigned *major, unsigned *minor);                  /* optional */
  RtJlResult (*GetInfoLogSize)(RtJlHandle h, size_t *size);                 /* optional: */
  RtJlResult (*GetInfoLog)(RtJlHandle h, char *log);                        /* -verbose's log */
} RtJlApi;

#endif
