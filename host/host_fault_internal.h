/* host_fault.h - guest faults on the CPU target (see host_fault.c).
 *
 * A kernel that reads or writes outside its memory (an index out of bounds
 * without debug=True, a bad dynamic shared size, a thread stack overrun)
 * raises SIGSEGV or SIGBUS in a worker thread.  While a worker runs blocks
 * it holds an armed recovery point; the process-wide handler, on the
 * worker's alternate signal stack, jumps back to it, and the launch fails
 * with the address instead of taking the host process down. */
#ifndef KJIT_RUNTIME_HOST_FAULT_H
#define KJIT_RUNTIME_HOST_FAULT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RtFaultPoint {
  sigjmp_buf jb;          /* taken by sigsetjmp(jb, 1) in the worker's frame */
  void *addr;             /* the faulting address, once jumped back */
  int sig;                /* SIGSEGV or SIGBUS */
  int addr_known;         /* RT_FAULT_ADDR_*: where addr came from */
  struct RtFaultPoint *prev; /* the point armed before (nested launches) */
} RtFaultPoint;

/* Where RtFaultPoint.addr came from.  x86-64 raises a general protection
 * fault, not a page fault, for an address outside the canonical 47-bit
 * halves (a huge index or stride), and the kernel then reports si_addr 0:
 * the address is recomputed from the faulting instruction's memory operand
 * and the registers (RT_FAULT_ADDR_DECODED), or stays unknown. */
enum {
  RT_FAULT_ADDR_UNKNOWN = 0,  /* a non-canonical address that could not be decoded */
  RT_FAULT_ADDR_SIGNAL = 1,   /* si_addr: the page fault's address */
  RT_FAULT_ADDR_DECODED = 2,  /* the non-canonical address, from the instruction */
};

/* The alternate signal stack a worker thread runs the handler on (a fiber
 * stack overrun leaves no stack to run it on otherwise). */
typedef struct RtFaultStack {
  void *mem;
  int installed;          /* ours is the thread's current altstack */
} RtFaultStack;

/* The address the x86-64 instruction at code accesses through its ModRM
 * memory operand, given the 16 general registers (rax, rcx, ..., r15 in
 * encoding order); false when it cannot tell (rip-relative, fs/gs, a vector
 * index, an EVEX scaled displacement) or the result is a canonical address
 * (then the bytes were misread: a general protection fault has none). */
bool rt_fault_decode_x86(const uint8_t *code, const uint64_t regs[16], uint64_t *out);

/* Installs the SIGSEGV/SIGBUS handler once per process (later calls do
 * nothing); a fault outside an armed point goes to the handler that was
 * there before, or kills the process as it would have. */
void rt_fault_install(void);
/* Gives the calling thread an alternate signal stack if it has none. */
void rt_fault_stack_enter(RtFaultStack *s);
/* Removes it again (before the thread exits or the memory is freed). */
void rt_fault_stack_leave(RtFaultStack *s);
/* Arms p (its jb already set by sigsetjmp) for the calling thread. */
void rt_fault_arm(RtFaultPoint *p);
/* Disarms the calling thread's innermost point. */
void rt_fault_disarm(RtFaultPoint *p);

#endif
