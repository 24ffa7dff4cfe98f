/* cache_lock.c - per-entry compile locks: one process compiles an entry,
 * the others wait for it and read it (docs/cache.md, "Compile once").
 *
 * A lock is flock(LOCK_EX) on <dir>/<xx>/<key hex>.lock, always taken with
 * LOCK_NB and polled, so no call ever blocks in the kernel: every wait is
 * bounded by the caller's deadline, even on a filesystem whose lock manager
 * hangs.  flock belongs to the open file description, so the kernel drops
 * it when the holder dies (however it dies): a dead holder's lock is free
 * at once and its file is reused.  The holder unlinks the file before it
 * unlocks; a waiter that then gets the lock of the unlinked inode notices
 * (the path no longer names its inode) and starts over on the new file, so
 * two processes never both believe they hold one entry's lock.  A
 * filesystem whose flock fails (ENOLCK, EINVAL, EOPNOTSUPP, ENOSYS: some
 * network filesystems) reports RT_LOCK_UNSUPPORTED: the caller compiles
 * without a lock, which is safe, since entries are published by rename. */
#include "cache/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define POLL_FIRST_NS 1000000L   /* 1 ms, doubling to ... */
#define POLL_MAX_NS 20000000L    /* ... 20 ms between tries */

static int default_flock(int fd, int op) { return flock(fd, op); }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ns(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    continue;
}

/* The path still names the inode fd has open (the holder before us did not
 * unlink it meanwhile). */
static bool still_named(int fd, int dirfd, const char *path) {
  struct stat a, b;
  return fstat(fd, &a) == 0 && fstatat(dirfd, path, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

/* O_NOFOLLOW: a link planted at the lock's name is never followed (it would
 * create a file wherever it points); O_NONBLOCK: a FIFO there cannot hang
 * the open, and flock on it fails (then: no locking). */
RtLockResult rt_file_lock_try_at(int dirfd, const char *path, RtFileLockFn fn, RtFileLock *l) {
  fn = fn ? fn : default_flock;
  l->fd = -1;
  for (int tries = 0; tries < 100; tries++) { /* a new file per unlink seen */
    int fd = openat(dirfd, path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
      close(fd);
      return RT_LOCK_UNSUPPORTED;
    }
    if (fd < 0)
      return RT_LOCK_UNSUPPORTED; /* read-only or vanished directory */
    if (fn(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      close(fd);
      if (err == EINTR)
        continue;
      /* anything but "held by another" (ENOLCK, EINVAL, EOPNOTSUPP, ENOSYS
       * on filesystems that cannot lock) means: no locking here */
      return err == EWOULDBLOCK || err == EAGAIN ? RT_LOCK_BUSY : RT_LOCK_UNSUPPORTED;
    }
    if (still_named(fd, dirfd, path)) {
      l->fd = fd;
      return RT_LOCK_TAKEN;
    }
    close(fd); /* unlinked by the holder before us: try the new file */
  }
  return RT_LOCK_BUSY;
}

RtLockResult rt_file_lock_try(const char *path, RtFileLockFn fn, RtFileLock *l) {
  return rt_file_lock_try_at(AT_FDCWD, path, fn, l);
}

RtLockResult rt_file_lock_wait_at(int dirfd, const char *path, double wait_s, RtFileLockFn fn, RtFileLock *l,
                                  bool *waited) {
  double deadline = now_s() + wait_s;
  long pause = POLL_FIRST_NS;
  *waited = false;
  for (;;) {
    RtLockResult r = rt_file_lock_try_at(dirfd, path, fn, l);
    if (r != RT_LOCK_BUSY || now_s() >= deadline)
      return r;
    *waited = true;
    sleep_ns(pause);
    pause = pause * 2 > POLL_MAX_NS ? POLL_MAX_NS : pause * 2;
  }
}

RtLockResult rt_file_lock_wait(const char *path, double wait_s, RtFileLockFn fn, RtFileLock *l,
                               bool *waited) {
  return rt_file_lock_wait_at(AT_FDCWD, path, wait_s, fn, l, waited);
}

/* Unlink first, then unlock (close): see the file comment. */
void rt_file_unlock_at(int dirfd, const char *path, RtFileLock *l) {
  if (l->fd < 0)
    return;
  if (path)
    unlinkat(dirfd, path, 0);
  close(l->fd);
  l->fd = -1;
}

void rt_file_unlock(const char *path, RtFileLock *l) { rt_file_unlock_at(AT_FDCWD, path, l); }

bool rt_file_lock_is_stale_at(int dirfd, const char *path, RtFileLockFn fn) {
  RtFileLock l;
  if (rt_file_lock_try_at(dirfd, path, fn, &l) != RT_LOCK_TAKEN)
    return false;
  rt_file_unlock_at(dirfd, path, &l);
  return true;
}

bool rt_file_lock_is_stale(const char *path, RtFileLockFn fn) {
  return rt_file_lock_is_stale_at(AT_FDCWD, path, fn);
}
