#!/usr/bin/env python3
"""reseal.py KEYFILE ENTRY MODE - damages a CPU-target cache entry and seals
it again with the user's integrity key, as a bug in kjit or a disk that
flips bytes under a valid seal would leave it: the entry passes its checksum
and must then be refused when it is loaded (docs/cache.md, "Entries that
cannot be loaded").  The layout is cache/cache.c's: a 96-byte header (magic,
format, section count, key echo, payload length, HMAC-SHA256 over the first
56 header bytes and the payload, last-used stamp), then sections of u32 tag,
u32 0, u64 length, the bytes and 1..8 zero bytes up to a multiple of 8.

MODE: garbage (the object is not an object file), truncated (its first
half), nosymbol (the object defines its entry under another name: it links,
the lookup fails), unresolved (the object calls a function nothing
defines: the link fails), params, flags, twoentries, othername (metadata
that disagrees with the compile)."""
import hashlib
import hmac
import struct
import sys

HOSTOBJ, META = 4, 3


def read_sections(buf):
    nsec = struct.unpack_from("<I", buf, 12)[0]
    at, out = 96, []
    for _ in range(nsec):
        tag, _, n = struct.unpack_from("<IIQ", buf, at)
        out.append([tag, bytes(buf[at + 16:at + 16 + n])])
        at += 16 + (n // 8 + 1) * 8
    return out


def write_entry(key, header, sections):
    payload = b""
    for tag, data in sections:
        payload += struct.pack("<IIQ", tag, 0, len(data)) + data + b"\0" * ((len(data) // 8 + 1) * 8 - len(data))
    head = bytearray(header[:96])
    struct.pack_into("<I", head, 12, len(sections))
    struct.pack_into("<Q", head, 48, len(payload))
    head[56:88] = hmac.new(key, bytes(head[:56]) + payload, hashlib.sha256).digest()
    return bytes(head) + payload


def damage(mode, obj, meta):
    line = meta.decode().split()
    name = line[1].encode()
    if mode == "garbage":
        return b"this is not an object file\n" * 40, meta
    if mode == "truncated":
        return obj[:len(obj) // 2], meta
    if mode == "nosymbol":  # one byte of the entry's name in the string table
        assert obj.count(name) >= 1
        other = name[:-1] + (b"0" if name[-1:] != b"0" else b"1")
        return obj.replace(name, other), meta
    if mode == "unresolved":  # a called libm or kjit function renamed: undefined
        for callee in (b"kjit_host_", b"sinf", b"sin"):
            i = obj.find(b"\0" + callee)
            if i >= 0:
                j = obj.index(b"\0", i + 1)
                return obj[:j - 1] + b"Q" + obj[j:], meta
        raise SystemExit("reseal: no external function to rename")
    if mode == "params":
        line[4] = str(int(line[4]) + 1)
    elif mode == "flags":
        line[2] = str(int(line[2]) | 1 << 9)
    elif mode == "twoentries":
        return obj, meta + meta
    elif mode == "othername":
        line[1] = line[1].replace("k__", "z__", 1)
    else:
        raise SystemExit("reseal: unknown mode " + mode)
    return obj, (" ".join(line) + "\n").encode()


def main():
    key = open(sys.argv[1], "rb").read()
    path, mode = sys.argv[2], sys.argv[3]
    buf = open(path, "rb").read()
    secs = read_sections(buf)
    obj = next(s for s in secs if s[0] == HOSTOBJ)
    meta = next(s for s in secs if s[0] == META)
    obj[1], meta[1] = damage(mode, obj[1], meta[1])
    out = write_entry(key, buf, secs)
    with open(path, "wb") as f:
        f.write(out)


main()
