/* kjit_watchdog.c - `kjit run --timeout SECONDS`: a bound on a launch.
 *
 * A hung kernel cannot be stopped from the outside: the GPU runs it until
 * its context goes away, and the CPU target's worker threads cannot be
 * cancelled in the middle of a loop.  What ends both is the process, so
 * the watchdog is a thread that waits for the launch to finish and, when
 * the time runs out first, says which kernel overran and ends the process
 * with status 3 (the driver tears the GPU context down with it).  The clock
 * covers the whole run: reading and generating arguments, compiling,
 * launching and writing the -o files; their temporary files are removed
 * before the process ends, and it is stopped before they are renamed into
 * place, so no -o file is written.  Uses only libc and pthreads, like the
 * rest of the CLI. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli_output.h"

enum { EXIT_TIMEOUT = 3 };

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  pthread_cond_t done_cv;     /* on CLOCK_MONOTONIC, made by start */
  pthread_t thread;
  int running, done;          /* done: the launch returned (under wd_lock) */
  struct timespec deadline;   /* CLOCK_MONOTONIC */
  double seconds;
  char what[160];             /* "kernel 'k'", "@vectorize function 'f'" */
  const char *target;
  int running_kernel;         /* the launch started (else: reading inputs) */
} wd;

static void *watch(void *unused) {
  (void)unused;
  pthread_mutex_lock(&wd_lock);
  int rc = 0;
  while (!wd.done && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&wd.done_cv, &wd_lock, &wd.deadline);
  if (!wd.done) {
    /* Only async-signal-safe calls from here on: the other threads are
     * still running the kernel and may hold stdio's locks. */
    char msg[640];
    int n = wd.running_kernel
        ? snprintf(msg, sizeof msg,
                   "kjit: error: %s did not finish within %g s (--timeout) on the %s "
                   "target while compiling and running it; the run was stopped by ending the process\n"
                   "  hint: a loop whose exit condition never becomes true is the usual cause; "
                   "a longer --timeout, or none, lets a slow kernel finish\n",
                   wd.what, wd.seconds, wd.target)
        : snprintf(msg, sizeof msg,
                   "kjit: error: the run of %s did not start within %g s (--timeout): kjit was still "
                   "reading the kernel file and the inputs; the run was stopped by ending the process\n"
                   "  hint: an input that never ends (a FIFO without a writer, a slow network file) or a "
                   "costly generator is the usual cause\n",
                   wd.what, wd.seconds);
    if (n > 0 && write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
      n = 0;
    kjit_cli_out_cleanup();
    _exit(EXIT_TIMEOUT);
  }
  pthread_mutex_unlock(&wd_lock);
  return NULL;
}

/* Starts the clock for one launch; 0 on success. */
int kjit_cli_watchdog_start(double seconds, const char *what, const char *target) {
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&wd.done_cv, &ca);
  pthread_condattr_destroy(&ca);
  clock_gettime(CLOCK_MONOTONIC, &wd.deadline);
  time_t whole = (time_t)seconds;
  long nsec = wd.deadline.tv_nsec + (long)((seconds - (double)whole) * 1e9);
  wd.deadline.tv_sec += whole + nsec / 1000000000L;
  wd.deadline.tv_nsec = nsec % 1000000000L;
  wd.seconds = seconds;
  snprintf(wd.what, sizeof wd.what, "%s", what);
  wd.target = target;
  wd.done = 0;
  if (pthread_create(&wd.thread, NULL, watch, NULL) != 0) {
    pthread_cond_destroy(&wd.done_cv);
    return -1;
  }
  wd.running = 1;
  return 0;
}

void kjit_cli_watchdog_describe(const char *what, const char *target) {
  if (!wd.running)
    return;
  pthread_mutex_lock(&wd_lock);
  snprintf(wd.what, sizeof wd.what, "%s", what);
  wd.target = target;
  pthread_mutex_unlock(&wd_lock);
}

void kjit_cli_watchdog_launching(void) {
  pthread_mutex_lock(&wd_lock);
  wd.running_kernel = 1;
  pthread_mutex_unlock(&wd_lock);
}

/* The launch finished (well or not) in time: stop the clock. */
void kjit_cli_watchdog_stop(void) {
  if (!wd.running)
    return;
  pthread_mutex_lock(&wd_lock);
  wd.done = 1;
  pthread_cond_signal(&wd.done_cv);
  pthread_mutex_unlock(&wd_lock);
  pthread_join(wd.thread, NULL);
  pthread_cond_destroy(&wd.done_cv);
  wd.running = 0;
}
