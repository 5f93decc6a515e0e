#!/usr/bin/env python3
"""Renders every docs/images/*.svg in headless Chromium and checks the PNG it makes: the picture's
own size (width x height from the SVG), not blank (the terminal background is not everything), with
text drawn (pixels in the foreground colour) and the box-drawing lines (pixels in the border colour).
The SVGs are the explorer's screens (Tests/ExplorerUITests/PictureTests.swift keeps them current);
this shows they also look right in a real browser. Tests/CLITests/PictureBrowserTests.swift runs it
where Debian's `chromium` is installed (with fonts-dejavu-core for the monospace face).

    python3 Scripts/render-pictures.py [--keep DIR] [--chromium PATH]
"""
import argparse
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
BACKGROUND = (0x1D, 0x1F, 0x21)
FOREGROUND = (0xD8, 0xDA, 0xDC)
BORDER = (0x7A, 0x7F, 0x85)


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, unfiltered."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: PNG type {colour} depth {depth} interlace {interlace} is not read here")
    channels = 3 if colour == 2 else 4
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(pixel, colour, tolerance=24):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def check(svg, png):
    text = svg.read_text(encoding="utf-8")
    match = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', text)
    expected = (int(match.group(1)), int(match.group(2)))
    width, height, rows = read_png(png)
    problems = []
    if (width, height) != expected:
        problems.append(f"size {width}x{height}, expected {expected[0]}x{expected[1]}")
    pixels = [p for row in rows for p in row]
    total = len(pixels)
    background = sum(1 for p in pixels if near(p, BACKGROUND, 6))
    foreground = sum(1 for p in pixels if near(p, FOREGROUND))
    border = sum(1 for p in pixels if near(p, BORDER, 10))
    colours = len(set(pixels))
    if background == total or colours < 8:
        problems.append(f"blank: {colours} colours")
    if background < total * 0.3:
        problems.append(f"only {background} of {total} pixels are the terminal background")
    if foreground < total * 0.005:
        problems.append(f"hardly any text drawn ({foreground} foreground pixels)")
    if border < (width + height):
        problems.append(f"hardly any border lines drawn ({border} border pixels)")
    return problems, f"{width}x{height}, {colours} colours, {100 * foreground / total:.1f}% text, {border} border pixels"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", help="write the PNGs into this directory")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args()
    if not args.chromium:
        sys.exit("render-pictures.py: no chromium on PATH (Debian: apt-get install chromium)")
    svgs = sorted(IMAGES.glob("*.svg"))
    if not svgs:
        sys.exit("render-pictures.py: no docs/images/*.svg")
    out = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="pictures-"))
    out.mkdir(parents=True, exist_ok=True)
    failed = False
    for svg in svgs:
        match = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg.read_text(encoding="utf-8"))
        png = out / (svg.stem + ".png")
        profile = tempfile.mkdtemp(prefix="chromium-profile-")
        command = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                   "--force-device-scale-factor=1", f"--user-data-dir={profile}",
                   f"--window-size={match.group(1)},{match.group(2)}", f"--screenshot={png}", svg.resolve().as_uri()]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        shutil.rmtree(profile, ignore_errors=True)
        if result.returncode != 0 or not png.exists():
            print(f"{svg.name}: chromium failed ({result.returncode}): {result.stderr[-2000:]}")
            failed = True
            continue
        problems, summary = check(svg, png)
        print(f"{svg.name}: {summary}" + (": " + "; ".join(problems) if problems else ": ok"))
        failed = failed or bool(problems)
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
