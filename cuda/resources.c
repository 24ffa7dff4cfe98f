/* resources.c - kjit_resources from nvJitLink's -verbose log and the
 * cubin.  The log is ptxas's report, one block per entry function:
 *
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
 *   ptxas info    : Function properties for NAME
 *   ptxas         .     S bytes stack frame, W bytes spill stores, R bytes spill loads
 *   ptxas info    : Used N registers, used B barriers, M bytes smem, C bytes cmem[0]
 *
 * (fields with value 0 may be left out of the "Used" line).  Only blocks
 * opened by "Compiling entry function" are kernels.  The linker's own
 * summary lines ("info    : Function properties for 'NAME': used ...")
 * count the 1 KiB of shared memory the hardware reserves per block on
 * sm_80+, so only their constant bank size is read, where ptxas (sm_90)
 * leaves it out.  The cubin gives the machine-code size (.text.NAME). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/resources.h"

/* The integer before `unit` in line [s, end) ("12 registers"), or -1. */
static int64_t number_before(const char *s, const char *end, const char *unit) {
  size_t ul = strlen(unit);
  for (const char *p = s; p + ul <= end; p++) {
    if (memcmp(p, unit, ul) != 0 || p == s || p[-1] != ' ')
      continue;
    const char *q = p - 1;
    while (q > s && q[-1] >= '0' && q[-1] <= '9')
      q--;
    if (q < p - 1)
      return strtoll(q, NULL, 10);
  }
  return -1;
}

static int64_t or_zero(int64_t v) {
  return v < 0 ? 0 : v;
}

/* "Compiling entry function 'NAME' for 'sm_90'": a new entry. */
static bool parse_entry(const char *s, const char *end, kjit_resources *r) {
  static const char key[] = "Compiling entry function '";
  const char *p = strstr(s, key);
  if (!p || p >= end)
    return false;
  p += sizeof key - 1;
  const char *q = memchr(p, '\'', (size_t)(end - p));
  if (!q)
    return false;
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%.*s", (int)(q - p), p);
  const char *a = strstr(q + 1, "'sm_");
  if (a && a < end) {
    const char *b = memchr(a + 1, '\'', (size_t)(end - a - 1));
    if (b)
      snprintf(r->arch, sizeof r->arch, "%.*s", (int)(b - a - 1), a + 1);
  }
  return true;
}

/* The stack/spill line and the "Used" line of the current entry. */
static void parse_fields(const char *s, const char *end, kjit_resources *r) {
  if (number_before(s, end, "bytes stack frame") >= 0) {
    r->stack_bytes = or_zero(number_before(s, end, "bytes stack frame"));
    r->spill_store_bytes = or_zero(number_before(s, end, "bytes spill stores"));
    r->spill_load_bytes = or_zero(number_before(s, end, "bytes spill loads"));
  } else if (strstr(s, ": Used ") && strstr(s, ": Used ") < end) {
    r->registers = (int)or_zero(number_before(s, end, "registers"));
    r->barriers = (int)or_zero(number_before(s, end, "barriers"));
    r->static_shared_bytes = or_zero(number_before(s, end, "bytes smem"));
    r->const_bytes = or_zero(number_before(s, end, "bytes cmem[0]"));
  }
}

/* The linker's summary: "info    : Function properties for 'NAME':", then
 * "info    : used ..., C bytes cmem[0], ...": the constant bank of an entry
 * already read (*pending its index, -1 none), where ptxas gave none. */
static void parse_linker_line(const char *s, const char *end, kjit_resources *out, int n,
                              int *pending) {
  static const char key[] = "Function properties for '";
  const char *p = strstr(s, key);
  if (p && p < end) {
    p += sizeof key - 1;
    const char *q = memchr(p, '\'', (size_t)(end - p));
    *pending = -1;
    for (int i = 0; q && i < n; i++)
      if (strlen(out[i].name) == (size_t)(q - p) && !memcmp(out[i].name, p, (size_t)(q - p)))
        *pending = i;
    return;
  }
  if (*pending >= 0 && !out[*pending].const_bytes)
    out[*pending].const_bytes = or_zero(number_before(s, end, "bytes cmem[0]"));
  *pending = -1;
}

int rt_resources_parse(const char *log, kjit_resources *out, int max) {
  int n = 0;
  bool in_entry = false;
  int pending = -1;
  kjit_resources cur;
  for (const char *s = log; s && *s;) {
    const char *end = strchr(s, '\n');
    if (!end)
      end = s + strlen(s);
    bool ptxas = strncmp(s, "ptxas", 5) == 0;
    if (strncmp(s, "info", 4) == 0)
      parse_linker_line(s, end, out, n < max ? n : max, &pending);
    if (ptxas && parse_entry(s, end, &cur)) {
      in_entry = true;             /* an entry without a "Used" line is dropped */
    } else if (ptxas && in_entry && strstr(s, "Function properties for ") &&
               strstr(s, "Function properties for ") < end) {
      /* the entry's own block; a device function's would name another */
      const char *nm = strstr(s, "Function properties for ") + 24;
      if ((size_t)(end - nm) < strlen(cur.name) || strncmp(nm, cur.name, strlen(cur.name)))
        in_entry = false;
    } else if (ptxas && in_entry) {
      parse_fields(s, end, &cur);
      if (strstr(s, ": Used ") && strstr(s, ": Used ") < end) {
        if (n < max)
          out[n] = cur;
        n++;
        in_entry = false;
      }
    }
    s = *end ? end + 1 : end;
  }
  return n;
}

/* ----------------------------------------------------------- the ELF --- */

static uint64_t rd(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];                /* cubins are little-endian ELF64 */
  return v;
}

int64_t rt_cubin_section_size(const void *cubin, size_t len, const char *name) {
  const unsigned char *b = cubin;
  if (!b || len < 64 || memcmp(b, "\177ELF", 4) != 0 || b[4] != 2 || b[5] != 1)
    return -1;
  uint64_t shoff = rd(b + 0x28, 8);
  uint64_t shentsize = rd(b + 0x3a, 2), shnum = rd(b + 0x3c, 2), shstrndx = rd(b + 0x3e, 2);
  if (shentsize < 64 || shstrndx >= shnum || shoff > len || shnum * shentsize > len - shoff)
    return -1;
  const unsigned char *strsh = b + shoff + shstrndx * shentsize;
  uint64_t stroff = rd(strsh + 0x18, 8), strsize = rd(strsh + 0x20, 8);
  if (stroff > len || strsize > len - stroff)
    return -1;
  size_t nl = strlen(name);
  for (uint64_t i = 0; i < shnum; i++) {
    const unsigned char *sh = b + shoff + i * shentsize;
    uint64_t at = rd(sh, 4);
    if (at + nl + 1 <= strsize && memcmp(b + stroff + at, name, nl + 1) == 0)
      return (int64_t)rd(sh + 0x20, 8);
  }
  return -1;
}

int rt_max_threads_for_registers(int registers) {
  enum { REGS_PER_BLOCK = 65536, REG_UNIT = 256, MAX_THREADS = 1024 };
  if (registers <= 0)
    return MAX_THREADS;
  int per_warp = (registers * 32 + REG_UNIT - 1) / REG_UNIT * REG_UNIT;
  int threads = REGS_PER_BLOCK / per_warp * 32;
  return threads < MAX_THREADS ? threads : MAX_THREADS;
}
