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
#include <stdlib.h>
#include <string.h>

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

static void on_fault(int sig, siginfo_t *si, void *uc) {
  RtFaultPoint *p = tl_point;
  if (!p) {
    pass_on(sig, si, uc);
    return;
  }
  tl_point = p->prev;
  p->addr = si->si_addr;
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
  tl_point = p;
}

void rt_fault_disarm(RtFaultPoint *p) {
  if (tl_point == p)
    tl_point = p->prev;
}
