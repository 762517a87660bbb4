#!/usr/bin/python3
"""pngcheck.py: what a PNG holds, for the picture and browser tests, with
the standard library only (8-bit, non-interlaced: what gnuplot's pngcairo
and Chromium write).

Usage: pngcheck.py FILE.png
       pngcheck.py --band TOP BOTTOM FILE.png
Prints "WIDTH HEIGHT COLOURS COMMONEST_SHARE INK_SHARE DATA_SHARE" about the
middle of the picture (the central 60 % each way, where the plot area is):
INK_SHARE is the share that is not the background, DATA_SHARE the share in
colour (a chroma, max - min of R, G and B, of 48 or more). Axes, tics,
grid, titles and labels are black or grey, the data pictures draw (bars,
lines, cells) are coloured, so an empty plot area has a DATA_SHARE of 0
whatever its size. With --band, prints "INK_ROWS INK_SHARE LINES FIRST DATA" of
the rows TOP to BOTTOM - 1 (a picture's heading): how many of them hold a
pixel that is not the background, the share of their pixels that are
not, how many runs of such rows there are between blank rows (lines of
text), the first such row (-1 for none), and the share of its pixels in
colour (DATA_SHARE's measure: a heading is black on white).
Exits 1 when the file is not such a PNG.
"""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
CHROMA = 48


def decode(data):
    """Width, height, and the rows as lists of pixel tuples."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, palette = 8, b"", None
    width = height = depth = ctype = interlace = None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if width is None or depth != 8 or interlace or ctype not in CHANNELS:
        raise ValueError("unsupported PNG (depth %s, colour type %s)" % (depth, ctype))
    bpp = CHANNELS[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        px = [tuple(line[i:i + bpp]) for i in range(0, stride, bpp)]
        if palette is not None:
            px = [palette[p[0]] for p in px]
        rows.append(px)
    return width, height, rows


def summary(data, step=3):
    """Width, height, colours seen and the commonest colour's share, on
    every step-th pixel each way."""
    w, h, rows = decode(data)
    counts = {}
    for y in range(0, h, step):
        for p in rows[y][::step]:
            counts[p] = counts.get(p, 0) + 1
    total = sum(counts.values()) or 1
    return w, h, len(counts), max(counts.values()) / total if counts else 1.0


def background(rows):
    """The picture's commonest colour, on every other pixel of each row."""
    counts = {}
    for row in rows:
        for p in row[::2]:
            counts[p] = counts.get(p, 0) + 1
    return max(counts, key=counts.get)


def ink(data):
    """The shares of the middle 60 % of the picture that are not the
    picture's commonest colour (its background), and that are in colour
    (the data)."""
    w, h, rows = decode(data)
    bg = background(rows)
    inked = coloured = total = 0
    for y in range(h // 5, h - h // 5):
        for p in rows[y][w // 5:w - w // 5]:
            total += 1
            inked += p != bg
            coloured += max(p[:3]) - min(p[:3]) >= CHROMA
    return (inked / total, coloured / total) if total else (0.0, 0.0)


def band(data, top, bottom):
    """The rows top..bottom-1 that hold ink, and their share of ink."""
    w, h, rows = decode(data)
    bg = background(rows)
    ink_rows = inked = total = lines = coloured = 0
    first, prev = -1, False
    for y in range(max(top, 0), min(bottom, h)):
        n = sum(p != bg for p in rows[y])
        coloured += sum(max(p[:3]) - min(p[:3]) >= CHROMA for p in rows[y])
        ink_rows += n > 0
        inked += n
        total += w
        lines += n > 0 and not prev
        first = y if n > 0 and first < 0 else first
        prev = n > 0
    share = (inked / total, coloured / total) if total else (0.0, 0.0)
    return ink_rows, share[0], lines, first, share[1]


def main():
    if sys.argv[1] == "--band":
        with open(sys.argv[4], "rb") as f:
            data = f.read()
        try:
            ink_rows, share, lines, first, data_share = band(data, int(sys.argv[2]), int(sys.argv[3]))
        except (ValueError, zlib.error, struct.error) as e:
            print("%s: %s" % (sys.argv[4], e))
            return 1
        print("%d %.4f %d %d %.4f" % (ink_rows, share, lines, first, data_share))
        return 0
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        w, h, colours, share = summary(data)
        middle, coloured = ink(data)
    except (ValueError, zlib.error, struct.error) as e:
        print("%s: %s" % (sys.argv[1], e))
        return 1
    print("%d %d %d %.4f %.4f %.4f" % (w, h, colours, share, middle, coloured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
