#!/usr/bin/env python3
"""Checks that a frame shows the sim: its size, and enough sky and enough terrain that it is not a
black, blank or half-drawn screen. Reads PNG (8-bit RGB/RGBA, as the game and QEMU write them)
and PPM (QEMU's screendump), and converts PPM to PNG. Standard library only.

usage: image_check.py FILE [--size WxH] [--min-sky F] [--min-ground F] [--min-dark F]
                         [--min-colours N] [--max-colours N] [--png OUT.png]
Prints one line: size, fractions of sky, ground, dark pixels, distinct colours; exit 1 when a
requirement fails (the line says which)."""
import argparse
import struct
import sys
import zlib


def read_png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("only 8-bit RGB/RGBA non-interlaced PNG is read here")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if width is None:
        raise ValueError("PNG without IHDR")
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
        rows.append(bytes(line))
        prev = line
    pixels = [tuple(r[x * bpp:x * bpp + 3]) for r in rows for x in range(width)]
    return width, height, pixels


def read_ppm(data):
    # P6, maxval 255: "P6\n<w> <h>\n255\n" then RGB bytes (comments are not written by QEMU).
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(int(data[start:pos]))
    pos += 1
    width, height, maxval = fields
    if maxval != 255:
        raise ValueError("only 8-bit PPM is read here")
    body = data[pos:pos + width * height * 3]
    return width, height, [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]


def write_png(path, width, height, pixels):
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for r, g, b in pixels[y * width:(y + 1) * width]:
            raw += bytes((r, g, b))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


def classify(pixels):
    """Sky: blue leads (the dome, haze and fog are blue-grey to blue). Ground: red or green leads
    blue (grass, rock, sand, the abyss's brown). Dark: nearly black (an undrawn screen)."""
    sky = ground = dark = 0
    for r, g, b in pixels:
        if max(r, g, b) < 24:
            dark += 1
        elif b > r + 8 and b >= g:
            sky += 1
        elif r > b + 8 or g > b + 8:
            ground += 1
    n = float(len(pixels)) or 1.0
    return sky / n, ground / n, dark / n, len(set(pixels))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--size", help="required size WxH")
    ap.add_argument("--min-sky", type=float, default=0.0)
    ap.add_argument("--min-ground", type=float, default=0.0)
    ap.add_argument("--min-dark", type=float, default=0.0)
    ap.add_argument("--min-colours", type=int, default=16)
    ap.add_argument("--max-colours", type=int, default=0, help="at most this many (a text console); 0: no limit")
    ap.add_argument("--png", help="also write the frame as this PNG")
    a = ap.parse_args()
    with open(a.file, "rb") as f:
        data = f.read()
    try:
        width, height, pixels = read_ppm(data) if data[:2] == b"P6" else read_png(data)
    except (ValueError, zlib.error, struct.error) as e:
        print("%s: cannot read: %s" % (a.file, e))
        return 1
    sky, ground, dark, colours = classify(pixels)
    line = "%s: %dx%d, sky %.1f%%, ground %.1f%%, dark %.1f%%, %d colours" % (
        a.file, width, height, sky * 100, ground * 100, dark * 100, colours)
    problems = []
    if a.size and "%dx%d" % (width, height) != a.size:
        problems.append("size is not %s" % a.size)
    if colours < a.min_colours:
        problems.append("blank (%d colours)" % colours)
    if a.max_colours and colours > a.max_colours:
        problems.append("more than %d colours" % a.max_colours)
    if dark < a.min_dark:
        problems.append("too little dark (< %.0f%%)" % (a.min_dark * 100))
    if sky < a.min_sky:
        problems.append("too little sky (< %.0f%%)" % (a.min_sky * 100))
    if ground < a.min_ground:
        problems.append("too little terrain (< %.0f%%)" % (a.min_ground * 100))
    if a.png:
        write_png(a.png, width, height, pixels)
    print(line + ("; FAILED: " + ", ".join(problems) if problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
