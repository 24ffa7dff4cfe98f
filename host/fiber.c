/* fiber.c - stack switching for the host executor's barrier mode
 * (see fiber.h).  The x86-64 switch is ten instructions of assembly at file
 * scope (CMake builds only C here, so no .S file); elsewhere ucontext. */
#include "host/fiber_internal.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

int rt_fiber_stack_alloc(RtFiberStack *st, size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size = (size + page - 1) / page * page;
  void *p = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) { st->base = st->top = NULL; st->size = 0; return -1; }
  if (mprotect(p, page, PROT_NONE) != 0) { munmap(p, size + page); st->base = NULL; return -1; }
  st->base = p;
  st->size = size;
  st->top = (char *)p + page + size;
  return 0;
}

void rt_fiber_stack_free(RtFiberStack *st) {
  if (st->base) munmap(st->base, st->size + (size_t)sysconf(_SC_PAGESIZE));
  st->base = st->top = NULL;
  st->size = 0;
}

static char *stack_top(RtFiberStack *st) { return st->top; }

#if defined(RT_FIBER_ASM)

/* rt_fiber_swap(void **save_sp, void *new_sp): pushes the callee-saved
 * registers and the FP control words, stores rsp, loads the new rsp and
 * pops the same frame from it.  rt_fiber_trampoline is where a new fiber's
 * first `ret` lands: entry (r13) is called with arg (r12) and must not
 * return. */
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl rt_fiber_swap\n"
    ".hidden rt_fiber_swap\n"
    ".type rt_fiber_swap,@function\n"
    "rt_fiber_swap:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  subq $8, %rsp\n"
    "  stmxcsr (%rsp)\n"
    "  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n"
    "  fldcw 4(%rsp)\n"
    "  addq $8, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size rt_fiber_swap, .-rt_fiber_swap\n"
    ".p2align 4\n"
    ".globl rt_fiber_trampoline\n"
    ".hidden rt_fiber_trampoline\n"
    ".type rt_fiber_trampoline,@function\n"
    "rt_fiber_trampoline:\n"
    "  movq %r12, %rdi\n"
    "  callq *%r13\n"
    "  ud2\n"
    ".size rt_fiber_trampoline, .-rt_fiber_trampoline\n");

void rt_fiber_swap(void **save_sp, void *new_sp);
void rt_fiber_trampoline(void);

/* Frame popped by the first swap into the fiber (low to high addresses):
 * [mxcsr u32, x87 cw u16, pad] r15 r14 r13 r12 rbx rbp [return address].
 * After the `ret`, rsp is 16-byte aligned, as a `call` site requires. */
void rt_fiber_init(RtFiberCtx *f, RtFiberStack *st, void (*entry)(void *), void *arg) {
  UNPOISON(st->top - st->size, st->size);
  uintptr_t top = (uintptr_t)stack_top(st) & ~(uintptr_t)15;
  uint64_t *ret_slot = (uint64_t *)(top - 24);
  uint64_t *sp = ret_slot - 7;
  uint32_t mxcsr;
  uint16_t fpcw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(fpcw));
  memset(sp, 0, 8 * 8);
  memcpy(sp, &mxcsr, 4);
  memcpy((char *)sp + 4, &fpcw, 2);
  sp[1] = 0;                         /* r15 */
  sp[2] = 0;                         /* r14 */
  sp[3] = (uint64_t)(uintptr_t)entry; /* r13 */
  sp[4] = (uint64_t)(uintptr_t)arg;   /* r12 */
  sp[5] = 0;                         /* rbx */
  sp[6] = 0;                         /* rbp: ends frame-pointer walks */
  *ret_slot = (uint64_t)(uintptr_t)rt_fiber_trampoline;
  f->sp = sp;
}

void rt_fiber_switch(RtFiberCtx *from, RtFiberCtx *to) { rt_fiber_swap(&from->sp, to->sp); }

#else /* ucontext fallback */

typedef struct Start { void (*entry)(void *); void *arg; } Start;

static void uc_trampoline(unsigned hi, unsigned lo) {
  Start *s = (Start *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);
  s->entry(s->arg);
}

void rt_fiber_init(RtFiberCtx *f, RtFiberStack *st, void (*entry)(void *), void *arg) {
  UNPOISON(st->top - st->size, st->size);
  /* the start record lives at the top of the fiber's own stack */
  Start *s = (Start *)(((uintptr_t)stack_top(st) - sizeof(Start)) & ~(uintptr_t)15);
  s->entry = entry;
  s->arg = arg;
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = st->top - st->size;
  f->uc.uc_stack.ss_size = (size_t)((char *)s - (char *)f->uc.uc_stack.ss_sp);
  f->uc.uc_link = NULL;
  uintptr_t p = (uintptr_t)s;
  makecontext(&f->uc, (void (*)(void))uc_trampoline, 2, (unsigned)(p >> 16 >> 16), (unsigned)p);
}

void rt_fiber_switch(RtFiberCtx *from, RtFiberCtx *to) { swapcontext(&from->uc, &to->uc); }

#endif
