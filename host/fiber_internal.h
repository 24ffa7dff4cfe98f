/* fiber.h - minimal stackful coroutines for the host executor.
 *
 * On x86-64 a switch saves the callee-saved registers (rbx, rbp, r12-r15),
 * MXCSR and the x87 control word on the old stack and swaps rsp: no system
 * call, a few nanoseconds.  Other architectures fall back to ucontext
 * (swapcontext, which also saves the signal mask: a syscall per switch).
 * Stacks come from mmap with a PROT_NONE guard page below, so an overflow
 * faults instead of corrupting memory. */
#ifndef KJIT_RUNTIME_FIBER_H
#define KJIT_RUNTIME_FIBER_H

#include <stddef.h>

#if defined(__x86_64__) && !defined(RT_FIBER_UCONTEXT) /* -DRT_FIBER_UCONTEXT tests the fallback */
#define RT_FIBER_ASM 1
typedef struct RtFiberCtx { void *sp; } RtFiberCtx;  /* saved stack pointer */
#else
#include <ucontext.h>
typedef struct RtFiberCtx { ucontext_t uc; } RtFiberCtx;
#endif

typedef struct RtFiberStack {
  void *base;        /* mmap'd region, guard page first */
  size_t size;       /* usable bytes above the guard page */
  char *top;         /* highest address (base + page + size) */
} RtFiberStack;

/* Maps a stack of `size` bytes (rounded up to pages) plus a guard page.
 * Returns 0 or -1 (errno set). */
int rt_fiber_stack_alloc(RtFiberStack *st, size_t size);
void rt_fiber_stack_free(RtFiberStack *st);

/* Prepares `f` so that the first switch to it runs entry(arg) on `st`.
 * entry must never return: it ends by switching away for good. */
void rt_fiber_init(RtFiberCtx *f, RtFiberStack *st, void (*entry)(void *), void *arg);

/* Saves the running context into `from` and resumes `to`. */
void rt_fiber_switch(RtFiberCtx *from, RtFiberCtx *to);

#endif
