#!/usr/bin/env python3
"""A small reader of animated GIF files (Python's standard library only).

    blocks(data)        the file's frames as parsed blocks, without decoding
                        their pixels: a dict with the screen's size, the loop
                        count and, per frame, its rectangle and delay
    frames(data, want)  the frames whose indices are in `want`, each composed
                        on the logical screen as rows of (r, g, b) tuples
    to_png(rows, path)  writes such a frame as a PNG file (for looking at it)

    python3 gif.py FILE.gif [FRAME OUT.png]   prints the frame count, and
                                              writes one frame as a PNG

Used by tests/plot/anim_test.py to count an animation's frames and look at
the pixels of one, and by scripts/animations.sh to show a frame.
"""
import struct
import sys
import zlib


class GifError(ValueError):
    """The data is not a GIF this reader understands."""


def _sub_blocks(data, pos):
    """The concatenated data sub-blocks starting at pos, and the position after."""
    out = bytearray()
    while True:
        if pos >= len(data):
            raise GifError("truncated data sub-blocks")
        n = data[pos]
        pos += 1
        if n == 0:
            return bytes(out), pos
        out += data[pos:pos + n]
        pos += n


def _color_table(data, pos, flags):
    """A colour table if the flags say one follows at pos: (table, new pos)."""
    if not flags & 0x80:
        return None, pos
    size = 3 * (2 << (flags & 7))
    raw = data[pos:pos + size]
    if len(raw) < size:
        raise GifError("truncated colour table")
    return [tuple(raw[i:i + 3]) for i in range(0, size, 3)], pos + size


def blocks(data):
    """Parses the GIF's blocks: screen size, loop count, and the frames."""
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise GifError("not a GIF (signature %r)" % data[:6])
    width, height, flags = struct.unpack("<HHB", data[6:11])
    gct, pos = _color_table(data, 13, flags)
    info = {"width": width, "height": height, "gct": gct, "loop": None, "frames": []}
    gce = {"delay": 0, "transparent": None, "disposal": 0}
    while True:
        if pos >= len(data):
            raise GifError("no trailer")
        b = data[pos]
        if b == 0x3B:
            return info
        if b == 0x21:
            label = data[pos + 1]
            body, pos = _sub_blocks(data, pos + 2)
            if label == 0xF9 and len(body) >= 4:
                pf, delay, tindex = struct.unpack("<BHB", body[:4])
                gce = {"delay": delay, "transparent": tindex if pf & 1 else None,
                       "disposal": (pf >> 2) & 7}
            elif label == 0xFF and body[:11] == b"NETSCAPE2.0" and len(body) >= 14:
                info["loop"] = struct.unpack("<H", body[12:14])[0]
            continue
        if b != 0x2C:
            raise GifError("unknown block 0x%02x at byte %d" % (b, pos))
        left, top, w, h, fl = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
        lct, pos = _color_table(data, pos + 10, fl)
        mincode = data[pos]
        lzw, pos = _sub_blocks(data, pos + 1)
        info["frames"].append(dict(gce, left=left, top=top, width=w, height=h, lct=lct,
                                   interlaced=bool(fl & 0x40), mincode=mincode, lzw=lzw))
        gce = {"delay": 0, "transparent": None, "disposal": 0}


def _decode_lzw(data, mincode, npixels):
    """The colour indices of one image from its LZW data."""
    clear, end = 1 << mincode, (1 << mincode) + 1
    out = bytearray()
    table = [bytes([i]) for i in range(clear)] + [b"", b""]
    size, prev = mincode + 1, None
    bits = nbits = 0
    pos = 0
    while len(out) < npixels:
        while nbits < size:
            if pos >= len(data):
                return bytes(out)
            bits |= data[pos] << nbits
            nbits += 8
            pos += 1
        code = bits & ((1 << size) - 1)
        bits >>= size
        nbits -= size
        if code == clear:
            table = table[:clear + 2]
            size, prev = mincode + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None:
                table.append(prev + entry[:1])
        elif prev is not None and code == len(table):
            entry = prev + prev[:1]
            table.append(entry)
        else:
            raise GifError("bad LZW code %d" % code)
        out += entry
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return bytes(out[:npixels])


def _deinterlace(idx, w, h):
    """Rows of an interlaced image in their display order."""
    rows = [idx[r * w:(r + 1) * w] for r in range(h)]
    order = (list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4))
             + list(range(1, h, 2)))
    out = [None] * h
    for k, r in enumerate(order):
        out[r] = rows[k]
    return b"".join(out)


def frames(data, want):
    """The frames with indices in want, composed on the screen: {index: rows}."""
    info = blocks(data)
    W, H = info["width"], info["height"]
    canvas = [[(255, 255, 255)] * W for _ in range(H)]
    got = {}
    last = max(want) if want else -1
    for k, fr in enumerate(info["frames"][:last + 1]):
        table = fr["lct"] or info["gct"]
        if table is None:
            raise GifError("frame %d has no colour table" % k)
        w, h = fr["width"], fr["height"]
        idx = _decode_lzw(fr["lzw"], fr["mincode"], w * h)
        if fr["interlaced"]:
            idx = _deinterlace(idx, w, h)
        saved = [row[:] for row in canvas] if fr["disposal"] == 3 else None
        t = fr["transparent"]
        for r in range(h):
            y = fr["top"] + r
            if y >= H:
                break
            row = canvas[y]
            base = r * w
            for c in range(w):
                x = fr["left"] + c
                if x >= W or base + c >= len(idx):
                    break
                i = idx[base + c]
                if i != t:
                    row[x] = table[i]
        if k in want:
            got[k] = [row[:] for row in canvas]
        if fr["disposal"] == 2:
            for r in range(fr["top"], min(H, fr["top"] + h)):
                for x in range(fr["left"], min(W, fr["left"] + w)):
                    canvas[r][x] = (255, 255, 255)
        elif saved is not None:
            canvas = saved
    return got


def to_png(rows, path):
    """Writes rows of (r, g, b) as an 8-bit RGB PNG file."""
    h, w = len(rows), len(rows[0])
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in rows)

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit("usage: gif.py FILE.gif [FRAME OUT.png]")
    data = open(sys.argv[1], "rb").read()
    info = blocks(data)
    delay = info["frames"][0]["delay"] if info["frames"] else "-"
    print("%s: %d x %d, %d frames, delay %s/100 s" % (sys.argv[1], info["width"], info["height"],
                                                       len(info["frames"]), delay))
    if len(sys.argv) == 4:
        k = int(sys.argv[2])
        to_png(frames(data, {k})[k], sys.argv[3])
        print("frame %d written to %s" % (k, sys.argv[3]))


if __name__ == "__main__":
    main()
