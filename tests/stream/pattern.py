#!/usr/bin/python3
"""pattern.py FILE OFFSET LENGTH WRITER: checks, independently of pfsbench's
code, that LENGTH bytes of FILE from OFFSET on are pfsbench stream's stamped
pattern of writer WRITER (docs/stream.md): every 512-byte sector of the file
starts with its own offset (64-bit little-endian), the writer (32-bit
little-endian) and "pfsS", and byte k >= 16 of every sector is
(k * 61 + 91) mod 256. Prints "ok N" or the first offset that differs, and
exits 0 or 1."""
import struct
import sys

path, off, length, writer = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
body = bytes((k * 61 + 91) % 256 for k in range(512))
with open(path, "rb") as f:
    f.seek(off)
    data = f.read(length)
if len(data) != length:
    print("short: %d of %d bytes at offset %d" % (len(data), length, off))
    sys.exit(1)
pos = 0
while pos < length:
    o = off + pos
    s = o - o % 512
    sector = struct.pack("<QI", s, writer) + b"pfsS" + body[16:]
    k = o - s
    n = min(512 - k, length - pos)
    if data[pos:pos + n] != sector[k:k + n]:
        i = next(i for i in range(n) if data[pos + i] != sector[k + i])
        print("differs at offset %d: 0x%02x, want 0x%02x" % (o + i, data[pos + i], sector[k + i]))
        sys.exit(1)
    pos += n
print("ok %d" % length)
