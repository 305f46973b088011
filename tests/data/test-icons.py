#!/usr/bin/env python3
"""The icons render, fill their canvas like an app icon should, and the
symbolic one follows GTK's recolouring rules.

Usage: test-icons.py RSVG_CONVERT APP_ICON.svg SYMBOLIC_ICON.svg
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

rsvg, app_icon, symbolic_icon = sys.argv[1:4]
fails = 0
SVG = "{http://www.w3.org/2000/svg}"


def check(name, ok, detail=""):
    global fails
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or detail == "" else f": {detail}"))
    if not ok:
        fails += 1


def read_png_rgba(path):
    """Decode the 8-bit RGBA, non-interlaced PNG that rsvg-convert writes."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert (depth, ctype, interlace) == (8, 6, 0), (depth, ctype, interlace)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def render(svg, size, tmp):
    out = os.path.join(tmp, f"{os.path.basename(svg)}-{size}.png")
    r = subprocess.run([rsvg, "-w", str(size), "-h", str(size), "-f", "png", "-o", out, svg],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
        return None
    return read_png_rgba(out)


def coverage(rows):
    """Share of opaque pixels and the bounding box of the visible ones."""
    opaque, xs, ys = 0, [], []
    for y, row in enumerate(rows):
        for x in range(len(row) // 4):
            if row[x * 4 + 3] > 128:
                opaque += 1
                xs.append(x)
                ys.append(y)
    total = len(rows) * (len(rows[0]) // 4)
    return opaque / total, (min(xs), min(ys), max(xs), max(ys)) if xs else None


with tempfile.TemporaryDirectory() as tmp:
    for name, svg, canvas in (("app icon", app_icon, 128), ("symbolic icon", symbolic_icon, 16)):
        root = ET.parse(svg).getroot()
        check(f"{name} has a {canvas}×{canvas} canvas",
              root.get("viewBox") == f"0 0 {canvas} {canvas}", root.get("viewBox"))
        for size in sorted({canvas, 16, 48, 256}):
            img = render(svg, size, tmp)
            check(f"{name} renders at {size}px", img is not None and img[:2] == (size, size))
            if img is None:
                continue
            share, box = coverage(img[2])
            print(f"# {name} at {size}px: {share:.0%} opaque, visible box {box}")
            if name == "app icon":
                # HIG: a solid object, neither a speck nor edge to edge.
                check(f"{name} at {size}px covers 35–85% of its canvas", 0.35 <= share <= 0.85, f"{share:.2f}")
            else:
                # An outline with a trace: clearly visible but mostly see-through.
                check(f"{name} at {size}px covers 15–60% of its canvas", 0.15 <= share <= 0.60, f"{share:.2f}")
            check(f"{name} at {size}px is centred horizontally",
                  box is not None and abs((box[0] + box[2]) - (size - 1)) <= max(2, size // 16), box)

    # GTK recolours a symbolic icon by forcing its fill colour: strokes,
    # gradients, images and text would not survive that.
    root = ET.parse(symbolic_icon).getroot()
    text = open(symbolic_icon, encoding="utf-8").read()
    shapes = [e for e in root.iter() if e.tag in (SVG + "path", SVG + "rect", SVG + "circle", SVG + "ellipse", SVG + "polygon")]
    check("symbolic icon is made of filled shapes", len(shapes) >= 2)
    check("symbolic icon has no strokes",
          not any(k.startswith("stroke") or "stroke" in e.get("style", "") for e in root.iter() for k in e.attrib))
    check("symbolic icon has no gradients, images, text or filters",
          not any(e.tag in (SVG + t for t in ("linearGradient", "radialGradient", "image", "text", "filter"))
                  for e in root.iter()))
    colours = set(c.lower() for c in re.findall(r"#[0-9a-fA-F]{3,6}\b", text))
    check("symbolic icon uses only the foreground grey #2e3436", colours == {"#2e3436"}, colours)
    check("symbolic icon file name ends in -symbolic.svg", symbolic_icon.endswith("-symbolic.svg"))

sys.exit(1 if fails else 0)
