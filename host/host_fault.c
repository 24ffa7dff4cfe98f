/* host_fault.c - recovery from guest faults on the CPU target (host_fault.h).
 *
 * The handler is installed once with SA_ONSTACK | SA_SIGINFO.  It looks at
 * the calling thread's armed recovery point only: a fault in a thread that
 * runs no kernel (the host program's own bug) is passed to the previous
 * handler, or the default action is restored and the faulting instruction
 * runs again and kills the process as before.  Arming costs nothing per
 * block: a worker arms once per launch (rt_host_launch), so the kernel's
 * own code is unchanged. */
#include "host/host_fault_internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

enum { ALT_STACK_BYTES = 64 * 1024 };

static _Thread_local RtFaultPoint *tl_point;
static struct sigaction old_segv, old_bus;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void pass_on(int sig, siginfo_t *si, void *uc) {
  const struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;
  if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
    old->sa_sigaction(sig, si, uc);
    return;
  }
  if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
    old->sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);   /* returning re-runs the access: the default kills */
}

/* ---- the address of a general protection fault (x86-64) -------------- */

/* The prefixes before the opcode: REX, VEX, EVEX extend ModRM's register
 * fields; an EVEX disp8 is scaled by an operand size the opcode decides,
 * and vector (VSIB) indices are not general registers: both give up. */
typedef struct Insn {
  const uint8_t *p;      /* at the ModRM byte once decoded */
  int rex_x, rex_b;      /* the high bits of the SIB index and base */
  bool addr32, evex;
  int map, op;           /* the opcode map (0: one byte, 1: 0F, 2: 0F38, 3: 0F3A) */
} Insn;

static bool skip_prefixes(Insn *in) {
  for (const uint8_t *end = in->p + 14; in->p < end; in->p++) { /* 15 bytes at most in all */
    uint8_t b = *in->p;
    if (b == 0x64 || b == 0x65)   /* fs/gs: a base the registers do not show */
      return false;
    if (b == 0x67)
      in->addr32 = true;
    else if (b != 0x66 && b != 0xF2 && b != 0xF3 && b != 0xF0 && b != 0x2E && b != 0x36 && b != 0x3E &&
             b != 0x26)
      return true;
  }
  return false;
}

/* Reads REX/VEX/EVEX and the opcode; in->p ends at ModRM. */
static bool read_opcode(Insn *in) {
  const uint8_t *p = in->p;
  if ((*p & 0xF0) == 0x40) {     /* REX: 0100WRXB */
    in->rex_x = (*p >> 1) & 1, in->rex_b = *p & 1;
    p++;
  }
  if (*p == 0xC5) {              /* VEX, 2 bytes: map 0F, no X or B */
    in->map = 1, in->op = p[2], in->p = p + 3;
  } else if (*p == 0xC4 || *p == 0x62) { /* VEX 3 bytes, EVEX 4: ~R ~X ~B in the first */
    in->rex_x = !((p[1] >> 6) & 1), in->rex_b = !((p[1] >> 5) & 1);
    in->evex = *p == 0x62;
    in->map = p[1] & (in->evex ? 0x07 : 0x1F);
    p += in->evex ? 4 : 3;
    in->op = *p, in->p = p + 1;
  } else if (*p == 0x0F) {
    in->map = p[1] == 0x38 ? 2 : p[1] == 0x3A ? 3 : 1;
    p += in->map == 1 ? 1 : 2;
    in->op = *p, in->p = p + 1;
  } else {
    in->map = 0, in->op = *p, in->p = p + 1;
  }
  /* gathers and scatters index with a vector register */
  return !(in->map == 2 && ((in->op >= 0x90 && in->op <= 0x93) || (in->op >= 0xA0 && in->op <= 0xA3) ||
                            in->op == 0xC6 || in->op == 0xC7));
}

static uint64_t disp32(const uint8_t *p) {
  return (uint64_t)(int64_t)(int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                                      (uint32_t)p[3] << 24);
}

bool rt_fault_decode_x86(const uint8_t *code, const uint64_t regs[16], uint64_t *out) {
  Insn in = {.p = code};
  if (!code || !skip_prefixes(&in) || !read_opcode(&in))
    return false;
  uint8_t modrm = *in.p++;
  int mod = modrm >> 6, rm = modrm & 7;
  if (mod == 3 || (mod == 0 && rm == 5))   /* a register, or rip-relative (never wild) */
    return false;
  uint64_t addr = 0;
  if (rm == 4) {                           /* SIB */
    uint8_t sib = *in.p++;
    int index = ((sib >> 3) & 7) | in.rex_x << 3, base = (sib & 7) | in.rex_b << 3;
    if (index != 4)
      addr += regs[index] << (sib >> 6);
    if ((sib & 7) != 5 || mod != 0)
      addr += regs[base];
    else
      addr += disp32(in.p);
  } else {
    addr += regs[rm | in.rex_b << 3];
  }
  if (mod == 1 && in.evex)                 /* disp8 * N: N is the opcode's */
    return false;
  if (mod == 1)
    addr += (uint64_t)(int64_t)(int8_t)in.p[0];
  else if (mod == 2)
    addr += disp32(in.p);
  if (in.addr32)
    addr = (uint32_t)addr;
  /* a decode that lands on a canonical address misread the instruction */
  uint64_t top = addr >> 47;
  if (top == 0 || top == 0x1FFFF)
    return false;
  *out = addr;
  return true;
}

#if defined(__x86_64__) && defined(__linux__)
/* The general registers by their encoding number (rax, rcx, ..., r15). */
static const int greg_of[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

/* The address of a fault: si_addr, or for a general protection fault
 * (si_code SI_KERNEL, si_addr 0) the decoded operand. */
static int fault_address(const siginfo_t *si, void *uc, void **addr) {
  uint64_t a;
  *addr = si->si_addr;
  if (si->si_code != SI_KERNEL)
    return RT_FAULT_ADDR_SIGNAL;
  const greg_t *g = ((const ucontext_t *)uc)->uc_mcontext.gregs;
  uint64_t regs[16];
  for (int i = 0; i < 16; i++)
    regs[i] = (uint64_t)g[greg_of[i]];
  if (!rt_fault_decode_x86((const uint8_t *)(uintptr_t)g[REG_RIP], regs, &a))
    return RT_FAULT_ADDR_UNKNOWN;
  *addr = (void *)(uintptr_t)a;
  return RT_FAULT_ADDR_DECODED;
}
#else
static int fault_address(const siginfo_t *si, void *uc, void **addr) {
  (void)uc;
  *addr = si->si_addr;
  return RT_FAULT_ADDR_SIGNAL;
}
#endif

static void on_fault(int sig, siginfo_t *si, void *uc) {
  RtFaultPoint *p = tl_point;
  if (!p) {
    pass_on(sig, si, uc);
    return;
  }
  tl_point = p->prev;
  p->addr_known = fault_address(si, uc, &p->addr);
  p->sig = sig;
  siglongjmp(p->jb, 1);
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
}

void rt_fault_install(void) { pthread_once(&once, install); }

void rt_fault_stack_enter(RtFaultStack *s) {
  stack_t cur;
  s->installed = 0;
  if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
    return;                 /* the thread has one (the host's, or ours) */
  if (!s->mem && !(s->mem = malloc(ALT_STACK_BYTES)))
    return;
  stack_t st = {.ss_sp = s->mem, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
  s->installed = sigaltstack(&st, NULL) == 0;
}

void rt_fault_stack_leave(RtFaultStack *s) {
  if (s->installed) {
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    s->installed = 0;
  }
  free(s->mem);
  s->mem = NULL;
}

void rt_fault_arm(RtFaultPoint *p) {
  p->prev = tl_point;
  p->addr = NULL;
  p->sig = 0;
  p->addr_known = RT_FAULT_ADDR_SIGNAL;
  tl_point = p;
}

void rt_fault_disarm(RtFaultPoint *p) {
  if (tl_point == p)
    tl_point = p->prev;
}
